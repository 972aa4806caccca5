// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf bpf's records into the FDR file on the host, without BPF:
 * synthetic ring buffer records go through lib/fdr_bpf (and so
 * lib/fdr_blocks, the post-processing and the companion files, as the
 * tool calls them) and llvm-xray reads the result.  The cases the VM
 * cannot produce on demand: gaps over 2^32 ns (TSCWrap), records out of
 * order on a CPU (clamped), exits without entries, idle tasks, loss
 * markers, switch times, block order, work function keys and malformed
 * records.  (This was bpf_replay_test, through the tool's --replay.)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "collect/fdr_bpf.h"
#include "format/fdr_event.h"
#include "format/fdr_reader.h"
#include "syscall_names.h"	/* generated from the UAPI headers */
#include "tool.h"
#include <linux/tracebuf.h>

#define SYS(nr)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)
#define SOFTIRQ(v)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, v)
#define WORK(k)		TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_WORK, k)
#define KFUNC(k)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, k)

/* Records of any CPU a real machine could have. */
#define NR_CPUS		4096

struct rec {
	struct tb_bpf_event e;
	__u64 args[TB_BPF_MAX_ARGS];
};

static void put(struct tb_fdr_bpf *f, __u64 ts, int cpu, __u32 tid,
		__u32 tgid, int kind, __u32 id, int nargs, const __u64 *args)
{
	struct rec r = { 0 };
	__u32 size = sizeof(r.e) + nargs * sizeof(__u64);

	r.e.ts = ts;
	r.e.cpu = cpu;
	r.e.tid = tid;
	r.e.tgid = tgid;
	r.e.kind = kind;
	r.e.id = id;
	r.e.nargs = nargs;
	if (nargs)
		memcpy(r.args, args, nargs * sizeof(__u64));
	tb_fdr_bpf_record(f, &r, size);
}

static void enter(struct tb_fdr_bpf *f, __u64 ts, int cpu, __u32 tid, __u32 id)
{
	put(f, ts, cpu, tid, tid, TB_BPF_ENTER, id, 0, NULL);
}

static void leave(struct tb_fdr_bpf *f, __u64 ts, int cpu, __u32 tid, __u32 id)
{
	put(f, ts, cpu, tid, tid, TB_BPF_EXIT, id, 0, NULL);
}

/* Output of a shell command, or NULL. */
static char *capture(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	size_t n;

	if (!p || !buf)
		return NULL;
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				return NULL;
		}
	}
	buf[len] = '\0';
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static long count(const char *hay, const char *needle)
{
	long n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

struct ctx {
	char dir[64];
	char fdr[128], json[128];
	struct tb_fdr_bpf *f;	/* the records fed so far */
	struct tb_fdr_bpf col;
};

/* 0, or why the test cannot run here. */
static const char *setup(struct ctx *self)
{
	memset(self, 0, sizeof(*self));
	tb_cli_init("fdr_bpf_test");
	if (system("llvm-xray --version >/dev/null 2>&1"))
		return "llvm-xray not installed";
	strcpy(self->dir, "/tmp/tb-replay-XXXXXX");
	if (!mkdtemp(self->dir))
		return "mkdtemp failed";
	snprintf(self->fdr, sizeof(self->fdr), "%s/out.fdr", self->dir);
	snprintf(self->json, sizeof(self->json), "%s/out.json", self->dir);
	if (tb_fdr_bpf_init(&self->col, NR_CPUS, 0, 8 << 20))
		return "out of memory";
	self->f = &self->col;
	return NULL;
}

static void cleanup(struct ctx *self)
{
	char cmd[128];

	if (self->f)
		tb_fdr_bpf_free(self->f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (self->dir[0] && system(cmd))
		fprintf(stderr, "# could not remove %s\n", self->dir);
}

#define SETUP(self)							\
	do {								\
		const char *why = setup(self);				\
		if (why)						\
			SKIP(return, "%s", why);			\
	} while (0)

/* What the tool's options set, for the records fed so far. */
struct run {
	const char *classes;	/* -e */
	bool raw;		/* -r */
	bool json;		/* -J */
	const char *names;	/* -n */
};

/*
 * Write the trace and its files as tracebuf bpf does (tools/cmd_bpf.c),
 * with the wall clock at 0 and no /proc names, and the statistics JSON;
 * 0, or 1 where the tool exits 1.
 */
static int run_opts(struct ctx *self, const struct run *o)
{
	struct tb_fdr_post_files files = { 0 };
	struct tb_collect_stats s = { .output = self->fdr, .status = -1 };
	uint64_t lost_cls[TB_FDR_NR_CLASSES];
	struct tb_fdr_bpf_losses lost;
	struct tb_collect_paths paths;
	struct tb_fdr_post post = { 0 };
	struct tb_name_map known = { 0 };
	struct tb_fdr_bpf_lost tot;
	struct tb_error err;
	char bad[32];
	int ret = 0;
	FILE *out;

	memset(&lost, 0, sizeof(lost));
	files.syscalls.names = syscall_names;
	files.syscalls.n = sizeof(syscall_names) / sizeof(syscall_names[0]);
	if (tb_fdr_classes_parse(o->classes, TB_FDR_BPF_CLASSES, &s.classes,
				 bad, sizeof(bad)))
		return 2;
	if (tb_collect_paths_init(&paths, self->fdr))
		return 1;
	out = tool_open_output(self->fdr);
	post.raw = o->raw;
	if (tb_fdr_bpf_write(self->f, out, &post, &err)) {
		fprintf(stderr, "# %s\n", err.msg);
		ret = 1;
		goto out;
	}
	tool_close_output(out, self->fdr);
	tb_collect_post_files(&files, &paths, self->fdr,
			      &(struct tb_collect_out){ .names = o->names,
							.json = o->json });
	if (tb_fdr_bpf_names(self->f, NULL, NULL, &known)) {
		ret = 1;
		goto out;
	}
	files.known = &known;
	if (tb_fdr_post_files(&post, &files, &err)) {
		fprintf(stderr, "# %s\n", err.msg);
		ret = 1;
		goto out;
	}
	tb_fdr_bpf_stats(self->f, &post, &lost, lost_cls, &s, &tot);
	tb_collect_write_json(self->json, &s);
out:
	tb_name_map_free(&known);
	tb_fdr_post_free(&post);
	tb_collect_paths_free(&paths);
	return ret;
}

/*
 * The classes as the tool has them before the first record (with sched,
 * a switch opens a block): each test sets them before feeding.
 */
static void classes(struct ctx *self, const char *list)
{
	uint32_t mask = 0;
	char bad[32];

	if (!tb_fdr_classes_parse(list, TB_FDR_BPF_CLASSES, &mask, bad,
				  sizeof(bad)))
		self->f->classes = mask;
}

/* The tool's "-e LIST" or "-e LIST --raw" on the records fed. */
static int replay(struct ctx *self, const char *args)
{
	char list[64], *sp;
	struct run o = { .classes = list };

	snprintf(list, sizeof(list), "%s", args);
	sp = strstr(list, " --raw");
	if (sp) {
		*sp = '\0';
		o.raw = true;
	}
	return run_opts(self, &o);
}

static char *xray(struct ctx *self, const char *what)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "llvm-xray %s %s 2>&1", what, self->fdr);
	return capture(cmd);
}

