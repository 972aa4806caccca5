/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring: per-CPU buffers of FDR blocks (ring.c has the design).  This
 * header is its whole public face: set-up and state (ring.c), the write
 * path (write.c), snapshots (snap.c), streaming and page lending
 * (stream.c) and the files that read (reader.c).  The ring knows none of
 * its users: the device sets it up and reads it, the event probes, kernel
 * functions, triggers and the panic write to it, and what the ring must
 * tell a user it is given as a callback when that user sets it up
 * (fdr_ring_window_open()).  ring_cpu.h, its internals, is for those five
 * files only.
 *
 * Locking: the device's mutex (fdr_lock, dev.c) serialises set-up,
 * streaming and snapshots: the functions marked "fdr_lock" expect it held.
 * The write path takes no lock at all.
 *
 * The write path's common case is inline here (fdr_write_func_fast()):
 * the syscall probes (events.c), the hottest writers in the system, take
 * it without a call.  It sees only the part of a CPU's ring it needs,
 * struct fdr_fast.
 */
#ifndef _FDR_RING_H
#define _FDR_RING_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/wait.h>
#ifdef CONFIG_PARAVIRT_XXL
#include <asm/cpufeature.h>
#endif

#include <linux/tracebuf.h>

#include "clock.h"
#include "record.h"

struct task_struct;
struct tracebuf_fdr_cpu_stats;

/* ------------------------------------------------------------- ring.c */

/* Woken when a reader has something to read (streaming, a freeze). */
extern wait_queue_head_t fdr_ring_wq;

int fdr_ring_init(void);
void fdr_ring_exit(void);

/*
 * fdr_lock, stopped: (re)allocate buffers of @size bytes per possible CPU,
 * or free them.  Either discards the capture: the rings are left empty,
 * their counters zero, in the last mode set (a failed allocation leaves
 * none, which readers and writers take as empty too).
 */
int fdr_ring_alloc(u32 size);
void fdr_ring_free(void);
bool fdr_ring_allocated(void);
/* The buffers' size (0: none) and the buffer of @cpu (crash images). */
u32 fdr_ring_size(void);
const u8 *fdr_ring_data(unsigned int cpu);

/* fdr_lock, stopped: empty the buffers and counters for a new capture. */
void fdr_ring_reset(u32 mode, u32 wakeup);
/* fdr_lock: let writers in (true) or keep them out (false). */
void fdr_ring_set_on(bool on);
/* After fdr_ring_set_on(false) and a grace period: flush deferred work. */
void fdr_ring_quiesce(void);
/*
 * Any context: stop every writer (a trigger's freeze, the panic).  Writes
 * under way finish; the ones after are counted as frozen out until
 * fdr_ring_set_on().
 */
void fdr_ring_stop_writers(void);
/* Events the stopped writers turned away since START (STATS). */
u64 fdr_ring_frozen(void);
/* The counters of one CPU. */
void fdr_ring_cpu_stats(unsigned int cpu, struct tracebuf_fdr_cpu_stats *out);

/*
 * A window: count the records written from now on, on every CPU, and call
 * @done (any context, from the write path's slow path) when @records of
 * them have been written; it is called once, and the window stays open
 * (counting) until closed.  Open, close: any context.  The count: records
 * written in windows since the last fdr_ring_window_clear() or reset.
 * Opening one costs every write the slow path while it lasts.
 */
void fdr_ring_window_open(u32 records, void (*done)(void));
void fdr_ring_window_close(void);
u64 fdr_ring_window_count(void);
void fdr_ring_window_clear(void);

/**
 * struct fdr_ring_pos - where a stopped CPU's ring is (crash images)
 * @head:	the page being filled (sequence number)
 * @tail:	the oldest page held
 * @len:	bytes in page @head
 * @block:	offset of the open block in page @head, or FDR_NO_BLOCK
 * @torn:	the CPU was stopped inside a write: its last record may be
 *		incomplete
 * @page_len:	the length of each page, by sequence number modulo
 *		TRACEBUF_FDR_PAGES (closed pages' are final)
 */
