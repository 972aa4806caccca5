// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf script (convert/fdr_script.c over convert/fdr_merge.c): the
 * exact lines of generated traces, their order across tasks and CPUs,
 * durations, filters, wall clock, idle tasks, markers and loss reports;
 * batches refilled mid-block; a clock that steps back; every FDR
 * version; and, independently of our reader, the order and count of the
 * demo trace's events against llvm-xray convert -f yaml.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "convert/fdr_timeline.h"
#include "convert/fdr_report_class.h"
#include "convert/fdr_script.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define SYS(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)
#define IRQ(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, nr)
#define SOFTIRQ(nr)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, nr)
#define FAULT_USER	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 0)
#define IDLE1		TRACEBUF_FDR_IDLE_TID(1)

static void block(struct gb *g, int32_t tid, int32_t pid, uint16_t cpu,
		  uint64_t tsc)
{
	gf_new_buffer(g, tid);
	gf_wallclock(g, 100, 500);
	gf_pid(g, pid);
	gf_cpu(g, cpu, tsc);
}

/*
 * Two tasks on two CPUs interleaved in time, and CPU 1's idle task; the
 * clock is 1 GHz (gf_header), so ticks are nanoseconds:
 *
 *   task 10 (CPU 0): syscall 0 from 1000 to 3000, marker "hello" at
 *     5000, a user fault at 0x7f0012345000 at 6000;
 *   task 11 (CPU 1): IRQ 4 from 2000 to 2500, syscall 1's exit at 4500
 *     (its entry before the capture), loss report at 4600, syscall 2
 *     with arguments 3 and 0x10 from 7000 to 7250;
 *   idle (CPU 1): softirq 9 from 3500 to 3600.
 */
static void two_tasks(struct gb *g)
{
	static const char lost[] = TRACEBUF_FDR_LOST_PREFIX "7 events";
	size_t ext;

	gf_header(g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(g, 0);
	block(g, 10, 10, 0, 1000);
	gf_func(g, TB_FDR_ENTER, SYS(0), 0);
	gf_func(g, TB_FDR_EXIT, SYS(0), 2000);
	gf_custom(g, 5, "hello", 5, 2000, 0);
	gf_func(g, TB_FDR_ENTER_ARGS, FAULT_USER, 1000);
	gf_arg(g, 0x7f0012345000ULL);
	gf_func(g, TB_FDR_EXIT, FAULT_USER, 0);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, 11, 11, 1, 2000);
	gf_func(g, TB_FDR_ENTER, IRQ(4), 0);
	gf_func(g, TB_FDR_EXIT, IRQ(4), 500);
	gf_func(g, TB_FDR_EXIT, SYS(1), 2000);
	gf_custom(g, 5, lost, (int32_t)strlen(lost), 100, 0);
	gf_func(g, TB_FDR_ENTER_ARGS, SYS(2), 2400);
	gf_arg(g, 3);
	gf_arg(g, 0x10);
	gf_func(g, TB_FDR_EXIT, SYS(2), 250);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, IDLE1, 0, 1, 3500);
	gf_func(g, TB_FDR_ENTER, SOFTIRQ(9), 0);
	gf_func(g, TB_FDR_EXIT, SOFTIRQ(9), 100);
	gf_extents_end(g, ext);
}

static struct tb_fdr_script_opts no_filter(void)
{
	struct tb_fdr_script_opts o = { 0 };

	o.filter.pid = TB_REPORT_NO_FILTER;
	o.filter.tid = TB_REPORT_NO_FILTER;
	o.filter.cpu = TB_REPORT_NO_FILTER;
	return o;
}

/* List @g with @o; returns the text (NULL on error, @err set). */
static char *list(const struct gb *g, const struct tb_fdr_script_opts *o,
		  struct tb_fdr_script_stats *st, struct tb_error *err)
{
	struct tb_name_map names = { 0 };
	struct tb_task_map tasks;
	FILE *in = tmpfile(), *out;
	char *text = NULL;
	size_t len;
	int ret;

	if (!in)
		return NULL;
	if (g->n && fwrite(g->p, 1, g->n, in) != g->n)
		return NULL;
	fflush(in);
	tb_task_map_init(&tasks);
	tb_task_map_set(&tasks, 10, 10, "alpha");
	tb_task_map_set(&tasks, 11, 11, "beta");
	out = open_memstream(&text, &len);
	ret = tb_fdr_script_run(fileno(in), out, &names, &tasks, o, st, err);
	fclose(out);
	fclose(in);
	tb_task_map_free(&tasks);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}

