/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel flight data recorder (/dev/tracebuf_fdr), split in five parts:
 *
 *   fdr_ring.c    per-CPU buffers of FDR blocks, the write path, snapshot
 *                 and streaming consumption (the state machine lives there)
 *   fdr_clock.c   the timestamp clock: the TSC or local_clock()
 *   fdr_events.c  the probe-layer consumer: kernel event -> FDR records
 *   fdr_names.c   function id -> name (IRQ, softirq, work functions)
 *   fdr_dev.c     the misc device: ioctls, read, write (markers), poll
 *
 * Locking: fdr_dev.c's mutex serialises configuration, start/stop, stream
 * consumption and snapshots; the ring functions marked "fdr_lock" expect it
 * held.  The write path takes no lock at all (see fdr_ring.c).
 */
#ifndef _FDR_H
#define _FDR_H

#include <linux/types.h>
#include <linux/wait.h>

#include "fdr_record.h"

struct task_struct;

/* ---------------------------------------------------------- fdr_clock.c */

#include <linux/sched/clock.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#endif

/* Set by fdr_clock_select(), while stopped. */
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
#else
	return 0;
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

/*
 * Write path: any context, including NMI.  Never sleeps or locks.
 * fdr_write_func() takes the record's fdr_func_word(), which callers
 * build from constants.
 */
void fdr_write_func(u32 word);
void fdr_write_func_args(u32 id, unsigned int nargs, const unsigned long *args);
void fdr_write_instant(u32 id, unsigned long arg);
void fdr_write_switch(struct task_struct *next, bool open_block);
/* Process context; false if not recording (stopped). */
bool fdr_write_marker(const void *data, u32 len);

/* Stats: fills written, dropped, overwritten, bytes of one CPU. */
void fdr_ring_cpu_stats(unsigned int cpu, u64 out[4]);

/* Flight-recorder snapshot.  fdr_lock.  Returns bytes stored in @dst. */
size_t fdr_snapshot_size(void);
size_t fdr_snapshot(u8 *dst);

/* Streaming consumption.  fdr_lock. */
ssize_t fdr_stream_read(char __user *buf, size_t count, const void *owner);
void fdr_stream_flush(bool all);
void fdr_stream_release(const void *owner);
/* Lockless: is there something a blocked reader should look at? */
bool fdr_stream_ready(void);

/* --------------------------------------------------------- fdr_events.c */

/* fdr_lock, stopped: what to record; start/stop feeding the ring. */
void fdr_events_config(u32 classes, u32 nr_args);
int fdr_events_start(void);
void fdr_events_stop(void);

/* ---------------------------------------------------------- fdr_names.c */

void fdr_names_reset(void);
u32 fdr_names_work_key(void *func);
void fdr_names_irq_seen(int irq, const char *name);
/* Process context: the id table as text.  Returns a kvmalloc'd buffer. */
char *fdr_names_text(size_t *len);

/* ------------------------------------------------------------ fdr_dev.c */

int fdr_dev_init(void);
void fdr_dev_exit(void);

#endif /* _FDR_H */
