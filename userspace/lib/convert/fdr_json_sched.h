/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler in trace_event JSON, from the trace's switches and
 * wake-ups (the typed events of uapi/linux/tracebuf_fdr.h, decoded by
 * format/fdr_event.h):
 *
 *  - a CPU with switches has its track made of them: from each switch to
 *    the next one on that CPU, one slice named after the task switched
 *    in ("COMMAND TID", the idle task "swapper/N 0"); before its first
 *    switch, the task it switched out, from the CPU's first record; after
 *    its last, the task it switched in, to the CPU's last record;
 *  - each wake-up whose task is switched in later is a flow arrow ("s" and
 *    "f" events, id, "bp": "e", as the Trace Event Format has them) from
 *    the slice on the waker's CPU track at the wake-up to the middle of
 *    the woken task's next slice, so that both ends are inside a slice
 *    (Perfetto binds each to the slice enclosing it; speedscope reads only
 *    B, E, X and M events and leaves them out).
 *
 * Memory: a few words per switch and per wake-up (as the block stretches
 * of the guessed tracks), and two times per CPU.
 */
#ifndef TB_FDR_JSON_SCHED_H
#define TB_FDR_JSON_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "convert/fdr_json_out.h"

/* First pass: keep @r when it is a switch or a wake-up.  0 or -ENOMEM. */
int tb_fdr_json_sched_scan(struct fj_ctx *c, const struct tb_fdr_record *r);

/* After the first pass: order what was kept.  0 or -ENOMEM. */
int tb_fdr_json_sched_prepare(struct fj_ctx *c);

/* Whether CPU @cpu's track comes from switches. */
bool tb_fdr_json_sched_has_switches(const struct fj_ctx *c, uint16_t cpu);

/* CPU @cpu's slices, from its switches. */
void tb_fdr_json_sched_track(struct fj_ctx *c, uint16_t cpu);

/* The wake-ups' flow arrows. */
void tb_fdr_json_sched_flows(struct fj_ctx *c);

void tb_fdr_json_sched_free(struct fj_ctx *c);

#endif /* TB_FDR_JSON_SCHED_H */
