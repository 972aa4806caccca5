// SPDX-License-Identifier: GPL-2.0
/*
 * Collector post-processing (lib/convert/fdr_post.c) on hand-built kernel blocks:
 * block order, dense ids, unmatched exits with folded deltas and TSCWrap,
 * raw mode, and the names file read back through name_map.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <asm/unistd.h>
#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "tb_test_util.h"

#include "convert/fdr_post.h"
#include "convert/fdr_post_files.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "format/name_map.h"
#include "util/bytes.h"
#include "syscall_names.h"	/* generated from the UAPI headers */

struct stream {
	uint8_t p[8192];
	size_t len;
	size_t blk;		/* start of the open block */
};

static void s_header(struct stream *s)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL, .buffer_size = 4096,
	};

	tb_fdr_writer_put_header(s->p, &h);
	s->len = TB_FDR_HEADER_SIZE;
}

static uint8_t *s_meta(struct stream *s, unsigned int kind)
{
	uint8_t *m = s->p + s->len;

	tb_fdr_writer_put_meta(m, kind);
	s->len += TB_FDR_META_SIZE;
	return m;
}

/* Extents (filled by s_end), NewBuffer, WallClock, PID, NewCPUId. */
static void s_block(struct stream *s, int32_t pid, int32_t tid, uint64_t t)
{
	s->blk = s->len;
	s_meta(s, TB_FDR_BUFFER_EXTENTS);
	tb_bytes_put32(s_meta(s, TB_FDR_NEW_BUFFER) + 1, tid);
	s_meta(s, TB_FDR_WALLCLOCK);
	tb_bytes_put32(s_meta(s, TB_FDR_PID) + 1, pid);
	tb_bytes_put64(s_meta(s, TB_FDR_NEW_CPU) + 3, t);
}

/* The same on CPU @cpu. */
static void s_block_cpu(struct stream *s, int32_t pid, int32_t tid,
			uint16_t cpu, uint64_t t)
{
	s_block(s, pid, tid, t);
	tb_bytes_put16(s->p + s->len - TB_FDR_META_SIZE + 1, cpu);
}

static void s_func(struct stream *s, unsigned int type, uint32_t id,
		   uint32_t delta)
{
	tb_fdr_writer_put_func(s->p + s->len, type, id, delta);
	s->len += TB_FDR_FUNC_SIZE;
}

static void s_end(struct stream *s)
{
	tb_bytes_put64(s->p + s->blk + 1, s->len - s->blk - TB_FDR_META_SIZE);
}

struct seen {
	unsigned int n;
	unsigned int kind[64];
	uint32_t id[64];
	unsigned int type[64];
	uint64_t tsc[64];
	int32_t tid[64];
};

static int see(void *ctx, const struct tb_fdr_record *r)
{
	struct seen *v = ctx;

	if (v->n < 64) {
		v->kind[v->n] = r->kind;
		v->id[v->n] = r->func_id;
		v->type[v->n] = r->func_type;
		v->tsc[v->n] = r->tsc;
		v->tid[v->n] = r->tid;
		v->n++;
	}
	return 0;
}

/* Run the post-processing; the output's records (functions, NewCPU). */
static int post(struct tb_fdr_post *p, const struct stream *s,
		struct seen *v, size_t *outlen)
{
	struct tb_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	ret = tb_fdr_post_run(p, s->p, s->len, f, &err);
	fclose(f);
	if (ret)
		fprintf(stderr, "post: %s\n", err.msg);
	memset(v, 0, sizeof(*v));
	if (!ret && tb_fdr_reader_read_mem(buf, len, NULL, see, v, NULL, &err)) {
		fprintf(stderr, "output: %s\n", err.msg);
		ret = -1;
	}
	if (outlen)
		*outlen = len;
	free(buf);
	return ret;
}

/* The i-th function record of @v. */
static int func(const struct seen *v, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < v->n; k++)
		if (v->kind[k] == TB_FDR_FUNCTION && !i--)
			return k;
	return -1;
}

TEST(blocks_ordered_by_task_then_time)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;
	int t[3] = { 0 }, n = 0;
	unsigned int k;

	s_header(&s);
	s_block(&s, 1, 20, 200);	/* task 20 starts last */
	s_func(&s, TB_FDR_ENTER, 1, 1);
	s_end(&s);
	s_block(&s, 1, 10, 150);	/* task 10, second block */
	s_func(&s, TB_FDR_EXIT, 1, 1);
	s_end(&s);
	s_block(&s, 1, 10, 100);	/* task 10, first block */
	s_func(&s, TB_FDR_ENTER, 1, 1);
	s_end(&s);
	p.raw = true;
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	EXPECT_EQ(3, p.blocks);
	EXPECT_EQ(3, p.out_blocks);	/* raw: as recorded */
	for (k = 0; k < v.n && n < 3; k++)
		if (v.kind[k] == TB_FDR_NEW_CPU)
			t[n++] = (int)v.tsc[k];
	EXPECT_EQ(100, t[0]);
	EXPECT_EQ(150, t[1]);
	EXPECT_EQ(200, t[2]);
	EXPECT_EQ(2, p.enters[0]);
	tb_fdr_post_free(&p);
}

TEST(ids_renumbered_densely)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;

	s_header(&s);
	s_block(&s, 1, 10, 100);
	s_func(&s, TB_FDR_ENTER, 0x2000003, 1);
	s_func(&s, TB_FDR_ENTER, 0x1000005, 1);
	s_func(&s, TB_FDR_EXIT, 0x1000005, 1);
	s_func(&s, TB_FDR_EXIT, 0x2000003, 1);
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	ASSERT_EQ(2, p.nids);
	EXPECT_EQ(0x1000005, tb_fdr_post_kernel_id(&p, 1));
	EXPECT_EQ(0x2000003, tb_fdr_post_kernel_id(&p, 2));
	EXPECT_EQ(2, v.id[func(&v, 0)]);
	EXPECT_EQ(1, v.id[func(&v, 1)]);
	EXPECT_EQ(1, v.id[func(&v, 2)]);
	EXPECT_EQ(2, v.id[func(&v, 3)]);
	EXPECT_EQ(1, p.enters[1]);
	EXPECT_EQ(1, p.enters[2]);
	EXPECT_EQ(0, p.removed);
	tb_fdr_post_free(&p);
}

/*
 * A kernel function whose exit was lost (capture stopped, exit dropped):
 * the exit of the call around it closes it first, at the same time, so
 * llvm-xray's stacks stay balanced.
 */
TEST(lost_exit_closed_by_the_outer_exit)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;

	s_header(&s);
	s_block(&s, 1, 10, 100);
	s_func(&s, TB_FDR_ENTER, 0x1000000, 1);		/* read() */
	s_func(&s, TB_FDR_ENTER, 0x7000000, 1);		/* vfs_read */
	s_func(&s, TB_FDR_ENTER, 0x7000001, 1);		/* rw_verify_area */
	s_func(&s, TB_FDR_EXIT, 0x1000000, 5);		/* both exits lost */
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	EXPECT_EQ(2, p.closed);
	EXPECT_EQ(0, p.removed);
	ASSERT_LE(0, func(&v, 5));
	EXPECT_EQ(TB_FDR_EXIT, v.type[func(&v, 3)]);
	EXPECT_EQ(3, v.id[func(&v, 3)]);		/* innermost first */
	EXPECT_EQ(2, v.id[func(&v, 4)]);
	EXPECT_EQ(1, v.id[func(&v, 5)]);
	EXPECT_EQ(v.tsc[func(&v, 5)], v.tsc[func(&v, 3)]);
	EXPECT_EQ(108, v.tsc[func(&v, 5)]);
	tb_fdr_post_free(&p);
}

