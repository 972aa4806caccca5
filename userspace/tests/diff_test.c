// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf diff (lib/convert/fdr_diff.c): two generated traces whose
 * numbers are known, every column of every name compared exactly (in
 * the rows, the text and the JSON), names only one trace has, a name two
 * ids share, two clocks, the filters, the order by each column, and the
 * command line's errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "convert/fdr_diff.h"
#include "convert/fdr_diff_print.h"
#include "convert/fdr_report.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define SYS(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)
#define IRQ(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, nr)
#define FAULT_USER	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 0)

static void block(struct gb *g, int32_t tid, uint16_t cpu, uint64_t tsc)
{
	gf_new_buffer(g, tid);
	gf_wallclock(g, 1, 0);
	gf_pid(g, tid);
	gf_cpu(g, cpu, tsc);
}

/* A call of @id lasting @ticks, @gap ticks after the last record. */
static void call(struct gb *g, uint32_t id, uint32_t gap, uint32_t ticks)
{
	gf_func(g, TB_FDR_ENTER, id, gap);
	gf_func(g, TB_FDR_EXIT, id, ticks);
}

static void fault(struct gb *g)
{
	gf_func(g, TB_FDR_ENTER_ARGS, FAULT_USER, 10);
	gf_arg(g, 0x1000);
	gf_func(g, TB_FDR_EXIT, FAULT_USER, 0);
}

/*
 * Trace A (1 GHz: ticks are ns), task 10 on CPU 0: syscall 39 for 100,
 * 200 and 300 ns, IRQ 4 for 50, 2 faults, marker "hello".
 */
static void trace_a(struct gb *g)
{
	size_t ext;

	gf_header(g, 5, 1, 0);
	ext = gf_extents(g, 0);
	block(g, 10, 0, 1000);
	call(g, SYS(39), 0, 100);
	call(g, SYS(39), 10, 200);
	call(g, SYS(39), 10, 300);
	call(g, IRQ(4), 10, 50);
	fault(g);
	fault(g);
	gf_custom(g, 5, "hello", 5, 10, 0);
	gf_extents_end(g, ext);
}

/*
 * Trace B: syscall 39 for 100, 250, 400 and 1000 ns, syscall 0 for 70
 * (on CPU 1, task 11), 5 faults, marker "bye"; no IRQ, no "hello".
 * At @hz, the calls' ticks scaled so that their nanoseconds stay.
 */
static void trace_b(struct gb *g, uint64_t hz)
{
	uint32_t m = (uint32_t)(hz / 1000000000);
	size_t ext;
	int i;

	gf_header(g, 5, 1, 0);
	tb_bytes_put64(g->p + 8, hz);
	ext = gf_extents(g, 0);
	block(g, 10, 0, 1000);
	call(g, SYS(39), 0, 100 * m);
	call(g, SYS(39), 10, 250 * m);
	call(g, SYS(39), 10, 400 * m);
	call(g, SYS(39), 10, 1000 * m);
	for (i = 0; i < 5; i++)
		fault(g);
	gf_custom(g, 5, "bye", 3, 10, 0);
	gf_extents_end(g, ext);
	ext = gf_extents(g, 0);
	block(g, 11, 1, 5000);
	call(g, SYS(0), 0, 70 * m);
	gf_extents_end(g, ext);
}

static struct tb_fdr_report_opts no_filter(struct tb_fdr_report_opts o)
{
	if (!o.pid)
		o.pid = TB_REPORT_NO_FILTER;
	if (!o.tid)
		o.tid = TB_REPORT_NO_FILTER;
	if (!o.cpu)
		o.cpu = TB_REPORT_NO_FILTER;
	return o;
}

#define OPTS(...) no_filter((struct tb_fdr_report_opts){ __VA_ARGS__ })

static int run_mem(struct tb_fdr_report *r, const struct gb *g,
		   const struct tb_name_map *names,
		   struct tb_fdr_report_opts o)
{
	static struct tb_task_map tasks;	/* empty; outlives @r */
	struct tb_error err = { 0 };
	FILE *f = fmemopen(g->p, g->n, "r");
	int ret;

