// SPDX-License-Identifier: GPL-2.0
/*
 * The growable buffer (lib/util/buf.h): appends keep every byte across
 * growths, arrays count their elements, a size past what memory can hold
 * is refused with the buffer unchanged, a freed buffer is empty, a file
 * is read whole and pointer-and-capacity arrays grow.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "util/buf.h"

TEST(append_keeps_bytes_across_growth)
{
	struct tb_buf b = { 0 };
	unsigned char byte;
	size_t i;

	for (i = 0; i < 100000; i++) {
		byte = (unsigned char)(i * 7);
		ASSERT_EQ(0, tb_buf_append(&b, &byte, 1));
	}
	ASSERT_EQ(100000, b.len);
	ASSERT_LE(b.len, b.cap);
	for (i = 0; i < b.len; i++)
		ASSERT_EQ((unsigned char)(i * 7), ((unsigned char *)b.data)[i]);
	tb_buf_free(&b);
	EXPECT_EQ(NULL, b.data);
	EXPECT_EQ(0, b.len);
	EXPECT_EQ(0, b.cap);
}

TEST(array_of_elements)
{
	struct tb_buf b = { 0 };
	uint64_t *v;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		v = tb_buf_add(&b, sizeof(*v));
		ASSERT_NE(NULL, v);
		*v = i * 3ULL;
	}
	ASSERT_EQ(1000, tb_buf_nr(&b, sizeof(uint64_t)));
	for (i = 0; i < 1000; i++)
		EXPECT_EQ(i * 3ULL, ((uint64_t *)b.data)[i]);
	tb_buf_free(&b);
}

TEST(too_large_is_refused_unchanged)
{
	struct tb_buf b = { 0 };

	ASSERT_EQ(0, tb_buf_append(&b, "abc", 3));
	EXPECT_EQ(-ENOMEM, tb_buf_reserve(&b, SIZE_MAX - 1));
	EXPECT_EQ(NULL, tb_buf_add(&b, SIZE_MAX / 2 + 1));
	EXPECT_EQ(3, b.len);
	EXPECT_EQ(0, memcmp(b.data, "abc", 3));
	EXPECT_EQ(0, tb_buf_reserve(&b, 0));
	tb_buf_free(&b);
}

TEST(read_file_whole)
{
	struct tb_buf b = { 0 };
	FILE *f = tmpfile();
	size_t i;

	ASSERT_NE(NULL, f);
	for (i = 0; i < 300000; i++)
		fputc('a' + i % 26, f);
	rewind(f);
	ASSERT_EQ(0, tb_buf_read_file(&b, f));
	ASSERT_EQ(300000, b.len);
	for (i = 0; i < b.len; i++)
		ASSERT_EQ('a' + i % 26, ((char *)b.data)[i]);
	fclose(f);
	tb_buf_free(&b);
}

TEST(array_grow_doubles_and_keeps)
{
	size_t cap = 0, i;
	uint32_t *v = NULL;

	for (i = 0; i < 5000; i++) {
		ASSERT_EQ(0, tb_buf_array_grow(&v, &cap, i + 1, sizeof(*v)));
		ASSERT_LE(i + 1, cap);
		v[i] = i;
	}
	for (i = 0; i < 5000; i++)
		ASSERT_EQ(i, v[i]);
	EXPECT_EQ(-ENOMEM, tb_buf_array_grow(&v, &cap, SIZE_MAX / 2,
					     sizeof(*v)));
	EXPECT_EQ(4999, v[4999]);
	free(v);
}

TEST_HARNESS_MAIN
