// SPDX-License-Identifier: GPL-2.0
/*
 * Looking at a capture without taking part in it: a CPU's closed pages
 * copied for a file that neither consumes, closes nor holds them, so that
 * the capture's writers and readers go on as if nobody looked (tracebuf
 * top --attach).  What the capture's own readers took, or a flight
 * recorder overwrote, before the look is counted, not shown.  fdr_lock
 * throughout.  ring.c has the design.
 */
#include <linux/minmax.h>
#include <linux/percpu.h>

#include "ring_cpu.h"

/* Pages from @s up to @tail, gone: counted, saturating. */
static void fdr_peek_gone(u32 *missed, unsigned long s, unsigned long tail)
{
	*missed = min_t(unsigned long, (unsigned long)*missed + (tail - s),
			U32_MAX);
}

/*
 * Stopped, no writer can touch @c: its open page, @len bytes, copied as
 * the snapshot of a stopped ring would be, its open block's BufferExtents
 * brought up to date in the copy.
 */
static int fdr_peek_open_page(struct fdr_cpu *c, char __user *buf, u32 len)
{
	u8 patch[FDR_META_SIZE];
	u32 patch_at = FDR_NO_BLOCK;

	if (c->w.owner) {
		patch_at = c->block;
		fdr_put_extents(patch, len - c->block - FDR_META_SIZE);
	}
	return fdr_ring_copy_out(buf, c, c->head, 0, len, patch_at, patch);
}

int fdr_peek_cpu(unsigned int cpu, char __user *buf, u32 size, u64 *next,
		 bool resume, bool stopped, u32 *len, u32 *missed)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
	unsigned long s, head, tail, end;
	u32 open_len = 0;
	int pages = 0;

	*len = 0;
	*missed = 0;
	if (!fdr_ring_buf_size)
		return 0;
	if (size < fdr_ring_page_size)
		return -EINVAL;
	tail = READ_ONCE(c->tail);
	/* Pairs with fdr_write_next_page()'s release of a closed page. */
	head = smp_load_acquire(&c->head);
	/* A writer that went round the ring between the two reads. */
	if ((long)(tail - head) > 0)
		tail = head;
	/* Stopped, the open page is final: it comes last, as page @head. */
	if (stopped)
		open_len = c->w.len;
	end = head + (open_len ? 1 : 0);
	s = resume ? (unsigned long)*next : tail;
	if ((long)(s - end) > 0)
		s = end;		/* not a page of this capture yet */
	if ((long)(tail - s) > 0) {
		fdr_peek_gone(missed, s, tail);
		s = tail;
	}
	while ((long)(head - s) > 0) {
		u32 n = READ_ONCE(c->pages[s & FDR_PAGE_MASK].len);

		if (n > size - *len)
			break;
		if (fdr_ring_copy_out(buf + *len, c, s, 0, n, FDR_NO_BLOCK,
				      NULL)) {
			if (!pages)
				return -EFAULT;
			break;		/* what was copied stands */
		}
		/*
		 * A flight recorder's writer reuses the oldest page after
		 * moving @tail past it, inside @seq, whose write side orders
		 * that store before its writes to the page: a page written
		 * under the copy shows as a @tail past it here.  Its bytes
		 * are dropped, and the pages @tail passed are gone.
		 */
		smp_rmb();
		tail = READ_ONCE(c->tail);
		if ((long)(tail - s) > 0) {
			fdr_peek_gone(missed, s, tail);
			s = tail;
			continue;
		}
		*len += n;
		pages++;
		s++;
	}
	if (s == head && open_len && open_len <= size - *len) {
		if (fdr_peek_open_page(c, buf + *len, open_len)) {
			if (!pages)
				return -EFAULT;
		} else {
			*len += open_len;
			pages++;
			s++;
		}
	}
	*next = s;
	return pages;
}
