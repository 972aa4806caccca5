/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf report's visitor of the reader's records (convert/fdr_report.c
 * runs the passes): per task a stack of the calls in progress, per
 * function and class the counts, times and latencies, the longest events
 * and what ran before them, folded stacks and markers.
 */
#ifndef TB_FDR_REPORT_VISIT_H
#define TB_FDR_REPORT_VISIT_H

#include <stdbool.h>
#include <stdint.h>

#include "convert/fdr_report.h"
#include "format/fdr_reader.h"
#include "util/error.h"
#include "util/hash.h"

/* Distinct marker texts kept by name; the others counted together. */
#define RP_MARKERS_MAX	256
/* Bytes of a marker's text used as its name (a longer one: ->cut). */
#define RP_MARKER_NAME	40
#define RP_UNORDERED	1	/* visitor: a task's records went back */

/* A call in progress. */
struct tb_fdr_report_frame {
	uint32_t fi;		/* its function: index in funcs[] */
	bool counted;		/* passes the filters */
	/*
	 * Inside a counted call: its time is in that call's, not once more
	 * in the task's.  A call the filters leave out does not count, so
	 * that an IRQ is outermost under --class irq.
	 */
	bool inner;
	uint16_t cpu;
	uint64_t tsc;
	uint64_t child;		/* ticks of completed calls inside it */
	uint32_t node;		/* its folded-stack node, 0 if none */
};

/* Function ids below this are found through an index, not a search. */
#define RP_DIRECT	65536

/*
 * During a pass funcs[] only grows at its end, so that an index (in the
 * call stacks, the longest events) stays valid; it is sorted by id after.
 */
struct rp_ctx {
	struct tb_fdr_report *r;
	uint32_t *direct;	/* id -> index in funcs[] + 1 */
	struct tb_hash far;	/* the same for ids from RP_DIRECT up */
	/* a pid, tid, CPU or time filter: rp_counted() looks at the record */
	bool narrow;
	uint32_t points;	/* tb_fdr_report_class_points(), once a pass */
	struct tb_fdr_report_task *last;	/* the task of the last record */
	/*
	 * The function records since the block's NewBuffer are all of
	 * task @run_tid: one whose clock goes back among them went back in
	 * time (counted); one that goes back across blocks is out of order.
	 */
	bool run;
	int32_t run_tid;
	/*
	 * The time of the block's last function or typed record, of task
	 * @blk_tid: a record before it is a step back of the clock, counted
	 * once, whichever kind either record is (tb_fdr_report.clock_back).
	 */
	bool blk;
	int32_t blk_tid;
	uint64_t blk_tsc;
	struct tb_error *err;
	struct tb_hash fold_index;	/* key -> node index + 1 */
	/*
	 * A call's log2 bucket in nanoseconds from that in ticks, without
	 * a division per call: the ticks of bucket b are in ns bucket
	 * ns_log2[b] up to ns_split[b], in the next one above it.
	 */
	uint8_t ns_log2[TB_LATENCY_LOG2];
	uint64_t ns_split[TB_LATENCY_LOG2];
	int oom;
};

/* Ticks @ticks in nanoseconds (tb_fdr_report_ns()). */
uint64_t tb_fdr_report_visit_ns(const struct tb_fdr_report *r, uint64_t ticks);
/* Nanoseconds @ns in the trace's ticks. */
uint64_t tb_fdr_report_visit_ticks(const struct tb_fdr_report *r, uint64_t ns);
/* Where task @tid is in tasks[] (sorted by tid), or would go. */
size_t tb_fdr_report_visit_task_at(const struct tb_fdr_report *r, int32_t tid);
/* The reader's visitor: the file header, then every record. */
int tb_fdr_report_visit_header(void *ctx, const struct tb_fdr_header *h);
int tb_fdr_report_visit_record(void *ctx, const struct tb_fdr_record *rec);
/* A record's time widens the trace's first and last times. */
void tb_fdr_report_visit_time(struct tb_fdr_report *r, uint64_t tsc);
/* A custom event: a marker, a task's name or exit, a loss. */
void tb_fdr_report_visit_custom(struct rp_ctx *c, const struct tb_fdr_record *rec);
/* Task @t's calls still open at the end: counted as cut. */
void tb_fdr_report_visit_abandon(struct rp_ctx *c, struct tb_fdr_report_task *t);

#endif /* TB_FDR_REPORT_VISIT_H */