	ret = tb_fdr_report_run(r, f, names, &tasks, &o, false, &err);
	if (ret)
		fprintf(stderr, "report: %d %s\n", ret, err.msg);
	fclose(f);
	return ret;
}

/* Both traces read with @o, compared by @key. */
static int compare(struct tb_fdr_diff *d, struct tb_fdr_report *a,
		   struct tb_fdr_report *b, uint64_t hz,
		   struct tb_fdr_report_opts o, enum tb_fdr_diff_col key)
{
	struct gb ga = { 0 }, gbb = { 0 };
	int ret;

	trace_a(&ga);
	trace_b(&gbb, hz);
	ret = run_mem(a, &ga, NULL, o) || run_mem(b, &gbb, NULL, o) ||
	      tb_fdr_diff_run(d, a, b, key);
	gb_free(&ga);
	gb_free(&gbb);
	return ret;
}

static void release(struct tb_fdr_diff *d, struct tb_fdr_report *a,
		    struct tb_fdr_report *b)
{
	tb_fdr_diff_free(d);
	tb_fdr_report_free(a);
	tb_fdr_report_free(b);
}

/* One expected row: name, A's columns (or absent), the changes. */
struct want {
	const char *cls, *name;
	bool in_a, in_b, calls;
	uint64_t a[TB_FDR_DIFF_NR];
	int64_t change[TB_FDR_DIFF_NR];
};

/*
 * syscall 39: A 100 200 300, B 100 250 400 1000.  Nearest rank: A's p50
 * is the 2nd (200), p99 the 3rd (300); B's p50 the 2nd (250), p99 the
 * 4th (1000).
 */
static const struct want want_total[] = {
	{ "syscall", "syscall_0x27", true, true, true,
	  { 3, 600, 200, 300, 300 }, { 1, 1150, 50, 700, 700 } },
	{ "syscall", "syscall_0x0", false, true, true,
	  { 0 }, { 1, 70, 70, 70, 70 } },
	{ "irq", "irq_0x4", true, false, true,
	  { 1, 50, 50, 50, 50 }, { -1, -50, -50, -50, -50 } },
	{ "fault", "fault_0x0", true, true, false,
	  { 2 }, { 3 } },
	{ "marker", "bye", false, true, false, { 0 }, { 1 } },
	{ "marker", "hello", true, false, false, { 1 }, { -1 } },
};

static void check_rows(struct __test_metadata *_metadata,
		       const struct tb_fdr_diff *d, const struct want *w,
		       size_t n)
{
	size_t i;
	unsigned int k;

	ASSERT_EQ(n, d->nrows);
	for (i = 0; i < n; i++) {
		const struct tb_fdr_diff_row *r = &d->rows[i];

		EXPECT_STREQ(w[i].cls, tb_fdr_report_class_name(r->rc));
		EXPECT_STREQ(w[i].name, r->name) TH_LOG("row %zu", i);
		EXPECT_EQ(w[i].in_a, r->a.present) TH_LOG("%s", r->name);
		EXPECT_EQ(w[i].in_b, r->b.present) TH_LOG("%s", r->name);
		EXPECT_EQ(w[i].calls, r->a.calls || r->b.calls);
		for (k = 0; k < TB_FDR_DIFF_NR; k++) {
			EXPECT_EQ(w[i].a[k], r->a.v[k])
				TH_LOG("%s A %s", r->name, tb_fdr_diff_col_name(k));
			EXPECT_EQ(w[i].change[k], r->change[k])
				TH_LOG("%s change %s", r->name,
				       tb_fdr_diff_col_name(k));
			/* B's own: A's plus the change */
			EXPECT_EQ(w[i].a[k] + w[i].change[k], r->b.v[k]);
		}
		EXPECT_TRUE(!r->a.present || r->a.exact);
		EXPECT_TRUE(!r->b.present || r->b.exact);
	}
}