struct fdr_ring_pos {
	unsigned long head;
	unsigned long tail;
	u32 len;
	u32 block;
	bool torn;
	u32 page_len[TRACEBUF_FDR_PAGES];
};

/*
 * Panic: let this CPU's writes in again whatever stopped them (a
 * trigger's freeze), for the last words; then, after
 * fdr_ring_stop_writers(), read every CPU's position.
 */
void fdr_ring_panic_open(void);
void fdr_ring_pos(unsigned int cpu, struct fdr_ring_pos *out);

/* ------------------------------------------------------------ write.c */

/*
 * Any context, including NMI.  Never sleeps or locks.  fdr_write_func()
 * takes the record's fdr_func_word(), which callers build from constants.
 */
void fdr_write_func(u32 word);
/* The same; false when the record was not written (stopped or dropped). */
bool fdr_write_func_ok(u32 word);
/* Count @n events lost elsewhere on this CPU and report them in its stream. */
void fdr_write_lost(u64 n);
void fdr_write_func_args(u32 id, unsigned int nargs, const unsigned long *args);
void fdr_write_instant(u32 id, unsigned long arg);
/*
 * sched_switch on this CPU: close the open block and, given a SWITCH
 * payload @sw of @len bytes, open @next's block with that typed event as
 * its first record (an event, lost and counted as one if it does not fit).
 * @sw NULL: only close, @next's first record opens its block.
 */
void fdr_write_switch(struct task_struct *next, const void *sw, u32 len);
/*
 * Any context (a trigger writes its reason from probes and the die
 * notifier); false if not recording (stopped or frozen).
 */
bool fdr_write_marker(const void *data, u32 len);
/*
 * A typed event (TRACEBUF_FDR_TYPED_*) of @len <= FDR_TYPED_MAX payload
 * bytes in current's block; any context.  fdr_write_func_typed() writes
 * the function record @word first and the event right after it at the
 * same time, in one reservation, so that nothing comes between them: two
 * events, both written or both lost.
 */
#define FDR_TYPED_MAX		64
void fdr_write_typed(u16 type, const void *data, u32 len);
void fdr_write_func_typed(u32 word, u16 type, const void *data, u32 len);

/*
 * The tid of @tsk's blocks on @cpu, as NewBuffer records and typed events
 * give it: idle tasks all have pid 0, so each CPU's gets its own.
 */
static inline s32 fdr_ring_tid(const struct task_struct *tsk, unsigned int cpu)
{
	if (is_idle_task(tsk))
		return TRACEBUF_FDR_IDLE_TID(cpu);
	return tsk->pid;
}

/*
 * The largest streaming wake-up threshold for a buffer of @buf_size bytes:
 * one the ring always reaches before it is full, whatever the records
 * (write.c checks it against the largest reservation at build time).
 */
#define FDR_WAKEUP_MAX(buf_size)	TRACEBUF_FDR_WAKEUP_MAX(buf_size)

/* ------------------------------------------- reader.c, snap.c, stream.c */

#define FDR_NO_BLOCK	U32_MAX

struct fdr_snap_cpu;

/**
 * struct fdr_rest - the rest of a page a file was partway through when
 * its capture was discarded, kept for it (fdr_lock)
 * @buf:	@len bytes, or NULL
 * @len:	bytes kept
 * @off:	bytes of them already read
 */
struct fdr_rest {
	u8 *buf;
	u32 len;
	u32 off;
};

/**
 * struct fdr_reader - where one file is in the rings (fdr_lock)
 * @holders:	on the list of snapshot holders while it holds one
 * @snap:	per possible CPU, the snapshot it holds
 * @cpu:	snapshot: the CPU being copied; streaming: the CPU whose oldest
 *		page this file is partway through, or -1
 * @off:	snapshot: bytes of the current page already copied
 * @rest:	what fdr_stream_keep_rests() or fdr_snap_keep_rests() kept
 */
