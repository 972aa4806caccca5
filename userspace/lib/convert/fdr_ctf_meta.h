/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metadata file of tracebuf convert fdr-ctf: CTF 1.8 TSDL text that
 * babeltrace, babeltrace2, Trace Compass and lttng-analyses take for an
 * LTTng kernel trace.  Its env says what LTTng's kernel tracer says of a
 * session (domain "kernel", tracer_name "lttng-modules", a tracer version
 * whose events are named syscall_entry_*), and what we know of the
 * machine; its clock is the FDR header's: the TSC's frequency, and the
 * offset from the Epoch from the trace's first WallClockTime record.
 * Documentation/formats.rst ("CTF") describes the whole layout.
 */
#ifndef TB_FDR_CTF_META_H
#define TB_FDR_CTF_META_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_ctf_class.h"

/* The tracer version the env claims: 2.13, whose names we write. */
#define TB_CTF_TRACER_MAJOR	2
#define TB_CTF_TRACER_MINOR	13
#define TB_CTF_TRACER_PATCH	0

struct tb_ctf_meta {
	uint8_t uuid[16];
	uint64_t freq;		/* Hz */
	/* the clock's zero, from the Epoch: seconds and cycles */
	int64_t offset_s;
	uint64_t offset;
	bool has_wall;		/* offset known */
	const char *hostname;	/* NULL: "unknown" */
	const char *kernel_release;	/* NULL: "unknown" */
	const char *trace_name;
	const char *source;	/* the FDR file converted */
};

int tb_ctf_meta_write(FILE *out, const struct tb_ctf_meta *m,
		      const struct tb_ctf_classes *c);

#endif /* TB_FDR_CTF_META_H */
