/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the CTF writer (convert/fdr_ctf.c) shares with the mapping of
 * records to LTTng's events (convert/fdr_ctf_event.c): the context, and
 * the writing of one merged item (convert/fdr_merge.h) as CTF events.
 */
#ifndef TB_FDR_CTF_EVENT_H
#define TB_FDR_CTF_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_ctf.h"
#include "convert/fdr_ctf_class.h"
#include "convert/fdr_ctf_meta.h"
#include "convert/fdr_ctf_stream.h"
#include "convert/fdr_merge.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/hash.h"

struct cv_ctx {
	const struct tb_fdr_ctf_opts *o;
	struct tb_fdr_ctf_stats *st;
	struct tb_fdr_merge m;	/* the first pass, and the merge */
	int err;		/* of opening a stream */
	/* second pass */
	struct tb_ctf_classes classes;
	struct tb_ctf_meta meta;
	struct tb_ctf_stream *streams;	/* by CPU, f NULL when unused */
	int32_t *current;		/* tid on each CPU, -1 none */
	size_t ncpus;
	const char *dir;
	struct tb_buf ev;
	bool dumped;
};

/*
 * Write the item at @k as its CTF events (the state dump before the
 * first, a sched_switch when its CPU's task changes).  Returns 0 or
 * -errno.
 */
int tb_fdr_ctf_event_write(struct cv_ctx *c, const struct tb_fdr_merge_cursor *k);

#endif /* TB_FDR_CTF_EVENT_H */
