// SPDX-License-Identifier: GPL-2.0
/*
 * Our FDR reader against llvm-xray 14, on files made here (tb_gen.h) and
 * judged by both in the same run: accept exactly what `llvm-xray fdr-dump
 * -verify` accepts, print exactly what `llvm-xray fdr-dump` prints, and
 * where llvm-xray's own commands disagree, do what formats.rst says.
 *
 *  - version 1 files of fixed-size thread buffers (records, EndOfBuffer,
 *    zero padding), as compiler-rt's first FDR runtime wrote them;
 *  - BufferExtents sizes of 2^32 and more, a final BufferExtents cut
 *    short;
 *  - files that fdr-dump -verify accepts and convert rejects;
 *  - a few hundred random mutations of valid files of every version.
 *
 * Where we differ by design: a file that ends inside a record (fdr-dump
 * refuses it, or prints a BufferExtents record cut after its size field)
 * is read up to its last whole record with a warning that the trace is
 * cut; what we print is then what fdr-dump prints up to that record.
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "convert/fdr_print.h"
#include "format/fdr_reader.h"
#include "format/tfile_reader.h"
#include "tb_gen.h"
#include "tb_test_util.h"

#define MUTATIONS	200

/* What our library makes of a file. */
struct ours {
	int ret;
	struct tb_error err;
	char *text;		/* what fdr-dump would print */
	size_t len;
	unsigned long events;	/* records a converter uses */
};

struct print_ctx {
	FILE *out;
	unsigned long events;
};

static int print_cb(void *ctx, const struct tb_fdr_record *r)
{
	struct print_ctx *p = ctx;

	tb_fdr_print(p->out, r);
	if (!r->ignored && (r->kind == TB_FDR_FUNCTION ||
			    r->kind == TB_FDR_CUSTOM ||
			    r->kind == TB_FDR_TYPED))
		p->events++;
	return 0;
}

static void ours_read(const struct gb *g, struct ours *o)
{
	struct print_ctx p = { 0 };

	memset(o, 0, sizeof(*o));
	p.out = open_memstream(&o->text, &o->len);
	o->ret = tb_fdr_reader_read_mem(g->p, g->n, NULL, print_cb, &p, NULL,
					&o->err);
	fclose(p.out);
	o->events = p.events;
}

/* llvm-xray's verdicts on one file. */
struct theirs {
	int verify;		/* fdr-dump -verify exit status */
	int convert;		/* convert -f yaml exit status */
	char *dump;		/* fdr-dump's standard output */
	int yaml_events;	/* records convert wrote */
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0;
	char *s = NULL;
	FILE *m = open_memstream(&s, &len);
	int c;

	while (f && (c = getc(f)) != EOF)
		putc(c, m);
	fclose(m);
	if (f)
		fclose(f);
	return s;
}

/*
 * Run llvm-xray over the files f0.fdr .. f<n-1>.fdr of @dir in one shell
 * (fdr-dump -verify, fdr-dump, and with @convert convert -f yaml) and
 * collect the results.
 */
static void theirs_batch(const char *dir, unsigned int n, bool convert,
			 struct theirs *t)
{
	char path[512], *out, *line;
	unsigned int i;
	int st;

	out = tu_run(&st,
		     "cd %s && i=0; while [ $i -lt %u ]; do f=f$i.fdr; "
		     "llvm-xray fdr-dump -verify $f >/dev/null 2>&1; v=$?; "
		     "(llvm-xray fdr-dump $f >$f.dump 2>/dev/null); "
		     "c=0; [ %d = 0 ] || { (llvm-xray convert -f yaml $f "
		     ">$f.yaml 2>/dev/null); c=$?; }; "
		     "echo \"$i $v $c\"; i=$((i+1)); done", dir, n, convert);
	for (line = out; line && *line; line = strchr(line, '\n')) {
		unsigned int k;
		int v, c;

		if (*line == '\n')
			line++;
		if (sscanf(line, "%u %d %d", &k, &v, &c) == 3 && k < n) {
			t[k].verify = v;
			t[k].convert = c;
		}
	}
	free(out);
	for (i = 0; i < n; i++) {
		char *y;

		snprintf(path, sizeof(path), "%s/f%u.fdr.dump", dir, i);
		t[i].dump = slurp(path);
		snprintf(path, sizeof(path), "%s/f%u.fdr.yaml", dir, i);
		y = slurp(path);
		t[i].yaml_events = tu_count(y, "kind: function-") +
				   tu_count(y, "kind: custom-event") +
				   tu_count(y, "kind: typed-event");
		free(y);
	}
}

