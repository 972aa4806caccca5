// SPDX-License-Identifier: GPL-2.0
/*
 * trace_event JSON (lib/convert/fdr_json.c) of an FDR file made with the FDR
 * writer: python's json module must load it, there must be one B or E
 * event per function record and one instant per custom event, ts in
 * microseconds, names from the map; llvm-xray convert -f trace_event, when
 * installed, must see as many function events.  A kernel trace renders as
 * recorded: point events as instants, every slice closed and cut ones
 * marked, named tasks, CPU tracks, named arguments, losses where they
 * happened (scripts/check/viewer-check.sh checks the same in a browser).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"

#include "convert/fdr_json.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "util/bytes.h"
#include "tb_test_util.h"

/* Two threads, nested calls with arguments, a custom event. */
static void make_trace(const char *path, uint64_t *functions)
{
	static const uint64_t args[2] = { 7, 8 };
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 2000000000ULL,	/* 2 GHz */
	};
	struct tb_fdr_writer w;
	struct tb_fdr_stats st;
	struct tb_error err;
	FILE *f = fopen(path, "w+b");

	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 10, 11, 0, 2000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 2000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, 2, 4000, args, 2);
	tb_fdr_writer_custom(&w, 5000, "say \"hi\"\n\x01", 10);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, 6000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 8000, NULL, 0);
	tb_fdr_writer_begin(&w, 10, 12, 1, 3000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 3, 3000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_TAIL_EXIT, 3, 3500, NULL, 0);
	tb_fdr_writer_finish(&w);
	rewind(f);
	if (tb_fdr_reader_read(f, NULL, NULL, NULL, &st, &err))
		st.functions = 0;
	*functions = st.functions;
	fclose(f);
}

TEST(valid_json_one_event_per_record)
{
	char *dir = tu_tmpdir(), fdr[256], json[256], *out;
	struct tb_fdr_json_stats st;
	struct tb_name_map names = { 0 };
	struct tb_error err;
	uint64_t functions;
	FILE *in, *o;
	int status;

	if (!tu_have("python3")) {
		tu_rmdir(dir);
		SKIP(return, "python3 not installed (its json module checks the output)");
	}
	snprintf(fdr, sizeof(fdr), "%s/t.fdr", dir);
	snprintf(json, sizeof(json), "%s/t.json", dir);
	make_trace(fdr, &functions);
	ASSERT_EQ(6, functions);
	ASSERT_EQ(0, tb_name_map_add(&names, 1, "outer"));
	ASSERT_EQ(0, tb_name_map_add(&names, 2, "in\"ner"));
	ASSERT_EQ(0, tb_name_map_finish(&names, &err));
	in = fopen(fdr, "rb");
	o = fopen(json, "w");
	ASSERT_EQ(0, tb_fdr_json_write(in, o, &names, NULL, &st, &err));
	fclose(in);
	fclose(o);
	EXPECT_EQ(3, st.begins);
	EXPECT_EQ(3, st.ends);
	EXPECT_EQ(1, st.instants);
	EXPECT_EQ(functions, st.begins + st.ends);

	/*
	 * Valid JSON; the events of the threads (not the names, not the CPU
	 * tracks) by phase; names, args, ts in microseconds.
	 */
	out = tu_run(&status, "python3 -c 'import json,sys; "
		     "d=[e for e in json.load(open(sys.argv[1]))[\"traceEvents\"] if e[\"ph\"] != \"M\" and e[\"pid\"] != 536870912]; "
		     "print(\"\".join(e[\"ph\"] for e in d)); "
		     "print(d[0][\"name\"], d[0][\"ts\"], d[0][\"pid\"], d[0][\"tid\"]); "
		     "print(d[1][\"name\"], d[1][\"args\"][\"arg1\"]); "
		     "print(repr(d[2][\"args\"][\"data\"]), d[2][\"ts\"]); "
		     "print(d[5][\"name\"], d[5][\"tid\"])' %s", json);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "BBiEEBE\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "outer 1.0 10 11\n")) TH_LOG("%s", out);
	/* Arguments of an id of no known class: by position, in hex. */
	EXPECT_NE(NULL, strstr(out, "in\"ner 0x8\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "'say \"hi\"\\n\\x01' 2.5\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "function 3 12\n")) TH_LOG("%s", out);
	free(out);

	/* llvm-xray's own conversion sees the same function events. */
	out = tu_run(&status, "llvm-xray --version");
	free(out);
	if (!status) {
		out = tu_run(&status, "llvm-xray convert -f trace_event -o %s/x.json %s && "
			     "python3 -c 'import json,sys; "
			     "d=json.load(open(sys.argv[1]))[\"traceEvents\"]; "
			     "print(sum(1 for e in d if e[\"ph\"] in \"BE\"))' %s/x.json",
			     dir, fdr, dir);
		EXPECT_EQ(0, status) TH_LOG("%s", out);
		EXPECT_EQ(6, atoi(out)) TH_LOG("%s", out);
		free(out);
	}
	tb_name_map_free(&names);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A kernel trace (names with kernel ids, 1 GHz): thread 11 returns from a
 * sys_wait4 entered before the capture, faults, loses events and enters a
 * sys_read it never leaves; thread 12 of the same process takes an IRQ
 * and exits.
 */
static void make_kernel_trace(const char *path, const char *names)
{
	static const uint64_t addr = 0xdead, pid = 12;
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_writer w;
	FILE *f = fopen(path, "w+b");
	FILE *n = fopen(names, "w");

	fprintf(n, "1 sys_read\n# kernel id 0x1000000\n"
		"2 irq_4_ttyS0\n# kernel id 0x2000004\n"
		"3 sys_wait4\n# kernel id 0x100003d\n"
		"4 fault_user\n# kernel id 0x5000000\n"
		"5 task_exit\n# kernel id 0x6000001\n");
	fclose(n);
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 10, 11, 0, 1000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 1000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 1500, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 3, 2000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, 4, 2500, &addr, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 4, 2500, NULL, 0);
	tb_fdr_writer_custom(&w, 2600, "tracebuf: lost 5 events", 23);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 3000, NULL, 0);
	tb_fdr_writer_custom(&w, 3500, "hi", 2);
	tb_fdr_writer_begin(&w, 10, 12, 1, 1200, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 2, 1200, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, 1300, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, 5, 1400, &pid, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 5, 1400, NULL, 0);
	tb_fdr_writer_finish(&w);
	fclose(f);
}

