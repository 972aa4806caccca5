// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the FDR reader, the text printer and the XScale
 * mapping reader over arbitrary bytes.
 */
#include <stdio.h>

#include "convert/fdr_print.h"
#include "convert/xs_fdr.h"
#include "format/fdr_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static int print(void *ctx, const struct tb_fdr_record *r)
{
	tb_fdr_print(devnull, r);
	return 0;
}

static int emit(void *ctx, const struct tracebuf_record *hdr, bool has_hdr,
		const uint8_t *d)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tb_error err;
	struct tb_xs_fdr_reader x;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	tb_fdr_reader_read_mem(data, size, NULL, print, NULL, NULL, &err);
	tb_xs_fdr_reader_init(&x, &err, emit, NULL);
	tb_fdr_reader_read_mem(data, size, NULL, tb_xs_fdr_visit, &x, NULL, &err);
	tb_xs_fdr_reader_finish(&x);
	return 0;
}
