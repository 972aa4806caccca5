// SPDX-License-Identifier: GPL-2.0
/*
 * The subcommands' one option parser; see cli/opt.h.  It reads what GNU
 * getopt_long() reads (clusters -rNJ, -oFILE, -o FILE, --output=FILE,
 * --output FILE, unique prefixes of long names, "--" ends the options,
 * "-" is an operand), from a table that also says what each value is.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/opt.h"

bool tb_opt_word_in(const char *w, size_t len, const char *list)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, " ");

		if (n == len && !strncmp(p, w, len))
			return true;
		p += n;
		p += strspn(p, " ");
	}
	return false;
}

/*
 * Is @o an option of the parser's scope?  --help and --version are
 * everywhere: `tracebuf fdr stats --help` prints fdr's help.
 */
static bool visible(const struct tb_opt_parser *p, const struct tb_opt *o)
{
	if (!o->scope && (o->letter == 'h' || o->letter == 'V'))
		return true;
	if (!p->scope || !o->scope)
		return !p->scope && !o->scope;
	return tb_opt_word_in(p->scope, strlen(p->scope), o->scope);
}

const struct tb_opt *tb_opt_find(const struct tb_opt_spec *spec, int id)
{
	const struct tb_opt *o;

	for (o = spec->opts; o->id; o++)
		if (o->id == id && !o->instead)
			return o;
	return NULL;
}

static int fail(struct tb_opt_parser *p, const char *fmt, const char *what)
{
	snprintf(p->msg, sizeof(p->msg), fmt, what);
	return -EINVAL;
}

/* The option @o found as p->used: its value, and the note of an old one. */
static int take(struct tb_opt_parser *p, const struct tb_opt *o,
		const char *value)
{
	p->opt = o;
	p->arg = NULL;
	if (o->arg == TB_OPT_NONE && value)
		return fail(p, "option '%s' takes no value", p->used);
	if (o->arg == TB_OPT_OPTIONAL) {
		p->arg = value;
	} else if (o->arg == TB_OPT_REQUIRED) {
		if (!value && p->cluster && *p->cluster)
			value = p->cluster;	/* -oFILE */
		else if (!value && p->ind < p->argc)
			value = p->argv[p->ind++];
		p->cluster = NULL;
		if (!value)
			return fail(p, "option '%s' needs a value", p->used);
		p->arg = value;
	}
	if (o->instead) {
		p->deprecated = true;
		snprintf(p->msg, sizeof(p->msg),
			 "'%s' is an old spelling, kept for this release only: use '%s'",
			 p->used, o->instead);
	}
	return o->id;
}

static int short_option(struct tb_opt_parser *p)
{
	const struct tb_opt *o;
	char c = *p->cluster++;

	snprintf(p->used, sizeof(p->used), "-%c", c);
	for (o = p->spec->opts; o->id; o++)
		if (o->letter == c && visible(p, o))
			return take(p, o, NULL);
	p->cluster = NULL;
	return fail(p, "unknown option '%s'", p->used);
}

static int long_option(struct tb_opt_parser *p, const char *word)
{
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	const struct tb_opt *o, *found = NULL;
	char cands[160] = "";
	int n = 0;

	snprintf(p->used, sizeof(p->used), "--%.*s", (int)len, word);
	for (o = p->spec->opts; o->id; o++) {
		if (!o->name || !visible(p, o) || strncmp(o->name, word, len))
			continue;
		if (strlen(o->name) == len)
			return take(p, o, eq ? eq + 1 : NULL);
		/* A prefix: unique, or all of one option's spellings. */
		if (!found || found->id != o->id)
			n++;
		if (!found || (found->instead && !o->instead))
			found = o;
		if (strlen(cands) + strlen(o->name) + 4 < sizeof(cands)) {
			strcat(cands, " --");
			strcat(cands, o->name);
		}
	}
	if (n == 1) {
		snprintf(p->used, sizeof(p->used), "--%s", found->name);
		return take(p, found, eq ? eq + 1 : NULL);
	}
	if (n > 1) {
		snprintf(p->msg, sizeof(p->msg),
			 "option '--%.*s' is ambiguous:%s", (int)len, word, cands);
		return -EINVAL;
	}
	return fail(p, "unknown option '%s'", p->used);
}

void tb_opt_init(struct tb_opt_parser *p, const struct tb_opt_spec *spec,
		 const char *scope, int argc, char **argv, int start)
{
	memset(p, 0, sizeof(*p));
	p->spec = spec;
	p->scope = scope;
	p->argc = argc;
	p->argv = argv;
	p->ind = start;
	p->out = start;
	p->start = start;
}

/*
 * The rest of argv from @i are operands: the parse is over.  They move
 * to the front and end with a NULL, as execvp() wants a COMMAND (argv
 * has its NULL at argc, so there is room).
 */
static int finish(struct tb_opt_parser *p, int i)
{
	while (i < p->argc)
		p->argv[p->out++] = p->argv[i++];
	p->argv[p->out] = NULL;
	p->ind = p->argc;
	p->operands = p->argv + p->start;
	p->nr_operands = p->out - p->start;
	p->done = true;
	return 0;
}

int tb_opt_next(struct tb_opt_parser *p)
{
	const char *w;

	p->deprecated = false;
	p->msg[0] = '\0';
	if (p->done)
		return 0;
	if (p->cluster && *p->cluster)
		return short_option(p);
	p->cluster = NULL;
	while (p->ind < p->argc) {
		w = p->argv[p->ind];
		if (!strcmp(w, "--"))
			return finish(p, p->ind + 1);
		if (w[0] == '-' && w[1] == '-') {
			p->ind++;
			return long_option(p, w + 2);
		}
		if (w[0] == '-' && w[1]) {
			p->ind++;
			p->cluster = w + 1;
			return short_option(p);
		}
		/* An operand: the end, or set aside until the end. */
		if (p->spec->in_order && !p->scope)
			return finish(p, p->ind);
		p->argv[p->out++] = p->argv[p->ind++];
	}
	return finish(p, p->argc);
}
