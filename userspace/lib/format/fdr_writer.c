// SPDX-License-Identifier: GPL-2.0
/* XRay FDR v5 writer; see format/fdr_writer.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/fdr_writer.h"
#include "util/buf.h"
#include "util/bytes.h"

/* Arguments a function record can carry (compiler-rt: up to 6). */
#define TB_FDR_WRITER_MAX_ARGS	6

void tb_fdr_writer_put_meta(uint8_t out[16], unsigned int kind)
{
	memset(out, 0, TB_FDR_META_SIZE);
	out[0] = (uint8_t)TRACEBUF_FDR_META_BYTE(kind);
}

void tb_fdr_writer_put_func(uint8_t out[8], unsigned int type, uint32_t func_id,
			    uint32_t delta)
{
	tb_bytes_put32(out, TRACEBUF_FDR_FUNC_WORD(func_id & TB_FDR_FUNC_ID_MAX,
						  type & 7));
	tb_bytes_put32(out + TRACEBUF_FDR_FUNC_DELTA, delta);
}

void tb_fdr_writer_put_header(uint8_t out[32], const struct tb_fdr_header *h)
{
	memset(out, 0, TB_FDR_HEADER_SIZE);
	tb_bytes_put16(out + TRACEBUF_FDR_HDR_VERSION, h->version);
	tb_bytes_put16(out + TRACEBUF_FDR_HDR_TYPE, h->type);
	tb_bytes_put32(out + TRACEBUF_FDR_HDR_FLAGS, h->flags);
	tb_bytes_put64(out + TRACEBUF_FDR_HDR_FREQUENCY, h->cycle_frequency);
	tb_bytes_put64(out + TRACEBUF_FDR_HDR_BUFFER_SIZE, h->buffer_size);
}

static int fail(struct tb_fdr_writer *w, int err)
{
	if (!w->error)
		w->error = err;
	return -w->error;
}

static int out(struct tb_fdr_writer *w, const void *p, size_t n)
{
	if (w->error)
		return -w->error;
	if (n && fwrite(p, 1, n, w->f) != n)
		return fail(w, errno ? errno : EIO);
	w->bytes += n;
	return 0;
}

int tb_fdr_writer_init(struct tb_fdr_writer *w, FILE *f,
		       const struct tb_fdr_header *h, size_t block_size)
{
	struct tb_fdr_header hh = *h;
	uint8_t hdr[TB_FDR_HEADER_SIZE];

	memset(w, 0, sizeof(*w));
	w->f = f;
	w->block_size = block_size ? block_size : TB_FDR_MAX_BLOCK;
	if (w->block_size < 256)
		w->block_size = 256;
	hh.version = 5;
	hh.type = TB_FDR_TYPE_FDR;
	/* A zero frequency makes llvm-xray print "INF" durations. */
	if (!hh.cycle_frequency)
		return fail(w, EINVAL);
	if (!hh.buffer_size)
		hh.buffer_size = w->block_size;
	tb_fdr_writer_put_header(hdr, &hh);
	return out(w, hdr, sizeof(hdr));
}

/* Room for @n more bytes in the block buffer. */
static uint8_t *room(struct tb_fdr_writer *w, size_t n)
{
	if (tb_buf_array_grow(&w->blk, &w->cap, w->len + n, 1)) {
		fail(w, ENOMEM);
		return NULL;
	}
	w->len += n;
	return w->blk + w->len - n;
}

/*
 * Append a metadata record; returns its first byte (fields at the
 * uapi/linux/tracebuf_fdr.h offsets) or NULL.
 */
static uint8_t *meta(struct tb_fdr_writer *w, unsigned int kind)
{
	uint8_t *p = room(w, TB_FDR_META_SIZE);

	if (!p)
		return NULL;
	tb_fdr_writer_put_meta(p, kind);
	return p;
}

