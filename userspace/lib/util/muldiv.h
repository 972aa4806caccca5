/* SPDX-License-Identifier: GPL-2.0 */
/*
 * a * b / c without losing the product's high bits: ticks to nanoseconds
 * and back, where a trace's clock and times are the file's words and the
 * product does not fit 64 bits.  32-bit hosts (the PXA270 build) have no
 * 128-bit integer, so the product is formed and divided in 64-bit halves
 * there (TB_MULDIV_NO_INT128 builds that path anywhere, for its test).
 */
#ifndef TB_MULDIV_H
#define TB_MULDIV_H

#include <stdint.h>

/* floor(@a * @b / @c), UINT64_MAX when that does not fit (or @c is 0). */
static inline uint64_t tb_muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
#if defined(__SIZEOF_INT128__) && !defined(TB_MULDIV_NO_INT128)
	unsigned __int128 q;

	if (!c)
		return UINT64_MAX;
	q = (unsigned __int128)a * b / c;
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
#else
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	uint64_t lo = (mid << 32) | (uint32_t)ll;
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	uint64_t q = 0;
	int i;

	if (!c || hi >= c)
		return UINT64_MAX;
	/* hi:lo / c, a bit at a time; hi < c throughout. */
	for (i = 0; i < 64; i++) {
		uint64_t top = hi >> 63;

		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (top || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
#endif
}

#endif /* TB_MULDIV_H */
