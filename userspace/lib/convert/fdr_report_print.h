/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tracebuf report prints from a struct tb_fdr_report: aligned text
 * for a person (units chosen per value, log2 histograms as bcc prints
 * them), one JSON object for scripts (times in nanoseconds), or folded
 * stacks ("task;outer;inner value" lines) for flame graphs.
 */
#ifndef TB_FDR_REPORT_PRINT_H
#define TB_FDR_REPORT_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_report.h"

struct tb_fdr_report_print {
	const char *input;	/* the trace's name, for the heading */
	const char *names;	/* the names file used, or NULL */
	const char *tasks;	/* the tasks file used, or NULL */
	unsigned int hists;	/* histograms of the N busiest names */
	bool fold_counts;	/* folded: calls, not nanoseconds */
	bool sched_only;	/* text: the heading and the scheduler only */
};

/* @ns as the report prints a time: "812 ns", "3.41 us", "12.0 ms". */
const char *tb_fdr_report_print_dur(uint64_t ns, char *buf, size_t size);

/* Each returns 0 or -EIO when writing failed. */
int tb_fdr_report_print_text(struct tb_fdr_report *r,
			     const struct tb_fdr_report_print *p, FILE *out);
int tb_fdr_report_print_json(struct tb_fdr_report *r,
			     const struct tb_fdr_report_print *p, FILE *out);
int tb_fdr_report_print_folded(const struct tb_fdr_report *r,
			       const struct tb_fdr_report_print *p,
			       FILE *out);

#endif /* TB_FDR_REPORT_PRINT_H */
