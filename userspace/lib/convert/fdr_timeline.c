// SPDX-License-Identifier: GPL-2.0
/* The events of an FDR trace in time order; see convert/fdr_timeline.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "convert/fdr_timeline.h"
#include "format/fdr_meta.h"
#include "format/fdr_writer.h"
#include "util/buf.h"
#include "util/bytes.h"

/* File header, BufferExtents, NewBuffer, WallClockTime, PIDEntry, NewCPUId. */
#define FRAME_MAX	(TB_FDR_HEADER_SIZE + 5 * TB_FDR_META_SIZE)

struct block {
	uint64_t off, len;	/* in the file */
	uint64_t first;		/* time of its first event */
	bool has_first;
	bool has_buffer;	/* starts with its NewBuffer */
};

struct cursor {
	size_t blk;		/* index in blocks[], also the tie-break */
	uint64_t pos, end;	/* the rest of the block in the file */
	/* the block's state before @pos */
	int32_t tid, pid;
	uint16_t cpu;
	uint64_t tsc;
	uint64_t wall_sec;
	uint32_t wall_usec;
	bool started;		/* a batch was read */
	bool done;		/* the block's last batch was read */
	struct tb_fdr_timeline_event *ev;	/* the batch */
	unsigned int i, n;
	uint64_t last;		/* time of the last event given */
	bool has_last;
};

struct tb_fdr_timeline {
	int fd;
	uint64_t size;		/* of the file */
	struct tb_fdr_timeline_info info;
	struct block *blocks;
	size_t nblocks, cap;
	struct cursor *cursors;
	struct cursor **heap;
	size_t nheap;
	size_t open, open_max;
	uint64_t backwards;
	bool oom;
	/* pass one */
	uint64_t pending_sec;	/* the block's WallClockTime, not yet placed */
	uint32_t pending_usec;
	bool pending_wall, block_placed;
	bool extents_open;	/* v3+: an extent without its NewBuffer yet */
	tb_fdr_visit_fn visit;
	void *ctx;
};

/* ---- a stream over a frame and a byte range of the file ---- */

struct source {
	int fd;
	uint8_t frame[FRAME_MAX];
	size_t flen, fpos;
	uint64_t pos, end;
};

