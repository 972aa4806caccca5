// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf top's interval summary (lib/convert/fdr_top.c): a generated
 * device stream cut into two intervals as the mapped reader drains it,
 * a call open across the cut counted where it ends, the intervals'
 * counts against the report of the whole stream, the sort keys, an
 * interval with nothing but the header, and the printing; the scheduler
 * lines: run-queue delays whose wake-up and switch-in are read in
 * different intervals, against the report of the whole stream and
 * against numbers worked out by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "convert/fdr_top.h"
#include "convert/fdr_top_print.h"
#include "tb_gen.h"
#include "util/bytes.h"

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

/* --------------------------------------------------- the scheduler lines */

#define IDLE0		TRACEBUF_FDR_IDLE_TID(0)
#define ST_R		TRACEBUF_FDR_STATE_RUNNING
#define ST_S		TRACEBUF_FDR_STATE_SLEEPING

/* A block's records, their times as deltas from the one before. */
struct sblock {
	struct gb *g;
	size_t ext;
	uint64_t last;
};

static void s_open(struct sblock *b, struct gb *g, int32_t tid, uint16_t cpu,
		   uint64_t tsc)
{
	b->g = g;
	b->ext = block(g, tid, cpu, tsc);
	b->last = tsc;
}

static int32_t s_delta(struct sblock *b, uint64_t tsc)
{
	int32_t d = (int32_t)(tsc - b->last);

	b->last = tsc;
	return d;
}

static void s_switch(struct sblock *b, uint64_t tsc, int32_t prev,
		     int32_t next, uint8_t state)
{
	uint8_t p[TRACEBUF_FDR_SWITCH_SIZE] = { 0 };

	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_PREV_TID, (uint32_t)prev);
	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_NEXT_TID, (uint32_t)next);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_PREV_PRIO, 120);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_NEXT_PRIO, 120);
	p[TRACEBUF_FDR_SWITCH_PREV_STATE] = state;
	gf_typed(b->g, p, sizeof(p), s_delta(b, tsc),
		 TRACEBUF_FDR_TYPED_SWITCH);
}

static void s_wakeup(struct sblock *b, uint64_t tsc, int32_t tid)
{
	uint8_t p[TRACEBUF_FDR_WAKEUP_SIZE] = { 0 };

	tb_bytes_put32(p + TRACEBUF_FDR_WAKEUP_TID, (uint32_t)tid);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_PRIO, 120);
	gf_typed(b->g, p, sizeof(p), s_delta(b, tsc),
		 TRACEBUF_FDR_TYPED_WAKEUP);
}

/* Round k (1..101) begins at R(k); its task, 101..104, waits 10 k ns. */
#define R(k)		(10000ULL * (k))
#define RTID(k)		(101 + (int32_t)((k) % 4))
#define U		(R(101) + 5000)	/* round 101's task switched in */

/*
 * CPU 1 (task 50's block) wakes a task each round; CPU 0 (its idle
 * task's block) switches it in 10 k ns later and out to sleep 2000 ns
 * after that.  Interval 1: rounds 1..100 whole, and round 101's wake-up
 * of task 102, whose switch-in, 5000 ns later, is read in interval 2.
 * Interval 2: task 102 runs 100 ns and is preempted by task 200 (never
 * woken in the trace: no delay); interval 3: task 200 sleeps and 102
 * comes back, 700 ns after its preemption, and sleeps.
 */
