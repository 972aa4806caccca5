// SPDX-License-Identifier: GPL-2.0
/* The growable buffer; see buf.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

/* The first allocation: small buffers (a line, a few ids) fit in it. */
#define TB_BUF_MIN	64

/* The capacity at least @need from @cap (0: none yet), doubling. */
static int next_cap(size_t cap, size_t need, size_t first, size_t *out)
{
	if (!cap)
		cap = first;
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	*out = cap;
	return 0;
}

int tb_buf_reserve(struct tb_buf *b, size_t n)
{
	size_t cap;
	void *p;

	if (n > SIZE_MAX - b->len)
		return -ENOMEM;
	if (b->len + n <= b->cap)
		return 0;
	if (next_cap(b->cap, b->len + n, TB_BUF_MIN, &cap))
		return -ENOMEM;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

void *tb_buf_add(struct tb_buf *b, size_t n)
{
	void *p;

	if (tb_buf_reserve(b, n))
		return NULL;
	p = (char *)b->data + b->len;
	b->len += n;
	return p;
}

int tb_buf_append(struct tb_buf *b, const void *p, size_t n)
{
	void *dst = tb_buf_add(b, n);

	if (!dst)
		return -ENOMEM;
	if (n)
		memcpy(dst, p, n);
	return 0;
}

int tb_buf_read_file(struct tb_buf *b, FILE *f)
{
	size_t got;

	do {
		if (tb_buf_reserve(b, 1))
			return -ENOMEM;
		got = fread((char *)b->data + b->len, 1, b->cap - b->len, f);
		b->len += got;
	} while (got);
	return ferror(f) ? -(errno ? errno : EIO) : 0;
}

int tb_buf_array_grow(void *arr, size_t *cap, size_t need, size_t size)
{
	void **v = arr;
	size_t c;
	void *p;

	if (need <= *cap)
		return 0;
	if (next_cap(*cap, need, TB_BUF_MIN, &c) || c > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*v, c * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

void tb_buf_free(struct tb_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
