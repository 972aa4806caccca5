// SPDX-License-Identifier: GPL-2.0
/*
 * Names by default (issue 26 item 4): convert picks up INPUT.names next
 * to its input without a flag, --no-names turns that off, fdr-text stays
 * llvm-xray fdr-dump's text unless names are asked for, and an option a
 * conversion does not use is refused rather than ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define TOOL	"../../build/userspace/tracebuf"

FIXTURE(trace) {
	char *dir;
	char path[512];
};

FIXTURE_SETUP(trace)
{
	struct gb g = { 0 };
	char names[600];
	size_t ext;
	FILE *f;

	self->dir = tu_tmpdir();
	snprintf(self->path, sizeof(self->path), "%s/t.fdr", self->dir);
	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	gf_new_buffer(&g, 42);
	gf_wallclock(&g, 1, 0);
	gf_pid(&g, 42);
	gf_cpu(&g, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, 1, 0);
	gf_func(&g, TB_FDR_EXIT, 1, 100);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, gb_write(&g, self->path));
	gb_free(&g);
	snprintf(names, sizeof(names), "%s.names", self->path);
	f = fopen(names, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "1 sys_getppid\n# kernel id 0x100006e\n");
	fclose(f);
}

FIXTURE_TEARDOWN(trace)
{
	tu_rmdir(self->dir);
	free(self->dir);
}

TEST_F(trace, json_and_tfile_name_functions_from_the_companion)
{
	char *out;
	int st;

	out = tu_run(&st, TOOL " convert fdr-json %s", self->path);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "sys_getppid")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, TOOL " convert fdr-json --no-names %s", self->path);
	EXPECT_EQ(0, st);
	EXPECT_EQ(NULL, strstr(out, "sys_getppid"));
	free(out);
	out = tu_run(&st, TOOL " convert fdr-tfile %s | " TOOL
		     " convert tfile-text", self->path);
	EXPECT_EQ(0, st);
	/* tfile-text prints the tracepoints' strings in hex */
	EXPECT_NE(NULL, strstr(out, "7379735f676574707069")) TH_LOG("%s", out);
	free(out);
}

TEST_F(trace, fdr_text_is_llvm_xray_s_unless_names_are_asked_for)
{
	char *out;
	int st;

	out = tu_run(&st, TOOL " convert fdr-text %s", self->path);
	EXPECT_EQ(0, st);
	EXPECT_EQ(NULL, strstr(out, "sys_getppid"));
	if (tu_have("llvm-xray")) {
		char *ref = tu_run(&st, "llvm-xray fdr-dump %s", self->path);

		EXPECT_STREQ(ref, out);
		free(ref);
	}
	free(out);
	out = tu_run(&st, TOOL " convert --with-names fdr-text %s", self->path);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "<Function Enter: #1 delta = +0> sys_getppid\n"))
		TH_LOG("%s", out);
	free(out);
}

TEST_F(trace, an_option_without_effect_is_refused)
{
	static const char *const bad[] = {
		"-s 512 fdr-json", "-c 1000 fdr-text", "-m x fdr-tidy",
		"--names fdr-json", "--no-names fdr-text", "-m x xscale-text",
		"--names -m x fdr-text", "--no-names -m x fdr-json",
	};
	unsigned int i;
	char *out;
	int st;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		out = tu_run(&st, TOOL " convert %s %s /dev/null", bad[i],
			     self->path);
		EXPECT_EQ(2, st) TH_LOG("%s: %s", bad[i], out);
		free(out);
	}
}

TEST_HARNESS_MAIN
