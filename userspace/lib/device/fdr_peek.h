/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following a capture another process started, without taking part in
 * it: every CPU's closed pages copied with TRACEBUF_FDR_IOC_PEEK, which
 * neither consumes, closes nor holds them (Documentation/fdr.rst,
 * "Looking without reading").  What the capture's own reader took, or a
 * flight recorder overwrote, before a look is counted in @missed.
 */
#ifndef TB_FDR_PEEK_H
#define TB_FDR_PEEK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tb_buf;

struct tb_fdr_peek {
	int fd;			/* the device */
	unsigned int nr_cpus;
	uint64_t gen;		/* the capture followed; 0: the first seen */
	bool from_now;		/* the first look of a CPU only finds its place */
	uint64_t *next;		/* per CPU: the next page to copy */
	bool *seen;		/* per CPU: @next is of capture @gen */
	void *buf;		/* one call's pages */
	size_t size;
	uint8_t header[32];	/* the capture's FDR file header */
	bool has_header;
	uint64_t pages;		/* copied so far */
	uint64_t missed;	/* pages gone before they were copied */
};

/*
 * Follow the capture on device @fd (@nr_cpus: tracebuf_fdr_stats's,
 * @buf_size: its buffers' bytes per CPU), capture @gen (0: whichever the
 * first look finds), from its oldest pages or, @from_now, from the pages
 * that close after the first look.  0 or -errno.
 */
int tb_fdr_peek_open(struct tb_fdr_peek *p, int fd, unsigned int nr_cpus,
		     uint32_t buf_size, uint64_t gen, bool from_now);

/*
 * Append every CPU's pages not seen yet to @out (the header first, once),
 * adding the pages' bytes to *@bytes.  0, -ESTALE once the device holds
 * another capture (nothing of it is written), or another -errno
 * (-ENOTTY: a module without TRACEBUF_FDR_IOC_PEEK).
 */
int tb_fdr_peek_drain(struct tb_fdr_peek *p, struct tb_buf *out,
		      uint64_t *bytes);

void tb_fdr_peek_close(struct tb_fdr_peek *p);

#endif /* TB_FDR_PEEK_H */
