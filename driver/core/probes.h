/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe layer: the only place that registers tracepoint probes.  It
 * finds the core kernel tracepoints by name, checks every probe's signature
 * at compile time, and delivers each event to the consumers (the FDR ring,
 * the emulated trace buffer, the triggers) that asked for it.
 *
 * A consumer's own probe for a tracepoint (struct tbcore_direct) is
 * registered on the tracepoint itself: the kernel calls it with the
 * tracepoint's arguments, nothing in between.  Other events reach the
 * consumer through the layer's fan-out probe, one per tracepoint, as a
 * struct tbcore_event.  A tracepoint with several probes calls each in turn,
 * so two consumers with direct probes on one event each get every event
 * once.  Probes are registered while their consumer wants the event and
 * unregistered when it does not.  tbcore_probes_attach() and tbcore_probes_detach()
 * sleep; the consumer's callback runs in probe context: preemption off,
 * possibly in hard IRQ or NMI (page faults), never allowed to sleep, take a
 * sleeping lock or wake a task.
 */
#ifndef _TBCORE_PROBES_H
#define _TBCORE_PROBES_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct irqaction;
struct pt_regs;
struct task_struct;

enum tbcore_event_type {
	TBCORE_EV_SYS_ENTER,	/* raw_syscalls:sys_enter */
	TBCORE_EV_SYS_EXIT,		/* raw_syscalls:sys_exit */
	TBCORE_EV_IRQ_ENTRY,	/* irq:irq_handler_entry */
	TBCORE_EV_IRQ_EXIT,		/* irq:irq_handler_exit */
	TBCORE_EV_SOFTIRQ_ENTRY,	/* irq:softirq_entry */
	TBCORE_EV_SOFTIRQ_EXIT,	/* irq:softirq_exit */
	TBCORE_EV_WORK_START,	/* workqueue:workqueue_execute_start */
	TBCORE_EV_WORK_END,		/* workqueue:workqueue_execute_end */
	TBCORE_EV_FAULT_USER,	/* exceptions:page_fault_user (x86) */
	TBCORE_EV_FAULT_KERNEL,	/* exceptions:page_fault_kernel (x86) */
	TBCORE_EV_SCHED_SWITCH,	/* sched:sched_switch */
	TBCORE_EV_FORK,		/* sched:sched_process_fork */
	TBCORE_EV_EXIT,		/* sched:sched_process_exit */
	TBCORE_EV_WAKEUP,	/* sched:sched_wakeup */
	TBCORE_EV_WAKEUP_NEW,	/* sched:sched_wakeup_new */
	TBCORE_EV_NR
};

#define TBCORE_EVMASK(type)		BIT(type)
#define TBCORE_EVMASK_ALL		(BIT(TBCORE_EV_NR) - 1)

/*
 * One event, as the tracepoint gave it.  Built on the probe's stack and
 * valid only during the callback.
 */
struct tbcore_event {
	enum tbcore_event_type type;
	union {
		struct {
			struct pt_regs *regs;
			long id;
		} sys_enter;
		struct {
			struct pt_regs *regs;
			long ret;
		} sys_exit;
		struct {
			int irq;
			struct irqaction *action;
			int ret;	/* exit only */
		} irq;
		struct {
			unsigned int vec;
		} softirq;
		struct {
			struct work_struct *work;
			work_func_t function;	/* end only */
		} work;
		struct {
			unsigned long address;
			struct pt_regs *regs;
			unsigned long error_code;
		} fault;
		struct {
			bool preempt;
			struct task_struct *prev;
			struct task_struct *next;
			unsigned int prev_state;
		} sched_switch;
		struct {
			struct task_struct *parent;
			struct task_struct *child;
		} fork;
		struct {
			struct task_struct *task;
		} exit;
		struct {
			struct task_struct *task;	/* the task woken */
		} wakeup;	/* WAKEUP and WAKEUP_NEW */
	};
};

typedef void (*tbcore_event_fn)(const struct tbcore_event *ev);

/**
 * struct tbcore_direct - a consumer's own probes, with the tracepoints'
 * prototypes (checked against the kernel's at compile time in probes.c)
 * @sys_enter:	raw_syscalls:sys_enter
 * @sys_exit:	raw_syscalls:sys_exit
 *
 * Each is called with @data = the consumer, in probe context.  NULL: the
 * event goes through the consumer's tbcore_consumer.event[] callback.
 * Only the hottest events have a slot; more can be added with their check.
 */
struct tbcore_direct {
	void (*sys_enter)(void *data, struct pt_regs *regs, long id);
	void (*sys_exit)(void *data, struct pt_regs *regs, long ret);
};

/**
 * struct tbcore_consumer - a user of kernel events
 * @name:	for messages
 * @event:	one callback per event type, called for every event in @mask
 *		that has no @direct probe; probe context (see above).  A
 *		consumer may give one function for all types or a dedicated
 *		one for its hot events, which then needs no test of
 *		@ev->type.
 * @direct:	probes registered on the tracepoint itself (see above): the
 *		cheapest path, no event built, no indirect call
 * @mask:	TBCORE_EVMASK() bits currently delivered; owned by the probe layer
 * @fanout:	the part of @mask the fan-out probes deliver; owned likewise
 */
struct tbcore_consumer {
	const char *name;
	tbcore_event_fn event[TBCORE_EV_NR];
	struct tbcore_direct direct;
	u32 mask;
	u32 fanout;
};

/*
 * Deliver the events in @mask to @c from now on, replacing any earlier mask.
 * Registers the tracepoints that become needed.  -ENOENT if one of them
 * does not exist in this kernel (e.g. page faults outside x86); then nothing
 * changed; -EINVAL if @mask has a type with neither a callback nor a direct
 * probe.  Events that @c no longer wants have stopped reaching it when this
 * returns.  @c->event and @c->direct must not change while @c is attached:
 * probes read them without a lock, and detach unregisters what attach
 * registered.
 */
int tbcore_probes_attach(struct tbcore_consumer *c, u32 mask);

/*
 * Stop all events to @c.  When this returns, no callback or direct probe of
 * @c runs or will run, so @c's data can be freed.
 */
void tbcore_probes_detach(struct tbcore_consumer *c);

/* Which events this kernel has tracepoints for (TBCORE_EVMASK bits). */
u32 tbcore_probes_available(void);

int tbcore_probes_init(void);
void tbcore_probes_exit(void);

#endif /* _TBCORE_PROBES_H */
