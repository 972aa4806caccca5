/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's names and tasks for the reading commands (report, script,
 * diff, convert): convert/trace_names.h with the tools' exits.
 */
#ifndef TB_NAMES_CLI_H
#define TB_NAMES_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "convert/trace_names.h"

/*
 * Load the names and tasks of trace @input, open as @in (seekable, at
 * its start; rewound): --map @map and --tasks @tasks when given (checked
 * against the trace), else the trace's own, else its companions; none
 * with @off (--no-names).  Exits 3 on a companion refused or malformed,
 * 1 on one that cannot be read.  A trace without names is said in one
 * line on stderr, unless @quiet.
 */
void names_cli_load(struct tb_trace_names *t, const char *input, FILE *in,
		    const char *map, const char *tasks, bool off, bool quiet);

#endif /* TB_NAMES_CLI_H */