/* The events of the JSON, one line each: ph name pid tid ts args. */
#define EVENTS_PY \
	"python3 -c 'import json,sys\n" \
	"for e in json.load(open(sys.argv[1]))[\"traceEvents\"]:\n" \
	"  print(e[\"ph\"], e[\"name\"], e[\"pid\"], e[\"tid\"], e.get(\"ts\", \"-\"), " \
	"json.dumps(e.get(\"args\", {}), sort_keys=True))' "

TEST(kernel_trace_renders_as_recorded)
{
	char *dir = tu_tmpdir(), fdr[256], nm[256], json[256], *out;
	struct tb_fdr_json_stats st;
	struct tb_name_map names;
	struct tb_task_map tasks;
	struct tb_error err;
	FILE *in, *o;
	int status;

	if (!tu_have("python3")) {
		tu_rmdir(dir);
		SKIP(return, "python3 not installed (its json module checks the output)");
	}
	snprintf(fdr, sizeof(fdr), "%s/k.fdr", dir);
	snprintf(nm, sizeof(nm), "%s/k.fdr.names", dir);
	snprintf(json, sizeof(json), "%s/k.json", dir);
	make_kernel_trace(fdr, nm);
	in = fopen(nm, "r");
	ASSERT_EQ(0, tb_name_map_load(&names, in, &err));
	fclose(in);
	tb_task_map_init(&tasks);
	ASSERT_EQ(0, tb_task_map_set(&tasks, 11, 10, "work"));
	in = fopen(fdr, "rb");
	o = fopen(json, "w");
	ASSERT_EQ(0, tb_fdr_json_write(in, o, &names, &tasks, &st, &err));
	fclose(in);
	fclose(o);
	EXPECT_EQ(1, st.cut_start);
	EXPECT_EQ(1, st.cut_end);
	EXPECT_EQ(2, st.threads);
	EXPECT_EQ(0, st.disordered);

	out = tu_run(&status, EVENTS_PY "%s", json);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	/*
	 * Processes and threads named; a thread the tasks file does not
	 * know by its process's command.
	 */
	EXPECT_NE(NULL, strstr(out, "M process_name 10 0 - {\"name\": \"work\"}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "M thread_name 10 11 - {\"name\": \"work\"}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "M thread_name 10 12 - {\"name\": \"work\"}\n")) TH_LOG("%s", out);
	/* Each CPU a track of the task on it. */
	EXPECT_NE(NULL, strstr(out, "M thread_name 536870912 536870913 - {\"name\": \"CPU 0\"}\n")) TH_LOG("%s", out);
	free(out);
	/* ...guessed from the blocks (no switches), and it says so. */
	out = tu_run(&status, "head -c 80 %s", json);
	EXPECT_NE(NULL, strstr(out, "\"otherData\": {\"cpu_tracks\": \"blocks\"}")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&status, EVENTS_PY "%s", json);
	EXPECT_NE(NULL, strstr(out, "B work 11 536870912 536870913 1.0 {\"pid\": 10, \"tid\": 11}\n"
			       "E work 11 536870912 536870913 3.5 {\"pid\": 10, \"tid\": 11}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "B work 12 536870912 536870914 1.2 {\"pid\": 10, \"tid\": 12}\n"
			       "E work 12 536870912 536870914 1.4 {\"pid\": 10, \"tid\": 12}\n")) TH_LOG("%s", out);
	/*
	 * Thread 11: the call running at the start opened at its first time
	 * and marked, before the first call; the fault an instant with its
	 * address; the loss on the thread and the CPU; the call running at
	 * the end closed at its last record, marked on both ends.
	 */
	EXPECT_NE(NULL, strstr(out,
		"B sys_wait4 10 11 1.0 {\"cut\": \"capture start\", \"nr\": 61}\n"
		"B sys_read 10 11 1.0 {\"nr\": 0}\n"
		"E sys_read 10 11 1.5 {\"nr\": 0}\n"
		"E sys_wait4 10 11 2.0 {\"cut\": \"capture start\", \"nr\": 61}\n"
		"i fault_user 10 11 2.5 {\"address\": \"0xdead\"}\n"
		"i lost events 10 11 2.6 {\"lost\": 5}\n"
		"i lost events 536870912 536870913 2.6 {\"lost\": 5}\n"
		"B sys_read 10 11 3.0 {\"cut\": \"capture end\", \"nr\": 0}\n"
		"i marker 10 11 3.5 {\"data\": \"hi\"}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out,
		"B irq_4_ttyS0 10 12 1.2 {\"irq\": 4}\n"
		"E irq_4_ttyS0 10 12 1.3 {\"irq\": 4}\n"
		"i task_exit 10 12 1.4 {\"pid\": 12}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out,
		"E sys_read 10 11 3.5 {\"cut\": \"capture end\", \"nr\": 0}\n")) TH_LOG("%s", out);
	free(out);

	/* Every "B" has its "E" with the same name and arguments. */
	out = tu_run(&status, "python3 -c 'import json,sys\n"
		     "st={}\n"
		     "for e in json.load(open(sys.argv[1]))[\"traceEvents\"]:\n"
		     "  k=(e[\"pid\"],e[\"tid\"]); s=st.setdefault(k,[])\n"
		     "  if e[\"ph\"]==\"B\": s.append((e[\"name\"],e.get(\"args\")))\n"
		     "  elif e[\"ph\"]==\"E\": assert s.pop()==(e[\"name\"],e.get(\"args\")), e\n"
		     "assert not any(st.values()), st\n"
		     "print(\"balanced\")' %s", json);
	EXPECT_EQ(0, status) TH_LOG("%s", out);
	free(out);
	tb_name_map_free(&names);
	tb_task_map_free(&tasks);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A task exit ends the calls it left open: marked so, not as the end.
 * The command name the task wrote as it exited names its process and
 * thread (no tasks file) and is no event of its own.
 */
TEST(calls_of_an_exited_task)
{
	static const uint64_t pid = 7;
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	char *dir = tu_tmpdir(), fdr[256], nm[256], json[256], *out;
	struct tb_name_map names;
	struct tb_fdr_writer w;
	struct tb_error err;
	FILE *f, *o;
	int status;

	if (!tu_have("python3")) {
		tu_rmdir(dir);
		SKIP(return, "python3 not installed (its json module checks the output)");
	}
	snprintf(fdr, sizeof(fdr), "%s/k.fdr", dir);
	snprintf(nm, sizeof(nm), "%s/k.fdr.names", dir);
	snprintf(json, sizeof(json), "%s/k.json", dir);
	f = fopen(nm, "w");
	fprintf(f, "1 sys_exit_group\n# kernel id 0x10000e7\n"
		"2 task_exit\n# kernel id 0x6000001\n");
	fclose(f);
	f = fopen(fdr, "w+b");
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 7, 7, 0, 1000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 1000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, 2, 2000, &pid, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, 2000, NULL, 0);
	tb_fdr_writer_custom(&w, 2000, "tracebuf: comm short-lived", 26);
	tb_fdr_writer_finish(&w);
	rewind(f);
	o = fopen(nm, "r");
	ASSERT_EQ(0, tb_name_map_load(&names, o, &err));
	fclose(o);
	o = fopen(json, "w");
	ASSERT_EQ(0, tb_fdr_json_write(f, o, &names, NULL, NULL, &err));
	fclose(f);
	fclose(o);
	out = tu_run(&status, EVENTS_PY "%s", json);
	EXPECT_NE(NULL, strstr(out,
		"B sys_exit_group 7 7 1.0 {\"cut\": \"task exited\", \"nr\": 231}\n"
		"i task_exit 7 7 2.0 {\"pid\": 7}\n"
		"E sys_exit_group 7 7 2.0 {\"cut\": \"task exited\", \"nr\": 231}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "M process_name 7 0 - {\"name\": \"short-lived\"}\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "M thread_name 7 7 - {\"name\": \"short-lived\"}\n")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "tracebuf: comm")) TH_LOG("%s", out);
	free(out);
	tb_name_map_free(&names);
	tu_rmdir(dir);
	free(dir);
}

/* Read from a pipe: copied, then read twice. */
/*
 * The idle tasks of CPUs 0 and 1 (TRACEBUF_FDR_IDLE_TID, pid 0) each take
 * an IRQ: each thread and each CPU track names its own idle task,
 * swapper/N with tid 0 as the kernel shows it, never the other CPU's
 * name (a buffer the names shared was overwritten) nor the raw tid.
 */
TEST(idle_tasks_are_swapper_n_with_tid_0)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_task_map tasks;
	struct tb_fdr_writer w;
	struct tb_error err;
	char *text = NULL, *raw = NULL, want[128];
	size_t len, rawlen;
	unsigned int cpu;
	FILE *f = open_memstream(&raw, &rawlen), *in, *out;

	ASSERT_NE(NULL, f);
	tb_fdr_writer_init(&w, f, &h, 0);
	for (cpu = 0; cpu < 2; cpu++) {
		uint64_t t = 1000 + cpu * 100;

		tb_fdr_writer_begin(&w, 0, TRACEBUF_FDR_IDLE_TID(cpu), cpu, t,
				    0, 0);
		tb_fdr_writer_function(&w, TB_FDR_ENTER, 7, t + 10, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, 7, t + 20, NULL, 0);
	}
	tb_fdr_writer_finish(&w);
	fclose(f);
	tb_task_map_init(&tasks);
	in = fmemopen(raw, rawlen, "r");
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_json_write(in, out, NULL, &tasks, NULL, &err))
		TH_LOG("%s", err.msg);
	fclose(in);
	fclose(out);
	for (cpu = 0; cpu < 2; cpu++) {
		/* The thread's name... */
		snprintf(want, sizeof(want),
			 "\"tid\": %d, \"args\": {\"name\": \"swapper/%u\"}",
			 TRACEBUF_FDR_IDLE_TID(cpu), cpu);
		EXPECT_NE(NULL, strstr(text, want)) TH_LOG("no %s in\n%s",
							   want, text);
		/* ...and its CPU's slices, with the pid and tid shown. */
		snprintf(want, sizeof(want),
			 "{\"name\": \"swapper/%u 0\", \"cat\": \"cpu\", \"ph\": \"B\", \"pid\": %d, \"tid\": %d",
			 cpu, TB_FDR_JSON_CPUS_PID, TB_FDR_JSON_CPU_TID(cpu));
		EXPECT_NE(NULL, strstr(text, want)) TH_LOG("no %s in\n%s",
							   want, text);
	}
	EXPECT_EQ(NULL, strstr(text, "\"pid\": 0, \"tid\": 1073741824}"));
	EXPECT_EQ(NULL, strstr(text, "swapper/1 1073741825"));
	free(text);
	free(raw);
	tb_task_map_free(&tasks);
}

/* ---- switches and wake-ups (uapi typed events) ---- */

static void put_switch(struct tb_fdr_writer *w, uint64_t tsc, int32_t prev,
		       int32_t next, uint8_t state)
{
	uint8_t p[TRACEBUF_FDR_SWITCH_SIZE] = { 0 };

	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_PREV_TID, (uint32_t)prev);
	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_NEXT_TID, (uint32_t)next);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_PREV_PRIO, 120);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_NEXT_PRIO, 120);
	p[TRACEBUF_FDR_SWITCH_PREV_STATE] = state;
	tb_fdr_writer_typed(w, tsc, TRACEBUF_FDR_TYPED_SWITCH, p, sizeof(p));
}

