// SPDX-License-Identifier: GPL-2.0
/*
 * GDB trace files: what we write must load in gdb 13 (`target tfile`,
 * tstatus, tfind through every frame, tdump, trace state variables,
 * memory), and our reader must read gdb's own `tsave` output, produced
 * here with gdbserver tracepoints.  gdb's tracepoint numbers are ours
 * (tfile_gdb_test searches with them).
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "format/fdr_writer.h"
#include "format/tfile.h"
#include "format/tfile_reader.h"
#include "format/xs.h"
#include "format/xs_record.h"
#include "tb_test_util.h"
#include "util/bytes.h"

/* Run gdb in batch mode over a script; returns its output. */
static char *gdb_script(const char *gdb, const char *dir, const char *script)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cmds.gdb", dir);
	f = fopen(path, "w");
	if (!f)
		return strdup("");
	fputs(script, f);
	fclose(f);
	return tu_run(NULL, "%s -batch -nx -x %s", gdb, path);
}

struct rd_ctx {
	unsigned int frames;
	unsigned int tp[64];
	int64_t v[64][4];
	unsigned int mem;
	uint8_t membytes[16];
	unsigned int regs;
	uint32_t reg_len;
	char warning[240];
};

static int rd_frame(void *ctx, unsigned int tp, uint64_t off, uint32_t size)
{
	struct rd_ctx *c = ctx;

	if (c->frames < 64)
		c->tp[c->frames] = tp;
	c->frames++;
	return 0;
}

static int rd_block(void *ctx, const struct tb_tfile_block *b)
{
	struct rd_ctx *c = ctx;
	unsigned int f = c->frames - 1;

	if (b->type == 'V' && f < 64 && b->num >= 1 && b->num <= 4)
		c->v[f][b->num - 1] = b->value;
	if (b->type == 'M') {
		if (c->mem < 4)
			memcpy(c->membytes + 4 * c->mem, b->data,
			       b->len < 4 ? b->len : 4);
		c->mem++;
	}
	if (b->type == 'R') {
		c->regs++;
		c->reg_len = b->len;
	}
	return 0;
}

static const struct tb_tfile_visitor rd_visitor = {
	.frame = rd_frame, .block = rd_block,
};

static int rd_line(void *ctx, const char *line)
{
	return 0;
}

