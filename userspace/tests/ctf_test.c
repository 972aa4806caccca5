// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf convert fdr-ctf (lib/convert/fdr_ctf.c) against the real
 * readers, through scripts/check/ctf-check.py: babeltrace2 reads each converted
 * trace without a warning and counts per event name what tracebuf report
 * counts; on the demo trace lttng-syscallstats-mi and lttng-irqstats-mi
 * give the report's counts, minimums, maximums and totals.  Skipped, with
 * the reason, when the readers are not installed (scripts/setup.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"

#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "tb_sched_gen.h"
#include "tb_test_util.h"

#define KID(space, key)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)

#define CHECK	"python3 ../../scripts/check/ctf-check.py"

/* Convert @fdr into a new directory and check it; returns the status. */
static int convert_check(const char *fdr, const char *extra, char **out)
{
	char dir[] = "/tmp/tb-ctf-XXXXXX";
	int status;

	/* A guest has the tests, not python3 (status 4: skipped). */
	if (!tu_have("python3")) {
		*out = strdup("python3 not installed (scripts/check/ctf-check.py checks the trace)");
		return 4;
	}
	if (!mkdtemp(dir))
		return -1;
	*out = tu_run(&status, "%s convert -q fdr-ctf %s %s/t && %s %s %s %s/t %s",
		      tu_tool("tracebuf"), fdr, dir, CHECK,
		      tu_tool("tracebuf"), fdr, dir, extra);
	tu_rmdir(dir);
	return status;
}

TEST(demo_analyses)
{
	char *out;
	int st = convert_check("data/viewer/demo.fdr", "--analyses", &out);

	if (st == 4)
		SKIP(free(out); return, "%s", out);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "lttng-analyses:"));
	free(out);
}

/* The traces the tests keep: every version, cut ones, XScale's mapping. */
TEST(corpus_babeltrace)
{
	static const char *const files[] = {
		"gen-v1-fixed-buffers.fdr", "gen-v2.fdr", "gen-v3.fdr",
		"gen-v4.fdr", "writer-sample.fdr", "xscale-mapping.fdr",
		"gen-extents-cut-short.fdr", "gen-header-only.fdr",
		"compiler-rt-truncated.fdr", "gen-extent-2pow32-plus.fdr",
	};
	char path[256], *out;
	size_t i;
	int st;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "data/corpus/fdr/%s", files[i]);
		st = convert_check(path, "", &out);
		if (st == 4)
			SKIP(free(out); return, "%s", out);
		ASSERT_EQ(0, st) TH_LOG("%s: %s", files[i], out);
		free(out);
	}
}

/*
 * Every kind of record the kernel writes, with the kernel's ids and a
 * names file as the collectors write it: task 100 on CPU 0 then 1, its
 * child 101 on CPU 1, the idle task of CPU 0, a loss on CPU 0.
 */
static void make_kernel_trace(const char *dir, char *fdr, size_t size)
{
	static const uint64_t rd[3] = { 3, 0x7ffd0000, 7 };
	uint64_t a;
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_writer w;
	char path[300];
	FILE *f;

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
	a = 101;
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, KID(TASK, 0), 1500, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(TASK, 0), 1500, NULL, 0);
	tb_fdr_writer_custom(&w, 1600, "hello", 5);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(KFUNC, 2), 1700, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(KFUNC, 2), 1800, NULL, 0);
	tb_fdr_writer_typed(&w, 1850, 9, "ab", 2);
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
		"%u softirq_RCU\n%u fault_user\n%u task_fork\n%u task_exit\n"
		"%u kfunc_vfs_read\n", KID(SYSCALL, 0), KID(SYSCALL, 3),
		KID(IRQ, 4), KID(SOFTIRQ, 1), KID(SOFTIRQ, 9), KID(FAULT, 0),
		KID(TASK, 0), KID(TASK, 1), KID(KFUNC, 2));
	fclose(f);
	snprintf(path, sizeof(path), "%s.tasks", fdr);
	f = fopen(path, "w");
	fprintf(f, "100 100 parent\n");
	fclose(f);
}

