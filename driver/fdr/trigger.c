// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers: freeze the flight recorder when something goes wrong.
 *
 * States (TRACEBUF_FDR_TRIG_STATE_*), one atomic so that every path that
 * may move it agrees without a lock:
 *
 *   OFF --arm--> ARMED --condition--> FIRED --window over--> FROZEN
 *                  ^                                            |
 *                  +---------------- arm again -----------------+
 *   any --disarm or STOP--> OFF
 *
 * A condition fires with cmpxchg(ARMED, FIRED), so one wins: it writes
 * the reason ("tracebuf trigger: ...") as a CustomEventMarker on its CPU,
 * then opens the window.  An event window is the ring's
 * (fdr_ring_window_open()): the ring counts the records written in it
 * and calls fdr_trig_window_done() from the write that uses it up, which
 * freezes the rings (fdr_ring_stop_writers()).  A time window is an
 * hrtimer, started from irq_work because a condition may hold in a context
 * that cannot start one (an oops in NMI).  Writes already under way on
 * other CPUs finish after the freeze; STATS counts them in trig_after.
 *
 * The conditions, what each watches and when it holds, are cond.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>

#include <linux/tracebuf.h>

#include "cond.h"
#include "ring/frontend.h"
#include "ring/frontend_api.h"
#include "trigger.h"

/* Reason text: the prefix and at most this much more. */
#define FDR_TRIG_TEXT_MAX	128

/*
 * Written under the capture lock while nothing that reads them runs (see arm).
 */
static u32 fdr_trig_post_events;
static u32 fdr_trig_post_usecs;

static atomic_t fdr_trig_state = ATOMIC_INIT(TRACEBUF_FDR_TRIG_STATE_OFF);
static atomic64_t fdr_trig_fires;
static u32 fdr_trig_cond;		/* which condition fired */
static bool fdr_trig_settled;		/* The capture lock: frozen and quiet */

static struct hrtimer fdr_trig_timer;
static struct irq_work fdr_trig_timer_work;
static struct irq_work fdr_trig_wake_work;

/* ------------------------------------------------------------ firing */

static void fdr_trig_wake(struct irq_work *work)
{
	wake_up_interruptible_all(fdr_ring_waitq());
}

static void fdr_trig_freeze(void)
{
	if (atomic_cmpxchg(&fdr_trig_state, TRACEBUF_FDR_TRIG_STATE_FIRED,
			   TRACEBUF_FDR_TRIG_STATE_FROZEN) !=
	    TRACEBUF_FDR_TRIG_STATE_FIRED)
		return;
	fdr_ring_stop_writers();
	irq_work_queue(&fdr_trig_wake_work);
}

static enum hrtimer_restart fdr_trig_timer_fn(struct hrtimer *t)
{
	fdr_trig_freeze();
	return HRTIMER_NORESTART;
}