static ssize_t source_read(void *cookie, char *buf, size_t size)
{
	struct source *s = cookie;
	size_t n = 0;
	ssize_t got;

	if (s->fpos < s->flen) {
		n = s->flen - s->fpos < size ? s->flen - s->fpos : size;
		memcpy(buf, s->frame + s->fpos, n);
		s->fpos += n;
		if (n == size)
			return (ssize_t)n;
	}
	if (s->pos >= s->end)
		return (ssize_t)n;
	if (size - n > s->end - s->pos)
		size = n + (size_t)(s->end - s->pos);
	do {
		got = pread(s->fd, buf + n, size - n, (off_t)s->pos);
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return n ? (ssize_t)n : -1;
	s->pos += (uint64_t)got;
	return (ssize_t)(n + (size_t)got);
}

static FILE *source_open(struct source *s)
{
	cookie_io_functions_t io = { .read = source_read };

	return fopencookie(s, "r", io);
}

static void heap_sift(struct tb_fdr_timeline *m, size_t i);

/* ---- pass one: the index ---- */

static int index_header(void *ctx, const struct tb_fdr_header *h)
{
	struct tb_fdr_timeline *m = ctx;

	m->info.hdr = *h;
	return 0;
}

static struct block *index_new(struct tb_fdr_timeline *m, uint64_t off)
{
	struct block *b;

	if (tb_buf_array_grow(&m->blocks, &m->cap, m->nblocks + 1,
			      sizeof(*b))) {
		m->oom = true;
		return NULL;
	}
	b = &m->blocks[m->nblocks++];
	memset(b, 0, sizeof(*b));
	b->off = off;
	b->len = m->size - off;
	m->pending_wall = false;
	m->block_placed = false;
	return b;
}

static bool is_prefix(const struct tb_fdr_record *r, const char *p)
{
	size_t n = strlen(p);

	return r->size >= (int32_t)n && !memcmp(r->data, p, n);
}

static int index_record(void *ctx, const struct tb_fdr_record *r)
{
	struct tb_fdr_timeline *m = ctx;
	struct tb_fdr_timeline_info *in = &m->info;
	struct block *b = m->nblocks ? &m->blocks[m->nblocks - 1] : NULL;
	uint64_t ext;

	if (r->ignored || tb_fdr_meta_record(r))
		return 0;
	/*
	 * An extent whose first record is not a NewBuffer carries on the
	 * blocks before it (the reader and fdr-dump -verify accept it):
	 * read on its own, its records would have no task.  It joins the
	 * last block that has its NewBuffer, with the empty extents
	 * between, and the reader then reads that block across them all.
	 */
	if (m->extents_open && b && r->kind != TB_FDR_NEW_BUFFER &&
	    r->kind != TB_FDR_BUFFER_EXTENTS) {
		size_t k = m->nblocks - 1;

		while (k > 0 && !m->blocks[k - 1].has_buffer)
			k--;
		if (k > 0) {
			struct block *prev = &m->blocks[k - 1];

			prev->len = b->off + b->len - prev->off;
			m->nblocks = k;
			b = prev;
			m->block_placed = true;
		}
		m->extents_open = false;
	}
	if (m->visit) {
		int ret = m->visit(m->ctx, r);

		if (ret)
			return ret;
	}
	switch (r->kind) {
	case TB_FDR_BUFFER_EXTENTS:
		/*
		 * Before version 3 the reader holds no block to its extent,
		 * and one may stand anywhere, after an EndOfBuffer too: only
		 * a NewBuffer starts a block there.
		 */
		if (in->hdr.version < 3)
			return 0;
		/*
		 * A block is what one extent holds: its low 32 bits, as the
		 * reader and llvm-xray take it, up to the end of the file
		 * (a cut file), and not past the next extent.
		 */
		if (b && b->off + b->len > r->offset)
			b->len = r->offset - b->off;
		b = index_new(m, r->offset);
		if (!b)
			return -ENOMEM;
		ext = TB_FDR_META_SIZE + (uint64_t)(uint32_t)r->value;
		if (ext < b->len)
			b->len = ext;
		m->extents_open = true;
		return 0;
	case TB_FDR_NEW_BUFFER:
		/* Before version 3 a block is from a NewBuffer to the next. */
		if (in->hdr.version < 3) {
			if (b)
				b->len = r->offset - b->off;
			b = index_new(m, r->offset);
			if (!b)
				return -ENOMEM;
		}
		if (b)
			b->has_buffer = true;
		m->extents_open = false;
		m->pending_wall = false;
		m->block_placed = false;
		return 0;
	case TB_FDR_WALLCLOCK:
		m->pending_sec = r->value;
		m->pending_usec = r->micros;
		m->pending_wall = true;
		return 0;
	case TB_FDR_NEW_CPU:
		/* The wall clock of the block that starts first. */
		if (!m->block_placed && m->pending_wall &&
		    r->tid != TRACEBUF_FDR_META_TID &&
		    (!in->has_wall || r->tsc < in->wall_tsc)) {
			in->has_wall = true;
			in->wall_sec = m->pending_sec;
			in->wall_usec = m->pending_usec;
			in->wall_tsc = r->tsc;
		}
		m->block_placed = true;
		return 0;
	case TB_FDR_FUNCTION:
	case TB_FDR_CUSTOM:
	case TB_FDR_TYPED:
		if (r->kind == TB_FDR_CUSTOM &&
		    (is_prefix(r, TRACEBUF_FDR_TRIG_PREFIX) ||
		     is_prefix(r, TRACEBUF_CRASH_PANIC_PREFIX))) {
			in->has_trigger = true;
			in->trigger_tsc = r->tsc;
		}
		if (b && !b->has_first) {
			b->has_first = true;
			b->first = r->tsc;
		}
		/*
		 * The trace's own description is no event: a collector
		 * writes it when it likes (at the start, or at the end of a
		 * recovered one), and it must not move the time origin.
		 */
		if (r->tid != TRACEBUF_FDR_META_TID &&
		    (!in->has_first || r->tsc < in->first)) {
			in->has_first = true;
			in->first = r->tsc;
		}
		return 0;
	}
	return 0;
}

int tb_fdr_timeline_open(struct tb_fdr_timeline **mp, int fd, tb_fdr_visit_fn visit,
		      void *ctx, struct tb_error *err)
{
	struct tb_fdr_timeline *m;
	struct source *s;
	struct stat st;
	size_t i;
	FILE *f;
	int ret;

	*mp = NULL;
	if (fstat(fd, &st)) {
		tb_error_set(err, 0, "%s", strerror(errno));
		return -1;
	}
	m = calloc(1, sizeof(*m));
	s = calloc(1, sizeof(*s));
	if (!m || !s) {
		free(m);
		free(s);
		return -ENOMEM;
	}
	m->fd = fd;
	m->visit = visit;
	m->ctx = ctx;
	m->size = (uint64_t)st.st_size;
	*s = (struct source){ .fd = fd, .end = m->size };
	f = source_open(s);
	if (!f) {
		free(s);
		free(m);
		return -ENOMEM;
	}
	ret = tb_fdr_reader_read(f, index_header, index_record, m,
				 &m->info.stats, err);
	fclose(f);
	free(s);
	*mp = m;
	if (m->oom)
		return -ENOMEM;
	if (ret)
		return ret;	/* the reader's -1, or the visitor's value */
	m->info.blocks = m->nblocks;
	m->cursors = calloc(m->nblocks ? m->nblocks : 1, sizeof(*m->cursors));
	m->heap = calloc(m->nblocks ? m->nblocks : 1, sizeof(*m->heap));
	if (!m->cursors || !m->heap)
		return -ENOMEM;
	for (i = 0; i < m->nblocks; i++) {
		struct cursor *c = &m->cursors[i];

		if (!m->blocks[i].has_first)
			continue;
		c->blk = i;
		c->pos = m->blocks[i].off;
		c->end = m->blocks[i].off + m->blocks[i].len;
		m->heap[m->nheap++] = c;
	}
	/* Equal keys go in block order (before()): file order. */
	for (i = m->nheap / 2; i-- > 0;)
		heap_sift(m, i);
	return 0;
}

const struct tb_fdr_timeline_info *tb_fdr_timeline_info(const struct tb_fdr_timeline *m)
{
	return &m->info;
}

/* ---- pass two: the cursors ---- */

static uint64_t key(const struct tb_fdr_timeline *m, const struct cursor *c)
{
	if (!c->started)
		return m->blocks[c->blk].first;
	if (c->i < c->n)
		return c->ev[c->i].tsc;
	return c->last;
}

static bool before(const struct tb_fdr_timeline *m, const struct cursor *a,
		   const struct cursor *b)
{
	uint64_t ka = key(m, a), kb = key(m, b);

	return ka != kb ? ka < kb : a->blk < b->blk;
}

static void heap_sift(struct tb_fdr_timeline *m, size_t i)
{
	struct cursor **h = m->heap;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;
		struct cursor *t;

		if (l < m->nheap && before(m, h[l], h[min]))
			min = l;
		if (r < m->nheap && before(m, h[r], h[min]))
			min = r;
		if (min == i)
			return;
		t = h[i];
		h[i] = h[min];
		h[min] = t;
		i = min;
	}
}

