/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tracebuf top prints of an interval (convert/fdr_top.h): a block of
 * text, the event names then the tasks, as top and libbpf-tools' `syscount
 * -i` print; or one JSON line, every name and task of the interval, times
 * in nanoseconds.  An interval with switches or wake-ups adds the
 * scheduler lines (run-queue delays, time off a CPU by state, the tasks
 * that waited for a CPU) to the block, and a "sched" object at the end
 * of the JSON line.
 */
#ifndef TB_FDR_TOP_PRINT_H
#define TB_FDR_TOP_PRINT_H

#include <stdio.h>

#include "convert/fdr_top.h"

struct tb_fdr_top_print {
	unsigned int interval;	/* 1, 2, ... */
	double start_s;		/* seconds since top began, at its start */
	double length_s;	/* its length in seconds */
	size_t bytes;		/* of the stream read in it */
	bool attached;		/* following another's capture (--attach) */
	uint64_t missed;	/* attached: its pages gone before a look */
	unsigned int names;	/* text: rows of names at most (0: all) */
	unsigned int tasks;	/* text: rows of tasks, and of tasks that
				 * waited for a CPU, at most (0: all) */
	bool keys;		/* text: say which keys sort and quit */
};

/* Each returns 0 or -EIO when writing failed. */
int tb_fdr_top_print_text(const struct tb_fdr_top *t,
			  const struct tb_fdr_top_print *p, FILE *out);
int tb_fdr_top_print_json(const struct tb_fdr_top *t,
			  const struct tb_fdr_top_print *p, FILE *out);

#endif /* TB_FDR_TOP_PRINT_H */
