// SPDX-License-Identifier: GPL-2.0
/*
 * The ring's write path and its block protocol: owning a CPU's ring,
 * reserving room (pages, blocks, TSCWrap, loss reports), the records, and
 * committing them.  Any context, NMI included; no lock.  The design (the
 * page state machine, nesting, the fast path) is at fdr_rings'
 * definition.
 */
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <asm/local64.h>

#include <linux/tracebuf.h>

#include "ring_internal.h"

/* "tracebuf: lost 18446744073709551615 events" fits. */
#define FDR_LOST_TEXT_MAX	48
#define FDR_LOST_SIZE		(FDR_META_SIZE + FDR_LOST_TEXT_MAX)

/*
 * The most one write reserves: a block header, a TSCWrap, a loss report
 * and the largest marker.  A page closes only when a reservation does not
 * fit, so a full ring holds more than FDR_NR_PAGES times a page less this,
 * and every wake-up threshold CONFIG accepts is reached before it is full.
 */
#define FDR_RESERVE_MAX		(FDR_BLOCK_HDR_SIZE + 2 * FDR_META_SIZE + \
				 FDR_LOST_SIZE + TRACEBUF_FDR_MARKER_MAX)
static_assert(FDR_WAKEUP_MAX(TRACEBUF_FDR_BUF_MIN) <= FDR_NR_PAGES *
	      (TRACEBUF_FDR_BUF_MIN / FDR_NR_PAGES - FDR_RESERVE_MAX));

/* An event is lost: count it; the next write reports it in the stream. */
static __always_inline void fdr_drop(struct fdr_cpu *c)
{
	local64_inc(&c->dropped);
	WRITE_ONCE(c->w.gate.lost, 1);
}

/* @n events are lost together (fdr_write_func_typed()). */
static __always_inline void fdr_drop_n(struct fdr_cpu *c, u32 n)
{
	local64_add(n, &c->dropped);
	WRITE_ONCE(c->w.gate.lost, 1);
}

/*
 * Interrupts off: take this CPU's ring.  False when not recording, or when
 * a writer this NMI interrupted holds it (then the write's @events, 0 for
 * one that is no event, are dropped).  An event a frozen ring turns away
 * is counted apart: it is not
 * a loss of the recording (that ended at the freeze) but the caller of
 * STATS must know what the freeze cost.
 */
static __always_inline bool fdr_own(struct fdr_cpu *c, u32 events)
{
	union fdr_gate g = { .word = READ_ONCE(c->w.gate.word) };

	if (unlikely(!g.on)) {
		if (g.frozen && events)
			local64_add(events, &c->frozen);
		return false;
	}
	if (unlikely(g.busy)) {
		if (events)
			fdr_drop_n(c, events);
		return false;
	}
	c->w.gate.busy = 1;
	barrier();	/* own the ring before reading the clock or state */
	return true;
}

static __always_inline struct fdr_cpu *fdr_begin(unsigned long *flags,
						 u32 events)
{
	struct fdr_cpu *c;

	local_irq_save(*flags);
	c = this_cpu_ptr(fdr_rings.cpus);
	if (fdr_own(c, events))
		return c;
	local_irq_restore(*flags);
	return NULL;
}

static __always_inline void fdr_end(struct fdr_cpu *c, unsigned long flags)
{
	fdr_release(c);
	local_irq_restore(flags);
}

/*
 * @bytes more in page @head, @events of them events: everything but the
 * fast path comes here.  Inside @seq, so that fdr_ring_cpu_stats() sees
 * @len and @skew agree.
 */
static __always_inline void fdr_advance(struct fdr_cpu *c, u32 bytes,
					u32 events)
{
	raw_write_seqcount_begin(&c->seq);
	WRITE_ONCE(c->w.len, c->w.len + bytes);
	c->skew += events * FDR_FUNC_SIZE - bytes;
	raw_write_seqcount_end(&c->seq);
}

static __always_inline u64 fdr_lost(struct fdr_cpu *c)
{
	return local64_read(&c->dropped) + c->overwritten - c->reported;
}

/* Where the fast paths stop (fdr_set_limit()). */
static __always_inline s32 fdr_fast_end(struct fdr_cpu *c)
{
	return c->w.func_max + FDR_FUNC_SIZE;
}

