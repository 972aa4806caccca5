/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two traces' summaries compared (tracebuf diff): per class and event
 * name, trace A's count, total, p50, p99 and max and the change to
 * trace B's, the largest change first, as perf diff compares two
 * profiles.  The numbers are the report's own (convert/fdr_report.h,
 * read with the same options), compared in nanoseconds so that traces
 * of two clocks compare.  A name is matched by its class and text, not
 * its id (ids are numbered per capture); a text that several ids share
 * in one trace (two static kernel functions of one name) is matched in
 * id order.
 */
#ifndef TB_FDR_DIFF_H
#define TB_FDR_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "convert/fdr_report.h"

/* The columns compared, in the order they are printed. */
enum tb_fdr_diff_col {
	TB_FDR_DIFF_COUNT,	/* completed calls, point events, markers */
	TB_FDR_DIFF_TOTAL,	/* the others: ns of the completed calls */
	TB_FDR_DIFF_P50,
	TB_FDR_DIFF_P99,
	TB_FDR_DIFF_MAX,
	TB_FDR_DIFF_NR,
};

/* A name in one trace. */
struct tb_fdr_diff_side {
	bool present;		/* the name has events in this trace */
	bool calls;		/* completed calls: times in v[] */
	bool exact;		/* p50 and p99 exact (convert/latency.h) */
	uint64_t v[TB_FDR_DIFF_NR];
};

struct tb_fdr_diff_row {
	unsigned int rc;	/* class (convert/fdr_report_class.h) */
	const char *name;	/* owned by the reports */
	unsigned int dup;	/* a text several ids share: its rank */
	struct tb_fdr_diff_side a, b;
	/* B - A; beyond int64_t, the nearest end */
	int64_t change[TB_FDR_DIFF_NR];
};

struct tb_fdr_diff {
	struct tb_fdr_diff_row *rows;	/* the largest change first */
	size_t nrows;
	enum tb_fdr_diff_col key;	/* the change sorted by */
};

/*
 * Compare @a and @b (read with the same options) into @d, sorted by the
 * size of the change in column @key, then in total, in count; equal
 * changes the larger total first, then count, class and name.  @d
 * refers to their names: they must outlive it.
 * Returns 0 or -ENOMEM.
 */
int tb_fdr_diff_run(struct tb_fdr_diff *d, struct tb_fdr_report *a,
		    struct tb_fdr_report *b, enum tb_fdr_diff_col key);

/* "count", "total", "p50", "p99", "max". */
const char *tb_fdr_diff_col_name(unsigned int col);

/* The column named @name, or -1. */
int tb_fdr_diff_col(const char *name);

void tb_fdr_diff_free(struct tb_fdr_diff *d);

#endif /* TB_FDR_DIFF_H */
