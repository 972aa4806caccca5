// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf convert fdr-ctf (lib/convert/fdr_ctf.c) against the real
 * readers, through scripts/ctf-check.py: babeltrace2 reads each converted
 * trace without a warning and counts per event name what tracebuf report
 * counts; on the demo trace lttng-syscallstats-mi and lttng-irqstats-mi
 * give the report's counts, minimums, maximums and totals.  Skipped, with
 * the reason, when the readers are not installed (scripts/setup.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"

#include "tb_test_util.h"

#define CHECK	"python3 ../../scripts/ctf-check.py"

/* Convert @fdr into a new directory and check it; returns the status. */
static int convert_check(const char *fdr, const char *extra, char **out)
{
	char dir[] = "/tmp/tb-ctf-XXXXXX";
	int status;

	if (!mkdtemp(dir))
		return -1;
	*out = tu_run(&status, "%s convert -q fdr-ctf %s %s/t && %s %s %s %s/t %s",
		      tu_tool("tracebuf"), fdr, dir, CHECK,
		      tu_tool("tracebuf"), fdr, dir, extra);
	tu_rmdir(dir);
	return status;
}

TEST(demo_analyses)
{
	char *out;
	int st = convert_check("data/viewer/demo.fdr", "--analyses", &out);

	if (st == 4)
		SKIP(free(out); return, "%s", out);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "lttng-analyses:"));
	free(out);
}

/* The traces the tests keep: every version, cut ones, XScale's mapping. */
TEST(corpus_babeltrace)
{
	static const char *const files[] = {
		"gen-v1-fixed-buffers.fdr", "gen-v2.fdr", "gen-v3.fdr",
		"gen-v4.fdr", "writer-sample.fdr", "xscale-mapping.fdr",
		"gen-extents-cut-short.fdr", "gen-header-only.fdr",
		"compiler-rt-truncated.fdr", "gen-extent-2pow32-plus.fdr",
	};
	char path[256], *out;
	size_t i;
	int st;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "data/corpus/fdr/%s", files[i]);
		st = convert_check(path, "", &out);
		if (st == 4)
			SKIP(free(out); return, "%s", out);
		ASSERT_EQ(0, st) TH_LOG("%s: %s", files[i], out);
		free(out);
	}
}

/* A second trace is never mixed into a directory that holds one. */
TEST(refuses_existing)
{
	char dir[] = "/tmp/tb-ctf-XXXXXX";
	char *out;
	int status;

	ASSERT_NE(NULL, mkdtemp(dir));
	out = tu_run(&status, "%s convert -q fdr-ctf data/viewer/demo.fdr %s && "
		     "%s convert -q fdr-ctf data/viewer/demo.fdr %s",
		     tu_tool("tracebuf"), dir, tu_tool("tracebuf"), dir);
	tu_rmdir(dir);
	ASSERT_EQ(1, status) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "holds a trace already"));
	free(out);
}

/* OUTPUT is a directory: stdout cannot be one. */
TEST(needs_output)
{
	char *out;
	int status;

	out = tu_run(&status, "%s convert fdr-ctf data/viewer/demo.fdr",
		     tu_tool("tracebuf"));
	ASSERT_EQ(2, status) TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
