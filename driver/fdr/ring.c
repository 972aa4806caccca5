// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU rings of XRay FDR blocks.
 *
 * Layout.  Each possible CPU owns a buffer of TRACEBUF_FDR_PAGES equal
 * sub-buffers ("pages", buf_size / 16 bytes each).  A page holds whole FDR
 * blocks only: a block never crosses a page, so any run of consecutive
 * pages is a valid piece of an FDR file and the reader never has to parse
 * records.  Pages are numbered by a 64-bit sequence: @head is the page
 * being filled, pages @tail..@head-1 are closed (final length in
 * pages[seq % 16]), and page @head holds @len bytes so far.
 *
 * Blocks.  A block is BufferExtents, NewBuffer(tid), WallClockTime,
 * PIDEntry(tgid), NewCPUId(cpu, time), then records, and belongs to one
 * task (@owner) on this CPU.  A block is open while @owner is set; every
 * write checks that @owner is the writing task and otherwise opens a new
 * block first, so a block can never mix tasks whatever the order of
 * sched_switch and nested events.  sched_switch closes the block (and with
 * the SCHED class opens the next task's block at once, to show when it was
 * switched in); a full page closes it too, and the task continues in a new
 * block at the start of the next page.  The BufferExtents length of the
 * open block is brought up to date only when it closes (which every page
 * close does first): readers see an open block only through a snapshot,
 * which sends its BufferExtents as it was when taken, so the write path
 * saves a store to the block header per event.
 *
 * Time.  Records carry 32-bit deltas, in the capture's clock (fdr_clock.c),
 * from @base, the time of the previous record; NewCPUId sets @base, and a
 * TSCWrap is written when a delta would not fit in 32 bits.  The time is
 * read after the writer owns the CPU's ring (see below), so times are in
 * record order.
 *
 * Page state machine (per CPU):
 *
 *   filling(head) --page full / flush--> closed, head+1 becomes filling
 *       flight mode:    if that reuses the oldest page, tail+1 and the
 *                       oldest page's events count as overwritten;
 *                       unless a snapshot still holds it (@keep == tail):
 *                       then stay and drop as streaming mode does
 *       streaming mode: only if the reader has freed it (head+1-tail < 16);
 *                       otherwise stay on the current page and drop what
 *                       does not fit (counted as dropped)
 *   closed(tail) --reader copied it--> free, tail+1 (streaming only)
 *
 * Writers and nesting.  A writer disables interrupts, then takes the CPU's
 * ring by setting @gate.busy.  With interrupts off only an NMI can run in
 * the middle of a write; an NMI writer that finds it set drops its event
 * and counts it (local64, safe against the interrupted writer).  Readers
 * that must see a consistent CPU (a snapshot, a flush) do it from an IPI
 * on that CPU, which cannot land inside a write.  Losses are reported in
 * the stream itself: every loss sets @gate.lost, and the next write on the
 * CPU first adds a CustomEventMarker "tracebuf: lost N events" there.
 *
 * The fast path (fdr_write_func_fast(), in fdr_ring.h so that the syscall
 * probes inline it).  @gate holds every condition that sends a write the
 * long way as one byte each, so it tests them with one compare; then its
 * task's block must be open, the page must have room short of the wake-up
 * point (@func_max) and the time must share the upper 32 bits of @base
 * (so the delta fits).  Everything else, opening pages and blocks,
 * TSCWrap, loss reports, waking the reader, is fdr_reserve_slow() and
 * friends.  Per event the fast path stores the record, the lower half of
 * @base and @len, and nothing else: its records are all one event of
 * FDR_FUNC_SIZE bytes, so the page's event count is kept as @skew, which
 * only the other writers change (fdr_advance()).  The counters of closed
 * pages are summed at page close, inside @seq, for fdr_ring_cpu_stats().
 *
 * Readers (under fdr_lock): streaming readers copy closed pages and free
 * them with a release store of @tail, pairing with the writer's acquire;
 * the writer publishes a closed page with a release store of @head.
 * Flight-recorder snapshots copy nothing: each holds the pages it covers
 * (@keep, the oldest page any holder needs) and the file reads them from
 * the ring, releasing them page by page with a store of @keep that pairs
 * with the writer's acquire the same way.  A streaming file that mapped
 * the rings (fdr_mmap.c) borrows closed pages instead of copying them:
 * they stay at @tail..@lend_end-1 until it gives them back with the same
 * release store of @tail.  "Reading" below has the rest.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/local64.h>

#include <linux/tracebuf.h>

#include "fdr.h"
#include "ring.h"

#define FDR_NR_PAGES		TRACEBUF_FDR_PAGES
#define FDR_PAGE_MASK		(FDR_NR_PAGES - 1)
#define FDR_KEEP_NONE		ULONG_MAX

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

struct fdr_cpu __percpu *fdr_cpus;
DECLARE_WAIT_QUEUE_HEAD(fdr_ring_wq);