static void heap_pop(struct tb_fdr_timeline *m)
{
	m->heap[0] = m->heap[--m->nheap];
	heap_sift(m, 0);
}

static void batch_clear(struct cursor *c)
{
	unsigned int k;

	for (k = 0; k < c->n; k++)
		free(c->ev[k].text);
	c->i = 0;
	c->n = 0;
}

struct fill {
	struct tb_fdr_timeline *m;
	struct cursor *c;
	uint64_t skip;		/* stream bytes before the block's: the frame */
	/* the state after the last record taken */
	int32_t tid, pid;
	uint16_t cpu;
	uint64_t tsc;
	uint64_t wall_sec;
	uint32_t wall_usec;
};

static int fill_record(void *ctx, const struct tb_fdr_record *r)
{
	struct fill *f = ctx;
	struct cursor *c = f->c;
	struct tb_fdr_timeline_event *e;
	uint64_t off;

	if (r->offset < f->skip || r->ignored || tb_fdr_meta_record(r))
		return 0;
	off = c->pos + (r->offset - f->skip);
	switch (r->kind) {
	case TB_FDR_CALL_ARG:
		/* Never the first of a batch: a batch ends before an event. */
		e = c->n ? &c->ev[c->n - 1] : NULL;
		if (e && e->kind == TB_FDR_FUNCTION &&
		    e->func_type == TB_FDR_ENTER_ARGS &&
		    e->nargs < TB_FDR_CALL_MAX_ARGS)
			e->args[e->nargs++] = r->value;
		break;
	case TB_FDR_FUNCTION:
	case TB_FDR_CUSTOM:
	case TB_FDR_TYPED:
		if (c->n == TB_FDR_TIMELINE_BATCH) {
			/* The next batch starts here, in the state before it. */
			c->pos = off;
			c->tid = f->tid;
			c->pid = f->pid;
			c->cpu = f->cpu;
			c->tsc = f->tsc;
			c->wall_sec = f->wall_sec;
			c->wall_usec = f->wall_usec;
			return 1;
		}
		e = &c->ev[c->n];
		memset(e, 0, sizeof(*e));
		e->tsc = r->tsc;
		e->offset = off;
		e->tid = r->tid;
		e->pid = r->pid;
		e->cpu = r->cpu;
		e->block = c->blk;
		e->kind = (uint8_t)r->kind;
		if (r->kind == TB_FDR_FUNCTION) {
			e->func_id = r->func_id;
			e->func_type = (uint8_t)r->func_type;
		} else {
			e->size = r->size;
			e->event_type = r->event_type;
			e->text_len = r->size < TB_FDR_TIMELINE_TEXT ?
				      (uint16_t)r->size : TB_FDR_TIMELINE_TEXT;
			e->text = malloc(e->text_len + 1U);
			if (!e->text) {
				f->m->oom = true;
				return -ENOMEM;
			}
			memcpy(e->text, r->data, e->text_len);
			e->text[e->text_len] = '\0';
		}
		c->n++;
		break;
	case TB_FDR_WALLCLOCK:
		f->wall_sec = r->value;
		f->wall_usec = r->micros;
		break;
	}
	f->tid = r->tid;
	f->pid = r->pid;
	f->cpu = r->cpu;
	f->tsc = r->tsc;
	return 0;
}

