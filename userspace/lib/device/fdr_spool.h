/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file a mapped reader of /dev/tracebuf_fdr writes the rings' pages
 * to while recording (Documentation/fdr.rst, "Zero-copy reading").
 *
 * Where the file system has O_DIRECT, the pages go from the mapping to
 * the disk without a copy through the page cache, which only whole,
 * aligned pages can: ring page k of the spool (in the order written) is
 * at offset (k + 1) * page_size, the first page_size bytes are kept for
 * the header, and the pages' lengths stay in memory.  Elsewhere (tmpfs,
 * a pipe's $TMPDIR) the pages are appended as they are, header first.
 * tb_fdr_spool_finish() leaves the same thing in the file either way:
 * the device stream read() gives, the FDR file header then whole blocks.
 * A spool may also append the stream to memory instead of a file (a
 * reader that summarizes it, tracebuf top): one copy, where a memory
 * file cost a copy in, the kernel's clearing of its pages and a copy
 * out.
 */
#ifndef TB_FDR_SPOOL_H
#define TB_FDR_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TB_FDR_SPOOL_HEADER	32	/* the FDR file header */
/* Pages written by one system call at most (a bigger call is split). */
#define TB_FDR_SPOOL_WRITE_PAGES	64

struct tb_buf;

struct tb_fdr_spool {
	int fd;			/* the caller's, open read-write */
	struct tb_buf *mem;	/* or the caller's memory (fd -1) */
	bool direct;		/* whole pages with O_DIRECT */
	size_t page_size;	/* a ring page's bytes */
	uint8_t header[TB_FDR_SPOOL_HEADER];
	bool has_header;	/* header set */
	bool header_written;	/* appended (not direct) */
	uint32_t *lens;		/* direct: the pages' lengths, in order */
	size_t nr, cap;
	uint64_t bytes;		/* of the stream: header and pages */
	int write_errno;	/* why a write failed (ENOSPC, EIO), or 0 */
};

/*
 * Spool to @fd, an empty regular file open read-write, pages of
 * @page_size bytes.  O_DIRECT is tried when @direct and @page_size is a
 * multiple of the system page size; the first write falls back to plain
 * writes if the file system refuses it after all.  s->direct says which
 * (a test may set it on a file without O_DIRECT: the layout is the same).
 */
void tb_fdr_spool_init(struct tb_fdr_spool *s, int fd, size_t page_size,
		       bool direct);

/*
 * Spool to memory: the stream appended to @mem as a file would get it
 * without O_DIRECT.  The caller may take what @mem holds and empty it
 * between calls; the header is not written again after that.
 */
void tb_fdr_spool_init_mem(struct tb_fdr_spool *s, struct tb_buf *mem,
			   size_t page_size);

/* The stream's header, from the first control page: kept, written first. */
void tb_fdr_spool_header(struct tb_fdr_spool *s, const void *header);

/*
 * Write @n pages, any number, in as few writes as TB_FDR_SPOOL_WRITE_PAGES
 * allows (a write is what O_DIRECT pays for, more than its bytes):
 * @pages[i] is a ring page in the mapping (page aligned, page_size bytes
 * readable), @lens[i] its bytes of blocks.  0 or -errno; a failed write
 * also sets s->write_errno, so that the caller can tell the file from
 * the pages at fault.
 */
int tb_fdr_spool_pages(struct tb_fdr_spool *s, const void *const *pages,
		       const uint32_t *lens, unsigned int n);

/*
 * Leave the stream in the file from offset 0, *@len bytes, and free the
 * lengths.  A direct spool is compacted in place; nothing the pages held
 * beyond their lengths survives.  0 or -errno.
 */
int tb_fdr_spool_finish(struct tb_fdr_spool *s, uint64_t *len);

#endif /* TB_FDR_SPOOL_H */