static const char want_all[] =
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"            beta      11 [001]     0.000001: irq:irq_0x4 enter irq=4\n"
"            beta      11 [001]     0.000001: irq:irq_0x4 exit dur=0.500us\n"
"           alpha      10 [000]     0.000002: syscall:syscall_0x0 exit dur=2.000us\n"
"       swapper/1       0 [001]     0.000002: softirq:softirq_0x9 enter vec=9\n"
"       swapper/1       0 [001]     0.000002: softirq:softirq_0x9 exit dur=0.100us\n"
"            beta      11 [001]     0.000003: syscall:syscall_0x1 exit (entry not in the trace)\n"
"            beta      11 [001]     0.000003: lost: 7 events (the recorder dropped them here)\n"
"           alpha      10 [000]     0.000004: marker: hello\n"
"           alpha      10 [000]     0.000005: fault:fault_0x0 address=0x7f0012345000\n"
"            beta      11 [001]     0.000006: syscall:syscall_0x2 enter arg0=0x3 arg1=0x10\n"
"            beta      11 [001]     0.000006: syscall:syscall_0x2 exit dur=0.250us\n";

TEST(lines_in_time_order_across_tasks_and_cpus)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text;

	two_tasks(&g);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(want_all, text);
	EXPECT_EQ(12, st.lines);
	EXPECT_EQ(3, st.blocks);
	EXPECT_EQ(0, st.backwards);
	free(text);
	gb_free(&g);
}

/* The lines of want_all that contain every one of @needles ("|" apart). */
static void check_filter(struct __test_metadata *_metadata,
			 const struct tb_fdr_script_opts *o, const char *want)
{
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text;

	two_tasks(&g);
	text = list(&g, o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(want, text);
	free(text);
	gb_free(&g);
}

TEST(filters_are_reports)
{
	struct tb_fdr_script_opts o;

	o = no_filter();
	o.filter.pid = 11;
	check_filter(_metadata, &o,
"            beta      11 [001]     0.000001: irq:irq_0x4 enter irq=4\n"
"            beta      11 [001]     0.000001: irq:irq_0x4 exit dur=0.500us\n"
"            beta      11 [001]     0.000003: syscall:syscall_0x1 exit (entry not in the trace)\n"
"            beta      11 [001]     0.000003: lost: 7 events (the recorder dropped them here)\n"
"            beta      11 [001]     0.000006: syscall:syscall_0x2 enter arg0=0x3 arg1=0x10\n"
"            beta      11 [001]     0.000006: syscall:syscall_0x2 exit dur=0.250us\n");

	/* --tid 0: the idle tasks, as shown. */
	o = no_filter();
	o.filter.tid = 0;
	check_filter(_metadata, &o,
"       swapper/1       0 [001]     0.000002: softirq:softirq_0x9 enter vec=9\n"
"       swapper/1       0 [001]     0.000002: softirq:softirq_0x9 exit dur=0.100us\n"
"            beta      11 [001]     0.000003: lost: 7 events (the recorder dropped them here)\n");

	o = no_filter();
	o.filter.cpu = 0;
	check_filter(_metadata, &o,
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000002: syscall:syscall_0x0 exit dur=2.000us\n"
"           alpha      10 [000]     0.000004: marker: hello\n"
"           alpha      10 [000]     0.000005: fault:fault_0x0 address=0x7f0012345000\n");

	/* -e fault,marker; the durations stay those of all the calls. */
	o = no_filter();
	o.filter.classes = 1U << 4 | 1U << 6;
	check_filter(_metadata, &o,
"            beta      11 [001]     0.000003: lost: 7 events (the recorder dropped them here)\n"
"           alpha      10 [000]     0.000004: marker: hello\n"
"           alpha      10 [000]     0.000005: fault:fault_0x0 address=0x7f0012345000\n");

	o = no_filter();
	o.filter.name = "syscall_0x[02]";
	check_filter(_metadata, &o,
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000002: syscall:syscall_0x0 exit dur=2.000us\n"
"            beta      11 [001]     0.000003: lost: 7 events (the recorder dropped them here)\n"
"            beta      11 [001]     0.000006: syscall:syscall_0x2 enter arg0=0x3 arg1=0x10\n"
"            beta      11 [001]     0.000006: syscall:syscall_0x2 exit dur=0.250us\n");

	/* --time 2us,4us: from the first event (1000 ns), both ends in. */
	o = no_filter();
	o.filter.from_ns = 2000;
	o.filter.to_ns = 4000;
	check_filter(_metadata, &o,
"           alpha      10 [000]     0.000002: syscall:syscall_0x0 exit dur=2.000us\n"
"       swapper/1       0 [001]     0.000002: softirq:softirq_0x9 enter vec=9\n"
"       swapper/1       0 [001]     0.000002: softirq:softirq_0x9 exit dur=0.100us\n"
"            beta      11 [001]     0.000003: syscall:syscall_0x1 exit (entry not in the trace)\n"
"            beta      11 [001]     0.000003: lost: 7 events (the recorder dropped them here)\n"
"           alpha      10 [000]     0.000004: marker: hello\n");
}

TEST(wallclock_and_before)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text, *nl;

	two_tasks(&g);
	/* The block that starts first says 100 s 500 us at 1000 ns. */
	o.wallclock = true;
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	nl = strchr(text, '\n');
	ASSERT_NE(NULL, nl);
	*nl = '\0';
	EXPECT_STREQ("           alpha      10 [000]   100.000500: syscall:syscall_0x0 enter",
		     text);
	EXPECT_NE(NULL, strstr(nl + 1, "   100.000506: syscall:syscall_0x2 exit"));
	free(text);

	/* --before needs a trigger: said, not an empty listing. */
	o = no_filter();
	o.filter.before_ns = 1000000;
	EXPECT_EQ(NULL, list(&g, &o, &st, &err));
	EXPECT_NE(NULL, strstr(err.msg, "no trigger or panic event")) TH_LOG("%s", err.msg);
	gb_free(&g);
}

