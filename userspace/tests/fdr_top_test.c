// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf top's interval summary (lib/convert/fdr_top.c): a generated
 * device stream cut into two intervals as the mapped reader drains it,
 * a call open across the cut counted where it ends, the intervals'
 * counts against the report of the whole stream, the sort keys, an
 * interval with nothing but the header, and the printing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "convert/fdr_top.h"
#include "convert/fdr_top_print.h"
#include "tb_gen.h"

#define SYS(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)
#define IRQ(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, nr)
#define FAULT_USER	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 0)

static struct tb_task_map no_tasks;	/* empty; outlives the summaries */

static size_t block(struct gb *g, int32_t tid, uint16_t cpu, uint64_t tsc)
{
	size_t ext = gf_extents(g, 0);

	gf_new_buffer(g, tid);
	gf_wallclock(g, 1, 0);
	gf_pid(g, tid);
	gf_cpu(g, cpu, tsc);
	return ext;
}

static void call(struct gb *g, uint32_t id, uint32_t gap, uint32_t ticks)
{
	gf_func(g, TB_FDR_ENTER, id, gap);
	gf_func(g, TB_FDR_EXIT, id, ticks);
}

/*
 * Interval 1 (1 GHz: ticks are ns): task 10 calls syscall 39 for 100 ns
 * and enters it again; task 11 takes IRQ 4 for 50 ns.  Interval 2: task
 * 10's open call exits 30 ns into its block, then a call of 300 ns and
 * a fault.  With @header, the stream's header first.
 */
static void interval(struct gb *g, int which, bool header)
{
	size_t ext;

	if (header)
		gf_header(g, 5, 1, 0);
	if (which == 1) {
		ext = block(g, 10, 0, 1000);
		call(g, SYS(39), 0, 100);
		gf_func(g, TB_FDR_ENTER, SYS(39), 10);
		gf_extents_end(g, ext);
		ext = block(g, 11, 1, 1000);
		call(g, IRQ(4), 5, 50);
		gf_extents_end(g, ext);
	} else {
		ext = block(g, 10, 0, 2000);
		gf_func(g, TB_FDR_EXIT, SYS(39), 30);
		call(g, SYS(39), 10, 300);
		gf_func(g, TB_FDR_ENTER_ARGS, FAULT_USER, 10);
		gf_arg(g, 0x1000);
		gf_func(g, TB_FDR_EXIT, FAULT_USER, 0);
		gf_extents_end(g, ext);
	}
}

static struct tb_fdr_report_opts opts(void)
{
	return (struct tb_fdr_report_opts){
		.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
		.cpu = TB_REPORT_NO_FILTER,
	};
}

static int run(struct tb_fdr_top *t, const struct gb *g,
	       enum tb_fdr_top_key key)
{
	struct tb_fdr_report_opts o = opts();
	struct tb_error err = { 0 };
	int ret = tb_fdr_top_run(t, g->p, g->n, NULL, &no_tasks, &o, key,
				 &err);

	if (ret)
		fprintf(stderr, "top: %d %s\n", ret, err.msg);
	return ret;
}

static const struct tb_fdr_top_row *row(const struct tb_fdr_top *t,
					uint32_t id)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].func->id == id)
			return &t->rows[i];
	return NULL;
}

static const struct tb_fdr_report_func *func(const struct tb_fdr_report *r,
					     uint32_t id)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++)
		if (r->funcs[i].id == id)
			return &r->funcs[i];
	return NULL;
}

