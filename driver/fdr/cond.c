// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger conditions: what an armed trigger watches, and the test of each
 * condition.  trigger.c, the state machine, arms them with a fire callback
 * and calls it nothing back: a condition that holds calls that callback.
 *
 * Cost.  The conditions on kernel events are checked by a probe-layer
 * consumer of their own, attached only while armed and only to the events
 * the armed conditions need; the recorder's own callbacks and write path
 * are unchanged, so with nothing armed they run exactly the instructions
 * they ran before (Documentation/performance.rst).  Marker prefixes are
 * checked in write() behind one flag; oopses by a die notifier registered
 * while armed; warnings by a kprobe on __warn() registered while armed
 * (6.1 has no notifier for them: __warn() is what every WARN*() variant
 * calls, through report_bug() after the trap on x86, and only when the
 * warning is printed).  A panic is not a condition here: the crash
 * recovery's panic notifier freezes every ring (Documentation/fdr.rst).
 *
 * Durations.  IRQ handlers and softirqs start and end on one CPU without
 * nesting in their class, so a per-CPU slot holds the start.  Syscalls and
 * work functions may sleep and migrate: their start goes in a table
 * indexed by the task's pid, one 64-bit word per slot holding the pid and
 * the low 42 bits of the start (the capture's clock, shifted so that 42
 * bits cover two hours).  A word is written and read whole, so two tasks
 * sharing a slot can only make a measurement be missed, never be wrong; a
 * start older than the task (a dead task's, whose pid was reused) is
 * ignored, checked against its start time only when a threshold is
 * passed.
 */
#include <linux/bitops.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/syscall.h>

#include <linux/tracebuf.h>

#include "clock.h"
#include "cond.h"
#include "events.h"
#include "names.h"
#include "core/probes.h"

#define FDR_TASK_SLOTS		4096	/* per class, a power of two */
#define FDR_TIME_BITS		42
#define FDR_TIME_MASK		(BIT_ULL(FDR_TIME_BITS) - 1)
#define FDR_PID_MASK		(BIT(64 - FDR_TIME_BITS) - 1)

/* The classes a duration can be measured in, and their tables. */
enum { FDR_DUR_SYSCALL, FDR_DUR_IRQ, FDR_DUR_SOFTIRQ, FDR_DUR_WORK, FDR_DUR_NR };

struct fdr_cpu_start {
	u64 t;
	u32 key;
	bool valid;
};

static const struct {
	u32 class;
	const char *name;
} fdr_dur_class[FDR_DUR_NR] = {
	[FDR_DUR_SYSCALL] = { TRACEBUF_FDR_SYSCALL, "syscall" },
	[FDR_DUR_IRQ] = { TRACEBUF_FDR_IRQ, "irq" },
	[FDR_DUR_SOFTIRQ] = { TRACEBUF_FDR_SOFTIRQ, "softirq" },
	[FDR_DUR_WORK] = { TRACEBUF_FDR_WORKQUEUE, "work" },
};

/* The id space of each class's events: the wire format's mapping. */
static const u8 fdr_class_space[TRACEBUF_FDR_CLASSES] = TRACEBUF_FDR_CLASS_SPACES;

static u32 fdr_dur_space(unsigned int dc)
{
	return fdr_class_space[__ffs(fdr_dur_class[dc].class)];
}

/*
 * Written under the capture lock while nothing that reads them runs (see arm).
 */
static struct tracebuf_fdr_trigger fdr_cond;
static fdr_cond_fire_fn fdr_cond_fire_cb;
static u32 fdr_cond_dur_mask;		/* BIT(FDR_DUR_*) armed */
static bool fdr_cond_errno;
static bool fdr_cond_oops;
static bool fdr_cond_warn;
static bool fdr_cond_snap;
static atomic64_t *fdr_cond_tasks[FDR_DUR_NR];	/* syscall and work only */
static DEFINE_PER_CPU(struct fdr_cpu_start, fdr_cond_irq_start);
static DEFINE_PER_CPU(struct fdr_cpu_start, fdr_cond_softirq_start);

static bool fdr_cond_markers;		/* a MARKER condition is armed */

static struct tbcore_consumer fdr_cond_consumer;
static bool fdr_cond_attached;
static bool fdr_cond_die_registered;
static bool fdr_cond_warn_registered;

/* Any context: condition @i held; the text says what happened. */
static __printf(2, 3) void fdr_cond_fire(u32 i, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	fdr_cond_fire_cb(i, fmt, args);
	va_end(args);
}

/*
 * Times are the capture's clock (clock.c: one rdtsc on x86) shifted
 * right by @fdr_cond_shift, so that the 42 bits a task slot keeps cover
 * two hours; thresholds are converted to these units when armed.
 */
static u32 fdr_cond_shift;
static u64 fdr_cond_thr[TRACEBUF_FDR_TRIG_MAX];

static __always_inline u64 fdr_cond_now(void)
{
	return fdr_clock_read() >> fdr_cond_shift;
}

/* Rare path: @units of the trigger's clock in ns. */
static u64 fdr_cond_ns(u64 units)
{
	return mul_u64_u32_div(units << fdr_cond_shift, NSEC_PER_SEC / 1000,
			       div_u64(fdr_clock_hz(), 1000));
}

/*
 * A call of class @dc and key @key ran @units.  @task: the start came from
 * a task slot, which may hold a dead task's start (see the top).
 */
static void fdr_cond_duration(unsigned int dc, u32 key, u64 units, bool task)
{
	u32 id = TRACEBUF_FDR_ID(fdr_dur_space(dc), key);
	u64 ns;
	u32 i;

	for (i = 0; i < fdr_cond.nr_conds; i++) {
		const struct tracebuf_fdr_trig_cond *c = &fdr_cond.conds[i];

		if (c->type != TRACEBUF_FDR_TRIG_DURATION ||
		    c->ev_class != fdr_dur_class[dc].class ||
		    units <= fdr_cond_thr[i] ||
		    ((c->flags & TRACEBUF_FDR_TRIG_F_ID) && c->id != id))
			continue;
		ns = fdr_cond_ns(units);
		/* A start before this task existed is a dead task's. */
		if (task && ktime_get_mono_fast_ns() - ns < current->start_time)
			return;
		fdr_cond_fire(i, "%s %#x ran %llu us (> %u us)",
			      fdr_dur_class[dc].name, id,
			      div_u64(ns, NSEC_PER_USEC), c->threshold_us);
		return;
	}
}

static atomic64_t *fdr_task_slot(unsigned int dc)
{
	return &fdr_cond_tasks[dc][current->pid & (FDR_TASK_SLOTS - 1)];
}

static void fdr_task_begin(unsigned int dc)
{
	u64 pid = current->pid & FDR_PID_MASK;

	atomic64_set(fdr_task_slot(dc), (pid << FDR_TIME_BITS) |
		     (fdr_cond_now() & FDR_TIME_MASK));
}

/* How long current's call of class @dc ran; false if its start is unknown. */
static bool fdr_task_end(unsigned int dc, u64 *units)
{
	atomic64_t *slot = fdr_task_slot(dc);
	u64 now = fdr_cond_now();
	u64 v = atomic64_read(slot);

	if (!v || v >> FDR_TIME_BITS != (current->pid & FDR_PID_MASK))
		return false;
	atomic64_set(slot, 0);
	*units = (now - v) & FDR_TIME_MASK;
	return true;
}

static void fdr_cpu_begin(struct fdr_cpu_start __percpu *pc, u32 key)
{
	struct fdr_cpu_start *s = this_cpu_ptr(pc);

	s->t = fdr_cond_now();
	s->key = key;
	s->valid = true;
}

static void fdr_cpu_end(struct fdr_cpu_start __percpu *pc, unsigned int dc,
			u32 key)
{
	struct fdr_cpu_start *s = this_cpu_ptr(pc);

	if (!s->valid || s->key != key)
		return;
	s->valid = false;
	fdr_cond_duration(dc, key, fdr_cond_now() - s->t, false);
}

/*
 * The syscall events have callbacks of their own, as in events.c, so
 * that an armed syscall trigger costs no test of the event type.
 */
/*
 * The syscall events' probes are registered on the tracepoints directly
 * (struct tbcore_direct), beside the recorder's.
 */
static void fdr_cond_sys_enter(void *data, struct pt_regs *regs, long id)
{
	if (fdr_cond_dur_mask & BIT(FDR_DUR_SYSCALL))
		fdr_task_begin(FDR_DUR_SYSCALL);
}

static void fdr_cond_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	/*
	 * An int; negative (no syscall) becomes out of range, as in events.c.
	 */
	u32 nr = syscall_get_nr(current, regs);
	u64 units;
	u32 i, id;

	if ((fdr_cond_dur_mask & BIT(FDR_DUR_SYSCALL)) &&
	    fdr_task_end(FDR_DUR_SYSCALL, &units))
		fdr_cond_duration(FDR_DUR_SYSCALL,
				  TRACEBUF_FDR_ID_KEY(fdr_events_syscall_id(nr)),
				  units, true);
	if (!fdr_cond_errno || ret >= 0 || ret < -TRACEBUF_FDR_TRIG_ERROR_MAX)
		return;
	id = fdr_events_syscall_id(nr);
	for (i = 0; i < fdr_cond.nr_conds; i++) {
		const struct tracebuf_fdr_trig_cond *c = &fdr_cond.conds[i];

		if (c->type != TRACEBUF_FDR_TRIG_ERRNO || c->error != -ret ||
		    ((c->flags & TRACEBUF_FDR_TRIG_F_ID) && c->id != id))
			continue;
		fdr_cond_fire(i, "syscall %#x returned -%u", id, c->error);
		return;
	}
}

