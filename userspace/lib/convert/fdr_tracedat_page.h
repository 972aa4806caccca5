/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's ftrace ring-buffer pages, as trace.dat holds them
 * (Documentation/formats.rst, "trace.dat"): each page a 16-byte header
 * (u64 timestamp of its first event, u64 commit: bytes of events, with
 * bit 31 "events were lost before this page" and bit 30 "their count is
 * stored after the events"), then the events, each a 32-bit header
 * (type_len:5, time_delta:27, the delta from the event before) and its
 * record.  The pages go to a temporary file, copied into the output
 * once every CPU's are written.
 */
#ifndef TB_FDR_TRACEDAT_PAGE_H
#define TB_FDR_TRACEDAT_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TB_TD_PAGE_SIZE		4096U
#define TB_TD_PAGE_HDR		16U	/* timestamp, commit */
/* The longest record one page holds: its header, a length word, lost count. */
#define TB_TD_RECORD_MAX	(TB_TD_PAGE_SIZE - TB_TD_PAGE_HDR - 8U - 8U)

struct tb_td_page {
	FILE *f;		/* the CPU's pages; NULL until the first */
	uint8_t *data;		/* the page under way; NULL until the first */
	size_t len;		/* bytes of events after the header */
	uint64_t ts0;		/* the page's timestamp */
	uint64_t last;		/* the timestamp of its last event */
	uint64_t lost;		/* events lost before this page */
	uint64_t pages;		/* pages written */
};

/* Append a record of @n bytes (<= TB_TD_RECORD_MAX) at @ts ns.  0 or -errno. */
int tb_fdr_tracedat_page_add(struct tb_td_page *p, uint64_t ts, const void *rec,
		   size_t n);

/* @n events were lost here: the next page says so.  0 or -errno. */
int tb_fdr_tracedat_page_lost(struct tb_td_page *p, uint64_t n);

/* Write the page under way (and a page for a loss at the end).  0 or -errno. */
int tb_fdr_tracedat_page_flush(struct tb_td_page *p);

void tb_fdr_tracedat_page_free(struct tb_td_page *p);

#endif /* TB_FDR_TRACEDAT_PAGE_H */
