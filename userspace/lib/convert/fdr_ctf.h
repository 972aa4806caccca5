/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR -> CTF 1.8, a trace that babeltrace2, Trace Compass and
 * lttng-analyses take for an LTTng kernel trace (tracebuf convert
 * fdr-ctf FILE DIR writes DIR/kernel/metadata and DIR/kernel/channel0_N,
 * one stream per CPU).  Documentation/formats.rst ("CTF") has the
 * mapping of every record.
 *
 * A CPU's stream must be in time order: convert/fdr_merge.h merges the
 * trace's runs, in memory bounded by runs, tasks and CPUs (one packet
 * each) and event names.
 */
#ifndef TB_FDR_CTF_H
#define TB_FDR_CTF_H

#include <stdint.h>
#include <stdio.h>

#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

struct tb_fdr_ctf_opts {
	const struct tb_name_map *names;	/* may be NULL */
	const struct tb_task_map *tasks;	/* may be NULL */
	const char *hostname;			/* NULL: unknown */
	const char *kernel_release;		/* NULL: unknown */
	const char *source;			/* name of the input */
};

/* What was written, and what could not be said as LTTng says it. */
struct tb_fdr_ctf_stats {
	uint64_t events;	/* events written, derived ones included */
	uint64_t switches;	/* sched_switch derived from CPU changes */
	uint64_t sched_switches;	/* sched_switch from SWITCH events */
	uint64_t wakeups;	/* sched_wakeup, sched_wakeup_new */
	uint64_t sys_exits;	/* syscall_exit_*: no RET, ret 0 */
	uint64_t rets;		/* syscall_exit_*: ret from a RET event */
	uint64_t rets_unmatched;	/* RET events without their exit */
	uint64_t malformed;	/* typed events too short for their type */
	uint64_t irq_exits;	/* irq_handler_exit: ret a placeholder */
	uint64_t statedump;	/* lttng_statedump_process_state */
	uint64_t lost;		/* events lost (events_discarded) */
	uint64_t runs;		/* runs merged */
	uint32_t cpus;		/* streams */
	uint64_t own;		/* events of our own (tracebuf_*) */
	uint64_t args_unrecorded;	/* syscall entries without arguments */
	uint64_t args_dropped;	/* arguments past the class's fields */
	uint64_t cut_markers;	/* markers cut to fit a packet */
	uint64_t unmatched;	/* exits of point events without entry */
};

/*
 * Convert @in into the directory @dir (created if needed; its kernel/
 * subdirectory must not hold a trace already).  Returns 0, -1 with @err
 * set for malformed input, or -errno.
 */
int tb_fdr_ctf_write(FILE *in, const char *dir,
		     const struct tb_fdr_ctf_opts *o,
		     struct tb_fdr_ctf_stats *st, struct tb_error *err);

#endif /* TB_FDR_CTF_H */