TEST(unmatched_exit_left_out_and_delta_folded)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;

	s_header(&s);
	s_block(&s, 1, 10, 1000);
	s_func(&s, TB_FDR_EXIT, 7, 5);		/* entered before the capture */
	s_func(&s, TB_FDR_ENTER, 8, 10);
	s_func(&s, TB_FDR_EXIT, 9, 20);		/* its entry was lost */
	s_func(&s, TB_FDR_EXIT, 8, 30);
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	EXPECT_EQ(2, p.removed);
	ASSERT_EQ(-1, func(&v, 2));
	/* Absolute times are kept: the left-out deltas moved on. */
	EXPECT_EQ(TB_FDR_ENTER, v.type[func(&v, 0)]);
	EXPECT_EQ(1015, v.tsc[func(&v, 0)]);
	EXPECT_EQ(TB_FDR_EXIT, v.type[func(&v, 1)]);
	EXPECT_EQ(1065, v.tsc[func(&v, 1)]);
	tb_fdr_post_free(&p);

	/* Raw: everything as recorded, kernel ids. */
	memset(&p, 0, sizeof(p));
	p.raw = true;
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	EXPECT_EQ(0, p.removed);
	EXPECT_EQ(9, v.id[func(&v, 2)]);
	EXPECT_EQ(1035, v.tsc[func(&v, 2)]);
	EXPECT_EQ(9, tb_fdr_post_kernel_id(&p, 9));
	tb_fdr_post_free(&p);
}

TEST(folded_delta_gets_a_tsc_wrap)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;
	unsigned int k, wraps = 0;

	s_header(&s);
	s_block(&s, 1, 10, 1000);
	s_func(&s, TB_FDR_EXIT, 7, 0xf0000000U);	/* left out */
	s_func(&s, TB_FDR_ENTER, 8, 0x20000000U);	/* > 32 bits after */
	s_func(&s, TB_FDR_EXIT, 8, 1);
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	EXPECT_EQ(1, p.removed);
	for (k = 0; k < v.n; k++)
		wraps += v.kind[k] == TB_FDR_TSC_WRAP;
	EXPECT_EQ(1, wraps);
	EXPECT_EQ(1000 + 0x110000000ULL, v.tsc[func(&v, 0)]);
	EXPECT_EQ(1001 + 0x110000000ULL, v.tsc[func(&v, 1)]);
	EXPECT_EQ(8, tb_fdr_post_kernel_id(&p, v.id[func(&v, 0)]));
	tb_fdr_post_free(&p);
}

TEST(stack_carries_across_a_task_s_blocks)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;

	s_header(&s);
	s_block(&s, 1, 10, 100);
	s_func(&s, TB_FDR_ENTER, 8, 1);
	s_end(&s);
	s_block(&s, 1, 10, 200);
	s_func(&s, TB_FDR_EXIT, 8, 1);		/* entry in the first block */
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	EXPECT_EQ(0, p.removed);
	EXPECT_EQ(TB_FDR_EXIT, v.type[func(&v, 1)]);
	tb_fdr_post_free(&p);
}

/*
 * llvm-xray 14 orders a thread's blocks by wall clock with a comparison
 * that calls two blocks of the same second equal, and its sort shuffles
 * equal blocks once a thread has more than 16: 20 blocks of one task in
 * one second must come out as one block, which llvm-xray stack accepts.
 */
TEST(a_task_s_blocks_become_one)
{
	struct tb_fdr_post p = { 0 };
	struct tb_error err;
	struct stream s;
	struct seen v;
	char *buf = NULL, *dir, *out, path[512];
	size_t len = 0;
	unsigned int k, blocks = 0, cpus = 0;
	int i, status;
	FILE *f;

	s_header(&s);
	for (i = 0; i < 20; i++) {
		/* CPUs 0, 0, 1, 1, 0, 0, ...: a change every other block. */
		s_block_cpu(&s, 1, 10, (i / 2) & 1, 1000 + 100 * i);
		if (!i)
			s_func(&s, TB_FDR_ENTER, 0x1000001, 1);
		s_func(&s, TB_FDR_ENTER, 0x1000002 + i, 1);
		s_func(&s, TB_FDR_EXIT, 0x1000002 + i, 1);
		if (i == 19)
			s_func(&s, TB_FDR_EXIT, 0x1000001, 1);
		s_end(&s);
	}
	f = open_memstream(&buf, &len);
	ASSERT_EQ(0, tb_fdr_post_run(&p, s.p, s.len, f, &err));
	fclose(f);
	EXPECT_EQ(20, p.blocks);
	EXPECT_EQ(1, p.out_blocks);
	EXPECT_EQ(0, p.removed);
	memset(&v, 0, sizeof(v));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, see, &v, NULL, &err));
	for (k = 0; k < v.n; k++) {
		blocks += v.kind[k] == TB_FDR_NEW_BUFFER;
		cpus += v.kind[k] == TB_FDR_NEW_CPU;
	}
	EXPECT_EQ(1, blocks);
	EXPECT_EQ(10, cpus);	/* the first, then one per change */
	/* Absolute times survive: the last exit at 1000 + 1900 + 3. */
	EXPECT_EQ(TB_FDR_EXIT, v.type[func(&v, 41)]);
	EXPECT_EQ(2903, v.tsc[func(&v, 41)]);

	if (tu_have("llvm-xray")) {
		dir = tu_tmpdir();
		snprintf(path, sizeof(path), "%s/t.fdr", dir);
		ASSERT_EQ(0, tu_write(path, buf, len));
		out = tu_run(&status, "llvm-xray stack %s 2>&1", path);
		EXPECT_EQ(0, status) TH_LOG("llvm-xray stack: %s", out);
		free(out);
		tu_rmdir(dir);
		free(dir);
	}
	free(buf);
	tb_fdr_post_free(&p);
}

/* Nothing recorded: the names file, no map (it cannot be empty). */
TEST(empty_capture_has_names_and_no_map)
{
	struct tb_fdr_post p = { 0 };
	struct tb_fdr_post_files files = { 0 };
	struct tb_error err;
	struct stream s;
	char *dir = tu_tmpdir(), trace[512], names[512], map[512];
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/t.fdr", dir);
	snprintf(names, sizeof(names), "%s/t.fdr.names", dir);
	snprintf(map, sizeof(map), "%s/t.fdr.map", dir);
	s_header(&s);
	f = fopen(trace, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_post_run(&p, s.p, s.len, f, &err));
	fclose(f);
	files.trace = trace;
	files.names = names;
	files.map = map;
	EXPECT_EQ(0, tb_fdr_post_files(&p, &files, &err)) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(0, access(names, R_OK));
	EXPECT_EQ(-1, access(map, F_OK));

	/* A map of an earlier capture would name this one's ids wrongly. */
	ASSERT_EQ(0, tu_write(map, "stale", 5));
	EXPECT_EQ(0, tb_fdr_post_files(&p, &files, &err)) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(-1, access(map, F_OK));
	tb_fdr_post_free(&p);
	tu_rmdir(dir);
	free(dir);
}

TEST(header_only_and_malformed)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;
	struct tb_error err;
	size_t len;
	FILE *f;

	s_header(&s);
	EXPECT_EQ(0, tb_fdr_post_run(&p, s.p, s.len, f = tmpfile(), &err));
	fseek(f, 0, SEEK_END);
	EXPECT_EQ(TB_FDR_HEADER_SIZE, ftell(f));
	fclose(f);
	EXPECT_EQ(0, p.blocks);
	tb_fdr_post_free(&p);

	s_block(&s, 1, 10, 100);
	s_func(&s, TB_FDR_ENTER, 8, 1);
	s_end(&s);
	/* A stream cut inside a record: the records before it, no more. */
	s.len -= 4;
	EXPECT_EQ(0, post(&p, &s, &v, &len));
	EXPECT_EQ(1, p.blocks);
	EXPECT_NE(0, v.n);
	EXPECT_NE(TB_FDR_FUNCTION, v.kind[v.n - 1]);
	tb_fdr_post_free(&p);
	/* The block overruns its extent: malformed. */
	s.len += 4;
	tb_bytes_put64(s.p + s.blk + 1,
		       s.len - s.blk - TB_FDR_META_SIZE - 4);
	EXPECT_EQ(-1, post(&p, &s, &v, &len));
	tb_fdr_post_free(&p);
}

