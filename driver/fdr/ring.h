/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU's ring as its writers see it, and the write path's common case,
 * inline: the syscall probes (fdr_events.c) are the hottest writers in the
 * system and take it without a call.  Everything else about the rings,
 * the design included, is in fdr_ring.c.
 */
#ifndef _FDR_RING_H
#define _FDR_RING_H

#include <linux/compiler.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <asm/local64.h>

#include "fdr.h"

struct fdr_page {
	u32 len;		/* bytes, final once closed */
	u32 events;		/* events in it, for the overwritten count */
};

/*
 * The writers' gate: one byte per condition, so that each byte has one
 * kind of writer and none needs an atomic operation, and one word, so that
 * the common case of a write tests them all with a single compare against
 * FDR_GATE_FAST.
 */
union fdr_gate {
	struct {
		u8 busy;	/* a writer or a reader's IPI owns the ring */
		u8 on;		/* recording: fdr_ring_set_on() */
		u8 lost;	/* a loss waits to be reported in the stream */
		u8 window;	/* a trigger's post-trigger window is open */
		u8 slow_clock;	/* the capture's clock is not the TSC */
		u8 frozen;	/* off because a trigger froze the rings */
	};
	struct {
		u16 owned;
		/*
		 * @lost or @window: the write takes fdr_reserve_slow(), tested
		 * with one compare as @lost alone was.
		 */
		u16 pending;
	};
	u64 word;
};

#define FDR_GATE_FAST		(((union fdr_gate){ .on = 1 }).word)

struct fdr_cpu {
	/*
	 * Writer state: only this CPU touches it, interrupts off, @gate.busy
	 * set (except the gate bytes named above).  What every event reads
	 * comes first, in one cache line.
	 */
	union fdr_gate gate;
	u32 len;		/* bytes in page @head */
	s32 func_max;		/* fdr_write_func() fast while @len <= this */
	u8 *page;		/* start of page @head */
	struct task_struct *owner;	/* task of the open block, or NULL */
	/* The time the next delta counts from, in halves: fdr_base(). */
	u32 base_lo;
	u32 base_hi;
	/*
	 * Events in page @head, as FDR_FUNC_SIZE times them less @len:
	 * the fast path writes one 8-byte record per event and so leaves
	 * it alone (fdr_open_events()).
	 */
	u32 skew;
	u32 block;		/* offset of the open block in page @head */
	u32 wake_len;		/* wake the reader when @len reaches it */
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
	 * Readers (fdr_lock).  Flight mode: @keep is the oldest page a held
	 * snapshot still needs (FDR_KEEP_NONE: none); writers do not reuse
	 * it.  Streaming: readers consume at @tail, and a file that read part
	 * of page @tail owns the rest of it.
	 */
	unsigned long keep;
	u32 rd_off;		/* bytes of page @tail already read */
	struct fdr_reader *rd_owner;
	/*
	 * Zero-copy reading: pages @tail..@lend_end-1 are lent to the file
	 * of @lend_owner, which reads them through its mapping (fdr_mmap.c);
	 * nobody else consumes this CPU until it gives them back.
	 */
	struct fdr_reader *lend_owner;
	unsigned long lend_end;
	unsigned int cpu;
	bool full_woken;	/* writer: woke the reader for a full ring */
};

extern struct fdr_cpu __percpu *fdr_cpus;

static __always_inline u64 fdr_base(const struct fdr_cpu *c)
{
	return (u64)c->base_hi << 32 | c->base_lo;
}

static __always_inline void fdr_set_base(struct fdr_cpu *c, u64 t)
{
	c->base_lo = lower_32_bits(t);
	c->base_hi = upper_32_bits(t);
}

/* Give up the ring (interrupts still off). */
static __always_inline void fdr_release(struct fdr_cpu *c)
{
	barrier();
	WRITE_ONCE(c->gate.busy, 0);
}

/**
 * fdr_write_func_fast() - fdr_write_func()'s common case
 * @word:	the record's fdr_func_word()
 * @tsk:	current, which the caller may have at hand already
 *
 * Interrupts off.  The common case: recording with the TSC, nobody inside,
 * nothing to report (one compare of the gate), then the task's block is
 * open, the page has room short of the wake-up point, and the time since
 * the last record shares its upper 32 bits and has not gone back (so the
 * delta fits, and the base's upper half stays as it is).  Per event it stores the record, the
 * base's lower half and @len: the page's event count follows from @len
 * (@skew), so nothing else changes.
 *
 * Return: true when the record went in; false when it is not the common
 * case: nothing was committed and the ring is not held, so the caller
 * starts over the long way.
 */
static __always_inline bool fdr_write_func_fast(u32 word,
						struct task_struct *tsk)
{
	struct fdr_cpu *c = this_cpu_ptr(fdr_cpus);
	u32 len, lo, hi, delta;

	/*
	 * Not READ_ONCE(): a plain read lets the compiler compare in memory,
	 * and one compare reads the word once either way.
	 */
	if (unlikely(c->gate.word != FDR_GATE_FAST))
		return false;
	c->gate.busy = 1;
	barrier();	/* own the ring before reading the clock or state */
	fdr_clock_tsc_halves(&lo, &hi);
	len = c->len;
	/*
	 * The same upper half and a lower one not below the base's: the
	 * delta fits.  A TSC that stepped back (the kernel may mark it
	 * unstable in the middle of a capture) gets a TSCWrap the slow way.
	 */
	if (unlikely(c->owner != tsk || (s32)len > c->func_max ||
		     hi != c->base_hi ||
		     check_sub_overflow(lo, c->base_lo, &delta))) {
		fdr_release(c);
		return false;
	}
	/*
	 * The record's bytes before @len, so that @len never covers bytes
	 * not yet written: a crash dump taken while a CPU is stopped here
	 * then finds, at worst, the complete record it marks torn.
	 */
	fdr_put_func_word(c->page + len, word, delta);
	c->base_lo = lo;
	barrier();
	WRITE_ONCE(c->len, len + FDR_FUNC_SIZE);
	fdr_release(c);
	return true;
}

/**
 * fdr_write_func_irqs_on() - fdr_write_func() where interrupts are on
 * @word:	the record's fdr_func_word()
 * @tsk:	current
 *
 * For probes whose events always come with interrupts enabled, such as the
 * syscall tracepoints (kernel/entry/common.c runs syscall entry and exit
 * work with interrupts on): disabling and enabling them costs two
 * instructions where saving and restoring the flags costs six.  Lockdep
 * checks the assumption on debug kernels.  The one way to break it is a
 * syscall that returns with interrupts off, a kernel bug that
 * syscall_exit_to_user_mode_prepare() reports and repairs by enabling
 * them under CONFIG_PROVE_LOCKING; elsewhere this enables them as early,
 * in exit work, which runs with them on anyway.
 */
static __always_inline void fdr_write_func_irqs_on(u32 word,
						   struct task_struct *tsk)
{
	lockdep_assert_irqs_enabled();
	local_irq_disable();
	if (likely(fdr_write_func_fast(word, tsk))) {
		local_irq_enable();
		return;
	}
	local_irq_enable();
	fdr_write_func(word);
}

#endif /* _FDR_RING_H */
