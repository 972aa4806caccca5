// SPDX-License-Identifier: GPL-2.0
/*
 * record -f's function selection (lib/device/kfunc.c) over a made-up
 * available_filter_functions and kprobe blacklist: names and globs,
 * several patterns, module functions, blacklisted and ambiguous names,
 * patterns matching nothing, bad patterns, and the limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "device/kfunc.h"

static const char avail[] =
	"vfs_read\n"
	"vfs_write\n"
	"vfs_readv\n"
	"rw_verify_area\n"
	"ext4_file_read_iter [ext4]\n"
	"show_stat\n"
	"show_stat\n"			/* two static functions, one name */
	"do_int3\n"
	"__x64_sys_read\n"
	"fault_in_readable.part.0\n"
	"__ftrace_invalid_address___3936\n";	/* a dropped weak function */

static const char blacklist[] =
	"0xffffffff81001000-0xffffffff81001080\tdo_int3\n"
	"0xffffffffc0001000-0xffffffffc0001080\tsome_mod_fn [some_mod]\n";

static int pick(const char *pats, size_t limit, struct tb_kfuncs *k,
		struct tb_error *err)
{
	return tb_kfunc_select(pats, avail, blacklist, NULL, limit, k, err);
}

static int has(const struct tb_kfuncs *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->names[i], name))
			return 1;
	return 0;
}

TEST(exact_and_glob)
{
	struct tb_kfuncs k;
	struct tb_error err;

	ASSERT_EQ(0, pick("vfs_read*,rw_verify_area", 100, &k, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(3U, k.n);
	EXPECT_TRUE(has(&k, "vfs_read"));
	EXPECT_TRUE(has(&k, "vfs_readv"));
	EXPECT_TRUE(has(&k, "rw_verify_area"));
	EXPECT_FALSE(has(&k, "vfs_write"));
	tb_kfunc_free(&k);
}

TEST(overlapping_patterns_once)
{
	struct tb_kfuncs k;
	struct tb_error err;

	ASSERT_EQ(0, pick("vfs_*,vfs_read,*_read", 100, &k, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(4U, k.n);	/* vfs_read vfs_readv vfs_write __x64_sys_read */
	EXPECT_TRUE(has(&k, "__x64_sys_read"));
	tb_kfunc_free(&k);
}

TEST(module_and_suffixed_names)
{
	struct tb_kfuncs k;
	struct tb_error err;

	ASSERT_EQ(0, pick("ext4_*,fault_in_readable.part.0", 100, &k, &err))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(2U, k.n);
	EXPECT_TRUE(has(&k, "ext4_file_read_iter"));
	tb_kfunc_free(&k);
}

/* Globs skip what cannot be traced; naming it is an error that says why. */
TEST(blacklisted_and_ambiguous)
{
	struct tb_kfuncs k;
	struct tb_error err;

	EXPECT_EQ(-1, pick("do_int3", 100, &k, &err));
	EXPECT_NE(NULL, strstr(err.msg, "blacklist"));
	EXPECT_EQ(-1, pick("show_stat", 100, &k, &err));
	EXPECT_NE(NULL, strstr(err.msg, "several"));
	EXPECT_EQ(-1, pick("do_*", 100, &k, &err));
	EXPECT_NE(NULL, strstr(err.msg, "matches no"));
	ASSERT_EQ(0, pick("*", 100, &k, &err));
	EXPECT_EQ(7U, k.n);
	EXPECT_FALSE(has(&k, "do_int3"));
	EXPECT_FALSE(has(&k, "show_stat"));
	tb_kfunc_free(&k);
}

TEST(bad_patterns)
{
	static const char * const bad[] = {
		"", ",", "vfs_read,", ",vfs_read", "vfs_read,,vfs_write",
		"vfs read", "ext4:ext4_*", "no_such_fn", "vfs_read;ls",
	};
	struct tb_kfuncs k;
	struct tb_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		EXPECT_EQ(-1, pick(bad[i], 100, &k, &err)) TH_LOG("'%s'", bad[i]);
		EXPECT_NE('\0', err.msg[0]);
		EXPECT_EQ(0U, k.n);
	}
}

TEST(limit)
{
	struct tb_kfuncs k;
	struct tb_error err;

	ASSERT_EQ(0, pick("vfs_*", 3, &k, &err));
	tb_kfunc_free(&k);
	EXPECT_EQ(-1, pick("vfs_*", 2, &k, &err));
	EXPECT_NE(NULL, strstr(err.msg, "at most 2"));
	EXPECT_EQ((size_t)TRACEBUF_FDR_KFUNC_MAX, tb_kfunc_limit(0));
	EXPECT_EQ((size_t)(TRACEBUF_FDR_KFUNC_INSTANCES_MAX /
			   TRACEBUF_FDR_KFUNC_ACTIVE_MAX),
		  tb_kfunc_limit(TRACEBUF_FDR_KFUNC_ACTIVE_MAX));
}

TEST(list_file)
{
	char path[] = "/tmp/kfunc_list_XXXXXX", line[128];
	struct tb_kfuncs k;
	struct tb_error err;
	FILE *f;
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, pick("vfs_write,rw_verify_area", 100, &k, &err));
	ASSERT_EQ(0, tb_kfunc_write_list(&k, path, &err));
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));	/* comment */
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("7000000 rw_verify_area\n", line);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("7000001 vfs_write\n", line);
	fclose(f);
	unlink(path);
	tb_kfunc_free(&k);
}

