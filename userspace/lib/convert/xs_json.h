/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON form of decoded XScale buffers (tracebuf decode -J): one object a
 * line, one line a buffer, with the same facts as the text form
 * (convert/xs_print.h), for scripts:
 *
 *   {"buffer": 0, "size": 256, "seq": 0, "lost_before": 0, "flags": 4,
 *    "chkpt0": 32768, "chkpt1": 15, "wrapped": false, "unwritten": 244,
 *    "dropped": 0, "messages": [{"offset": 244, "kind": "exception",
 *    "count": 3, "vector": 2, "vector_name": "swi"}, {"offset": 245,
 *    "kind": "branch", "count": 2, "target": 32768, "checkpoint":
 *    "chkpt0"}, ...], "warnings": [{"offset": 9, "text": "..."}],
 *    "instructions": 62}
 *
 * The record fields (seq to chkpt1) are left out for a raw dump.
 */
#ifndef TB_XSCALE_JSON_H
#define TB_XSCALE_JSON_H

#include <stdio.h>

#include "format/xs.h"
#include "format/xs_record.h"

void tb_xs_json_buffer(FILE *out, unsigned long index,
		       const struct tb_xs_buffer *b, const struct tb_xs_msg *msgs,
		       const struct tb_xs_result *res);

#endif /* TB_XSCALE_JSON_H */
