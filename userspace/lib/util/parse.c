// SPDX-License-Identifier: GPL-2.0
/* Strict number parsing; see parse.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

static int parse_u64_suffix(const char *s, uint64_t min, uint64_t max,
			    uint64_t *out, int allow_suffix)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	if (allow_suffix && *end) {
		switch (*end) {
		case 'k':
		case 'K':
			mult = 1ULL << 10;
			break;
		case 'm':
		case 'M':
			mult = 1ULL << 20;
			break;
		case 'g':
		case 'G':
			mult = 1ULL << 30;
			break;
		default:
			return -EINVAL;
		}
		end++;
	}
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int tb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_u64_suffix(s, min, max, out, 0);
}

int tb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_u64_suffix(s, min, max, out, 1);
}

int tb_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret = tb_parse_u64(s, min, max, &v);

	if (!ret)
		*out = (uint32_t)v;
	return ret;
}

int tb_parse_words(const char *list, int (*fn)(void *ctx, const char *word),
		   void *ctx)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = fn(ctx, tok);
	free(copy);
	return ret;
}
