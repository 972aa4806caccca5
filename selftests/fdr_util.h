/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the /dev/tracebuf_fdr selftests: ioctl wrappers and a strict
 * checker of the FDR v5 stream the device produces.  The checker is
 * deliberately independent of the driver's encoder and stricter than
 * llvm-xray: every block must have the full header, every length must
 * match, times must not go backwards on a CPU.
 */
#ifndef FDR_UTIL_H
#define FDR_UTIL_H

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_selftest.h"

#define FDR_MAX_CPUS	64

static inline uint16_t fdr_le16(const uint8_t *p) { return p[0] | p[1] << 8; }
static inline uint32_t fdr_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t fdr_le64(const uint8_t *p)
{
	return fdr_le32(p) | (uint64_t)fdr_le32(p + 4) << 32;
}

enum { FDR_R_FUNC, FDR_R_CUSTOM, FDR_R_TYPED };

struct fdr_rec {
	int kind;		/* FDR_R_* */
	uint32_t id;		/* function id */
	int type;		/* 0 enter, 1 exit, 3 enter with args;
				 * FDR_R_TYPED: TRACEBUF_FDR_TYPED_*
				 */
	int nargs;
	uint64_t args[8];
	int32_t tid, pid;
	uint16_t cpu;
	uint64_t t;		/* absolute time */
	const uint8_t *data;	/* custom or typed event payload */
	uint32_t size;
	unsigned int block;	/* block number in the stream */
	size_t off;		/* offset of the record in the stream */
};

typedef void (*fdr_rec_cb)(const struct fdr_rec *r, void *arg);

/* TSCWrap records seen by the last fdr_check(). */
static int fdr_tsc_wraps;
/*
 * Set to check a collector's file instead of the device's stream: its
 * blocks are ordered by task (Documentation/fdr.rst), so time goes back
 * from one task's block to the next on a CPU; within a block it may not.
 */
static int fdr_check_by_task;
/* The header's cycle_frequency: 10^9 (local_clock) or the TSC's. */
static uint64_t fdr_hz;

/*
 * Check a whole stream and report every function record (with its
 * arguments) and custom event.  Returns the number of blocks, or -1 with
 * a message in @err.
 */
