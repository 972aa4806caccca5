/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands' option loop around lib/cli/opt.h's parser, where the
 * tools may exit: --help and --version, one line and a pointer to --help
 * for a mistyped option (as GNU tools do), and the note of an old
 * spelling on stderr.
 */
#ifndef TB_CLI_OPT_H
#define TB_CLI_OPT_H

#include <stdio.h>

#include "cli/opt.h"

/*
 * The next option's id, or 0 after the last one (p->operands).  -h
 * prints @usage on stdout and exits 0, -V the version; an error prints
 * "PROG: unknown option '-x'" and "Try 'PROG --help' ..." and exits 2.
 */
int cli_opt_next(struct tb_opt_parser *p, void (*usage)(FILE *f));

/* "PROG: MESSAGE" and "Try 'PROG --help' for more information.", exit 2. */
void cli_opt_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Exit 2 with @msg, as a bad value is reported (no pointer to --help). */
void cli_opt_bad_value(const char *msg) __attribute__((noreturn));

#endif /* TB_CLI_OPT_H */