static void theirs_free(struct theirs *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(t[i].dump);
}

static void put_file(const char *dir, unsigned int i, const struct gb *g)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/f%u.fdr", dir, i);
	if (gb_write(g, path)) {
		perror(path);
		exit(1);
	}
}

/* Every error we report names an offset and a record kind. */
static int names_kind(const char *msg)
{
	return !strncmp(msg, "offset ", 7) && strstr(msg, " record");
}

/*
 * Version 1 files as compiler-rt's first FDR runtime wrote them: several
 * fixed-size buffers, each padded with zero bytes after its EndOfBuffer.
 * fdr-dump prints the padding as "Function Enter: #0" records; tbconv
 * fdr-text must print the same bytes, and the converters must see what
 * llvm-xray convert sees (no padding).
 */
TEST(v1_fixed_buffers)
{
	static const size_t sizes[] = { 128, 256, 1024, 4096 };
	static const unsigned int nbufs[] = { 1, 3, 8 };
	struct theirs t[12] = { 0 };
	struct gb g[12] = { 0 };
	unsigned int i, n = 0, seed = 11, agree = 0, same = 0;
	char *dir;

	if (!tu_have("llvm-xray"))
		SKIP(return, "llvm-xray not installed");
	dir = tu_tmpdir();
	for (i = 0; i < 12; i++) {
		gf_v1_file(&g[i], &seed, sizes[i % 4], nbufs[i / 4]);
		put_file(dir, i, &g[i]);
	}
	n = i;
	theirs_batch(dir, n, true, t);
	for (i = 0; i < n; i++) {
		char *text, *tf;
		struct ours o;
		struct tb_tfile_info info = { 0 };
		struct tb_error err = { 0 };
		FILE *f;
		int st;

		ours_read(&g[i], &o);
		EXPECT_EQ(0, o.ret) {
			TH_LOG("file %u: %s", i, o.err.msg);
		}
		EXPECT_EQ(0, t[i].verify);
		EXPECT_EQ(0, t[i].convert);
		/* The tool, byte for byte. */
		text = tu_run(&st, "%s fdr-text %s/f%u.fdr 2>/dev/null",
			      tu_tool("tbconv"), dir, i);
		EXPECT_EQ(0, st);
		EXPECT_STREQ(t[i].dump, text);
		EXPECT_STREQ(t[i].dump, o.text);
		agree += !o.ret && !t[i].verify && !t[i].convert;
		same += !strcmp(t[i].dump, text);
		EXPECT_LT(0, tu_count(text, "<Function Enter: #0 delta = +0>")) {
			TH_LOG("file %u: no padding records", i);
		}
		/* Converters skip the padding, as llvm-xray convert does. */
		EXPECT_EQ(t[i].yaml_events, (int)o.events);
		free(text);
		tf = tu_run(&st, "%s fdr-tfile %s/f%u.fdr %s/f%u.tf",
			    tu_tool("tbconv"), dir, i, dir, i);
		EXPECT_EQ(0, st) {
			TH_LOG("%s", tf);
		}
		free(tf);
		text = malloc(600);
		snprintf(text, 600, "%s/f%u.tf", dir, i);
		f = fopen(text, "rb");
		ASSERT_NE(NULL, f);
		EXPECT_EQ(0, tb_tfile_reader_read(f, NULL, NULL, &info, &err));
		EXPECT_EQ(t[i].yaml_events, (int)info.frames);
		fclose(f);
		free(text);
		free(o.text);
		gb_free(&g[i]);
	}
	fprintf(stderr, "# %u version 1 files: %u accepted by us, fdr-dump -verify and convert; tbconv fdr-text identical to fdr-dump on %u\n",
		n, agree, same);
	theirs_free(t, n);
	tu_rmdir(dir);
	free(dir);
}

