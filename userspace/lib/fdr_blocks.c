// SPDX-License-Identifier: GPL-2.0
/* Per-task FDR blocks from per-CPU events; see fdr_blocks.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "fdr_blocks.h"
#include "fdr_writer.h"
#include "tb_cli.h"

/*
 * What a block holds until the file is written: the events in this
 * unit's own spill format (not FDR), replayed through the FDR writer at
 * the end, when the blocks are in order.
 */
struct item {
	uint64_t tsc;		/* absolute, already clamped */
	uint32_t id;
	uint8_t type;		/* enum tb_fdr_ev */
	uint8_t nargs;
	uint16_t pad;
	uint64_t args[];
};

/* A block being built: one task's run on one CPU. */
struct tb_fdr_stream {
	bool open;
	bool pending;		/* a switch named the next task, no block yet */
	uint32_t tid, tgid;
	uint64_t base;		/* the block's NewCPUId time (task came in) */
	uint64_t last;		/* absolute time of the last record */
	uint64_t start;		/* first record's time: the sort key */
	unsigned char *buf;	/* struct item, one after the other */
	size_t len, cap;
};

/* A finished block in the spill file. */
struct tb_fdr_block_ref {
	uint64_t start;
	uint64_t seq;		/* tie breaker: keeps a stable order */
	uint64_t off;
	uint64_t len;
	uint64_t base;
	uint32_t tid, tgid;
	uint32_t cpu;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		tb_die(TB_EXIT_FAIL, "out of memory");
	return p;
}

int tb_fdr_blocks_init(struct tb_fdr_blocks *b, unsigned int nr_cpus)
{
	memset(b, 0, sizeof(*b));
	b->nr_cpus = nr_cpus;
	b->streams = calloc(nr_cpus, sizeof(*b->streams));
	if (!b->streams)
		return -ENOMEM;
	b->spill = tmpfile();
	if (!b->spill) {
		free(b->streams);
		return -errno;
	}
	return 0;
}

/*
 * @base is the time the task started running here (NewCPUId), @first the
 * time of the block's first record: blocks are sorted by @first, so that
 * the file's first record is its earliest.
 */
static void stream_open(struct tb_fdr_stream *s, uint32_t tid, uint32_t tgid,
			uint64_t base, uint64_t first)
{
	s->open = true;
	s->pending = false;
	s->tid = tid;
	s->tgid = tgid;
	s->base = base;
	s->start = first;
	s->last = base;
	s->len = 0;
}

/*
 * Records of one CPU can arrive slightly out of order when a program
 * interrupted another one on that CPU; they are clamped to the previous
 * time so that the thread's time never runs backwards.
 */
static void stream_add(struct tb_fdr_blocks *b, struct tb_fdr_stream *s,
		       uint64_t ts, uint32_t id, int type,
		       const uint64_t *args, unsigned int nargs)
{
	size_t n = sizeof(struct item) + nargs * sizeof(uint64_t);
	struct item *it;

	if (ts < s->last) {
		b->clamped++;
		ts = s->last;
	}
	s->last = ts;
	if (s->len + n > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->buf = xrealloc(s->buf, s->cap);
	}
	it = (struct item *)(s->buf + s->len);
	s->len += n;
	it->tsc = ts;
	it->id = id;
	it->type = type;
	it->nargs = nargs;
	it->pad = 0;
	if (nargs)
		memcpy(it->args, args, nargs * sizeof(uint64_t));
}

static void stream_close(struct tb_fdr_blocks *b, struct tb_fdr_stream *s,
			 unsigned int cpu)
{
	struct tb_fdr_block_ref *r;

	if (!s->open)
		return;
	s->open = false;
	if (fwrite(s->buf, s->len, 1, b->spill) != 1 && s->len)
		tb_die_errno(TB_EXIT_FAIL, "cannot write the temporary block file");
	if (b->nr_blocks == b->cap_blocks) {
		b->cap_blocks = b->cap_blocks ? b->cap_blocks * 2 : 256;
		b->blocks = xrealloc(b->blocks,
				     b->cap_blocks * sizeof(*b->blocks));
	}
	r = &b->blocks[b->nr_blocks];
	r->start = s->start;
	r->seq = b->nr_blocks++;
	r->off = b->spill_len;
	r->len = s->len;
	r->base = s->base;
	r->tid = s->tid;
	r->tgid = s->tgid;
	r->cpu = cpu;
	b->spill_len += s->len;
}

