/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function id -> name (names.c) for the id spaces whose keys mean nothing
 * by themselves: IRQs, work functions, and the fixed spaces.
 */
#ifndef _FDR_NAMES_H
#define _FDR_NAMES_H

#include <linux/types.h>

#include "text.h"

/* Stopped: forget the names of the last capture. */
void fdr_names_reset(void);
/* Any context: the key of work function @func, and an IRQ's name. */
u32 fdr_names_work_key(void *func);
void fdr_names_irq_seen(int irq, const char *name);
/*
 * Their lines of the NAMES text, into @t, and the room they can need.
 * Any context, the panic included: nothing that sleeps or locks.
 */
void fdr_names_write(struct fdr_text *t);
size_t fdr_names_size(void);

#endif /* _FDR_NAMES_H */
