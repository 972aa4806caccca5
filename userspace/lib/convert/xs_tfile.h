/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XScale trace buffers -> GDB trace file (arm), the mapping of
 * Documentation/conversions.rst: one frame per decoded message, trace
 * state variables $kind, $count, $vector, $chkpt, $target, $offset,
 * $buffer and $icount, one tracepoint per address execution continued
 * at (the low exception vectors for exceptions, 0 when unknown), and pc
 * and a plausible cpsr in the registers so that gdb's unwinder can step.
 * Used by tracebuf convert xscale-tfile; FDR -> tfile is convert/fdr_tfile.h.
 */
#ifndef TB_XSCALE_TFILE_H
#define TB_XSCALE_TFILE_H

#include <stdio.h>

#include "format/xs.h"

#define TB_XS_TFILE_UNKNOWN_ADDR	0x0ULL	/* tracepoint: no known target */
#define TB_XS_TFILE_REG_SIZE		168	/* gdb's default ARM g packet */

struct tb_xs_tfile;

/* A trace file on @out; NULL when out of memory. */
struct tb_xs_tfile *tb_xs_tfile_create(FILE *out);
/*
 * The messages of one decoded buffer (the next buffer number), as
 * frames.  Returns 0, -E2BIG beyond TB_TFILE_MAX_TP distinct addresses,
 * -ENOMEM, or -EIO when a frame could not be written.
 */
int tb_xs_tfile_buffer(struct tb_xs_tfile *x, const struct tb_xs_msg *msgs,
		       const struct tb_xs_result *res);
/* Write the end of the file and free @x: 0 or -errno when writing failed. */
int tb_xs_tfile_finish(struct tb_xs_tfile *x);

#endif /* TB_XSCALE_TFILE_H */
