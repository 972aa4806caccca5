/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture (capture.c): configuration, START and STOP, and the state
 * the device's files read (dev.c).
 */
#ifndef _FDR_CAPTURE_H
#define _FDR_CAPTURE_H

#include <linux/mutex.h>
#include <linux/types.h>

#include <linux/tracebuf.h>

/*
 * fdr_lock serialises configuration, start/stop, stream consumption and
 * snapshots: the functions of the recorder marked "fdr_lock" expect it.
 */
extern struct mutex fdr_lock;
/* The capture's configuration (fdr_lock). */
extern struct tracebuf_fdr_config fdr_cfg;
/* Running; and running with TRACEBUF_FDR_MARKER (written under fdr_lock). */
extern bool fdr_running;
extern bool fdr_markers;
/* The capture's number: START and CONFIG count (fdr_lock). */
extern u64 fdr_gen;

/* fdr_lock.  0 or an error (EBUSY: running, or pages lent; ...). */
int fdr_capture_start(void);
void fdr_capture_stop(void);
/*
 * fdr_lock: replace the configuration by @c (validated here: EINVAL,
 * EOPNOTSUPP), whose buf_size 0 is filled in with the current one.  It
 * discards the recorded data, unless it fails before (EBUSY).
 */
int fdr_capture_config(struct tracebuf_fdr_config *c);
/*
 * The NAMES text: the id names, then the traced kernel functions'.  The
 * worst case fits: never truncated.  A kvmalloc'd buffer, or NULL.
 */
char *fdr_capture_names(size_t *len);

#endif /* _FDR_CAPTURE_H */
