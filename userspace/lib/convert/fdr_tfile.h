/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR -> GDB trace file (x86-64), the mapping of
 * Documentation/conversions.rst: one frame per function record or
 * custom/typed event, trace state variables $tsc, $cpu, $tid, $pid, $fid,
 * $type, $nargs and $param0..5, one tracepoint per function id at the
 * address the ELF instrumentation map (format/xray_map.h) gives the function.
 * Used by tracebuf convert fdr-tfile and by the collectors.
 */
#ifndef TB_FDR_TFILE_H
#define TB_FDR_TFILE_H

#include <stdio.h>

#include "format/name_map.h"
#include "util/error.h"

#define TB_FDR_TFILE_CUSTOM_ADDR	0x3ff000ULL	/* custom/typed events */
#define TB_FDR_TFILE_PAYLOAD_ADDR	0x10000000ULL	/* payloads appear here */
#define TB_FDR_TFILE_REG_SIZE		0x970	/* gdb 13 tsave, x86-64 Linux */

/*
 * Convert @in to @out; @names (may be NULL) names the tracepoints.  A
 * regular file @in is read twice (no spool).  Returns 0, -1 with @err set
 * for malformed input or too many function ids, or -errno when writing
 * failed.
 */
int tb_fdr_tfile_write(FILE *in, FILE *out, const struct tb_name_map *names,
		       struct tb_error *err);

#endif /* TB_FDR_TFILE_H */
