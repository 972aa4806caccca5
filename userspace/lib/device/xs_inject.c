// SPDX-License-Identifier: GPL-2.0
/* The inject file reader (device/xs_inject.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "device/xs_inject.h"
#include "format/xs.h"
#include "util/buf.h"
#include "util/parse.h"

static int events_add(struct tb_xs_events *b, const struct tracebuf_event *ev)
{
	if (tb_buf_array_grow(&b->ev, &b->cap, b->n + 1, sizeof(*b->ev)))
		return -ENOMEM;
	b->ev[b->n++] = *ev;
	return 0;
}

void tb_xs_inject_free(struct tb_xs_events *e)
{
	free(e->ev);
	memset(e, 0, sizeof(*e));
}

static int parse_vector(const char *s, uint32_t *vec)
{
	uint32_t i;

	for (i = 0; i < 8; i++)
		if (!strcasecmp(s, tb_xs_vector_name(i))) {
			*vec = i;
			return 0;
		}
	return tb_parse_u32(s, 0, 7, vec);
}

/*
 * Errors name the file, and a text line as compilers do ("NAME:LINE:
 * what"), rather than tb_error_set()'s byte offset, which says little in a
 * text file; the offset is still in err->offset.
 */
static int __attribute__((format(printf, 3, 4)))
set_err(struct tb_error *err, size_t offset, const char *fmt, ...)
{
	va_list ap;

	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

#define line_err(err, name, lineno, offset, fmt, ...) \
	set_err(err, offset, "%s:%u: " fmt, name, lineno, ##__VA_ARGS__)

#define BLANKS	" \t\r\n"

static int parse_line(char *line, const char *name, unsigned int lineno,
		      size_t offset, struct tb_xs_events *b,
		      struct tb_error *err)
{
	struct tracebuf_event ev = { 0 };
	char *word[4], *save = NULL, *hash = strchr(line, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	for (word[n] = strtok_r(line, BLANKS, &save); word[n] && n < 3;
	     word[++n] = strtok_r(NULL, BLANKS, &save))
		;
	if (n == 0)
		return 0;
	/* The loop has read one word past the third already. */
	if (n == 3 && word[3])
		return line_err(err, name, lineno, offset, "too many words");
	if (!strcmp(word[0], "exc")) {
		ev.kind = TRACEBUF_EV_EXCEPTION;
		if (n < 2 || parse_vector(word[1], &ev.arg))
			return line_err(err, name, lineno, offset,
					"exc needs a vector: undef swi pabort dabort irq fiq, 1-7");
	} else if (!strcmp(word[0], "br") || !strcmp(word[0], "ind")) {
		ev.kind = word[0][0] == 'b' ? TRACEBUF_EV_BRANCH :
					      TRACEBUF_EV_INDIRECT;
		if (n < 2 || tb_parse_u32(word[1], 0, UINT32_MAX, &ev.arg))
			return line_err(err, name, lineno, offset,
					"%s needs a 32-bit target", word[0]);
	} else {
		return line_err(err, name, lineno, offset,
				"unknown event '%s' (exc, br or ind)", word[0]);
	}
	if (n == 3 && tb_parse_u32(word[2], 0, UINT32_MAX, &ev.icount))
		return line_err(err, name, lineno, offset,
				"bad instruction count '%s'", word[2]);
	if (ev.kind == TRACEBUF_EV_EXCEPTION &&
	    (ev.arg == TRACEBUF_VEC_RESET || ev.arg == TRACEBUF_VEC_UNUSED))
		return line_err(err, name, lineno, offset,
				"the hardware never records vector %u", ev.arg);
	return events_add(b, &ev);
}

static int parse_text(const char *name, const char *data, size_t len,
		      struct tb_xs_events *out, struct tb_error *err)
{
	char *copy, *line, *next;
	unsigned int lineno = 0;
	int ret = 0;

	if (memchr(data, '\0', len))
		return set_err(err, (const char *)memchr(data, '\0', len) - data,
			       "%s: NUL byte in a text event file", name);
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	copy[len] = '\0';
	/* strtok_r would merge empty lines; count them by hand. */
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = parse_line(line, name, ++lineno, line - copy, out, err);
	}
	free(copy);
	return ret;
}

int tb_xs_inject_parse(const char *name, const void *data, size_t len,
		       enum tb_xs_inject_form form, struct tb_xs_events *out,
		       struct tb_error *err)
{
	const unsigned char *p = data;

	/* Binary records start with a kind of 1..3: a control byte. */
	if (form == TB_XS_INJECT_GUESS)
		form = len == 0 || isprint(p[0]) || isspace(p[0]) ?
		       TB_XS_INJECT_TEXT : TB_XS_INJECT_BINARY;
	if (form == TB_XS_INJECT_TEXT)
		return parse_text(name, data, len, out, err);
	if (len % sizeof(struct tracebuf_event))
		return set_err(err, len - len % sizeof(struct tracebuf_event),
			       "%s: %zu bytes is not a whole number of %zu-byte events",
			       name, len, sizeof(struct tracebuf_event));
	out->n = len / sizeof(struct tracebuf_event);
	out->cap = out->n;
	out->ev = malloc(len ? len : 1);
	if (!out->ev)
		return -ENOMEM;
	memcpy(out->ev, data, len);
	return 0;
}

int tb_xs_inject_read(FILE *in, const char *name, enum tb_xs_inject_form form,
		      struct tb_xs_events *out, struct tb_error *err)
{
	struct tb_buf b = { 0 };
	int ret;

	ret = tb_buf_read_file(&b, in);
	if (ret == -ENOMEM) {
		tb_buf_free(&b);
		return -ENOMEM;
	}
	if (ret) {
		set_err(err, b.len, "error reading '%s': %s", name,
			strerror(-ret));
		tb_buf_free(&b);
		return -EIO;
	}
	ret = tb_xs_inject_parse(name, b.data, b.len, form, out, err);
	tb_buf_free(&b);
	return ret;
}
