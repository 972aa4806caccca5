// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf convert fdr-tracedat (lib/convert/fdr_tracedat.c) against
 * trace-cmd itself, through scripts/check/tracedat-check.py: trace-cmd report
 * reads each converted trace without a word on stderr, counts per event
 * what tracebuf report counts and splits them by CPU as --cpu does; its
 * -F filters and --stat work on them; KernelShark loads one under Xvfb
 * (scripts/check/kernelshark-check.sh).  Skipped, with the reason, when
 * trace-cmd or KernelShark is not installed (scripts/setup.sh installs
 * them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tb_harness.h"

#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "tb_sched_gen.h"
#include "tb_test_util.h"

#define KID(space, key)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)

#define CHECK	"python3 ../../scripts/check/tracedat-check.py"
#define NO_TRACE_CMD	"trace-cmd not installed (scripts/setup.sh installs it)"

/* Convert @fdr to a trace.dat in @dir and check it; returns the status. */
static int convert_check(const char *fdr, const char *dir, char **out)
{
	int status;

	/* A guest has the tests, not python3 (status 4: skipped). */
	if (!tu_have("python3")) {
		*out = strdup("python3 not installed (scripts/check/tracedat-check.py checks the file)");
		return 4;
	}
	*out = tu_run(&status, "%s convert -q fdr-tracedat %s %s/t.dat && %s %s %s %s/t.dat",
		      tu_tool("tracebuf"), fdr, dir, CHECK,
		      tu_tool("tracebuf"), fdr, dir);
	return status;
}

TEST(demo)
{
	char *dir = tu_tmpdir(), *out;
	int st = convert_check("data/viewer/demo.fdr", dir, &out);

	tu_rmdir(dir);
	if (st == 4)
		SKIP(free(out); return, "%s", out);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "trace-cmd: 4693 events on 2 CPUs"))
		TH_LOG("%s", out);
	free(out);
}

/* The traces the tests keep: every version, cut ones, XScale's mapping. */
TEST_TIMEOUT(corpus, TU_BATCH_TIMEOUT)
{
	static const char *const files[] = {
		"gen-v1-fixed-buffers.fdr", "gen-v2.fdr", "gen-v3.fdr",
		"gen-v4.fdr", "writer-sample.fdr", "xscale-mapping.fdr",
		"gen-extents-cut-short.fdr", "gen-header-only.fdr",
		"compiler-rt-truncated.fdr", "gen-extent-2pow32-plus.fdr",
	};
	char *dir = tu_tmpdir(), path[256], *out;
	size_t i;
	int st;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "data/corpus/fdr/%s", files[i]);
		st = convert_check(path, dir, &out);
		if (st == 4) {
			tu_rmdir(dir);
			SKIP(free(out); return, "%s", out);
		}
		EXPECT_EQ(0, st) TH_LOG("%s: %s", files[i], out);
		free(out);
	}
	tu_rmdir(dir);
}

/*
 * A busy machine: @cpus CPUs, @tasks tasks taking turns on them, each
 * turn a syscall with an IRQ inside, a softirq and a page fault, a gap
 * of ~0.3 s (past the 27 bits of a ring-buffer event's time delta)
 * every 64 turns; enough turns for many pages a CPU.
 */
