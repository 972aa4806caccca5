// SPDX-License-Identifier: GPL-2.0
/*
 * GDB trace file reader; see format/tfile_reader.h.
 *
 * When it opens a file, gdb 13 reads the definition lines and refuses the
 * file for a few reasons only: a bad header, the end of the file inside
 * the definitions, a line of 1000 bytes or more, no non-zero register
 * size (the last "R" line wins), a status line its parser cannot walk,
 * and hex fields (variable names, tracepoint source strings, status
 * texts) with a character that is not a hex digit.  Everything else is
 * read or ignored.  The frames are only read by `tfind`, which selects a
 * frame by its header and then fetches its registers: it walks the blocks
 * up to the first R block (reading each block type, an M block's length
 * and the registers, skipping the rest), so a frame whose walk hits an
 * unknown block type or the end of the file before an R block cannot be
 * selected, and `tfind` gets no further.  Blocks that run past the end of
 * their frame are not an error for gdb: it reads the bytes that follow.
 * This reader follows the same steps to reach the same verdict and frame
 * count, and warns about what gdb tolerates.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/tfile_defs.h"
#include "format/tfile_rd.h"
#include "format/tfile_reader.h"
#include "util/bytes.h"

/* ---- frames ---- */

/* How a frame's block walk ended. */
enum walk {
	W_DONE,		/* every block read, or the rest of the frame skipped */
	W_FAIL,		/* a read gdb's register fetch makes fails here */
	W_EOF,		/* the file ends where gdb's walk does not read */
};

struct frame {
	uint32_t size;
	uint32_t pos;		/* bytes of the frame walked */
	bool regs;		/* an R block was read: gdb can select it */
	bool eof;		/* the walk stopped at the end of the file */
	char why[160];		/* why the walk stopped early */
};

static int deliver(struct tb_tfile_rd *r, const struct tb_tfile_block *b)
{
	if (!r->v || !r->v->block)
		return 0;
	return r->v->block(r->ctx, b);
}

/* Skip @n bytes; false at the end of the file. */
static bool skip(struct tb_tfile_rd *r, uint64_t n)
{
	while (n) {
		size_t got = tb_tfile_rd_fill(r, 1);

		if (!got)
			return false;
		if (got > n)
			got = (size_t)n;
		tb_tfile_rd_take(r, got);
		n -= got;
	}
	return true;
}

static enum walk stop(struct frame *fr, enum walk w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum walk stop(struct frame *fr, enum walk w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fr->why, sizeof(fr->why), fmt, ap);
	va_end(ap);
	return w;
}

/* The R block at buf[pos]: gdb reads it, even past the frame. */
static enum walk reg_block(struct tb_tfile_rd *r, struct frame *fr, int *cb)
{
	struct tb_tfile_block b = { .type = 'R', .offset = r->off };
	int size = r->info->reg_size;
	uint64_t need = 1 + (uint64_t)size;

	if (size < 0)
		return stop(fr, W_FAIL, "R block with a register size of %d",
			    size);
	if (need > fr->size - fr->pos) {
		/* Checked up to what we can read ahead. */
		if (size <= (int)TB_TFILE_MAX_REGS && tb_tfile_rd_fill(r, need) < need) {
			fr->eof = true;
			return stop(fr, W_FAIL,
				    "the file ends inside an R block");
		}
		fr->regs = true;
		return stop(fr, W_DONE,
			    "R block of %llu bytes overruns its %u-byte frame (gdb takes the registers from the bytes that follow)",
			    (unsigned long long)need, fr->size);
	}
	if (size > (int)TB_TFILE_MAX_REGS) {
		if (!skip(r, need)) {
			fr->eof = true;
			return stop(fr, W_FAIL,
				    "the file ends inside an R block");
		}
		if (!fr->regs)
			tb_tfile_rd_warn(r, b.offset,
					 "R block of %llu bytes not read (larger than %u)",
					 (unsigned long long)need, TB_TFILE_MAX_REGS);
	} else {
		if (tb_tfile_rd_fill(r, need) < need) {
			fr->eof = true;
			return stop(fr, W_FAIL,
				    "the file ends inside an R block");
		}
		b.len = (uint32_t)size;
		b.data = r->buf + r->pos + 1;
		*cb = deliver(r, &b);
		tb_tfile_rd_take(r, need);
	}
	fr->regs = true;
	fr->pos += need;
	return W_DONE;
}

/*
 * Walk one frame's blocks, handing out the whole ones.  Returns how the
 * walk ended; fr->why says why it stopped early.
 */
