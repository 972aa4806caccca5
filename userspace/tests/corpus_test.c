// SPDX-License-Identifier: GPL-2.0
/*
 * Robustness: every parser over malformed inputs (hand-made cases with the
 * error we expect, the files in data/corpus/, and systematic truncations
 * and byte flips of valid files).  A parser must either succeed or fail
 * with an "offset N: ..." message, never crash (the sanitizer build of
 * this test catches memory errors).  Hand-made FDR files of versions 1 to
 * 4 and the malformed ones are also given to llvm-xray, which must agree.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "convert/fdr_print.h"
#include "convert/xs_fdr.h"
#include "format/fdr_reader.h"
#include "format/name_map.h"
#include "format/tfile_reader.h"
#include "format/xs.h"
#include "format/xs_record.h"
#include "tb_gen.h"
#include "tb_test_util.h"
#include "util/bytes.h"

/* A valid file of @version: what compiler-rt wrote in that version. */
static void fb_valid(struct gb *f, unsigned int version)
{
	size_t ext = 0;

	f->n = 0;
	gf_header(f, version, TB_FDR_TYPE_FDR, 0);
	if (version >= 3)
		ext = gf_extents(f, 0);
	gf_new_buffer(f, 17);
	gf_wallclock(f, 1234, 56);
	if (version >= 3)
		gf_pid(f, 4321);
	gf_cpu(f, 2, 1000000);
	gf_func(f, TB_FDR_ENTER_ARGS, 5, 10);
	gf_arg(f, 99);
	gf_func(f, TB_FDR_ENTER, 6, 3);
	gf_custom(f, version, "abcd", 4, version >= 5 ? 2 : 1000020, 2);
	gf_wrap(f, 2000000);
	gf_func(f, TB_FDR_EXIT, 6, 4);
	gf_func(f, TB_FDR_TAIL_EXIT, 5, 4);
	if (version == 1)
		gf_eob(f);
	if (version >= 3)
		gf_extents_end(f, ext);
}

static int count_cb(void *ctx, const struct tb_fdr_record *r)
{
	(*(unsigned long *)ctx)++;
	return 0;
}

static int print_cb(void *ctx, const struct tb_fdr_record *r)
{
	tb_fdr_print(ctx, r);
	return 0;
}

static int fdr_parse(const void *p, size_t n, struct tb_error *err)
{
	unsigned long c = 0;

	memset(err, 0, sizeof(*err));
	return tb_fdr_reader_read_mem(p, n, NULL, count_cb, &c, NULL, err);
}

/*
 * llvm-xray's verdicts: bit 0 set if fdr-dump -verify accepts the file
 * (the records; it does not check the file header), bit 1 if convert
 * accepts it (the header too, and how blocks end).
 */
static int llvm_verdicts(const char *dir, const struct gb *f)
{
	char path[512], *out;
	int st, ok = 0;

	snprintf(path, sizeof(path), "%s/f.fdr", dir);
	gb_write(f, path);
	out = tu_run(&st, "llvm-xray fdr-dump -verify %s", path);
	ok |= !st;
	free(out);
	out = tu_run(&st, "llvm-xray convert -f yaml %s", path);
	ok |= (!st && !strstr(out, "rror")) << 1;
	free(out);
	return ok;
}

TEST(fdr_versions_1_to_5_match_llvm)
{
	char *dir = tu_tmpdir();
	struct gb f = { 0 };
	unsigned int v;

	for (v = 1; v <= 5; v++) {
		struct tb_error err;
		char *ours = NULL, *theirs, path[512];
		size_t len = 0;
		FILE *out;
		int st;

		fb_valid(&f, v);
		out = open_memstream(&ours, &len);
		ASSERT_EQ(0, tb_fdr_reader_read_mem(f.p, f.n, NULL, print_cb, out,
						    NULL, &err)) {
			TH_LOG("version %u: %s", v, err.msg);
		}
		fclose(out);
		if (tu_have("llvm-xray")) {
			EXPECT_EQ(3, llvm_verdicts(dir, &f)) {
				TH_LOG("llvm-xray rejects version %u", v);
			}
			snprintf(path, sizeof(path), "%s/f.fdr", dir);
			theirs = tu_run(&st, "llvm-xray fdr-dump %s", path);
			EXPECT_STREQ(theirs, ours);
			free(theirs);
		}
		free(ours);
	}
	gb_free(&f);
	tu_rmdir(dir);
	free(dir);
}