static long long stat_num(struct ctx *self, const char *key)
{
	char cmd[512], *out;
	long long v;

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys,functools; print(functools.reduce(lambda d,k: d[k], sys.argv[2].split(\".\"), json.load(open(sys.argv[1]))))' %s %s",
		 self->json, key);
	out = capture(cmd);
	if (!out)
		return -1;
	v = atoll(out);
	free(out);
	return v;
}

/* The names file next to the output, or NULL. */
static char *names_file(struct ctx *self)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "cat %s.names", self->fdr);
	return capture(cmd);
}

/* Whether the output's companion file OUTPUT@ext exists. */
static bool has_file(struct ctx *self, const char *ext)
{
	char path[160];

	snprintf(path, sizeof(path), "%s%s", self->fdr, ext);
	return !access(path, F_OK);
}

/* Every file must pass the same checks as the VM's. */
static void all_tools_accept(struct __test_metadata *_metadata,
			     struct ctx *self)
{
	static const char * const cmds[] = {
		"fdr-dump -verify", "convert -f yaml", "convert -f trace_event",
		"account -k", "stack",
	};
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *out = xray(self, cmds[i]);

		EXPECT_NE(NULL, out) TH_LOG("llvm-xray %s failed", cmds[i]);
		free(out);
	}
}

/* A gap over 2^32 ns needs a TSCWrap; the times survive exactly. */
TEST(tsc_wrap)
{
	struct ctx cx, *self = &cx;
	char *out;

	SETUP(self);
	classes(self, "syscall");
	enter(self->f, 1000000000, 0, 100, SYS(39));
	leave(self->f, 1000000010, 0, 100, SYS(39));
	enter(self->f, 7000000000ULL, 0, 100, SYS(39));
	leave(self->f, 7000000020ULL, 0, 100, SYS(39));
	ASSERT_EQ(0, replay(self, "syscall"));
	all_tools_accept(_metadata, self);
	out = xray(self, "fdr-dump");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "TSC Wrap"));
	free(out);
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "tsc: 7000000000,"));
	EXPECT_EQ(1, count(out, "tsc: 7000000020,"));
	free(out);
	cleanup(self);
}

