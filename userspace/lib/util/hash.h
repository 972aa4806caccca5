/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small open-addressing map from a 64-bit key to a 32-bit value, for the
 * converters' "one tracepoint per address / function id" tables.
 */
#ifndef TB_HASH_H
#define TB_HASH_H

#include <stddef.h>
#include <stdint.h>

struct tb_hash {
	uint64_t *keys;
	uint32_t *vals;		/* 0 means empty: values must be non-zero */
	size_t cap;
	size_t n;
};

uint32_t tb_hash_get(const struct tb_hash *h, uint64_t key);
/* Insert or replace; -1 if out of memory. */
int tb_hash_put(struct tb_hash *h, uint64_t key, uint32_t val);
void tb_hash_free(struct tb_hash *h);

#endif /* TB_HASH_H */
