/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the /dev/tracebuf selftests: put the device in a known state,
 * inject events, read the buffer back.  Expected bytes are always written
 * out by hand in the tests; nothing here encodes messages.
 */
#ifndef TB_DEV_UTIL_H
#define TB_DEV_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_knobs.h"
#include "tb_selftest.h"

#define TB_SIZE		256	/* the default buf_size */
#define TB_REC_SIZE	(sizeof(struct tracebuf_record) + TB_SIZE)

#define EXC(vec, n)	{ TRACEBUF_EV_EXCEPTION, (vec), (n), 0 }
#define BR(tgt, n)	{ TRACEBUF_EV_BRANCH, (tgt), (n), 0 }
#define IND(tgt, n)	{ TRACEBUF_EV_INDIRECT, (tgt), (n), 0 }

static inline int tb_open_dev(int flags)
{
	return open(TB_DEV, flags | O_CLOEXEC);
}

static inline int tb_set_mode(int fd, uint32_t mode)
{
	return ioctl(fd, TRACEBUF_IOC_SET_MODE, &mode);
}

static inline int tb_set_chain(int fd, uint32_t depth)
{
	struct tracebuf_chain ch = { .depth = depth };

	return ioctl(fd, TRACEBUF_IOC_SET_CHAIN, &ch);
}

static inline int tb_set_sources(int fd, uint32_t mask, uint32_t cpu)
{
	struct tracebuf_sources s = { .mask = mask, .cpu = cpu };

	return ioctl(fd, TRACEBUF_IOC_SET_SOURCES, &s);
}

static inline int tb_status(int fd, struct tracebuf_status *st)
{
	memset(st, 0, sizeof(*st));
	return ioctl(fd, TRACEBUF_IOC_STATUS, st);
}

/* Everything off, @mode, empty buffer, zero checkpoints, then enable. */
static inline int tb_reset(int fd, uint32_t mode, int enable)
{
	struct tracebuf_chkpt ck = { 0, 0 };

	if (ioctl(fd, TRACEBUF_IOC_DISABLE) || tb_set_sources(fd, 0, 0) ||
	    tb_set_chain(fd, 0) || tb_set_mode(fd, mode) ||
	    ioctl(fd, TRACEBUF_IOC_SET_CHKPT, &ck) ||
	    ioctl(fd, TRACEBUF_IOC_CLEAR))
		return -1;
	if (enable && ioctl(fd, TRACEBUF_IOC_ENABLE))
		return -1;
	return 0;
}

static inline int tb_inject(int fd, const struct tracebuf_event *ev, size_t n)
{
	ssize_t r = write(fd, ev, n * sizeof(*ev));

	if (r < 0)
		return -errno;
	return r == (ssize_t)(n * sizeof(*ev)) ? 0 : -EIO;
}

/* One read session: the whole buffer, then the end-of-file read. */
static inline int tb_read_buf(int fd, uint8_t *out)
{
	ssize_t r = read(fd, out, TB_SIZE);
	uint8_t x;

	if (r != TB_SIZE)
		return r < 0 ? -errno : -EIO;
	r = read(fd, &x, 1);
	return r == 0 ? 0 : -EIO;
}

/* @n hand-written bytes as the newest, preceded by zeros. */
static inline void tb_expect_tail(uint8_t *exp, const uint8_t *tail, size_t n)
{
	memset(exp, 0, TB_SIZE);
	memcpy(exp + TB_SIZE - n, tail, n);
}

static inline int tb_snapshot(int fd, uint8_t *rec, uint32_t flags)
{
	struct tracebuf_snapshot_req req = {
		.buf = (uintptr_t)rec, .len = TB_REC_SIZE, .flags = flags,
	};

	return ioctl(fd, TRACEBUF_IOC_SNAPSHOT, &req);
}

/* First differing index, or -1. */
static inline int tb_memdiff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i]) {
			fprintf(stderr, "# byte %zu: got 0x%02x, want 0x%02x\n",
				i, a[i], b[i]);
			return (int)i;
		}
	return -1;
}

#endif /* TB_DEV_UTIL_H */

#ifndef TB_DEV_UTIL_EXTRA
#define TB_DEV_UTIL_EXTRA
/* Load the module with a parameter string; 0 or -errno. */
static inline int tb_module_load_params(const char *params)
{
	int fd = open(TB_MODULE, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, tb_module_params(params), 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

/* Wait for devtmpfs to add (@present) or remove the node. */
static inline int tb_wait_node(int present)
{
	return TB_WAIT_FOR((access(TB_DEV, F_OK) == 0) == present, 2) ? 0 : -1;
}
#endif
