// SPDX-License-Identifier: GPL-2.0
/*
 * Looking at a capture without taking part in it: a CPU's closed pages
 * copied for a file that neither consumes, closes nor holds them, so that
 * the capture's writers and readers go on as if nobody looked (tracebuf
 * top --attach).  A page a reader took is still there until the writer
 * reuses it; what the writer overwrote before the look is counted, not
 * shown.  Serialised throughout; the design is at fdr_rings' definition.
 */
#include <linux/minmax.h>
#include <linux/percpu.h>

#include "ring_internal.h"

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
	struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
	unsigned long s, head, h, oldest, end;
	u32 open_len = 0;
	int pages = 0;

	*len = 0;
	*missed = 0;
	if (!fdr_rings.buf_size)
		return 0;
	if (size < fdr_rings.page_size)
		return -EINVAL;
	/*
	 * Pairs with fdr_write_next_page()'s release of a closed page.  The
	 * pages before @head are whole until the writer reuses them, taken
	 * by a reader or not: all but the oldest slot, which @head fills.
	 */
	head = smp_load_acquire(&c->head);
	oldest = head >= FDR_NR_PAGES - 1 ? head - (FDR_NR_PAGES - 1) : 0;
	/* Stopped, the open page is final: it comes last, as page @head. */
	if (stopped)
		open_len = c->w.len;
	end = head + (open_len ? 1 : 0);
	s = resume ? (unsigned long)*next : oldest;
	if ((long)(s - end) > 0)
		s = end;		/* not a page of this capture yet */
	if ((long)(oldest - s) > 0) {
		fdr_peek_gone(missed, s, oldest);
		s = oldest;
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
		 * The writer reuses page s's slot for page s + FDR_NR_PAGES
		 * and orders its @head store before its writes to it
		 * (fdr_write_next_page()): a page written under the copy
		 * shows as a @head that far on.  Its bytes are dropped, with
		 * the pages before the new oldest.
		 */
		smp_rmb();
		h = READ_ONCE(c->head);
		if (h - s >= FDR_NR_PAGES) {
			oldest = h - (FDR_NR_PAGES - 1);
			fdr_peek_gone(missed, s, oldest);
			s = oldest;
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
