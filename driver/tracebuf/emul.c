// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated backend: a struct tb_model behind one raw spinlock.
 *
 * Writers are injected events (write() on the device, process context)
 * and kernel events (tb_feed.c, probe context on any CPU: process, IRQ or
 * NMI).  Every writer takes tb_emul.lock with interrupts off, so a buffer
 * update is atomic against readers and against the other CPUs.  An NMI
 * must not spin on a lock its own CPU may hold, so in NMI context the
 * writer only tries the lock and counts the event as dropped if it is
 * busy.  Readers (read(), snapshot, clear) take the same lock, which is
 * how "pause capture, read, clear, resume" is atomic on every CPU.
 *
 * Chained capture happens inside the writer: the moment a fill-once
 * buffer is full, it is copied into the chain queue and cleared, and the
 * event that did not fit continues in the fresh buffer, so nothing is
 * lost between consecutive buffers.
 *
 * Nothing here may wake a task from a writer (sched_switch probes run
 * inside the scheduler): the device's notify callback defers the wakeup
 * to irq_work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "backend.h"
#include "chain.h"
#include "feed.h"
#include "model.h"

#define TB_EMUL_MIN_SIZE	256U
#define TB_EMUL_MAX_SIZE	65536U

static unsigned int tb_buf_size = 256;
module_param(tb_buf_size, uint, 0444);
MODULE_PARM_DESC(tb_buf_size,
		 "emulated trace buffer size in bytes: power of two, 256..65536 (default 256)");
/* The name before parameters had their product's prefix; for one release. */
module_param_named(buf_size, tb_buf_size, uint, 0444);
MODULE_PARM_DESC(buf_size, "deprecated name of tb_buf_size");

/*
 * What one hold of the lock may do, whatever the events: bytes of buffer
 * work (roll-overs written, buffers saved to the chain) and injected
 * events.  An event with a large icount stands for up to 2^28 roll-overs;
 * recorded in one go, a 1 MiB write() of such events kept a CPU busy with
 * interrupts off for many seconds.  Now a hold writes at most
 * TB_EMUL_HOLD_WORK bytes plus one buffer saved to the chain (buf_size,
 * at most 64 KiB), and an event that needs more continues in the next
 * hold: Documentation/tracebuf.rst gives the resulting latency bound.
 */
#define TB_EMUL_HOLD_WORK	(16 << 10)
#define TB_INJECT_BATCH		64

/* tb_emul.state: one word, so that the feed's fast path tests it once. */
#define TB_EMUL_ON	BIT(0)	/* capture is enabled */
#define TB_EMUL_SPLIT	BIT(1)	/* an event is being recorded across holds */

static struct {
	raw_spinlock_t lock;
	struct tb_model model;
	struct tb_chain *chain;
	u32 state;		/* TB_EMUL_*; written under the lock */
	struct tracebuf_sources sources;
	atomic64_t busy_dropped;	/* lock taken in NMI, or a split event */
	struct mutex inject_lock;	/* one injecting write() at a time */
	tb_notify_fn notify;		/* the device's, from tb_emul_init() */
} tb_emul = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(tb_emul.lock),
	.inject_lock = __MUTEX_INITIALIZER(tb_emul.inject_lock),
};

static bool tb_emul_on(void)
{
	return READ_ONCE(tb_emul.state) & TB_EMUL_ON;
}

static bool tb_emul_split(void)
{
	return tb_emul.state & TB_EMUL_SPLIT;
}

/* Set or clear @bit of tb_emul.state.  Caller holds the lock. */
static void tb_emul_set(u32 bit, bool on)
{
	WRITE_ONCE(tb_emul.state, on ? tb_emul.state | bit :
				       tb_emul.state & ~bit);
}

static u32 tb_emul_record_flags(const struct tb_model *m)
{
	u32 flags = 0;

	if (m->full)
		flags |= TRACEBUF_RECORD_FULL;
	if (tb_model_wrapped(m))
		flags |= TRACEBUF_RECORD_WRAPPED;
	if (tb_feed_counts())
		flags |= TRACEBUF_RECORD_COUNTS;
	if (m->mode == TRACEBUF_MODE_FILL_ONCE)
		flags |= TRACEBUF_RECORD_FILL;
	return flags;
}

