// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's probe-layer consumer: turns kernel events into FDR
 * records with the function ids of <linux/tracebuf.h>.
 *
 *   sys_enter/exit     enter/exit of TRACEBUF_FDR_SPACE_SYSCALL, key = the
 *                      syscall number (| 0x800000 for 32-bit compat calls,
 *                      whose numbers differ); enter carries nr_args
 *                      CallArgument records
 *   irq entry/exit     SPACE_IRQ, key = IRQ number
 *   softirq entry/exit SPACE_SOFTIRQ, key = vector
 *   work start/end     SPACE_WORK, key = slot of the work function
 *   page faults        SPACE_FAULT key 0 (user) / 1 (kernel): entry with
 *                      the address as argument and exit at the same time
 *   fork / exit        SPACE_TASK key 0 / 1, same shape, argument = the
 *                      child's / the exiting task's pid; after an exit,
 *                      its command name (TRACEBUF_FDR_COMM_PREFIX)
 *   sched_switch       always delivered: closes the block; with the SCHED
 *                      class it also opens the next task's block at once,
 *                      with a SWITCH typed event as its first record
 *   sched_wakeup(_new) SCHED class: a WAKEUP typed event in current's block
 *   sys_exit errors    after the exit record, a RET typed event with the
 *                      return value (-4095..-1) and the exit's id
 *
 * fdr_probe_nop=1 (module parameter) keeps the probes registered but
 * returns before writing anything: the floor for benchmarks.  The syscall
 * probes read it when capture starts (an empty probe is registered in
 * their place), the others at every event.
 */
#include <linux/compat.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <asm/syscall.h>
#include <asm/unaligned.h>

#include <linux/tracebuf.h>

#include "events.h"
#include "names.h"
#include "ring/frontend_api.h"
#include "core/probes.h"

static bool fdr_probe_nop;
module_param(fdr_probe_nop, bool, 0644);
MODULE_PARM_DESC(fdr_probe_nop,
		 "FDR probes stay registered but record nothing (benchmark floor)");

/* Set while stopped (no probe runs), read by probes. */
static u32 fdr_classes;
static u32 fdr_nr_args;

static struct tbcore_consumer fdr_consumer;

