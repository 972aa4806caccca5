// SPDX-License-Identifier: GPL-2.0
/*
 * A file that reads the rings: its snapshot (fdr_snap_take()) and its place
 * in the stream (fdr_stream_read()), set up at open and let go at close.
 */
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ring_internal.h"

int fdr_reader_init(struct fdr_reader *rd)
{
	INIT_LIST_HEAD(&rd->holders);
	rd->cpu = -1;
	rd->off = 0;
	memset(&rd->rest, 0, sizeof(rd->rest));
	rd->snap = kcalloc(nr_cpu_ids, sizeof(*rd->snap), GFP_KERNEL_ACCOUNT);
	return rd->snap ? 0 : -ENOMEM;
}

/* The file is closed: let go of everything it holds. */
void fdr_reader_exit(struct fdr_reader *rd)
{
	fdr_snap_release(rd);
	fdr_stream_exit(rd);
	fdr_rest_free(&rd->rest);
	kfree(rd->snap);
	rd->snap = NULL;
}
