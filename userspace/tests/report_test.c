// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf report (lib/convert/fdr_report.c): numbers computed by hand for small
 * generated traces -- nesting, calls the trace holds half of, point
 * events, loss reports, markers, a trigger -- the filters, a capture whose
 * tasks' records go back in time, the percentiles' bounds, folded stacks
 * and the command line's errors.  scripts/check/report-check.py checks real
 * traces against a computation of its own (make check).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "convert/fdr_report.h"
#include "convert/fdr_report_print.h"
#include "convert/latency.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define SYS(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)
#define IRQ(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, nr)
#define SOFTIRQ(nr)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, nr)
#define FAULT_USER	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 0)

static void block(struct gb *g, int32_t tid, int32_t pid, uint16_t cpu,
		  uint64_t tsc)
{
	gf_new_buffer(g, tid);
	gf_wallclock(g, 1, 0);
	gf_pid(g, pid);
	gf_cpu(g, cpu, tsc);
}

/*
 * Task 10 on CPU 0 from t=100 (ns: the generator's clock is 1 GHz):
 *   100 enter sys 39; 150 enter irq 4; 170 exit irq 4; 300 exit sys 39
 *   310 exit softirq 1 (no entry); 320 fault (point); 400 enter sys 0
 *   (never exits)
 * Task 11 (pid 10) on CPU 1 from t=200: 200 "tracebuf: lost 3 events",
 *   250 marker "hello", 260 enter sys 39, 262 exit sys 39.
 */
static size_t demo_trace(struct gb *g, bool trigger)
{
	static const char lost[] = "tracebuf: lost 3 events";
	static const char trig[] = "tracebuf trigger: marker \"x\"";
	size_t ext;

	gf_header(g, 5, 1, 0);
	ext = gf_extents(g, 0);
	block(g, 10, 10, 0, 100);
	gf_func(g, TB_FDR_ENTER, SYS(39), 0);
	gf_func(g, TB_FDR_ENTER, IRQ(4), 50);
	gf_func(g, TB_FDR_EXIT, IRQ(4), 20);
	gf_func(g, TB_FDR_EXIT, SYS(39), 130);
	gf_func(g, TB_FDR_EXIT, SOFTIRQ(1), 10);
	gf_func(g, TB_FDR_ENTER_ARGS, FAULT_USER, 10);
	gf_arg(g, 0x1000);
	gf_func(g, TB_FDR_EXIT, FAULT_USER, 0);
	gf_func(g, TB_FDR_ENTER, SYS(0), 80);
	gf_extents_end(g, ext);
	ext = gf_extents(g, 0);
	block(g, 11, 10, 1, 200);
	/* What the post-processing opens a task with: not a marker. */
	gf_custom(g, 5, "tracebuf: capture start", 23, 0, 0);
	gf_custom(g, 5, lost, sizeof(lost) - 1, 0, 0);
	gf_custom(g, 5, "hello", 5, 50, 0);
	gf_func(g, TB_FDR_ENTER, SYS(39), 10);
	gf_func(g, TB_FDR_EXIT, SYS(39), 2);
	if (trigger)
		gf_custom(g, 5, trig, sizeof(trig) - 1, 38, 0);
	gf_extents_end(g, ext);
	return g->n;
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


/* Options with no filter but those given (-Woverride-init: by hand). */
static struct tb_fdr_report_opts no_filter(struct tb_fdr_report_opts o)
{
	if (!o.pid)
		o.pid = TB_REPORT_NO_FILTER;
	if (!o.tid)
		o.tid = TB_REPORT_NO_FILTER;
	if (!o.cpu)
		o.cpu = TB_REPORT_NO_FILTER;
	if (!o.top)
		o.top = 10;
	return o;
}

#define OPTS(...) no_filter((struct tb_fdr_report_opts){ __VA_ARGS__ })

static int run_mem(struct tb_fdr_report *r, const struct gb *g,
		   struct tb_fdr_report_opts o, bool folds)
{
	static struct tb_task_map tasks;	/* empty; outlives @r */
	struct tb_error err = { 0 };
	FILE *f = fmemopen(g->p, g->n, "r");
	int ret;

	ret = tb_fdr_report_run(r, f, NULL, &tasks, &o, folds, &err);
	if (ret)
		fprintf(stderr, "report: %d %s\n", ret, err.msg);
	fclose(f);
	return ret;
}

/* The text report of @r, histograms of its @hists busiest names. */
static char *report_text(struct tb_fdr_report *r, unsigned int hists)
{
	struct tb_fdr_report_print p = { .input = "x", .hists = hists };
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return NULL;
	if (tb_fdr_report_print_text(r, &p, out))
		fprintf(out, "(write error)");
	fclose(out);
	return text;
}

TEST(nesting_incomplete_calls_points_loss_and_markers)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	const struct tb_fdr_report_func *f;

	demo_trace(&g, false);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	f = func(&r, SYS(39));
	ASSERT_NE(NULL, f);
	EXPECT_EQ(2, f->lat.count);
	EXPECT_EQ(202, f->lat.total);
	EXPECT_EQ(2, f->lat.min);
	EXPECT_EQ(200, f->lat.max);
	f = func(&r, IRQ(4));
	ASSERT_NE(NULL, f);
	EXPECT_EQ(1, f->lat.count);
	EXPECT_EQ(20, f->lat.total);
	f = func(&r, SOFTIRQ(1));
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, f->lat.count);
	EXPECT_EQ(1, f->no_entry);
	f = func(&r, FAULT_USER);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, f->lat.count);
	EXPECT_EQ(1, f->points);
	f = func(&r, SYS(0));
	ASSERT_NE(NULL, f);
	EXPECT_EQ(1, f->no_exit);
	EXPECT_EQ(0, f->lat.count);
	EXPECT_EQ(3, r.lost);
	EXPECT_EQ(1, r.nmarkers);
	EXPECT_STREQ("hello", r.markers[0].name);
	/* 3 syscalls, 1 IRQ, 1 fault, 1 marker: the exit alone is none */
	EXPECT_EQ(6, r.events);
	ASSERT_EQ(2, r.ntasks);
	EXPECT_EQ(10, r.tasks[0].tid);
	/* outermost time: sys 39's 200 (its IRQ inside), the fault's 0 */
	EXPECT_EQ(200, r.tasks[0].time[0]);
	EXPECT_EQ(2, r.tasks[0].count[0]);
	EXPECT_EQ(1, r.tasks[1].count[TB_FDR_NR_CLASSES - 1]);
	ASSERT_EQ(2, r.ncpus);
	EXPECT_EQ(3, r.cpus[1].lost);
	EXPECT_EQ(1, r.cpus[1].count[0]);
	EXPECT_EQ(1, r.cpus[1].count[TB_FDR_NR_CLASSES - 1]);
	EXPECT_EQ(100, r.first);
	EXPECT_EQ(400, r.last);
	/* longest first: sys 39 (200), irq 4 (20), sys 39 (2) */
	ASSERT_EQ(3, r.nlongest);
	EXPECT_EQ(200, r.longest[0].ticks);
	EXPECT_EQ(20, r.longest[1].ticks);
	EXPECT_EQ(IRQ(4), r.longest[1].func->id);
	EXPECT_EQ(2, r.longest[2].ticks);
	EXPECT_FALSE(r.tidied);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * The heading says what its numbers count: events (calls and point
 * events begun, markers: 6 in the demo trace) out of function records
 * (entries and exits: 10), and losses in records as the recorder counts
 * them.
 */
