/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One option vocabulary and one parser for every tracebuf subcommand.
 *
 * A subcommand describes its command line once, as a struct tb_opt_spec:
 * its options (letter, long name, argument, what the value is), the
 * command words it takes first (ctl and fdr commands, conversions,
 * workloads) and what its other operands are.  The same table drives the
 * parser (tb_opt_next()), the completion (cli/opt_complete.h) and the
 * vocabulary test, which fails when one letter means two things.
 *
 * The options common to every subcommand are the TB_OPT_* initializers
 * below: each letter and long name is written here once, and listed in
 * tb_opt_vocab[] with its meaning (Documentation/tools.rst, "Options
 * common to every subcommand", says the same in prose).  A subcommand's
 * table uses them as { TB_OPT_OUTPUT }, adding .scope where it applies.
 *
 * The table also holds each option's help text, which tb_opt_help()
 * prints as the options part of the subcommand's --help.
 *
 * The parser returns errors; it never prints or exits (the tools do).
 */
#ifndef TB_OPT_H
#define TB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tb_opt_arg {
	TB_OPT_NONE,		/* a flag */
	TB_OPT_REQUIRED,	/* -o FILE, -oFILE, --output FILE, --output=FILE */
	TB_OPT_OPTIONAL,	/* --folded or --folded=count only */
};

/* What an option's value, or an operand, is: for completion and help. */
enum tb_opt_val {
	TB_VAL_NONE,		/* no value, or nothing to offer */
	TB_VAL_FILE,		/* a file read or written */
	TB_VAL_DEVICE,		/* a device node */
	TB_VAL_SIZE,		/* bytes, with a K, M or G suffix */
	TB_VAL_NUMBER,		/* a number */
	TB_VAL_SECONDS,		/* a duration in whole seconds */
	TB_VAL_CLASSES,		/* event classes, comma separated (@values) */
	TB_VAL_WORD,		/* one of @values */
	TB_VAL_LIST,		/* some of @values, comma separated */
	TB_VAL_TRIGGER,		/* a trigger condition (@values: its forms) */
	TB_VAL_CPU,		/* a CPU number (@values: other words taken) */
	TB_VAL_COMMAND,		/* a command and its arguments */
};

struct tb_opt {
	int id;			/* what tb_opt_next() returns: non-zero */
	char letter;		/* -X, or 0 */
	const char *name;	/* --name, or NULL */
	enum tb_opt_arg arg;
	enum tb_opt_val val;
	const char *values;	/* the words of TB_VAL_WORD/LIST/CLASSES */
	/*
	 * NULL: an option of the subcommand, before its command word.
	 * Otherwise the command words (space separated) after which it is
	 * taken: "chain" for ctl chain --count.
	 */
	const char *scope;
	/*
	 * An old spelling kept for one release: the one to use instead.
	 * The parser takes it as @id and says so in tb_opt_parser.msg.
	 */
	const char *instead;
	/*
	 * Its line of --help (tb_opt_help()): what it does, its range and
	 * its default, wrapped by the printer; a '\n' starts a line of its
	 * own, indented by its leading spaces.  NULL: not listed.
	 */
	const char *help;
	/* The value's name in the help ("BYTES"); NULL: one for @val. */
	const char *arg_name;
};

/* The first word of a subcommand that has commands (ctl, fdr, convert). */
struct tb_opt_word {
	const char *name;
	enum tb_opt_val val;	/* what its operands are */
	const char *values;	/* TB_VAL_WORD/LIST: "wrap fill" */
};

struct tb_opt_spec {
	const char *name;		/* "record" */
	const struct tb_opt *opts;	/* ends with an entry of id 0 */
	const struct tb_opt_word *words; /* ends with a NULL name; or NULL */
	enum tb_opt_val operands;	/* the operands (after the word) */
	/*
	 * The subcommand's options end at its first operand (record's
	 * COMMAND, ctl's command word); those of a command word (scope)
	 * may come before or after its operands.
	 */
	bool in_order;
};

/* Ids of the common options without a letter. */
enum {
	TB_OPT_ID_NO_NAMES = 0x1000,
	TB_OPT_ID_FIRST_FREE,	/* a subcommand's own ids start here */
};

/* Event classes, as the collectors name them (format/fdr_classes.h). */
#define TB_OPT_CLASS_WORDS \
	"syscall irq softirq workqueue fault sched marker all"

