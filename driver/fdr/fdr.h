/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel flight data recorder (/dev/tracebuf_fdr), split in parts:
 *
 *   fdr_ring.c    per-CPU buffers of FDR blocks, the write path, snapshot
 *                 and streaming consumption (the state machine lives there)
 *   fdr_ring.h    a CPU's ring as writers see it, and the write path's
 *                 common case, inline for the syscall probes
 *   fdr_clock.c   the timestamp clock: the TSC or local_clock()
 *   fdr_events.c  the probe-layer consumer: kernel event -> FDR records
 *   fdr_names.c   function id -> name (IRQ, softirq, work functions)
 *   fdr_kfunc.c   kernel functions as XRay functions (kretprobes)
 *   fdr_mmap.c    zero-copy reading: a CPU's ring mapped read-only
 *   fdr_dev.c     the misc device: ioctls, read, write (markers), poll
 *
 * Locking: fdr_dev.c's mutex serialises configuration, start/stop, stream
 * consumption and snapshots; the ring functions marked "fdr_lock" expect it
 * held.  The write path takes no lock at all (see fdr_ring.c).
 */
#ifndef _FDR_H
#define _FDR_H

#include <linux/list.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <linux/tracebuf.h>

#include "record.h"

struct task_struct;

/* ---------------------------------------------------------- fdr_clock.c */

#include <linux/sched/clock.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>
#endif

/*
 * Set by fdr_clock_select(), while stopped.  "TSC" stands for the CPU's
 * cycle counter, as in XRay: the TSC on x86, the architected counter's
 * virtual count (CNTVCT_EL0) on arm64.
 */
extern bool fdr_clock_is_tsc;

/* Fixes the clock of the capture about to start: fdr_lock, stopped. */
void fdr_clock_select(void);
/* Its unit, for the file header's cycle_frequency. */
u64 fdr_clock_hz(void);
u64 fdr_clock_wall_ns(u64 t);

/* The TSC; only meaningful when fdr_clock_is_tsc. */
static __always_inline u64 fdr_clock_tsc(void)
{
#ifdef CONFIG_X86
	return rdtsc();
#elif defined(CONFIG_ARM64)
	/* The kernel's own read: an ISB first, and its errata workarounds. */
	return __arch_counter_get_cntvct_stable();
#else
	return 0;
#endif
}

/*
 * The same in halves: the fast path compares the upper one and stores the
 * lower, and rdtsc() would join them first.
 */
static __always_inline void fdr_clock_tsc_halves(u32 *lo, u32 *hi)
{
#ifdef CONFIG_X86
	asm volatile("rdtsc" : "=a" (*lo), "=d" (*hi));
#elif defined(CONFIG_ARM64)
	/* One 64-bit register: splitting it costs nothing. */
	u64 t = __arch_counter_get_cntvct_stable();

	*lo = (u32)t;
	*hi = t >> 32;
#else
	*lo = 0;
	*hi = 0;
#endif
}

/* Any context: the current time in the capture's clock. */
static __always_inline u64 fdr_clock_read(void)
{
	if (likely(fdr_clock_is_tsc))
		return fdr_clock_tsc();
	return local_clock();
}

/* ----------------------------------------------------------- fdr_ring.c */

extern wait_queue_head_t fdr_ring_wq;

int fdr_ring_init(void);
void fdr_ring_exit(void);

/* fdr_lock, stopped: (re)allocate buffers of @size bytes per possible CPU. */
int fdr_ring_alloc(u32 size);
void fdr_ring_free(void);
bool fdr_ring_allocated(void);

/* fdr_lock, stopped: empty the buffers and counters for a new capture. */
void fdr_ring_reset(u32 mode, u32 wakeup);
/* fdr_lock: let writers in (true) or keep them out (false). */
void fdr_ring_set_on(bool on);
/* After fdr_ring_set_on(false) and a grace period: flush deferred work. */
void fdr_ring_quiesce(void);
/* Triggers, any context: stop every writer; open/close the window. */
void fdr_ring_stop_writers(void);
void fdr_ring_window(bool open);
/* Events the stopped writers turned away since START (STATS). */
u64 fdr_ring_frozen(void);

/*
 * Write path: any context, including NMI.  Never sleeps or locks.
 * fdr_write_func() takes the record's fdr_func_word(), which callers
 * build from constants.
 */
void fdr_write_func(u32 word);
/* The same; false when the record was not written (stopped or dropped). */
bool fdr_write_func_ok(u32 word);
/* Count @n events lost elsewhere on this CPU and report them in its stream. */
void fdr_write_lost(u64 n);
void fdr_write_func_args(u32 id, unsigned int nargs, const unsigned long *args);
void fdr_write_instant(u32 id, unsigned long arg);
void fdr_write_switch(struct task_struct *next, bool open_block);
/*
 * Any context (a trigger writes its reason from probes and the die
 * notifier); false if not recording (stopped or frozen).
 */
