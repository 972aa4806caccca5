// SPDX-License-Identifier: GPL-2.0
/*
 * Our GDB trace file reader against gdb 13, on files made here (tb_gen.h)
 * and judged by both in the same run: what `target tfile` refuses we
 * refuse, and on what it opens we reach as many frames as `tfind` does.
 * The shapes are the classes gdb's reader decides on (the R line, status,
 * variable names, line length, carriage returns, blocks past their frame,
 * the end marker, unknown blocks, truncation); then random mutations.
 * Last, gdb's searches in the files our converters write, from both
 * devices: `info tracepoints` and `tfind tracepoint N`.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "format/tfile.h"
#include "format/tfile_reader.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define MUTATIONS	60
#define TFIND_STEPS	14	/* more than any file here has frames */

struct ours {
	int ret;
	struct tb_error err;
	struct tb_tfile_info info;
};

static void ours_read(const struct gb *g, struct ours *o)
{
	FILE *f = fmemopen(g->p, g->n, "rb");

	memset(o, 0, sizeof(*o));
	o->ret = tb_tfile_reader_read(f, NULL, NULL, &o->info, &o->err);
	fclose(f);
}

struct theirs {
	int open;		/* `target tfile` succeeded */
	int frames;		/* distinct frames tfind found */
};

/*
 * gdb over t0.tf .. t<n-1>.tf of @dir, one process per file in one shell:
 * open, then tfind from the start until it fails.
 */
static void gdb_batch(const char *dir, unsigned int n, struct theirs *t)
{
	char cmd[1024], *out, *p;
	unsigned int i;
	size_t len = 0;

	len += snprintf(cmd + len, sizeof(cmd) - len,
			"cd %s && i=0; while [ $i -lt %u ]; do "
			"echo \"=== $i\"; gdb -batch -nx "
			"-iex 'maint set internal-error corefile no' "
			"-iex 'maint set internal-error quit yes' "
			"-ex \"target tfile t$i.tf\" "
			"-ex 'maint print target-stack' -ex 'tfind start'",
			dir, n);
	for (i = 0; i < TFIND_STEPS; i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, " -ex tfind");
	snprintf(cmd + len, sizeof(cmd) - len,
		 " </dev/null; i=$((i+1)); done");
	out = tu_run(NULL, "%s", cmd);
	for (p = strstr(out, "=== "); p; ) {
		char *next = strstr(p + 4, "=== ");
		unsigned int k = (unsigned int)atoi(p + 4);
		int seen[TFIND_STEPS + 2] = { 0 }, f;
		char *q;

		if (next)
			next[-1] = 0;
		if (k < n) {
			t[k].open = !!strstr(p, "\n  - tfile");
			t[k].frames = 0;
			for (q = strstr(p, "Found trace frame "); q;
			     q = strstr(q + 1, "Found trace frame ")) {
				f = atoi(q + 18);
				if (f >= 0 && f < TFIND_STEPS + 2 && !seen[f]) {
					seen[f] = 1;
					t[k].frames++;
				}
			}
		}
		p = next;
	}
	free(out);
}

static void put_file(const char *dir, unsigned int i, const struct gb *g)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/t%u.tf", dir, i);
	if (gb_write(g, path)) {
		perror(path);
		exit(1);
	}
}

/* The small valid file of tb_gen.h with @n frames, and its end marker. */
static void std_file(struct gb *g, unsigned int n, int end)
{
	unsigned int i;

	gt_defs(g, n);
	gt_line(g, "");
	for (i = 0; i < n; i++)
		gt_std_frame(g, i);
	if (end)
		gt_end(g);
}

/* Replace the definition line starting with @prefix by @line. */
static void swap_line(struct gb *g, const char *prefix, const char *line)
{
	struct gb o = { 0 };
	size_t i = 8;

	gb_bytes(&o, g->p, 8);
	while (i < g->n) {
		const uint8_t *nl = memchr(g->p + i, '\n', g->n - i);
		size_t len = nl ? (size_t)(nl - (g->p + i)) : g->n - i;

		if (!len) {
			gb_bytes(&o, g->p + i, g->n - i);
			break;
		}
		if (!strncmp((const char *)g->p + i, prefix, strlen(prefix))) {
			if (line)
				gt_line(&o, line);
		} else {
			gb_bytes(&o, g->p + i, len + 1);
		}
		i += len + 1;
	}
	gb_free(g);
	*g = o;
}

/* Put a carriage return before the newline of the line at @prefix. */
static void cr_line(struct gb *g, const char *prefix)
{
	size_t i;

	for (i = 8; i + strlen(prefix) < g->n; i++) {
		if ((i == 8 || g->p[i - 1] == '\n') &&
		    !strncmp((const char *)g->p + i, prefix, strlen(prefix))) {
			const uint8_t *nl = memchr(g->p + i, '\n', g->n - i);
			size_t at = (size_t)(nl - g->p);

			gb_space(g, 1);
			memmove(g->p + at + 1, g->p + at, g->n - at - 1);
			g->p[at] = '\r';
			return;
		}
	}
}