static void sched_interval(struct gb *g, int which, bool header)
{
	struct sblock cpu0, cpu1;
	unsigned int k;

	if (header)
		gf_header(g, 5, 1, 0);
	if (which == 1) {
		s_open(&cpu1, g, 50, 1, R(1));
		for (k = 1; k <= 101; k++)
			s_wakeup(&cpu1, R(k), RTID(k));
		gf_extents_end(g, cpu1.ext);
		s_open(&cpu0, g, IDLE0, 0, R(1));
		for (k = 1; k <= 100; k++) {
			s_switch(&cpu0, R(k) + 10 * k, IDLE0, RTID(k), ST_R);
			s_switch(&cpu0, R(k) + 10 * k + 2000, RTID(k), IDLE0,
				 ST_S);
		}
		gf_extents_end(g, cpu0.ext);
	} else if (which == 2) {
		s_open(&cpu0, g, IDLE0, 0, U);
		s_switch(&cpu0, U, IDLE0, 102, ST_R);
		s_switch(&cpu0, U + 100, 102, 200, ST_R);
		gf_extents_end(g, cpu0.ext);
	} else {
		s_open(&cpu0, g, IDLE0, 0, U + 800);
		s_switch(&cpu0, U + 800, 200, 102, ST_S);
		s_switch(&cpu0, U + 900, 102, IDLE0, ST_S);
		gf_extents_end(g, cpu0.ext);
	}
}

static int run_carry(struct tb_fdr_top *t, const struct gb *g,
		     struct tb_fdr_report_sched_carry *carry)
{
	struct tb_fdr_report_opts o = opts();
	struct tb_error err = { 0 };
	int ret;

	o.sched_carry = carry;
	ret = tb_fdr_top_run(t, g->p, g->n, NULL, &no_tasks, &o,
			     TB_FDR_TOP_TOTAL, &err);
	if (ret)
		fprintf(stderr, "top: %d %s\n", ret, err.msg);
	return ret;
}

TEST(run_queue_delays_across_the_cuts_add_up_to_the_whole_report)
{
	struct tb_fdr_report_sched_carry carry = { 0 };
	struct tb_fdr_report_opts o = opts();
	struct gb g[3] = { 0 }, all = { 0 };
	struct tb_error err = { 0 };
	const struct tb_fdr_top_sched *s;
	struct tb_fdr_report r;
	struct tb_fdr_top t[3];
	uint64_t count = 0, total = 0;
	unsigned int i;
	FILE *f;

	for (i = 0; i < 3; i++) {
		sched_interval(&g[i], (int)i + 1, true);
		sched_interval(&all, (int)i + 1, !i);
		ASSERT_EQ(0, run_carry(&t[i], &g[i], &carry));
		ASSERT_TRUE(t[i].sched.present);
		count += t[i].sched.count;
		total += t[i].sched.total;
	}
	f = fmemopen(all.p, all.n, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_report_run(&r, f, NULL, &no_tasks, &o, false,
				       &err));
	fclose(f);
	/* 100 rounds, round 101's wait and the preempted one's */
	EXPECT_EQ(102, r.sched.all.count);
	EXPECT_EQ(r.sched.all.count, count);
	/* 1 GHz: ticks are ns; 10 * (1 + ... + 100) + 5000 + 700 */
	EXPECT_EQ(56200, r.sched.all.total);
	EXPECT_EQ(r.sched.all.total, total);

	/*
	 * Interval 1 by hand: waits of 10, 20, ... 1000 ns.  Nearest rank:
	 * p50 the 50th, 500 ns; p99 the 99th, 990 ns; max 1000 ns.
	 */
	s = &t[0].sched;
	EXPECT_EQ(101, s->wakeups);
	EXPECT_EQ(200, s->switches);
	EXPECT_EQ(100, s->count);
	EXPECT_EQ(500, s->p50);
	EXPECT_EQ(990, s->p99);
	EXPECT_EQ(1000, s->max);
	EXPECT_EQ(50500, s->total);
	EXPECT_EQ(0, s->carried);
	EXPECT_EQ(1, s->waiting);	/* round 101's task 102 */
	/*
	 * Longest waits first (sorted by total): task 101 waited in rounds
	 * 4, 8, ... 100: 10 * 4 * (1 + ... + 25) = 13000 ns, its p99 (the
	 * 25th of 25) and max 1000; then 104 (3, 7, ... 99: 12750, max
	 * 990), 103 (12500), 102 (1, 5, ... 97: 12250).
	 */
	ASSERT_EQ(4, s->ntasks);
	EXPECT_EQ(101, s->tasks[0].task->tid);
	EXPECT_EQ(25, s->tasks[0].count);
	EXPECT_EQ(13000, s->tasks[0].total);
	EXPECT_EQ(1000, s->tasks[0].p99);
	EXPECT_EQ(1000, s->tasks[0].max);
	EXPECT_EQ(104, s->tasks[1].task->tid);
	EXPECT_EQ(12750, s->tasks[1].total);
	EXPECT_EQ(990, s->tasks[1].max);
	EXPECT_EQ(103, s->tasks[2].task->tid);
	EXPECT_EQ(12500, s->tasks[2].total);
	EXPECT_EQ(102, s->tasks[3].task->tid);
	EXPECT_EQ(12250, s->tasks[3].total);
	/*
	 * Asleep between two of its rounds, 4 apart: 40000 + 40 - 2000 ns,
	 * 24 times for each of the 4 tasks; nothing else off a CPU.
	 */
	EXPECT_EQ(4 * 24 * 38040ULL, s->off[ST_S]);
	EXPECT_EQ(0, s->off[ST_R]);

	/* Interval 2: the carried wake-up's 5000 ns; 102 preempted. */
	s = &t[1].sched;
	EXPECT_EQ(1, s->carried);
	EXPECT_EQ(1, s->count);
	EXPECT_EQ(5000, s->max);
	EXPECT_EQ(1, s->waiting);
	/* Interval 3: 700 ns from the preemption to its switch-in. */
	s = &t[2].sched;
	EXPECT_EQ(1, s->carried);
	EXPECT_EQ(1, s->count);
	EXPECT_EQ(700, s->p99);
	EXPECT_EQ(0, s->waiting);
	EXPECT_EQ(0, carry.nev);

	tb_fdr_report_free(&r);
	for (i = 0; i < 3; i++) {
		tb_fdr_top_free(&t[i]);
		gb_free(&g[i]);
	}
	gb_free(&all);
	tb_fdr_report_sched_carry_free(&carry);
}