/* Each mapping, as babeltrace2 prints it, and the counts as the report's. */
TEST(kernel_records)
{
	static const char *const want[] = {
		"syscall_entry_read: { cpu_id = 0 }, { fd = 3, buf = 2147287040, count = 7 }",
		"syscall_exit_read: { cpu_id = 0 }, { ret = 0 }",
		"irq_handler_entry: { cpu_id = 0 }, { irq = 4, name = \"ttyS0\" }",
		"irq_handler_exit: { cpu_id = 0 }, { irq = 4, ret = 1 }",
		"x86_exceptions_page_fault_user: { cpu_id = 0 }, { address = 0xDEAD000 }",
		"sched_process_fork: { cpu_id = 0 }, { parent_comm = \"parent\", parent_tid = 100, parent_pid = 100, child_comm = \"parent\", child_tid = 101, child_pid = 101 }",
		"lttng_logger: { cpu_id = 0 }, { msg_length = 5, msg = \"hello\" }",
		"tracebuf_func_entry: { cpu_id = 0 }, { id = 117440514, name = \"kfunc_vfs_read\" }",
		"tracebuf_typed_event: { cpu_id = 0 }, { type = 9, data_length = 2, data = \"ab\" }",
		"softirq_entry: { cpu_id = 1 }, { vec = 1 }",
		"sched_process_exit: { cpu_id = 1 }, { comm = \"child\", tid = 101 }",
		"syscall_entry_close: { cpu_id = 1 }, { fd = -1 }",
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"parent\", prev_tid = 100, prev_prio = 20, prev_state = 0, next_comm = \"swapper/0\", next_tid = 0, next_prio = 20 }",
		"lttng_statedump_process_state: { cpu_id = 0 }, { tid = 100, vtid = 100, pid = 100, vpid = 100, ppid = 0, vppid = 0, name = \"parent\", status = 0 }",
		"Tracer discarded 5 events",
	};
	char *dir = tu_tmpdir(), fdr[256], *out;
	size_t i;
	int status;

	if (!tu_have("babeltrace2")) {
		tu_rmdir(dir);
		SKIP(return, "babeltrace2 not installed (scripts/setup.sh installs it)");
	}
	make_kernel_trace(dir, fdr, sizeof(fdr));
	out = tu_run(&status, "%s convert -q fdr-ctf %s %s/ctf && %s %s %s %s/ctf",
		     tu_tool("tracebuf"), fdr, dir, CHECK, tu_tool("tracebuf"),
		     fdr, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "babeltrace2 %s/ctf", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *hit = strstr(out, want[i]);

		EXPECT_NE(NULL, hit) TH_LOG("no '%s'", want[i]);
		if (!hit)
			fprintf(stderr, "%s", out);
	}
	/* The child was forked in the trace: no state dump of it. */
	EXPECT_EQ(NULL, strstr(out, "lttng_statedump_process_state: { cpu_id = 0 }, { tid = 101"));
	free(out);
	tu_rmdir(dir);
}

/*
 * The scheduler's typed events (tb_sched_gen.h): sched_switch from the
 * recorded switches with the kernel's prev_state, sched_wakeup and
 * sched_wakeup_new, syscall_exit's ret from RET, as babeltrace2 prints
 * them; the trace's own description is no event and no task.
 */
