// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR reader and writer, checked against the real reader (llvm-xray
 * 14) and the real writer (compiler-rt's FDR runtime, run during the
 * test), plus the lossless XScale <-> FDR mapping and the ELF
 * instrumentation map.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "convert/fdr_print.h"
#include "convert/xs_fdr.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "format/name_map.h"
#include "format/xray_map.h"
#include "tb_test_util.h"

#define LLVM_XRAY "llvm-xray"

struct counts {
	unsigned long kinds[TB_FDR_FUNCTION + 1];
	unsigned long records;
	uint64_t last_tsc[4];
	int backwards;
	uint64_t tsc_sum;
};

static int count_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct counts *c = ctx;

	c->kinds[r->kind]++;
	c->records++;
	if (r->kind == TB_FDR_FUNCTION) {
		c->tsc_sum += r->tsc;
		if (r->tid >= 0 && r->tid < 4) {
			if (r->tsc < c->last_tsc[r->tid])
				c->backwards++;
			c->last_tsc[r->tid] = r->tsc;
		}
	}
	return 0;
}

/*
 * A synthetic trace exercising every record our writer makes: two
 * threads, nested calls, arguments, a TSC jump beyond 32 bits, a CPU
 * migration, custom and typed events, and blocks small enough that each
 * thread needs several.
 */
static uint64_t write_sample(const char *path, unsigned long *nfunc)
{
	struct tb_fdr_header h = { .cycle_frequency = 1000000000ULL,
				   .flags = 3 };
	struct tb_fdr_writer w;
	uint64_t sum = 0;
	FILE *f = fopen(path, "wb");
	int tid, i;

	*nfunc = 0;
	if (!f || tb_fdr_writer_init(&w, f, &h, 1024))
		return 0;
	for (tid = 1; tid <= 2; tid++) {
		uint64_t tsc = 1000000ULL * tid;

		tb_fdr_writer_begin(&w, 4242, tid, 0, tsc, 1700000000, 5);
		for (i = 0; i < 200; i++) {
			uint64_t args[2] = { (uint64_t)i, 0xdeadbeefcafeULL };

			tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, 1, tsc += 10,
					       args, 2);
			sum += tsc;
			tb_fdr_writer_function(&w, TB_FDR_ENTER, 2, tsc += 7, NULL,
					       0);
			sum += tsc;
			if (i == 50)
				tsc += 1ULL << 33;	/* needs a TSCWrap */
			if (i == 120)
				tb_fdr_writer_new_cpu(&w, 1, tsc += 3);
			tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, tsc += 5, NULL, 0);
			sum += tsc;
			if (i % 40 == 0) {
				char msg[32];
				int n = snprintf(msg, sizeof(msg),
						 "event %d of %d", i, tid);

				tb_fdr_writer_custom(&w, tsc += 2, msg, n);
				tb_fdr_writer_typed(&w, tsc += 2, 7, msg, n);
			}
			tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, tsc += 4, NULL, 0);
			sum += tsc;
			*nfunc += 4;
		}
	}
	if (tb_fdr_writer_finish(&w) || fclose(f))
		return 0;
	return sum;
}

TEST(writer_reader_roundtrip)
{
	char *dir = tu_tmpdir(), path[512];
	struct counts c = { 0 };
	struct tb_fdr_stats st;
	struct tb_error err = { 0 };
	unsigned long nfunc;
	uint64_t sum;
	FILE *f;

	snprintf(path, sizeof(path), "%s/s.fdr", dir);
	sum = write_sample(path, &nfunc);
	ASSERT_NE(0, sum);
	f = fopen(path, "rb");
	ASSERT_EQ(0, tb_fdr_reader_read(f, NULL, count_visit, &c, &st, &err)) {
		TH_LOG("%s", err.msg);
	}
	fclose(f);
	EXPECT_EQ(nfunc, c.kinds[TB_FDR_FUNCTION]);
	EXPECT_EQ(2 * 200 * 2, c.kinds[TB_FDR_CALL_ARG]);
	EXPECT_EQ(2 * 5, c.kinds[TB_FDR_CUSTOM]);
	EXPECT_EQ(2 * 5, c.kinds[TB_FDR_TYPED]);
	EXPECT_LE(2, c.kinds[TB_FDR_TSC_WRAP]);
	EXPECT_LT(4, c.kinds[TB_FDR_BUFFER_EXTENTS]);
	EXPECT_EQ(c.kinds[TB_FDR_BUFFER_EXTENTS], c.kinds[TB_FDR_NEW_BUFFER]);
	/* Absolute times come back exactly as written. */
	EXPECT_EQ(sum, c.tsc_sum);
	EXPECT_EQ(0, c.backwards);
	tu_rmdir(dir);
	free(dir);
}

