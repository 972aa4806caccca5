// SPDX-License-Identifier: GPL-2.0
/* The GDB trace file reader's input window; see format/tfile_rd.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format/tfile_rd.h"

size_t tb_tfile_rd_fill(struct tb_tfile_rd *r, size_t n)
{
	size_t got;

	if (r->len - r->pos >= n)
		return r->len - r->pos;
	if (n > r->cap) {
		uint8_t *p = malloc(n);

		if (!p)
			return r->len - r->pos;
		memcpy(p, r->buf + r->pos, r->len - r->pos);
		free(r->buf);
		r->buf = p;
		r->cap = n;
	} else {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	}
	r->len -= r->pos;
	r->pos = 0;
	while (r->len < n) {
		got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
		if (!got)
			break;
		r->len += got;
	}
	return r->len;
}

void tb_tfile_rd_take(struct tb_tfile_rd *r, size_t n)
{
	r->pos += n;
	r->off += n;
}

void tb_tfile_rd_warn(struct tb_tfile_rd *r, uint64_t off, const char *fmt, ...)
{
	struct tb_error w;
	char msg[sizeof(w.msg)];
	va_list ap;

	r->info->warnings++;
	if (!r->v || !r->v->warning)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tb_error_set(&w, off, "%s", msg);
	r->v->warning(r->ctx, &w);
}

