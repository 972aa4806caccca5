/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line habits shared by every tracebuf tool: one way to report
 * errors (program name, message, errno text), to parse numbers strictly,
 * to open "-" as stdin/stdout, and to print the version.
 */
#ifndef TB_CLI_H
#define TB_CLI_H

#include <stdint.h>
#include <stdio.h>

#define TB_VERSION "0.1.0"

/* Exit codes shared by the tools. */
#define TB_EXIT_OK	0
#define TB_EXIT_FAIL	1	/* the operation failed */
#define TB_EXIT_USAGE	2	/* bad command line */
#define TB_EXIT_DATA	3	/* malformed input data */

void tb_cli_init(const char *argv0);
const char *tb_prog(void);

/* "prog: message" on stderr; the _errno variants append strerror(errno). */
void tb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tb_warn_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tb_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void tb_die_errno(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

void tb_print_version(void);

/*
 * Strict number parsing: decimal, 0x hex or 0 octal, the whole string,
 * no sign for unsigned, within [min, max].  Return 0 or -EINVAL/-ERANGE.
 */
int tb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int tb_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
/* Like tb_parse_u64 but accepts a K/M/G suffix (powers of 1024). */
int tb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * fopen() where "-" means stdin or stdout; dies with a message on error
 * (exit 1), also for an input that is a directory.
 */
FILE *tb_open_input(const char *path);
/*
 * Outputs are written whole or not at all (tb_output.h): the data goes
 * to a temporary file that tb_close_output() renames into place; a tool
 * that dies before leaves no output behind.  stdout is written directly.
 */
FILE *tb_open_output(const char *path);
/* Commit an output; reports a failed write (full disk) and dies. */
void tb_close_output(FILE *f, const char *path);
/*
 * Die (exit 1) if @out_path is the file @in reads: writing it would
 * destroy the input.  Call before opening the output.
 */
void tb_refuse_input_as_output(FILE *in, const char *in_path,
			       const char *out_path);

/*
 * Progress for long conversions: "prog: N MiB" on stderr at most once a
 * second, and only when stderr is a terminal (never in pipes or logs).
 * tb_progress_done() ends the line.
 */
void tb_progress(uint64_t bytes);
void tb_progress_done(void);

#endif /* TB_CLI_H */