static void make_busy_trace(const char *fdr, unsigned int cpus,
			    unsigned int tasks, unsigned int turns)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 3000000000ULL,
	};
	uint64_t tsc = 1000, args[3] = { 3, 0x1000, 64 };
	struct tb_fdr_writer w;
	char path[300];
	unsigned int i;
	FILE *f = fopen(fdr, "wb");

	tb_fdr_writer_init(&w, f, &h, 0);
	for (i = 0; i < turns; i++) {
		int32_t tid = 1000 + (int32_t)(i % tasks);
		uint16_t cpu = (uint16_t)(i % cpus);

		tsc += i % 64 ? 5000 : 1000000000ULL;
		tb_fdr_writer_begin(&w, tid, tid, cpu, tsc, 1700000000, 0);
		tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(SYSCALL, i % 7),
				       tsc, args, 3);
		tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(IRQ, 9), tsc + 100,
				       NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(IRQ, 9), tsc + 900,
				       NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SYSCALL, i % 7),
				       tsc + 1000, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(SOFTIRQ, 1),
				       tsc + 1100, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SOFTIRQ, 1),
				       tsc + 1500, NULL, 0);
		args[1] += 4096;
		tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(FAULT, 0),
				       tsc + 1600, &args[1], 1);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(FAULT, 0),
				       tsc + 1600, NULL, 0);
		if (i % 100 == 0)
			tb_fdr_writer_custom(&w, tsc + 1700, "turn", 4);
		tsc += 2000;
	}
	tb_fdr_writer_finish(&w);
	fclose(f);
	snprintf(path, sizeof(path), "%s.names", fdr);
	f = fopen(path, "w");
	for (i = 0; i < 7; i++)
		fprintf(f, "%u sys_%u\n", KID(SYSCALL, i), i);
	fprintf(f, "%u irq_9_acpi\n%u softirq_TIMER\n%u fault_user\n",
		KID(IRQ, 9), KID(SOFTIRQ, 1), KID(FAULT, 0));
	fclose(f);
}

/* From one CPU and a few events to four CPUs of many pages each. */
TEST_TIMEOUT(generated, TU_BATCH_TIMEOUT)
{
	static const unsigned int sz[][3] = {
		{ 1, 1, 1 }, { 2, 3, 40 }, { 4, 16, 3000 },
	};
	char *dir = tu_tmpdir(), path[256], *out;
	unsigned int i;
	int st;

	for (i = 0; i < ARRAY_SIZE(sz); i++) {
		snprintf(path, sizeof(path), "%s/g%u.fdr", dir, i);
		make_busy_trace(path, sz[i][0], sz[i][1], sz[i][2]);
		st = convert_check(path, dir, &out);
		if (st == 4) {
			tu_rmdir(dir);
			SKIP(free(out); return, "%s", out);
		}
		EXPECT_EQ(0, st) TH_LOG("%u: %s", i, out);
		free(out);
	}
	tu_rmdir(dir);
}

/*
 * Every kind of record the kernel writes, with the kernel's ids and a
 * names file as the collectors write it: task 100 on CPU 0 then 1, its
 * child 101 on CPU 1, the idle task of CPU 0, a loss on CPU 0, a marker
 * longer than a page, a compat syscall, a function without a name.
 */
static void make_kernel_trace(const char *dir, char *fdr, size_t size)
{
	static const uint64_t rd[3] = { 3, 0x7ffd0000, 7 };
	static char big[5000];
	uint64_t a;
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_writer w;
	char path[300];
	FILE *f;

	memset(big, 'x', sizeof(big));
	snprintf(fdr, size, "%s/k.fdr", dir);
	f = fopen(fdr, "wb");
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 100, 100, 0, 1000, 1700000000, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(SYSCALL, 0), 1000, rd, 3);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(IRQ, 4), 1100, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(IRQ, 4), 1200, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SYSCALL, 0), 1300, NULL, 0);
	a = 0xdead000;
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(FAULT, 0), 1400, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(FAULT, 0), 1400, NULL, 0);
	a = 0xffff0000;
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(FAULT, 1), 1450, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(FAULT, 1), 1450, NULL, 0);
	a = 101;
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(TASK, 0), 1500, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(TASK, 0), 1500, NULL, 0);
	tb_fdr_writer_custom(&w, 1600, "hello", 5);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(KFUNC, 2), 1700, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(KFUNC, 2), 1800, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(KFUNC, 5), 1810, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(KFUNC, 5), 1820, NULL, 0);
	tb_fdr_writer_typed(&w, 1850, 9, "ab", 2);
	tb_fdr_writer_custom(&w, 1900, big, sizeof(big));
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(SYSCALL, 5 | TRACEBUF_FDR_KEY_COMPAT),
			       1950, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SYSCALL, 5 | TRACEBUF_FDR_KEY_COMPAT),
			       1960, NULL, 0);
	tb_fdr_writer_new_cpu(&w, 1, 3000);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(SYSCALL, 3), 3000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SYSCALL, 3), 3100, NULL, 0);
	tb_fdr_writer_begin(&w, 101, 101, 1, 2000, 1700000000, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(SOFTIRQ, 1), 2000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SOFTIRQ, 1), 2100, NULL, 0);
	a = 101;
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(TASK, 1), 2200, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(TASK, 1), 2200, NULL, 0);
	tb_fdr_writer_custom(&w, 2200, TRACEBUF_FDR_COMM_PREFIX "child", 20);
	tb_fdr_writer_begin(&w, 0, TRACEBUF_FDR_IDLE_TID(0), 0, 2500, 1700000000, 0);
	tb_fdr_writer_custom(&w, 2500, "tracebuf: lost 5 events", 23);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(SOFTIRQ, 9), 2600, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SOFTIRQ, 9), 2700, NULL, 0);
	tb_fdr_writer_finish(&w);
	fclose(f);
	snprintf(path, sizeof(path), "%s.names", fdr);
	f = fopen(path, "w");
	fprintf(f, "%u sys_read\n%u sys_close\n%u irq_4_ttyS0\n%u softirq_TIMER\n"
		"%u softirq_RCU\n%u fault_user\n%u fault_kernel\n%u task_fork\n"
		"%u task_exit\n%u kfunc_vfs_read\n%u sys_open\n",
		KID(SYSCALL, 0), KID(SYSCALL, 3), KID(IRQ, 4), KID(SOFTIRQ, 1),
		KID(SOFTIRQ, 9), KID(FAULT, 0), KID(FAULT, 1), KID(TASK, 0),
		KID(TASK, 1), KID(KFUNC, 2),
		KID(SYSCALL, 5 | TRACEBUF_FDR_KEY_COMPAT));
	fclose(f);
	snprintf(path, sizeof(path), "%s.tasks", fdr);
	f = fopen(path, "w");
	fprintf(f, "100 100 parent\n300 300 sleeper\n");
	fclose(f);
}