struct shape {
	unsigned int id;	/* case of build_shape() */
	const char *what;
	int open;		/* gdb 13 opens it */
	int frames;		/* frames tfind reaches */
};

static const struct shape shapes[] = {
	{ 0, "valid, 3 frames", 1, 3 },
	{ 1, "no R line", 0, 0 },
	{ 2, "R 0", 0, 0 },
	{ 3, "R 8 then R 0: the last wins", 0, 0 },
	{ 4, "R 0 then R 8", 1, 3 },
	{ 5, "R zz (not hex: 0)", 0, 0 },
	{ 6, "R 8junk", 1, 3 },
	{ 7, "R -8", 1, 3 },
	{ 8, "tsv name not hex-encoded", 0, 0 },
	{ 9, "tsv name of an odd number of digits", 1, 3 },
	{ 10, "tsv with an empty name", 1, 3 },
	{ 11, "status with an item without ':'", 0, 0 },
	{ 100, "status with such an item before a ':'", 1, 3 },
	{ 12, "status with junk after the flag", 0, 0 },
	{ 13, "status 1 only", 1, 3 },
	{ 14, "status stop text not hex-encoded", 0, 0 },
	{ 15, "status ending in an unknown item", 1, 3 },
	{ 16, "tp Z text not hex-encoded", 0, 0 },
	{ 17, "a line of 999 bytes", 1, 3 },
	{ 18, "a line of 1000 bytes", 0, 0 },
	{ 19, "a line of 1001 bytes", 0, 0 },
	{ 20, "CR before the newline of R", 1, 3 },
	{ 21, "CR before the newline of a tsv line", 1, 3 },
	{ 22, "CR before the newline of tp T and tp Z lines", 1, 3 },
	{ 23, "CR before the newline of status", 0, 0 },
	{ 24, "CR LF as the end of the definitions", 0, 0 },
	{ 25, "an unknown definition line", 1, 3 },
	{ 101, "tp Z line of a tracepoint without a tp T line", 0, 0 },
	{ 102, "tp Z line at another address than the tp T line", 0, 0 },
	{ 103, "tp T line after the tp Z lines", 1, 3 },
	{ 104, "an unknown tp piece", 1, 3 },
	{ 26, "the end of the file inside the definitions", 0, 0 },
	{ 27, "no end marker", 1, 3 },
	{ 28, "1 byte of end marker", 1, 3 },
	{ 29, "truncated frame header", 1, 2 },
	{ 30, "M block longer than its frame", 1, 3 },
	{ 31, "M block header past the frame", 1, 3 },
	{ 32, "R block longer than its frame", 1, 3 },
	{ 33, "V block longer than its frame", 1, 3 },
	{ 34, "unknown block type", 1, 1 },
	{ 35, "unknown block type after an R block", 1, 3 },
	{ 36, "R block cut by the end of the file", 1, 1 },
	{ 37, "V block cut by the end of the file", 1, 2 },
	{ 38, "M length cut by the end of the file", 1, 1 },
	{ 39, "M data cut by the end of the file", 1, 2 },
	{ 40, "frame size past the end of the file", 1, 1 },
	{ 41, "an empty frame", 1, 4 },
	{ 42, "a negative tracepoint number", 1, 3 },
	{ 43, "the end marker first", 1, 0 },
	{ 44, "bytes after the end marker", 1, 3 },
};

static void frame_with(struct gb *g, unsigned int i, int rblock, int kind)
{
	uint8_t mem[8] = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' };
	size_t f = gt_frame(g, 1);

	if (rblock)
		gt_r(g, 8, 0x11);
	gt_v(g, 1, i);
	switch (kind) {
	case 'M':		/* M claims 8 bytes, the frame holds 2 */
		gt_m(g, 0x500000, mem, 8);
		gt_frame_end(g, f);
		tb_bytes_put32(g->p + f + 2, tb_bytes_get32(g->p + f + 2) - 6);
		g->n -= 6;
		break;
	case 'H':		/* M header itself past the frame */
		*gb_space(g, 1) = 'M';
		gb_space(g, 4);
		gt_frame_end(g, f);
		break;
	case 'R':		/* R needs 9 bytes, the frame holds 5 */
		*gb_space(g, 1) = 'R';
		gb_space(g, 4);
		gt_frame_end(g, f);
		break;
	case 'V':
		*gb_space(g, 1) = 'V';
		gb_space(g, 6);
		gt_frame_end(g, f);
		break;
	case 'X':
		*gb_space(g, 1) = 'X';
		gt_frame_end(g, f);
		break;
	default:
		gt_frame_end(g, f);
	}
}