static enum walk walk(struct tb_tfile_rd *r, struct frame *fr, int *cb)
{
	while (fr->pos < fr->size && !*cb) {
		struct tb_tfile_block b = { .offset = r->off };
		uint32_t left = fr->size - fr->pos;
		const uint8_t *p;
		uint64_t need;
		enum walk w;

		if (!tb_tfile_rd_fill(r, 1)) {
			fr->eof = true;
			return stop(fr, W_FAIL,
				    "the file ends inside the frame");
		}
		b.type = (char)r->buf[r->pos];
		switch (b.type) {
		case 'R':
			w = reg_block(r, fr, cb);
			if (w != W_DONE || fr->why[0])
				return w;
			continue;
		case 'M':
			/* gdb reads the length, even past the frame. */
			if (tb_tfile_rd_fill(r, 11) < 11) {
				fr->eof = true;
				return stop(fr, W_FAIL,
					    "the file ends inside an M block header");
			}
			need = 11 + (uint64_t)tb_bytes_get16(r->buf + r->pos + 9);
			break;
		case 'V':
			need = 13;
			break;
		default:
			return stop(fr, W_FAIL,
				    "unknown block type 0x%02x in trace frame",
				    (uint8_t)b.type);
		}
		if (need > left)
			return stop(fr, W_DONE,
				    "%c block of %llu bytes overruns its frame (%u bytes left): gdb shows the frame up to here",
				    b.type, (unsigned long long)need, left);
		if (tb_tfile_rd_fill(r, need) < need) {
			/*
			 * gdb's walk skips block contents, but reads the type
			 * of the next block if the frame has one.
			 */
			fr->eof = true;
			return stop(fr, need < left ? W_FAIL : W_EOF,
				    "the file ends inside a %c block", b.type);
		}
		p = r->buf + r->pos;
		if (b.type == 'M') {
			b.addr = tb_bytes_get64(p + 1);
			b.len = tb_bytes_get16(p + 9);
			b.data = p + 11;
		} else {
			b.num = (int32_t)tb_bytes_get32(p + 1);
			b.value = (int64_t)tb_bytes_get64(p + 5);
		}
		*cb = deliver(r, &b);
		tb_tfile_rd_take(r, need);
		fr->pos += need;
	}
	return W_DONE;
}

/*
 * One frame whose header was read: 1 to go on with the next frame, 0 to
 * stop (gdb's tfind gets no further), or a callback's value.
 */
static int one_frame(struct tb_tfile_rd *r, unsigned int tp, uint32_t size,
		     uint64_t at)
{
	struct frame fr = { .size = size };
	uint64_t n = r->info->frames;
	enum walk w;
	int cb = 0;

	if (r->v && r->v->frame) {
		cb = r->v->frame(r->ctx, tp, at, size);
		if (cb)
			return cb;
	}
	w = walk(r, &fr, &cb);
	if (cb)
		return cb;
	if (w == W_FAIL && !fr.regs) {
		tb_tfile_rd_warn(r, at,
				 "frame %llu (tracepoint %u): %s: gdb cannot select it, so reading stops after %llu frames",
				 (unsigned long long)n, tp, fr.why,
				 (unsigned long long)n);
		return 0;
	}
	/* Selected by gdb: what comes after its R block does not matter. */
	r->info->frames++;
	if (fr.why[0])
		tb_tfile_rd_warn(r, at, "frame %llu (tracepoint %u): %s%s",
				 (unsigned long long)n, tp, fr.why,
				 w == W_DONE ? "" : "; the rest of the frame is not read");
	if (fr.eof)
		return 0;
	/* The next frame starts where this one's size says. */
	if (!skip(r, size - fr.pos)) {
		tb_tfile_rd_warn(r, r->off,
				 "no end marker: the file ends inside frame %llu",
				 (unsigned long long)n);
		return 0;
	}
	return 1;
}

static int read_frames(struct tb_tfile_rd *r)
{
	for (;;) {
		uint64_t at = r->off;
		size_t have = tb_tfile_rd_fill(r, 6);
		unsigned int tp;
		uint32_t size;
		int ret;

		if (!have) {
			tb_tfile_rd_warn(r, at,
					 "no end marker: the file ends after %llu frames",
					 (unsigned long long)r->info->frames);
			return 0;
		}
		if (have < 2) {
			tb_tfile_rd_warn(r, at,
					 "truncated end marker (1 of 2 bytes): the file ends after %llu frames",
					 (unsigned long long)r->info->frames);
			return 0;
		}
		tp = tb_bytes_get16(r->buf + r->pos);
		if (!tp) {
			tb_tfile_rd_take(r, 2);
			return 0;
		}
		if (have < 6) {
			tb_tfile_rd_warn(r, at,
					 "truncated frame header (%zu of 6 bytes): the file ends after %llu frames",
					 have, (unsigned long long)r->info->frames);
			return 0;
		}
		size = tb_bytes_get32(r->buf + r->pos + 2);
		tb_tfile_rd_take(r, 6);
		ret = one_frame(r, tp, size, at);
		if (ret != 1)
			return ret;
	}
}

int tb_tfile_reader_read(FILE *f, const struct tb_tfile_visitor *v, void *ctx,
			 struct tb_tfile_info *info, struct tb_error *err)
{
	static const char magic[8] = "\x7fTRACE0\n";
	struct tb_tfile_info local;
	struct tb_tfile_rd r = {
		.f = f, .v = v, .ctx = ctx, .err = err,
	};
	int ret;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	r.info = info;
	r.cap = TB_TFILE_RD_AHEAD;
	r.buf = malloc(r.cap);
	if (!r.buf) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	if (tb_tfile_rd_fill(&r, 8) < 8 || memcmp(r.buf, magic, 8)) {
		tb_error_set(err, 0, "not a trace file (bad \\x7fTRACE0 header)");
		ret = -1;
		goto out;
	}
	tb_tfile_rd_take(&r, 8);
	ret = tb_tfile_defs_read(&r);
	if (!ret)
		ret = read_frames(&r);
out:
	free(r.buf);
	free(r.tps);
	return ret;
}