/*
 * Two tasks of N calls each, alternating on two CPUs: every line's
 * neighbour is in the other block, so each batch of TB_FDR_TIMELINE_BATCH
 * events is refilled from the middle of its block many times over.
 */
TEST(batches_resume_mid_block)
{
	enum { N = 5 * TB_FDR_TIMELINE_BATCH + 7 };
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text, *line, *save = NULL;
	unsigned int i, t, n = 0, bad = 0;
	double last = -1;

	gf_header(&g, 5, TB_FDR_TYPE_FDR, 0);
	for (t = 0; t < 2; t++) {
		size_t ext = gf_extents(&g, 0);

		block(&g, 10 + (int32_t)t, 10 + (int32_t)t, (uint16_t)t,
		      1000 + 500 * t);
		for (i = 0; i < N; i++) {
			/* A 3 us call each 2 us, arguments on every 3rd. */
			if (i % 3) {
				gf_func(&g, TB_FDR_ENTER, SYS(t), i ? 1000 : 0);
			} else {
				gf_func(&g, TB_FDR_ENTER_ARGS, SYS(t),
					i ? 1000 : 0);
				gf_arg(&g, i);
			}
			gf_func(&g, TB_FDR_EXIT, SYS(t), 1000);
		}
		gf_extents_end(&g, ext);
	}
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		double when = strtod(line + 31, NULL);
		const char *want = n % 4 == 0 || n % 4 == 1 ? " enter" : " exit";

		/* alpha enter, beta enter, alpha exit, beta exit, ... */
		if (when < last || !strstr(line, want) ||
		    !strstr(line, n % 2 ? "beta" : "alpha") ||
		    (strstr(line, " exit") && !strstr(line, "dur=1.000us")))
			bad++;
		if (strstr(line, " enter") && (n / 4) % 3 == 0) {
			char arg[32];

			snprintf(arg, sizeof(arg), "arg0=%#x", n / 4);
			if (n / 4 && !strstr(line, arg))
				bad++;
		}
		if (bad == 1)
			TH_LOG("line %u: %s", n, line);
		last = when;
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(4 * N, n);
	EXPECT_EQ(4 * N, st.events);
	EXPECT_EQ(2, st.open_max);
	free(text);
	gb_free(&g);
}

/* ---- typed events (uapi/linux/tracebuf_fdr.h, "typed events") ---- */

#define IDLE0		TRACEBUF_FDR_IDLE_TID(0)

static void typed_switch(struct gb *g, int32_t delta, int32_t prev,
			 int32_t next, int16_t prev_prio, int16_t next_prio,
			 uint8_t state)
{
	uint8_t p[TRACEBUF_FDR_SWITCH_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_PREV_TID, (uint32_t)prev);
	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_NEXT_TID, (uint32_t)next);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_PREV_PRIO, (uint16_t)prev_prio);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_NEXT_PRIO, (uint16_t)next_prio);
	p[TRACEBUF_FDR_SWITCH_PREV_STATE] = state;
	gf_typed(g, p, sizeof(p), delta, TRACEBUF_FDR_TYPED_SWITCH);
}

