// SPDX-License-Identifier: GPL-2.0
/*
 * lib/collect: the collectors' traced command, companion paths, summary
 * and statistics JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "collect/collect.h"
#include "tb_test_util.h"

static char *in_memory(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fn(f, arg);
	fclose(f);
	return text;
}

static bool exists(const char *path)
{
	return !access(path, F_OK);
}

/* The command runs only after the start, and its status is its own. */
TEST(command_waits_for_start)
{
	char dir[] = "/tmp/tb-collect-XXXXXX", path[64], script[128];
	struct tb_collect_cmd c;
	char *argv[] = { "sh", "-c", script, NULL };
	int status;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ran", dir);
	snprintf(script, sizeof(script), "echo >%s; exit 3", path);
	ASSERT_EQ(0, tb_collect_cmd_fork(&c, argv, false));
	ASSERT_LT(0, c.pid);
	/* Not started: however long it waited, it has not run. */
	usleep(100000);
	EXPECT_FALSE(exists(path));
	EXPECT_EQ(0, waitpid(c.pid, &status, WNOHANG));
	ASSERT_EQ(0, tb_collect_cmd_start(&c));
	ASSERT_EQ(c.pid, waitpid(c.pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(3, WEXITSTATUS(status));
	EXPECT_EQ(3, tb_collect_status(status));
	EXPECT_TRUE(exists(path));
	unlink(path);
	rmdir(dir);
}

/*
 * A command that cannot run: exec's errno in the parent, child reaped.
 * The file that is not executable is the test's own (it was /etc/passwd,
 * which the PXA guest has not: ENOENT there).
 */
TEST(exec_failure_reported_with_errno)
{
	struct tb_collect_cmd c;
	char *dir = tu_tmpdir(), path[512];
	char *missing[] = { "/nonexistent/tb-collect-cmd", NULL };
	char *notexec[] = { path, NULL };
	pid_t pid;

	snprintf(path, sizeof(path), "%s/not-executable", dir);
	ASSERT_EQ(0, tu_write(path, "#!/bin/sh\n", 10));
	ASSERT_EQ(0, chmod(path, 0644));

	ASSERT_EQ(0, tb_collect_cmd_fork(&c, missing, false));
	pid = c.pid;
	EXPECT_EQ(-ENOENT, tb_collect_cmd_start(&c));
	EXPECT_EQ(0, c.pid);
	/* Reaped already: nothing left to wait for. */
	EXPECT_EQ(-1, waitpid(pid, NULL, WNOHANG));
	EXPECT_EQ(ECHILD, errno);

	ASSERT_EQ(0, tb_collect_cmd_fork(&c, notexec, false));
	EXPECT_EQ(-EACCES, tb_collect_cmd_start(&c));
	tu_rmdir(dir);
	free(dir);
}

/* Cancelled before the start: the child ends without running. */
TEST(cancel_runs_nothing)
{
	char dir[] = "/tmp/tb-collect-XXXXXX", path[64], script[128];
	struct tb_collect_cmd c;
	char *argv[] = { "sh", "-c", script, NULL };

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ran", dir);
	snprintf(script, sizeof(script), "echo >%s", path);
	ASSERT_EQ(0, tb_collect_cmd_fork(&c, argv, false));
	tb_collect_cmd_cancel(&c);
	EXPECT_EQ(0, c.pid);
	EXPECT_FALSE(exists(path));
	rmdir(dir);
}

/* With the trace on stdout, the command's stdout goes to stderr. */
TEST(stdout_to_stderr)
{
	char tmpl[] = "/tmp/tb-collect-err-XXXXXX";
	char *argv[] = { "echo", "tb-hello", NULL };
	struct tb_collect_cmd c;
	int fd = mkstemp(tmpl), saved = dup(STDERR_FILENO), status;
	char buf[32] = "";

	ASSERT_LE(0, fd);
	ASSERT_LE(0, saved);
	dup2(fd, STDERR_FILENO);
	ASSERT_EQ(0, tb_collect_cmd_fork(&c, argv, true));
	dup2(saved, STDERR_FILENO);
	close(saved);
	ASSERT_EQ(0, tb_collect_cmd_start(&c));
	ASSERT_EQ(c.pid, waitpid(c.pid, &status, 0));
	EXPECT_EQ(9, pread(fd, buf, sizeof(buf) - 1, 0));
	EXPECT_STREQ("tb-hello\n", buf);
	close(fd);
	unlink(tmpl);
}

TEST(companion_paths)
{
	const struct tb_collect_out none = { 0 }, all = {
		.names = "my.names", .no_tfile = true, .json = true,
	};
	struct tb_collect_paths p;
	struct tb_fdr_post_files f = { 0 };

	ASSERT_EQ(0, tb_collect_paths_init(&p, "out/t.fdr"));
	EXPECT_STREQ("out/t.fdr.names", p.names);
	EXPECT_STREQ("out/t.fdr.map", p.map);
	EXPECT_STREQ("out/t.fdr.tfile", p.tfile);
	EXPECT_STREQ("out/t.fdr.json", p.json);

	tb_collect_post_files(&f, &p, "out/t.fdr", &none);
	EXPECT_STREQ("out/t.fdr", f.trace);
	EXPECT_STREQ("out/t.fdr.names", f.names);
	EXPECT_STREQ("out/t.fdr.map", f.map);
	EXPECT_STREQ("out/t.fdr.tfile", f.tfile);
	EXPECT_EQ(NULL, f.json);

	/* -n, -N and -J */
	tb_collect_post_files(&f, &p, "out/t.fdr", &all);
	EXPECT_STREQ("my.names", f.names);
	EXPECT_EQ(NULL, f.tfile);
	EXPECT_STREQ("out/t.fdr.json", f.json);
	tb_collect_paths_free(&p);
	EXPECT_EQ(NULL, p.names);
}

/* The output options the collectors share; others are not taken. */
TEST(output_options)
{
	struct tb_collect_out o = { 0 };

	EXPECT_TRUE(tb_collect_out_option(&o, 'r', NULL));
	EXPECT_TRUE(tb_collect_out_option(&o, 'N', NULL));
	EXPECT_TRUE(tb_collect_out_option(&o, 'J', NULL));
	EXPECT_TRUE(tb_collect_out_option(&o, 'q', NULL));
	EXPECT_TRUE(tb_collect_out_option(&o, 'n', "a.names"));
	EXPECT_TRUE(tb_collect_out_option(&o, 'j', "s.json"));
	EXPECT_FALSE(tb_collect_out_option(&o, 'o', "x"));
	EXPECT_FALSE(tb_collect_out_option(&o, 'v', NULL));
	EXPECT_TRUE(o.raw && o.no_tfile && o.json && o.quiet);
	EXPECT_STREQ("a.names", o.names);
	EXPECT_STREQ("s.json", o.stats_json);
}

/* On stdout there is no file to put anything next to: only -n. */
TEST(companion_paths_stdout)
{
	const struct tb_collect_out json = { .json = true },
		named = { .names = "x.names" };
	struct tb_collect_paths p;
	struct tb_fdr_post_files f = { 0 };

	ASSERT_EQ(0, tb_collect_paths_init(&p, "-"));
	EXPECT_EQ(NULL, p.names);
	tb_collect_post_files(&f, &p, "-", &json);
	EXPECT_EQ(NULL, f.trace);
	EXPECT_EQ(NULL, f.names);
	EXPECT_EQ(NULL, f.map);
	EXPECT_EQ(NULL, f.tfile);
	EXPECT_EQ(NULL, f.json);
	tb_collect_post_files(&f, &p, "-", &named);
	EXPECT_STREQ("x.names", f.names);
	tb_collect_paths_free(&p);
}

TEST(command_status)
{
	EXPECT_EQ(-1, tb_collect_status(-1));
	EXPECT_EQ(0, tb_collect_status(0));
	EXPECT_EQ(7, tb_collect_status(7 << 8));
	EXPECT_EQ(128 + 9, tb_collect_status(9));	/* killed by SIGKILL */
}

static void fill(struct tb_collect_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->output = "t.fdr";
	s->classes = TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ;
	s->events = 12;
	s->per_class[0] = 10;
	s->per_class[1] = 2;
	s->per_class[2] = 99;	/* not asked for: not in the summary */
	s->bytes = 4096;
	s->blocks = 3;
	s->lost = 5;
	s->unmatched = 1;
	s->duration = 1.5;
	s->ru0.ru_utime.tv_sec = 1;
	s->ru1.ru_utime.tv_sec = 2;
	s->ru1.ru_stime.tv_usec = 500000;
	s->ru0.ru_nvcsw = 3;
	s->ru1.ru_nvcsw = 10;
	s->status = 1 << 8;
}

static void json_of(FILE *f, const void *arg)
{
	tb_collect_json(f, arg);
}

/* One object on one line, shared keys first, the collector's after. */
TEST(stats_json)
{
	struct tb_collect_stats s;
	uint64_t lost_cls[TB_FDR_NR_CLASSES] = { 4, 1 };
	char *j;

	fill(&s);
	tb_collect_count(&s, "dropped", 4);
	tb_collect_count(&s, "overwritten", 1);
	s.lost_per_class = lost_cls;
	/* Of the 7 voluntary switches, 2 waited for the collector's writes. */
	s.write_waits = 2;
	j = in_memory(json_of, &s);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("{\"events\": 12, \"bytes\": 4096, \"blocks\": 3, "
		     "\"lost\": 5, \"unmatched\": 1, "
		     "\"dropped\": 4, \"overwritten\": 1, "
		     "\"classes\": {\"syscall\": 10, \"irq\": 2, \"softirq\": 99, "
		     "\"workqueue\": 0, \"fault\": 0, \"sched\": 0, \"marker\": 0}, "
		     "\"lost_classes\": {\"syscall\": 4, \"irq\": 1, \"softirq\": 0, "
		     "\"workqueue\": 0, \"fault\": 0, \"sched\": 0, \"marker\": 0}, "
		     "\"duration_s\": 1.500000, \"reader_user_s\": 1.000000, "
		     "\"reader_sys_s\": 0.500000, \"reader_ns\": 1500000000, "
		     "\"wakeups\": 5, \"write_waits\": 2, "
		     "\"setup_cpu_s\": 1.000000, \"command_status\": 1}\n", j);
	free(j);
	/* Without per-class losses the key is left out. */
	s.lost_per_class = NULL;
	j = in_memory(json_of, &s);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(NULL, strstr(j, "lost_classes"));
	free(j);
}

static void summary_of(FILE *f, const void *arg)
{
	tb_collect_summary(f, arg, ", switches 4", " (detail)");
}

TEST(summary)
{
	struct tb_fdr_post_files files = {
		.names = "t.fdr.names", .map = "t.fdr.map", .json = "t.fdr.json",
	};
	struct tb_collect_stats s;
	char *t;

	tb_cli_init("tracebuf test");
	fill(&s);
	s.files = &files;
	/*
	 * What each number counts, said on its line: records as the
	 * recorder writes them (an entry, an exit, a marker), events as
	 * report counts them (a call, a point event, a marker).
	 */
	s.events = 24;
	/* The syscall class's failed calls, besides its calls. */
	s.errors = 3;
	t = in_memory(summary_of, &s);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("tracebuf test: 24 records in 1.50 s -> t.fdr (4096 bytes, 3 blocks)\n"
		     "  12 events: syscall 10 irq 2, switches 4\n"
		     "  with 3 failed system calls (tracebuf report shows them)\n"
		     "  lost 5 records (detail); command exited 1\n"
		     "  left out 1 exits whose entry precedes the capture or was lost (-r keeps them)\n"
		     "  names: t.fdr.names, map: t.fdr.map (llvm-xray -m), tfile: -\n"
		     "  trace_event JSON: t.fdr.json\n", t);
	free(t);
	/* No command, raw, no files. */
	s.status = -1;
	s.unmatched = 0;
	s.raw = true;
	files.json = NULL;
	t = in_memory(summary_of, &s);
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "  lost 5 records (detail)\n"));
	EXPECT_NE(NULL, strstr(t, "  names: t.fdr.names (kernel ids; no map or tfile with -r)\n"));
	free(t);
	s.files = NULL;
	t = in_memory(summary_of, &s);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(NULL, strstr(t, "names:"));
	EXPECT_EQ(NULL, strstr(t, "kernel function"));
	free(t);
	/* With -f, both collectors say how many kernel function calls. */
	s.kfuncs = true;
	s.kfunc_calls = 741;
	t = in_memory(summary_of, &s);
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "  753 events: syscall 10 irq 2, kernel function calls 741, switches 4\n"));
	free(t);
}

TEST_HARNESS_MAIN
