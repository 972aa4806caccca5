// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the META block's reader (lib/format/fdr_meta.h) and
 * the readers' use of it (lib/convert/trace_names.h: its names and tasks
 * texts loaded) over arbitrary bytes.  A block it reads is whole: its
 * texts are what the typed events of the first block hold, joined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/trace_names.h"
#include "format/fdr_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tb_trace_names_opts o = { 0 };
	struct tb_fdr_meta_block m;
	struct tb_trace_names t;
	struct tb_error err;
	char v[64];
	FILE *f;

	if (tb_fdr_meta_read_mem(data, size, &m))
		return 0;
	if (!m.present && (m.capture || m.names || m.tasks))
		abort();	/* a block not read left texts behind */
	if (m.names && strlen(m.names) > m.names_len)
		abort();
	tb_fdr_meta_value(&m, "capture", v, sizeof(v));
	tb_fdr_meta_free(&m);
	/* The same bytes as a file a reader opens: no companion beside it. */
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	tb_trace_names_load(&t, "-", f, &o, &err);
	tb_trace_names_free(&t);
	fclose(f);
	return 0;
}