/* One hand-made shape: how it is built, and llvm-xray's verdicts. */
struct shape {
	const char *what;
	int verify_ok;		/* fdr-dump -verify accepts */
	int convert_ok;		/* convert accepts */
	int ours_ok;		/* we accept (differs only where documented) */
};

/* A small valid body for the extents cases (version @v >= 3). */
static size_t ext_block(struct gb *g, unsigned int v, uint64_t extent)
{
	size_t at = gf_extents(g, 0);

	gf_new_buffer(g, 7);
	gf_wallclock(g, 1, 2);
	gf_pid(g, 3);
	gf_cpu(g, 1, 100);
	gf_func(g, TB_FDR_ENTER, 1, 5);
	gf_func(g, TB_FDR_EXIT, 1, 5);
	tb_bytes_put64(g->p + at + 1, extent + (g->n - at - TB_FDR_META_SIZE));
	return g->n - at - TB_FDR_META_SIZE;
}

static const struct shape shapes[] = {
	/* extents */
	{ "extent 2^32: nothing left, no BufferExtents follows", 0, 0, 0 },
	{ "extent 2^32, a BufferExtents byte inside", 1, 1, 1 },
	{ "extent 2^32 + body", 1, 1, 1 },
	{ "extent 2^32 + body, one record more", 0, 0, 0 },
	{ "extent 2^33 + body", 1, 1, 1 },
	{ "extent 2^64 - 1", 1, 1, 1 },
	/* cut: read up to the record before, with a warning */
	{ "final BufferExtents of 1 byte", 0, 0, 1 },
	{ "final BufferExtents of 8 bytes", 0, 0, 1 },
	{ "final BufferExtents of 9 bytes", 1, 1, 1 },
	{ "final BufferExtents of 15 bytes", 1, 1, 1 },
	{ "final BufferExtents of 9 bytes, version 1", 1, 1, 1 },
	{ "final BufferExtents of 8 bytes, version 2", 0, 0, 1 },
	/* verify and convert disagree: we follow verify */
	{ "header only, version 5", 1, 0, 1 },
	{ "header only, version 1", 1, 0, 1 },
	{ "a BufferExtents of 0 bytes only", 1, 0, 1 },
	{ "block ends after NewBuffer", 1, 0, 1 },
	{ "block ends after WallClockTime", 1, 0, 1 },
	{ "block ends after PIDEntry, then a full block", 1, 0, 1 },
	/* verify and convert disagree: we follow convert (the header) */
	{ "header of 16 bytes", 1, 0, 0 },
	{ "header of 31 bytes", 1, 0, 0 },
	{ "version 0", 1, 0, 0 },
	{ "version 6", 1, 0, 0 },
	{ "type 0 (basic mode)", 1, 0, 0 },
	{ "type 2", 1, 0, 0 },
	/* version 1 padding */
	{ "EndOfBuffer ends the file", 1, 1, 1 },
	/*
	 * Padding is read as records, not checked: a file that ends in
	 * half of one is cut (the second buffer, read as padding, too).
	 */
	{ "4 zero bytes after EndOfBuffer (not a record)", 0, 0, 1 },
	{ "4 zero bytes after EndOfBuffer, then a buffer", 0, 0, 1 },
	{ "NewCPUId, EndOfBuffer, CallArgument after EndOfBuffer", 1, 1, 1 },
	{ "unknown metadata kind after EndOfBuffer", 0, 0, 0 },
	{ "EndOfBuffer in version 2", 0, 0, 0 },
	{ "Function before the first NewBuffer", 0, 0, 0 },
};

