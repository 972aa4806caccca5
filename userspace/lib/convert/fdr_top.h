/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One interval of tracebuf top: the summary of the device stream read
 * during the interval (its header, then the whole blocks of the pages
 * drained), computed by the report (convert/fdr_report.h) and cut down
 * to what a live view shows: per event name the events that ended in the
 * interval with p50, p99 and max of the calls timed in it, and per task
 * its events and time, sorted by a key the user changes.
 *
 * An interval is what was drained in it, not a window of time: a call
 * whose entry was read in one interval and its exit in a later one is
 * counted in the later one, where it ends, as an exit without entry (its
 * latency is not known there: its entry was summarized before), and a
 * call still open at the end of its interval is not counted in it.  So
 * every exit and point event of the capture is counted in exactly one
 * interval, and the counts of all intervals add up to what the report
 * of the whole capture gives as count + exit_no_entry + points.
 *
 * When the interval holds switch or wake-up events (typed events), its
 * scheduler lines come from the report's scheduler section
 * (convert/fdr_report_sched.h): the run-queue delays that ended in it (a
 * task switched in after a wake-up or a preemption), the tasks that
 * waited longest, and the time off a CPU by the state a task left it in.
 * A wait is counted in the interval where its switch-in is read.  One
 * whose wake-up (or preemption) was read in an earlier interval is timed
 * all the same: the report options' sched_carry carries the waits still
 * open at the end of an interval into the next one's walk, at the time
 * each began (at most one per task: one never switched in again is
 * carried on).  So, when no interval reads an event of a task older than
 * one read before it, the run-queue delay counts of all intervals add up
 * to the whole capture's report (its sched.all.count), and so do their
 * times in ticks.  Events out of that order (a CPU's page read late, a
 * clock stepped back) are walked in time order within their interval:
 * no wait is negative, but one may be counted where the whole report
 * counts none, or the reverse.  Not carried: time on and off a CPU is
 * counted only between two switches of a task read in one interval
 * (off-CPU time is a sample of the interval's sleeps, not all of them),
 * and a waiting task that was preempted is carried as a woken one.
 */
#ifndef TB_FDR_TOP_H
#define TB_FDR_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "convert/fdr_report.h"
#include "util/error.h"

/* What the rows are sorted by (largest first). */
enum tb_fdr_top_key {
	TB_FDR_TOP_COUNT,	/* events ended in the interval */
	TB_FDR_TOP_TOTAL,	/* time of the calls timed in it */
	TB_FDR_TOP_P99,
	TB_FDR_TOP_MAX,
	TB_FDR_TOP_NR,
};

/* An event name in the interval; times in nanoseconds. */
struct tb_fdr_top_row {
	const struct tb_fdr_report_func *func;	/* the report's */
	uint64_t count;		/* timed calls, exits without entry, points */
	uint64_t timed;		/* calls whose entry and exit it holds */
	uint64_t total, p50, p99, max;
};

/* A task in the interval. */
struct tb_fdr_top_task {
	const struct tb_fdr_report_task *task;	/* the report's */
	uint64_t count;		/* its events, all classes */
	uint64_t time;		/* ns in its outermost timed calls */
};

/* A task that waited for a CPU in the interval; times in nanoseconds. */
struct tb_fdr_top_wait {
	const struct tb_fdr_report_sched_task *task;	/* the report's */
	int32_t pid;		/* its process, as the report's text has it */
	uint64_t count;		/* run-queue delays ended in the interval */
	uint64_t total, p99, max;
};

/* The interval's scheduler lines; times in nanoseconds. */
struct tb_fdr_top_sched {
	bool present;		/* it holds switch or wake-up events */
	uint64_t switches, wakeups;
	uint64_t malformed;	/* of them too short to read, left out */
	uint64_t carried;	/* waits carried in from the interval before */
	uint64_t waiting;	/* waits still open at its end */
	uint64_t count;		/* run-queue delays ended in it */
	uint64_t total, p50, p99, max;
	uint64_t off[TRACEBUF_FDR_STATES];	/* time off a CPU by state */
	struct tb_fdr_top_wait *tasks;	/* sorted by key */
	size_t ntasks;
};

struct tb_fdr_top {
	struct tb_fdr_report r;
	struct tb_fdr_top_row *rows;	/* sorted by key */
	size_t nrows;
	struct tb_fdr_top_task *tasks;	/* sorted by key */
	size_t ntasks;
	struct tb_fdr_top_sched sched;
	enum tb_fdr_top_key key;
};

/*
 * Summarize one interval's stream, @len bytes at @data, with the
 * report's options @o into @t, rows sorted by @key.  @names and @tasks
 * as for tb_fdr_report_run(); they must outlive @t.  With o->sched_carry
 * set, the waits for a CPU open at the end of the interval before are
 * timed in this one, and this one's replace them.  0, -1 with @err set
 * (malformed stream), or -ENOMEM.
 */
int tb_fdr_top_run(struct tb_fdr_top *t, const void *data, size_t len,
		   const struct tb_name_map *names,
		   const struct tb_task_map *tasks,
		   const struct tb_fdr_report_opts *o, enum tb_fdr_top_key key,
		   struct tb_error *err);

/*
 * Sort @t's rows and tasks again, by @key; the tasks that waited for a
 * CPU by their delays' count, total, p99 or max.
 */
void tb_fdr_top_sort(struct tb_fdr_top *t, enum tb_fdr_top_key key);

/* "count", "total", "p99", "max". */
const char *tb_fdr_top_key_name(enum tb_fdr_top_key key);

/* The key named @name, or the one keystroke @name[0] stands for; -1. */
int tb_fdr_top_key(const char *name);

void tb_fdr_top_free(struct tb_fdr_top *t);

#endif /* TB_FDR_TOP_H */
