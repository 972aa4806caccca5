/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder's rings out of a memory image of a dead kernel
 * (`tracebuf crash`).  The image is an ELF core of physical memory: the
 * /proc/vmcore that kdump's capture kernel shows, makedumpfile -E output,
 * qemu's dump-guest-memory, or a running kernel's /proc/kcore; PT_LOAD
 * segments map physical addresses (p_paddr) to file offsets.  Or it is in
 * the kdump-compressed format (makedumpfile -c, qemu's kdump-zlib):
 * bitmaps of the pages dumped, then a descriptor per page and its bytes,
 * zlib-compressed or as they are (LZO, snappy and zstd pages are refused),
 * also in makedumpfile's flattened form (-F, and what qemu 7.2 writes).
 *
 * The recorder's crash descriptor (uapi/linux/tracebuf_crash.h) is found
 * by scanning the image's pages for its magic, checked (version, sizes,
 * checksums), and followed by physical address.  Every CPU's pages, oldest
 * first, become FDR blocks; each block is checked with the FDR reader on
 * its own, and a damaged one is dropped and reported while the rest is
 * kept.  The result is an FDR v5 stream (header and blocks in any order)
 * for the collectors' post-processing (fdr_post.h).
 *
 * Every input is untrusted: sizes, counts and addresses are bounded
 * before use, and a bad image gives -1 and a message, never a crash.
 */
#ifndef TB_CRASH_IMAGE_H
#define TB_CRASH_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tb_error.h"

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
void tb_crash_src_mem(struct tb_crash_src *s, const void *buf, size_t len);
/* A source over an open file of @size bytes (UINT64_MAX: unknown), pread. */
void tb_crash_src_fd(struct tb_crash_src *s, int fd, uint64_t size);

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

/* What the recovery found, per CPU and in total. */
struct tb_crash_cpu_result {
	uint64_t blocks;	/* kept */
	uint64_t dropped;	/* damaged blocks dropped */
	uint64_t bytes;		/* kept */
	uint32_t flags;		/* TRACEBUF_CRASH_CPU_* */
};

struct tb_crash_result {
	uint8_t *stream;	/* FDR v5: header, then every kept block */
	size_t len;
	uint32_t nr_cpus;
	uint32_t panic_cpu;
	uint64_t capture;
	uint64_t desc_paddr;	/* where the descriptor was found */
	struct tb_crash_cpu_result *cpus;
	uint64_t blocks, dropped;
	/*
	 * The kernel's id-to-name text at the panic (TRACEBUF_FDR_IOC_NAMES
	 * lines, NUL-terminated), checked against its checksum; NULL when
	 * the descriptor has none or it is damaged (noted).
	 */
	char *names;
	size_t names_len;
};

/*
 * Called for every damage found and dropped (a block, a CPU, a page), and
 * for other descriptors found and not used.
 */
typedef void (*tb_crash_note_fn)(void *ctx, const char *msg);

/*
 * Find the descriptor and recover the frozen rings into @res (free it with
 * tb_crash_result_free() in every case).  Returns 0, or -1 with @err
 * saying why nothing could be recovered: no descriptor (the kernel did not
 * run the module, or the image lacks its memory), a damaged one, the
 * recorder never started, stopped, or not frozen at a panic.
 */
int tb_crash_recover(const struct tb_crash_image *im,
		     struct tb_crash_result *res, tb_crash_note_fn note,
		     void *ctx, struct tb_error *err);
void tb_crash_result_free(struct tb_crash_result *res);

/* CRC-32 (IEEE 802.3, zlib's crc32()), continuing from @crc (0 to start). */
uint32_t tb_crc32(uint32_t crc, const void *buf, size_t len);

#endif /* TB_CRASH_IMAGE_H */
