// SPDX-License-Identifier: GPL-2.0
/* Command-line helpers shared by the tools; see cli/cli.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static const char *prog = "tracebuf";

void tb_cli_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		prog = slash ? slash + 1 : argv0;
}

const char *tb_cli_prog(void)
{
	return prog;
}

void tb_cli_vwarn(int err, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void tb_cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tb_cli_vwarn(0, fmt, ap);
	va_end(ap);
}

void tb_cli_warn_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	tb_cli_vwarn(err, fmt, ap);
	va_end(ap);
}

void tb_cli_version(void)
{
	printf("%s (tracebuf) %s\n", prog, TB_VERSION);
}

static int progress_tty = -1;
static time_t progress_last;
static int progress_shown;

void tb_cli_progress(uint64_t bytes)
{
	time_t now;

	if (progress_tty < 0) {
		progress_tty = isatty(STDERR_FILENO);
		progress_last = time(NULL);
	}
	if (!progress_tty)
		return;
	now = time(NULL);
	if (now == progress_last)
		return;
	progress_last = now;
	progress_shown = 1;
	fprintf(stderr, "\r%s: %llu MiB", prog,
		(unsigned long long)(bytes >> 20));
}

void tb_cli_progress_done(void)
{
	if (progress_shown)
		fputc('\n', stderr);
	progress_shown = 0;
}
