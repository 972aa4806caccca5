// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's own names (format/fdr_meta.h, convert/trace_names.h): the
 * META block the post-processing writes first, its texts equal to the
 * companion files, RET events renumbered and left out with their exit,
 * and the readers: a trace read alone reads as with its companions, a
 * companion of another capture or of another kind is refused, a trace
 * cut inside the block or without one reads as before, a META block
 * that is not first is not read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/tracebuf_fdr.h>

#include "tb_harness.h"
#include "tb_test_util.h"

#include "collect/collect.h"
#include "convert/fdr_post.h"
#include "convert/fdr_post_files.h"
#include "format/fdr_event.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "util/bytes.h"

#define READ	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, 0)
#define WRITE	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, 1)
#define OPENAT	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, 257)
#define IRQ4	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, 4)

static const struct tb_fdr_header hdr = {
	.version = 5, .type = TB_FDR_TYPE_FDR,
	.cycle_frequency = 1000000000ULL, .buffer_size = 4096,
};

static void ret_event(struct tb_fdr_writer *w, uint64_t t, uint32_t id,
		      int64_t v)
{
	uint8_t p[TRACEBUF_FDR_RET_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_RET_ID, id);
	tb_bytes_put64(p + TRACEBUF_FDR_RET_VALUE, (uint64_t)v);
	tb_fdr_writer_typed(w, t, TRACEBUF_FDR_TYPED_RET, p, sizeof(p));
}

/*
 * A collector's input, kernel ids: task 100 has an exit without entry
 * (and its RET), two failed calls; task 201 an IRQ and a switch.
 */
static char *input(size_t *len)
{
	struct tb_fdr_writer w;
	uint8_t sw[TRACEBUF_FDR_SWITCH_SIZE] = { 0 };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	tb_fdr_writer_init(&w, f, &hdr, 0);
	tb_fdr_writer_begin(&w, 100, 100, 0, 1000, 5, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, WRITE, 1050, NULL, 0);
	ret_event(&w, 1050, WRITE, -11);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, READ, 1100, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, READ, 1200, NULL, 0);
	ret_event(&w, 1200, READ, -2);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, OPENAT, 1300, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, OPENAT, 1400, NULL, 0);
	ret_event(&w, 1400, OPENAT, -2);
	tb_fdr_writer_begin(&w, 200, 201, 1, 900, 5, 0);
	tb_bytes_put32(sw + TRACEBUF_FDR_SWITCH_PREV_TID, 0);
	tb_bytes_put32(sw + TRACEBUF_FDR_SWITCH_NEXT_TID, 201);
	tb_fdr_writer_typed(&w, 905, TRACEBUF_FDR_TYPED_SWITCH, sw, sizeof(sw));
	tb_fdr_writer_function(&w, TB_FDR_ENTER, IRQ4, 950, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, IRQ4, 960, NULL, 0);
	tb_fdr_writer_finish(&w);
	fclose(f);
	return buf;
}

struct files {
	char *dir;
	char trace[300], names[310], tasks[310], map[310];
};

/*
 * Post-process input() into DIR/@base as a collector does: with a META
 * block when @meta, its companions beside it.  Returns the capture id.
 */
static uint64_t collect(struct files *fs, const char *base, bool meta)
{
	struct tb_name_map known = { 0 };
	struct tb_task_map tasks;
	struct tb_fdr_post p = { 0 };
	struct tb_fdr_post_meta pm = { 0 };
	struct tb_fdr_post_files files = { 0 };
	struct tb_error err;
	size_t len;
	char *in = input(&len);
	uint64_t id;
	FILE *f;

	snprintf(fs->trace, sizeof(fs->trace), "%s/%s", fs->dir, base);
	snprintf(fs->names, sizeof(fs->names), "%s.names", fs->trace);
	snprintf(fs->tasks, sizeof(fs->tasks), "%s.tasks", fs->trace);
	snprintf(fs->map, sizeof(fs->map), "%s.map", fs->trace);
	tb_name_map_add(&known, READ, "sys_read");
	tb_name_map_add(&known, WRITE, "sys_write");
	tb_name_map_add(&known, OPENAT, "sys_openat");
	tb_name_map_add(&known, IRQ4, "irq_4_ttyS0");
	tb_name_map_finish(&known, &err);
	tb_task_map_init(&tasks);
	tb_task_map_set(&tasks, 100, 100, "reader");
	tb_task_map_set(&tasks, 201, 200, "irqthread");
	pm.capture = "collector test\nclasses syscall,irq\nclock tsc\n";
	pm.known = &known;
	pm.tasks = &tasks;
	p.meta = meta ? &pm : NULL;
	f = fopen(fs->trace, "wb");
	if (!f || tb_fdr_post_run(&p, in, len, f, &err)) {
		fprintf(stderr, "post: %s\n", err.msg);
		exit(1);
	}
	fclose(f);
	files.trace = fs->trace;
	files.names = fs->names;
	files.map = fs->map;
	files.known = &known;
	if (tb_fdr_post_files(&p, &files, &err) ||
	    tb_collect_tasks_write(&p, &tasks, fs->tasks)) {
		fprintf(stderr, "companions: %s\n", err.msg);
		exit(1);
	}
	id = p.capture_id;
	tb_fdr_post_free(&p);
	tb_name_map_free(&known);
	tb_task_map_free(&tasks);
	free(in);
	return id;
}

