// SPDX-License-Identifier: GPL-2.0
/*
 * A trace cut on a record boundary inside a block (issue 26 item 7):
 * llvm-xray reads such a file without a word; every reader of ours reads
 * it too, exit status 0, and says on stderr that the trace is cut and how
 * many bytes its last block lacks.  An uncut trace says nothing.
 *
 * A trace cut at any byte (issue 41 item 2), as a copy taken while the
 * file was written, a full disk or a crash dump's partial ring leave it:
 * every reader gives exactly what it gives for the file cut at the last
 * whole record, exit status 0, and one line on stderr saying what was
 * lost.  And a task whose clock goes back (issue 41 item 7) is read and
 * counted, never refused, in a typed event as in a function record.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/tracebuf_fdr.h>

#include "tb_harness.h"
#include "format/fdr_reader.h"
#include "tb_gen.h"
#include "tb_test_util.h"
#include "util/bytes.h"

extern char **environ;

#define TOOL	"../../build/userspace/tracebuf"

static const char *const readers[] = {
	"convert fdr-text", "convert fdr-json", "convert fdr-tfile",
	"convert fdr-tidy", "report",
};

/* One task's block: 4 function records, 32 bytes after the NewCPUId. */
static size_t trace(struct gb *g, size_t *block_end)
{
	size_t ext;

	gf_header(g, 5, 1, 0);
	ext = gf_extents(g, 0);
	gf_new_buffer(g, 5);
	gf_wallclock(g, 1, 0);
	gf_pid(g, 5);
	gf_cpu(g, 0, 100);
	gf_func(g, TB_FDR_ENTER, 1, 0);
	gf_func(g, TB_FDR_ENTER, 2, 10);
	gf_func(g, TB_FDR_EXIT, 2, 10);
	gf_func(g, TB_FDR_EXIT, 1, 10);
	gf_extents_end(g, ext);
	*block_end = g->n;
	return ext;
}

TEST(every_reader_says_a_trace_is_cut)
{
	char *dir = tu_tmpdir(), path[512], want[64];
	struct gb g = { 0 };
	size_t end, cut;
	unsigned int i;
	char *out;
	int st;

	trace(&g, &end);
	snprintf(path, sizeof(path), "%s/t.fdr", dir);
	/* Cut after 3, 2 and 1 of the 4 function records. */
	for (cut = end - 8; cut >= end - 24; cut -= 8) {
		struct gb c = { .p = g.p, .n = cut };

		ASSERT_EQ(0, gb_write(&c, path));
		snprintf(want, sizeof(want), "lacks its last %zu bytes",
			 end - cut);
		for (i = 0; i < ARRAY_SIZE(readers); i++) {
			out = tu_run(&st, "(" TOOL " %s %s >/dev/null)",
				     readers[i], path);
			EXPECT_EQ(0, st) TH_LOG("%s: %s", readers[i], out);
			EXPECT_NE(NULL, strstr(out, "the trace is cut"))
				TH_LOG("%s at %zu: '%s'", readers[i], cut, out);
			EXPECT_NE(NULL, strstr(out, want))
				TH_LOG("%s: %s", readers[i], out);
			free(out);
		}
	}
	ASSERT_EQ(0, gb_write(&g, path));
	for (i = 0; i < ARRAY_SIZE(readers); i++) {
		out = tu_run(&st, "(" TOOL " %s %s >/dev/null)", readers[i],
			     path);
		EXPECT_EQ(0, st);
		EXPECT_EQ(NULL, strstr(out, "cut")) TH_LOG("%s: %s",
							   readers[i], out);
		free(out);
	}
	gb_free(&g);
	tu_rmdir(dir);
	free(dir);
}

/* ---- a cut at any byte ---- */

#define DEMO	"data/viewer/demo.fdr"
/*
 * The demo trace of 2026-11-26, recorded before switches opened blocks:
 * its first block has a CPU change inside, which small_trace() wants
 * (the demo of today has none, and its META block would make the small
 * trace four times longer: 455 s in the PXA270 guest).
 */
#define OLD_DEMO	"data/cut/demo-2026-11-26.fdr"