static void build_shape(struct gb *g, unsigned int i)
{
	size_t body;

	switch (i) {
	case 0 ... 5: {
		static const uint64_t ext[] = {
			1ULL << 32, 1ULL << 32, 1ULL << 32, 1ULL << 32,
			1ULL << 33, 0,
		};

		gf_header(g, 5, 1, 0);
		body = ext_block(g, 5, ext[i]);
		if (i == 0)
			tb_bytes_put64(g->p + 33, 1ULL << 32);
		if (i == 1) {
			/* The skip stops at the next 0x0f: a real extent. */
			tb_bytes_put64(g->p + 33, 1ULL << 32);
			ext_block(g, 5, 0);
		}
		if (i == 3)
			gf_func(g, TB_FDR_ENTER, 2, 1);
		if (i == 5)
			tb_bytes_put64(g->p + 33, UINT64_MAX);
		(void)body;
		break;
	}
	case 6 ... 9: {
		static const size_t cut[] = { 1, 8, 9, 15 };

		gf_header(g, 5, 1, 0);
		ext_block(g, 5, 0);
		gf_extents(g, 48);
		g->n -= TB_FDR_META_SIZE - cut[i - 6];
		break;
	}
	case 10:
	case 11:
		gf_header(g, i == 10 ? 1 : 2, 1, 0);
		gf_new_buffer(g, 1);
		gf_wallclock(g, 1, 2);
		gf_cpu(g, 0, 10);
		gf_func(g, TB_FDR_ENTER, 1, 1);
		gf_extents(g, 5);
		g->n -= TB_FDR_META_SIZE - (i == 10 ? 9 : 8);
		break;
	case 12:
	case 13:
		gf_header(g, i == 12 ? 5 : 1, 1, 0);
		break;
	case 14:
		gf_header(g, 5, 1, 0);
		gf_extents(g, 0);
		break;
	case 15:
	case 16:
		gf_header(g, 5, 1, 0);
		gf_extents(g, i == 15 ? 16 : 32);
		gf_new_buffer(g, 1);
		if (i == 16)
			gf_wallclock(g, 1, 2);
		break;
	case 17:
		gf_header(g, 5, 1, 0);
		gf_extents(g, 48);
		gf_new_buffer(g, 1);
		gf_wallclock(g, 1, 2);
		gf_pid(g, 3);
		ext_block(g, 5, 0);
		break;
	case 18:
	case 19:
		gf_header(g, 5, 1, 0);
		g->n = i == 18 ? 16 : 31;
		break;
	case 20 ... 23: {
		static const unsigned int vt[][2] = {
			{ 0, 1 }, { 6, 1 }, { 3, 0 }, { 5, 2 },
		};

		gf_header(g, vt[i - 20][0], vt[i - 20][1], 0);
		ext_block(g, 5, 0);
		break;
	}
	case 24 ... 29:
		gf_header(g, i == 29 ? 2 : 1, 1, 0);
		gf_new_buffer(g, 1);
		gf_wallclock(g, 1, 2);
		gf_cpu(g, 0, 10);
		gf_func(g, TB_FDR_ENTER, 1, 1);
		if (i == 27)
			gf_cpu(g, 1, 20);
		gf_eob(g);
		if (i == 25 || i == 26)
			gb_space(g, 4);
		if (i == 26 || i == 27) {
			if (i == 27) {
				gf_cpu(g, 3, 30);
				gf_eob(g);
				gf_arg(g, 5);
				gf_func(g, TB_FDR_EXIT, 1, 1);
			}
			gf_new_buffer(g, 2);
			gf_wallclock(g, 1, 2);
			gf_cpu(g, 0, 10);
			gf_func(g, TB_FDR_ENTER, 1, 1);
		}
		if (i == 28)
			gf_meta(g, 12);
		break;
	case 30:
		gf_header(g, 3, 1, 0);
		body = gf_extents(g, 0);
		gf_func(g, TB_FDR_ENTER, 1, 1);
		gf_new_buffer(g, 1);
		gf_wallclock(g, 1, 2);
		gf_pid(g, 3);
		gf_cpu(g, 0, 10);
		gf_extents_end(g, body);
		break;
	}
}

