// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel events into the emulated trace buffer: a consumer of the probe
 * layer (tb_probes.c) that turns each event into the message the XScale
 * hardware would have written for it.
 *
 *   syscall entry        SWI exception (vector 2)
 *   hard IRQ handler     IRQ exception (vector 6)
 *   page fault           data abort (vector 4)
 *   return from syscall  indirect branch to the user PC (low 32 bits)
 *   context switch       indirect branch to the next task's PID (a token
 *                        naming the task, not an address)
 *
 * Instruction counts come from a pinned per-CPU "instructions" perf
 * counter: the count of an event is the counter's advance since the
 * previous fed event on the same CPU.  Without such a counter (no PMU, as
 * under qemu TCG) every count is 0 and the status lacks
 * TRACEBUF_STATUS_COUNTS.  perf_event_read_local() is not exported to
 * modules in 6.1, so the counter is read the way it does for a pinned
 * event that is active on this CPU: pmu->read() with interrupts off.
 *
 * Counters follow CPU hotplug through a dynamic cpuhp state; a CPU that
 * comes online without getting a counter turns counts off for the feed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/static_call.h>

#include "feed.h"
#include "core/probes.h"

struct tb_feed_cpu {
	struct perf_event *counter;
	u64 last;
};

static DEFINE_PER_CPU(struct tb_feed_cpu, tb_feed_cpu);
static DEFINE_MUTEX(tb_feed_lock);	/* serialises tb_feed_set() */
static int tb_feed_hp_state = -1;	/* cpuhp state while counters exist */
static bool tb_feed_on;
static u32 tb_feed_cpu_sel = TRACEBUF_CPU_ALL;

/*
 * Why tb_feed_put() cannot pass an event straight to the sink, one bit a
 * reason in one word, so that the probes test it once.  Atomic bit
 * operations: CPU hotplug callbacks clear the counters' bit too.
 */
#define TB_FEED_COUNTS	0	/* every online CPU has a counter */
#define TB_FEED_ONE_CPU	1	/* only tb_feed_cpu_sel is fed */
static unsigned long tb_feed_slow;

/* The sink until tb_feed_init(): no event comes before it anyway. */
static void tb_feed_no_sink(u32 kind, u32 arg, u32 icount)
{
}

DEFINE_STATIC_CALL(tb_feed_sink, tb_feed_no_sink);
DEFINE_STATIC_CALL(tb_feed_sink_syscall, tb_feed_no_sink);

static void tb_feed_event(const struct tbcore_event *e);
static void tb_feed_sys_enter(void *data, struct pt_regs *regs, long id);
static void tb_feed_sys_exit(void *data, struct pt_regs *regs, long ret);

static struct tbcore_consumer tb_feed_consumer = {
	.name	= "tracebuf",
	.event	= { [0 ... TBCORE_EV_NR - 1] = tb_feed_event },
	.direct	= {
		.sys_enter	= tb_feed_sys_enter,
		.sys_exit	= tb_feed_sys_exit,
	},
};

bool tb_feed_counts(void)
{
	/* Injected events carry exact counts; only the feed can lack them. */
	return !READ_ONCE(tb_feed_on) || test_bit(TB_FEED_COUNTS, &tb_feed_slow);
}

/* Instructions since the previous fed event on this CPU; IRQs are off. */
static u32 tb_feed_icount(void)
{
	struct tb_feed_cpu *fc = this_cpu_ptr(&tb_feed_cpu);
	struct perf_event *ev = READ_ONCE(fc->counter);
	u64 now, delta;

	if (!ev || !test_bit(TB_FEED_COUNTS, &tb_feed_slow))
		return 0;
	if (READ_ONCE(ev->oncpu) == smp_processor_id() &&
	    ev->state == PERF_EVENT_STATE_ACTIVE)
		ev->pmu->read(ev);
	now = local64_read(&ev->count);
	delta = now - fc->last;
	fc->last = now;
	return min_t(u64, delta, U32_MAX);
}