/* Each mapping as trace-cmd report prints it, and the counts. */
TEST(kernel_records)
{
	static const char *const want[] = {
		"sys_enter:            NR 0 (3, 7ffd0000, 7, ffffffffffffffff, ffffffffffffffff, ffffffffffffffff)",
		"irq_handler_entry:    irq=4 name=ttyS0",
		"irq_handler_exit:     irq=4 ret=handled",
		"sys_exit:             NR 0 = 0",
		"page_fault_user:      address=0xdead000 ip=0x0 error_code=0x0",
		"page_fault_kernel:    address=0xffff0000 ip=0x0 error_code=0x0",
		"sched_process_fork:   comm=parent pid=100 child_comm=parent child_pid=101",
		"print:                0x0: hello",
		"func_entry:           kfunc_vfs_read (id 0x7000002)",
		"func_exit:            function_",
		"typed_event:          type=9 len=2",
		"softirq_entry:        vec=1 [action=TIMER]",
		"sched_process_exit:   comm=child pid=101 prio=120",
		"softirq_entry:        vec=9 [action=RCU]",
		"CPU:0 [5 EVENTS DROPPED]",
		"sys_enter:            NR 3 (ffffffffffffffff",
		"          parent-100   [000] ", "           child-101   [001] ",
		"          <idle>-0     [000] ", "          parent-100   [001] ",
	};
	char *dir = tu_tmpdir(), fdr[256], *out;
	size_t i;
	int status;

	if (!tu_have("trace-cmd")) {
		tu_rmdir(dir);
		SKIP(return, NO_TRACE_CMD);
	}
	make_kernel_trace(dir, fdr, sizeof(fdr));
	status = convert_check(fdr, dir, &out);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "trace-cmd report %s/t.dat 2>&1", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *w = want[i];

		EXPECT_NE(NULL, strstr(out, w)) TH_LOG("no '%s'", w);
	}
	free(out);
	/* Every task's command line, idle tasks as the kernel: none. */
	out = tu_run(&status, "trace-cmd dump --cmd-lines %s/t.dat 2>&1", dir);
	EXPECT_NE(NULL, strstr(out, "100 parent")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "101 child")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "300 sleeper")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
}