/* Bring the open block's BufferExtents up to date (see the top). */
static void fdr_sync_extents(struct fdr_cpu *c)
{
	if (c->w.owner)
		fdr_set_extents(c->w.page + c->block,
				c->w.len - c->block - FDR_META_SIZE);
}

static void fdr_close_block(struct fdr_cpu *c)
{
	fdr_sync_extents(c);
	c->w.owner = NULL;
}

/*
 * Close page @head and move to the next one.  False in streaming mode when
 * the reader has not freed it yet: the caller then drops its event.
 */
bool fdr_write_next_page(struct fdr_cpu *c)
{
	struct fdr_page *pg = &c->pages[c->head & FDR_PAGE_MASK];
	unsigned long next = c->head + 1;
	u32 gone = 0;

	if (fdr_rings.mode == TRACEBUF_FDR_MODE_STREAM) {
		/* Pairs with the reader's release: its copy is done. */
		if (next - smp_load_acquire(&c->tail) >= FDR_NR_PAGES) {
			/*
			 * Full: whatever the threshold, the reader must know.
			 */
			if (!c->full_woken) {
				c->full_woken = true;
				c->due |= FDR_DUE_WAKE;
			}
			return false;
		}
		c->full_woken = false;
	} else if (next - c->tail >= FDR_NR_PAGES &&
		   /*
		    * Pairs with fdr_keep_update(): the reader's copy is done.
		    */
		   smp_load_acquire(&c->keep) == c->tail) {
		/* A snapshot being read still needs the oldest page. */
		return false;
	}
	fdr_close_block(c);
	raw_write_seqcount_begin(&c->seq);
	if (fdr_rings.mode != TRACEBUF_FDR_MODE_STREAM &&
	    next - c->tail >= FDR_NR_PAGES) {
		gone = c->pages[c->tail & FDR_PAGE_MASK].events;
		c->overwritten += gone;
		WRITE_ONCE(c->tail, c->tail + 1);
	}
	pg->len = c->w.len;
	pg->events = fdr_open_events(c);
	c->closed_bytes += c->w.len;
	c->closed_events += pg->events;
	WRITE_ONCE(c->w.len, 0);
	c->skew = 0;
	raw_write_seqcount_end(&c->seq);
	if (gone)
		WRITE_ONCE(c->w.gate.lost, 1);
	/* The wake-up point is counted in bytes across pages. */
	if (fdr_rings.mode == TRACEBUF_FDR_MODE_STREAM)
		c->wake_len = c->wake_len > pg->len ? c->wake_len - pg->len : 1;
	fdr_set_limit(c);
	c->w.page = fdr_page_ptr(c, next);
	/* The page's bytes and length before the reader can see it closed. */
	smp_store_release(&c->head, next);
	/*
	 * And @head before our writes to page @next, whose slot held page @next
	 * - FDR_NR_PAGES: a look (fdr_peek_cpu()) that copied that page reads
	 * @head after the copy to know whether it was reused under it.
	 */
	smp_wmb();
	return true;
}

static void fdr_open_block(struct fdr_cpu *c, struct task_struct *tsk,
			   u64 now)
{
	u8 *p = c->w.page + c->w.len;
	u32 usec;
	u64 sec;

	sec = div_u64_rem(fdr_clock_wall_ns(now), NSEC_PER_SEC, &usec);
	fdr_put_extents(p, 4 * FDR_META_SIZE);
	fdr_put_new_buffer(p + 16, fdr_ring_tid(tsk, c->cpu));
	fdr_put_wallclock(p + 32, sec, usec / NSEC_PER_USEC);
	fdr_put_pid(p + 48, tsk->tgid);
	fdr_put_new_cpu(p + 64, c->cpu, now);
	c->block = c->w.len;
	c->w.owner = tsk;
	fdr_fast_set_base(&c->w, now);
	fdr_advance(c, FDR_BLOCK_HDR_SIZE, 0);
}

static void fdr_put_lost(struct fdr_cpu *c, u64 lost, u64 now)
{
	u8 *p = c->w.page + c->w.len;
	int n;

	BUILD_BUG_ON(sizeof(TRACEBUF_FDR_LOST_PREFIX "18446744073709551615 events") >
		     FDR_LOST_TEXT_MAX);
	n = scnprintf(p + FDR_META_SIZE, FDR_LOST_TEXT_MAX,
		      TRACEBUF_FDR_LOST_FMT, lost);
	fdr_put_custom(p, n, now - fdr_fast_base(&c->w));
	fdr_fast_set_base(&c->w, now);
	c->reported += lost;
	fdr_advance(c, FDR_META_SIZE + n, 0);
}

