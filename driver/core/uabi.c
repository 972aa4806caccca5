// SPDX-License-Identifier: GPL-2.0
/*
 * The user boundary both devices share: the open-time privilege check, the
 * versioning rule of <linux/tracebuf.h> and ioctl dispatch.
 *
 * Versioning: an ioctl's struct size is the caller's version.  Input
 * structs shorter than version 1 are refused, longer ones must have zeros
 * where this kernel has no fields (copy_struct_from_user() says E2BIG).
 * Output structs are copied up to the caller's size and any tail this
 * kernel does not know is zeroed, so newer callers see "not set" there.
 */
#include <linux/capability.h>
#include <linux/minmax.h>
#include <linux/security.h>
#include <linux/uaccess.h>

#include <linux/tracebuf.h>

#include "core/core.h"

int tbcore_open_allowed(void)
{
	if (!perfmon_capable())
		return -EPERM;
	return security_locked_down(LOCKDOWN_PERF);
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
