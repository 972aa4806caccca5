// SPDX-License-Identifier: GPL-2.0
/* Per-task FDR blocks from per-CPU events; see collect/fdr_blocks.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "collect/fdr_blocks.h"
#include "format/fdr_writer.h"
#include "util/buf.h"

/*
 * What a block holds until it ends: the events in this unit's own compact
 * form, written through the FDR writer when the block ends (a block must
 * be complete before its BufferExtents can be written, and every CPU has
 * a block open at once).
 */
struct item {
	uint64_t tsc;		/* absolute, already clamped */
	uint32_t id;
	uint8_t type;		/* enum tb_fdr_ev */
	uint8_t nargs;
	uint16_t size;		/* TB_FDR_EV_TYPED: payload bytes in args */
	uint64_t args[];
};

/* A block being built: one task's run on one CPU. */
struct tb_fdr_stream {
	bool open;
	bool pending;		/* a switch named the next task, no block yet */
	uint32_t tid, tgid;
	uint64_t base;		/* the block's NewCPUId time (task came in) */
	uint64_t last;		/* absolute time of the last record */
	struct tb_buf items;	/* struct item, one after the other */
};

int tb_fdr_blocks_init(struct tb_fdr_blocks *b, unsigned int nr_cpus,
		       const struct tb_fdr_header *h)
{
	memset(b, 0, sizeof(*b));
	b->nr_cpus = nr_cpus;
	b->streams = calloc(nr_cpus, sizeof(*b->streams));
	b->mem = open_memstream(&b->fdr, &b->fdr_len);
	if (!b->streams || !b->mem) {
		tb_fdr_blocks_free(b);
		return -ENOMEM;
	}
	errno = 0;
	return tb_fdr_writer_init(&b->w, b->mem, h, 0);
}

/* @base is the time the task started running here (NewCPUId). */
static void stream_open(struct tb_fdr_stream *s, uint32_t tid, uint32_t tgid,
			uint64_t base)
{
	s->open = true;
	s->pending = false;
	s->tid = tid;
	s->tgid = tgid;
	s->base = base;
	s->last = base;
	s->items.len = 0;
}

/*
 * Records of one CPU can arrive slightly out of order when a program
 * interrupted another one on that CPU; they are clamped to the previous
 * time so that the thread's time never runs backwards.
 */
static struct item *stream_add(struct tb_fdr_blocks *b,
			       struct tb_fdr_stream *s, uint64_t ts,
			       uint32_t id, int type, const uint64_t *args,
			       unsigned int nargs)
{
	size_t n = sizeof(struct item) + nargs * sizeof(uint64_t);
	struct item *it;

	if (ts < s->last) {
		b->clamped++;
		ts = s->last;
	}
	s->last = ts;
	it = tb_buf_add(&s->items, n);
	if (!it) {
		b->err = -ENOMEM;
		return NULL;
	}
	it->tsc = ts;
	it->id = id;
	it->type = type;
	it->nargs = nargs;
	it->size = 0;
	if (nargs && args)
		memcpy(it->args, args, nargs * sizeof(uint64_t));
	return it;
}

/* The block's events through the FDR writer. */
static void stream_write(struct tb_fdr_blocks *b, struct tb_fdr_stream *s,
			 unsigned int cpu)
{
	struct tb_fdr_writer *w = &b->w;
	uint64_t wall = s->base + b->wall_off;
	size_t off = 0;

	tb_fdr_writer_begin(w, s->tgid, s->tid, cpu, s->base, wall / 1000000000,
			    wall % 1000000000 / 1000);
	while (off < s->items.len) {
		const struct item *it = (const struct item *)
					((char *)s->items.data + off);
		char text[64];
		int n;

		off += sizeof(*it) + it->nargs * sizeof(uint64_t);
		switch (it->type) {
		case TB_FDR_EV_LOST:
			n = snprintf(text, sizeof(text), TRACEBUF_FDR_LOST_FMT,
				     (unsigned long long)it->args[0]);
			tb_fdr_writer_custom(w, it->tsc, text, n);
			break;
		case TB_FDR_EV_COMM:
			n = snprintf(text, sizeof(text), "%s%.*s",
				     TRACEBUF_FDR_COMM_PREFIX,
				     (int)strnlen((const char *)it->args,
						  it->nargs * sizeof(uint64_t)),
				     (const char *)it->args);
			tb_fdr_writer_custom(w, it->tsc, text, n);
			break;
		case TB_FDR_EV_TYPED:
			tb_fdr_writer_typed(w, it->tsc, it->id, it->args,
					    it->size);
			break;
		case TB_FDR_EV_EXIT:
			tb_fdr_writer_function(w, TB_FDR_EXIT, it->id, it->tsc, NULL, 0);
			break;
		default:
			tb_fdr_writer_function(w, it->nargs ? TB_FDR_ENTER_ARGS :
					       TB_FDR_ENTER, it->id, it->tsc,
					       it->args, it->nargs);
			/* Instant events (faults, fork, exit): zero-length calls. */
			if (it->type == TB_FDR_EV_POINT)
				tb_fdr_writer_function(w, TB_FDR_EXIT, it->id, it->tsc,
						       NULL, 0);
		}
	}
	tb_fdr_writer_end(w);
}

