/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder's trace out of a crash image (format/crash_image.h):
 * the module's crash descriptor found by its magic and checked, then
 * every CPU's frozen ring read block by block into one FDR v5 stream,
 * damaged blocks dropped and noted (`tracebuf crash`).
 *
 * The recorder's crash descriptor (uapi/linux/tracebuf_crash.h) is found
 * by scanning the image's pages for its magic, checked (version, sizes,
 * checksums), and followed by physical address.  Every CPU's pages, oldest
 * first, become FDR blocks; each block is checked with the FDR reader on
 * its own, and a damaged one is dropped and reported while the rest is
 * kept.  The result is an FDR v5 stream (header and blocks in any order)
 * for the collectors' post-processing (convert/fdr_post.h).
 */
#ifndef TB_CRASH_RECOVER_H
#define TB_CRASH_RECOVER_H

#include <stddef.h>
#include <stdint.h>

#include "format/crash_image.h"
#include "util/error.h"

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
 * tb_crash_recover_free() in every case).  Returns 0, or -1 with @err
 * saying why nothing could be recovered: no descriptor (the kernel did not
 * run the module, or the image lacks its memory), a damaged one, the
 * recorder never started, stopped, or not frozen at a panic.
 */
int tb_crash_recover(const struct tb_crash_image *im,
		     struct tb_crash_result *res, tb_crash_note_fn note,
		     void *ctx, struct tb_error *err);
void tb_crash_recover_free(struct tb_crash_result *res);

/* CRC-32 (IEEE 802.3, zlib's crc32()), continuing from @crc (0 to start). */
uint32_t tb_crash_recover_crc32(uint32_t crc, const void *buf, size_t len);

#endif /* TB_CRASH_RECOVER_H */
