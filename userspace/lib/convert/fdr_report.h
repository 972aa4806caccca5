/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The summary of an FDR trace (tracebuf report): a visitor over the
 * reader's records that keeps, per task, a stack of the calls in
 * progress, so that every exit is matched with its entry in the same
 * task, nested events included, and keeps per event name, task and CPU
 * what the report prints.  Memory grows with the names, tasks, CPUs and
 * nesting depth (up to opts.depth_max calls per task), never with the
 * length of the trace (convert/latency.h bounds the percentiles).
 * Documentation/tools.rst ("Reading a trace") describes the numbers.
 *
 * Records of one task must come in time order, which the collectors'
 * files guarantee (one block per task).  A file whose tasks' records go
 * back in time (a capture read straight from the device) is first put in
 * order in memory by the post-processing of tracebuf convert fdr-tidy,
 * every record kept (tb_fdr_post.keep_records).
 */
#ifndef TB_FDR_REPORT_H
#define TB_FDR_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_report_class.h"
#include "convert/fdr_report_errors.h"
#include "convert/fdr_report_sched.h"
#include "convert/latency.h"
#include "format/fdr_classes.h"
#include "format/fdr_reader.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

#define TB_REPORT_NO_FILTER	(-1)

struct tb_fdr_report_opts {
	int64_t pid, tid, cpu;	/* TB_REPORT_NO_FILTER or the value */
	uint32_t classes;	/* bit per class, 0: all */
	const char *name;	/* glob over event names, or NULL */
	/* --time: nanoseconds from the trace's first record; to 0: no end */
	uint64_t from_ns, to_ns;
	/* --before: nanoseconds before the trigger or panic, 0: off */
	uint64_t before_ns;
	unsigned int top;	/* longest events kept */
	/*
	 * Calls kept per task (default 1024): deeper entries are counted
	 * (too_deep) and their exits matched to them, not timed.
	 */
	unsigned int depth_max;
	/*
	 * The scheduler section's waits still open, carried in from the
	 * stream read before and out to the next (tracebuf top's
	 * intervals), or NULL: none.
	 */
	struct tb_fdr_report_sched_carry *sched_carry;
};

/* One event name. */
struct tb_fdr_report_func {
	uint32_t id;		/* as in the file */
	unsigned int rc;	/* class */
	char *name;
	bool selected;		/* passes --class and --name */
	struct tb_latency lat;	/* completed calls, in ticks */
	/*
	 * lat.log2 of the calls in nanoseconds, as the text draws it: a
	 * power of two of ticks is not one of nanoseconds, so it cannot be
	 * derived from lat.log2.
	 */
	uint64_t log2_ns[TB_LATENCY_LOG2];
	uint64_t points;	/* point events (faults, fork, exit): count */
	uint64_t no_entry;	/* exits whose entry is not in the trace */
	uint64_t no_exit;	/* entries whose exit is not in the trace */
	uint64_t too_deep;	/* entries nested beyond opts.depth_max */
	bool cut;		/* a marker: its text is longer than its name */
};

struct tb_fdr_report_task {
	int32_t tid, pid;
	/* its command name from the trace (TRACEBUF_FDR_COMM_PREFIX), or "" */
	char comm[16];
	uint64_t first, last;	/* ticks of its first and last record */
	uint64_t count[TB_RC_NR];	/* events by class */
	uint64_t time[TB_RC_NR];	/* ticks in completed calls, outermost */
	uint64_t cpus;		/* bit n: seen on CPU n (n < 64) */
	/* the calls in progress */
	struct tb_fdr_report_frame *stack;
	unsigned int depth;
	size_t cap;
	/* open entries beyond opts.depth_max: exits close these first */
	uint64_t deep;
	/* funcs[] index + 1 of a point event's entry just read, or 0 */
	uint32_t point;
};

struct tb_fdr_report_cpu {
	uint64_t count[TB_RC_NR];
	/* ticks in completed outermost calls begun on it, by class */
	uint64_t time[TB_RC_NR];
	uint64_t lost;		/* from the recorder's loss reports */
};

