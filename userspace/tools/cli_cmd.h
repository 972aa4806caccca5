/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One dispatcher for every command table of the tools (as bpftool's
 * cmd_select()): tracebuf's subcommands, tracebuf ctl's and tracebuf
 * fdr's commands and tracebuf convert's conversions.  A table is an
 * array of struct cli_cmd ended by an entry without a name.  One help
 * and error convention: "help" (and -h, --help where the tool has no
 * option parser) prints the tool's help on stdout and exits 0; no
 * command is "PROG: no WHAT given (a, b, c)", an unknown one "PROG:
 * unknown WHAT 'x'", each followed by the pointer to --help, exit 2.
 */
#ifndef TB_CLI_CMD_H
#define TB_CLI_CMD_H

#include <stdbool.h>
#include <stdio.h>

struct cli_cmd {
	const char *name;
	const char *old_name;	/* an alias kept for one release, or NULL */
	/* @argv[0] is the command's name, the rest its arguments. */
	int (*fn)(int argc, char **argv);
	const char *summary;	/* its line of the help, or NULL */
	const void *data;	/* what the table's owner keeps per entry */
};

/* The entry named @name (its old name with @old), or NULL. */
const struct cli_cmd *cli_cmd_find(const struct cli_cmd *cmds,
				   const char *name, bool old);

/* The names of @cmds, ", " between them, into @buf. */
void cli_cmd_list(const struct cli_cmd *cmds, char *buf, size_t size);

/* The entry named @argv[0]; none or an unknown one is a usage error. */
const struct cli_cmd *cli_cmd_pick(const struct cli_cmd *cmds,
				   const char *what, int argc, char **argv);

/*
 * Run command @argv[0] of @cmds: "help" prints @help on stdout (exit 0);
 * otherwise @check (if any) is called with @ctx before the command runs:
 * it checks the command line, and opens what the command needs.
 */
int cli_cmd_select(const struct cli_cmd *cmds, const char *what,
		   int argc, char **argv, void (*help)(FILE *f),
		   void (*check)(void *ctx, const struct cli_cmd *c,
				 int argc, char **argv),
		   void *ctx);

struct tb_opt_spec;

/*
 * A tool that runs commands on a device (tracebuf ctl, tracebuf fdr):
 * "TOOL [-D DEVICE] COMMAND [ARGS]", options in order (those after the
 * command are the command's).  The whole command line is checked before
 * the device is opened.
 */
struct cli_cmd_device {
	const struct tb_opt_spec *spec;	/* 'D' is the device option */
	const struct cli_cmd *cmds;
	void (*usage)(FILE *f);
	/* The command's options and operands, checked (exit 2). */
	void (*check)(const struct cli_cmd *c, int argc, char **argv);
	const char **path;		/* the device: a default, or -D's */
	int *fd;			/* the device open while a command runs */
};

int cli_cmd_device(const struct cli_cmd_device *d, int argc, char **argv);

#endif /* TB_CLI_CMD_H */
