/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lossless mapping between XScale trace buffers and XRay FDR
 * (Documentation/conversions.rst, "XScale to FDR").
 *
 * One FDR block per trace buffer, all on one thread so time runs on from
 * buffer to buffer.  The block opens with a custom event carrying the
 * buffer's record header and the bytes before the first decoded message
 * (unwritten zeros, a dropped fragment), then each message becomes an
 * Enter/Exit pair of a pseudo-function whose id says the message kind;
 * the Exit comes "count" instruction ticks after the Enter, so llvm-xray
 * account shows instructions per message kind.  Indirect targets and
 * reserved bytes travel as call arguments.  Rebuilding gives back the
 * exact buffer bytes.
 */
#ifndef TB_XSCALE_FDR_H
#define TB_XSCALE_FDR_H

#include <stdbool.h>
#include <stdio.h>

#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "format/xs.h"
#include "format/xs_record.h"

/* Function ids of the mapping. */
#define TB_XS_FDR_EXCEPTION(v)	(1U + (v))	/* 1..8: vector 0..7 */
#define TB_XS_FDR_BRANCH		9U
#define TB_XS_FDR_BRANCH_CHK	10U
#define TB_XS_FDR_INDIRECT		11U	/* arg: target */
#define TB_XS_FDR_INDIRECT_CHK	12U	/* arg: target */
#define TB_XS_FDR_ROLLOVER		13U
#define TB_XS_FDR_RESERVED		14U	/* arg: the message byte */
#define TB_XS_FDR_NR_IDS		14U

#define TB_XS_FDR_MAGIC		0x53584254U	/* "TBXS" little-endian */
#define TB_XS_FDR_PID		1
#define TB_XS_FDR_TID		1
#define TB_XS_FDR_DEFAULT_MHZ	400	/* a PXA255-class core */
#define TB_XS_FDR_DEFAULT_CLOCK	(TB_XS_FDR_DEFAULT_MHZ * 1000000ULL)

/* Writes one buffer as one block; @tsc is advanced by its instructions. */
int tb_xs_fdr_write_buffer(struct tb_fdr_writer *w, const struct tb_xs_buffer *b,
			   const struct tb_xs_msg *msgs,
			   const struct tb_xs_result *res, uint64_t *tsc);

const char *tb_xs_fdr_id_name(uint32_t id);

/*
 * FDR -> buffers: a visitor that rebuilds each buffer at the end of its
 * block and passes it to @emit (header, has_hdr, data).
 */
struct tb_xs_fdr_reader {
	int (*emit)(void *ctx, const struct tracebuf_record *hdr, bool has_hdr,
		    const uint8_t *data);
	void *ctx;
	struct tracebuf_record hdr;
	bool has_hdr;
	bool in_buf;
	uint8_t *data;		/* buf_size bytes being rebuilt */
	size_t len;
	uint32_t pending_id;	/* enter seen, waiting for args/exit */
	uint8_t pending_raw;
	uint32_t pending_target;
	bool have_pending;
	uint64_t enter_tsc;
	struct tb_error *err;
};

void tb_xs_fdr_reader_init(struct tb_xs_fdr_reader *x, struct tb_error *err,
			   int (*emit)(void *ctx,
				       const struct tracebuf_record *hdr,
				       bool has_hdr, const uint8_t *data),
			   void *ctx);
int tb_xs_fdr_visit(void *ctx, const struct tb_fdr_record *r);
/* Flush the last buffer; returns 0 or -1 with err set. */
int tb_xs_fdr_reader_finish(struct tb_xs_fdr_reader *x);
/*
 * The same at the end of a trace cut short (the reader's warning): the
 * buffer being rebuilt is passed on if whole, else left out (returns 1),
 * as a cut trace's last records are.
 */
int tb_xs_fdr_reader_finish_cut(struct tb_xs_fdr_reader *x);

#endif /* TB_XSCALE_FDR_H */