/* Files holding a flight-recorder snapshot (fdr_lock). */
static LIST_HEAD(fdr_holders);

/* Set while stopped, read by writers. */
static u32 fdr_buf_size;
static u32 fdr_page_size;
static u32 fdr_mode;
static u32 fdr_wakeup;

static inline u8 *fdr_page_ptr(struct fdr_cpu *c, unsigned long seq)
{
	return c->data + (size_t)(seq & FDR_PAGE_MASK) * fdr_page_size;
}

/* ------------------------------------------------------------ write path */

/* An event is lost: count it; the next write reports it in the stream. */
static __always_inline void fdr_drop(struct fdr_cpu *c)
{
	local64_inc(&c->dropped);
	WRITE_ONCE(c->gate.lost, 1);
}

/*
 * Interrupts off: take this CPU's ring.  False when not recording, or when
 * a writer this NMI interrupted holds it (then the event is dropped if it
 * @counts).  An event a frozen ring turns away is counted apart: it is not
 * a loss of the recording (that ended at the freeze) but the caller of
 * STATS must know what the freeze cost.
 */
static __always_inline bool fdr_own(struct fdr_cpu *c, bool counts)
{
	union fdr_gate g = { .word = READ_ONCE(c->gate.word) };

	if (unlikely(!g.on)) {
		if (g.frozen && counts)
			local64_inc(&c->frozen);
		return false;
	}
	if (unlikely(g.busy)) {
		if (counts)
			fdr_drop(c);
		return false;
	}
	c->gate.busy = 1;
	barrier();	/* own the ring before reading the clock or state */
	return true;
}

