// SPDX-License-Identifier: GPL-2.0
/* XScale <-> FDR lossless mapping; see convert/xs_fdr.h. */
#include <stdlib.h>
#include <string.h>

#include "convert/xs_fdr.h"
#include "util/bytes.h"

/*
 * Custom event payload opening each block.  The "lead" is the bytes
 * before the first decoded message: unwritten zeros, then possibly a
 * dropped fragment.  Its leading zeros are only counted, the rest is kept.
 */
#define HDR_OFF_MAGIC	0
#define HDR_OFF_VER	4	/* u16 1 */
#define HDR_OFF_FLAGS	6	/* u16: bit0 = buffer had a record header */
#define HDR_OFF_LEAD	8	/* u32 bytes before the first message */
#define HDR_OFF_ZEROS	12	/* u32 of them zero, at the start */
#define HDR_OFF_REC	16	/* 40-byte struct tracebuf_record */
#define HDR_SIZE	56	/* then lead - zeros bytes */

const char *tb_xs_fdr_id_name(uint32_t id)
{
	static const char *const names[] = {
		"exception_reset", "exception_undef", "exception_swi",
		"exception_pabort", "exception_dabort", "exception_unused",
		"exception_irq", "exception_fiq", "branch", "branch_chkpt",
		"indirect", "indirect_chkpt", "rollover", "reserved",
	};

	if (id < 1 || id > TB_XS_FDR_NR_IDS)
		return NULL;
	return names[id - 1];
}

static uint32_t msg_id(const struct tb_xs_msg *m)
{
	bool chk = m->raw & 0x40;

	switch (m->kind) {
	case TB_XS_EXCEPTION:
		return TB_XS_FDR_EXCEPTION(m->vector);
	case TB_XS_BRANCH:
		return chk ? TB_XS_FDR_BRANCH_CHK : TB_XS_FDR_BRANCH;
	case TB_XS_INDIRECT:
		return chk ? TB_XS_FDR_INDIRECT_CHK : TB_XS_FDR_INDIRECT;
	case TB_XS_ROLLOVER:
		return TB_XS_FDR_ROLLOVER;
	}
	return TB_XS_FDR_RESERVED;
}

/* Instructions a message stands for: its Enter-to-Exit time. */
static unsigned int msg_ticks(const struct tb_xs_msg *m)
{
	return m->kind == TB_XS_RESERVED ? 0 : m->count;
}

int tb_xs_fdr_write_buffer(struct tb_fdr_writer *w, const struct tb_xs_buffer *b,
			   const struct tb_xs_msg *msgs,
			   const struct tb_xs_result *res, uint64_t *tsc)
{
	uint32_t zeros = 0;
	size_t plen, i;
	uint8_t *p;
	int ret;

	while (zeros < res->start && !b->data[zeros])
		zeros++;
	plen = HDR_SIZE + res->start - zeros;
	p = malloc(plen);
	if (!p)
		return -1;
	tb_bytes_put32(p + HDR_OFF_MAGIC, TB_XS_FDR_MAGIC);
	tb_bytes_put16(p + HDR_OFF_VER, 1);
	tb_bytes_put16(p + HDR_OFF_FLAGS, b->has_hdr ? 1 : 0);
	tb_bytes_put32(p + HDR_OFF_LEAD, res->start);
	tb_bytes_put32(p + HDR_OFF_ZEROS, zeros);
	tb_xs_record_format(&b->hdr, p + HDR_OFF_REC);
	memcpy(p + HDR_SIZE, b->data + zeros, res->start - zeros);
	ret = tb_fdr_writer_begin(w, TB_XS_FDR_PID, TB_XS_FDR_TID, 0, *tsc, 0, 0);
	if (!ret)
		ret = tb_fdr_writer_custom(w, *tsc, p, (int32_t)plen);
	free(p);
	for (i = 0; !ret && i < res->nr; i++) {
		const struct tb_xs_msg *m = &msgs[i];
		uint32_t id = msg_id(m);
		uint64_t arg;

		if (m->kind == TB_XS_INDIRECT || m->kind == TB_XS_RESERVED) {
			arg = m->kind == TB_XS_INDIRECT ? m->target : m->raw;
			ret = tb_fdr_writer_function(w, TB_FDR_ENTER_ARGS, id, *tsc,
						     &arg, 1);
		} else {
			ret = tb_fdr_writer_function(w, TB_FDR_ENTER, id, *tsc,
						     NULL, 0);
		}
		*tsc += msg_ticks(m);
		if (!ret)
			ret = tb_fdr_writer_function(w, TB_FDR_EXIT, id, *tsc, NULL,
						     0);
	}
	if (!ret)
		ret = tb_fdr_writer_end(w);
	return ret ? -1 : 0;
}