TEST(heading_says_what_it_counts)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text;

	demo_trace(&g, false);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	text = report_text(&r, 0);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\n  6 events (calls and point events begun, markers) in 10 function records; 3 records lost (the recorder's loss reports)\n"))
		TH_LOG("%s", text);
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * A trace whose first record is at TSC 0 (a counter that starts there):
 * time 0 is a time, not "none yet".  Task 10 on CPU 0: sys 39 from 0 to
 * 100; task 11 on CPU 1: sys 0 from 50 to 300.  Span 300 ns; --time
 * from 40 ns holds sys 0 alone.
 */
TEST(first_record_at_tsc_0)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text;
	size_t ext;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 10, 10, 0, 0);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 100);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 11, 11, 1, 50);
	gf_func(&g, TB_FDR_ENTER, SYS(0), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(0), 250);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_EQ(0, r.first);
	EXPECT_EQ(300, r.last);
	text = report_text(&r, 0);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, ", 300 ns from the first record to the last\n"))
		TH_LOG("%s", text);
	free(text);
	tb_fdr_report_free(&r);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.from_ns = 40), false));
	EXPECT_EQ(1, r.events);
	ASSERT_NE(NULL, func(&r, SYS(0)));
	EXPECT_EQ(1, func(&r, SYS(0))->lat.count);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

TEST(filters_count_what_they_select)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;

	demo_trace(&g, false);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.cpu = 1), false));
	EXPECT_EQ(1, func(&r, SYS(39))->lat.count);
	EXPECT_EQ(2, func(&r, SYS(39))->lat.total);
	EXPECT_EQ(0, func(&r, IRQ(4))->lat.count);
	EXPECT_EQ(2, r.events);
	tb_fdr_report_free(&r);

	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.tid = 10, .classes = 1U << 1),
			     false));
	EXPECT_EQ(1, func(&r, IRQ(4))->lat.count);
	EXPECT_EQ(0, func(&r, SYS(39))->lat.count);
	EXPECT_EQ(1, r.events);
	tb_fdr_report_free(&r);

	/* The window holds events begun from 150 to 260 ns after 100. */
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.from_ns = 50, .to_ns = 160),
			     false));
	EXPECT_EQ(1, func(&r, SYS(39))->lat.count);
	EXPECT_EQ(2, func(&r, SYS(39))->lat.min);
	EXPECT_EQ(1, func(&r, IRQ(4))->lat.count);
	EXPECT_EQ(0, func(&r, SYS(0))->no_exit);
	tb_fdr_report_free(&r);

	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.name = "syscall_0x2*"), false));
	EXPECT_EQ(2, func(&r, SYS(39))->lat.count);
	EXPECT_EQ(0, func(&r, IRQ(4))->lat.count);
	EXPECT_EQ(0, r.nmarkers);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * A task's TIME is its outermost calls among those counted: with --class
 * irq, task 10's IRQ (20 ns inside sys 39) is outermost, and with a
 * --time window that begins inside sys 39, so is the IRQ begun in it.
 * Without a filter it is inside sys 39 and the syscall's time holds it.
 */