/* Out of order on one CPU: clamped to the previous time, counted. */
TEST(clamped)
{
	struct ctx cx, *self = &cx;
	char *out;

	SETUP(self);
	classes(self, "syscall");
	enter(self->f, 1000, 0, 100, SYS(1));
	leave(self->f, 900, 0, 100, SYS(1));
	ASSERT_EQ(0, replay(self, "syscall"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(1, stat_num(self, "clamped"));
	/* A call counts once per class, as tracebuf record counts it. */
	EXPECT_EQ(1, stat_num(self, "classes.syscall"));
	EXPECT_EQ(2, stat_num(self, "events"));
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	/* The task's start event (convert/fdr_post.h) is at 1000 too. */
	EXPECT_EQ(1, count(out, "kind: function-enter, tsc: 1000,"));
	EXPECT_EQ(1, count(out, "kind: function-exit, tsc: 1000,"));
	free(out);
	cleanup(self);
}

/*
 * An exit whose entry predates the trace is left out; stack accepts.  Ids
 * are dense in kernel-id order: SYS(39) is 1, SYS(61) 2.
 */
TEST(unmatched_exit)
{
	struct ctx cx, *self = &cx;
	char *out;

	SETUP(self);
	classes(self, "syscall");
	leave(self->f, 100, 0, 100, SYS(61));
	enter(self->f, 200, 0, 100, SYS(39));
	leave(self->f, 300, 0, 100, SYS(39));
	ASSERT_EQ(0, replay(self, "syscall"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(1, stat_num(self, "unmatched"));
	EXPECT_EQ(3, stat_num(self, "events"));
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, count(out, "func-id: 2,"));
	EXPECT_EQ(2, count(out, "func-id: 1,"));
	EXPECT_EQ(0, count(out, "func-id: 16777277,"));
	EXPECT_EQ(0, count(out, "func-id: 16777255,"));
	free(out);
	cleanup(self);
}

/* --raw keeps it and the kernel ids, for those who want every record. */
TEST(unmatched_exit_raw)
{
	struct ctx cx, *self = &cx;
	char *out;

	SETUP(self);
	classes(self, "syscall");
	leave(self->f, 100, 0, 100, SYS(61));
	enter(self->f, 200, 0, 100, SYS(39));
	leave(self->f, 300, 0, 100, SYS(39));
	ASSERT_EQ(0, replay(self, "syscall --raw"));
	EXPECT_EQ(0, stat_num(self, "unmatched"));
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "func-id: 16777277,"));
	EXPECT_EQ(2, count(out, "func-id: 16777255,"));
	free(out);
	/* The names file says kernel ids; there is no map. */
	out = names_file(self);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "16777255 sys_getpid\n# kernel id 0x1000027\n"));
	free(out);
	EXPECT_FALSE(has_file(self, ".map"));
	EXPECT_FALSE(has_file(self, ".tfile"));
	cleanup(self);
}

/*
 * Idle tasks (tid 0) of two CPUs become two threads; a loss marker lands
 * in the current block at its time.
 */
TEST(idle_threads_and_loss_marker)
{
	struct ctx cx, *self = &cx;
	__u64 lost = 5;
	char cmd[PATH_MAX];
	char *out;

	SETUP(self);
	classes(self, "softirq");
	enter(self->f, 100, 0, 0, SOFTIRQ(1));
	enter(self->f, 110, 1, 0, SOFTIRQ(7));
	leave(self->f, 120, 0, 0, SOFTIRQ(1));
	leave(self->f, 130, 1, 0, SOFTIRQ(7));
	put(self->f, 140, 1, 0, 0, TB_BPF_LOST, 0, 1, &lost);
	ASSERT_EQ(0, replay(self, "softirq"));
	all_tools_accept(_metadata, self);
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	/* CPU 0's idle thread, CPU 1's (with the marker) */
	EXPECT_EQ(2, count(out, "thread: 1073741824, kind: function"));
	EXPECT_EQ(2, count(out, "thread: 1073741825, kind: function"));
	free(out);
	out = xray(self, "fdr-dump");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "data = 'tracebuf: lost 5 events'"));
	free(out);
	EXPECT_EQ(1, stat_num(self, "loss_markers"));
	EXPECT_EQ(5, stat_num(self, "loss_marked"));
	/* Dense ids 1 and 2, named, with a map for llvm-xray -m. */
	out = names_file(self);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "1 softirq_TIMER\n# kernel id 0x3000001\n"));
	EXPECT_EQ(1, count(out, "2 softirq_SCHED\n# kernel id 0x3000007\n"));
	free(out);
	EXPECT_TRUE(has_file(self, ".map"));
	/* The GDB trace file, written in-process by the library. */
	snprintf(cmd, sizeof(cmd), "head -c 8 %s.tfile | tail -c 7", self->fdr);
	out = capture(cmd);
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("TRACE0\n", out);
	free(out);
	cleanup(self);
}

/*
 * A switch starts the next task's block at the switch time; without the
 * sched class the block opens only with the first event.  Blocks are
 * grouped by task, tasks in order of their first block's time (the
 * library's order, as for tracebuf-record), whatever the CPU.
 */
