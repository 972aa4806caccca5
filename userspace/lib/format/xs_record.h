/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace buffer input shared by the tools: a raw dump (exactly the buffer
 * size, 256 bytes by default), one struct tracebuf_record followed by its
 * data (a snapshot), or a chain file (records back to back).  Records are
 * recognised by TRACEBUF_RECORD_MAGIC, which a raw trace cannot start with.
 * Buffers are returned one at a time, so a chain of any length is read in
 * constant memory.
 */
#ifndef TB_INPUT_H
#define TB_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/tracebuf.h>

#include "util/error.h"

#define TB_RECORD_HDR_SIZE	40U	/* sizeof(struct tracebuf_record), v1 */
#define TB_RECORD_HDR_MAX	4096U	/* larger hdr_size: corrupt header */

enum tb_in_kind {
	TB_IN_UNKNOWN,
	TB_IN_RAW,
	TB_IN_RECORDS,
};

struct tb_xs_input {
	FILE *f;
	int kind;		/* enum tb_in_kind, set by the first read */
	uint32_t raw_size;	/* expected size of a raw dump */
	uint64_t off;		/* bytes consumed so far */
	unsigned long nr;	/* buffers returned */
	uint8_t *data;
	size_t cap;
	struct tb_error err;
};

/* One buffer: the record header (synthesised for raw dumps) and the data. */
struct tb_xs_buffer {
	struct tracebuf_record hdr;
	bool has_hdr;		/* false for a raw dump: no checkpoint regs */
	uint64_t offset;	/* file offset of the record (or data) */
	const uint8_t *data;	/* hdr.buf_size bytes, valid until next call */
};

void tb_xs_record_init(struct tb_xs_input *in, FILE *f, uint32_t raw_size);
void tb_xs_record_release(struct tb_xs_input *in);
/* 1: *out holds a buffer; 0: end of input; -1: error in in->err. */
int tb_xs_record_next(struct tb_xs_input *in, struct tb_xs_buffer *out);

/* Parse a record header from 40 bytes; -1 with @err set if malformed. */
struct tb_xs_msg;
struct tb_xs_result;

/*
 * Called with each buffer and its decoded messages; non-zero stops the
 * walk and is returned by tb_xs_record_decode_each().
 */
typedef int (*tb_xs_record_decoded_fn)(void *ctx, const struct tb_xs_input *in,
				const struct tb_xs_buffer *b,
				const struct tb_xs_msg *msgs,
				const struct tb_xs_result *res);

/*
 * Read every buffer of @in and decode it (tb_xs_decode(), with the
 * checkpoint registers of its record) for @fn.  Returns 0 at the end of
 * the input, -1 on malformed input (@in->err says why), -ENOMEM, or the
 * value @fn stopped with.
 */
int tb_xs_record_decode_each(struct tb_xs_input *in, tb_xs_record_decoded_fn fn, void *ctx);

int tb_xs_record_parse(const uint8_t *p, uint64_t off, struct tracebuf_record *r,
		       struct tb_error *err);
void tb_xs_record_format(const struct tracebuf_record *r, uint8_t out[40]);

/*
 * Write @hdr (host order, as the kernel gives it) little-endian, then
 * @hdr->buf_size bytes of @data.  Returns 0 or -1 with errno set.
 */
int tb_xs_record_write(FILE *f, const struct tracebuf_record *hdr,
		       const void *data);

#endif /* TB_INPUT_H */