TEST(task_time_is_of_the_outermost_counted_calls)
{
	const unsigned int irq = tb_fdr_report_class_of(IRQ(4));
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text;

	demo_trace(&g, false);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.classes = 1U << irq), false));
	ASSERT_EQ(10, r.tasks[0].tid);
	EXPECT_EQ(1, r.tasks[0].count[irq]);
	EXPECT_EQ(20, r.tasks[0].time[irq]);
	text = report_text(&r, 0);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "         1      20 ns\n")) TH_LOG("%s",
									  text);
	free(text);
	tb_fdr_report_free(&r);

	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.from_ns = 50, .to_ns = 60),
			     false));
	EXPECT_EQ(20, r.tasks[0].time[irq]);
	EXPECT_EQ(0, r.tasks[0].time[0]);
	tb_fdr_report_free(&r);

	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_EQ(0, r.tasks[0].time[irq]);
	EXPECT_EQ(200, r.tasks[0].time[0]);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

TEST(before_needs_a_trigger_and_lists_each_cpus_last_events)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;

	demo_trace(&g, false);
	EXPECT_EQ(-1, run_mem(&r, &g, OPTS(.before_ns = 1000), false));
	tb_fdr_report_free(&r);
	gb_free(&g);

	memset(&g, 0, sizeof(g));
	demo_trace(&g, true);
	/* Trigger at 300 on CPU 1: the last 150 ns hold begins >= 150. */
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.before_ns = 150), false));
	EXPECT_TRUE(r.trigger.found);
	EXPECT_EQ(300, r.trigger.tsc);
	EXPECT_EQ(1, r.trigger.cpu);
	EXPECT_EQ(1, func(&r, IRQ(4))->lat.count);
	EXPECT_EQ(1, func(&r, SYS(39))->lat.count);
	ASSERT_NE(NULL, r.nbefore);
	EXPECT_EQ(1, r.nbefore[0]);	/* the IRQ */
	EXPECT_EQ(1, r.nbefore[1]);	/* task 11's getpid */
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * Function ids on both sides of the report's direct index (ids below
 * 65536 are looked up in an array, the others in a hash), id 0 among
 * them, first seen in an order that is not theirs: every kept event
 * (longest, --before) names its function, and funcs[] ends in id order.
 */
TEST(kept_events_name_their_function_whatever_its_id)
{
	static const char trig[] = "tracebuf trigger: marker \"x\"";
	const uint32_t ids[] = { SYS(39), 0, 70000, 5 };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	unsigned int i, n;
	size_t ext;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 3, 3, 0, 1000);
	for (i = 0; i < 4; i++) {
		gf_func(&g, TB_FDR_ENTER, ids[i], 10);
		gf_func(&g, TB_FDR_EXIT, ids[i], 100 + i);
	}
	gf_custom(&g, 5, trig, sizeof(trig) - 1, 1, 0);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.before_ns = 10000), false));
	ASSERT_EQ(4, r.nfuncs);
	for (i = 1; i < r.nfuncs; i++)
		EXPECT_LT(r.funcs[i - 1].id, r.funcs[i].id);
	ASSERT_EQ(4, r.nlongest);
	for (i = 0; i < 4; i++) {
		/* longest first: the last call (103 ticks) leads */
		ASSERT_NE(NULL, r.longest[i].func);
		EXPECT_EQ(ids[3 - i], r.longest[i].func->id);
		EXPECT_EQ(103 - i, r.longest[i].ticks);
	}
	ASSERT_NE(NULL, r.nbefore);
	n = r.nbefore[0];
	ASSERT_EQ(4, n);
	for (i = 0; i < n; i++) {
		ASSERT_NE(NULL, r.before[i].func);
		EXPECT_EQ(ids[i], r.before[i].func->id);
		EXPECT_EQ(1, r.before[i].func->lat.count);
	}
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * A flight recorder that fired before still holds the earlier triggers'
 * events: the report counts them all and shows the last, so that a
 * converter's reader (ctf-check.py's) can account for every one.
 */
TEST(every_trigger_event_counted_the_last_shown)
{
	static const char t1[] = "tracebuf trigger: marker \"a\"";
	static const char t2[] = "tracebuf: panic: oops";
	struct tb_fdr_report_print p = { .input = "x" };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text, *json = NULL;
	size_t ext, len;
	FILE *out;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 3, 3, 0, 1000);
	gf_custom(&g, 5, t1, sizeof(t1) - 1, 10, 0);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 10);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 10);
	gf_custom(&g, 5, t2, sizeof(t2) - 1, 10, 0);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_TRUE(r.trigger.found);
	EXPECT_EQ(2, r.trigger.count);
	EXPECT_STREQ(t2, r.trigger.text);
	text = report_text(&r, 0);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "(the last of 2 trigger or panic events in the file)"))
		TH_LOG("%s", text);
	out = open_memstream(&json, &len);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, tb_fdr_report_print_json(&r, &p, out));
	fclose(out);
	EXPECT_NE(NULL, strstr(json, "\"text\": \"tracebuf: panic: oops\", \"count\": 2}"))
		TH_LOG("%.400s", json);
	free(text);
	free(json);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * Task 30 (pid 30) exits and writes its command name; its thread 31 and
 * task 40 do not: the report names 30 by its name, 31 by its process's,
 * leaves 40 unnamed, and counts no marker for the name.
 */
