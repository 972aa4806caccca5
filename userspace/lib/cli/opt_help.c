// SPDX-License-Identifier: GPL-2.0
/*
 * The options part of a subcommand's --help, from its option table
 * (cli/opt.h): each option with a help text, in the table's order, its
 * spellings in a column of their own and its text beside them, wrapped.
 * Written once, in the table, the help cannot list other options than
 * the parser takes, nor describe one twice.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/opt.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define HELP_COL	24	/* where the texts begin */
#define HELP_WIDTH	76	/* the last column they fill */

/* What the help calls an option's value, if its entry does not say. */
static const char *const val_names[] = {
	[TB_VAL_NONE] = "ARG",		[TB_VAL_FILE] = "FILE",
	[TB_VAL_DEVICE] = "PATH",	[TB_VAL_SIZE] = "SIZE",
	[TB_VAL_NUMBER] = "N",		[TB_VAL_SECONDS] = "SECS",
	[TB_VAL_CLASSES] = "LIST",	[TB_VAL_WORD] = "WORD",
	[TB_VAL_LIST] = "LIST",		[TB_VAL_TRIGGER] = "COND",
	[TB_VAL_CPU] = "CPU",		[TB_VAL_COMMAND] = "COMMAND",
};

static const char *opt_help_arg(const struct tb_opt *o)
{
	if (o->arg_name)
		return o->arg_name;
	if ((size_t)o->val < ARRAY_SIZE(val_names) && val_names[o->val])
		return val_names[o->val];
	return "ARG";
}

/* "  -o, --output FILE", "      --folded[=count]": its width. */
static int opt_help_label(FILE *f, const struct tb_opt *o)
{
	int n;

	if (o->letter && o->name)
		n = fprintf(f, "  -%c, --%s", o->letter, o->name);
	else if (o->letter)
		n = fprintf(f, "  -%c", o->letter);
	else
		n = fprintf(f, "      --%s", o->name);
	if (o->arg == TB_OPT_REQUIRED)
		n += fprintf(f, " %s", opt_help_arg(o));
	else if (o->arg == TB_OPT_OPTIONAL)
		n += fprintf(f, "[=%s]", opt_help_arg(o));
	return n;
}

static void opt_help_pad(FILE *f, int from, int to)
{
	for (; from < to; from++)
		fputc(' ', f);
}

/*
 * @text from column @col on, its words wrapped at HELP_WIDTH to
 * HELP_COL.  A '\n' in it starts a line of its own, whose leading spaces
 * are kept: an indented list, with its own wrapped lines indented alike.
 */
static void opt_help_text(FILE *f, const char *text, int col)
{
	int indent = HELP_COL, line_start = col;
	const char *p = text;

	while (*p) {
		size_t gap = strspn(p, " "), len;

		if (p[gap] == '\n') {
			p += gap + 1;
			gap = strspn(p, " ");
			fputc('\n', f);
			indent = HELP_COL + gap;
			opt_help_pad(f, 0, indent);
			col = indent;
			line_start = indent;
			p += gap;
			continue;
		}
		p += gap;
		if (!*p)
			break;
		len = strcspn(p, "\n ");
		if (col == line_start) {
			gap = 0;
		} else if (col + gap + len > HELP_WIDTH) {
			fputc('\n', f);
			opt_help_pad(f, 0, indent);
			col = indent;
			line_start = indent;
			gap = 0;
		}
		opt_help_pad(f, 0, gap);
		fwrite(p, 1, len, f);
		col += gap + len;
		p += len;
	}
	fputc('\n', f);
}

/* Is @o taken after @scope (NULL: the subcommand's own options)? */
static bool opt_help_in_scope(const struct tb_opt *o, const char *scope)
{
	if (!scope || !o->scope)
		return !scope && !o->scope;
	return tb_opt_word_in(scope, strlen(scope), o->scope);
}

int tb_opt_help(FILE *f, const struct tb_opt_spec *spec, const char *scope)
{
	const struct tb_opt *o;

	for (o = spec->opts; o->id; o++) {
		int col;

		if (!o->help || o->instead || !opt_help_in_scope(o, scope))
			continue;
		col = opt_help_label(f, o);
		if (col >= HELP_COL) {
			fputc('\n', f);
			col = 0;
		}
		opt_help_pad(f, col, HELP_COL);
		opt_help_text(f, o->help, HELP_COL);
	}
	return ferror(f) ? -EIO : 0;
}