/* Each case edits a valid version 5 file. */
static void case_edit(struct gb *f, unsigned int i)
{
	uint8_t *custom_size = f->p + 32 + 5 * 16 + 8 + 16 + 8 + 1;

	switch (i) {
	case 0:		/* short header */
		f->n = 20;
		break;
	case 1:		/* versions */
		tb_bytes_put16(f->p, 6);
		break;
	case 2:
		tb_bytes_put16(f->p, 0);
		break;
	case 3:		/* type */
		tb_bytes_put16(f->p + 2, 2);
		break;
	case 4:		/* unknown kind */
		f->p[32 + 16] = 11 << 1 | 1;
		break;
	case 5:		/* EndOfBuffer in v5 */
		f->p[32 + 16] = 1 << 1 | 1;
		break;
	case 6:		/* truncated record */
		f->n -= 3;
		break;
	case 7:		/* extent longer than the file: EOF ends it, fine */
		tb_bytes_put64(f->p + 33, 1000);
		break;
	case 8:		/* records cross the extent */
		tb_bytes_put64(f->p + 33, 40);
		break;
	case 9:		/* NewCPUId where WallClockTime belongs */
		f->p[32 + 32] = 2 << 1 | 1;
		break;
	case 10:	/* function record type 7 */
		tb_bytes_put32(f->p + 32 + 5 * 16, 7 << 1 | 0);
		break;
	case 11:	/* CallArgument right after NewCPUId */
		f->p[32 + 5 * 16] = 6 << 1 | 1;
		break;
	case 12:	/* payload size negative / oversized */
		tb_bytes_put32(custom_size, 0xffffffff);
		break;
	case 13:
		tb_bytes_put32(custom_size, 1 << 30);
		break;
	case 14:	/* block ends right after WallClockTime */
		tb_bytes_put64(f->p + 33, 32);
		f->n = 32 + 16 + 32;
		break;
	case 15:	/* trailing garbage after the last extent */
		*gb_space(f, 1) = 0x42;
		break;
	case 16:	/* the header alone */
		f->n = 32;
		break;
	}
}

/*
 * Our verdict is fdr-dump -verify's, except for the file header (type,
 * version, length), which only convert checks: there we reject as convert
 * does, and a file cut inside a record, which we read up to its last
 * whole record with a warning (formats.rst says why).
 */
static const struct {
	const char *ours;	/* expected error, NULL: accepted */
	int llvm;		/* llvm_verdicts() */
	const char *warning;	/* accepted with this warning */
} fdr_cases[] = {
	{ "offset 0: truncated FileHeader record (20 of 32 bytes)", 1, NULL },
	{ "offset 0: FileHeader record: unsupported FDR version 6", 1, NULL },
	{ "offset 0: FileHeader record: unsupported FDR version 0", 1, NULL },
	{ "offset 2: FileHeader record: trace type 2 is not FDR", 1, NULL },
	{ "offset 48: unknown metadata record kind 11", 0, NULL },
	{ "offset 48: EndOfBuffer record is not allowed in version 5", 0, NULL },
	{ NULL, 0,
	  "the trace is cut: its last block (BufferExtents at offset 32) lacks its last 3 bytes, whose records are lost, and the 5 bytes of a Function record at offset 188 are left out" },
	{ NULL, 3, "the trace is cut: its last block (BufferExtents at offset 32) lacks its last " },
	{ "crosses the buffer extent", 0, NULL },
	{ "offset 64: NewCPUId record not allowed after NewBuffer", 0, NULL },
	{ "unknown function record type 7", 0, NULL },
	{ "CallArgument record not allowed after NewCPUId", 0, NULL },
	{ "CustomEventMarker record: invalid payload size -1", 0, NULL },
	{ "larger than we accept", 0, NULL },
	{ NULL, 1, NULL },
	{ "offset 196: 1 trailing bytes without a BufferExtents record (a Function record introducer, 0x42, starts them)",
	  0, NULL },
	{ NULL, 1, NULL },
};