TEST(a_call_across_the_cut_counts_where_it_ends)
{
	struct gb g1 = { 0 }, g2 = { 0 };
	const struct tb_fdr_top_row *w;
	struct tb_fdr_top t1, t2;

	interval(&g1, 1, true);
	interval(&g2, 2, true);
	ASSERT_EQ(0, run(&t1, &g1, TB_FDR_TOP_COUNT));
	ASSERT_EQ(0, run(&t2, &g2, TB_FDR_TOP_COUNT));
	/* Interval 1: one call of 100 ns ended; the open one is not counted. */
	w = row(&t1, SYS(39));
	ASSERT_NE(NULL, w);
	EXPECT_EQ(1, w->count);
	EXPECT_EQ(1, w->timed);
	EXPECT_EQ(100, w->total);
	EXPECT_EQ(100, w->max);
	w = row(&t1, IRQ(4));
	ASSERT_NE(NULL, w);
	EXPECT_EQ(1, w->count);
	EXPECT_EQ(50, w->p99);
	/* Interval 2: it ends there, untimed, beside a timed call of 300. */
	w = row(&t2, SYS(39));
	ASSERT_NE(NULL, w);
	EXPECT_EQ(2, w->count);
	EXPECT_EQ(1, w->timed);
	EXPECT_EQ(300, w->total);
	EXPECT_EQ(300, w->p50);
	w = row(&t2, FAULT_USER);
	ASSERT_NE(NULL, w);
	EXPECT_EQ(1, w->count);
	EXPECT_EQ(0, w->timed);
	EXPECT_EQ(NULL, row(&t2, IRQ(4)));
	tb_fdr_top_free(&t1);
	tb_fdr_top_free(&t2);
	gb_free(&g1);
	gb_free(&g2);
}

TEST(the_intervals_add_up_to_the_whole_report)
{
	static const uint32_t ids[] = { SYS(39), IRQ(4), FAULT_USER };
	struct tb_fdr_report_opts o = opts();
	struct gb g1 = { 0 }, g2 = { 0 }, all = { 0 };
	struct tb_error err = { 0 };
	struct tb_fdr_report r;
	struct tb_fdr_top t1, t2;
	unsigned int i;
	FILE *f;

	interval(&g1, 1, true);
	interval(&g2, 2, true);
	interval(&all, 1, true);
	interval(&all, 2, false);
	ASSERT_EQ(0, run(&t1, &g1, TB_FDR_TOP_TOTAL));
	ASSERT_EQ(0, run(&t2, &g2, TB_FDR_TOP_TOTAL));
	f = fmemopen(all.p, all.n, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_report_run(&r, f, NULL, &no_tasks, &o, false,
				       &err));
	fclose(f);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		const struct tb_fdr_report_func *fn = func(&r, ids[i]);
		const struct tb_fdr_top_row *a = row(&t1, ids[i]);
		const struct tb_fdr_top_row *b = row(&t2, ids[i]);

		ASSERT_NE(NULL, fn);
		EXPECT_EQ(fn->lat.count + fn->no_entry + fn->points,
			  (a ? a->count : 0) + (b ? b->count : 0))
			TH_LOG("id %#x", ids[i]);
	}
	/* The whole trace timed the call the cut split: 3 calls of 39. */
	EXPECT_EQ(3, func(&r, SYS(39))->lat.count);
	tb_fdr_report_free(&r);
	tb_fdr_top_free(&t1);
	tb_fdr_top_free(&t2);
	gb_free(&g1);
	gb_free(&g2);
	gb_free(&all);
}

TEST(keys_sort_the_rows)
{
	struct gb g = { 0 };
	struct tb_fdr_top t;

	EXPECT_EQ(TB_FDR_TOP_COUNT, tb_fdr_top_key("count"));
	EXPECT_EQ(TB_FDR_TOP_COUNT, tb_fdr_top_key("c"));
	EXPECT_EQ(TB_FDR_TOP_TOTAL, tb_fdr_top_key("t"));
	EXPECT_EQ(TB_FDR_TOP_P99, tb_fdr_top_key("p"));
	EXPECT_EQ(TB_FDR_TOP_MAX, tb_fdr_top_key("m"));
	EXPECT_EQ(-1, tb_fdr_top_key("q"));
	EXPECT_EQ(-1, tb_fdr_top_key("p50"));
	EXPECT_EQ(-1, tb_fdr_top_key(""));
	EXPECT_STREQ("p99", tb_fdr_top_key_name(TB_FDR_TOP_P99));

	interval(&g, 2, true);
	ASSERT_EQ(0, run(&t, &g, TB_FDR_TOP_COUNT));
	ASSERT_EQ(2, t.nrows);
	EXPECT_EQ(SYS(39), t.rows[0].func->id);	/* 2 against 1 */
	tb_fdr_top_sort(&t, TB_FDR_TOP_MAX);
	EXPECT_EQ(TB_FDR_TOP_MAX, t.key);
	EXPECT_EQ(SYS(39), t.rows[0].func->id);
	ASSERT_EQ(1, t.ntasks);
	EXPECT_EQ(10, t.tasks[0].task->tid);
	EXPECT_EQ(2, t.tasks[0].count);	/* entries: the call, the fault */
	tb_fdr_top_free(&t);
	gb_free(&g);
}