static void build_shape(struct gb *g, unsigned int i)
{
	char line[1100];
	size_t f;

	std_file(g, 3, 1);
	switch (i) {
	case 1:
		swap_line(g, "R ", NULL);
		break;
	case 2:
		swap_line(g, "R ", "R 0");
		break;
	case 3:
		swap_line(g, "tp T", "R 0");
		break;
	case 4:
		swap_line(g, "R ", "R 0\nR 8");
		break;
	case 5:
		swap_line(g, "R ", "R zz");
		break;
	case 6:
		swap_line(g, "R ", "R 8junk");
		break;
	case 7:
		swap_line(g, "R ", "R -8");
		break;
	case 8:
		swap_line(g, "tsv 2", "tsv 2:0:0:beta");
		break;
	case 9:
		swap_line(g, "tsv 2", "tsv 2:0:0:626");
		break;
	case 10:
		swap_line(g, "tsv 2", "tsv 2:0:0:");
		break;
	case 11:
		swap_line(g, "status", "status 0;tstop::0;tframes:3;bogus");
		break;
	case 12:
		swap_line(g, "status", "status 0 running");
		break;
	case 13:
		swap_line(g, "status", "status 1");
		break;
	case 14:
		swap_line(g, "status", "status 0;tstop:6e6f7065zz:0;tframes:3");
		break;
	case 15:
		swap_line(g, "status", "status 0;tframes:3;future:1");
		break;
	case 16:
		swap_line(g, "tp Z1:401000:cmd", "tp Z1:401000:cmd:0:4:collect");
		break;
	case 17 ... 19:
		memset(line, 'x', sizeof(line));
		memcpy(line, "tdesc ", 6);
		line[999 + (i - 17)] = 0;
		swap_line(g, "tsv 2", line);
		break;
	case 20:
		cr_line(g, "R ");
		break;
	case 21:
		cr_line(g, "tsv 1");
		break;
	case 22:
		cr_line(g, "tp T");
		cr_line(g, "tp Z1:401000:at");
		break;
	case 23:
		cr_line(g, "status");
		break;
	case 24:
		gb_free(g);
		gt_defs(g, 3);
		gb_str(g, "\r\n");
		gt_std_frame(g, 0);
		gt_end(g);
		break;
	case 25:
		swap_line(g, "tp T", "tp T1:401000:E:0:0\nhello world");
		break;
	case 26:
		gb_free(g);
		gt_defs(g, 3);
		g->n -= 5;
		break;
	case 27:
	case 28:
		g->n -= i == 27 ? 4 : 3;
		break;
	case 29:		/* a header of 3 bytes after frame 1 */
		gb_free(g);
		std_file(g, 2, 0);
		gb_bytes(g, "\1\0\7", 3);
		break;
	case 30 ... 35: {
		static const char kinds[] = "MHRVXx";

		gb_free(g);
		gt_defs(g, 3);
		gt_line(g, "");
		gt_std_frame(g, 0);
		frame_with(g, 1, i == 35, kinds[i - 30] == 'x' ?
			   'X' : kinds[i - 30]);
		gt_std_frame(g, 2);
		gt_end(g);
		break;
	}
	case 36 ... 39:
		gb_free(g);
		gt_defs(g, 3);
		gt_line(g, "");
		gt_std_frame(g, 0);
		f = gt_frame(g, 1);
		gt_v(g, 1, 1);
		if (i == 36)
			gt_r(g, 8, 0);
		else if (i == 37)
			gt_v(g, 2, 2);
		else
			gt_m(g, 0x500000, "abcdef", 6);
		gt_frame_end(g, f);
		g->n -= i == 36 ? 3 : i == 37 ? 5 : i == 38 ? 9 : 2;
		break;
	case 40:
		gb_free(g);
		std_file(g, 1, 0);
		f = gt_frame(g, 1);
		tb_bytes_put32(g->p + f + 2, 100);
		break;
	case 41:
		gb_free(g);
		gt_defs(g, 4);
		gt_line(g, "");
		f = gt_frame(g, 1);
		gt_frame_end(g, f);
		gt_std_frame(g, 0);
		gt_std_frame(g, 1);
		gt_std_frame(g, 2);
		gt_end(g);
		break;
	case 42:
		gb_free(g);
		gt_defs(g, 3);
		gt_line(g, "");
		f = gt_frame(g, -3);
		gt_v(g, 1, 0);
		gt_frame_end(g, f);
		gt_std_frame(g, 1);
		gt_std_frame(g, 2);
		gt_end(g);
		break;
	case 43:
		gb_free(g);
		gt_defs(g, 0);
		gt_line(g, "");
		gt_end(g);
		gt_std_frame(g, 0);
		break;
	case 44:
		gb_str(g, "garbage after the end");
		break;
	case 100:
		swap_line(g, "status",
			  "status 0;tstop::0;bogus;tframes:3");
		break;
	case 101:
		swap_line(g, "tp T", "tp T1:401000:E:0:0\n"
			  "tp Z2:402000:at:0:9:2a3078343032303030");
		break;
	case 102:
		swap_line(g, "tp T", "tp T1:401000:E:0:0\n"
			  "tp Z1:401001:at:0:9:2a3078343031303030");
		break;
	case 103:
		swap_line(g, "tp T", NULL);
		swap_line(g, "tsv 2", "tsv 2:7:0:62657461\ntp T1:401000:E:0:0");
		break;
	case 104:
		swap_line(g, "tp T", "tp T1:401000:E:0:0\ntp Q1:401000:x");
		break;
	}
}

