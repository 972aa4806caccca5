// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line habits of tbdecode and tbconv: --help, --version, "-" for
 * stdin/stdout in pipes, exit codes (tb_cli.h), no progress output when
 * stderr is not a terminal, and conversions chained through pipes.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tb_cli.h"
#include "tb_test_util.h"

#define SNAP "data/corpus/xscale/snapshot.bin"

TEST(help_and_version)
{
	static const char *const tools[] = { "tbdecode", "tbconv" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		int st;
		char *out = tu_run(&st, "%s --help", tu_tool(tools[i]));

		EXPECT_EQ(TB_EXIT_OK, st);
		EXPECT_NE(NULL, strstr(out, "Usage: "));
		free(out);
		out = tu_run(&st, "%s --version", tu_tool(tools[i]));
		EXPECT_EQ(TB_EXIT_OK, st);
		EXPECT_NE(NULL, strstr(out, TB_VERSION));
		free(out);
		out = tu_run(&st, "%s --bogus", tu_tool(tools[i]));
		EXPECT_EQ(TB_EXIT_USAGE, st);
		free(out);
	}
}

TEST(tbdecode_reads_stdin)
{
	int st;
	char *out = tu_run(&st, "cat %s | %s -", SNAP, tu_tool("tbdecode"));

	EXPECT_EQ(TB_EXIT_OK, st);
	EXPECT_NE(NULL, strstr(out, "# buffer 0: 256 bytes, seq 0"));
	EXPECT_NE(NULL, strstr(out, "exception count=3  vector=6(irq)"));
	EXPECT_NE(NULL, strstr(out, "indirect  count=2  target=0xc0008010"));
	EXPECT_NE(NULL, strstr(out, "target=0x00001234 chkpt0"));
	EXPECT_NE(NULL, strstr(out, "# 6 message(s), 40 instruction(s)"));
	/* Not a terminal: no progress lines. */
	EXPECT_EQ(NULL, strstr(out, "MiB"));
	free(out);
	/* Same text from tbconv. */
	out = tu_run(&st, "bash -c '%s xscale-text %s | cmp - <(%s %s)'",
		     tu_tool("tbconv"), SNAP, tu_tool("tbdecode"), SNAP);
	EXPECT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
}

TEST(exit_codes_for_bad_input)
{
	int st;
	char *out;

	out = tu_run(&st, "head -c 100 %s | %s", SNAP, tu_tool("tbdecode"));
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "truncated record data"));
	free(out);
	out = tu_run(&st, "%s /nonexistent/file", tu_tool("tbdecode"));
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	out = tu_run(&st, "%s --size 300 %s", tu_tool("tbdecode"), SNAP);
	EXPECT_EQ(TB_EXIT_USAGE, st);
	free(out);
	out = tu_run(&st, "%s frobnicate", tu_tool("tbconv"));
	EXPECT_EQ(TB_EXIT_USAGE, st);
	free(out);
	out = tu_run(&st, "%s fdr-text %s", tu_tool("tbconv"), SNAP);
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "is not FDR (1)"));
	free(out);
	out = tu_run(&st, "%s tfile-text %s", tu_tool("tbconv"), SNAP);
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "not a trace file"));
	free(out);
	out = tu_run(&st, "%s fdr-text %s /dev/full", tu_tool("tbconv"),
		     "data/corpus/fdr/writer-sample.fdr");
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
}

/* xscale -> FDR -> xscale through pipes gives back the same bytes. */
TEST(pipe_roundtrip)
{
	int st;
	char *out = tu_run(&st, "%s xscale-fdr --clock 200000000 %s - | "
			   "%s fdr-xscale - - | cmp - %s",
			   tu_tool("tbconv"), SNAP, tu_tool("tbconv"), SNAP);

	EXPECT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	if (!tu_have("llvm-xray"))
		return;
	out = tu_run(&st, "d=$(mktemp -d) && %s xscale-fdr -c 1000 %s $d/x && "
		     "llvm-xray account -k $d/x; rm -rf $d",
		     tu_tool("tbconv"), SNAP);
	EXPECT_EQ(0, st);
	/* Instruction counts as ticks at 1 kHz: the IRQ took 3 ms. */
	EXPECT_NE(NULL, strstr(out, "0.003000")) {
		TH_LOG("%s", out);
	}
	free(out);
}

TEST(map_elf_tool)
{
	int st;
	char *out;

	if (!tu_have("llvm-xray"))
		SKIP(return, "llvm-xray not installed");
	out = tu_run(&st, "d=$(mktemp -d) && printf '1 alpha\\n2 beta\\n' | "
		     "%s map-elf - $d/m.elf && "
		     "llvm-xray account -k -m $d/m.elf %s; rm -rf $d",
		     tu_tool("tbconv"), "data/corpus/fdr/writer-sample.fdr");
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "alpha")) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "beta"));
	free(out);
}

TEST_HARNESS_MAIN