static void typed_wakeup(struct gb *g, int32_t delta, int32_t tid,
			 uint16_t cpu, int16_t prio, uint8_t flags)
{
	uint8_t p[TRACEBUF_FDR_WAKEUP_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_WAKEUP_TID, (uint32_t)tid);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_CPU, cpu);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_PRIO, (uint16_t)prio);
	p[TRACEBUF_FDR_WAKEUP_FLAGS] = flags;
	gf_typed(g, p, sizeof(p), delta, TRACEBUF_FDR_TYPED_WAKEUP);
}

static void typed_ret(struct gb *g, int32_t delta, uint32_t id, int64_t v)
{
	uint8_t p[TRACEBUF_FDR_RET_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_RET_ID, id);
	tb_bytes_put64(p + TRACEBUF_FDR_RET_VALUE, (uint64_t)v);
	gf_typed(g, p, sizeof(p), delta, TRACEBUF_FDR_TYPED_RET);
}

/*
 * Switches, wake-ups and return values, ticks in ns:
 *
 *   the trace's description (META thread) at 500, before every event;
 *   task 10 (CPU 0): syscall 0 from 1000 to 2000 returning -ENOENT,
 *     again from 2100 to 2200 with no RET, wakes task 11 for CPU 1 at
 *     2300, a RET of syscall 5 at 2400 after no exit of it, then sleeps:
 *     CPU 0's idle task comes in at 3000 (a switch with a payload grown
 *     by 3 bytes, as a later recorder may write);
 *   idle (CPU 1) from 1500, then task 11 at 2500 (idle preempted...
 *     state R), syscall 1 from 2600 to 2700 returning -EAGAIN, a
 *     sched_wakeup_new of task 12 for CPU 0 at 2800;
 *   task 11 again (CPU 1, a block of its own) at 4000: a RET first in
 *     its block, then a switch too short to decode at 4100.
 */
static void sched_trace(struct gb *g)
{
	static const char capture[] = "clock tsc\n";
	uint8_t longer[TRACEBUF_FDR_SWITCH_SIZE + 3] = { 0 };
	size_t ext;

	gf_header(g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(g, 0);
	block(g, TRACEBUF_FDR_META_TID, 0, 0, 500);
	gf_typed(g, capture, sizeof(capture) - 1, 0,
		 TRACEBUF_FDR_TYPED_META_CAPTURE);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, 10, 10, 0, 1000);
	gf_func(g, TB_FDR_ENTER, SYS(0), 0);
	gf_func(g, TB_FDR_EXIT, SYS(0), 1000);
	typed_ret(g, 0, SYS(0), -2);
	gf_func(g, TB_FDR_ENTER, SYS(0), 100);
	gf_func(g, TB_FDR_EXIT, SYS(0), 100);
	typed_wakeup(g, 100, 11, 1, 120, 0);
	typed_ret(g, 100, SYS(5), -13);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, IDLE0, 0, 0, 3000);
	tb_bytes_put32(longer + TRACEBUF_FDR_SWITCH_PREV_TID, 10);
	tb_bytes_put32(longer + TRACEBUF_FDR_SWITCH_NEXT_TID, (uint32_t)IDLE0);
	tb_bytes_put16(longer + TRACEBUF_FDR_SWITCH_PREV_PRIO, 120);
	tb_bytes_put16(longer + TRACEBUF_FDR_SWITCH_NEXT_PRIO, 120);
	longer[TRACEBUF_FDR_SWITCH_PREV_STATE] = TRACEBUF_FDR_STATE_SLEEPING;
	gf_typed(g, longer, sizeof(longer), 0, TRACEBUF_FDR_TYPED_SWITCH);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, IDLE1, 0, 1, 1500);
	gf_func(g, TB_FDR_ENTER, SOFTIRQ(9), 0);
	gf_func(g, TB_FDR_EXIT, SOFTIRQ(9), 100);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, 11, 11, 1, 2500);
	typed_switch(g, 0, IDLE1, 11, 120, 120, TRACEBUF_FDR_STATE_RUNNING);
	gf_func(g, TB_FDR_ENTER, SYS(1), 100);
	gf_func(g, TB_FDR_EXIT, SYS(1), 100);
	typed_ret(g, 0, SYS(1), -11);
	typed_wakeup(g, 100, 12, 0, 120, TRACEBUF_FDR_WAKEUP_NEW);
	gf_extents_end(g, ext);

	ext = gf_extents(g, 0);
	block(g, 11, 11, 1, 4000);
	typed_ret(g, 0, SYS(1), -2);
	typed_switch(g, 100, 11, IDLE1, 120, 120, 0);
	/* the last record: cut to 5 bytes of payload */
	g->n -= TRACEBUF_FDR_SWITCH_SIZE - 5;
	tb_bytes_put32(g->p + g->n - 5 - TB_FDR_META_SIZE + 1, 5);
	gf_extents_end(g, ext);
}