static void fdr_cond_event(const struct tbcore_event *ev)
{
	u64 units;

	switch (ev->type) {
	case TBCORE_EV_IRQ_ENTRY:
		fdr_cpu_begin(&fdr_cond_irq_start, ev->irq.irq);
		break;
	case TBCORE_EV_IRQ_EXIT:
		fdr_cpu_end(&fdr_cond_irq_start, FDR_DUR_IRQ, ev->irq.irq);
		break;
	case TBCORE_EV_SOFTIRQ_ENTRY:
		fdr_cpu_begin(&fdr_cond_softirq_start, ev->softirq.vec);
		break;
	case TBCORE_EV_SOFTIRQ_EXIT:
		fdr_cpu_end(&fdr_cond_softirq_start, FDR_DUR_SOFTIRQ,
			    ev->softirq.vec);
		break;
	case TBCORE_EV_WORK_START:
		fdr_task_begin(FDR_DUR_WORK);
		break;
	case TBCORE_EV_WORK_END:
		if (fdr_task_end(FDR_DUR_WORK, &units))
			fdr_cond_duration(FDR_DUR_WORK,
					  fdr_names_work_key(ev->work.function),
					  units, true);
		break;
	default:
		break;
	}
}

void fdr_cond_marker(const void *data, u32 len)
{
	u32 i;

	if (!READ_ONCE(fdr_cond_markers))
		return;
	/* A grace period of disarming waits for this. */
	preempt_disable();
	for (i = 0; i < fdr_cond.nr_conds; i++) {
		const struct tracebuf_fdr_trig_cond *c = &fdr_cond.conds[i];

		if (c->type != TRACEBUF_FDR_TRIG_MARKER ||
		    len < c->prefix_len || memcmp(data, c->prefix, c->prefix_len))
			continue;
		fdr_cond_fire(i, "marker \"%.*s\"", (int)c->prefix_len,
			      c->prefix);
		break;
	}
	preempt_enable();
}