TEST_TIMEOUT(shapes_match_gdb, TU_BATCH_TIMEOUT)
{
	unsigned int n = sizeof(shapes) / sizeof(shapes[0]), i, agree = 0;
	struct theirs t[sizeof(shapes) / sizeof(shapes[0])] = { 0 };
	struct gb g[sizeof(shapes) / sizeof(shapes[0])] = { 0 };
	char *dir;

	if (!tu_have("gdb"))
		SKIP(return, "gdb not installed");
	dir = tu_tmpdir();
	for (i = 0; i < n; i++) {
		build_shape(&g[i], shapes[i].id);
		put_file(dir, i, &g[i]);
	}
	gdb_batch(dir, n, t);
	for (i = 0; i < n; i++) {
		struct ours o;

		ours_read(&g[i], &o);
		/* gdb 13 behaves as we found it... */
		EXPECT_EQ(shapes[i].open, t[i].open) {
			TH_LOG("%s: gdb %s it", shapes[i].what,
			       t[i].open ? "opens" : "refuses");
		}
		if (shapes[i].open) {
			EXPECT_EQ(shapes[i].frames, t[i].frames) {
				TH_LOG("%s: gdb finds %d frames",
				       shapes[i].what, t[i].frames);
			}
		}
		/* ...and we agree with it. */
		EXPECT_EQ(t[i].open, !o.ret) {
			TH_LOG("%s: ours: %s", shapes[i].what,
			       o.ret ? o.err.msg : "opened");
		}
		if (!o.ret && t[i].open) {
			EXPECT_EQ(t[i].frames, (int)o.info.frames) {
				TH_LOG("%s: we read %llu frames",
				       shapes[i].what,
				       (unsigned long long)o.info.frames);
			}
		}
		if (o.ret) {
			EXPECT_EQ(0, strncmp(o.err.msg, "offset ", 7));
		}
		agree += t[i].open == !o.ret &&
			 (!t[i].open || t[i].frames == (int)o.info.frames);
		gb_free(&g[i]);
	}
	fprintf(stderr, "# %u shapes: %u verdicts and frame counts agree with gdb\n",
		n, agree);
	tu_rmdir(dir);
	free(dir);
}

static void mutate(struct gb *g, unsigned int *seed)
{
	size_t defs_end = 0, i, at;
	static const char *const lines[] = {
		"R 0", "R 10", "R -1", "tsv 5:0:0:zz", "tsv 5:0:0:7a7a",
		"status 0;x", "status 0;tframes:5", "tp Z1:401000:at:0:1:qq",
		"bogus line", "tdesc <target/>",
	};

	for (i = 9; i < g->n; i++)
		if (g->p[i] == '\n' && g->p[i - 1] == '\n') {
			defs_end = i + 1;
			break;
		}
	at = defs_end + gen_rand(seed, (unsigned int)(g->n - defs_end));
	switch (gen_rand(seed, 8)) {
	case 0:		/* truncate in the frames */
		g->n = at;
		break;
	case 1:		/* a block type byte */
		g->p[at] = (uint8_t)"RMVX\0"[gen_rand(seed, 5)];
		break;
	case 2:		/* any byte */
		g->p[at] = (uint8_t)gen_rand(seed, 256);
		break;
	case 3:		/* a frame size, if this is one */
		for (i = defs_end; i + 6 <= g->n; i += 6 +
		     tb_bytes_get32(g->p + i + 2)) {
			if (!tb_bytes_get16(g->p + i))
				break;
			if (gen_rand(seed, 3))
				continue;
			tb_bytes_put32(g->p + i + 2, tb_bytes_get32(g->p + i + 2) +
				       gen_rand(seed, 31) - 15);
			break;
		}
		break;
	case 4:		/* a CR before a definition newline */
		cr_line(g, gen_rand(seed, 2) ? "tsv" : "R ");
		break;
	case 5:		/* no end marker */
		if (g->n >= 4 && !tb_bytes_get32(g->p + g->n - 4))
			g->n -= 4;
		break;
	case 6:		/* a definition line */
		swap_line(g, "tp T", lines[gen_rand(seed, 10)]);
		swap_line(g, "tp Z", NULL);
		break;
	case 7:		/* 8 bytes of a frame gone */
		if (at + 8 <= g->n) {
			memmove(g->p + at, g->p + at + 8, g->n - at - 8);
			g->n -= 8;
		}
		break;
	}
}