static char *slurp_n(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	int c;

	while (f && (c = getc(f)) != EOF)
		putc(c, m);
	fclose(m);
	if (f)
		fclose(f);
	return buf;
}

/* Everything the records of the output say, in order. */
struct rec {
	unsigned int kind;
	int32_t tid, pid;
	uint64_t tsc;
	uint32_t func_id;
	unsigned int func_type;
	uint16_t type;
	struct tb_fdr_event ev;
};

struct recs {
	struct rec v[128];
	unsigned int n;
};

static int keep(void *ctx, const struct tb_fdr_record *r)
{
	struct recs *s = ctx;
	struct rec *x;

	if (s->n == 128 || r->kind == TB_FDR_BUFFER_EXTENTS)
		return 0;
	x = &s->v[s->n++];
	x->kind = r->kind;
	x->tid = r->tid;
	x->pid = r->pid;
	x->tsc = r->tsc;
	x->func_id = r->func_id;
	x->func_type = r->func_type;
	x->type = r->event_type;
	tb_fdr_event_decode(r, &x->ev);
	return 0;
}

TEST(meta_block_first_with_the_companions_texts)
{
	struct files fs = { .dir = tu_tmpdir() };
	struct tb_fdr_meta_block m;
	struct recs s = { 0 };
	struct tb_error err;
	char *buf, *names, *tasks, v[64], idtext[17];
	size_t len, nlen, tlen;
	unsigned int i, metas = 0;
	uint64_t id = collect(&fs, "t.fdr", true);

	ASSERT_NE(0, id);
	buf = slurp_n(fs.trace, &len);
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, keep, &s, NULL,
					    &err));
	/* First, the META thread: pid 0, CPU 0, only typed META events. */
	ASSERT_EQ(TB_FDR_NEW_BUFFER, s.v[0].kind);
	EXPECT_EQ(TRACEBUF_FDR_META_TID, s.v[0].tid);
	for (i = 1; i < s.n && s.v[i].kind != TB_FDR_NEW_BUFFER; i++) {
		EXPECT_EQ(0, s.v[i].pid);
		if (s.v[i].kind != TB_FDR_TYPED)
			continue;
		EXPECT_EQ(TB_FDR_EV_META, s.v[i].ev.kind);
		/* At the capture's earliest time: the switch at 905. */
		EXPECT_EQ(905, s.v[i].tsc);
		metas++;
	}
	EXPECT_EQ(3, metas);
	/* Its texts are the companions', byte for byte. */
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	ASSERT_TRUE(m.present);
	ASSERT_TRUE(m.has_id);
	EXPECT_EQ(id, m.id);
	names = slurp_n(fs.names, &nlen);
	tasks = slurp_n(fs.tasks, &tlen);
	ASSERT_EQ(nlen, m.names_len);
	EXPECT_EQ(0, memcmp(names, m.names, nlen));
	ASSERT_EQ(tlen, m.tasks_len);
	EXPECT_EQ(0, memcmp(tasks, m.tasks, tlen));
	tb_fdr_meta_id_text(id, idtext);
	EXPECT_TRUE(!strncmp(names, TB_FDR_META_NAMES_LINE,
			     strlen(TB_FDR_META_NAMES_LINE)));
	EXPECT_NE(NULL, strstr(names, idtext));
	EXPECT_NE(NULL, strstr(tasks, idtext));
	EXPECT_STREQ(idtext, tb_fdr_meta_value(&m, "capture", v, sizeof(v)));
	EXPECT_STREQ("1000000000", tb_fdr_meta_value(&m, "frequency", v,
						     sizeof(v)));
	EXPECT_STREQ("syscall,irq", tb_fdr_meta_value(&m, "classes", v,
						      sizeof(v)));
	EXPECT_EQ(NULL, tb_fdr_meta_value(&m, "hostname", v, sizeof(v)));
	tb_fdr_meta_free(&m);
	free(names);
	free(tasks);
	free(buf);
	tu_rmdir(fs.dir);
}

struct metas {
	unsigned int blocks;	/* META blocks */
	unsigned int at;	/* index of the first one among the blocks */
	unsigned int n;		/* blocks */
};

static int count_meta(void *ctx, const struct tb_fdr_record *r)
{
	struct metas *c = ctx;

	if (r->kind != TB_FDR_NEW_BUFFER)
		return 0;
	if (r->tid == TRACEBUF_FDR_META_TID && !c->blocks++)
		c->at = c->n;
	c->n++;
	return 0;
}