TEST(exit_comm_names_tasks_the_tasks_file_missed)
{
	char buf[TB_TASK_COMM_LEN];
	static const char comm[] = "tracebuf: comm cc1\x01";
	struct gb g = { 0 };
	struct tb_fdr_report r;
	size_t ext;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 31, 30, 1, 500);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 5);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 30, 30, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 10);
	gf_custom(&g, 5, comm, sizeof(comm) - 1, 1, 0);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 40, 40, 1, 2000);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 10);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_EQ(0, r.nmarkers);
	EXPECT_EQ(3, r.events);
	EXPECT_EQ(3, func(&r, SYS(39))->lat.count);
	/* Unprintable bytes as dots, as markers' texts. */
	EXPECT_STREQ("cc1.", tb_fdr_report_comm(&r, 30, 30, buf));
	EXPECT_STREQ("cc1.", tb_fdr_report_comm(&r, 31, 30, buf));
	EXPECT_EQ(NULL, tb_fdr_report_comm(&r, 40, 40, buf));
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * The idle tasks of CPUs 0 and 1 (TRACEBUF_FDR_IDLE_TID, pid 0) each take
 * an IRQ: the task table, the longest events, --json and --folded call
 * them swapper/0 and swapper/1 with tid 0, as the kernel and perf do,
 * never by the raw tid.
 */
TEST(idle_tasks_are_swapper_n_with_tid_0)
{
	struct tb_fdr_report_print p = { .input = "x" };
	struct tb_fdr_report_opts o;
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text, *json = NULL, *folded = NULL, want[160];
	unsigned int cpu;
	size_t ext, len;
	FILE *out;

	gf_header(&g, 5, 1, 0);
	for (cpu = 0; cpu < 2; cpu++) {
		ext = gf_extents(&g, 0);
		block(&g, TRACEBUF_FDR_IDLE_TID(cpu), 0, (uint16_t)cpu,
		      1000 + cpu * 100);
		gf_func(&g, TB_FDR_ENTER, IRQ(4), 10);
		gf_func(&g, TB_FDR_EXIT, IRQ(4), 20 + cpu);
		gf_extents_end(&g, ext);
	}
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), true));
	text = report_text(&r, 0);
	ASSERT_NE(NULL, text);
	out = open_memstream(&json, &len);
	ASSERT_EQ(0, tb_fdr_report_print_json(&r, &p, out));
	fclose(out);
	out = open_memstream(&folded, &len);
	ASSERT_EQ(0, tb_fdr_report_print_folded(&r, &p, out));
	fclose(out);
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(want, sizeof(want), "%10d %10d %-16s %-7u", 0, 0,
			 cpu ? "swapper/1" : "swapper/0", cpu);
		EXPECT_NE(NULL, strstr(text, want)) TH_LOG("no \"%s\" in\n%s",
							   want, text);
		snprintf(want, sizeof(want), "%4u %10d %-16s irq", cpu, 0,
			 cpu ? "swapper/1" : "swapper/0");
		EXPECT_NE(NULL, strstr(text, want)) TH_LOG("no \"%s\" in\n%s",
							   want, text);
		snprintf(want, sizeof(want),
			 "{\"tid\": 0, \"pid\": 0, \"comm\": \"swapper/%u\"", cpu);
		EXPECT_NE(NULL, strstr(json, want)) TH_LOG("no %s in\n%s",
							   want, json);
		snprintf(want, sizeof(want), "swapper/%u-0;irq_0x4 %u\n", cpu,
			 20 + cpu);
		EXPECT_NE(NULL, strstr(folded, want)) TH_LOG("no %s in\n%s",
							     want, folded);
	}
	EXPECT_EQ(NULL, strstr(text, "107374182")) TH_LOG("%s", text);
	EXPECT_EQ(NULL, strstr(json, "107374182")) TH_LOG("%s", json);
	EXPECT_EQ(NULL, strstr(folded, "107374182")) TH_LOG("%s", folded);
	free(text);
	free(json);
	free(folded);
	tb_fdr_report_free(&r);
	/* --tid 0 selects them as shown; the file's tid one of them. */
	o = OPTS();
	o.tid = 0;	/* OPTS() reads 0 as no filter */
	ASSERT_EQ(0, run_mem(&r, &g, o, false));
	EXPECT_EQ(2, func(&r, IRQ(4))->lat.count);
	tb_fdr_report_free(&r);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(.tid = TRACEBUF_FDR_IDLE_TID(1)),
			     false));
	EXPECT_EQ(1, func(&r, IRQ(4))->lat.count);
	EXPECT_EQ(21, func(&r, IRQ(4))->lat.total);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