static void stream_close(struct tb_fdr_blocks *b, struct tb_fdr_stream *s,
			 unsigned int cpu)
{
	if (!s->open)
		return;
	s->open = false;
	stream_write(b, s, cpu);
	b->nr_blocks++;
}

void tb_fdr_blocks_switch(struct tb_fdr_blocks *b, unsigned int cpu,
			  uint32_t tid, uint32_t tgid, uint64_t ts, bool open)
{
	struct tb_fdr_stream *s = &b->streams[cpu];

	stream_close(b, s, cpu);
	if (open) {
		stream_open(s, tid, tgid, ts);
		return;
	}
	s->pending = true;
	s->tid = tid;
	s->tgid = tgid;
	s->base = ts;
}

/* The block of @tid on @cpu, opened if another task's is. */
static struct tb_fdr_stream *task_stream(struct tb_fdr_blocks *b,
					 unsigned int cpu, uint32_t tid,
					 uint32_t tgid, uint64_t ts)
{
	struct tb_fdr_stream *s = &b->streams[cpu];

	/* A tid reused by another process is another task. */
	if (!s->open || s->tid != tid || s->tgid != tgid) {
		uint64_t base = ts;

		stream_close(b, s, cpu);
		/* The switch time starts the block, when it named this task. */
		if (s->pending && s->tid == tid && s->tgid == tgid &&
		    s->base <= ts)
			base = s->base;
		stream_open(s, tid, tgid, base);
	}
	return s;
}

void tb_fdr_blocks_event(struct tb_fdr_blocks *b, unsigned int cpu,
			 uint32_t tid, uint32_t tgid, uint64_t ts,
			 enum tb_fdr_ev type, uint32_t id,
			 const uint64_t *args, unsigned int nargs)
{
	stream_add(b, task_stream(b, cpu, tid, tgid, ts), ts, id, type,
		   args, nargs);
}

void tb_fdr_blocks_typed(struct tb_fdr_blocks *b, unsigned int cpu,
			 uint32_t tid, uint32_t tgid, uint64_t ts,
			 uint16_t type, const void *data, unsigned int size)
{
	struct tb_fdr_stream *s = task_stream(b, cpu, tid, tgid, ts);
	struct item *it;

	if (size > TB_FDR_BLOCKS_MAX_TYPED) {
		b->err = -EINVAL;	/* a caller's bug, never the input's */
		return;
	}
	it = stream_add(b, s, ts, type, TB_FDR_EV_TYPED, NULL,
			(size + 7) / 8);
	if (!it)
		return;
	it->size = size;
	memcpy(it->args, data, size);
}

int tb_fdr_blocks_finish(struct tb_fdr_blocks *b)
{
	unsigned int i;
	int ret;

	for (i = 0; i < b->nr_cpus; i++)
		stream_close(b, &b->streams[i], i);
	ret = tb_fdr_writer_finish(&b->w);
	if (fclose(b->mem) && !ret)
		ret = -ENOMEM;
	b->mem = NULL;
	return b->err ? b->err : ret;
}

void tb_fdr_blocks_free(struct tb_fdr_blocks *b)
{
	unsigned int i;

	if (b->mem)
		fclose(b->mem);
	free(b->fdr);
	free(b->w.blk);
	for (i = 0; b->streams && i < b->nr_cpus; i++)
		tb_buf_free(&b->streams[i].items);
	free(b->streams);
	memset(b, 0, sizeof(*b));
}