/*
 * Raw mode writes the block too, before the device's blocks; processing
 * an output again replaces its block (one, new id), and fdr-tidy, which
 * writes none, keeps it first.
 */
TEST(raw_again_and_tidy_keep_one_block_first)
{
	static const struct tb_fdr_post_meta pm = { .capture = "k v\n" };
	struct tb_fdr_post p = { .raw = true, .meta = &pm };
	struct tb_fdr_meta_block m;
	struct tb_error err;
	char *in, *one = NULL, *two = NULL, *tidy = NULL;
	size_t len, l1 = 0, l2 = 0, l3 = 0;
	struct metas c;
	uint64_t id;
	FILE *f;

	in = input(&len);
	f = open_memstream(&one, &l1);
	ASSERT_EQ(0, tb_fdr_post_run(&p, in, len, f, &err));
	fclose(f);
	id = p.capture_id;
	tb_fdr_post_free(&p);
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(one, l1, NULL, count_meta, &c,
					    NULL, &err));
	EXPECT_EQ(1, c.blocks);
	EXPECT_EQ(0, c.at);
	EXPECT_EQ(3, c.n);	/* META and the device's two blocks */
	ASSERT_EQ(0, tb_fdr_meta_read_mem(one, l1, &m));
	EXPECT_TRUE(m.present);
	EXPECT_EQ(id, m.id);
	/* Raw: kernel ids in the names. */
	EXPECT_NE(NULL, strstr(m.names, "0x1000101"));
	tb_fdr_meta_free(&m);
	p = (struct tb_fdr_post){ .meta = &pm };
	f = open_memstream(&two, &l2);
	ASSERT_EQ(0, tb_fdr_post_run(&p, one, l1, f, &err));
	fclose(f);
	EXPECT_NE(id, p.capture_id);
	EXPECT_EQ(0, p.meta_functions);
	tb_fdr_post_free(&p);
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(two, l2, NULL, count_meta, &c,
					    NULL, &err));
	EXPECT_EQ(1, c.blocks);
	EXPECT_EQ(0, c.at);
	p = (struct tb_fdr_post){ .keep_ids = true };
	f = open_memstream(&tidy, &l3);
	ASSERT_EQ(0, tb_fdr_post_run(&p, one, l1, f, &err));
	fclose(f);
	tb_fdr_post_free(&p);
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(tidy, l3, NULL, count_meta, &c,
					    NULL, &err));
	EXPECT_EQ(1, c.blocks);
	EXPECT_EQ(0, c.at);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(tidy, l3, &m));
	EXPECT_TRUE(m.present);
	EXPECT_EQ(id, m.id);
	tb_fdr_meta_free(&m);
	free(in);
	free(one);
	free(two);
	free(tidy);
}

TEST(ret_follows_its_exit_renumbered_or_left_out)
{
	struct files fs = { .dir = tu_tmpdir() };
	struct recs s = { 0 };
	struct tb_error err;
	unsigned int i, rets = 0;
	size_t len;
	char *buf;

	collect(&fs, "t.fdr", true);
	buf = slurp_n(fs.trace, &len);
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, keep, &s, NULL,
					    &err));
	for (i = 0; i < s.n; i++) {
		if (s.v[i].ev.kind != TB_FDR_EV_RET)
			continue;
		rets++;
		/* Right after its exit, with the exit's (dense) id. */
		ASSERT_EQ(TB_FDR_FUNCTION, s.v[i - 1].kind);
		EXPECT_EQ(TB_FDR_EXIT, s.v[i - 1].func_type);
		EXPECT_EQ(s.v[i - 1].func_id, s.v[i].ev.ret.func_id);
		EXPECT_GT(16, s.v[i].func_id);
		EXPECT_EQ(-2, s.v[i].ev.ret.value);
	}
	/* The exit of sys_write had no entry: it and its RET are gone. */
	EXPECT_EQ(2, rets);
	free(buf);
	tu_rmdir(fs.dir);
}

/* @out without its lines that name the trace or where its names came from. */
static void drop_sources(char *out)
{
	char *l = out, *nl, *w = out;

	for (; *l; l = nl) {
		nl = strchr(l, '\n');
		nl = nl ? nl + 1 : l + strlen(l);
		if (strstr(l, "XRay FDR version") && strstr(l, "XRay FDR version") < nl)
			continue;
		if (!strncmp(l, "  names: ", 9))
			continue;
		memmove(w, l, nl - l);
		w += nl - l;
	}
	*w = 0;
}

