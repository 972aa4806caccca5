// SPDX-License-Identifier: GPL-2.0
/* Shell completion from the option tables; see cli/opt_complete.h. */
#include <stdio.h>
#include <string.h>

#include "cli/opt_complete.h"

struct out {
	tb_opt_complete_fn emit;
	void *ctx;
	const char *cur;	/* what is typed of the word */
};

static void offer(struct out *o, const char *w)
{
	if (!strncmp(w, o->cur, strlen(o->cur)))
		o->emit(o->ctx, w);
}

/* Each word of the space-separated @list that begins with the typed word. */
static void offer_words(struct out *o, const char *list)
{
	char w[64];

	while (list && *list) {
		size_t n = strcspn(list, " ");

		snprintf(w, sizeof(w), "%.*s", (int)n, list);
		offer(o, w);
		list += n;
		list += strspn(list, " ");
	}
}

/* A comma list: the words after the typed word's last comma. */
static void offer_list(struct out *o, const char *list)
{
	const char *comma = strrchr(o->cur, ',');
	size_t keep = comma ? (size_t)(comma - o->cur + 1) : 0;
	char w[256];

	while (list && *list) {
		size_t n = strcspn(list, " ");

		snprintf(w, sizeof(w), "%.*s%.*s", (int)keep, o->cur, (int)n,
			 list);
		offer(o, w);
		list += n;
		list += strspn(list, " ");
	}
}

static void directive(struct out *o, const char *what, const char *arg)
{
	char w[512];

	snprintf(w, sizeof(w), "@%s %s", what, arg);
	o->emit(o->ctx, w);
}

/* The values of an option, or of an operand, of kind @val. */
static void offer_value(struct out *o, enum tb_opt_val val,
			const char *values, int index)
{
	char n[16];

	switch (val) {
	case TB_VAL_FILE:
	case TB_VAL_DEVICE:
		directive(o, "files", o->cur);
		break;
	case TB_VAL_CLASSES:
	case TB_VAL_LIST:
		offer_list(o, values);
		break;
	case TB_VAL_COMMAND:
		snprintf(n, sizeof(n), "%d", index);
		directive(o, "command", n);
		break;
	default:
		/* Sizes, numbers, words, trigger forms: what the table lists. */
		offer_words(o, values);
	}
}

static bool visible(const struct tb_opt *t, const char *scope)
{
	if (!scope || !t->scope)
		return !scope && !t->scope;
	return tb_opt_word_in(scope, strlen(scope), t->scope);
}

/*
 * The option whose value is the word after option word @w in @scope, or
 * NULL: "--map" (not "--map=FILE"), "-m", a cluster ending in "m"
 * ("-Jm"), never "-mFILE".  Old spellings count: they still work.
 */
static const struct tb_opt *takes_next(const struct tb_opt_spec *spec,
				       const char *scope, const char *w)
{
	const struct tb_opt *t;
	size_t len;

	if (w[1] == '-') {
		len = strcspn(w + 2, "=");
		if (w[2 + len] == '=')
			return NULL;
		for (t = spec->opts; t->id; t++)
			if (t->name && visible(t, scope) &&
			    strlen(t->name) == len && !strncmp(t->name, w + 2, len))
				return t->arg == TB_OPT_REQUIRED ? t : NULL;
		return NULL;
	}
	for (w++; *w; w++) {
		for (t = spec->opts; t->id; t++)
			if (t->letter == *w && visible(t, scope))
				break;
		if (!t->id)
			return NULL;
		if (t->arg == TB_OPT_REQUIRED)
			return w[1] ? NULL : t;
	}
	return NULL;
}

/*
 * Bash splits "--map=FILE" into "--map", "=", "FILE": the option before
 * an "=" word, if it takes a value, or NULL.
 */
static const struct tb_opt *before_eq(const struct tb_opt_spec *spec,
				      const char *scope, char **words,
				      int first, int i)
{
	const struct tb_opt *t;
	const char *w;

	if (i <= first || strcmp(words[i], "="))
		return NULL;
	w = words[i - 1];
	if (w[0] != '-' || w[1] != '-')
		return NULL;
	for (t = spec->opts; t->id; t++)
		if (t->name && visible(t, scope) && !strcmp(t->name, w + 2))
			return t->arg == TB_OPT_NONE ? NULL : t;
	return NULL;
}