static int fdr_cond_die(struct notifier_block *nb, unsigned long val,
			void *data)
{
	const struct die_args *args = data;
	u32 i;

	if (val != DIE_OOPS)
		return NOTIFY_DONE;
	for (i = 0; i < fdr_cond.nr_conds; i++) {
		if (fdr_cond.conds[i].type == TRACEBUF_FDR_TRIG_OOPS) {
			fdr_cond_fire(i, "oops: %s", args->str);
			break;
		}
	}
	return NOTIFY_DONE;
}

static struct notifier_block fdr_cond_die_nb = {
	.notifier_call = fdr_cond_die,
};

#if defined(CONFIG_KPROBES) && defined(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
/*
 * At the entry of __warn(const char *file, int line, void *caller, ...):
 * file is NULL without CONFIG_DEBUG_BUGVERBOSE.  Any context (an NMI too);
 * the kprobe layer disables preemption around it.
 */
static int fdr_cond_warn_pre(struct kprobe *kp, struct pt_regs *regs)
{
	const char *file = (const char *)regs_get_kernel_argument(regs, 0);
	int line = regs_get_kernel_argument(regs, 1);
	void *caller = (void *)regs_get_kernel_argument(regs, 2);
	u32 i;

	for (i = 0; i < fdr_cond.nr_conds; i++) {
		if (fdr_cond.conds[i].type != TRACEBUF_FDR_TRIG_WARN)
			continue;
		if (file)
			fdr_cond_fire(i, "WARN at %s:%d %pS", file, line,
				      caller);
		else
			fdr_cond_fire(i, "WARN at %pS", caller);
		break;
	}
	return 0;
}