#define ID(space, key)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)
#define FUNC(space, key, type) \
	fdr_func_word(ID(space, key), TRACEBUF_FDR_##type)

/*
 * A 32-bit caller's syscall numbers differ from native ones.  On x86 only
 * ia32 calls need telling apart: x32 numbers carry bit 30 and so are
 * already out of range.
 */
static __always_inline bool fdr_compat_syscall(void)
{
#ifdef CONFIG_X86
	return in_ia32_syscall();
#else
	return in_compat_syscall();
#endif
}

/* @key is in range: the range test comes first and masking would not. */
#define SYSCALL_ID(key) \
	((TRACEBUF_FDR_SPACE_SYSCALL << TRACEBUF_FDR_ID_SPACE_SHIFT) | (key))

static __always_inline u32 fdr_syscall_id(unsigned long nr)
{
	if (unlikely(nr >= TRACEBUF_FDR_KEY_COMPAT))
		return SYSCALL_ID(TRACEBUF_FDR_KEY_OTHER);
	if (unlikely(fdr_compat_syscall()))
		return SYSCALL_ID(nr | TRACEBUF_FDR_KEY_COMPAT);
	return SYSCALL_ID(nr);
}

u32 fdr_events_syscall_id(unsigned long nr)
{
	return fdr_syscall_id(nr);
}

/*
 * fdr_write_syscall()'s rare cases, numbers out of range and compat calls,
 * and every call where fdr_irqs_native() is false.
 */
static noinline void fdr_write_syscall_odd(unsigned long nr,
					   u32 type)
{
	fdr_write_func(fdr_func_word(fdr_syscall_id(nr), type));
}

/*
 * A syscall's entry or exit record.  The syscall tracepoints run with
 * interrupts on: the write path's common case is inline here
 * (fdr_write_func_irqs_on()), so that the record's word and the ring share
 * one look at current, and the rare cases are a branch away.
 */
static __always_inline void fdr_write_syscall(unsigned long nr,
					      u32 type)
{
	struct task_struct *tsk = current;

	if (unlikely(nr >= TRACEBUF_FDR_KEY_COMPAT || fdr_compat_syscall())) {
		fdr_write_syscall_odd(nr, type);
		return;
	}
	/*
	 * The word as a sum: with @nr in range its fields do not overlap, and
	 * a sum lets the compiler build it in one lea where the or of
	 * fdr_func_word(SYSCALL_ID(nr), type) took a copy, a shift and an or.
	 */
	fdr_write_func_irqs_on(fdr_func_word(SYSCALL_ID(0), type) +
			       fdr_func_word(nr, 0), tsk);
}

/* An error return: -4095..-1, as the kernel's IS_ERR_VALUE(). */
static __always_inline bool fdr_syscall_failed(long ret)
{
	BUILD_BUG_ON(TRACEBUF_FDR_RET_ERRNO_MAX != MAX_ERRNO);
	return unlikely((unsigned long)ret >=
			(unsigned long)-TRACEBUF_FDR_RET_ERRNO_MAX);
}

/*
 * A failed syscall's exit and its RET typed event, written together on
 * every path (native, Xen PV, compat, out of range), so that nothing
 * comes between them.  Out of the success path's way: the exit probes
 * test @ret first and come here, so that the common case keeps nothing
 * alive across its write.
 */
static noinline notrace void fdr_write_syscall_err(u32 nr, long ret)
{
	u32 id = fdr_syscall_id(nr);
	u8 ev[TRACEBUF_FDR_RET_SIZE];

	put_unaligned_le32(id, ev + TRACEBUF_FDR_RET_ID);
	put_unaligned_le64(ret, ev + TRACEBUF_FDR_RET_VALUE);
	fdr_write_func_typed(fdr_func_word(id, TRACEBUF_FDR_EXIT),
			     TRACEBUF_FDR_TYPED_RET, ev, sizeof(ev));
}

/* Where fdr_irqs_native() is false: the generic write path. */
static notrace void fdr_probe_sys_enter_pv(void *data, struct pt_regs *regs,
					   long id)
{
	fdr_write_syscall_odd(id, TRACEBUF_FDR_ENTER);
}

static notrace void fdr_probe_sys_exit_pv(void *data, struct pt_regs *regs,
					  long ret)
{
	unsigned long nr = syscall_get_nr(current, regs);

	if (fdr_syscall_failed(ret))
		fdr_write_syscall_err(nr, ret);
	else
		fdr_write_syscall_odd(nr, TRACEBUF_FDR_EXIT);
}

/*
 * The syscall events have probes of their own, registered on the
 * tracepoints themselves (struct tbcore_direct): the hottest events in the
 * system reach the ring with nothing in between.  notrace: part of the
 * write path (see fdr_write_func()).
 */
static notrace void fdr_probe_sys_enter(void *data, struct pt_regs *regs,
					long id)
{
	fdr_write_syscall(id, TRACEBUF_FDR_ENTER);
}

static notrace void fdr_probe_sys_enter_args(void *data, struct pt_regs *regs,
					     long id)
{
	unsigned long args[TRACEBUF_FDR_ARGS_MAX];

	syscall_get_arguments(current, regs, args);
	fdr_write_func_args(fdr_syscall_id(id), fdr_nr_args, args);
}

static notrace void fdr_probe_sys_exit(void *data, struct pt_regs *regs,
				       long ret)
{
	/* An int; negative (no syscall) becomes out of range. */
	u32 nr;

	/* One compare on the success path; the error path is a call away. */
	if (fdr_syscall_failed(ret)) {
		fdr_write_syscall_err(syscall_get_nr(current, regs), ret);
		return;
	}
	nr = syscall_get_nr(current, regs);
	fdr_write_syscall(nr, TRACEBUF_FDR_EXIT);
}

/* fdr_probe_nop's syscall probe, entry and exit (same prototype). */
static notrace void fdr_probe_sys_nop(void *data, struct pt_regs *regs,
				      long id)
{
}

/*
 * The command name of @tsk, the exiting task (current, so the record
 * lands in its block), for readers to name a task that no look at /proc
 * saw.  No task_lock() in a probe: a rename at the same moment (prctl,
 * /proc/PID/comm) can only give a mixed name, never an overrun, as the
 * NUL is forced.
 */
static void fdr_write_comm(const struct task_struct *tsk)
{
	char buf[sizeof(TRACEBUF_FDR_COMM_PREFIX) - 1 + TASK_COMM_LEN];
	const size_t pre = sizeof(TRACEBUF_FDR_COMM_PREFIX) - 1;
	char comm[TASK_COMM_LEN];

	memcpy(comm, tsk->comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	memcpy(buf, TRACEBUF_FDR_COMM_PREFIX, pre);
	memcpy(buf + pre, comm, strlen(comm));
	fdr_write_marker(buf, pre + strlen(comm));
}

/*
 * sched_switch's prev_state as a TRACEBUF_FDR_STATE_*, the way 6.1's
 * __trace_sched_switch_state() reads it: preempted is running whatever
 * the state says (the task was not dequeued); otherwise the kernel's own
 * __task_state_index() (with exit_state, TASK_IDLE before D, RT lock and
 * frozen waits as D) picks the report state.  TASK_DEAD has no report
 * state of its own: a task's last switch is dead even before exit_state
 * is set.
 */
static u8 fdr_switch_state(bool preempt, unsigned int prev_state,
			   const struct task_struct *prev)
{
	unsigned int index;

	if (preempt)
		return TRACEBUF_FDR_STATE_RUNNING;
	if (prev_state & TASK_DEAD)
		return TRACEBUF_FDR_STATE_DEAD;
	index = __task_state_index(prev_state, READ_ONCE(prev->exit_state));
	/* The report state's bit, as __trace_sched_switch_state() gives it. */
	switch (index ? 1U << (index - 1) : TASK_RUNNING) {
	case TASK_RUNNING:
		return TRACEBUF_FDR_STATE_RUNNING;
	case TASK_INTERRUPTIBLE:
		return TRACEBUF_FDR_STATE_SLEEPING;
	case TASK_UNINTERRUPTIBLE:
		return TRACEBUF_FDR_STATE_UNINTERRUPTIBLE;
	case TASK_REPORT_IDLE:
		return TRACEBUF_FDR_STATE_IDLE;
	case __TASK_STOPPED:
	case __TASK_TRACED:
		return TRACEBUF_FDR_STATE_STOPPED;
	case EXIT_DEAD:
	case EXIT_ZOMBIE:
		return TRACEBUF_FDR_STATE_DEAD;
	default:	/* TASK_PARKED, and any the kernel adds */
		return TRACEBUF_FDR_STATE_OTHER;
	}
}

/*
 * The switch: a SWITCH typed event opens next's block (sched class), or
 * the block is only closed.  Tids as the blocks': this CPU's idle task is
 * TRACEBUF_FDR_IDLE_TID().
 */
static void fdr_on_switch(const struct tbcore_event *ev)
{
	const struct task_struct *prev = ev->sched_switch.prev;
	struct task_struct *next = ev->sched_switch.next;
	unsigned int cpu = smp_processor_id();
	u8 sw[TRACEBUF_FDR_SWITCH_SIZE];

	if (!(fdr_classes & TRACEBUF_FDR_SCHED)) {
		fdr_write_switch(next, NULL, 0);
		return;
	}
	put_unaligned_le32(fdr_ring_tid(prev, cpu), sw + TRACEBUF_FDR_SWITCH_PREV_TID);
	put_unaligned_le32(fdr_ring_tid(next, cpu), sw + TRACEBUF_FDR_SWITCH_NEXT_TID);
	put_unaligned_le16(prev->prio, sw + TRACEBUF_FDR_SWITCH_PREV_PRIO);
	put_unaligned_le16(next->prio, sw + TRACEBUF_FDR_SWITCH_NEXT_PRIO);
	sw[TRACEBUF_FDR_SWITCH_PREV_STATE] =
		fdr_switch_state(ev->sched_switch.preempt,
				 ev->sched_switch.prev_state, prev);
	fdr_write_switch(next, sw, sizeof(sw));
}

/* sched_wakeup(_new): @p will run on task_cpu(@p). */
static void fdr_on_wakeup(const struct task_struct *p, bool new)
{
	unsigned int cpu = task_cpu(p);
	u8 wk[TRACEBUF_FDR_WAKEUP_SIZE];

	put_unaligned_le32(fdr_ring_tid(p, cpu), wk + TRACEBUF_FDR_WAKEUP_TID);
	put_unaligned_le16(cpu, wk + TRACEBUF_FDR_WAKEUP_CPU);
	put_unaligned_le16(p->prio, wk + TRACEBUF_FDR_WAKEUP_PRIO);
	wk[TRACEBUF_FDR_WAKEUP_FLAGS] = new ? TRACEBUF_FDR_WAKEUP_NEW : 0;
	fdr_write_typed(TRACEBUF_FDR_TYPED_WAKEUP, wk, sizeof(wk));
}

static void fdr_on_event(const struct tbcore_event *ev)
{
	if (READ_ONCE(fdr_probe_nop))
		return;

	switch (ev->type) {
	case TBCORE_EV_IRQ_ENTRY:
		fdr_names_irq_seen(ev->irq.irq, ev->irq.action->name);
		fdr_write_func(FUNC(IRQ, ev->irq.irq, ENTER));
		break;
	case TBCORE_EV_IRQ_EXIT:
		fdr_write_func(FUNC(IRQ, ev->irq.irq, EXIT));
		break;
	case TBCORE_EV_SOFTIRQ_ENTRY:
		fdr_write_func(FUNC(SOFTIRQ, ev->softirq.vec, ENTER));
		break;
	case TBCORE_EV_SOFTIRQ_EXIT:
		fdr_write_func(FUNC(SOFTIRQ, ev->softirq.vec, EXIT));
		break;
	case TBCORE_EV_WORK_START:
		fdr_write_func(FUNC(WORK, fdr_names_work_key(ev->work.work->func),
				    ENTER));
		break;
	case TBCORE_EV_WORK_END:
		fdr_write_func(FUNC(WORK, fdr_names_work_key(ev->work.function),
				    EXIT));
		break;
	case TBCORE_EV_FAULT_USER:
		fdr_write_instant(ID(FAULT, 0), ev->fault.address);
		break;
	case TBCORE_EV_FAULT_KERNEL:
		fdr_write_instant(ID(FAULT, 1), ev->fault.address);
		break;
	case TBCORE_EV_SCHED_SWITCH:
		fdr_on_switch(ev);
		break;
	case TBCORE_EV_WAKEUP:
		fdr_on_wakeup(ev->wakeup.task, false);
		break;
	case TBCORE_EV_WAKEUP_NEW:
		fdr_on_wakeup(ev->wakeup.task, true);
		break;
	case TBCORE_EV_FORK:
		fdr_write_instant(ID(TASK, 0), ev->fork.child->pid);
		break;
	case TBCORE_EV_EXIT:
		fdr_write_instant(ID(TASK, 1), ev->exit.task->pid);
		fdr_write_comm(ev->exit.task);
		break;
	default:
		break;
	}
}

static u32 fdr_event_mask(u32 classes)
{
	u32 mask = TBCORE_EVMASK(TBCORE_EV_SCHED_SWITCH);

	if (classes & TRACEBUF_FDR_SYSCALL)
		mask |= TBCORE_EVMASK(TBCORE_EV_SYS_ENTER) | TBCORE_EVMASK(TBCORE_EV_SYS_EXIT);
	if (classes & TRACEBUF_FDR_IRQ)
		mask |= TBCORE_EVMASK(TBCORE_EV_IRQ_ENTRY) | TBCORE_EVMASK(TBCORE_EV_IRQ_EXIT);
	if (classes & TRACEBUF_FDR_SOFTIRQ)
		mask |= TBCORE_EVMASK(TBCORE_EV_SOFTIRQ_ENTRY) |
			TBCORE_EVMASK(TBCORE_EV_SOFTIRQ_EXIT);
	if (classes & TRACEBUF_FDR_WORKQUEUE)
		mask |= TBCORE_EVMASK(TBCORE_EV_WORK_START) | TBCORE_EVMASK(TBCORE_EV_WORK_END);
	if (classes & TRACEBUF_FDR_FAULT)
		mask |= TBCORE_EVMASK(TBCORE_EV_FAULT_USER) |
			TBCORE_EVMASK(TBCORE_EV_FAULT_KERNEL);
	if (classes & TRACEBUF_FDR_SCHED)
		mask |= TBCORE_EVMASK(TBCORE_EV_FORK) | TBCORE_EVMASK(TBCORE_EV_EXIT) |
			TBCORE_EVMASK(TBCORE_EV_WAKEUP) |
			TBCORE_EVMASK(TBCORE_EV_WAKEUP_NEW);
	return mask;
}

void fdr_events_config(u32 classes, u32 nr_args)
{
	fdr_classes = classes;
	fdr_nr_args = nr_args;
}

int fdr_events_start(void)
{
	int type, ret;

	fdr_consumer.name = "fdr";
	for (type = 0; type < TBCORE_EV_NR; type++)
		fdr_consumer.event[type] = fdr_on_event;
	if (READ_ONCE(fdr_probe_nop)) {
		fdr_consumer.direct.sys_enter = fdr_probe_sys_nop;
		fdr_consumer.direct.sys_exit = fdr_probe_sys_nop;
	} else if (!fdr_irqs_native()) {
		fdr_consumer.direct.sys_enter = fdr_nr_args ?
			fdr_probe_sys_enter_args : fdr_probe_sys_enter_pv;
		fdr_consumer.direct.sys_exit = fdr_probe_sys_exit_pv;
	} else {
		fdr_consumer.direct.sys_enter = fdr_nr_args ?
			fdr_probe_sys_enter_args : fdr_probe_sys_enter;
		fdr_consumer.direct.sys_exit = fdr_probe_sys_exit;
	}
	ret = tbcore_probes_attach(&fdr_consumer, fdr_event_mask(fdr_classes));
	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}

void fdr_events_stop(void)
{
	tbcore_probes_detach(&fdr_consumer);
}