/*
 * Without carrying (a caller that does not ask for it), a wait is
 * counted only where both its ends are read: 100 + 0 + 0, and the next
 * interval's switch-in is no wait at all.
 */
TEST(without_carry_a_wait_across_a_cut_is_not_counted)
{
	struct gb g1 = { 0 }, g2 = { 0 };
	struct tb_fdr_top t1, t2;

	sched_interval(&g1, 1, true);
	sched_interval(&g2, 2, true);
	ASSERT_EQ(0, run_carry(&t1, &g1, NULL));
	ASSERT_EQ(0, run_carry(&t2, &g2, NULL));
	EXPECT_EQ(100, t1.sched.count);
	EXPECT_EQ(0, t2.sched.count);
	EXPECT_EQ(0, t2.sched.carried);
	tb_fdr_top_free(&t1);
	tb_fdr_top_free(&t2);
	gb_free(&g1);
	gb_free(&g2);
}

/*
 * A hostile order (a CPU's page read late, a clock stepped back): the
 * carried wake-up is later than the next interval's switch-in.  No
 * negative (huge) wait: the switch-in comes first in the walk, the task
 * waits on, and is carried again.
 */
TEST(a_carried_wake_up_after_the_switch_in_is_no_negative_wait)
{
	struct tb_fdr_report_sched_carry carry = { 0 };
	struct gb g = { 0 };
	struct tb_fdr_top t;

	carry.ev = calloc(1, sizeof(*carry.ev));
	ASSERT_NE(NULL, carry.ev);
	carry.ev[0] = (struct tb_fdr_report_sched_ev){
		.tsc = U + 1000000, .tid = 102, .prev = -1, .pid = -1,
		.wakeup = 1,
	};
	carry.nev = carry.cap = 1;
	/* 102 switched in at U + 800, out to sleep at U + 900 */
	sched_interval(&g, 3, true);
	ASSERT_EQ(0, run_carry(&t, &g, &carry));
	EXPECT_EQ(0, t.sched.count);
	EXPECT_EQ(1, t.sched.carried);
	EXPECT_EQ(1, t.sched.waiting);
	EXPECT_EQ(0, t.sched.max);
	ASSERT_EQ(1, carry.nev);
	EXPECT_EQ(U + 1000000, carry.ev[0].tsc);
	tb_fdr_top_free(&t);
	tb_fdr_report_sched_carry_free(&carry);
	gb_free(&g);
}

