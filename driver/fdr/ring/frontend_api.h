/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring's write API, for the code that records: the kernel events'
 * probes, kernel functions, triggers, the panic, the device's markers.
 * Any context, NMI included; no lock, no sleep.  The common case of the
 * hottest writers, one function record written by the syscall probes, is
 * inline here (fdr_write_func_fast()) and sees only the part of a CPU's
 * ring it needs, struct fdr_fast.  Setting the rings up and reading them
 * is frontend.h's; the ring knows none of its users.
 */
#ifndef _FDR_RING_FRONTEND_API_H
#define _FDR_RING_FRONTEND_API_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>
#ifdef CONFIG_PARAVIRT_XXL
#include <asm/cpufeature.h>
#endif

#include <linux/tracebuf.h>

#include "../clock.h"
#include "record.h"

struct task_struct;

/*
 * Any context, including NMI.  Never sleeps or locks.  fdr_write_func()
 * takes the record's fdr_func_word(), which callers build from constants.
 */
void fdr_write_func(u32 word);
/* The same; false when the record was not written (stopped or dropped). */
bool fdr_write_func_ok(u32 word);
/* Count @n events lost elsewhere on this CPU and report them in its stream. */
void fdr_write_lost(u64 n);
void fdr_write_func_args(u32 id, unsigned int nargs, const unsigned long *args);
void fdr_write_instant(u32 id, unsigned long arg);
/*
 * sched_switch on this CPU: close the open block and, given a SWITCH
 * payload @sw of @len bytes, open @next's block with that typed event as
 * its first record (an event, lost and counted as one if it does not fit).
 * @sw NULL: only close, @next's first record opens its block.
 */
void fdr_write_switch(struct task_struct *next, const void *sw, u32 len);
/*
 * Any context (a trigger writes its reason from probes and the die
 * notifier); false if not recording (stopped or frozen).
 */
bool fdr_write_marker(const void *data, u32 len);
/*
 * A typed event (TRACEBUF_FDR_TYPED_*) of @len <= FDR_TYPED_MAX payload
 * bytes in current's block; any context.  fdr_write_func_typed() writes
 * the function record @word first and the event right after it at the
 * same time, in one reservation, so that nothing comes between them: two
 * events, both written or both lost.
 */
#define FDR_TYPED_MAX		64
void fdr_write_typed(u16 type, const void *data, u32 len);
void fdr_write_func_typed(u32 word, u16 type, const void *data, u32 len);

/*
 * The tid of @tsk's blocks on @cpu, as NewBuffer records and typed events
 * give it: idle tasks all have pid 0, so each CPU's gets its own.
 */
static inline s32 fdr_ring_tid(const struct task_struct *tsk, unsigned int cpu)
{
	if (is_idle_task(tsk))
		return TRACEBUF_FDR_IDLE_TID(cpu);
	return tsk->pid;
}

/* ------------------------------------------- the common case, inline */

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
		u8 window;	/* a window counts records: fdr_ring_window_open() */
		u8 slow_clock;	/* the capture's clock is not the TSC */
		u8 frozen;	/* off by fdr_ring_stop_writers() */
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

/*
 * What the write path's common case reads and writes of a CPU's ring: the first
 * member of the ring's struct fdr_cpu, in one cache line.  Only this CPU
 * touches it, interrupts off, @gate.busy set (except the gate bytes named
 * above).
 */
struct fdr_fast {
	union fdr_gate gate;
	u32 len;		/* bytes in page @head */
	s32 func_max;		/* fdr_write_func() fast while @len <= this */
	u8 *page;		/* start of page @head */
	struct task_struct *owner;	/* task of the open block, or NULL */
	/* The time the next delta counts from, in halves: fdr_fast_base(). */
	u32 base_lo;
	u32 base_hi;
};

/*
 * The rings' per-CPU memory seen as struct fdr_fast.  The one variable the
 * writers read directly: the inline common case reaches this CPU's ring
 * with it in one load, where a call to an accessor would add a call and a
 * return to each of the hottest events' 33 instructions.
 */
