// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the collectors' post-processing (lib/convert/fdr_post.h) over
 * arbitrary bytes, merged (dense ids and kernel ids, as fdr-tidy) and raw.
 * Whatever it accepts, its output must read back with every function
 * record of the input, less the exits it says it left out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "convert/fdr_post.h"
#include "format/fdr_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const uint8_t *data, size_t size, bool raw, bool keep_ids)
{
	struct tb_fdr_post p = { .raw = raw, .keep_ids = keep_ids };
	struct tb_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct tb_fdr_stats in, out;
	int ret;

	if (!f)
		return;
	ret = tb_fdr_post_run(&p, data, size, f, &err);
	fclose(f);
	if (!ret &&
	    (tb_fdr_reader_read_mem(data, size, NULL, NULL, NULL, &in, &err) ||
	     tb_fdr_reader_read_mem(buf, len, NULL, NULL, NULL, &out, &err)))
		abort();	/* we wrote what we cannot read */
	if (!ret && in.functions != out.functions + p.removed)
		abort();	/* records lost or made up */
	tb_fdr_post_free(&p);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, false, false);
	one(data, size, false, true);
	one(data, size, true, false);
	return 0;
}
