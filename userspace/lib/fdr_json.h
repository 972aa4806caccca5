/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR -> Chrome trace_event JSON (what Perfetto and chrome://tracing
 * open): {"traceEvents": [...]} with one "B" (entry) or "E" (exit, tail
 * exit) event per function record, pid and tid from the block, ts in
 * microseconds (the TSC over the header's cycle_frequency), names from a
 * name map ("function N" otherwise) and a call's arguments as args.
 * Custom and typed events become instant ("i", thread scope) events with
 * their payload as a string.  Documentation/conversions.rst has the
 * mapping.  It streams: memory does not grow with the input.
 */
#ifndef TB_FDR_JSON_H
#define TB_FDR_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "name_map.h"
#include "tb_error.h"

struct tb_fdr_json_stats {
	uint64_t begins;	/* "B" events */
	uint64_t ends;		/* "E" events */
	uint64_t instants;	/* "i" events */
};

/*
 * Convert @in to @out; @names may be NULL, @stats too.  Returns 0, -1 with
 * @err set for malformed input, or -errno when writing failed.
 */
int tb_fdr_json_write(FILE *in, FILE *out, const struct tb_name_map *names,
		      struct tb_fdr_json_stats *stats, struct tb_error *err);

#endif /* TB_FDR_JSON_H */
