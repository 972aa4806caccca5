// SPDX-License-Identifier: GPL-2.0
/*
 * A trace cut on a record boundary inside a block (issue 26 item 7):
 * llvm-xray reads such a file without a word; every reader of ours reads
 * it too, exit status 0, and says on stderr that the trace is cut and how
 * many bytes its last block lacks.  An uncut trace says nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define TOOL	"../../build/userspace/tracebuf"

static const char *const readers[] = {
	"convert fdr-text", "convert fdr-json", "convert fdr-tfile",
	"convert fdr-tidy", "report",
};

/* One task's block: 4 function records, 32 bytes after the NewCPUId. */
static size_t trace(struct gb *g, size_t *block_end)
{
	size_t ext;

	gf_header(g, 5, 1, 0);
	ext = gf_extents(g, 0);
	gf_new_buffer(g, 5);
	gf_wallclock(g, 1, 0);
	gf_pid(g, 5);
	gf_cpu(g, 0, 100);
	gf_func(g, TB_FDR_ENTER, 1, 0);
	gf_func(g, TB_FDR_ENTER, 2, 10);
	gf_func(g, TB_FDR_EXIT, 2, 10);
	gf_func(g, TB_FDR_EXIT, 1, 10);
	gf_extents_end(g, ext);
	*block_end = g->n;
	return ext;
}

TEST(every_reader_says_a_trace_is_cut)
{
	char *dir = tu_tmpdir(), path[512], want[64];
	struct gb g = { 0 };
	size_t end, cut;
	unsigned int i;
	char *out;
	int st;

	trace(&g, &end);
	snprintf(path, sizeof(path), "%s/t.fdr", dir);
	/* Cut after 3, 2 and 1 of the 4 function records. */
	for (cut = end - 8; cut >= end - 24; cut -= 8) {
		struct gb c = { .p = g.p, .n = cut };

		ASSERT_EQ(0, gb_write(&c, path));
		snprintf(want, sizeof(want), "lacks its last %zu bytes",
			 end - cut);
		for (i = 0; i < ARRAY_SIZE(readers); i++) {
			out = tu_run(&st, "(" TOOL " %s %s >/dev/null)",
				     readers[i], path);
			EXPECT_EQ(0, st) TH_LOG("%s: %s", readers[i], out);
			EXPECT_NE(NULL, strstr(out, "the trace is cut"))
				TH_LOG("%s at %zu: '%s'", readers[i], cut, out);
			EXPECT_NE(NULL, strstr(out, want))
				TH_LOG("%s: %s", readers[i], out);
			free(out);
		}
	}
	ASSERT_EQ(0, gb_write(&g, path));
	for (i = 0; i < ARRAY_SIZE(readers); i++) {
		out = tu_run(&st, "(" TOOL " %s %s >/dev/null)", readers[i],
			     path);
		EXPECT_EQ(0, st);
		EXPECT_EQ(NULL, strstr(out, "cut")) TH_LOG("%s: %s",
							   readers[i], out);
		free(out);
	}
	gb_free(&g);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