static void namer(void *ctx, const struct tb_name_map *known, uint32_t kid,
		  char *out, size_t size)
{
	snprintf(out, size, "gen_%x", kid);
}

TEST(names_file_round_trip)
{
	struct tb_name_map known = { 0 }, back = { 0 };
	struct tb_fdr_post p = { 0 };
	struct tb_error err;
	struct stream s;
	struct seen v;
	FILE *names = tmpfile(), *map = tmpfile();

	ASSERT_EQ(0, tb_fdr_post_kernel_names(&known,
		"0x1000000 syscall read\n0x2000005 irq timer two\nbad line\n"));
	ASSERT_EQ(0, tb_name_map_finish(&known, &err));
	EXPECT_STREQ("syscall_read", tb_name_map_find(&known, 0x1000000));
	EXPECT_STREQ("irq_5_timer_two", tb_name_map_find(&known, 0x2000005));

	s_header(&s);
	s_block(&s, 1, 10, 100);
	s_func(&s, TB_FDR_ENTER, 0x2000005, 1);
	s_func(&s, TB_FDR_ENTER, 0x1000000, 1);
	s_func(&s, TB_FDR_ENTER, 0x300000a, 1);
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	ASSERT_EQ(0, tb_fdr_post_names(&p, names, map, &known, namer, NULL));
	rewind(names);
	ASSERT_EQ(0, tb_name_map_load(&back, names, &err));
	EXPECT_EQ(3, back.n);
	EXPECT_STREQ("syscall_read", tb_name_map_find(&back, 1));
	EXPECT_STREQ("irq_5_timer_two", tb_name_map_find(&back, 2));
	EXPECT_STREQ("gen_300000a", tb_name_map_find(&back, 3));
	fseek(map, 0, SEEK_END);
	EXPECT_LT(0, ftell(map));
	tb_name_map_free(&back);
	tb_fdr_post_free(&p);

	/* Raw: the kernel ids, which the map cannot number: no map. */
	memset(&p, 0, sizeof(p));
	p.raw = true;
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	fclose(names);
	fclose(map);
	names = tmpfile();
	map = tmpfile();
	ASSERT_EQ(0, tb_fdr_post_names(&p, names, map, &known, NULL, NULL));
	rewind(names);
	ASSERT_EQ(0, tb_name_map_load(&back, names, &err));
	EXPECT_STREQ("syscall_read", tb_name_map_find(&back, 0x1000000));
	EXPECT_STREQ("fdr_0x300000a", tb_name_map_find(&back, 0x300000a));
	fseek(map, 0, SEEK_END);
	EXPECT_EQ(0, ftell(map));
	tb_name_map_free(&back);
	tb_name_map_free(&known);
	tb_fdr_post_free(&p);
	fclose(names);
	fclose(map);
}

/* ------------------------------------------------- hostile input */

/* Function records in a stream, and their (tid, tsc) sum, for loss checks. */
struct fcount {
	unsigned int n;
	unsigned int by_tid[4];	/* tids 1..3 */
	uint64_t tsc_sum;
};

static int fcount_rec(void *ctx, const struct tb_fdr_record *r)
{
	struct fcount *c = ctx;

	if (r->ignored || r->kind != TB_FDR_FUNCTION)
		return 0;
	c->n++;
	if (r->tid > 0 && r->tid < 4)
		c->by_tid[r->tid]++;
	c->tsc_sum += r->tsc;
	return 0;
}

/*
 * Copy @len bytes to the end of a page followed by an inaccessible one:
 * a read past the end faults even without AddressSanitizer.
 */
static uint8_t *guarded(const void *p, size_t len, void **map, size_t *maplen)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t n = (len + pg - 1) / pg * pg + pg;
	uint8_t *m = mmap(NULL, n, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	mprotect(m + n - pg, pg, PROT_NONE);
	*map = m;
	*maplen = n;
	memcpy(m + n - pg - len, p, len);
	return m + n - pg - len;
}

/*
 * Every truncation of a capture: the post-processing either says the
 * input is malformed or writes every function record the reader finds in
 * it, never reading past its end.  A cut at a record boundary inside a
 * block's extent is a short but valid stream for the reader.
 */
TEST(every_truncation_is_read_within_bounds)
{
	struct stream s;
	size_t k;
	int i;

	s_header(&s);
	for (i = 0; i < 4; i++) {
		s_block_cpu(&s, 1, 1 + i % 2, i % 2, 1000 + 100 * i);
		s_func(&s, TB_FDR_ENTER, 5, 1);
		s_func(&s, TB_FDR_ENTER, 6, 2);
		s_func(&s, TB_FDR_EXIT, 6, 3);
		s_func(&s, TB_FDR_EXIT, 5, 4);
		s_end(&s);
	}
	for (k = 0; k < 3 * (s.len + 1); k++) {
		/* Each cut merged, merged with the kernel's ids, raw. */
		size_t cut = k / 3;
		struct tb_fdr_post p = {
			.keep_ids = k % 3 == 1, .raw = k % 3 == 2,
		};
		struct fcount in = { 0 }, out = { 0 };
		struct tb_error err;
		char *buf = NULL;
		size_t len = 0, maplen;
		void *map;
		uint8_t *g = guarded(s.p, cut, &map, &maplen);
		FILE *f = open_memstream(&buf, &len);
		int ret;

		ASSERT_NE(NULL, g);
		ret = tb_fdr_post_run(&p, g, cut, f, &err);
		fclose(f);
		if (!ret) {
			ASSERT_EQ(0, tb_fdr_reader_read_mem(g, cut, NULL, fcount_rec,
							    &in, NULL, &err));
			ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, fcount_rec,
							    &out, NULL, &err))
				TH_LOG("cut %zu: output: %s", cut, err.msg);
			EXPECT_EQ(in.n, out.n + p.removed)
				TH_LOG("cut %zu mode %zu", cut, k % 3);
		}
		tb_fdr_post_free(&p);
		free(buf);
		munmap(map, maplen);
	}
}

/*
 * An extent larger than what llvm-xray keeps of it (32 bits), or than
 * the stream: the block is what the reader reads, no more.
 */
TEST(huge_extents_are_read_as_the_reader_reads_them)
{
	static const uint64_t ext[] = {
		(1ULL << 32) + 0x60, UINT64_MAX, UINT64_MAX - 15, 1ULL << 40,
		0xffffffffULL,
	};
	unsigned int i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		struct tb_fdr_post p = { 0 };
		struct fcount in = { 0 }, out = { 0 };
		struct tb_error err;
		struct stream s;
		char *buf = NULL;
		size_t len = 0, maplen;
		void *map;
		uint8_t *g;
		FILE *f;
		int ret, rin;

		s_header(&s);
		s_block(&s, 1, 1, 1000);
		s_func(&s, TB_FDR_ENTER, 5, 1);
		s_func(&s, TB_FDR_EXIT, 5, 1);
		tb_bytes_put64(s.p + s.blk + 1, ext[i]);
		g = guarded(s.p, s.len, &map, &maplen);
		ASSERT_NE(NULL, g);
		f = open_memstream(&buf, &len);
		ret = tb_fdr_post_run(&p, g, s.len, f, &err);
		fclose(f);
		rin = tb_fdr_reader_read_mem(g, s.len, NULL, fcount_rec, &in, NULL,
					     &err);
		if (!ret) {
			EXPECT_EQ(0, rin);
			ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, fcount_rec,
							    &out, NULL, &err));
			EXPECT_EQ(in.n, out.n + p.removed)
				TH_LOG("extent %#llx", (unsigned long long)ext[i]);
			EXPECT_EQ(in.tsc_sum, out.tsc_sum);
		}
		tb_fdr_post_free(&p);
		free(buf);
		munmap(map, maplen);
	}
}

/*
 * One extent holding two threads' blocks (fdr-dump -verify accepts it:
 * blocks start at NewBuffer): each thread's records stay that thread's,
 * or the input is refused; never one thread's records under another.
 */
