/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the tools exit (the library returns errors instead): "prog:
 * message" and the exit code, and the files a tool reads and writes,
 * opened or died trying.  The library's own command-line habits, which
 * never exit, are tb_cli_*() (cli/cli.h).
 */
#ifndef TB_TOOLS_TOOL_H
#define TB_TOOLS_TOOL_H

#include <stdio.h>

#include "cli/cli.h"

/* tb_cli_warn() and exit @code; the _errno variant appends strerror(errno). */
void tool_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void tool_die_errno(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * fopen() where "-" means stdin or stdout; dies with a message on error
 * (exit 1), also for an input that is a directory.
 */
FILE *tool_open_input(const char *path);
/*
 * Outputs are written whole or not at all (util/output.h): the data goes
 * to a temporary file that tool_close_output() renames into place; a tool
 * that dies before leaves no output behind.  stdout is written directly.
 */
FILE *tool_open_output(const char *path);
/* Commit an output; reports a failed write (full disk) and dies. */
void tool_close_output(FILE *f, const char *path);
/*
 * Die (exit 1) if @out_path is the file @in reads: writing it would
 * destroy the input.  Call before opening the output.
 */
void tool_refuse_input_as_output(FILE *in, const char *in_path,
				 const char *out_path);

/*
 * The library's errors are -errno: a negative @ret prints the message
 * with strerror(-@ret) and exits 1.
 */
void tool_check(int ret, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* tb_dev_open() or die, with the hint of what to do (device/dev.h). */
int tool_open_device(const char *path, int flags);

#endif /* TB_TOOLS_TOOL_H */
