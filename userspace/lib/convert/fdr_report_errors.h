/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf report's errors section: the system calls that failed, by
 * errno, from the trace's RET events (uapi/linux/tracebuf_fdr.h, "typed
 * events").  A RET belongs to the exit record just before it in its
 * block, and only if it names that exit's function id: one after any
 * other record, first in its block or naming another id is counted as
 * not pinned, never put on a call it may not belong to.  Memory grows
 * with the distinct (function, errno) pairs.
 */
#ifndef TB_FDR_REPORT_ERRORS_H
#define TB_FDR_REPORT_ERRORS_H

#include <stdbool.h>
#include <stdint.h>

#include "format/fdr_event.h"
#include "util/hash.h"

/* Failed calls of one function with one errno. */
struct tb_fdr_report_errno {
	uint32_t id;		/* the function, as the file numbers it */
	int err;		/* 1..4095 */
	uint64_t count;
};

struct tb_fdr_report_errors {
	uint64_t returns;	/* RET events read */
	uint64_t pinned;	/* of those, on their exit */
	uint64_t unmatched;	/* not after an exit of their id */
	uint64_t malformed;	/* payload too short */
	struct tb_fdr_report_errno *v;	/* by id then errno after _sort() */
	size_t n, cap;
	struct tb_hash index;	/* (id, errno) -> index + 1 */
	/* the exit just read in this block, for the next record */
	uint32_t exit_id;
	bool exit_valid, exit_counted;
};

/*
 * The record just read, not a RET: an exit of @id (@counted: it passes
 * the report's filters) may be followed by its return value; any other
 * record (@is_exit false) ends that chance.
 */
static inline void tb_fdr_report_errors_record(struct tb_fdr_report_errors *e,
					       bool is_exit, uint32_t id,
					       bool counted)
{
	e->exit_valid = is_exit;
	e->exit_id = id;
	e->exit_counted = counted;
}

/* A RET event @ret: pinned on the exit before it, or not; 0 or -ENOMEM. */
int tb_fdr_report_errors_ret(struct tb_fdr_report_errors *e,
			     const struct tb_fdr_ret *ret);

/* v[] in (id, errno) order, as the printers read it. */
void tb_fdr_report_errors_sort(struct tb_fdr_report_errors *e);

void tb_fdr_report_errors_free(struct tb_fdr_report_errors *e);

#endif /* TB_FDR_REPORT_ERRORS_H */
