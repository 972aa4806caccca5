// SPDX-License-Identifier: GPL-2.0
/*
 * The probe layer: consumers' own probes registered on the tracepoints, and
 * one fan-out probe per tracepoint for the events consumers take as a
 * struct tbcore_event.
 *
 * Out-of-tree modules cannot use register_trace_<name>(): the per-event
 * __tracepoint_<name> symbols are not exported.  So the tracepoints are
 * found once, at load, by walking for_each_kernel_tracepoint() for their
 * names, and probes are registered on the struct tracepoint directly.
 * Nothing checks a probe's type on that path, so each probe, ours and the
 * struct tbcore_direct slots of the consumers, is also passed to the
 * header's check_trace_callback_type_<name>(), which fails to compile when
 * the kernel's prototype differs from ours.
 *
 * Direct probes.  The common case is one consumer on a tracepoint; its own
 * probe then is the tracepoint's only probe, which the kernel calls through
 * a static call: no event built, no consumer loop, no indirect call.  When
 * a second consumer wants the same event, its probe is registered beside
 * the first and the tracepoint's iterator calls both (that is the kernel's
 * own fan-out).  Nothing is switched over: each consumer's probe is
 * registered and unregistered on its own, and the kernel's tracepoint code
 * keeps the other probes of the tracepoint running throughout, so an
 * attach or detach neither loses nor doubles another consumer's events.
 *
 * State: tbcore_probes_lock (a mutex) serialises attach and detach, which are
 * the only writers of the consumer table, the consumer masks and the
 * registered set.  Probes read a slot and its mask locklessly: a stale
 * read delivers an event to a consumer that is being attached or detached,
 * which is harmless because the consumer exists until detach has waited
 * for every running probe (tracepoint_synchronize_unregister()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include <trace/events/irq.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/workqueue.h>
#ifdef CONFIG_X86
#include <asm/trace/exceptions.h>
#endif

#include "core/probes.h"

#define TBCORE_MAX_CONSUMERS	4

static struct tbcore_consumer *tbcore_consumers[TBCORE_MAX_CONSUMERS];
/* The direct probe registered for each slot and event, or NULL. */
static void *tbcore_direct_reg[TBCORE_MAX_CONSUMERS][TBCORE_EV_NR];
static DEFINE_MUTEX(tbcore_probes_lock);

static __always_inline void tbcore_dispatch(const struct tbcore_event *ev)
{
	/* A constant in each probe, unlike *ev once a callback has run. */
	enum tbcore_event_type type = ev->type;
	int i;

	for (i = 0; i < TBCORE_MAX_CONSUMERS; i++) {
		struct tbcore_consumer *c = READ_ONCE(tbcore_consumers[i]);

		if (c && (READ_ONCE(c->fanout) & TBCORE_EVMASK(type)))
			c->event[type](ev);
	}
}

/* ------------------------------------------------------------- the probes */

