// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf report: the summary a kernel engineer reads first, of any XRay
 * FDR file the collectors write (record, bpf, trigger files, crash
 * recoveries) or a capture read from the device.  The analysis is
 * lib/convert/fdr_report.c, the printing lib/convert/fdr_report_print.c; this file is the
 * command line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli_opt.h"
#include "cmds.h"
#include "names_cli.h"
#include "report_cli.h"
#include "convert/fdr_report.h"
#include "convert/fdr_report_print.h"
#include "tool.h"
#include "util/parse.h"

#define DEFAULT_IN	"trace.fdr"

enum {
	OPT_TASKS = REPORT_CLI_OPT_END, OPT_TOP, OPT_HIST, OPT_FOLDED, OPT_SCHED,
};

static const struct tb_opt report_opts[] = {
	{ TB_OPT_MAP,
	  .help = "names of the function ids (default: the trace's own, else FILE.names)" },
	{ .id = OPT_TASKS, .name = "tasks", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_FILE,
	  .help = "command names of the tasks (default: the trace's own, else FILE.tasks)" },
	{ TB_OPT_NO_NAMES,
	  .help = "no names at all, not even the trace's own: ids and tids as numbers" },
	REPORT_CLI_FILTER_OPTS("only the events begun on CPU",
			       "only events begun in this window, in seconds from the trace's first record (ms, us, ns suffixes; FROM or TO may be empty)",
			       "trigger and crash files: the last MS milliseconds before the trigger or panic, with each CPU's last events"),
	{ .id = 'e', .name = "class", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_CLASSES, .values = REPORT_CLI_CLASS_WORDS,
	  .instead = "--events" },
	{ .id = OPT_TOP, .name = "top", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .help = "longest events listed (default 10, 0: none)" },
	{ .id = OPT_HIST, .name = "hist", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .help = "histograms of the N busiest names (default 3)" },
	{ TB_OPT_JSON,
	  .help = "one JSON object (times in ns) instead of text" },
	{ .id = OPT_FOLDED, .name = "folded", .arg = TB_OPT_OPTIONAL,
	  .val = TB_VAL_WORD, .values = "count",
	  .arg_name = "count", .help = "folded stacks (\"task;outer;inner ns\") for flame graphs: self time, or calls with =count" },
	{ .id = OPT_SCHED, .name = "sched",
	  .help = "only the scheduler section (text)" },
	{ TB_OPT_OUTPUT,
	  .help = "write there instead of stdout" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_report_spec = {
	.name = "report", .opts = report_opts, .operands = TB_VAL_FILE,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] [FILE|-]\n"
		"Summarize an XRay FDR trace (default " DEFAULT_IN "): for every event\n"
		"name its count, total, min, p50, p90, p99 and max latency (entry to\n"
		"exit in one task, nested events included), point events and markers,\n"
		"calls the trace holds only half of, log2 histograms, tasks with their\n"
		"command names, CPUs, the longest events, the system calls that\n"
		"failed by errno, and the scheduler: run-queue delays, time on and off\n"
		"the CPU, busy and idle CPUs.\n\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_report_spec, NULL);
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf record -e syscall,irq -- make -j2 && tracebuf report --hist 5\n"
	      "  tracebuf report -e syscall --name 'sys_read*' --json trace.fdr\n"
	      "  tracebuf record -e sched -- ./ping-pong && tracebuf report --sched\n\n"
	      "Exit status: 0 ok, 1 failure (I/O), 2 usage, 3 malformed input.\n", f);
}

/* What the command line asks for: what cmd_report()'s steps share. */
struct report {
	struct tb_fdr_report_opts o;	/* the filters */
	struct tb_fdr_report_print pr;	/* how to print */
	const char *map;
	const char *tasks_path;
	const char *output;
	bool no_names;
	bool json;
	bool folded;
};

/* The options that are not the filters. */
static void report__option(struct report *rep, int c, const char *optarg)
{
	uint32_t v;

	switch (c) {
	case 'm':
		rep->map = optarg;
		break;
	case OPT_TASKS:
		rep->tasks_path = optarg;
		break;
	case TB_OPT_ID_NO_NAMES:
		rep->no_names = true;
		break;
	case OPT_TOP:
		rep->o.top = report_cli_id("--top", optarg, 1000);
		break;
	case OPT_HIST:
		if (tb_parse_u32(optarg, 0, 100000, &v))
			tool_die(TB_EXIT_USAGE, "--hist '%s': expected a number from 0 to 100000",
				 optarg);
		rep->pr.hists = v;
		break;
	case 'J':
		rep->json = true;
		break;
	case OPT_FOLDED:
		rep->folded = true;
		if (optarg && strcmp(optarg, "count"))
			tool_die(TB_EXIT_USAGE,
				 "--folded=%s: only --folded or --folded=count",
				 optarg);
		rep->pr.fold_counts = optarg != NULL;
		break;
	case OPT_SCHED:
		rep->pr.sched_only = true;
		break;
	case 'o':
		rep->output = optarg;
		break;
	}
}

/* The command line, and the options that exclude each other. */
static void report__parse(struct report *rep, int argc, char **argv)
{
	struct tb_opt_parser p;
	int c;

	tb_opt_init(&p, &cmd_report_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		if (report_cli_filter(c, p.arg, &rep->o))
			continue;
		report__option(rep, c, p.arg);
	}
	if (p.nr_operands > 1)
		cli_opt_usage("one trace at a time ('%s' is extra)",
			      p.operands[1]);
	if (rep->pr.sched_only && rep->folded)
		tool_die(TB_EXIT_USAGE, "--sched and --folded are two outputs: choose one");
	if (rep->json && rep->folded)
		tool_die(TB_EXIT_USAGE, "--json and --folded are two outputs: choose one");
	if (rep->o.before_ns && (rep->o.from_ns || rep->o.to_ns))
		tool_die(TB_EXIT_USAGE, "--before and --time both set the window: choose one");
	if (rep->no_names && (rep->map || rep->tasks_path))
		tool_die(TB_EXIT_USAGE, "--no-names with --map or --tasks: choose one");
	rep->pr.input = p.nr_operands ? p.operands[0] : DEFAULT_IN;
}

/* The trace and its names read, analysed and printed. */
static void report__run(struct report *rep)
{
	struct tb_fdr_report_print *pr = &rep->pr;
	struct tb_trace_names tn;
	struct tb_fdr_report r;
	FILE *in, *out;

	in = report_cli_open(pr->input);
	names_cli_load(&tn, pr->input, in, rep->map, rep->tasks_path,
		       rep->no_names, false);
	pr->names = tn.names_from;
	pr->tasks = tn.tasks_from;
	out = tool_open_output(rep->output);
	tool_refuse_input_as_output(in, pr->input, rep->output);
	report_cli_read(&r, pr->input, in, &tn.names, &tn.tasks, &rep->o,
			rep->folded);
	if (rep->folded)
		tb_fdr_report_print_folded(&r, pr, out);
	else if (rep->json)
		tb_fdr_report_print_json(&r, pr, out);
	else
		tb_fdr_report_print_text(&r, pr, out);
	tool_close_output(out, rep->output);
	tb_fdr_report_free(&r);
	tb_trace_names_free(&tn);
}

int cmd_report(int argc, char **argv)
{
	struct report rep = {
		.o = {
			.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
			.cpu = TB_REPORT_NO_FILTER, .top = 10,
		},
		.pr = { .hists = 3 },
		.output = "-",
	};

	tb_cli_init(argv[0]);
	report__parse(&rep, argc, argv);
	report__run(&rep);
	return TB_EXIT_OK;
}
