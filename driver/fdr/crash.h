/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash descriptor (uapi/linux/tracebuf_crash.h) and the panic
 * notifier that freezes the rings (crash.c).  Init/exit from dev.c; the
 * others under the capture lock, stopped.
 */
#ifndef _FDR_CRASH_H
#define _FDR_CRASH_H

#include <linux/types.h>

int fdr_crash_init(void);
void fdr_crash_exit(void);
/* The rings were allocated: describe their frames.  0 or -ENOMEM. */
int fdr_crash_rings(void);
/* The rings are about to be freed. */
void fdr_crash_rings_gone(void);
/* A capture started (@hdr: its file header), stopped, or was discarded. */
void fdr_crash_state(u32 state, u32 mode, const u8 *hdr);

#endif /* _FDR_CRASH_H */
