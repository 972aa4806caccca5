// SPDX-License-Identifier: GPL-2.0
/*
 * Collector post-processing: see convert/fdr_post.h.  The stream is verified and
 * split into blocks by the FDR reader; blocks are written through the FDR
 * writer.  Only the rewrite of a block's records (renumbering, leaving out
 * exits) works on the record bytes, whose layout the reader has checked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "cli/cli.h"
#include "convert/fdr_json.h"
#include "convert/fdr_post.h"
#include "convert/fdr_tfile.h"
#include "format/fdr_event.h"
#include "format/fdr_marks.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "format/task_map.h"
#include "format/xray_map.h"
#include "util/buf.h"
#include "util/bytes.h"
#include "util/companion.h"
#include "util/output.h"

struct block {
	size_t off, len;	/* in the stream, extents record included */
	int32_t tid, pid;
	uint64_t t;		/* first NewCPUId time */
	size_t seq;		/* position in the stream, for a stable sort */
	uint64_t task_first;	/* earliest time of the block's task */
	uint64_t functions;	/* its function records */
	uint64_t wall_sec;	/* its WallClockTime */
	uint32_t wall_usec;
	bool has_t;
	bool has_buffer;	/* its NewBuffer record was seen */
};

struct scan {
	struct tb_fdr_post *p;
	size_t len;		/* of the stream */
	uint64_t t0;		/* earliest time of a record llvm-xray reads */
	bool has_t0;
	struct block *v;
	size_t n, cap;
	size_t nids, capids;
	bool oom;
	/* A block is one extent that starts with its NewBuffer record. */
	const char *bad;	/* what breaks that, or NULL */
	uint64_t bad_off;
	unsigned int bad_kind;
};

static int scan_record(void *ctx, const struct tb_fdr_record *r)
{
	struct scan *s = ctx;
	struct tb_fdr_post *p = s->p;
	struct block *b = s->n ? &s->v[s->n - 1] : NULL;
	uint64_t ext;

	if (r->ignored || tb_fdr_marks_is_start(r))
		return 0;
	if ((r->kind == TB_FDR_FUNCTION || r->kind == TB_FDR_CUSTOM ||
	     r->kind == TB_FDR_TYPED) && (!s->has_t0 || r->tsc < s->t0)) {
		s->t0 = r->tsc;
		s->has_t0 = true;
	}
	/*
	 * Blocks are put in order one by one: one that carries on the
	 * block before it, or a second thread's block inside one extent
	 * (both of which fdr-dump -verify accepts) would be read without
	 * its NewBuffer, or merged as the first thread's.  The kernel
	 * writes neither.
	 */
	if (b && r->kind == TB_FDR_NEW_BUFFER && b->has_buffer)
		s->bad = "a second block in one buffer extent";
	else if (b && r->kind != TB_FDR_BUFFER_EXTENTS &&
		 r->kind != TB_FDR_NEW_BUFFER && !b->has_buffer)
		s->bad = "a buffer extent that does not start with NewBuffer";
	if (s->bad) {
		s->bad_off = r->offset;
		s->bad_kind = r->kind;
		return -1;
	}
	switch (r->kind) {
	case TB_FDR_BUFFER_EXTENTS:
		/*
		 * The reader starts a block at every BufferExtents record,
		 * one inside an extent too: the block before ends there.
		 */
		if (b && b->off + b->len > r->offset)
			b->len = r->offset - b->off;
		if (tb_buf_array_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v))) {
			s->oom = true;
			return -1;
		}
		b = &s->v[s->n];
		memset(b, 0, sizeof(*b));
		b->off = r->offset;
		/*
		 * What the reader takes of the extent: its low 32 bits (as
		 * llvm-xray), up to the end of the stream, which may come
		 * first at a record boundary (a capture cut short).
		 */
		ext = TB_FDR_META_SIZE + (uint64_t)(uint32_t)r->value;
		/* In 64 bits: 16 + 0xffffffff wraps a 32-bit size_t. */
		b->len = ext < s->len - b->off ? ext : s->len - b->off;
		b->seq = s->n++;
		break;
	case TB_FDR_NEW_BUFFER:
		if (b) {
			b->tid = r->tid;
			b->has_buffer = true;
		}
		break;
	case TB_FDR_PID:
		if (b)
			b->pid = r->pid;
		break;
	case TB_FDR_WALLCLOCK:
		if (b) {
			b->wall_sec = r->value;
			b->wall_usec = r->micros;
		}
		break;
	case TB_FDR_NEW_CPU:
		if (b && !b->has_t) {
			b->t = r->tsc;
			b->has_t = true;
		}
		break;
	case TB_FDR_FUNCTION:
		if (b)
			b->functions++;
		if (r->func_type != TB_FDR_EXIT)
			p->enters[r->func_id >> 24 & (TB_FDR_POST_SPACES - 1)]++;
		if (tb_buf_array_grow(&p->ids, &s->capids, s->nids + 1,
				      sizeof(*p->ids))) {
			s->oom = true;
			return -1;
		}
		p->ids[s->nids++] = r->func_id;
		break;
	case TB_FDR_TYPED: {
		struct tb_fdr_event ev;

		switch (tb_fdr_event_decode(r, &ev)) {
		case TB_FDR_EV_SWITCH:
			p->switches++;
			break;
		case TB_FDR_EV_WAKEUP:
			p->wakeups++;
			break;
		case TB_FDR_EV_RET:
			p->rets++;
			break;
		default:
			break;
		}
		break;
	}
	case TB_FDR_CUSTOM:
		if (r->size >= (int32_t)strlen(TRACEBUF_FDR_LOST_PREFIX) &&
		    !memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX,
			    strlen(TRACEBUF_FDR_LOST_PREFIX)))
			p->lost_reports++;
		else
			p->markers++;
		break;
	default:
		break;
	}
	return 0;
}