TEST_TIMEOUT(mutations_match_gdb, TU_BATCH_TIMEOUT)
{
	struct theirs t[MUTATIONS] = { 0 };
	struct gb g[MUTATIONS] = { 0 };
	unsigned int i, seed = 77, agree = 0, opened = 0;
	char *dir;

	if (!tu_have("gdb"))
		SKIP(return, "gdb not installed");
	dir = tu_tmpdir();
	for (i = 0; i < MUTATIONS; i++) {
		unsigned int k, nf = 2 + gen_rand(&seed, 4);

		gt_defs(&g[i], nf);
		gt_line(&g[i], "");
		for (k = 0; k < nf; k++) {
			if (gen_rand(&seed, 3)) {
				gt_std_frame(&g[i], k);
			} else {
				size_t f = gt_frame(&g[i], 1);

				gt_r(&g[i], 8, (uint8_t)k);
				gt_v(&g[i], 1, k);
				gt_frame_end(&g[i], f);
			}
		}
		gt_end(&g[i]);
		mutate(&g[i], &seed);
		if (gen_rand(&seed, 2))
			mutate(&g[i], &seed);
		put_file(dir, i, &g[i]);
	}
	gdb_batch(dir, MUTATIONS, t);
	for (i = 0; i < MUTATIONS; i++) {
		struct ours o;

		ours_read(&g[i], &o);
		EXPECT_EQ(t[i].open, !o.ret) {
			TH_LOG("t%u.tf: gdb %s, ours: %s", i,
			       t[i].open ? "opens" : "refuses",
			       o.ret ? o.err.msg : "opened");
		}
		if (!o.ret && t[i].open) {
			EXPECT_EQ(t[i].frames, (int)o.info.frames) {
				TH_LOG("t%u.tf: gdb %d frames, ours %llu", i,
				       t[i].frames,
				       (unsigned long long)o.info.frames);
			}
		}
		agree += t[i].open == !o.ret &&
			 (!t[i].open || t[i].frames == (int)o.info.frames);
		opened += t[i].open;
		gb_free(&g[i]);
	}
	fprintf(stderr, "# %u mutated files: %u verdicts and frame counts agree with gdb (%u opened)\n",
		MUTATIONS, agree, opened);
	tu_rmdir(dir);
	free(dir);
}

/*
 * ---- gdb's searches in the files we write ----
 *
 * A converted file in gdb: `info tracepoints` lists every tracepoint at
 * its address with the name we give it, and `tfind tracepoint N`,
 * repeated, visits exactly the frames of tracepoint N, in order.  What
 * each frame should be is worked out here from the input the test
 * generates, by the mapping of Documentation/conversions.rst, not by our
 * reader.
 */

#define SR_FRAMES	64
#define SR_TPS		16

struct sr_want {
	unsigned int nframes;
	uint64_t frame[SR_FRAMES];	/* the address of each frame */
	unsigned int ntp;
	uint64_t addr[SR_TPS];		/* distinct, in order of first use */
	char shown[SR_TPS][TB_TFILE_NAME_MAX + 1];	/* "trace only if" */
};

static void sr_frame(struct sr_want *w, uint64_t addr, const char *shown)
{
	unsigned int i;

	w->frame[w->nframes++] = addr;
	for (i = 0; i < w->ntp; i++)
		if (w->addr[i] == addr)
			return;
	w->addr[w->ntp] = addr;
	snprintf(w->shown[w->ntp++], sizeof(w->shown[0]), "%s", shown);
}

struct sr_row {
	unsigned int num;
	uint64_t addr;
	char cond[TB_TFILE_MAX_LINE];
	unsigned int nfound;
	int found[SR_FRAMES];	/* frame numbers tfind tracepoint gave */
	int tp[SR_FRAMES];	/* the tracepoint gdb said each one has */
	uint64_t pc[SR_FRAMES];
};

/*
 * @gdb over @tf: info tracepoints, then for every tracepoint number (and
 * one more) `tfind tracepoint N` until it finds nothing, each frame found
 * printed with its tracepoint and $pc.  In a script a failed tfind ends
 * the loop ($trace_frame -1) instead of stopping the script.
 */
static char *sr_gdb(const char *gdb, const char *dir, const char *tf,
		    unsigned int ntp)
{
	char path[512];
	unsigned int n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/search.gdb", dir);
	f = fopen(path, "w");
	if (!f)
		return strdup("");
	fprintf(f, "target tfile %s\ninfo tracepoints\n", tf);
	for (n = 1; n <= ntp + 1; n++)
		fprintf(f, "echo === %u\\n\ntfind tracepoint %u\n"
			"while $trace_frame != -1\n"
			"printf \"F %%d T %%d pc %%#lx\\n\", $trace_frame, $tracepoint, $pc\n"
			"tfind tracepoint %u\nend\n", n, n, n);
	fclose(f);
	return tu_run(NULL, "%s -batch -nx -x %s </dev/null", gdb, path);
}

