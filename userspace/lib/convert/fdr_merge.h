/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An XRay FDR trace's events in time order, in bounded memory: the merge
 * that the converters to per-CPU formats share (fdr-ctf, fdr-tracedat).
 *
 * A CPU's events must come out in time order, and one CPU's records are
 * spread over the blocks of every task that ran on it.  Each block (or
 * the part of one up to a step back in time) is a run of records in time
 * order, so the conversion is a merge:
 *
 *  1. tb_fdr_merge_scan(): one pass over the input in file order writes
 *     each event as a compact item to a temporary file and notes where
 *     each run starts; it also learns each task's pid and name (its comm
 *     record), the children of forks, the clock's offset and the span;
 *  2. tb_fdr_merge_run(): a k-way merge over the runs (a heap of run
 *     cursors, each with a small read window on the temporary file)
 *     hands the items to the writer in time order, ties in run order.
 *
 * Memory is one cursor per run and an entry per task: the collectors'
 * files have one block per task, so runs are tasks; a capture read
 * straight from the device has one per block (tracebuf convert fdr-tidy
 * makes it one per task first).
 */
#ifndef TB_FDR_MERGE_H
#define TB_FDR_MERGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format/fdr_event.h"
#include "format/fdr_reader.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/hash.h"

/* What an item is. */
enum {
	TB_MERGE_ENTER,		/* a function's entry: id, args */
	TB_MERGE_EXIT,		/* its exit (point events have none) */
	TB_MERGE_MARKER,	/* a custom record's text: data */
	TB_MERGE_TYPED,		/* a typed event: id is its type, data */
	TB_MERGE_LOST,		/* "lost N events": args[0] is N */
};

/*
 * An item's flags.  TB_MERGE_F_RET: a syscall exit whose RET typed event
 * (uapi/linux/tracebuf_fdr.h) followed it in its task's records with the
 * exit's id; data is the returned value, 8 bytes, little-endian.  The
 * RET itself is no item: it is this exit's value.
 */
#define TB_MERGE_F_RET		(1U << 0)

struct tb_fdr_merge_item {
	uint64_t tsc;
	int32_t tid, pid;
	uint32_t id;		/* function id of the file, or typed type */
	uint32_t len;		/* payload bytes after the arguments */
	uint16_t cpu;
	uint8_t kind;
	uint8_t nargs;
	uint32_t flags;		/* TB_MERGE_F_* */
};

struct tb_fdr_merge_task {
	int32_t tid, pid;
	char comm[TB_TASK_COMM_LEN];	/* from its comm record, or "" */
	bool forked;		/* a fork in the trace made it */
};

struct tb_fdr_merge_run {
	uint64_t start, end;	/* item bytes in the temporary file */
};

/*
 * Each run's read window: 4 KiB, less when there are so many runs (a
 * capture read from the device: a block per page) that the windows
 * would pass TB_MERGE_WINDOWS_MAX together, never below
 * TB_MERGE_WINDOW_MIN.
 */
#define TB_MERGE_WINDOW		4096
#define TB_MERGE_WINDOW_MIN	256
#define TB_MERGE_WINDOWS_MAX	(16U << 20)

/* One run's next item, as the writer sees it. */
struct tb_fdr_merge_cursor {
	uint64_t off, end;
	uint8_t *win;		/* win_cap bytes */
	size_t win_cap;
	uint64_t win_off;
	size_t win_len;
	struct tb_fdr_merge_item it;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
	struct tb_buf data;
};