static int scan_header(void *ctx, const struct tb_fdr_header *h)
{
	struct scan *s = ctx;

	s->p->hdr = *h;
	return 0;
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;
	bool mx = x->tid == TRACEBUF_FDR_META_TID;
	bool my = y->tid == TRACEBUF_FDR_META_TID;

	/* An input's META block stays first (format/fdr_meta.h). */
	if (mx != my)
		return mx ? -1 : 1;
	if (x->task_first != y->task_first)
		return x->task_first < y->task_first ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_task(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* Tasks by their first event, each task's blocks by time. */
static void order_blocks(struct block *v, size_t n)
{
	size_t i, j;

	if (!n)
		return;
	/* Sorted by task and time: each task's first block is its earliest. */
	qsort(v, n, sizeof(*v), cmp_task);
	for (i = 0; i < n; i = j)
		for (j = i; j < n && v[j].pid == v[i].pid &&
		     v[j].tid == v[i].tid; j++)
			v[j].task_first = v[i].t;
	qsort(v, n, sizeof(*v), cmp_block);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void ids_finish(struct tb_fdr_post *p, size_t n)
{
	size_t i, j = 0;

	p->nids = 0;
	if (!n)
		return;
	qsort(p->ids, n, sizeof(*p->ids), cmp_u32);
	for (i = 1; i < n; i++)
		if (p->ids[i] != p->ids[j])
			p->ids[++j] = p->ids[i];
	p->nids = j + 1;
}

bool tb_fdr_post_kernel_ids(const struct tb_fdr_post *p)
{
	return p->raw || p->keep_ids;
}

/* Dense id (1..n) of a kernel id. */
static uint32_t dense_id(const struct tb_fdr_post *p, uint32_t kid)
{
	const uint32_t *r = bsearch(&kid, p->ids, p->nids, sizeof(*p->ids),
				    cmp_u32);

	return r ? (uint32_t)(r - p->ids) + 1 : kid;
}

uint32_t tb_fdr_post_kernel_id(const struct tb_fdr_post *p, uint32_t id)
{
	if (tb_fdr_post_kernel_ids(p) || !id || id > p->nids)
		return id;
	return p->ids[id - 1];
}

/* ------------------------------------------------------------ merge */

/*
 * The second pass: each task's blocks, in order, read again record by
 * record (the reader), filtered (ids renumbered, exits without their
 * entry left out) and written as one block of that task (the writer).
 */
struct task_stack {
	uint32_t *id;		/* grows: a hostile capture nests deep */
	size_t depth, cap;
};

struct merge {
	struct tb_fdr_post *p;
	struct tb_fdr_writer *w;
	struct task_stack st;
	bool open;		/* the task's block has begun */
	bool keep_args;		/* the last function record was kept */
	bool drop_ret;		/* the last record was an exit left out */
	uint64_t t0;		/* the capture's earliest time (scan.t0) */
	bool has_t0;		/* it has one: it holds a record */
	uint64_t wall_sec;	/* of the task's first block */
	uint32_t wall_usec;
	uint8_t *scratch;	/* file header + one input block */
	size_t scratch_cap;
	bool oom;
};

/* The id written for kernel id @id. */
static uint32_t merge_id(const struct merge *m, uint32_t id)
{
	return m->p->keep_ids ? id : dense_id(m->p, id);
}

/*
 * Exit @r matches the call at depth @d - 1, below the innermost open one:
 * the calls above it lost their exits (a kernel function still running
 * when the capture stopped, or its exit dropped).  Close them at this
 * time, innermost first, so that llvm-xray's stacks stay balanced.
 */
static void close_lost_exits(struct merge *m, const struct tb_fdr_record *r,
			     size_t d)
{
	struct task_stack *st = &m->st;
	struct tb_fdr_record f = *r;

	f.func_type = TB_FDR_EXIT;
	while (st->depth > d) {
		st->depth--;
		f.func_id = merge_id(m, st->id[st->depth]);
		/* The writer's errors are sticky (tb_fdr_writer_finish()). */
		tb_fdr_writer_record(m->w, &f);
		m->p->closed++;
	}
}

/*
 * Keep function record @r?  Tracks the task's call stack.  Returns 1 to
 * keep, 0 to leave out, -1 out of memory.
 */
static int keep_function(struct merge *m, const struct tb_fdr_record *r)
{
	struct task_stack *st = &m->st;
	size_t d;

	if (m->p->keep_records)
		return 1;
	if (r->func_type == TB_FDR_ENTER || r->func_type == TB_FDR_ENTER_ARGS) {
		if (tb_buf_array_grow(&st->id, &st->cap, st->depth + 1,
				      sizeof(*st->id)))
			return -1;
		st->id[st->depth++] = r->func_id;
		return 1;
	}
	for (d = st->depth; d > 0; d--)
		if (st->id[d - 1] == r->func_id)
			break;
	if (!d) {
		m->p->removed++;
		return 0;
	}
	close_lost_exits(m, r, d);
	st->depth = d - 1;
	return 1;
}

/*
 * A typed event, in its task's order.  A RET names the exit before it by
 * the kernel's id: it gets the same id as that exit, and goes with it
 * when the exit is left out.
 */
static int merge_typed(struct merge *m, const struct tb_fdr_record *r)
{
	struct tb_fdr_event ev;
	uint8_t *q;
	int ret;

	if (tb_fdr_event_decode(r, &ev) != TB_FDR_EV_RET)
		return tb_fdr_writer_record(m->w, r);
	if (m->drop_ret) {
		m->p->removed_rets++;
		return 0;
	}
	if (m->p->keep_ids)
		return tb_fdr_writer_record(m->w, r);
	/* The payload may be longer than ours (a newer recorder): all of it. */
	q = malloc((size_t)r->size);
	if (!q) {
		m->oom = true;
		return -1;
	}
	memcpy(q, r->data, (size_t)r->size);
	tb_bytes_put32(q + TRACEBUF_FDR_RET_ID, merge_id(m, ev.ret.func_id));
	ret = tb_fdr_writer_typed(m->w, r->tsc, r->event_type, q, r->size);
	free(q);
	return ret;
}

static int merge_record(void *ctx, const struct tb_fdr_record *r)
{
	struct merge *m = ctx;
	struct tb_fdr_record f;
	int ret;

	if (r->ignored)
		return 0;
	switch (r->kind) {
	case TB_FDR_WALLCLOCK:
		if (!m->open) {
			m->wall_sec = r->value;
			m->wall_usec = r->micros;
		}
		return 0;
	case TB_FDR_NEW_CPU:
		if (!m->open) {
			m->open = true;
			ret = tb_fdr_writer_begin(m->w, r->pid, r->tid, r->cpu, r->tsc,
						  m->wall_sec, m->wall_usec);
			if (ret || !m->has_t0 || r->tid == TRACEBUF_FDR_META_TID)
				return ret;
			/*
			 * llvm-xray 14's account and graph refuse every
			 * record older than the first one they read, and
			 * they read the threads in the order of a hash
			 * table: only a file whose every thread starts at
			 * the capture's earliest time is read whole.  The
			 * writer goes back to it with a TSCWrap.
			 */
			return tb_fdr_writer_custom(m->w, m->t0, TB_FDR_MARKS_START,
						    strlen(TB_FDR_MARKS_START));
		}
		/* A block's NewCPUId on the CPU we are on adds nothing. */
		if (r->cpu == m->w->cpu)
			return 0;
		return tb_fdr_writer_new_cpu(m->w, r->cpu, r->tsc);
	case TB_FDR_FUNCTION:
		ret = keep_function(m, r);
		if (ret < 0) {
			m->oom = true;
			return -1;
		}
		m->keep_args = ret;
		m->drop_ret = !ret && r->func_type == TB_FDR_EXIT;
		if (!m->keep_args)
			return 0;
		f = *r;
		f.func_id = merge_id(m, r->func_id);
		return tb_fdr_writer_record(m->w, &f);
	case TB_FDR_CALL_ARG:
		return m->keep_args ? tb_fdr_writer_record(m->w, r) : 0;
	case TB_FDR_TYPED:
		m->keep_args = false;
		ret = merge_typed(m, r);
		m->drop_ret = false;
		return ret;
	case TB_FDR_CUSTOM:
		m->keep_args = false;
		m->drop_ret = false;
		/* An input that is our output: its start is written anew. */
		return tb_fdr_marks_is_start(r) ? 0 : tb_fdr_writer_record(m->w, r);
	default:
		m->keep_args = false;
		m->drop_ret = false;
		return tb_fdr_writer_record(m->w, r);
	}
}

/*
 * Feed input block @b to merge_record(): read it again on its own, with
 * an error of its own, so that the warning of the whole read (a trace cut
 * short, said with its offsets in the input) stays.
 */
static int merge_block(struct merge *m, const uint8_t *in,
		       const struct block *b, struct tb_error *err)
{
	size_t need = TB_FDR_HEADER_SIZE + b->len;
	struct tb_error e = { 0 };
	uint8_t *q;

	if (need > m->scratch_cap) {
		q = realloc(m->scratch, need);
		if (!q) {
			tb_error_set(err, 0, "out of memory");
			return -1;
		}
		m->scratch = q;
		m->scratch_cap = need;
	}
	tb_fdr_writer_put_header(m->scratch, &m->p->hdr);
	memcpy(m->scratch + TB_FDR_HEADER_SIZE, in + b->off, b->len);
	if (tb_fdr_reader_read_mem(m->scratch, need, NULL, merge_record, m, NULL,
				   &e) == -1) {
		if (m->oom)
			tb_error_set(err, 0, "out of memory");
		else
			memcpy(err->msg, e.msg, sizeof(err->msg));
		return -1;
	}
	/* The writer's errors are sticky: tb_fdr_writer_finish() says. */
	return 0;
}

/* The blocks of task @v[0] (in order) as one block; returns the count. */
static size_t merge_task(struct merge *m, const uint8_t *in,
			 const struct block *v, size_t n, struct tb_error *err)
{
	size_t i;

	m->st.depth = 0;
	m->open = false;
	m->keep_args = false;
	m->drop_ret = false;
	for (i = 0; i < n && v[i].pid == v[0].pid && v[i].tid == v[0].tid;
	     i++)
		if (merge_block(m, in, &v[i], err))
			return 0;
	tb_fdr_writer_end(m->w);
	return i;
}

/* ------------------------------------------------------------ META */

/* A capture id: random, never 0 (0 is "none"). */
static uint64_t capture_id(void)
{
	struct timespec ts;
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id)) {
		/* No entropy yet (early boot): unique enough on this machine. */
		clock_gettime(CLOCK_REALTIME, &ts);
		id = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		id ^= (uint64_t)getpid() << 40;
	}
	return id ? id : 1;
}

/* @fn's output as text, allocated; -errno. */
static int meta_text(const struct tb_fdr_post *p, int (*fn)(const struct tb_fdr_post *p,
							FILE *f),
		     char **text, size_t *len)
{
	FILE *f;
	int ret;

	*text = NULL;
	*len = 0;
	f = open_memstream(text, len);
	if (!f)
		return -errno;
	ret = fn(p, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	return ret;
}

static int meta_capture(const struct tb_fdr_post *p, FILE *f)
{
	char id[17];

	tb_fdr_meta_id_text(p->capture_id, id);
	fprintf(f, "%s %s\n", TB_FDR_META_KEY_ID, id);
	fprintf(f, "frequency %llu\n",
		(unsigned long long)p->hdr.cycle_frequency);
	if (p->meta->capture)
		fputs(p->meta->capture, f);
	return ferror(f) ? -ENOMEM : 0;
}

static int meta_names(const struct tb_fdr_post *p, FILE *f)
{
	if (p->meta->namer)
		return tb_fdr_post_names(p, f, NULL, p->meta->known,
					 p->meta->namer, p->meta->namer_ctx);
	return tb_fdr_post_names(p, f, NULL, p->meta->known,
				 tb_fdr_post_syscall_namer,
				 (void *)&p->meta->syscalls);
}

static int meta_tasks(const struct tb_fdr_post *p, FILE *f)
{
	struct tb_task_map none = { 0 };

	return tb_fdr_post_tasks(p, p->meta->tasks ? p->meta->tasks : &none, f);
}

/*
 * The META block, first: its time is the capture's earliest, as
 * TB_FDR_MARKS_START's, its wall clock the first block's.
 */
static int write_meta(struct tb_fdr_post *p, struct tb_fdr_writer *w,
		      const struct scan *s)
{
	static const struct {
		uint16_t type;
		int (*fn)(const struct tb_fdr_post *p, FILE *f);
	} part[] = {
		{ TRACEBUF_FDR_TYPED_META_CAPTURE, meta_capture },
		{ TRACEBUF_FDR_TYPED_META_NAMES, meta_names },
		{ TRACEBUF_FDR_TYPED_META_TASKS, meta_tasks },
	};
	uint64_t t = s->has_t0 ? s->t0 : 0;
	size_t i, len;
	char *text;
	int ret;

	ret = tb_fdr_writer_begin(w, 0, TRACEBUF_FDR_META_TID, 0, t,
				  s->n ? s->v[0].wall_sec : 0,
				  s->n ? s->v[0].wall_usec : 0);
	for (i = 0; !ret && i < sizeof(part) / sizeof(part[0]); i++) {
		ret = meta_text(p, part[i].fn, &text, &len);
		if (!ret)
			ret = tb_fdr_meta_write(w, t, part[i].type, text, len);
		free(text);
	}
	if (!ret)
		ret = tb_fdr_writer_end(w);
	p->out_blocks++;
	return ret;
}

int tb_fdr_post_run(struct tb_fdr_post *p, const void *buf, size_t len,
		    FILE *out, struct tb_error *err)
{
	const uint8_t *in = buf;
	struct scan s = { .p = p, .len = len };
	struct merge m = { .p = p };
	struct tb_fdr_stats st;
	struct tb_fdr_writer w;
	int ret = -1, werr;
	size_t i, k;

	p->ids = NULL;
	p->nids = 0;
	/* A header alone (nothing recorded) is a valid, empty trace. */
	if (tb_fdr_reader_read_mem(buf, len, scan_header, scan_record, &s, &st,
				   err)) {
		if (s.oom)
			tb_error_set(err, 0, "out of memory");
		else if (s.bad)
			tb_error_set(err, s.bad_off,
				     "%s record: %s (one block per extent expected)",
				     tb_fdr_reader_kind_name(s.bad_kind), s.bad);
		goto out;
	}
	if (p->hdr.version != 5) {
		tb_error_set(err, 0, "FDR version %u, not 5", p->hdr.version);
		goto out;
	}
	/* A stream cut inside a record: its blocks end before that record. */
	for (i = 0; i < s.n; i++)
		if (s.v[i].off + s.v[i].len > st.bytes)
			s.v[i].len = st.bytes - s.v[i].off;
	p->blocks = s.n;
	/*
	 * Only the stream's first block is its META block (format/fdr_meta.h):
	 * one later (a second capture appended, a hostile file) is read by
	 * no reader, and sorted first or merged into the first as the same
	 * thread it would become one or change its texts.  Left out, counted.
	 */
	for (i = k = 0; i < s.n; i++) {
		if (s.v[i].tid == TRACEBUF_FDR_META_TID && s.v[i].seq) {
			p->meta_later++;
			p->meta_functions += s.v[i].functions;
			continue;
		}
		s.v[k++] = s.v[i];
	}
	s.n = k;
	m.t0 = s.t0;
	m.has_t0 = s.has_t0;
	ids_finish(p, s.nids);
	order_blocks(s.v, s.n);
	errno = 0;
	tb_fdr_writer_init(&w, out, &p->hdr, 0);
	m.w = &w;
	if (p->meta) {
		if (!p->capture_id)
			p->capture_id = capture_id();
		werr = -write_meta(p, &w, &s);
		if (werr) {
			tb_fdr_writer_finish(&w);
			tb_error_set(err, 0, "cannot write the trace's names: %s",
				     strerror(werr));
			goto out;
		}
	}
	for (i = 0; i < s.n; i += k) {
		/* An input's META block: this one's is written above. */
		if (p->meta && s.v[i].tid == TRACEBUF_FDR_META_TID) {
			p->meta_functions += s.v[i].functions;
			k = 1;
			continue;
		}
		if (p->raw) {
			/*
			 * The device's block, extents record left to the
			 * writer; a stream cut inside that record has none.
			 */
			size_t body = s.v[i].len > TB_FDR_META_SIZE ?
				      s.v[i].len - TB_FDR_META_SIZE : 0;

			tb_fdr_writer_block(&w, in + s.v[i].off + s.v[i].len -
					    body, body);
			k = 1;
			p->out_blocks++;
			continue;
		}
		k = merge_task(&m, in, &s.v[i], s.n - i, err);
		if (!k) {
			tb_fdr_writer_finish(&w);
			goto out;
		}
		/* Empty extents make a "task" with no block. */
		if (m.open)
			p->out_blocks++;
	}
	werr = -tb_fdr_writer_finish(&w);
	p->bytes = w.bytes;
	if (werr)
		tb_error_set(err, 0, "cannot write the trace: %s", strerror(werr));
	else
		ret = 0;
out:
	free(s.v);
	free(m.scratch);
	free(m.st.id);
	return ret;
}

/* ------------------------------------------------------------ names */

int tb_fdr_post_kernel_names(struct tb_name_map *m, const char *text)
{
	const char *line = text, *nl;

	for (; line && *line; line = nl ? nl + 1 : NULL) {
		char l[512], space[16], name[256], sym[300], *c;
		unsigned int id;
		size_t n;

		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		if (n >= sizeof(l))
			continue;
		memcpy(l, line, n);
		l[n] = 0;
		if (sscanf(l, "%x %15s %255[^\n]", &id, space, name) != 3)
			continue;
		for (c = name; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
		if (!strcmp(space, "irq"))
			snprintf(sym, sizeof(sym), "irq_%u_%s",
				 TRACEBUF_FDR_ID_KEY(id), name);
		else if (!strcmp(space, "kfunc"))
			/* Kernel functions keep their own names for llvm-xray -m. */
			snprintf(sym, sizeof(sym), "%s", name);
		else
			snprintf(sym, sizeof(sym), "%s_%s", space, name);
		if (tb_name_map_add(m, id, sym))
			return -1;
	}
	return 0;
}

void tb_fdr_post_syscall_namer(void *ctx, const struct tb_name_map *known,
			       uint32_t kid, char *out, size_t size)
{
	const struct tb_fdr_syscalls *sc = ctx;
	uint32_t key = TRACEBUF_FDR_ID_KEY(kid);

	if (TRACEBUF_FDR_ID_SPACE(kid) != TRACEBUF_FDR_SPACE_SYSCALL)
		snprintf(out, size, "fdr_%#x", kid);
	else if (sc && key < sc->n && sc->names[key])
		snprintf(out, size, "sys_%s", sc->names[key]);
	else if (key == TRACEBUF_FDR_KEY_OTHER)
		snprintf(out, size, "sys_other");	/* -1: no syscall */
	else
		snprintf(out, size, "sys_%s%u",
			 key & TRACEBUF_FDR_KEY_COMPAT ? "compat_" : "",
			 key & (TRACEBUF_FDR_KEY_COMPAT - 1));
}

int tb_fdr_post_names(const struct tb_fdr_post *p, FILE *names, FILE *map,
		      const struct tb_name_map *known, tb_fdr_namer_fn namer,
		      void *ctx)
{
	struct tb_name_map dense = { 0 };
	struct tb_error err;
	char name[320];
	int ret = 0;
	size_t i;

	if (p->capture_id) {
		char id[17];

		tb_fdr_meta_id_text(p->capture_id, id);
		fprintf(names, "%s%s\n", TB_FDR_META_NAMES_LINE, id);
	}
	fprintf(names, "# function ids of the trace (%s), then the kernel id\n",
		tb_fdr_post_kernel_ids(p) ? "kernel ids" : "dense, 1..N");
	fprintf(names, "# ID NAME\n# kernel id (space << 24 | key)\n");
	for (i = 0; i < p->nids; i++) {
		uint32_t kid = p->ids[i];
		uint32_t id = tb_fdr_post_kernel_ids(p) ? kid : (uint32_t)i + 1;
		const char *n = tb_name_map_find(known, kid);

		if (n)
			snprintf(name, sizeof(name), "%s", n);
		else if (namer)
			namer(ctx, known, kid, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "fdr_%#x", kid);
		fprintf(names, "%u %s\n# kernel id %#x\n", id, name, kid);
		if (map && !tb_fdr_post_kernel_ids(p) && tb_name_map_add(&dense, id, name))
			ret = -ENOMEM;
	}
	if (ferror(names) && !ret)
		ret = -EIO;
	if (map && !tb_fdr_post_kernel_ids(p) && !ret) {
		if (tb_name_map_finish(&dense, &err))
			ret = -EINVAL;
		else
			ret = tb_xray_map_write(map, &dense);
	}
	tb_name_map_free(&dense);
	return ret;
}

int tb_fdr_post_tasks(const struct tb_fdr_post *p, const struct tb_task_map *m,
		      FILE *out)
{
	char id[17];

	if (p->capture_id) {
		tb_fdr_meta_id_text(p->capture_id, id);
		fprintf(out, "%s%s\n", TB_FDR_META_TASKS_LINE, id);
	}
	return tb_task_map_write(m, out);
}

void tb_fdr_post_free(struct tb_fdr_post *p)
{
	free(p->ids);
	p->ids = NULL;
	p->nids = 0;
}