/* Count the lines of trace-cmd report @args on @dir/t.dat. */
static int report_lines(const char *dir, const char *args)
{
	char *out;
	int status, n = 0;
	const char *p;

	out = tu_run(&status, "trace-cmd report %s %s/t.dat 2>&1", args, dir);
	if (status) {
		fprintf(stderr, "%s", out);
		free(out);
		return -1;
	}
	for (p = out; (p = strstr(p, "]     ")); p++)
		n++;
	free(out);
	return n;
}

/* -F filters on the kernel's field names, --cpu, --stat. */
TEST(filters)
{
	char *dir = tu_tmpdir(), fdr[256], *out;
	int status;

	if (!tu_have("trace-cmd")) {
		tu_rmdir(dir);
		SKIP(return, NO_TRACE_CMD);
	}
	make_kernel_trace(dir, fdr, sizeof(fdr));
	out = tu_run(&status, "%s convert -q fdr-tracedat %s %s/t.dat",
		     tu_tool("tracebuf"), fdr, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	free(out);
	EXPECT_EQ(3, report_lines(dir, "-F sys_enter"));
	EXPECT_EQ(1, report_lines(dir, "-F 'sys_enter:id==3'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'irq_handler_entry:irq==4'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'irq_handler_entry:name==\"ttyS0\"'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'softirq_entry:common_pid==0'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'softirq_entry:vec==9'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'page_fault_user:address==0xdead000'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'sched_process_exit:pid==101'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'func_entry:name==\"kfunc_vfs_read\"'"));
	EXPECT_EQ(5, report_lines(dir, "--cpu 1"));
	out = tu_run(&status, "trace-cmd report --stat %s/t.dat 2>&1", dir);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "CPU1 data recorded")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
}

/*
 * The scheduler's typed events (tb_sched_gen.h) as trace-cmd report
 * prints them: with libtraceevent's sched_switch plugin (its state
 * letters), without it (-N: the kernel's print fmt), and its filters on
 * the kernel's field names.
 */
TEST(sched_typed)
{
	static const char *const want[] = {
		"          <idle>-0     [000]     0.000001: sched_switch:         swapper/0:0 [120] R ==> ping:200 [120]",
		"            ping-200   [000]     0.000001: sched_wakeup:         pong:201 [120] CPU:000",
		"            ping-200   [000]     0.000001: sched_switch:         ping:200 [120] S ==> pong:201 [120]",
		"            pong-201   [000]     0.000002: sched_switch:         pong:201 [120] S ==> ping:200 [120]",
		"            ping-200   [000]     0.000002: sys_exit:             NR 257 = -2",
		"            ping-200   [000]     0.000002: sched_wakeup_new:     child:202 [120] CPU:001",
		"            ping-200   [000]     0.000003: sched_switch:         ping:200 [120] D ==> swapper/0:0 [120]",
		"          <idle>-0     [000]     0.000003: sched_wakeup:         ping:200 [120] CPU:000",
		"          <idle>-0     [000]     0.000003: sched_switch:         swapper/0:0 [120] R ==> ping:200 [120]",
		"            ping-200   [000]     0.000003: sys_exit:             NR 74 = 0",
	};
	static const char *const want_n[] = {
		"sched_switch:         prev_comm=ping prev_pid=200 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120",
		"sched_switch:         prev_comm=child prev_pid=202 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120",
		"sched_switch:         prev_comm=pong prev_pid=201 prev_prio=120 prev_state=S ==> next_comm=ping next_pid=200 next_prio=120",
		"sched_wakeup_new:     comm=child pid=202 prio=120 target_cpu=001",
	};
	char *dir = tu_tmpdir(), fdr[256], *out;
	size_t i;
	int status;

	if (!tu_have("trace-cmd")) {
		tu_rmdir(dir);
		SKIP(return, NO_TRACE_CMD);
	}
	snprintf(fdr, sizeof(fdr), "%s/s.fdr", dir);
	ASSERT_EQ(0, sg_write(fdr));
	status = convert_check(fdr, dir, &out);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "trace-cmd: 7 switches, 4 wake-ups, 3 return values agree with the trace"))
		TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "trace-cmd report %s/t.dat 2>&1", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *w = want[i];

		EXPECT_NE(NULL, strstr(out, w)) TH_LOG("no '%s'", w);
	}
	EXPECT_EQ(7, tu_count(out, "sched_switch:"));
	EXPECT_EQ(NULL, strstr(out, "typed_event")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "trace-cmd report -N %s/t.dat 2>&1", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(want_n); i++) {
		const char *w = want_n[i];

		EXPECT_NE(NULL, strstr(out, w)) TH_LOG("no '%s'", w);
	}
	free(out);
	/*
	 * trace-cmd 3.1's filters take no negative number and compare
	 * ret unsigned (as on a kernel's own trace.dat): -2 is spelt out.
	 */
	EXPECT_EQ(3, report_lines(dir, "-F 'sys_exit:ret!=0'"));
	EXPECT_EQ(3, report_lines(dir, "-F 'sys_exit:ret==0xfffffffffffffffe'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'sched_switch:prev_state==2'"));
	EXPECT_EQ(2, report_lines(dir, "-F 'sched_switch:prev_state==1'"));
	EXPECT_EQ(1, report_lines(dir, "-F 'sched_wakeup_new:target_cpu==1'"));
	/* The trace's own description is no task: three command lines. */
	out = tu_run(&status, "trace-cmd dump --cmd-lines %s/t.dat 2>&1", dir);
	EXPECT_NE(NULL, strstr(out, "202 child")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "2147483646")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
}

