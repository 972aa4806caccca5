// SPDX-License-Identifier: GPL-2.0
/* Opening the tracebuf devices; see device/dev.h. */
#include <errno.h>
#include <fcntl.h>

#include "device/dev.h"

int tb_dev_open(const char *path, int flags)
{
	return open(path, flags | O_CLOEXEC);
}

const char *tb_dev_open_hint(int err)
{
	switch (err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		return " (is the tracebuf module loaded?)";
	case EPERM:
	case EACCES:
		return " (needs CAP_PERFMON or CAP_SYS_ADMIN, and no perf lockdown)";
	default:
		return "";
	}
}
