// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU rings of XRay FDR blocks.
 *
 * Layout.  Each possible CPU owns a buffer of TRACEBUF_FDR_PAGES equal
 * sub-buffers ("pages", buf_size / 16 bytes each).  A page holds whole FDR
 * blocks only: a block never crosses a page, so any run of consecutive pages is
 * a valid piece of an FDR file and the reader never has to parse records.
 * Pages are numbered by a 64-bit sequence: @head is the page being filled,
 * pages @tail..@head-1 are closed (final length in pages[seq % 16]), and page
 * @head holds @len bytes so far.
 *
 * Blocks.  A block is BufferExtents, NewBuffer(tid), WallClockTime,
 * PIDEntry(tgid), NewCPUId(cpu, time), then records, and belongs to one task
 * (@owner) on this CPU.  A block is open while @owner is set; every write
 * checks that @owner is the writing task and otherwise opens a new block first,
 * so a block can never mix tasks whatever the order of sched_switch and nested
 * events.  sched_switch closes the block (and with the SCHED class opens the
 * next task's block at once, to show when it was switched in); a full page
 * closes it too, and the task continues in a new block at the start of the next
 * page.  The BufferExtents length of the open block is brought up to date only
 * when it closes (which every page close does first): readers see an open block
 * only through a snapshot, which sends its BufferExtents as it was when taken,
 * so the write path saves a store to the block header per event.
 *
 * Time.  Records carry 32-bit deltas, in the capture's clock (fdr_clock_now()),
 * from @base, the time of the previous record; NewCPUId sets @base, and a
 * TSCWrap is written when a delta would not fit in 32 bits.  The time is read
 * after the writer owns the CPU's ring (see below), so times are in record
 * order.
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
 * Writers and nesting.  A writer disables interrupts, then takes the CPU's ring
 * by setting @gate.busy.  With interrupts off only an NMI can run in the middle
 * of a write; an NMI writer that finds it set drops its event and counts it
 * (local64, safe against the interrupted writer).  Readers that must see a
 * consistent CPU (a snapshot, a flush) do it from an IPI on that CPU, which
 * cannot land inside a write.  Losses are reported in the stream itself: every
 * loss sets @gate.lost, and the next write on the CPU first adds a
 * CustomEventMarker "tracebuf: lost N events" there. Interrupts off rather than
 * a recursion guard that lets interrupts in, as the kernel ring buffer's
 * trace_recursive_lock() does: an interrupt's writer would find @gate.busy and
 * lose its event, since a block's records are deltas from the one before and
 * take one writer at a time; letting it write would take a reservation and
 * commit protocol, and the guard alone cost more instructions per event than
 * cli, sti and @gate.busy (Documentation/performance.rst, "The write path
 * against 1.5x bare").
 *
 * The fast path (fdr_write_func_fast(), inline in the write API so that the
 * syscall probes inline it).  @gate holds every condition that sends a write
 * the long way as one byte each, so it tests them with one compare; then its
 * task's block must be open, the page must have room short of the wake-up point
 * (@func_max) and the time must share the upper 32 bits of @base (so the delta
 * fits).  Everything else, opening pages and blocks, TSCWrap, loss reports,
 * waking the reader, is fdr_reserve_slow() and friends.  Per event the fast
 * path stores the record, the lower half of @base and @len, and nothing else:
 * its records are all one event of FDR_FUNC_SIZE bytes, so the page's event
 * count is kept as @skew, which only the other writers change (fdr_advance()).
 * The counters of closed pages are summed at page close, inside @seq, for
 * fdr_ring_cpu_stats().
 *
 * Readers (serialised by the caller): streaming readers copy closed pages and
 * free them with a release store of @tail, pairing with the writer's acquire;
 * the writer publishes a closed page with a release store of @head.
 * Flight-recorder snapshots copy nothing: each holds the pages it covers
 * (@keep, the oldest page any holder needs) and the file reads them from the
 * ring, releasing them page by page with a store of @keep that pairs with the
 * writer's acquire the same way.  A streaming file that mapped the rings
 * (fdr_stream_lend()) borrows closed pages instead of copying them: they stay
 * at @tail..@lend_end-1 until it gives them back with the same release store of
 * @tail.  "Reading" below has the rest.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/local64.h>

#include <linux/tracebuf.h>

#include "ring_internal.h"

struct fdr_rings fdr_rings = {
	.holders = LIST_HEAD_INIT(fdr_rings.holders),
	.wq = __WAIT_QUEUE_HEAD_INITIALIZER(fdr_rings.wq),
};

struct fdr_fast __percpu *fdr_ring_fast;

wait_queue_head_t *fdr_ring_waitq(void)
{
	return &fdr_rings.wq;
}

static void fdr_ring_wake(struct irq_work *work)
{
	wake_up_interruptible(&fdr_rings.wq);
}

/* ------------------------------------------------------------ set-up */

bool fdr_ring_allocated(void)
{
	return fdr_rings.buf_size != 0;
}

/*
 * Every CPU empty, in the current mode: nothing closed, nothing open,
 * nothing counted, no snapshot holding pages, no reader owning or
 * borrowing any.  Whoever changes the buffers calls it before anyone can
 * see them, so that no state of one set of buffers survives on another:
 * a reader's flush writes the open block's length through @w.page.
 */
static void fdr_ring_clear(void)
{
	struct fdr_reader *rd, *tmp;
	int cpu;

	list_for_each_entry_safe(rd, tmp, &fdr_rings.holders, holders)
		list_del_init(&rd->holders);
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		c->head = 0;
		c->tail = 0;
		c->w.len = 0;
		c->w.page = c->data;
		c->skew = 0;
		c->block = 0;
		c->w.owner = NULL;
		c->reported = 0;
		c->due = 0;
		c->wake_len = fdr_rings.mode == TRACEBUF_FDR_MODE_STREAM ?
			      fdr_rings.wakeup : U32_MAX;
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
		c->lend_end = 0;
		c->w.gate.word = 0;
		c->w.gate.slow_clock = !fdr_clock_is_tsc;
		if (c->pages)
			memset(c->pages, 0, FDR_NR_PAGES * sizeof(*c->pages));
	}
}

/*
 * Stopped, serialised: the buffers go, and with them the capture: what is
 * left reads as empty to readers (fdr_rings.buf_size 0) and writers (off).
 */
void fdr_ring_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		kvfree(c->data);
		kfree(c->pages);
		c->data = NULL;
		c->pages = NULL;
	}
	fdr_rings.buf_size = 0;
	fdr_rings.page_size = 0;
	fdr_ring_clear();
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

	if (size == fdr_rings.buf_size)
		return 0;
	fdr_ring_free();
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		c->data = kvmalloc_node(size, FDR_RING_GFP, cpu_to_node(cpu));
		c->pages = kcalloc_node(FDR_NR_PAGES, sizeof(*c->pages),
					FDR_RING_GFP, cpu_to_node(cpu));
		if (!c->data || !c->pages) {
			fdr_ring_free();
			return -ENOMEM;
		}
	}
	fdr_rings.buf_size = size;
	fdr_rings.page_size = size / FDR_NR_PAGES;
	/* New buffers are empty whatever the caller does next. */
	fdr_ring_clear();
	return 0;
}