/*
 * Make room for @len bytes of records by task @tsk in its block, opening a
 * page, a block, a TSCWrap and a loss report as needed.  Returns where the
 * caller writes its records (with deltas from c->base), or NULL to drop.
 * Writers try fdr_fits() or fdr_write_func()'s test first: this is the rest.
 */
static noinline u8 *fdr_reserve_slow(struct fdr_cpu *c,
				     struct task_struct *tsk, u32 len, u64 now)
{
	bool open, wrap;
	u64 lost;
	u32 need;

	if (c->w.owner != tsk)
		fdr_close_block(c);
	for (;;) {
		open = c->w.owner != tsk;
		wrap = !open && now - fdr_fast_base(&c->w) > U32_MAX;
		/*
		 * An NMI's loss after this is flagged again for the next write.
		 */
		WRITE_ONCE(c->w.gate.lost, 0);
		barrier();
		lost = fdr_lost(c);
		need = len;
		if (open)
			need += FDR_BLOCK_HDR_SIZE;
		if (wrap)
			need += FDR_META_SIZE;
		if (lost)
			need += FDR_LOST_SIZE;
		if (c->w.len + need <= fdr_rings.page_size)
			break;
		/*
		 * Cannot happen (pages >= 4 KiB): never spin on an empty page.
		 */
		if (unlikely(!c->w.len) || !fdr_write_next_page(c))
			return NULL;
	}
	if (open) {
		fdr_open_block(c, tsk, now);
	} else if (wrap) {
		fdr_put_tsc_wrap(c->w.page + c->w.len, now);
		fdr_fast_set_base(&c->w, now);
		fdr_advance(c, FDR_META_SIZE, 0);
	}
	if (lost)
		fdr_put_lost(c, lost, now);
	/* A record (not a block opened at a switch) in a window. */
	if (unlikely(c->w.gate.window) && len)
		fdr_ring_window_event(c);
	return c->w.page + c->w.len;
}

/*
 * The common case of a write: @tsk's block is open, the delta fits in 32
 * bits, there is no loss to report and the page has room short of the
 * wake-up point.
 */
static __always_inline bool fdr_fits(struct fdr_cpu *c,
				     struct task_struct *tsk, u32 len, u64 now)
{
	return likely(c->w.owner == tsk && now - fdr_fast_base(&c->w) <= U32_MAX &&
		      (s32)(c->w.len + len) <= fdr_fast_end(c) &&
		      !c->w.gate.pending);
}

/* Streaming: the wake-up point is reached.  Ends the write. */
static noinline void fdr_wake_end(struct fdr_cpu *c, unsigned long flags)
{
	c->wake_len = c->w.len + fdr_rings.wakeup;
	fdr_set_limit(c);
	/*
	 * Never wake from here: sched_switch holds rq locks.  The irq_work
	 * is queued once the ring is given up (fdr_release()).
	 */
	c->due |= FDR_DUE_WAKE;
	fdr_end(c, flags);
}

/*
 * Account @len bytes of records and @events, then end the write.  The
 * wake-up is a tail call, so that the common case calls nothing.
 */
static __always_inline void fdr_commit_end(struct fdr_cpu *c, u32 len,
					   u32 events, unsigned long flags)
{
	fdr_advance(c, len, events);
	/* Streaming only: in flight mode @wake_len is never reached. */
	if (unlikely(c->w.len >= c->wake_len))
		fdr_wake_end(c, flags);
	else
		fdr_end(c, flags);
}

/*
 * Own this CPU's ring and reserve @len bytes of records by current, stamped
 * *@now.  NULL when not recording; otherwise the caller must fdr_end(), and
 * *@p is where it writes, or NULL when the event was dropped (counted).
 */
static __always_inline struct fdr_cpu *fdr_record_begin(unsigned long *flags,
							u32 len, u64 *now,
							u8 **p)
{
	struct fdr_cpu *c = fdr_begin(flags, 1);

	if (!c)
		return NULL;
	*now = fdr_clock_read();
	if (fdr_fits(c, current, len, *now))
		*p = c->w.page + c->w.len;
	else
		*p = fdr_reserve_slow(c, current, len, *now);
	if (unlikely(!*p))
		fdr_drop(c);
	return c;
}

