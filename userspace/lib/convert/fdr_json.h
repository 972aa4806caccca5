/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR -> Chrome trace_event JSON (what Perfetto and speedscope
 * open): {"traceEvents": [...]}, pid and tid from the blocks,
 * ts in microseconds (the TSC over the header's cycle_frequency), names
 * from a name map ("function N" otherwise), processes and threads named
 * from a task map.  A viewer shows what was recorded:
 *
 *  - calls are "B"/"E" slices, every one closed: a call whose exit is not
 *    in the trace is closed at its thread's last time (or by the outer
 *    call's exit), one whose entry is not in it opened at the capture's
 *    earliest time, each marked with an argument "cut";
 *  - point events (faults, fork, exit: an entry with its argument and an
 *    exit at the same time) are instant events;
 *  - arguments are named by the event's class (the kernel id the names
 *    file gives): syscall number, IRQ number, fault address in hex, ...;
 *  - a pseudo-process "CPUs" has a track per CPU whose slices say which
 *    task ran on it when: from the recorded switches where the trace has
 *    them, with wake-ups as flow arrows (convert/fdr_json_sched.h), else
 *    guessed from which task's records are on it when; "otherData"
 *    {"cpu_tracks": ...} says which;
 *  - return values of system calls are instants on their thread; the
 *    trace's own description (TRACEBUF_FDR_META_TID) is no thread;
 *  - loss reports are instant events on the thread and on the CPU.
 *
 * Documentation/conversions.rst has the mapping.  The input is read twice
 * (a pipe is first copied to a temporary file).  Memory is the open calls
 * of each thread (nesting depth times threads) and one entry per CPU
 * stretch of a task (NewCPUId record), not the number of events.
 */
#ifndef TB_FDR_JSON_H
#define TB_FDR_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

/*
 * The pseudo-process of the CPU tracks and its threads, clear of real
 * pids and tids (below 2^22) and of the idle tids (TRACEBUF_FDR_IDLE_TID).
 */
#define TB_FDR_JSON_CPUS_PID		0x20000000
#define TB_FDR_JSON_CPU_TID(cpu)	(TB_FDR_JSON_CPUS_PID + 1 + (cpu))

/* Calls nested deeper than this in one thread become instant events. */
#define TB_FDR_JSON_MAX_DEPTH		1024

struct tb_fdr_json_stats {
	uint64_t begins;	/* "B" events, cut ones included */
	uint64_t ends;		/* "E" events, cut ones included */
	uint64_t instants;	/* "i" events */
	uint64_t cut_start;	/* opened at the thread's first time */
	uint64_t cut_end;	/* closed at the thread's last time */
	uint64_t cut_inner;	/* closed by an outer call's exit */
	uint64_t orphans;	/* exits of no open call, as instants */
	uint64_t threads;
	uint64_t cpu_slices;	/* "B"/"E" pairs of the CPU tracks */
	uint64_t flows;		/* wake-ups drawn as flow arrows */
	/*
	 * Threads whose records go back in time (a capture read straight
	 * from the device: tracebuf convert fdr-tidy orders it).
	 */
	uint64_t disordered;
};

/*
 * Convert @in to @out.  @names and @tasks may be NULL, @stats too.
 * Returns 0, -1 with @err set for malformed input, or -errno when reading
 * again, copying a pipe or writing failed.
 */
int tb_fdr_json_write(FILE *in, FILE *out, const struct tb_name_map *names,
		      const struct tb_task_map *tasks,
		      struct tb_fdr_json_stats *stats, struct tb_error *err);

#endif /* TB_FDR_JSON_H */
