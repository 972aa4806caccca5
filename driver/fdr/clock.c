// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's clock, chosen when a capture starts.
 *
 * XRay FDR was made for the TSC: records carry 32-bit cycle deltas and the
 * file header the cycle frequency.  Reading the TSC is one instruction;
 * local_clock() is a call of about 40 (sched_clock_cpu, the cyc2ns scale
 * and its per-CPU sequence count), which made it the largest single part
 * of the write path (Documentation/performance.rst).  So when the kernel
 * trusts the TSC (x86, known frequency, not marked unstable, which covers
 * CPUs whose TSCs are not in sync), records are stamped with it and the
 * header says tsc_khz * 1000.  Otherwise, and with fdr_clock=local, they
 * carry local_clock() nanoseconds and the header says 10^9.
 *
 * On arm64 the counter is the architected timer's virtual count
 * (CNTVCT_EL0), as LLVM's XRay runtime stamps AArch64 records, and the
 * header says its frequency from CNTFRQ_EL0, as that runtime reads it.
 * Every arm64 CPU has it, running at one constant rate on all CPUs and
 * in every power state (the architecture requires it), so it is used
 * unless firmware left CNTFRQ_EL0 at zero.  The kernel's own rate
 * (arch_timer_get_rate()) is not exported to modules.
 *
 * The choice holds for one capture.  If the kernel marks the TSC unstable
 * in the middle of it, that capture goes on with the TSC; the next one
 * uses local_clock().
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>
#endif

#include "clock.h"

bool fdr_clock_is_tsc;

static bool fdr_clock_local;	/* fdr_clock=local */
static u64 fdr_clock_freq = NSEC_PER_SEC;
static u64 fdr_wall0, fdr_clk0;	/* wall clock = fdr_wall0 + (t - fdr_clk0) */

static int fdr_clock_param_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "auto"))
		WRITE_ONCE(fdr_clock_local, false);
	else if (sysfs_streq(val, "local"))
		WRITE_ONCE(fdr_clock_local, true);
	else
		return -EINVAL;
	return 0;
}

static int fdr_clock_param_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 READ_ONCE(fdr_clock_local) ? "local" : "auto");
}

static const struct kernel_param_ops fdr_clock_param_ops = {
	.set = fdr_clock_param_set,
	.get = fdr_clock_param_get,
};
module_param_cb(fdr_clock, &fdr_clock_param_ops, NULL, 0644);
MODULE_PARM_DESC(fdr_clock,
		 "FDR timestamps: auto (the TSC where the kernel trusts it; CNTVCT_EL0 on arm64) or local (local_clock() ns); read at each start");

static bool fdr_tsc_usable(void)
{
#ifdef CONFIG_X86
	return boot_cpu_has(X86_FEATURE_TSC) && tsc_khz &&
	       !check_tsc_unstable();
#elif defined(CONFIG_ARM64)
	return arch_timer_get_cntfrq() != 0;
#else
	return false;
#endif
}

void fdr_clock_select(void)
{
	fdr_clock_is_tsc = !READ_ONCE(fdr_clock_local) && fdr_tsc_usable();
#ifdef CONFIG_X86
	fdr_clock_freq = fdr_clock_is_tsc ? (u64)tsc_khz * 1000 : NSEC_PER_SEC;
#elif defined(CONFIG_ARM64)
	fdr_clock_freq = fdr_clock_is_tsc ? arch_timer_get_cntfrq() : NSEC_PER_SEC;
#endif
	fdr_wall0 = ktime_get_real_ns();
	fdr_clk0 = fdr_clock_read();
}

u64 fdr_clock_hz(void)
{
	return fdr_clock_freq;
}

/* The wall clock at clock reading @t of this capture, in ns. */
u64 fdr_clock_wall_ns(u64 t)
{
	u64 d = t - fdr_clk0;

	if (fdr_clock_freq != NSEC_PER_SEC)
		d = mul_u64_u32_div(d, NSEC_PER_SEC / 1000,
				    div_u64(fdr_clock_freq, 1000));
	return fdr_wall0 + d;
}
