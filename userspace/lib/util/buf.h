/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The library's one growable buffer: bytes appended at the end, the
 * allocation doubled when full (amortised O(1) per append), errors
 * returned, never fatal.  Arrays keep their elements in one too
 * (tb_buf_add(b, sizeof(elem)), tb_buf_nr()), or grow with
 * tb_buf_array_grow() where they are a pointer and a count.  A zeroed
 * struct is an empty buffer; tb_buf_free() releases one.
 */
#ifndef TB_BUF_H
#define TB_BUF_H

#include <stddef.h>
#include <stdio.h>

struct tb_buf {
	void *data;		/* NULL until the first byte */
	size_t len;		/* bytes in use */
	size_t cap;		/* bytes allocated */
};

/* Room for @n more bytes: 0, or -ENOMEM with the buffer unchanged. */
int tb_buf_reserve(struct tb_buf *b, size_t n);

/*
 * @n more bytes at the end, not initialised: their address (valid until
 * the next growth), or NULL with the buffer unchanged (out of memory).
 */
void *tb_buf_add(struct tb_buf *b, size_t n);

/* Append @n bytes from @p: 0 or -ENOMEM. */
int tb_buf_append(struct tb_buf *b, const void *p, size_t n);

/*
 * Read @f to its end onto @b: 0, -ENOMEM, or -errno of the read (what
 * was read before stays in @b).
 */
int tb_buf_read_file(struct tb_buf *b, FILE *f);

/*
 * For arrays kept as a pointer and a capacity (*@arr holds *@cap
 * elements of @size bytes): room for @need elements, doubling.  0, or
 * -ENOMEM with the array unchanged.
 */
int tb_buf_array_grow(void *arr, size_t *cap, size_t need, size_t size);

/* The number of @size-byte elements in @b. */
static inline size_t tb_buf_nr(const struct tb_buf *b, size_t size)
{
	return b->len / size;
}

void tb_buf_free(struct tb_buf *b);

#endif /* TB_BUF_H */