TEST(an_interval_of_only_the_header_is_empty)
{
	struct gb g = { 0 };
	struct tb_fdr_top t;

	gf_header(&g, 5, 1, 0);
	ASSERT_EQ(0, run(&t, &g, TB_FDR_TOP_COUNT));
	EXPECT_EQ(0, t.nrows);
	EXPECT_EQ(0, t.ntasks);
	tb_fdr_top_free(&t);
	gb_free(&g);
}

TEST(a_stream_shorter_than_its_header_is_refused)
{
	struct tb_fdr_report_opts o = opts();
	struct tb_error err = { 0 };
	struct tb_fdr_top t;
	struct gb g = { 0 };

	gf_header(&g, 5, 1, 0);
	EXPECT_EQ(-1, tb_fdr_top_run(&t, g.p, 31, NULL, &no_tasks, &o,
				     TB_FDR_TOP_COUNT, &err));
	EXPECT_NE(NULL, strstr(err.msg, "no stream header"));
	tb_fdr_top_free(&t);
	/* Not an FDR stream: the reader's error, no crash. */
	memset(g.p, 0xff, g.n);
	EXPECT_EQ(-1, tb_fdr_top_run(&t, g.p, g.n, NULL, &no_tasks, &o,
				     TB_FDR_TOP_COUNT, &err));
	tb_fdr_top_free(&t);
	gb_free(&g);
}

static char *print(const struct tb_fdr_top *t, bool json)
{
	struct tb_fdr_top_print p = {
		.interval = 2, .start_s = 1, .length_s = 0.5, .bytes = 123,
		.names = 1, .tasks = 1,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (json)
		tb_fdr_top_print_json(t, &p, f);
	else
		tb_fdr_top_print_text(t, &p, f);
	fclose(f);
	return buf;
}

TEST(printed_as_text_and_json)
{
	struct gb g = { 0 };
	struct tb_fdr_top t;
	char *s;

	interval(&g, 2, true);
	ASSERT_EQ(0, run(&t, &g, TB_FDR_TOP_COUNT));
	s = print(&t, false);
	EXPECT_NE(NULL, strstr(s, "tracebuf top: interval 2 at 1.0 s, 0.50 s, 123 bytes"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "syscall   syscall_0x27                         2     300 ns     300 ns     300 ns     300 ns\n"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "(1 more names)")) TH_LOG("%s", s);
	free(s);
	s = print(&t, true);
	EXPECT_NE(NULL, strstr(s, "{\"interval\": 2, \"start_s\": 1.000, \"length_s\": 0.500, \"bytes\": 123,"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "{\"class\": \"syscall\", \"name\": \"syscall_0x27\", \"count\": 2, \"timed\": 1, \"total_ns\": 300, \"p50_ns\": 300, \"p99_ns\": 300, \"max_ns\": 300}"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "{\"class\": \"fault\", \"name\": \"fault_0x0\", \"count\": 1, \"timed\": 0}"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "\"tasks\": [{\"tid\": 10, \"pid\": 10, \"comm\": \"?\", \"events\": 2"))
		TH_LOG("%s", s);
	/* One line, ended. */
	EXPECT_EQ(s + strlen(s) - 1, strchr(s, '\n'));
	free(s);
	tb_fdr_top_free(&t);
	gb_free(&g);
}

TEST_HARNESS_MAIN
