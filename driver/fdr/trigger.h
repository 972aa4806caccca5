/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers (trigger.c): conditions that freeze the flight recorder.
 */
#ifndef _FDR_TRIGGER_H
#define _FDR_TRIGGER_H

#include <linux/types.h>

struct tracebuf_fdr_config;
struct tracebuf_fdr_stats;
struct tracebuf_fdr_trigger;

void fdr_trig_init(void);
/*
 * The capture lock.  Arm @t (validated here: EINVAL) while @running with @cfg;
 * nr_conds 0 disarms.  fdr_trig_stop(): STOP disarms without resuming.
 */
int fdr_trig_arm(const struct tracebuf_fdr_trigger *t, bool running,
		 const struct tracebuf_fdr_config *cfg);
void fdr_trig_stop(void);
/* The capture lock: START resets the counters. */
void fdr_trig_reset(void);
/* The capture lock: frozen rings are safe to read (no writer still inside). */
void fdr_trig_settle(void);
/* The STATS fields; a frozen trigger makes poll() add EPOLLPRI. */
void fdr_trig_stats(struct tracebuf_fdr_stats *s);
bool fdr_trig_frozen(void);

#endif /* _FDR_TRIGGER_H */
