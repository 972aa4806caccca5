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
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/tfile_reader.h"
#include "util/buf.h"
#include "util/bytes.h"

#define READ_AHEAD	(128U * 1024)

struct rd {
	FILE *f;
	uint64_t off;		/* file offset of buf[pos] */
	uint8_t *buf;
	size_t cap;
	size_t pos;
	size_t len;
	const struct tb_tfile_visitor *v;
	void *ctx;
	struct tb_tfile_info *info;
	struct tb_error *err;
	bool cr_warned;
	struct tp_ref *tps;	/* tracepoints the "tp" lines name */
	size_t ntps;
	size_t cap_tps;
};

/* A tracepoint a "tp" line names; gdb keys them by number and address. */
struct tp_ref {
	uint64_t num;
	uint64_t addr;
	uint64_t at;		/* offset of the line */
	bool defined;		/* a "tp T" line */
};

/* Make @n bytes available at buf[pos]; returns how many there are. */
static size_t fill(struct rd *r, size_t n)
{
	size_t got;

	if (r->len - r->pos >= n)
		return r->len - r->pos;
	if (n > r->cap) {
		uint8_t *p = malloc(n);

		if (!p)
			return r->len - r->pos;
		memcpy(p, r->buf + r->pos, r->len - r->pos);
		free(r->buf);
		r->buf = p;
		r->cap = n;
	} else {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	}
	r->len -= r->pos;
	r->pos = 0;
	while (r->len < n) {
		got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
		if (!got)
			break;
		r->len += got;
	}
	return r->len;
}

static void take(struct rd *r, size_t n)
{
	r->pos += n;
	r->off += n;
}

static void warn(struct rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct rd *r, uint64_t off, const char *fmt, ...)
{
	struct tb_error w;
	char msg[sizeof(w.msg)];
	va_list ap;

	r->info->warnings++;
	if (!r->v || !r->v->warning)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tb_error_set(&w, off, "%s", msg);
	r->v->warning(r->ctx, &w);
}

/* ---- definitions ---- */

static const char *skip_hex(const char *p)
{
	while (isxdigit((unsigned char)*p))
		p++;
	return p;
}

/* Past one separator, but never past the end of the line. */
static const char *step(const char *p)
{
	return *p ? p + 1 : p;
}

/*
 * gdb decodes @pairs hex digit pairs, stopping early at the end of the
 * string; anything else that is not a hex digit makes it fail.
 */
static bool hex_ok(const char *p, long pairs)
{
	long i;

	for (i = 0; i < pairs; i++, p += 2) {
		if (!p[0] || !p[1])
			return true;
		if (!isxdigit((unsigned char)p[0]) ||
		    !isxdigit((unsigned char)p[1]))
			return false;
	}
	return true;
}

/* gdb matches a status key against a name as a prefix of that name. */
static bool key_is(const char *p, size_t len, const char *name)
{
	return !strncmp(p, name, len);
}

/*
 * Walk a "status" line as gdb's status parser does: after the running
 * flag, items "key:value" separated by one character (';').
 */