TEST(two_blocks_in_one_extent_are_not_mixed)
{
	struct tb_fdr_post p = { 0 };
	struct fcount in = { 0 }, out = { 0 };
	struct tb_error err;
	struct stream s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	s_header(&s);
	s_block(&s, 1, 1, 1000);
	s_func(&s, TB_FDR_ENTER, 5, 1);
	s_func(&s, TB_FDR_EXIT, 5, 1);
	/* Thread 2's block, without an extent of its own. */
	tb_bytes_put32(s_meta(&s, TB_FDR_NEW_BUFFER) + 1, 2);
	s_meta(&s, TB_FDR_WALLCLOCK);
	tb_bytes_put32(s_meta(&s, TB_FDR_PID) + 1, 1);
	tb_bytes_put64(s_meta(&s, TB_FDR_NEW_CPU) + 3, 2000);
	s_func(&s, TB_FDR_ENTER, 6, 1);
	s_func(&s, TB_FDR_EXIT, 6, 1);
	s_end(&s);
	/* Thread 2's later block, in an extent of its own. */
	s_block(&s, 1, 2, 3000);
	s_func(&s, TB_FDR_ENTER, 7, 1);
	s_func(&s, TB_FDR_EXIT, 7, 1);
	s_end(&s);
	ASSERT_EQ(0, tb_fdr_reader_read_mem(s.p, s.len, NULL, fcount_rec, &in, NULL,
					    &err));
	f = open_memstream(&buf, &len);
	ret = tb_fdr_post_run(&p, s.p, s.len, f, &err);
	fclose(f);
	if (!ret) {
		ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, fcount_rec, &out,
						    NULL, &err));
		EXPECT_EQ(in.by_tid[1], out.by_tid[1]);
		EXPECT_EQ(in.by_tid[2], out.by_tid[2]);
	}
	tb_fdr_post_free(&p);
	free(buf);
}

/*
 * Calls nested deeper than the filter's stack: exits whose entry is in
 * the capture are kept, whatever the depth.
 */
TEST(deep_calls_keep_their_exits)
{
	struct tb_fdr_post p = { 0 };
	struct fcount out = { 0 };
	struct tb_error err;
	struct stream s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	s_header(&s);
	s_block(&s, 1, 1, 1000);
	for (i = 0; i < 300; i++)
		s_func(&s, TB_FDR_ENTER, 1 + i, 1);
	for (i = 299; i >= 0; i--)
		s_func(&s, TB_FDR_EXIT, 1 + i, 1);
	s_func(&s, TB_FDR_ENTER, 1, 1);
	s_func(&s, TB_FDR_EXIT, 1, 1);
	s_end(&s);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(0, tb_fdr_post_run(&p, s.p, s.len, f, &err));
	fclose(f);
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, fcount_rec, &out, NULL,
					    &err));
	EXPECT_EQ(0, p.removed);
	EXPECT_EQ(602, out.n);
	tb_fdr_post_free(&p);
	free(buf);
}

/* ------------------------------------- records in, records out */

/* One record of a task, as the comparison sees it. */
struct rec {
	int32_t pid, tid;
	unsigned int kind, type;
	uint32_t id;
	uint64_t tsc, value;
	uint16_t event_type;
	int32_t size;
	uint8_t data[24];
};

struct recs {
	struct rec v[4096];
	unsigned int n;
	unsigned int blocks;
	struct rec start[16];	/* TB_FDR_MARKS_START events, apart */
	unsigned int nstart;
	uint64_t first;		/* earliest function or event time */
};

static int recs_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct recs *c = ctx;
	struct rec *x;

	if (r->kind == TB_FDR_NEW_BUFFER)
		c->blocks++;
	if (!r->ignored && r->kind == TB_FDR_CUSTOM &&
	    r->size == (int32_t)strlen(TB_FDR_MARKS_START) &&
	    !memcmp(r->data, TB_FDR_MARKS_START, r->size)) {
		if (c->nstart == 16)
			return -1;
		x = &c->start[c->nstart++];
		memset(x, 0, sizeof(*x));
		x->pid = r->pid;
		x->tid = r->tid;
		x->kind = r->kind;
		x->tsc = r->tsc;
		return 0;
	}
	if (!r->ignored && (r->kind == TB_FDR_FUNCTION ||
			    r->kind == TB_FDR_CUSTOM ||
			    r->kind == TB_FDR_TYPED) &&
	    (!c->first || r->tsc < c->first))
		c->first = r->tsc;
	if (r->ignored || (r->kind != TB_FDR_FUNCTION &&
			   r->kind != TB_FDR_CALL_ARG &&
			   r->kind != TB_FDR_CUSTOM && r->kind != TB_FDR_TYPED))
		return 0;
	if (c->n == 4096)
		return -1;
	x = &c->v[c->n++];
	memset(x, 0, sizeof(*x));
	x->pid = r->pid;
	x->tid = r->tid;
	x->kind = r->kind;
	if (r->kind == TB_FDR_FUNCTION) {
		x->type = r->func_type;
		x->id = r->func_id;
	}
	x->tsc = r->kind == TB_FDR_CALL_ARG ? 0 : r->tsc;
	x->value = r->kind == TB_FDR_CALL_ARG ? r->value : 0;
	if (r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED) {
		x->event_type = r->kind == TB_FDR_TYPED ? r->event_type : 0;
		x->size = r->size;
		memcpy(x->data, r->data, r->size < 24 ? r->size : 24);
	}
	return 0;
}

/* Records of task (@pid, @tid) in @c, in order, into @out. */
static unsigned int task_recs(const struct recs *c, int32_t pid, int32_t tid,
			      struct rec *out)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->n; i++)
		if (c->v[i].pid == pid && c->v[i].tid == tid)
			out[n++] = c->v[i];
	return n;
}

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

#define NTASKS	5
static const int32_t task_pid[NTASKS] = { 100, 200, 0, 0, 300 };
/* Same tid in two processes; the idle tasks of CPUs 0 and 1. */
static const int32_t task_tid[NTASKS] = { 100, 100, 0x40000000,
					  0x40000001, 301 };

/*
 * A capture of five tasks on two CPUs, the CPUs' blocks one after the
 * other (as the device drains them), each run of a task cut into blocks
 * of 512 bytes by the writer: tasks move between CPUs, gaps of more than
 * 2^32 ticks, custom and typed events, EnterArgs with their arguments,
 * exits without entry (to be left out) just before a gap.  @expect gets
 * the records that must come out, in each task's order.
 */