static struct kprobe fdr_cond_warn_kp;

static int fdr_cond_warn_register(void)
{
	/* register_kprobe() fills in .addr: start from a clean struct. */
	memset(&fdr_cond_warn_kp, 0, sizeof(fdr_cond_warn_kp));
	fdr_cond_warn_kp.symbol_name = "__warn";
	fdr_cond_warn_kp.pre_handler = fdr_cond_warn_pre;
	return register_kprobe(&fdr_cond_warn_kp);
}

static void fdr_cond_warn_unregister(void)
{
	unregister_kprobe(&fdr_cond_warn_kp);
}
#else
static int fdr_cond_warn_register(void)
{
	return -EOPNOTSUPP;
}

static void fdr_cond_warn_unregister(void)
{
}
#endif

bool fdr_cond_snapshot(void)
{
	u32 i;

	if (!fdr_cond_snap)
		return false;
	for (i = 0; i < fdr_cond.nr_conds; i++) {
		if (fdr_cond.conds[i].type == TRACEBUF_FDR_TRIG_SNAPSHOT) {
			fdr_cond_fire(i, "snapshot ioctl");
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------ arming */

static int fdr_dur_index(u32 class)
{
	int i;

	for (i = 0; i < FDR_DUR_NR; i++)
		if (fdr_dur_class[i].class == class)
			return i;
	return -1;
}

static bool fdr_zero(const void *p, size_t n)
{
	return !memchr_inv(p, 0, n);
}

static int fdr_check_cond(const struct tracebuf_fdr_trig_cond *c)
{
	struct tracebuf_fdr_trig_cond used = { .type = c->type };
	int dc;

	if (c->flags & ~TRACEBUF_FDR_TRIG_F_ID)
		return -EINVAL;
	switch (c->type) {
	case TRACEBUF_FDR_TRIG_DURATION:
		dc = fdr_dur_index(c->ev_class);
		if (dc < 0 || !c->threshold_us ||
		    c->threshold_us > TRACEBUF_FDR_TRIG_THRESHOLD_MAX)
			return -EINVAL;
		if ((c->flags & TRACEBUF_FDR_TRIG_F_ID) &&
		    TRACEBUF_FDR_ID_SPACE(c->id) != fdr_dur_space(dc))
			return -EINVAL;
		used.ev_class = c->ev_class;
		used.threshold_us = c->threshold_us;
		break;
	case TRACEBUF_FDR_TRIG_ERRNO:
		if (!c->error || c->error > TRACEBUF_FDR_TRIG_ERROR_MAX)
			return -EINVAL;
		if ((c->flags & TRACEBUF_FDR_TRIG_F_ID) &&
		    TRACEBUF_FDR_ID_SPACE(c->id) != TRACEBUF_FDR_SPACE_SYSCALL)
			return -EINVAL;
		used.error = c->error;
		break;
	case TRACEBUF_FDR_TRIG_MARKER:
		if (!c->prefix_len || c->prefix_len > TRACEBUF_FDR_TRIG_PREFIX_MAX)
			return -EINVAL;
		used.prefix_len = c->prefix_len;
		memcpy(used.prefix, c->prefix, c->prefix_len);
		break;
	case TRACEBUF_FDR_TRIG_OOPS:
	case TRACEBUF_FDR_TRIG_WARN:
	case TRACEBUF_FDR_TRIG_SNAPSHOT:
		break;
	default:
		return -EINVAL;
	}
	if (c->flags & TRACEBUF_FDR_TRIG_F_ID) {
		if (c->type != TRACEBUF_FDR_TRIG_DURATION &&
		    c->type != TRACEBUF_FDR_TRIG_ERRNO)
			return -EINVAL;
		if (c->id & ~(TRACEBUF_FDR_ID(0xf, TRACEBUF_FDR_ID_KEY_MASK)))
			return -EINVAL;
		used.flags = c->flags;
		used.id = c->id;
	}
	/* Every field the condition does not use is zero. */
	return memcmp(&used, c, sizeof(used)) ? -EINVAL : 0;
}

int fdr_cond_check(const struct tracebuf_fdr_trigger *t)
{
	u32 i;
	int ret;

	if (t->flags || t->nr_conds > TRACEBUF_FDR_TRIG_MAX ||
	    t->post_events > TRACEBUF_FDR_TRIG_EVENTS_MAX ||
	    t->post_usecs > TRACEBUF_FDR_TRIG_USECS_MAX)
		return -EINVAL;
	for (i = 0; i < TRACEBUF_FDR_TRIG_MAX; i++) {
		if (i >= t->nr_conds) {
			if (!fdr_zero(&t->conds[i], sizeof(t->conds[i])))
				return -EINVAL;
			continue;
		}
		ret = fdr_check_cond(&t->conds[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static u32 fdr_cond_mask(void)
{
	u32 mask = 0;

	if (fdr_cond_dur_mask & BIT(FDR_DUR_SYSCALL))
		mask |= TBCORE_EVMASK(TBCORE_EV_SYS_ENTER) |
			TBCORE_EVMASK(TBCORE_EV_SYS_EXIT);
	if (fdr_cond_errno)
		mask |= TBCORE_EVMASK(TBCORE_EV_SYS_EXIT);
	if (fdr_cond_dur_mask & BIT(FDR_DUR_IRQ))
		mask |= TBCORE_EVMASK(TBCORE_EV_IRQ_ENTRY) |
			TBCORE_EVMASK(TBCORE_EV_IRQ_EXIT);
	if (fdr_cond_dur_mask & BIT(FDR_DUR_SOFTIRQ))
		mask |= TBCORE_EVMASK(TBCORE_EV_SOFTIRQ_ENTRY) |
			TBCORE_EVMASK(TBCORE_EV_SOFTIRQ_EXIT);
	if (fdr_cond_dur_mask & BIT(FDR_DUR_WORK))
		mask |= TBCORE_EVMASK(TBCORE_EV_WORK_START) |
			TBCORE_EVMASK(TBCORE_EV_WORK_END);
	return mask;
}

int fdr_cond_arm(const struct tracebuf_fdr_trigger *t, fdr_cond_fire_fn fire)
{
	unsigned int dc, cpu;
	u32 i, mask;
	int ret;

	fdr_cond = *t;
	fdr_cond_fire_cb = fire;
	/* Two hours of the capture's clock fit in a slot's 42 bits. */
	fdr_cond_shift = 0;
	while ((fdr_clock_hz() >> fdr_cond_shift) * 7200 > FDR_TIME_MASK)
		fdr_cond_shift++;
	for (i = 0; i < t->nr_conds; i++) {
		switch (t->conds[i].type) {
		case TRACEBUF_FDR_TRIG_DURATION:
			fdr_cond_dur_mask |= BIT(fdr_dur_index(t->conds[i].ev_class));
			fdr_cond_thr[i] = mul_u64_u32_div(t->conds[i].threshold_us,
							  div_u64(fdr_clock_hz(), 1000),
							  1000) >> fdr_cond_shift;
			break;
		case TRACEBUF_FDR_TRIG_ERRNO:
			fdr_cond_errno = true;
			break;
		case TRACEBUF_FDR_TRIG_OOPS:
			fdr_cond_oops = true;
			break;
		case TRACEBUF_FDR_TRIG_WARN:
			fdr_cond_warn = true;
			break;
		case TRACEBUF_FDR_TRIG_SNAPSHOT:
			fdr_cond_snap = true;
			break;
		}
	}
	for (dc = FDR_DUR_SYSCALL; dc < FDR_DUR_NR; dc++) {
		if (!(fdr_cond_dur_mask & BIT(dc)) ||
		    (dc != FDR_DUR_SYSCALL && dc != FDR_DUR_WORK))
			continue;
		fdr_cond_tasks[dc] = kvcalloc(FDR_TASK_SLOTS, sizeof(atomic64_t),
					      GFP_KERNEL_ACCOUNT);
		if (!fdr_cond_tasks[dc])
			return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(&fdr_cond_irq_start, cpu)->valid = false;
		per_cpu_ptr(&fdr_cond_softirq_start, cpu)->valid = false;
	}
	mask = fdr_cond_mask();
	if (mask) {
		ret = tbcore_probes_attach(&fdr_cond_consumer, mask);
		if (ret)
			return ret == -ENOENT ? -EOPNOTSUPP : ret;
		fdr_cond_attached = true;
	}
	if (fdr_cond_oops) {
		ret = register_die_notifier(&fdr_cond_die_nb);
		if (ret)
			return ret;
		fdr_cond_die_registered = true;
	}
	if (fdr_cond_warn) {
		ret = fdr_cond_warn_register();
		if (ret)
			return ret == -ENOENT ? -EOPNOTSUPP : ret;
		fdr_cond_warn_registered = true;
	}
	for (i = 0; i < t->nr_conds; i++)
		if (t->conds[i].type == TRACEBUF_FDR_TRIG_MARKER)
			WRITE_ONCE(fdr_cond_markers, true);
	return 0;
}

void fdr_cond_disarm(void)
{
	WRITE_ONCE(fdr_cond_markers, false);
	if (fdr_cond_attached) {
		tbcore_probes_detach(&fdr_cond_consumer);
		fdr_cond_attached = false;
	}
	if (fdr_cond_die_registered) {
		unregister_die_notifier(&fdr_cond_die_nb);
		fdr_cond_die_registered = false;
	}
	if (fdr_cond_warn_registered) {
		fdr_cond_warn_unregister();
		fdr_cond_warn_registered = false;
	}
}

void fdr_cond_free(void)
{
	int dc;

	for (dc = 0; dc < FDR_DUR_NR; dc++) {
		kvfree(fdr_cond_tasks[dc]);
		fdr_cond_tasks[dc] = NULL;
	}
	memset(&fdr_cond, 0, sizeof(fdr_cond));
	fdr_cond_dur_mask = 0;
	fdr_cond_errno = false;
	fdr_cond_oops = false;
	fdr_cond_warn = false;
	fdr_cond_snap = false;
}

void fdr_cond_init(void)
{
	int type;

	fdr_cond_consumer.name = "fdr_trigger";
	for (type = 0; type < TBCORE_EV_NR; type++)
		fdr_cond_consumer.event[type] = fdr_cond_event;
	fdr_cond_consumer.direct.sys_enter = fdr_cond_sys_enter;
	fdr_cond_consumer.direct.sys_exit = fdr_cond_sys_exit;
}
