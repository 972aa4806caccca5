/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF collector's records (userspace/bpf/tracebuf_bpf.h) into the
 * kernel FDR file both collectors write: each ring buffer record checked
 * and turned into a per-task block event (lib/collect/fdr_blocks.h), work
 * function addresses into keys, idle tasks into one thread per CPU; then
 * the file through the collectors' post-processing (lib/convert/fdr_post.h), the
 * names of the ids (lib/device/fdr_knames.h) and the statistics (lib/collect/collect.h).
 * Everything of `tracebuf bpf` but libbpf, so that it is tested on any
 * host (userspace/tests/fdr_bpf_test.c).
 *
 * Out of memory ends the program (exit status 1, cli/cli.h).
 */
#ifndef TB_FDR_BPF_H
#define TB_FDR_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/types.h>
#include <linux/tracebuf.h>

#include "../../bpf/tracebuf_bpf.h"
#include "collect/collect.h"
#include "collect/fdr_blocks.h"
#include "convert/fdr_post.h"
#include "device/fdr_knames.h"
#include "device/kfunc.h"
#include "format/fdr_classes.h"
#include "format/name_map.h"
#include "util/buf.h"

/* The classes the BPF collector records: all but marker, the last. */
#define TB_FDR_BPF_CLASSES	(TRACEBUF_FDR_ALL & ~TRACEBUF_FDR_MARKER)
#define TB_FDR_BPF_NR_CLASSES	(TB_FDR_NR_CLASSES - 1)

struct tb_fdr_bpf {
	struct tb_fdr_blocks blk;	/* the blocks being built */
	unsigned int nr_cpus;
	uint32_t classes;		/* TRACEBUF_FDR_* recorded */
	struct tb_buf workfns;	/* uint64_t: WORK key = index of the function */
	uint64_t irq_seen[TB_FDR_KNAMES_IRQS / 64];	/* IRQs to name */
	const struct tb_kfuncs *kfuncs;	/* -f: KFUNC key i is kfuncs[i] */
	/* statistics */
	uint64_t records;
	uint64_t events;
	uint64_t per_class[TB_FDR_NR_CLASSES];
	uint64_t switches;
	uint64_t wakeups;	/* sched class: WAKEUP typed events */
	uint64_t errors;	/* syscall class: RET typed events */
	uint64_t gap_reports;	/* loss markers written into the stream */
	uint64_t gap_events;	/* events they report */
	uint64_t bad;		/* malformed records (never expected) */
};

/*
 * What tracebuf bpf -f refuses to trace besides the kernel's rules: the
 * functions its own recording path runs (the trampoline's bookkeeping,
 * the ring buffer and its lock, the clock, the reader's wake-up), where
 * a program would run with the ring buffer's lock held by the program it
 * interrupted.  Documentation/bpf-collector.rst.
 */
extern const struct tb_kfunc_deny tb_fdr_bpf_kfunc_deny;

/*
 * Records lost by id space (index 0: switch records): ring buffer
 * reservation failures and runs the kernel skipped because the program
 * was already running on that CPU (bpf_prog_info.recursion_misses).
 */
struct tb_fdr_bpf_losses {
	uint64_t ringbuf[TB_BPF_NR_COUNTERS];
	uint64_t recursion[TB_BPF_NR_COUNTERS];
};

/*
 * For records of CPUs 0..@nr_cpus-1, recording @classes into a ring
 * buffer of @buffer_size bytes (the file header says so).  Set
 * c->blk.wall_off (collect/fdr_blocks.h) before the first record.  Returns 0 or
 * -errno; release with tb_fdr_bpf_free() in both cases.
 */
int tb_fdr_bpf_init(struct tb_fdr_bpf *c, unsigned int nr_cpus,
		    uint32_t classes, uint64_t buffer_size);

/*
 * One ring buffer record of @size bytes: a struct tb_bpf_event and its
 * arguments.  A malformed one (size, CPU, kind) is counted in c->bad and
 * left out.  Returns 0 (the type of a libbpf ring_buffer callback).
 */
int tb_fdr_bpf_record(void *c, void *data, size_t size);

/*
 * The TRACEBUF_FDR_STATE_* of a switch's previous task, from the raw
 * prev_state and preempt flag that sched_switch passes (the kernel's
 * TASK_* bits): preempted or running is RUNNING, TASK_IDLE IDLE, and so
 * on as uapi/linux/tracebuf_fdr.h lists them.
 */
unsigned int tb_fdr_bpf_state(uint32_t prev_state, bool preempt);

/*
 * The file: the blocks, put in order and post-processed by @post (its
 * raw flag as set by the caller), into @out.  Returns 0, or -1 with @err
 * set.
 */
int tb_fdr_bpf_write(struct tb_fdr_bpf *c, FILE *out,
		     struct tb_fdr_post *post, struct tb_error *err);

/*
 * The names of the kernel ids in the file, into @known (empty): fixed
 * names, IRQs from @interrupts, work functions from @kallsyms (the
 * texts of /proc/interrupts and /proc/kallsyms; either may be NULL) and
 * the kernel functions of c->kfuncs.
 * Returns 0 or -1 (no memory).
 */
int tb_fdr_bpf_names(const struct tb_fdr_bpf *c, FILE *interrupts,
		     FILE *kallsyms, struct tb_name_map *known);

/* The losses summed over the classes, for the summary. */
struct tb_fdr_bpf_lost {
	uint64_t ringbuf, recursion;	/* events */
	uint64_t switches;		/* switch records */
};

/*
 * The statistics of the run into @s (the output, classes, rusage,
 * duration, status and files are the caller's): counts, @lost by class
 * into @lost_cls (TB_FDR_NR_CLASSES counters, s->lost_per_class points
 * to it), and this collector's own keys (Documentation/bpf-collector.rst)
 * but its configuration's; the totals into @tot.  Kernel functions lost
 * count in s->lost and in @tot, outside the classes.
 */
void tb_fdr_bpf_stats(const struct tb_fdr_bpf *c,
		      const struct tb_fdr_post *post,
		      const struct tb_fdr_bpf_losses *lost, uint64_t *lost_cls,
		      struct tb_collect_stats *s, struct tb_fdr_bpf_lost *tot);

void tb_fdr_bpf_free(struct tb_fdr_bpf *c);

#endif /* TB_FDR_BPF_H */