static int parse_status(struct rd *r, const char *s, uint64_t at)
{
	static const char *const plain[] = {
		"tframes", "tcreated", "tfree", "tsize", "disconn",
		"circular", "starttime", "stoptime",
	};
	const char *p = s, *colon, *semi, *q, *c2;
	size_t len, i;

	if (!*p)
		return 0;
	p++;			/* running: '1' or anything else */
	r->info->status_frames = 0;
	while (*p++) {
		colon = strchr(p, ':');
		if (!colon) {
			tb_error_set(r->err, at,
				     "status line: malformed at \"%.40s\"%s (gdb: Malformed trace status)",
				     p, s[strlen(s) - 1] == '\r' ?
				     ", after a carriage return" : "");
			return -1;
		}
		semi = strchr(p, ';');
		if (!semi)
			semi = p + strlen(p);
		len = (size_t)(colon - p);
		if (key_is(p, len, "tfull") || key_is(p, len, "tnotrun") ||
		    key_is(p, len, "tpasscount")) {
			p = skip_hex(colon + 1);
			continue;
		}
		if (key_is(p, len, "tstop")) {
			q = colon + 1;
			c2 = strchr(q, ':');
			if (!c2 || c2 > semi)
				c2 = q;		/* no stop text */
			else if (!hex_ok(q, (c2 - q) / 2))
				goto bad_hex;
			p = skip_hex(c2 + 1);
			continue;
		}
		if (key_is(p, len, "tdisconnected")) {
			p = skip_hex(colon + 1);
			continue;
		}
		if (key_is(p, len, "terror")) {
			q = colon + 1;
			c2 = strchr(q, ':');
			if (!c2) {
				tb_error_set(r->err, at,
					     "status line: terror without a tracepoint number");
				return -1;
			}
			if (!hex_ok(q, (c2 - q) / 2))
				goto bad_hex;
			p = skip_hex(c2 + 1);
			continue;
		}
		for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
			if (key_is(p, len, plain[i]))
				break;
		if (i < sizeof(plain) / sizeof(plain[0])) {
			if (i == 0)
				r->info->status_frames =
					strtoull(colon + 1, NULL, 16);
			p = skip_hex(colon + 1);
			continue;
		}
		if (key_is(p, len, "username") || key_is(p, len, "notes")) {
			if (!hex_ok(colon + 1, (semi - colon - 1) / 2))
				goto bad_hex;
			p = semi;
			continue;
		}
		/* Unknown keys are skipped up to the next ';'. */
		q = strchr(colon + 1, ';');
		if (!q)
			break;
		p = q;
	}
	return 0;
bad_hex:
	tb_error_set(r->err, at,
		     "status line: a text field is not hex-encoded (gdb: Invalid hex digit)");
	return -1;
}

/* "tsv NUM:INITIAL:BUILTIN:NAME", the name hex-encoded. */
static int parse_tsv(struct rd *r, const char *p, uint64_t at)
{
	p = step(skip_hex(p));
	p = step(skip_hex(p));
	p = step(skip_hex(p));
	if (!hex_ok(p, (long)strlen(p) / 2)) {
		tb_error_set(r->err, at,
			     "tsv line: the variable name \"%.40s\" is not hex-encoded (gdb: Invalid hex digit)",
			     p);
		return -1;
	}
	r->info->tsvs++;
	return 0;
}

/* A hex number as gdb reads it (digits shifted in, no overflow check). */
static const char *hex_num(const char *p, uint64_t *v)
{
	*v = 0;
	for (; isxdigit((unsigned char)*p); p++)
		*v = *v << 4 | (uint64_t)(isdigit((unsigned char)*p) ?
					  *p - '0' : (*p | 0x20) - 'a' + 10);
	return p;
}

static int tp_ref(struct rd *r, uint64_t num, uint64_t addr, uint64_t at,
		  bool defined)
{
	if (tb_buf_array_grow(&r->tps, &r->cap_tps, r->ntps + 1,
			      sizeof(*r->tps))) {
		tb_error_set(r->err, at, "out of memory");
		return -1;
	}
	r->tps[r->ntps++] = (struct tp_ref){ num, addr, at, defined };
	return 0;
}