TEST(switch_time_and_block_order)
{
	struct ctx cx, *self = &cx;
	char *out, *a, *b;

	SETUP(self);
	classes(self, "syscall");
	put(self->f, 50, 0, 200, 200, TB_BPF_SWITCH, 0, 0, NULL);
	put(self->f, 55, 1, 300, 300, TB_BPF_SWITCH, 0, 0, NULL);
	enter(self->f, 58, 1, 300, SYS(2));
	enter(self->f, 60, 0, 200, SYS(1));
	leave(self->f, 70, 0, 200, SYS(1));
	leave(self->f, 75, 1, 300, SYS(2));
	put(self->f, 80, 0, 0, 0, TB_BPF_SWITCH, 0, 0, NULL);
	ASSERT_EQ(0, replay(self, "syscall"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(2, stat_num(self, "blocks"));	/* no empty idle block */
	out = xray(self, "fdr-dump");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "<CPU: id = 0, tsc = 50>"));
	EXPECT_EQ(1, count(out, "<CPU: id = 1, tsc = 55>"));
	a = strstr(out, "<Thread ID: 300>");
	b = strstr(out, "<Thread ID: 200>");
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_LT(b, a);	/* 200's block at 50 before 300's at 55 */
	free(out);
	cleanup(self);
}

/* With the sched class, a switch opens the block even with no events. */
TEST(sched_class_opens_at_switch)
{
	struct ctx cx, *self = &cx;

	SETUP(self);
	classes(self, "syscall,sched");
	put(self->f, 50, 0, 200, 200, TB_BPF_SWITCH, 0, 0, NULL);
	put(self->f, 60, 0, 300, 300, TB_BPF_SWITCH, 0, 0, NULL);
	enter(self->f, 70, 0, 300, SYS(1));
	leave(self->f, 80, 0, 300, SYS(1));
	ASSERT_EQ(0, replay(self, "syscall,sched"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(2, stat_num(self, "blocks"));
	cleanup(self);
}

/* Work functions get keys in order of first appearance. */
TEST(work_keys)
{
	struct ctx cx, *self = &cx;
	char names[PATH_MAX], text[65536];
	size_t n;
	FILE *f;
	/* Not kernel addresses: /proc/kallsyms cannot name them. */
	__u64 fa = 0x1234, fb = 0x5678;
	char *out;

	SETUP(self);
	classes(self, "workqueue");
	put(self->f, 10, 0, 9, 9, TB_BPF_ENTER, WORK(0), 1, &fa);
	put(self->f, 20, 0, 9, 9, TB_BPF_EXIT, WORK(0), 1, &fa);
	put(self->f, 30, 0, 9, 9, TB_BPF_ENTER, WORK(0), 1, &fb);
	put(self->f, 40, 0, 9, 9, TB_BPF_EXIT, WORK(0), 1, &fb);
	put(self->f, 50, 0, 9, 9, TB_BPF_ENTER, WORK(0), 1, &fa);
	put(self->f, 60, 0, 9, 9, TB_BPF_EXIT, WORK(0), 1, &fa);
	ASSERT_EQ(0, replay(self, "workqueue"));
	all_tools_accept(_metadata, self);
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	/* Keys 0 and 1, written as dense ids 1 and 2. */
	EXPECT_EQ(4, count(out, "func-id: 1,"));
	EXPECT_EQ(2, count(out, "func-id: 2,"));
	free(out);
	/* The names file next to the output: ids, names and kernel ids. */
	snprintf(names, sizeof(names), "%s.names", self->fdr);
	f = fopen(names, "r");
	ASSERT_NE(NULL, f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	EXPECT_EQ(1, count(text, "1 work_0x1234\n# kernel id 0x4000000\n"
			   "2 work_0x5678\n# kernel id 0x4000001\n"));
	cleanup(self);
}

/* Instant events with an argument; syscall arguments as CallArguments. */
TEST(arguments_and_instants)
{
	struct ctx cx, *self = &cx;
	__u64 addr = 0x1000, args[3] = { 1, 2, 3 };
	char *out;

	SETUP(self);
	classes(self, "syscall,fault");
	put(self->f, 10, 0, 7, 7, TB_BPF_ENTER, SYS(0), 3, args);
	put(self->f, 20, 0, 7, 7, TB_BPF_POINT,
	    TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 0), 1, &addr);
	put(self->f, 30, 0, 7, 7, TB_BPF_EXIT, SYS(0), 0, NULL);
	ASSERT_EQ(0, replay(self, "syscall,fault"));
	all_tools_accept(_metadata, self);
	out = xray(self, "convert -f yaml");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "args: [ 1, 2, 3 ]"));
	EXPECT_EQ(1, count(out, "args: [ 4096 ]"));
	/* SYS(0) is id 1, the fault id 2. */
	EXPECT_EQ(1, count(out, "func-id: 2, function: '2', args: [ 4096 ], cpu: 0, thread: 7, process: 7, kind: function-enter-arg, tsc: 20,"));
	EXPECT_EQ(1, count(out, "func-id: 2, function: '2', cpu: 0, thread: 7, process: 7, kind: function-exit, tsc: 20,"));
	free(out);
	out = names_file(self);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(1, count(out, "1 sys_read\n# kernel id 0x1000000\n"));
	EXPECT_EQ(1, count(out, "2 fault_user\n# kernel id 0x5000000\n"));
	free(out);
	cleanup(self);
}