static void put_wakeup(struct tb_fdr_writer *w, uint64_t tsc, int32_t tid,
		       uint16_t cpu)
{
	uint8_t p[TRACEBUF_FDR_WAKEUP_SIZE] = { 0 };

	tb_bytes_put32(p + TRACEBUF_FDR_WAKEUP_TID, (uint32_t)tid);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_CPU, cpu);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_PRIO, 120);
	tb_fdr_writer_typed(w, tsc, TRACEBUF_FDR_TYPED_WAKEUP, p, sizeof(p));
}

/*
 * At 1 GHz, tasks 10 and 11 of process 10 ("work"):
 *
 *   the trace's description (META thread) at 500, on CPU 0;
 *   CPU 0: task 10 calls 1 from 1000 to 1500 (returning -ENOENT), wakes
 *     11 for CPU 1 at 1800, sleeps at 2000: the idle task takes an IRQ
 *     (id 2) from 2500 to 2600, wakes 10 at 4900, 10 runs from 5000 and
 *     calls 1 from 5100 to 5200;
 *   CPU 1: its idle task calls 2 from 1100 to 1200 (the CPU's first
 *     record), task 11 is switched in at 3000 and calls 1 from 3100 to
 *     3400.
 */
static char *sched_json(struct __test_metadata *_metadata, const char *dir,
			struct tb_fdr_json_stats *st)
{
	static const char names[] = "1 x\n";
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	uint8_t ret[TRACEBUF_FDR_RET_SIZE];
	struct tb_task_map tasks;
	struct tb_fdr_writer w;
	struct tb_error err;
	char fdr[256], json[256];
	FILE *f, *o;

