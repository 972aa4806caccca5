// SPDX-License-Identifier: GPL-2.0
/*
 * Collector post-processing (lib/fdr_post.c) on hand-built kernel blocks:
 * block order, dense ids, unmatched exits with folded deltas and TSCWrap,
 * raw mode, and the names file read back through name_map.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tb_test_util.h"

#include "fdr_post.h"
#include "fdr_reader.h"
#include "fdr_writer.h"
#include "name_map.h"
#include "tb_bytes.h"

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

	tb_fdr_put_header(s->p, &h);
	s->len = TB_FDR_HEADER_SIZE;
}

static uint8_t *s_meta(struct stream *s, unsigned int kind)
{
	uint8_t *m = s->p + s->len;

	tb_fdr_put_meta(m, kind);
	s->len += TB_FDR_META_SIZE;
	return m;
}

/* Extents (filled by s_end), NewBuffer, WallClock, PID, NewCPUId. */
static void s_block(struct stream *s, int32_t pid, int32_t tid, uint64_t t)
{
	s->blk = s->len;
	s_meta(s, TB_FDR_BUFFER_EXTENTS);
	tb_put32(s_meta(s, TB_FDR_NEW_BUFFER) + 1, tid);
	s_meta(s, TB_FDR_WALLCLOCK);
	tb_put32(s_meta(s, TB_FDR_PID) + 1, pid);
	tb_put64(s_meta(s, TB_FDR_NEW_CPU) + 3, t);
}

/* The same on CPU @cpu. */
static void s_block_cpu(struct stream *s, int32_t pid, int32_t tid,
			uint16_t cpu, uint64_t t)
{
	s_block(s, pid, tid, t);
	tb_put16(s->p + s->len - TB_FDR_META_SIZE + 1, cpu);
}

static void s_func(struct stream *s, unsigned int type, uint32_t id,
		   uint32_t delta)
{
	tb_fdr_put_func(s->p + s->len, type, id, delta);
	s->len += TB_FDR_FUNC_SIZE;
}

static void s_end(struct stream *s)
{
	tb_put64(s->p + s->blk + 1, s->len - s->blk - TB_FDR_META_SIZE);
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
	if (!ret && tb_fdr_read_mem(buf, len, NULL, see, v, NULL, &err)) {
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
	ASSERT_EQ(0, tb_fdr_read_mem(buf, len, NULL, see, &v, NULL, &err));
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
	s.len -= 4;			/* the block overruns the stream */
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

TEST_HARNESS_MAIN