/* A record with a bad size or CPU is counted and ignored. */
TEST(malformed)
{
	struct ctx cx, *self = &cx;
	__u64 junk = 0;

	SETUP(self);
	classes(self, "syscall");
	tb_fdr_bpf_record(self->f, &junk, sizeof(junk));	/* too short */
	enter(self->f, 10, 5000, 1, SYS(1));	/* CPU out of range */
	enter(self->f, 10, 0, 1, SYS(1));
	leave(self->f, 20, 0, 1, SYS(1));
	ASSERT_EQ(0, replay(self, "syscall"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(2, stat_num(self, "malformed"));
	EXPECT_EQ(2, stat_num(self, "events"));
	cleanup(self);
}

/*
 * The files next to the trace are written whole or not at all, and never
 * over the trace: a names file given as the trace itself is refused
 * (it truncated the trace before), a companion that cannot be written is
 * left out, and no temporary file stays behind.
 */
TEST(companions_written_whole)
{
	struct ctx cx, *self = &cx;
	struct run same = { .classes = "syscall", .names = self->fdr };
	struct run json = { .classes = "syscall", .json = true };
	char cmd[2 * PATH_MAX], err_path[PATH_MAX], *out;
	int fd, saved, st;

	SETUP(self);
	classes(self, "syscall");
	enter(self->f, 1000, 0, 100, SYS(39));
	leave(self->f, 1010, 0, 100, SYS(39));
	same.names = self->fdr;
	EXPECT_EQ(1, run_opts(self, &same));
	all_tools_accept(_metadata, self);
	/* OUTPUT.json cannot be written (a directory): the rest can. */
	tb_fdr_bpf_free(self->f);
	ASSERT_EQ(0, tb_fdr_bpf_init(self->f, NR_CPUS, 0, 8 << 20));
	classes(self, "syscall");
	enter(self->f, 1000, 0, 100, SYS(39));
	leave(self->f, 1010, 0, 100, SYS(39));
	snprintf(cmd, sizeof(cmd), "%s.json", self->fdr);
	ASSERT_EQ(0, mkdir(cmd, 0755));
	/* The warning goes to stderr: catch it outside the directory. */
	snprintf(err_path, sizeof(err_path), "%s.stderr", self->dir);
	fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	st = run_opts(self, &json);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	EXPECT_EQ(0, st);
	snprintf(cmd, sizeof(cmd), "grep -q 'not written' %s", err_path);
	EXPECT_EQ(0, WEXITSTATUS(system(cmd)));
	unlink(err_path);
	all_tools_accept(_metadata, self);
	EXPECT_TRUE(has_file(self, ".names"));
	EXPECT_TRUE(has_file(self, ".map"));
	EXPECT_TRUE(has_file(self, ".tfile"));
	snprintf(cmd, sizeof(cmd), "ls -A %s | grep -c '^[.]'; true", self->dir);
	out = capture(cmd);
	EXPECT_STREQ("0\n", out ? out : "");
	free(out);
	cleanup(self);
}

/*
 * bpf -f: kernel function keys named after the list (as the module's
 * NAMES), by their own names in the names file and so in llvm-xray -m;
 * their calls counted in kfunc_calls; nested as fed.
 */
TEST(kernel_functions)
{
	struct ctx cx, *self = &cx;
	char *names_v[] = { "rw_verify_area", "vfs_read" };
	struct tb_kfuncs k = { names_v, 2 };
	char cmd[2048], *text, *out;

	SETUP(self);
	classes(self, "syscall");
	self->f->kfuncs = &k;
	enter(self->f, 1000, 0, 100, SYS(0));
	enter(self->f, 1010, 0, 100, KFUNC(1));
	enter(self->f, 1020, 0, 100, KFUNC(0));
	leave(self->f, 1030, 0, 100, KFUNC(0));
	leave(self->f, 1040, 0, 100, KFUNC(1));
	leave(self->f, 1050, 0, 100, SYS(0));
	ASSERT_EQ(0, replay(self, "syscall"));
	all_tools_accept(_metadata, self);
	text = names_file(self);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, count(text, " rw_verify_area\n# kernel id 0x7000000\n"));
	EXPECT_EQ(1, count(text, " vfs_read\n# kernel id 0x7000001\n"));
	free(text);
	EXPECT_EQ(2, stat_num(self, "kfunc_calls"));
	EXPECT_EQ(0, stat_num(self, "kfunc_missed"));
	snprintf(cmd, sizeof(cmd),
		 "llvm-xray stack -m %s.map %s -all-stacks -stack-format=flame 2>&1",
		 self->fdr, self->fdr);
	out = capture(cmd);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, ";sys_read;vfs_read;rw_verify_area; "))
		TH_LOG("%s", out);
	free(out);
	cleanup(self);
}

/*
 * The library's class table and the wire format's one definition of each
 * class's bit and id space (uapi/linux/tracebuf_fdr.h) agree.
 */
