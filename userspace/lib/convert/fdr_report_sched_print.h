/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing the report's scheduler section (convert/fdr_report_sched.h):
 * tables for a person, the "sched" member of the report's JSON object.
 * A trace without switches says so, and how to record them, in one line.
 */
#ifndef TB_FDR_REPORT_SCHED_PRINT_H
#define TB_FDR_REPORT_SCHED_PRINT_H

#include <stdio.h>

#include "convert/fdr_report.h"

/* With the run-queue histograms of the @hists tasks that waited longest. */
void tb_fdr_report_sched_print_text(const struct tb_fdr_report *r,
				    unsigned int hists, FILE *out);
/* ",\n\"sched\": {...}" */
void tb_fdr_report_sched_print_json(struct tb_fdr_report *r, FILE *out);

#endif /* TB_FDR_REPORT_SCHED_PRINT_H */
