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

struct tb_fdr_top {
	struct tb_fdr_report r;
	struct tb_fdr_top_row *rows;	/* sorted by key */
	size_t nrows;
	struct tb_fdr_top_task *tasks;	/* sorted by key */
	size_t ntasks;
	enum tb_fdr_top_key key;
};

/*
 * Summarize one interval's stream, @len bytes at @data, with the
 * report's options @o into @t, rows sorted by @key.  @names and @tasks
 * as for tb_fdr_report_run(); they must outlive @t.  0, -1 with @err set
 * (malformed stream), or -ENOMEM.
 */
int tb_fdr_top_run(struct tb_fdr_top *t, const void *data, size_t len,
		   const struct tb_name_map *names,
		   const struct tb_task_map *tasks,
		   const struct tb_fdr_report_opts *o, enum tb_fdr_top_key key,
		   struct tb_error *err);

/* Sort @t's rows and tasks again, by @key. */
void tb_fdr_top_sort(struct tb_fdr_top *t, enum tb_fdr_top_key key);

/* "count", "total", "p99", "max". */
const char *tb_fdr_top_key_name(enum tb_fdr_top_key key);

/* The key named @name, or the one keystroke @name[0] stands for; -1. */
int tb_fdr_top_key(const char *name);

void tb_fdr_top_free(struct tb_fdr_top *t);

#endif /* TB_FDR_TOP_H */
