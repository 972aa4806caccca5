/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf script: one line per event of an FDR trace, in time order
 * across tasks and CPUs (convert/fdr_timeline.h), as perf script and
 * trace-cmd report print them:
 *
 *	COMM TID [CPU] TIME: CLASS:NAME PHASE KEY=VALUE...
 *
 * TIME in seconds.microseconds from the trace's first event (or the wall
 * clock), PHASE "enter" or "exit" for calls (nothing for point events:
 * faults, fork, exit), then the decoded fields, each KEY=VALUE, so that
 * fields the recorder adds later slot in after a line's present ones
 * without moving them; a failed syscall's exit has "ret=-2 err=ENOENT"
 * (its RET typed event, which the exit line waits for until the next
 * event); an exit ends with dur= when its entry is in the trace, kept
 * last.  Markers print "marker: TEXT", loss reports "lost: N events".
 * The typed events (format/fdr_event.h) print as perf script's:
 *
 *	sched:sched_switch PREV:TID [PRIO] STATE ==> NEXT:TID [PRIO]
 *	sched:sched_wakeup[_new] COMM:TID [PRIO] target_cpu=CPU
 *
 * a switch on the line of the task leaving the CPU; the trace's own
 * description (TRACEBUF_FDR_META_TID) prints nothing.
 * Documentation/tools.rst ("Reading a trace") describes every field.
 *
 * Memory: the merge's bound, plus per task its calls in progress (up to
 * 1024 deep, as the report), plus per event name its name.
 */
#ifndef TB_FDR_SCRIPT_H
#define TB_FDR_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_report.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

struct tb_fdr_script_opts {
	/* report's filters (convert/fdr_report.h); top and depth_max unused */
	struct tb_fdr_report_opts filter;
	bool wallclock;		/* times from the WallClockTime records */
};

struct tb_fdr_script_stats {
	struct tb_fdr_stats reader;	/* of pass one */
	uint64_t blocks;
	uint64_t events;	/* given by the merge */
	uint64_t lines;		/* printed */
	uint64_t backwards;	/* events after later ones of their block */
	size_t open_max;	/* blocks held at once (the merge's bound) */
};

/*
 * List the trace open as @fd into @out.  @names and @tasks may be empty.
 * Returns 0, -1 with @err set (malformed input, an option the trace
 * cannot satisfy), -ENOMEM, or another -errno: writing to @out failed.
 * A cut file is listed, with the reader's warning in @err.
 */
int tb_fdr_script_run(int fd, FILE *out, const struct tb_name_map *names,
		      const struct tb_task_map *tasks,
		      const struct tb_fdr_script_opts *o,
		      struct tb_fdr_script_stats *st, struct tb_error *err);

#endif /* TB_FDR_SCRIPT_H */