/*
 * Every command that reads any FDR file, as tracebuf's arguments
 * (fdr-xscale, which reads only xscale-fdr's files, has its own test).
 */
static const char *const cmds[][4] = {
	{ "convert", "fdr-text", NULL },
	{ "convert", "fdr-json", NULL },
	{ "convert", "fdr-tfile", NULL },
	{ "convert", "fdr-tidy", NULL },
	{ "report", NULL },
	{ "report", "--json", NULL },
	{ "report", "--folded", NULL },
	{ "script", NULL },
};

#define NCMDS	ARRAY_SIZE(cmds)

/* What one command gave for one file. */
struct run {
	int status;
	char *out, *err;	/* stdout (binary, @outlen bytes), stderr */
	size_t outlen;
};

static char *slurp_n(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	FILE *m = open_memstream(&s, n);
	int c;

	while (f && (c = getc(f)) != EOF)
		putc(c, m);
	fclose(m);
	if (f)
		fclose(f);
	return s;
}

/* tracebuf @argv (+ @in) with stdout and stderr to files: no shell. */
static void run_tool(const char *dir, const char *const *argv,
		     const char *in, struct run *r)
{
	char out[512], err[512];
	const char *args[8];
	posix_spawn_file_actions_t fa;
	unsigned int i = 0;
	pid_t pid;
	int st;

	snprintf(out, sizeof(out), "%s/stdout", dir);
	snprintf(err, sizeof(err), "%s/stderr", dir);
	args[i++] = TOOL;
	while (*argv)
		args[i++] = *argv++;
	args[i++] = in;
	args[i] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, err,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (posix_spawn(&pid, TOOL, &fa, NULL, (char **)args, environ)) {
		perror(TOOL);
		exit(1);
	}
	posix_spawn_file_actions_destroy(&fa);
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	r->out = slurp_n(out, &r->outlen);
	r->err = slurp_n(err, &(size_t){ 0 });
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* stderr without its line about the cut; how many such lines it had. */
static char *other_lines(const char *err, int *cut_lines)
{
	char *s = strdup(err), *p = s, *nl;

	*cut_lines = 0;
	while (*p) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		if (strstr(p, "the trace is cut") &&
		    (!strchr(p, '\n') || strstr(p, "the trace is cut") < nl)) {
			memmove(p, nl, strlen(nl) + 1);
			(*cut_lines)++;
			continue;
		}
		p = nl;
	}
	return s;
}

/* Where records start in @p (the reader's view), and the end. */
struct bounds {
	size_t *at;
	size_t n;
	uint64_t *ext_end;	/* per boundary: its block's end, 0: none */
	uint64_t cur_end;
};

static int bounds_rec(void *ctx, const struct tb_fdr_record *r)
{
	struct bounds *b = ctx;

	if (r->kind == TB_FDR_BUFFER_EXTENTS)
		b->cur_end = r->offset + TB_FDR_META_SIZE + (uint32_t)r->value;
	b->at = realloc(b->at, (b->n + 1) * sizeof(*b->at));
	b->ext_end = realloc(b->ext_end, (b->n + 1) * sizeof(*b->ext_end));
	b->at[b->n] = r->offset;
	b->ext_end[b->n++] = r->kind == TB_FDR_BUFFER_EXTENTS ? 0 : b->cur_end;
	return 0;
}

static void bounds_find(struct __test_metadata *_metadata,
			const uint8_t *p, size_t n, struct bounds *b)
{
	struct tb_error err = { 0 };

	memset(b, 0, sizeof(*b));
	ASSERT_EQ(0, tb_fdr_reader_read_mem(p, n, NULL, bounds_rec, b, NULL,
					    &err)) {
		TH_LOG("%s", err.msg);
	}
	ASSERT_EQ(0, err.warning[0]);
	/* The end of the file is a boundary, after the header is one. */
	b->at = realloc(b->at, (b->n + 2) * sizeof(*b->at));
	b->ext_end = realloc(b->ext_end, (b->n + 2) * sizeof(*b->ext_end));
	b->at[b->n] = n;
	b->ext_end[b->n++] = 0;
}

/* Index of the last boundary at or before @cut. */
static size_t bounds_last(const struct bounds *b, size_t cut)
{
	size_t i = 0;

	while (i + 1 < b->n && b->at[i + 1] <= cut)
		i++;
	return i;
}