static int make_capture(char **buf, size_t *len, struct recs *expect)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL, .buffer_size = 512,
	};
	struct tb_fdr_writer w[2];
	uint32_t stack[NTASKS][64];
	int depth[NTASKS] = { 0 };
	char *cbuf[2] = { NULL, NULL };
	size_t clen[2] = { 0, 0 };
	FILE *cf[2];
	uint64_t t = 5000;
	int run, c, k;

	expect->n = 0;
	for (c = 0; c < 2; c++) {
		cf[c] = open_memstream(&cbuf[c], &clen[c]);
		if (tb_fdr_writer_init(&w[c], cf[c], &h, 512))
			return -1;
	}
	for (run = 0; run < 60; run++) {
		int task = (int)(rnd() % NTASKS);
		int cpu = task == 2 ? 0 : task == 3 ? 1 : (int)(rnd() & 1);
		int nrec = 1 + (int)(rnd() % 30);
		struct tb_fdr_writer *wr = &w[cpu];

		t += 1 + rnd() % 1000;
		tb_fdr_writer_begin(wr, task_pid[task], task_tid[task], (uint16_t)cpu,
				    t, 100, 0);
		for (k = 0; k < nrec; k++) {
			struct rec *e = &expect->v[expect->n];
			unsigned int what = (unsigned int)(rnd() % 10);
			uint64_t args[6];
			unsigned int na, a;
			char text[24];
			int n;

			if (expect->n > 4000)
				break;
			t += rnd() % 3 ? rnd() % 5000 : (1ULL << 32) + rnd() % 99;
			memset(e, 0, sizeof(*e));
			e->pid = task_pid[task];
			e->tid = task_tid[task];
			e->tsc = t;
			if (what < 3 && depth[task] < 64) {
				uint32_t id = 1 + (uint32_t)(rnd() % 50);

				stack[task][depth[task]++] = id;
				e->kind = TB_FDR_FUNCTION;
				e->id = id;
				na = what == 2 ? 1 + (unsigned int)(rnd() % 6) : 0;
				e->type = na ? TB_FDR_ENTER_ARGS : TB_FDR_ENTER;
				for (a = 0; a < na; a++)
					args[a] = rnd();
				tb_fdr_writer_function(wr, e->type, id, t, args, na);
				expect->n++;
				for (a = 0; a < na; a++) {
					e = &expect->v[expect->n++];
					memset(e, 0, sizeof(*e));
					e->pid = task_pid[task];
					e->tid = task_tid[task];
					e->kind = TB_FDR_CALL_ARG;
					e->value = args[a];
				}
			} else if (what < 6 && depth[task]) {
				e->kind = TB_FDR_FUNCTION;
				e->type = rnd() & 1 ? TB_FDR_EXIT : TB_FDR_TAIL_EXIT;
				e->id = stack[task][--depth[task]];
				tb_fdr_writer_function(wr, e->type, e->id, t, NULL, 0);
				expect->n++;
			} else if (what < 7) {
				/* Never entered: left out; a gap follows. */
				tb_fdr_writer_function(wr, TB_FDR_EXIT, 999, t, NULL, 0);
				t += (1ULL << 33) + rnd() % 7;
			} else if (what < 9) {
				n = snprintf(text, sizeof(text), "ev %llu",
					     (unsigned long long)(rnd() % 1000));
				e->kind = what == 7 ? TB_FDR_CUSTOM : TB_FDR_TYPED;
				e->event_type = what == 7 ? 0 : 7;
				e->size = n;
				memcpy(e->data, text, n);
				if (what == 7)
					tb_fdr_writer_custom(wr, t, text, n);
				else
					tb_fdr_writer_typed(wr, t, 7, text, n);
				expect->n++;
			}
		}
		tb_fdr_writer_end(wr);
	}
	for (c = 0; c < 2; c++) {
		if (tb_fdr_writer_finish(&w[c]))
			return -1;
		fclose(cf[c]);
	}
	/* CPU 0's blocks, then CPU 1's. */
	*len = clen[0] + clen[1] - TB_FDR_HEADER_SIZE;
	*buf = malloc(*len);
	memcpy(*buf, cbuf[0], clen[0]);
	memcpy(*buf + clen[0], cbuf[1] + TB_FDR_HEADER_SIZE,
	       clen[1] - TB_FDR_HEADER_SIZE);
	free(cbuf[0]);
	free(cbuf[1]);
	return 0;
}

static bool same_rec(const struct rec *a, const struct rec *b)
{
	return a->kind == b->kind && a->type == b->type && a->id == b->id &&
	       a->tsc == b->tsc && a->value == b->value &&
	       a->event_type == b->event_type && a->size == b->size &&
	       !memcmp(a->data, b->data, sizeof(a->data));
}

/* "pid tid tsc kind" as llvm-xray convert -f yaml names a record. */
static void rec_key(const struct rec *r, char out[80])
{
	static const char *const fn[] = {
		"function-enter", "function-exit", "function-tail-exit",
		"function-enter-arg",
	};
	const char *kind = r->kind == TB_FDR_CUSTOM ? "custom-event" :
			   r->kind == TB_FDR_TYPED ? "typed-event" :
			   fn[r->type & 3];

	snprintf(out, 80, "%d %d %llu %s", r->pid, r->tid,
		 (unsigned long long)r->tsc, kind);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * The records llvm-xray convert -f yaml reads from @path, as rec_key()
 * says them, sorted, against @c's (CallArguments aside): the deltas we
 * wrote mean to llvm-xray the times we meant.  Returns the mismatches.
 */
static int xray_agrees(const char *path, const struct recs *c)
{
	static char ours[4096][80], theirs[4096][80];
	unsigned int i, n = 0, m = 0;
	char *out, *rec, *next;
	int bad = 0, status;

	for (i = 0; i < c->n; i++)
		if (c->v[i].kind != TB_FDR_CALL_ARG)
			rec_key(&c->v[i], ours[n++]);
	for (i = 0; i < c->nstart; i++)
		rec_key(&c->start[i], ours[n++]);
	/* One record per "{ ... }", whatever the line breaks. */
	out = tu_run(&status, "llvm-xray convert -f yaml %s", path);
	if (status) {
		free(out);
		return -1;
	}
	for (rec = strchr(out, '{'); rec && m < 4096; rec = next) {
		char *stop = strchr(rec, '}'), *th, *pr, *ki, *ts;
		char kind[32];

		if (!stop)
			break;
		*stop = 0;
		next = strchr(stop + 1, '{');
		/* No "process:" when it is 0 (the idle tasks). */
		th = strstr(rec, "thread: ");
		pr = strstr(rec, "process: ");
		ki = strstr(rec, "kind: ");
		ts = strstr(rec, "tsc: ");
		if (!th || !ki || !ts ||
		    sscanf(ki, "kind: %31[a-z-]", kind) != 1)
			continue;
		snprintf(theirs[m++], 80, "%d %d %llu %s", pr ? atoi(pr + 9) : 0,
			 atoi(th + 8), strtoull(ts + 5, NULL, 10), kind);
	}
	free(out);
	qsort(ours, n, 80, cmp_key);
	qsort(theirs, m, 80, cmp_key);
	if (n != m) {
		fprintf(stderr, "llvm-xray: %u records, we wrote %u\n", m, n);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (strcmp(ours[i], theirs[i]) && bad++ < 5)
			fprintf(stderr, "ours '%s', llvm-xray '%s'\n", ours[i],
				theirs[i]);
	return bad;
}

/*
 * @in merged with dense ids (the collectors' way) against @got, the same
 * merged with the kernel's ids: the records differ by their ids only.
 * Returns the records that differ, -1 when it fails.
 */
static int dense_differs(const char *in, size_t inlen, const struct recs *got)
{
	static struct recs dense;
	struct tb_fdr_post q = { 0 };
	struct tb_error err;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	int bad = -1;

	if (!f || tb_fdr_post_run(&q, in, inlen, f, &err))
		goto out;
	fclose(f);
	f = NULL;
	memset(&dense, 0, sizeof(dense));
	if (tb_fdr_reader_read_mem(buf, len, NULL, recs_visit, &dense, NULL, &err) ||
	    dense.n != got->n)
		goto out;
	bad = 0;
	for (i = 0; i < dense.n; i++) {
		struct rec r = dense.v[i];

		if (r.kind == TB_FDR_FUNCTION) {
			bad += !r.id || r.id > q.nids;
			r.id = tb_fdr_post_kernel_id(&q, r.id);
		}
		bad += !same_rec(&got->v[i], &r);
	}
out:
	if (f)
		fclose(f);
	free(buf);
	tb_fdr_post_free(&q);
	return bad;
}

/*
 * Every kept record comes out once, in its task's order, at the same
 * absolute time, each task in one block; llvm-xray reads the result.
 */
TEST(records_in_are_records_out)
{
	static struct recs expect, got, input;
	static struct rec a[4096], b[4096];
	struct tb_fdr_post p = { .keep_ids = true };
	struct tb_error err;
	char *in = NULL, *buf = NULL, *dir, path[512], *out;
	size_t inlen, len = 0;
	unsigned int task, i, na, nb, total = 0;
	int status;
	FILE *f;

	ASSERT_EQ(0, make_capture(&in, &inlen, &expect));
	f = open_memstream(&buf, &len);
	ASSERT_EQ(0, tb_fdr_post_run(&p, in, inlen, f, &err))
		TH_LOG("%s", err.msg);
	fclose(f);
	EXPECT_LT(2 * NTASKS, p.blocks);
	EXPECT_EQ(NTASKS, p.out_blocks);
	EXPECT_LT(0, p.removed);
	EXPECT_LT(500, expect.n);
	memset(&got, 0, sizeof(got));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, recs_visit, &got, NULL,
					    &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(NTASKS, got.blocks);
	EXPECT_EQ(expect.n, got.n);
	/* One start per task, at the input's earliest time. */
	memset(&input, 0, sizeof(input));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(in, inlen, NULL, recs_visit, &input, NULL,
					    &err));
	EXPECT_EQ(0, input.nstart);
	ASSERT_EQ(NTASKS, got.nstart);
	EXPECT_LE(input.first, got.first);
	for (task = 0; task < NTASKS; task++) {
		for (i = 0; i < NTASKS; i++)
			if (got.start[i].pid == task_pid[task] &&
			    got.start[i].tid == task_tid[task])
				break;
		ASSERT_GT(NTASKS, i) TH_LOG("task %u has no start", task);
		EXPECT_EQ(input.first, got.start[i].tsc);
	}
	for (task = 0; task < NTASKS; task++) {
		na = task_recs(&expect, task_pid[task], task_tid[task], a);
		nb = task_recs(&got, task_pid[task], task_tid[task], b);
		total += nb;
		ASSERT_EQ(na, nb) TH_LOG("task %u", task);
		for (i = 0; i < na; i++) {
			ASSERT_TRUE(same_rec(&a[i], &b[i]))
				TH_LOG("task %u record %u: kind %u tsc %llu, got kind %u tsc %llu",
				       task, i, a[i].kind,
				       (unsigned long long)a[i].tsc, b[i].kind,
				       (unsigned long long)b[i].tsc);
		}
	}
	EXPECT_EQ(got.n, total);

	/* Dense ids (the collectors'): the same records, ids mapped back. */
	EXPECT_EQ(0, dense_differs(in, inlen, &got));

	if (tu_have("llvm-xray")) {
		dir = tu_tmpdir();
		snprintf(path, sizeof(path), "%s/t.fdr", dir);
		ASSERT_EQ(0, tu_write(path, buf, len));
		out = tu_run(&status, "llvm-xray fdr-dump -verify %s 2>&1 >/dev/null && "
			     "llvm-xray convert -f yaml %s 2>&1 >/dev/null && "
			     "llvm-xray stack %s 2>&1 >/dev/null && "
			     "llvm-xray account -k %s 2>&1 >/dev/null",
			     path, path, path, path);
		EXPECT_EQ(0, status) TH_LOG("llvm-xray: %s", out);
		free(out);
		EXPECT_EQ(0, xray_agrees(path, &got));
		tu_rmdir(dir);
		free(dir);
	}
	free(in);
	free(buf);
	tb_fdr_post_free(&p);
}

/* ------------------------------------- llvm-xray account counts */

#define KT_TASKS	48
#define KT_RUNS		900
#define KT_SKEW		400	/* CPU 1's clock reads this far behind */

/* The kernel ids the generator uses, by index (a syscall is index < 8). */
static uint32_t kt_kid(unsigned int i)
{
	if (i < 8)
		return TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, 3 * i);
	if (i < 11)
		return TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, i - 7);
	if (i < 14)
		return TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, i - 10);
	return TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, i - 14);
}

