// SPDX-License-Identifier: GPL-2.0
/*
 * util/muldiv.h's 32-bit path (the one the PXA270 build takes: no 128-bit
 * integer there), built here on purpose, against the exact quotient: the
 * edges of 64 bits, a clock's frequencies, and a million random triples.
 */
#include <stdint.h>

#define TB_MULDIV_NO_INT128
#include "util/muldiv.h"

#include "tb_harness.h"

/* The exact answer, where the compiler has 128 bits. */
static uint64_t exact(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 q;

	if (!c)
		return UINT64_MAX;
	q = (unsigned __int128)a * b / c;
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
#else
	return tb_muldiv64(a, b, c);	/* nothing to compare with */
#endif
}

static uint64_t next(uint64_t *s)
{
	/* xorshift64*: every bit pattern, reproducible */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

TEST(edges)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 999999999, 1000000000, 2596000000ULL,
		UINT32_MAX, (uint64_t)UINT32_MAX + 1, UINT64_MAX / 2,
		UINT64_MAX / 2 + 1, UINT64_MAX - 1, UINT64_MAX,
	};
	unsigned int i, j, k, n = sizeof(v) / sizeof(v[0]);

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				ASSERT_EQ(exact(v[i], v[j], v[k]),
					  tb_muldiv64(v[i], v[j], v[k]))
					TH_LOG("%llu * %llu / %llu",
					       (unsigned long long)v[i],
					       (unsigned long long)v[j],
					       (unsigned long long)v[k]);
}

TEST(random_triples)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL, a, b, c;
	unsigned int i;

	for (i = 0; i < 1000000; i++) {
		a = next(&s) >> (next(&s) & 63);
		b = next(&s) >> (next(&s) & 63);
		c = next(&s) >> (next(&s) & 63);
		ASSERT_EQ(exact(a, b, c), tb_muldiv64(a, b, c))
			TH_LOG("%llu * %llu / %llu", (unsigned long long)a,
			       (unsigned long long)b, (unsigned long long)c);
	}
}

TEST_HARNESS_MAIN
