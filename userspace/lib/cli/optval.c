// SPDX-License-Identifier: GPL-2.0
/* The common options' value grammars; see cli/optval.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "util/parse.h"

void tb_optval_format_size(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "KMG";
	int i;

	for (i = 2; i >= 0; i--) {
		uint64_t unit = 1ULL << (10 * (i + 1));

		if (v && !(v % unit)) {
			snprintf(buf, len, "%" PRIu64 "%c", v / unit, suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

int tb_optval_size(const char *what, const char *s, uint64_t min,
		   uint64_t max, bool pow2, uint64_t *out, char *msg,
		   size_t len)
{
	char lo[32], hi[32];
	uint64_t v;

	if (!tb_parse_size(s, min, max, &v) && (!pow2 || !(v & (v - 1)))) {
		*out = v;
		return 0;
	}
	tb_optval_format_size(min, lo, sizeof(lo));
	tb_optval_format_size(max, hi, sizeof(hi));
	snprintf(msg, len, "%s '%s': %s from %s to %s expected (K, M, G suffixes)",
		 what, s, pow2 ? "a power of two" : "a size", lo, hi);
	return -EINVAL;
}

int tb_optval_seconds(const char *what, const char *s, uint64_t *out,
		      char *msg, size_t len)
{
	if (!tb_parse_u64(s, 1, TB_OPTVAL_SECONDS_MAX, out))
		return 0;
	snprintf(msg, len, "%s '%s': whole seconds from 1 to %llu (a year) expected",
		 what, s, TB_OPTVAL_SECONDS_MAX);
	return -EINVAL;
}

int tb_optval_number(const char *what, const char *s, uint64_t min,
		     uint64_t max, uint64_t *out, char *msg, size_t len)
{
	if (!tb_parse_u64(s, min, max, out))
		return 0;
	snprintf(msg, len, "%s '%s': a number from %" PRIu64 " to %" PRIu64 " expected",
		 what, s, min, max);
	return -EINVAL;
}