/*
 * The collector path: blocks formed elsewhere (per-CPU buffers) written
 * out of band, and pre-formed records appended to an open block.
 */
TEST(preformed_blocks_and_records)
{
	struct tb_fdr_header h = { .cycle_frequency = 1000000 };
	uint8_t blk[5 * 16 + 2 * 8], recs[16];
	struct tb_fdr_writer w;
	struct counts c = { 0 };
	struct tb_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_EQ(0, tb_fdr_writer_init(&w, f, &h, 0));
	/* Thread 2's block, formed by hand: preamble, enter, exit. */
	tb_fdr_writer_put_meta(blk, TB_FDR_NEW_BUFFER);
	blk[1] = 2;
	tb_fdr_writer_put_meta(blk + 16, TB_FDR_WALLCLOCK);
	tb_fdr_writer_put_meta(blk + 32, TB_FDR_PID);
	blk[33] = 9;
	tb_fdr_writer_put_meta(blk + 48, TB_FDR_NEW_CPU);
	blk[51] = 100;				/* tsc 100 */
	tb_fdr_writer_put_meta(blk + 64, TB_FDR_TSC_WRAP);
	blk[65] = 200;				/* tsc 200 */
	tb_fdr_writer_put_func(blk + 80, TB_FDR_ENTER, 3, 5);
	tb_fdr_writer_put_func(blk + 88, TB_FDR_EXIT, 3, 7);
	ASSERT_EQ(0, tb_fdr_writer_block(&w, blk, sizeof(blk)));
	/* Thread 1: writer-made block with appended records. */
	ASSERT_EQ(0, tb_fdr_writer_begin(&w, 9, 1, 0, 1000, 0, 0));
	tb_fdr_writer_put_func(recs, TB_FDR_ENTER, 4, 10);
	tb_fdr_writer_put_func(recs + 8, TB_FDR_EXIT, 4, 10);
	ASSERT_EQ(0, tb_fdr_writer_append(&w, recs, sizeof(recs), 1020));
	ASSERT_EQ(0, tb_fdr_writer_function(&w, TB_FDR_ENTER, 5, 1030, NULL, 0));
	ASSERT_EQ(0, tb_fdr_writer_finish(&w));
	fclose(f);
	ASSERT_EQ(0, tb_fdr_reader_read_mem(buf, len, NULL, count_visit, &c, NULL,
					    &err)) {
		TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(5, c.kinds[TB_FDR_FUNCTION]);
	EXPECT_EQ(2, c.kinds[TB_FDR_BUFFER_EXTENTS]);
	/* 205 + 212 + 1010 + 1020 + 1030 */
	EXPECT_EQ(3477, c.tsc_sum);
	free(buf);
}

/* llvm-xray accepts our files with every command formats.md lists. */
static void check_llvm_accepts(struct __test_metadata *_metadata,
			       const char *path, const char *map)
{
	static const char *const cmds[] = {
		"fdr-dump -verify %s",
		"convert -f yaml %s%s",
		"convert -f trace_event %s%s",
		"account -k %s%s",
		"stack %s%s",
	};
	char mapopt[600] = "";
	unsigned int i;

	if (map)
		snprintf(mapopt, sizeof(mapopt), " -m %s", map);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char fmt[256];
		int st;
		char *out;

		snprintf(fmt, sizeof(fmt), "%s %s", LLVM_XRAY, cmds[i]);
		out = tu_run(&st, fmt, path, i ? mapopt : "");
		EXPECT_EQ(0, st) {
			TH_LOG("%s: %.600s", cmds[i], out);
		}
		/* Errors are masked by a big-endian retry: look for them. */
		EXPECT_EQ(NULL, strstr(out, "rror"));
		if (i == 2)
			EXPECT_EQ(NULL, strstr(out, "INF"));
		free(out);
	}
}

TEST(llvm_xray_accepts_writer_output)
{
	char *dir, path[512];
	unsigned long nfunc;
	char *out;
	int st;

	if (!tu_have(LLVM_XRAY))
		SKIP(return, "llvm-xray not installed");
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/s.fdr", dir);
	ASSERT_NE(0, write_sample(path, &nfunc));
	check_llvm_accepts(_metadata, path, NULL);
	/* The YAML has every function record, arguments included. */
	out = tu_run(&st, LLVM_XRAY " convert -f yaml %s", path);
	EXPECT_EQ(nfunc, (unsigned long)tu_count(out, "kind: function-"));
	EXPECT_EQ(200 * 2, tu_count(out, "kind: function-enter-arg")) {
		TH_LOG("%.300s", strstr(out, "enter-arg"));
	}
	free(out);
	tu_rmdir(dir);
	free(dir);
}

