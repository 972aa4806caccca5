// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf report: the summary a kernel engineer reads first, of any XRay
 * FDR file the collectors write (record, bpf, trigger files, crash
 * recoveries) or a capture read from the device.  The analysis is
 * lib/convert/fdr_report.c, the printing lib/convert/fdr_report_print.c; this file is the
 * command line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli/cli.h"
#include "cli_opt.h"
#include "cmds.h"
#include "convert/fdr_report.h"
#include "convert/fdr_report_print.h"
#include "util/companion.h"
#include "util/parse.h"
#include "util/sniff.h"

#define DEFAULT_IN	"trace.fdr"

enum {
	OPT_TASKS = TB_OPT_ID_FIRST_FREE, OPT_TID, OPT_NAME, OPT_TIME,
	OPT_BEFORE, OPT_TOP, OPT_HIST, OPT_FOLDED,
};

#define REPORT_CLASS_WORDS \
	"syscall irq softirq workqueue fault sched marker kfunc function"

static const struct tb_opt report_opts[] = {
	{ TB_OPT_MAP },
	{ .id = OPT_TASKS, .name = "tasks", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_FILE },
	{ TB_OPT_NO_NAMES },
	{ .id = 'p', .letter = 'p', .name = "pid", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER },
	{ .id = OPT_TID, .name = "tid", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER },
	{ TB_OPT_CPU },
	{ TB_OPT_EVENTS_OF(REPORT_CLASS_WORDS) },
	{ .id = 'e', .name = "class", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_CLASSES, .values = REPORT_CLASS_WORDS,
	  .instead = "--events" },
	{ .id = OPT_NAME, .name = "name", .arg = TB_OPT_REQUIRED },
	{ .id = OPT_TIME, .name = "time", .arg = TB_OPT_REQUIRED },
	{ .id = OPT_BEFORE, .name = "before", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER },
	{ .id = OPT_TOP, .name = "top", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER },
	{ .id = OPT_HIST, .name = "hist", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER },
	{ TB_OPT_JSON },
	{ .id = OPT_FOLDED, .name = "folded", .arg = TB_OPT_OPTIONAL,
	  .val = TB_VAL_WORD, .values = "count" },
	{ TB_OPT_OUTPUT },
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
		"command names, CPUs, and the longest events.\n\n"
		"  -m, --map=FILE     names of the function ids (default FILE.names)\n"
		"      --tasks=FILE   command names of the tasks (default FILE.tasks)\n"
		"      --no-names     use neither companion: ids and tids as numbers\n"
		"  -p, --pid=PID      only the events of process PID\n"
		"      --tid=TID      only the events of thread TID\n"
		"  -C, --cpu=CPU      only the events begun on CPU\n"
		"  -e, --events=LIST  only these classes, comma separated: syscall,\n"
		"                     irq, softirq, workqueue, fault, sched, marker,\n"
		"                     kfunc, function\n"
		"      --name=GLOB    only the event names GLOB matches (sys_*)\n"
		"      --time=FROM,TO only events begun in this window, in seconds\n"
		"                     from the trace's first record (ms, us, ns\n"
		"                     suffixes; FROM or TO may be empty)\n"
		"      --before=MS    trigger and crash files: the last MS\n"
		"                     milliseconds before the trigger or panic, with\n"
		"                     each CPU's last events\n"
		"      --top=N        longest events listed (default 10, 0: none)\n"
		"      --hist=N       histograms of the N busiest names (default 3)\n"
		"  -J, --json         one JSON object (times in ns) instead of text\n"
		"      --folded[=count]  folded stacks (\"task;outer;inner ns\") for\n"
		"                     flame graphs: self time, or calls with =count\n"
		"  -o, --output=FILE  write there instead of stdout\n"
		"  -h, --help         this help\n"
		"  -V, --version      print the version\n\n"
		"Examples:\n"
		"  tracebuf record -e syscall,irq -- make -j2 && tracebuf report --hist 5\n"
		"  tracebuf report -e syscall --name 'sys_read*' --json trace.fdr\n\n"
		"Exit status: 0 ok, 1 failure (I/O), 2 usage, 3 malformed input.\n",
		tb_cli_prog());
}

/* "1.5", "200ms", "30us", "10ns" (default seconds) into nanoseconds. */
static int parse_time(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(end, units[i].suffix)) {
			if (v * units[i].scale > 1.8e19)
				return -ERANGE;
			*ns = (uint64_t)(v * units[i].scale + 0.5);
			return 0;
		}
	}
	return -EINVAL;
}

