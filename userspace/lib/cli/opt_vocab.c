// SPDX-License-Identifier: GPL-2.0
/*
 * The options common to every subcommand, with what each means: the
 * vocabulary test holds every subcommand's table to it, and
 * Documentation/tools.rst ("Options common to every subcommand") says
 * the same.  The letters and names themselves are cli/opt.h's TB_OPT_*.
 */
#include "cli/opt.h"

const struct tb_opt_vocab tb_opt_vocab[] = {
	{ { TB_OPT_HELP }, "print the help and exit 0" },
	{ { TB_OPT_VERSION }, "print the version and exit 0" },
	{ { TB_OPT_DEVICE }, "the device to open" },
	{ { TB_OPT_OUTPUT }, "where the output goes; - is stdout" },
	{ { TB_OPT_QUIET }, "nothing on stderr but errors: no summary, no progress" },
	{ { TB_OPT_VERBOSE }, "say more on stderr" },
	{ { TB_OPT_JSON }, "JSON: the result as JSON, or a trace also as OUTPUT.json" },
	{ { TB_OPT_MAP }, "read the names of function ids from this ID NAME file" },
	{ { TB_OPT_NO_NAMES }, "read no names file: ids and tids as numbers" },
	{ { TB_OPT_NAMES }, "write the names of function ids to this file" },
	{ { TB_OPT_SIZE }, "a buffer size: bytes, with a K, M or G suffix" },
	{ { TB_OPT_DURATION }, "stop after this many seconds" },
	{ { TB_OPT_EVENTS }, "event classes, comma separated" },
	{ { TB_OPT_CPU }, "one CPU, by number" },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const unsigned int tb_opt_vocab_size = ARRAY_SIZE(tb_opt_vocab);