TEST(read_alone_as_with_companions)
{
	struct files a = { .dir = tu_tmpdir() }, b = { .dir = a.dir };
	char alone[400], *x, *y;
	int st;

	collect(&a, "with.fdr", true);
	collect(&b, "without.fdr", false);
	snprintf(alone, sizeof(alone), "%s/alone", a.dir);
	mkdir(alone, 0755);
	snprintf(alone, sizeof(alone), "%s/alone/with.fdr", a.dir);
	ASSERT_EQ(0, rename(a.trace, alone));
	/* The report: all but the lines that say where the names are from. */
	x = tu_run(&st, "%s report %s", tu_tool("tracebuf"), alone);
	ASSERT_EQ(0, st);
	y = tu_run(&st, "%s report -m %s --tasks %s %s", tu_tool("tracebuf"),
		   b.names, b.tasks, b.trace);
	ASSERT_EQ(0, st);
	EXPECT_NE(NULL, strstr(x, "names: the trace's own (META block); tasks: the trace's own (META block)"));
	EXPECT_NE(NULL, strstr(x, "sys_openat"));
	EXPECT_NE(NULL, strstr(x, "irqthread"));
	drop_sources(x);
	drop_sources(y);
	EXPECT_STREQ(y, x);
	free(x);
	free(y);
	/* The script, the JSON and the trace_event JSON: all of it. */
	x = tu_run(&st, "%s script %s", tu_tool("tracebuf"), alone);
	y = tu_run(&st, "%s script -m %s --tasks %s %s", tu_tool("tracebuf"),
		   b.names, b.tasks, b.trace);
	EXPECT_STREQ(y, x);
	free(x);
	free(y);
	x = tu_run(&st, "%s report --json %s | sed 1s/with/X/", tu_tool("tracebuf"),
		   alone);
	y = tu_run(&st, "%s report --json -m %s --tasks %s %s | sed 1s/without/X/",
		   tu_tool("tracebuf"), b.names, b.tasks, b.trace);
	EXPECT_NE(NULL, strstr(x, "sys_read"));
	free(x);
	free(y);
	x = tu_run(&st, "%s convert fdr-json %s -", tu_tool("tracebuf"), alone);
	y = tu_run(&st, "%s convert fdr-json -m %s %s -", tu_tool("tracebuf"),
		   b.names, b.trace);
	EXPECT_STREQ(y, x);
	free(x);
	free(y);
	/* From a pipe too: the block is the first thing read. */
	x = tu_run(&st, "cat %s | %s report -", alone, tu_tool("tracebuf"));
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(x, "names: the trace's own"));
	EXPECT_NE(NULL, strstr(x, "sys_openat"));
	free(x);
	tu_rmdir(a.dir);
}

/*
 * Companions given as pipes (--map <(...), /dev/stdin; here
 * /proc/self/fd/0, as the guests' busybox has no /dev/stdin) are read
 * once, whole: checking their first lines must not eat what is then
 * loaded (the names of the first lines were lost, exit 0).  A FIFO
 * named as the companion beside a trace is no companion: not opened,
 * no hang.
 */
TEST(companions_from_pipes_and_fifos)
{
	struct files b = { .dir = tu_tmpdir() };
	char *x, *y;
	int st;

	collect(&b, "without.fdr", false);
	y = tu_run(&st, "%s report -m %s --tasks %s %s", tu_tool("tracebuf"),
		   b.names, b.tasks, b.trace);
	ASSERT_EQ(0, st);
	x = tu_run(&st, "cat %s | %s report -m /proc/self/fd/0 --tasks %s %s",
		   b.names, tu_tool("tracebuf"), b.tasks, b.trace);
	EXPECT_EQ(0, st);
	drop_sources(x);
	drop_sources(y);
	EXPECT_STREQ(y, x);
	free(x);
	x = tu_run(&st, "cat %s | %s report -m %s --tasks /proc/self/fd/0 %s",
		   b.tasks, tu_tool("tracebuf"), b.names, b.trace);
	EXPECT_EQ(0, st);
	drop_sources(x);
	EXPECT_STREQ(y, x);
	free(x);
	free(y);
	/* A FIFO beside the trace: the report must not wait on it. */
	x = tu_run(&st, "cd %s && mv without.fdr.names n && mkfifo without.fdr.names && timeout 60 %s report without.fdr",
		   b.dir, tu_tool("tracebuf"));
	EXPECT_EQ(0, st) TH_LOG("%s", x);
	EXPECT_NE(NULL, strstr(x, "carries no names")) TH_LOG("%s", x);
	free(x);
	tu_rmdir(b.dir);
}

TEST(companion_of_another_capture_refused)
{
	struct files a = { .dir = tu_tmpdir() }, b = { .dir = a.dir };
	char ia[17], ib[17], *out;
	int st;

	tb_fdr_meta_id_text(collect(&a, "a.fdr", true), ia);
	tb_fdr_meta_id_text(collect(&b, "b.fdr", true), ib);
	ASSERT_STRNE(ia, ib);
	out = tu_run(&st, "%s report -m %s %s", tu_tool("tracebuf"), b.names,
		     a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, ia));
	EXPECT_NE(NULL, strstr(out, ib));
	EXPECT_NE(NULL, strstr(out, "another recording"));
	free(out);
	out = tu_run(&st, "%s script --tasks %s %s", tu_tool("tracebuf"),
		     b.tasks, a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "another recording"));
	free(out);
	/* Its own are taken. */
	out = tu_run(&st, "%s report -m %s --tasks %s %s", tu_tool("tracebuf"),
		     a.names, a.tasks, a.trace);
	EXPECT_EQ(0, st);
	free(out);
	tu_rmdir(a.dir);
}

