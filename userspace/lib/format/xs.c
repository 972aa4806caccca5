// SPDX-License-Identifier: GPL-2.0
/*
 * XScale trace buffer decoder: backward classification from the newest
 * byte, then a forward pass that assigns checkpoint registers.  See
 * format/xs.h and Documentation/formats.rst.
 */
#include <errno.h>
#include <string.h>

#include "format/xs.h"

bool tb_xs_size_ok(size_t size)
{
	return size >= TB_XS_MIN_SIZE && size <= TB_XS_MAX_SIZE &&
	       !(size & (size - 1));
}

static void warn(struct tb_xs_result *res, unsigned int w, uint32_t off)
{
	if (!(res->warn_mask & (1U << w))) {
		res->warn_mask |= 1U << w;
		res->warn_offset[w] = off;
	}
}

/* Classify one message byte; indirect entries are finished by the caller. */
static void classify(uint8_t b, struct tb_xs_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->raw = b;
	m->count = b & 0x0f;
	if (!(b & 0x80)) {
		m->kind = TB_XS_EXCEPTION;
		m->vector = (b >> 4) & 7;
		return;
	}
	switch (b >> 4) {
	case 0x8:
	case 0xc:
		m->kind = TB_XS_BRANCH;
		m->checkpointed = (b & 0x40) ? TB_XS_CHK0 : TB_XS_CHK_NONE;
		break;
	case 0x9:
	case 0xd:
		m->kind = TB_XS_INDIRECT;
		m->checkpointed = (b & 0x40) ? TB_XS_CHK0 : TB_XS_CHK_NONE;
		break;
	default:
		if (b == 0xff) {
			m->kind = TB_XS_ROLLOVER;
			m->count = 16;
		} else {
			m->kind = TB_XS_RESERVED;
		}
		break;
	}
}

/*
 * Walk backwards from the newest byte.  A message position holding 0x00
 * is unwritten space (resets are never recorded), which ends the trace;
 * an indirect message without four bytes before it is the tail of an
 * entry the wrap partly overwrote, and is dropped.
 */
static size_t walk_back(const uint8_t *buf, size_t size,
			struct tb_xs_msg *msgs, struct tb_xs_result *res)
{
	size_t n = 0;
	size_t i = size;

	res->wrapped = true;
	while (i > 0) {
		size_t pos = i - 1;
		struct tb_xs_msg *m = &msgs[n];

		if (!buf[pos]) {
			size_t j;

			res->wrapped = false;
			res->zeros = (uint32_t)(pos + 1);
			for (j = 0; j < pos; j++) {
				if (buf[j]) {
					warn(res, TB_XS_W_STALE, (uint32_t)j);
					break;
				}
			}
			res->start = (uint32_t)(pos + 1);
			return n;
		}
		classify(buf[pos], m);
		m->offset = (uint32_t)pos;
		if (m->kind == TB_XS_INDIRECT) {
			if (pos < 4) {
				res->fragment = (uint32_t)(pos + 1);
				res->start = (uint32_t)(pos + 1);
				return n;
			}
			m->target = (uint32_t)buf[pos - 4] << 24 |
				    (uint32_t)buf[pos - 3] << 16 |
				    (uint32_t)buf[pos - 2] << 8 | buf[pos - 1];
			m->target_known = 1;
			i = pos - 4;
		} else {
			i = pos;
		}
		n++;
	}
	res->start = 0;
	return n;
}

/*
 * Could the checkpoint rule (Documentation/tracebuf.rst) have produced
 * checkpointed entries at read offsets @c[0] < ... < @c[n - 1]?  The
 * buffer is armed when cleared and each time the write position enters a
 * half, and only the first branch written while armed is checkpointed:
 * each pass of the write position over a half holds at most one.
 *
 * A buffer that did not wrap was written from index 0 on: the entry at
 * read offset o sits at index o - zeros, one per half [0, h), [h, size).
 * After a wrap the passes in the buffer, oldest first, are [0, b),
 * [b, b + h) and [b + h, size) in read offsets, for some b in [1, h]
 * that depends on the unknown write position.  So at most three, and
 * three only if some b puts them one per pass.
 */
static bool chkpt_rule_allows(const uint32_t *c, size_t n, size_t size,
			      const struct tb_xs_result *res)
{
	int64_t h = (int64_t)size / 2, lo, hi;

	if (!res->wrapped) {
		if (n > 2)
			return false;
		return n < 2 || (c[0] - res->zeros < h) !=
				(c[1] - res->zeros < h);
	}
	if (n < 3)
		return true;	/* two fit for any write position */
	if (n > 3)
		return false;
	/* c0 < b <= c1 < b + h <= c2, 1 <= b <= h */
	lo = c[0] + 1;
	if (c[1] + 1 - h > lo)
		lo = c[1] + 1 - h;
	hi = c[1];
	if (c[2] - h < hi)
		hi = c[2] - h;
	if (h < hi)
		hi = h;
	return lo <= hi;
}

