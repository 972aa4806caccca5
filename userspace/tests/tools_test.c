// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line habits of tbdecode and tbconv: --help, --version, "-" for
 * stdin/stdout in pipes, exit codes (cli/cli.h), no progress output when
 * stderr is not a terminal, and conversions chained through pipes.
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "format/fdr_writer.h"
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
	char *dir = tu_tmpdir();
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
	/*
	 * Same text from tbconv (through a file, not bash's <(...): sh may
	 * be busybox's, as in the PXA guest).
	 */
	out = tu_run(&st, "%s %s >%s/d && %s xscale-text %s | cmp - %s/d",
		     tu_tool("tbdecode"), SNAP, dir, tu_tool("tbconv"), SNAP, dir);
	EXPECT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	tu_rmdir(dir);
	free(dir);
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

/*
 * fdr-tidy on a capture whose one thread has 40 blocks in one second
 * (a writer with 256-byte blocks makes them): llvm-xray stack misorders
 * the input and accepts the output.  Bad input: exit 3, no file.
 */
TEST(fdr_tidy_makes_one_block_per_task)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_writer w;
	char *dir = tu_tmpdir(), path[512], *out;
	uint64_t t = 1000;
	int i, st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/raw.fdr", dir);
	f = fopen(path, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_writer_init(&w, f, &h, 256));
	ASSERT_EQ(0, tb_fdr_writer_begin(&w, 7, 7, 0, t, 100, 0));
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, ++t, NULL, 0);
	for (i = 0; i < 200; i++) {
		tb_fdr_writer_function(&w, TB_FDR_ENTER, 2 + i, ++t, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, 2 + i, ++t, NULL, 0);
	}
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, ++t, NULL, 0);
	ASSERT_EQ(0, tb_fdr_writer_finish(&w));
	fclose(f);

	out = tu_run(&st, "cd %s && %s fdr-tidy raw.fdr tidy.fdr && "
		     "%s fdr-text tidy.fdr | grep -c '^<Buffer'", dir,
		     tu_tool("tbconv"), tu_tool("tbconv"));
	EXPECT_EQ(0, st);
	EXPECT_STREQ("1\n", out);
	free(out);
	if (tu_have("llvm-xray")) {
		out = tu_run(&st, "llvm-xray stack %s/raw.fdr", dir);
		EXPECT_NE(0, st);	/* the input: llvm-xray misorders it */
		free(out);
		out = tu_run(&st, "llvm-xray stack %s/tidy.fdr", dir);
		EXPECT_EQ(0, st) TH_LOG("%s", out);
		free(out);
	}
	/* Cut inside a record: read up to it, said on stderr. */
	out = tu_run(&st, "head -c 100 %s/raw.fdr | %s fdr-tidy - %s/cut.fdr 2>&1; "
		     "echo $?; ls %s/cut.fdr", dir, tu_tool("tbconv"), dir, dir);
	EXPECT_NE(NULL, strstr(out, "the trace is cut")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n0\n")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "No such file")) TH_LOG("%s", out);
	free(out);
	/* Malformed (bytes without a BufferExtents): no output at all. */
	out = tu_run(&st, "(cat %s/raw.fdr; printf B) | %s fdr-tidy - %s/bad.fdr 2>&1; "
		     "echo $?; ls %s/bad.fdr", dir, tu_tool("tbconv"), dir, dir);
	EXPECT_NE(NULL, strstr(out, "trailing bytes")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n3\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "No such file")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/*
 * fdr-tidy on hostile input: every FDR file of the corpus (versions 1 to
 * 4, fuzzer finds, extents cut short or past 2^32), every truncation of
 * a capture and random bytes exit 0 or 3 (never a signal), leave no
 * output file when they fail, and what they write reads back (and passes
 * llvm-xray fdr-dump -verify).  I/O and usage errors: 1 and 2.
 */
TEST_TIMEOUT(fdr_tidy_hostile_input, TU_BATCH_TIMEOUT)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	/*
	 * An output already read is not read again: a capture cut at any
	 * byte is read up to its last whole record, so the cuts inside one
	 * record give one output.
	 */
	static const char check[] =
		"cd %s && seen=; for f in %s/*; do "
		"rm -f o; %s fdr-tidy \"$f\" o >/dev/null 2>&1; rc=$?; "
		"case $rc in 0) h=$(cksum < o | tr ' ' _); "
		"case \" $seen \" in *\" $h \"*) continue;; esac; seen=\"$seen $h\"; "
		"%s fdr-text o >/dev/null 2>&1 || echo BAD-READ $f; "
		"[ -z \"%s\" ] || llvm-xray fdr-dump -verify o >/dev/null 2>&1 "
		"|| echo BAD-LLVM $f;; "
		"3) [ ! -e o ] || echo BAD-LEFT $f;; "
		"*) echo BAD-RC $rc $f;; esac; done; echo checked";
	char *dir = tu_tmpdir(), path[512], *out;
	const char *xray = tu_have("llvm-xray") ? "y" : "";
	struct tb_fdr_writer w;
	uint64_t t = 1000, x = 2463534242ULL;
	size_t len, n;
	int i, st;
	FILE *f;

	/* A capture of two tasks, cut at every byte. */
	snprintf(path, sizeof(path), "%s/raw.fdr", dir);
	f = fopen(path, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_writer_init(&w, f, &h, 256));
	for (i = 0; i < 6; i++) {
		tb_fdr_writer_begin(&w, 7, 7 + i % 2, i % 2, t, 100, 0);
		tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, ++t, NULL, 0);
		tb_fdr_writer_custom(&w, t += 1ULL << 33, "mark", 4);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, ++t, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, 3, ++t, NULL, 0);
	}
	ASSERT_EQ(0, tb_fdr_writer_finish(&w));
	len = (size_t)ftell(f);
	fclose(f);
	out = tu_run(&st, "mkdir %s/cuts %s/rand && for n in $(seq 0 %zu); do "
		     "head -c $n %s > %s/cuts/$n; done", dir, dir, len, path,
		     dir);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	/* Random bytes behind a valid v5 header, and alone. */
	for (i = 0; i < 40; i++) {
		snprintf(path, sizeof(path), "%s/rand/%d", dir, i);
		f = fopen(path, "wb");
		ASSERT_NE(NULL, f);
		if (i & 1) {
			uint8_t hdr[TB_FDR_HEADER_SIZE];

			tb_fdr_writer_put_header(hdr, &h);
			fwrite(hdr, 1, sizeof(hdr), f);
		}
		for (n = 0; n < 64 + 37 * (size_t)i; n++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Now and then an introducer a reader acts on. */
			fputc(n % 16 ? (int)(x & 0xff) : (int)(x % 20), f);
		}
		fclose(f);
	}
	out = tu_run(&st, check, dir, "cuts", tu_tool("tbconv"),
		     tu_tool("tbconv"), xray);
	EXPECT_EQ(NULL, strstr(out, "BAD")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "checked"));
	free(out);
	out = tu_run(&st, check, dir, "rand", tu_tool("tbconv"),
		     tu_tool("tbconv"), xray);
	EXPECT_EQ(NULL, strstr(out, "BAD")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, check, dir, "$OLDPWD/data/corpus/fdr",
		     tu_tool("tbconv"), tu_tool("tbconv"), xray);
	EXPECT_EQ(NULL, strstr(out, "BAD")) TH_LOG("%s", out);
	free(out);
	/* Version 2: refused, exit 3, no file. */
	out = tu_run(&st, "%s fdr-tidy data/corpus/fdr/gen-v2.fdr %s/v2",
		     tu_tool("tbconv"), dir);
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "not 5")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s fdr-tidy /nonexistent %s/x", tu_tool("tbconv"),
		     dir);
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	out = tu_run(&st, "%s fdr-tidy %s/raw.fdr /dev/full", tu_tool("tbconv"),
		     dir);
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	out = tu_run(&st, "%s fdr-tidy %s/raw.fdr %s/x extra", tu_tool("tbconv"),
		     dir, dir);
	EXPECT_EQ(TB_EXIT_USAGE, st);
	free(out);
	out = tu_run(&st, "ls %s/v2 %s/x", dir, dir);
	EXPECT_EQ(2, tu_count(out, "No such file")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