/*
 * A companion's capture line in capitals (hex either way) is checked as
 * the number it is; one cut short or otherwise damaged is refused, never
 * taken as matching (formats.rst).
 */
TEST(companion_capture_line_damaged_or_in_capitals)
{
	static const char *const damaged[] = {
		"1s/ capture \\(.\\{8\\}\\).*/ capture \\1/",	/* id cut */
		"1s/ capture .*/ capture/",			/* no id */
		"1s/ capture .*/ captu/",			/* word cut */
		"1s/ capture \\(.*\\)/ capture \\1 x/",		/* more */
		"1s/ capture \\(.\\)/ capture g/",		/* not hex */
	};
	struct files a = { .dir = tu_tmpdir() }, b = { .dir = a.dir };
	const char *tool = tu_tool("tracebuf");
	char ia[17], ib[17], *out;
	unsigned int i;
	int st;

	tb_fdr_meta_id_text(collect(&a, "a.fdr", true), ia);
	tb_fdr_meta_id_text(collect(&b, "b.fdr", true), ib);
	/*
	 * Its own, in capitals: taken.  (awk, not GNU sed's \U: the PXA270
	 * guest's busybox sed has none, and wrote "capture U..." there.)
	 */
	out = tu_run(&st, "awk 'NR == 1 { $NF = toupper($NF) } 1' %s > %s.up && awk 'NR == 1 { $NF = toupper($NF) } 1' %s > %s.up && %s report -m %s.up --tasks %s.up %s",
		     a.names, a.names, a.tasks, a.tasks, tool, a.names,
		     a.tasks, a.trace);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	/* Another capture's, in capitals: refused as another's. */
	out = tu_run(&st, "awk 'NR == 1 { $NF = toupper($NF) } 1' %s > %s.up && %s report -m %s.up %s",
		     b.names, b.names, tool, b.names, a.trace);
	EXPECT_EQ(3, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "another recording")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ia)) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "awk 'NR == 1 { $NF = toupper($NF) } 1' %s > %s.up && %s script --tasks %s.up %s",
		     b.tasks, b.tasks, tool, b.tasks, a.trace);
	EXPECT_EQ(3, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "another recording")) TH_LOG("%s", out);
	free(out);
	for (i = 0; i < ARRAY_SIZE(damaged); i++) {
		out = tu_run(&st, "sed '%s' %s > %s.bad && %s report -m %s.bad %s",
			     damaged[i], a.names, a.names, tool, a.names,
			     a.trace);
		EXPECT_EQ(3, st) TH_LOG("%s: %s", damaged[i], out);
		EXPECT_NE(NULL, strstr(out, "first line is damaged"))
			TH_LOG("%s: %s", damaged[i], out);
		free(out);
		out = tu_run(&st, "sed '%s' %s > %s.bad && %s report --tasks %s.bad %s",
			     damaged[i], a.tasks, a.tasks, tool, a.tasks,
			     a.trace);
		EXPECT_EQ(3, st) TH_LOG("%s: %s", damaged[i], out);
		EXPECT_NE(NULL, strstr(out, "first line is damaged"))
			TH_LOG("%s: %s", damaged[i], out);
		free(out);
	}
	/*
	 * Beside a trace with no id to check against (no META block):
	 * refused all the same.
	 */
	collect(&b, "old.fdr", false);
	out = tu_run(&st, "sed '%s' %s > %s && %s report %s", damaged[0],
		     a.names, b.names, tool, b.trace);
	EXPECT_EQ(3, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "first line is damaged")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(a.dir);
}

TEST(companion_of_another_kind_refused)
{
	struct files a = { .dir = tu_tmpdir() };
	char *out;
	int st;

	collect(&a, "a.fdr", true);
	out = tu_run(&st, "%s report -m %s %s", tu_tool("tracebuf"), a.tasks,
		     a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "is a tasks file, not a names file"));
	free(out);
	out = tu_run(&st, "%s report --tasks %s %s", tu_tool("tracebuf"),
		     a.names, a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "is a names file, not a tasks file"));
	free(out);
	/* Written before capture ids: known by their headings. */
	out = tu_run(&st, "sed 1d %s > %s.old && %s report -m %s.old %s",
		     a.tasks, a.tasks, tu_tool("tracebuf"), a.tasks, a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "is a tasks file, not a names file"));
	free(out);
	out = tu_run(&st, "sed 1d %s > %s.old && %s report --tasks %s.old %s",
		     a.names, a.names, tu_tool("tracebuf"), a.names, a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "is a names file, not a tasks file"));
	free(out);
	out = tu_run(&st, "%s report -m %s %s", tu_tool("tracebuf"), a.map,
		     a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "ELF"));
	free(out);
	out = tu_run(&st, "%s convert fdr-json -m %s %s -", tu_tool("tracebuf"),
		     a.trace, a.trace);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "FDR trace, not"));
	free(out);
	tu_rmdir(a.dir);
}