/*
 * One checkpointed entry belongs to CHKPT0; with two, the older is CHKPT1.
 * The registers only remember two: after a wrap the rule can leave a
 * third, older one in the buffer, whose register was reused.  More than
 * the rule allows is reported.
 */
static void assign_chkpt(struct tb_xs_msg *msgs, size_t n, size_t size,
			 const struct tb_xs_chkpt_regs *regs,
			 struct tb_xs_result *res)
{
	uint32_t off[3];	/* the three newest, oldest first */
	uint32_t oldest = 0;
	size_t seen = 0;
	size_t i;

	for (i = n; i-- > 0;) {
		struct tb_xs_msg *m = &msgs[i];
		uint32_t reg;

		if (!m->checkpointed)
			continue;
		if (seen < 3)
			off[2 - seen] = m->offset;
		oldest = m->offset;
		seen++;
		if (seen > 2) {
			m->checkpointed = TB_XS_CHK_LOST;
			continue;
		}
		m->checkpointed = seen == 1 ? TB_XS_CHK0 : TB_XS_CHK1;
		if (!regs || !regs->valid)
			continue;
		reg = seen == 1 ? regs->chkpt0 : regs->chkpt1;
		if (m->kind == TB_XS_INDIRECT) {
			if (m->target != reg)
				warn(res, TB_XS_W_CHKPT, m->offset);
		} else {
			m->target = reg;
			m->target_known = 1;
		}
	}
	if (seen > 3 || !chkpt_rule_allows(off + 3 - seen, seen, size, res))
		warn(res, TB_XS_W_EXTRA_CHKPT, oldest);
}

int tb_xs_decode(const uint8_t *buf, size_t size,
		 const struct tb_xs_chkpt_regs *regs,
		 struct tb_xs_msg *msgs, struct tb_xs_result *res)
{
	size_t i, n;

	memset(res, 0, sizeof(*res));
	if (!tb_xs_size_ok(size))
		return -EINVAL;
	n = walk_back(buf, size, msgs, res);
	/* Oldest first from here on. */
	for (i = 0; i < n / 2; i++) {
		struct tb_xs_msg t = msgs[i];

		msgs[i] = msgs[n - 1 - i];
		msgs[n - 1 - i] = t;
	}
	for (i = 0; i < n; i++) {
		const struct tb_xs_msg *m = &msgs[i];

		if (m->kind == TB_XS_RESERVED)
			warn(res, TB_XS_W_RESERVED, m->offset);
		else if (m->kind == TB_XS_EXCEPTION &&
			 (m->vector == 0 || m->vector == 5))
			warn(res, TB_XS_W_VECTOR, m->offset);
	}
	assign_chkpt(msgs, n, size, regs, res);
	res->nr = n;
	return 0;
}

size_t tb_xs_encode(const struct tb_xs_msg *m, uint8_t out[5])
{
	if (m->kind == TB_XS_INDIRECT) {
		out[0] = (uint8_t)(m->target >> 24);
		out[1] = (uint8_t)(m->target >> 16);
		out[2] = (uint8_t)(m->target >> 8);
		out[3] = (uint8_t)m->target;
		out[4] = m->raw;
		return 5;
	}
	out[0] = m->raw;
	return 1;
}

const char *tb_xs_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		[TB_XS_EXCEPTION] = "exception",
		[TB_XS_BRANCH] = "branch",
		[TB_XS_INDIRECT] = "indirect",
		[TB_XS_ROLLOVER] = "rollover",
		[TB_XS_RESERVED] = "reserved",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

const char *tb_xs_vector_name(unsigned int vector)
{
	static const char *const names[] = {
		"reset", "undef", "swi", "pabort",
		"dabort", "unused", "irq", "fiq",
	};

	return vector < 8 ? names[vector] : "?";
}

const char *tb_xs_warn_text(unsigned int w)
{
	switch (w) {
	case TB_XS_W_RESERVED:
		return "reserved message encoding";
	case TB_XS_W_VECTOR:
		return "exception on a vector the hardware never records (reset/unused)";
	case TB_XS_W_CHKPT:
		return "checkpoint register disagrees with the decoded target";
	case TB_XS_W_EXTRA_CHKPT:
		return "more checkpointed entries than the checkpoint rule allows";
	case TB_XS_W_STALE:
		return "non-zero bytes in the unwritten area";
	}
	return "?";
}
