/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the stress, fuzz and privilege selftests: the environment
 * knobs, CPU pinning and hotplug, module reloads and memory figures.
 *
 * The knobs TB_SCALE and TB_SLOW are tb_knobs.h's.
 */
#ifndef TB_STRESS_H
#define TB_STRESS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tb_knobs.h"
#include "tb_selftest.h"

static inline int tb_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static inline int tb_unpin(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static inline int tb_ncpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* Write a string to a sysfs/procfs file: 0 or -errno. */
static inline int tb_write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

static inline int tb_cpu_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return tb_write_str(path, on ? "1\n" : "0\n");
}

static inline int tb_cpu_hotpluggable(int cpu)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return access(path, W_OK) == 0;
}

/* A counter of /proc/vmstat (oom_kill, ...), or -1. */
static inline long long tb_vmstat(const char *name)
{
	char key[64];
	long long v, ret = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name)) {
			ret = v;
			break;
		}
	fclose(f);
	return ret;
}

/* A field of /proc/meminfo in KiB, or -1. */
static inline long long tb_meminfo_kb(const char *name)
{
	char line[256];
	size_t n = strlen(name);
	long long ret = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':') {
			ret = strtoll(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return ret;
}

/* Wait until both nodes exist (@present) or are gone. */
static inline int tb_wait_nodes(int present)
{
	return TB_WAIT_FOR(present ? !access(TB_DEV, F_OK) && !access(TB_FDR_DEV, F_OK)
				   : access(TB_DEV, F_OK) && access(TB_FDR_DEV, F_OK), 5) ?
	       0 : -ETIMEDOUT;
}

/*
 * Unload tracebuf and load it again with @params ("" for the defaults).
 * A file closed by another thread may still be on its way out: retry the
 * unload for a while.  0 or -errno.
 */
static inline int tb_reload(const char *params)
{
	int fd, ret;

	TB_WAIT_FOR((ret = tb_module_unload()) != -EWOULDBLOCK &&
		    ret != -EAGAIN && ret != -EBUSY, 2);
	if (ret && ret != -ENOENT)
		return ret;
	ret = tb_wait_nodes(0);
	if (ret)
		return ret;
	fd = open(TB_MODULE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, tb_module_params(params), 0) ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	return tb_wait_nodes(1);
}

#endif /* TB_STRESS_H */
