/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared between the parts of tracebuf.ko.  Each part keeps its
 * state private and exposes only an init/exit pair and what another part
 * needs to call.
 */
#ifndef _TRACEBUF_H
#define _TRACEBUF_H

#include <linux/fs.h>

#define TRACEBUF_NAME	"tracebuf"

int tb_dev_init(void);
void tb_dev_exit(void);

/*
 * Trace data exposes kernel addresses: only CAP_PERFMON or CAP_SYS_ADMIN,
 * and never under perf lockdown.  Checked once at open, like perf does.
 */
int tb_open_allowed(void);

/*
 * Copy an ioctl struct in or out by the caller's size @usize (tb_uabi.c).
 * @kmin is the size of version 1 of an input struct.
 */
int tb_uabi_get(void *k, size_t ksize, size_t kmin, const void __user *u,
		size_t usize);
int tb_uabi_put(void __user *u, size_t usize, const void *k, size_t ksize);

#endif /* _TRACEBUF_H */