TEST(every_column_of_every_name_by_total)
{
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;

	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(),
			     TB_FDR_DIFF_TOTAL));
	check_rows(_metadata, &d, want_total, ARRAY_SIZE(want_total));
	release(&d, &a, &b);
}

/* B at 2 GHz: twice the ticks, the same nanoseconds, the same changes. */
TEST(two_clocks_compare_in_nanoseconds)
{
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;

	ASSERT_EQ(0, compare(&d, &a, &b, 2000000000, OPTS(),
			     TB_FDR_DIFF_TOTAL));
	EXPECT_EQ(2000000000, b.hdr.cycle_frequency);
	check_rows(_metadata, &d, want_total, ARRAY_SIZE(want_total));
	release(&d, &a, &b);
}

/*
 * By p50: syscall 0 (+70) first, then syscall 39 (+50) before the IRQ
 * (-50) by their change in total; by count: faults (+3) first, then
 * the changes of 1 by their change in total.
 */
TEST(sorted_by_the_column_asked)
{
	static const char *const by_p50[] = {
		"syscall_0x0", "syscall_0x27", "irq_0x4", "fault_0x0", "bye",
		"hello",
	};
	static const char *const by_count[] = {
		"fault_0x0", "syscall_0x27", "syscall_0x0", "irq_0x4", "bye",
		"hello",
	};
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;
	unsigned int i;

	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(),
			     TB_FDR_DIFF_P50));
	ASSERT_EQ(ARRAY_SIZE(by_p50), d.nrows);
	for (i = 0; i < d.nrows; i++)
		EXPECT_STREQ(by_p50[i], d.rows[i].name);
	release(&d, &a, &b);
	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(),
			     TB_FDR_DIFF_COUNT));
	ASSERT_EQ(ARRAY_SIZE(by_count), d.nrows);
	for (i = 0; i < d.nrows; i++)
		EXPECT_STREQ(by_count[i], d.rows[i].name);
	release(&d, &a, &b);
	EXPECT_EQ(TB_FDR_DIFF_MAX, tb_fdr_diff_col("max"));
	EXPECT_EQ(-1, tb_fdr_diff_col("p90"));
}

/* The report's filters, the same for both traces. */
TEST(filters_apply_to_both)
{
	static const struct want want_cpu1[] = {
		{ "syscall", "syscall_0x0", false, true, true,
		  { 0 }, { 1, 70, 70, 70, 70 } },
	};
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;

	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000,
			     OPTS(.classes = 1U << 0), TB_FDR_DIFF_TOTAL));
	check_rows(_metadata, &d, want_total, 2);
	release(&d, &a, &b);
	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(.cpu = 1),
			     TB_FDR_DIFF_TOTAL));
	check_rows(_metadata, &d, want_cpu1, 1);
	release(&d, &a, &b);
	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(.name = "h*"),
			     TB_FDR_DIFF_TOTAL));
	check_rows(_metadata, &d, &want_total[5], 1);
	release(&d, &a, &b);
}

/*
 * Two ids named "dup" in each trace (ids 1, 2 in A; 5, 7 in B): matched
 * in id order, 1 with 5 and 2 with 7, never mixed.
 */
