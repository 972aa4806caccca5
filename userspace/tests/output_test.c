// SPDX-License-Identifier: GPL-2.0
/*
 * Converters never lose data: an output is written whole or not at all
 * (lib/util/output.h), never over its own input, and a directory given as
 * input is an I/O error, not malformed data.  The library helper first,
 * then the tools that use it.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "tb_gen.h"
#include "tb_test_util.h"
#include "tool.h"
#include "util/output.h"

/* Files in @dir whose name starts with '.' (our temporary files). */
static int hidden_files(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] == '.' && strcmp(de->d_name, ".") &&
		     strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	int c;

	while (f && (c = getc(f)) != EOF)
		putc(c, m);
	fclose(m);
	if (f)
		fclose(f);
	return f ? s : (free(s), NULL);
}

static void write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	fputs(s, f);
	fclose(f);
}

TEST(helper_commit_and_abort)
{
	char *dir = tu_tmpdir(), path[512], link[512];
	struct tb_output o;
	struct stat st;
	char *s;

	snprintf(path, sizeof(path), "%s/out", dir);
	write_str(path, "old");
	chmod(path, 0640);
	/* Abort: the output stays as it was, no temporary file left. */
	ASSERT_EQ(0, tb_output_open(&o, path));
	fputs("partial", o.f);
	EXPECT_EQ(1, hidden_files(dir));
	tb_output_abort(&o);
	s = read_all(path);
	EXPECT_STREQ("old", s);
	free(s);
	EXPECT_EQ(0, hidden_files(dir));
	/* Commit: replaced whole, with the mode it had. */
	ASSERT_EQ(0, tb_output_open(&o, path));
	fputs("new", o.f);
	s = read_all(path);
	EXPECT_STREQ("old", s);		/* not yet */
	free(s);
	ASSERT_EQ(0, tb_output_commit(&o));
	s = read_all(path);
	EXPECT_STREQ("new", s);
	free(s);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0640, st.st_mode & 07777);
	EXPECT_EQ(0, hidden_files(dir));
	/* A symbolic link: the file it points to is replaced. */
	snprintf(link, sizeof(link), "%s/link", dir);
	ASSERT_EQ(0, symlink(path, link));
	ASSERT_EQ(0, tb_output_open(&o, link));
	fputs("via link", o.f);
	ASSERT_EQ(0, tb_output_commit(&o));
	s = read_all(path);
	EXPECT_STREQ("via link", s);
	free(s);
	ASSERT_EQ(0, lstat(link, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	/* Not a regular file: written in place. */
	ASSERT_EQ(0, tb_output_open(&o, "/dev/null"));
	EXPECT_EQ(NULL, o.tmp);
	fputs("x", o.f);
	EXPECT_EQ(0, tb_output_commit(&o));
	/* A directory cannot be an output. */
	EXPECT_EQ(-EISDIR, tb_output_open(&o, dir));
	/* Nor can a file in a directory that does not exist. */
	snprintf(path, sizeof(path), "%s/no/such", dir);
	EXPECT_EQ(-ENOENT, tb_output_open(&o, path));
	tu_rmdir(dir);
	free(dir);
}

/* A process that dies with its output open leaves no file behind. */
/*
 * Cases: 0 exit(), 1 SIGTERM, 2 SIGINT, 3 SIGINT while it is ignored.  The
 * child sets the dispositions itself: a shell without job control starts
 * a background job with SIGINT ignored (this test, run so, failed case 2
 * in the PXA guest, whose init starts the command in the background, and
 * on x86 by `bash -c 'output_test & wait'`).  An ignored signal stays
 * ignored, as the shell meant (case 3): the helper installs no handler
 * for it, and the exit still cleans up.
 */
TEST(helper_cleanup_at_exit_and_on_signals)
{
	char *dir = tu_tmpdir(), path[512];
	unsigned int how;

	for (how = 0; how < 4; how++) {
		int st;
		pid_t pid;

		snprintf(path, sizeof(path), "%s/out%u", dir, how);
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			struct tb_output o;

			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, how == 3 ? SIG_IGN : SIG_DFL);
			if (tb_output_open(&o, path))
				_exit(99);
			fputs("partial", o.f);
			fflush(o.f);
			if (how == 0)
				exit(1);		/* tool_die() does this */
			raise(how == 1 ? SIGTERM : SIGINT);
			if (how == 3)
				exit(2);	/* survived: ignored */
			_exit(98);
		}
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		if (how == 0 || how == 3) {
			EXPECT_TRUE(WIFEXITED(st));
			EXPECT_EQ(how == 0 ? 1 : 2, WEXITSTATUS(st));
		} else {
			EXPECT_TRUE(WIFSIGNALED(st));
		}
		EXPECT_NE(0, access(path, F_OK));
		EXPECT_EQ(0, hidden_files(dir)) {
			TH_LOG("case %u left a temporary file", how);
		}
	}
	tu_rmdir(dir);
	free(dir);
}