static void fdr_trig_start_timer(struct irq_work *work)
{
	hrtimer_start(&fdr_trig_timer,
		      ns_to_ktime((u64)fdr_trig_post_usecs * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);
}

/*
 * The ring's write path: the window's last record was written.  A trigger
 * disarmed meanwhile (no longer FIRED) freezes nothing.
 */
static void fdr_trig_window_done(void)
{
	fdr_trig_freeze();
}

/*
 * Any context (cond.c's callback): condition @i held; the text says what
 * happened.  The first condition to hold fires; the others do nothing.
 */
static __printf(2, 0) void fdr_trig_fire(u32 i, const char *fmt,
					  va_list args)
{
	char text[FDR_TRIG_TEXT_MAX];
	int n;

	if (atomic_cmpxchg(&fdr_trig_state, TRACEBUF_FDR_TRIG_STATE_ARMED,
			   TRACEBUF_FDR_TRIG_STATE_FIRED) !=
	    TRACEBUF_FDR_TRIG_STATE_ARMED)
		return;
	WRITE_ONCE(fdr_trig_cond, i);
	atomic64_inc(&fdr_trig_fires);
	n = scnprintf(text, sizeof(text), TRACEBUF_FDR_TRIG_PREFIX);
	n += vscnprintf(text + n, sizeof(text) - n, fmt, args);
	/* Dropped (and counted) only if this CPU's ring is busy (NMI). */
	fdr_write_marker(text, n);
	if (!fdr_trig_post_events && !fdr_trig_post_usecs) {
		fdr_trig_freeze();
		return;
	}
	if (fdr_trig_post_events)
		fdr_ring_window_open(fdr_trig_post_events, fdr_trig_window_done);
	if (fdr_trig_post_usecs)
		irq_work_queue(&fdr_trig_timer_work);
}

/* ------------------------------------------------------------ arming */

/*
 * The capture lock: nothing armed any more, and nothing that was armed still
 * runs: no callback, notifier, marker check, timer or irq_work.
 */
static void fdr_trig_off(void)
{
	atomic_set(&fdr_trig_state, TRACEBUF_FDR_TRIG_STATE_OFF);
	fdr_cond_disarm();
	/*
	 * Conditions run with preemption off (marker checks, a firing that
	 * won before OFF): wait for them, then for the timer they may have
	 * started and the ring writers still in the window.
	 */
	synchronize_rcu();
	irq_work_sync(&fdr_trig_timer_work);
	hrtimer_cancel(&fdr_trig_timer);
	irq_work_sync(&fdr_trig_wake_work);
	fdr_ring_window_close();
	synchronize_rcu();
	fdr_cond_free();
	fdr_trig_post_events = 0;
	fdr_trig_post_usecs = 0;
	fdr_trig_settled = false;
}

int fdr_trig_arm(const struct tracebuf_fdr_trigger *t, bool running,
		 const struct tracebuf_fdr_config *cfg)
{
	bool was_frozen;
	u32 i;
	int ret;

	ret = fdr_cond_check(t);
	if (ret)
		return ret;
	/* A marker condition could never fire without markers. */
	for (i = 0; i < t->nr_conds; i++)
		if (t->conds[i].type == TRACEBUF_FDR_TRIG_MARKER &&
		    !(cfg->classes & TRACEBUF_FDR_MARKER))
			return -EINVAL;
	if (t->nr_conds && cfg->mode != TRACEBUF_FDR_MODE_FLIGHT)
		return -EOPNOTSUPP;
	if (t->nr_conds && !running)
		return -ESRCH;
	was_frozen = atomic_read(&fdr_trig_state) ==
		     TRACEBUF_FDR_TRIG_STATE_FROZEN;
	fdr_trig_off();
	if (t->nr_conds) {
		fdr_ring_window_clear();
		fdr_trig_post_events = t->post_events;
		fdr_trig_post_usecs = t->post_usecs;
		ret = fdr_cond_arm(t, fdr_trig_fire);
		if (ret)
			fdr_trig_off();
		else
			atomic_set(&fdr_trig_state,
				   TRACEBUF_FDR_TRIG_STATE_ARMED);
	}
	/* Recording resumes, into the same rings. */
	if (was_frozen && running)
		fdr_ring_set_on(true);
	return ret;
}

void fdr_trig_stop(void)
{
	fdr_trig_off();
}

void fdr_trig_reset(void)
{
	atomic64_set(&fdr_trig_fires, 0);
	fdr_ring_window_clear();
}

void fdr_trig_settle(void)
{
	if (fdr_trig_settled || !fdr_trig_frozen())
		return;
	/* Writers run with interrupts off: a grace period waits for them. */
	synchronize_rcu();
	fdr_trig_settled = true;
}

bool fdr_trig_frozen(void)
{
	return atomic_read(&fdr_trig_state) == TRACEBUF_FDR_TRIG_STATE_FROZEN;
}

void fdr_trig_stats(struct tracebuf_fdr_stats *s)
{
	s->trig_state = atomic_read(&fdr_trig_state);
	if (s->trig_state >= TRACEBUF_FDR_TRIG_STATE_FIRED)
		s->trig_cond = READ_ONCE(fdr_trig_cond);
	s->trig_fires = atomic64_read(&fdr_trig_fires);
	s->trig_after = fdr_ring_window_count();
	s->trig_frozen = fdr_ring_frozen();
}

void fdr_trig_init(void)
{
	fdr_cond_init();
	hrtimer_init(&fdr_trig_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	fdr_trig_timer.function = fdr_trig_timer_fn;
	init_irq_work(&fdr_trig_timer_work, fdr_trig_start_timer);
	init_irq_work(&fdr_trig_wake_work, fdr_trig_wake);
}