static int print_visit(void *ctx, const struct tb_fdr_record *r)
{
	tb_fdr_print(ctx, r);
	return 0;
}

/* Our text dump equals llvm-xray fdr-dump's, line for line. */
static void compare_dump(struct __test_metadata *_metadata, const char *path)
{
	struct tb_error err = { 0 };
	char *ours = NULL, *theirs;
	size_t len = 0;
	FILE *in = fopen(path, "rb"), *out = open_memstream(&ours, &len);
	int st;

	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, tb_fdr_reader_read(in, NULL, print_visit, out, NULL, &err)) {
		TH_LOG("%s", err.msg);
	}
	fclose(in);
	fclose(out);
	theirs = tu_run(&st, LLVM_XRAY " fdr-dump %s", path);
	ASSERT_EQ(0, st);
	EXPECT_EQ(strlen(theirs), len);
	EXPECT_EQ(0, strcmp(ours, theirs)) {
		size_t i = 0;

		while (ours[i] && ours[i] == theirs[i])
			i++;
		TH_LOG("first difference at byte %zu: ours \"%.60s\" llvm \"%.60s\"",
		       i, ours + i, theirs + i);
	}
	free(ours);
	free(theirs);
}

TEST(text_dump_matches_llvm_fdr_dump)
{
	char *dir, path[512];
	unsigned long nfunc;

	if (!tu_have(LLVM_XRAY))
		SKIP(return, "llvm-xray not installed");
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/s.fdr", dir);
	ASSERT_NE(0, write_sample(path, &nfunc));
	compare_dump(_metadata, path);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A real compiler-rt trace, made now: build the instrumented threaded
 * program with clang, run it, and compare record counts and the text dump
 * with llvm-xray's.
 */
TEST(compiler_rt_trace)
{
	char *dir, *out, path[600];
	struct counts c = { 0 };
	struct tb_error err = { 0 };
	int st, lines;
	FILE *f;

	if (!tu_have(LLVM_XRAY) || !tu_have("clang"))
		SKIP(return, "clang or llvm-xray not installed");
	dir = tu_tmpdir();
	out = tu_run(&st, "clang -O1 -fxray-instrument -fxray-modes=xray-fdr "
		     "-fxray-instruction-threshold=1 -pthread "
		     "-o %s/prog data/xray_prog.c", dir);
	if (st) {
		TH_LOG("%s", out);
		free(out);
		tu_rmdir(dir);
		SKIP(return, "clang cannot build XRay programs here");
	}
	free(out);
	out = tu_run(&st, "cd %s && XRAY_OPTIONS='xray_mode=xray-fdr "
		     "xray_logfile_base=%s/trace-' ./prog 300 4",
		     dir, dir);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	out = tu_run(&st, "ls %s/trace-*", dir);
	ASSERT_EQ(0, st);
	snprintf(path, sizeof(path), "%s", out);
	*strchrnul(path, '\n') = 0;
	free(out);

	f = fopen(path, "rb");
	ASSERT_NE(NULL, f) {
		TH_LOG("no trace at %s", path);
	}
	ASSERT_EQ(0, tb_fdr_reader_read(f, NULL, count_visit, &c, NULL, &err)) {
		TH_LOG("%s", err.msg);
	}
	fclose(f);
	out = tu_run(&st, LLVM_XRAY " fdr-dump %s", path);
	ASSERT_EQ(0, st);
	lines = tu_count(out, "\n");
	EXPECT_EQ((unsigned long)lines, c.records);
	EXPECT_EQ((unsigned long)tu_count(out, "<Function "),
		  c.kinds[TB_FDR_FUNCTION]);
	EXPECT_EQ((unsigned long)tu_count(out, "<Thread ID"),
		  c.kinds[TB_FDR_NEW_BUFFER]);
	EXPECT_EQ((unsigned long)tu_count(out, "<Buffer: "),
		  c.kinds[TB_FDR_BUFFER_EXTENTS]);
	EXPECT_LE(4, c.kinds[TB_FDR_NEW_BUFFER]);
	EXPECT_LT(4 * 300 * 6UL, c.kinds[TB_FDR_FUNCTION]);
	free(out);
	compare_dump(_metadata, path);

	/* The same trace as a GDB trace file: a frame per function record. */
	if (tu_have("gdb")) {
		char want[64];

		out = tu_run(&st, "%s fdr-tfile %s %s/t.tf && gdb -batch -nx "
			     "-ex 'target tfile %s/t.tf' -ex tstatus "
			     "-ex 'tfind start' -ex 'p $tid'",
			     tu_tool("tbconv"), path, dir, dir);
		EXPECT_EQ(0, st);
		snprintf(want, sizeof(want), "Collected %lu trace frames.",
			 c.kinds[TB_FDR_FUNCTION]);
		EXPECT_NE(NULL, strstr(out, want)) {
			TH_LOG("%.1000s", out);
		}
		free(out);
		/* Names from the program's own map, via llvm-xray extract. */
		out = tu_run(&st, "llvm-xray extract -s %s/prog | sed -n "
			     "'s/.*id: \\([0-9]*\\),.*kind: function-enter,"
			     ".*function-name: \\([^,]*\\),.*/\\1 \\2/p' "
			     "> %s/names && %s fdr-tfile -m %s/names %s %s/n.tf "
			     "&& %s map-elf %s/names %s/n.elf && gdb -batch -nx "
			     "%s/n.elf -ex 'target tfile %s/n.tf' "
			     "-ex 'info tracepoints'", dir, dir,
			     tu_tool("tbconv"), dir, path, dir,
			     tu_tool("tbconv"), dir, dir, dir, dir);
		EXPECT_EQ(0, st);
		EXPECT_NE(NULL, strstr(out, "<worker>")) {
			TH_LOG("%.1000s", out);
		}
		EXPECT_NE(NULL, strstr(out, "<leaf>"));
		free(out);
	}
	tu_rmdir(dir);
	free(dir);
}

/* ---- XScale <-> FDR ---- */

struct rebuilt {
	uint8_t *bytes;
	size_t len;
};

static int collect(void *ctx, const struct tracebuf_record *hdr,
		   bool has_hdr, const uint8_t *data)
{
	struct rebuilt *r = ctx;
	uint8_t h[40];

	tb_xs_record_format(hdr, h);
	r->bytes = realloc(r->bytes, r->len + 40 + hdr->buf_size);
	memcpy(r->bytes + r->len, h, 40);
	memcpy(r->bytes + r->len + 40, data, hdr->buf_size);
	r->len += 40 + hdr->buf_size;
	return 0;
}

/* A chain: wrapped with a fragment, not wrapped, suspect, bigger size. */
static size_t make_chain(uint8_t *out)
{
	static const uint32_t sizes[] = { 256, 256, 256, 1024 };
	unsigned int seed = 7, i;
	size_t len = 0;

	for (i = 0; i < 4; i++) {
		struct tracebuf_record r = {
			.magic = TRACEBUF_RECORD_MAGIC,
			.version = 1, .hdr_size = 40,
			.chkpt0 = 0xc0008000, .chkpt1 = 0xc0004000,
			.flags = TRACEBUF_RECORD_WRAPPED, .buf_size = sizes[i],
			.seq = i, .lost_before = i == 3 ? 2 : 0,
		};
		uint8_t *d = out + len + 40;
		size_t j;

		tb_xs_record_format(&r, out + len);
		for (j = 0; j < sizes[i]; j++) {
			unsigned int v = rand_r(&seed);

			d[j] = (v & 1) ? 0x80 | (v >> 4 & 0x5f) :
			       (uint8_t)(v >> 8);
		}
		if (i == 1)
			memset(d, 0, 100);	/* not wrapped */
		if (i == 2)
			d[200] = 0xa5;		/* reserved: suspect */
		d[0] = 0x12;
		d[1] = 0x9c;			/* fragment at the start */
		len += 40 + sizes[i];
	}
	return len;
}

TEST(xscale_fdr_roundtrip_is_lossless)
{
	static uint8_t chain[4 * 1100];
	size_t len = make_chain(chain);
	char *dir = tu_tmpdir(), path[512];
	struct tb_fdr_header h = { .cycle_frequency = 400000000 };
	struct tb_fdr_writer w;
	struct tb_xs_fdr_reader x;
	struct rebuilt rb = { 0 };
	struct tb_error err = { 0 };
	struct tb_xs_input in;
	struct tb_xs_buffer b;
	uint64_t tsc = 0;
	FILE *f, *out;

	snprintf(path, sizeof(path), "%s/x.fdr", dir);
	f = fmemopen(chain, len, "rb");
	out = fopen(path, "wb");
	ASSERT_EQ(0, tb_fdr_writer_init(&w, out, &h, 0));
	tb_xs_record_init(&in, f, 0);
	while (tb_xs_record_next(&in, &b) > 0) {
		struct tb_xs_msg *m = calloc(b.hdr.buf_size, sizeof(*m));
		struct tb_xs_chkpt_regs regs = { true, b.hdr.chkpt0,
						 b.hdr.chkpt1 };
		struct tb_xs_result res;

		tb_xs_decode(b.data, b.hdr.buf_size, &regs, m, &res);
		ASSERT_EQ(0, tb_xs_fdr_write_buffer(&w, &b, m, &res, &tsc));
		free(m);
	}
	EXPECT_EQ(len, in.off);
	tb_xs_record_release(&in);
	fclose(f);
	ASSERT_EQ(0, tb_fdr_writer_finish(&w));
	fclose(out);

	f = fopen(path, "rb");
	tb_xs_fdr_reader_init(&x, &err, collect, &rb);
	ASSERT_EQ(0, tb_fdr_reader_read(f, NULL, tb_xs_fdr_visit, &x, NULL, &err)) {
		TH_LOG("%s", err.msg);
	}
	ASSERT_EQ(0, tb_xs_fdr_reader_finish(&x));
	fclose(f);
	ASSERT_EQ(len, rb.len);
	EXPECT_EQ(0, memcmp(chain, rb.bytes, len));
	free(rb.bytes);

	if (tu_have(LLVM_XRAY))
		check_llvm_accepts(_metadata, path, NULL);
	tu_rmdir(dir);
	free(dir);
}

/* The ELF instrumentation map gives llvm-xray function names. */
TEST(elf_map_names_functions)
{
	struct tb_name_map m = { 0 };
	struct tb_error err = { 0 };
	char *dir, path[512], map[512], *out;
	int st;
	FILE *f;
	unsigned long nfunc;

	if (!tu_have(LLVM_XRAY))
		SKIP(return, "llvm-xray not installed");
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/s.fdr", dir);
	snprintf(map, sizeof(map), "%s/map.elf", dir);
	ASSERT_NE(0, write_sample(path, &nfunc));
	ASSERT_EQ(0, tb_name_map_add(&m, 2, "inner_function"));
	ASSERT_EQ(0, tb_name_map_add(&m, 1, "outer_function"));
	ASSERT_EQ(0, tb_name_map_add(&m, 5, "unused_function"));
	ASSERT_EQ(0, tb_name_map_finish(&m, &err));
	f = fopen(map, "wb");
	ASSERT_EQ(0, tb_xray_map_write(f, &m));
	fclose(f);
	tb_name_map_free(&m);

	out = tu_run(&st, LLVM_XRAY " account -k -m %s %s", map, path);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "outer_function")) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "inner_function"));
	free(out);
	out = tu_run(&st, LLVM_XRAY " convert -f yaml -symbolize -m %s %s",
		     map, path);
	EXPECT_EQ(0, st);
	EXPECT_LT(0, tu_count(out, "function: outer_function,"))
	{
		TH_LOG("%.800s", out);
	}
	free(out);
	check_llvm_accepts(_metadata, path, map);
	tu_rmdir(dir);
	free(dir);
}