static const char want_sched[] =
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"       swapper/1       0 [001]     0.000000: softirq:softirq_0x9 enter vec=9\n"
"       swapper/1       0 [001]     0.000000: softirq:softirq_0x9 exit dur=0.100us\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 exit ret=-2 err=ENOENT dur=1.000us\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 exit dur=0.100us\n"
"           alpha      10 [000]     0.000001: sched:sched_wakeup beta:11 [120] target_cpu=001\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x5 return ret=-13 err=EACCES (not right after an exit of its call)\n"
"       swapper/1       0 [001]     0.000001: sched:sched_switch swapper/1:0 [120] R ==> beta:11 [120]\n"
"            beta      11 [001]     0.000001: syscall:syscall_0x1 enter\n"
"            beta      11 [001]     0.000001: syscall:syscall_0x1 exit ret=-11 err=EAGAIN dur=0.100us\n"
"            beta      11 [001]     0.000001: sched:sched_wakeup_new :12 [120] target_cpu=000\n"
"           alpha      10 [000]     0.000002: sched:sched_switch alpha:10 [120] S ==> swapper/0:0 [120]\n"
"            beta      11 [001]     0.000003: syscall:syscall_0x1 return ret=-2 err=ENOENT (not right after an exit of its call)\n"
"            beta      11 [001]     0.000003: typed: type=1 size=5 (too short for its type)\n";

TEST(switches_wakeups_and_return_values)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text;

	sched_trace(&g);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(want_sched, text);
	EXPECT_EQ(15, st.lines);
	EXPECT_EQ(6, st.blocks);
	free(text);
	gb_free(&g);
}

