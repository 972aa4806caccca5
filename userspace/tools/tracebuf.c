// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf: the front command.  `tracebuf SUBCOMMAND [ARGS]` runs one of
 * the subcommands in cmds.h, as perf and bpftool do.  The tools' old
 * names (tbconv, tracebuf-record, ...) are links to this binary and run
 * their subcommand by the name they were called by (argv[0]).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/opt_complete.h"
#include "cli_cmd.h"
#include "cli_opt.h"
#include "cmds.h"
#include "tool.h"
#include "util/parse.h"

/* Each entry's data is its command line (cli/opt.h). */
static const struct cli_cmd subcmds[] = {
	{ "record", "tracebuf-record", cmd_record,
	  "record kernel events with /dev/tracebuf_fdr into an FDR file",
	  &cmd_record_spec },
	{ "bpf", "tracebuf-bpf", cmd_bpf,
	  "record the same events with BPF programs (no module needed)",
	  &cmd_bpf_spec },
	{ "report", NULL, cmd_report,
	  "summarize an FDR trace: latencies, histograms, tasks, CPUs",
	  &cmd_report_spec },
	{ "diff", NULL, cmd_diff,
	  "compare two FDR traces: what got slower, per event name",
	  &cmd_diff_spec },
	{ "script", NULL, cmd_script,
	  "list every event of an FDR trace in time order, a line each",
	  &cmd_script_spec },
	{ "top", NULL, cmd_top,
	  "summarize a running capture every interval, as report does",
	  &cmd_top_spec },
	{ "crash", NULL, cmd_crash,
	  "recover the recorder's trace from a crashed kernel's memory image",
	  &cmd_crash_spec },
	{ "fdr", NULL, cmd_fdr,
	  "control /dev/tracebuf_fdr: config, start, stop, snapshot, stats, names",
	  &cmd_fdr_spec },
	{ "ctl", "tracebufctl", cmd_ctl,
	  "control /dev/tracebuf, the XScale trace buffer",
	  &cmd_ctl_spec },
	{ "convert", "tbconv", cmd_convert,
	  "convert between XScale buffers, FDR traces and GDB trace files",
	  &cmd_convert_spec },
	{ "decode", "tbdecode", cmd_decode,
	  "print XScale trace buffer messages",
	  &cmd_decode_spec },
	{ "workload", "tb-workload", cmd_workload,
	  "run a known kernel workload and time it",
	  &cmd_workload_spec },
	{ NULL }
};

static void print_usage(FILE *f)
{
	const struct cli_cmd *c;

	fprintf(f, "Usage: tracebuf [--version] [--help] SUBCOMMAND [ARGS]\n"
		"       tracebuf help [SUBCOMMAND]\n\nSubcommands:\n");
	for (c = subcmds; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n`tracebuf SUBCOMMAND --help` describes one.  Old names, kept for one\n"
		"release, run their subcommand:");
	for (c = subcmds; c->name; c++)
		if (c->old_name)
			fprintf(f, " %s", c->old_name);
	fprintf(f, ".\n\nExamples:\n"
		"  tracebuf record -- ls && tracebuf report\n"
		"  tracebuf help record\n"
		"\nExit status: 0 ok, 1 failure, 2 usage, 3 malformed input.\n");
}

static const char *const arg_names[] = { "none", "required", "optional" };

static void print_word(void *ctx, const char *word)
{
	puts(word);
}

/*
 * `tracebuf __complete CWORD WORD...`: what the bash completion offers
 * for word CWORD of the command line WORD... (cli/opt_complete.h).
 */
static int complete(int argc, char **argv)
{
	struct tb_opt_cmd cmds[ARRAY_SIZE(subcmds) - 1];
	unsigned int i;
	uint32_t cword;

	if (argc < 3 || tb_parse_u32(argv[2], 0, argc - 4, &cword))
		return TB_EXIT_USAGE;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		cmds[i].name = subcmds[i].name;
		cmds[i].old_name = subcmds[i].old_name;
		cmds[i].spec = subcmds[i].data;
	}
	tb_opt_complete(cmds, ARRAY_SIZE(cmds), argv + 3, argc - 3, cword,
			print_word, NULL);
	return TB_EXIT_OK;
}

/*
 * `tracebuf __options`: every subcommand's option table, one option a
 * line, for the vocabulary test (tests/options_test.c):
 * SUB SCOPE LETTER NAME ARG INSTEAD, tab separated, "-" for none.
 */
static int dump_options(void)
{
	const struct cli_cmd *c;
	const struct tb_opt *o;

	for (c = subcmds; c->name; c++)
		for (o = ((const struct tb_opt_spec *)c->data)->opts; o->id; o++)
			printf("%s\t%s\t%c\t%s\t%s\t%s\n", c->name,
			       o->scope ? o->scope : "-",
			       o->letter ? o->letter : '-',
			       o->name ? o->name : "-", arg_names[o->arg],
			       o->instead ? o->instead : "-");
	return TB_EXIT_OK;
}

/* Run @c with argv[0] "tracebuf NAME", so messages name the subcommand. */
static int run(const struct cli_cmd *c, int argc, char **argv)
{
	static char prog[64];

	snprintf(prog, sizeof(prog), "tracebuf %s", c->name);
	argv[0] = prog;
	return c->fn(argc, argv);
}

int main(int argc, char **argv)
{
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;
	const struct cli_cmd *c;

	base = base ? base + 1 : argv[0] ? argv[0] : "tracebuf";
	/* Completion asks every name, the old ones too. */
	if (argc > 1 && !strcmp(argv[1], "__complete"))
		return complete(argc, argv);
	c = cli_cmd_find(subcmds, base, true);
	if (c)
		return c->fn(argc, argv);
	tb_cli_init("tracebuf");
	if (argc < 2) {
		print_usage(stderr);
		return TB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return TB_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version") ||
	    !strcmp(argv[1], "version")) {
		tb_cli_version();
		return TB_EXIT_OK;
	}
	if (!strcmp(argv[1], "__options"))
		return dump_options();
	if (!strcmp(argv[1], "help")) {
		char help[] = "--help";
		char *help_argv[3] = { NULL, help, NULL };

		if (argc == 2 || !strcmp(argv[2], "help")) {
			print_usage(stdout);
			return TB_EXIT_OK;
		}
		if (argc > 3)
			tool_die(TB_EXIT_USAGE, "help: one SUBCOMMAND at most (not '%s')",
				 argv[3]);
		c = cli_cmd_pick(subcmds, "subcommand", argc - 2, argv + 2);
		return run(c, 2, help_argv);
	}
	if (argv[1][0] == '-')
		cli_opt_usage("unknown option '%s'", argv[1]);
	c = cli_cmd_pick(subcmds, "subcommand", argc - 1, argv + 1);
	return run(c, argc - 1, argv + 1);
}