TEST(a_name_two_ids_share_is_matched_in_id_order)
{
	struct tb_name_map na = { 0 }, nb = { 0 };
	struct tb_error err = { 0 };
	struct gb ga = { 0 }, gbb = { 0 };
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;
	size_t ext;

	ASSERT_EQ(0, tb_name_map_add(&na, 1, "dup"));
	ASSERT_EQ(0, tb_name_map_add(&na, 2, "dup"));
	ASSERT_EQ(0, tb_name_map_finish(&na, &err));
	ASSERT_EQ(0, tb_name_map_add(&nb, 7, "dup"));
	ASSERT_EQ(0, tb_name_map_add(&nb, 5, "dup"));
	ASSERT_EQ(0, tb_name_map_finish(&nb, &err));
	gf_header(&ga, 5, 1, 0);
	ext = gf_extents(&ga, 0);
	block(&ga, 3, 0, 100);
	call(&ga, 2, 0, 40);		/* 2nd "dup": 2 calls */
	call(&ga, 2, 0, 40);
	call(&ga, 1, 0, 10);		/* 1st: 1 call */
	gf_extents_end(&ga, ext);
	gf_header(&gbb, 5, 1, 0);
	ext = gf_extents(&gbb, 0);
	block(&gbb, 3, 0, 100);
	call(&gbb, 7, 0, 400);		/* 2nd: 1 call */
	call(&gbb, 5, 0, 11);		/* 1st: 3 calls */
	call(&gbb, 5, 0, 11);
	call(&gbb, 5, 0, 11);
	gf_extents_end(&gbb, ext);
	ASSERT_EQ(0, run_mem(&a, &ga, &na, OPTS()));
	ASSERT_EQ(0, run_mem(&b, &gbb, &nb, OPTS()));
	ASSERT_EQ(0, tb_fdr_diff_run(&d, &a, &b, TB_FDR_DIFF_TOTAL));
	ASSERT_EQ(2, d.nrows);
	/* 2nd: 80 -> 400; 1st: 10 -> 33 */
	EXPECT_EQ(1, d.rows[0].dup);
	EXPECT_EQ(2, d.rows[0].a.v[TB_FDR_DIFF_COUNT]);
	EXPECT_EQ(1, d.rows[0].b.v[TB_FDR_DIFF_COUNT]);
	EXPECT_EQ(320, d.rows[0].change[TB_FDR_DIFF_TOTAL]);
	EXPECT_EQ(0, d.rows[1].dup);
	EXPECT_EQ(1, d.rows[1].a.v[TB_FDR_DIFF_COUNT]);
	EXPECT_EQ(3, d.rows[1].b.v[TB_FDR_DIFF_COUNT]);
	EXPECT_EQ(23, d.rows[1].change[TB_FDR_DIFF_TOTAL]);
	EXPECT_EQ(1, d.rows[1].change[TB_FDR_DIFF_P50]);
	release(&d, &a, &b);
	tb_name_map_free(&na);
	tb_name_map_free(&nb);
	gb_free(&ga);
	gb_free(&gbb);
}

static char *print(bool json, const struct tb_fdr_diff *d,
		   const struct tb_fdr_report *a, const struct tb_fdr_report *b)
{
	struct tb_fdr_diff_print p = { .a = "a.fdr", .b = "b.fdr" };
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	int ret;

	ret = json ? tb_fdr_diff_print_json(d, a, b, &p, out) :
		     tb_fdr_diff_print_text(d, a, b, &p, out);
	fclose(out);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}

/* The text, whole: every cell in the report's units. */
TEST(text_holds_every_column)
{
	static const char want[] =
		"A: a.fdr: 7 events counted in 710 ns, 1 CPUs, 0 lost\n"
		"B: b.fdr: 11 events counted in 4.07 us, 2 CPUs, 0 lost\n"
		"\n"
		"By event: A's values and the change to B's (+/-), the largest change of total first\n"
		"CLASS     NAME                            COUNT      +/-     TOTAL       +/-       P50       +/-       P99       +/-       MAX       +/- ONLY\n"
		"syscall   syscall_0x27                        3       +1    600 ns  +1.15 us    200 ns    +50 ns    300 ns   +700 ns    300 ns   +700 ns\n"
		"syscall   syscall_0x0                         -       +1         -    +70 ns         -    +70 ns         -    +70 ns         -    +70 ns B\n"
		"irq       irq_0x4                             1       -1     50 ns    -50 ns     50 ns    -50 ns     50 ns    -50 ns     50 ns    -50 ns A\n"
		"fault     fault_0x0                           2       +3         -         -         -         -         -         -         -         -\n"
		"marker    bye                                 -       +1         -         -         -         -         -         -         -         - B\n"
		"marker    hello                               1       -1         -         -         -         -         -         -         -         - A\n";
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;
	char *text;

	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(),
			     TB_FDR_DIFF_TOTAL));
	text = print(false, &d, &a, &b);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ(want, text);
	free(text);
	release(&d, &a, &b);
}