static void parse_window(const char *arg, struct tb_fdr_report_opts *o)
{
	const char *comma = strchr(arg, ',');
	char from[64];
	size_t n;

	if (!comma)
		cli_die(TB_EXIT_USAGE, "--time '%s': expected FROM,TO (either may be empty)",
			arg);
	n = (size_t)(comma - arg);
	if (n >= sizeof(from))
		cli_die(TB_EXIT_USAGE, "--time '%s': FROM too long", arg);
	memcpy(from, arg, n);
	from[n] = '\0';
	if (n && parse_time(from, &o->from_ns))
		cli_die(TB_EXIT_USAGE, "--time: bad FROM '%s' (seconds, or with ms, us, ns)",
			from);
	if (comma[1] && parse_time(comma + 1, &o->to_ns))
		cli_die(TB_EXIT_USAGE, "--time: bad TO '%s' (seconds, or with ms, us, ns)",
			comma + 1);
	if (comma[1] && !o->to_ns)
		cli_die(TB_EXIT_USAGE, "--time: TO must be after the first record");
	if (o->to_ns && o->to_ns < o->from_ns)
		cli_die(TB_EXIT_USAGE, "--time '%s': TO is before FROM", arg);
}

static int class_word(void *ctx, const char *tok)
{
	uint32_t *mask = ctx;
	int rc = tb_fdr_report_class(tok);

	if (rc < 0)
		cli_die(TB_EXIT_USAGE,
			"--events: unknown class '%s' (syscall, irq, softirq, workqueue, fault, sched, marker, kfunc, function)",
			tok);
	*mask |= 1U << rc;
	return 0;
}

static uint32_t parse_class_list(const char *arg)
{
	uint32_t mask = 0;

	if (tb_parse_words(arg, class_word, &mask))
		cli_die(TB_EXIT_FAIL, "out of memory");
	if (!mask)
		cli_die(TB_EXIT_USAGE, "--events: empty list");
	return mask;
}

static int64_t parse_id(const char *opt, const char *arg, uint32_t max)
{
	uint32_t v;

	if (tb_parse_u32(arg, 0, max, &v))
		cli_die(TB_EXIT_USAGE, "%s '%s': expected a number from 0 to %u",
			opt, arg, max);
	return v;
}

/*
 * The input as a seekable stream: the report may read it twice (--time,
 * --before, a capture that must be ordered first).
 */
static FILE *open_seekable(const char *path)
{
	FILE *in = cli_open_input(path), *tmp;
	char buf[65536];
	size_t n;

	if (in != stdin && !fseek(in, 0, SEEK_SET))
		return in;
	tmp = tmpfile();
	if (!tmp)
		cli_die_errno(TB_EXIT_FAIL, "temporary file for %s", path);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, tmp) != n)
			cli_die_errno(TB_EXIT_FAIL, "temporary file for %s",
				      path);
	if (ferror(in))
		cli_die_errno(TB_EXIT_FAIL, "%s", path);
	if (in != stdin)
		fclose(in);
	rewind(tmp);
	return tmp;
}

/* A companion: @given (must exist), else INPUT SUFFIX if it exists. */
static char *companion(const char *input, const char *given,
		       const char *suffix, bool off)
{
	char *p;

	if (given)
		return strdup(given);
	if (off)
		return NULL;
	p = tb_companion_path(input, suffix);
	if (p && access(p, F_OK)) {
		free(p);
		return NULL;
	}
	return p;
}