TEST(records_going_back_in_time_are_ordered_first)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	size_t ext;

	/* Task 7's later block (CPU 1) comes first, as CPUs are drained. */
	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 7, 7, 1, 1000);
	gf_func(&g, TB_FDR_EXIT, SYS(1), 0);
	gf_func(&g, TB_FDR_ENTER, SYS(2), 10);
	gf_func(&g, TB_FDR_EXIT, SYS(2), 10);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 7, 7, 0, 500);
	gf_func(&g, TB_FDR_ENTER, SYS(1), 0);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_TRUE(r.tidied);
	EXPECT_EQ(1, func(&r, SYS(1))->lat.count);
	EXPECT_EQ(500, func(&r, SYS(1))->lat.total);
	EXPECT_EQ(0, func(&r, SYS(1))->no_entry);
	EXPECT_EQ(10, func(&r, SYS(2))->lat.total);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

TEST(folded_stacks_hold_self_time)
{
	struct tb_fdr_report_print p = { .input = "x" };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text = NULL;
	size_t len;
	FILE *out;

	demo_trace(&g, false);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), true));
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_report_print_folded(&r, &p, out));
	fclose(out);
	/* sys 39 lasted 200 of which its IRQ 20; no fault frames */
	EXPECT_NE(NULL, strstr(text, "?-10;syscall_0x27 180\n")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "?-10;syscall_0x27;irq_0x4 20\n"));
	EXPECT_NE(NULL, strstr(text, "?-11;syscall_0x27 2\n"));
	EXPECT_EQ(NULL, strstr(text, "fault"));
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * One function recursing 1,030 deep in task 2 (1 ns apart, every exit 1 ns
 * after the one before): the 1,024 outer calls keep their own exits --
 * entry i ends at 2059 - 2i ns after it began -- and the 6 deeper ones
 * are counted as nested too deep, neither timed nor taken for exits
 * without entry, while every entry is an event of the task.
 */
TEST(nesting_beyond_the_limit_is_counted_and_shifts_no_call)
{
	struct tb_fdr_report_print p = { .input = "x" };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	const struct tb_fdr_report_func *f;
	char *text = NULL;
	unsigned int i;
	size_t ext, len;
	FILE *out;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 2, 2, 0, 1000);
	for (i = 0; i < 1030; i++)
		gf_func(&g, TB_FDR_ENTER, SYS(2), i ? 1 : 0);
	for (i = 0; i < 1030; i++)
		gf_func(&g, TB_FDR_EXIT, SYS(2), 1);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	f = func(&r, SYS(2));
	ASSERT_NE(NULL, f);
	EXPECT_EQ(1024, f->lat.count);
	EXPECT_EQ(13, f->lat.min);
	EXPECT_EQ(2059, f->lat.max);
	EXPECT_EQ(1024 * 1036, f->lat.total);
	EXPECT_EQ(0, f->no_entry);
	EXPECT_EQ(0, f->no_exit);
	EXPECT_EQ(6, f->too_deep);
	EXPECT_EQ(6, r.too_deep);
	EXPECT_EQ(1030, r.events);
	ASSERT_EQ(1, r.ntasks);
	EXPECT_EQ(1030, r.tasks[0].count[0]);
	EXPECT_EQ(2059, r.tasks[0].time[0]);
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_report_print_json(&r, &p, out));
	fclose(out);
	EXPECT_NE(NULL, strstr(text, "\"entry_no_exit\": 0, \"too_deep\": 6,")) TH_LOG("%s", text);
	free(text);
	text = NULL;
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_report_print_text(&r, &p, out));
	fclose(out);
	EXPECT_NE(NULL, strstr(text, "6 calls nested deeper than 1024 levels")) TH_LOG("%s", text);
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * A capture whose task 7 must be put in order, and task 8 that need not:
 * ordering moves records, it adds and removes none.  Exits without entry
 * (sys 5 in task 7, sys 3 in task 8) stay counted as such, and a call
 * whose exit is lost (sys 7) is not closed by its caller's exit.
 */
TEST(ordering_a_capture_keeps_every_record)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	size_t ext;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 7, 7, 1, 1000);
	gf_func(&g, TB_FDR_EXIT, SYS(1), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(5), 10);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 8, 8, 1, 1100);
	gf_func(&g, TB_FDR_EXIT, SYS(3), 0);
	gf_func(&g, TB_FDR_ENTER, SYS(6), 10);
	gf_func(&g, TB_FDR_ENTER, SYS(7), 10);
	gf_func(&g, TB_FDR_EXIT, SYS(6), 10);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 7, 7, 0, 500);
	gf_func(&g, TB_FDR_ENTER, SYS(1), 0);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_TRUE(r.tidied);
	EXPECT_EQ(1, func(&r, SYS(1))->lat.count);
	EXPECT_EQ(500, func(&r, SYS(1))->lat.total);
	ASSERT_NE(NULL, func(&r, SYS(5)));
	EXPECT_EQ(1, func(&r, SYS(5))->no_entry);
	ASSERT_NE(NULL, func(&r, SYS(3)));
	EXPECT_EQ(1, func(&r, SYS(3))->no_entry);
	EXPECT_EQ(1, func(&r, SYS(6))->lat.count);
	EXPECT_EQ(20, func(&r, SYS(6))->lat.total);
	EXPECT_EQ(0, func(&r, SYS(7))->lat.count);
	EXPECT_EQ(1, func(&r, SYS(7))->no_exit);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * More marker texts than the report keeps by name: a 50-byte text twice
 * (kept, its name cut to 40 bytes), then 300 short ones of which 255
 * are kept.  Text and JSON account for all 302 events: the 45 others in
 * one bucket, the cut name said in both.
 */
