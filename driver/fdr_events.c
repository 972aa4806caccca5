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
 *                      child's / the exiting task's pid
 *   sched_switch       always delivered: closes the block; with the SCHED
 *                      class it also opens the next task's block at once
 *
 * fdr_probe_nop=1 (module parameter) keeps the probes registered but
 * returns before writing anything: the floor for benchmarks.
 */
#include <linux/compat.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <asm/syscall.h>

#include <linux/tracebuf.h>

#include "fdr.h"
#include "tb_probes.h"

static bool fdr_probe_nop;
module_param(fdr_probe_nop, bool, 0644);
MODULE_PARM_DESC(fdr_probe_nop,
		 "FDR probes stay registered but record nothing (benchmark floor)");

#define FDR_COMPAT_KEY		0x800000U

/* Set while stopped (no probe runs), read by probes. */
static u32 fdr_classes;
static u32 fdr_nr_args;

static struct tb_consumer fdr_consumer;

#define ID(space, key)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)

static inline u32 fdr_syscall_key(long nr)
{
	u32 key;

	if (nr < 0 || nr >= FDR_COMPAT_KEY)
		return TRACEBUF_FDR_KEY_OTHER;
	key = nr;
	if (in_compat_syscall())
		key |= FDR_COMPAT_KEY;
	return key;
}

/* Out of line: the array of arguments costs a stack canary per call. */
static noinline void fdr_sys_enter_args(struct pt_regs *regs, u32 id,
					unsigned int n)
{
	unsigned long args[TRACEBUF_FDR_ARGS_MAX];

	syscall_get_arguments(current, regs, args);
	fdr_write_func(id, FDR_F_ENTER, n, args);
}

static __always_inline void fdr_sys_enter(struct pt_regs *regs, long nr)
{
	u32 id = ID(SYSCALL, fdr_syscall_key(nr));
	unsigned int n = fdr_nr_args;

	if (n)
		fdr_sys_enter_args(regs, id, n);
	else
		fdr_write_func(id, FDR_F_ENTER, 0, NULL);
}

static __always_inline void fdr_sys_exit(struct pt_regs *regs)
{
	long nr = syscall_get_nr(current, regs);

	fdr_write_func(ID(SYSCALL, fdr_syscall_key(nr)), FDR_F_EXIT, 0, NULL);
}

static void fdr_event(const struct tb_event *ev)
{
	if (READ_ONCE(fdr_probe_nop))
		return;

	/* Syscalls outnumber everything else: test them before the switch. */
	if (likely(ev->type == TB_EV_SYS_ENTER)) {
		fdr_sys_enter(ev->sys_enter.regs, ev->sys_enter.id);
		return;
	}
	if (likely(ev->type == TB_EV_SYS_EXIT)) {
		fdr_sys_exit(ev->sys_exit.regs);
		return;
	}

	switch (ev->type) {
	case TB_EV_IRQ_ENTRY:
		fdr_names_irq_seen(ev->irq.irq, ev->irq.action->name);
		fdr_write_func(ID(IRQ, ev->irq.irq), FDR_F_ENTER, 0, NULL);
		break;
	case TB_EV_IRQ_EXIT:
		fdr_write_func(ID(IRQ, ev->irq.irq), FDR_F_EXIT, 0, NULL);
		break;
	case TB_EV_SOFTIRQ_ENTRY:
		fdr_write_func(ID(SOFTIRQ, ev->softirq.vec), FDR_F_ENTER, 0, NULL);
		break;
	case TB_EV_SOFTIRQ_EXIT:
		fdr_write_func(ID(SOFTIRQ, ev->softirq.vec), FDR_F_EXIT, 0, NULL);
		break;
	case TB_EV_WORK_START:
		fdr_write_func(ID(WORK, fdr_names_work_key(ev->work.work->func)),
			       FDR_F_ENTER, 0, NULL);
		break;
	case TB_EV_WORK_END:
		fdr_write_func(ID(WORK, fdr_names_work_key(ev->work.function)),
			       FDR_F_EXIT, 0, NULL);
		break;
	case TB_EV_FAULT_USER:
		fdr_write_instant(ID(FAULT, 0), ev->fault.address);
		break;
	case TB_EV_FAULT_KERNEL:
		fdr_write_instant(ID(FAULT, 1), ev->fault.address);
		break;
	case TB_EV_SCHED_SWITCH:
		fdr_write_switch(ev->sched_switch.next,
				 fdr_classes & TRACEBUF_FDR_SCHED);
		break;
	case TB_EV_FORK:
		fdr_write_instant(ID(TASK, 0), ev->fork.child->pid);
		break;
	case TB_EV_EXIT:
		fdr_write_instant(ID(TASK, 1), ev->exit.task->pid);
		break;
	default:
		break;
	}
}

static u32 fdr_event_mask(u32 classes)
{
	u32 mask = TB_EVMASK(TB_EV_SCHED_SWITCH);

	if (classes & TRACEBUF_FDR_SYSCALL)
		mask |= TB_EVMASK(TB_EV_SYS_ENTER) | TB_EVMASK(TB_EV_SYS_EXIT);
	if (classes & TRACEBUF_FDR_IRQ)
		mask |= TB_EVMASK(TB_EV_IRQ_ENTRY) | TB_EVMASK(TB_EV_IRQ_EXIT);
	if (classes & TRACEBUF_FDR_SOFTIRQ)
		mask |= TB_EVMASK(TB_EV_SOFTIRQ_ENTRY) |
			TB_EVMASK(TB_EV_SOFTIRQ_EXIT);
	if (classes & TRACEBUF_FDR_WORKQUEUE)
		mask |= TB_EVMASK(TB_EV_WORK_START) | TB_EVMASK(TB_EV_WORK_END);
	if (classes & TRACEBUF_FDR_FAULT)
		mask |= TB_EVMASK(TB_EV_FAULT_USER) |
			TB_EVMASK(TB_EV_FAULT_KERNEL);
	if (classes & TRACEBUF_FDR_SCHED)
		mask |= TB_EVMASK(TB_EV_FORK) | TB_EVMASK(TB_EV_EXIT);
	return mask;
}

void fdr_events_config(u32 classes, u32 nr_args)
{
	fdr_classes = classes;
	fdr_nr_args = nr_args;
}

int fdr_events_start(void)
{
	int ret;

	fdr_consumer.name = "fdr";
	fdr_consumer.event = fdr_event;
	ret = tb_probes_attach(&fdr_consumer, fdr_event_mask(fdr_classes));
	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}

void fdr_events_stop(void)
{
	tb_probes_detach(&fdr_consumer);
}