static __always_inline struct fdr_cpu *fdr_begin(unsigned long *flags,
						 bool counts)
{
	struct fdr_cpu *c;

	local_irq_save(*flags);
	c = this_cpu_ptr(fdr_cpus);
	if (fdr_own(c, counts))
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
 * Events in page @head.  The writer's own view, or a reader's inside @seq
 * (fdr_advance()): a fast write changes @len alone, by one event.
 */
static inline u32 fdr_open_events(const struct fdr_cpu *c)
{
	return (READ_ONCE(c->len) + READ_ONCE(c->skew)) / FDR_FUNC_SIZE;
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
	WRITE_ONCE(c->len, c->len + bytes);
	c->skew += events * FDR_FUNC_SIZE - bytes;
	raw_write_seqcount_end(&c->seq);
}

static __always_inline u64 fdr_lost(struct fdr_cpu *c)
{
	return local64_read(&c->dropped) + c->overwritten - c->reported;
}

/*
 * The fast paths stop short of the page end and of the reader's wake-up
 * point (@wake_len >= 1), so that they never test for either: a record
 * ending at or before fdr_fast_end() takes them.  @func_max keeps it in the
 * form fdr_write_func() tests with the fewest instructions.
 */
static __always_inline s32 fdr_fast_end(struct fdr_cpu *c)
{
	return c->func_max + FDR_FUNC_SIZE;
}

static void fdr_set_limit(struct fdr_cpu *c)
{
	c->func_max = (s32)min(fdr_page_size, c->wake_len - 1) - FDR_FUNC_SIZE;
}

/* Bring the open block's BufferExtents up to date (see the top). */
static void fdr_sync_extents(struct fdr_cpu *c)
{
	if (c->owner)
		fdr_set_extents(c->page + c->block,
				c->len - c->block - FDR_META_SIZE);
}

static void fdr_close_block(struct fdr_cpu *c)
{
	fdr_sync_extents(c);
	c->owner = NULL;
}

/*
 * Close page @head and move to the next one.  False in streaming mode when
 * the reader has not freed it yet: the caller then drops its event.
 */
static bool fdr_next_page(struct fdr_cpu *c)
{
	struct fdr_page *pg = &c->pages[c->head & FDR_PAGE_MASK];
	unsigned long next = c->head + 1;
	u32 gone = 0;

	if (fdr_mode == TRACEBUF_FDR_MODE_STREAM) {
		/* Pairs with the reader's release: its copy is done. */
		if (next - smp_load_acquire(&c->tail) >= FDR_NR_PAGES) {
			/* Full: whatever the threshold, the reader must know. */
			if (!c->full_woken) {
				c->full_woken = true;
				irq_work_queue(&c->wake);
			}
			return false;
		}
		c->full_woken = false;
	} else if (next - c->tail >= FDR_NR_PAGES &&
		   /* Pairs with fdr_keep_update(): the reader's copy is done. */
		   smp_load_acquire(&c->keep) == c->tail) {
		/* A snapshot being read still needs the oldest page. */
		return false;
	}
	fdr_close_block(c);
	raw_write_seqcount_begin(&c->seq);
	if (fdr_mode != TRACEBUF_FDR_MODE_STREAM &&
	    next - c->tail >= FDR_NR_PAGES) {
		gone = c->pages[c->tail & FDR_PAGE_MASK].events;
		c->overwritten += gone;
		WRITE_ONCE(c->tail, c->tail + 1);
	}
	pg->len = c->len;
	pg->events = fdr_open_events(c);
	c->closed_bytes += c->len;
	c->closed_events += pg->events;
	WRITE_ONCE(c->len, 0);
	c->skew = 0;
	raw_write_seqcount_end(&c->seq);
	if (gone)
		WRITE_ONCE(c->gate.lost, 1);
	/* The wake-up point is counted in bytes across pages. */
	if (fdr_mode == TRACEBUF_FDR_MODE_STREAM)
		c->wake_len = c->wake_len > pg->len ? c->wake_len - pg->len : 1;
	fdr_set_limit(c);
	c->page = fdr_page_ptr(c, next);
	/* The page's bytes and length before the reader can see it closed. */
	smp_store_release(&c->head, next);
	return true;
}

static inline s32 fdr_tid(struct task_struct *tsk, unsigned int cpu)
{
	if (is_idle_task(tsk))
		return TRACEBUF_FDR_IDLE_TID(cpu);
	return tsk->pid;
}

static void fdr_open_block(struct fdr_cpu *c, struct task_struct *tsk,
			   u64 now)
{
	u8 *p = c->page + c->len;
	u32 usec;
	u64 sec;

	sec = div_u64_rem(fdr_clock_wall_ns(now), NSEC_PER_SEC, &usec);
	fdr_put_extents(p, 4 * FDR_META_SIZE);
	fdr_put_new_buffer(p + 16, fdr_tid(tsk, c->cpu));
	fdr_put_wallclock(p + 32, sec, usec / NSEC_PER_USEC);
	fdr_put_pid(p + 48, tsk->tgid);
	fdr_put_new_cpu(p + 64, c->cpu, now);
	c->block = c->len;
	c->owner = tsk;
	fdr_set_base(c, now);
	fdr_advance(c, FDR_BLOCK_HDR_SIZE, 0);
}

static void fdr_put_lost(struct fdr_cpu *c, u64 lost, u64 now)
{
	u8 *p = c->page + c->len;
	int n;

	BUILD_BUG_ON(sizeof(TRACEBUF_FDR_LOST_PREFIX "18446744073709551615 events") >
		     FDR_LOST_TEXT_MAX);
	n = scnprintf(p + FDR_META_SIZE, FDR_LOST_TEXT_MAX,
		      TRACEBUF_FDR_LOST_FMT, lost);
	fdr_put_custom(p, n, now - fdr_base(c));
	fdr_set_base(c, now);
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

	if (c->owner != tsk)
		fdr_close_block(c);
	for (;;) {
		open = c->owner != tsk;
		wrap = !open && now - fdr_base(c) > U32_MAX;
		/* An NMI's loss after this is flagged again for the next write. */
		WRITE_ONCE(c->gate.lost, 0);
		barrier();
		lost = fdr_lost(c);
		need = len;
		if (open)
			need += FDR_BLOCK_HDR_SIZE;
		if (wrap)
			need += FDR_META_SIZE;
		if (lost)
			need += FDR_LOST_SIZE;
		if (c->len + need <= fdr_page_size)
			break;
		/* Cannot happen (pages >= 4 KiB): never spin on an empty page. */
		if (unlikely(!c->len) || !fdr_next_page(c))
			return NULL;
	}
	if (open) {
		fdr_open_block(c, tsk, now);
	} else if (wrap) {
		fdr_put_tsc_wrap(c->page + c->len, now);
		fdr_set_base(c, now);
		fdr_advance(c, FDR_META_SIZE, 0);
	}
	if (lost)
		fdr_put_lost(c, lost, now);
	/* A record (not a block opened at a switch) in a trigger's window. */
	if (unlikely(c->gate.window) && len)
		fdr_trig_window_event();
	return c->page + c->len;
}

/*
 * The common case of a write: @tsk's block is open, the delta fits in 32
 * bits, there is no loss to report and the page has room short of the
 * wake-up point.
 */
static __always_inline bool fdr_fits(struct fdr_cpu *c,
				     struct task_struct *tsk, u32 len, u64 now)
{
	return likely(c->owner == tsk && now - fdr_base(c) <= U32_MAX &&
		      (s32)(c->len + len) <= fdr_fast_end(c) &&
		      !c->gate.pending);
}

/* Streaming: the wake-up point is reached.  Ends the write. */
static noinline void fdr_wake_end(struct fdr_cpu *c, unsigned long flags)
{
	c->wake_len = c->len + fdr_wakeup;
	fdr_set_limit(c);
	/* Never wake from here: sched_switch holds rq locks. */
	irq_work_queue(&c->wake);
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
	if (unlikely(c->len >= c->wake_len))
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
	struct fdr_cpu *c = fdr_begin(flags, true);

	if (!c)
		return NULL;
	*now = fdr_clock_read();
	if (fdr_fits(c, current, len, *now))
		*p = c->page + c->len;
	else
		*p = fdr_reserve_slow(c, current, len, *now);
	if (unlikely(!*p))
		fdr_drop(c);
	return c;
}

/* Everything but the common case of fdr_write_func(), out of its way. */
static noinline void fdr_write_func_slow(u32 word, unsigned long flags)
{
	struct fdr_cpu *c = this_cpu_ptr(fdr_cpus);
	u64 now;
	u8 *p;

	if (!fdr_own(c, true)) {
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
	fdr_put_func_word(p, word, now - fdr_base(c));
	fdr_set_base(c, now);
	fdr_commit_end(c, FDR_FUNC_SIZE, 1, flags);
}

/*
 * The hot path of the recorder: every IRQ, softirq and work item comes
 * here, and the syscalls take its common case inline (fdr_ring.h): one
 * gate compare, three tests and five stores, calling nothing, so nothing
 * is saved on the stack; Documentation/performance.rst has its
 * instruction count.  notrace: the recorder's own write path is not
 * function-traced, like kernel/trace's ring buffer.
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
		fdr_put_function(p, id, FDR_F_ENTER_ARGS, now - fdr_base(c));
		fdr_set_base(c, now);
		for (i = 0; i < nargs; i++)
			fdr_put_call_arg(p + FDR_FUNC_SIZE + i * FDR_META_SIZE,
					 args[i]);
		if (exit)
			fdr_put_function(p + len - FDR_FUNC_SIZE, id,
					 FDR_F_EXIT, 0);
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
	fdr_put_func_word(p, word, now - fdr_base(c));
	fdr_set_base(c, now);
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
	c = fdr_begin(&flags, false);
	if (!c) {
		local_irq_save(flags);
		local64_add(n, &this_cpu_ptr(fdr_cpus)->dropped);
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

void fdr_write_switch(struct task_struct *next, bool open_block)
{
	unsigned long flags;
	struct fdr_cpu *c;

	c = fdr_begin(&flags, false);
	if (!c)
		return;
	fdr_close_block(c);
	if (open_block && fdr_reserve_slow(c, next, 0, fdr_clock_read())) {
		fdr_commit_end(c, 0, 0, flags);
		return;
	}
	fdr_end(c, flags);
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
		fdr_put_custom(p, len, now - fdr_base(c));
		fdr_set_base(c, now);
		memcpy(p + FDR_META_SIZE, data, len);
		fdr_commit_end(c, FDR_META_SIZE + len, 1, flags);
		return true;
	}
	fdr_end(c, flags);
	return true;
}

static void fdr_wake(struct irq_work *work)
{
	wake_up_interruptible(&fdr_ring_wq);
}

/* ------------------------------------------------------------ set-up */

bool fdr_ring_allocated(void)
{
	return fdr_buf_size != 0;
}

void fdr_ring_free(void)
{
	struct fdr_reader *rd, *tmp;
	int cpu;

	fdr_crash_rings_gone();
	/* No snapshot may hold pages of a ring that is gone. */
	list_for_each_entry_safe(rd, tmp, &fdr_holders, holders)
		list_del_init(&rd->holders);
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		kvfree(c->data);
		kfree(c->pages);
		c->data = NULL;
		c->pages = NULL;
	}
	fdr_buf_size = 0;
	fdr_page_size = 0;
}

/*
 * The buffers are charged to the memory cgroup of the caller (CONFIG or
 * the first START), and a request larger than what can be had fails with
 * ENOMEM instead of waking the OOM killer (__GFP_RETRY_MAYFAIL).
 */
#define FDR_RING_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

int fdr_ring_alloc(u32 size)
{
	int cpu;

	if (size == fdr_buf_size)
		return 0;
	fdr_ring_free();
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		c->data = kvmalloc_node(size, FDR_RING_GFP, cpu_to_node(cpu));
		c->pages = kcalloc_node(FDR_NR_PAGES, sizeof(*c->pages),
					FDR_RING_GFP, cpu_to_node(cpu));
		if (!c->data || !c->pages) {
			fdr_ring_free();
			return -ENOMEM;
		}
	}
	fdr_buf_size = size;
	fdr_page_size = size / FDR_NR_PAGES;
	/* Rings a crash image could not find are refused as any ENOMEM. */
	if (fdr_crash_rings()) {
		fdr_ring_free();
		return -ENOMEM;
	}
	return 0;
}