TEST(markers_beyond_the_kept_texts_are_accounted_for)
{
	static const char longer[] =
		"0123456789abcdefghij0123456789ABCDEFGHIJ-the-rest";
	struct tb_fdr_report_print p = { .input = "x" };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text = NULL, m[8];
	unsigned int i;
	size_t ext, len;
	FILE *out;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 4, 4, 0, 1000);
	gf_custom(&g, 5, longer, sizeof(longer) - 1, 1, 0);
	gf_custom(&g, 5, longer, sizeof(longer) - 1, 1, 0);
	for (i = 0; i < 300; i++) {
		snprintf(m, sizeof(m), "m%03u", i);
		gf_custom(&g, 5, m, 4, 1, 0);
	}
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	EXPECT_EQ(302, r.events);
	EXPECT_EQ(256, r.nmarkers);
	EXPECT_EQ(45, r.markers_other);
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_report_print_json(&r, &p, out));
	fclose(out);
	EXPECT_NE(NULL, strstr(text, "\"markers_other\": 45")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "\"name\": \"0123456789abcdefghij0123456789ABCDEFGHIJ\", \"cut\": true, \"count\": 0, \"points\": 2"));
	EXPECT_NE(NULL, strstr(text, "\"name\": \"m000\", \"count\": 0, \"points\": 1"));
	free(text);
	text = NULL;
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_report_print_text(&r, &p, out));
	fclose(out);
	EXPECT_NE(NULL, strstr(text, "0123456789abcdefghij0123456789ABCDEFGHIJ...")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "(other texts)                      45"));
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * Faults and fork/exit are points, whole or with a half lost: task 6
 * has a fault exit whose entry is lost (at 0), a fault whose exit is lost
 * (10), a getpid (20-30), a whole fault (40) and a getpid (50-70).  Three
 * faults, and the getpids stay outermost: the task's time is 30.
 */
TEST(a_point_event_missing_a_half_is_still_a_point)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	const struct tb_fdr_report_func *f;
	size_t ext;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 6, 6, 0, 1000);
	gf_func(&g, TB_FDR_EXIT, FAULT_USER, 0);
	gf_func(&g, TB_FDR_ENTER_ARGS, FAULT_USER, 10);
	gf_arg(&g, 0x1000);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 10);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 10);
	gf_func(&g, TB_FDR_ENTER_ARGS, FAULT_USER, 10);
	gf_arg(&g, 0x2000);
	gf_func(&g, TB_FDR_EXIT, FAULT_USER, 0);
	gf_func(&g, TB_FDR_ENTER, SYS(39), 10);
	gf_func(&g, TB_FDR_EXIT, SYS(39), 20);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	f = func(&r, FAULT_USER);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(3, f->points);
	EXPECT_EQ(0, f->no_entry);
	EXPECT_EQ(0, f->no_exit);
	EXPECT_EQ(2, func(&r, SYS(39))->lat.count);
	ASSERT_EQ(1, r.ntasks);
	EXPECT_EQ(30, r.tasks[0].time[0]);
	EXPECT_EQ(2, r.tasks[0].count[0]);
	EXPECT_EQ(3, r.tasks[0].count[func(&r, FAULT_USER)->rc]);
	EXPECT_EQ(5, r.events);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * sys 1 (0-5000) calls sys 2 (1000-, its exit lost), which calls sys 3
 * (2000-3000): 5000 ns of stacks in all, sys 3's 1000 under sys 2.  The
 * task's command and a function name hold a ';', the folded format's
 * separator: written as ':'.
 */
TEST(folded_stacks_add_up_when_a_frame_never_exits)
{
	static const char comm[] = "tracebuf: comm a;b";
	struct tb_fdr_report_print p = { .input = "x" };
	static struct tb_task_map tasks;
	struct tb_name_map names = { 0 };
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	char *text = NULL;
	size_t ext, len;
	FILE *out, *f;

	ASSERT_EQ(0, tb_name_map_add(&names, SYS(1), "one;two"));
	ASSERT_EQ(0, tb_name_map_finish(&names, &err));
	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 9, 9, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(1), 0);
	gf_func(&g, TB_FDR_ENTER, SYS(2), 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(3), 1000);
	gf_func(&g, TB_FDR_EXIT, SYS(3), 1000);
	gf_func(&g, TB_FDR_EXIT, SYS(1), 2000);
	gf_custom(&g, 5, comm, sizeof(comm) - 1, 1, 0);
	gf_extents_end(&g, ext);
	f = fmemopen(g.p, g.n, "r");
	ASSERT_EQ(0, tb_fdr_report_run(&r, f, &names, &tasks,
				       &(struct tb_fdr_report_opts){
					.pid = TB_REPORT_NO_FILTER,
					.tid = TB_REPORT_NO_FILTER,
					.cpu = TB_REPORT_NO_FILTER,
					.top = 10 }, true, &err));
	fclose(f);
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_report_print_folded(&r, &p, out));
	fclose(out);
	EXPECT_NE(NULL, strstr(text, "a:b-9;one:two 4000\n")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "a:b-9;one:two;syscall_0x2;syscall_0x3 1000\n"));
	EXPECT_EQ(NULL, strstr(text, ";two"));
	free(text);
	tb_fdr_report_free(&r);
	tb_name_map_free(&names);
	gb_free(&g);
}