/* A collector's own refusals: a name says why, a glob skips them. */
TEST(denied_by_the_collector)
{
	static const char *const globs[] = { "vfs_write*", "rw_*", NULL };
	const struct tb_kfunc_deny deny = { globs, "is on the recorder's path" };
	struct tb_kfuncs k;
	struct tb_error err;

	EXPECT_EQ(-1, tb_kfunc_select("vfs_read,rw_verify_area", avail, blacklist,
				      &deny, 100, &k, &err));
	EXPECT_STREQ("'rw_verify_area' is on the recorder's path", err.msg);
	ASSERT_EQ(0, tb_kfunc_select("vfs_*", avail, blacklist, &deny, 100,
				     &k, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(2U, k.n);
	EXPECT_TRUE(has(&k, "vfs_read"));
	EXPECT_TRUE(has(&k, "vfs_readv"));
	tb_kfunc_free(&k);
	/* Everything a glob matches refused: it matches nothing. */
	EXPECT_EQ(-1, tb_kfunc_select("rw_*", avail, blacklist, &deny, 100, &k,
				      &err));
	EXPECT_NE(NULL, strstr(err.msg, "matches no traceable"));
}

/* The NAMES ioctl's lines, as the module writes them. */
/* ftrace's placeholders for dropped weak functions are no functions. */
TEST(ftrace_placeholders_are_not_functions)
{
	struct tb_kfuncs k;
	struct tb_error err;

	EXPECT_EQ(-1, pick("__ftrace_invalid_address___3936", 100, &k, &err));
	EXPECT_NE(NULL, strstr(err.msg, "__ftrace_invalid_address___3936")) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pick("__*", 100, &k, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1U, k.n);
	EXPECT_TRUE(has(&k, "__x64_sys_read"));
	tb_kfunc_free(&k);
}

TEST(names_lines)
{
	struct tb_kfuncs k;
	struct tb_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, pick("vfs_write,rw_verify_area", 100, &k, &err));
	tb_kfunc_write_names(&k, f);
	ASSERT_EQ(0, fclose(f));
	EXPECT_STREQ("7000000 kfunc rw_verify_area\n7000001 kfunc vfs_write\n", text);
	free(text);
	tb_kfunc_free(&k);
}

TEST_HARNESS_MAIN
