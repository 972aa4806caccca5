/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring inside: a CPU's ring and the rings' state, for the ring's own
 * files and nobody else.  Its users see frontend_api.h (writing) and
 * frontend.h (setting up and reading).  The design is at the
 * definition of fdr_rings.
 */
#ifndef _FDR_RING_INTERNAL_H
#define _FDR_RING_INTERNAL_H

#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/seqlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <asm/local64.h>

#include "frontend.h"
#include "frontend_api.h"

#define FDR_NR_PAGES		TRACEBUF_FDR_PAGES
#define FDR_PAGE_MASK		(FDR_NR_PAGES - 1)
#define FDR_KEEP_NONE		ULONG_MAX

/* What a write leaves for after it gave up the ring (fdr_release()). */
#define FDR_DUE_WAKE		BIT(0)	/* wake the reader: queue @wake */
#define FDR_DUE_WINDOW		BIT(1)	/* a window's last record was written */

struct fdr_page {
	u32 len;		/* bytes, final once closed */
	u32 events;		/* events in it, for the overwritten count */
};

struct fdr_cpu {
	/*
	 * Writer state: only this CPU touches it, interrupts off, @w.gate.busy
	 * set (except the gate bytes named at union fdr_gate).  What every
	 * event reads comes first, in one cache line: @w, then these.
	 */
	struct fdr_fast w;
	/*
	 * Events in page @head, as FDR_FUNC_SIZE times them less @len:
	 * the fast path writes one 8-byte record per event and so leaves
	 * it alone (fdr_open_events()).
	 */
	u32 skew;
	u32 block;		/* offset of the open block in page @head */
	u32 wake_len;		/* wake the reader when @len reaches it */
	u8 due;			/* FDR_DUE_*: once the ring is given up */
	u64 reported;		/* losses already reported in the stream */

	/*
	 * Counters, read anywhere: closed pages' totals change only at a
	 * page close, inside @seq; the open page adds its events and @len
	 * (@skew changes inside @seq too).
	 */
	seqcount_t seq;
	u64 closed_events;
	u64 closed_bytes;
	u64 overwritten;
	local64_t dropped;	/* also from NMI */
	local64_t frozen;	/* events a frozen ring turned away */

	u8 *data;		/* FDR_NR_PAGES * fdr_page_size bytes */
	struct fdr_page *pages;
	/*
	 * Page sequence numbers are native words, for acquire and release
	 * on 32-bit too; they are compared only by difference, so they may
	 * wrap.
	 */
	unsigned long head;	/* page being filled (sequence number) */
	unsigned long tail;	/* oldest page held */

	struct irq_work wake;

	/*
	 * Readers (serialised).  Flight mode: @keep is the oldest page a held
	 * snapshot still needs (FDR_KEEP_NONE: none); writers do not reuse
	 * it.  Streaming: readers consume at @tail, and a file that read part
	 * of page @tail owns the rest of it.
	 */
	unsigned long keep;
	u32 rd_off;		/* bytes of page @tail already read */
	struct fdr_reader *rd_owner;
	/*
	 * Zero-copy reading: pages @tail..@lend_end-1 are lent to the file
	 * of @lend_owner, which reads them through its mapping;
	 * nobody else consumes this CPU until it gives them back.
	 */
	struct fdr_reader *lend_owner;
	unsigned long lend_end;
	unsigned int cpu;
	bool full_woken;	/* writer: woke the reader for a full ring */
};

/**
 * struct fdr_snap_cpu - one CPU's part of a snapshot
 * @next:	the next page to read (sequence number); @end + 1: done
 * @end:	the page that was open when the snapshot was taken, read last
 * @open_len:	bytes of page @end that belong to the snapshot
 * @open_block:	offset in page @end of the block open then, or FDR_NO_BLOCK;
 *		its BufferExtents is sent as it was then (@open_ext)
 * @open_ext:	that block's length then
 */
