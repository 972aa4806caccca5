// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: trace buffer input detection (raw, record, chain) and
 * the decoder, then the re-encoding check: messages must rebuild the bytes
 * they were decoded from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/xs_print.h"
#include "format/xs.h"
#include "format/xs_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct tb_xs_input in;
	struct tb_xs_buffer b;
	FILE *f;

	if (!size)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	tb_xs_record_init(&in, f, 256);
	while (tb_xs_record_next(&in, &b) > 0) {
		struct tb_xs_msg *m = malloc(b.hdr.buf_size * sizeof(*m));
		struct tb_xs_chkpt_regs regs = { b.has_hdr, b.hdr.chkpt0,
						 b.hdr.chkpt1 };
		struct tb_xs_result res;
		size_t i, pos;
		uint8_t enc[5];

		if (tb_xs_decode(b.data, b.hdr.buf_size, &regs, m, &res))
			abort();
		pos = res.start;
		for (i = 0; i < res.nr; i++) {
			size_t n = tb_xs_encode(&m[i], enc);

			if (pos + n > b.hdr.buf_size ||
			    memcmp(enc, b.data + pos, n))
				abort();
			pos += n;
		}
		if (pos != b.hdr.buf_size)
			abort();
		tb_xs_print_buffer(devnull, 0, &b, m, &res);
		free(m);
	}
	tb_xs_record_release(&in);
	fclose(f);
	return 0;
}