TEST(fdr_malformed_cases)
{
	char *dir = tu_tmpdir();
	int llvm = tu_have("llvm-xray");
	struct gb f = { 0 };
	unsigned int i;

	for (i = 0; i < sizeof(fdr_cases) / sizeof(fdr_cases[0]); i++) {
		struct tb_error err;
		int ret;

		fb_valid(&f, 5);
		case_edit(&f, i);
		ret = fdr_parse(f.p, f.n, &err);
		if (fdr_cases[i].ours) {
			EXPECT_EQ(-1, ret);
			EXPECT_NE(NULL, strstr(err.msg, fdr_cases[i].ours)) {
				TH_LOG("case %u: got \"%s\"", i, err.msg);
			}
		} else {
			EXPECT_EQ(0, ret) {
				TH_LOG("case %u: %s", i, err.msg);
			}
			EXPECT_EQ(0, strncmp(err.warning, fdr_cases[i].warning ?
					     fdr_cases[i].warning : "",
					     fdr_cases[i].warning ?
					     strlen(fdr_cases[i].warning) : 1)) {
				TH_LOG("case %u: warning \"%s\"", i,
				       err.warning);
			}
		}
		if (llvm)
			EXPECT_EQ(fdr_cases[i].llvm, llvm_verdicts(dir, &f)) {
				TH_LOG("case %u: llvm-xray disagrees", i);
			}
	}
	gb_free(&f);
	tu_rmdir(dir);
	free(dir);
}

/* ---- generic sweeps ---- */

static int xs_parse(const void *p, size_t n, struct tb_error *err)
{
	FILE *f = n ? fmemopen((void *)p, n, "rb") : tmpfile();
	struct tb_xs_input in;
	struct tb_xs_buffer b;
	int ret;

	tb_xs_record_init(&in, f, 256);
	while ((ret = tb_xs_record_next(&in, &b)) > 0) {
		struct tb_xs_msg *m = malloc(b.hdr.buf_size * sizeof(*m));
		struct tb_xs_result res;

		if (tb_xs_decode(b.data, b.hdr.buf_size, NULL, m, &res))
			ret = -2;
		free(m);
	}
	*err = in.err;
	tb_xs_record_release(&in);
	fclose(f);
	return ret;
}

static int tf_parse(const void *p, size_t n, struct tb_error *err)
{
	FILE *f = n ? fmemopen((void *)p, n, "rb") : tmpfile();
	int ret;

	memset(err, 0, sizeof(*err));
	ret = tb_tfile_reader_read(f, NULL, NULL, NULL, err);
	fclose(f);
	return ret;
}

static int emit_cb(void *ctx, const struct tracebuf_record *h, bool has,
		   const uint8_t *d)
{
	return 0;
}

static int xsf_parse(const void *p, size_t n, struct tb_error *err)
{
	struct tb_xs_fdr_reader x;
	int ret;

	memset(err, 0, sizeof(*err));
	tb_xs_fdr_reader_init(&x, err, emit_cb, NULL);
	ret = tb_fdr_reader_read_mem(p, n, NULL, tb_xs_fdr_visit, &x, NULL, err);
	if (tb_xs_fdr_reader_finish(&x))
		ret = -1;
	return ret;
}

static int nm_parse(const void *p, size_t n, struct tb_error *err)
{
	FILE *f = n ? fmemopen((void *)p, n, "r") : tmpfile();
	struct tb_name_map m;
	int ret;

	memset(err, 0, sizeof(*err));
	ret = tb_name_map_load(&m, f, err);
	tb_name_map_free(&m);
	fclose(f);
	return ret;
}

typedef int (*parse_fn)(const void *p, size_t n, struct tb_error *err);

static const struct {
	const char *dir;
	parse_fn fn;
} parsers[] = {
	{ "fdr", fdr_parse },
	{ "fdr", xsf_parse },
	{ "tfile", tf_parse },
	{ "xscale", xs_parse },
	{ "names", nm_parse },
};

/* Failure must come with a message. */
static void check(struct __test_metadata *_metadata, parse_fn fn,
		  const void *p, size_t n, const char *what)
{
	struct tb_error err;
	int ret = fn(p, n, &err);

	if (ret)
		EXPECT_NE(0, err.msg[0]) {
			TH_LOG("%s: failed without a message", what);
		}
}

static void *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;

	*n = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	p = malloc(*n ? *n : 1);
	if (fread(p, 1, *n, f) != *n)
		*n = 0;
	fclose(f);
	return p;
}

/*
 * ---- fuzzer seeds ----
 *
 * The files data/corpus/DIR/gen-* seed the libFuzzer targets with the
 * shapes the readers decide on (fdr_llvm_test, tfile_gdb_test and
 * xscale_model_test check the verdicts).  They are made here, and this
 * test checks the committed files are what the builders make; run it with
 * TB_WRITE_SEEDS=1 to write them again.
 */