void fdr_ring_reset(u32 mode, u32 wakeup)
{
	struct fdr_reader *rd, *tmp;
	int cpu;

	/* Snapshots of the capture being discarded hold nothing now. */
	list_for_each_entry_safe(rd, tmp, &fdr_holders, holders)
		list_del_init(&rd->holders);

	fdr_mode = mode;
	fdr_wakeup = wakeup;
	fdr_clock_select();
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		c->head = 0;
		c->tail = 0;
		c->len = 0;
		c->page = c->data;
		c->skew = 0;
		c->owner = NULL;
		c->reported = 0;
		c->wake_len = mode == TRACEBUF_FDR_MODE_STREAM ? wakeup : U32_MAX;
		fdr_set_limit(c);
		c->closed_events = 0;
		c->closed_bytes = 0;
		c->overwritten = 0;
		local64_set(&c->dropped, 0);
		local64_set(&c->frozen, 0);
		c->keep = FDR_KEEP_NONE;
		c->full_woken = false;
		c->rd_off = 0;
		c->rd_owner = NULL;
		c->lend_owner = NULL;
		c->gate.word = 0;
		c->gate.slow_clock = !fdr_clock_is_tsc;
		if (c->pages)
			memset(c->pages, 0, FDR_NR_PAGES * sizeof(*c->pages));
	}
}

