/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shell completion from the subcommands' option tables (cli/opt.h), not
 * from their help texts: the words to offer for a command line, with
 * the values each option and operand takes (event classes, trigger
 * conditions, modes, conversions, sizes; files only where a file is
 * expected).  scripts/ship/tracebuf-completion.bash asks `tracebuf
 * __complete CWORD WORDS...` and offers what it prints.
 */
#ifndef TB_OPT_COMPLETE_H
#define TB_OPT_COMPLETE_H

#include "cli/opt.h"

/* A subcommand of the front command, and its old name (or NULL). */
struct tb_opt_cmd {
	const char *name;
	const char *old_name;
	const struct tb_opt_spec *spec;
};

/*
 * Called with each word to offer.  Two words are directions to the
 * shell instead: "@files PREFIX" (complete file names beginning with
 * PREFIX) and "@command N" (complete a command line starting at word
 * N, as bash-completion's _command_offset does).
 */
typedef void (*tb_opt_complete_fn)(void *ctx, const char *word);

/*
 * The completions of word @cword of @words (@nwords of them; @words[0]
 * is the command as typed: "tracebuf" or an old name) among the @nr
 * subcommands @cmds.  Bash splits "--map=FILE" into "--map", "=" and
 * "FILE": such a value is completed as the option's.
 */
void tb_opt_complete(const struct tb_opt_cmd *cmds, unsigned int nr,
		     char **words, int nwords, int cword,
		     tb_opt_complete_fn emit, void *ctx);

#endif /* TB_OPT_COMPLETE_H */
