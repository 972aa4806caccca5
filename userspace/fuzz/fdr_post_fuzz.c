// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the collectors' post-processing (lib/convert/fdr_post.h) over
 * arbitrary bytes, merged (dense ids and kernel ids, as fdr-tidy), raw,
 * and with a META block.  Whatever it accepts, its output must read back
 * with every function record of the input, less the exits it says it
 * left out, plus those it says it added, and its META block must read back with its capture id.
 */
#include <stdio.h>
#include <stdlib.h>

#include "convert/fdr_post.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const uint8_t *data, size_t size, bool raw, bool keep_ids,
		bool meta)
{
	static const struct tb_fdr_post_meta pm = { .capture = "k v\n" };
	struct tb_fdr_post p = { .raw = raw, .keep_ids = keep_ids,
				 .meta = meta ? &pm : NULL };
	struct tb_fdr_meta_block m;
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
	/* Exits it added (calls whose exit was lost) are in out, not in. */
	if (!ret && in.functions + p.closed !=
		    out.functions + p.removed + p.meta_functions)
		abort();	/* records lost or made up */
	if (!ret && meta && (tb_fdr_meta_read_mem(buf, len, &m) ||
			     !m.present || !m.has_id || m.id != p.capture_id))
		abort();	/* a META block we cannot read back */
	if (!ret && meta)
		tb_fdr_meta_free(&m);
	tb_fdr_post_free(&p);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, false, false, false);
	one(data, size, false, true, false);
	one(data, size, true, false, false);
	one(data, size, false, false, true);
	one(data, size, true, false, true);
	return 0;
}