void tb_xs_fdr_reader_init(struct tb_xs_fdr_reader *x, struct tb_error *err,
			   int (*emit)(void *ctx,
				       const struct tracebuf_record *hdr,
				       bool has_hdr, const uint8_t *data),
			   void *ctx)
{
	memset(x, 0, sizeof(*x));
	x->err = err;
	x->emit = emit;
	x->ctx = ctx;
}

static int put(struct tb_xs_fdr_reader *x, const uint8_t *p, size_t n,
	       uint64_t off)
{
	if (x->len + n > x->hdr.buf_size) {
		tb_error_set(x->err, off, "messages overflow the %u-byte buffer",
			     x->hdr.buf_size);
		return -1;
	}
	memcpy(x->data + x->len, p, n);
	x->len += n;
	return 0;
}

static int finish_buf(struct tb_xs_fdr_reader *x, uint64_t off)
{
	int ret;

	if (!x->in_buf)
		return 0;
	x->in_buf = false;
	if (x->have_pending) {
		tb_error_set(x->err, off, "message without its Exit record");
		return -1;
	}
	if (x->len != x->hdr.buf_size) {
		tb_error_set(x->err, off,
			     "block rebuilds %zu bytes, buffer size is %u",
			     x->len, x->hdr.buf_size);
		return -1;
	}
	ret = x->emit(x->ctx, &x->hdr, x->has_hdr, x->data);
	return ret ? -1 : 0;
}

static int start_buf(struct tb_xs_fdr_reader *x, const struct tb_fdr_record *r)
{
	uint32_t lead, zeros;
	uint8_t *p;

	if (r->size < HDR_SIZE || tb_bytes_get32(r->data) != TB_XS_FDR_MAGIC ||
	    tb_bytes_get16(r->data + HDR_OFF_VER) != 1) {
		tb_error_set(x->err, r->offset,
			     "custom event is not a TBXS buffer header");
		return -1;
	}
	if (tb_xs_record_parse(r->data + HDR_OFF_REC, r->offset,
			       &x->hdr, x->err)) {
		/* Raw dumps carry a header with only buf_size set. */
		if (tb_bytes_get16(r->data + HDR_OFF_FLAGS) & 1)
			return -1;
		x->hdr.buf_size = tb_bytes_get32(r->data + HDR_OFF_REC + 20);
		if (!tb_xs_size_ok(x->hdr.buf_size)) {
			tb_error_set(x->err, r->offset, "bad buffer size %u",
				     x->hdr.buf_size);
			return -1;
		}
	}
	x->has_hdr = tb_bytes_get16(r->data + HDR_OFF_FLAGS) & 1;
	lead = tb_bytes_get32(r->data + HDR_OFF_LEAD);
	zeros = tb_bytes_get32(r->data + HDR_OFF_ZEROS);
	if (lead > x->hdr.buf_size || zeros > lead ||
	    (int64_t)(lead - zeros) != r->size - HDR_SIZE) {
		tb_error_set(x->err, r->offset, "bad TBXS lead length %u", lead);
		return -1;
	}
	p = realloc(x->data, x->hdr.buf_size);
	if (!p) {
		tb_error_set(x->err, r->offset, "out of memory");
		return -1;
	}
	x->data = p;
	memset(x->data, 0, zeros);
	memcpy(x->data + zeros, r->data + HDR_SIZE, lead - zeros);
	x->len = lead;
	x->in_buf = true;
	x->have_pending = false;
	return 0;
}