TEST(classes_follow_the_wire_format)
{
	static const unsigned int spaces[TRACEBUF_FDR_CLASSES] =
		TRACEBUF_FDR_CLASS_SPACES;
	unsigned int i;

	ASSERT_EQ(TRACEBUF_FDR_CLASSES, TB_FDR_NR_CLASSES);
	for (i = 0; i < TB_FDR_NR_CLASSES; i++) {
		EXPECT_EQ(1U << i, tb_fdr_classes[i].bit);
		EXPECT_EQ(spaces[i], tb_fdr_classes[i].space) {
			TH_LOG("class %s", tb_fdr_classes[i].name);
		}
	}
}

/* ------------------------------------------------------------ typed events */

#define IDLE0		((__u32)TRACEBUF_FDR_IDLE_TID(0))
/* The kernel's task state bits (include/linux/sched.h), 6.1. */
#define K_RUNNING	0x0000
#define K_INTERRUPTIBLE	0x0001
#define K_UNINTERRUPTIBLE 0x0002
#define K_STOPPED	0x0004
#define K_TRACED	0x0008
#define K_EXIT_DEAD	0x0010
#define K_EXIT_ZOMBIE	0x0020
#define K_PARKED	0x0040
#define K_DEAD		0x0080
#define K_WAKEKILL	0x0100
#define K_NOLOAD	0x0400
#define K_RTLOCK_WAIT	0x1000
#define K_FREEZABLE	0x2000
#define K_FROZEN	0x8000

/* A sched-class switch record to @next, as tb_sched_switch writes it. */
static void sw(struct tb_fdr_bpf *f, __u64 ts, int cpu, __u32 prev,
	       __u32 next, unsigned int state, bool preempt)
{
	__u64 a[TB_BPF_SWITCH_ARGS] = {
		TB_BPF_SWITCH_TASKS(prev, 120, 110),
		TB_BPF_SWITCH_STATE(state, preempt),
	};

	put(f, ts, cpu, next, next, TB_BPF_SWITCH, 0, TB_BPF_SWITCH_ARGS, a);
}

static void wake(struct tb_fdr_bpf *f, __u64 ts, int cpu, __u32 waker,
		 __u32 woken, int target, bool new_task)
{
	__u64 a = TB_BPF_WAKEUP_ARG(woken, target, 100);

	put(f, ts, cpu, waker, waker, TB_BPF_WAKEUP,
	    new_task ? TRACEBUF_FDR_WAKEUP_NEW : 0, 1, &a);
}

/* A syscall exit with an error's value, as tb_sys_exit writes it. */
static void fail(struct tb_fdr_bpf *f, __u64 ts, int cpu, __u32 tid,
		 __u32 id, long long ret)
{
	__u64 a = ret;

	put(f, ts, cpu, tid, tid, TB_BPF_EXIT, id, 1, &a);
}

/* What the library's reader and decoder find in the file. */
#define MAX_TYPED	16
struct typed_seen {
	int n;
	struct tb_fdr_event ev[MAX_TYPED];
	int32_t tid[MAX_TYPED];		/* the block's */
	bool first[MAX_TYPED];		/* its first record after the frame */
	uint32_t after_id[MAX_TYPED];	/* the function record before it */
	int after_type[MAX_TYPED];	/* its type, -1 if none */
	bool fresh;
	uint32_t last_id;
	int last_type;
	int malformed;
};

static int typed_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct typed_seen *t = ctx;
	struct tb_fdr_event ev;

	switch (r->kind) {
	case TB_FDR_NEW_BUFFER:
		t->fresh = true;
		t->last_type = -1;
		return 0;
	case TB_FDR_BUFFER_EXTENTS:
	case TB_FDR_WALLCLOCK:
	case TB_FDR_PID:
	case TB_FDR_NEW_CPU:
	case TB_FDR_TSC_WRAP:
		return 0;
	case TB_FDR_FUNCTION:
		t->fresh = false;
		t->last_id = r->func_id;
		t->last_type = r->func_type;
		return 0;
	case TB_FDR_TYPED:
		if (tb_fdr_event_malformed(r))
			t->malformed++;
		if (tb_fdr_event_decode(r, &ev) != TB_FDR_EV_NONE &&
		    t->n < MAX_TYPED) {
			t->ev[t->n] = ev;
			t->tid[t->n] = r->tid;
			t->first[t->n] = t->fresh;
			t->after_id[t->n] = t->last_id;
			t->after_type[t->n] = t->last_type;
			t->n++;
		}
		break;
	}
	t->fresh = false;
	t->last_type = -1;
	return 0;
}

static void read_typed(struct __test_metadata *_metadata, struct ctx *self,
		       struct typed_seen *t)
{
	struct tb_fdr_stats st;
	struct tb_error err;
	FILE *f;

	memset(t, 0, sizeof(*t));
	f = fopen(self->fdr, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_reader_read(f, NULL, typed_visit, t, &st, &err))
		TH_LOG("%s", err.msg);
	fclose(f);
	EXPECT_EQ(0, t->malformed);
}