/* A damaged trace (tb_sched_gen.h): see ctf_test's sched_hostile. */
TEST(sched_hostile)
{
	char *dir = tu_tmpdir(), fdr[256], *out;
	int status;

	if (!tu_have("trace-cmd")) {
		tu_rmdir(dir);
		SKIP(return, NO_TRACE_CMD);
	}
	snprintf(fdr, sizeof(fdr), "%s/h.fdr", dir);
	ASSERT_EQ(0, sg_write_hostile(fdr));
	out = tu_run(&status, "%s convert fdr-tracedat %s %s/t.dat 2>&1",
		     tu_tool("tracebuf"), fdr, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "3 return values (RET) do not follow an exit of their call: left out"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "2 typed events too short for their type"))
		TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "trace-cmd report %s/t.dat 2>&1", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "sys_exit:             NR 0 = 0")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "sys_exit:             NR 1 = -9")) TH_LOG("%s", out);
	EXPECT_EQ(1, tu_count(out, "= -")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "typed_event:          type=1 len=5")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "typed_event:          type=3 len=4")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "sched_switch:         hostile:300 [120] R ==> other:301 [120]"))
		TH_LOG("%s", out);
	free(out);
	status = convert_check(fdr, dir, &out);
	EXPECT_EQ(0, status) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
}

/*
 * A marker holding a NUL byte: ftrace's print event is a C string, so
 * its readers show it up to the NUL; the rest is in the record, and
 * standard error says so.
 */
TEST(marker_with_nul)
{
	static const char text[] = "ab\0cd";
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	char *dir = tu_tmpdir(), fdr[256], *out;
	struct tb_fdr_writer w;
	int status;
	FILE *f;

	snprintf(fdr, sizeof(fdr), "%s/m.fdr", dir);
	f = fopen(fdr, "wb");
	ASSERT_NE(NULL, f);
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 100, 100, 0, 1000, 1700000000, 0);
	tb_fdr_writer_custom(&w, 1100, "plain", 5);
	tb_fdr_writer_custom(&w, 1200, text, sizeof(text) - 1);
	tb_fdr_writer_finish(&w);
	fclose(f);
	out = tu_run(&status, "%s convert --no-names fdr-tracedat %s %s/m.dat",
		     tu_tool("tracebuf"), fdr, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "1 markers hold a NUL byte")) TH_LOG("%s", out);
	free(out);
	if (tu_have("trace-cmd")) {
		out = tu_run(&status, "trace-cmd report %s/m.dat", dir);
		EXPECT_EQ(0, status) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "print:                0x0: ab\n")) TH_LOG("%s", out);
		free(out);
	}
	tu_rmdir(dir);
}

/* XScale input: refused, naming what reads it; no output file left. */
TEST(refuses_xscale)
{
	char *dir = tu_tmpdir(), *out;
	char path[300];
	struct stat sb;
	int status;

	out = tu_run(&status, "%s convert fdr-tracedat data/corpus/xscale/snapshot.bin %s/x.dat",
		     tu_tool("tracebuf"), dir);
	EXPECT_EQ(3, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "is an XScale trace buffer")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "tracebuf decode")) TH_LOG("%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/x.dat", dir);
	EXPECT_NE(0, stat(path, &sb));
	tu_rmdir(dir);
}

