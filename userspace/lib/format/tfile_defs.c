// SPDX-License-Identifier: GPL-2.0
/* The definitions of a GDB trace file; see format/tfile_defs.h. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/tfile_defs.h"
#include "util/buf.h"

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
static int parse_status(struct tb_tfile_rd *r, const char *s, uint64_t at)
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
static int parse_tsv(struct tb_tfile_rd *r, const char *p, uint64_t at)
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

static int tp_ref(struct tb_tfile_rd *r, uint64_t num, uint64_t addr, uint64_t at,
		  bool defined)
{
	if (tb_buf_array_grow(&r->tps, &r->cap_tps, r->ntps + 1,
			      sizeof(*r->tps))) {
		tb_error_set(r->err, at, "out of memory");
		return -1;
	}
	r->tps[r->ntps++] = (struct tb_tfile_rd_tp){ num, addr, at, defined };
	return 0;
}

static int cmp_tp(const void *a, const void *b)
{
	const struct tb_tfile_rd_tp *x = a, *y = b;

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
static int check_tps(struct tb_tfile_rd *r)
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
static int parse_tp(struct tb_tfile_rd *r, const char *p, uint64_t at)
{
	char piece = *p;
	uint64_t num, addr;
	const char *c;

	p = step(p);
	p = step(hex_num(p, &num));
	p = step(hex_num(p, &addr));
	if (!strchr("TASZV", piece) || !piece) {
		tb_tfile_rd_warn(r, at, "tp line with an unknown piece '%c' ignored (gdb ignores it too)",
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

static int interpret(struct tb_tfile_rd *r, const char *line, uint64_t at)
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
		tb_tfile_rd_warn(r, at, "definition \"%.40s\" ignored (gdb ignores it too)",
				 line);
	return 0;
}

int tb_tfile_defs_read(struct tb_tfile_rd *r)
{
	char line[TB_TFILE_MAX_LINE + 1];
	int ret;

	for (;;) {
		uint64_t at = r->off;
		size_t n = 0;

		for (;;) {
			uint8_t c;

			if (!tb_tfile_rd_fill(r, 1)) {
				tb_error_set(r->err, r->off,
					     "premature end of file in the definitions");
				return -1;
			}
			c = r->buf[r->pos];
			tb_tfile_rd_take(r, 1);
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
			tb_tfile_rd_warn(r, at,
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