/*
 * SWITCH and WAKEUP payloads too short to read (a damaged stream): left
 * out and said, as the report says them, not an interval without
 * scheduler lines nor a wait made of garbage.
 */
TEST(short_switches_are_said_not_read)
{
	uint8_t junk[4] = { 1, 2, 3, 4 };
	struct gb g = { 0 };
	struct tb_fdr_top t;
	size_t ext;
	char *s;

	gf_header(&g, 5, 1, 0);
	ext = block(&g, 10, 0, 1000);
	gf_typed(&g, junk, sizeof(junk), 0, TRACEBUF_FDR_TYPED_SWITCH);
	gf_typed(&g, junk, sizeof(junk), 5, TRACEBUF_FDR_TYPED_WAKEUP);
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, run_carry(&t, &g, NULL));
	EXPECT_TRUE(t.sched.present);
	EXPECT_EQ(2, t.sched.malformed);
	EXPECT_EQ(0, t.sched.switches);
	EXPECT_EQ(0, t.sched.count);
	EXPECT_EQ(0, t.sched.ntasks);
	s = print(&t, false);
	EXPECT_NE(NULL, strstr(s, "run queue: 0 delays; 0 switches, 0 wake-ups, 0 waits carried in, 0 still waiting; 2 switch or wake-up events too short to read\noff cpu: -\n"))
		TH_LOG("%s", s);
	free(s);
	tb_fdr_top_free(&t);
	gb_free(&g);
}

TEST(the_scheduler_lines_printed)
{
	struct tb_fdr_report_sched_carry carry = { 0 };
	struct gb g = { 0 };
	struct tb_fdr_top t;
	char *s;

	/* No switch or wake-up: no scheduler lines, no "sched" object. */
	interval(&g, 2, true);
	ASSERT_EQ(0, run(&t, &g, TB_FDR_TOP_COUNT));
	EXPECT_FALSE(t.sched.present);
	s = print(&t, false);
	EXPECT_EQ(NULL, strstr(s, "run queue")) TH_LOG("%s", s);
	free(s);
	s = print(&t, true);
	EXPECT_EQ(NULL, strstr(s, "sched")) TH_LOG("%s", s);
	free(s);
	tb_fdr_top_free(&t);
	gb_free(&g);

	sched_interval(&g, 1, true);
	ASSERT_EQ(0, run_carry(&t, &g, &carry));
	s = print(&t, false);
	EXPECT_NE(NULL, strstr(s, "\nrun queue: 100 delays, p50 500 ns, p99 990 ns, max 1.00 us, total 50.5 us; 200 switches, 101 wake-ups, 0 waits carried in, 1 still waiting\noff cpu: S 3.65 ms\n"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "     TID      PID COMM                 WAITS     WAITED        P99        MAX\n     101        0 ?                       25    13.0 us    1.00 us    1.00 us\n(3 more tasks waited)\n"))
		TH_LOG("%s", s);
	free(s);
	s = print(&t, true);
	/* The keys before it unchanged, "sched" last. */
	EXPECT_NE(NULL, strstr(s, "\"names\": [], \"tasks\": [], \"sched\": {\"switches\": 200, \"wakeups\": 101, \"malformed\": 0, \"carried\": 0, \"waiting\": 1, \"runq\": {\"count\": 100, \"total_ns\": 50500, \"p50_ns\": 500, \"p99_ns\": 990, \"max_ns\": 1000}, \"off_ns\": {\"S\": 3651840}, \"tasks\": [{\"tid\": 101, \"pid\": 0, \"comm\": \"?\", \"waits\": 25, \"total_ns\": 13000, \"p99_ns\": 1000, \"max_ns\": 1000}, "))
		TH_LOG("%s", s);
	EXPECT_EQ(s + strlen(s) - 3, strstr(s, "}}\n")) TH_LOG("%s", s);
	free(s);
	tb_fdr_top_free(&t);
	tb_fdr_report_sched_carry_free(&carry);
	gb_free(&g);
}

TEST_HARNESS_MAIN