/* Is there something for poll() to report?  Caller holds the lock. */
static bool tb_emul_readable_locked(void)
{
	const struct tb_model *m = &tb_emul.model;

	if (tb_emul.chain)
		return tb_emul.chain->count > 0;
	if (m->mode == TRACEBUF_MODE_FILL_ONCE)
		return m->full;
	return m->bytes_written >= m->size;
}

/* Move the full buffer to the chain queue and start a fresh one. */
static void tb_emul_chain_save(struct tb_chain *chain)
{
	tb_chain_push(chain, &tb_emul.model, tb_emul_record_flags(&tb_emul.model));
	tb_model_clear(&tb_emul.model);
}

/*
 * Record @ev (modified: what was recorded is taken off its count) within
 * *@work bytes of buffer work.  False when the work ran out first: the
 * caller continues with the same @ev in its next hold.  Caller holds the
 * lock and has checked that capture is on.
 */
static bool tb_emul_record_locked(struct tracebuf_event *ev, s64 *work)
{
	struct tb_model *m = &tb_emul.model;
	struct tb_chain *chain = tb_emul.chain;
	bool was_readable = tb_emul_readable_locked();
	bool done = true;

	for (;;) {
		enum tb_put r = tb_model_put(m, ev, work);

		if (r == TB_PUT_MORE) {
			done = false;
			break;
		}
		if (!m->full || !chain) {
			if (r == TB_PUT_FULL)
				m->dropped += tb_model_messages_in(ev);
			break;
		}
		/* Chained: save the full buffer, re-arm, carry on. */
		tb_emul_chain_save(chain);
		*work -= m->size;
		if (r == TB_PUT_DONE)
			break;
		/*
		 * Buffers that would hold nothing but roll-overs while the
		 * queue stays full (nobody can pop while we hold the lock)
		 * are lost whole: count them instead of filling each.
		 */
		if (tb_chain_is_full(chain)) {
			u64 n = ev->icount / TB_ROLLOVER_INSNS / m->size;

			tb_chain_lose(chain, n);
			ev->icount -= n * m->size * TB_ROLLOVER_INSNS;
		}
		if (*work <= 0) {
			done = false;
			break;
		}
	}
	if (!was_readable && tb_emul_readable_locked())
		tb_emul.notify();
	return done;
}

/*
 * A kernel event, in bounded holds of the lock.  No other event may come
 * between the holds of one event (its roll-overs and its message are one
 * entry): a writer that finds an event split counts its own as dropped,
 * like an NMI that finds the lock taken.
 */
static noinline void tb_emul_feed_slow(u32 kind, u32 arg, u32 icount)
{
	struct tracebuf_event ev = { .kind = kind, .arg = arg, .icount = icount };
	unsigned long flags;
	bool own = false, done;
	s64 work;

	if (!tb_emul_on())
		return;
	do {
		if (in_nmi()) {
			if (!raw_spin_trylock_irqsave(&tb_emul.lock, flags))
				goto busy;
		} else {
			raw_spin_lock_irqsave(&tb_emul.lock, flags);
		}
		if (tb_emul_split() && !own) {
			raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
			goto busy;
		}
		/*
		 * In NMI the whole event in one hold: a later trylock could
		 * fail and leave the event split for good.
		 */
		work = in_nmi() ? S64_MAX : TB_EMUL_HOLD_WORK;
		done = !tb_emul_on() || tb_emul_record_locked(&ev, &work);
		tb_emul_set(TB_EMUL_SPLIT, !done);
		own = true;
		raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	} while (!done);
	return;
busy:
	atomic64_add(tb_model_messages_in(&ev), &tb_emul.busy_dropped);
}