/* The rows of `info tracepoints` and, per number, what tfind found. */
static unsigned int sr_parse(char *out, struct sr_row *rows,
			     unsigned int max, unsigned int *extra)
{
	unsigned int nrows = 0, section = 0, i;
	struct sr_row *last = NULL;
	char *line, *next;

	*extra = 0;
	for (line = out; line && *line; line = next) {
		unsigned int num;
		char type[16];
		uint64_t addr;
		int fr, tp;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (sscanf(line, "=== %u", &num) == 1) {
			section = num;
			last = NULL;
		} else if (!section && nrows < max &&
			   sscanf(line, "%u %15s %*s %*s %" SCNx64, &num, type,
				  &addr) == 3 && !strcmp(type, "tracepoint")) {
			last = &rows[nrows++];
			memset(last, 0, sizeof(*last));
			last->num = num;
			last->addr = addr;
		} else if (!section && last &&
			   !strncmp(line, "\ttrace only if ", 15)) {
			snprintf(last->cond, sizeof(last->cond), "%s",
				 line + 15);
		} else if (section && sscanf(line, "F %d T %d pc %" SCNx64,
					     &fr, &tp, &addr) == 3) {
			for (i = 0; i < nrows && rows[i].num != section; i++)
				;
			if (i == nrows) {
				(*extra)++;
				continue;
			}
			if (rows[i].nfound < SR_FRAMES) {
				rows[i].found[rows[i].nfound] = fr;
				rows[i].tp[rows[i].nfound] = tp;
				rows[i].pc[rows[i].nfound] = addr;
			}
			rows[i].nfound++;
		}
	}
	return nrows;
}

/*
 * Every tracepoint gdb lists is one we meant (address and name), and
 * `tfind tracepoint N` found exactly the frames at N's address, in
 * order, each said to be N's, with $pc at that address.
 */
static void sr_check(struct __test_metadata *_metadata, const char *what,
		     const struct sr_want *w, char *out)
{
	struct sr_row rows[SR_TPS + 4];
	unsigned int nrows, extra, i, k, good = 0, found = 0;

	nrows = sr_parse(out, rows, SR_TPS + 4, &extra);
	EXPECT_EQ(w->ntp, nrows) {
		TH_LOG("%s: gdb lists %u tracepoints, we meant %u", what,
		       nrows, w->ntp);
	}
	EXPECT_EQ(0, extra) {
		TH_LOG("%s: tfind found frames of a tracepoint gdb does not list",
		       what);
	}
	for (i = 0; i < nrows; i++) {
		const struct sr_row *r = &rows[i];
		unsigned int n = 0, ok = 1;

		for (k = 0; k < w->ntp && w->addr[k] != r->addr; k++)
			;
		EXPECT_LT(k, w->ntp) {
			TH_LOG("%s: tracepoint %u at %#" PRIx64 ": not ours",
			       what, r->num, r->addr);
		}
		if (k == w->ntp)
			continue;
		EXPECT_STREQ(w->shown[k], r->cond) {
			TH_LOG("%s: tracepoint %u at %#" PRIx64, what, r->num,
			       r->addr);
		}
		for (k = 0; k < w->nframes; k++) {
			if (w->frame[k] != r->addr)
				continue;
			if (n >= r->nfound || r->found[n] != (int)k ||
			    r->tp[n] != (int)r->num || r->pc[n] != r->addr) {
				ok = 0;
				TH_LOG("%s: tfind tracepoint %u, find %u:",
				       what, r->num, n + 1);
				TH_LOG("frame %d tracepoint %d pc %#" PRIx64,
				       n < r->nfound ? r->found[n] : -1,
				       n < r->nfound ? r->tp[n] : -1,
				       n < r->nfound ? r->pc[n] : 0);
				TH_LOG("wanted frame %u tracepoint %u pc %#" PRIx64,
				       k, r->num, r->addr);
				break;
			}
			n++;
		}
		EXPECT_TRUE(ok && n == r->nfound) {
			TH_LOG("%s: tfind tracepoint %u found %u frames, %u belong to it",
			       what, r->num, r->nfound, n);
		}
		good += ok && n == r->nfound;
		found += r->nfound;
	}
	fprintf(stderr, "# %s: %u of %u tracepoints right, %u of %u frames\n",
		what, good, w->ntp, found, w->nframes);
}

/*
 * gdb's `tfind pc` on the same file, for the record only: gdb 13 loses
 * its place in the file while it searches by address (formats.rst says
 * why), so nothing here is asserted.
 */
