// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the GDB trace file reader over arbitrary bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/tfile_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int sum;

/* Touch every byte the reader hands out, so ASan checks the bounds. */
static int block(void *ctx, const struct tb_tfile_block *b)
{
	uint32_t i;

	for (i = 0; b->data && i < b->len; i++)
		sum += b->data[i];
	return 0;
}

static int line(void *ctx, const char *l)
{
	sum += (unsigned int)strlen(l);
	return 0;
}

static int frame(void *ctx, unsigned int tp, uint64_t offset, uint32_t size)
{
	sum += tp;
	return 0;
}

/* Warnings must be "offset N: ..." like errors. */
static void warning(void *ctx, const struct tb_error *w)
{
	if (strncmp(w->msg, "offset ", 7))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tb_tfile_visitor v = {
		.line = line, .frame = frame, .block = block,
		.warning = warning,
	};
	struct tb_error err;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	tb_tfile_reader_read(f, &v, NULL, NULL, &err);
	fclose(f);
	return 0;
}