/* A small valid FDR file and a malformed one. */
static void fdr_files(const char *dir, char *good, char *bad, size_t n)
{
	unsigned int seed = 5;
	struct gb g = { 0 };

	gf_file(&g, 5, &seed, 2, 300);
	snprintf(good, n, "%s/good.fdr", dir);
	gb_write(&g, good);
	/* An unknown record kind (a cut trace is read up to its cut). */
	g.p[TB_FDR_HEADER_SIZE + TB_FDR_META_SIZE] = 11 << 1 | 1;
	snprintf(bad, n, "%s/bad.fdr", dir);
	gb_write(&g, bad);
	gb_free(&g);
}

/*
 * tbconv fdr-tfile f f truncated its own input, then failed.  An output
 * that is the input (same file, by any name) is refused before it is
 * opened, and the input stays whole.
 */
TEST(output_is_the_input)
{
	char *dir = tu_tmpdir(), good[512], bad[512], *before, *after, *out;
	static const char *const convs[] = {
		"fdr-tfile", "fdr-text", "fdr-json",
	};
	unsigned int i;
	int st;

	fdr_files(dir, good, bad, sizeof(good));
	before = read_all(good);
	for (i = 0; i < 3; i++) {
		out = tu_run(&st, "%s %s %s %s", tu_tool("tbconv"), convs[i],
			     good, good);
		EXPECT_EQ(TB_EXIT_FAIL, st);
		EXPECT_NE(NULL, strstr(out, "refusing to overwrite it")) {
			TH_LOG("%s", out);
		}
		free(out);
	}
	/* The same file by another name, and through stdin. */
	out = tu_run(&st, "cd %s && ln -s good.fdr sym.fdr && "
		     "ln good.fdr hard.fdr && %s fdr-tfile good.fdr sym.fdr",
		     dir, tu_tool("tbconv"));
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	out = tu_run(&st, "cd %s && %s fdr-tfile good.fdr hard.fdr",
		     dir, tu_tool("tbconv"));
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	out = tu_run(&st, "cd %s && %s fdr-tfile - good.fdr < good.fdr",
		     dir, tu_tool("tbconv"));
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	/* A name map is an input too. */
	write_str(bad, "1 main\n");
	out = tu_run(&st, "%s fdr-tfile -m %s %s %s", tu_tool("tbconv"), bad,
		     good, bad);
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	after = read_all(good);
	EXPECT_STREQ(before, after);
	free(after);
	after = read_all(bad);
	EXPECT_STREQ("1 main\n", after);
	free(after);
	free(before);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A conversion that fails leaves no output: an existing file keeps its
 * contents, a new one is not created, no temporary file is left.
 */
TEST(failed_conversion_leaves_no_output)
{
	static const char *const convs[] = {
		"fdr-text", "fdr-tfile", "fdr-json", "fdr-xscale",
		"xscale-text", "xscale-tfile", "xscale-fdr", "tfile-text",
		"map-elf",
	};
	char *dir = tu_tmpdir(), good[512], bad[512], path[512], *out, *s;
	unsigned int i;
	int st;

	fdr_files(dir, good, bad, sizeof(good));
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		snprintf(path, sizeof(path), "%s/old.out", dir);
		write_str(path, "previous output\n");
		out = tu_run(&st, "%s %s %s %s", tu_tool("tbconv"), convs[i],
			     bad, path);
		EXPECT_EQ(TB_EXIT_DATA, st) {
			TH_LOG("%s: %s", convs[i], out);
		}
		free(out);
		s = read_all(path);
		EXPECT_STREQ("previous output\n", s) {
			TH_LOG("%s overwrote the output", convs[i]);
		}
		free(s);
		snprintf(path, sizeof(path), "%s/new.out", dir);
		out = tu_run(&st, "%s %s %s %s", tu_tool("tbconv"), convs[i],
			     bad, path);
		free(out);
		EXPECT_NE(0, access(path, F_OK)) {
			TH_LOG("%s left %s", convs[i], path);
		}
		EXPECT_EQ(0, hidden_files(dir));
	}
	/* A full disk is an I/O error, and leaves nothing either. */
	out = tu_run(&st, "%s fdr-text %s /dev/full", tu_tool("tbconv"), good);
	EXPECT_EQ(TB_EXIT_FAIL, st);
	free(out);
	/* Success replaces the output. */
	snprintf(path, sizeof(path), "%s/old.out", dir);
	out = tu_run(&st, "%s fdr-text %s %s", tu_tool("tbconv"), good, path);
	EXPECT_EQ(0, st);
	free(out);
	s = read_all(path);
	EXPECT_NE(NULL, strstr(s, "<Thread ID: 200>"));
	free(s);
	EXPECT_EQ(0, hidden_files(dir));
	tu_rmdir(dir);
	free(dir);
}