struct tb_fdr_merge {
	const struct tb_name_map *names;	/* may be NULL */
	FILE *tmp;
	uint64_t tmp_len;
	struct tb_fdr_call call;
	int err;
	/* runs */
	struct tb_fdr_merge_run *runs;
	size_t nruns, runcap;
	bool new_run;
	uint64_t last_tsc;
	uint64_t first, last;	/* the trace's span */
	bool has_first;
	uint32_t ncpus;		/* highest CPU of an item + 1 */
	/* an exit held back until the next record says whether a RET follows */
	struct tb_fdr_merge_item pend;
	uint64_t pend_args[TB_FDR_CALL_MAX_ARGS];
	uint8_t pend_data[8];	/* the RET's value */
	bool has_pend;
	/* typed events (format/fdr_event.h) */
	uint64_t switches;	/* SWITCH events */
	uint64_t rets;		/* RET events pinned on their exit */
	uint64_t rets_unmatched;	/* RET events without their exit: left out */
	uint64_t malformed;	/* our typed events too short for their type */
	/* tasks: tid -> index + 1 */
	struct tb_fdr_merge_task *tasks;
	size_t ntasks, taskcap;
	struct tb_hash by_tid;
	/* clock */
	uint64_t freq;		/* cycles a second, 1e9 when not said */
	bool wall_pending, has_wall;
	uint64_t wall_s;
	uint32_t wall_us;
	uint64_t wall_tsc;
};

/*
 * Pass 1: read @in (names from @names, may be NULL).  The records of the
 * trace's own description (thread TRACEBUF_FDR_META_TID) are no items and
 * no task.  0, -1 (@err), -errno.
 */
int tb_fdr_merge_scan(struct tb_fdr_merge *m, FILE *in,
		      const struct tb_name_map *names, struct tb_error *err);

typedef int (*tb_fdr_merge_fn)(void *ctx,
			       const struct tb_fdr_merge_cursor *k);

/* Pass 2: @fn for every item in time order; stops at its non-zero. */
int tb_fdr_merge_run(struct tb_fdr_merge *m, tb_fdr_merge_fn fn, void *ctx);

/* The entry of @tid, made if new (pid -1, no name); NULL: no memory. */
struct tb_fdr_merge_task *tb_fdr_merge_task(struct tb_fdr_merge *m,
					    int32_t tid);

/* The entry of @tid, or NULL. */
const struct tb_fdr_merge_task *tb_fdr_merge_find(const struct tb_fdr_merge *m,
						  int32_t tid);

/*
 * What to call @tid: its own name (from its comm record, else @tasks,
 * swapper/N for an idle task), else its process's (a thread is named as
 * the thread that made it until it names itself: the best guess for a
 * thread that began after .tasks was written), else "".  In @buf.
 */
const char *tb_fdr_merge_comm(const struct tb_fdr_merge *m,
			      const struct tb_task_map *tasks, int32_t tid,
			      char buf[TB_TASK_COMM_LEN]);

/* @tid's process: from its records, else @tasks, else @tid. */
int32_t tb_fdr_merge_pid(const struct tb_fdr_merge *m,
			 const struct tb_task_map *tasks, int32_t tid);

/*
 * The typed event of item @k (format/fdr_event.h's decoder): its kind,
 * TB_FDR_EV_NONE for an item that is not a typed event of ours or is
 * malformed.
 */
enum tb_fdr_event_kind tb_fdr_merge_event(const struct tb_fdr_merge_cursor *k,
					  struct tb_fdr_event *ev);

/*
 * The kernel's sched_switch prev_state (ftrace's and LTTng's) of a
 * TRACEBUF_FDR_STATE_*: 0 running, 0x1 S, 0x2 D, 0x4 T, 0x10 X, 0x80 I.
 */
uint32_t tb_fdr_merge_prev_state(unsigned int state);

/* The value of an exit with TB_MERGE_F_RET, else 0. */
int64_t tb_fdr_merge_ret(const struct tb_fdr_merge_cursor *k);

/* The kernel id of file id @id (0: none known). */
uint32_t tb_fdr_merge_kid(const struct tb_fdr_merge *m, uint32_t id);

/*
 * The clock's zero from the Epoch (the first WallClockTime less its
 * TSC), in seconds and cycles; false when the trace does not say.
 */
bool tb_fdr_merge_wall_zero(const struct tb_fdr_merge *m, int64_t *sec,
			    uint64_t *cycles);

void tb_fdr_merge_free(struct tb_fdr_merge *m);

#endif /* TB_FDR_MERGE_H */