/*
 * The feed's sinks' common case, with interrupts off: one hold of the
 * lock in which tb_model_put_fast() stores the entry.  The lock free,
 * capture on and no event split (one test of tb_emul.state), and the
 * entry strictly inside the current half of the buffer: such an entry
 * changes nothing but the bytes and the counts (no arming, no wrap, no
 * full buffer, no chain, no buffer becoming readable), so nothing is
 * called and no register needs saving.  Capture off ends the event here
 * too.  Otherwise false: the caller goes to tb_emul_feed_slow(), from
 * scratch, after the hold.
 *
 * The hold tries the lock's arch_spinlock_t, inline, as the kernel's own
 * trace ring buffer takes it on its per-event path: the same mutual
 * exclusion as raw_spin_lock_irqsave() (preemption is off in a probe
 * already), at a fraction of its instructions, but invisible to lockdep.
 * A busy lock sends the event to tb_emul_feed_slow(), which waits for it
 * in the raw_spinlock_t like every other holder (lockdep checks those);
 * all of them exclude each other on the one arch lock.
 */
static __always_inline bool tb_emul_feed_fast(u32 kind, u32 arg, u32 icount)
{
	arch_spinlock_t *lock = &tb_emul.lock.raw_lock;
	u32 state, done = 0;

	if (likely(arch_spin_trylock(lock))) {
		state = tb_emul.state;
		if (likely(state == TB_EMUL_ON))
			done = tb_model_put_fast(&tb_emul.model, kind, arg,
						 icount);
		else if (!(state & TB_EMUL_ON))
			done = 1;
		arch_spin_unlock(lock);
	}
	return done;
}

/* The feed's sink for any context (feed.h). */
static notrace void tb_emul_feed_event(u32 kind, u32 arg, u32 icount)
{
	unsigned long flags;
	bool done;

	if (unlikely(in_nmi()))
		goto slow;
	local_irq_save(flags);
	done = tb_emul_feed_fast(kind, arg, icount);
	local_irq_restore(flags);
	if (likely(done))
		return;
slow:
	tb_emul_feed_slow(kind, arg, icount);
}

/*
 * The sink of the syscall probes (feed.h): they run in process context
 * with interrupts on and never in NMI, so interrupts are disabled and
 * enabled again rather than saved and restored, and there is no NMI to
 * test for.  The debug kernel checks the first (lockdep); an NMI cannot
 * run a syscall probe.  Every other event goes through
 * tb_emul_feed_event().
 */
static notrace void tb_emul_feed_syscall(u32 kind, u32 arg, u32 icount)
{
	bool done;

	lockdep_assert_irqs_enabled();
	local_irq_disable();
	done = tb_emul_feed_fast(kind, arg, icount);
	local_irq_enable();
	if (likely(done))
		return;
	tb_emul_feed_slow(kind, arg, icount);
}

/*
 * Injected events (write(), process context): bounded holds as for the
 * kernel feed, and a scheduling point between them, so that a write of
 * any size never holds its CPU.
 */
static int tb_emul_inject(const struct tracebuf_event *evs, unsigned int n)
{
	struct tracebuf_event ev;
	bool in_event = false;
	unsigned long flags;
	unsigned int i = 0, k;
	int ret = 0;
	s64 work;

	mutex_lock(&tb_emul.inject_lock);
	while (i < n) {
		raw_spin_lock_irqsave(&tb_emul.lock, flags);
		if (!tb_emul_on()) {
			/* Disabled: refuse up front, drop the rest silently. */
			ret = i || in_event ? 0 : -EBUSY;
			tb_emul_set(TB_EMUL_SPLIT, false);
			raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
			break;
		}
		if (tb_emul_split() && !in_event) {
			/* A kernel event is between two of its holds. */
			raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
			cond_resched();
			continue;
		}
		work = TB_EMUL_HOLD_WORK;
		for (k = 0; i < n && k < TB_INJECT_BATCH && work > 0; k++) {
			if (!in_event)
				ev = evs[i];
			in_event = !tb_emul_record_locked(&ev, &work);
			if (in_event)
				break;
			i++;
		}
		tb_emul_set(TB_EMUL_SPLIT, in_event);
		raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
		cond_resched();
	}
	mutex_unlock(&tb_emul.inject_lock);
	return ret;
}