void tb_fdr_blocks_switch(struct tb_fdr_blocks *b, unsigned int cpu,
			  uint32_t tid, uint32_t tgid, uint64_t ts, bool open)
{
	struct tb_fdr_stream *s = &b->streams[cpu];

	stream_close(b, s, cpu);
	if (open) {
		stream_open(s, tid, tgid, ts, ts);
		return;
	}
	s->pending = true;
	s->tid = tid;
	s->tgid = tgid;
	s->base = ts;
}

void tb_fdr_blocks_event(struct tb_fdr_blocks *b, unsigned int cpu,
			 uint32_t tid, uint32_t tgid, uint64_t ts,
			 enum tb_fdr_ev type, uint32_t id,
			 const uint64_t *args, unsigned int nargs)
{
	struct tb_fdr_stream *s = &b->streams[cpu];

	if (!s->open || s->tid != tid) {
		uint64_t base = ts;

		stream_close(b, s, cpu);
		/* The switch time starts the block, when it named this task. */
		if (s->pending && s->tid == tid && s->base <= ts)
			base = s->base;
		stream_open(s, tid, tgid, base, ts);
	}
	stream_add(b, s, ts, id, type, args, nargs);
}

static int cmp_block(const void *a, const void *b)
{
	const struct tb_fdr_block_ref *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One block from the spill file through the FDR writer. */
static void write_block(struct tb_fdr_blocks *b, struct tb_fdr_writer *w,
			const struct tb_fdr_block_ref *r, unsigned char *buf,
			int64_t wall_off)
{
	uint64_t wall = r->base + wall_off;
	size_t off = 0;

	if (r->len && pread(fileno(b->spill), buf, r->len, r->off) !=
	    (ssize_t)r->len)
		tb_die_errno(TB_EXIT_FAIL, "cannot read the temporary block file");
	tb_fdr_begin(w, r->tgid, r->tid, r->cpu, r->base, wall / 1000000000,
		     wall % 1000000000 / 1000);
	while (off < r->len) {
		const struct item *it = (const struct item *)(buf + off);
		char text[64];
		int n;

		off += sizeof(*it) + it->nargs * sizeof(uint64_t);
		switch (it->type) {
		case TB_FDR_EV_LOST:
			n = snprintf(text, sizeof(text), TRACEBUF_FDR_LOST_FMT,
				     (unsigned long long)it->args[0]);
			tb_fdr_custom(w, it->tsc, text, n);
			break;
		case TB_FDR_EV_EXIT:
			tb_fdr_function(w, TB_FDR_EXIT, it->id, it->tsc, NULL, 0);
			break;
		default:
			tb_fdr_function(w, it->nargs ? TB_FDR_ENTER_ARGS :
					TB_FDR_ENTER, it->id, it->tsc,
					it->args, it->nargs);
			/* Instant events (faults, fork, exit): zero-length calls. */
			if (it->type == TB_FDR_EV_POINT)
				tb_fdr_function(w, TB_FDR_EXIT, it->id, it->tsc,
						NULL, 0);
		}
	}
	tb_fdr_end(w);
}

int tb_fdr_blocks_write(struct tb_fdr_blocks *b, FILE *out,
			const struct tb_fdr_header *h, int64_t wall_off)
{
	struct tb_fdr_writer w;
	unsigned char *buf = NULL;
	size_t i, max = 0;
	int ret;

	for (i = 0; i < b->nr_cpus; i++)
		stream_close(b, &b->streams[i], i);
	qsort(b->blocks, b->nr_blocks, sizeof(*b->blocks), cmp_block);
	if (fflush(b->spill))
		tb_die_errno(TB_EXIT_FAIL, "cannot write the temporary block file");
	for (i = 0; i < b->nr_blocks; i++)
		if (b->blocks[i].len > max)
			max = b->blocks[i].len;
	buf = xrealloc(NULL, max + 1);
	/* One FDR block per task run: never split by size. */
	errno = 0;
	tb_fdr_writer_init(&w, out, h, SIZE_MAX / 2);
	for (i = 0; i < b->nr_blocks; i++)
		write_block(b, &w, &b->blocks[i], buf, wall_off);
	ret = tb_fdr_writer_finish(&w);
	free(buf);
	return ret;
}

void tb_fdr_blocks_free(struct tb_fdr_blocks *b)
{
	unsigned int i;

	if (b->spill)
		fclose(b->spill);
	for (i = 0; b->streams && i < b->nr_cpus; i++)
		free(b->streams[i].buf);
	free(b->streams);
	free(b->blocks);
	memset(b, 0, sizeof(*b));
}
