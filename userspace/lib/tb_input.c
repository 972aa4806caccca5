// SPDX-License-Identifier: GPL-2.0
/* Raw dump / snapshot / chain input detection; see tb_input.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tb_bytes.h"
#include "tb_input.h"
#include "xscale_decode.h"

void tb_in_init(struct tb_in *in, FILE *f, uint32_t raw_size)
{
	memset(in, 0, sizeof(*in));
	in->f = f;
	in->raw_size = raw_size ? raw_size : TB_XS_MIN_SIZE;
}

void tb_in_release(struct tb_in *in)
{
	free(in->data);
	in->data = NULL;
	in->cap = 0;
}

static int reserve(struct tb_in *in, size_t n)
{
	uint8_t *p;

	if (n <= in->cap)
		return 0;
	p = realloc(in->data, n);
	if (!p) {
		tb_seterr(&in->err, in->off, "out of memory for %zu bytes", n);
		return -1;
	}
	in->data = p;
	in->cap = n;
	return 0;
}

/* fread that retries short reads from pipes; returns bytes read. */
static size_t read_full(FILE *f, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		size_t r = fread((uint8_t *)buf + got, 1, n - got, f);

		if (!r)
			break;
		got += r;
	}
	return got;
}

int tb_record_parse(const uint8_t *p, uint64_t off, struct tracebuf_record *r,
		    struct tb_error *err)
{
	r->magic = tb_get32(p);
	r->version = tb_get16(p + 4);
	r->hdr_size = tb_get16(p + 6);
	r->chkpt0 = tb_get32(p + 8);
	r->chkpt1 = tb_get32(p + 12);
	r->flags = tb_get32(p + 16);
	r->buf_size = tb_get32(p + 20);
	r->seq = tb_get64(p + 24);
	r->lost_before = tb_get64(p + 32);
	if (r->magic != TRACEBUF_RECORD_MAGIC) {
		tb_seterr(err, off, "bad record magic 0x%08x (expected \"TBUR\")",
			  r->magic);
		return -1;
	}
	if (r->version != TRACEBUF_RECORD_VERSION) {
		tb_seterr(err, off + 4, "unsupported record version %u",
			  r->version);
		return -1;
	}
	if (r->hdr_size < TB_RECORD_HDR_SIZE ||
	    r->hdr_size > TB_RECORD_HDR_MAX) {
		tb_seterr(err, off + 6, "bad record header size %u",
			  r->hdr_size);
		return -1;
	}
	if (!tb_xs_size_ok(r->buf_size)) {
		tb_seterr(err, off + 20,
			  "bad buffer size %u (power of two 256..%u expected)",
			  r->buf_size, TB_XS_MAX_SIZE);
		return -1;
	}
	return 0;
}

void tb_record_format(const struct tracebuf_record *r, uint8_t out[40])
{
	tb_put32(out, r->magic);
	tb_put16(out + 4, r->version);
	tb_put16(out + 6, r->hdr_size);
	tb_put32(out + 8, r->chkpt0);
	tb_put32(out + 12, r->chkpt1);
	tb_put32(out + 16, r->flags);
	tb_put32(out + 20, r->buf_size);
	tb_put64(out + 24, r->seq);
	tb_put64(out + 32, r->lost_before);
}

static int next_raw(struct tb_in *in, struct tb_buf *out, const uint8_t *first,
		    size_t nfirst)
{
	size_t got;
	uint8_t extra;

	if (reserve(in, in->raw_size))
		return -1;
	memcpy(in->data, first, nfirst);
	got = nfirst + read_full(in->f, in->data + nfirst,
				 in->raw_size - nfirst);
	if (got != in->raw_size) {
		tb_seterr(&in->err, got,
			  "raw dump is %zu bytes, expected exactly %u (use --size, or a record file)",
			  got, in->raw_size);
		return -1;
	}
	if (read_full(in->f, &extra, 1)) {
		tb_seterr(&in->err, got,
			  "raw dump is longer than %u bytes (use --size, or a record file)",
			  in->raw_size);
		return -1;
	}
	memset(&out->hdr, 0, sizeof(out->hdr));
	out->hdr.buf_size = in->raw_size;
	out->has_hdr = false;
	out->offset = 0;
	out->data = in->data;
	in->off = got;
	return 1;
}

int tb_in_next(struct tb_in *in, struct tb_buf *out)
{
	uint8_t hdr[TB_RECORD_HDR_SIZE];
	size_t got;
	uint64_t start = in->off;
	uint32_t skip;

	if (in->kind == TB_IN_RAW)
		return 0;
	got = read_full(in->f, hdr, sizeof(hdr));
	if (in->kind == TB_IN_UNKNOWN) {
		if (!tb_xs_size_ok(in->raw_size)) {
			tb_seterr(&in->err, 0, "bad raw buffer size %u",
				  in->raw_size);
			return -1;
		}
		if (got < 4 || tb_get32(hdr) != TRACEBUF_RECORD_MAGIC) {
			in->kind = TB_IN_RAW;
			return next_raw(in, out, hdr, got);
		}
		in->kind = TB_IN_RECORDS;
	}
	if (!got)
		return 0;
	if (got < sizeof(hdr)) {
		tb_seterr(&in->err, start,
			  "truncated record header (%zu of %u bytes)", got,
			  TB_RECORD_HDR_SIZE);
		return -1;
	}
	if (tb_record_parse(hdr, start, &out->hdr, &in->err))
		return -1;
	/* Newer headers may be longer: skip what we do not know. */
	skip = out->hdr.hdr_size - TB_RECORD_HDR_SIZE;
	if (reserve(in, out->hdr.buf_size > skip ? out->hdr.buf_size : skip))
		return -1;
	if (skip && read_full(in->f, in->data, skip) != skip) {
		tb_seterr(&in->err, start + sizeof(hdr),
			  "truncated record header (hdr_size %u)",
			  out->hdr.hdr_size);
		return -1;
	}
	got = read_full(in->f, in->data, out->hdr.buf_size);
	if (got != out->hdr.buf_size) {
		tb_seterr(&in->err, start + out->hdr.hdr_size + got,
			  "truncated record data (%zu of %u bytes, record at offset %llu)",
			  got, out->hdr.buf_size, (unsigned long long)start);
		return -1;
	}
	in->off = start + out->hdr.hdr_size + got;
	in->nr++;
	out->has_hdr = true;
	out->offset = start;
	out->data = in->data;
	return 1;
}

int tb_in_decode_each(struct tb_in *in, tb_in_decoded_fn fn, void *ctx)
{
	struct tb_xs_msg *msgs = NULL;
	size_t cap = 0;
	struct tb_buf b;
	int ret;

	while ((ret = tb_in_next(in, &b)) > 0) {
		struct tb_xs_chkpt_regs regs = {
			.valid = b.has_hdr,
			.chkpt0 = b.hdr.chkpt0,
			.chkpt1 = b.hdr.chkpt1,
		};
		struct tb_xs_result res;

		if (cap < b.hdr.buf_size) {
			free(msgs);
			cap = b.hdr.buf_size;
			msgs = malloc(cap * sizeof(*msgs));
			if (!msgs)
				return -ENOMEM;
		}
		tb_xs_decode(b.data, b.hdr.buf_size, &regs, msgs, &res);
		ret = fn(ctx, in, &b, msgs, &res);
		if (ret)
			break;
	}
	free(msgs);
	return ret < 0 ? -1 : ret;
}
