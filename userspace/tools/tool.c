// SPDX-License-Identifier: GPL-2.0
/*
 * Where the tools exit: fatal errors, and the files a tool opens or dies
 * trying; see tool.h.  The library below returns errors instead.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "device/dev.h"
#include "tool.h"
#include "util/output.h"

void tool_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tb_cli_vwarn(0, fmt, ap);
	va_end(ap);
	exit(code);
}

void tool_die_errno(int code, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	tb_cli_vwarn(err, fmt, ap);
	va_end(ap);
	exit(code);
}

FILE *tool_open_input(const char *path)
{
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		f = stdin;
	else
		f = fopen(path, "rb");
	if (!f)
		tool_die_errno(TB_EXIT_FAIL, "cannot open '%s'", path);
	/* fopen() opens a directory; reading it fails with EISDIR. */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode))
		tool_die(TB_EXIT_FAIL, "'%s' is a directory", path);
	return f;
}

/* The tools' open outputs, by FILE, for tool_close_output(). */
#define MAX_OUTPUTS	16
static struct tb_output outputs[MAX_OUTPUTS];

FILE *tool_open_output(const char *path)
{
	struct tb_output *o = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_OUTPUTS && !o; i++)
		if (!outputs[i].f)
			o = &outputs[i];
	if (!o)
		tool_die(TB_EXIT_FAIL, "cannot create '%s': too many outputs",
			 path);
	ret = tb_output_open(o, path);
	if (ret) {
		errno = -ret;
		tool_die_errno(TB_EXIT_FAIL, "cannot create '%s'", path);
	}
	return o->f;
}

void tool_close_output(FILE *f, const char *path)
{
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_OUTPUTS; i++) {
		if (outputs[i].f != f)
			continue;
		ret = tb_output_commit(&outputs[i]);
		if (ret) {
			errno = -ret;
			tool_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
		}
		return;
	}
	/* Not ours (stdout given directly): flush and check. */
	if (fflush(f) || ferror(f))
		tool_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	if (f != stdout && fclose(f))
		tool_die_errno(TB_EXIT_FAIL, "error closing '%s'", path);
}

void tool_refuse_input_as_output(FILE *in, const char *in_path,
				 const char *out_path)
{
	if (strcmp(out_path, "-") && tb_output_same_file(in, out_path))
		tool_die(TB_EXIT_FAIL,
			 "'%s' is the input '%s': refusing to overwrite it",
			 out_path, in_path);
}

void tool_check(int ret, const char *fmt, ...)
{
	va_list ap;

	if (ret >= 0)
		return;
	va_start(ap, fmt);
	tb_cli_vwarn(-ret, fmt, ap);
	va_end(ap);
	exit(TB_EXIT_FAIL);
}

int tool_open_device(const char *path, int flags)
{
	int fd = tb_dev_open(path, flags);

	if (fd < 0)
		tool_die_errno(TB_EXIT_FAIL, "cannot open %s%s", path,
			       tb_dev_open_hint(errno));
	return fd;
}
