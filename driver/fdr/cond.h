/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trigger conditions (cond.c): what an armed trigger watches.  The state
 * machine (trigger.c) arms them; the device (dev.c) tells them of markers
 * and snapshots.
 */
#ifndef _FDR_COND_H
#define _FDR_COND_H

#include <linux/compiler.h>
#include <linux/stdarg.h>
#include <linux/types.h>

struct tracebuf_fdr_trigger;

/*
 * Called, in any context, when condition @i of the armed trigger holds,
 * with a text that says what happened.  It may be called again, for the
 * same or another condition, until disarmed.
 */
typedef __printf(2, 0) void (*fdr_cond_fire_fn)(u32 i, const char *fmt,
						 va_list args);

void fdr_cond_init(void);
/* @t is valid (every field a condition does not use zero), or EINVAL. */
int fdr_cond_check(const struct tracebuf_fdr_trigger *t);
/*
 * The capture lock, disarmed: watch what the checked @t's conditions need, and
 * call @fire when one holds.  On an error the caller disarms.
 */
int fdr_cond_arm(const struct tracebuf_fdr_trigger *t, fdr_cond_fire_fn fire);
/*
 * The capture lock: stop watching (probes, notifiers); then, once a grace
 * period has passed (conditions run with preemption off), forget everything.
 */
void fdr_cond_disarm(void);
void fdr_cond_free(void);

/* Process context: a marker was written; nothing unless one is watched. */
void fdr_cond_marker(const void *data, u32 len);
/*
 * The capture lock: SNAPSHOT was called; true if a condition held (and fired).
 */
bool fdr_cond_snapshot(void);

#endif /* _FDR_COND_H */
