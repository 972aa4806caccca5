/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR -> trace-cmd's trace.dat, version 6 (trace-cmd.dat.v6(5)),
 * which trace-cmd report, its filters and KernelShark read as an ftrace
 * recording (tracebuf convert fdr-tracedat FILE OUT.dat).  The events
 * are the kernel's tracepoints where ours have one (raw_syscalls, irq,
 * exceptions, sched, ftrace's print for markers) and tracebuf's own
 * otherwise; one CPU's ring-buffer pages per CPU, in time order through
 * convert/fdr_merge.h; the command lines of every task.
 * Documentation/formats.rst ("trace.dat") has the layout and the mapping
 * of every record.
 *
 * The output is written front to back (a stream: stdout works): the
 * header, whose size the task names decide, once every CPU's pages are
 * in their temporary files.  Memory: the merge's, a page per CPU.
 */
#ifndef TB_FDR_TRACEDAT_H
#define TB_FDR_TRACEDAT_H

#include <stdint.h>
#include <stdio.h>

#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

struct tb_fdr_tracedat_opts {
	const struct tb_name_map *names;	/* may be NULL */
	const struct tb_task_map *tasks;	/* may be NULL */
};

/* What was written, and what ftrace's events could not say. */
struct tb_fdr_tracedat_stats {
	uint64_t events;	/* events written */
	uint64_t pages;		/* ring-buffer pages */
	uint32_t cpus;		/* CPUs of the file */
	uint64_t tasks;		/* command lines */
	uint64_t lost;		/* events lost, as the pages say */
	uint64_t sys_exits;	/* sys_exit without a RET: ret 0 */
	uint64_t rets;		/* sys_exit with the RET's value */
	uint64_t rets_unmatched;	/* RET events without their exit */
	uint64_t malformed;	/* typed events too short for their type */
	uint64_t switches;	/* sched_switch (recorded) */
	uint64_t wakeups;	/* sched_wakeup, sched_wakeup_new */
	uint64_t irq_exits;	/* irq_handler_exit: ret not recorded */
	uint64_t faults;	/* page faults: ip, error_code not recorded */
	uint64_t args_unrecorded;	/* sys_enter without arguments */
	uint64_t compat;	/* sys_enter/exit of 32-bit (compat) calls */
	uint64_t own;		/* events of our own (tracebuf:*) */
	uint64_t cut_markers;	/* markers cut to fit a page */
	uint64_t nul_markers;	/* markers with a NUL: print shows up to it */
	uint64_t sub_ns;	/* clock finer than 1 ns: times rounded */
};

/*
 * Convert @in into @out.  Returns 0, -1 with @err set for malformed
 * input, or -errno.  Nothing is written to @out before the input was
 * read whole.
 */
int tb_fdr_tracedat_write(FILE *in, FILE *out,
			  const struct tb_fdr_tracedat_opts *o,
			  struct tb_fdr_tracedat_stats *st,
			  struct tb_error *err);

#endif /* TB_FDR_TRACEDAT_H */