TEST(sched_typed)
{
	static const char *const want[] = {
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"swapper/0\", prev_tid = 0, prev_prio = 20, prev_state = 0, next_comm = \"ping\", next_tid = 200, next_prio = 20 }",
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"ping\", prev_tid = 200, prev_prio = 20, prev_state = 1, next_comm = \"pong\", next_tid = 201, next_prio = 20 }",
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"pong\", prev_tid = 201, prev_prio = 20, prev_state = 1, next_comm = \"ping\", next_tid = 200, next_prio = 20 }",
		"sched_switch: { cpu_id = 1 }, { prev_comm = \"swapper/1\", prev_tid = 0, prev_prio = 20, prev_state = 0, next_comm = \"child\", next_tid = 202, next_prio = 20 }",
		"sched_switch: { cpu_id = 1 }, { prev_comm = \"child\", prev_tid = 202, prev_prio = 20, prev_state = 16, next_comm = \"swapper/1\", next_tid = 0, next_prio = 20 }",
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"ping\", prev_tid = 200, prev_prio = 20, prev_state = 2, next_comm = \"swapper/0\", next_tid = 0, next_prio = 20 }",
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"swapper/0\", prev_tid = 0, prev_prio = 20, prev_state = 0, next_comm = \"ping\", next_tid = 200, next_prio = 20 }",
		"sched_wakeup: { cpu_id = 0 }, { comm = \"pong\", tid = 201, prio = 20, target_cpu = 0 }",
		"sched_wakeup: { cpu_id = 0 }, { comm = \"ping\", tid = 200, prio = 20, target_cpu = 0 }",
		"sched_wakeup_new: { cpu_id = 0 }, { comm = \"child\", tid = 202, prio = 20, target_cpu = 1 }",
		"syscall_exit_openat: { cpu_id = 0 }, { ret = -2 }",
		"syscall_exit_write: { cpu_id = 0 }, { ret = 0 }",
	};
	char *dir = tu_tmpdir(), fdr[256], *out;
	size_t i;
	int status;

	if (!tu_have("babeltrace2")) {
		tu_rmdir(dir);
		SKIP(return, "babeltrace2 not installed (scripts/setup.sh installs it)");
	}
	snprintf(fdr, sizeof(fdr), "%s/s.fdr", dir);
	ASSERT_EQ(0, sg_write(fdr));
	out = tu_run(&status, "%s convert fdr-ctf %s %s/ctf 2>&1 && %s %s %s %s/ctf",
		     tu_tool("tracebuf"), fdr, dir, CHECK, tu_tool("tracebuf"),
		     fdr, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	/* Every switch recorded: none derived. */
	EXPECT_EQ(NULL, strstr(out, "sched_switch derived")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "7 recorded switches (0 derived), 4 wake-ups, 3 return values agree"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "3 syscall exits have a return value")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "babeltrace2 %s/ctf", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *w = want[i];

		EXPECT_NE(NULL, strstr(out, w)) TH_LOG("no '%s'", w);
	}
	EXPECT_EQ(7, tu_count(out, "sched_switch:"));
	EXPECT_EQ(3, tu_count(out, "ret = -2"));
	/* Nothing of the trace's description: no typed event, no task. */
	EXPECT_EQ(NULL, strstr(out, "tracebuf_typed_event")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "2147483646")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
}

/*
 * lttng-analyses on the converted scheduler trace, whose numbers are
 * known (tb_sched_gen.h): 4 wake-ups, latencies 90 to 250 ns (690 in
 * all), and openat's three ENOENT.
 */
TEST(sched_analyses)
{
	char *dir, fdr[256], *out;
	int status;

	if (!tu_have("lttng-schedstats") || !tu_have("lttng-syscallstats"))
		SKIP(return, "lttng-analyses not installed (scripts/setup.sh installs them)");
	dir = tu_tmpdir();
	snprintf(fdr, sizeof(fdr), "%s/s.fdr", dir);
	ASSERT_EQ(0, sg_write(fdr));
	out = tu_run(&status, "%s convert -q fdr-ctf %s %s/ctf && "
		     "lttng-schedstats --total --per-tid %s/ctf 2>/dev/null",
		     tu_tool("tracebuf"), fdr, dir, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	/* Count, min, avg, max in us: 690 / 4 = 172.5 ns. */
	EXPECT_NE(NULL, strstr(out, "4            0.090        0.172        0.250"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "child (202)                      1         0.090         0.090         0.090"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "ping (200)                       2         0.100         0.175         0.250"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "pong (201)                       1         0.250         0.250         0.250"))
		TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "lttng-syscallstats %s/ctf 2>/dev/null", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	/*
	 * Three openat calls failed with ENOENT.  lttng-analyses 0.6.1
	 * counts each return value once too many (its first sighting sets
	 * 1, then adds 1): 3 reads as 4, and write's one success as 2.
	 */
	EXPECT_NE(NULL, strstr(out, " - openat                                           3"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "{'ENOENT': 4}")) TH_LOG("%s", out);
	EXPECT_EQ(1, tu_count(out, "ENOENT")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
}

/*
 * A damaged trace (tb_sched_gen.h): RETs that do not follow their exit
 * are left out, never pinned on another call; a SWITCH or RET too short
 * is a typed event as it was; a state no version knows is 0; the first task
 * of a CPU gets a derived switch.
 */
TEST(sched_hostile)
{
	static const char *const want[] = {
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"\", prev_tid = 0, prev_prio = 20, prev_state = 0, next_comm = \"hostile\", next_tid = 300, next_prio = 20 }",
		"syscall_exit_read: { cpu_id = 0 }, { ret = 0 }",
		"syscall_exit_write: { cpu_id = 0 }, { ret = -9 }",
		"tracebuf_typed_event: { cpu_id = 0 }, { type = 1, data_length = 5, data = \"\\x01\\x02\\x03\\x04\\x05\" }",
		"tracebuf_typed_event: { cpu_id = 0 }, { type = 3, data_length = 4, data = \"\\x01\\x02\\x03\\x04\" }",
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"hostile\", prev_tid = 300, prev_prio = 20, prev_state = 0, next_comm = \"other\", next_tid = 301, next_prio = 20 }",
	};
	char *dir = tu_tmpdir(), fdr[256], *out;
	size_t i;
	int status;

	if (!tu_have("babeltrace2")) {
		tu_rmdir(dir);
		SKIP(return, "babeltrace2 not installed (scripts/setup.sh installs it)");
	}
	snprintf(fdr, sizeof(fdr), "%s/h.fdr", dir);
	ASSERT_EQ(0, sg_write_hostile(fdr));
	out = tu_run(&status, "%s convert fdr-ctf %s %s/ctf 2>&1 && %s %s %s %s/ctf",
		     tu_tool("tracebuf"), fdr, dir, CHECK, tu_tool("tracebuf"),
		     fdr, dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "3 return values (RET) do not follow an exit of their call: left out"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "2 typed events too short for their type"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "1 sched_switch derived from the blocks (a CPU's events changing task where no switch was recorded)"))
		TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, "babeltrace2 %s/ctf", dir);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *w = want[i];

		EXPECT_NE(NULL, strstr(out, w)) TH_LOG("no '%s'", w);
	}
	EXPECT_EQ(2, tu_count(out, "sched_switch:"));
	EXPECT_EQ(1, tu_count(out, "ret = -"));
	free(out);
	tu_rmdir(dir);
}