/*
 * Count and record an event if its CPU is fed.  Interrupts are off only
 * when there are counters to read (never under qemu TCG): the count is the
 * counter's advance, which an interrupt's own event must not split.
 */
static noinline void tb_feed_put_slow(u32 kind, u32 arg)
{
	u32 cpu = READ_ONCE(tb_feed_cpu_sel);
	unsigned long flags;
	u32 icount = 0;

	if (cpu != TRACEBUF_CPU_ALL && cpu != smp_processor_id())
		return;
	if (test_bit(TB_FEED_COUNTS, &tb_feed_slow)) {
		local_irq_save(flags);
		icount = tb_feed_icount();
		local_irq_restore(flags);
	}
	static_call(tb_feed_sink)(kind, arg, icount);
}

/* The common case, every CPU fed and no counters, is one test. */
static __always_inline void tb_feed_put(u32 kind, u32 arg)
{
	if (unlikely(READ_ONCE(tb_feed_slow)))
		tb_feed_put_slow(kind, arg);
	else
		static_call(tb_feed_sink)(kind, arg, 0);
}

/* tb_feed_put() from the syscall probes: interrupts on, not in NMI. */
static __always_inline void tb_feed_put_syscall(u32 kind, u32 arg)
{
	if (unlikely(READ_ONCE(tb_feed_slow)))
		tb_feed_put_slow(kind, arg);
	else
		static_call(tb_feed_sink_syscall)(kind, arg, 0);
}

/* The two hottest events have probes of their own (core/probes.h). */
static notrace void tb_feed_sys_enter(void *data, struct pt_regs *regs, long id)
{
	tb_feed_put_syscall(TRACEBUF_EV_EXCEPTION, TRACEBUF_VEC_SWI);
}

static notrace void tb_feed_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	tb_feed_put_syscall(TRACEBUF_EV_INDIRECT,
			    lower_32_bits(instruction_pointer(regs)));
}

static void tb_feed_event(const struct tbcore_event *e)
{
	switch (e->type) {
	case TBCORE_EV_IRQ_ENTRY:
		tb_feed_put(TRACEBUF_EV_EXCEPTION, TRACEBUF_VEC_IRQ);
		break;
	case TBCORE_EV_FAULT_USER:
	case TBCORE_EV_FAULT_KERNEL:
		tb_feed_put(TRACEBUF_EV_EXCEPTION, TRACEBUF_VEC_DABORT);
		break;
	case TBCORE_EV_SCHED_SWITCH:
		tb_feed_put(TRACEBUF_EV_INDIRECT, e->sched_switch.next->pid);
		break;
	default:
		break;
	}
}

static u32 tb_feed_evmask(u32 src)
{
	u32 mask = 0;

	if (src & TRACEBUF_SRC_SYSCALL)
		mask |= TBCORE_EVMASK(TBCORE_EV_SYS_ENTER);
	if (src & TRACEBUF_SRC_IRQ)
		mask |= TBCORE_EVMASK(TBCORE_EV_IRQ_ENTRY);
	if (src & TRACEBUF_SRC_FAULT)
		mask |= TBCORE_EVMASK(TBCORE_EV_FAULT_USER) | TBCORE_EVMASK(TBCORE_EV_FAULT_KERNEL);
	if (src & TRACEBUF_SRC_RET_USER)
		mask |= TBCORE_EVMASK(TBCORE_EV_SYS_EXIT);
	if (src & TRACEBUF_SRC_SWITCH)
		mask |= TBCORE_EVMASK(TBCORE_EV_SCHED_SWITCH);
	return mask;
}

/* ------------------------------------------------------------ counters */

static struct perf_event_attr tb_feed_attr = {
	.type		= PERF_TYPE_HARDWARE,
	.config		= PERF_COUNT_HW_INSTRUCTIONS,
	.size		= sizeof(struct perf_event_attr),
	.pinned		= 1,
};

