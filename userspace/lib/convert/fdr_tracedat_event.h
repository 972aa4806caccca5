/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of a trace.dat (convert/fdr_tracedat.c): their formats, as
 * the kernel's events/SYSTEM/NAME/format files say them, and the mapping
 * of each merged item (convert/fdr_merge.h) to one of them.
 */
#ifndef TB_FDR_TRACEDAT_EVENT_H
#define TB_FDR_TRACEDAT_EVENT_H

#include <stdint.h>

#include "convert/fdr_merge.h"
#include "convert/fdr_tracedat.h"
#include "convert/fdr_tracedat_page.h"
#include "util/buf.h"

struct td_ctx {
	const struct tb_fdr_tracedat_opts *o;
	struct tb_fdr_tracedat_stats *st;
	struct tb_fdr_merge m;
	struct tb_td_page *cpus;	/* m.ncpus of them */
	struct tb_buf rec;		/* the record being built */
};

/*
 * The sections of the header that describe the events: ftrace's own
 * (print), then each system's, appended to @out.  0 or -ENOMEM.
 */
int tb_fdr_tracedat_event_formats(struct tb_buf *out);

/* Write the item at @k to its CPU's pages.  0 or -errno. */
int tb_fdr_tracedat_event_write(struct td_ctx *c,
				const struct tb_fdr_merge_cursor *k);

#endif /* TB_FDR_TRACEDAT_EVENT_H */