/* Everything but the common case of fdr_write_func(), out of its way. */
static noinline void fdr_write_func_slow(u32 word, unsigned long flags)
{
	struct fdr_cpu *c = this_cpu_ptr(fdr_rings.cpus);
	u64 now;
	u8 *p;

	if (!fdr_own(c, 1)) {
		local_irq_restore(flags);
		return;
	}
	now = fdr_clock_read();
	p = fdr_reserve_slow(c, current, FDR_FUNC_SIZE, now);
	if (unlikely(!p)) {
		fdr_drop(c);
		fdr_end(c, flags);
		return;
	}
	fdr_put_func_word(p, word, now - fdr_fast_base(&c->w));
	fdr_fast_set_base(&c->w, now);
	fdr_commit_end(c, FDR_FUNC_SIZE, 1, flags);
}

/*
 * The hot path of the recorder: every IRQ, softirq and work item comes here,
 * and the syscalls take its common case inline (fdr_write_func_fast()): one
 * gate compare, three tests and five stores, calling nothing, so nothing is
 * saved on the stack; Documentation/performance.rst has its instruction count.
 * notrace: the recorder's own write path is not function-traced, like
 * kernel/trace's ring buffer.
 */
notrace void fdr_write_func(u32 word)
{
	unsigned long flags;

	local_irq_save(flags);
	if (likely(fdr_write_func_fast(word, current)))
		local_irq_restore(flags);
	else
		fdr_write_func_slow(word, flags);
}

/*
 * An entry with @nargs CallArgument records and, if @exit, its exit at the
 * same time.
 */
static void fdr_write_args(u32 id, unsigned int nargs,
			   const unsigned long *args, bool exit)
{
	u32 len = FDR_FUNC_SIZE + nargs * FDR_META_SIZE;
	unsigned long flags;
	struct fdr_cpu *c;
	unsigned int i;
	u64 now;
	u8 *p;

	if (exit)
		len += FDR_FUNC_SIZE;
	c = fdr_record_begin(&flags, len, &now, &p);
	if (!c)
		return;
	if (likely(p)) {
		fdr_put_function(p, id, TRACEBUF_FDR_ENTER_ARGS, now - fdr_fast_base(&c->w));
		fdr_fast_set_base(&c->w, now);
		for (i = 0; i < nargs; i++)
			fdr_put_call_arg(p + FDR_FUNC_SIZE + i * FDR_META_SIZE,
					 args[i]);
		if (exit)
			fdr_put_function(p + len - FDR_FUNC_SIZE, id,
					 TRACEBUF_FDR_EXIT, 0);
		fdr_commit_end(c, len, 1, flags);
		return;
	}
	fdr_end(c, flags);
}

void fdr_write_func_args(u32 id, unsigned int nargs, const unsigned long *args)
{
	fdr_write_args(id, nargs, args, false);
}

/* An event without duration: entry with one argument, exit at once. */
void fdr_write_instant(u32 id, unsigned long arg)
{
	fdr_write_args(id, 1, &arg, true);
}

/*
 * fdr_write_func() for callers that must know whether the record went in:
 * a kernel function's entry, whose exit is written only if it did.
 */
notrace bool fdr_write_func_ok(u32 word)
{
	unsigned long flags;
	struct fdr_cpu *c;
	u64 now;
	u8 *p;

	c = fdr_record_begin(&flags, FDR_FUNC_SIZE, &now, &p);
	if (!c)
		return false;
	if (unlikely(!p)) {
		fdr_end(c, flags);
		return false;
	}
	fdr_put_func_word(p, word, now - fdr_fast_base(&c->w));
	fdr_fast_set_base(&c->w, now);
	fdr_commit_end(c, FDR_FUNC_SIZE, 1, flags);
	return true;
}

/*
 * @n events lost outside the ring (kernel function calls a return probe
 * could not follow): count them on this CPU and report them in its stream
 * now, so that a capture about to stop still says so.  A ring already off
 * (a trigger froze it) takes no record, but the count must still add up.
 */
