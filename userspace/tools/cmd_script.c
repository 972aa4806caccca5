// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf script: every event of an FDR trace on a line, in time order
 * across tasks and CPUs, as perf script and trace-cmd report print them.
 * The listing is lib/convert/fdr_script.c over the merge of
 * lib/convert/fdr_merge.c; the filters are report's (report_cli.h); this
 * file is the command line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli_opt.h"
#include "cmds.h"
#include "names_cli.h"
#include "report_cli.h"
#include "convert/fdr_script.h"
#include "tool.h"
#include "util/sniff.h"

#define DEFAULT_IN	"trace.fdr"

enum {
	OPT_TASKS = REPORT_CLI_OPT_END, OPT_WALLCLOCK,
};

static const struct tb_opt script_opts[] = {
	{ TB_OPT_MAP,
	  .help = "names of the function ids (default: the trace's own, else FILE.names)" },
	{ .id = OPT_TASKS, .name = "tasks", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_FILE,
	  .help = "command names of the tasks (default: the trace's own, else FILE.tasks)" },
	{ TB_OPT_NO_NAMES,
	  .help = "no names at all, not even the trace's own: ids and tids as numbers" },
	REPORT_CLI_FILTER_OPTS("only the events on CPU",
			       "only events in this window, in seconds from the trace's first record (ms, us, ns suffixes; FROM or TO may be empty)",
			       "trigger and crash files: the last MS milliseconds before the trigger or panic"),
	{ .id = OPT_WALLCLOCK, .name = "wallclock",
	  .help = "times of day (seconds since 1970, UTC) from the trace's WallClockTime records, not from its start" },
	{ TB_OPT_OUTPUT,
	  .help = "write there instead of stdout" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_script_spec = {
	.name = "script", .opts = script_opts, .operands = TB_VAL_FILE,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] [FILE|-]\n"
		"List every event of an XRay FDR trace (default " DEFAULT_IN "), one line\n"
		"each in time order across tasks and CPUs:\n"
		"  COMM TID [CPU] SECONDS: CLASS:NAME enter|exit KEY=VALUE... dur=\n"
		"with markers (marker: TEXT) and the recorder's loss reports (lost:).\n\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_script_spec, NULL);
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf script trace.fdr | less\n"
	      "  tracebuf script -e syscall,fault --tid 642 --time 0.1,0.12 trace.fdr\n\n"
	      "Exit status: 0 ok, 1 failure (I/O), 2 usage, 3 malformed input.\n", f);
}

/*
 * A trace that cannot be listed (named with the command that reads it),
 * or an output that cannot be written.
 */
static void script_fail(const char *path, FILE *in, const char *output,
			int ret, const struct tb_error *err)
{
	char msg[512];

	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret < -1)
		tool_die(TB_EXIT_FAIL, "writing %s: %s",
			 strcmp(output, "-") ? output : "standard output",
			 strerror(-ret));
	if (tb_sniff_mismatch_file(path, in, TB_SNIFF_FDR, msg, sizeof(msg)))
		tool_die(TB_EXIT_DATA, "%s (%s)", msg, err->msg);
	tool_die(TB_EXIT_DATA, "%s: %s", path, err->msg);
}

int cmd_script(int argc, char **argv)
{
	struct tb_fdr_script_opts o = {
		.filter = {
			.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
			.cpu = TB_REPORT_NO_FILTER,
		},
	};
	const char *map = NULL, *tasks_path = NULL, *output = "-", *input;
	struct tb_fdr_script_stats st;
	struct tb_trace_names tn;
	struct tb_error err = { 0 };
	struct tb_opt_parser p;
	bool no_names = false;
	FILE *in, *out;
	int c, ret;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_script_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		if (report_cli_filter(c, p.arg, &o.filter))
			continue;
		switch (c) {
		case 'm':
			map = p.arg;
			break;
		case OPT_TASKS:
			tasks_path = p.arg;
			break;
		case TB_OPT_ID_NO_NAMES:
			no_names = true;
			break;
		case OPT_WALLCLOCK:
			o.wallclock = true;
			break;
		case 'o':
			output = p.arg;
			break;
		}
	}
	if (p.nr_operands > 1)
		cli_opt_usage("one trace at a time ('%s' is extra)",
			      p.operands[1]);
	if (o.filter.before_ns && (o.filter.from_ns || o.filter.to_ns))
		tool_die(TB_EXIT_USAGE, "--before and --time both set the window: choose one");
	if (no_names && (map || tasks_path))
		tool_die(TB_EXIT_USAGE, "--no-names with --map or --tasks: choose one");
	input = p.nr_operands ? p.operands[0] : DEFAULT_IN;

	/* A file read with pread(): stdin goes to a temporary file first. */
	in = report_cli_open(input);
	names_cli_load(&tn, input, in, map, tasks_path, no_names, false);
	out = tool_open_output(output);
	tool_refuse_input_as_output(in, input, output);
	ret = tb_fdr_script_run(fileno(in), out, &tn.names, &tn.tasks, &o, &st,
				&err);
	if (ret)
		script_fail(input, in, output, ret, &err);
	fclose(in);
	tool_close_output(out, output);
	if (err.warning[0])
		tb_cli_warn("%s: %s", input, err.warning);
	if (st.backwards)
		tb_cli_warn("%s: %llu events come after later ones of their task: its clock steps back, and a task's events are listed in file order",
			    input, (unsigned long long)st.backwards);
	tb_trace_names_free(&tn);
	return TB_EXIT_OK;
}
