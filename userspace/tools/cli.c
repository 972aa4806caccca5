// SPDX-License-Identifier: GPL-2.0
/*
 * Where the tools exit: fatal errors, and the files a tool opens or dies
 * trying; see cli.h.  The library below returns errors instead.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli/cli.h"
#include "device/dev.h"
#include "util/output.h"

void cli_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tb_cli_vwarn(0, fmt, ap);
	va_end(ap);
	exit(code);
}

void cli_die_errno(int code, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	tb_cli_vwarn(err, fmt, ap);
	va_end(ap);
	exit(code);
}

FILE *cli_open_input(const char *path)
{
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		f = stdin;
	else
		f = fopen(path, "rb");
	if (!f)
		cli_die_errno(TB_EXIT_FAIL, "cannot open '%s'", path);
	/* fopen() opens a directory; reading it fails with EISDIR. */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode))
		cli_die(TB_EXIT_FAIL, "'%s' is a directory", path);
	return f;
}

/* The tools' open outputs, by FILE, for cli_close_output(). */
#define MAX_OUTPUTS	16
static struct tb_output outputs[MAX_OUTPUTS];

FILE *cli_open_output(const char *path)
{
	struct tb_output *o = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_OUTPUTS && !o; i++)
		if (!outputs[i].f)
			o = &outputs[i];
	if (!o)
		cli_die(TB_EXIT_FAIL, "cannot create '%s': too many outputs",
			path);
	ret = tb_output_open(o, path);
	if (ret) {
		errno = -ret;
		cli_die_errno(TB_EXIT_FAIL, "cannot create '%s'", path);
	}
	return o->f;
}

void cli_close_output(FILE *f, const char *path)
{
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_OUTPUTS; i++) {
		if (outputs[i].f != f)
			continue;
		ret = tb_output_commit(&outputs[i]);
		if (ret) {
			errno = -ret;
			cli_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
		}
		return;
	}
	/* Not ours (stdout given directly): flush and check. */
	if (fflush(f) || ferror(f))
		cli_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	if (f != stdout && fclose(f))
		cli_die_errno(TB_EXIT_FAIL, "error closing '%s'", path);
}

void cli_refuse_input_as_output(FILE *in, const char *in_path,
				const char *out_path)
{
	if (strcmp(out_path, "-") && tb_output_same_file(in, out_path))
		cli_die(TB_EXIT_FAIL,
			"'%s' is the input '%s': refusing to overwrite it",
			out_path, in_path);
}

void cli_check(int ret, const char *fmt, ...)
{
	va_list ap;

	if (ret >= 0)
		return;
	va_start(ap, fmt);
	tb_cli_vwarn(-ret, fmt, ap);
	va_end(ap);
	exit(TB_EXIT_FAIL);
}

int cli_open_device(const char *path, int flags)
{
	int fd = tb_dev_open(path, flags);

	if (fd < 0)
		cli_die_errno(TB_EXIT_FAIL, "cannot open %s%s", path,
			      tb_dev_open_hint(errno));
	return fd;
}