/* 12 frames over 3 tracepoints with two variables and some memory. */
static int write_sample(const char *path)
{
	static const char *const cmds[] = { "collect $alpha, $beta" };
	static const uint8_t mem[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct tb_tfile_writer *w;
	FILE *f = fopen(path, "wb");
	int i;

	if (!f)
		return -1;
	w = tb_tfile_create(f, "i386:x86-64", 0x3d0);
	if (!w)
		return -1;
	tb_tfile_tsv(w, 1, "alpha", 0);
	tb_tfile_tsv(w, 2, "beta", 7);
	for (i = 1; i <= 3; i++)
		tb_tfile_tracepoint(w, i, 0x401000 * i, "fn", cmds, 1);
	for (i = 0; i < 12; i++) {
		tb_tfile_frame_begin(w, 1 + i % 3);
		tb_tfile_frame_tsv(w, 1, i);
		tb_tfile_frame_tsv(w, 2, (int64_t)i * i - 100);
		if (i == 0)
			tb_tfile_frame_mem(w, 0x500000, mem, sizeof(mem));
		tb_tfile_frame_end(w);
	}
	if (tb_tfile_finish(w))
		return -1;
	return fclose(f);
}

TEST(writer_reader_roundtrip)
{
	char *dir = tu_tmpdir(), path[512];
	struct rd_ctx c = { 0 };
	struct tb_tfile_info info;
	struct tb_error err = { 0 };
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/s.tf", dir);
	ASSERT_EQ(0, write_sample(path));
	f = fopen(path, "rb");
	ASSERT_EQ(0, tb_tfile_reader_read(f, &rd_visitor, &c, &info, &err)) {
		TH_LOG("%s", err.msg);
	}
	fclose(f);
	EXPECT_EQ(12, info.frames);
	EXPECT_EQ(12, info.status_frames);
	EXPECT_EQ(3, info.tracepoints);
	EXPECT_EQ(2, info.tsvs);
	EXPECT_EQ(0x3d0, info.reg_size);
	for (i = 0; i < 12; i++) {
		EXPECT_EQ(1U + i % 3, c.tp[i]);
		EXPECT_EQ(i, c.v[i][0]);
		EXPECT_EQ(i * i - 100, c.v[i][1]);
	}
	EXPECT_EQ(1, c.mem);
	tu_rmdir(dir);
	free(dir);
}

/*
 * Tracepoints are numbered 1, 2, 3... as they are defined: gdb numbers
 * them the same way, and a file it would number otherwise is not made.
 */
TEST(writer_numbers_tracepoints_in_order)
{
	static const unsigned int bad[] = { 0, 2, 3, TB_TFILE_MAX_TP + 1 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		FILE *f = tmpfile();
		struct tb_tfile_writer *w = tb_tfile_create(f, "arm", 8);

		ASSERT_NE(NULL, w);
		if (bad[i] > 2)
			ASSERT_EQ(0, tb_tfile_tracepoint(w, 1, 0x1000, NULL,
							 NULL, 0));
		EXPECT_GT(0, tb_tfile_tracepoint(w, bad[i], 0x2000, NULL,
						 NULL, 0)) {
			TH_LOG("tracepoint %u accepted", bad[i]);
		}
		EXPECT_GT(0, tb_tfile_finish(w));
		fclose(f);
	}
}

TEST(gdb_loads_writer_output)
{
	char *dir, path[512], script[8192], want[128], *out;
	size_t n;
	int i;

	if (!tu_have("gdb"))
		SKIP(return, "gdb not installed");
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/s.tf", dir);
	ASSERT_EQ(0, write_sample(path));
	n = snprintf(script, sizeof(script),
		     "target tfile %s\ntstatus\ninfo tracepoints\n"
		     "tfind start\ntdump\nx/4xb 0x500000\n"
		     "printf \"F a=%%d b=%%d pc=%%#lx\\n\", $alpha, $beta, $pc\n",
		     path);
	for (i = 1; i < 12; i++)
		n += snprintf(script + n, sizeof(script) - n,
			      "tfind\nprintf \"F a=%%d b=%%d pc=%%#lx\\n\", "
			      "$alpha, $beta, $pc\n");
	out = gdb_script("gdb", dir, script);
	EXPECT_NE(NULL, strstr(out, "Collected 12 trace frames.")) {
		TH_LOG("%.2000s", out);
	}
	EXPECT_EQ(NULL, strstr(out, "rror"));
	EXPECT_EQ(3, tu_count(out, "        collect $alpha, $beta"));
	EXPECT_EQ(3, tu_count(out, "\ttrace only if \"fn\"\n"));
	EXPECT_NE(NULL, strstr(out, "$alpha = 0\n$beta = -100"));
	EXPECT_NE(NULL, strstr(out, "0x500000:\t0xde\t0xad\t0xbe\t0xef"));
	for (i = 0; i < 12; i++) {
		snprintf(want, sizeof(want),
			 "Found trace frame %d, tracepoint %d\n", i, 1 + i % 3);
		EXPECT_NE(NULL, strstr(out, want)) {
			TH_LOG("missing: %s", want);
		}
		snprintf(want, sizeof(want), "F a=%d b=%d pc=%#x\n", i,
			 i * i - 100, 0x401000 * (1 + i % 3));
		EXPECT_NE(NULL, strstr(out, want)) {
			TH_LOG("missing: %s", want);
		}
	}
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* A chain of two buffers through `tbconv xscale-tfile` into gdb (arm). */
TEST(xscale_tfile_in_gdb)
{
	static const uint8_t tail[] = {
		0x63, 0x81, 0xc0, 0x00, 0x80, 0x10, 0x92, 0xff, 0xc3, 0x8f,
		0x12, 0x34, 0x56, 0x78, 0xd1, 0x25,
	};
	char *dir, path[512], tf[512], script[16384], want[128], *out;
	uint8_t file[2 * 296];
	struct tb_xs_msg m[256];
	unsigned int nframes = 0, k;
	size_t n;
	int st;

	if (!tu_have("gdb-multiarch"))
		SKIP(return, "gdb-multiarch (ARM support) not installed");
	dir = tu_tmpdir();
	for (k = 0; k < 2; k++) {
		struct tracebuf_record r = {
			TRACEBUF_RECORD_MAGIC, 1, 40, k ? 0x12345678 : 0x1234,
			0, 0, 256, k, 0,
		};
		uint8_t *d = file + k * 296 + 40;

		tb_xs_record_format(&r, file + k * 296);
		memset(d, 0, 256);
		if (k)
			memset(d, 0x84, 256 - sizeof(tail));
		memcpy(d + 256 - sizeof(tail), tail, sizeof(tail));
	}
	snprintf(path, sizeof(path), "%s/chain.bin", dir);
	snprintf(tf, sizeof(tf), "%s/xs.tf", dir);
	ASSERT_EQ(0, tu_write(path, file, sizeof(file)));
	out = tu_run(&st, "%s xscale-tfile %s %s", tu_tool("tbconv"), path,
		     tf);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);

	n = snprintf(script, sizeof(script), "target tfile %s\ntstatus\n",
		     tf);
	for (k = 0; k < 2; k++) {
		struct tb_xs_chkpt_regs regs = { true, k ? 0x12345678 : 0x1234,
						 0 };
		struct tb_xs_result res;
		size_t i;

		tb_xs_decode(file + k * 296 + 40, 256, &regs, m, &res);
		for (i = 0; i < res.nr; i++, nframes++) {
			n += snprintf(script + n, sizeof(script) - n,
				      "%s\nprintf \"F%u pc=%%#x c=%%d\\n\", $pc, $count\n",
				      nframes ? "tfind" : "tfind start",
				      nframes);
		}
	}
	out = gdb_script("gdb-multiarch", dir, script);
	snprintf(want, sizeof(want), "Collected %u trace frames.", nframes);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("%.1500s", out);
	}
	EXPECT_EQ(NULL, strstr(out, "not available"));
	/* Every frame's pc is where the message says execution went. */
	nframes = 0;
	for (k = 0; k < 2; k++) {
		struct tb_xs_chkpt_regs regs = { true, k ? 0x12345678 : 0x1234,
						 0 };
		struct tb_xs_result res;
		size_t i;

		tb_xs_decode(file + k * 296 + 40, 256, &regs, m, &res);
		for (i = 0; i < res.nr; i++, nframes++) {
			uint32_t pc = m[i].kind == TB_XS_EXCEPTION ?
				      m[i].vector * 4U :
				      m[i].target_known ? m[i].target : 0;

			snprintf(want, sizeof(want), "F%u pc=%#x c=%u\n",
				 nframes, pc, m[i].count);
			EXPECT_NE(NULL, strstr(out, want)) {
				TH_LOG("missing %s", want);
			}
		}
	}
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* FDR -> tfile: a frame per function record, payloads as memory. */
TEST(fdr_tfile_in_gdb)
{
	struct tb_fdr_header h = { .cycle_frequency = 2000000000ULL };
	char *dir, path[512], tf[512], map[512], *out;
	struct tb_fdr_writer w;
	struct rd_ctx c = { 0 };
	struct tb_tfile_info info;
	struct tb_error err = { 0 };
	uint64_t args[2] = { 42, 0x1122334455667788ULL };
	FILE *f;
	int st;

	if (!tu_have("gdb"))
		SKIP(return, "gdb not installed");
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/s.fdr", dir);
	snprintf(tf, sizeof(tf), "%s/s.tf", dir);
	snprintf(map, sizeof(map), "%s/names", dir);
	ASSERT_EQ(0, tu_write(map, "1 main\n2 work\n", 14));
	f = fopen(path, "wb");
	ASSERT_EQ(0, tb_fdr_writer_init(&w, f, &h, 0));
	tb_fdr_writer_begin(&w, 77, 78, 3, 1000, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, 1, 1010, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, 2, 1020, args, 2);
	tb_fdr_writer_custom(&w, 1025, "hello", 5);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 2, 1030, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, 1, 1040, NULL, 0);
	ASSERT_EQ(0, tb_fdr_writer_finish(&w));
	fclose(f);
	out = tu_run(&st, "%s fdr-tfile -m %s %s %s", tu_tool("tbconv"), map,
		     path, tf);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	f = fopen(tf, "rb");
	ASSERT_EQ(0, tb_tfile_reader_read(f, &rd_visitor, &c, &info, &err));
	fclose(f);
	EXPECT_EQ(5, info.frames);
	EXPECT_EQ(3, info.tracepoints);
	EXPECT_EQ(1010, c.v[0][0]);	/* $tsc */
	EXPECT_EQ(3, c.v[0][1]);	/* $cpu */
	EXPECT_EQ(78, c.v[0][2]);	/* $tid */
	EXPECT_EQ(77, c.v[0][3]);	/* $pid */

	out = tu_run(&st, "gdb -batch -nx -ex 'target tfile %s' -ex tstatus "
		     "-ex 'tfind start' -ex tfind -ex tdump -ex tfind "
		     "-ex 'x/5cb 0x10000000' -ex 'info tracepoints'", tf);
	EXPECT_NE(NULL, strstr(out, "Collected 5 trace frames.")) {
		TH_LOG("%.1500s", out);
	}
	EXPECT_NE(NULL, strstr(out, "$tsc = 1020\n"));
	EXPECT_NE(NULL, strstr(out, "$fid = 2\n"));
	EXPECT_NE(NULL, strstr(out, "$nargs = 2\n"));
	EXPECT_EQ(NULL, strstr(out, "No symbol table"));
	EXPECT_NE(NULL, strstr(out, "$param0 = 42\n"));
	EXPECT_NE(NULL, strstr(out, "$param1 = 1234605616436508552\n"));
	EXPECT_NE(NULL, strstr(out, "104 'h'"));
	EXPECT_NE(NULL, strstr(out, "111 'o'"));
	EXPECT_EQ(3, tu_count(out, "tracepoint     keep y"));
	free(out);

	/* With the ELF map of the same names as executable, gdb names them. */
	out = tu_run(&st, "%s map-elf %s %s/m.elf && gdb -batch -nx %s/m.elf "
		     "-ex 'target tfile %s' -ex 'info tracepoints' "
		     "-ex 'tfind start' -ex 'info symbol $pc'",
		     tu_tool("tbconv"), map, dir, dir, tf);
	EXPECT_NE(NULL, strstr(out, "0x0000000000400000 <main>")) {
		TH_LOG("%.1500s", out);
	}
	EXPECT_NE(NULL, strstr(out, "0x0000000000400010 <work>"));
	EXPECT_NE(NULL, strstr(out, "main in section .text"));
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* gdb's own trace file, from real gdbserver tracepoints. */
TEST(reads_gdb_tsave_output)
{
	char *dir, *out, tf[512], script[2048];
	struct rd_ctx c = { 0 };
	struct tb_tfile_info info;
	struct tb_error err = { 0 };
	FILE *f;
	int st;

	if (!tu_have("gdb") || !tu_have("gdbserver") || !tu_have("gcc"))
		SKIP(return, "gdb, gdbserver or gcc not installed");
	dir = tu_tmpdir();
	out = tu_run(&st, "gcc -g -O0 -o %s/tp data/tp_prog.c", dir);
	ASSERT_EQ(0, st) {
		TH_LOG("%s", out);
	}
	free(out);
	snprintf(tf, sizeof(tf), "%s/gdb.tf", dir);
	snprintf(script, sizeof(script),
		 "target remote | gdbserver - %s/tp\n"
		 "break main\ncontinue\n"
		 "trace f\nactions\ncollect $regs\ncollect g\nend\n"
		 "tvariable $hits = 7\n"
		 "tstart\nbreak tp_prog.c:22\ncontinue\ntstop\ntstatus\n"
		 "tsave %s\nkill\n", dir, tf);
	out = gdb_script("gdb", dir, script);
	if (!strstr(out, "Collected 3 trace frames.")) {
		TH_LOG("%.2000s", out);
		free(out);
		tu_rmdir(dir);
		SKIP(return, "gdbserver tracepoints do not work here");
	}
	free(out);
	f = fopen(tf, "rb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_tfile_reader_read(f, &rd_visitor, &c, &info, &err)) {
		TH_LOG("%s", err.msg);
	}
	fclose(f);
	EXPECT_EQ(3, info.frames);
	EXPECT_EQ(3, info.status_frames);
	EXPECT_EQ(1, info.tracepoints);
	EXPECT_EQ(2, info.tsvs);	/* trace_timestamp and $hits */
	EXPECT_EQ(3, c.regs);
	EXPECT_EQ(info.reg_size, c.reg_len);
	/* g at the three entries of f(0), f(1), f(2): 5, 5, 6. */
	EXPECT_EQ(3, c.mem);
	EXPECT_EQ(5, tb_bytes_get32(c.membytes));
	EXPECT_EQ(5, tb_bytes_get32(c.membytes + 4));
	EXPECT_EQ(6, tb_bytes_get32(c.membytes + 8));
	tu_rmdir(dir);
	free(dir);
}

static void rd_warning(void *ctx, const struct tb_error *w)
{
	struct rd_ctx *c = ctx;

	snprintf(c->warning, sizeof(c->warning), "%s", w->msg);
}

/* Every callback, as tbconv tfile-text has them. */
static const struct tb_tfile_visitor all_visitor = {
	.line = rd_line, .frame = rd_frame, .block = rd_block,
	.warning = rd_warning,
};

/*
 * Malformed files: what gdb refuses to open we refuse, naming the problem
 * and its offset; what gdb opens (tfile_gdb_test has the rules) we read
 * as far as gdb's tfind gets, with a warning.
 */
TEST(malformed_files)
{
	static const struct {
		const char *data;
		size_t len;
		const char *msg;	/* error, or the last warning */
		int ok;			/* gdb opens it */
		unsigned int frames;
	} cases[] = {
		{ "\x7fTRACE1\n", 8, "offset 0: not a trace file", 0, 0 },
		{ "\x7fTRACE0\nR 0\n\n", 14,
		  "offset 13: no register block size recorded", 0, 0 },
		{ "\x7fTRACE0\nstatus 0\n\n\0\0", 20,
		  "no register block size recorded", 0, 0 },
		{ "\x7fTRACE0\nR 4\n\n\1\0\1\0\0\0X", 21,
		  "offset 13: frame 0 (tracepoint 1): unknown block type 0x58 in trace frame: gdb cannot select it",
		  1, 0 },
		{ "\x7fTRACE0\nR 4\n\n\1\0\4\0\0\0R\0\0\0\0\0\0", 25,
		  "offset 13: frame 0 (tracepoint 1): R block of 5 bytes overruns its 4-byte frame",
		  1, 1 },
		{ "\x7fTRACE0\nR 4\n\n\1\0\5\0\0\0R\0\0", 23,
		  "the file ends inside an R block: gdb cannot select it",
		  1, 0 },
		{ "\x7fTRACE0\nR 4\n\n", 14,
		  "offset 13: truncated end marker (1 of 2 bytes): the file ends after 0 frames",
		  1, 0 },
		{ "\x7fTRACE0\nR 4\n", 13,
		  "premature end of file in the definitions", 0, 0 },
		{ "\x7fTRACE0\nR 4\ntsv 1:0:0:alpha\n\n\0\0", 30,
		  "offset 12: tsv line: the variable name \"alpha\" is not hex-encoded",
		  0, 0 },
	};
	unsigned int i, with;

	/* With and without visitors: a callback must not hide an error. */
	for (with = 0; with < 2; with++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct tb_error err = { 0 };
			struct tb_tfile_info info;
			struct rd_ctx c = { 0 };
			FILE *f = fmemopen((void *)cases[i].data, cases[i].len,
					   "rb");
			int ret = tb_tfile_reader_read(f, with ? &all_visitor : NULL,
						       &c, &info, &err);

			EXPECT_EQ(cases[i].ok ? 0 : -1, ret) {
				TH_LOG("case %u, visitor %u: %s", i, with,
				       ret ? err.msg : "accepted");
			}
			if (!cases[i].ok) {
				EXPECT_NE(NULL, strstr(err.msg, cases[i].msg)) {
					TH_LOG("case %u: \"%s\"", i, err.msg);
				}
			} else {
				EXPECT_EQ(cases[i].frames, info.frames);
				EXPECT_EQ(1, info.warnings);
			}
			if (cases[i].ok && with) {
				EXPECT_NE(NULL, strstr(c.warning,
						       cases[i].msg)) {
					TH_LOG("case %u: \"%s\"", i,
					       c.warning);
				}
			}
			fclose(f);
		}
	}
}

TEST_HARNESS_MAIN
