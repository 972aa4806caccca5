// SPDX-License-Identifier: GPL-2.0
/*
 * The versioning rule of <linux/tracebuf.h>, in one place for both
 * devices: an ioctl's struct size is the caller's version.  Input structs
 * shorter than version 1 are refused, longer ones must have zeros where
 * this kernel has no fields (copy_struct_from_user() says E2BIG).  Output
 * structs are copied up to the caller's size and any tail this kernel does
 * not know is zeroed, so newer callers see "not set" there.
 */
#include <linux/minmax.h>
#include <linux/uaccess.h>

#include "tracebuf.h"

int tb_uabi_get(void *k, size_t ksize, size_t kmin, const void __user *u,
		size_t usize)
{
	if (usize < kmin)
		return -EINVAL;
	return copy_struct_from_user(k, ksize, u, usize);
}

int tb_uabi_put(void __user *u, size_t usize, const void *k, size_t ksize)
{
	if (copy_to_user(u, k, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(u + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}