TEST(percentiles_exact_then_within_the_bound)
{
	struct tb_latency l = { 0 };
	uint64_t i, v;
	bool exact;

	for (i = 1; i <= TB_LATENCY_EXACT; i++)
		ASSERT_EQ(0, tb_latency_add(&l, i * 1000));
	EXPECT_EQ(2048000, tb_latency_percentile(&l, 50, &exact));
	EXPECT_TRUE(exact);
	/* rank ceil(0.99 * 4096) = 4056 */
	EXPECT_EQ(4056000, tb_latency_percentile(&l, 99, &exact));
	EXPECT_TRUE(exact);
	EXPECT_EQ(1000, tb_latency_percentile(&l, 0.001, &exact));
	for (; i <= 100000; i++)
		ASSERT_EQ(0, tb_latency_add(&l, i * 1000));
	v = tb_latency_percentile(&l, 90, &exact);
	EXPECT_FALSE(exact);
	/* exact: 90000000 */
	EXPECT_LE(v, 90000000 + 90000000ULL * TB_LATENCY_ERROR_PPM / 1000000);
	EXPECT_GE(v, 90000000 - 90000000ULL * TB_LATENCY_ERROR_PPM / 1000000);
	EXPECT_EQ(100000000, tb_latency_percentile(&l, 100, &exact));
	EXPECT_EQ(1000, l.min);
	EXPECT_EQ(100000, l.count);
	tb_latency_free(&l);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Exact percentiles whatever the samples: each of the nearest ranks of
 * 1..100% against the same samples sorted here by qsort(), for counts
 * on both sides of the short-array sort (64) up to TB_LATENCY_EXACT, and
 * values that differ in the low bytes only, in the high bytes only
 * (above 2^56), in every byte, all equal, or repeat.
 */
TEST(percentiles_exact_whatever_the_samples)
{
	static const size_t counts[] = { 2, 3, 63, 64, 65, 200, 1000, TB_LATENCY_EXACT };
	uint64_t *ref = malloc(TB_LATENCY_EXACT * sizeof(*ref)), x = 88172645463325252ULL;
	unsigned int kind, c, pct;
	size_t i;

	ASSERT_NE(NULL, ref);
	for (kind = 0; kind < 5; kind++) {
		for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			struct tb_latency l = { 0 };
			size_t n = counts[c];

			for (i = 0; i < n; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				ref[i] = kind == 0 ? 1000000 + (x & 0xffff) :
					 kind == 1 ? (x & 0xff00000000000000ULL) | 12345 :
					 kind == 2 ? x :
					 kind == 3 ? 777 : (x % 5) * 1000;
				ASSERT_EQ(0, tb_latency_add(&l, ref[i]));
			}
			qsort(ref, n, sizeof(*ref), u64_cmp);
			for (pct = 1; pct <= 100; pct++) {
				uint64_t rank = (n * pct + 99) / 100;
				bool exact;

				EXPECT_EQ(ref[rank - 1], tb_latency_percentile(&l, pct, &exact))
					TH_LOG("kind %u, %zu samples, p%u", kind, n, pct);
				EXPECT_TRUE(exact);
			}
			tb_latency_free(&l);
		}
	}
	free(ref);
}

/*
 * A histogram's rows hold the calls whose durations they name.  The clock
 * is demo.fdr's (2.596 GHz), so that a power of two of ticks is not one of
 * nanoseconds: durations of 1.2 ms (the demo's nanosleeps), 101 ms (its
 * poll), and one tick on either side of 2^20 and 2^21 ns.  Each call is
 * alone in its row or shares it with the calls of the same row only.
 */
TEST(histogram_rows_hold_the_calls_they_name)
{
	static const uint64_t ns[] = {
		1200000, 1200000, 101000000, 1048575, 1048576, 2097151, 2097152,
		999, 1000, 0,
	};
	const uint64_t hz = 2596000000ULL;
	uint64_t ticks[sizeof(ns) / sizeof(ns[0])];
	uint64_t want[TB_LATENCY_LOG2] = { 0 };
	struct gb g = { 0 };
	struct tb_fdr_report r;
	unsigned int i, k, rows = 0;
	char *text, line[128];
	size_t ext;

	gf_header(&g, 5, 1, 0);
	tb_bytes_put64(g.p + 8, hz);
	ext = gf_extents(&g, 0);
	block(&g, 3, 3, 0, 1000);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		/* the fewest ticks that read as at least ns[i] */
		ticks[i] = (ns[i] * hz + 999999999) / 1000000000;
		gf_func(&g, TB_FDR_ENTER, SYS(35), 10);
		gf_func(&g, TB_FDR_EXIT, SYS(35), (uint32_t)ticks[i]);
	}
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		uint64_t v = tb_fdr_report_ns(&r, ticks[i]);

		ASSERT_EQ(ns[i], v);
		want[v ? 64 - __builtin_clzll(v) : 0]++;
	}
	text = report_text(&r, 1);
	ASSERT_NE(NULL, text);
	for (k = 0; k < TB_LATENCY_LOG2; k++) {
		if (!want[k])
			continue;
		snprintf(line, sizeof(line), "%10llu -> %-8llu : %-9llu |",
			 k ? 1ULL << (k - 1) : 0ULL,
			 k ? (1ULL << k) - 1 : 0ULL,
			 (unsigned long long)want[k]);
		EXPECT_NE(NULL, strstr(text, line)) TH_LOG("no \"%s\" in\n%s",
							   line, text);
		rows++;
	}
	EXPECT_EQ(6, rows);
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * The bound the text prints for "~" percentiles holds where the
 * histogram errs most: 150,001 calls, the median's exact value on the
 * lower edge of a log-linear bucket (2^20 ticks, 1 GHz), which the
 * histogram answers with the bucket's middle, 1/256 above it.
 */
