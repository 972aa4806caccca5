// SPDX-License-Identifier: GPL-2.0
/* GDB trace file reader; see tfile_reader.h. */
#include <stdlib.h>
#include <string.h>

#include "tb_bytes.h"
#include "tfile_reader.h"

struct rd {
	FILE *f;
	uint64_t off;
	struct tb_error *err;
};

static int get(struct rd *r, void *buf, size_t n, const char *what)
{
	size_t got = fread(buf, 1, n, r->f);

	if (got != n) {
		tb_seterr(r->err, r->off + got,
			  "premature end of file in %s", what);
		return -1;
	}
	r->off += n;
	return 0;
}

/* Reads one line; returns its length, -1 on error. */
static int get_line(struct rd *r, char *buf)
{
	size_t n = 0;
	int c;

	for (;;) {
		c = getc(r->f);
		if (c == EOF) {
			tb_seterr(r->err, r->off + n,
				  "premature end of file in the definitions");
			return -1;
		}
		if (c == '\n')
			break;
		if (n == TB_TFILE_MAX_LINE - 1) {
			tb_seterr(r->err, r->off,
				  "definition line longer than %d bytes",
				  TB_TFILE_MAX_LINE);
			return -1;
		}
		buf[n++] = (char)c;
	}
	buf[n] = 0;
	r->off += n + 1;
	return (int)n;
}

static unsigned long long hexval(const char *s, const char **end)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 16);

	*end = e;
	return v;
}

static int definitions(struct rd *r, const struct tb_tfile_visitor *v,
		       void *ctx, struct tb_tfile_info *info)
{
	char *line = malloc(TB_TFILE_MAX_LINE);
	int ret = -1;

	if (!line) {
		tb_seterr(r->err, r->off, "out of memory");
		return -1;
	}
	for (;;) {
		uint64_t at = r->off;
		const char *end;
		int n = get_line(r, line);

		if (n < 0)
			goto out;
		if (!n)
			break;
		if (!strncmp(line, "R ", 2)) {
			unsigned long long sz = hexval(line + 2, &end);

			if (end == line + 2 || *end || !sz ||
			    sz > TB_TFILE_MAX_REGS) {
				tb_seterr(r->err, at,
					  "bad register block size line \"%.40s\"",
					  line);
				goto out;
			}
			info->reg_size = (unsigned int)sz;
		} else if (!strncmp(line, "status ", 7)) {
			const char *p = strstr(line, "tframes:");

			if (p)
				info->status_frames = hexval(p + 8, &end);
		} else if (!strncmp(line, "tp T", 4)) {
			info->tracepoints++;
		} else if (!strncmp(line, "tsv ", 4)) {
			info->tsvs++;
		}
		if (v && v->line) {
			int cb = v->line(ctx, line);

			if (cb) {
				ret = cb;
				goto out;
			}
		}
	}
	if (!info->reg_size) {
		tb_seterr(r->err, r->off,
			  "no register block size recorded in trace file");
		goto out;
	}
	ret = 0;
out:
	free(line);
	return ret;
}

static int frames(struct rd *r, const struct tb_tfile_visitor *v, void *ctx,
		  struct tb_tfile_info *info)
{
	uint8_t *buf = malloc(info->reg_size > 65535 ? info->reg_size : 65535);
	int ret = -1;

	if (!buf) {
		tb_seterr(r->err, r->off, "out of memory");
		return -1;
	}
	for (;;) {
		uint8_t h[6];
		uint64_t at = r->off;
		uint32_t size, used = 0;
		unsigned int tp;

		if (get(r, h, 2, "a frame header"))
			goto out;
		tp = tb_get16(h);
		if (!tp)
			break;
		if (get(r, h + 2, 4, "a frame header"))
			goto out;
		size = tb_get32(h + 2);
		info->frames++;
		if (v && v->frame) {
			ret = v->frame(ctx, tp, at, size);
			if (ret)
				goto out;
			ret = -1;
		}
		while (used < size) {
			struct tb_tfile_block b = { .offset = r->off };
			uint8_t t[13];
			uint32_t need;

			if (get(r, t, 1, "a block type"))
				goto out;
			b.type = (char)t[0];
			switch (b.type) {
			case 'R':
				need = 1 + info->reg_size;
				break;
			case 'M':
				if (size - used < 11)
					need = 11;
				else if (get(r, t + 1, 10, "a memory block"))
					goto out;
				else
					need = 11 + tb_get16(t + 9);
				break;
			case 'V':
				need = 13;
				break;
			default:
				tb_seterr(r->err, b.offset,
					  "unknown block type 0x%02x in trace frame",
					  t[0]);
				goto out;
			}
			if (need > size - used) {
				tb_seterr(r->err, b.offset,
					  "%c block of %u bytes overruns its %u-byte frame",
					  b.type, need, size);
				goto out;
			}
			if (b.type == 'R') {
				b.len = info->reg_size;
				if (get(r, buf, b.len, "a register block"))
					goto out;
				b.data = buf;
			} else if (b.type == 'M') {
				b.addr = tb_get64(t + 1);
				b.len = tb_get16(t + 9);
				if (get(r, buf, b.len, "a memory block"))
					goto out;
				b.data = buf;
			} else {
				if (get(r, t + 1, 12, "a variable block"))
					goto out;
				b.num = (int32_t)tb_get32(t + 1);
				b.value = (int64_t)tb_get64(t + 5);
			}
			used += need;
			if (v && v->block) {
				ret = v->block(ctx, &b);
				if (ret)
					goto out;
				ret = -1;
			}
		}
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

int tb_tfile_read(FILE *f, const struct tb_tfile_visitor *v, void *ctx,
		  struct tb_tfile_info *info, struct tb_error *err)
{
	static const char magic[8] = "\x7fTRACE0\n";
	struct tb_tfile_info local;
	struct rd r = { .f = f, .err = err };
	char h[8];
	int ret;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	if (fread(h, 1, 8, f) != 8 || memcmp(h, magic, 8)) {
		tb_seterr(err, 0, "not a trace file (bad \\x7fTRACE0 header)");
		return -1;
	}
	r.off = 8;
	ret = definitions(&r, v, ctx, info);
	if (ret)
		return ret;
	return frames(&r, v, ctx, info);
}