static inline int fdr_check(const uint8_t *buf, size_t len, fdr_rec_cb cb,
			    void *arg, char *err, size_t errlen)
{
	uint64_t last_t[FDR_MAX_CPUS] = { 0 };
	struct fdr_rec pend;
	size_t pos = 32;
	int blocks = 0, have_pend = 0;

	fdr_tsc_wraps = 0;
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
	if (len < 32)
		FAIL("short header");
	fdr_hz = fdr_le64(buf + 8);
	/* No clock this recorder uses ticks slower than 1 MHz. */
	if (fdr_le16(buf) != 5 || fdr_le16(buf + 2) != 1 || fdr_hz < 1000000)
		FAIL("bad header");
	while (pos < len) {
		const uint8_t *b = buf + pos;
		uint64_t ext, t;
		size_t end, p;
		int32_t tid, pid;
		uint16_t cpu;

		if (len - pos < 80)
			FAIL("block at %zu: short header", pos);
		if (b[0] != (7 << 1 | 1) || b[16] != 1 || b[32] != (4 << 1 | 1) ||
		    b[48] != (9 << 1 | 1) || b[64] != (2 << 1 | 1))
			FAIL("block at %zu: bad header records", pos);
		ext = fdr_le64(b + 1);
		if (ext < 64 || ext > len - pos - 16)
			FAIL("block at %zu: extents %llu out of range", pos,
			     (unsigned long long)ext);
		end = pos + 16 + ext;
		tid = fdr_le32(b + 17);
		pid = fdr_le32(b + 49);
		cpu = fdr_le16(b + 65);
		t = fdr_le64(b + 67);
		if (cpu >= FDR_MAX_CPUS)
			FAIL("block at %zu: cpu %u", pos, cpu);
		if (t < last_t[cpu] && !fdr_check_by_task)
			FAIL("block at %zu: time goes back on cpu %u", pos, cpu);
		p = pos + 80;
		have_pend = 0;
		while (p < end) {
			const uint8_t *r = buf + p;

			if (!(r[0] & 1)) {
				uint32_t w = fdr_le32(r);

				if (end - p < 8)
					FAIL("function record at %zu crosses the block", p);
				if (have_pend && cb)
					cb(&pend, arg);
				t += fdr_le32(r + 4);
				memset(&pend, 0, sizeof(pend));
				pend.kind = FDR_R_FUNC;
				pend.id = w >> 4;
				pend.type = (w >> 1) & 7;
				pend.tid = tid;
				pend.pid = pid;
				pend.cpu = cpu;
				pend.t = t;
				pend.block = blocks;
				pend.off = p;
				if (pend.type != 0 && pend.type != 1 && pend.type != 3)
					FAIL("function type %d at %zu", pend.type, p);
				have_pend = 1;
				p += 8;
				continue;
			}
			if (end - p < 16)
				FAIL("metadata at %zu crosses the block", p);
			switch (r[0] >> 1) {
			case 6:	/* CallArgument */
				if (!have_pend || pend.type != 3 || pend.nargs >= 8)
					FAIL("stray CallArgument at %zu", p);
				pend.args[pend.nargs++] = fdr_le64(r + 1);
				p += 16;
				break;
			case 3:	/* TSCWrap */
				if (have_pend && cb)
					cb(&pend, arg);
				have_pend = 0;
				if (fdr_le64(r + 1) < t)
					FAIL("TSCWrap back in time at %zu", p);
				fdr_tsc_wraps++;
				t = fdr_le64(r + 1);
				p += 16;
				break;
			case 5: {	/* CustomEventMarker v5 */
				int32_t size = (int32_t)fdr_le32(r + 1);
				struct fdr_rec c;

				if (have_pend && cb)
					cb(&pend, arg);
				have_pend = 0;
				if (size <= 0 || (size_t)size > end - p - 16)
					FAIL("custom event size %d at %zu", size, p);
				t += fdr_le32(r + 5);
				memset(&c, 0, sizeof(c));
				c.kind = FDR_R_CUSTOM;
				c.tid = tid;
				c.pid = pid;
				c.cpu = cpu;
				c.t = t;
				c.data = r + 16;
				c.size = size;
				c.block = blocks;
				c.off = p;
				if (cb)
					cb(&c, arg);
				p += 16 + size;
				break;
			}
			case 8: {	/* TypedEventMarker */
				int32_t size = (int32_t)fdr_le32(r + 1);
				struct fdr_rec c;

				if (have_pend && cb)
					cb(&pend, arg);
				have_pend = 0;
				if (size <= 0 || (size_t)size > end - p - 16)
					FAIL("typed event size %d at %zu", size, p);
				t += fdr_le32(r + 5);
				memset(&c, 0, sizeof(c));
				c.kind = FDR_R_TYPED;
				c.type = fdr_le16(r + 9);
				c.tid = tid;
				c.pid = pid;
				c.cpu = cpu;
				c.t = t;
				c.data = r + 16;
				c.size = size;
				c.block = blocks;
				c.off = p;
				if (cb)
					cb(&c, arg);
				p += 16 + size;
				break;
			}
			default:
				FAIL("unexpected metadata kind %d at %zu", r[0] >> 1, p);
			}
		}
		if (have_pend && cb)
			cb(&pend, arg);
		have_pend = 0;
		last_t[cpu] = t;
		pos = end;
		blocks++;
	}
#undef FAIL
	return blocks;
}

/* Read the whole device (or until EOF). */
static inline uint8_t *fdr_read_all(int fd, size_t *lenp)
{
	size_t cap = 1 << 20, len = 0;
	uint8_t *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return NULL;
	for (;;) {
		if (cap - len < 65536) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				return NULL;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	*lenp = len;
	return buf;
}

/*
 * The frequency of the counter the recorder stamps with, where userspace
 * can read it: CNTFRQ_EL0 on arm64 (Linux lets EL0 read it); 0 elsewhere.
 */
static inline uint64_t fdr_counter_hz(void)
{
#ifdef __aarch64__
	uint64_t hz;

	asm volatile("mrs %0, cntfrq_el0" : "=r" (hz));
	return hz;
#else
	return 0;
#endif
}

/*
 * TRACEBUF_FDR_ALL less what this kernel lacks: 6.1 has the page-fault
 * tracepoints (exceptions:page_fault_user/_kernel) on x86 only, and the
 * module refuses a class it cannot record (EOPNOTSUPP).
 */
static inline uint32_t fdr_all(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return TRACEBUF_FDR_ALL;
#else
	return TRACEBUF_FDR_ALL & ~TRACEBUF_FDR_FAULT;
#endif
}

/* TRACEBUF_SRC_ALL less the page faults where fdr_all() lacks them. */
static inline uint32_t tb_src_all(void)
{
	return fdr_all() & TRACEBUF_FDR_FAULT ? TRACEBUF_SRC_ALL :
		TRACEBUF_SRC_ALL & ~TRACEBUF_SRC_FAULT;
}

static inline int fdr_config(int fd, uint32_t classes, uint32_t mode,
			     uint32_t size, uint32_t nargs)
{
	struct tracebuf_fdr_config c = {
		.classes = classes, .mode = mode, .buf_size = size,
		.nr_args = nargs,
	};

	return ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c) ? -errno : 0;
}