static void check_sched(struct __test_metadata *_metadata,
			const struct tb_fdr_script_opts *o, const char *want)
{
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text;

	sched_trace(&g);
	text = list(&g, o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(want, text);
	free(text);
	gb_free(&g);
}

TEST(sched_and_ret_filters)
{
	struct tb_fdr_script_opts o;

	/* -e sched: switches and wake-ups, nothing else. */
	o = no_filter();
	o.filter.classes = 1U << tb_fdr_report_class("sched");
	check_sched(_metadata, &o,
"           alpha      10 [000]     0.000001: sched:sched_wakeup beta:11 [120] target_cpu=001\n"
"       swapper/1       0 [001]     0.000001: sched:sched_switch swapper/1:0 [120] R ==> beta:11 [120]\n"
"            beta      11 [001]     0.000001: sched:sched_wakeup_new :12 [120] target_cpu=000\n"
"           alpha      10 [000]     0.000002: sched:sched_switch alpha:10 [120] S ==> swapper/0:0 [120]\n");

	/* -t 11: its own lines, and the sched events it is in. */
	o = no_filter();
	o.filter.tid = 11;
	check_sched(_metadata, &o,
"           alpha      10 [000]     0.000001: sched:sched_wakeup beta:11 [120] target_cpu=001\n"
"       swapper/1       0 [001]     0.000001: sched:sched_switch swapper/1:0 [120] R ==> beta:11 [120]\n"
"            beta      11 [001]     0.000001: syscall:syscall_0x1 enter\n"
"            beta      11 [001]     0.000001: syscall:syscall_0x1 exit ret=-11 err=EAGAIN dur=0.100us\n"
"            beta      11 [001]     0.000001: sched:sched_wakeup_new :12 [120] target_cpu=000\n"
"            beta      11 [001]     0.000003: syscall:syscall_0x1 return ret=-2 err=ENOENT (not right after an exit of its call)\n"
"            beta      11 [001]     0.000003: typed: type=1 size=5 (too short for its type)\n");

	/* --name: a RET goes with its exit's name. */
	o = no_filter();
	o.filter.name = "sched_wakeup*";
	check_sched(_metadata, &o,
"           alpha      10 [000]     0.000001: sched:sched_wakeup beta:11 [120] target_cpu=001\n"
"            beta      11 [001]     0.000001: sched:sched_wakeup_new :12 [120] target_cpu=000\n");
	o = no_filter();
	o.filter.name = "syscall_0x0";
	check_sched(_metadata, &o,
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 exit ret=-2 err=ENOENT dur=1.000us\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 exit dur=0.100us\n");

	/* -C 1 */
	o = no_filter();
	o.filter.cpu = 1;
	o.filter.classes = 1U << tb_fdr_report_class("sched");
	check_sched(_metadata, &o,
"       swapper/1       0 [001]     0.000001: sched:sched_switch swapper/1:0 [120] R ==> beta:11 [120]\n"
"            beta      11 [001]     0.000001: sched:sched_wakeup_new :12 [120] target_cpu=000\n");
}

/*
 * A RET whose exit's line ended before it (another task's line came
 * between: the RET is later than the exit) still prints, on a line of
 * its own that does not call it unmatched.
 */
TEST(ret_after_another_tasks_line)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	size_t ext;
	char *text;

	gf_header(&g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(&g, 0);
	block(&g, 11, 11, 1, 1000);
	gf_custom(&g, 5, "tick", 4, 1050, 0);
	gf_extents_end(&g, ext);
	ext = gf_extents(&g, 0);
	block(&g, 10, 10, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(0), 0);
	gf_func(&g, TB_FDR_EXIT, SYS(0), 1000);
	typed_ret(&g, 100, SYS(0), -4);
	gf_extents_end(&g, ext);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 exit dur=1.000us\n"
"            beta      11 [001]     0.000001: marker: tick\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 return ret=-4 err=EINTR\n", text);
	free(text);
	gb_free(&g);
}

/* A tid of ten digits (a hostile or foreign trace) keeps the columns. */
TEST(wide_tid_keeps_its_columns)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	size_t ext;
	char *text;

	gf_header(&g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(&g, 0);
	block(&g, 2147483647, -2147483647 - 1, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(0), 0);
	gf_extents_end(&g, ext);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ("     :2147483647 2147483647 [000]     0.000000: syscall:syscall_0x0 enter\n",
		     text);
	free(text);
	gb_free(&g);
}

/* A task whose clock steps back keeps its file order, counted once. */
TEST(clock_stepping_back_keeps_file_order)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	size_t ext;
	char *text;

	gf_header(&g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(&g, 0);
	block(&g, 10, 10, 0, 5000);
	gf_func(&g, TB_FDR_ENTER, SYS(0), 0);
	gf_cpu(&g, 0, 2000);	/* back 3 us */
	gf_func(&g, TB_FDR_EXIT, SYS(0), 0);
	gf_extents_end(&g, ext);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(
"           alpha      10 [000]     0.000003: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 exit dur=0.000us\n",
		     text);
	EXPECT_EQ(1, st.backwards);
	free(text);
	gb_free(&g);
}

/*
 * Every version the reader reads: each function record once (version
 * 1's padding after EndOfBuffer, which reads as records, not at all).
 */
TEST(every_version)
{
	unsigned int v;

	for (v = 1; v <= 5; v++) {
		struct tb_fdr_script_opts o = no_filter();
		struct tb_fdr_script_stats st;
		struct tb_error err = { 0 };
		unsigned int seed = v, funcs;
		struct gb g = { 0 };
		char *text;

		funcs = v == 1 ? gf_v1_file(&g, &seed, 4000, 3) :
				 gf_file(&g, v, &seed, 3, 4000);
		text = list(&g, &o, &st, &err);
		ASSERT_NE(NULL, text) TH_LOG("version %u: %s", v, err.msg);
		/* No point events here: a line per function record. */
		EXPECT_EQ(funcs, tu_count(text, "function:"))
			TH_LOG("version %u", v);
		free(text);
		gb_free(&g);
	}
}

/*
 * A task's records carried on in a second buffer extent without a
 * NewBuffer of its own, which the reader (and fdr-dump -verify) accept:
 * every event listed, the second extent's in the task's state.
 */
TEST(extent_without_new_buffer_carries_on)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	size_t ext;
	char *text;

	gf_header(&g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(&g, 0);
	block(&g, 10, 10, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(0), 0);
	gf_extents_end(&g, ext);
	/* An empty extent between: the next joins the block all the same. */
	gf_extents(&g, 0);
	ext = gf_extents(&g, 0);
	gf_func(&g, TB_FDR_EXIT, SYS(0), 1500);
	gf_extents_end(&g, ext);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"           alpha      10 [000]     0.000001: syscall:syscall_0x0 exit dur=1.500us\n",
		     text);
	free(text);
	gb_free(&g);
}

