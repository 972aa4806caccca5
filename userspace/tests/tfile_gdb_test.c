// SPDX-License-Identifier: GPL-2.0
/*
 * Our GDB trace file reader against gdb 13, on files made here (tb_gen.h)
 * and judged by both in the same run: what `target tfile` refuses we
 * refuse, and on what it opens we reach as many frames as `tfind` does.
 * The shapes are the classes gdb's reader decides on (the R line, status,
 * variable names, line length, carriage returns, blocks past their frame,
 * the end marker, unknown blocks, truncation); then random mutations.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tb_gen.h"
#include "tb_test_util.h"
#include "tfile_reader.h"

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
	o->ret = tb_tfile_read(f, NULL, NULL, &o->info, &o->err);
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
		tb_put32(g->p + f + 2, tb_get32(g->p + f + 2) - 6);
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
		tb_put32(g->p + f + 2, 100);
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

TEST(shapes_match_gdb)
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
		     tb_get32(g->p + i + 2)) {
			if (!tb_get16(g->p + i))
				break;
			if (gen_rand(seed, 3))
				continue;
			tb_put32(g->p + i + 2, tb_get32(g->p + i + 2) +
				 gen_rand(seed, 31) - 15);
			break;
		}
		break;
	case 4:		/* a CR before a definition newline */
		cr_line(g, gen_rand(seed, 2) ? "tsv" : "R ");
		break;
	case 5:		/* no end marker */
		if (g->n >= 4 && !tb_get32(g->p + g->n - 4))
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

TEST(mutations_match_gdb)
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

TEST_HARNESS_MAIN