/*
 * XScale input through a pipe: refused as a file is, standard input
 * named "-" in the commands that read it; neither says a word on the
 * names an FDR trace would carry.
 */
TEST(refuses_xscale_piped)
{
	char *dir = tu_tmpdir(), *out;
	char path[300];
	struct stat sb;
	int status;

	out = tu_run(&status, "cat data/corpus/xscale/snapshot.bin | %s convert fdr-tracedat - %s/x.dat",
		     tu_tool("tracebuf"), dir);
	EXPECT_EQ(3, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "standard input is an XScale trace buffer")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "tracebuf decode - or tracebuf convert xscale-fdr -"))
		TH_LOG("%s", out);
	EXPECT_EQ(0, tu_count(out, "carries no names")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "%s convert fdr-tracedat data/corpus/xscale/snapshot.bin %s/x.dat",
		     tu_tool("tracebuf"), dir);
	EXPECT_EQ(3, status) TH_LOG("%s", out);
	EXPECT_EQ(0, tu_count(out, "carries no names")) TH_LOG("%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/x.dat", dir);
	EXPECT_NE(0, stat(path, &sb));
	tu_rmdir(dir);
}

/* A malformed input leaves the output as it was: no half trace.dat. */
TEST(no_half_output)
{
	char *dir = tu_tmpdir(), *out, path[300];
	struct stat sb;
	int status;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.fdr", dir);
	f = fopen(path, "w");
	fputs("not a trace at all, long enough to be read as one", f);
	fclose(f);
	out = tu_run(&status, "%s convert fdr-tracedat %s %s/o.dat",
		     tu_tool("tracebuf"), path, dir);
	EXPECT_EQ(3, status) TH_LOG("%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/o.dat", dir);
	EXPECT_NE(0, stat(path, &sb));
	tu_rmdir(dir);
}

/*
 * KernelShark under Xvfb: loads demo.fdr's trace.dat without a word but
 * "Loading", draws a plot per CPU and task 642's (fdr_workload); the
 * screenshot stays in build/ for a person to look at.
 */
TEST_TIMEOUT(kernelshark, TU_BATCH_TIMEOUT)
{
	char *dir, *out;
	int status;

	if (!tu_have("kernelshark"))
		SKIP(return, "kernelshark not installed (scripts/setup.sh installs it)");
	dir = tu_tmpdir();
	out = tu_run(&status, "%s convert -q fdr-tracedat data/viewer/demo.fdr %s/t.dat && "
		     "sh ../../scripts/check/kernelshark-check.sh %s/t.dat ../../build/tracedat-kernelshark.png 642",
		     tu_tool("tracebuf"), dir, dir);
	tu_rmdir(dir);
	if (status == 4)
		SKIP(free(out); return, "%s", out);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "kernelshark: loaded")) TH_LOG("%s", out);
	free(out);
}

/*
 * KernelShark on the scheduler trace: its sched_events plugin has the
 * recorded sched_switch to draw ping's task plot from; loads without a
 * word but "Loading".
 */
TEST_TIMEOUT(kernelshark_sched, TU_BATCH_TIMEOUT)
{
	char *dir, fdr[256], *out;
	int status;

	if (!tu_have("kernelshark"))
		SKIP(return, "kernelshark not installed (scripts/setup.sh installs it)");
	dir = tu_tmpdir();
	snprintf(fdr, sizeof(fdr), "%s/s.fdr", dir);
	ASSERT_EQ(0, sg_write(fdr));
	out = tu_run(&status, "%s convert -q fdr-tracedat %s %s/t.dat && "
		     "sh ../../scripts/check/kernelshark-check.sh %s/t.dat ../../build/tracedat-kernelshark-sched.png 200",
		     tu_tool("tracebuf"), fdr, dir, dir);
	tu_rmdir(dir);
	if (status == 4)
		SKIP(free(out); return, "%s", out);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "kernelshark: loaded")) TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