TEST(cut_inside_meta_reads_as_without)
{
	struct files a = { .dir = tu_tmpdir() };
	struct tb_fdr_meta_block m;
	struct recs s = { 0 };
	struct tb_error err;
	char cut[400], *buf, *out;
	size_t len, end, n;
	int st;

	collect(&a, "a.fdr", true);
	buf = slurp_n(a.trace, &len);
	/* Where the META block ends: the second block's extents record. */
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	ASSERT_TRUE(m.present);
	tb_fdr_meta_free(&m);
	for (end = TB_FDR_HEADER_SIZE + TB_FDR_META_SIZE; end < len; end++)
		if ((uint8_t)buf[end] ==
		    TRACEBUF_FDR_META_BYTE(TB_FDR_BUFFER_EXTENTS) &&
		    !tb_fdr_meta_read_mem(buf, end, &m) && !m.present)
			continue;
		else if ((uint8_t)buf[end] ==
			 TRACEBUF_FDR_META_BYTE(TB_FDR_BUFFER_EXTENTS))
			break;
	tb_fdr_meta_free(&m);
	ASSERT_LT(end, len);
	/* Cut anywhere before its end: no block, no error. */
	for (n = 0; n < end; n++) {
		ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, n, &m));
		EXPECT_FALSE(m.present) TH_LOG("cut at %zu of %zu", n, end);
		tb_fdr_meta_free(&m);
	}
	/* Whole at its end, and the readers say once that it is mute. */
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, end, &m));
	EXPECT_TRUE(m.present);
	tb_fdr_meta_free(&m);
	snprintf(cut, sizeof(cut), "%s/cut.fdr", a.dir);
	ASSERT_EQ(0, tu_write(cut, buf, end - 40));
	out = tu_run(&st, "%s report %s", tu_tool("tracebuf"), cut);
	EXPECT_EQ(0, st);
	EXPECT_EQ(1, tu_count(out, "carries no names"));
	free(out);
	(void)s;
	(void)err;
	free(buf);
	tu_rmdir(a.dir);
}

/* A stream of @blocks: META texts (type, text) in a block at @at. */
static char *meta_stream(size_t *len, bool meta_first, const uint16_t *types,
			 const char *const *texts, unsigned int n)
{
	struct tb_fdr_writer w;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	unsigned int i;

	tb_fdr_writer_init(&w, f, &hdr, 0);
	if (!meta_first) {
		tb_fdr_writer_begin(&w, 1, 1, 0, 100, 0, 0);
		tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 100, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 200, NULL, 0);
	}
	tb_fdr_writer_begin(&w, 0, TRACEBUF_FDR_META_TID, 0, 100, 0, 0);
	for (i = 0; i < n; i++) {
		uint8_t r[TB_FDR_META_SIZE] = { 0 };

		if (*texts[i]) {
			tb_fdr_writer_typed(&w, 100, types[i], texts[i],
					    (int32_t)strlen(texts[i]));
			continue;
		}
		/* No payload: the writer makes none, by hand then. */
		tb_fdr_writer_put_meta(r, TB_FDR_TYPED);
		tb_bytes_put16(r + TRACEBUF_FDR_TYPED_TYPE, types[i]);
		tb_fdr_writer_append(&w, r, sizeof(r), 100);
	}
	if (meta_first) {
		tb_fdr_writer_begin(&w, 1, 1, 0, 100, 0, 0);
		tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 100, NULL, 0);
		tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 200, NULL, 0);
	}
	tb_fdr_writer_finish(&w);
	fclose(f);
	return buf;
}

TEST(meta_chunks_joined_unknown_keys_and_types_ignored)
{
	static const uint16_t types[] = {
		TRACEBUF_FDR_TYPED_META_CAPTURE, TRACEBUF_FDR_TYPED_META_NAMES,
		99, TRACEBUF_FDR_TYPED_META_NAMES,
		TRACEBUF_FDR_TYPED_META_TASKS,
	};
	static const char *const texts[] = {
		"colour blue\ncapture 00000000000000ab\n", "1 sys_mi",
		"1 not_this\n", "ne\n", "1 1 mytask\n",
	};
	char *dir = tu_tmpdir(), path[300], *buf, *out, v[32];
	struct tb_fdr_meta_block m;
	size_t len;
	int st;

	buf = meta_stream(&len, true, types, texts, 5);
	snprintf(path, sizeof(path), "%s/m.fdr", dir);
	ASSERT_EQ(0, tu_write(path, buf, len));
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	ASSERT_TRUE(m.present);
	EXPECT_EQ(0, m.malformed);
	EXPECT_TRUE(m.has_id);
	EXPECT_EQ(0xab, m.id);
	/* A text cut inside a line is joined again, in order. */
	EXPECT_STREQ("1 sys_mine\n", m.names);
	EXPECT_STREQ("blue", tb_fdr_meta_value(&m, "colour", v, sizeof(v)));
	tb_fdr_meta_free(&m);
	out = tu_run(&st, "%s report %s", tu_tool("tracebuf"), path);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "sys_mine"));
	EXPECT_NE(NULL, strstr(out, "mytask"));
	/* One task: the META thread is none. */
	EXPECT_NE(NULL, strstr(out, "1 tasks"));
	free(out);
	free(buf);
	tu_rmdir(dir);
}