static inline int fdr_stats(int fd, struct tracebuf_fdr_stats *s)
{
	memset(s, 0, sizeof(*s));
	return ioctl(fd, TRACEBUF_FDR_IOC_STATS, s) ? -errno : 0;
}

/* ------------------------------------------------------- test helpers */

/* Open the device read-write with any capture stopped. */
static inline int fdr_open_stopped(void)
{
	int fd = open(TB_FDR_DEV, O_RDWR);

	if (fd >= 0)
		ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	return fd;
}

static inline int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * This thread on CPU 0 and a capture of @classes in @mode with buffers of
 * @size started on the device: its fd, or -1.
 */
static inline int fdr_open_started0(uint32_t classes, uint32_t mode,
				    uint32_t size)
{
	int fd;

	if (pin_cpu(0))
		return -1;
	fd = fdr_open_stopped();
	if (fd < 0)
		return -1;
	if (fdr_config(fd, classes, mode, size, 0) ||
	    ioctl(fd, TRACEBUF_FDR_IOC_START)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Online CPUs, at most the two the marker tests use. */
static inline int nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 2 ? 2 : (int)n;
}

#define MARK_SIZE	48

/*
 * Markers "cap C cpu N seq S": the capture they belong to, the CPU they
 * were written on (the writer is pinned) and a per-CPU sequence, so that
 * a checker can tell a block spliced from another CPU, a record from
 * another capture, and a gap.  Written @first..@first+@count-1.
 */
static inline void put_markers(int fd, int cap, int cpu, int first, int count,
			       size_t size)
{
	char m[TRACEBUF_FDR_MARKER_MAX];
	int i;

	for (i = first; i < first + count; i++) {
		memset(m, '.', size);
		m[snprintf(m, size, "cap %d cpu %d seq %d", cap, cpu, i)] = '.';
		write(fd, m, size);
	}
}

/* What a checker saw of the markers of capture @cap in a stream. */
struct mark_seen {
	int cap;
	int n[2];		/* markers per CPU */
	int next[2];		/* next sequence expected per CPU */
	int gaps, foreign, wrong_cpu, lost_reports;
};

static inline void mark_cb(const struct fdr_rec *r, void *arg)
{
	struct mark_seen *s = arg;
	int cap, cpu, seq;

	if (r->kind != FDR_R_CUSTOM)
		return;
	if (r->size > 15 && !memcmp(r->data, "tracebuf: lost ", 15)) {
		s->lost_reports++;
		return;
	}
	if (sscanf((const char *)r->data, "cap %d cpu %d seq %d", &cap, &cpu,
		   &seq) != 3 || cpu < 0 || cpu > 1)
		return;
	if (cap != s->cap) {
		s->foreign++;
		return;
	}
	if (cpu != r->cpu)
		s->wrong_cpu++;
	if (seq != s->next[cpu])
		s->gaps++;
	s->next[cpu] = seq + 1;
	s->n[cpu]++;
}

/* A reader thread: the file header, then one read() that may block. */
struct blocked_read {
	int fd;
	ssize_t n;		/* what the second read() returned */
	volatile int header, done;
};

static inline void *blocked_read_thread(void *p)
{
	struct blocked_read *b = p;
	char buf[256];

	b->n = read(b->fd, buf, 32);
	b->header = 1;
	if (b->n == 32)
		b->n = read(b->fd, buf, sizeof(buf));
	b->done = 1;
	return NULL;
}

#endif /* FDR_UTIL_H */