int cmd_report(int argc, char **argv)
{
	struct tb_fdr_report_opts o = {
		.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
		.cpu = TB_REPORT_NO_FILTER, .top = 10,
	};
	struct tb_fdr_report_print pr = { .hists = 3 };
	const char *map = NULL, *tasks_path = NULL, *output = "-";
	bool no_names = false, json = false, folded = false;
	struct tb_name_map names = { 0 };
	struct tb_task_map tasks;
	struct tb_fdr_report r;
	struct tb_error err = { 0 };
	char *names_file, *tasks_file;
	struct tb_opt_parser p;
	const char *optarg;
	char msg[512];
	uint32_t v;
	FILE *in, *out, *f;
	int c, ret;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_report_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		optarg = p.arg;
		switch (c) {
		case 'm':
			map = optarg;
			break;
		case OPT_TASKS:
			tasks_path = optarg;
			break;
		case TB_OPT_ID_NO_NAMES:
			no_names = true;
			break;
		case 'p':
			o.pid = parse_id("--pid", optarg, INT32_MAX);
			break;
		case OPT_TID:
			o.tid = parse_id("--tid", optarg, INT32_MAX);
			break;
		case 'C':
			o.cpu = parse_id("--cpu", optarg, UINT16_MAX);
			break;
		case 'e':
			o.classes = parse_class_list(optarg);
			break;
		case OPT_NAME:
			o.name = optarg;
			break;
		case OPT_TIME:
			parse_window(optarg, &o);
			break;
		case OPT_BEFORE:
			if (parse_time(optarg, &o.before_ns) || !o.before_ns)
				cli_die(TB_EXIT_USAGE,
					"--before '%s': expected milliseconds above 0",
					optarg);
			/* A plain number is milliseconds here. */
			if (strspn(optarg, "0123456789.") == strlen(optarg))
				o.before_ns /= 1000;
			break;
		case OPT_TOP:
			o.top = parse_id("--top", optarg, 1000);
			break;
		case OPT_HIST:
			if (tb_parse_u32(optarg, 0, 100000, &v))
				cli_die(TB_EXIT_USAGE, "--hist '%s': expected a number from 0 to 100000",
					optarg);
			pr.hists = v;
			break;
		case 'J':
			json = true;
			break;
		case OPT_FOLDED:
			folded = true;
			if (optarg && strcmp(optarg, "count"))
				cli_die(TB_EXIT_USAGE,
					"--folded=%s: only --folded or --folded=count",
					optarg);
			pr.fold_counts = optarg != NULL;
			break;
		case 'o':
			output = optarg;
			break;
		}
	}
	if (p.nr_operands > 1)
		cli_opt_usage("one trace at a time ('%s' is extra)",
			      p.operands[1]);
	if (json && folded)
		cli_die(TB_EXIT_USAGE, "--json and --folded are two outputs: choose one");
	if (o.before_ns && (o.from_ns || o.to_ns))
		cli_die(TB_EXIT_USAGE, "--before and --time both set the window: choose one");
	if (no_names && (map || tasks_path))
		cli_die(TB_EXIT_USAGE, "--no-names with --map or --tasks: choose one");
	pr.input = p.nr_operands ? p.operands[0] : DEFAULT_IN;

	names_file = companion(pr.input, map, TB_COMPANION_NAMES, no_names);
	tasks_file = companion(pr.input, tasks_path, TB_COMPANION_TASKS,
			       no_names);
	if (names_file) {
		f = cli_open_input(names_file);
		if (tb_name_map_load(&names, f, &err)) {
			if (tb_sniff_mismatch(names_file, TB_SNIFF_NAMES, msg,
					      sizeof(msg)))
				cli_die(TB_EXIT_DATA, "--map: %s (%s)", msg,
					err.msg);
			cli_die(TB_EXIT_DATA, "%s: %s", names_file, err.msg);
		}
		fclose(f);
	}
	tb_task_map_init(&tasks);
	if (tasks_file) {
		ret = tb_task_map_load(&tasks, tasks_file, &err);
		if (ret == -ENOENT)
			cli_die(TB_EXIT_FAIL, "%s: %s", tasks_file,
				strerror(ENOENT));
		if (ret)
			cli_die(TB_EXIT_DATA, "%s", err.msg);
	}
	pr.names = names_file;
	pr.tasks = tasks_file;

	in = open_seekable(pr.input);
	out = cli_open_output(output);
	cli_refuse_input_as_output(in, pr.input, output);
	ret = tb_fdr_report_run(&r, in, &names, &tasks, &o, folded, &err);
	if (ret == -ENOMEM)
		cli_die(TB_EXIT_FAIL, "out of memory");
	if (ret && tb_sniff_mismatch(pr.input, TB_SNIFF_FDR, msg, sizeof(msg)))
		cli_die(TB_EXIT_DATA, "%s (%s)", msg, err.msg);
	if (ret)
		cli_die(TB_EXIT_DATA, "%s: %s", pr.input, err.msg);
	fclose(in);
	if (err.warning[0])
		tb_cli_warn("%s: %s", pr.input, err.warning);
	if (folded)
		ret = tb_fdr_report_print_folded(&r, &pr, out);
	else if (json)
		ret = tb_fdr_report_print_json(&r, &pr, out);
	else
		ret = tb_fdr_report_print_text(&r, &pr, out);
	cli_close_output(out, output);
	tb_fdr_report_free(&r);
	tb_task_map_free(&tasks);
	tb_name_map_free(&names);
	free(names_file);
	free(tasks_file);
	return TB_EXIT_OK;
}