/*
 * A payload shorter than a META event's least (1 byte) is no FDR record
 * llvm-xray reads (fdr-dump -verify: "Invalid size for typed event"):
 * the block is not read, and no reader takes the file.
 */
/* The META block's capture id in capitals is the same id (formats.rst). */
TEST(meta_capture_id_in_capitals)
{
	static const uint16_t types[] = { TRACEBUF_FDR_TYPED_META_CAPTURE };
	static const char *const up[] = { "capture 00000000000000AB\n" };
	static const char *const cut[] = { "capture 00000000000000a\n" };
	struct tb_fdr_meta_block m;
	uint64_t id = 0;
	size_t len;
	char *buf;

	buf = meta_stream(&len, true, types, up, 1);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	EXPECT_TRUE(m.has_id);
	EXPECT_EQ(0xab, m.id);
	tb_fdr_meta_free(&m);
	free(buf);
	buf = meta_stream(&len, true, types, cut, 1);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	EXPECT_TRUE(m.present);
	EXPECT_FALSE(m.has_id);
	tb_fdr_meta_free(&m);
	free(buf);
	/* The companion's line, by the same rule. */
	EXPECT_EQ(1, tb_fdr_meta_id_line("# tracebuf names capture 00000000000000aB\n",
					 TB_FDR_META_NAMES_LINE, &id));
	EXPECT_EQ(0xab, id);
	EXPECT_EQ(-1, tb_fdr_meta_id_line("# tracebuf names\n",
					  TB_FDR_META_NAMES_LINE, &id));
	EXPECT_EQ(0, tb_fdr_meta_id_line("# tracebuf tasks: TID PID COMM\n",
					 TB_FDR_META_TASKS_LINE, &id));
	EXPECT_EQ(0, tb_fdr_meta_id_line("# function ids of the trace\n",
					 TB_FDR_META_NAMES_LINE, &id));
	EXPECT_EQ(0, tb_fdr_meta_id_line("1 sys_read\n",
					 TB_FDR_META_NAMES_LINE, &id));
}

TEST(meta_payload_too_short)
{
	static const uint16_t types[] = {
		TRACEBUF_FDR_TYPED_META_NAMES, TRACEBUF_FDR_TYPED_META_NAMES,
	};
	static const char *const texts[] = { "1 sys_mine\n", "" };
	char *dir = tu_tmpdir(), path[300], *buf, *out;
	struct tb_fdr_meta_block m;
	size_t len;
	int st;

	buf = meta_stream(&len, true, types, texts, 2);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	EXPECT_FALSE(m.present);
	EXPECT_EQ(NULL, m.names);
	tb_fdr_meta_free(&m);
	snprintf(path, sizeof(path), "%s/m.fdr", dir);
	ASSERT_EQ(0, tu_write(path, buf, len));
	out = tu_run(&st, "%s report %s", tu_tool("tracebuf"), path);
	EXPECT_EQ(3, st);
	EXPECT_NE(NULL, strstr(out, "invalid payload size 0"));
	free(out);
	free(buf);
	tu_rmdir(dir);
}

TEST(meta_block_not_first_is_not_read)
{
	static const uint16_t types[] = { TRACEBUF_FDR_TYPED_META_NAMES };
	static const char *const texts[] = { "1 sys_late\n" };
	char *dir = tu_tmpdir(), path[300], *buf, *out;
	struct tb_fdr_meta_block m;
	size_t len;
	int st;

	buf = meta_stream(&len, false, types, texts, 1);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	EXPECT_FALSE(m.present);
	tb_fdr_meta_free(&m);
	snprintf(path, sizeof(path), "%s/m.fdr", dir);
	ASSERT_EQ(0, tu_write(path, buf, len));
	out = tu_run(&st, "%s report %s", tu_tool("tracebuf"), path);
	EXPECT_EQ(0, st);
	EXPECT_EQ(NULL, strstr(out, "sys_late"));
	EXPECT_EQ(1, tu_count(out, "carries no names"));
	EXPECT_NE(NULL, strstr(out, "1 tasks"));
	free(out);
	free(buf);
	tu_rmdir(dir);
}

/*
 * fdr-tidy keeps only a first META block, as the readers read only that
 * one: a later one (a second capture appended, a hostile file) is left
 * out with a count on stderr, never moved first nor joined to the first.
 */