/*
 * Version 1: a BufferExtents record in a buffer's padding after its
 * EndOfBuffer (the reader skips the padding, and does not hold version 1
 * to extents) starts no block: only a NewBuffer does.
 */
TEST(v1_extents_in_padding)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text;

	gf_header(&g, 1, TB_FDR_TYPE_FDR, 0);
	gf_new_buffer(&g, 10);
	gf_wallclock(&g, 100, 500);
	gf_cpu(&g, 0, 1000);
	gf_func(&g, TB_FDR_ENTER, SYS(0), 0);
	gf_eob(&g);
	gf_extents(&g, 16);
	gf_arg(&g, 1);
	gf_new_buffer(&g, 11);
	gf_wallclock(&g, 100, 500);
	gf_cpu(&g, 1, 2000);
	gf_func(&g, TB_FDR_ENTER, SYS(1), 0);
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_STREQ(
"           alpha      10 [000]     0.000000: syscall:syscall_0x0 enter\n"
"            beta      11 [001]     0.000001: syscall:syscall_0x1 enter\n",
		     text);
	free(text);
	gb_free(&g);
}

/* A file cut inside its last block: listed, and the reader's word kept. */
TEST(cut_file)
{
	struct tb_fdr_script_opts o = no_filter();
	struct tb_fdr_script_stats st;
	struct tb_error err = { 0 };
	struct gb g = { 0 };
	char *text;

	two_tasks(&g);
	/* Without the idle task's exit record. */
	g.n -= TB_FDR_FUNC_SIZE;
	text = list(&g, &o, &st, &err);
	ASSERT_NE(NULL, text) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.warning, "cut")) TH_LOG("%s", err.warning);
	EXPECT_EQ(11, st.lines);
	EXPECT_NE(NULL, strstr(text, "softirq_0x9 enter"));
	EXPECT_EQ(NULL, strstr(text, "softirq_0x9 exit"));
	free(text);
	gb_free(&g);
}

/*
 * Lines "TID MICROSECONDS" of @want and @got that differ: the same task,
 * and a microsecond apart at most, as awk's floating point and the
 * listing's truncation may round.
 */
static unsigned int far_apart(struct __test_metadata *_metadata, char *want,
			      char *got)
{
	char *a, *b, *sa = NULL, *sb = NULL;
	unsigned int far = 0;

	for (a = strtok_r(want, "\n", &sa), b = strtok_r(got, "\n", &sb);
	     a && b;
	     a = strtok_r(NULL, "\n", &sa), b = strtok_r(NULL, "\n", &sb)) {
		long ta, ua, tb, ub;

		if (sscanf(a, "%ld %ld", &ta, &ua) != 2 ||
		    sscanf(b, "%ld %ld", &tb, &ub) != 2 ||
		    ta != tb || labs(ua - ub) > 1) {
			if (!far++)
				TH_LOG("llvm-xray '%s', ours '%s'", a, b);
		}
	}
	return far;
}

/*
 * The demo's trace against llvm-xray convert -f yaml, which does not
 * share our reader: every record it lists (a fault's or fork's exit
 * half and the capture's start marks aside, which the listing folds or
 * hides) is a line, with the same task and time, and the times never
 * go back.
 */