TEST(json_holds_every_column)
{
	static const char *const want[] = {
		"{\"a\": {\"trace\": \"a.fdr\", \"cycle_frequency\": 1000000000, \"cpus\": 1, \"span_ns\": 710, \"events\": 7,",
		"\"b\": {\"trace\": \"b.fdr\", \"cycle_frequency\": 1000000000, \"cpus\": 2, \"span_ns\": 4070, \"events\": 11,",
		"\"sort\": \"total\", \"names\": [",
		"{\"class\": \"syscall\", \"name\": \"syscall_0x27\", \"only_in\": null, "
		"\"a\": {\"count\": 3, \"total_ns\": 600, \"p50_ns\": 200, \"p99_ns\": 300, \"max_ns\": 300, \"percentiles_exact\": true}, "
		"\"b\": {\"count\": 4, \"total_ns\": 1750, \"p50_ns\": 250, \"p99_ns\": 1000, \"max_ns\": 1000, \"percentiles_exact\": true}, "
		"\"change\": {\"count\": 1, \"total_ns\": 1150, \"p50_ns\": 50, \"p99_ns\": 700, \"max_ns\": 700}},",
		"{\"class\": \"syscall\", \"name\": \"syscall_0x0\", \"only_in\": \"b\", \"a\": null, "
		"\"b\": {\"count\": 1, \"total_ns\": 70, \"p50_ns\": 70, \"p99_ns\": 70, \"max_ns\": 70, \"percentiles_exact\": true}, "
		"\"change\": {\"count\": 1, \"total_ns\": 70, \"p50_ns\": 70, \"p99_ns\": 70, \"max_ns\": 70}},",
		"{\"class\": \"irq\", \"name\": \"irq_0x4\", \"only_in\": \"a\", "
		"\"a\": {\"count\": 1, \"total_ns\": 50, \"p50_ns\": 50, \"p99_ns\": 50, \"max_ns\": 50, \"percentiles_exact\": true}, \"b\": null, "
		"\"change\": {\"count\": -1, \"total_ns\": -50, \"p50_ns\": -50, \"p99_ns\": -50, \"max_ns\": -50}},",
		"{\"class\": \"fault\", \"name\": \"fault_0x0\", \"only_in\": null, \"a\": {\"count\": 2}, \"b\": {\"count\": 5}, \"change\": {\"count\": 3}},",
		"{\"class\": \"marker\", \"name\": \"bye\", \"only_in\": \"b\", \"a\": null, \"b\": {\"count\": 1}, \"change\": {\"count\": 1}},",
		"{\"class\": \"marker\", \"name\": \"hello\", \"only_in\": \"a\", \"a\": {\"count\": 1}, \"b\": null, \"change\": {\"count\": -1}}]}\n",
	};
	struct tb_fdr_report a, b;
	struct tb_fdr_diff d;
	unsigned int i;
	char *text;

	ASSERT_EQ(0, compare(&d, &a, &b, 1000000000, OPTS(),
			     TB_FDR_DIFF_TOTAL));
	text = print(true, &d, &a, &b);
	ASSERT_NE(NULL, text);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *w = want[i];

		EXPECT_NE(NULL, strstr(text, w))
			TH_LOG("line %u not in:\n%s", i, text);
	}
	free(text);
	release(&d, &a, &b);
}

/* The build's own tool: the sanitizer build's beside its tests. */
static const char *tool(void)
{
	return tu_tool("tracebuf");
}