struct fdr_reader {
	struct list_head holders;
	struct fdr_snap_cpu *snap;
	int cpu;
	u32 off;
	struct fdr_rest rest;
};

/* Open: 0 or -ENOMEM.  Close (fdr_lock): let go of everything held. */
int fdr_reader_init(struct fdr_reader *rd);
void fdr_reader_exit(struct fdr_reader *rd);

/*
 * Flight-recorder snapshots (fdr_lock): take one (replacing any held),
 * read it (0 at its end, when it is let go), let it go.  A held snapshot
 * keeps writers from reusing its pages; nothing is copied.
 */
void fdr_snap_take(struct fdr_reader *rd);
ssize_t fdr_snap_read(struct fdr_reader *rd, char __user *buf, size_t count);
void fdr_snap_release(struct fdr_reader *rd);
bool fdr_snap_held(const struct fdr_reader *rd);

/*
 * Before CONFIG or START discard the capture (fdr_lock), in two steps,
 * so that one that fails after the first changes nothing.  Keep: every
 * file partway through a page, of its snapshot or of the stream, gets the
 * rest of that page copied into its @rest (0, or -ENOMEM with none
 * kept).  Then, once the capture is sure to go, rests_kept(true) lets
 * those pages go as if read; or rests_kept(false) drops the copies, and
 * the files read on from where they were.
 */
int fdr_snap_keep_rests(void);
void fdr_snap_rests_kept(bool go);
int fdr_stream_keep_rests(void);
void fdr_stream_rests_kept(bool go);

/*
 * Copy @cpu's closed pages to @buf, whole ones while they fit in @size
 * (at least a ring page, else -EINVAL), from page *@next (@resume) or the
 * oldest, without consuming, closing or holding any (fdr_lock); with
 * capture @stopped, the open page too, as the last.  *@next becomes the
 * page after the last copied; *@len the bytes, *@missed the pages gone
 * before they could be copied.  Returns the pages copied.
 */
int fdr_peek_cpu(unsigned int cpu, char __user *buf, u32 size, u64 *next,
		 bool resume, bool stopped, u32 *len, u32 *missed);

/*
 * A file's kept rest (fdr_lock): read before anything else, and freed
 * once read, when the file's output ends, and at close.
 */
static inline bool fdr_rest_pending(const struct fdr_rest *r)
{
	return !!READ_ONCE(r->buf);
}

ssize_t fdr_rest_read(struct fdr_rest *r, char __user *buf, size_t count);
void fdr_rest_free(struct fdr_rest *r);

/* Streaming consumption (fdr_lock). */
ssize_t fdr_stream_read(struct fdr_reader *rd, char __user *buf, size_t count);
void fdr_stream_flush(bool all);
/*
 * Lockless: is there something @rd should look at (a closed page nobody
 * else is partway through, the rest of its own page, or a CPU past the
 * wake-up amount, or with capture stopped (@all) any open page)?  Is
 * there nothing left at all, but pages lent to @rd (NULL: to nobody),
 * which its read() gives back first?
 */
bool fdr_stream_ready(const struct fdr_reader *rd, bool all);
bool fdr_stream_empty(const struct fdr_reader *rd);

/**
 * struct fdr_lend - closed pages of one CPU lent to a file
 * @first:	sequence number of the first page lent
 * @count:	pages lent from @first on
 * @eof:	none lent, capture stopped and nothing left on the CPU
 * @len:	bytes in page s: @len[s % TRACEBUF_FDR_PAGES]
 */
struct fdr_lend {
	unsigned long first;
	u32 count;
	bool eof;
	u32 len[TRACEBUF_FDR_PAGES];
};