#define KT_NIDS		16

struct kt_truth {
	uint64_t calls[KT_NIDS];	/* completed calls, by index */
	unsigned int migrations;	/* runs on the other CPU than before */
	unsigned int backwards;		/* a run that starts before the last */
	unsigned int orphans;		/* exits without their entry */
	unsigned int open;		/* entries without their exit */
	unsigned int nested;		/* calls inside another call */
};

/*
 * What the kernel recorder gives the collectors: KT_TASKS tasks in four
 * processes, started one after the other, running on two CPUs at the
 * same time, each CPU's blocks in its own stream and the streams one
 * after the other.  Tasks migrate.  CPU 1's clock reads @skew behind:
 * a task that moves to it may go back in time, before its last record
 * on the other CPU (its runs still start in order: only time orders a
 * task's blocks of two CPUs).  Tasks begin inside calls made before the
 * capture (exits without entries), some exits' entries are lost, calls
 * are left open at the end; interrupts, softirqs and faults nest inside
 * syscalls and each other.  @t counts every call whose entry and exit
 * are both recorded.
 */
static int kt_capture(char **buf, size_t *len, struct kt_truth *t,
		      uint64_t skew)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL, .buffer_size = 1024,
	};
	struct tb_fdr_writer w[2];
	uint8_t stack[KT_TASKS][8];
	int depth[KT_TASKS] = { 0 }, last_cpu[KT_TASKS];
	/* The CPUs' clocks as they read; the true time of a task's end. */
	uint64_t start[KT_TASKS] = { 0 }, end[KT_TASKS] = { 0 };
	uint64_t done[KT_TASKS] = { 0 }, cpu_now[2] = { 1000000, 1000000 };
	char *cbuf[2] = { NULL, NULL };
	size_t clen[2] = { 0, 0 };
	FILE *cf[2];
	int run, c, k;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < KT_TASKS; k++)
		last_cpu[k] = -1;
	for (c = 0; c < 2; c++) {
		cf[c] = open_memstream(&cbuf[c], &clen[c]);
		if (tb_fdr_writer_init(&w[c], cf[c], &h, 1024))
			return -1;
	}
	for (run = 0; run < KT_RUNS; run++) {
		/* Later tasks start later: the first task is not the first. */
		int task = (int)(rnd() % (1 + run * KT_TASKS / (KT_RUNS / 2)));
		int cpu = (int)(rnd() & 1), nrec = 1 + (int)(rnd() % 12);
		struct tb_fdr_writer *wr = &w[cpu];
		uint64_t now, off = cpu ? skew : 0;

		if (task >= KT_TASKS)
			task = KT_TASKS - 1;
		now = cpu_now[cpu] > done[task] ? cpu_now[cpu] : done[task];
		now += rnd() % 4 ? rnd() % 8 : 1000 + rnd() % 100000;
		if (last_cpu[task] >= 0 && now - off <= start[task])
			now = start[task] + 1 + off;
		if (last_cpu[task] >= 0 && last_cpu[task] != cpu)
			t->migrations++;
		if (last_cpu[task] >= 0 && now - off < end[task])
			t->backwards++;
		start[task] = now - off;
		tb_fdr_writer_begin(wr, 100 + task % 4, 1000 + task, (uint16_t)cpu,
				    now - off, 1700000000, 0);
		if (last_cpu[task] < 0 && task % 3 == 0) {
			/* In a syscall, maybe in an interrupt, at the start. */
			if (task % 2)
				tb_fdr_writer_function(wr, TB_FDR_EXIT, kt_kid(8),
						       now - off, NULL, 0);
			tb_fdr_writer_function(wr, TB_FDR_EXIT, kt_kid(task % 8),
					       now - off, NULL, 0);
			t->orphans += 1 + task % 2;
		}
		last_cpu[task] = cpu;
		for (k = 0; k < nrec; k++) {
			int d = depth[task];
			unsigned int top = d ? stack[task][d - 1] : 0, id;
			uint64_t arg = rnd();

			now += 1 + rnd() % 50;
			if (!d || (d < 6 && rnd() % 2)) {
				/* Syscall at the bottom; IRQ, fault above. */
				if (!d)
					id = (unsigned int)(rnd() % 8);
				else if (top < 8)
					id = rnd() % 2 ? 8 + (unsigned int)(rnd() % 3) :
					     14 + (unsigned int)(rnd() % 2);
				else if (top < 11)
					id = 11 + (unsigned int)(rnd() % 3);
				else
					id = 8 + (unsigned int)(rnd() % 3);
				t->nested += d > 0;
				stack[task][depth[task]++] = (uint8_t)id;
				tb_fdr_writer_function(wr, id >= 14 ? TB_FDR_ENTER_ARGS :
						       TB_FDR_ENTER, kt_kid(id), now - off,
						       &arg, id >= 14);
				/* A fault's exit at its entry's time. */
				if (id < 14)
					continue;
			} else if (rnd() % 16 == 0) {
				/* An exit whose entry was lost: not open. */
				for (id = 8; id < 14; id++)
					if (!memchr(stack[task], (int)id, d))
						break;
				tb_fdr_writer_function(wr, TB_FDR_EXIT, kt_kid(id),
						       now - off, NULL, 0);
				t->orphans++;
				continue;
			}
			id = stack[task][--depth[task]];
			tb_fdr_writer_function(wr, TB_FDR_EXIT, kt_kid(id), now - off,
					       NULL, 0);
			t->calls[id]++;
		}
		cpu_now[cpu] = now;
		done[task] = now;
		end[task] = now - off;
		tb_fdr_writer_end(wr);
	}
	for (k = 0; k < KT_TASKS; k++)
		t->open += depth[k];
	for (c = 0; c < 2; c++) {
		if (tb_fdr_writer_finish(&w[c]))
			return -1;
		fclose(cf[c]);
	}
	*len = clen[0] + clen[1] - TB_FDR_HEADER_SIZE;
	*buf = malloc(*len);
	memcpy(*buf, cbuf[0], clen[0]);
	memcpy(*buf + clen[0], cbuf[1] + TB_FDR_HEADER_SIZE,
	       clen[1] - TB_FDR_HEADER_SIZE);
	free(cbuf[0]);
	free(cbuf[1]);
	return 0;
}

