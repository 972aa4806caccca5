// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: `tracebuf crash`'s image parser and recovery
 * (format/crash_image.h) over arbitrary bytes taken as an ELF core.
 *
 * Most mutations of a descriptor or a frame table would only meet the
 * checksums, so every input is tried twice: as it is, and with the
 * checksums of the descriptors it holds made right, when it maps file
 * offsets to the same physical addresses (as the seed, from
 * crash_image_test's smallest_image, does).  The second run is what
 * reaches the ring walk and the block checks, and the names area (its
 * checksum made right too), whose text goes through the names parser
 * `tracebuf crash` gives it to.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf_crash.h>

#include "convert/crash_recover.h"
#include "convert/fdr_post.h"
#include "format/crash_image.h"
#include "format/name_map.h"
#include "util/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void note(void *ctx, const char *msg)
{
}

static void run(const uint8_t *data, size_t size)
{
	struct tb_crash_result res;
	struct tb_crash_image im;
	struct tb_crash_src src;
	struct tb_error err;

	tb_crash_image_src_mem(&src, data, size);
	if (tb_crash_image_open(&im, &src, &err))
		return;
	if (!tb_crash_recover(&im, &res, note, NULL, &err) && res.names) {
		struct tb_name_map m = { 0 };

		if (!tb_fdr_post_kernel_names(&m, res.names))
			tb_name_map_finish(&m, &err);
		tb_name_map_free(&m);
	}
	tb_crash_recover_free(&res);
	tb_crash_image_free(&im);
}

/* Fix the checksums of a descriptor at @d, physical address == offset. */
static void fix(uint8_t *buf, size_t size, size_t d)
{
	struct tracebuf_crash_desc h;
	uint64_t ntables, i, t;
	uint32_t crc = 0;

	memcpy(&h, buf + d, sizeof(h));
	if (h.size < sizeof(h) || h.size > size - d || !h.frame_size ||
	    h.frame_size > size)
		return;
	ntables = (uint64_t)h.nr_cpus * h.tables_per_cpu;
	if (ntables > (h.size - sizeof(h)) / 8)
		return;
	for (i = 0; i < ntables; i++) {
		t = tb_bytes_get64(buf + d + h.size - (ntables - i) * 8);
		if (t > size - h.frame_size)
			return;
		crc = tb_crash_recover_crc32(crc, buf + t, h.frame_size);
	}
	tb_bytes_put32(buf + d + offsetof(struct tracebuf_crash_desc, tables_checksum), crc);
	if (h.version >= 2 && h.names_paddr <= size &&
	    h.names_len <= size - h.names_paddr)
		tb_bytes_put32(buf + d + offsetof(struct tracebuf_crash_desc, names_checksum),
			       tb_crash_recover_crc32(0, buf + h.names_paddr, h.names_len));
	tb_bytes_put32(buf + d + offsetof(struct tracebuf_crash_desc, checksum), 0);
	tb_bytes_put32(buf + d + offsetof(struct tracebuf_crash_desc, checksum),
		       tb_crash_recover_crc32(0, buf + d, h.size));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	size_t off;
	bool any = false;

	run(data, size);
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (off = 0; off + sizeof(struct tracebuf_crash_desc) <= size; off += 4096) {
		if (memcmp(copy + off, TRACEBUF_CRASH_MAGIC,
			   TRACEBUF_CRASH_MAGIC_SIZE))
			continue;
		fix(copy, size, off);
		any = true;
	}
	if (any)
		run(copy, size);
	free(copy);
	return 0;
}
