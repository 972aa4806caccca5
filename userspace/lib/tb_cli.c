// SPDX-License-Identifier: GPL-2.0
/* Command-line helpers shared by the tools; see tb_cli.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tb_cli.h"
#include "tb_output.h"

static const char *prog = "tracebuf";

void tb_cli_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		prog = slash ? slash + 1 : argv0;
}

const char *tb_prog(void)
{
	return prog;
}

static void vwarn(int err, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void tb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(0, fmt, ap);
	va_end(ap);
}

void tb_warn_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vwarn(err, fmt, ap);
	va_end(ap);
}

void tb_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(0, fmt, ap);
	va_end(ap);
	exit(code);
}

void tb_die_errno(int code, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vwarn(err, fmt, ap);
	va_end(ap);
	exit(code);
}

void tb_print_version(void)
{
	printf("%s (tracebuf) %s\n", prog, TB_VERSION);
}

static int parse_u64_suffix(const char *s, uint64_t min, uint64_t max,
			    uint64_t *out, int allow_suffix)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	if (allow_suffix && *end) {
		switch (*end) {
		case 'k':
		case 'K':
			mult = 1ULL << 10;
			break;
		case 'm':
		case 'M':
			mult = 1ULL << 20;
			break;
		case 'g':
		case 'G':
			mult = 1ULL << 30;
			break;
		default:
			return -EINVAL;
		}
		end++;
	}
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int tb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_u64_suffix(s, min, max, out, 0);
}

int tb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_u64_suffix(s, min, max, out, 1);
}

int tb_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret = tb_parse_u64(s, min, max, &v);

	if (!ret)
		*out = (uint32_t)v;
	return ret;
}

FILE *tb_open_input(const char *path)
{
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		f = stdin;
	else
		f = fopen(path, "rb");
	if (!f)
		tb_die_errno(TB_EXIT_FAIL, "cannot open '%s'", path);
	/* fopen() opens a directory; reading it fails with EISDIR. */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode))
		tb_die(TB_EXIT_FAIL, "'%s' is a directory", path);
	return f;
}

/* The tools' open outputs, by FILE, for tb_close_output(). */
#define MAX_OUTPUTS	16
static struct tb_output outputs[MAX_OUTPUTS];

FILE *tb_open_output(const char *path)
{
	struct tb_output *o = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_OUTPUTS && !o; i++)
		if (!outputs[i].f)
			o = &outputs[i];
	if (!o)
		tb_die(TB_EXIT_FAIL, "cannot create '%s': too many outputs",
		       path);
	ret = tb_output_open(o, path);
	if (ret) {
		errno = -ret;
		tb_die_errno(TB_EXIT_FAIL, "cannot create '%s'", path);
	}
	return o->f;
}

void tb_close_output(FILE *f, const char *path)
{
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_OUTPUTS; i++) {
		if (outputs[i].f != f)
			continue;
		ret = tb_output_commit(&outputs[i]);
		if (ret) {
			errno = -ret;
			tb_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
		}
		return;
	}
	/* Not ours (stdout given directly): flush and check. */
	if (fflush(f) || ferror(f))
		tb_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	if (f != stdout && fclose(f))
		tb_die_errno(TB_EXIT_FAIL, "error closing '%s'", path);
}

void tb_refuse_input_as_output(FILE *in, const char *in_path,
			       const char *out_path)
{
	if (strcmp(out_path, "-") && tb_same_file(in, out_path))
		tb_die(TB_EXIT_FAIL,
		       "'%s' is the input '%s': refusing to overwrite it",
		       out_path, in_path);
}

static int progress_tty = -1;
static time_t progress_last;
static int progress_shown;

void tb_progress(uint64_t bytes)
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

void tb_progress_done(void)
{
	if (progress_shown)
		fputc('\n', stderr);
	progress_shown = 0;
}