TEST(command_line)
{
	char *dir = tu_tmpdir(), *out;
	struct gb ga = { 0 }, gbb = { 0 };
	char a[512], b[512];
	int st;

	trace_a(&ga);
	trace_b(&gbb, 1000000000);
	snprintf(a, sizeof(a), "%s/a.fdr", dir);
	snprintf(b, sizeof(b), "%s/b.fdr", dir);
	ASSERT_EQ(0, gb_write(&ga, a));
	ASSERT_EQ(0, gb_write(&gbb, b));

	out = tu_run(&st, "%s diff %s %s", tool(), a, b);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "syscall_0x27                        3       +1    600 ns  +1.15 us"))
		TH_LOG("%s", out);
	free(out);
	/* -e as report's; --sort; --json; B from stdin */
	out = tu_run(&st, "%s diff -e irq,fault --sort count %s - < %s",
		     tool(), a, b);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Both filtered: class irq fault"));
	EXPECT_NE(NULL, strstr(out, "change of count first\n"));
	EXPECT_EQ(NULL, strstr(out, "syscall_0x27"));
	EXPECT_LT(strstr(out, "fault_0x0"), strstr(out, "irq_0x4"));
	free(out);
	out = tu_run(&st, "%s diff --json --name 'sys*' %s %s", tool(), a, b);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "\"change\": {\"count\": 1, \"total_ns\": 1150"))
		TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s diff -o %s/out.txt %s %s && cat %s/out.txt",
		     tool(), dir, a, b, dir);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "irq_0x4"));
	free(out);

	/* The errors: what is wrong, with report's words and statuses. */
	out = tu_run(&st, "%s diff %s", tool(), a);
	EXPECT_EQ(2, st);
	EXPECT_NE(NULL, strstr(out, "two traces to compare, A.fdr B.fdr (one given)"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Try 'tracebuf diff --help'"));
	free(out);
	out = tu_run(&st, "%s diff %s %s %s", tool(), a, b, a);
	EXPECT_EQ(2, st);
	EXPECT_NE(NULL, strstr(out, "is extra"));
	free(out);
	out = tu_run(&st, "%s diff - - < %s", tool(), a);
	EXPECT_EQ(2, st);
	EXPECT_NE(NULL, strstr(out, "not both"));
	free(out);
	out = tu_run(&st, "%s diff %s/none.fdr %s", tool(), dir, b);
	EXPECT_EQ(1, st);
	EXPECT_NE(NULL, strstr(out, "none.fdr")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "No such file"));
	free(out);
	out = tu_run(&st, "%s diff %s data/corpus/xscale/snapshot.bin", tool(), a);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "is an XScale trace buffer")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "tracebuf decode"));
	free(out);
	out = tu_run(&st, "head -c 20 %s | %s diff %s -", b, tool(), a);
	EXPECT_EQ(3, st) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s diff --sort p90 %s %s", tool(), a, b);
	EXPECT_EQ(2, st);
	EXPECT_NE(NULL, strstr(out, "count, total, p50, p99 or max"));
	free(out);
	out = tu_run(&st, "%s diff -e bogus %s %s", tool(), a, b);
	EXPECT_EQ(2, st);
	EXPECT_NE(NULL, strstr(out, "unknown class 'bogus'"));
	free(out);
	out = tu_run(&st, "%s diff --time 5 %s %s", tool(), a, b);
	EXPECT_EQ(2, st);
	free(out);
	out = tu_run(&st, "%s diff --no-names -m %s %s %s", tool(), a, a, b);
	EXPECT_EQ(2, st);
	free(out);
	out = tu_run(&st, "%s diff -m %s %s %s", tool(), a, a, b);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "--map: ")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s diff --before 10 %s %s", tool(), a, b);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "no trigger")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s diff -o %s %s %s", tool(), a, a, b);
	EXPECT_EQ(1, st);
	EXPECT_NE(NULL, strstr(out, "refusing to overwrite")) TH_LOG("%s", out);
	free(out);
	gb_free(&ga);
	gb_free(&gbb);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
