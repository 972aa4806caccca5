/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core of tracebuf.ko, shared by its two products (the trace buffer,
 * prefix tb_, in tracebuf/; the flight data recorder, prefix fdr_, in
 * fdr/): who may open a device, how ioctl structs cross the user boundary,
 * and how an ioctl reaches its handler.  The kernel events both products
 * consume come from the probe layer, core/probes.h.  Nothing here names a
 * product; the module's init and exit (tracebuf_init()) only start and
 * stop them.
 */
#ifndef _TBCORE_H
#define _TBCORE_H

#include <linux/fs.h>
#include <linux/types.h>

/*
 * Trace data exposes kernel addresses: only CAP_PERFMON or CAP_SYS_ADMIN,
 * or members of the group the administrator names with tracing_gid=, and
 * never under perf lockdown.  Checked once at open, like perf does.
 */
int tbcore_open_allowed(void);

/*
 * May the opener of @file arm kernel probes (kretprobes on kernel
 * functions, the kprobe behind WARN triggers)?  0 for CAP_PERFMON or
 * CAP_SYS_ADMIN, and for the tracing group when group_kprobes is set;
 * -EPERM otherwise.
 */
int tbcore_kprobes_allowed(const struct file *file);

/*
 * Copy an ioctl struct in or out by the caller's size @usize (uabi.c).
 * @kmin is the size of version 1 of an input struct.
 */
int tbcore_uabi_get(void *k, size_t ksize, size_t kmin, const void __user *u,
		    size_t usize);
int tbcore_uabi_put(void __user *u, size_t usize, const void *k, size_t ksize);

/**
 * struct tbcore_ioctl - one command of a device's ioctl table
 * @cmd:	the command as <linux/tracebuf.h> defines it; a call matches
 *		it by magic, number and direction, and the size it carries is
 *		the caller's version of the struct
 * @fn:		the handler: @arg is the user pointer, @usize the caller's
 *		struct size (0 for commands without an argument)
 */
struct tbcore_ioctl {
	unsigned int cmd;
	long (*fn)(struct file *file, void __user *arg, size_t usize);
};

/*
 * Find @cmd in @table and call its handler.  ENOTTY for another magic, an
 * unknown number or direction, or a size on a command without argument;
 * EINVAL for a command with an argument but a size of 0.
 */
long tbcore_ioctl(const struct tbcore_ioctl *table, size_t n,
		  struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _TBCORE_H */
