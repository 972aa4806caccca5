/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tracebuf diff prints from a struct tb_fdr_diff: aligned text for
 * a person (each trace's heading, then per name A's values and the
 * change, in the report's units), or one JSON object for scripts (times
 * in nanoseconds).
 */
#ifndef TB_FDR_DIFF_PRINT_H
#define TB_FDR_DIFF_PRINT_H

#include <stdio.h>

#include "convert/fdr_diff.h"
#include "convert/fdr_report.h"

struct tb_fdr_diff_print {
	const char *a, *b;	/* the traces' names, for the headings */
};

/* Each returns 0 or -EIO when writing failed. */
int tb_fdr_diff_print_text(const struct tb_fdr_diff *d,
			   const struct tb_fdr_report *a,
			   const struct tb_fdr_report *b,
			   const struct tb_fdr_diff_print *p, FILE *out);
int tb_fdr_diff_print_json(const struct tb_fdr_diff *d,
			   const struct tb_fdr_report *a,
			   const struct tb_fdr_report *b,
			   const struct tb_fdr_diff_print *p, FILE *out);

#endif /* TB_FDR_DIFF_PRINT_H */