TEST(tidy_leaves_out_a_meta_block_not_first)
{
	static const uint16_t types[] = { TRACEBUF_FDR_TYPED_META_NAMES };
	static const char *const texts[] = { "1 sys_late\n" };
	struct files a = { .dir = tu_tmpdir() }, b = { .dir = a.dir };
	const char *tool = tu_tool("tracebuf");
	struct tb_fdr_meta_block m, ma;
	char path[300], out_path[310], *buf, *out;
	struct metas c;
	struct tb_error err;
	size_t len;
	int st;

	buf = meta_stream(&len, false, types, texts, 1);
	snprintf(path, sizeof(path), "%s/late.fdr", a.dir);
	snprintf(out_path, sizeof(out_path), "%s.tidy", path);
	ASSERT_EQ(0, tu_write(path, buf, len));
	free(buf);
	out = tu_run(&st, "%s convert fdr-tidy %s %s", tool, path, out_path);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "left out 1 META block")) TH_LOG("%s", out);
	free(out);
	buf = slurp_n(out_path, &len);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	EXPECT_FALSE(m.present);
	tb_fdr_meta_free(&m);
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, count_meta, &c,
					    NULL, &err));
	EXPECT_EQ(0, c.blocks);
	free(buf);
	/* Two captures end to end: the first's block alone, as it was. */
	collect(&a, "a.fdr", true);
	collect(&b, "b.fdr", true);
	snprintf(path, sizeof(path), "%s/ab.fdr", a.dir);
	out = tu_run(&st, "(cat %s; tail -c +33 %s) > %s && %s convert fdr-tidy %s %s",
		     a.trace, b.trace, path, tool, path, out_path);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "left out 1 META block")) TH_LOG("%s", out);
	free(out);
	buf = slurp_n(a.trace, &len);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &ma));
	free(buf);
	buf = slurp_n(out_path, &len);
	ASSERT_EQ(0, tb_fdr_meta_read_mem(buf, len, &m));
	ASSERT_TRUE(m.present);
	EXPECT_EQ(ma.id, m.id);
	EXPECT_STREQ(ma.capture, m.capture);
	EXPECT_STREQ(ma.names, m.names);
	EXPECT_STREQ(ma.tasks, m.tasks);
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, count_meta, &c,
					    NULL, &err));
	EXPECT_EQ(1, c.blocks);
	EXPECT_EQ(0, c.at);
	tb_fdr_meta_free(&m);
	tb_fdr_meta_free(&ma);
	free(buf);
	/* One META block, first: nothing to say. */
	out = tu_run(&st, "%s convert fdr-tidy %s %s", tool, a.trace, out_path);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "META")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(a.dir);
}

TEST(without_names_one_line_says_so)
{
	struct files a = { .dir = tu_tmpdir() };
	char *out;
	int st;

	collect(&a, "old.fdr", false);
	unlink(a.names);
	unlink(a.tasks);
	out = tu_run(&st, "%s report -e syscall %s", tu_tool("tracebuf"),
		     a.trace);
	EXPECT_EQ(0, st);
	EXPECT_EQ(1, tu_count(out, "carries no names"));
	EXPECT_NE(NULL, strstr(out, "--map"));
	free(out);
	/* --no-names asks for none: nothing to say. */
	out = tu_run(&st, "%s report --no-names %s", tu_tool("tracebuf"),
		     a.trace);
	EXPECT_EQ(0, tu_count(out, "carries no names"));
	free(out);
	tu_rmdir(a.dir);
}

TEST(llvm_xray_reads_past_the_meta_block)
{
	struct files a = { .dir = tu_tmpdir() }, b = { .dir = a.dir };
	static const char *const cmds[] = {
		"fdr-dump -verify %s", "account -m %s.map %s",
		"stack -m %s.map %s", "convert -f yaml -m %s.map %s",
	};
	char *x, *y, *p;
	unsigned int i;
	int st;

	if (!tu_have("llvm-xray"))
		SKIP(return, "no llvm-xray");
	collect(&a, "with.fdr", true);
	collect(&b, "without.fdr", false);
	for (i = 0; i < 4; i++) {
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "llvm-xray %s", cmds[i]);
		if (i)
			x = tu_run(&st, cmd, a.trace, a.trace);
		else
			x = tu_run(&st, cmd, a.trace);
		EXPECT_EQ(0, st) TH_LOG("%s: %s", cmds[i], x);
		if (i == 1 || i == 2) {
			/* The META thread has no calls: the same numbers. */
			y = tu_run(&st, cmd, b.trace, b.trace);
			EXPECT_STREQ(y, x);
			free(y);
		}
		if (i == 3) {
			p = strstr(x, "kind: typed-event");
			EXPECT_NE(NULL, p);
			EXPECT_NE(NULL, strstr(x, "thread: 2147483646"));
		}
		free(x);
	}
	tu_rmdir(a.dir);
}

TEST_HARNESS_MAIN