/* The frame that puts the reader in @c's state at c->pos. */
static size_t frame(const struct tb_fdr_timeline *m, const struct cursor *c,
		    uint8_t *p)
{
	const struct tb_fdr_header *h = &m->info.hdr;
	size_t n = TB_FDR_HEADER_SIZE;

	tb_fdr_writer_put_header(p, h);
	if (!c->started)
		return n;	/* the block is read from its beginning */
	if (h->version >= 3) {
		uint64_t ext = 4 * TB_FDR_META_SIZE + (c->end - c->pos);

		/*
		 * A block the file ends in lacks what pass one found cut
		 * (cut_bytes): its extent says so, so that a record cut at
		 * the end of the file reads as cut, as in pass one, not as
		 * crossing a shorter extent.
		 */
		if (c->end == m->size)
			ext += m->info.stats.cut_bytes;
		tb_fdr_writer_put_meta(p + n, TB_FDR_BUFFER_EXTENTS);
		tb_bytes_put64(p + n + TRACEBUF_FDR_FIELD, ext);
		n += TB_FDR_META_SIZE;
	}
	tb_fdr_writer_put_meta(p + n, TB_FDR_NEW_BUFFER);
	tb_bytes_put32(p + n + TRACEBUF_FDR_FIELD, (uint32_t)c->tid);
	n += TB_FDR_META_SIZE;
	tb_fdr_writer_put_meta(p + n, TB_FDR_WALLCLOCK);
	tb_bytes_put64(p + n + TRACEBUF_FDR_FIELD, c->wall_sec);
	tb_bytes_put32(p + n + TRACEBUF_FDR_WALLCLOCK_USEC, c->wall_usec);
	n += TB_FDR_META_SIZE;
	tb_fdr_writer_put_meta(p + n, TB_FDR_PID);
	tb_bytes_put32(p + n + TRACEBUF_FDR_FIELD, (uint32_t)c->pid);
	n += TB_FDR_META_SIZE;
	tb_fdr_writer_put_meta(p + n, TB_FDR_NEW_CPU);
	tb_bytes_put16(p + n + TRACEBUF_FDR_FIELD, c->cpu);
	tb_bytes_put64(p + n + TRACEBUF_FDR_NEW_CPU_TIME, c->tsc);
	return n + TB_FDR_META_SIZE;
}

