// SPDX-License-Identifier: GPL-2.0
/* Strict number parsing shared by every tool's options. */
#include <errno.h>
#include <stdint.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "util/parse.h"

TEST(parse_u64_bases)
{
	uint64_t v;

	ASSERT_EQ(0, tb_parse_u64("42", 0, UINT64_MAX, &v));
	EXPECT_EQ(42, v);
	ASSERT_EQ(0, tb_parse_u64("0x2a", 0, UINT64_MAX, &v));
	EXPECT_EQ(42, v);
	ASSERT_EQ(0, tb_parse_u64("052", 0, UINT64_MAX, &v));
	EXPECT_EQ(42, v);
	ASSERT_EQ(0, tb_parse_u64("18446744073709551615", 0, UINT64_MAX, &v));
	EXPECT_EQ(UINT64_MAX, v);
}

TEST(parse_u64_rejects_garbage)
{
	uint64_t v = 7;

	EXPECT_EQ(-EINVAL, tb_parse_u64("", 0, 100, &v));
	EXPECT_EQ(-EINVAL, tb_parse_u64("-1", 0, 100, &v));
	EXPECT_EQ(-EINVAL, tb_parse_u64("+1", 0, 100, &v));
	EXPECT_EQ(-EINVAL, tb_parse_u64(" 1", 0, 100, &v));
	EXPECT_EQ(-EINVAL, tb_parse_u64("12abc", 0, 100, &v));
	EXPECT_EQ(-EINVAL, tb_parse_u64("0x", 0, 100, &v));
	EXPECT_EQ(-EINVAL, tb_parse_u64(NULL, 0, 100, &v));
	EXPECT_EQ(-ERANGE, tb_parse_u64("18446744073709551616", 0, UINT64_MAX, &v));
	EXPECT_EQ(-ERANGE, tb_parse_u64("101", 0, 100, &v));
	EXPECT_EQ(-ERANGE, tb_parse_u64("4", 5, 100, &v));
	EXPECT_EQ(7, v);
}

TEST(parse_u32_range)
{
	uint32_t v;

	ASSERT_EQ(0, tb_parse_u32("4294967295", 0, UINT32_MAX, &v));
	EXPECT_EQ(UINT32_MAX, v);
	EXPECT_EQ(-ERANGE, tb_parse_u32("4294967296", 0, UINT32_MAX, &v));
}

TEST(parse_size_suffixes)
{
	uint64_t v;

	ASSERT_EQ(0, tb_parse_size("64K", 0, UINT64_MAX, &v));
	EXPECT_EQ(65536, v);
	ASSERT_EQ(0, tb_parse_size("2m", 0, UINT64_MAX, &v));
	EXPECT_EQ(2 << 20, v);
	ASSERT_EQ(0, tb_parse_size("1G", 0, UINT64_MAX, &v));
	EXPECT_EQ(1 << 30, v);
	ASSERT_EQ(0, tb_parse_size("512", 0, UINT64_MAX, &v));
	EXPECT_EQ(512, v);
	EXPECT_EQ(-EINVAL, tb_parse_size("1KB", 0, UINT64_MAX, &v));
	EXPECT_EQ(-EINVAL, tb_parse_size("1T", 0, UINT64_MAX, &v));
	EXPECT_EQ(-ERANGE, tb_parse_size("17179869184G", 0, UINT64_MAX, &v));
}

TEST_HARNESS_MAIN
