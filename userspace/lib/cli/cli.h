/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line habits shared by every tracebuf tool: one way to report
 * errors (program name, message, errno text), progress and the version,
 * and the exit codes.  Nothing here exits: the tools' fatal errors and
 * the files they open or die trying are tool_*() (tools/tool.h).
 */
#ifndef TB_CLI_H
#define TB_CLI_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#define TB_VERSION "0.1.0"

/* Exit codes shared by the tools. */
#define TB_EXIT_OK	0
#define TB_EXIT_FAIL	1	/* the operation failed */
#define TB_EXIT_USAGE	2	/* bad command line */
#define TB_EXIT_DATA	3	/* malformed input data */

void tb_cli_init(const char *argv0);
const char *tb_cli_prog(void);

/* "prog: message" on stderr; the _errno variants append strerror(errno). */
void tb_cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tb_cli_warn_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with the errno value @err (0: none), for the tools' fatal errors. */
void tb_cli_vwarn(int err, const char *fmt, va_list ap);

void tb_cli_version(void);

/*
 * Progress for long conversions: "prog: N MiB" on stderr at most once a
 * second, and only when stderr is a terminal (never in pipes or logs).
 * tb_cli_progress_done() ends the line.
 */
void tb_cli_progress(uint64_t bytes);
void tb_cli_progress_done(void);

#endif /* TB_CLI_H */
