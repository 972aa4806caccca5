/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf report's scheduler section, from the trace's SWITCH and
 * WAKEUP events (uapi/linux/tracebuf_fdr.h, "typed events"): per task the
 * run-queue delay (a wake-up, or a preemption, to the next switch to the
 * task on any CPU), the time on the CPU and the time off it by the state
 * the task left the CPU in; per CPU the busy and idle time; the longest
 * run-queue delays.
 *
 * A CPU's switches and the wake-ups of other CPUs' tasks are in different
 * blocks of the file, so the events are kept (28 bytes each) and walked
 * in time order once the file is read: memory grows with the number of
 * switches and wake-ups, as perf sched's does.  Times are measured
 * between the trace's own events only: before a task's or a CPU's first
 * switch, what it did is unknown, not guessed.  Idle tasks
 * (TRACEBUF_FDR_IDLE_TID) make the CPUs' idle time and have no run-queue
 * delay.  Computed on the whole trace, then --pid, --tid and --cpu
 * (struct tb_fdr_report_sched_filter) choose the rows, the longest delays
 * and the histogram of all tasks; --time, --before, --events and --name
 * do not apply.
 */
#ifndef TB_FDR_REPORT_SCHED_H
#define TB_FDR_REPORT_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/tracebuf_fdr.h>

#include "convert/latency.h"
#include "format/fdr_event.h"
#include "format/fdr_reader.h"
#include "util/hash.h"

/* A switch or wake-up, as kept until the walk (28 bytes). */
struct tb_fdr_report_sched_ev {
	uint64_t tsc;
	int32_t tid;		/* switch: next; wake-up: the task woken */
	int32_t prev;		/* switch: prev; wake-up: the waker's block */
	int32_t pid;		/* switch in next's block: next's process, else -1 */
	uint32_t seq;		/* file order, for events at one time */
	uint16_t cpu;		/* the record's CPU */
	uint8_t wakeup;		/* 1: wake-up, 0: switch */
	uint8_t state;		/* switch: prev's TRACEBUF_FDR_STATE_* */
};

struct tb_fdr_report_sched_task {
	int32_t tid;
	int32_t pid;		/* from the blocks it was switched in, or 0 */
	struct tb_latency runq;	/* run-queue delays, ticks */
	uint64_t runq_log2_ns[TB_LATENCY_LOG2];
	uint64_t on;		/* ticks on a CPU, switch-in to switch-out */
	uint64_t off[TRACEBUF_FDR_STATES];	/* ticks off, by state */
	uint64_t switches;	/* switched in */
	/* during the walk */
	uint64_t wake_tsc, since;
	bool waiting;		/* woken or preempted, not yet switched in */
	bool running;		/* on a CPU since @since */
	bool off_known;		/* off a CPU since @since in @state */
	uint8_t state;
};

struct tb_fdr_report_sched_cpu {
	bool seen;		/* a switch on it */
	uint64_t first, last;	/* its first and last switch */
	uint64_t busy, idle;	/* ticks between them */
	uint64_t switches;
};

/* One of the longest run-queue delays. */
struct tb_fdr_report_sched_delay {
	uint64_t wake_tsc, ticks;
	int32_t tid;
	uint16_t cpu;		/* where it was switched in */
	bool preempted;		/* waited from a preemption, not a wake-up */
};

/* The report's --pid, --tid, --cpu: a value, or -1 for any. */
struct tb_fdr_report_sched_filter {
	int64_t pid, tid, cpu;
};

struct tb_fdr_report_sched {
	struct tb_fdr_report_sched_ev *ev;
	size_t nev, cap_ev;
	uint64_t switches, wakeups;
	uint64_t malformed;	/* SWITCH or WAKEUP payloads too short */
	/* sorted by tid after the walk (during it: by first sight), no idle */
	struct tb_fdr_report_sched_task *tasks;
	size_t ntasks, cap_tasks;
	struct tb_hash index;	/* during the walk: tid -> index + 1 */
	struct tb_fdr_report_sched_cpu *cpus;
	unsigned int ncpus;
	struct tb_latency all;	/* every task's run-queue delays */
	uint64_t all_log2_ns[TB_LATENCY_LOG2];
	struct tb_fdr_report_sched_delay *longest;	/* longest first */
	unsigned int nlongest, top;
	uint64_t carried;	/* waits carried in (struct ..._carry) */
};

/*
 * The waits for a CPU still open when a walk ends (a task woken, or
 * preempted, not yet switched in), for the walk of the events read next:
 * tracebuf top summarizes each interval's events alone (convert/fdr_top.h),
 * and a wake-up read in one interval may have its switch-in read in the
 * next.  Each is kept as a wake-up at the time the wait began, so that
 * the next walk times the wait as the walk of the whole trace does; a
 * preempted task's wait is then counted as a woken one's (the longest
 * delays' "preempted" mark is lost across the cut).
 */
struct tb_fdr_report_sched_carry {
	struct tb_fdr_report_sched_ev *ev;	/* wake-ups */
	size_t nev, cap;
};

/* Keep switch or wake-up @ev of record @rec; 0 or -ENOMEM. */
int tb_fdr_report_sched_add(struct tb_fdr_report_sched *s, const struct tb_fdr_record *rec,
		     const struct tb_fdr_event *ev);

/*
 * Walk the events kept in time order into the tables, keeping the @top
 * longest delays of the tasks and CPUs @f passes; @ns converts ticks to
 * nanoseconds (the histograms).  0 or -ENOMEM.
 */
int tb_fdr_report_sched_finish(struct tb_fdr_report_sched *s, unsigned int top,
			const struct tb_fdr_report_sched_filter *f,
			uint64_t (*ns)(const void *ctx, uint64_t ticks),
			const void *ctx);

/* Whether task @tid of process @pid passes @f's --pid and --tid. */
bool tb_fdr_report_sched_shown(const struct tb_fdr_report_sched_filter *f,
			       int32_t tid, int32_t pid);

void tb_fdr_report_sched_free(struct tb_fdr_report_sched *s);

/*
 * Before tb_fdr_report_sched_finish(): keep @c's waits in @s as if read
 * (counted in s->carried, not in s->wakeups).  0 or -ENOMEM.
 */
int tb_fdr_report_sched_carry_in(struct tb_fdr_report_sched *s,
				 const struct tb_fdr_report_sched_carry *c);

/*
 * After tb_fdr_report_sched_finish(): replace @c's waits by those of @s
 * still open.  0 or -ENOMEM (@c then empty).
 */
int tb_fdr_report_sched_carry_out(struct tb_fdr_report_sched_carry *c,
				  const struct tb_fdr_report_sched *s);

void tb_fdr_report_sched_carry_free(struct tb_fdr_report_sched_carry *c);

#endif /* TB_FDR_REPORT_SCHED_H */
