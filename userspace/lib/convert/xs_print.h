/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text form of decoded XScale buffers, shared by tracebuf decode and
 * `tracebuf convert xscale-text` so both print exactly the same thing.
 */
#ifndef TB_XSCALE_PRINT_H
#define TB_XSCALE_PRINT_H

#include <stdio.h>

#include "format/xs.h"
#include "format/xs_record.h"

void tb_xs_print_buffer(FILE *out, unsigned long index,
			const struct tb_xs_buffer *b,
			const struct tb_xs_msg *msgs,
			const struct tb_xs_result *res);

#endif /* TB_XSCALE_PRINT_H */