void fdr_ring_set_on(bool on)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		WRITE_ONCE(c->gate.on, on && fdr_buf_size);
		WRITE_ONCE(c->gate.frozen, 0);
	}
}

/*
 * Any context: stop every writer (a trigger's freeze, the panic).  Writes
 * under way finish; the ones after it are counted (fdr_own());
 * fdr_ring_set_on() lets writers in again or stops counting.
 */
void fdr_ring_stop_writers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		/* Before @on: a writer that finds it off counts. */
		WRITE_ONCE(c->gate.frozen, 1);
		WRITE_ONCE(c->gate.on, 0);
	}
}

/* Events turned away by frozen rings since START, all CPUs. */
u64 fdr_ring_frozen(void)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += local64_read(&per_cpu_ptr(fdr_cpus, cpu)->frozen);
	return n;
}

/* Any context: send every write through fdr_trig_window_event(), or not. */
void fdr_ring_window(bool open)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(fdr_cpus, cpu)->gate.window, open);
}

void fdr_ring_quiesce(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(fdr_cpus, cpu)->wake);
}

void fdr_ring_cpu_stats(unsigned int cpu, struct tracebuf_fdr_cpu_stats *out)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&c->seq);
		out->written = c->closed_events + fdr_open_events(c);
		out->overwritten = c->overwritten;
		out->bytes = c->closed_bytes + READ_ONCE(c->len);
	} while (read_seqcount_retry(&c->seq, seq));
	out->dropped = local64_read(&c->dropped);
}

int fdr_ring_init(void)
{
	int cpu;

	fdr_cpus = alloc_percpu(struct fdr_cpu);
	if (!fdr_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		c->cpu = cpu;
		seqcount_init(&c->seq);
		local64_set(&c->dropped, 0);
		local64_set(&c->frozen, 0);
		init_irq_work(&c->wake, fdr_wake);
	}
	return 0;
}

void fdr_ring_exit(void)
{
	fdr_ring_free();
	free_percpu(fdr_cpus);
}

/* ------------------------------------------------------------ crash */

u32 fdr_ring_size(void)
{
	return fdr_buf_size;
}

/* The buffer of @cpu, fdr_ring_size() bytes, for crash.c's frame tables. */
const u8 *fdr_ring_data(unsigned int cpu)
{
	return fdr_buf_size ? per_cpu_ptr(fdr_cpus, cpu)->data : NULL;
}

/*
 * Panic: write @msg as this CPU's last event, keep every writer out, and
 * publish each CPU's positions in @out (nr_cpu_ids entries).  The other
 * CPUs are stopped, maybe in the middle of a write: their rings are only
 * read, and a CPU found inside a write is marked torn, for the reader to
 * drop its last record.  Rings a trigger froze (an oops trigger, then
 * oops=panic) still take the panic message on this CPU, after the
 * trigger's events: nobody else writes any more.  @lost events lost
 * outside the ring and not reported yet go in just before it.
 */
void fdr_ring_freeze(const char *msg, u32 len, u64 lost,
		     struct tracebuf_crash_cpu *out)
{
	unsigned int self = raw_smp_processor_id();
	bool wrote;
	int cpu, i;

	WRITE_ONCE(this_cpu_ptr(fdr_cpus)->gate.on, fdr_buf_size != 0);
	fdr_write_lost(lost);
	wrote = fdr_write_marker(msg, len);

	fdr_ring_stop_writers();
	smp_mb();	/* writers are out before their positions are read */
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
		struct tracebuf_crash_cpu *o = &out[cpu];

		o->head = READ_ONCE(c->head);
		o->tail = READ_ONCE(c->tail);
		o->len = READ_ONCE(c->len);
		o->block = READ_ONCE(c->owner) ? c->block : TRACEBUF_CRASH_NO_BLOCK;
		o->flags = 0;
		if (READ_ONCE(c->gate.busy))
			o->flags |= TRACEBUF_CRASH_CPU_TORN;
		if (cpu == self && wrote)
			o->flags |= TRACEBUF_CRASH_CPU_PANIC;
		for (i = 0; i < FDR_NR_PAGES; i++)
			o->page_len[i] = c->pages ? c->pages[i].len : 0;
	}
}

/* ------------------------------------------------------------ reading */

