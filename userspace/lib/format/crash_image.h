/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory images of a dead kernel, for `tracebuf crash`
 * (convert/crash_recover.h).  The image is an ELF core of physical
 * memory: the /proc/vmcore that kdump's capture kernel shows, makedumpfile
 * -E output, qemu's dump-guest-memory, or a running kernel's /proc/kcore;
 * PT_LOAD segments map physical addresses (p_paddr) to file offsets.  Or
 * it is in the kdump-compressed format (makedumpfile -c, qemu's
 * kdump-zlib): bitmaps of the pages dumped, then a descriptor per page and
 * its bytes, zlib-compressed or as they are (LZO, snappy and zstd pages
 * are refused), also in makedumpfile's flattened form (-F, and what qemu
 * 7.2 writes).
 *
 * Every input is untrusted: sizes, counts and addresses are bounded
 * before use, and a bad image gives -1 and a message, never a crash.
 */
#ifndef TB_CRASH_IMAGE_H
#define TB_CRASH_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* Where the image's bytes come from: a file, or memory (tests, fuzzers). */
struct tb_crash_src {
	/* Read @n bytes at @off: 0, or -1 (short or failed read). */
	int (*read)(const struct tb_crash_src *s, uint64_t off, void *dst,
		    size_t n);
	const uint8_t *mem;	/* memory source */
	int fd;			/* file source */
	const void *priv;	/* a source layered on another (flattened) */
	uint64_t size;		/* bytes of the image (UINT64_MAX: unknown) */
};

/* A source over @len bytes at @buf. */
void tb_crash_image_src_mem(struct tb_crash_src *s, const void *buf, size_t len);
/* A source over an open file of @size bytes (UINT64_MAX: unknown), pread. */
void tb_crash_image_src_fd(struct tb_crash_src *s, int fd, uint64_t size);

struct tb_crash_seg {
	uint64_t paddr;		/* physical address of the first byte */
	uint64_t off;		/* file offset */
	uint64_t len;		/* bytes present in the file */
};

struct tb_crash_kdump;
struct tb_crash_flat;

struct tb_crash_image {
	struct tb_crash_src src;
	struct tb_crash_seg *segs;	/* ELF: the memory it holds */
	size_t nsegs;
	struct tb_crash_kdump *kd;	/* kdump-compressed, or NULL */
	struct tb_crash_flat *flat;	/* flattened kdump (makedumpfile -F) */
};

/*
 * Parse the ELF header and program headers, or the kdump-compressed
 * headers and bitmaps.  Returns 0, or -1 with @err set (not a memory
 * image, another format, truncated).
 */
int tb_crash_image_open(struct tb_crash_image *im,
			const struct tb_crash_src *src, struct tb_error *err);
/* Read @n bytes of physical memory at @pa: 0, or -1 when not in the image. */
int tb_crash_image_phys(const struct tb_crash_image *im, uint64_t pa,
			void *dst, size_t n);
void tb_crash_image_free(struct tb_crash_image *im);

/* @ctx's callback for every copy of the magic found at physical @pa. */
typedef void (*tb_crash_image_seen_fn)(void *ctx,
				       const struct tb_crash_image *im,
				       uint64_t pa);

/*
 * Call @seen for every physical address aligned to @align (a power of
 * two, a page at most) where the image holds the @magic_len bytes of
 * @magic, in every page the image has.  0, or -ENOMEM.
 */
int tb_crash_image_scan(const struct tb_crash_image *im, uint32_t align,
			const void *magic, size_t magic_len,
			tb_crash_image_seen_fn seen, void *ctx);

#endif /* TB_CRASH_IMAGE_H */