static void sr_tfind_pc(const char *gdb, const char *what, const char *tf,
			const struct sr_want *w)
{
	char cmd[4096], *out, *p;
	unsigned int a, k, right = 0;
	size_t n;

	n = snprintf(cmd, sizeof(cmd), "%s -batch -nx -ex 'target tfile %s'",
		     gdb, tf);
	for (a = 0; a < w->ntp; a++) {
		n += snprintf(cmd + n, sizeof(cmd) - n,
			      " -ex 'tfind none' -ex 'echo === %u\\n'", a);
		for (k = 0; k < w->nframes && n < sizeof(cmd) - 200; k++)
			if (w->frame[k] == w->addr[a])
				n += snprintf(cmd + n, sizeof(cmd) - n,
					      " -ex 'tfind pc %#" PRIx64 "'",
					      w->addr[a]);
	}
	out = tu_run(NULL, "%s </dev/null", cmd);
	for (a = 0; a < w->ntp; a++) {
		char mark[32];
		unsigned int ok = 1, f = 0;
		int fr;

		snprintf(mark, sizeof(mark), "=== %u\n", a);
		p = strstr(out, mark);
		if (!p)
			continue;
		p += strlen(mark);
		for (k = 0; k < w->nframes; k++) {
			char *q = strstr(p, "=== "), *e = strchr(p, '\n');

			if (w->frame[k] != w->addr[a])
				continue;
			if (!e || (q && q < e) ||
			    sscanf(p, "Found trace frame %d", &fr) != 1 ||
			    fr != (int)k)
				ok = 0;
			p = e ? e + 1 : p;
			f++;
		}
		right += ok;
	}
	fprintf(stderr, "# %s: gdb's tfind pc right at %u of %u addresses\n",
		what, right, w->ntp);
	free(out);
}

/* "function N" and friends as gdb shows them: a quoted C string. */
static void sr_quote(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "\"%s\"", name);
}

static uint64_t sr_fdr_addr(uint32_t fid)
{
	/* conversions.rst: 0x400000 + 16 * (id - 1); id 0 just below. */
	return fid ? 0x400000 + 16ULL * (fid - 1) : 0x3ffff0;
}

/*
 * FDR -> tfile (tracebuf convert fdr-tfile, which the collectors share):
 * calls with and without arguments (frames of different sizes), custom
 * events, function id 0 next to id 1, names with quotes, a backslash, a
 * UTF-8 letter, one too long to keep whole, and ids without a name.
 */
TEST(fdr_tfile_searches_in_gdb)
{
	static const struct {
		char kind;	/* E enter, A enter with args, X exit, C event */
		uint32_t fid;
		unsigned int n;	/* arguments, or payload bytes */
	} steps[] = {
		{ 'E', 1, 0 }, { 'A', 2, 2 }, { 'E', 0, 0 }, { 'C', 0, 5 },
		{ 'X', 0, 0 }, { 'E', 7, 0 }, { 'X', 7, 0 }, { 'A', 3, 1 },
		{ 'X', 3, 0 }, { 'X', 2, 0 }, { 'E', 300, 0 }, { 'C', 0, 30 },
		{ 'X', 300, 0 }, { 'A', 2, 3 }, { 'X', 2, 0 }, { 'E', 7, 0 },
		{ 'X', 7, 0 }, { 'E', 0, 0 }, { 'X', 0, 0 }, { 'X', 1, 0 },
	};
	static const char payload[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	char *dir, in[512], tf[512], tf2[512], names[512], *out;
	char longname[700], shown[TB_TFILE_NAME_MAX + 1], buf[64];
	struct sr_want w = { 0 };
	struct gb g = { 0 }, nm = { 0 };
	unsigned int i, k;
	size_t ext;
	int st;

	if (!tu_have("gdb"))
		SKIP(return, "gdb not installed");
	dir = tu_tmpdir();
	snprintf(in, sizeof(in), "%s/in.fdr", dir);
	snprintf(tf, sizeof(tf), "%s/out.tf", dir);
	snprintf(tf2, sizeof(tf2), "%s/piped.tf", dir);
	snprintf(names, sizeof(names), "%s/names", dir);
	for (i = 0; i < sizeof(longname) - 1; i++)
		longname[i] = (char)('a' + i % 26);
	longname[sizeof(longname) - 1] = 0;
	gb_str(&nm, "1 alpha\n2 beta \"quoted\" \\back\n3 caf\xc3\xa9\n7 ");
	gb_str(&nm, longname);
	gb_str(&nm, "\n");
	ASSERT_EQ(0, gb_write(&nm, names));

	gf_header(&g, 5, TB_FDR_TYPE_FDR, 0);
	ext = gf_extents(&g, 0);
	gf_new_buffer(&g, 200);
	gf_wallclock(&g, 1700000000ULL, 0);
	gf_pid(&g, 4242);
	gf_cpu(&g, 1, 1000);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		uint32_t fid = steps[i].fid;

		ASSERT_LT(steps[i].n, sizeof(payload));

		switch (steps[i].kind) {
		case 'C':
			gf_custom(&g, 5, payload, (int32_t)steps[i].n, 10, 0);
			sr_frame(&w, 0x3ff000, "\"custom event\"");
			continue;
		case 'A':
			gf_func(&g, TB_FDR_ENTER_ARGS, fid, 10);
			for (k = 0; k < steps[i].n; k++)
				gf_arg(&g, 100 + k);
			break;
		default:
			gf_func(&g, steps[i].kind == 'E' ? TB_FDR_ENTER :
				TB_FDR_EXIT, fid, 10);
		}
		switch (fid) {
		case 1:
			sr_quote(shown, sizeof(shown), "alpha");
			break;
		case 2:	/* C escapes, as gdb parses the string */
			sr_quote(shown, sizeof(shown),
				 "beta \\\"quoted\\\" \\\\back");
			break;
		case 3:
			sr_quote(shown, sizeof(shown), "caf\\303\\251");
			break;
		case 7:	/* cut to fit, and marked so */
			snprintf(shown, sizeof(shown), "\"%.*s...\"",
				 TB_TFILE_NAME_MAX - 5, longname);
			break;
		default:
			snprintf(buf, sizeof(buf), "function %u", fid);
			sr_quote(shown, sizeof(shown), buf);
		}
		sr_frame(&w, sr_fdr_addr(fid), shown);
	}
	gf_extents_end(&g, ext);
	ASSERT_EQ(0, gb_write(&g, in));

	/* A regular file is read twice, a pipe spooled: the same file. */
	out = tu_run(&st, "%s convert fdr-tfile -m %s %s %s",
		     tu_tool("tracebuf"), names, in, tf);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	out = tu_run(&st, "%s convert fdr-tfile -m %s - %s <%s && cmp %s %s",
		     tu_tool("tracebuf"), names, tf2, in, tf, tf2);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);

	out = sr_gdb("gdb", dir, tf, w.ntp);
	EXPECT_EQ(NULL, strstr(out, "rror")) {
		TH_LOG("%.3000s", out);
	}
	sr_check(_metadata, "fdr-tfile", &w, out);
	free(out);
	sr_tfind_pc("gdb", "fdr-tfile", tf, &w);
	gb_free(&g);
	gb_free(&nm);
	tu_rmdir(dir);
	free(dir);
}

