// SPDX-License-Identifier: GPL-2.0
/* Following a capture without taking part; see device/fdr_peek.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "device/fdr_peek.h"
#include "util/buf.h"

int tb_fdr_peek_open(struct tb_fdr_peek *p, int fd, unsigned int nr_cpus,
		     uint32_t buf_size, uint64_t gen, bool from_now)
{
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->from_now = from_now;
	p->nr_cpus = nr_cpus;
	p->gen = gen;
	/* A whole ring per call: every page a CPU can hold. */
	p->size = buf_size;
	p->buf = malloc(p->size);
	p->next = calloc(nr_cpus ? nr_cpus : 1, sizeof(*p->next));
	p->seen = calloc(nr_cpus ? nr_cpus : 1, sizeof(*p->seen));
	if (!p->buf || !p->next || !p->seen) {
		tb_fdr_peek_close(p);
		return -ENOMEM;
	}
	return 0;
}

/*
 * One look at @cpu: 0, 1 for a CPU that cannot exist, -errno.  A ring
 * holds at most 16 pages and one look copies up to a whole ring, so one
 * look takes every page there.
 */
static int peek_cpu(struct tb_fdr_peek *p, unsigned int cpu,
		    struct tb_buf *out,
		    uint64_t *bytes)
{
	struct tracebuf_fdr_peek a = {
		.buf = (uintptr_t)p->buf, .size = (uint32_t)p->size,
		.cpu = cpu, .next = p->next[cpu],
		.gen = p->seen[cpu] ? p->gen : 0,
	};
	bool first = !p->seen[cpu];
	int n;

	n = ioctl(p->fd, TRACEBUF_FDR_IOC_PEEK, &a);
	if (n < 0)
		return errno == EINVAL && first ? 1 : -errno;
	if (!p->gen)
		p->gen = a.gen;
	if (a.gen != p->gen)
		return -ESTALE;
	if (!p->has_header) {
		memcpy(p->header, a.header, sizeof(p->header));
		p->has_header = true;
		if (tb_buf_append(out, p->header, sizeof(p->header)))
			return -ENOMEM;
	}
	p->seen[cpu] = true;
	p->next[cpu] = a.next;
	/* From now: what the ring held before the first look is history. */
	if (first && p->from_now)
		return 0;
	p->missed += a.missed;
	p->pages += (unsigned int)n;
	if (tb_buf_append(out, p->buf, a.len))
		return -ENOMEM;
	*bytes += a.len;
	return 0;
}

int tb_fdr_peek_drain(struct tb_fdr_peek *p, struct tb_buf *out,
		      uint64_t *bytes)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		ret = peek_cpu(p, cpu, out, bytes);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void tb_fdr_peek_close(struct tb_fdr_peek *p)
{
	free(p->buf);
	free(p->next);
	free(p->seen);
	p->buf = NULL;
	p->next = NULL;
	p->seen = NULL;
}