/* A small version 5 block: extent, preamble, a call. */
static size_t seed_block(struct gb *g, uint64_t extra)
{
	size_t at = gf_extents(g, 0);

	gf_new_buffer(g, 7);
	gf_wallclock(g, 1, 2);
	gf_pid(g, 3);
	gf_cpu(g, 1, 100);
	gf_func(g, TB_FDR_ENTER, 1, 5);
	gf_func(g, TB_FDR_EXIT, 1, 5);
	tb_bytes_put64(g->p + at + 1, extra + g->n - at - TB_FDR_META_SIZE);
	return at;
}

static void seed_fdr(struct gb *g, unsigned int i)
{
	unsigned int seed = 7 + i;

	switch (i) {
	case 0:		/* compiler-rt's version 1: fixed buffers, padding */
		gf_v1_file(g, &seed, 256, 3);
		break;
	case 1:		/* padding that is not a multiple of 8 */
		gf_v1_file(g, &seed, 128, 1);
		gb_space(g, 4);
		break;
	case 2:		/* an extent of 2^32 + n: llvm keeps 32 bits */
		gf_header(g, 5, 1, 0);
		seed_block(g, 1ULL << 32);
		break;
	case 3:		/* exactly 2^32: skipped up to the next 0x0f */
		gf_header(g, 5, 1, 0);
		seed_block(g, 0);
		tb_bytes_put64(g->p + 33, 1ULL << 32);
		seed_block(g, 0);
		break;
	case 4:		/* a final BufferExtents of 9 bytes */
		gf_header(g, 5, 1, 0);
		seed_block(g, 0);
		gf_extents(g, 48);
		g->n -= 7;
		break;
	case 5:		/* header only */
		gf_header(g, 5, 1, 0);
		break;
	case 6:		/* an empty extent, then a block cut after its PID */
		gf_header(g, 5, 1, 0);
		gf_extents(g, 0);
		gf_extents(g, 48);
		gf_new_buffer(g, 1);
		gf_wallclock(g, 1, 2);
		gf_pid(g, 3);
		break;
	case 7:		/* versions 2 to 4 with custom events */
	case 8:
	case 9:
		gf_file(g, i - 5, &seed, 2, 200);
		break;
	}
}

