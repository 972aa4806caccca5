// SPDX-License-Identifier: GPL-2.0
/*
 * The mapped reader's spool (lib/device/fdr_spool.h): whatever the layout it
 * writes while recording (whole pages for O_DIRECT, or the stream as it
 * is), the finished file is exactly the stream, the header then every
 * page's bytes in order, and nothing a page held beyond its length.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "device/fdr_spool.h"
#include "util/buf.h"
#include "tb_test_util.h"

#define PS	4096

/* @n pages of @page_size, page aligned, as the rings are in the mapping. */
static uint8_t *ring_alloc(size_t page_size, unsigned int n)
{
	return aligned_alloc(PS, page_size * n);
}

/*
 * Spool @rounds of up to @max pages (at most MAX_ROUND: a round of every
 * CPU's pages) with random lengths (0, full and in between) through @s,
 * each page filled with bytes of its own and junk beyond its length; the
 * stream they make goes to @want.  Returns its length, or -errno from the
 * spool.
 */
#define MAX_ROUND	150
static long spool_random(struct tb_fdr_spool *s, uint8_t *ring,
			 size_t page_size, int rounds, unsigned int max,
			 uint8_t *want, unsigned int seed)
{
	const void *pages[MAX_ROUND];
	uint32_t lens[MAX_ROUND];
	uint8_t header[TB_FDR_SPOOL_HEADER];
	long at = sizeof(header);
	int r, i, n, ret;

	srand(seed);
	for (i = 0; i < (int)sizeof(header); i++)
		header[i] = 0xa0 + i;
	tb_fdr_spool_header(s, header);
	memcpy(want, header, sizeof(header));
	for (r = 0; r < rounds; r++) {
		n = rand() % (max + 1);
		for (i = 0; i < n; i++) {
			/* Distinct slots in one round, as MMAP_GET lends. */
			uint8_t *p = ring + (size_t)i * page_size;
			int k = rand() % 4;

			lens[i] = k == 0 ? 0 : k == 1 ? page_size :
				  (uint32_t)(rand() % page_size);
			memset(p, 0xee, page_size);	/* junk */
			for (uint32_t b = 0; b < lens[i]; b++)
				p[b] = (uint8_t)(r * 31 + i * 7 + b);
			pages[i] = p;
			memcpy(want + at, p, lens[i]);
			at += lens[i];
		}
		ret = tb_fdr_spool_pages(s, pages, lens, n);
		if (ret)
			return ret;
	}
	return at;
}

/* Finish @s and compare its file with @want (@len bytes). */
static int finished_is(struct tb_fdr_spool *s, const uint8_t *want,
		       long len)
{
	uint64_t got_len;
	struct stat st;
	uint8_t *got;
	int ret;

	ret = tb_fdr_spool_finish(s, &got_len);
	if (ret || (long)got_len != len || fstat(s->fd, &st) ||
	    st.st_size != len)
		return -1;
	got = malloc(len);
	if (!got)
		return -1;
	ret = pread(s->fd, got, len, 0) == len && !memcmp(got, want, len) ?
	      0 : -1;
	free(got);
	return ret;
}

/*
 * Spool @rounds random rounds of up to @max pages of @page_size to @fd
 * (asking for O_DIRECT; @layout 1 forces the whole-page layout, 0 the
 * appended one, -1 takes what the file system gives) and check the
 * finished file.  0 when it is the stream; *@direct says which layout was
 * written.
 */
static int round_trip(int fd, size_t page_size, int rounds, unsigned int max,
		      int layout, unsigned int seed, bool *direct)
{
	uint8_t *ring = ring_alloc(page_size, max);
	uint8_t *want = malloc((size_t)rounds * max * page_size + 64);
	struct tb_fdr_spool s;
	long len = -1;

	if (ring && want) {
		tb_fdr_spool_init(&s, fd, page_size, layout != 0);
		if (layout >= 0)
			s.direct = layout;
		*direct = s.direct;
		len = spool_random(&s, ring, page_size, rounds, max, want,
				   seed);
		if (len > 0)
			len = finished_is(&s, want, len);
	}
	free(ring);
	free(want);
	return len ? -1 : 0;
}

/* tmpfs has no O_DIRECT: the pages are appended as they come. */
TEST(appended_spool_is_the_stream)
{
	int fd = memfd_create("spool", 0);
	bool direct;

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, round_trip(fd, 2 * PS, 40, TRACEBUF_FDR_PAGES, -1, 1,
				&direct));
	EXPECT_FALSE(direct);
	close(fd);
}

/*
 * The direct layout (whole pages at (k + 1) * page_size) compacts to the
 * stream, with every length from 0 to a full page: forced on a file
 * without O_DIRECT, where it is written the same way.
 */
TEST(direct_layout_compacts_to_the_stream)
{
	static const size_t sizes[] = { PS, 16 * PS };
	bool direct;

	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		int fd = memfd_create("spool", 0);

		ASSERT_LE(0, fd);
		EXPECT_EQ(0, round_trip(fd, sizes[z], 30, TRACEBUF_FDR_PAGES, 1,
					2 + z, &direct));
		EXPECT_TRUE(direct);
		close(fd);
	}
}

/*
 * A file where the build runs, O_DIRECT if its file system has it (the
 * test says which); the stream is the same either way.
 */
