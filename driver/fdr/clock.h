/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's clock (clock.c): the CPU's cycle counter where the kernel
 * trusts it, else local_clock(); inline, because every record reads it.
 */
#ifndef _FDR_CLOCK_H
#define _FDR_CLOCK_H

#include <linux/types.h>
#include <linux/sched/clock.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>
#endif

/*
 * Set by fdr_clock_select(), while stopped.  "TSC" stands for the CPU's
 * cycle counter, as in XRay: the TSC on x86, the architected counter's
 * virtual count (CNTVCT_EL0) on arm64.  A variable and not an accessor:
 * fdr_clock_now(), inline in every write that leaves the common case,
 * tests it in one instruction.
 */
extern bool fdr_clock_is_tsc;

/* Fixes the clock of the capture about to start: the capture lock, stopped. */
void fdr_clock_select(void);
/* Its unit, for the file header's cycle_frequency. */
u64 fdr_clock_hz(void);
u64 fdr_clock_wall_ns(u64 t);

/* The TSC; only meaningful when fdr_clock_is_tsc. */
static __always_inline u64 fdr_clock_tsc(void)
{
#ifdef CONFIG_X86
	return rdtsc();
#elif defined(CONFIG_ARM64)
	/* The kernel's own read: an ISB first, and its errata workarounds. */
	return __arch_counter_get_cntvct_stable();
#else
	return 0;
#endif
}

/*
 * The same in halves: the fast path compares the upper one and stores the
 * lower, and rdtsc() would join them first.
 */
static __always_inline void fdr_clock_tsc_halves(u32 *lo, u32 *hi)
{
#ifdef CONFIG_X86
	asm volatile("rdtsc" : "=a" (*lo), "=d" (*hi));
#elif defined(CONFIG_ARM64)
	/* One 64-bit register: splitting it costs nothing. */
	u64 t = __arch_counter_get_cntvct_stable();

	*lo = (u32)t;
	*hi = t >> 32;
#else
	*lo = 0;
	*hi = 0;
#endif
}

/* Any context: the current time in the capture's clock. */
static __always_inline u64 fdr_clock_read(void)
{
	if (likely(fdr_clock_is_tsc))
		return fdr_clock_tsc();
	return local_clock();
}

#endif /* _FDR_CLOCK_H */