extern struct fdr_fast __percpu *fdr_ring_fast;

static __always_inline u64 fdr_fast_base(const struct fdr_fast *c)
{
	return (u64)c->base_hi << 32 | c->base_lo;
}

static __always_inline void fdr_fast_set_base(struct fdr_fast *c, u64 t)
{
	c->base_lo = lower_32_bits(t);
	c->base_hi = upper_32_bits(t);
}

/* Give up the ring (interrupts still off). */
static __always_inline void fdr_fast_release(struct fdr_fast *c)
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
 * delta fits, and the base's upper half stays as it is).  Per event it
 * stores the record, the base's lower half and @len: the page's event
 * count follows from @len (@skew), so nothing else changes.
 *
 * Return: true when the record went in; false when it is not the common
 * case: nothing was committed and the ring is not held, so the caller
 * starts over the long way.
 */
static __always_inline bool fdr_write_func_fast(u32 word,
						struct task_struct *tsk)
{
	struct fdr_fast *c = this_cpu_ptr(fdr_ring_fast);
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
		fdr_fast_release(c);
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
	/*
	 * An add to memory: on x86 one instruction where a store of len + 8
	 * took two.  Only this CPU writes @len (an NMI finds the ring busy);
	 * the other CPUs read it with READ_ONCE() and take either value; a
	 * CPU stopped inside a load-add-store left the old length, as one
	 * stopped before the store did.
	 */
	c->len += FDR_FUNC_SIZE;
	fdr_fast_release(c);
	return true;
}

/*
 * Interrupts off and on around the inline common case, as the bare
 * instructions.  On kernels built for Xen PV (CONFIG_PARAVIRT_XXL, which
 * Debian's are) local_irq_disable() is a call site that boot patches to
 * the instruction followed by a NOP: one more instruction each way.  Only
 * a Xen PV guest needs the call; there the syscall
 * probes take fdr_write_func() instead (fdr_irqs_native()).  Untraced, as
 * raw_local_irq_disable() is: nothing in between takes a lock.
 */
static __always_inline bool fdr_irqs_native(void)
{
#ifdef CONFIG_PARAVIRT_XXL
	return !cpu_feature_enabled(X86_FEATURE_XENPV);
#else
	return true;
#endif
}

static __always_inline void fdr_irq_disable(void)
{
#ifdef CONFIG_PARAVIRT_XXL
	native_irq_disable();
#else
	raw_local_irq_disable();
#endif
}

static __always_inline void fdr_irq_enable(void)
{
#ifdef CONFIG_PARAVIRT_XXL
	native_irq_enable();
#else
	raw_local_irq_enable();
#endif
}

/**
 * fdr_write_func_irqs_on() - fdr_write_func() where interrupts are on
 * @word:	the record's fdr_func_word()
 * @tsk:	current
 *
 * For probes whose events always come with interrupts enabled, such as the
 * syscall tracepoints (syscall_enter_from_user_mode_work() and
 * syscall_exit_to_user_mode_prepare() run with interrupts on): disabling
 * and enabling them costs two instructions where saving and restoring the
 * flags costs six.  Lockdep
 * checks the assumption on debug kernels.  The one way to break it is a
 * syscall that returns with interrupts off, a kernel bug that
 * syscall_exit_to_user_mode_prepare() reports and repairs by enabling
 * them under CONFIG_PROVE_LOCKING; elsewhere this enables them as early,
 * in exit work, which runs with them on anyway.  Only where
 * fdr_irqs_native().
 */
static __always_inline void fdr_write_func_irqs_on(u32 word,
						   struct task_struct *tsk)
{
	lockdep_assert_irqs_enabled();
	fdr_irq_disable();
	if (likely(fdr_write_func_fast(word, tsk))) {
		fdr_irq_enable();
		return;
	}
	fdr_irq_enable();
	fdr_write_func(word);
}

#endif /* _FDR_RING_FRONTEND_API_H */
