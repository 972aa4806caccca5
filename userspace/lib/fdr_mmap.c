// SPDX-License-Identifier: GPL-2.0
/* Zero-copy reading of /dev/tracebuf_fdr; see fdr_mmap.h. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "fdr_mmap.h"

/* Rounds of pages one CPU may take in one drain before the next CPU's turn. */
#define TB_FDR_MMAP_ROUNDS	4

int tb_fdr_mmap_open(struct tb_fdr_mmap *m, int fd, uint32_t buf_size,
		     unsigned int nr_cpus)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned int cpu, mapped = 0;
	int err = 0;

	memset(m, 0, sizeof(*m));
	m->fd = fd;
	m->nr_cpus = nr_cpus;
	m->size = TRACEBUF_FDR_MMAP_SIZE(ps, buf_size);
	m->map = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->map));
	if (!m->map)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct tracebuf_fdr_mmap_page *cp;
		void *p = mmap(NULL, m->size, PROT_READ, MAP_SHARED, fd,
			       (off_t)cpu * m->size);

		if (p == MAP_FAILED) {
			/* A CPU that can never exist has no ring. */
			if (errno == EINVAL)
				continue;
			err = -errno;
			break;
		}
		m->map[cpu] = p;
		cp = p;
		if (cp->version < 1 ||
		    cp->size < offsetof(struct tracebuf_fdr_mmap_page, reserved) ||
		    cp->nr_pages != TRACEBUF_FDR_PAGES ||
		    (uint64_t)cp->page_size * cp->nr_pages != cp->data_size ||
		    cp->data_offset + cp->data_size > m->size ||
		    (m->page_size && cp->page_size != m->page_size)) {
			err = -EPROTO;
			break;
		}
		m->page_size = cp->page_size;
		mapped++;
	}
	if (!err && !mapped)
		err = -EINVAL;
	if (err)
		tb_fdr_mmap_close(m);
	return err;
}

/*
 * Take @cpu's closed pages and write them out, until it has none; the
 * next MMAP_GET gives back what the previous one lent, so the last one,
 * lending nothing, leaves nothing borrowed.  1 at the CPU's end.
 */
static int drain_cpu(struct tb_fdr_mmap *m, unsigned int cpu,
		     struct tb_fdr_spool *out)
{
	const struct tracebuf_fdr_mmap_page *cp = m->map[cpu];
	const uint8_t *data = (const uint8_t *)cp + cp->data_offset;
	const void *pages[TRACEBUF_FDR_PAGES];
	uint32_t lens[TRACEBUF_FDR_PAGES];
	int round, n, i, ret;

	for (round = 0; round < TB_FDR_MMAP_ROUNDS; round++) {
		struct tracebuf_fdr_mmap_get g = { .cpu = cpu };

		n = ioctl(m->fd, TRACEBUF_FDR_IOC_MMAP_GET, &g);
		if (n < 0)
			return -errno;
		if ((unsigned int)n != cp->count || n >= TRACEBUF_FDR_PAGES)
			return -EPROTO;
		if (!m->header_done) {
			tb_fdr_spool_header(out, cp->header);
			m->header_done = true;
		}
		for (i = 0; i < n; i++) {
			uint32_t slot = (cp->first + i) % cp->nr_pages;

			if (cp->page_len[slot] > cp->page_size)
				return -EPROTO;
			pages[i] = data + (size_t)slot * cp->page_size;
			lens[i] = cp->page_len[slot];
		}
		/* The last round of a drain lends nothing: no empty write. */
		ret = tb_fdr_spool_pages(out, pages, lens, n);
		if (ret)
			return ret;
		if (!n)
			return !!(cp->flags & TRACEBUF_FDR_MMAP_EOF);
	}
	/* Still lent: the next drain gives them back. */
	return 0;
}

int tb_fdr_mmap_drain(struct tb_fdr_mmap *m, struct tb_fdr_spool *out)
{
	unsigned int cpu;
	int ret, all = 1;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (!m->map[cpu])
			continue;
		ret = drain_cpu(m, cpu, out);
		if (ret < 0)
			return ret;
		all &= ret;
	}
	return all;
}

void tb_fdr_mmap_close(struct tb_fdr_mmap *m)
{
	unsigned int cpu;

	for (cpu = 0; m->map && cpu < m->nr_cpus; cpu++) {
		struct tracebuf_fdr_mmap_get g = {
			.cpu = cpu, .flags = TRACEBUF_FDR_MMAP_RELEASE,
		};

		if (!m->map[cpu])
			continue;
		ioctl(m->fd, TRACEBUF_FDR_IOC_MMAP_GET, &g);
		munmap(m->map[cpu], m->size);
	}
	free(m->map);
	m->map = NULL;
}