/* cpuhp callbacks: run on @cpu itself, may sleep. */
static int tb_feed_cpu_online(unsigned int cpu)
{
	struct tb_feed_cpu *fc = per_cpu_ptr(&tb_feed_cpu, cpu);
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&tb_feed_attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev)) {
		/* No PMU (qemu TCG) is normal: counts are simply 0. */
		clear_bit(TB_FEED_COUNTS, &tb_feed_slow);
		return 0;
	}
	fc->last = 0;
	WRITE_ONCE(fc->counter, ev);
	return 0;
}

static int tb_feed_cpu_offline(unsigned int cpu)
{
	struct tb_feed_cpu *fc = per_cpu_ptr(&tb_feed_cpu, cpu);
	struct perf_event *ev = fc->counter;

	if (!ev)
		return 0;
	WRITE_ONCE(fc->counter, NULL);
	/* Probes (preemption off, maybe NMI) that saw it have returned. */
	synchronize_rcu();
	perf_event_release_kernel(ev);
	return 0;
}

static void tb_feed_counters_start(void)
{
	int ret;

	set_bit(TB_FEED_COUNTS, &tb_feed_slow);
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "tracebuf/feed:online",
				tb_feed_cpu_online, tb_feed_cpu_offline);
	if (ret < 0) {
		clear_bit(TB_FEED_COUNTS, &tb_feed_slow);
		return;
	}
	tb_feed_hp_state = ret;
}

static void tb_feed_counters_stop(void)
{
	if (tb_feed_hp_state >= 0)
		cpuhp_remove_state(tb_feed_hp_state);	/* offline callbacks */
	tb_feed_hp_state = -1;
	clear_bit(TB_FEED_COUNTS, &tb_feed_slow);
}

/* --------------------------------------------------------------- control */

void tb_feed_init(tb_feed_sink_fn sink, tb_feed_sink_fn sink_syscall)
{
	static_call_update(tb_feed_sink, sink);
	static_call_update(tb_feed_sink_syscall, sink_syscall);
}

/* The selection first: a probe that sees the bit reads it. */
static void tb_feed_select_cpu(u32 cpu)
{
	WRITE_ONCE(tb_feed_cpu_sel, cpu);
	assign_bit(TB_FEED_ONE_CPU, &tb_feed_slow, cpu != TRACEBUF_CPU_ALL);
}

int tb_feed_set(const struct tracebuf_sources *src)
{
	u32 mask, old_cpu;
	int ret = 0;

	if (src->mask & ~TRACEBUF_SRC_ALL)
		return -EINVAL;
	if (src->cpu != TRACEBUF_CPU_ALL &&
	    (src->cpu >= nr_cpu_ids || !cpu_possible(src->cpu)))
		return -EINVAL;
	mask = tb_feed_evmask(src->mask);

	mutex_lock(&tb_feed_lock);
	if (!mask) {
		if (tb_feed_on) {
			tbcore_probes_detach(&tb_feed_consumer);
			tb_feed_counters_stop();
			WRITE_ONCE(tb_feed_on, false);
		}
		goto out;
	}
	if (mask & ~tbcore_probes_available()) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (!tb_feed_on)
		tb_feed_counters_start();
	old_cpu = tb_feed_cpu_sel;
	tb_feed_select_cpu(src->cpu);
	ret = tbcore_probes_attach(&tb_feed_consumer, mask);
	if (ret) {
		tb_feed_select_cpu(old_cpu);
		if (!tb_feed_on)
			tb_feed_counters_stop();
		goto out;
	}
	WRITE_ONCE(tb_feed_on, true);
out:
	mutex_unlock(&tb_feed_lock);
	return ret;
}

void tb_feed_exit(void)
{
	struct tracebuf_sources off = { 0 };

	tb_feed_set(&off);
}
