// SPDX-License-Identifier: GPL-2.0
/* JSON form of decoded XScale buffers; see convert/xs_json.h. */
#include <inttypes.h>

#include "convert/xs_json.h"

static const char *chk_name(unsigned int c)
{
	switch (c) {
	case TB_XS_CHK0: return "chkpt0";
	case TB_XS_CHK1: return "chkpt1";
	case TB_XS_CHK_LOST: return "lost";
	}
	return NULL;
}

static void json_msg(FILE *out, const struct tb_xs_msg *m)
{
	const char *chk = chk_name(m->checkpointed);

	fprintf(out, "{\"offset\": %" PRIu32 ", \"kind\": \"%s\"", m->offset,
		tb_xs_kind_name(m->kind));
	if (m->kind != TB_XS_RESERVED)
		fprintf(out, ", \"count\": %u", m->count);
	if (m->kind == TB_XS_EXCEPTION)
		fprintf(out, ", \"vector\": %u, \"vector_name\": \"%s\"",
			m->vector, tb_xs_vector_name(m->vector));
	if ((m->kind == TB_XS_BRANCH || m->kind == TB_XS_INDIRECT) &&
	    m->target_known)
		fprintf(out, ", \"target\": %" PRIu32, m->target);
	if (m->kind == TB_XS_RESERVED)
		fprintf(out, ", \"byte\": %u", m->raw);
	if (chk)
		fprintf(out, ", \"checkpoint\": \"%s\"", chk);
	fputc('}', out);
}

void tb_xs_json_buffer(FILE *out, unsigned long index,
		       const struct tb_xs_buffer *b, const struct tb_xs_msg *msgs,
		       const struct tb_xs_result *res)
{
	const char *sep = "";
	uint64_t insns = 0;
	unsigned int w;
	size_t i;

	fprintf(out, "{\"buffer\": %lu, \"size\": %u", index, b->hdr.buf_size);
	if (b->has_hdr)
		fprintf(out, ", \"seq\": %" PRIu64 ", \"lost_before\": %" PRIu64
			", \"flags\": %u, \"chkpt0\": %u, \"chkpt1\": %u",
			(uint64_t)b->hdr.seq, (uint64_t)b->hdr.lost_before,
			b->hdr.flags, b->hdr.chkpt0, b->hdr.chkpt1);
	fprintf(out, ", \"wrapped\": %s, \"unwritten\": %u, \"dropped\": %u, \"messages\": [",
		res->wrapped ? "true" : "false", res->wrapped ? 0 : res->zeros,
		res->wrapped ? res->fragment : 0);
	for (i = 0; i < res->nr; i++) {
		fputs(i ? ", " : "", out);
		json_msg(out, &msgs[i]);
		insns += msgs[i].kind == TB_XS_RESERVED ? 0 : msgs[i].count;
	}
	fputs("], \"warnings\": [", out);
	for (w = 0; w < TB_XS_W_NR; w++) {
		if (!(res->warn_mask & (1U << w)))
			continue;
		fprintf(out, "%s{\"offset\": %u, \"text\": \"%s\"}", sep,
			res->warn_offset[w], tb_xs_warn_text(w));
		sep = ", ";
	}
	fprintf(out, "], \"instructions\": %" PRIu64 "}\n", insns);
}