	snprintf(fdr, sizeof(fdr), "%s/s.fdr", dir);
	snprintf(json, sizeof(json), "%s/s.json", dir);
	f = fopen(fdr, "w+b");
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 0, TRACEBUF_FDR_META_TID, 0, 500, 0, 0);
	tb_fdr_writer_typed(&w, 500, TRACEBUF_FDR_TYPED_META_NAMES, names,
			    sizeof(names) - 1);
	tb_fdr_writer_begin(&w, 10, 10, 0, 1000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 1000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 1500, NULL, 0);
	tb_bytes_put32(ret + TRACEBUF_FDR_RET_ID, 1);
	tb_bytes_put64(ret + TRACEBUF_FDR_RET_VALUE, (uint64_t)-2);
	tb_fdr_writer_typed(&w, 1500, TRACEBUF_FDR_TYPED_RET, ret, sizeof(ret));
	put_wakeup(&w, 1800, 11, 1);
	tb_fdr_writer_begin(&w, 0, TRACEBUF_FDR_IDLE_TID(0), 0, 2000, 0, 0);
	put_switch(&w, 2000, 10, TRACEBUF_FDR_IDLE_TID(0),
		   TRACEBUF_FDR_STATE_SLEEPING);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 2, 2500, NULL, 0);
	put_wakeup(&w, 2550, 10, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, 2600, NULL, 0);
	tb_fdr_writer_begin(&w, 0, TRACEBUF_FDR_IDLE_TID(1), 1, 1100, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 2, 1100, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, 1200, NULL, 0);
	tb_fdr_writer_begin(&w, 10, 11, 1, 3000, 0, 0);
	put_switch(&w, 3000, TRACEBUF_FDR_IDLE_TID(1), 11,
		   TRACEBUF_FDR_STATE_RUNNING);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 3100, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 3400, NULL, 0);
	tb_fdr_writer_begin(&w, 10, 10, 0, 5000, 0, 0);
	put_switch(&w, 5000, TRACEBUF_FDR_IDLE_TID(0), 10,
		   TRACEBUF_FDR_STATE_RUNNING);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 5100, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 5200, NULL, 0);
	tb_fdr_writer_finish(&w);
	rewind(f);
	o = fopen(json, "w");
	tb_task_map_init(&tasks);
	EXPECT_EQ(0, tb_task_map_set(&tasks, 10, 10, "work"));
	EXPECT_EQ(0, tb_task_map_set(&tasks, 11, 10, "work"));
	EXPECT_EQ(0, tb_fdr_json_write(f, o, NULL, &tasks, st, &err))
		TH_LOG("%s", err.msg);
	fclose(f);
	fclose(o);
	tb_task_map_free(&tasks);
	return strdup(json);
}