TEST(shapes_match_llvm)
{
	unsigned int n = sizeof(shapes) / sizeof(shapes[0]), i;
	unsigned int agree_verify = 0, agree_convert = 0;
	struct theirs t[sizeof(shapes) / sizeof(shapes[0])] = { 0 };
	struct gb g[sizeof(shapes) / sizeof(shapes[0])] = { 0 };
	char *dir;

	if (!tu_have("llvm-xray"))
		SKIP(return, "llvm-xray not installed");
	dir = tu_tmpdir();
	for (i = 0; i < n; i++) {
		build_shape(&g[i], i);
		put_file(dir, i, &g[i]);
	}
	theirs_batch(dir, n, true, t);
	for (i = 0; i < n; i++) {
		struct ours o;

		ours_read(&g[i], &o);
		/* llvm-xray 14 behaves as we found it. */
		EXPECT_EQ(shapes[i].verify_ok, !t[i].verify) {
			TH_LOG("%s: fdr-dump -verify exit %d", shapes[i].what,
			       t[i].verify);
		}
		EXPECT_EQ(shapes[i].convert_ok, !t[i].convert) {
			TH_LOG("%s: convert exit %d", shapes[i].what,
			       t[i].convert);
		}
		EXPECT_EQ(shapes[i].ours_ok, !o.ret) {
			TH_LOG("%s: %s", shapes[i].what,
			       o.ret ? o.err.msg : "accepted");
		}
		if (o.ret) {
			EXPECT_TRUE(names_kind(o.err.msg)) {
				TH_LOG("%s: \"%s\"", shapes[i].what,
				       o.err.msg);
			}
		}
		/* A file cut in a record: we say so. */
		if ((i >= 6 && i <= 11) || i == 25 || i == 26) {
			EXPECT_NE(NULL, strstr(o.err.warning, "the trace is cut")) {
				TH_LOG("%s: '%s'", shapes[i].what,
				       o.err.warning);
			}
		}
		/*
		 * What we print is what fdr-dump prints (up to an error, or
		 * the record a cut trace ends in).
		 */
		if (!o.ret && !t[i].verify && !o.err.warning[0]) {
			EXPECT_STREQ(t[i].dump, o.text);
		} else {
			EXPECT_EQ(0, strncmp(t[i].dump, o.text, o.len)) {
				TH_LOG("%s: output differs", shapes[i].what);
			}
		}
		agree_verify += !o.ret == !t[i].verify;
		agree_convert += !o.ret == !t[i].convert;
		free(o.text);
		gb_free(&g[i]);
	}
	fprintf(stderr, "# %u shapes: %u verdicts agree with fdr-dump -verify, %u with convert\n",
		n, agree_verify, agree_convert);
	theirs_free(t, n);
	tu_rmdir(dir);
	free(dir);
}

/* One random change to a valid file (the header stays valid). */
static void mutate(struct gb *g, unsigned int *seed)
{
	size_t body = g->n - TB_FDR_HEADER_SIZE;
	size_t at = TB_FDR_HEADER_SIZE + gen_rand(seed, (unsigned int)body);
	uint8_t rec[TB_FDR_META_SIZE];
	size_t i, n;

	switch (gen_rand(seed, 10)) {
	case 0:		/* truncate */
		g->n = at;
		break;
	case 1:		/* one bit */
		g->p[at] ^= (uint8_t)(1 << gen_rand(seed, 8));
		break;
	case 2:		/* a record introducer of any kind */
		g->p[at] = (uint8_t)(gen_rand(seed, 12) << 1 | 1);
		break;
	case 3:		/* a metadata record at a record boundary-ish */
	case 4:
		memset(rec, 0, sizeof(rec));
		rec[0] = (uint8_t)((gen_rand(seed, 4) ? TB_FDR_END_OF_BUFFER :
				    gen_rand(seed, 11)) << 1 | 1);
		at -= (at - TB_FDR_HEADER_SIZE) % 8;
		gb_space(g, sizeof(rec));
		memmove(g->p + at + sizeof(rec), g->p + at,
			g->n - at - sizeof(rec));
		memcpy(g->p + at, rec, sizeof(rec));
		break;
	case 5:		/* trailing bytes */
		n = 1 + gen_rand(seed, 24);
		for (i = 0; i < n; i++)
			*gb_space(g, 1) = (uint8_t)gen_rand(seed, 256);
		break;
	case 6:		/* an extent (or any 0x0f byte) changed */
		for (i = at; i < g->n; i++) {
			if (g->p[i] == (TB_FDR_BUFFER_EXTENTS << 1 | 1) &&
			    i + 9 <= g->n) {
				uint64_t v = tb_bytes_get64(g->p + i + 1);

				if (gen_rand(seed, 2))
					v += 1ULL << (32 + gen_rand(seed, 3));
				else
					v += (uint64_t)gen_rand(seed, 33) - 16;
				tb_bytes_put64(g->p + i + 1, v);
				break;
			}
		}
		break;
	case 7:		/* 8 or 16 bytes gone */
		n = gen_rand(seed, 2) ? 8 : 16;
		at -= (at - TB_FDR_HEADER_SIZE) % 8;
		if (at + n <= g->n) {
			memmove(g->p + at, g->p + at + n, g->n - at - n);
			g->n -= n;
		}
		break;
	case 8:		/* zero padding at the end */
		gb_space(g, 1 + gen_rand(seed, 40));
		break;
	case 9:		/* a 16-byte piece twice */
		if (at + 16 <= g->n) {
			memcpy(rec, g->p + at, 16);
			gb_space(g, 16);
			memmove(g->p + at + 16, g->p + at, g->n - at - 16);
			memcpy(g->p + at, rec, 16);
		}
		break;
	}
}

