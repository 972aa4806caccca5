/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing the report's errors section (convert/fdr_report_errors.h):
 * per system call the calls and the failed ones, then each errno's
 * count under it, as perf trace -s --errno-summary prints them; the
 * "errors" member of the report's JSON object.  A trace without system
 * calls says so, and how to record them, in one line.
 */
#ifndef TB_FDR_REPORT_ERRORS_PRINT_H
#define TB_FDR_REPORT_ERRORS_PRINT_H

#include <stdio.h>

#include "convert/fdr_report.h"

void tb_fdr_report_errors_print_text(const struct tb_fdr_report *r, FILE *out);
/* ",\n\"errors\": {...}" */
void tb_fdr_report_errors_print_json(const struct tb_fdr_report *r, FILE *out);

#endif /* TB_FDR_REPORT_ERRORS_PRINT_H */