/* Every option of @scope that is not an old spelling. */
static void offer_options(struct out *o, const struct tb_opt_spec *spec,
			  const char *scope)
{
	const struct tb_opt *t;
	char w[64];

	for (t = spec->opts; t->id; t++) {
		if (t->instead || !visible(t, scope))
			continue;
		if (t->name) {
			snprintf(w, sizeof(w), "--%s", t->name);
			offer(o, w);
		}
		if (t->letter && o->cur[0] == '-' && o->cur[1] != '-') {
			snprintf(w, sizeof(w), "-%c", t->letter);
			offer(o, w);
		}
	}
}

static const struct tb_opt_word *command_word(const struct tb_opt_spec *spec,
					      const char *w)
{
	const struct tb_opt_word *c;

	for (c = spec->words; c && c->name; c++)
		if (!strcmp(c->name, w))
			return c;
	return NULL;
}

/* Word @cword of a command line of subcommand @spec from word @first on. */
static void complete_sub(struct out *o, const struct tb_opt_spec *spec,
			 char **words, int first, int cword)
{
	const struct tb_opt *pending = NULL;
	const struct tb_opt_word *word = NULL;
	bool dashes = false;
	int i, operands = 0;

	for (i = first; i < cword; i++) {
		const char *w = words[i];
		const struct tb_opt *eq = dashes ? NULL :
			before_eq(spec, word ? word->name : NULL, words, first, i);

		if (eq) {
			pending = eq;	/* its value is the next word */
			continue;
		}
		if (pending) {
			pending = NULL;
			continue;
		}
		if (!dashes && !strcmp(w, "--")) {
			dashes = true;
			continue;
		}
		if (!dashes && w[0] == '-' && w[1]) {
			pending = takes_next(spec, word ? word->name : NULL, w);
			continue;
		}
		if (spec->operands == TB_VAL_COMMAND) {
			offer_value(o, TB_VAL_COMMAND, NULL, i);
			return;
		}
		if (spec->words && !word && !operands) {
			word = command_word(spec, w);
			if (!word)
				return;	/* an unknown command: nothing to offer */
			continue;
		}
		operands++;
	}
	/* "--map=": the value is the word after the "=". */
	if (!dashes && before_eq(spec, word ? word->name : NULL, words, first,
				 cword)) {
		pending = before_eq(spec, word ? word->name : NULL, words, first,
				    cword);
		o->cur = "";
	}
	if (pending) {
		offer_value(o, pending->val, pending->values, cword);
		return;
	}
	if (!dashes && o->cur[0] == '-') {
		offer_options(o, spec, word ? word->name : NULL);
		return;
	}
	if (spec->words && !word) {
		for (word = spec->words; word->name; word++)
			offer(o, word->name);
		return;
	}
	if (word && !operands && word->val != TB_VAL_NONE) {
		offer_value(o, word->val, word->values, cword);
		return;
	}
	if (!word || operands)
		offer_value(o, spec->operands, NULL, cword);
	else
		offer_value(o, word->val, word->values, cword);
}

void tb_opt_complete(const struct tb_opt_cmd *cmds, unsigned int nr,
		     char **words, int nwords, int cword,
		     tb_opt_complete_fn emit, void *ctx)
{
	struct out o = { emit, ctx, "" };
	const char *base;
	unsigned int c;
	int i;

	if (cword < 1 || cword >= nwords)
		return;
	o.cur = words[cword];
	base = strrchr(words[0], '/');
	base = base ? base + 1 : words[0];
	for (c = 0; c < nr; c++)
		if (cmds[c].old_name && !strcmp(cmds[c].old_name, base)) {
			complete_sub(&o, cmds[c].spec, words, 1, cword);
			return;
		}
	/* The front: its options, then the subcommand (or help SUB). */
	for (i = 1; i < cword && words[i][0] == '-'; i++)
		;
	if (i == cword || (i == cword - 1 && !strcmp(words[i], "help"))) {
		if (o.cur[0] == '-') {
			offer(&o, "--help");
			offer(&o, "--version");
			return;
		}
		if (i == cword)
			offer(&o, "help");
		for (c = 0; c < nr; c++)
			offer(&o, cmds[c].name);
		return;
	}
	for (c = 0; c < nr; c++)
		if (!strcmp(cmds[c].name, words[i]))
			complete_sub(&o, cmds[c].spec, words, i + 1, cword);
}
