// SPDX-License-Identifier: GPL-2.0
/* u64 -> u32 open-addressing map; see util/hash.h. */
#include <stdlib.h>

#include "util/hash.h"

static size_t slot(uint64_t key, size_t cap)
{
	/* Fibonacci hashing spreads sequential ids and aligned addresses. */
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

uint32_t tb_hash_get(const struct tb_hash *h, uint64_t key)
{
	size_t i;

	if (!h->cap)
		return 0;
	for (i = slot(key, h->cap); h->vals[i]; i = (i + 1) & (h->cap - 1))
		if (h->keys[i] == key)
			return h->vals[i];
	return 0;
}

static void raw_put(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t key,
		    uint32_t val)
{
	size_t i;

	for (i = slot(key, cap); vals[i] && keys[i] != key;
	     i = (i + 1) & (cap - 1))
		;
	keys[i] = key;
	vals[i] = val;
}

int tb_hash_put(struct tb_hash *h, uint64_t key, uint32_t val)
{
	if ((h->n + 1) * 2 > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64, i;
		uint64_t *keys = calloc(cap, sizeof(*keys));
		uint32_t *vals = calloc(cap, sizeof(*vals));

		if (!keys || !vals) {
			free(keys);
			free(vals);
			return -1;
		}
		for (i = 0; i < h->cap; i++)
			if (h->vals[i])
				raw_put(keys, vals, cap, h->keys[i],
					h->vals[i]);
		free(h->keys);
		free(h->vals);
		h->keys = keys;
		h->vals = vals;
		h->cap = cap;
	}
	if (!tb_hash_get(h, key))
		h->n++;
	raw_put(h->keys, h->vals, h->cap, key, val);
	return 0;
}

void tb_hash_free(struct tb_hash *h)
{
	free(h->keys);
	free(h->vals);
	h->keys = NULL;
	h->vals = NULL;
	h->cap = h->n = 0;
}