/*
 * The CPU tracks are the switches: who ran from each switch to the
 * next, the idle task as swapper/N 0, the task before a CPU's first
 * switch from its first record; wake-ups are flows between them.
 */
TEST(cpu_tracks_from_switches)
{
	char *dir = tu_tmpdir(), *json, *out;
	struct tb_fdr_json_stats st;
	int status;

	if (!tu_have("python3")) {
		tu_rmdir(dir);
		SKIP(return, "python3 not installed (its json module checks the output)");
	}
	json = sched_json(_metadata, dir, &st);
	EXPECT_EQ(5, st.cpu_slices);
	EXPECT_EQ(2, st.flows);
	EXPECT_EQ(4, st.threads);	/* 10, 11 and the two idle tasks */
	out = tu_run(&status, "python3 -c 'import json,sys\n"
		     "d=json.load(open(sys.argv[1]))\n"
		     "print(d[\"otherData\"][\"cpu_tracks\"])\n"
		     "for e in d[\"traceEvents\"]:\n"
		     "  if e[\"pid\"] == 536870912 and e[\"ph\"] != \"M\":\n"
		     "    print(e[\"ph\"], e[\"name\"], e[\"tid\"] - 536870913, e[\"ts\"], "
		     "e.get(\"id\", \"-\"), e.get(\"bp\", \"-\"), "
		     "json.dumps(e.get(\"args\", {}), sort_keys=True))' %s", json);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_STREQ("switches\n"
		"B work 10 0 1.0 - - {\"pid\": 10, \"tid\": 10}\n"
		"E work 10 0 2.0 - - {\"pid\": 10, \"tid\": 10}\n"
		"B swapper/0 0 0 2.0 - - {\"pid\": 0, \"tid\": 0}\n"
		"E swapper/0 0 0 5.0 - - {\"pid\": 0, \"tid\": 0}\n"
		"B work 10 0 5.0 - - {\"pid\": 10, \"tid\": 10}\n"
		"E work 10 0 5.2 - - {\"pid\": 10, \"tid\": 10}\n"
		"B swapper/1 0 1 1.1 - - {\"pid\": 0, \"tid\": 0}\n"
		"E swapper/1 0 1 3.0 - - {\"pid\": 0, \"tid\": 0}\n"
		"B work 11 1 3.0 - - {\"pid\": 10, \"tid\": 11}\n"
		"E work 11 1 3.4 - - {\"pid\": 10, \"tid\": 11}\n"
		"s wakeup 0 1.8 1 - {}\n"
		"f wakeup 1 3.2 1 e {}\n"
		"s wakeup 0 2.55 2 - {}\n"
		"f wakeup 0 5.1 2 e {}\n", out);
	free(out);

	/*
	 * The trace's description is no thread and no event; a return
	 * value an instant on its thread; switches and wake-ups no
	 * instants of their own.
	 */
	out = tu_run(&status, EVENTS_PY "%s", json);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, " 2147483646 ")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "typed event")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "E function 1 10 10 1.5 {}\n"
			       "i return 10 10 1.5 {\"errno\": \"ENOENT\", \"ret\": -2}\n"))
		TH_LOG("%s", out);
	free(out);
	free(json);
	tu_rmdir(dir);
	free(dir);
}