/* Stopped half way (SIGTERM, SIGHUP): no output, no temporary file. */
TEST(stopped_conversion_leaves_no_output)
{
	char *dir = tu_tmpdir(), *out;
	int st;

	/* The input is a FIFO that stays open: tbconv waits in a read. */
	out = tu_run(&st, "cd %s && mkfifo in && exec 3<>in && "
		     "(%s fdr-text in out.txt & p=$!; sleep 0.3; "
		     "ls -a | grep -c '^\\.out\\.txt\\.'; kill -TERM $p; "
		     "wait $p; echo \"status $?\"); ls -a",
		     dir, tu_tool("tbconv"));
	EXPECT_NE(NULL, strstr(out, "1\nstatus 143")) {
		TH_LOG("%s", out);
	}
	EXPECT_EQ(NULL, strstr(out, "out.txt"));
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* A directory as input: "is a directory", exit 1 (was 3, "truncated"). */
TEST(directory_input)
{
	static const char *const cmds[] = {
		"tbconv fdr-text %s", "tbconv tfile-text %s",
		"tbconv xscale-text %s", "tbconv fdr-tfile - - < %s",
		"tbdecode %s", "tbconv fdr-tfile -m %s data/corpus/fdr/writer-sample.fdr",
	};
	char *dir = tu_tmpdir(), cmd[1024], *out;
	unsigned int i;
	int st;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const char *space = strchr(cmds[i], ' ');
		char tool[64];

		snprintf(tool, sizeof(tool), "%.*s", (int)(space - cmds[i]),
			 cmds[i]);
		snprintf(cmd, sizeof(cmd), "%s%s", tu_tool(tool), space);
		out = tu_run(&st, cmd, dir);
		EXPECT_EQ(TB_EXIT_FAIL, st) {
			TH_LOG("%s: %s", cmds[i], out);
		}
		EXPECT_NE(NULL, strstr(out, "is a directory")) {
			TH_LOG("%s: %s", cmds[i], out);
		}
		free(out);
	}
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