/*
 * Copy @n bytes at @off of page @seq of @c to @dst.  The FDR_META_SIZE
 * bytes at @patch_at, when inside, come from @patch instead: the open
 * block's BufferExtents as it was when a snapshot was taken (the writer
 * rewrites it when the block closes).
 */
static int fdr_copy_out(char __user *dst, struct fdr_cpu *c, unsigned long seq,
			u32 off, u32 n, u32 patch_at, const u8 *patch)
{
	const u8 *page = fdr_page_ptr(c, seq);
	u32 end = off + n;

	while (off < end) {
		const u8 *from = page + off;
		u32 stop = end;

		if (off < patch_at) {
			stop = min(end, patch_at);
		} else if (off < patch_at + FDR_META_SIZE) {
			stop = min(end, patch_at + FDR_META_SIZE);
			from = patch + (off - patch_at);
		}
		if (copy_to_user(dst, from, stop - off))
			return -EFAULT;
		dst += stop - off;
		off = stop;
	}
	return 0;
}

/* ------------------------------------------------------------ snapshot */

/*
 * Recompute @cpu's @keep: the oldest page any holder still needs.  The
 * release pairs with fdr_next_page()'s acquire: our copies of the pages
 * below it are done before a writer reuses them.
 */
/* This CPU's part of a snapshot is read (sequence numbers may wrap). */
static bool fdr_snap_cpu_done(const struct fdr_snap_cpu *s)
{
	return (long)(s->next - s->end) > 0;
}

static void fdr_keep_update(unsigned int cpu)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
	unsigned long keep = FDR_KEEP_NONE;
	struct fdr_reader *rd;

	/* Holders need pages at or after @tail: the oldest is the nearest. */
	list_for_each_entry(rd, &fdr_holders, holders) {
		const struct fdr_snap_cpu *s = &rd->snap[cpu];

		if (!fdr_snap_cpu_done(s) &&
		    (keep == FDR_KEEP_NONE || s->next - c->tail < keep - c->tail))
			keep = s->next;
	}
	/* Our copies are done before a writer may reuse those pages. */
	smp_store_release(&c->keep, keep);
}

struct fdr_hold_req {
	struct fdr_cpu *c;
	struct fdr_snap_cpu *s;
};

static void fdr_hold_ipi(void *info)
{
	struct fdr_hold_req *r = info;
	struct fdr_cpu *c = r->c;
	struct fdr_snap_cpu *s = r->s;

	/*
	 * On c's CPU with interrupts off, or with c's CPU offline or not
	 * recording: no writer is inside.  Keep NMI writers out as a writer
	 * does, so that @len and the open block agree.
	 */
	c->gate.busy = 1;
	barrier();
	s->next = c->tail;
	s->end = c->head;
	s->open_len = c->len;
	s->open_block = c->owner ? c->block : FDR_NO_BLOCK;
	s->open_ext = c->len - c->block - FDR_META_SIZE;
	if (s->next == s->end && !s->open_len) {
		s->next = s->end + 1;		/* nothing recorded here */
	} else {
		/* Every holder's pages are at or after @tail: this is the min. */
		WRITE_ONCE(c->keep, s->next);
	}
	barrier();
	WRITE_ONCE(c->gate.busy, 0);
}

bool fdr_snap_held(const struct fdr_reader *rd)
{
	return !list_empty(&rd->holders);
}

void fdr_snap_release(struct fdr_reader *rd)
{
	int cpu;

	if (!fdr_snap_held(rd))
		return;
	list_del_init(&rd->holders);
	for_each_possible_cpu(cpu)
		fdr_keep_update(cpu);
}

/*
 * Take a snapshot for @rd: on each CPU in turn, note the pages tail..head
 * and how much of the open page is written, and keep writers from reusing
 * them until @rd has read them.  Nothing is copied: the reader reads the
 * ring itself, and the recording goes on into the pages nobody holds.
 */
void fdr_snap_take(struct fdr_reader *rd)
{
	struct fdr_hold_req r;
	int cpu;

	fdr_snap_release(rd);
	rd->cpu = cpumask_first(cpu_possible_mask);
	rd->off = 0;
	if (!fdr_buf_size) {
		rd->cpu = nr_cpu_ids;		/* nothing was ever recorded */
		return;
	}
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		r.c = per_cpu_ptr(fdr_cpus, cpu);
		r.s = &rd->snap[cpu];
		if (READ_ONCE(r.c->gate.on) && cpu_online(cpu))
			smp_call_function_single(cpu, fdr_hold_ipi, &r, 1);
		else
			fdr_hold_ipi(&r);
	}
	cpus_read_unlock();
	list_add(&rd->holders, &fdr_holders);
}

/*
 * Copy the snapshot @rd holds, CPU after CPU, page after page, each page
 * from where the previous read stopped.  Returns 0 once everything was
 * read, and then lets go of the pages.
 */