/*
 * Process context: take the lock where no event is between two of its
 * holds, so that what a control or a reader sees or changes is made of
 * whole entries (the event's writer goes on meanwhile).
 */
static void tb_emul_lock_whole(unsigned long *flags)
{
	for (;;) {
		raw_spin_lock_irqsave(&tb_emul.lock, *flags);
		if (!tb_emul_split())
			return;
		raw_spin_unlock_irqrestore(&tb_emul.lock, *flags);
		cond_resched();
	}
}

static void tb_emul_status(struct tracebuf_status *st)
{
	const struct tb_model *m = &tb_emul.model;
	unsigned long flags;

	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	st->mode = m->mode;
	if (tb_emul_on())
		st->flags |= TRACEBUF_STATUS_ENABLED;
	if (m->full)
		st->flags |= TRACEBUF_STATUS_FULL;
	if (tb_model_wrapped(m))
		st->flags |= TRACEBUF_STATUS_WRAPPED;
	if (tb_feed_counts())
		st->flags |= TRACEBUF_STATUS_COUNTS;
	st->sources = tb_emul.sources.mask;
	st->bytes_written = m->bytes_written;
	st->messages_dropped = m->dropped + atomic64_read(&tb_emul.busy_dropped);
	if (tb_emul.chain) {
		st->flags |= TRACEBUF_STATUS_CHAINED;
		st->chain_saved = tb_emul.chain->saved;
		st->chain_lost = tb_emul.chain->lost;
		st->chain_queued = tb_emul.chain->count;
		st->chain_depth = tb_emul.chain->depth;
	}
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
}

static int tb_emul_set_mode(u32 mode)
{
	unsigned long flags;
	int ret = 0;

	tb_emul_lock_whole(&flags);
	if (tb_emul_on() || tb_emul.chain) {
		ret = -EBUSY;
	} else if (mode != tb_emul.model.mode) {
		/* Like a debugger, start the new mode with a clean buffer. */
		tb_emul.model.mode = mode;
		tb_model_clear(&tb_emul.model);
	}
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return ret;
}

static int tb_emul_enable(bool on)
{
	unsigned long flags;

	tb_emul_lock_whole(&flags);
	tb_emul_set(TB_EMUL_ON, on);
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return 0;
}

static void tb_emul_get_chkpt(struct tracebuf_chkpt *ck)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	ck->chkpt0 = tb_emul.model.chkpt[0];
	ck->chkpt1 = tb_emul.model.chkpt[1];
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
}

static int tb_emul_set_chkpt(const struct tracebuf_chkpt *ck)
{
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	if (tb_emul_on()) {
		ret = -EBUSY;
	} else {
		tb_emul.model.chkpt[0] = ck->chkpt0;
		tb_emul.model.chkpt[1] = ck->chkpt1;
	}
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return ret;
}

static void tb_emul_clear(void)
{
	unsigned long flags;

	tb_emul_lock_whole(&flags);
	tb_model_clear(&tb_emul.model);
	tb_emul.model.dropped = 0;
	atomic64_set(&tb_emul.busy_dropped, 0);
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
}

static u64 tb_emul_snapshot(struct tracebuf_record *rec, u8 *data, bool clear)
{
	struct tb_model *m = &tb_emul.model;
	unsigned long flags;
	u64 written;

	memset(rec, 0, sizeof(*rec));
	rec->magic = TRACEBUF_RECORD_MAGIC;
	rec->version = TRACEBUF_RECORD_VERSION;
	rec->hdr_size = sizeof(*rec);
	rec->buf_size = m->size;

	tb_emul_lock_whole(&flags);
	rec->chkpt0 = m->chkpt[0];
	rec->chkpt1 = m->chkpt[1];
	rec->flags = tb_emul_record_flags(m);
	tb_model_copy(m, data);
	written = m->bytes_written;
	if (clear)
		tb_model_clear(m);
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return written;
}