/* A second trace is never mixed into a directory that holds one. */
TEST(refuses_existing)
{
	char dir[] = "/tmp/tb-ctf-XXXXXX";
	char *out;
	int status;

	ASSERT_NE(NULL, mkdtemp(dir));
	out = tu_run(&status, "%s convert -q fdr-ctf data/viewer/demo.fdr %s && "
		     "%s convert -q fdr-ctf data/viewer/demo.fdr %s",
		     tu_tool("tracebuf"), dir, tu_tool("tracebuf"), dir);
	tu_rmdir(dir);
	ASSERT_EQ(1, status) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "holds a trace already"));
	free(out);
}

/*
 * XScale input, as a file and through a pipe: refused, saying what it
 * is and the command that reads it (standard input as "-"), without a
 * word on the names an FDR trace would carry, and no directory left.
 */
TEST(refuses_xscale)
{
	static const char *const how[][2] = {
		{ "", "data/corpus/xscale/snapshot.bin" },
		{ "cat data/corpus/xscale/snapshot.bin | ", "-" },
	};
	static const char *const said[] = {
		"data/corpus/xscale/snapshot.bin is an XScale trace buffer",
		"standard input is an XScale trace buffer",
	};
	static const char *const reads[] = {
		"tracebuf decode data/corpus/xscale/snapshot.bin",
		"tracebuf decode -",
	};
	char dir[] = "/tmp/tb-ctf-XXXXXX";
	char path[300];
	struct stat sb;
	char *out;
	size_t i;
	int status;

	ASSERT_NE(NULL, mkdtemp(dir));
	for (i = 0; i < 2; i++) {
		out = tu_run(&status, "%s%s convert fdr-ctf %s %s/x", how[i][0],
			     tu_tool("tracebuf"), how[i][1], dir);
		EXPECT_EQ(3, status) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, said[i])) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, reads[i])) TH_LOG("%s", out);
		EXPECT_EQ(0, tu_count(out, "carries no names")) TH_LOG("%s", out);
		free(out);
		snprintf(path, sizeof(path), "%s/x", dir);
		EXPECT_NE(0, stat(path, &sb));
	}
	tu_rmdir(dir);
}

/*
 * The env's hostname and kernel_release come from the trace's own
 * description (its META block) when it has one, as LTTng writes the
 * machine's; a trace without one (gen-v2.fdr, llvm-xray's kind) says
 * "unknown" and says so on standard error.
 */
