// SPDX-License-Identifier: GPL-2.0
/*
 * The user boundary both devices share: the open-time privilege check, the
 * versioning rule of <linux/tracebuf.h> and ioctl dispatch.
 *
 * Privilege: trace data reveals kernel addresses and what every process
 * does, so by default only CAP_PERFMON (or CAP_SYS_ADMIN) opens a device,
 * as for perf.  tracing_gid=N lets members of group N in too, without the
 * capability: an administrator's choice to trust that group (the Debian
 * package creates "tracing" and its udev rule gives it the nodes; the
 * node's mode still has to let the opener in).  Perf lockdown refuses
 * everyone either way.  The group is read at each open, so removing a
 * user from it or writing -1 takes effect for the next open; files
 * already open stay open, as with perf.
 *
 * Kernel probes are a step beyond reading a trace: a kretprobe on any
 * kernel function (TRACEBUF_FDR_IOC_KFUNCS) or the kprobe on __warn() (a
 * WARN trigger) runs our handler inside code the administrator did not
 * choose to trace, which is why perf's kprobe PMU wants CAP_PERFMON and
 * tracefs's kprobe_events wants root.  So they need a file opened with
 * CAP_PERFMON or CAP_SYS_ADMIN; group_kprobes=1 grants them to files the
 * tracing group opened too.  That switch is read at each ioctl, so turning
 * it off holds back files already open.
 *
 * Versioning: an ioctl's struct size is the caller's version.  Input
 * structs shorter than version 1 are refused, longer ones must have zeros
 * where this kernel has no fields (copy_struct_from_user() says E2BIG).
 * Output structs are copied up to the caller's size and any tail this
 * kernel does not know is zeroed, so newer callers see "not set" there.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/security.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/uaccess.h>

#include <linux/tracebuf.h>

#include "core/core.h"

/* The trusted group in the initial namespace; -1: nobody without the capability. */
static int tbcore_tracing_gid = -1;

static int tbcore_gid_param_set(const char *val, const struct kernel_param *kp)
{
	int gid, ret = kstrtoint(val, 0, &gid);

	if (ret)
		return ret;
	if (gid != -1 && (gid < 0 || !gid_valid(make_kgid(&init_user_ns, gid))))
		return -EINVAL;
	WRITE_ONCE(tbcore_tracing_gid, gid);
	return 0;
}

static int tbcore_gid_param_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", READ_ONCE(tbcore_tracing_gid));
}

static const struct kernel_param_ops tbcore_gid_param_ops = {
	.set = tbcore_gid_param_set,
	.get = tbcore_gid_param_get,
};
module_param_cb(tracing_gid, &tbcore_gid_param_ops, NULL, 0644);
MODULE_PARM_DESC(tracing_gid,
		 "members of this group open the devices without CAP_PERFMON; -1 (default): nobody (traces reveal kernel addresses)");

static bool tbcore_in_tracing_group(void)
{
	int gid = READ_ONCE(tbcore_tracing_gid);

	return gid >= 0 && in_group_p(make_kgid(&init_user_ns, gid));
}

int tbcore_open_allowed(void)
{
	if (!perfmon_capable() && !tbcore_in_tracing_group())
		return -EPERM;
	return security_locked_down(LOCKDOWN_PERF);
}

static bool tbcore_group_kprobes;
module_param_named(group_kprobes, tbcore_group_kprobes, bool, 0644);
MODULE_PARM_DESC(group_kprobes,
		 "let files the tracing_gid group opened arm kernel probes (kernel-function lists, WARN triggers); default N: CAP_PERFMON only");

int tbcore_kprobes_allowed(const struct file *file)
{
	/* The opener's credentials, as at open(): a passed file keeps them. */
	if (file_ns_capable(file, &init_user_ns, CAP_PERFMON) ||
	    file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return 0;
	/* Any other opener got in as a member of the tracing group. */
	return READ_ONCE(tbcore_group_kprobes) ? 0 : -EPERM;
}

int tbcore_uabi_get(void *k, size_t ksize, size_t kmin, const void __user *u,
		    size_t usize)
{
	if (usize < kmin)
		return -EINVAL;
	return copy_struct_from_user(k, ksize, u, usize);
}

int tbcore_uabi_put(void __user *u, size_t usize, const void *k, size_t ksize)
{
	if (copy_to_user(u, k, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(u + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

long tbcore_ioctl(const struct tbcore_ioctl *table, size_t n,
		  struct file *file, unsigned int cmd, unsigned long arg)
{
	unsigned int dir = _IOC_DIR(cmd);
	size_t usize = _IOC_SIZE(cmd);
	size_t i;

	if (_IOC_TYPE(cmd) != TRACEBUF_IOC_MAGIC)
		return -ENOTTY;
	for (i = 0; i < n; i++) {
		if (_IOC_NR(table[i].cmd) != _IOC_NR(cmd) ||
		    _IOC_DIR(table[i].cmd) != dir)
			continue;
		if (dir == _IOC_NONE && usize)
			return -ENOTTY;
		if (dir != _IOC_NONE && !usize)
			return -EINVAL;
		return table[i].fn(file, (void __user *)arg, usize);
	}
	return -ENOTTY;
}
