// SPDX-License-Identifier: GPL-2.0
/* The reading commands' names and tasks; see names_cli.h. */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "names_cli.h"
#include "tool.h"
#include "util/sniff.h"

void names_cli_load(struct tb_trace_names *t, const char *input, FILE *in,
		    const char *map, const char *tasks, bool off, bool quiet)
{
	struct tb_trace_names_opts o = { .names = map, .tasks = tasks,
					 .off = off };
	struct tb_error err = { 0 };
	enum tb_sniff_kind k;
	char line[512];
	int ret;

	ret = tb_trace_names_load(t, input, in, &o, &err);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret == -1)
		tool_die(TB_EXIT_DATA, "%s", err.msg);
	if (ret)
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	/*
	 * Another kind of file (an XScale buffer given to report): the
	 * reader refuses it next, saying what it is and what reads it; a
	 * word on the names an FDR trace would carry only misleads.
	 */
	k = strcmp(input, "-") ? tb_sniff_path(input) :
	    in ? tb_sniff_file(in) : TB_SNIFF_UNKNOWN;
	if (k != TB_SNIFF_UNKNOWN && k != TB_SNIFF_FDR)
		return;
	if (!quiet && tb_trace_names_missing(t, input, &o, line, sizeof(line)))
		tb_cli_warn("%s", line);
}