TEST(printed_percentile_bound_holds_on_a_bucket_edge)
{
	const uint64_t edge = 1ULL << 20, n = 150001;
	struct tb_fdr_report r;
	struct gb g = { 0 };
	const struct tb_fdr_report_func *f;
	double bound = 0, err;
	uint64_t i, v;
	char *text, *at;
	bool exact;
	size_t ext;

	gf_header(&g, 5, 1, 0);
	ext = gf_extents(&g, 0);
	block(&g, 3, 3, 0, 1000);
	for (i = 0; i < n; i++) {
		gf_func(&g, TB_FDR_ENTER, SYS(35), 10);
		gf_func(&g, TB_FDR_EXIT, SYS(35),
			(uint32_t)(i <= n / 2 ? edge : 2 * edge));
	}
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	f = func(&r, SYS(35));
	ASSERT_NE(NULL, f);
	ASSERT_EQ(n, f->lat.count);
	v = tb_latency_percentile((struct tb_latency *)&f->lat, 50, &exact);
	EXPECT_FALSE(exact);
	err = (double)(v > edge ? v - edge : edge - v) / (double)edge;
	EXPECT_EQ(1.0 / 256, err);
	EXPECT_LE(err * 1e6, TB_LATENCY_ERROR_PPM);
	text = report_text(&r, 0);
	ASSERT_NE(NULL, text);
	at = strstr(text, "within ");
	ASSERT_NE(NULL, at) TH_LOG("%s", text);
	bound = strtod(at + 7, NULL);
	EXPECT_LE(err * 100, bound) TH_LOG("printed: %.40s, error %.6f%%",
					   at, err * 100);
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

/*
 * A hostile clock: 1 tick per second, and a call of 2^50 ticks (its exit
 * in a later block), whose nanoseconds do not fit 64 bits: printed as
 * the largest value, in the histogram's last row, without a crash.
 */
TEST(nanoseconds_beyond_64_bits_saturate)
{
	struct gb g = { 0 };
	struct tb_fdr_report r;
	size_t ext;
	char *text;

	gf_header(&g, 5, 1, 0);
	tb_bytes_put64(g.p + 8, 1);
	ext = gf_extents(&g, 0);
	block(&g, 3, 3, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(35), 10);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 3, 3, 0, 1ULL << 50);
	gf_func(&g, TB_FDR_EXIT, SYS(35), 10);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_mem(&r, &g, OPTS(), false));
	ASSERT_EQ(1, func(&r, SYS(35))->lat.count);
	EXPECT_EQ(UINT64_MAX, tb_fdr_report_ns(&r, func(&r, SYS(35))->lat.max));
	EXPECT_EQ(1, func(&r, SYS(35))->log2_ns[64]);
	text = report_text(&r, 1);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "9223372036854775808 -> 18446744073709551615 : 1 "))
		TH_LOG("%s", text);
	free(text);
	tb_fdr_report_free(&r);
	gb_free(&g);
}

static const char *tool(void)
{
	return "../../build/userspace/tracebuf";
}

TEST(command_line)
{
	char *dir = tu_tmpdir(), path[512], *out;
	struct gb g = { 0 };
	int st;

	demo_trace(&g, false);
	snprintf(path, sizeof(path), "%s/t.fdr", dir);
	ASSERT_EQ(0, gb_write(&g, path));
	out = tu_run(&st, "%s report %s", tool(), path);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "syscall_0x27")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "EXIT-NO-ENTRY"));
	free(out);
	out = tu_run(&st, "%s report --json %s", tool(), path);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "\"total_ns\": 202")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "cat %s | %s report --time 0.05us,0.16us - ", path,
		     tool());
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s report --class bogus %s", tool(), path);
	EXPECT_EQ(2, st);
	EXPECT_NE(NULL, strstr(out, "unknown class 'bogus'"));
	free(out);
	out = tu_run(&st, "%s report --time 5 %s", tool(), path);
	EXPECT_EQ(2, st);
	free(out);
	out = tu_run(&st, "%s report --before 10 %s", tool(), path);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "no trigger")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s report %s/none.fdr", tool(), dir);
	EXPECT_EQ(1, st);
	free(out);
	out = tu_run(&st, "head -c 20 %s | %s report -", path, tool());
	EXPECT_EQ(3, st) TH_LOG("%s", out);
	free(out);
	gb_free(&g);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
