/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two passes of the trace_event JSON writer (convert/fdr_json.c)
 * share with its metadata (convert/fdr_json_meta.c): the context, the
 * threads and their open calls, and the writing of one event.
 */
#ifndef TB_FDR_JSON_OUT_H
#define TB_FDR_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_json.h"
#include "format/fdr_reader.h"
#include "util/hash.h"
#include "util/json.h"

/* Why a slice is cut (the "cut" argument). */
enum fj_cut {
	FJ_WHOLE,
	FJ_CUT_START,		/* running when the capture started */
	FJ_CUT_END,		/* still running at the thread's last record */
	FJ_CUT_EXITED,		/* the same, and the task exited */
	FJ_CUT_INNER,		/* its exit is missing: an outer exit closes it */
};

/* An open call: its "E" repeats its "B"'s arguments. */
struct fj_frame {
	uint32_t id;
	uint8_t cut;		/* enum fj_cut */
	unsigned int nargs;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
	uint64_t nth;		/* its thread's nth entry, from 1 */
};

/* First pass: the nth entry of a thread will be cut, and why. */
struct fj_cutmark {
	uint64_t nth;
	uint8_t cut;
};

struct fj_thread {
	int32_t pid, tid;
	const char *comm;	/* fj_meta_tasks(): its name, NULL if none */
	char idle_comm[TB_TASK_COMM_LEN];	/* where comm is swapper/N */
	char exit_comm[16];	/* TRACEBUF_FDR_COMM_PREFIX's, or "" */
	uint64_t first, last;	/* times of its first and last record */
	bool seen;		/* first and last are set */
	bool disordered;
	bool exited;		/* a task exit event */
	struct fj_frame *stack;
	size_t depth, cap;
	size_t npre;		/* stack[0..npre) opened at the first time */
	uint64_t entries;	/* entries so far in this pass */
	/* first pass: exits with nothing open, innermost first */
	uint32_t *pre;
	size_t npres, precap;
	/* first pass: cut entries; second: the next one to mark is [next] */
	struct fj_cutmark *cuts;
	size_t ncuts, cutcap, next;
};

/* A task's records on one CPU, from a NewCPUId to the next. */
struct fj_stint {
	uint64_t first, last;
	int32_t pid, tid;
	uint16_t cpu;
};

/* A switch (uapi SWITCH): @next_pid is -1 when next is not the block's task. */
struct fj_switch {
	uint64_t tsc;
	int32_t prev_tid, next_tid, next_pid;
	uint16_t cpu;
	size_t seq;		/* in file order */
};

/* A wake-up (uapi WAKEUP) on the waker's CPU. */
struct fj_wakeup {
	uint64_t tsc;
	int32_t tid;
	uint16_t cpu;
};

/* A switch by the task it switches in, for the wake-ups' flows. */
struct fj_switch_in {
	int32_t tid;
	uint64_t tsc;
	size_t at;		/* in sw[] */
};

/* A CPU: its records' times, its switches (sw[at..at + switches)). */
struct fj_cpu_span {
	uint64_t first, last;
	bool seen;
	size_t switches, at;
};

struct fj_ctx {
	FILE *out;
	const struct tb_name_map *names;
	const struct tb_task_map *tasks;
	struct tb_fdr_json_stats *st;
	uint64_t freq;
	uint64_t t0;		/* the capture's earliest time */
	bool has_t0;
	bool first;		/* no event written yet: no comma */
	struct fj_thread *th;
	size_t nth, thcap;
	struct tb_hash thmap;	/* pid << 32 | tid -> index + 1 */
	struct fj_stint *stints;
	size_t nstints, stcap;
	bool in_stint;		/* stints[nstints - 1] is the current block's */
	/* convert/fdr_json_sched.c */
	struct fj_switch *sw;
	size_t nsw, swcap;
	struct fj_switch_in *sw_in;	/* by next_tid, then time */
	struct fj_wakeup *wk;
	size_t nwk, wkcap;
	struct fj_cpu_span *cpus;
	size_t ncpus, cpucap;
	struct tb_hash tidmap;	/* tid -> th index + 1, its first thread */
	struct tb_fdr_call call;	/* with its CallArgument records */
	struct tb_fdr_call held;	/* a point event's entry, until its exit */
	bool writing;		/* second pass */
	int oom;
};

/* The writing of events, each described where it is defined. */
struct fj_thread *tb_fdr_json_out_thread(struct fj_ctx *c, int32_t pid, int32_t tid);
uint32_t tb_fdr_json_out_space(const struct fj_ctx *c, uint32_t id, uint32_t *key);
bool tb_fdr_json_out_is_exit(const struct tb_fdr_record *r);
void tb_fdr_json_out_ts(struct fj_ctx *c, const char *key, uint64_t tsc);
void tb_fdr_json_out_head(struct fj_ctx *c, const char *name, const char *cat,
			  char ph, int32_t pid, int32_t tid, uint64_t tsc);
const char *tb_fdr_json_out_name(const struct fj_ctx *c, uint32_t id, char *buf,
				 size_t size);
const char *tb_fdr_json_out_cat(uint32_t space);
void tb_fdr_json_out_args(struct fj_ctx *c, uint32_t id, const struct fj_frame *f,
			  const char *cut);
void tb_fdr_json_out_call_event(struct fj_ctx *c, const struct fj_frame *f,
				char ph, int32_t pid, int32_t tid, uint64_t tsc,
				const char *cut);
void tb_fdr_json_out_cpu_slice(struct fj_ctx *c, uint16_t cpu, int32_t pid,
			       int32_t tid, const char *comm, uint64_t from,
			       uint64_t to);
void tb_fdr_json_out_frame_of(struct fj_frame *f, const struct tb_fdr_call *call);

#endif /* TB_FDR_JSON_OUT_H */