/*
 * What a hostile or partial trace does: a switch whose next task is not
 * its block's (tid 30, of no thread and no name), a wake-up of a task
 * never switched in (no arrow), a CPU with no switch next to one with
 * (its track guessed, and the file says both).
 */
TEST(cpu_tracks_odd_switches)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_json_stats st;
	struct tb_task_map tasks;
	struct tb_fdr_writer w;
	struct tb_error err;
	char *raw = NULL, *text = NULL, *p;
	size_t rawlen, len;
	FILE *f = open_memstream(&raw, &rawlen), *in, *out;

	ASSERT_NE(NULL, f);
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 10, 10, 0, 1000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 1000, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 1100, NULL, 0);
	tb_fdr_writer_begin(&w, 20, 20, 0, 2000, 0, 0);
	put_switch(&w, 2000, 10, 30, TRACEBUF_FDR_STATE_UNINTERRUPTIBLE);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 2100, NULL, 0);
	put_wakeup(&w, 2150, 99, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 2200, NULL, 0);
	tb_fdr_writer_begin(&w, 11, 11, 1, 1500, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 1500, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 1600, NULL, 0);
	tb_fdr_writer_finish(&w);
	fclose(f);
	tb_task_map_init(&tasks);
	ASSERT_EQ(0, tb_task_map_set(&tasks, 10, 10, "a"));
	ASSERT_EQ(0, tb_task_map_set(&tasks, 11, 11, "c"));
	in = fmemopen(raw, rawlen, "r");
	out = open_memstream(&text, &len);
	ASSERT_EQ(0, tb_fdr_json_write(in, out, NULL, &tasks, &st, &err))
		TH_LOG("%s", err.msg);
	fclose(in);
	fclose(out);
	EXPECT_EQ(0, st.flows);
	EXPECT_EQ(3, st.cpu_slices);
	EXPECT_NE(NULL, strstr(text, "\"otherData\": {\"cpu_tracks\": "
			       "\"switches where recorded, else blocks\"}"));
	/* CPU 0: task 10 until the switch, then 30 (pid unknown). */
	p = strstr(text, "{\"name\": \"a 10\", \"cat\": \"cpu\", \"ph\": \"B\", "
		   "\"pid\": 536870912, \"tid\": 536870913, \"ts\": 1.000, "
		   "\"args\": {\"pid\": 10, \"tid\": 10}}");
	EXPECT_NE(NULL, p) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "{\"name\": \"tid 30\", \"cat\": \"cpu\", \"ph\": \"B\", "
			       "\"pid\": 536870912, \"tid\": 536870913, \"ts\": 2.000, "
			       "\"args\": {\"tid\": 30}}")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "{\"name\": \"tid 30\", \"cat\": \"cpu\", \"ph\": \"E\", "
			       "\"pid\": 536870912, \"tid\": 536870913, \"ts\": 2.200, "
			       "\"args\": {\"tid\": 30}}")) TH_LOG("%s", text);
	/* CPU 1: guessed from task 11's block. */
	EXPECT_NE(NULL, strstr(text, "{\"name\": \"c 11\", \"cat\": \"cpu\", \"ph\": \"B\", "
			       "\"pid\": 536870912, \"tid\": 536870914, \"ts\": 1.500, "
			       "\"args\": {\"pid\": 11, \"tid\": 11}}")) TH_LOG("%s", text);
	/* Task 20, whose block the switch opened, never had the CPU. */
	EXPECT_EQ(NULL, strstr(text, "\"name\": \"tid 20\", \"cat\": \"cpu\""));
	free(text);
	free(raw);
	tb_task_map_free(&tasks);
}

TEST(input_from_a_pipe)
{
	char *dir = tu_tmpdir(), fdr[256], cmd[600];
	struct tb_fdr_json_stats st;
	struct tb_error err;
	uint64_t functions;
	FILE *in, *o = tmpfile();

	snprintf(fdr, sizeof(fdr), "%s/t.fdr", dir);
	make_trace(fdr, &functions);
	snprintf(cmd, sizeof(cmd), "cat %s", fdr);
	in = popen(cmd, "r");
	ASSERT_EQ(0, tb_fdr_json_write(in, o, NULL, NULL, &st, &err)) TH_LOG("%s", err.msg);
	pclose(in);
	fclose(o);
	EXPECT_EQ(functions, st.begins + st.ends);
	tu_rmdir(dir);
	free(dir);
}

TEST(malformed_input_is_an_error)
{
	struct tb_error err;
	char junk[40] = "not an FDR file at all";
	FILE *in = fmemopen(junk, sizeof(junk), "rb"), *o = tmpfile();

	EXPECT_EQ(-1, tb_fdr_json_write(in, o, NULL, NULL, NULL, &err));
	fclose(in);
	fclose(o);
}

TEST_HARNESS_MAIN