static int msg_enter(struct tb_xs_fdr_reader *x, const struct tb_fdr_record *r)
{
	if (x->have_pending || r->func_id < 1 || r->func_id > TB_XS_FDR_NR_IDS) {
		tb_error_set(x->err, r->offset, "unexpected function id %u",
			     r->func_id);
		return -1;
	}
	if ((r->func_type == TB_FDR_ENTER_ARGS) !=
	    (r->func_id == TB_XS_FDR_INDIRECT ||
	     r->func_id == TB_XS_FDR_INDIRECT_CHK ||
	     r->func_id == TB_XS_FDR_RESERVED)) {
		tb_error_set(x->err, r->offset,
			     "function id %u with the wrong record type",
			     r->func_id);
		return -1;
	}
	x->have_pending = true;
	x->pending_id = r->func_id;
	x->pending_target = 0;
	x->pending_raw = 0;
	x->enter_tsc = r->tsc;
	return 0;
}

/* Exit: rebuild the message byte from the id and the tick count. */
static int msg_exit(struct tb_xs_fdr_reader *x, const struct tb_fdr_record *r)
{
	uint64_t ticks = r->tsc - x->enter_tsc;
	uint32_t id = x->pending_id;
	uint8_t bytes[5];
	struct tb_xs_msg m = { 0 };

	if (!x->have_pending || r->func_id != id) {
		tb_error_set(x->err, r->offset, "unmatched Exit of id %u",
			     r->func_id);
		return -1;
	}
	x->have_pending = false;
	if (id == TB_XS_FDR_RESERVED) {
		m.raw = x->pending_raw;
	} else if (id == TB_XS_FDR_ROLLOVER) {
		m.raw = 0xff;
	} else {
		if (ticks > 15) {
			tb_error_set(x->err, r->offset,
				     "count %llu does not fit a message",
				     (unsigned long long)ticks);
			return -1;
		}
		if (id <= 8)
			m.raw = (uint8_t)((id - 1) << 4);
		else if (id == TB_XS_FDR_BRANCH)
			m.raw = 0x80;
		else if (id == TB_XS_FDR_BRANCH_CHK)
			m.raw = 0xc0;
		else if (id == TB_XS_FDR_INDIRECT)
			m.raw = 0x90;
		else
			m.raw = 0xd0;
		m.raw |= (uint8_t)ticks;
	}
	/* Only "5 bytes or 1" matters to the encoder. */
	m.kind = (id == TB_XS_FDR_INDIRECT || id == TB_XS_FDR_INDIRECT_CHK) ?
		 TB_XS_INDIRECT : TB_XS_BRANCH;
	m.target = x->pending_target;
	return put(x, bytes, tb_xs_encode(&m, bytes), r->offset);
}

int tb_xs_fdr_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct tb_xs_fdr_reader *x = ctx;

	if (r->ignored)
		return 0;
	switch (r->kind) {
	case TB_FDR_NEW_BUFFER:
		return finish_buf(x, r->offset);
	case TB_FDR_CUSTOM:
		if (finish_buf(x, r->offset))
			return -1;
		return start_buf(x, r);
	case TB_FDR_CALL_ARG:
		if (!x->have_pending) {
			tb_error_set(x->err, r->offset, "stray CallArgument");
			return -1;
		}
		if (x->pending_id == TB_XS_FDR_RESERVED)
			x->pending_raw = (uint8_t)r->value;
		else
			x->pending_target = (uint32_t)r->value;
		return 0;
	case TB_FDR_FUNCTION:
		if (!x->in_buf) {
			tb_error_set(x->err, r->offset,
				     "function record before the TBXS header");
			return -1;
		}
		if (r->func_type == TB_FDR_EXIT)
			return msg_exit(x, r);
		if (r->func_type == TB_FDR_TAIL_EXIT) {
			tb_error_set(x->err, r->offset, "unexpected tail exit");
			return -1;
		}
		return msg_enter(x, r);
	}
	return 0;
}

int tb_xs_fdr_reader_finish(struct tb_xs_fdr_reader *x)
{
	int ret = finish_buf(x, 0);

	free(x->data);
	x->data = NULL;
	return ret;
}

int tb_xs_fdr_reader_finish_cut(struct tb_xs_fdr_reader *x)
{
	bool partial = x->in_buf &&
		       (x->have_pending || x->len != x->hdr.buf_size);

	if (partial)
		x->in_buf = false;
	if (tb_xs_fdr_reader_finish(x))
		return -1;
	return partial;
}