/*
 * What the manual pages tell users to run: `llvm-xray account -m
 * FILE.map FILE`, without -k, on what the collectors write (dense ids,
 * names, map) from a capture of many tasks on two CPUs.  It must accept
 * the file and count every call the capture completed, function by
 * function, as the generator counted them.  llvm-xray 14 refuses every
 * record older than the first record it reads, and reads the threads in
 * the order of its hash table: only a file whose every thread starts at
 * the capture's earliest time is safe.  `stack` must accept it too, and
 * `graph` where each task's time goes forward: graph sorts all records
 * by time, which puts a task that went back in time out of its order.
 */
static void kt_check(struct __test_metadata *_metadata, uint64_t skew)
{
	struct tb_fdr_post p = { 0 };
	struct kt_truth truth;
	struct tb_error err;
	char *in = NULL, *buf = NULL, *dir, path[512], map[512], *out, *l;
	uint64_t seen[KT_NIDS] = { 0 }, total = 0, want = 0;
	size_t inlen, len = 0;
	unsigned int i, rows = 0;
	int status;
	FILE *f, *mf, *nf;

	ASSERT_EQ(0, kt_capture(&in, &inlen, &truth, skew));
	/* The shapes the test is about are all there. */
	EXPECT_LT(100, truth.migrations);
	EXPECT_EQ(!!skew, truth.backwards > 10);
	EXPECT_EQ(!!skew, truth.backwards > 0);
	EXPECT_LT(10, truth.orphans);
	EXPECT_LT(5, truth.open);
	EXPECT_LT(500, truth.nested);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(0, tb_fdr_post_run(&p, in, inlen, f, &err))
		TH_LOG("%s", err.msg);
	fclose(f);
	EXPECT_EQ(KT_TASKS, p.out_blocks);
	EXPECT_EQ(truth.orphans, p.removed);
	EXPECT_EQ(0, p.closed);
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/t.fdr", dir);
	snprintf(map, sizeof(map), "%s/t.fdr.map", dir);
	ASSERT_EQ(0, tu_write(path, buf, len));
	mf = fopen(map, "wb");
	nf = fopen("/dev/null", "w");
	ASSERT_NE(NULL, mf);
	ASSERT_NE(NULL, nf);
	ASSERT_EQ(0, tb_fdr_post_names(&p, nf, mf, NULL, NULL, NULL));
	fclose(mf);
	fclose(nf);

	out = tu_run(&status, "llvm-xray account -m %s -f csv %s", map, path);
	EXPECT_EQ(0, status) TH_LOG("llvm-xray account: %.2000s", out);
	for (l = out; l && *l; l = strchr(l, '\n')) {
		unsigned int id;
		unsigned long long n;
		size_t k;

		l += *l == '\n';
		if (sscanf(l, "%u,%llu,", &id, &n) != 2)
			continue;
		rows++;
		for (k = 0; k < KT_NIDS; k++)
			if (kt_kid((unsigned int)k) ==
			    tb_fdr_post_kernel_id(&p, id))
				seen[k] += n;
	}
	free(out);
	for (i = 0; i < KT_NIDS; i++) {
		EXPECT_EQ(truth.calls[i], seen[i])
			TH_LOG("kernel id %#x", kt_kid(i));
		total += seen[i];
		want += truth.calls[i];
	}
	EXPECT_EQ(KT_NIDS, rows);
	out = tu_run(&status, "llvm-xray stack -m %s %s 2>&1 >/dev/null",
		     map, path);
	EXPECT_EQ(0, status) TH_LOG("llvm-xray stack: %.2000s", out);
	free(out);
	if (!skew) {
		out = tu_run(&status, "llvm-xray graph -m %s %s 2>&1 >/dev/null",
			     map, path);
		EXPECT_EQ(0, status) TH_LOG("llvm-xray graph: %.2000s", out);
		free(out);
	}
	fprintf(stderr, "# skew %llu: %llu calls of %llu; moves %u back %u orphans %u open %u\n",
		(unsigned long long)skew, (unsigned long long)total,
		(unsigned long long)want, truth.migrations, truth.backwards,
		truth.orphans, truth.open);
	tu_rmdir(dir);
	free(dir);
	free(in);
	free(buf);
	tb_fdr_post_free(&p);
}

TEST(llvm_xray_account_counts_every_call)
{
	if (!tu_have("llvm-xray"))
		SKIP(return, "llvm-xray not installed");
	kt_check(_metadata, 0);
	kt_check(_metadata, KT_SKEW);
}

/*
 * An extent whose records carry on the block before it (no NewBuffer of
 * its own; the reader accepts it, as fdr-dump -verify): the blocks are
 * put in order one by one, so in every mode the output must read back,
 * or the input be refused.
 */
TEST(extent_without_new_buffer)
{
	struct stream s;
	int mode;

	s_header(&s);
	s_block(&s, 1, 1, 2000);
	s_func(&s, TB_FDR_ENTER, 5, 1);
	s_end(&s);
	s.blk = s.len;			/* thread 1 goes on, no NewBuffer */
	s_meta(&s, TB_FDR_BUFFER_EXTENTS);
	s_func(&s, TB_FDR_EXIT, 5, 1);
	s_end(&s);
	s_block(&s, 1, 2, 1000);	/* ordered first */
	s_func(&s, TB_FDR_ENTER, 6, 1);
	s_end(&s);
	for (mode = 0; mode < 3; mode++) {
		struct tb_fdr_post p = {
			.keep_ids = mode == 1, .raw = mode == 2,
		};
		struct fcount out = { 0 };
		struct tb_error err;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int ret;

		ASSERT_EQ(0, tb_fdr_reader_read_mem(s.p, s.len, NULL, NULL, NULL,
						    NULL, &err));
		ret = tb_fdr_post_run(&p, s.p, s.len, f, &err);
		fclose(f);
		if (ret) {
			/* Where the second extent's first record is. */
			EXPECT_EQ(TB_FDR_HEADER_SIZE + 6 * TB_FDR_META_SIZE +
				  TB_FDR_FUNC_SIZE, err.offset)
				TH_LOG("%s", err.msg);
		} else {
			EXPECT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, fcount_rec,
							    &out, NULL, &err))
				TH_LOG("mode %d: output: %s", mode, err.msg);
		}
		tb_fdr_post_free(&p);
		free(buf);
	}
}