static int preamble(struct tb_fdr_writer *w)
{
	uint8_t *p;

	w->len = 0;
	p = meta(w, TB_FDR_NEW_BUFFER);
	if (!p)
		return -w->error;
	tb_bytes_put32(p + TRACEBUF_FDR_FIELD, (uint32_t)w->tid);
	p = meta(w, TB_FDR_WALLCLOCK);
	if (!p)
		return -w->error;
	tb_bytes_put64(p + TRACEBUF_FDR_FIELD, w->wall_sec);
	tb_bytes_put32(p + TRACEBUF_FDR_WALLCLOCK_USEC, w->wall_usec);
	p = meta(w, TB_FDR_PID);
	if (!p)
		return -w->error;
	tb_bytes_put32(p + TRACEBUF_FDR_FIELD, (uint32_t)w->pid);
	p = meta(w, TB_FDR_NEW_CPU);
	if (!p)
		return -w->error;
	tb_bytes_put16(p + TRACEBUF_FDR_FIELD, w->cpu);
	tb_bytes_put64(p + TRACEBUF_FDR_NEW_CPU_TIME, w->tsc);
	w->open = true;
	return 0;
}

int tb_fdr_writer_end(struct tb_fdr_writer *w)
{
	uint8_t ext[TB_FDR_META_SIZE];

	if (!w->open)
		return -w->error;
	w->open = false;
	tb_fdr_writer_put_meta(ext, TB_FDR_BUFFER_EXTENTS);
	tb_bytes_put64(ext + TRACEBUF_FDR_FIELD, w->len);
	if (out(w, ext, sizeof(ext)))
		return -w->error;
	return out(w, w->blk, w->len);
}

int tb_fdr_writer_begin(struct tb_fdr_writer *w, int32_t pid, int32_t tid,
			uint16_t cpu, uint64_t tsc, uint64_t wall_sec,
			uint32_t wall_usec)
{
	if (tb_fdr_writer_end(w))
		return -w->error;
	w->pid = pid;
	w->tid = tid;
	w->cpu = cpu;
	w->tsc = tsc;
	w->wall_sec = wall_sec;
	w->wall_usec = wall_usec;
	return preamble(w);
}

/*
 * Make room for a record of @n bytes: a full block is closed and a new
 * one for the same thread opened, re-stating the CPU and current TSC.
 */
static int reserve(struct tb_fdr_writer *w, size_t n)
{
	if (!w->open)
		return fail(w, EINVAL);
	if (w->len + n > w->block_size && w->len > 4 * TB_FDR_META_SIZE) {
		if (tb_fdr_writer_end(w))
			return -w->error;
		return preamble(w);
	}
	return -w->error;
}

/* Delta from the current base; a TSCWrap first when it does not fit. */
static int delta(struct tb_fdr_writer *w, uint64_t tsc, uint64_t max,
		 uint32_t *d)
{
	uint8_t *p;

	if (tsc < w->tsc || tsc - w->tsc > max) {
		p = meta(w, TB_FDR_TSC_WRAP);
		if (!p)
			return -w->error;
		tb_bytes_put64(p + TRACEBUF_FDR_FIELD, tsc);
		w->tsc = tsc;
	}
	*d = (uint32_t)(tsc - w->tsc);
	w->tsc = tsc;
	return 0;
}

int tb_fdr_writer_new_cpu(struct tb_fdr_writer *w, uint16_t cpu, uint64_t tsc)
{
	uint8_t *p;

	if (reserve(w, TB_FDR_META_SIZE))
		return -w->error;
	p = meta(w, TB_FDR_NEW_CPU);
	if (!p)
		return -w->error;
	tb_bytes_put16(p + TRACEBUF_FDR_FIELD, cpu);
	tb_bytes_put64(p + TRACEBUF_FDR_NEW_CPU_TIME, tsc);
	w->cpu = cpu;
	w->tsc = tsc;
	return 0;
}

int tb_fdr_writer_function(struct tb_fdr_writer *w, unsigned int type,
			   uint32_t func_id, uint64_t tsc, const uint64_t *args,
			   unsigned int nargs)
{
	uint32_t d = 0;
	uint8_t *p;
	unsigned int i;

	if (type > TB_FDR_ENTER_ARGS || func_id > TB_FDR_FUNC_ID_MAX)
		return fail(w, EINVAL);
	if (type != TB_FDR_ENTER_ARGS)
		nargs = 0;
	/*
	 * Arguments must stay in the block of their function record; from
	 * tb_fdr_writer_record() they come after it, as many as a call has.
	 */
	if (reserve(w, TB_FDR_META_SIZE *
		    (1 + (type == TB_FDR_ENTER_ARGS && !args ?
			  TB_FDR_WRITER_MAX_ARGS : nargs)) +
		    TB_FDR_FUNC_SIZE) ||
	    delta(w, tsc, UINT32_MAX, &d))
		return -w->error;
	p = room(w, TB_FDR_FUNC_SIZE);
	if (!p)
		return -w->error;
	tb_fdr_writer_put_func(p, type, func_id, d);
	for (i = 0; i < nargs; i++) {
		p = meta(w, TB_FDR_CALL_ARG);
		if (!p)
			return -w->error;
		tb_bytes_put64(p + TRACEBUF_FDR_FIELD, args[i]);
	}
	return 0;
}