static void tbcore_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct tbcore_event ev = { .type = TBCORE_EV_SYS_ENTER };

	ev.sys_enter.regs = regs;
	ev.sys_enter.id = id;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct tbcore_event ev = { .type = TBCORE_EV_SYS_EXIT };

	ev.sys_exit.regs = regs;
	ev.sys_exit.ret = ret;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	struct tbcore_event ev = { .type = TBCORE_EV_IRQ_ENTRY };

	ev.irq.irq = irq;
	ev.irq.action = action;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_irq_exit(void *data, int irq, struct irqaction *action,
				  int ret)
{
	struct tbcore_event ev = { .type = TBCORE_EV_IRQ_EXIT };

	ev.irq.irq = irq;
	ev.irq.action = action;
	ev.irq.ret = ret;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	struct tbcore_event ev = { .type = TBCORE_EV_SOFTIRQ_ENTRY };

	ev.softirq.vec = vec_nr;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	struct tbcore_event ev = { .type = TBCORE_EV_SOFTIRQ_EXIT };

	ev.softirq.vec = vec_nr;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_work_start(void *data, struct work_struct *work)
{
	struct tbcore_event ev = { .type = TBCORE_EV_WORK_START };

	ev.work.work = work;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_work_end(void *data, struct work_struct *work,
				  work_func_t function)
{
	struct tbcore_event ev = { .type = TBCORE_EV_WORK_END };

	ev.work.work = work;
	ev.work.function = function;
	tbcore_dispatch(&ev);
}

#ifdef CONFIG_X86
static void tbcore_probe_fault(enum tbcore_event_type type, unsigned long address,
			       struct pt_regs *regs, unsigned long error_code)
{
	struct tbcore_event ev = { .type = type };

	ev.fault.address = address;
	ev.fault.regs = regs;
	ev.fault.error_code = error_code;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_fault_user(void *data, unsigned long address,
				    struct pt_regs *regs, unsigned long error_code)
{
	tbcore_probe_fault(TBCORE_EV_FAULT_USER, address, regs, error_code);
}

static void tbcore_probe_fault_kernel(void *data, unsigned long address,
				      struct pt_regs *regs, unsigned long error_code)
{
	tbcore_probe_fault(TBCORE_EV_FAULT_KERNEL, address, regs, error_code);
}
#endif

static void tbcore_probe_sched_switch(void *data, bool preempt,
				      struct task_struct *prev,
				      struct task_struct *next,
				      unsigned int prev_state)
{
	struct tbcore_event ev = { .type = TBCORE_EV_SCHED_SWITCH };

	ev.sched_switch.preempt = preempt;
	ev.sched_switch.prev = prev;
	ev.sched_switch.next = next;
	ev.sched_switch.prev_state = prev_state;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	struct tbcore_event ev = { .type = TBCORE_EV_FORK };

	ev.fork.parent = parent;
	ev.fork.child = child;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_exit(void *data, struct task_struct *p)
{
	struct tbcore_event ev = { .type = TBCORE_EV_EXIT };

	ev.exit.task = p;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_wakeup(void *data, struct task_struct *p)
{
	struct tbcore_event ev = { .type = TBCORE_EV_WAKEUP };

	ev.wakeup.task = p;
	tbcore_dispatch(&ev);
}

static void tbcore_probe_wakeup_new(void *data, struct task_struct *p)
{
	struct tbcore_event ev = { .type = TBCORE_EV_WAKEUP_NEW };

	ev.wakeup.task = p;
	tbcore_dispatch(&ev);
}

/* ----------------------------------------------------- the tracepoint table */

struct tbcore_tracepoint {
	const char *name;
	void *probe;
	struct tracepoint *tp;	/* NULL: not in this kernel */
	bool registered;
};

static struct tbcore_tracepoint tbcore_tps[TBCORE_EV_NR] = {
	[TBCORE_EV_SYS_ENTER]	= { "sys_enter", tbcore_probe_sys_enter },
	[TBCORE_EV_SYS_EXIT]	= { "sys_exit", tbcore_probe_sys_exit },
	[TBCORE_EV_IRQ_ENTRY]	= { "irq_handler_entry", tbcore_probe_irq_entry },
	[TBCORE_EV_IRQ_EXIT]	= { "irq_handler_exit", tbcore_probe_irq_exit },
	[TBCORE_EV_SOFTIRQ_ENTRY]	= { "softirq_entry", tbcore_probe_softirq_entry },
	[TBCORE_EV_SOFTIRQ_EXIT]	= { "softirq_exit", tbcore_probe_softirq_exit },
	[TBCORE_EV_WORK_START]	= { "workqueue_execute_start", tbcore_probe_work_start },
	[TBCORE_EV_WORK_END]	= { "workqueue_execute_end", tbcore_probe_work_end },
#ifdef CONFIG_X86
	[TBCORE_EV_FAULT_USER]	= { "page_fault_user", tbcore_probe_fault_user },
	[TBCORE_EV_FAULT_KERNEL]	= { "page_fault_kernel", tbcore_probe_fault_kernel },
#else
	[TBCORE_EV_FAULT_USER]	= { "page_fault_user", NULL },
	[TBCORE_EV_FAULT_KERNEL]	= { "page_fault_kernel", NULL },
#endif
	[TBCORE_EV_SCHED_SWITCH]	= { "sched_switch", tbcore_probe_sched_switch },
	[TBCORE_EV_FORK]		= { "sched_process_fork", tbcore_probe_fork },
	[TBCORE_EV_EXIT]		= { "sched_process_exit", tbcore_probe_exit },
	[TBCORE_EV_WAKEUP]		= { "sched_wakeup", tbcore_probe_wakeup },
	[TBCORE_EV_WAKEUP_NEW]	= { "sched_wakeup_new", tbcore_probe_wakeup_new },
};

/* Never called: the kernel's prototypes must accept our probes. */
static void __maybe_unused
tbcore_probes_check_types(const struct tbcore_direct *d)
{
	check_trace_callback_type_sys_enter(d->sys_enter);
	check_trace_callback_type_sys_exit(d->sys_exit);
	check_trace_callback_type_sys_enter(tbcore_probe_sys_enter);
	check_trace_callback_type_sys_exit(tbcore_probe_sys_exit);
	check_trace_callback_type_irq_handler_entry(tbcore_probe_irq_entry);
	check_trace_callback_type_irq_handler_exit(tbcore_probe_irq_exit);
	check_trace_callback_type_softirq_entry(tbcore_probe_softirq_entry);
	check_trace_callback_type_softirq_exit(tbcore_probe_softirq_exit);
	check_trace_callback_type_workqueue_execute_start(tbcore_probe_work_start);
	check_trace_callback_type_workqueue_execute_end(tbcore_probe_work_end);
#ifdef CONFIG_X86
	check_trace_callback_type_page_fault_user(tbcore_probe_fault_user);
	check_trace_callback_type_page_fault_kernel(tbcore_probe_fault_kernel);
#endif
	check_trace_callback_type_sched_switch(tbcore_probe_sched_switch);
	check_trace_callback_type_sched_process_fork(tbcore_probe_fork);
	check_trace_callback_type_sched_process_exit(tbcore_probe_exit);
	check_trace_callback_type_sched_wakeup(tbcore_probe_wakeup);
	check_trace_callback_type_sched_wakeup_new(tbcore_probe_wakeup_new);
}

static void tbcore_probes_find(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < TBCORE_EV_NR; i++) {
		if (tbcore_tps[i].probe && !tbcore_tps[i].tp &&
		    !strcmp(tp->name, tbcore_tps[i].name))
			tbcore_tps[i].tp = tp;
	}
}

u32 tbcore_probes_available(void)
{
	u32 mask = 0;
	int i;

	for (i = 0; i < TBCORE_EV_NR; i++)
		if (tbcore_tps[i].tp)
			mask |= TBCORE_EVMASK(i);
	return mask;
}

/* @c's direct probe for @ev, or NULL: that event then goes by fan-out. */
static void *tbcore_direct_of(const struct tbcore_consumer *c, int ev)
{
	switch (ev) {
	case TBCORE_EV_SYS_ENTER:
		return c->direct.sys_enter;
	case TBCORE_EV_SYS_EXIT:
		return c->direct.sys_exit;
	default:
		return NULL;
	}
}

static u32 tbcore_direct_mask(const struct tbcore_consumer *c)
{
	u32 mask = 0;
	int ev;

	for (ev = 0; ev < TBCORE_EV_NR; ev++)
		if (tbcore_direct_of(c, ev))
			mask |= TBCORE_EVMASK(ev);
	return mask;
}

/* Events for which some consumer other than @skip needs fan-out. */
static u32 tbcore_fanout_except(const struct tbcore_consumer *skip)
{
	u32 mask = 0;
	int i;

	for (i = 0; i < TBCORE_MAX_CONSUMERS; i++)
		if (tbcore_consumers[i] && tbcore_consumers[i] != skip)
			mask |= tbcore_consumers[i]->fanout;
	return mask;
}

static int tbcore_tp_register(int ev)
{
	struct tbcore_tracepoint *t = &tbcore_tps[ev];
	int ret;

	ret = tracepoint_probe_register(t->tp, t->probe, NULL);
	if (ret) {
		pr_err("cannot register a probe on %s: %d\n", t->name, ret);
		return ret;
	}
	t->registered = true;
	return 0;
}

static void tbcore_tp_unregister(int ev)
{
	struct tbcore_tracepoint *t = &tbcore_tps[ev];

	WARN_ON_ONCE(tracepoint_probe_unregister(t->tp, t->probe, NULL));
	t->registered = false;
}

/* Register or unregister fan-out probes so that exactly @mask is registered. */
static int tbcore_probes_sync(u32 mask)
{
	u32 added = 0;
	int ev, ret;

	for (ev = 0; ev < TBCORE_EV_NR; ev++) {
		if (!(mask & TBCORE_EVMASK(ev)) || tbcore_tps[ev].registered)
			continue;
		ret = tbcore_tp_register(ev);
		if (ret)
			goto undo;
		added |= TBCORE_EVMASK(ev);
	}
	for (ev = 0; ev < TBCORE_EV_NR; ev++)
		if (!(mask & TBCORE_EVMASK(ev)) && tbcore_tps[ev].registered)
			tbcore_tp_unregister(ev);
	return 0;

undo:
	for (ev = 0; ev < TBCORE_EV_NR; ev++)
		if (added & TBCORE_EVMASK(ev))
			tbcore_tp_unregister(ev);
	return ret;
}

/*
 * Register or unregister @c's direct probes (slot @slot) so that exactly
 * those of @mask are registered.  Registering may fail: then nothing
 * changed.  @c is the probes' data.
 */
static int tbcore_direct_sync(struct tbcore_consumer *c, int slot, u32 mask)
{
	void **reg = tbcore_direct_reg[slot];
	u32 added = 0;
	int ev, ret;

	for (ev = 0; ev < TBCORE_EV_NR; ev++) {
		if (!(mask & TBCORE_EVMASK(ev)) || reg[ev])
			continue;
		ret = tracepoint_probe_register(tbcore_tps[ev].tp,
						tbcore_direct_of(c, ev), c);
		if (ret) {
			pr_err("cannot register %s's probe on %s: %d\n",
			       c->name, tbcore_tps[ev].name, ret);
			goto undo;
		}
		reg[ev] = tbcore_direct_of(c, ev);
		added |= TBCORE_EVMASK(ev);
	}
	for (ev = 0; ev < TBCORE_EV_NR; ev++) {
		if ((mask & TBCORE_EVMASK(ev)) || !reg[ev])
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(tbcore_tps[ev].tp,
							 reg[ev], c));
		reg[ev] = NULL;
	}
	return 0;

undo:
	for (ev = 0; ev < TBCORE_EV_NR; ev++) {
		if (!(added & TBCORE_EVMASK(ev)))
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(tbcore_tps[ev].tp,
							 reg[ev], c));
		reg[ev] = NULL;
	}
	return ret;
}

static int tbcore_slot_of(const struct tbcore_consumer *c)
{
	int i;

	for (i = 0; i < TBCORE_MAX_CONSUMERS; i++)
		if (tbcore_consumers[i] == c)
			return i;
	return -1;
}

int tbcore_probes_attach(struct tbcore_consumer *c, u32 mask)
{
	u32 others, dropped, direct, fanout;
	int type, slot, ret = 0;

	if (mask & ~TBCORE_EVMASK_ALL)
		return -EINVAL;
	for (type = 0; type < TBCORE_EV_NR; type++)
		if ((mask & TBCORE_EVMASK(type)) && !c->event[type] &&
		    !tbcore_direct_of(c, type))
			return -EINVAL;
	if (mask & ~tbcore_probes_available())
		return -ENOENT;
	direct = mask & tbcore_direct_mask(c);
	fanout = mask & ~direct;

	mutex_lock(&tbcore_probes_lock);
	slot = tbcore_slot_of(c);
	if (slot < 0) {
		slot = tbcore_slot_of(NULL);
		if (slot < 0) {
			ret = -EBUSY;
			goto out;
		}
		c->mask = 0;
		c->fanout = 0;
	}
	others = tbcore_fanout_except(c);
	/* Register what becomes needed before the consumer can see it. */
	ret = tbcore_probes_sync(others | c->fanout | fanout);
	if (ret)
		goto out;
	/* Direct probes deliver from here on; on failure nothing changed. */
	ret = tbcore_direct_sync(c, slot, direct);
	if (ret) {
		tbcore_probes_sync(others | c->fanout);
		goto out;
	}
	dropped = c->mask & ~mask;
	WRITE_ONCE(c->fanout, fanout);
	WRITE_ONCE(c->mask, mask);
	WRITE_ONCE(tbcore_consumers[slot], c);
	tbcore_probes_sync(others | fanout);
	if (dropped)
		tracepoint_synchronize_unregister();
out:
	mutex_unlock(&tbcore_probes_lock);
	return ret;
}

void tbcore_probes_detach(struct tbcore_consumer *c)
{
	int slot;

	mutex_lock(&tbcore_probes_lock);
	slot = tbcore_slot_of(c);
	if (slot >= 0) {
		WRITE_ONCE(c->fanout, 0);
		WRITE_ONCE(c->mask, 0);
		tbcore_direct_sync(c, slot, 0);
		tbcore_probes_sync(tbcore_fanout_except(c));
		/* Every probe that might still see c has returned after this. */
		tracepoint_synchronize_unregister();
		WRITE_ONCE(tbcore_consumers[slot], NULL);
	}
	mutex_unlock(&tbcore_probes_lock);
}

/* ------------------------------------------------------------ bare probes */

/*
 * tbcore_bare_probes=1: empty probes on sys_enter and sys_exit, registered
 * directly and beside whatever the consumers have.  Alone, they are what
 * any tracepoint probe costs at the least: the reference of
 * scripts/bench/insn-profile's "bare" configuration.
 */
static bool tbcore_bare;
static bool tbcore_bare_on;	/* registered; under tbcore_probes_lock */
static bool tbcore_found;	/* tbcore_probes_init() has run */

static notrace void tbcore_bare_sys_enter(void *data, struct pt_regs *regs, long id)
{
}

static notrace void tbcore_bare_sys_exit(void *data, struct pt_regs *regs, long ret)
{
}

static void __maybe_unused tbcore_bare_check_types(void)
{
	check_trace_callback_type_sys_enter(tbcore_bare_sys_enter);
	check_trace_callback_type_sys_exit(tbcore_bare_sys_exit);
}

/* Make the registration follow tbcore_bare.  Caller holds the lock. */
static int tbcore_bare_sync(void)
{
	struct tracepoint *enter = tbcore_tps[TBCORE_EV_SYS_ENTER].tp;
	struct tracepoint *exit = tbcore_tps[TBCORE_EV_SYS_EXIT].tp;
	int ret;

	if (tbcore_bare == tbcore_bare_on || !tbcore_found)
		return 0;
	if (!enter || !exit)
		return -ENOENT;
	if (tbcore_bare_on) {
		WARN_ON_ONCE(tracepoint_probe_unregister(enter, tbcore_bare_sys_enter, NULL));
		WARN_ON_ONCE(tracepoint_probe_unregister(exit, tbcore_bare_sys_exit, NULL));
		tbcore_bare_on = false;
		return 0;
	}
	ret = tracepoint_probe_register(enter, tbcore_bare_sys_enter, NULL);
	if (ret)
		return ret;
	ret = tracepoint_probe_register(exit, tbcore_bare_sys_exit, NULL);
	if (ret) {
		WARN_ON_ONCE(tracepoint_probe_unregister(enter, tbcore_bare_sys_enter, NULL));
		return ret;
	}
	tbcore_bare_on = true;
	return 0;
}

static int tbcore_bare_set(const char *val, const struct kernel_param *kp)
{
	bool old;
	int ret;

	mutex_lock(&tbcore_probes_lock);
	old = tbcore_bare;
	ret = param_set_bool(val, kp);
	if (!ret) {
		ret = tbcore_bare_sync();
		if (ret)
			tbcore_bare = old;
	}
	mutex_unlock(&tbcore_probes_lock);
	return ret;
}

static const struct kernel_param_ops tbcore_bare_ops = {
	.set = tbcore_bare_set,
	.get = param_get_bool,
};
module_param_cb(tbcore_bare_probes, &tbcore_bare_ops, &tbcore_bare, 0644);
MODULE_PARM_DESC(tbcore_bare_probes,
		 "empty probes on sys_enter/sys_exit (benchmark reference, scripts/bench/insn-profile)");

/* --------------------------------------------------------------- load */

int tbcore_probes_init(void)
{
	u32 missing;
	int i, ret;

	for_each_kernel_tracepoint(tbcore_probes_find, NULL);
	missing = TBCORE_EVMASK_ALL & ~tbcore_probes_available();
	for (i = 0; i < TBCORE_EV_NR; i++)
		if (missing & TBCORE_EVMASK(i))
			pr_info("tracepoint %s not available: its events are off\n",
				tbcore_tps[i].name);
	mutex_lock(&tbcore_probes_lock);
	tbcore_found = true;
	ret = tbcore_bare_sync();
	mutex_unlock(&tbcore_probes_lock);
	return ret;
}

void tbcore_probes_exit(void)
{
	int i;

	mutex_lock(&tbcore_probes_lock);
	for (i = 0; i < TBCORE_MAX_CONSUMERS; i++)
		WARN_ON_ONCE(tbcore_consumers[i]);
	tbcore_probes_sync(0);
	tbcore_bare = false;
	tbcore_bare_sync();
	/* A write to the parameter from now on registers nothing. */
	tbcore_found = false;
	mutex_unlock(&tbcore_probes_lock);
	tracepoint_synchronize_unregister();
}
