// SPDX-License-Identifier: GPL-2.0
/* Zero-copy reading of /dev/tracebuf_fdr; see device/fdr_mmap.h. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "device/fdr_mmap.h"

/* Rounds of MMAP_GET on every CPU in one drain. */
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
	m->pages = calloc((size_t)(nr_cpus ? nr_cpus : 1) * TRACEBUF_FDR_PAGES,
			  sizeof(*m->pages));
	m->lens = calloc((size_t)(nr_cpus ? nr_cpus : 1) * TRACEBUF_FDR_PAGES,
			 sizeof(*m->lens));
	m->lending = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->lending));
	if (!m->map || !m->pages || !m->lens || !m->lending) {
		tb_fdr_mmap_close(m);
		return -ENOMEM;
	}
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
 * One MMAP_GET on @cpu: gives back what it lent before and appends the
 * pages it lends now to the round's (*@k so far).  Their number, or
 * -errno.
 */
static int take(struct tb_fdr_mmap *m, unsigned int cpu,
		struct tb_fdr_spool *out, unsigned int *k)
{
	const struct tracebuf_fdr_mmap_page *cp = m->map[cpu];
	const uint8_t *data = (const uint8_t *)cp + cp->data_offset;
	struct tracebuf_fdr_mmap_get g = { .cpu = cpu };
	int n, i;

	n = ioctl(m->fd, TRACEBUF_FDR_IOC_MMAP_GET, &g);
	if (n < 0)
		return -errno;
	if ((unsigned int)n != cp->count || n >= TRACEBUF_FDR_PAGES)
		return -EPROTO;
	/* Pages of another capture never follow this one's. */
	if (!m->gen)
		m->gen = cp->gen;
	else if (cp->gen != m->gen)
		return -ESTALE;
	if (!m->header_done) {
		tb_fdr_spool_header(out, cp->header);
		m->header_done = true;
	}
	for (i = 0; i < n; i++) {
		uint32_t slot = (cp->first + i) % cp->nr_pages;

		if (cp->page_len[slot] > cp->page_size)
			return -EPROTO;
		m->pages[*k] = data + (size_t)slot * cp->page_size;
		m->lens[(*k)++] = cp->page_len[slot];
	}
	return n;
}

/*
 * Rounds: every CPU that still lends is asked once, and the round's pages,
 * all CPUs', go out in one write (what an O_DIRECT spool pays for is the
 * write, more than its bytes).  The next MMAP_GET of a CPU gives back what
 * its previous one lent, so the round that lends nothing leaves nothing
 * borrowed; a CPU still lending after the last round is given back by the
 * next drain.
 */
int tb_fdr_mmap_drain(struct tb_fdr_mmap *m, struct tb_fdr_spool *out)
{
	const struct tracebuf_fdr_mmap_page *cp;
	unsigned int cpu, k;
	int round, n, ret, all = 1;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		m->lending[cpu] = m->map[cpu] != NULL;
	for (round = 0; round < TB_FDR_MMAP_ROUNDS; round++) {
		k = 0;
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			if (!m->lending[cpu])
				continue;
			n = take(m, cpu, out, &k);
			if (n == -ESTALE) {
				/* This capture's pages of the round first. */
				ret = tb_fdr_spool_pages(out, m->pages, m->lens, k);
				return ret ? ret : n;
			}
			if (n < 0)
				return n;
			if (n)
				continue;
			m->lending[cpu] = false;
			cp = m->map[cpu];
			all &= !!(cp->flags & TRACEBUF_FDR_MMAP_EOF);
		}
		/* Even none: the header of an empty capture is written. */
		ret = tb_fdr_spool_pages(out, m->pages, m->lens, k);
		if (ret)
			return ret;
		if (!k)
			break;
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (m->lending[cpu])
			all = 0;
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
	free(m->pages);
	free(m->lens);
	free(m->lending);
	m->map = NULL;
	m->pages = NULL;
	m->lens = NULL;
	m->lending = NULL;
}
