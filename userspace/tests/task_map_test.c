// SPDX-License-Identifier: GPL-2.0
/*
 * Task names (lib/format/task_map.h): the companion file round-trips every
 * command name a task can have, a malformed file is refused with its
 * line, the idle tasks have names of their own and /proc is read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "format/task_map.h"
#include "tb_test_util.h"
#include "util/companion.h"

static char *write_file(const char *dir, const char *text)
{
	char *path = tb_companion_path(dir, "/t.tasks");
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	return path;
}

TEST(round_trip_of_awkward_names)
{
	static const char *const comms[] = {
		"bash", "kworker/0:1", "a b", "tab\there", "back\\slash",
		"\x01\x7f\xff", "#not-comment", "fifteen-bytes-x",
	};
	struct tb_task_map m, back;
	struct tb_error err = { 0 };
	char *dir = tu_tmpdir(), *path;
	unsigned int i;
	FILE *f;

	tb_task_map_init(&m);
	for (i = 0; i < ARRAY_SIZE(comms); i++)
		ASSERT_EQ(0, tb_task_map_set(&m, 100 - i, 7, comms[i]));
	path = tb_companion_path(dir, "/x.tasks");
	f = fopen(path, "w");
	ASSERT_EQ(0, tb_task_map_write(&m, f));
	fclose(f);
	tb_task_map_init(&back);
	ASSERT_EQ(0, tb_task_map_load(&back, path, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(m.n, back.n);
	for (i = 0; i < ARRAY_SIZE(comms); i++) {
		const struct tb_task *t = tb_task_map_find(&back, 100 - i);

		ASSERT_NE(NULL, t);
		EXPECT_EQ(7, t->pid);
		EXPECT_STREQ(comms[i], t->comm);
	}
	tb_task_map_free(&m);
	tb_task_map_free(&back);
	free(path);
	tu_rmdir(dir);
	free(dir);
}

TEST(newest_name_wins_and_long_names_are_cut)
{
	char buf[TB_TASK_COMM_LEN];
	struct tb_task_map m;

	tb_task_map_init(&m);
	ASSERT_EQ(0, tb_task_map_set(&m, 5, 5, "sh"));
	ASSERT_EQ(0, tb_task_map_set(&m, 3, 3, "init"));
	ASSERT_EQ(0, tb_task_map_set(&m, 5, 5,
				     "fdr_workload_with_a_long_name"));
	ASSERT_EQ(2, m.n);
	EXPECT_STREQ("fdr_workload_wi", tb_task_map_comm(&m, 5, buf));
	EXPECT_STREQ("init", tb_task_map_comm(&m, 3, buf));
	EXPECT_EQ(NULL, tb_task_map_comm(&m, 4, buf));
	tb_task_map_free(&m);
}

/* Each name stays where it was written: one per CPU, kept together. */
TEST(idle_tasks_are_named_per_cpu)
{
	char buf[TB_TASK_COMM_LEN], buf2[TB_TASK_COMM_LEN];
	const char *zero, *last;
	struct tb_task_map m;

	tb_task_map_init(&m);
	zero = tb_task_map_comm(&m, TRACEBUF_FDR_IDLE_TID(0), buf);
	EXPECT_STREQ("swapper/13",
		     tb_task_map_comm(&m, TRACEBUF_FDR_IDLE_TID(13), buf2));
	EXPECT_STREQ("swapper/0", zero);
	last = tb_task_map_comm(&m, TRACEBUF_FDR_IDLE_TID(0xffff), buf);
	EXPECT_STREQ("swapper/65535", last);
	EXPECT_EQ(NULL, tb_task_map_comm(&m, 0x3fffffff, buf));
	EXPECT_EQ(NULL, tb_task_map_comm(&m, TRACEBUF_FDR_IDLE_TID(0x10000),
					 buf));
	EXPECT_EQ(7, tb_task_map_idle_cpu(TRACEBUF_FDR_IDLE_TID(7)));
	EXPECT_EQ(-1, tb_task_map_idle_cpu(7));
	EXPECT_EQ(0, tb_task_map_shown_tid(TRACEBUF_FDR_IDLE_TID(7)));
	EXPECT_EQ(7, tb_task_map_shown_tid(7));
	tb_task_map_free(&m);
}

TEST(malformed_files_are_refused_with_the_line)
{
	static const char *const bad[] = {
		"1 1\n", "x 1 a\n", "1 -2 a\n", "1 1 \\q\n", "1 1 \\x0\n",
		"1 1 \\x00\n", "1 1 sixteen-bytes-xx\n", "1 1 \n",
		"99999999999 1 a\n",
	};
	struct tb_error err;
	char *dir = tu_tmpdir();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct tb_task_map m;
		char text[128], *path;

		snprintf(text, sizeof(text), "# header\n2 2 ok\n%s", bad[i]);
		path = write_file(dir, text);
		tb_task_map_init(&m);
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(-1, tb_task_map_load(&m, path, &err))
			TH_LOG("accepted %s", bad[i]);
		EXPECT_NE(NULL, strstr(err.msg, "line 3")) TH_LOG("%s", err.msg);
		tb_task_map_free(&m);
		free(path);
	}
	tu_rmdir(dir);
	free(dir);
}

TEST(a_missing_file_is_enoent)
{
	struct tb_task_map m;
	struct tb_error err = { 0 };

	tb_task_map_init(&m);
	EXPECT_EQ(-ENOENT, tb_task_map_load(&m, "/nonexistent/x.tasks", &err));
	EXPECT_EQ(0, m.n);
}

TEST(proc_scan_finds_this_thread_by_its_name)
{
	struct tb_task_map m;
	const struct tb_task *t;

	ASSERT_EQ(0, prctl(PR_SET_NAME, "tm scan\\me", 0, 0, 0));
	tb_task_map_init(&m);
	ASSERT_LT(0, tb_task_map_scan(&m, "/proc"));
	t = tb_task_map_find(&m, gettid());
	ASSERT_NE(NULL, t);
	EXPECT_EQ(getpid(), t->pid);
	EXPECT_STREQ("tm scan\\me", t->comm);
	EXPECT_GT(0, tb_task_map_scan(&m, "/nonexistent"));
	tb_task_map_free(&m);
}

TEST_HARNESS_MAIN
