/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metadata of a trace_event JSON file, from what the first pass of
 * convert/fdr_json.c found: process and thread names, a track per CPU
 * with the tasks that ran there, and where calls cut at the capture's
 * start begin.
 */
#ifndef TB_FDR_JSON_META_H
#define TB_FDR_JSON_META_H

#include "convert/fdr_json_out.h"

/* What to call thread @t: its name (tb_fdr_json_meta_tasks()), else "tid N". */
/* The process and thread names ("M" events): 0 or -ENOMEM. */
int tb_fdr_json_meta_tasks(struct fj_ctx *c);
/* A track per CPU with the tasks that ran on it: 0 or -ENOMEM. */
int tb_fdr_json_meta_cpus(struct fj_ctx *c);
/*
 * Where the CPU tracks come from: "switches" (the recorded context
 * switches), "blocks" (a guess from the tasks' records on each CPU: a
 * trace without switches), or "switches where recorded, else blocks".
 */
const char *tb_fdr_json_meta_cpu_source(struct fj_ctx *c);
/* Where the calls running at the capture's start begin. */
void tb_fdr_json_meta_cut_starts(struct fj_ctx *c);

#endif /* TB_FDR_JSON_META_H */