ssize_t fdr_snap_read(struct fdr_reader *rd, char __user *buf, size_t count)
{
	u8 patch[FDR_META_SIZE];
	size_t done = 0;

	if (!fdr_snap_held(rd))
		return 0;	/* read to its end, or its ring is gone */
	while (done < count && rd->cpu < nr_cpu_ids) {
		struct fdr_snap_cpu *s = &rd->snap[rd->cpu];
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, rd->cpu);
		u32 len, n, patch_at = FDR_NO_BLOCK;

		if (fdr_snap_cpu_done(s)) {
			rd->cpu = cpumask_next(rd->cpu, cpu_possible_mask);
			rd->off = 0;
			continue;
		}
		if (s->next == s->end) {
			len = s->open_len;
			if (s->open_block != FDR_NO_BLOCK) {
				patch_at = s->open_block;
				fdr_put_extents(patch, s->open_ext);
			}
		} else {
			len = c->pages[s->next & FDR_PAGE_MASK].len;
		}
		n = min_t(size_t, len - rd->off, count - done);
		if (fdr_copy_out(buf + done, c, s->next, rd->off, n, patch_at,
				 patch))
			return done ? done : -EFAULT;
		done += n;
		rd->off += n;
		if (rd->off < len)
			break;
		rd->off = 0;
		s->next++;
		fdr_keep_update(rd->cpu);
	}
	if (rd->cpu >= nr_cpu_ids)
		fdr_snap_release(rd);
	return done;
}

/* ------------------------------------------------------------ streaming */

/*
 * Copy closed pages of @c to @buf + *@done, up to @count.  Returns 1 when
 * the copy stopped inside a page: @rd then owns the rest of it and must
 * read it before anything else, or blocks of two CPUs would be spliced.
 */
static int fdr_stream_copy(struct fdr_cpu *c, struct fdr_reader *rd,
			   char __user *buf, size_t count, size_t *done)
{
	/* Pairs with fdr_next_page()'s release of a closed page. */
	while (*done < count && c->tail != smp_load_acquire(&c->head)) {
		u32 len = c->pages[c->tail & FDR_PAGE_MASK].len;
		size_t n = min_t(size_t, len - c->rd_off, count - *done);

		if (fdr_copy_out(buf + *done, c, c->tail, c->rd_off, n,
				 FDR_NO_BLOCK, NULL))
			return -EFAULT;
		*done += n;
		c->rd_off += n;
		if (c->rd_off < len) {
			c->rd_owner = rd;
			rd->cpu = c->cpu;
			return 1;
		}
		if (c->rd_owner) {
			/* Peers skipped this CPU while we owned the page. */
			c->rd_owner = NULL;
			rd->cpu = -1;
			wake_up_interruptible_all(&fdr_ring_wq);
		}
		c->rd_off = 0;
		/* Our copy is done before the writer reuses the page. */
		smp_store_release(&c->tail, c->tail + 1);
	}
	return 0;
}

ssize_t fdr_stream_read(struct fdr_reader *rd, char __user *buf, size_t count)
{
	size_t done = 0;
	int cpu, ret = 0;

	if (!fdr_buf_size)
		return 0;
	/* A file that reads with read() is done with its mapped pages. */
	for_each_possible_cpu(cpu)
		fdr_stream_lend(rd, cpu, false, true, NULL);
	/* First the rest of the page this file is partway through. */
	if (rd->cpu >= 0) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, rd->cpu);

		if (c->rd_owner != rd)
			rd->cpu = -1;	/* a reset took it away */
		else
			ret = fdr_stream_copy(c, rd, buf, count, &done);
	}
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		if (ret || done == count)
			break;
		if (c->rd_owner || c->lend_owner)
			continue;	/* a file is in the middle of it */
		ret = fdr_stream_copy(c, rd, buf, count, &done);
	}
	if (ret < 0 && !done)
		return ret;
	return done;
}

static void fdr_flush_ipi(void *info)
{
	struct fdr_cpu *c = info;

	/*
	 * Interrupts off on c's CPU, so no writer is inside; an NMI writer
	 * could come in, so own the ring as a writer does.
	 */
	if (!c->len)
		return;
	c->gate.busy = 1;
	barrier();
	fdr_next_page(c);
	barrier();
	WRITE_ONCE(c->gate.busy, 0);
}

/*
 * Close the page being filled so a reader can take it: on every CPU once
 * capture stopped (@all), else where it holds at least the wake-up amount.
 */
static void fdr_stream_flush_cpu(struct fdr_cpu *c, bool all)
{
	u32 len = READ_ONCE(c->len);

	if (!len || (!all && len < fdr_wakeup))
		return;
	if (READ_ONCE(c->gate.on) && cpu_online(c->cpu))
		smp_call_function_single(c->cpu, fdr_flush_ipi, c, 1);
	else
		fdr_flush_ipi(c);
}

void fdr_stream_flush(bool all)
{
	int cpu;

	if (!fdr_buf_size)
		return;
	cpus_read_lock();
	for_each_possible_cpu(cpu)
		fdr_stream_flush_cpu(per_cpu_ptr(fdr_cpus, cpu), all);
	cpus_read_unlock();
}

