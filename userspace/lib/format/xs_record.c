// SPDX-License-Identifier: GPL-2.0
/* Raw dump / snapshot / chain input detection; see format/xs_record.h. */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/xs.h"
#include "format/xs_record.h"
#include "util/bytes.h"

void tb_xs_record_init(struct tb_xs_input *in, FILE *f, uint32_t raw_size)
{
	memset(in, 0, sizeof(*in));
	in->f = f;
	in->raw_size = raw_size ? raw_size : TB_XS_MIN_SIZE;
}

void tb_xs_record_release(struct tb_xs_input *in)
{
	free(in->data);
	in->data = NULL;
	in->cap = 0;
}

static int reserve(struct tb_xs_input *in, size_t n)
{
	uint8_t *p;

	if (n <= in->cap)
		return 0;
	p = realloc(in->data, n);
	if (!p) {
		tb_error_set(&in->err, in->off, "out of memory for %zu bytes", n);
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

int tb_xs_record_parse(const uint8_t *p, uint64_t off, struct tracebuf_record *r,
		       struct tb_error *err)
{
	r->magic = tb_bytes_get32(p);
	r->version = tb_bytes_get16(p + 4);
	r->hdr_size = tb_bytes_get16(p + 6);
	r->chkpt0 = tb_bytes_get32(p + 8);
	r->chkpt1 = tb_bytes_get32(p + 12);
	r->flags = tb_bytes_get32(p + 16);
	r->buf_size = tb_bytes_get32(p + 20);
	r->seq = tb_bytes_get64(p + 24);
	r->lost_before = tb_bytes_get64(p + 32);
	if (r->magic != TRACEBUF_RECORD_MAGIC) {
		tb_error_set(err, off, "bad record magic 0x%08x (expected \"TBUR\")",
			     r->magic);
		return -1;
	}
	if (r->version != TRACEBUF_RECORD_VERSION) {
		tb_error_set(err, off + 4, "unsupported record version %u",
			     r->version);
		return -1;
	}
	if (r->hdr_size < TB_RECORD_HDR_SIZE ||
	    r->hdr_size > TB_RECORD_HDR_MAX) {
		tb_error_set(err, off + 6, "bad record header size %u",
			     r->hdr_size);
		return -1;
	}
	if (!tb_xs_size_ok(r->buf_size)) {
		tb_error_set(err, off + 20,
			     "bad buffer size %u (power of two 256..%u expected)",
			     r->buf_size, TB_XS_MAX_SIZE);
		return -1;
	}
	return 0;
}

void tb_xs_record_format(const struct tracebuf_record *r, uint8_t out[40])
{
	tb_bytes_put32(out, r->magic);
	tb_bytes_put16(out + 4, r->version);
	tb_bytes_put16(out + 6, r->hdr_size);
	tb_bytes_put32(out + 8, r->chkpt0);
	tb_bytes_put32(out + 12, r->chkpt1);
	tb_bytes_put32(out + 16, r->flags);
	tb_bytes_put32(out + 20, r->buf_size);
	tb_bytes_put64(out + 24, r->seq);
	tb_bytes_put64(out + 32, r->lost_before);
}

static int next_raw(struct tb_xs_input *in, struct tb_xs_buffer *out, const uint8_t *first,
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
		tb_error_set(&in->err, got,
			     "raw dump is %zu bytes, expected exactly %u (use --size, or a record file)",
			     got, in->raw_size);
		return -1;
	}
	if (read_full(in->f, &extra, 1)) {
		tb_error_set(&in->err, got,
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

int tb_xs_record_next(struct tb_xs_input *in, struct tb_xs_buffer *out)
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
			tb_error_set(&in->err, 0, "bad raw buffer size %u",
				     in->raw_size);
			return -1;
		}
		if (got < 4 || tb_bytes_get32(hdr) != TRACEBUF_RECORD_MAGIC) {
			in->kind = TB_IN_RAW;
			return next_raw(in, out, hdr, got);
		}
		in->kind = TB_IN_RECORDS;
	}
	if (!got)
		return 0;
	if (got < sizeof(hdr)) {
		tb_error_set(&in->err, start,
			     "truncated record header (%zu of %u bytes)", got,
			     TB_RECORD_HDR_SIZE);
		return -1;
	}
	if (tb_xs_record_parse(hdr, start, &out->hdr, &in->err))
		return -1;
	/* Newer headers may be longer: skip what we do not know. */
	skip = out->hdr.hdr_size - TB_RECORD_HDR_SIZE;
	if (reserve(in, out->hdr.buf_size > skip ? out->hdr.buf_size : skip))
		return -1;
	if (skip && read_full(in->f, in->data, skip) != skip) {
		tb_error_set(&in->err, start + sizeof(hdr),
			     "truncated record header (hdr_size %u)",
			     out->hdr.hdr_size);
		return -1;
	}
	got = read_full(in->f, in->data, out->hdr.buf_size);
	if (got != out->hdr.buf_size) {
		tb_error_set(&in->err, start + out->hdr.hdr_size + got,
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

int tb_xs_record_decode_each(struct tb_xs_input *in, tb_xs_record_decoded_fn fn, void *ctx)
{
	struct tb_xs_msg *msgs = NULL;
	size_t cap = 0;
	struct tb_xs_buffer b;
	int ret;

	while ((ret = tb_xs_record_next(in, &b)) > 0) {
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

int tb_xs_record_write(FILE *f, const struct tracebuf_record *hdr,
		       const void *data)
{
	struct tracebuf_record le;

	memset(&le, 0, sizeof(le));
	le.magic = htole32(hdr->magic);
	le.version = htole16(hdr->version);
	le.hdr_size = htole16(sizeof(le));
	le.chkpt0 = htole32(hdr->chkpt0);
	le.chkpt1 = htole32(hdr->chkpt1);
	le.flags = htole32(hdr->flags);
	le.buf_size = htole32(hdr->buf_size);
	le.seq = htole64(hdr->seq);
	le.lost_before = htole64(hdr->lost_before);
	if (fwrite(&le, sizeof(le), 1, f) != 1 ||
	    fwrite(data, 1, hdr->buf_size, f) != hdr->buf_size)
		return -1;
	return 0;
}
