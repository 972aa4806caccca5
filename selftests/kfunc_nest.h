/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel function nesting checker both collectors' tests share
 * (fdr_kfunc_test: the module; bpf_collector_test: tracebuf bpf -f): fed
 * every record of a stream by fdr_check(), it follows one thread's calls
 * (kernel functions, syscalls, IRQs, softirqs) on a stack and counts
 * exits that do not close the innermost open call, entries and exits per
 * kernel function key, the calls made inside the outer function (the
 * workload's vfs_read) and the interrupts that landed there.
 */
#ifndef KFUNC_NEST_H
#define KFUNC_NEST_H

#include <string.h>
#include <sys/syscall.h>

#include "fdr_util.h"

#define KF(i)		(TRACEBUF_FDR_SPACE_KFUNC << TRACEBUF_FDR_ID_SPACE_SHIFT | (i))
#define SYS_READ_ID	(TRACEBUF_FDR_SPACE_SYSCALL << TRACEBUF_FDR_ID_SPACE_SHIFT | SYS_read)

#define DEPTH_MAX	64

struct nest {
	int32_t tid;		/* the thread followed */
	uint32_t outer;		/* KF(key) of the function the others nest in */
	/*
	 * If not 0, the id whose first exit starts the count: a workload
	 * exec'd by a collector marks where its own calls begin (the
	 * dynamic loader's reads come before).
	 */
	uint32_t start_id;
	int started;
	uint32_t stack[DEPTH_MAX];
	int depth;
	int errors;		/* exit that is not the innermost open call */
	unsigned int enter[4], exit[4];	/* per kfunc key */
	unsigned int in_outer[4];	/* kfunc key called inside @outer */
	unsigned int irq_inside;	/* IRQ/softirq inside @outer */
	unsigned int sys_outside;	/* @outer not inside the read syscall */
	unsigned int lost_reports;
};

static inline int nest_has(const struct nest *n, uint32_t id)
{
	int i;

	for (i = 0; i < n->depth; i++)
		if (n->stack[i] == id)
			return 1;
	return 0;
}

static inline void nest_cb(const struct fdr_rec *r, void *arg)
{
	struct nest *n = arg;
	uint32_t space = TRACEBUF_FDR_ID_SPACE(r->id);
	uint32_t key = TRACEBUF_FDR_ID_KEY(r->id);

	if (r->kind == FDR_R_CUSTOM) {
		if (r->size > 15 && !memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX, 15))
			n->lost_reports++;
		return;
	}
	if (r->tid != n->tid)
		return;
	if (n->start_id && !n->started) {
		n->started = r->id == n->start_id && r->type == 1;
		return;
	}
	if (space != TRACEBUF_FDR_SPACE_KFUNC &&
	    space != TRACEBUF_FDR_SPACE_SYSCALL &&
	    space != TRACEBUF_FDR_SPACE_IRQ &&
	    space != TRACEBUF_FDR_SPACE_SOFTIRQ)
		return;
	if (r->type == 1) {
		if (!n->depth || n->stack[n->depth - 1] != r->id) {
			/* Our first syscall's exit after START: not an error. */
			if (space == TRACEBUF_FDR_SPACE_SYSCALL && !n->depth)
				return;
			n->errors++;
			return;
		}
		n->depth--;
		if (space == TRACEBUF_FDR_SPACE_KFUNC && key < 4)
			n->exit[key]++;
		return;
	}
	if (space == TRACEBUF_FDR_SPACE_KFUNC && key < 4) {
		n->enter[key]++;
		if (r->id != n->outer && nest_has(n, n->outer))
			n->in_outer[key]++;
		if (r->id == n->outer && !nest_has(n, SYS_READ_ID))
			n->sys_outside++;
	}
	if ((space == TRACEBUF_FDR_SPACE_IRQ ||
	     space == TRACEBUF_FDR_SPACE_SOFTIRQ) && nest_has(n, n->outer))
		n->irq_inside++;
	if (n->depth == DEPTH_MAX) {
		n->errors++;
		return;
	}
	n->stack[n->depth++] = r->id;
}

#endif /* KFUNC_NEST_H */