/*
 * Random mutations of valid files of every version: our verdict equals
 * fdr-dump -verify's on every one but the files cut inside a record,
 * which we read with a warning, what we print equals fdr-dump's on the
 * accepted ones and is a prefix of it on the others, and every error
 * names an offset and a record kind.
 */
TEST_TIMEOUT(mutations_match_verify, TU_BATCH_TIMEOUT)
{
	struct theirs *t = calloc(MUTATIONS, sizeof(*t));
	struct gb *g = calloc(MUTATIONS, sizeof(*g));
	unsigned int i, seed = 2024, agree = 0, accepted = 0, same = 0, cut = 0;
	char *dir;

	if (!tu_have("llvm-xray"))
		SKIP(return, "llvm-xray not installed");
	dir = tu_tmpdir();
	for (i = 0; i < MUTATIONS; i++) {
		unsigned int v = 1 + i % 5, k, nmut = 1 + gen_rand(&seed, 2);

		if (v == 1 && gen_rand(&seed, 2))
			gf_v1_file(&g[i], &seed, 128 + 64 * gen_rand(&seed, 4),
				   1 + gen_rand(&seed, 3));
		else
			gf_file(&g[i], v, &seed, 1 + gen_rand(&seed, 3),
				100 + gen_rand(&seed, 300));
		for (k = 0; k < nmut; k++)
			mutate(&g[i], &seed);
		put_file(dir, i, &g[i]);
	}
	theirs_batch(dir, MUTATIONS, false, t);
	for (i = 0; i < MUTATIONS; i++) {
		struct ours o;

		ours_read(&g[i], &o);
		/* Cut inside a record: fdr-dump -verify refuses, we read on. */
		if (!o.ret && o.err.warning[0] && t[i].verify) {
			EXPECT_NE(NULL, strstr(o.err.warning,
					       "the trace is cut")) {
				TH_LOG("f%u.fdr: %s", i, o.err.warning);
			}
			EXPECT_EQ(0, strncmp(t[i].dump, o.text, o.len));
			cut++;
			free(o.text);
			gb_free(&g[i]);
			continue;
		}
		EXPECT_EQ(!t[i].verify, !o.ret) {
			TH_LOG("f%u.fdr: fdr-dump -verify exit %d, ours: %s",
			       i, t[i].verify, o.ret ? o.err.msg : "accepted");
		}
		if (o.ret) {
			EXPECT_TRUE(names_kind(o.err.msg)) {
				TH_LOG("f%u.fdr: \"%s\"", i, o.err.msg);
			}
		}
		if (!o.ret && !t[i].verify && !o.err.warning[0]) {
			EXPECT_STREQ(t[i].dump, o.text);
			same += !strcmp(t[i].dump, o.text);
		} else {
			EXPECT_EQ(0, strncmp(t[i].dump, o.text, o.len));
		}
		agree += !o.ret == !t[i].verify;
		accepted += !o.ret;
		free(o.text);
		gb_free(&g[i]);
	}
	fprintf(stderr, "# %u mutated files: %u verdicts agree with fdr-dump -verify (%u accepted, fdr-dump text identical on %u), %u cut inside a record read by us only\n",
		MUTATIONS, agree, accepted, same, cut);
	theirs_free(t, MUTATIONS);
	free(t);
	free(g);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