static int event(struct tb_fdr_writer *w, unsigned int kind, uint64_t tsc,
		 uint16_t type, const void *data, int32_t size)
{
	uint32_t d = 0;
	uint8_t *p;

	if (size <= 0 || (uint32_t)size > TB_FDR_MAX_PAYLOAD)
		return fail(w, EINVAL);
	if (reserve(w, 2 * TB_FDR_META_SIZE + (size_t)size) ||
	    delta(w, tsc, INT32_MAX, &d))
		return -w->error;
	p = meta(w, kind);
	if (!p)
		return -w->error;
	tb_bytes_put32(p + TRACEBUF_FDR_FIELD, (uint32_t)size);
	tb_bytes_put32(p + TRACEBUF_FDR_EVENT_DELTA, d);
	if (kind == TB_FDR_TYPED)
		tb_bytes_put16(p + TRACEBUF_FDR_TYPED_TYPE, type);
	p = room(w, (size_t)size);
	if (!p)
		return -w->error;
	memcpy(p, data, (size_t)size);
	return 0;
}

int tb_fdr_writer_custom(struct tb_fdr_writer *w, uint64_t tsc, const void *data,
			 int32_t size)
{
	return event(w, TB_FDR_CUSTOM, tsc, 0, data, size);
}

int tb_fdr_writer_typed(struct tb_fdr_writer *w, uint64_t tsc, uint16_t type,
			const void *data, int32_t size)
{
	return event(w, TB_FDR_TYPED, tsc, type, data, size);
}

/* An argument of the function record just written: same block. */
static int call_arg(struct tb_fdr_writer *w, uint64_t value)
{
	uint8_t *p;

	if (!w->open)
		return fail(w, EINVAL);
	p = meta(w, TB_FDR_CALL_ARG);
	if (!p)
		return -w->error;
	tb_bytes_put64(p + TRACEBUF_FDR_FIELD, value);
	return 0;
}

int tb_fdr_writer_record(struct tb_fdr_writer *w,
			 const struct tb_fdr_record *r)
{
	switch (r->kind) {
	case TB_FDR_NEW_CPU:
		return tb_fdr_writer_new_cpu(w, r->cpu, r->tsc);
	case TB_FDR_FUNCTION:
		return tb_fdr_writer_function(w, r->func_type, r->func_id, r->tsc,
					      NULL, 0);
	case TB_FDR_CALL_ARG:
		return call_arg(w, r->value);
	case TB_FDR_CUSTOM:
		return tb_fdr_writer_custom(w, r->tsc, r->data, r->size);
	case TB_FDR_TYPED:
		return tb_fdr_writer_typed(w, r->tsc, r->event_type, r->data,
					   r->size);
	default:
		return -w->error;
	}
}

int tb_fdr_writer_append(struct tb_fdr_writer *w, const void *records, size_t len,
			 uint64_t tsc)
{
	uint8_t *p;

	if (reserve(w, len))
		return -w->error;
	p = room(w, len);
	if (!p)
		return -w->error;
	memcpy(p, records, len);
	w->tsc = tsc;
	return 0;
}

int tb_fdr_writer_block(struct tb_fdr_writer *w, const void *records,
			size_t len)
{
	uint8_t ext[TB_FDR_META_SIZE];

	if (tb_fdr_writer_end(w))
		return -w->error;
	tb_fdr_writer_put_meta(ext, TB_FDR_BUFFER_EXTENTS);
	tb_bytes_put64(ext + TRACEBUF_FDR_FIELD, len);
	if (out(w, ext, sizeof(ext)))
		return -w->error;
	return out(w, records, len);
}

int tb_fdr_writer_finish(struct tb_fdr_writer *w)
{
	tb_fdr_writer_end(w);
	if (!w->error && fflush(w->f))
		fail(w, errno ? errno : EIO);
	free(w->blk);
	w->blk = NULL;
	w->cap = 0;
	return -w->error;
}
