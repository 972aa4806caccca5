/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test file generators: XRay FDR files of every version (including the
 * fixed-size thread buffers of compiler-rt's first FDR runtime) and GDB
 * trace files, built byte by byte here so that tests never depend on files
 * made elsewhere.  The same builders write the fuzzers' seed files
 * (corpus_test checks the committed seeds are what they produce).
 * Header-only because each test source file is its own test binary.
 */
#ifndef TB_GEN_H
#define TB_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/fdr_records.h"
#include "util/bytes.h"

/* ---- a growable byte buffer ---- */

struct gb {
	uint8_t *p;
	size_t n;
	size_t cap;
};

/* @n zero bytes at the end of @g; returns where they start. */
static inline uint8_t *gb_space(struct gb *g, size_t n)
{
	if (g->n + n > g->cap) {
		size_t cap = g->cap ? g->cap : 256;

		while (cap < g->n + n)
			cap *= 2;
		g->p = realloc(g->p, cap);
		if (!g->p) {
			perror("realloc");
			exit(1);
		}
		g->cap = cap;
	}
	memset(g->p + g->n, 0, n);
	g->n += n;
	return g->p + g->n - n;
}

static inline void gb_bytes(struct gb *g, const void *p, size_t n)
{
	memcpy(gb_space(g, n), p, n);
}

static inline void gb_str(struct gb *g, const char *s)
{
	gb_bytes(g, s, strlen(s));
}

static inline void gb_free(struct gb *g)
{
	free(g->p);
	memset(g, 0, sizeof(*g));
}

static inline int gb_write(const struct gb *g, const char *path)
{
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (!f)
		return -1;
	if (g->n && fwrite(g->p, 1, g->n, f) != g->n)
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* ---- XRay FDR ---- */

static inline void gf_header(struct gb *g, unsigned int version,
			     unsigned int type, uint64_t buffer_size)
{
	uint8_t *h = gb_space(g, TB_FDR_HEADER_SIZE);

	tb_bytes_put16(h, (uint16_t)version);
	tb_bytes_put16(h + 2, (uint16_t)type);
	tb_bytes_put32(h + 4, TB_FDR_FLAG_CONSTANT_TSC | TB_FDR_FLAG_NONSTOP_TSC);
	tb_bytes_put64(h + 8, 1000000000);
	tb_bytes_put64(h + 16, buffer_size);
}

/* A metadata record of @kind; returns its 15-byte body. */
static inline uint8_t *gf_meta(struct gb *g, unsigned int kind)
{
	uint8_t *p = gb_space(g, TB_FDR_META_SIZE);

	p[0] = (uint8_t)(kind << 1 | 1);
	return p + 1;
}

static inline void gf_func(struct gb *g, unsigned int type, uint32_t id,
			   uint32_t delta)
{
	uint8_t *p = gb_space(g, TB_FDR_FUNC_SIZE);

	tb_bytes_put32(p, id << 4 | type << 1);
	tb_bytes_put32(p + 4, delta);
}

static inline void gf_new_buffer(struct gb *g, int32_t tid)
{
	tb_bytes_put32(gf_meta(g, TB_FDR_NEW_BUFFER), (uint32_t)tid);
}

static inline void gf_wallclock(struct gb *g, uint64_t s, uint32_t us)
{
	uint8_t *p = gf_meta(g, TB_FDR_WALLCLOCK);

	tb_bytes_put64(p, s);
	tb_bytes_put32(p + 8, us);
}

static inline void gf_pid(struct gb *g, int32_t pid)
{
	tb_bytes_put32(gf_meta(g, TB_FDR_PID), (uint32_t)pid);
}

static inline void gf_cpu(struct gb *g, uint16_t cpu, uint64_t tsc)
{
	uint8_t *p = gf_meta(g, TB_FDR_NEW_CPU);

	tb_bytes_put16(p, cpu);
	tb_bytes_put64(p + 2, tsc);
}

static inline void gf_wrap(struct gb *g, uint64_t tsc)
{
	tb_bytes_put64(gf_meta(g, TB_FDR_TSC_WRAP), tsc);
}

static inline void gf_arg(struct gb *g, uint64_t v)
{
	tb_bytes_put64(gf_meta(g, TB_FDR_CALL_ARG), v);
}

static inline void gf_eob(struct gb *g)
{
	gf_meta(g, TB_FDR_END_OF_BUFFER);
}

/* A BufferExtents record; returns its offset for gf_extents_end(). */
static inline size_t gf_extents(struct gb *g, uint64_t size)
{
	size_t at = g->n;

	tb_bytes_put64(gf_meta(g, TB_FDR_BUFFER_EXTENTS), size);
	return at;
}

/* Make the extent at @at cover everything written after it. */
static inline void gf_extents_end(struct gb *g, size_t at)
{
	tb_bytes_put64(g->p + at + 1, g->n - at - TB_FDR_META_SIZE);
}

/*
 * A custom event in the layout of @version: @tsc is the absolute TSC
 * (versions 1-4) or the delta (version 5).  @cpu goes where version 4
 * has its CPU field, in versions 1-3 too, where the field is unused
 * bytes that llvm-xray fdr-dump prints all the same.
 */
static inline void gf_custom(struct gb *g, unsigned int version,
			     const void *data, int32_t size, uint64_t tsc,
			     uint16_t cpu)
{
	uint8_t *p = gf_meta(g, TB_FDR_CUSTOM);

	tb_bytes_put32(p, (uint32_t)size);
	if (version >= 5) {
		tb_bytes_put32(p + 4, (uint32_t)tsc);
	} else {
		tb_bytes_put64(p + 4, tsc);
		tb_bytes_put16(p + 12, cpu);
	}
	if (size > 0)
		gb_bytes(g, data, (size_t)size);
}

static inline void gf_typed(struct gb *g, const void *data, int32_t size,
			    int32_t delta, uint16_t type)
{
	uint8_t *p = gf_meta(g, TB_FDR_TYPED);

	tb_bytes_put32(p, (uint32_t)size);
	tb_bytes_put32(p + 4, (uint32_t)delta);
	tb_bytes_put16(p + 8, type);
	if (size > 0)
		gb_bytes(g, data, (size_t)size);
}

static inline unsigned int gen_rand(unsigned int *seed, unsigned int n)
{
	return n ? (unsigned int)rand_r(seed) % n : 0;
}

/*
 * The body of one thread buffer: function records (with arguments),
 * custom events, TSC wraps and CPU changes, at most @bytes long.  In
 * version 1 payloads are multiples of 8 bytes, so that records stay
 * aligned with the zero padding after EndOfBuffer.  Returns the number
 * of function records.
 */
static inline unsigned int gf_body(struct gb *g, unsigned int version,
				   unsigned int *seed, size_t bytes,
				   uint64_t tsc)
{
	static const char text[] = "payload-of-a-custom-event";
	size_t start = g->n;
	unsigned int depth = 0, funcs = 0;

	for (;;) {
		unsigned int r = gen_rand(seed, 100);
		size_t left = bytes - (g->n - start);
		uint32_t delta = gen_rand(seed, 1000);

		/* The largest step: a call with 3 arguments, 56 bytes. */
		if (g->n - start >= bytes || left < 64)
			break;
		if (r < 5) {
			gf_wrap(g, tsc += 1ULL << 33);
		} else if (r < 8) {
			gf_cpu(g, (uint16_t)gen_rand(seed, 4), tsc += 7);
		} else if (r < 12) {
			int32_t n = 1 + (int32_t)gen_rand(seed,
							  sizeof(text) - 1);

			if (version == 1)
				n = 8 * (1 + (int32_t)gen_rand(seed, 3));

			tsc += delta;
			gf_custom(g, version, text, n,
				  version >= 5 ? delta : tsc, 1);
		} else if (r < 15 && version >= 5) {
			tsc += delta;
			gf_typed(g, text, 4, (int32_t)delta, 7);
		} else if (r < 25) {
			unsigned int i, n = 1 + gen_rand(seed, 3);

			gf_func(g, TB_FDR_ENTER_ARGS, 1 + gen_rand(seed, 9),
				delta);
			for (i = 0; i < n; i++)
				gf_arg(g, (uint64_t)rand_r(seed) << 20 | i);
			tsc += delta;
			depth++;
			funcs++;
		} else if (r < 60 || !depth) {
			gf_func(g, TB_FDR_ENTER, 1 + gen_rand(seed, 9), delta);
			tsc += delta;
			depth++;
			funcs++;
		} else {
			gf_func(g, r < 95 ? TB_FDR_EXIT : TB_FDR_TAIL_EXIT,
				1 + gen_rand(seed, 9), delta);
			tsc += delta;
			depth--;
			funcs++;
		}
	}
	return funcs;
}

/*
 * A file as compiler-rt's first FDR runtime (version 1) wrote it: @nbuf
 * thread buffers of exactly @bufsize bytes each, every one NewBuffer,
 * WallClockTime, NewCPUId, records, EndOfBuffer, then zero bytes up to
 * the buffer size.  @bufsize should be a multiple of 8.
 */
static inline unsigned int gf_v1_file(struct gb *g, unsigned int *seed,
				      size_t bufsize, unsigned int nbuf)
{
	unsigned int i, funcs = 0;

	gf_header(g, 1, TB_FDR_TYPE_FDR, bufsize);
	for (i = 0; i < nbuf; i++) {
		size_t start = g->n;
		uint64_t tsc = 1000000ULL * (i + 1);

		gf_new_buffer(g, 100 + (int32_t)(i % 3));
		gf_wallclock(g, 1700000000ULL + i, 0);
		gf_cpu(g, (uint16_t)(i % 2), tsc);
		funcs += gf_body(g, 1, seed, bufsize - 4 * TB_FDR_META_SIZE,
				 tsc);
		gf_eob(g);
		if (g->n - start < bufsize)
			gb_space(g, bufsize - (g->n - start));
	}
	return funcs;
}

/*
 * A file of @version as the later runtimes wrote it: per thread buffer a
 * BufferExtents record (version 3+; version 2 has it too), NewBuffer,
 * WallClockTime, PIDEntry (3+), NewCPUId, records.
 */
static inline unsigned int gf_file(struct gb *g, unsigned int version,
				   unsigned int *seed, unsigned int nbuf,
				   size_t bytes)
{
	unsigned int i, funcs = 0;

	gf_header(g, version, TB_FDR_TYPE_FDR, 0);
	for (i = 0; i < nbuf; i++) {
		size_t ext = 0;
		uint64_t tsc = 5000000ULL * (i + 1);

		if (version >= 2)
			ext = gf_extents(g, 0);
		gf_new_buffer(g, 200 + (int32_t)(i % 2));
		gf_wallclock(g, 1700000000ULL + i, 250);
		if (version >= 3)
			gf_pid(g, 4242);
		gf_cpu(g, (uint16_t)i, tsc);
		funcs += gf_body(g, version, seed, bytes, tsc);
		if (version == 1)
			gf_eob(g);
		if (version >= 2)
			gf_extents_end(g, ext);
	}
	return funcs;
}

/* ---- GDB trace files ---- */

static inline void gt_hex(struct gb *g, const char *s)
{
	static const char digits[] = "0123456789abcdef";

	for (; *s; s++) {
		uint8_t *p = gb_space(g, 2);

		p[0] = (uint8_t)digits[(uint8_t)*s >> 4];
		p[1] = (uint8_t)digits[(uint8_t)*s & 15];
	}
}

static inline void gt_line(struct gb *g, const char *s)
{
	gb_str(g, s);
	gb_str(g, "\n");
}

/*
 * The definitions of a small valid file: header, R, status with
 * @frames, two variables, one tracepoint at 0x401000 collecting $alpha.
 * The empty line that ends the definitions is not written.
 */
static inline void gt_defs(struct gb *g, unsigned int frames)
{
	char line[160];

	gb_str(g, "\x7fTRACE0\n");
	gt_line(g, "R 8");
	snprintf(line, sizeof(line),
		 "status 0;tstop::0;tframes:%x;tcreated:%x;tfree:0;tsize:0;circular:0;disconn:0",
		 frames, frames);
	gt_line(g, line);
	gb_str(g, "tsv 1:0:0:");
	gt_hex(g, "alpha");
	gt_line(g, "");
	gb_str(g, "tsv 2:7:0:");
	gt_hex(g, "beta");
	gt_line(g, "");
	gt_line(g, "tp T1:401000:E:0:0");
	gb_str(g, "tp Z1:401000:at:0:9:");
	gt_hex(g, "*0x401000");
	gt_line(g, "");
	gb_str(g, "tp Z1:401000:cmd:0:e:");
	gt_hex(g, "collect $alpha");
	gt_line(g, "");
}

/* A frame header; returns its offset for gt_frame_end(). */
static inline size_t gt_frame(struct gb *g, int16_t tp)
{
	size_t at = g->n;
	uint8_t *p = gb_space(g, 6);

	tb_bytes_put16(p, (uint16_t)tp);
	return at;
}

/* Make the frame at @at as long as what was written after its header. */
static inline void gt_frame_end(struct gb *g, size_t at)
{
	tb_bytes_put32(g->p + at + 2, (uint32_t)(g->n - at - 6));
}

static inline void gt_v(struct gb *g, int32_t num, int64_t value)
{
	uint8_t *p = gb_space(g, 13);

	p[0] = 'V';
	tb_bytes_put32(p + 1, (uint32_t)num);
	tb_bytes_put64(p + 5, (uint64_t)value);
}

static inline void gt_m(struct gb *g, uint64_t addr, const void *data,
			uint16_t len)
{
	uint8_t *p = gb_space(g, 11);

	p[0] = 'M';
	tb_bytes_put64(p + 1, addr);
	tb_bytes_put16(p + 9, len);
	gb_bytes(g, data, len);
}

static inline void gt_r(struct gb *g, unsigned int size, uint8_t fill)
{
	uint8_t *p = gb_space(g, 1 + size);

	p[0] = 'R';
	memset(p + 1, fill, size);
}

/* Frame @i of the small valid file: $alpha = i, memory at 0x500000. */
static inline void gt_std_frame(struct gb *g, unsigned int i)
{
	uint8_t mem[4] = { (uint8_t)i, 1, 2, 3 };
	size_t f = gt_frame(g, 1);

	gt_v(g, 1, i);
	gt_v(g, 2, 10 * (int64_t)i);
	gt_m(g, 0x500000, mem, sizeof(mem));
	gt_frame_end(g, f);
}

static inline void gt_end(struct gb *g)
{
	gb_space(g, 4);
}

#endif /* TB_GEN_H */
