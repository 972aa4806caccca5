// SPDX-License-Identifier: GPL-2.0
/*
 * XScale trace buffers -> GDB trace file (arm), the mapping of
 * Documentation/conversions.rst; see convert/xs_tfile.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "convert/xs_tfile.h"
#include "format/tfile.h"
#include "util/bytes.h"
#include "util/hash.h"

/* One frame per message, one tracepoint per address. */
enum {
	XT_KIND = 1, XT_COUNT, XT_VECTOR, XT_CHKPT, XT_TARGET, XT_OFFSET,
	XT_BUFFER, XT_ICOUNT,
};
static const char *const xt_names[] = {
	NULL, "kind", "count", "vector", "chkpt", "target", "offset",
	"buffer", "icount",
};
static const char *const xt_cmds[] = {
	"collect $kind, $count, $vector, $chkpt",
	"collect $target, $offset, $buffer, $icount",
};

struct tb_xs_tfile {
	struct tb_tfile_writer *w;
	struct tb_hash tps;	/* address + 1 -> tracepoint number */
	unsigned int ntp;
	unsigned long buffer;
	uint64_t icount;
};

/* The tracepoint of @addr in *@tp, defined on first use: 0 or -errno. */
static int xt_tracepoint(struct tb_xs_tfile *x, uint64_t addr,
			 unsigned int *tp)
{
	char name[64];

	*tp = tb_hash_get(&x->tps, addr + 1);
	if (*tp)
		return 0;
	if (x->ntp == TB_TFILE_MAX_TP)
		return -E2BIG;
	*tp = ++x->ntp;
	if (tb_hash_put(&x->tps, addr + 1, *tp))
		return -ENOMEM;
	if (addr == TB_XS_TFILE_UNKNOWN_ADDR)
		snprintf(name, sizeof(name), "unknown target");
	else
		snprintf(name, sizeof(name), "target 0x%08" PRIx64, addr);
	if (tb_tfile_tracepoint(x->w, *tp, addr, name, xt_cmds, 2))
		return -ENOMEM;
	return 0;
}

/* The address execution continued at, when the message tells us. */
static uint64_t xt_addr(const struct tb_xs_msg *m)
{
	if (m->kind == TB_XS_EXCEPTION)
		return (uint64_t)m->vector * 4;	/* low vectors */
	if (m->target_known)
		return m->target;
	return TB_XS_TFILE_UNKNOWN_ADDR;
}

int tb_xs_tfile_buffer(struct tb_xs_tfile *x, const struct tb_xs_msg *msgs,
		       const struct tb_xs_result *res)
{
	size_t i;
	int ret;

	for (i = 0; i < res->nr; i++) {
		const struct tb_xs_msg *m = &msgs[i];
		uint64_t addr = xt_addr(m);
		uint8_t regs[TB_XS_TFILE_REG_SIZE] = { 0 };
		int64_t v[XT_ICOUNT];
		unsigned int tp;

		ret = xt_tracepoint(x, addr, &tp);
		if (ret)
			return ret;
		x->icount += m->kind == TB_XS_RESERVED ? 0 : m->count;
		/*
		 * gdb's ARM unwinder needs registers to step between frames:
		 * give it pc (r15) and a plausible cpsr (SVC mode), the
		 * rest read as zero.
		 */
		tb_bytes_put32(regs + 15 * 4, (uint32_t)addr);
		tb_bytes_put32(regs + TB_XS_TFILE_REG_SIZE - 4, 0xd3);
		tb_tfile_frame_begin(x->w, tp);
		tb_tfile_frame_regs(x->w, regs);
		v[XT_KIND - 1] = m->kind;
		v[XT_COUNT - 1] = m->count;
		v[XT_VECTOR - 1] = m->kind == TB_XS_EXCEPTION ? m->vector : -1;
		v[XT_CHKPT - 1] = m->checkpointed;
		v[XT_TARGET - 1] = m->target_known ? (int64_t)m->target : -1;
		v[XT_OFFSET - 1] = m->offset;
		v[XT_BUFFER - 1] = (int64_t)x->buffer;
		v[XT_ICOUNT - 1] = (int64_t)x->icount;
		tb_tfile_frame_tsvs(x->w, XT_KIND, v, XT_ICOUNT);
		if (tb_tfile_frame_end(x->w))
			return -EIO;
	}
	x->buffer++;
	return 0;
}

struct tb_xs_tfile *tb_xs_tfile_create(FILE *out)
{
	struct tb_xs_tfile *x = calloc(1, sizeof(*x));
	unsigned int i;

	if (!x)
		return NULL;
	x->w = tb_tfile_create(out, "arm", TB_XS_TFILE_REG_SIZE);
	if (!x->w) {
		free(x);
		return NULL;
	}
	for (i = XT_KIND; i <= XT_ICOUNT; i++)
		tb_tfile_tsv(x->w, i, xt_names[i], 0);
	return x;
}

int tb_xs_tfile_finish(struct tb_xs_tfile *x)
{
	int ret = tb_tfile_finish(x->w);

	tb_hash_free(&x->tps);
	free(x);
	return ret;
}
