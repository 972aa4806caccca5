// SPDX-License-Identifier: GPL-2.0
/* Text form of decoded XScale buffers; see convert/xs_print.h. */
#include <inttypes.h>

#include "convert/xs_print.h"

static const char *chk_name(unsigned int c)
{
	switch (c) {
	case TB_XS_CHK0: return " chkpt0";
	case TB_XS_CHK1: return " chkpt1";
	case TB_XS_CHK_LOST: return " chkpt?";
	}
	return "";
}

void tb_xs_print_buffer(FILE *out, unsigned long index,
			const struct tb_xs_buffer *b,
			const struct tb_xs_msg *msgs,
			const struct tb_xs_result *res)
{
	uint64_t insns = 0;
	unsigned int w;
	size_t i;

	fprintf(out, "# buffer %lu: %u bytes", index, b->hdr.buf_size);
	if (b->has_hdr)
		fprintf(out, ", seq %" PRIu64 ", lost before %" PRIu64
			", flags 0x%x, chkpt0 0x%08x, chkpt1 0x%08x",
			(uint64_t)b->hdr.seq, (uint64_t)b->hdr.lost_before,
			b->hdr.flags, b->hdr.chkpt0, b->hdr.chkpt1);
	fputc('\n', out);
	if (res->wrapped)
		fprintf(out, "# wrapped or full, %u byte(s) of an overwritten entry dropped\n",
			res->fragment);
	else
		fprintf(out, "# not wrapped, %u unwritten byte(s)\n",
			res->zeros);
	for (i = 0; i < res->nr; i++) {
		const struct tb_xs_msg *m = &msgs[i];

		fprintf(out, "%6" PRIx32 "  %-9s", m->offset,
			tb_xs_kind_name(m->kind));
		switch (m->kind) {
		case TB_XS_EXCEPTION:
			fprintf(out, " count=%-2u vector=%u(%s)", m->count,
				m->vector, tb_xs_vector_name(m->vector));
			break;
		case TB_XS_BRANCH:
		case TB_XS_INDIRECT:
			if (m->target_known)
				fprintf(out, " count=%-2u target=0x%08" PRIx32,
					m->count, m->target);
			else
				fprintf(out, " count=%u", m->count);
			break;
		case TB_XS_ROLLOVER:
			fprintf(out, " count=16");
			break;
		case TB_XS_RESERVED:
			fprintf(out, " byte=0x%02x", m->raw);
			break;
		}
		fprintf(out, "%s\n", chk_name(m->checkpointed));
		insns += m->kind == TB_XS_RESERVED ? 0 : m->count;
	}
	for (w = 0; w < TB_XS_W_NR; w++)
		if (res->warn_mask & (1U << w))
			fprintf(out, "# warning: offset 0x%x: %s: trace is suspect\n",
				res->warn_offset[w], tb_xs_warn_text(w));
	fprintf(out, "# %zu message(s), %" PRIu64 " instruction(s) counted\n",
		res->nr, insns);
}
