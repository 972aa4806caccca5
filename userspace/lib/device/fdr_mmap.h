/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zero-copy reading of /dev/tracebuf_fdr in streaming mode: every CPU's
 * ring mapped read-only, its closed pages borrowed with
 * TRACEBUF_FDR_IOC_MMAP_GET and written to a spool file straight from
 * the mapping (Documentation/fdr.rst, "Zero-copy reading"; the spool's
 * layout is device/fdr_spool.h's).
 */
#ifndef TB_FDR_MMAP_H
#define TB_FDR_MMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/fdr_spool.h"

struct tb_fdr_mmap {
	int fd;			/* the device */
	unsigned int nr_cpus;
	size_t size;		/* bytes of one CPU's mapping */
	size_t page_size;	/* bytes of a ring page, every CPU's */
	void **map;		/* per CPU; NULL: not a possible CPU */
	bool header_done;	/* the spool has the stream's header */
	/*
	 * The capture being read (tracebuf_fdr_stats.gen after START; 0:
	 * the first page's): a page of another one ends the drain.
	 */
	uint64_t gen;
	/* a drain's scratch: the pages of a round, every CPU's; who lends */
	const void **pages;
	uint32_t *lens;
	bool *lending;
};

/*
 * Map the rings of @nr_cpus CPUs (TRACEBUF_FDR_IOC_STATS's nr_cpus) of
 * buffers of @buf_size bytes on device @fd.  0 or -errno (nothing mapped).
 */
int tb_fdr_mmap_open(struct tb_fdr_mmap *m, int fd, uint32_t buf_size,
		     unsigned int nr_cpus);

/*
 * Write every CPU's closed pages to @out, header first, giving each back
 * once written.  Returns 1 when every CPU is at its end (capture stopped
 * and all read), 0 when more may come, -errno on failure: -ESTALE when
 * the capture is not m->gen any more (START or CONFIG by another file),
 * after writing what was read of it.
 */
int tb_fdr_mmap_drain(struct tb_fdr_mmap *m, struct tb_fdr_spool *out);

/* Give back anything still borrowed and unmap. */
void tb_fdr_mmap_close(struct tb_fdr_mmap *m);

#endif /* TB_FDR_MMAP_H */
