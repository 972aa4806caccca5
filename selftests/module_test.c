// SPDX-License-Identifier: GPL-2.0
/*
 * Module life cycle: the device node appears on load and goes on unload,
 * opening and closing work, an open file pins the module, and the module
 * loads again after an unload.
 */
#include <grp.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_selftest.h"

static int wait_for_node(const char *path, int present)
{
	struct stat st;
	int i;

	/* devtmpfs creates and removes nodes asynchronously. */
	for (i = 0; i < 200; i++) {
		if ((stat(path, &st) == 0) == present)
			return 0;
		usleep(10000);
	}
	return -1;
}

TEST(loaded_device_node)
{
	struct stat st;

	ASSERT_EQ(0, wait_for_node(TB_DEV, 1));
	ASSERT_EQ(0, stat(TB_DEV, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(10U, major(st.st_rdev)); /* misc */
	EXPECT_EQ(0600U, st.st_mode & 0777);
}

TEST(open_close)
{
	int fd = open(TB_DEV, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, close(fd));
	fd = open(TB_DEV, O_RDWR | O_NONBLOCK);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, close(fd));
}

TEST(not_seekable)
{
	int fd = open(TB_DEV, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, lseek(fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
	close(fd);
}

/* Run open() in a child with reduced privileges; return its errno. */
static int open_errno_as(int (*drop)(void), const char *path)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd;

		if (drop())
			_exit(255);
		fd = open(path, O_RDONLY);
		_exit(fd < 0 ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(open_without_perfmon_refused)
{
	/* Root without CAP_SYS_ADMIN/CAP_PERFMON: the driver says no. */
	EXPECT_EQ(EPERM, open_errno_as(tb_drop_trace_caps, TB_DEV));
}

TEST(unprivileged_open_refused)
{
	int err = open_errno_as(tb_drop_privileges, TB_DEV);

	EXPECT_TRUE(err == EPERM || err == EACCES);
}

TEST(open_file_pins_module)
{
	int fd = open(TB_DEV, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-EWOULDBLOCK, tb_module_unload());
	close(fd);
}

TEST(unload_and_reload)
{
	int round;

	for (round = 0; round < 3; round++) {
		int fd;

		ASSERT_EQ(0, tb_module_unload());
		ASSERT_EQ(0, wait_for_node(TB_DEV, 0));
		ASSERT_EQ(-ENOENT, tb_module_unload());
		ASSERT_EQ(0, tb_module_load());
		ASSERT_EQ(-EEXIST, tb_module_load());
		ASSERT_EQ(0, wait_for_node(TB_DEV, 1));
		fd = open(TB_DEV, O_RDONLY);
		ASSERT_LE(0, fd);
		close(fd);
	}
}

TEST_HARNESS_MAIN