bool fdr_write_marker(const void *data, u32 len);

/* The counters of one CPU. */
void fdr_ring_cpu_stats(unsigned int cpu, struct tracebuf_fdr_cpu_stats *out);

/*
 * The largest streaming wake-up threshold for a buffer of @buf_size bytes:
 * one the ring always reaches before it is full, whatever the records
 * (fdr_ring.c checks it against the largest reservation at build time).
 */
#define FDR_WAKEUP_MAX(buf_size)	TRACEBUF_FDR_WAKEUP_MAX(buf_size)

#define FDR_NO_BLOCK	U32_MAX

/**
 * struct fdr_snap_cpu - one CPU's part of a snapshot
 * @next:	the next page to read (sequence number); @end + 1: done
 * @end:	the page that was open when the snapshot was taken, read last
 * @open_len:	bytes of page @end that belong to the snapshot
 * @open_block:	offset in page @end of the block open then, or FDR_NO_BLOCK;
 *		its BufferExtents is sent as it was then (@open_ext)
 * @open_ext:	that block's length then
 */
struct fdr_snap_cpu {
	unsigned long next;
	unsigned long end;
	u32 open_len;
	u32 open_block;
	u64 open_ext;
};

/**
 * struct fdr_reader - where one file is in the rings (fdr_lock)
 * @holders:	on the list of snapshot holders while it holds one
 * @snap:	per possible CPU, the snapshot it holds
 * @cpu:	snapshot: the CPU being copied; streaming: the CPU whose oldest
 *		page this file is partway through, or -1
 * @off:	snapshot: bytes of the current page already copied
 */
