// SPDX-License-Identifier: GPL-2.0
/* The subcommands' option loop; see cli_opt.h. */
#include <stdarg.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli_opt.h"
#include "tool.h"

static void __attribute__((noreturn)) try_help(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", tb_cli_prog());
	exit(TB_EXIT_USAGE);
}

void cli_opt_usage(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", tb_cli_prog());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	try_help();
}

void cli_opt_bad_value(const char *msg)
{
	tool_die(TB_EXIT_USAGE, "%s", msg);
}

int cli_opt_next(struct tb_opt_parser *p, void (*usage)(FILE *f))
{
	int id = tb_opt_next(p);

	if (id < 0)
		cli_opt_usage("%s", p->msg);
	if (p->deprecated)
		tb_cli_warn("%s", p->msg);
	if (id == 'h' && p->opt->letter == 'h' && !p->opt->scope) {
		usage(stdout);
		exit(TB_EXIT_OK);
	}
	if (id == 'V' && p->opt->letter == 'V' && !p->opt->scope) {
		tb_cli_version();
		exit(TB_EXIT_OK);
	}
	return id;
}
