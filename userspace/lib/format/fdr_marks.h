/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The custom events that tracebuf's own FDR traces carry besides the
 * kernel's records: each task's block starts with TB_FDR_MARKS_START, at
 * the capture's earliest time (convert/fdr_post.h says why), and is no
 * event of the task's.  The post-processing writes it; whoever reads a
 * trace (fdr_post again, fdr_json, fdr_report) knows it by these.
 */
#ifndef TB_FDR_MARKS_H
#define TB_FDR_MARKS_H

#include <stdbool.h>

#include "format/fdr_records.h"

#define TB_FDR_MARKS_START	"tracebuf: capture start"

/* Whether @r is the custom event that starts a task's block. */
bool tb_fdr_marks_is_start(const struct tb_fdr_record *r);

#endif /* TB_FDR_MARKS_H */
