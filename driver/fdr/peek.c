// SPDX-License-Identifier: GPL-2.0
/*
 * Looking at a capture without taking part in it: a CPU's closed pages
 * copied for a file that neither consumes, closes nor holds them, so that
 * the capture's writers and readers go on as if nobody looked (tracebuf
 * top --attach).  What the capture's own readers took, or a flight
 * recorder overwrote, before the look is counted, not shown.  fdr_lock
 * throughout.  ring.c has the design.
 */
#include <linux/percpu.h>

#include "ring_cpu.h"

int fdr_peek_cpu(unsigned int cpu, char __user *buf, u32 size, u64 *next,
		 bool resume, u32 *len, u32 *missed)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
	unsigned long s, head, tail;
	int pages = 0;

	*len = 0;
	*missed = 0;
	if (!fdr_ring_buf_size)
		return 0;
	if (size < fdr_ring_page_size)
		return -EINVAL;
	/* Pairs with fdr_write_next_page()'s release of a closed page. */
	head = smp_load_acquire(&c->head);
	tail = READ_ONCE(c->tail);
	s = resume ? (unsigned long)*next : tail;
	if ((long)(s - head) > 0)
		s = head;		/* not a page of this capture yet */
	if ((long)(tail - s) > 0) {
		*missed = tail - s;
		s = tail;
	}
	for (; s != head; s++) {
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
		 * and those of the pages before are dropped.
		 */
		smp_rmb();
		tail = READ_ONCE(c->tail);
		if ((long)(tail - s) > 0) {
			*missed += tail - s;
			s = tail - 1;
			continue;
		}
		*len += n;
		pages++;
	}
	*next = s;
	return pages;
}
