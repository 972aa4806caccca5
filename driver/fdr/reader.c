// SPDX-License-Identifier: GPL-2.0
/*
 * A file that reads the rings: its snapshot (snap.c) and its place in the
 * stream (stream.c), set up at open and let go at close.
 */
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "ring_cpu.h"

int fdr_reader_init(struct fdr_reader *rd)
{
	INIT_LIST_HEAD(&rd->holders);
	rd->cpu = -1;
	rd->off = 0;
	rd->snap = kcalloc(nr_cpu_ids, sizeof(*rd->snap), GFP_KERNEL_ACCOUNT);
	return rd->snap ? 0 : -ENOMEM;
}

/*
 * The file is closed: let go of its snapshot, and of the page it was
 * halfway through (the rest of that page is discarded: another reader
 * could not start in the middle of a block).
 */
void fdr_reader_exit(struct fdr_reader *rd)
{
	int cpu;

	fdr_snap_release(rd);
	if (fdr_ring_buf_size) {
		for_each_possible_cpu(cpu) {
			struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

			fdr_stream_lend(rd, cpu, false, true, NULL);
			if (c->rd_owner != rd)
				continue;
			c->rd_off = 0;
			c->rd_owner = NULL;
			/* Pairs with fdr_write_next_page(): the page is free. */
			smp_store_release(&c->tail, c->tail + 1);
			/* Peers skipped this CPU while we owned the page. */
			wake_up_interruptible_all(&fdr_ring_wq);
		}
	}
	kfree(rd->snap);
	rd->snap = NULL;
}
