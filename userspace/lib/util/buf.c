// SPDX-License-Identifier: GPL-2.0
/* The growable buffer; see buf.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

/* The first allocation: small buffers (a line, a few ids) fit in it. */
#define TB_BUF_MIN	64

int tb_buf_reserve(struct tb_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : TB_BUF_MIN;
	void *p;

	if (n > SIZE_MAX - b->len)
		return -ENOMEM;
	if (b->len + n <= b->cap)
		return 0;
	while (cap < b->len + n) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
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

void tb_buf_free(struct tb_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
