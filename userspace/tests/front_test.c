// SPDX-License-Identifier: GPL-2.0
/*
 * The front command `tracebuf`: help, version, the old names as aliases,
 * unknown subcommands, and the `tracebuf fdr` errors that need no device
 * (bad command lines exit 2 before the device is opened; a missing
 * device exits 1 with the errno text).
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "tb_test_util.h"

#define SNAP "data/corpus/xscale/snapshot.bin"

static const char *const subcmds[] = {
	"record", "bpf", "fdr", "ctl", "convert", "decode", "workload",
};

/* Old name -> subcommand, as installed by make install-bin. */
static const char *const aliases[][2] = {
	{ "tracebuf-record", "record" }, { "tracebuf-bpf", "bpf" },
	{ "tracebufctl", "ctl" }, { "tbconv", "convert" },
	{ "tbdecode", "decode" }, { "tb-workload", "workload" },
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST(help_lists_every_subcommand)
{
	char *out, want[64];
	unsigned int i;
	int st;

	out = tu_run(&st, "%s --help", tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_OK, st);
	EXPECT_NE(NULL, strstr(out, "Usage: tracebuf"));
	for (i = 0; i < N(subcmds); i++) {
		snprintf(want, sizeof(want), "\n  %s ", subcmds[i]);
		EXPECT_NE(NULL, strstr(out, want)) {
			TH_LOG("%s missing", subcmds[i]);
		}
	}
	free(out);
	out = tu_run(&st, "%s help", tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_OK, st);
	EXPECT_NE(NULL, strstr(out, "Usage: tracebuf"));
	free(out);
	/* No subcommand: usage on stderr, exit 2. */
	out = tu_run(&st, "%s", tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_USAGE, st);
	EXPECT_NE(NULL, strstr(out, "Usage: tracebuf"));
	free(out);
}

/* `tracebuf help X` and `tracebuf X --help` print X's usage, exit 0. */
TEST(subcommand_help)
{
	unsigned int i;

	for (i = 0; i < N(subcmds); i++) {
		char *a, *b, want[64];
		int st;

		snprintf(want, sizeof(want), "Usage: tracebuf %s ", subcmds[i]);
		a = tu_run(&st, "%s help %s", tu_tool("tracebuf"), subcmds[i]);
		EXPECT_EQ(TB_EXIT_OK, st);
		EXPECT_NE(NULL, strstr(a, want)) {
			TH_LOG("%s: %s", subcmds[i], a);
		}
		b = tu_run(&st, "%s %s --help", tu_tool("tracebuf"), subcmds[i]);
		EXPECT_EQ(TB_EXIT_OK, st);
		EXPECT_STREQ(a, b);
		free(a);
		free(b);
	}
}

TEST(version)
{
	int st;
	char *out = tu_run(&st, "%s --version", tu_tool("tracebuf"));

	EXPECT_EQ(TB_EXIT_OK, st);
	EXPECT_NE(NULL, strstr(out, "tracebuf (tracebuf) " TB_VERSION));
	free(out);
	out = tu_run(&st, "%s fdr --version", tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_OK, st);
	EXPECT_NE(NULL, strstr(out, TB_VERSION));
	free(out);
}

TEST(unknown_subcommand)
{
	int st;
	char *out = tu_run(&st, "%s frobnicate", tu_tool("tracebuf"));

	EXPECT_EQ(TB_EXIT_USAGE, st);
	EXPECT_NE(NULL, strstr(out, "unknown subcommand 'frobnicate'"));
	free(out);
	out = tu_run(&st, "%s help frobnicate", tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_USAGE, st);
	free(out);
	out = tu_run(&st, "%s --bogus", tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_USAGE, st);
	free(out);
}

/* Each old name runs its subcommand and keeps its own name in messages. */
TEST(alias_dispatch)
{
	unsigned int i;

	for (i = 0; i < N(aliases); i++) {
		char *a, *b, want[64];
		int st;

		a = tu_run(&st, "%s --help", tu_tool(aliases[i][0]));
		EXPECT_EQ(TB_EXIT_OK, st);
		snprintf(want, sizeof(want), "Usage: %s ", aliases[i][0]);
		EXPECT_NE(NULL, strstr(a, want)) {
			TH_LOG("%s: %s", aliases[i][0], a);
		}
		b = tu_run(&st, "%s %s --help", tu_tool("tracebuf"), aliases[i][1]);
		/* The same text but for the name. */
		EXPECT_EQ(count_lines(a), count_lines(b)) {
			TH_LOG("%s", aliases[i][0]);
		}
		free(a);
		free(b);
	}
}

/* Through files, not bash's <(...): sh may be busybox's (the PXA guest). */
TEST(alias_output_identical)
{
	char *dir = tu_tmpdir(), *out;
	int st;

	out = tu_run(&st, "%s %s >%s/a && %s decode %s >%s/b && cmp %s/a %s/b",
		     tu_tool("tbdecode"), SNAP, dir, tu_tool("tracebuf"), SNAP,
		     dir, dir, dir);
	EXPECT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	out = tu_run(&st, "%s xscale-text %s >%s/a && "
		     "%s convert xscale-text %s >%s/b && cmp %s/a %s/b",
		     tu_tool("tbconv"), SNAP, dir, tu_tool("tracebuf"), SNAP,
		     dir, dir, dir);
	EXPECT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* Bad command lines: exit 2 before the device is opened (-D points nowhere). */
TEST(fdr_usage_errors)
{
	static const char *const bad[] = {
		"", "frobnicate", "--bogus stats",
		"config -e bogus", "config -e ''", "config -m sometimes",
		"config -s 100", "config -s 3M", "config -s 128M", "config -a 7",
		"config -w -1", "config -w 1G", "config -x", "config extra",
		"start now", "stop now", "stats --csv", "stats -j more",
		"names all", "snapshot a b",
	};
	unsigned int i;

	for (i = 0; i < N(bad); i++) {
		int st;
		char *out = tu_run(&st, "%s fdr -D /nonexistent/fdr %s",
				   tu_tool("tracebuf"), bad[i]);

		EXPECT_EQ(TB_EXIT_USAGE, st) {
			TH_LOG("'%s': %s", bad[i], out);
		}
		EXPECT_EQ(NULL, strstr(out, "/nonexistent/fdr")) {
			TH_LOG("'%s' opened the device: %s", bad[i], out);
		}
		free(out);
	}
}

/* Good command lines, no device: exit 1 with the errno text. */
TEST(fdr_missing_device)
{
	static const char *const good[] = {
		"config", "config -e syscall,irq -m flight -s 4M -a 2 -w 64K",
		"start", "stop", "snapshot", "stats", "stats --json", "names",
	};
	unsigned int i;

	for (i = 0; i < N(good); i++) {
		int st;
		char *out = tu_run(&st, "%s fdr -D /nonexistent/fdr %s",
				   tu_tool("tracebuf"), good[i]);

		EXPECT_EQ(TB_EXIT_FAIL, st) {
			TH_LOG("'%s': %s", good[i], out);
		}
		EXPECT_NE(NULL, strstr(out, "tracebuf fdr: cannot open /nonexistent/fdr")) {
			TH_LOG("'%s': %s", good[i], out);
		}
		EXPECT_NE(NULL, strstr(out, "No such file or directory"));
		free(out);
	}
}

TEST_HARNESS_MAIN
