// SPDX-License-Identifier: GPL-2.0
/* The command line report and diff share; see report_cli.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cmds.h"
#include "report_cli.h"
#include "tool.h"
#include "util/parse.h"
#include "util/sniff.h"

/* "1.5", "200ms", "30us", "10ns" (default seconds) into nanoseconds. */
static int report_cli_time(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(end, units[i].suffix)) {
			if (v * units[i].scale > 1.8e19)
				return -ERANGE;
			*ns = (uint64_t)(v * units[i].scale + 0.5);
			return 0;
		}
	}
	return -EINVAL;
}

void report_cli_window(const char *arg, struct tb_fdr_report_opts *o)
{
	const char *comma = strchr(arg, ',');
	char from[64];
	size_t n;

	if (!comma)
		tool_die(TB_EXIT_USAGE, "--time '%s': expected FROM,TO (either may be empty)",
			 arg);
	n = (size_t)(comma - arg);
	if (n >= sizeof(from))
		tool_die(TB_EXIT_USAGE, "--time '%s': FROM too long", arg);
	memcpy(from, arg, n);
	from[n] = '\0';
	if (n && report_cli_time(from, &o->from_ns))
		tool_die(TB_EXIT_USAGE, "--time: bad FROM '%s' (seconds, or with ms, us, ns)",
			 from);
	if (comma[1] && report_cli_time(comma + 1, &o->to_ns))
		tool_die(TB_EXIT_USAGE, "--time: bad TO '%s' (seconds, or with ms, us, ns)",
			 comma + 1);
	if (comma[1] && !o->to_ns)
		tool_die(TB_EXIT_USAGE, "--time: TO must be after the first record");
	if (o->to_ns && o->to_ns < o->from_ns)
		tool_die(TB_EXIT_USAGE, "--time '%s': TO is before FROM", arg);
}

void report_cli_before(const char *arg, struct tb_fdr_report_opts *o)
{
	if (report_cli_time(arg, &o->before_ns) || !o->before_ns)
		tool_die(TB_EXIT_USAGE,
			 "--before '%s': expected milliseconds above 0", arg);
	/* A plain number is milliseconds here. */
	if (strspn(arg, "0123456789.") == strlen(arg))
		o->before_ns /= 1000;
}

static int report_cli_class_word(void *ctx, const char *tok)
{
	uint32_t *mask = ctx;
	int rc = tb_fdr_report_class(tok);

	if (rc < 0)
		tool_die(TB_EXIT_USAGE,
			 "--events: unknown class '%s' (syscall, irq, softirq, workqueue, fault, sched, marker, kfunc, function)",
			 tok);
	*mask |= 1U << rc;
	return 0;
}

uint32_t report_cli_classes(const char *arg)
{
	uint32_t mask = 0;

	if (tb_parse_words(arg, report_cli_class_word, &mask))
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (!mask)
		tool_die(TB_EXIT_USAGE, "--events: empty list");
	return mask;
}

int64_t report_cli_id(const char *opt, const char *arg, uint32_t max)
{
	uint32_t v;

	if (tb_parse_u32(arg, 0, max, &v))
		tool_die(TB_EXIT_USAGE, "%s '%s': expected a number from 0 to %u",
			 opt, arg, max);
	return v;
}

bool report_cli_filter(int id, const char *arg,
		       struct tb_fdr_report_opts *o)
{
	switch (id) {
	case 'p':
		o->pid = report_cli_id("--pid", arg, INT32_MAX);
		return true;
	case REPORT_CLI_OPT_TID:
		o->tid = report_cli_id("--tid", arg, INT32_MAX);
		return true;
	case 'C':
		o->cpu = report_cli_id("--cpu", arg, UINT16_MAX);
		return true;
	case 'e':
		o->classes = report_cli_classes(arg);
		return true;
	case REPORT_CLI_OPT_NAME:
		o->name = arg;
		return true;
	case REPORT_CLI_OPT_TIME:
		report_cli_window(arg, o);
		return true;
	case REPORT_CLI_OPT_BEFORE:
		report_cli_before(arg, o);
		return true;
	}
	return false;
}

FILE *report_cli_open(const char *path)
{
	return report_cli_seekable(tool_open_input(path), path);
}

FILE *report_cli_seekable(FILE *in, const char *path)
{
	FILE *tmp;
	char buf[65536];
	size_t n;

	if (in != stdin && !fseek(in, 0, SEEK_SET))
		return in;
	tmp = tmpfile();
	if (!tmp)
		tool_die_errno(TB_EXIT_FAIL, "temporary file for %s", path);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, tmp) != n)
			tool_die_errno(TB_EXIT_FAIL, "temporary file for %s",
				       path);
	if (ferror(in))
		tool_die_errno(TB_EXIT_FAIL, "%s", path);
	if (in != stdin)
		fclose(in);
	rewind(tmp);
	return tmp;
}

void report_cli_read(struct tb_fdr_report *r, const char *path, FILE *in,
		     const struct tb_name_map *names,
		     const struct tb_task_map *tasks,
		     const struct tb_fdr_report_opts *o, bool folded)
{
	struct tb_error err = { 0 };
	char msg[512];
	int ret;

	ret = tb_fdr_report_run(r, in, names, tasks, o, folded, &err);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret && tb_sniff_mismatch_file(path, in, TB_SNIFF_FDR, msg, sizeof(msg)))
		tool_die(TB_EXIT_DATA, "%s (%s)", msg, err.msg);
	if (ret)
		tool_die(TB_EXIT_DATA, "%s: %s", path, err.msg);
	fclose(in);
	if (err.warning[0])
		tb_cli_warn("%s: %s", path, err.warning);
}