TEST(demo_against_llvm_xray)
{
	const char *demo = "data/viewer/demo.fdr";
	char *yaml, *ours, *want, *got;
	int st;

	if (!tu_have("llvm-xray"))
		SKIP(return, "llvm-xray not installed");
	/*
	 * "TID MICROSECONDS" per event: idle tasks as tid 0, the exit of an
	 * entry-with-argument at its time dropped, custom events only when
	 * not the capture's start or a task's name, typed events only for
	 * switches and wake-ups (a RET is its exit's line, the META block
	 * no event).
	 */
	yaml = tu_run(&st,
		"llvm-xray convert -f yaml %s | awk '"
		"/cycle-frequency:/ { hz = $2 }"
		"/kind:/ { n++; line[n] = $0 }"
		"END { min = -1;"
		"  for (i = 1; i <= n; i++) { match(line[i], /tsc: [0-9]+/);"
		"    t = substr(line[i], RSTART + 5, RLENGTH - 5) + 0;"
		"    if (min < 0 || t < min) min = t; tsc[i] = t }"
		"  for (i = 1; i <= n; i++) { l = line[i];"
		"    match(l, /thread: [0-9]+/); tid = substr(l, RSTART + 8, RLENGTH - 8) + 0;"
		"    if (tid >= 1073741824) tid = 0;"
		"    if (l ~ /capture start/ || l ~ /data: .tracebuf: comm /) continue;"
		"    if (l ~ /kind: typed-event/ && l !~ /type: [12],/) continue;"
		"    if (l ~ /function-exit/ && i > 1 && line[i-1] ~ /function-enter-arg/ &&"
		"        tsc[i-1] == tsc[i]) continue;"
		"    printf \"%%d %%d\\n\", tid, int((tsc[i] - min) * 1000000 / hz) }"
		"}' | sort", demo);
	ASSERT_EQ(0, st) TH_LOG("%s", yaml);
	ours = tu_run(&st, "%s script %s | awk '{ t = $4; sub(\":\", \"\", t);"
		      " if (t + 0 < last + 0) print \"BACK\"; last = t;"
		      " split(t, p, \".\"); printf \"%%d %%d\\n\", $2, p[1] * 1000000 + p[2] }'",
		      tu_tool("tracebuf"), demo);
	ASSERT_EQ(0, st) TH_LOG("%s", ours);
	EXPECT_EQ(NULL, strstr(ours, "BACK"));
	free(ours);
	/*
	 * A switch is listed as perf lists it, under the task that leaves;
	 * its record is the first of the next task's block, where llvm-xray
	 * puts it: compared under that task ("==> COMM:TID [PRIO]").
	 */
	ours = tu_run(&st, "%s script %s | awk '{ t = $4; sub(\":\", \"\", t);"
		      " split(t, p, \".\"); tid = $2;"
		      " if ($5 == \"sched:sched_switch\") { n = split($(NF - 1), c, \":\"); tid = c[n] }"
		      " printf \"%%d %%d\\n\", tid, p[1] * 1000000 + p[2] }' | sort",
		      tu_tool("tracebuf"), demo);
	ASSERT_EQ(0, st);
	want = yaml;
	got = ours;
	EXPECT_EQ(4693, tu_count(got, "\n"));
	EXPECT_EQ(tu_count(want, "\n"), tu_count(got, "\n"));
	EXPECT_EQ(0, far_apart(_metadata, want, got));
	free(yaml);
	free(ours);
}

TEST(command_line)
{
	char *out;
	int st;

	/* Companions found beside the trace: names, idle tasks, commands. */
	out = tu_run(&st, "%s script -e irq --tid 0 data/viewer/demo.fdr | head -1",
		     tu_tool("tracebuf"));
	EXPECT_EQ(0, st);
	EXPECT_STREQ("       swapper/0       0 [000]     0.071179: irq:irq_4_ttyS0 enter irq=4\n",
		     out);
	free(out);
	out = tu_run(&st, "%s script --name 'sys_exec*' data/viewer/demo.fdr",
		     tu_tool("tracebuf"));
	EXPECT_EQ(0, st);
	EXPECT_STREQ(
"    fdr_workload     642 [001]     0.004269: syscall:sys_execve enter\n"
"    fdr_workload     642 [001]     0.006828: syscall:sys_execve exit dur=2558.887us\n",
		     out);
	free(out);
	/* Errors: not a trace, a missing file, an XScale buffer. */
	out = tu_run(&st, "%s script data/viewer/demo.fdr.names 2>&1",
		     tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "demo.fdr.names")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s script /nonexistent/trace.fdr 2>&1",
		     tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_FAIL, st);
	EXPECT_NE(NULL, strstr(out, "/nonexistent/trace.fdr")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s script data/corpus/xscale/snapshot.bin 2>&1",
		     tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "is an XScale trace buffer")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "tracebuf decode")) TH_LOG("%s", out);
	free(out);
	/* An output that cannot be written is an I/O failure, said. */
	out = tu_run(&st, "{ %s script data/viewer/demo.fdr 2>&1 >/dev/full; }",
		     tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_FAIL, st);
	EXPECT_NE(NULL, strstr(out, "writing standard output: No space left"))
		TH_LOG("%s", out);
	free(out);
	/* Standard input: copied to a file to be read with pread(). */
	out = tu_run(&st, "%s script --no-names - < data/viewer/demo.fdr | wc -l",
		     tu_tool("tracebuf"));
	EXPECT_EQ(0, st);
	EXPECT_EQ(4768, atoi(out)) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s script --wallclock --time 1,2 --before 3 data/viewer/demo.fdr 2>&1",
		     tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_USAGE, st);
	free(out);
}

TEST_HARNESS_MAIN