static void seed_tfile(struct gb *g, unsigned int i)
{
	uint8_t mem[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	size_t f;

	gt_defs(g, 3);
	switch (i) {
	case 0:		/* CR LF definitions but status, no end marker */
		g->n = 8;
		gb_str(g, "R 8\r\nstatus 0;tframes:3\n"
		       "tsv 1:0:0:616c706861\r\n"
		       "tp T1:401000:E:0:0\r\n\n");
		gt_std_frame(g, 0);
		gt_std_frame(g, 1);
		break;
	case 1:		/* blocks longer than their frames */
		gt_line(g, "");
		gt_std_frame(g, 0);
		f = gt_frame(g, 1);
		gt_v(g, 1, 1);
		gt_m(g, 0x500000, mem, 8);
		gt_frame_end(g, f);
		tb_bytes_put32(g->p + f + 2, tb_bytes_get32(g->p + f + 2) - 6);
		g->n -= 6;
		f = gt_frame(g, 1);
		gt_r(g, 8, 0x11);
		gt_frame_end(g, f);
		tb_bytes_put32(g->p + f + 2, 4);
		g->n -= 5;
		gt_std_frame(g, 2);
		gt_end(g);
		break;
	case 2:		/* unknown blocks before and after an R block */
		gt_line(g, "");
		f = gt_frame(g, 1);
		gt_r(g, 8, 0);
		*gb_space(g, 1) = 'X';
		gt_frame_end(g, f);
		f = gt_frame(g, 1);
		*gb_space(g, 1) = 'X';
		gt_r(g, 8, 0);
		gt_frame_end(g, f);
		gt_end(g);
		break;
	case 3:		/* refused: a variable name that is not hex */
		gt_line(g, "tsv 3:0:0:gamma");
		gt_line(g, "");
		gt_std_frame(g, 0);
		gt_end(g);
		break;
	case 4:		/* refused: a tracepoint without its tp T line */
		gt_line(g, "tp Z2:402000:at:0:9:2a3078343032303030");
		gt_line(g, "");
		gt_std_frame(g, 0);
		gt_end(g);
		break;
	case 5:		/* refused: the last R line says 0 */
		gt_line(g, "R 0");
		gt_line(g, "");
		gt_std_frame(g, 0);
		gt_end(g);
		break;
	}
}

/* A snapshot: a wrapped buffer with three checkpointed entries. */
static void seed_xscale(struct gb *g, unsigned int i)
{
	struct tracebuf_record r = {
		TRACEBUF_RECORD_MAGIC, 1, 40, 0xc0003000, 0xc0002000,
		TRACEBUF_RECORD_WRAPPED, 256, 0, 0,
	};
	uint8_t *d;

	tb_xs_record_format(&r, gb_space(g, 40));
	d = gb_space(g, 256);
	memset(d, 0x83, 256);
	d[20] = 0xc1;			/* lost its register */
	d[100] = 0xc2;			/* CHKPT1 */
	d[200] = 0xc0;			/* CHKPT0 */
	if (i == 1)
		d[120] = 0xc4;		/* two in one pass: suspect */
}

static const struct {
	const char *path;
	void (*build)(struct gb *g, unsigned int i);
	unsigned int i;
} seeds[] = {
	{ "fdr/gen-v1-fixed-buffers.fdr", seed_fdr, 0 },
	{ "fdr/gen-v1-padding-misaligned.fdr", seed_fdr, 1 },
	{ "fdr/gen-extent-2pow32-plus.fdr", seed_fdr, 2 },
	{ "fdr/gen-extent-2pow32.fdr", seed_fdr, 3 },
	{ "fdr/gen-extents-cut-short.fdr", seed_fdr, 4 },
	{ "fdr/gen-header-only.fdr", seed_fdr, 5 },
	{ "fdr/gen-empty-extent-short-block.fdr", seed_fdr, 6 },
	{ "fdr/gen-v2.fdr", seed_fdr, 7 },
	{ "fdr/gen-v3.fdr", seed_fdr, 8 },
	{ "fdr/gen-v4.fdr", seed_fdr, 9 },
	{ "tfile/gen-crlf-no-end-marker.tf", seed_tfile, 0 },
	{ "tfile/gen-blocks-past-frame.tf", seed_tfile, 1 },
	{ "tfile/gen-unknown-blocks.tf", seed_tfile, 2 },
	{ "tfile/gen-tsv-not-hex.tf", seed_tfile, 3 },
	{ "tfile/gen-tp-without-T.tf", seed_tfile, 4 },
	{ "tfile/gen-last-R-zero.tf", seed_tfile, 5 },
	{ "xscale/gen-three-checkpoints.bin", seed_xscale, 0 },
	{ "xscale/gen-two-checkpoints-one-pass.bin", seed_xscale, 1 },
};

TEST(fuzzer_seeds)
{
	bool write = getenv("TB_WRITE_SEEDS") != NULL;
	unsigned int i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		char path[512];
		struct gb g = { 0 };
		size_t n = 0;
		uint8_t *p;

		seeds[i].build(&g, seeds[i].i);
		snprintf(path, sizeof(path), "data/corpus/%s", seeds[i].path);
		if (write)
			ASSERT_EQ(0, gb_write(&g, path));
		p = slurp(path, &n);
		EXPECT_NE(NULL, p) {
			TH_LOG("%s missing: run with TB_WRITE_SEEDS=1", path);
		}
		if (p) {
			EXPECT_EQ(g.n, n);
			EXPECT_EQ(0, memcmp(g.p, p, n < g.n ? n : g.n)) {
				TH_LOG("%s differs from its builder", path);
			}
		}
		free(p);
		gb_free(&g);
	}
}

/* Every corpus file through its parsers, plus truncations and flips. */
TEST(corpus_sweep)
{
	unsigned int i, files = 0, seed = 3;

	for (i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
		char path[512];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "data/corpus/%s", parsers[i].dir);
		d = opendir(path);
		ASSERT_NE(NULL, d) {
			TH_LOG("no %s (tests run in userspace/tests)", path);
		}
		while ((de = readdir(d))) {
			uint8_t *p, *q;
			size_t n, cut, k;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "data/corpus/%s/%s",
				 parsers[i].dir, de->d_name);
			p = slurp(path, &n);
			ASSERT_NE(NULL, p);
			files++;
			check(_metadata, parsers[i].fn, p, n, path);
			for (cut = 0; cut < n; cut += 1 + cut / 64)
				check(_metadata, parsers[i].fn, p, cut, path);
			q = malloc(n ? n : 1);
			for (k = 0; n && k < 300; k++) {
				memcpy(q, p, n);
				q[rand_r(&seed) % n] ^= 1 << (rand_r(&seed) & 7);
				q[rand_r(&seed) % n] = (uint8_t)rand_r(&seed);
				check(_metadata, parsers[i].fn, q, n, path);
			}
			free(q);
			free(p);
		}
		closedir(d);
	}
	EXPECT_LT(10, files);
}

TEST_HARNESS_MAIN
