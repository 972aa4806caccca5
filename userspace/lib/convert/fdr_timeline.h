/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of an FDR trace in time order across its blocks, streamed
 * (tracebuf script).  A trace holds its records in blocks, one per task
 * (the collectors' files) or per task and CPU buffer (a capture read from
 * the device), each in time order; a listing in time order is a k-way
 * merge of the blocks:
 *
 *  - pass one reads the file once through the FDR reader (a fixed
 *    window) and keeps per block its offset, length, task and the time of
 *    its first event, and the trace's first event, clock and trigger;
 *  - pass two keeps one cursor per block in a min-heap by the time of the
 *    cursor's next event.  A cursor holds a batch of at most
 *    TB_FDR_TIMELINE_BATCH decoded events; when it runs dry it reads the
 *    next batch from where it stopped, through the same reader, over a
 *    stream made of a file header, the block's frame as it stands there
 *    (tid, pid, CPU and time: NewBuffer ... NewCPUId) and the rest of the
 *    block read with pread(), so no record is decoded twice and nothing is
 *    mapped: a cursor's batch is allocated when the merge reaches its
 *    block's first event and freed at its last.
 *
 * Memory is the index (a few words per block) plus one batch per block
 * open at once (whose time span covers the current time: each task of a
 * collector's file, about one per CPU in a device capture) plus the
 * reader's 64 KiB window during a refill; never the trace's size.
 *
 * The trace's own description (thread TRACEBUF_FDR_META_TID) is given
 * like any block, but its times set neither the first event's time nor
 * the wall clock: it is no event of the capture.
 *
 * Within a block, records stay in file order: a clock that steps back
 * inside a block makes those events earlier than the ones already given;
 * they are given in file order all the same and counted (backwards).
 */
#ifndef TB_FDR_TIMELINE_H
#define TB_FDR_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "format/fdr_reader.h"
#include "util/error.h"

#define TB_FDR_TIMELINE_BATCH	256
/* Bytes of a custom event's payload kept (markers are rarely longer). */
#define TB_FDR_TIMELINE_TEXT	240

/* One event: a function record with its arguments, or a custom event. */
struct tb_fdr_timeline_event {
	uint64_t tsc;
	uint64_t offset;	/* of the record in the file */
	int32_t tid, pid;
	uint32_t func_id;
	size_t block;		/* which block, in file order from 0 */
	uint16_t cpu;
	uint8_t kind;		/* TB_FDR_FUNCTION, _CUSTOM or _TYPED */
	uint8_t func_type;	/* TB_FDR_ENTER ... */
	uint8_t nargs;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
	int32_t size;		/* payload bytes in the file */
	uint16_t event_type;	/* typed */
	uint16_t text_len;	/* payload bytes in @text (<= TEXT) */
	char *text;
};

struct tb_fdr_timeline;

/* What pass one learned. */
struct tb_fdr_timeline_info {
	struct tb_fdr_header hdr;
	struct tb_fdr_stats stats;	/* of the reader */
	uint64_t blocks;
	bool has_first;
	uint64_t first;		/* time of the earliest event */
	/* the WallClockTime of the block that starts earliest, and its time */
	bool has_wall;
	uint64_t wall_sec;
	uint32_t wall_usec;
	uint64_t wall_tsc;
	/* the last trigger or panic event */
	bool has_trigger;
	uint64_t trigger_tsc;
};

/*
 * Pass one over the file open as @fd (read with pread(); the caller
 * keeps it open until tb_fdr_timeline_free()), every record also handed to
 * @visit (may be NULL: a caller learning what the listing needs before
 * its first line, such as the tasks' names).  Returns 0, -1 with @err set
 * (malformed input; a cut file is only a warning in @err), -ENOMEM, or
 * the visitor's value.  Free *@m in every case.
 */
int tb_fdr_timeline_open(struct tb_fdr_timeline **m, int fd, tb_fdr_visit_fn visit,
		      void *ctx, struct tb_error *err);

const struct tb_fdr_timeline_info *tb_fdr_timeline_info(const struct tb_fdr_timeline *m);

/*
 * The next event in time order: 1 with @*ev valid until the next call,
 * 0 at the end, -1 with @err set, -ENOMEM.
 */
int tb_fdr_timeline_next(struct tb_fdr_timeline *m,
		      const struct tb_fdr_timeline_event **ev,
		      struct tb_error *err);

/* Events given that are earlier than one given before them in their block. */
uint64_t tb_fdr_timeline_backwards(const struct tb_fdr_timeline *m);

/* The largest number of cursors holding a batch at once (the bound). */
size_t tb_fdr_timeline_open_max(const struct tb_fdr_timeline *m);

void tb_fdr_timeline_free(struct tb_fdr_timeline *m);

#endif /* TB_FDR_TIMELINE_H */