static void put_prefix(struct __test_metadata *_metadata, const char *path,
		       const uint8_t *p, size_t n)
{
	struct gb c = { .p = (uint8_t *)p, .n = n };

	ASSERT_EQ(0, gb_write(&c, path));
}

/*
 * Cut @p at each of @cuts (ascending, each >= the header) and run every
 * command of @cmd on it and on the same file cut at the last whole record
 * before: the same stdout, exit status 0, and stderr the same but for one
 * line that says the trace is cut, names the record left out and how
 * many bytes its block lacks.  Returns the cuts that were inside a record.
 */
static unsigned int check_cuts(struct __test_metadata *_metadata,
			       const char *dir, const uint8_t *p, size_t n,
			       const size_t *cuts, size_t ncuts,
			       const char *const (*cmd)[4], size_t ncmd)
{
	struct run *ref = calloc(ncmd, sizeof(*ref));
	char path[512], want[128];
	size_t i, k, b, have_ref = (size_t)-1;
	unsigned int inside = 0, bad = 0;
	struct bounds bd;

	bounds_find(_metadata, p, n, &bd);
	snprintf(path, sizeof(path), "%s/c.fdr", dir);
	for (i = 0; i < ncuts && bad < 10; i++) {
		size_t cut = cuts[i];

		b = bounds_last(&bd, cut);
		if (b != have_ref) {
			for (k = 0; k < ncmd && have_ref != (size_t)-1; k++)
				run_free(&ref[k]);
			put_prefix(_metadata, path, p, bd.at[b]);
			for (k = 0; k < ncmd; k++) {
				run_tool(dir, cmd[k], path, &ref[k]);
				EXPECT_EQ(0, ref[k].status) {
					TH_LOG("%s %s cut at %zu (a record boundary): %s",
					       cmd[k][0], cmd[k][1] ? cmd[k][1] : "",
					       bd.at[b], ref[k].err);
					bad++;
				}
			}
			have_ref = b;
		}
		if (cut == bd.at[b])
			continue;
		inside++;
		put_prefix(_metadata, path, p, cut);
		for (k = 0; k < ncmd; k++) {
			const char *name = cmd[k][1] ? cmd[k][1] : cmd[k][0];
			char *o1, *o2;
			struct run r;
			int l1, l2;

			run_tool(dir, cmd[k], path, &r);
			EXPECT_EQ(0, r.status) {
				TH_LOG("%s cut at %zu (record at %zu): exit %d: %s",
				       name, cut, bd.at[b], r.status, r.err);
				bad++;
			}
			EXPECT_TRUE(r.outlen == ref[k].outlen &&
				    !memcmp(r.out, ref[k].out, r.outlen)) {
				TH_LOG("%s cut at %zu: stdout (%zu bytes) is not the one cut at %zu (%zu bytes)",
				       name, cut, r.outlen, bd.at[b],
				       ref[k].outlen);
				bad++;
			}
			o1 = other_lines(r.err, &l1);
			o2 = other_lines(ref[k].err, &l2);
			EXPECT_EQ(1, l1) {
				TH_LOG("%s cut at %zu: stderr '%s'", name, cut,
				       r.err);
				bad++;
			}
			EXPECT_STREQ(o2, o1) {
				TH_LOG("%s cut at %zu", name, cut);
				bad++;
			}
			/* What was lost: the record left out, the block's rest. */
			snprintf(want, sizeof(want), "record at offset %zu",
				 bd.at[b]);
			EXPECT_NE(NULL, strstr(r.err, want)) {
				TH_LOG("%s cut at %zu: '%s' lacks '%s'", name,
				       cut, r.err, want);
				bad++;
			}
			if (bd.ext_end[b] > cut) {
				snprintf(want, sizeof(want),
					 "lacks its last %llu bytes",
					 (unsigned long long)(bd.ext_end[b] - cut));
				EXPECT_NE(NULL, strstr(r.err, want)) {
					TH_LOG("%s cut at %zu: '%s' lacks '%s'",
					       name, cut, r.err, want);
					bad++;
				}
			}
			free(o1);
			free(o2);
			run_free(&r);
		}
	}
	for (k = 0; k < ncmd && have_ref != (size_t)-1; k++)
		run_free(&ref[k]);
	free(ref);
	free(bd.at);
	free(bd.ext_end);
	return inside;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static uint8_t *slurp_file(const char *path, size_t *n)
{
	return (uint8_t *)slurp_n(path, n);
}

/* demo.fdr's companions beside the cut file: names and tasks as in use. */
static void companions(const char *dir, const char *demo)
{
	char *out;
	int st;

	out = tu_run(&st, "cp %s.names %s/c.fdr.names && cp %s.tasks %s/c.fdr.tasks",
		     demo, dir, demo, dir);
	free(out);
}

/* The end of the 4th record after the first block's CPU change. */
struct cpu_change {
	unsigned int cpus, after;
	size_t end;
};

static int cpu_change_rec(void *ctx, const struct tb_fdr_record *r)
{
	struct cpu_change *c = ctx;

	if (c->end)
		return 0;
	if (c->cpus == 2 && c->after++ == 4)
		c->end = r->offset;
	if (r->kind == TB_FDR_NEW_CPU)
		c->cpus++;
	return 0;
}

/*
 * A small real trace: the old demo's (OLD_DEMO) header, its first block
 * up to a few records after its first CPU change (the extent made to
 * fit), and its third block, a thread's markers; so every kind of record
 * the recorder writes (custom events, call arguments, TSCWrap, NewCPUId)
 * is cut at every byte, for every command.
 */
static void small_trace(struct __test_metadata *_metadata, struct gb *g)
{
	struct cpu_change cc = { 0 };
	struct tb_error err = { 0 };
	size_t n, off, b3 = 0;
	uint8_t *d = slurp_file(OLD_DEMO, &n);
	unsigned int blk = 0;

	ASSERT_NE(NULL, d);
	/* Blocks: walk the extents (demo.fdr has no bytes between). */
	for (off = TB_FDR_HEADER_SIZE; off + TB_FDR_META_SIZE <= n;
	     off += TB_FDR_META_SIZE + (uint32_t)tb_bytes_get64(d + off + 1)) {
		ASSERT_EQ(TRACEBUF_FDR_META_BYTE(TB_FDR_BUFFER_EXTENTS), d[off]);
		if (blk++ == 2)
			b3 = off;
	}
	ASSERT_LT(2, blk);
	ASSERT_EQ(0, tb_fdr_reader_read_mem(d, n, NULL, cpu_change_rec, &cc,
					    NULL, &err));
	ASSERT_LT(TB_FDR_HEADER_SIZE, cc.end);
	gb_bytes(g, d, cc.end);
	tb_bytes_put64(g->p + TB_FDR_HEADER_SIZE + 1,
		       cc.end - TB_FDR_HEADER_SIZE - TB_FDR_META_SIZE);
	gb_bytes(g, d + b3, TB_FDR_META_SIZE +
		 (uint32_t)tb_bytes_get64(d + b3 + 1));
	free(d);
}

/*
 * About 3,800 runs of the tool: 6.4 s of CPU, 26 s on two cores at a
 * load of 5 (2026-11-29), so twice a batch's time.
 */
TEST_TIMEOUT(small_trace_cut_at_every_byte, 2 * TU_BATCH_TIMEOUT)
{
	double scale = tb_env_factor("TB_SCALE");
	char *dir = tu_tmpdir();
	struct gb g = { 0 };
	size_t *cuts, i, n, step = 1;
	unsigned int inside;

	/* Every byte; TB_SCALE below 1 (a slow machine) takes fewer. */
	if (scale < 1)
		step = (size_t)(1 / scale + 0.5);
	small_trace(_metadata, &g);
	companions(dir, OLD_DEMO);
	cuts = malloc(g.n * sizeof(*cuts));
	for (i = TB_FDR_HEADER_SIZE, n = 0; i < g.n; i += step)
		cuts[n++] = i;
	inside = check_cuts(_metadata, dir, g.p, g.n, cuts, n, cmds, NCMDS);
	fprintf(stderr, "# %zu-byte trace cut at %zu offsets, %u inside a record, %zu commands each\n",
		g.n, n, inside, NCMDS);
	free(cuts);
	gb_free(&g);
	tu_rmdir(dir);
	free(dir);
}

/*
 * demo.fdr cut at many offsets: around every block's start (inside its
 * BufferExtents record), inside its first marker's payload, and spread
 * over the whole file.
 */
TEST_TIMEOUT(demo_cut_at_many_offsets, TU_BATCH_TIMEOUT)
{
	char *dir = tu_tmpdir();
	size_t n, off, *cuts, ncuts = 0, i;
	uint8_t *d = slurp_file(DEMO, &n);
	unsigned int inside, seed = 41;
	static const size_t near[] = { 1, 8, 9, 15, 17, 60, 75 };

	ASSERT_NE(NULL, d);
	companions(dir, DEMO);
	cuts = malloc(4096 * sizeof(*cuts));
	for (off = TB_FDR_HEADER_SIZE; off + TB_FDR_META_SIZE <= n;
	     off += TB_FDR_META_SIZE + (uint32_t)tb_bytes_get64(d + off + 1))
		for (i = 0; i < ARRAY_SIZE(near); i++)
			if (off + near[i] < n)
				cuts[ncuts++] = off + near[i];
	for (i = 0; i < 60; i++)
		cuts[ncuts++] = TB_FDR_HEADER_SIZE +
				gen_rand(&seed, (unsigned int)(n - TB_FDR_HEADER_SIZE));
	cuts[ncuts++] = 20000;
	qsort(cuts, ncuts, sizeof(*cuts), cmp_size);
	inside = check_cuts(_metadata, dir, d, n, cuts, ncuts, cmds, NCMDS);
	fprintf(stderr, "# demo.fdr cut at %zu offsets, %u inside a record\n",
		ncuts, inside);
	EXPECT_LT(60, inside);
	free(cuts);
	free(d);
	tu_rmdir(dir);
	free(dir);
}

/* fdr-xscale reads FDR too: xscale-fdr's file cut at every byte. */
TEST(xscale_fdr_cut_at_every_byte)
{
	static const char *const xs[][4] = { { "convert", "fdr-xscale", NULL } };
	char *dir = tu_tmpdir();
	size_t n, i, *cuts;
	uint8_t *d = slurp_file("data/corpus/fdr/xscale-mapping.fdr", &n);

	ASSERT_NE(NULL, d);
	cuts = malloc(n * sizeof(*cuts));
	for (i = TB_FDR_HEADER_SIZE; i < n; i++)
		cuts[i - TB_FDR_HEADER_SIZE] = i;
	check_cuts(_metadata, dir, d, n, cuts, n - TB_FDR_HEADER_SIZE, xs, 1);
	free(cuts);
	free(d);
	tu_rmdir(dir);
	free(dir);
}

/* ---- a task's clock that goes back ---- */

/*
 * One task's block whose clock goes back @back ticks at a CPU change (a
 * move to a CPU whose TSC is behind, Documentation/fdr.rst): a call
 * before, one across the step, one begun right at it.
 */
static void back_trace(struct gb *g, uint64_t back)
{
	size_t ext;

	gf_header(g, 5, 1, 0);
	ext = gf_extents(g, 0);
	gf_new_buffer(g, 5);
	gf_wallclock(g, 1, 0);
	gf_pid(g, 5);
	gf_cpu(g, 0, 1000);
	gf_func(g, TB_FDR_ENTER, 1, 0);
	gf_func(g, TB_FDR_EXIT, 1, 100);
	gf_func(g, TB_FDR_ENTER, 2, 10);
	gf_cpu(g, 1, 1110 - back);
	gf_func(g, TB_FDR_ENTER, 3, 0);
	gf_func(g, TB_FDR_EXIT, 3, 20);
	gf_func(g, TB_FDR_EXIT, 2, 500);
	gf_extents_end(g, ext);
}

TEST(clock_back_is_counted)
{
	static const uint64_t backs[] = { 1, 400 };
	char *dir = tu_tmpdir(), path[512], want[128], *out;
	unsigned int i;
	int st;

	snprintf(path, sizeof(path), "%s/b.fdr", dir);
	for (i = 0; i < ARRAY_SIZE(backs); i++) {
		struct gb g = { 0 };

		back_trace(&g, backs[i]);
		ASSERT_EQ(0, gb_write(&g, path));
		gb_free(&g);
		out = tu_run(&st, TOOL " report --no-names %s", path);
		EXPECT_EQ(0, st) TH_LOG("back %llu: %s",
					(unsigned long long)backs[i], out);
		snprintf(want, sizeof(want),
			 "1 step back in a task's clock (at most %llu ticks, ",
			 (unsigned long long)backs[i]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
		free(out);
		out = tu_run(&st, TOOL " report --no-names --json %s", path);
		EXPECT_EQ(0, st) TH_LOG("%s", out);
		snprintf(want, sizeof(want),
			 "\"clock_back\": 1, \"clock_back_max_ns\": %llu",
			 (unsigned long long)backs[i]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
		free(out);
		/* fdr-tidy's own output of it. */
		out = tu_run(&st, "(" TOOL " convert -q fdr-tidy %s %s.tidy && "
			     TOOL " report --no-names %s.tidy)", path, path,
			     path);
		EXPECT_EQ(0, st) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "1 step back in a task's clock"))
			TH_LOG("%s", out);
		free(out);
	}
	tu_rmdir(dir);
	free(dir);
}

/*
 * The same step back in a typed event (a WAKEUP @back ticks before the
 * exit just before it, by its signed delta): the function records
 * around it stay in order, so only a reader that compares the typed
 * event with the record before it sees the step.
 */
static void typed_back_trace(struct gb *g, int32_t back)
{
	uint8_t wk[TRACEBUF_FDR_WAKEUP_SIZE] = { 0 };
	size_t ext;

	tb_bytes_put32(wk + TRACEBUF_FDR_WAKEUP_TID, 6);
	gf_header(g, 5, 1, 0);
	ext = gf_extents(g, 0);
	gf_new_buffer(g, 5);
	gf_wallclock(g, 1, 0);
	gf_pid(g, 5);
	gf_cpu(g, 0, 1000);
	gf_func(g, TB_FDR_ENTER, 1, 0);
	gf_func(g, TB_FDR_EXIT, 1, 100);
	gf_typed(g, wk, sizeof(wk), -back, TRACEBUF_FDR_TYPED_WAKEUP);
	/* 10 ticks after the exit: in order with it. */
	gf_func(g, TB_FDR_ENTER, 2, (uint32_t)back + 10);
	gf_func(g, TB_FDR_EXIT, 2, 20);
	gf_extents_end(g, ext);
}

TEST(typed_event_clock_back_is_counted)
{
	static const int32_t backs[] = { 1, 400 };
	char *dir = tu_tmpdir(), path[512], want[128], *out;
	unsigned int i;
	int st;

	snprintf(path, sizeof(path), "%s/b.fdr", dir);
	for (i = 0; i < ARRAY_SIZE(backs); i++) {
		struct gb g = { 0 };

		typed_back_trace(&g, backs[i]);
		ASSERT_EQ(0, gb_write(&g, path));
		gb_free(&g);
		out = tu_run(&st, TOOL " report --no-names %s", path);
		EXPECT_EQ(0, st) TH_LOG("back %d: %s", backs[i], out);
		snprintf(want, sizeof(want),
			 "1 step back in a task's clock (at most %d ticks, ",
			 backs[i]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
		free(out);
		out = tu_run(&st, TOOL " report --no-names --json %s", path);
		EXPECT_EQ(0, st) TH_LOG("%s", out);
		snprintf(want, sizeof(want),
			 "\"clock_back\": 1, \"clock_back_max_ns\": %d",
			 backs[i]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
		free(out);
		/* The other readers count it already, as one. */
		out = tu_run(&st, "(" TOOL " script --no-names %s >/dev/null)",
			     path);
		EXPECT_EQ(0, st) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, ": 1 events come after later ones"))
			TH_LOG("%s", out);
		free(out);
		out = tu_run(&st, "(" TOOL " convert fdr-json %s /dev/null)",
			     path);
		EXPECT_EQ(0, st) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, ": 1 threads have records out of time order"))
			TH_LOG("%s", out);
		free(out);
	}
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