static int tb_emul_set_sources(const struct tracebuf_sources *src)
{
	unsigned long flags;
	int ret;

	ret = tb_feed_set(src);
	if (ret)
		return ret;
	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	tb_emul.sources = *src;
	if (!src->mask)
		tb_emul.sources.cpu = 0;
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return 0;
}

static void tb_emul_get_sources(struct tracebuf_sources *src)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	*src = tb_emul.sources;
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
}

static int tb_emul_set_chain(u32 depth)
{
	struct tb_chain *new = NULL, *old;
	unsigned long flags;
	int ret = 0;

	if (depth) {
		new = tb_chain_alloc(depth, tb_emul.model.size);
		if (IS_ERR(new))
			return PTR_ERR(new);
	}
	tb_emul_lock_whole(&flags);
	if (tb_emul_on()) {
		ret = -EBUSY;
	} else if (depth && tb_emul.model.mode != TRACEBUF_MODE_FILL_ONCE) {
		ret = -EINVAL;
	} else {
		old = tb_emul.chain;
		tb_emul.chain = new;
		new = old;
		/* The first chained buffer starts empty. */
		tb_model_clear(&tb_emul.model);
	}
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	tb_chain_free(new);
	if (!ret)
		tb_emul.notify();	/* blocked readers see the change */
	return ret;
}

static int tb_emul_pop_record(u8 *out)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	if (!tb_emul.chain)
		ret = -ENODATA;
	else
		ret = tb_chain_pop(tb_emul.chain, out) ? 0 : -EAGAIN;
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return ret;
}

static bool tb_emul_readable(void)
{
	unsigned long flags;
	bool ret;

	raw_spin_lock_irqsave(&tb_emul.lock, flags);
	ret = tb_emul_readable_locked();
	raw_spin_unlock_irqrestore(&tb_emul.lock, flags);
	return ret;
}

static void tb_emul_exit(void)
{
	tb_feed_exit();		/* no probe runs after this */
	tb_emul.state = 0;
	tb_chain_free(tb_emul.chain);
	tb_emul.chain = NULL;
	kvfree(tb_emul.model.buf);
	tb_emul.model.buf = NULL;
}

static struct tb_backend tb_emul_backend = {
	.name		= "emulated",
	.id		= TRACEBUF_BACKEND_EMULATED,
	.exit		= tb_emul_exit,
	.status		= tb_emul_status,
	.set_mode	= tb_emul_set_mode,
	.enable		= tb_emul_enable,
	.get_chkpt	= tb_emul_get_chkpt,
	.set_chkpt	= tb_emul_set_chkpt,
	.clear		= tb_emul_clear,
	.snapshot	= tb_emul_snapshot,
	.inject		= tb_emul_inject,
	.set_sources	= tb_emul_set_sources,
	.get_sources	= tb_emul_get_sources,
	.set_chain	= tb_emul_set_chain,
	.pop_record	= tb_emul_pop_record,
	.readable	= tb_emul_readable,
};

const struct tb_backend *tb_emul_init(tb_notify_fn notify)
{
	u8 *buf;

	if (tb_buf_size < TB_EMUL_MIN_SIZE || tb_buf_size > TB_EMUL_MAX_SIZE ||
	    !is_power_of_2(tb_buf_size)) {
		pr_err("tb_buf_size=%u: must be a power of two from %u to %u\n",
		       tb_buf_size, TB_EMUL_MIN_SIZE, TB_EMUL_MAX_SIZE);
		return ERR_PTR(-EINVAL);
	}
	buf = kvzalloc(tb_buf_size, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	tb_model_init(&tb_emul.model, buf, tb_buf_size);
	tb_emul.state = 0;
	tb_emul.chain = NULL;
	tb_emul.sources.mask = 0;
	tb_emul.sources.cpu = 0;
	atomic64_set(&tb_emul.busy_dropped, 0);
	tb_emul.notify = notify;
	tb_feed_init(tb_emul_feed_event, tb_emul_feed_syscall);
	tb_emul_backend.buf_size = tb_buf_size;
	return &tb_emul_backend;
}