TEST(env_from_the_trace)
{
	char *dir = tu_tmpdir(), *out, path[512], *meta;
	int st;

	out = tu_run(&st, "%s convert fdr-ctf data/viewer/demo.fdr %s/a 2>&1",
		     tu_tool("tracebuf"), dir);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "unknown")) TH_LOG("%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/a/kernel/metadata", dir);
	meta = tu_slurp(path);
	ASSERT_NE(NULL, meta);
	EXPECT_NE(NULL, strstr(meta, "hostname = \"tracebuf-vm\";")) TH_LOG("%s", meta);
	EXPECT_NE(NULL, strstr(meta, "kernel_release = \"6.1.0-56-amd64\";"));
	free(meta);
	out = tu_run(&st, "%s convert fdr-ctf data/corpus/fdr/gen-v2.fdr %s/b 2>&1",
		     tu_tool("tracebuf"), dir);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "written as \"unknown\": hostname, kernel release"))
		TH_LOG("%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/b/kernel/metadata", dir);
	meta = tu_slurp(path);
	ASSERT_NE(NULL, meta);
	EXPECT_NE(NULL, strstr(meta, "hostname = \"unknown\";"));
	free(meta);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A syscall is named as lttng-modules names it on the trace's machine, by
 * its kernel function, and the trace says no architecture: the renamed
 * calls are told by their numbers too.  __NR_sendfile is sys_sendfile64
 * on x86-64 (40) and arm64 (71) but sys_sendfile on 32-bit ARM (187),
 * whose sendfile64 is 239; arm64's __NR_fadvise64 (223) is
 * sys_fadvise64_64, x86-64's (221) sys_fadvise64.  (lttng-modules'
 * instrumentation/syscalls/headers/{x86-64,arm-64,arm-32}-syscalls_*.h.)
 */
TEST(syscalls_named_as_lttng_by_number)
{
	static const struct {
		unsigned int nr;
		const char *name, *want;
	} sc[] = {
		{ 40, "sendfile", "sendfile64" }, { 71, "sendfile", "sendfile64" },
		{ 187, "sendfile", "sendfile" }, { 239, "sendfile64", "sendfile64" },
		{ 221, "fadvise64", "fadvise64" }, { 223, "fadvise64", "fadvise64_64" },
		{ 63, "uname", "newuname" }, { 166, "umount2", "umount" },
	};
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	char *dir = tu_tmpdir(), fdr[300], path[320], want[128], *out, *meta;
	struct tb_fdr_writer w;
	size_t i;
	FILE *f;
	int st;

	snprintf(fdr, sizeof(fdr), "%s/s.fdr", dir);
	f = fopen(fdr, "wb");
	ASSERT_NE(NULL, f);
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 100, 100, 0, 1000, 1700000000, 0);
	for (i = 0; i < ARRAY_SIZE(sc); i++) {
		tb_fdr_writer_function(&w, TB_FDR_ENTER, KID(SYSCALL, sc[i].nr),
				       1000 + 100 * i, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, KID(SYSCALL, sc[i].nr),
				       1050 + 100 * i, NULL, 0);
	}
	tb_fdr_writer_finish(&w);
	fclose(f);
	snprintf(path, sizeof(path), "%s.names", fdr);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	for (i = 0; i < ARRAY_SIZE(sc); i++)
		fprintf(f, "%u sys_%s\n", KID(SYSCALL, sc[i].nr), sc[i].name);
	fclose(f);
	out = tu_run(&st, "%s convert -q fdr-ctf %s %s/ctf", tu_tool("tracebuf"), fdr, dir);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/ctf/kernel/metadata", dir);
	meta = tu_slurp(path);
	ASSERT_NE(NULL, meta);
	for (i = 0; i < ARRAY_SIZE(sc); i++) {
		snprintf(want, sizeof(want), "name = \"syscall_entry_%s\";", sc[i].want);
		EXPECT_NE(NULL, strstr(meta, want))
			TH_LOG("%u sys_%s: no '%s'", sc[i].nr, sc[i].name, want);
	}
	EXPECT_NE(NULL, strstr(meta, "name = \"syscall_entry_sendfile\";"))
		TH_LOG("32-bit ARM's sendfile (187) named as another call");
	EXPECT_NE(NULL, strstr(meta, "name = \"syscall_entry_fadvise64\";"));
	free(meta);
	tu_rmdir(dir);
	free(dir);
}

/* OUTPUT is a directory: stdout cannot be one. */
TEST(needs_output)
{
	char *out;
	int status;

	out = tu_run(&status, "%s convert fdr-ctf data/viewer/demo.fdr",
		     tu_tool("tracebuf"));
	ASSERT_EQ(2, status) TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