/* The prev_state mapping, bit by bit as include/linux/sched.h has them. */
TEST(switch_states)
{
	static const struct {
		unsigned int raw;
		bool preempt;
		unsigned int state;
	} tab[] = {
		{ K_RUNNING, false, TRACEBUF_FDR_STATE_RUNNING },
		{ K_INTERRUPTIBLE, true, TRACEBUF_FDR_STATE_RUNNING },
		{ K_UNINTERRUPTIBLE, true, TRACEBUF_FDR_STATE_RUNNING },
		{ K_INTERRUPTIBLE, false, TRACEBUF_FDR_STATE_SLEEPING },
		{ K_INTERRUPTIBLE | K_FREEZABLE, false, TRACEBUF_FDR_STATE_SLEEPING },
		{ K_UNINTERRUPTIBLE, false, TRACEBUF_FDR_STATE_UNINTERRUPTIBLE },
		{ K_UNINTERRUPTIBLE | K_WAKEKILL, false,	/* TASK_KILLABLE */
		  TRACEBUF_FDR_STATE_UNINTERRUPTIBLE },
		{ K_RTLOCK_WAIT, false, TRACEBUF_FDR_STATE_UNINTERRUPTIBLE },
		{ K_UNINTERRUPTIBLE | K_NOLOAD, false, TRACEBUF_FDR_STATE_IDLE },
		{ K_NOLOAD, false, TRACEBUF_FDR_STATE_OTHER },
		{ K_STOPPED | K_WAKEKILL, false, TRACEBUF_FDR_STATE_STOPPED },
		{ K_TRACED, false, TRACEBUF_FDR_STATE_STOPPED },
		{ K_DEAD, false, TRACEBUF_FDR_STATE_DEAD },
		{ K_EXIT_DEAD, false, TRACEBUF_FDR_STATE_DEAD },
		{ K_EXIT_ZOMBIE, false, TRACEBUF_FDR_STATE_DEAD },
		{ K_DEAD, true, TRACEBUF_FDR_STATE_RUNNING },
		{ K_PARKED, false, TRACEBUF_FDR_STATE_OTHER },
		{ K_FROZEN, false, TRACEBUF_FDR_STATE_OTHER },
		{ 0x80000000, false, TRACEBUF_FDR_STATE_OTHER },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		EXPECT_EQ(tab[i].state, tb_fdr_bpf_state(tab[i].raw, tab[i].preempt))
			TH_LOG("prev_state %#x preempt %d", tab[i].raw,
			       tab[i].preempt);
}

/*
 * With the sched class each switch opens next's block with a SWITCH
 * typed event (idle as the CPU's idle thread), and wake-ups land in the
 * waker's block; llvm-xray still verifies and accounts the file.  Raw
 * (-r): the post-processing joins a task's runs on one CPU into one
 * buffer, where a SWITCH is no longer a buffer's first record.
 */
TEST(sched_switch_and_wakeup_events)
{
	struct ctx cx, *self = &cx;
	struct typed_seen t;
	int i;

	SETUP(self);
	classes(self, "syscall,sched");
	sw(self->f, 50, 0, 0, 200, K_RUNNING, false);
	enter(self->f, 55, 0, 200, SYS(0));
	wake(self->f, 58, 0, 200, 300, 0, false);
	leave(self->f, 60, 0, 200, SYS(0));
	sw(self->f, 62, 0, 200, 300, K_INTERRUPTIBLE, false);
	wake(self->f, 64, 0, 300, 400, 3, true);
	sw(self->f, 70, 0, 300, 0, K_UNINTERRUPTIBLE | K_NOLOAD, false);
	/* An interrupt's wake-up in the idle task's block. */
	wake(self->f, 72, 0, 0, 200, 0, false);
	sw(self->f, 80, 0, 0, 200, K_INTERRUPTIBLE, true);
	ASSERT_EQ(0, replay(self, "syscall,sched --raw"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(4, stat_num(self, "switches"));
	EXPECT_EQ(3, stat_num(self, "wakeup_events"));
	EXPECT_EQ(0, stat_num(self, "malformed"));
	read_typed(_metadata, self, &t);
	ASSERT_EQ(7, t.n);
	for (i = 0; i < t.n; i++) {
		/* Blocks are ordered by task, so look each one up. */
		if (t.ev[i].kind == TB_FDR_EV_SWITCH) {
			EXPECT_TRUE(t.first[i]);
			EXPECT_EQ(t.tid[i], t.ev[i].sw.next_tid);
			EXPECT_EQ(120, t.ev[i].sw.prev_prio);
			EXPECT_EQ(110, t.ev[i].sw.next_prio);
			if (t.ev[i].sw.next_tid == 300) {
				EXPECT_EQ(200, t.ev[i].sw.prev_tid);
				EXPECT_EQ(TRACEBUF_FDR_STATE_SLEEPING,
					  t.ev[i].sw.prev_state);
			} else if (t.ev[i].sw.next_tid == (int32_t)IDLE0) {
				EXPECT_EQ(300, t.ev[i].sw.prev_tid);
				EXPECT_EQ(TRACEBUF_FDR_STATE_IDLE,
					  t.ev[i].sw.prev_state);
			} else {
				EXPECT_EQ(200, t.ev[i].sw.next_tid);
				EXPECT_EQ((int32_t)IDLE0, t.ev[i].sw.prev_tid);
				EXPECT_EQ(TRACEBUF_FDR_STATE_RUNNING,
					  t.ev[i].sw.prev_state);
			}
			continue;
		}
		ASSERT_EQ(TB_FDR_EV_WAKEUP, t.ev[i].kind);
		EXPECT_FALSE(t.first[i]);
		EXPECT_EQ(100, t.ev[i].wakeup.prio);
		if (t.ev[i].wakeup.tid == 300) {
			EXPECT_EQ(200, t.tid[i]);
			EXPECT_EQ(0, t.ev[i].wakeup.cpu);
			EXPECT_FALSE(t.ev[i].wakeup.new_task);
		} else if (t.ev[i].wakeup.tid == 400) {
			EXPECT_EQ(300, t.tid[i]);
			EXPECT_EQ(3, t.ev[i].wakeup.cpu);
			EXPECT_TRUE(t.ev[i].wakeup.new_task);
		} else {
			EXPECT_EQ(200, t.ev[i].wakeup.tid);
			EXPECT_EQ((int32_t)IDLE0, t.tid[i]);
		}
	}
	cleanup(self);
}

/*
 * Without the sched class a switch only cuts blocks: no typed event, and
 * a wake-up record (which the BPF side never writes then) is malformed.
 */
TEST(no_sched_no_switch_events)
{
	struct ctx cx, *self = &cx;
	struct typed_seen t;

	SETUP(self);
	classes(self, "syscall");
	put(self->f, 50, 0, 200, 200, TB_BPF_SWITCH, 0, 0, NULL);
	enter(self->f, 55, 0, 200, SYS(0));
	leave(self->f, 60, 0, 200, SYS(0));
	wake(self->f, 61, 0, 200, 300, 0, false);
	ASSERT_EQ(0, replay(self, "syscall"));
	EXPECT_EQ(1, stat_num(self, "malformed"));
	read_typed(_metadata, self, &t);
	EXPECT_EQ(0, t.n);
	cleanup(self);
}

/*
 * A failed call's exit is followed by a RET typed event with the exit's
 * kernel id (raw: before the post-processing renumbers ids) and the
 * value; successes get none, and values the BPF side never sends are
 * malformed.
 */
TEST(syscall_error_ret)
{
	static const __u64 two[2] = { -1ULL, -1ULL };
	struct ctx cx, *self = &cx;
	struct typed_seen t;
	__u64 big = 5;

	SETUP(self);
	classes(self, "syscall");
	enter(self->f, 50, 0, 200, SYS(257));
	fail(self->f, 60, 0, 200, SYS(257), -ENOENT);
	enter(self->f, 70, 0, 200, SYS(0));
	leave(self->f, 80, 0, 200, SYS(0));
	enter(self->f, 90, 0, 200, SYS(0));
	fail(self->f, 100, 0, 200, SYS(0), -4095);
	enter(self->f, 105, 0, 200, SYS(0));
	put(self->f, 110, 0, 200, 200, TB_BPF_EXIT, SYS(0), 1, &big);
	fail(self->f, 120, 0, 200, SYS(0), -4096);
	fail(self->f, 130, 0, 200, SYS(0), -1);
	enter(self->f, 135, 0, 200, SYS(0));
	put(self->f, 140, 0, 200, 200, TB_BPF_EXIT, SYS(0), 2, two);
	leave(self->f, 150, 0, 200, SYS(0));
	ASSERT_EQ(0, replay(self, "syscall --raw"));
	all_tools_accept(_metadata, self);
	EXPECT_EQ(3, stat_num(self, "malformed"));
	EXPECT_EQ(3, stat_num(self, "syscall_errors"));
	/* 5 calls, their 10 events: the malformed exits are none. */
	EXPECT_EQ(10, stat_num(self, "events"));
	read_typed(_metadata, self, &t);
	ASSERT_EQ(3, t.n);
	EXPECT_EQ(TB_FDR_EV_RET, t.ev[0].kind);
	EXPECT_EQ(SYS(257), t.ev[0].ret.func_id);
	EXPECT_EQ(-ENOENT, t.ev[0].ret.value);
	EXPECT_EQ(TB_FDR_EXIT, t.after_type[0]);
	EXPECT_EQ(SYS(257), t.after_id[0]);
	EXPECT_EQ(SYS(0), t.ev[1].ret.func_id);
	EXPECT_EQ(-4095, t.ev[1].ret.value);
	EXPECT_EQ(TB_FDR_EXIT, t.after_type[1]);
	EXPECT_EQ(SYS(0), t.after_id[1]);
	EXPECT_EQ(-1, t.ev[2].ret.value);
	EXPECT_EQ(TB_FDR_EXIT, t.after_type[2]);
	cleanup(self);
}

TEST_HARNESS_MAIN