/*
 * Zero-copy streaming (fdr_lock): give back the pages of @cpu lent to @rd,
 * then if @lend lend it the CPU's closed pages (closing the open page
 * first as read() would, @running telling whether capture runs) and
 * describe them in @out.  Returns the number of pages lent; none while
 * another file is partway through the CPU.  A file that reads with read()
 * or closes gives back what it borrowed.  fdr_stream_lent(): does @rd,
 * or any file when NULL, hold pages (START and CONFIG must not reset
 * them; lockless for poll())?
 */
int fdr_stream_lend(struct fdr_reader *rd, unsigned int cpu, bool lend,
		    bool running, struct fdr_lend *out);
bool fdr_stream_lent(const struct fdr_reader *rd);

/* ------------------------------------------------ the fast path, inline */

/*
 * The writers' gate: one byte per condition, so that each byte has one
 * kind of writer and none needs an atomic operation, and one word, so that
 * the common case of a write tests them all with a single compare against
 * FDR_GATE_FAST.
 */
union fdr_gate {
	struct {
		u8 busy;	/* a writer or a reader's IPI owns the ring */
		u8 on;		/* recording: fdr_ring_set_on() */
		u8 lost;	/* a loss waits to be reported in the stream */
		u8 window;	/* a window counts records: fdr_ring_window_open() */
		u8 slow_clock;	/* the capture's clock is not the TSC */
		u8 frozen;	/* off by fdr_ring_stop_writers() */
	};
	struct {
		u16 owned;
		/*
		 * @lost or @window: the write takes fdr_reserve_slow(), tested
		 * with one compare as @lost alone was.
		 */
		u16 pending;
	};
	u64 word;
};

#define FDR_GATE_FAST		(((union fdr_gate){ .on = 1 }).word)

/*
 * What the write path's common case reads and writes of a CPU's ring: the
 * first member of the ring's struct fdr_cpu (ring_cpu.h), in one cache
 * line.  Only this CPU touches it, interrupts off, @gate.busy set (except
 * the gate bytes named above).
 */
struct fdr_fast {
	union fdr_gate gate;
	u32 len;		/* bytes in page @head */
	s32 func_max;		/* fdr_write_func() fast while @len <= this */
	u8 *page;		/* start of page @head */
	struct task_struct *owner;	/* task of the open block, or NULL */
	/* The time the next delta counts from, in halves: fdr_fast_base(). */
	u32 base_lo;
	u32 base_hi;
};

/* The same per-CPU memory as the ring's fdr_cpus, seen as struct fdr_fast. */
extern struct fdr_fast __percpu *fdr_ring_fast;

static __always_inline u64 fdr_fast_base(const struct fdr_fast *c)
{
	return (u64)c->base_hi << 32 | c->base_lo;
}

static __always_inline void fdr_fast_set_base(struct fdr_fast *c, u64 t)
{
	c->base_lo = lower_32_bits(t);
	c->base_hi = upper_32_bits(t);
}

/* Give up the ring (interrupts still off). */
static __always_inline void fdr_fast_release(struct fdr_fast *c)
{
	barrier();
	WRITE_ONCE(c->gate.busy, 0);
}

/**
 * fdr_write_func_fast() - fdr_write_func()'s common case
 * @word:	the record's fdr_func_word()
 * @tsk:	current, which the caller may have at hand already
 *
 * Interrupts off.  The common case: recording with the TSC, nobody inside,
 * nothing to report (one compare of the gate), then the task's block is
 * open, the page has room short of the wake-up point, and the time since
 * the last record shares its upper 32 bits and has not gone back (so the
 * delta fits, and the base's upper half stays as it is).  Per event it stores the record, the
 * base's lower half and @len: the page's event count follows from @len
 * (@skew), so nothing else changes.
 *
 * Return: true when the record went in; false when it is not the common
 * case: nothing was committed and the ring is not held, so the caller
 * starts over the long way.
 */
static __always_inline bool fdr_write_func_fast(u32 word,
						struct task_struct *tsk)
{
	struct fdr_fast *c = this_cpu_ptr(fdr_ring_fast);
	u32 len, lo, hi, delta;