TEST(name_map_parsing)
{
	static const char good[] = "# comment\n1 main\n0x10  worker thread \n\n";
	static const char dup[] = "1 a\n1 b\n";
	static const char bad[] = "1 a\nzero b\n";
	struct tb_name_map m;
	struct tb_error err = { 0 };
	FILE *f;

	f = fmemopen((void *)good, sizeof(good) - 1, "r");
	ASSERT_EQ(0, tb_name_map_load(&m, f, &err));
	fclose(f);
	EXPECT_EQ(2, m.n);
	EXPECT_STREQ("main", tb_name_map_find(&m, 1));
	EXPECT_STREQ("worker thread", tb_name_map_find(&m, 16));
	EXPECT_EQ(NULL, tb_name_map_find(&m, 2));
	tb_name_map_free(&m);
	f = fmemopen((void *)dup, sizeof(dup) - 1, "r");
	EXPECT_EQ(-1, tb_name_map_load(&m, f, &err));
	EXPECT_NE(NULL, strstr(err.msg, "named twice"));
	tb_name_map_free(&m);
	fclose(f);
	f = fmemopen((void *)bad, sizeof(bad) - 1, "r");
	EXPECT_EQ(-1, tb_name_map_load(&m, f, &err));
	EXPECT_NE(NULL, strstr(err.msg, "line 2"));
	tb_name_map_free(&m);
	fclose(f);
}

TEST_HARNESS_MAIN
