/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's names and tasks, for every reader (report, script, diff,
 * top, convert): the one place that decides where they come from.
 *
 *  - a companion named by the user (--map, --tasks) wins, checked
 *    against the trace: one whose first line says another capture id
 *    than the trace's META block, or a file of another kind (a tasks
 *    file given as names, a names file as tasks, an ELF map, an FDR
 *    trace...) is refused with a message that says which;
 *  - else the trace's own META block (format/fdr_meta.h), read from its
 *    first block before anything else;
 *  - else, for a trace without one (older traces, llvm-xray's own, a
 *    trace cut inside it), the companions INPUT.names and INPUT.tasks if
 *    they exist, as before; without them, tb_trace_names_missing() says
 *    so in one line.
 */
#ifndef TB_TRACE_NAMES_H
#define TB_TRACE_NAMES_H

#include <stdbool.h>
#include <stdio.h>

#include "format/fdr_meta.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

#define TB_TRACE_NAMES_EMBEDDED	"the trace's own (META block)"

struct tb_trace_names_opts {
	const char *names;	/* --map, or NULL */
	const char *tasks;	/* --tasks, or NULL */
	bool off;		/* --no-names: none at all */
};

struct tb_trace_names {
	struct tb_name_map names;
	struct tb_task_map tasks;
	/* Where they came from: a path, TB_TRACE_NAMES_EMBEDDED, or NULL. */
	const char *names_from, *tasks_from;
	struct tb_fdr_meta_block meta;	/* the trace's, if it has one */
	char *names_path, *tasks_path;	/* allocated companion paths */
};

/*
 * Load the names and tasks of the trace @input (a path; "-" or NULL for
 * one read from stdin, which has no companions), open as @in: seekable,
 * read from its start and rewound.  Returns 0, -1 with @err set (a
 * companion refused or malformed: a data error), or -errno (a companion
 * that cannot be read, the trace that cannot be rewound; @err says
 * which file).  Free with tb_trace_names_free() in every case.
 */
int tb_trace_names_load(struct tb_trace_names *t, const char *input, FILE *in,
			const struct tb_trace_names_opts *o,
			struct tb_error *err);

/*
 * The one line to say when the trace has no names (no META block, no
 * companion, not --no-names): into @buf, true; false when it has names.
 */
bool tb_trace_names_missing(const struct tb_trace_names *t, const char *input,
			    const struct tb_trace_names_opts *o, char *buf,
			    size_t size);

void tb_trace_names_free(struct tb_trace_names *t);

#endif /* TB_TRACE_NAMES_H */