TEST(spool_in_a_directory)
{
	char *dir = tu_tmpdir(), path[512];
	bool direct;
	int fd;

	snprintf(path, sizeof(path), "%s/spool", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, round_trip(fd, 4 * PS, 20, TRACEBUF_FDR_PAGES, -1, 7,
				&direct));
	TH_LOG("%s: %s", dir, direct ? "O_DIRECT" : "no O_DIRECT");
	EXPECT_EQ(0, fcntl(fd, F_GETFL) & O_DIRECT);
	close(fd);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A drain's round holds every CPU's pages (16 a CPU): more than one write
 * takes (TB_FDR_SPOOL_WRITE_PAGES), split without a byte out of place,
 * in both layouts.
 */
TEST(rounds_of_many_cpus)
{
	bool direct;

	for (int layout = 0; layout < 2; layout++) {
		int fd = memfd_create("spool", 0);

		ASSERT_LE(0, fd);
		EXPECT_EQ(0, round_trip(fd, PS, 12, MAX_ROUND, layout, 11,
					&direct));
		EXPECT_EQ(layout, direct);
		close(fd);
	}
}

/* A capture that lent nothing: the header alone, in either layout. */
TEST(header_only)
{
	uint8_t header[TB_FDR_SPOOL_HEADER] = { 1, 0, 3 };

	for (int direct = 0; direct < 2; direct++) {
		struct tb_fdr_spool s;
		int fd = memfd_create("spool", 0);

		ASSERT_LE(0, fd);
		tb_fdr_spool_init(&s, fd, PS, false);
		s.direct = direct;
		tb_fdr_spool_header(&s, header);
		EXPECT_EQ(0, tb_fdr_spool_pages(&s, NULL, NULL, 0));
		EXPECT_EQ(0, finished_is(&s, header, sizeof(header)));
		close(fd);
	}
}

/* What a broken or hostile control page could ask for is refused. */
TEST(bad_pages_refused)
{
	const void *pages[1];
	uint32_t lens[1] = { 0 };
	uint8_t header[TB_FDR_SPOOL_HEADER] = { 0 };
	uint8_t *ring = ring_alloc(PS, 1);
	struct tb_fdr_spool s;
	int fd = memfd_create("spool", 0);
	uint64_t len;

	ASSERT_NE(NULL, ring);
	ASSERT_LE(0, fd);
	pages[0] = ring;
	tb_fdr_spool_init(&s, fd, PS, false);
	s.direct = true;
	/* Whole pages need the header first: it is not in the file. */
	EXPECT_EQ(-EINVAL, tb_fdr_spool_pages(&s, pages, lens, 1));
	tb_fdr_spool_header(&s, header);
	lens[0] = PS + 1;
	EXPECT_EQ(-EPROTO, tb_fdr_spool_pages(&s, pages, lens, 1));
	EXPECT_EQ(0, s.write_errno);
	EXPECT_EQ(0, tb_fdr_spool_finish(&s, &len));
	EXPECT_EQ(sizeof(header), len);
	close(fd);
	free(ring);
}

/*
 * A file that cannot take the pages (/dev/full: ENOSPC, as a full disk)
 * fails the write and says it was the write, in both layouts; refused
 * pages (bad_pages_refused) leave write_errno 0.
 */
TEST(full_file_is_a_write_error)
{
	uint8_t header[TB_FDR_SPOOL_HEADER] = { 0 };
	uint8_t *ring = ring_alloc(PS, 2);
	const void *pages[2];
	uint32_t lens[2] = { 100, PS };

	ASSERT_NE(NULL, ring);
	pages[0] = ring;
	pages[1] = ring + PS;
	for (int direct = 0; direct < 2; direct++) {
		struct tb_fdr_spool s;
		int fd = open("/dev/full", O_RDWR);

		ASSERT_LE(0, fd);
		tb_fdr_spool_init(&s, fd, PS, false);
		s.direct = direct;
		tb_fdr_spool_header(&s, header);
		EXPECT_EQ(0, s.write_errno);
		EXPECT_EQ(-ENOSPC, tb_fdr_spool_pages(&s, pages, lens, 2));
		EXPECT_EQ(ENOSPC, s.write_errno);
		free(s.lens);
		close(fd);
	}
	free(ring);
}

/*
 * A spool to memory (tracebuf top) holds the stream as a file would,
 * and goes on after the caller took what it held but the header.
 */
TEST(memory_spool_is_the_stream)
{
	const size_t ps = 2 * PS;
	uint8_t *ring = ring_alloc(ps, MAX_ROUND);
	uint8_t *want = malloc(3 * MAX_ROUND * ps + 64);
	struct tb_buf mem = { 0 };
	struct tb_fdr_spool s;
	uint64_t len;
	long n;

	ASSERT_NE(NULL, ring);
	ASSERT_NE(NULL, want);
	tb_fdr_spool_init_mem(&s, &mem, ps);
	n = spool_random(&s, ring, ps, 3, MAX_ROUND, want, 7);
	ASSERT_LT(TB_FDR_SPOOL_HEADER, n);
	ASSERT_EQ((size_t)n, mem.len);
	EXPECT_EQ(0, memcmp(mem.data, want, n));
	EXPECT_EQ((uint64_t)n, s.bytes);
	/* taken: what comes next is appended without a second header */
	mem.len = 0;
	n = spool_random(&s, ring, ps, 2, 20, want, 8);
	ASSERT_LT(TB_FDR_SPOOL_HEADER, n);
	ASSERT_EQ((size_t)n - TB_FDR_SPOOL_HEADER, mem.len);
	EXPECT_EQ(0, memcmp(mem.data, want + TB_FDR_SPOOL_HEADER, mem.len));
	EXPECT_EQ(0, tb_fdr_spool_finish(&s, &len));
	EXPECT_EQ(0, s.write_errno);
	tb_buf_free(&mem);
	free(ring);
	free(want);
}

TEST_HARNESS_MAIN