void fdr_ring_reset(u32 mode, u32 wakeup)
{
	fdr_rings.mode = mode;
	fdr_rings.wakeup = wakeup;
	fdr_clock_select();
	fdr_ring_clear();
}

void fdr_ring_set_on(bool on)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		WRITE_ONCE(c->w.gate.on, on && fdr_rings.buf_size);
		WRITE_ONCE(c->w.gate.frozen, 0);
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
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		/* Before @on: a writer that finds it off counts. */
		WRITE_ONCE(c->w.gate.frozen, 1);
		WRITE_ONCE(c->w.gate.on, 0);
	}
}

/* Events turned away by frozen rings since START, all CPUs. */
u64 fdr_ring_frozen(void)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += local64_read(&per_cpu_ptr(fdr_rings.cpus, cpu)->frozen);
	return n;
}

void fdr_ring_quiesce(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(fdr_rings.cpus, cpu)->wake);
}

void fdr_ring_cpu_stats(unsigned int cpu, struct tracebuf_fdr_cpu_stats *out)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&c->seq);
		out->written = c->closed_events + fdr_open_events(c);
		out->overwritten = c->overwritten;
		out->bytes = c->closed_bytes + READ_ONCE(c->w.len);
	} while (read_seqcount_retry(&c->seq, seq));
	out->dropped = local64_read(&c->dropped);
}

int fdr_ring_init(void)
{
	int cpu;

	fdr_rings.cpus = alloc_percpu(struct fdr_cpu);
	if (!fdr_rings.cpus)
		return -ENOMEM;
	/* The fast path's part is the first member: the same memory. */
	fdr_ring_fast = (struct fdr_fast __percpu *)fdr_rings.cpus;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		c->cpu = cpu;
		seqcount_init(&c->seq);
		local64_set(&c->dropped, 0);
		local64_set(&c->frozen, 0);
		init_irq_work(&c->wake, fdr_ring_wake);
	}
	return 0;
}

void fdr_ring_exit(void)
{
	fdr_ring_free();
	free_percpu(fdr_rings.cpus);
}

/* ------------------------------------------------------------ windows */