/* One of the longest events. */
struct tb_fdr_report_long {
	uint64_t start, ticks;
	int32_t tid, pid;
	uint16_t cpu;
	const struct tb_fdr_report_func *func;
};

/* A node of the folded-stack tree: (parent, function) or a task root. */
struct tb_fdr_report_fold {
	uint32_t parent;	/* node index + 1, 0 for a root */
	uint32_t id;		/* function id; a root: 0 */
	int32_t tid, pid;	/* a root's task */
	uint64_t ticks;		/* self time of the calls ending here */
	uint64_t count;
};

/*
 * A trigger or panic event ("tracebuf trigger: ", "tracebuf: panic: "):
 * the last in the file, and how many there are (a flight recorder that
 * fired before still holds the earlier ones).
 */
struct tb_fdr_report_trigger {
	bool found;
	uint64_t count;
	uint64_t tsc;
	uint16_t cpu;
	int32_t tid;
	char text[96];
};

struct tb_fdr_report {
	struct tb_fdr_header hdr;
	struct tb_fdr_stats stats;	/* of the reader */
	bool tidied;		/* put in order first (convert/fdr_report.h) */
	uint64_t first, last;	/* ticks of the first and last record */
	bool has_first;		/* a record was seen: 0 is a time too */
	uint64_t window_from, window_to;	/* ticks, after the filters */
	uint64_t events;	/* counted events (entries, markers) */
	uint64_t lost;		/* all CPUs' loss reports */
	uint64_t too_deep;	/* entries beyond depth_max, not timed */
	uint64_t backwards;	/* exits earlier than their entry */
	/* steps back of a task's clock inside a block, the largest */
	uint64_t clock_back, clock_back_max;
	struct tb_fdr_report_func *funcs;	/* sorted by id */
	size_t nfuncs, cap_funcs;
	struct tb_fdr_report_func *markers;	/* by text, unsorted */
	size_t nmarkers, cap_markers;
	uint64_t markers_other;	/* beyond the kept marker names */
	struct tb_fdr_report_task *tasks;	/* sorted by tid */
	size_t ntasks, cap_tasks;
	struct tb_fdr_report_cpu *cpus;
	unsigned int ncpus;
	struct tb_fdr_report_long *longest;	/* longest first */
	unsigned int nlongest;
	struct tb_fdr_report_trigger trigger;	/* the last one */
	/* --before: each CPU's last events before the trigger */
	struct tb_fdr_report_long *before;	/* per CPU, ring of opts.top */
	unsigned int *nbefore;	/* per CPU: events in the window */
	unsigned int before_cpus;	/* CPUs in those arrays */
	/* not owned */
	const struct tb_name_map *names;
	const struct tb_task_map *tasks_map;
	struct tb_fdr_report_opts opts;
	/* folded stacks: "task;outer;inner" -> self ticks and count */
	struct tb_fdr_report_fold *folds;
	size_t nfolds, cap_folds;
	bool want_folds;
	/* the scheduler and errors sections (typed events) */
	struct tb_fdr_report_sched sched;
	struct tb_fdr_report_errors errors;
};

/*
 * Read @in (a seekable file when options need two passes: --time,
 * --before) into @r.  @names and @tasks may be empty; they must outlive
 * @r.  Returns 0, -1 with @err set (malformed input, or an option that
 * the trace cannot satisfy), or -ENOMEM.
 */
int tb_fdr_report_run(struct tb_fdr_report *r, FILE *in,
		      const struct tb_name_map *names,
		      const struct tb_task_map *tasks,
		      const struct tb_fdr_report_opts *opts, bool folds,
		      struct tb_error *err);

/* Ticks to nanoseconds with the header's frequency. */
uint64_t tb_fdr_report_ns(const struct tb_fdr_report *r, uint64_t ticks);

/*
 * Command name of @tid (of process @pid): the task map's, else the one
 * the trace holds (a task that exited during the capture), else its
 * process's, else NULL.
 */
const char *tb_fdr_report_comm(const struct tb_fdr_report *r, int32_t tid,
			       int32_t pid, char buf[TB_TASK_COMM_LEN]);

void tb_fdr_report_free(struct tb_fdr_report *r);

#endif /* TB_FDR_REPORT_H */