static int cmp_tp(const void *a, const void *b)
{
	const struct tp_ref *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Every tracepoint a "tp" line names needs its "tp T" line: gdb 13 stops
 * with an internal error ("new_breakpoint_from_type: invalid type") when
 * it creates one without.
 */
static int check_tps(struct rd *r)
{
	size_t i, j;

	if (!r->ntps)
		return 0;
	qsort(r->tps, r->ntps, sizeof(*r->tps), cmp_tp);
	for (i = 0; i < r->ntps; i = j) {
		bool defined = false;

		for (j = i; j < r->ntps && r->tps[j].num == r->tps[i].num &&
		     r->tps[j].addr == r->tps[i].addr; j++)
			defined |= r->tps[j].defined;
		if (!defined) {
			tb_error_set(r->err, r->tps[i].at,
				     "tp line for tracepoint %llx at 0x%llx, which no tp T line defines (gdb 13 fails with an internal error)",
				     (unsigned long long)r->tps[i].num,
				     (unsigned long long)r->tps[i].addr);
			return -1;
		}
	}
	return 0;
}

/*
 * "tp PIECE NUM:ADDR:...".  T defines a tracepoint; A, S, Z and V add to
 * one; only source pieces (Z) have a field gdb can fail to decode.
 */
static int parse_tp(struct rd *r, const char *p, uint64_t at)
{
	char piece = *p;
	uint64_t num, addr;
	const char *c;

	p = step(p);
	p = step(hex_num(p, &num));
	p = step(hex_num(p, &addr));
	if (!strchr("TASZV", piece) || !piece) {
		warn(r, at, "tp line with an unknown piece '%c' ignored (gdb ignores it too)",
		     piece);
		return 0;
	}
	if (piece == 'T')
		r->info->tracepoints++;
	if (tp_ref(r, num, addr, at, piece == 'T'))
		return -1;
	if (piece != 'Z')
		return 0;
	c = strchr(p, ':');
	if (!c) {
		tb_error_set(r->err, at, "tp Z line: no source type");
		return -1;
	}
	p = step(skip_hex(c + 1));
	p = step(skip_hex(p));
	if (!hex_ok(p, (long)strlen(p) / 2)) {
		tb_error_set(r->err, at,
			     "tp Z line: the source text is not hex-encoded (gdb: Invalid hex digit)");
		return -1;
	}
	return 0;
}

static int interpret(struct rd *r, const char *line, uint64_t at)
{
	if (!strncmp(line, "R ", 2)) {
		/* As gdb: hex, leading junk ends it, the value is an int. */
		r->info->reg_size = (int)strtol(line + 2, NULL, 16);
		return 0;
	}
	if (!strncmp(line, "status ", 7))
		return parse_status(r, line + 7, at);
	if (!strncmp(line, "tp ", 3))
		return parse_tp(r, line + 3, at);
	if (!strncmp(line, "tsv ", 4))
		return parse_tsv(r, line + 4, at);
	if (strncmp(line, "tdesc ", 6))
		warn(r, at, "definition \"%.40s\" ignored (gdb ignores it too)",
		     line);
	return 0;
}

static int read_definitions(struct rd *r)
{
	char line[TB_TFILE_MAX_LINE + 1];
	int ret;

	for (;;) {
		uint64_t at = r->off;
		size_t n = 0;

		for (;;) {
			uint8_t c;

			if (!fill(r, 1)) {
				tb_error_set(r->err, r->off,
					     "premature end of file in the definitions");
				return -1;
			}
			c = r->buf[r->pos];
			take(r, 1);
			if (c == '\n')
				break;
			line[n++] = (char)c;
			if (n >= TB_TFILE_MAX_LINE) {
				tb_error_set(r->err, at,
					     "definition line of %d bytes or more (gdb: Excessively long lines)",
					     TB_TFILE_MAX_LINE);
				return -1;
			}
		}
		line[n] = 0;
		if (!n)
			break;
		if (interpret(r, line, at))
			return -1;
		if (line[n - 1] == '\r' && !r->cr_warned) {
			r->cr_warned = true;
			warn(r, at,
			     "definition line ends with a carriage return (gdb keeps it as part of the line)");
		}
		if (r->v && r->v->line) {
			ret = r->v->line(r->ctx, line);
			if (ret)
				return ret;
		}
	}
	if (!r->info->reg_size) {
		tb_error_set(r->err, r->off,
			     "no register block size recorded in trace file (no R line, or R 0)");
		return -1;
	}
	return check_tps(r);
}

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

static int deliver(struct rd *r, const struct tb_tfile_block *b)
{
	if (!r->v || !r->v->block)
		return 0;
	return r->v->block(r->ctx, b);
}

/* Skip @n bytes; false at the end of the file. */
static bool skip(struct rd *r, uint64_t n)
{
	while (n) {
		size_t got = fill(r, 1);

		if (!got)
			return false;
		if (got > n)
			got = (size_t)n;
		take(r, got);
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
static enum walk reg_block(struct rd *r, struct frame *fr, int *cb)
{
	struct tb_tfile_block b = { .type = 'R', .offset = r->off };
	int size = r->info->reg_size;
	uint64_t need = 1 + (uint64_t)size;

	if (size < 0)
		return stop(fr, W_FAIL, "R block with a register size of %d",
			    size);
	if (need > fr->size - fr->pos) {
		/* Checked up to what we can read ahead. */
		if (size <= (int)TB_TFILE_MAX_REGS && fill(r, need) < need) {
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
			warn(r, b.offset,
			     "R block of %llu bytes not read (larger than %u)",
			     (unsigned long long)need, TB_TFILE_MAX_REGS);
	} else {
		if (fill(r, need) < need) {
			fr->eof = true;
			return stop(fr, W_FAIL,
				    "the file ends inside an R block");
		}
		b.len = (uint32_t)size;
		b.data = r->buf + r->pos + 1;
		*cb = deliver(r, &b);
		take(r, need);
	}
	fr->regs = true;
	fr->pos += need;
	return W_DONE;
}

/*
 * Walk one frame's blocks, handing out the whole ones.  Returns how the
 * walk ended; fr->why says why it stopped early.
 */
static enum walk walk(struct rd *r, struct frame *fr, int *cb)
{
	while (fr->pos < fr->size && !*cb) {
		struct tb_tfile_block b = { .offset = r->off };
		uint32_t left = fr->size - fr->pos;
		const uint8_t *p;
		uint64_t need;
		enum walk w;

		if (!fill(r, 1)) {
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
			if (fill(r, 11) < 11) {
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
		if (fill(r, need) < need) {
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
		take(r, need);
		fr->pos += need;
	}
	return W_DONE;
}

/*
 * One frame whose header was read: 1 to go on with the next frame, 0 to
 * stop (gdb's tfind gets no further), or a callback's value.
 */
static int one_frame(struct rd *r, unsigned int tp, uint32_t size,
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
		warn(r, at,
		     "frame %llu (tracepoint %u): %s: gdb cannot select it, so reading stops after %llu frames",
		     (unsigned long long)n, tp, fr.why,
		     (unsigned long long)n);
		return 0;
	}
	/* Selected by gdb: what comes after its R block does not matter. */
	r->info->frames++;
	if (fr.why[0])
		warn(r, at, "frame %llu (tracepoint %u): %s%s",
		     (unsigned long long)n, tp, fr.why,
		     w == W_DONE ? "" : "; the rest of the frame is not read");
	if (fr.eof)
		return 0;
	/* The next frame starts where this one's size says. */
	if (!skip(r, size - fr.pos)) {
		warn(r, r->off,
		     "no end marker: the file ends inside frame %llu",
		     (unsigned long long)n);
		return 0;
	}
	return 1;
}

static int read_frames(struct rd *r)
{
	for (;;) {
		uint64_t at = r->off;
		size_t have = fill(r, 6);
		unsigned int tp;
		uint32_t size;
		int ret;

		if (!have) {
			warn(r, at,
			     "no end marker: the file ends after %llu frames",
			     (unsigned long long)r->info->frames);
			return 0;
		}
		if (have < 2) {
			warn(r, at,
			     "truncated end marker (1 of 2 bytes): the file ends after %llu frames",
			     (unsigned long long)r->info->frames);
			return 0;
		}
		tp = tb_bytes_get16(r->buf + r->pos);
		if (!tp) {
			take(r, 2);
			return 0;
		}
		if (have < 6) {
			warn(r, at,
			     "truncated frame header (%zu of 6 bytes): the file ends after %llu frames",
			     have, (unsigned long long)r->info->frames);
			return 0;
		}
		size = tb_bytes_get32(r->buf + r->pos + 2);
		take(r, 6);
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
	struct rd r = {
		.f = f, .v = v, .ctx = ctx, .err = err,
	};
	int ret;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	r.info = info;
	r.cap = READ_AHEAD;
	r.buf = malloc(r.cap);
	if (!r.buf) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	if (fill(&r, 8) < 8 || memcmp(r.buf, magic, 8)) {
		tb_error_set(err, 0, "not a trace file (bad \\x7fTRACE0 header)");
		ret = -1;
		goto out;
	}
	take(&r, 8);
	ret = read_definitions(&r);
	if (!ret)
		ret = read_frames(&r);
out:
	free(r.buf);
	free(r.tps);
	return ret;
}
