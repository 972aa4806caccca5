// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf diff: two traces compared, "what got slower between these two
 * runs".  Each trace is read as tracebuf report reads it, with the same
 * filters (report_cli.h); the comparison is lib/convert/fdr_diff.c, the
 * printing lib/convert/fdr_diff_print.c; this file is the command line.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli_opt.h"
#include "cmds.h"
#include "convert/fdr_diff.h"
#include "convert/fdr_diff_print.h"
#include "names_cli.h"
#include "report_cli.h"
#include "tool.h"

enum {
	OPT_SORT = REPORT_CLI_OPT_END,
};

static const struct tb_opt diff_opts[] = {
	{ TB_OPT_MAP,
	  .help = "names of the function ids of both traces (default each trace's FILE.names)" },
	{ TB_OPT_NO_NAMES,
	  .help = "ids as numbers (the same ids in both traces)" },
	REPORT_CLI_FILTER_OPTS("only the events begun on CPU",
			       "only events begun in this window of each trace, in seconds from its first record (ms, us, ns suffixes; FROM or TO may be empty)",
			       "trigger and crash files: the last MS milliseconds before each one's trigger or panic"),
	{ .id = OPT_SORT, .name = "sort", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_WORD, .values = "count total p50 p99 max",
	  .arg_name = "COLUMN", .help = "the change sorted by: count, total (default), p50, p99 or max" },
	{ TB_OPT_JSON,
	  .help = "one JSON object (times in ns) instead of text" },
	{ TB_OPT_OUTPUT,
	  .help = "write there instead of stdout" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_diff_spec = {
	.name = "diff", .opts = diff_opts, .operands = TB_VAL_FILE,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] A.fdr B.fdr\n"
		"Compare two XRay FDR traces, as tracebuf report summarizes each: per\n"
		"class and event name, A's count, total, p50, p99 and max latency and\n"
		"the change to B's, the largest change first; names only one trace\n"
		"has are marked A or B.\n\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_diff_spec, NULL);
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf diff before.fdr after.fdr\n"
	      "  tracebuf diff -e syscall --sort p99 before.fdr after.fdr\n"
	      "  tracebuf diff --json before.fdr after.fdr\n\n"
	      "Exit status: 0 ok, 1 failure (I/O), 2 usage, 3 malformed input.\n", f);
}

/* Trace @path into @r, with @map's names or its own. */
static void diff_read(struct tb_fdr_report *r, struct tb_trace_names *tn,
		      const char *path, const char *map, bool no_names,
		      const struct tb_task_map *tasks,
		      const struct tb_fdr_report_opts *o, const char *output)
{
	FILE *in;

	in = report_cli_open(path);
	names_cli_load(tn, path, in, map, NULL, no_names, false);
	tool_refuse_input_as_output(in, path, output);
	report_cli_read(r, path, in, &tn->names, tasks, o, false);
}

int cmd_diff(int argc, char **argv)
{
	struct tb_fdr_report_opts o = {
		.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
		.cpu = TB_REPORT_NO_FILTER,
	};
	struct tb_fdr_diff_print pr;
	const char *map = NULL, *output = "-";
	bool no_names = false, json = false;
	struct tb_trace_names names[2];
	enum tb_fdr_diff_col key = TB_FDR_DIFF_TOTAL;
	struct tb_fdr_report a, b;
	struct tb_task_map tasks;
	struct tb_fdr_diff d;
	struct tb_opt_parser p;
	const char *optarg;
	FILE *out;
	int c, ret;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_diff_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		optarg = p.arg;
		if (report_cli_filter(c, optarg, &o))
			continue;
		switch (c) {
		case 'm':
			map = optarg;
			break;
		case TB_OPT_ID_NO_NAMES:
			no_names = true;
			break;
		case OPT_SORT:
			ret = tb_fdr_diff_col(optarg);
			if (ret < 0)
				tool_die(TB_EXIT_USAGE,
					 "--sort '%s': expected count, total, p50, p99 or max",
					 optarg);
			key = (enum tb_fdr_diff_col)ret;
			break;
		case 'J':
			json = true;
			break;
		case 'o':
			output = optarg;
			break;
		}
	}
	if (p.nr_operands < 2)
		cli_opt_usage("two traces to compare, A.fdr B.fdr (%s given)",
			      p.nr_operands ? "one" : "none");
	if (p.nr_operands > 2)
		cli_opt_usage("two traces at a time ('%s' is extra)",
			      p.operands[2]);
	if (!strcmp(p.operands[0], "-") && !strcmp(p.operands[1], "-"))
		cli_opt_usage("stdin ('-') can be one of the traces, not both");
	if (o.before_ns && (o.from_ns || o.to_ns))
		tool_die(TB_EXIT_USAGE, "--before and --time both set the window: choose one");
	if (no_names && map)
		tool_die(TB_EXIT_USAGE, "--no-names with --map: choose one");
	pr.a = p.operands[0];
	pr.b = p.operands[1];

	tb_task_map_init(&tasks);
	diff_read(&a, &names[0], pr.a, map, no_names, &tasks, &o, output);
	diff_read(&b, &names[1], pr.b, map, no_names, &tasks, &o, output);
	if (tb_fdr_diff_run(&d, &a, &b, key))
		tool_die(TB_EXIT_FAIL, "out of memory");
	out = tool_open_output(output);
	if (json)
		ret = tb_fdr_diff_print_json(&d, &a, &b, &pr, out);
	else
		ret = tb_fdr_diff_print_text(&d, &a, &b, &pr, out);
	tool_close_output(out, output);
	tb_fdr_diff_free(&d);
	tb_fdr_report_free(&a);
	tb_fdr_report_free(&b);
	tb_task_map_free(&tasks);
	tb_trace_names_free(&names[0]);
	tb_trace_names_free(&names[1]);
	return TB_EXIT_OK;
}
