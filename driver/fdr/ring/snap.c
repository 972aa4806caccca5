// SPDX-License-Identifier: GPL-2.0
/*
 * Flight-recorder snapshots: a file holds the pages a snapshot covers, and
 * reads them from the ring itself; writers do not reuse a held page
 * (@keep), so nothing is copied at the snapshot and the recording goes on
 * into the pages nobody holds.  Serialised throughout; the design is at
 * fdr_rings' definition.
 */
#include <linux/cpu.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "ring_internal.h"

/* This CPU's part of a snapshot is read (sequence numbers may wrap). */
static bool fdr_snap_cpu_done(const struct fdr_snap_cpu *s)
{
	return (long)(s->next - s->end) > 0;
}

/*
 * Recompute @cpu's @keep: the oldest page any holder still needs.  The
 * release pairs with fdr_write_next_page()'s acquire: our copies of the
 * pages below it are done before a writer reuses them.
 */
static void fdr_keep_update(unsigned int cpu)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
	unsigned long keep = FDR_KEEP_NONE;
	struct fdr_reader *rd;

	/* Holders need pages at or after @tail: the oldest is the nearest. */
	list_for_each_entry(rd, &fdr_rings.holders, holders) {
		const struct fdr_snap_cpu *s = &rd->snap[cpu];

		if (!fdr_snap_cpu_done(s) &&
		    (keep == FDR_KEEP_NONE || s->next - c->tail < keep - c->tail))
			keep = s->next;
	}
	/* Our copies are done before a writer may reuse those pages. */
	smp_store_release(&c->keep, keep);
}

struct fdr_hold_req {
	struct fdr_cpu *c;
	struct fdr_snap_cpu *s;
};

static void fdr_hold_ipi(void *info)
{
	struct fdr_hold_req *r = info;
	struct fdr_cpu *c = r->c;
	struct fdr_snap_cpu *s = r->s;

	/*
	 * On c's CPU with interrupts off, or with c's CPU offline or not
	 * recording: no writer is inside.  Keep NMI writers out as a writer
	 * does, so that @len and the open block agree.
	 */
	c->w.gate.busy = 1;
	barrier();
	s->next = c->tail;
	s->end = c->head;
	s->open_len = c->w.len;
	s->open_block = c->w.owner ? c->block : FDR_NO_BLOCK;
	s->open_ext = c->w.len - c->block - FDR_META_SIZE;
	if (s->next == s->end && !s->open_len) {
		s->next = s->end + 1;		/* nothing recorded here */
	} else {
		/*
		 * Every holder's pages are at or after @tail: this is the min.
		 */
		WRITE_ONCE(c->keep, s->next);
	}
	barrier();
	WRITE_ONCE(c->w.gate.busy, 0);
}

bool fdr_snap_held(const struct fdr_reader *rd)
{
	return !list_empty(&rd->holders);
}

void fdr_snap_release(struct fdr_reader *rd)
{
	int cpu;

	if (!fdr_snap_held(rd))
		return;
	list_del_init(&rd->holders);
	for_each_possible_cpu(cpu)
		fdr_keep_update(cpu);
}

/*
 * Take a snapshot for @rd: on each CPU in turn, note the pages tail..head
 * and how much of the open page is written, and keep writers from reusing
 * them until @rd has read them.  Nothing is copied: the reader reads the
 * ring itself, and the recording goes on into the pages nobody holds.
 */
void fdr_snap_take(struct fdr_reader *rd)
{
	struct fdr_hold_req r;
	int cpu;

	fdr_snap_release(rd);
	rd->cpu = cpumask_first(cpu_possible_mask);
	rd->off = 0;
	if (!fdr_rings.buf_size) {
		rd->cpu = nr_cpu_ids;		/* nothing was ever recorded */
		return;
	}
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		r.c = per_cpu_ptr(fdr_rings.cpus, cpu);
		r.s = &rd->snap[cpu];
		if (READ_ONCE(r.c->w.gate.on) && cpu_online(cpu))
			smp_call_function_single(cpu, fdr_hold_ipi, &r, 1);
		else
			fdr_hold_ipi(&r);
	}
	cpus_read_unlock();
	list_add(&rd->holders, &fdr_rings.holders);
}

/*
 * The length of the page @s covers next, and for the page that was open
 * at the snapshot, where its open block's header is (@patch_at) and that
 * header as it was then (@patch); else @patch_at is FDR_NO_BLOCK.
 */
static u32 fdr_snap_page(const struct fdr_snap_cpu *s, const struct fdr_cpu *c,
			 u32 *patch_at, u8 *patch)
{
	*patch_at = FDR_NO_BLOCK;
	if (s->next != s->end)
		return c->pages[s->next & FDR_PAGE_MASK].len;
	if (s->open_block != FDR_NO_BLOCK) {
		*patch_at = s->open_block;
		fdr_put_extents(patch, s->open_ext);
	}
	return s->open_len;
}

int fdr_snap_keep_rests(void)
{
	u8 patch[FDR_META_SIZE];
	struct fdr_reader *rd;
	u32 len, patch_at;
	int ret;

	list_for_each_entry(rd, &fdr_rings.holders, holders) {
		struct fdr_snap_cpu *s;
		struct fdr_cpu *c;

		if (!rd->off || rd->cpu >= nr_cpu_ids)
			continue;
		s = &rd->snap[rd->cpu];
		c = per_cpu_ptr(fdr_rings.cpus, rd->cpu);
		len = fdr_snap_page(s, c, &patch_at, patch);
		ret = fdr_rest_save(&rd->rest, c, s->next, rd->off,
				    len - rd->off, patch_at, patch);
		if (ret) {
			fdr_snap_rests_kept(false);
			return ret;
		}
	}
	return 0;
}

void fdr_snap_rests_kept(bool go)
{
	struct fdr_reader *rd;

	list_for_each_entry(rd, &fdr_rings.holders, holders) {
		if (!rd->off || rd->cpu >= nr_cpu_ids)
			continue;
		if (!go) {
			fdr_rest_free(&rd->rest);
			continue;
		}
		rd->off = 0;
		rd->snap[rd->cpu].next++;
		fdr_keep_update(rd->cpu);
	}
}

/*
 * Copy the snapshot @rd holds, CPU after CPU, page after page, each page
 * from where the previous read stopped.  Returns 0 once everything was
 * read, and then lets go of the pages.
 */
ssize_t fdr_snap_read(struct fdr_reader *rd, char __user *buf, size_t count)
{
	u8 patch[FDR_META_SIZE];
	size_t done = 0;

	if (!fdr_snap_held(rd))
		return 0;	/* read to its end, or its ring is gone */
	while (done < count && rd->cpu < nr_cpu_ids) {
		struct fdr_snap_cpu *s = &rd->snap[rd->cpu];
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, rd->cpu);
		u32 len, n, patch_at;

		if (fdr_snap_cpu_done(s)) {
			rd->cpu = cpumask_next(rd->cpu, cpu_possible_mask);
			rd->off = 0;
			continue;
		}
		len = fdr_snap_page(s, c, &patch_at, patch);
		n = min_t(size_t, len - rd->off, count - done);
		if (fdr_ring_copy_out(buf + done, c, s->next, rd->off, n,
				      patch_at, patch))
			return done ? done : -EFAULT;
		done += n;
		rd->off += n;
		if (rd->off < len)
			break;
		rd->off = 0;
		s->next++;
		fdr_keep_update(rd->cpu);
	}
	if (rd->cpu >= nr_cpu_ids)
		fdr_snap_release(rd);
	return done;
}