struct fdr_reader {
	struct list_head holders;
	struct fdr_snap_cpu *snap;
	int cpu;
	u32 off;
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

/* Streaming consumption (fdr_lock). */
ssize_t fdr_stream_read(struct fdr_reader *rd, char __user *buf, size_t count);
void fdr_stream_flush(bool all);
/*
 * Lockless: is there something @rd should look at (a closed page nobody
 * else is partway through, the rest of its own page, or a CPU past the
 * wake-up amount)?  Is there nothing left at all?
 */
bool fdr_stream_ready(const struct fdr_reader *rd);
bool fdr_stream_empty(void);

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
 * or closes gives back what it borrowed.  fdr_stream_lent(): does any
 * file hold pages (START and CONFIG must not reset them)?
 */
int fdr_stream_lend(struct fdr_reader *rd, unsigned int cpu, bool lend,
		    bool running, struct fdr_lend *out);
bool fdr_stream_lent(void);

/* --------------------------------------------------------- fdr_events.c */

/* fdr_lock, stopped: what to record; start/stop feeding the ring. */
void fdr_events_config(u32 classes, u32 nr_args);
int fdr_events_start(void);
void fdr_events_stop(void);

/* ---------------------------------------------------------- fdr_kfunc.c */

struct tracebuf_fdr_kfuncs;

/*
 * fdr_lock, stopped: replace the list of traced kernel functions (@names,
 * @len bytes of kernel memory); @kf carries maxactive in, count and failed
 * out.
 */
int fdr_kfunc_set(const char *names, size_t len,
		  struct tracebuf_fdr_kfuncs *kf);
/*
 * fdr_lock: start recording them (0, or an error with none started), stop
 * (before the ring goes off).
 */
int fdr_kfunc_start(void);
void fdr_kfunc_stop(void);
/* Calls missed since START. */
u64 fdr_kfunc_missed(void);
/*
 * Report the calls missed and not yet reported as a loss on this CPU, so
 * that a snapshot about to be taken says so (fdr_lock, capture running).
 */
void fdr_kfunc_report_missed(void);
/* Panic: how many that would be; no lock, nothing changes. */
u64 fdr_kfunc_missed_unreported(void);
/*
 * Their lines of the NAMES text, and the room they need.  @panic: called
 * by the panic notifier, which must not sleep (see fdr_names_write()).
 */
struct fdr_text;
void fdr_kfunc_names(struct fdr_text *t, bool panic);
size_t fdr_kfunc_names_size(void);
/* Module unload, after fdr_kfunc_stop(): unregister everything. */
void fdr_kfunc_exit(void);

/* The syscall function id of @nr for the current task (see fdr_events.c). */
u32 fdr_events_syscall_id(unsigned long nr);

/* -------------------------------------------------------- fdr_trigger.c */

void fdr_trig_init(void);
/*
 * fdr_lock.  Arm @t (validated here: EINVAL) while @running with @cfg;
 * nr_conds 0 disarms.  fdr_trig_stop(): STOP disarms without resuming.
 */
int fdr_trig_arm(const struct tracebuf_fdr_trigger *t, bool running,
		 const struct tracebuf_fdr_config *cfg);
void fdr_trig_stop(void);
/* fdr_lock: START resets the counters. */
void fdr_trig_reset(void);
/* fdr_lock: frozen rings are safe to read (no writer still inside). */
void fdr_trig_settle(void);
/* fdr_lock: SNAPSHOT was called; true if it fired the trigger. */
bool fdr_trig_snapshot(void);
/* Process context: a marker was written (cheap test first, inline). */
extern bool fdr_trig_markers;
void fdr_trig_marker(const void *data, u32 len);
/* Ring write path, in a window: one more event. */
void fdr_trig_window_event(void);
/* The STATS fields; a frozen trigger makes poll() add EPOLLPRI. */
void fdr_trig_stats(struct tracebuf_fdr_stats *s);
bool fdr_trig_frozen(void);

/* ---------------------------------------------------------- fdr_names.c */

/*
 * Text built line by line in a buffer of @size bytes, complete lines only:
 * the first line that does not fit sets @truncated and ends it.
 */
struct fdr_text {
	char *buf;
	size_t size;
	size_t len;
	bool truncated;
};

__printf(2, 3) void fdr_text_line(struct fdr_text *t, const char *fmt, ...);

void fdr_names_reset(void);
u32 fdr_names_work_key(void *func);
void fdr_names_irq_seen(int irq, const char *name);
/* Process context: the id table as text.  Returns a kvmalloc'd buffer. */
char *fdr_names_text(size_t *len);
/*
 * The same text into @buf, complete lines only, as much as fits in @size
 * bytes (*@truncated set when something did not); returns its length.
 * @panic: from the panic notifier, recording: nothing that sleeps or locks.
 */
size_t fdr_names_write(char *buf, size_t size, bool panic, bool *truncated);

/* ------------------------------------------------------------ fdr_crash.c */

#include <linux/tracebuf_crash.h>

/*
 * The crash descriptor (uapi/linux/tracebuf_crash.h) and the panic
 * notifier that freezes the rings.  Init/exit from fdr_dev.c; the others
 * under fdr_lock, stopped, except the notifier.
 */
int fdr_crash_init(void);
void fdr_crash_exit(void);
/* The rings were allocated: describe their frames.  0 or -ENOMEM. */
int fdr_crash_rings(void);
/* The rings are about to be freed. */
void fdr_crash_rings_gone(void);
/* A capture started (@hdr: its file header), stopped, or was discarded. */
void fdr_crash_state(u32 state, u32 mode, const u8 *hdr);

/* fdr_ring.c, for the crash descriptor. */
u32 fdr_ring_size(void);
const u8 *fdr_ring_data(unsigned int cpu);
void fdr_ring_freeze(const char *msg, u32 len, u64 lost,
		     struct tracebuf_crash_cpu *out);

/* ----------------------------------------------------------- fdr_mmap.c */

struct vm_area_struct;

/**
 * struct fdr_mmap - a file's mappings of the rings
 * @ctrl:	per possible CPU, the control page of the file's mapping of
 *		that CPU, allocated at its first mmap() and kept until the
 *		file is released (every mapping is gone by then)
 */
struct fdr_mmap {
	struct tracebuf_fdr_mmap_page **ctrl;
};

/* Any context that may sleep: map one CPU's ring for the file of @m. */
int fdr_mmap(struct fdr_mmap *m, struct vm_area_struct *vma);
/* Release of the file. */
void fdr_mmap_file_exit(struct fdr_mmap *m);
/*
 * fdr_lock, stopped: fdr_ring_alloc() for CONFIG and START, refused with
 * EBUSY when it would free a ring that is mapped.
 */
int fdr_mmap_ring_alloc(u32 size);
/*
 * fdr_lock, streaming mode: TRACEBUF_FDR_IOC_MMAP_GET for the file of @m
 * and @rd, in capture @gen with file header @hdr.
 */
long fdr_mmap_get(struct fdr_mmap *m, struct fdr_reader *rd,
		  const struct tracebuf_fdr_mmap_get *g, bool running,
		  u64 gen, const u8 *hdr);

/* ------------------------------------------------------------ fdr_dev.c */

int fdr_dev_init(void);
void fdr_dev_exit(void);

#endif /* _FDR_H */
