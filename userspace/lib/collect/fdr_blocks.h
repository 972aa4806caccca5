/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task FDR blocks from a stream of timestamped events, as a collector
 * that sees each CPU's events (not ready-made blocks) needs them: each
 * CPU's events are cut into blocks at every change of task, a block being
 * one task's run on one CPU, written through the FDR writer into an
 * in-memory FDR stream when it ends.  The blocks come in the order they
 * ended, like the kernel's per-CPU buffers: tb_fdr_post_run()
 * (convert/fdr_post.h) is the one place that puts them in order, as for the
 * module's captures.  Used by tracebuf bpf
 * (Documentation/bpf-collector.rst).
 *
 * Out of memory ends the program (exit status 1, cli/cli.h).
 */
#ifndef TB_FDR_BLOCKS_H
#define TB_FDR_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/fdr_records.h"
#include "format/fdr_writer.h"

/* What an event writes. */
enum tb_fdr_ev {
	TB_FDR_EV_ENTER,	/* function entry; with args: EnterArgs */
	TB_FDR_EV_EXIT,		/* function exit */
	TB_FDR_EV_POINT,	/* an instant: entry and exit at the same time */
	TB_FDR_EV_LOST,		/* args[0] events lost: a loss marker */
	/* the task's command name, NUL-padded in the args' bytes: a marker */
	TB_FDR_EV_COMM,
	TB_FDR_EV_TYPED,	/* a typed event: tb_fdr_blocks_typed() */
};

#define TB_FDR_BLOCKS_MAX_ARGS	6

struct tb_fdr_stream;

struct tb_fdr_blocks {
	struct tb_fdr_stream *streams;	/* one per CPU */
	unsigned int nr_cpus;
	/* Set before the first event: WallClockTime = block start + this. */
	int64_t wall_off;
	struct tb_fdr_writer w;
	FILE *mem;
	char *fdr;		/* the stream, complete after ..._finish() */
	size_t fdr_len;
	size_t nr_blocks;
	uint64_t clamped;	/* events older than their predecessor */
	int err;		/* an event not kept (-ENOMEM): ..._finish()'s */
};

/*
 * For CPUs 0..@nr_cpus-1, a stream with file header @h.  Returns 0 or
 * -errno; release with tb_fdr_blocks_free() in both cases.
 */
int tb_fdr_blocks_init(struct tb_fdr_blocks *b, unsigned int nr_cpus,
		       const struct tb_fdr_header *h);

/*
 * @cpu switched to task @tid (of process @tgid) at @ts: the running
 * block ends.  With @open the next block starts now (its NewCPUId time is
 * when the task came in); without, it starts at the task's first event,
 * with @ts as its time if that event is the task's.
 */
void tb_fdr_blocks_switch(struct tb_fdr_blocks *b, unsigned int cpu,
			  uint32_t tid, uint32_t tgid, uint64_t ts, bool open);

/*
 * An event of task @tid on @cpu at @ts (nanoseconds or ticks; an event
 * older than the previous one on the CPU is clamped to its time).
 * @nargs (at most TB_FDR_BLOCKS_MAX_ARGS) arguments: an entry's
 * CallArguments, for TB_FDR_EV_LOST the count in args[0], for
 * TB_FDR_EV_COMM the name's bytes.
 */
void tb_fdr_blocks_event(struct tb_fdr_blocks *b, unsigned int cpu,
			 uint32_t tid, uint32_t tgid, uint64_t ts,
			 enum tb_fdr_ev type, uint32_t id,
			 const uint64_t *args, unsigned int nargs);

/*
 * A TypedEventMarker of @type with @size bytes of @data (at most
 * TB_FDR_BLOCKS_MAX_TYPED), an event of task @tid on @cpu at @ts as for
 * tb_fdr_blocks_event(): right after a switch that opened @tid's block it
 * is the block's first record.
 */
#define TB_FDR_BLOCKS_MAX_TYPED	(TB_FDR_BLOCKS_MAX_ARGS * 8)
void tb_fdr_blocks_typed(struct tb_fdr_blocks *b, unsigned int cpu,
			 uint32_t tid, uint32_t tgid, uint64_t ts,
			 uint16_t type, const void *data, unsigned int size);

/*
 * End every CPU's block: b->fdr and b->fdr_len then hold the stream.
 * Returns 0 or -errno (no memory, also for an event not kept before).
 */
int tb_fdr_blocks_finish(struct tb_fdr_blocks *b);

void tb_fdr_blocks_free(struct tb_fdr_blocks *b);

#endif /* TB_FDR_BLOCKS_H */