	/*
	 * Not READ_ONCE(): a plain read lets the compiler compare in memory,
	 * and one compare reads the word once either way.
	 */
	if (unlikely(c->gate.word != FDR_GATE_FAST))
		return false;
	c->gate.busy = 1;
	barrier();	/* own the ring before reading the clock or state */
	fdr_clock_tsc_halves(&lo, &hi);
	len = c->len;
	/*
	 * The same upper half and a lower one not below the base's: the
	 * delta fits.  A TSC that stepped back (the kernel may mark it
	 * unstable in the middle of a capture) gets a TSCWrap the slow way.
	 */
	if (unlikely(c->owner != tsk || (s32)len > c->func_max ||
		     hi != c->base_hi ||
		     check_sub_overflow(lo, c->base_lo, &delta))) {
		fdr_fast_release(c);
		return false;
	}
	/*
	 * The record's bytes before @len, so that @len never covers bytes
	 * not yet written: a crash dump taken while a CPU is stopped here
	 * then finds, at worst, the complete record it marks torn.
	 */
	fdr_put_func_word(c->page + len, word, delta);
	c->base_lo = lo;
	barrier();
	/*
	 * An add to memory: on x86 one instruction where a store of len + 8
	 * took two.  Only this CPU writes @len (an NMI finds the ring busy);
	 * the other CPUs read it with READ_ONCE() and take either value; a
	 * CPU stopped inside a load-add-store left the old length, as one
	 * stopped before the store did.
	 */
	c->len += FDR_FUNC_SIZE;
	fdr_fast_release(c);
	return true;
}

/*
 * Interrupts off and on around the inline common case, as the bare
 * instructions.  On kernels built for Xen PV (CONFIG_PARAVIRT_XXL, which
 * Debian's are) local_irq_disable() is a call site that boot patches to
 * the instruction followed by a NOP: one more instruction each way, 2 of
 * an event's 37.  Only a Xen PV guest needs the call; there the syscall
 * probes take fdr_write_func() instead (fdr_irqs_native()).  Untraced, as
 * raw_local_irq_disable() is: nothing in between takes a lock.
 */
static __always_inline bool fdr_irqs_native(void)
{
#ifdef CONFIG_PARAVIRT_XXL
	return !cpu_feature_enabled(X86_FEATURE_XENPV);
#else
	return true;
#endif
}

static __always_inline void fdr_irq_disable(void)
{
#ifdef CONFIG_PARAVIRT_XXL
	native_irq_disable();
#else
	raw_local_irq_disable();
#endif
}

static __always_inline void fdr_irq_enable(void)
{
#ifdef CONFIG_PARAVIRT_XXL
	native_irq_enable();
#else
	raw_local_irq_enable();
#endif
}

/**
 * fdr_write_func_irqs_on() - fdr_write_func() where interrupts are on
 * @word:	the record's fdr_func_word()
 * @tsk:	current
 *
 * For probes whose events always come with interrupts enabled, such as the
 * syscall tracepoints (kernel/entry/common.c runs syscall entry and exit
 * work with interrupts on): disabling and enabling them costs two
 * instructions where saving and restoring the flags costs six.  Lockdep
 * checks the assumption on debug kernels.  The one way to break it is a
 * syscall that returns with interrupts off, a kernel bug that
 * syscall_exit_to_user_mode_prepare() reports and repairs by enabling
 * them under CONFIG_PROVE_LOCKING; elsewhere this enables them as early,
 * in exit work, which runs with them on anyway.  Only where
 * fdr_irqs_native().
 */
static __always_inline void fdr_write_func_irqs_on(u32 word,
						   struct task_struct *tsk)
{
	lockdep_assert_irqs_enabled();
	fdr_irq_disable();
	if (likely(fdr_write_func_fast(word, tsk))) {
		fdr_irq_enable();
		return;
	}
	fdr_irq_enable();
	fdr_write_func(word);
}

#endif /* _FDR_RING_H */