static atomic_t fdr_window_left;	/* records until @fdr_window_done */
static atomic64_t fdr_window_count;	/* records written in windows */
static void (*fdr_window_done)(void);

static void fdr_ring_window_gate(bool open)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(fdr_rings.cpus, cpu)->w.gate.window, open);
}

/*
 * The gate byte @window sends every write in the window through
 * fdr_reserve_slow() and here: the common case of a write pays nothing for
 * windows while none is open.
 */
void fdr_ring_window_open(u32 records, void (*done)(void))
{
	WRITE_ONCE(fdr_window_done, done);
	atomic_set(&fdr_window_left, records);
	smp_wmb();	/* the count before the writers see the window */
	fdr_ring_window_gate(true);
}

void fdr_ring_window_close(void)
{
	fdr_ring_window_gate(false);
}

u64 fdr_ring_window_count(void)
{
	return atomic64_read(&fdr_window_count);
}

void fdr_ring_window_clear(void)
{
	atomic64_set(&fdr_window_count, 0);
}

/* Write path, in a window: one more record. */
void fdr_ring_window_event(struct fdr_cpu *c)
{
	atomic64_inc(&fdr_window_count);
	smp_rmb();	/* pairs with fdr_ring_window_open(): its count */
	/* The callback wakes its reader: once the ring is given up. */
	if (atomic_dec_and_test(&fdr_window_left))
		c->due |= FDR_DUE_WINDOW;
}

void fdr_ring_due(struct fdr_cpu *c, u8 due)
{
	void (*done)(void);

	if (due & FDR_DUE_WAKE)
		irq_work_queue(&c->wake);
	if (due & FDR_DUE_WINDOW) {
		done = READ_ONCE(fdr_window_done);
		if (done)
			done();
	}
}

/* ------------------------------------------------------------ crash */

u32 fdr_ring_size(void)
{
	return fdr_rings.buf_size;
}

/* The buffer of @cpu, fdr_ring_size() bytes, for crash images' frame tables. */
const u8 *fdr_ring_data(unsigned int cpu)
{
	return fdr_rings.buf_size ? per_cpu_ptr(fdr_rings.cpus, cpu)->data : NULL;
}

void fdr_ring_panic_open(void)
{
	WRITE_ONCE(this_cpu_ptr(fdr_rings.cpus)->w.gate.on, fdr_rings.buf_size != 0);
}

/*
 * The other CPUs are stopped, maybe in the middle of a write: their rings
 * are only read, and a CPU found inside a write is marked torn, for the
 * reader to drop its last record.
 */
void fdr_ring_pos(unsigned int cpu, struct fdr_ring_pos *out)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
	int i;

	out->head = READ_ONCE(c->head);
	out->tail = READ_ONCE(c->tail);
	out->len = READ_ONCE(c->w.len);
	out->block = READ_ONCE(c->w.owner) ? c->block : FDR_NO_BLOCK;
	out->torn = READ_ONCE(c->w.gate.busy);
	for (i = 0; i < FDR_NR_PAGES; i++)
		out->page_len[i] = c->pages ? c->pages[i].len : 0;
}

/* ------------------------------------------------------------ reading */

/*
 * Bytes copied to a reader between two chances to reschedule: a ring page
 * is a sixteenth of the buffer (up to 4 MiB), and copy_to_user() and the
 * faults it takes on a fresh buffer hold the CPU without a scheduling
 * point on a kernel without full preemption.  A guest on a starved host
 * read 2 MiB at once and the soft-lockup watchdog saw 23 s (2026-11-29).
 */
#define FDR_COPY_CHUNK	(64 * 1024)

/*
 * Copy @n bytes at @off of page @seq of @c to @dst.  The FDR_META_SIZE
 * bytes at @patch_at, when inside, come from @patch instead: the open
 * block's BufferExtents as it was when a snapshot was taken (the writer
 * rewrites it when the block closes).  May sleep.
 */
int fdr_ring_copy_out(char __user *dst, struct fdr_cpu *c, unsigned long seq,
		      u32 off, u32 n, u32 patch_at, const u8 *patch)
{
	const u8 *page = fdr_page_ptr(c, seq);
	u32 end = off + n;

	might_sleep();
	while (off < end) {
		const u8 *from = page + off;
		u32 stop = min(end, off + FDR_COPY_CHUNK);

		if (off < patch_at) {
			stop = min(stop, patch_at);
		} else if (off < patch_at + FDR_META_SIZE) {
			stop = min(stop, patch_at + FDR_META_SIZE);
			from = patch + (off - patch_at);
		}
		if (copy_to_user(dst, from, stop - off))
			return -EFAULT;
		dst += stop - off;
		off = stop;
		cond_resched();
	}
	return 0;
}