/* Give back the pages of @c lent to a file. */
static void fdr_lend_return(struct fdr_cpu *c)
{
	c->lend_owner = NULL;
	/* Pairs with fdr_next_page(): the file is done with them. */
	smp_store_release(&c->tail, c->lend_end);
	/* Peers skipped this CPU while they were lent. */
	wake_up_interruptible_all(&fdr_ring_wq);
}

int fdr_stream_lend(struct fdr_reader *rd, unsigned int cpu, bool lend,
		    bool running, struct fdr_lend *out)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
	unsigned long head, s;

	if (out) {
		out->first = 0;
		out->count = 0;
		out->eof = false;
	}
	if (!fdr_buf_size)
		return 0;
	if (c->lend_owner == rd)
		fdr_lend_return(c);
	/* Another file is in the middle of this CPU: nothing for us now. */
	if (!lend || c->lend_owner || c->rd_owner)
		return 0;
	/* Pairs with fdr_next_page()'s release of a closed page. */
	if (c->tail == smp_load_acquire(&c->head)) {
		cpus_read_lock();
		fdr_stream_flush_cpu(c, !running);
		cpus_read_unlock();
	}
	/* The lent pages' bytes and lengths are final (fdr_next_page()). */
	head = smp_load_acquire(&c->head);
	out->first = c->tail;
	out->count = head - c->tail;
	for (s = c->tail; s != head; s++)
		out->len[s & FDR_PAGE_MASK] = c->pages[s & FDR_PAGE_MASK].len;
	if (out->count) {
		c->lend_owner = rd;
		c->lend_end = head;
	} else {
		out->eof = !running && !READ_ONCE(c->len);
	}
	return out->count;
}

bool fdr_stream_lent(void)
{
	int cpu;

	if (!fdr_buf_size)
		return false;
	for_each_possible_cpu(cpu)
		if (per_cpu_ptr(fdr_cpus, cpu)->lend_owner)
			return true;
	return false;
}

bool fdr_stream_ready(const struct fdr_reader *rd)
{
	int cpu;

	if (!fdr_buf_size)
		return false;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);
		const struct fdr_reader *owner = READ_ONCE(c->rd_owner);
		const struct fdr_reader *lender = READ_ONCE(c->lend_owner);

		/* The rest of our own page is ready; another file's is not. */
		if (owner == rd)
			return true;
		if (owner || (lender && lender != rd))
			continue;
		/* Pages lent to us are not news: pages after them are. */
		if (lender) {
			/* Pairs with fdr_next_page()'s release, as below. */
			if (READ_ONCE(c->lend_end) != smp_load_acquire(&c->head) ||
			    READ_ONCE(c->len) >= fdr_wakeup)
				return true;
			continue;
		}
		/* Pairs with fdr_next_page()'s release of a closed page. */
		if (READ_ONCE(c->tail) != smp_load_acquire(&c->head) ||
		    READ_ONCE(c->len) >= fdr_wakeup)
			return true;
	}
	return false;
}

/*
 * Nothing left to read on any CPU, whoever would read it.  With capture
 * stopped this is the end of the stream; until then a file that finds
 * only pages another file owns waits for that file.
 */
bool fdr_stream_empty(void)
{
	int cpu;

	if (!fdr_buf_size)
		return true;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

		/* Pairs with fdr_next_page()'s release of a closed page. */
		if (READ_ONCE(c->tail) != smp_load_acquire(&c->head) ||
		    READ_ONCE(c->len))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ files */

int fdr_reader_init(struct fdr_reader *rd)
{
	INIT_LIST_HEAD(&rd->holders);
	rd->cpu = -1;
	rd->off = 0;
	rd->snap = kcalloc(nr_cpu_ids, sizeof(*rd->snap), GFP_KERNEL_ACCOUNT);
	return rd->snap ? 0 : -ENOMEM;
}

/*
 * The file is closed: let go of its snapshot, and of the page it was
 * halfway through (the rest of that page is discarded: another reader
 * could not start in the middle of a block).
 */
void fdr_reader_exit(struct fdr_reader *rd)
{
	int cpu;

	fdr_snap_release(rd);
	if (fdr_buf_size) {
		for_each_possible_cpu(cpu) {
			struct fdr_cpu *c = per_cpu_ptr(fdr_cpus, cpu);

			fdr_stream_lend(rd, cpu, false, true, NULL);
			if (c->rd_owner != rd)
				continue;
			c->rd_off = 0;
			c->rd_owner = NULL;
			/* Pairs with fdr_next_page(): the page is free. */
			smp_store_release(&c->tail, c->tail + 1);
			/* Peers skipped this CPU while we owned the page. */
			wake_up_interruptible_all(&fdr_ring_wq);
		}
	}
	kfree(rd->snap);
	rd->snap = NULL;
}