struct fdr_snap_cpu {
	unsigned long next;
	unsigned long end;
	u32 open_len;
	u32 open_block;
	u64 open_ext;
};

/**
 * struct fdr_rings - the rings' state, set while stopped (serialised) and
 * read by the writers and readers; one, fdr_rings
 * @cpus:	the per-CPU state (fdr_ring_fast is the same memory)
 * @buf_size:	bytes per CPU, 0 while none are allocated
 * @page_size:	@buf_size / FDR_NR_PAGES
 * @mode:	TRACEBUF_FDR_MODE_*
 * @wakeup:	the streaming reader's wake-up amount
 * @holders:	the files holding a flight-recorder snapshot
 * @wq:		woken when a reader has something to read
 */
struct fdr_rings {
	struct fdr_cpu __percpu *cpus;
	u32 buf_size;
	u32 page_size;
	u32 mode;
	u32 wakeup;
	struct list_head holders;
	wait_queue_head_t wq;
};

extern struct fdr_rings fdr_rings;

static inline u8 *fdr_page_ptr(struct fdr_cpu *c, unsigned long seq)
{
	return c->data + (size_t)(seq & FDR_PAGE_MASK) * fdr_rings.page_size;
}

/*
 * Events in page @head.  The writer's own view, or a reader's inside @seq
 * (fdr_advance()): a fast write changes @len alone, by one event.
 */
static inline u32 fdr_open_events(const struct fdr_cpu *c)
{
	return (READ_ONCE(c->w.len) + READ_ONCE(c->skew)) / FDR_FUNC_SIZE;
}

/*
 * The fast paths stop short of the page end and of the reader's wake-up
 * point (@wake_len >= 1), so that they never test for either: a record
 * ending at or before @func_max + FDR_FUNC_SIZE takes them.  @func_max
 * keeps it in the form fdr_write_func() tests with the fewest
 * instructions.
 */
static inline void fdr_set_limit(struct fdr_cpu *c)
{
	c->w.func_max = (s32)min(fdr_rings.page_size, c->wake_len - 1) -
			FDR_FUNC_SIZE;
}

/*
 * Copy @n bytes at @off of page @seq of @c to @dst; the FDR_META_SIZE
 * bytes at @patch_at, when inside, from @patch instead.  May
 * sleep: it reschedules every 64 KiB.
 */
int fdr_ring_copy_out(char __user *dst, struct fdr_cpu *c, unsigned long seq,
		      u32 off, u32 n, u32 patch_at, const u8 *patch);

/* A file closes: its place in the stream is let go. */
void fdr_stream_exit(struct fdr_reader *rd);

/* Keep part of a page for a file whose capture goes. */
int fdr_rest_save(struct fdr_rest *r, struct fdr_cpu *c, unsigned long seq,
		  u32 off, u32 n, u32 patch_at, const u8 *patch);

/* Write path, after it gave up the ring: what it left due. */
void fdr_ring_due(struct fdr_cpu *c, u8 due);

/*
 * Give up the ring (interrupts still off), then do what the write left
 * due.  Never while holding it: irq_work_queue() is notrace, but what it
 * calls (arch_irq_work_raise(), the APIC's IPI to self) is not, and a
 * kernel function's probe handler there would be a nested writer and
 * lose its record.  Cleared while owned, so that an NMI's writer after
 * the release does its own.
 */
static __always_inline void fdr_release(struct fdr_cpu *c)
{
	u8 due = c->due;

	if (unlikely(due))
		c->due = 0;
	fdr_fast_release(&c->w);
	if (unlikely(due))
		fdr_ring_due(c, due);
}

/* Write path, in a window: one more record. */
void fdr_ring_window_event(struct fdr_cpu *c);

/* Close page @head and move to the next one (the ring owned). */
bool fdr_write_next_page(struct fdr_cpu *c);

#endif /* _FDR_RING_INTERNAL_H */
