/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XScale trace buffer decoder.
 *
 * The buffer holds 1-byte messages and 5-byte indirect-branch entries
 * (4 target bytes, most significant first, then the message byte).  Since
 * address bytes can take any value the only safe anchor is the newest byte,
 * which is always a message: we classify backwards from it and then hand
 * the messages out oldest first.  Documentation/formats.rst has the rules.
 */
#ifndef TB_XSCALE_DECODE_H
#define TB_XSCALE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TB_XS_MIN_SIZE	256U
#define TB_XS_MAX_SIZE	(16U << 20)	/* emulated backend limit we accept */

enum tb_xs_kind {
	TB_XS_EXCEPTION,	/* 0VVV CCCC */
	TB_XS_BRANCH,		/* 1x00 CCCC direct branch */
	TB_XS_INDIRECT,		/* 1x01 CCCC + 4 target bytes */
	TB_XS_ROLLOVER,		/* 1111 1111: 16 instructions */
	TB_XS_RESERVED,		/* 1010, 1011, 1110 or 1111 CCCC != 1111 */
};

/* Which checkpoint register a checkpointed entry belongs to. */
enum tb_xs_chkpt {
	TB_XS_CHK_NONE,		/* not checkpointed */
	TB_XS_CHK0,
	TB_XS_CHK1,
	TB_XS_CHK_LOST,		/* older than the two registers can hold */
};

struct tb_xs_msg {
	uint8_t kind;		/* enum tb_xs_kind */
	uint8_t vector;		/* exception: vector number 0..7 */
	uint8_t count;		/* CCCC; 16 for a roll-over */
	uint8_t raw;		/* the message byte itself */
	uint8_t checkpointed;	/* enum tb_xs_chkpt */
	uint8_t target_known;	/* target below is valid */
	uint32_t target;	/* indirect: from the buffer; checkpointed: CHKPTn */
	uint32_t offset;	/* offset of the message byte in the buffer */
};

/* Suspect-trace findings; each is reported once with the first offset. */
enum tb_xs_warn {
	TB_XS_W_RESERVED,	/* reserved message encoding */
	TB_XS_W_VECTOR,		/* exception on vector 0 (reset) or 5 (unused) */
	TB_XS_W_CHKPT,		/* checkpoint register disagrees with target */
	TB_XS_W_EXTRA_CHKPT,	/* more than the checkpoint rule allows */
	TB_XS_W_STALE,		/* non-zero bytes inside the unwritten area */
	TB_XS_W_NR
};

struct tb_xs_result {
	size_t nr;		/* messages stored */
	bool wrapped;		/* no unwritten (zero) area was found */
	uint32_t start;		/* offset of the oldest decoded byte */
	uint32_t zeros;		/* unwritten bytes at the start */
	uint32_t fragment;	/* bytes of a partly overwritten entry dropped */
	uint32_t warn_mask;	/* 1 << enum tb_xs_warn */
	uint32_t warn_offset[TB_XS_W_NR];
};

/* Checkpoint registers as saved with the buffer, if they are known. */
struct tb_xs_chkpt_regs {
	bool valid;
	uint32_t chkpt0;
	uint32_t chkpt1;
};

bool tb_xs_size_ok(size_t size);

/*
 * Decode @size bytes (oldest first).  @msgs must have room for @size
 * entries (a message takes at least one byte).  Returns 0 or -EINVAL for a
 * bad size; the buffer contents themselves never make it fail.
 */
int tb_xs_decode(const uint8_t *buf, size_t size,
		 const struct tb_xs_chkpt_regs *regs,
		 struct tb_xs_msg *msgs, struct tb_xs_result *res);

/*
 * Inverse of the decoder for one message: writes 1 or 5 bytes to @out and
 * returns how many.  Used to rebuild buffers from converted traces.
 */
size_t tb_xs_encode(const struct tb_xs_msg *m, uint8_t out[5]);

const char *tb_xs_kind_name(unsigned int kind);
const char *tb_xs_vector_name(unsigned int vector);
const char *tb_xs_warn_text(unsigned int warn);

#endif /* TB_XSCALE_DECODE_H */