/* Read @c's next batch. */
static int fill(struct tb_fdr_timeline *m, struct cursor *c, struct tb_error *err)
{
	struct source s = { .fd = m->fd, .pos = c->pos, .end = c->end };
	struct tb_error local = { 0 };
	struct fill f = {
		.m = m, .c = c, .tid = c->tid, .pid = c->pid, .cpu = c->cpu,
		.tsc = c->tsc, .wall_sec = c->wall_sec,
		.wall_usec = c->wall_usec,
	};
	FILE *in;
	int ret;

	batch_clear(c);
	if (!c->ev) {
		c->ev = malloc(TB_FDR_TIMELINE_BATCH * sizeof(*c->ev));
		if (!c->ev)
			return -ENOMEM;
		if (++m->open > m->open_max)
			m->open_max = m->open;
	}
	s.flen = frame(m, c, s.frame);
	f.skip = s.flen;
	c->started = true;
	in = source_open(&s);
	if (!in)
		return -ENOMEM;
	ret = tb_fdr_reader_read(in, NULL, fill_record, &f, NULL, &local);
	fclose(in);
	if (m->oom)
		return -ENOMEM;
	if (ret == 1)
		return 0;
	if (ret) {
		/*
		 * Pass one read these bytes: only I/O or a file changed
		 * since fails here.  Said at the file's offset, not the
		 * stream's.
		 */
		const char *why = strchr(local.msg, ':');
		uint64_t off = local.offset >= s.flen ?
			       c->pos + (local.offset - s.flen) : c->pos;

		tb_error_set(err, off, "%s (read again)",
			     why ? why + 2 : local.msg);
		return -1;
	}
	c->done = true;
	return 0;
}

static void cursor_close(struct tb_fdr_timeline *m, struct cursor *c)
{
	batch_clear(c);
	free(c->ev);
	c->ev = NULL;
	m->open--;
}

int tb_fdr_timeline_next(struct tb_fdr_timeline *m,
		      const struct tb_fdr_timeline_event **ev,
		      struct tb_error *err)
{
	struct cursor *c;
	int ret;

	while (m->nheap) {
		c = m->heap[0];
		if (c->started && c->i < c->n)
			break;
		if (c->done) {
			cursor_close(m, c);
			heap_pop(m);
			continue;
		}
		ret = fill(m, c, err);
		if (ret)
			return ret;
		heap_sift(m, 0);
	}
	if (!m->nheap)
		return 0;
	*ev = &c->ev[c->i++];
	if (c->has_last && (*ev)->tsc < c->last)
		m->backwards++;
	c->last = (*ev)->tsc;
	c->has_last = true;
	/* The batch stays until the cursor is refilled: @ev stays valid. */
	heap_sift(m, 0);
	return 1;
}

uint64_t tb_fdr_timeline_backwards(const struct tb_fdr_timeline *m)
{
	return m->backwards;
}

size_t tb_fdr_timeline_open_max(const struct tb_fdr_timeline *m)
{
	return m->open_max;
}

void tb_fdr_timeline_free(struct tb_fdr_timeline *m)
{
	size_t i;

	if (!m)
		return;
	if (m->cursors)
		for (i = 0; i < m->nblocks; i++)
			if (m->cursors[i].ev)
				cursor_close(m, &m->cursors[i]);
	free(m->cursors);
	free(m->heap);
	free(m->blocks);
	free(m);
}