/* ---- the vocabulary: one definition of every common option ---- */
#define TB_OPT_HELP	.id = 'h', .letter = 'h', .name = "help",	\
			.help = "this help"
#define TB_OPT_VERSION	.id = 'V', .letter = 'V', .name = "version",	\
			.help = "print the version"
#define TB_OPT_DEVICE	.id = 'D', .letter = 'D', .name = "device",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_DEVICE
#define TB_OPT_OUTPUT	.id = 'o', .letter = 'o', .name = "output",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_FILE
#define TB_OPT_QUIET	.id = 'q', .letter = 'q', .name = "quiet"
#define TB_OPT_VERBOSE	.id = 'v', .letter = 'v', .name = "verbose"
#define TB_OPT_JSON	.id = 'J', .letter = 'J', .name = "json"
#define TB_OPT_MAP	.id = 'm', .letter = 'm', .name = "map",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_FILE
#define TB_OPT_NO_NAMES	.id = TB_OPT_ID_NO_NAMES, .name = "no-names"
#define TB_OPT_NAMES	.id = 'n', .letter = 'n', .name = "names",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_FILE
#define TB_OPT_SIZE	.id = 's', .letter = 's', .name = "size",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_SIZE,	\
			.values = "64K 256K 1M 4M 16M"
#define TB_OPT_DURATION	.id = 'd', .letter = 'd', .name = "duration",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_SECONDS
/* The classes a subcommand takes, if not TB_OPT_CLASS_WORDS. */
#define TB_OPT_EVENTS_OF(classes)					\
			.id = 'e', .letter = 'e', .name = "events",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_CLASSES,	\
			.values = classes
#define TB_OPT_EVENTS	TB_OPT_EVENTS_OF(TB_OPT_CLASS_WORDS)
#define TB_OPT_CPU	.id = 'C', .letter = 'C', .name = "cpu",	\
			.arg = TB_OPT_REQUIRED, .val = TB_VAL_CPU

/* The vocabulary with its meanings, for the test and the docs. */
struct tb_opt_vocab {
	struct tb_opt opt;
	const char *meaning;
};

extern const struct tb_opt_vocab tb_opt_vocab[];
extern const unsigned int tb_opt_vocab_size;

/* ---- the parser ---- */

struct tb_opt_parser {
	const struct tb_opt_spec *spec;
	const char *scope;	/* NULL, or the command word parsed after */
	int argc;
	char **argv;
	int ind;		/* next element of argv to look at */
	int out;		/* operands are moved down to argv[start..out) */
	int start;
	const char *cluster;	/* the rest of "-rNJ" */
	bool done;
	/* The option tb_opt_next() returned: */
	const struct tb_opt *opt;
	const char *arg;	/* its value, or NULL */
	char used[64];		/* as the user wrote it: "-d", "--device" */
	/* An error, or with a deprecated spelling the note to print. */
	char msg[256];
	bool deprecated;
	/* After the last option: the operands. */
	char **operands;
	int nr_operands;
};

/*
 * Parse @argv[@start..@argc) against @spec's options of @scope (NULL:
 * the subcommand's own, before a command word).
 */
void tb_opt_init(struct tb_opt_parser *p, const struct tb_opt_spec *spec,
		 const char *scope, int argc, char **argv, int start);

/*
 * The next option's id (p->opt, p->arg, p->used describe it), 0 after
 * the last one (p->operands and p->nr_operands are then set), or
 * -EINVAL with p->msg saying what is wrong ("unknown option '-x'",
 * "option '--output' needs a value", "option '--st' is ambiguous:
 * --start --stop").  An old spelling sets p->deprecated and p->msg.
 */
int tb_opt_next(struct tb_opt_parser *p);

/* Is the word @w one of the space-separated words of @list? */
bool tb_opt_word_in(const char *w, size_t len, const char *list);

/* The entry of @spec with id @id (the first, not deprecated), or NULL. */
const struct tb_opt *tb_opt_find(const struct tb_opt_spec *spec, int id);

/* ---- the help ---- */

/*
 * The options of @spec taken after @scope (NULL: the subcommand's own),
 * one each with its help text, to @f: "  -o, --output FILE     text",
 * the texts in one column, wrapped at 76.  Entries without .help and old
 * spellings are left out.  Returns 0, or -EIO when writing @f failed.
 */
int tb_opt_help(FILE *f, const struct tb_opt_spec *spec, const char *scope);

#endif /* TB_OPT_H */