void fdr_write_lost(u64 n)
{
	unsigned long flags;
	struct fdr_cpu *c;
	u8 *p;

	if (!n)
		return;
	c = fdr_begin(&flags, 0);
	if (!c) {
		local_irq_save(flags);
		local64_add(n, &this_cpu_ptr(fdr_rings.cpus)->dropped);
		local_irq_restore(flags);
		return;
	}
	local64_add(n, &c->dropped);
	p = fdr_reserve_slow(c, current, 0, fdr_clock_read());
	if (p)
		fdr_commit_end(c, 0, 0, flags);
	else
		fdr_end(c, flags);
}

/* The typed event at @p, stamped @now, which becomes the base. */
static __always_inline void fdr_typed_put(struct fdr_cpu *c, u8 *p, u16 type,
					  const void *data, u32 len, u64 now)
{
	fdr_put_typed(p, len, now - fdr_fast_base(&c->w), type);
	fdr_fast_set_base(&c->w, now);
	memcpy(p + FDR_META_SIZE, data, len);
}

void fdr_write_switch(struct task_struct *next, const void *sw, u32 len)
{
	unsigned long flags;
	struct fdr_cpu *c;
	u64 now;
	u8 *p;

	/* The switch itself is an event only when it writes one. */
	c = fdr_begin(&flags, sw ? 1 : 0);
	if (!c)
		return;
	fdr_close_block(c);
	if (!sw) {
		fdr_end(c, flags);
		return;
	}
	if (WARN_ON_ONCE(len > FDR_TYPED_MAX)) {
		fdr_drop(c);
		fdr_end(c, flags);
		return;
	}
	now = fdr_clock_read();
	p = fdr_reserve_slow(c, next, FDR_META_SIZE + len, now);
	if (unlikely(!p)) {
		fdr_drop(c);
		fdr_end(c, flags);
		return;
	}
	fdr_typed_put(c, p, TRACEBUF_FDR_TYPED_SWITCH, sw, len, now);
	fdr_commit_end(c, FDR_META_SIZE + len, 1, flags);
}

bool fdr_write_marker(const void *data, u32 len)
{
	unsigned long flags;
	struct fdr_cpu *c;
	u64 now;
	u8 *p;

	c = fdr_record_begin(&flags, FDR_META_SIZE + len, &now, &p);
	if (!c)
		return false;
	if (likely(p)) {
		fdr_put_custom(p, len, now - fdr_fast_base(&c->w));
		fdr_fast_set_base(&c->w, now);
		memcpy(p + FDR_META_SIZE, data, len);
		fdr_commit_end(c, FDR_META_SIZE + len, 1, flags);
		return true;
	}
	fdr_end(c, flags);
	return true;
}

/*
 * fdr_write_typed() and fdr_write_func_typed() (@word 0: no function
 * record; no valid id is 0).  Small: a switch's, a wake-up's or an error's
 * facts, so the bound is a sanity check.
 */
static void fdr_write_typed_after(u32 word, u16 type, const void *data,
				  u32 len)
{
	u32 func = word ? FDR_FUNC_SIZE : 0;
	u32 events = word ? 2 : 1;
	u32 size = func + FDR_META_SIZE + len;
	unsigned long flags;
	struct fdr_cpu *c;
	u64 now;
	u8 *p;

	BUILD_BUG_ON(FDR_FUNC_SIZE + FDR_TYPED_MAX > TRACEBUF_FDR_MARKER_MAX);
	if (WARN_ON_ONCE(len > FDR_TYPED_MAX))
		return;
	c = fdr_begin(&flags, events);
	if (!c)
		return;
	now = fdr_clock_read();
	if (fdr_fits(c, current, size, now))
		p = c->w.page + c->w.len;
	else
		p = fdr_reserve_slow(c, current, size, now);
	if (unlikely(!p)) {
		fdr_drop_n(c, events);
		fdr_end(c, flags);
		return;
	}
	if (word) {
		fdr_put_func_word(p, word, now - fdr_fast_base(&c->w));
		fdr_fast_set_base(&c->w, now);
	}
	fdr_typed_put(c, p + func, type, data, len, now);
	fdr_commit_end(c, size, events, flags);
}

void fdr_write_typed(u16 type, const void *data, u32 len)
{
	fdr_write_typed_after(0, type, data, len);
}

void fdr_write_func_typed(u32 word, u16 type, const void *data, u32 len)
{
	fdr_write_typed_after(word, type, data, len);
}
