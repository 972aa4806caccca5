/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture: configuration, START and STOP, and the state the device's
 * files read.
 */
#ifndef _FDR_CAPTURE_H
#define _FDR_CAPTURE_H

#include <linux/mutex.h>
#include <linux/types.h>

#include <linux/tracebuf.h>

/**
 * struct fdr_capture - the recorder's capture, one per module
 * @lock:	serialises configuration, START and STOP, stream consumption
 *		and snapshots: what the ring's frontend.h marks "serialised",
 *		and the functions here
 * @cfg:	the configuration (@lock)
 * @running:	recording (written under @lock, read anywhere)
 * @markers:	recording with TRACEBUF_FDR_MARKER (likewise)
 * @gen:	the capture's number: START and CONFIG count it (likewise)
 */
struct fdr_capture {
	struct mutex lock;	/* the capture lock: see above */
	struct tracebuf_fdr_config cfg;
	bool running;
	bool markers;
	u64 gen;
};

/* The capture: the one place its state is reached from. */
struct fdr_capture *fdr_capture(void);

/*
 * The capture's lock held.  0 or an error (EBUSY: running, or pages lent; ...).
 */
int fdr_capture_start(void);
void fdr_capture_stop(void);
/*
 * The lock held: replace the configuration by @c (validated here: EINVAL,
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