/*
 * XScale -> tfile (tracebuf convert xscale-tfile) in gdb-multiarch, from
 * a raw buffer built here by the message table of the manual: exceptions
 * (at their low vector), indirect branches (at their target), direct
 * branches and roll-overs (no known target: address 0).
 */
TEST(xscale_tfile_searches_in_gdb)
{
	static const struct {
		uint8_t msg;
		uint32_t target;	/* of an indirect branch */
	} msgs[] = {
		{ 0x63, 0 }, { 0x81, 0 }, { 0x92, 0xc0008010 }, { 0xff, 0 },
		{ 0x95, 0x1234 }, { 0x24, 0 }, { 0x90, 0xc0008010 },
		{ 0x8f, 0 }, { 0x61, 0 }, { 0x93, 0x12345678 }, { 0x13, 0 },
		{ 0x94, 0x1234 }, { 0x85, 0 }, { 0x7f, 0 },
		{ 0x92, 0xc0008010 }, { 0x62, 0 },
	};
	char *dir, raw[512], tf[512], shown[64], *out;
	struct sr_want w = { 0 };
	uint8_t buf[256] = { 0 }, *p;
	size_t len = 0, i;
	int st;

	if (!tu_have("gdb-multiarch"))
		SKIP(return, "gdb-multiarch (ARM support) not installed");
	dir = tu_tmpdir();
	snprintf(raw, sizeof(raw), "%s/raw.bin", dir);
	snprintf(tf, sizeof(tf), "%s/xs.tf", dir);
	for (i = 0; i < ARRAY_SIZE(msgs); i++)
		len += (msgs[i].msg & 0xb0) == 0x90 ? 5 : 1;
	/* Oldest first, newest last; the zeros before: it did not wrap. */
	p = buf + sizeof(buf) - len;
	for (i = 0; i < ARRAY_SIZE(msgs); i++) {
		uint8_t m = msgs[i].msg;
		uint64_t addr = 0;

		if ((m & 0xb0) == 0x90) {
			/* The target's bytes, most significant first. */
			*p++ = (uint8_t)(msgs[i].target >> 24);
			*p++ = (uint8_t)(msgs[i].target >> 16);
			*p++ = (uint8_t)(msgs[i].target >> 8);
			*p++ = (uint8_t)msgs[i].target;
			addr = msgs[i].target;
		} else if (!(m & 0x80)) {
			addr = (m >> 4 & 7) * 4;
		}
		*p++ = m;
		if (addr)
			snprintf(shown, sizeof(shown), "\"target 0x%08" PRIx64 "\"",
				 addr);
		else
			snprintf(shown, sizeof(shown), "\"unknown target\"");
		sr_frame(&w, addr, shown);
	}
	ASSERT_EQ(0, tu_write(raw, buf, sizeof(buf)));
	out = tu_run(&st, "%s convert xscale-tfile %s %s", tu_tool("tracebuf"),
		     raw, tf);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);

	out = sr_gdb("gdb-multiarch", dir, tf, w.ntp);
	EXPECT_EQ(NULL, strstr(out, "rror")) {
		TH_LOG("%.3000s", out);
	}
	sr_check(_metadata, "xscale-tfile", &w, out);
	free(out);
	sr_tfind_pc("gdb-multiarch", "xscale-tfile", tf, &w);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
