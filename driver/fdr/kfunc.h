/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel functions as XRay functions (kfunc.c): a kretprobe each.
 */
#ifndef _FDR_KFUNC_H
#define _FDR_KFUNC_H

#include <linux/types.h>

#include "text.h"

struct tracebuf_fdr_kfuncs;

/*
 * The capture lock, stopped: replace the list of traced kernel functions
 * (@names, @len bytes of kernel memory); @kf carries maxactive in, count and
 * failed out.
 */
int fdr_kfunc_set(const char *names, size_t len,
		  struct tracebuf_fdr_kfuncs *kf);
/*
 * The capture lock: start recording them (0, or an error with none started),
 * stop (before the ring goes off).
 */
int fdr_kfunc_start(void);
void fdr_kfunc_stop(void);
/*
 * The capture lock, stopped: the capture is discarded (CONFIG), its count too.
 */
void fdr_kfunc_forget(void);
/*
 * Calls the capture missed: since START while it runs, then its count at
 * STOP until the next START or CONFIG.
 */
u64 fdr_kfunc_missed(void);
/*
 * Report the calls missed and not yet reported as a loss on this CPU, so that a
 * snapshot about to be taken says so (the capture lock, capture running).
 */
void fdr_kfunc_report_missed(void);
/* Panic: how many that would be; no lock, nothing changes. */
u64 fdr_kfunc_missed_unreported(void);
/*
 * Their lines of the NAMES text, and the room they need.  @panic: called
 * by the panic notifier, which must not sleep or lock: the list is then
 * read without its lock (it does not change while recording).
 */
void fdr_kfunc_names(struct fdr_text *t, bool panic);
size_t fdr_kfunc_names_size(void);
/* Module unload, after fdr_kfunc_stop(): unregister everything. */
void fdr_kfunc_exit(void);

#endif /* _FDR_KFUNC_H */