/* An empty extent has no task: out_blocks counts the blocks written. */
TEST(empty_extent_is_no_block)
{
	struct tb_fdr_post p = { 0 };
	struct stream s;
	struct seen v;
	unsigned int k, blocks = 0;

	s_header(&s);
	s.blk = s.len;
	s_meta(&s, TB_FDR_BUFFER_EXTENTS);
	s_end(&s);
	s_block(&s, 1, 1, 1000);
	s_func(&s, TB_FDR_ENTER, 5, 1);
	s_end(&s);
	ASSERT_EQ(0, post(&p, &s, &v, NULL));
	for (k = 0; k < v.n; k++)
		blocks += v.kind[k] == TB_FDR_NEW_BUFFER;
	EXPECT_EQ(2, p.blocks);
	EXPECT_EQ(1, blocks);
	EXPECT_EQ(blocks, p.out_blocks);
	tb_fdr_post_free(&p);
}

/*
 * A BufferExtents record inside an extent starts a new block for the
 * reader (fdr-dump -verify agrees): the block before it ends there, in
 * every mode, not where its extent said (found by fdr_post_fuzz).
 */
TEST(extent_inside_an_extent)
{
	struct stream s;
	size_t first;
	int mode;

	s_header(&s);
	s_block(&s, 1, 1, 2000);
	s_func(&s, TB_FDR_ENTER, 5, 1);
	first = s.blk;
	s_block(&s, 1, 2, 1000);	/* inside the first extent */
	s_func(&s, TB_FDR_ENTER, 6, 1);
	s_func(&s, TB_FDR_EXIT, 6, 1);
	s_end(&s);
	/* The first extent says it holds everything to the end. */
	tb_bytes_put64(s.p + first + 1, s.len - first - TB_FDR_META_SIZE);
	for (mode = 0; mode < 3; mode++) {
		struct tb_fdr_post p = {
			.keep_ids = mode == 1, .raw = mode == 2,
		};
		struct fcount in = { 0 }, out = { 0 };
		struct tb_error err;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ASSERT_EQ(0, tb_fdr_reader_read_mem(s.p, s.len, NULL, fcount_rec, &in,
						    NULL, &err));
		ASSERT_EQ(0, tb_fdr_post_run(&p, s.p, s.len, f, &err))
			TH_LOG("mode %d: %s", mode, err.msg);
		fclose(f);
		ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, fcount_rec, &out,
						    NULL, &err))
			TH_LOG("mode %d: output: %s", mode, err.msg);
		EXPECT_EQ(in.by_tid[1], out.by_tid[1]);
		EXPECT_EQ(in.by_tid[2], out.by_tid[2]);
		EXPECT_EQ(2, p.blocks);
		tb_fdr_post_free(&p);
		free(buf);
	}
}

/*
 * A task's blocks that overlap in time (TSCs of two CPUs apart, or a
 * block that ran on past the next one's start), on the same CPU and on
 * two: each record keeps its absolute time, the writer stating a time
 * that goes back with a NewCPUId or a TSCWrap, and llvm-xray agrees.
 */
TEST(time_going_back_between_a_task_s_blocks)
{
	static struct recs in, out;
	struct tb_fdr_post p = { .keep_ids = true };
	struct tb_error err;
	struct stream s;
	char *buf = NULL, *dir, path[512];
	size_t len = 0;
	unsigned int i;
	FILE *f;

	s_header(&s);
	s_block_cpu(&s, 1, 1, 0, 1000);
	s_func(&s, TB_FDR_ENTER, 5, 1);
	s_func(&s, TB_FDR_EXIT, 5, 500);	/* at 1501 */
	s_end(&s);
	s_block_cpu(&s, 1, 1, 0, 1200);		/* same CPU, before 1501 */
	s_func(&s, TB_FDR_ENTER, 6, 1);
	s_func(&s, TB_FDR_EXIT, 6, 1);
	s_end(&s);
	s_block_cpu(&s, 1, 1, 1, 1100);		/* other CPU, earlier still */
	s_func(&s, TB_FDR_ENTER, 7, 1);
	s_func(&s, TB_FDR_EXIT, 7, 0xffffffffU);
	s_end(&s);
	s_block_cpu(&s, 1, 1, 1, 50);		/* far back, same CPU */
	s_func(&s, TB_FDR_ENTER, 8, 3);
	s_end(&s);
	memset(&in, 0, sizeof(in));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(s.p, s.len, NULL, recs_visit, &in, NULL,
					    &err));
	f = open_memstream(&buf, &len);
	ASSERT_EQ(0, tb_fdr_post_run(&p, s.p, s.len, f, &err));
	fclose(f);
	memset(&out, 0, sizeof(out));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, recs_visit, &out, NULL,
					    &err));
	EXPECT_EQ(1, out.blocks);
	ASSERT_EQ(in.n, out.n);
	/* Blocks by their start: 50, 1000, 1100, 1200. */
	EXPECT_EQ(53, out.v[0].tsc);
	ASSERT_EQ(1, out.nstart);
	EXPECT_EQ(53, out.start[0].tsc);
	for (i = 0; i < in.n; i++) {
		unsigned int k;

		for (k = 0; k < out.n; k++)
			if (same_rec(&in.v[i], &out.v[k]))
				break;
		EXPECT_NE(out.n, k) TH_LOG("record %u at %llu lost", i,
					   (unsigned long long)in.v[i].tsc);
	}
	if (tu_have("llvm-xray")) {
		dir = tu_tmpdir();
		snprintf(path, sizeof(path), "%s/t.fdr", dir);
		ASSERT_EQ(0, tu_write(path, buf, len));
		EXPECT_EQ(0, xray_agrees(path, &out));
		tu_rmdir(dir);
		free(dir);
	}
	free(buf);
	tb_fdr_post_free(&p);
}

/*
 * Syscalls without a name: numbered, a compat one marked, and the key of
 * the numbers that do not fit (a negative one: no syscall) named as such,
 * not as a compat syscall (it has the compat bit among its ones).
 */
TEST(syscall_names_without_a_table)
{
	char out[64];

	tb_fdr_post_syscall_namer(NULL, NULL,
				  TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, 39),
				  out, sizeof(out));
	EXPECT_STREQ("sys_39", out);
	tb_fdr_post_syscall_namer(NULL, NULL,
				  TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL,
						  TRACEBUF_FDR_KEY_COMPAT | 1),
				  out, sizeof(out));
	EXPECT_STREQ("sys_compat_1", out);
	tb_fdr_post_syscall_namer(NULL, NULL,
				  TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL,
						  TRACEBUF_FDR_KEY_OTHER),
				  out, sizeof(out));
	EXPECT_STREQ("sys_other", out);
}

/*
 * The build's own table (userspace/Makefile, from the target's UAPI
 * headers) names the calls every architecture has, at their numbers
 * there: 32-bit ARM writes them as "(__NR_SYSCALL_BASE + 64)" and arm64
 * some as aliases (__NR_lseek is __NR3264_lseek), which a table of plain
 * numbers left out, so that record wrote "sys_62" for arm64's lseek and
 * no name at all on ARM.
 */
TEST(syscall_table_of_the_build)
{
	static const struct {
		long nr;
		const char *name;
	} c[] = {
		{ __NR_read, "read" }, { __NR_write, "write" }, { __NR_close, "close" },
		{ __NR_getppid, "getppid" }, { __NR_lseek, "lseek" },
		{ __NR_fcntl, "fcntl" }, { __NR_ftruncate, "ftruncate" },
		{ __NR_exit_group, "exit_group" }, { __NR_clone, "clone" },
	};
	size_t n = sizeof(syscall_names) / sizeof(syscall_names[0]), i, named = 0;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ASSERT_LT((size_t)c[i].nr, n) TH_LOG("%s", c[i].name);
		EXPECT_STREQ(c[i].name, syscall_names[c[i].nr] ?: "(no name)");
	}
	for (i = 0; i < n; i++) {
		if (!syscall_names[i])
			continue;
		named++;
		EXPECT_STRNE("syscalls", syscall_names[i]);	/* a count, no call */
	}
	EXPECT_GT(named, 250);
}

TEST_HARNESS_MAIN
