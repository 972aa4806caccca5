// SPDX-License-Identifier: GPL-2.0
/* The reading commands' names and tasks; see names_cli.h. */
#include <errno.h>

#include "cli.h"
#include "cli/cli.h"
#include "names_cli.h"

void names_cli_load(struct tb_trace_names *t, const char *input, FILE *in,
		    const char *map, const char *tasks, bool off, bool quiet)
{
	struct tb_trace_names_opts o = { .names = map, .tasks = tasks,
					 .off = off };
	struct tb_error err = { 0 };
	char line[512];
	int ret;

	ret = tb_trace_names_load(t, input, in, &o, &err);
	if (ret == -ENOMEM)
		cli_die(TB_EXIT_FAIL, "out of memory");
	if (ret == -1)
		cli_die(TB_EXIT_DATA, "%s", err.msg);
	if (ret)
		cli_die(TB_EXIT_FAIL, "%s", err.msg);
	if (!quiet && tb_trace_names_missing(t, input, &o, line, sizeof(line)))
		tb_cli_warn("%s", line);
}
