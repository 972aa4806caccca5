/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe-layer consumer (events.c): kernel events as FDR records.
 */
#ifndef _FDR_EVENTS_H
#define _FDR_EVENTS_H

#include <linux/types.h>

/* The capture lock, stopped: what to record; start/stop feeding the ring. */
void fdr_events_config(u32 classes, u32 nr_args);
int fdr_events_start(void);
void fdr_events_stop(void);

/* The syscall function id of @nr for the current task (see events.c). */
u32 fdr_events_syscall_id(unsigned long nr);

#endif /* _FDR_EVENTS_H */
