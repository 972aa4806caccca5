// SPDX-License-Identifier: GPL-2.0
/*
 * One option vocabulary (issue 27): every subcommand's option table, as
 * `tracebuf __options` prints it, and every --help are read, and the
 * test fails when
 *
 *  - one letter means two things (two long names, in any subcommands);
 *  - one long name has two letters or two kinds of argument;
 *  - an option of the common vocabulary (tb_opt_vocab[]) is spelled
 *    differently somewhere;
 *  - an old spelling points to no option;
 *  - a --help lists other options than its table;
 *  - a man page (Documentation/man) lists other options than its table.
 *
 * The help printer is run on a made-up table, whose text is known.
 *
 * The checker is first run on a made-up table with each kind of conflict,
 * so that a checker that cannot fail fails.  Then the old spellings are
 * run: they work, and say so on stderr.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "tb_test_util.h"

#define MAX_ROWS	512

struct row {
	char sub[16], scope[64], letter, name[32], arg[12], instead[32];
};

/* Rows of `tracebuf __options` text; the count. */
static int parse_rows(const char *text, struct row *r, int max)
{
	const char *line = text;
	int n = 0;

	while (line && *line && n < max) {
		char letter[4];

		if (sscanf(line, "%15[^\t]\t%63[^\t]\t%3[^\t]\t%31[^\t]\t%11[^\t]\t%31[^\n]",
			   r[n].sub, r[n].scope, letter, r[n].name, r[n].arg,
			   r[n].instead) == 6) {
			r[n].letter = letter[0];
			n++;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

/* The rows of `tracebuf __options` into @r (MAX_ROWS): the count, or -1. */
static int read_rows(struct row *r)
{
	char *out;
	int st, n;

	out = tu_run(&st, "%s __options", tu_tool("tracebuf"));
	n = st ? -1 : parse_rows(out, r, MAX_ROWS);
	free(out);
	return n;
}

static bool old(const struct row *r)
{
	return strcmp(r->instead, "-");
}

static const char *const arg_names[] = { "none", "required", "optional" };

/* The conflicts in @r, each said with TH_LOG; their count. */
static int conflicts(struct __test_metadata *_metadata, const struct row *r,
		     int n)
{
	unsigned int v;
	int i, j, bad = 0;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (old(&r[i]) || old(&r[j]))
				continue;
			if (r[i].letter != '-' && r[i].letter == r[j].letter &&
			    strcmp(r[i].name, r[j].name)) {
				TH_LOG("-%c is --%s in %s and --%s in %s", r[i].letter,
				       r[i].name, r[i].sub, r[j].name, r[j].sub);
				bad++;
			}
			if (strcmp(r[i].name, "-") && !strcmp(r[i].name, r[j].name) &&
			    (r[i].letter != r[j].letter || strcmp(r[i].arg, r[j].arg))) {
				TH_LOG("--%s is -%c (%s) in %s and -%c (%s) in %s",
				       r[i].name, r[i].letter, r[i].arg, r[i].sub,
				       r[j].letter, r[j].arg, r[j].sub);
				bad++;
			}
		}
		for (v = 0; v < tb_opt_vocab_size && !old(&r[i]); v++) {
			const struct tb_opt *o = &tb_opt_vocab[v].opt;
			char letter = o->letter ? o->letter : '-';

			if ((letter == '-' || r[i].letter != letter) &&
			    strcmp(r[i].name, o->name))
				continue;
			if (r[i].letter != letter || strcmp(r[i].name, o->name) ||
			    strcmp(r[i].arg, arg_names[o->arg])) {
				TH_LOG("%s: -%c --%s is not the vocabulary's -%c --%s (%s)",
				       r[i].sub, r[i].letter, r[i].name, letter,
				       o->name, tb_opt_vocab[v].meaning);
				bad++;
			}
		}
		if (!old(&r[i]))
			continue;
		for (j = 0; j < n; j++) {
			char spelled[40];

			if (old(&r[j]) || strcmp(r[i].sub, r[j].sub) ||
			    strcmp(r[i].scope, r[j].scope))
				continue;
			if (r[i].instead[1] == '-')
				snprintf(spelled, sizeof(spelled), "--%s", r[j].name);
			else
				snprintf(spelled, sizeof(spelled), "-%c", r[j].letter);
			if (!strcmp(spelled, r[i].instead))
				break;
		}
		if (j == n) {
			TH_LOG("%s: old spelling -%c --%s points to %s, which %s has not",
			       r[i].sub, r[i].letter, r[i].name, r[i].instead,
			       r[i].sub);
			bad++;
		}
	}
	return bad;
}

TEST(the_checker_finds_each_kind_of_conflict)
{
	static const char *const cases[] = {
		/* one letter, two meanings */
		"record\t-\td\tduration\trequired\t-\n"
		"ctl\t-\td\tdevice\trequired\t-\n",
		/* one name, two kinds of argument */
		"convert\t-\t-\tfrob\tnone\t-\n"
		"record\t-\t-\tfrob\trequired\t-\n",
		/* the vocabulary's --cpu under another letter */
		"workload\t-\tc\tcpu\trequired\t-\n",
		/* the vocabulary's -q taking a value */
		"ctl\tchain\tq\tquiet\trequired\t-\n",
		/* an old spelling of nothing */
		"ctl\t-\td\t-\trequired\t--dev\n",
	};
	struct row *r = calloc(MAX_ROWS, sizeof(*r));
	unsigned int i;

	ASSERT_NE(NULL, r);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = parse_rows(cases[i], r, MAX_ROWS);

		ASSERT_LT(0, n);
		EXPECT_LT(0, conflicts(_metadata, r, n)) {
			TH_LOG("case %u was not found: %s", i, cases[i]);
		}
	}
	/* An old spelling that conflicts is allowed for its release. */
	EXPECT_EQ(0, conflicts(_metadata, r, parse_rows(
		"ctl\t-\tD\tdevice\trequired\t-\n"
		"ctl\t-\td\t-\trequired\t-D\n"
		"record\t-\td\tduration\trequired\t-\n", r, MAX_ROWS)));
	free(r);
}

TEST(one_letter_one_meaning_in_every_subcommand)
{
	struct row *r = calloc(MAX_ROWS, sizeof(*r));
	int n;

	ASSERT_NE(NULL, r);
	n = read_rows(r);
	EXPECT_LT(50, n);
	EXPECT_EQ(0, conflicts(_metadata, r, n));
	free(r);
}

/* Add @w to the space-separated set @set (of @size bytes) once. */
static void add_word(char *set, size_t size, const char *w, size_t len)
{
	char word[48];

	snprintf(word, sizeof(word), " %.*s ", (int)len, w);
	/* Stored as " a  b  c ": each word with a space either side. */
	if (!strstr(set, word) && strlen(set) + strlen(word) < size)
		strcat(set, word);
}

/*
 * The options a --help text names: "-x" or "--name" at the start of a
 * line or after "[", "|", "(", ",", ";" or ":" (and spaces), as the
 * man page test reads them.
 */
static void help_options(const char *help, char *set, size_t size)
{
	const char *p;

	for (p = help; *p; p++) {
		const char *q = p, *b = p;

		if (p != help && !strchr("\n[|(,;:", p[-1]))
			continue;
		while (*q == ' ')
			q++;
		if (q[0] != '-' || !(isalpha((unsigned char)q[1]) ||
				     (q[1] == '-' && isalpha((unsigned char)q[2]))))
			continue;
		b = q;
		q += q[1] == '-' ? 2 : 1;
		while (isalnum((unsigned char)*q) || (*q == '-' && b[1] == '-'))
			q++;
		add_word(set, size, b, q - b);
	}
}

/*
 * The options of @sub's table, current spellings only, into @set:
 * @scoped 0 its own (before a command word), 1 its command words',
 * -1 both.
 */
static void table_options(const struct row *r, int n, const char *sub,
			  int scoped, char *set, size_t size)
{
	char w[40];
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(r[i].sub, sub) || old(&r[i]))
			continue;
		if (scoped >= 0 && scoped != !!strcmp(r[i].scope, "-"))
			continue;
		if (r[i].letter != '-') {
			snprintf(w, sizeof(w), "-%c", r[i].letter);
			add_word(set, size, w, strlen(w));
		}
		if (strcmp(r[i].name, "-")) {
			snprintf(w, sizeof(w), "--%s", r[i].name);
			add_word(set, size, w, strlen(w));
		}
	}
}

/* Both ways: each of two sets of @sub holds the other's words. */
static void same_words(struct __test_metadata *_metadata, const char *sub,
		       const char *set_a, const char *name_a,
		       const char *set_b, const char *name_b)
{
	int i;

	for (i = 0; i < 2; i++) {
		const char *a = i ? set_b : set_a, *b = i ? set_a : set_b;
		const char *p = a;

		while ((p = strchr(p, ' '))) {
			size_t len = strcspn(p + 1, " ");
			char word[48];

			if (!len) {
				p++;
				continue;
			}
			snprintf(word, sizeof(word), " %.*s ", (int)len, p + 1);
			EXPECT_NE(NULL, strstr(b, word)) {
				TH_LOG("%s: %s is in its %s, not in its %s",
				       sub, word, i ? name_b : name_a,
				       i ? name_a : name_b);
			}
			p += len + 1;
		}
	}
}

/*
 * The help printer on a made-up table: texts in one column from 24,
 * wrapped at 76; a '\n' keeps its indent; a label too long for the
 * column puts its text on the next line; old spellings and entries
 * without help are left out; a scope's options only with that scope.
 */
TEST(help_from_the_table)
{
	static const struct tb_opt opts[] = {
		{ .id = 'o', .letter = 'o', .name = "output",
		  .arg = TB_OPT_REQUIRED, .val = TB_VAL_FILE,
		  .help = "where it goes" },
		{ .id = 'o', .letter = 'O', .arg = TB_OPT_REQUIRED,
		  .instead = "-o", .help = "old" },
		{ .id = 1000, .name = "folded", .arg = TB_OPT_OPTIONAL,
		  .arg_name = "count",
		  .help = "one two three four five six seven eight nine ten eleven twelve thirteen\n  indented list line" },
		{ .id = 1001, .name = "a-rather-long-option", .arg = TB_OPT_REQUIRED,
		  .val = TB_VAL_SIZE, .help = "text" },
		{ .id = 1002, .name = "hidden" },
		{ .id = 1003, .name = "count", .arg = TB_OPT_REQUIRED,
		  .val = TB_VAL_NUMBER, .scope = "chain", .help = "how many" },
		{ 0 }
	};
	static const struct tb_opt_spec spec = { .name = "t", .opts = opts };
	static const char want[] =
		"  -o, --output FILE     where it goes\n"
		"      --folded[=count]  one two three four five six seven eight nine ten\n"
		"                        eleven twelve thirteen\n"
		"                          indented list line\n"
		"      --a-rather-long-option SIZE\n"
		"                        text\n";
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, tb_opt_help(f, &spec, NULL));
	fclose(f);
	EXPECT_STREQ(want, text);
	free(text);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, tb_opt_help(f, &spec, "chain"));
	fclose(f);
	EXPECT_STREQ("      --count N         how many\n", text);
	free(text);
}

/* Every subcommand with an option table. */
static const char *const subs[] = {
	"record", "bpf", "report", "diff", "script", "top", "crash",
	"fdr", "ctl", "convert", "decode", "workload",
};

TEST(every_help_lists_its_table)
{
	struct row *r = calloc(MAX_ROWS, sizeof(*r));
	unsigned int s;
	char *out;
	int st, n;

	ASSERT_NE(NULL, r);
	n = read_rows(r);
	ASSERT_LE(0, n);
	for (s = 0; s < ARRAY_SIZE(subs); s++) {
		char table[2048] = "", help[2048] = "";

		table_options(r, n, subs[s], -1, table, sizeof(table));
		out = tu_run(&st, "%s %s --help", tu_tool("tracebuf"), subs[s]);
		EXPECT_EQ(0, st);
		help_options(out, help, sizeof(help));
		free(out);
		same_words(_metadata, subs[s], table, "table", help, "--help");
	}
	free(r);
}

/*
 * The options of the section @title ("OPTIONS") of the man page @rst
 * into @set: the lines of its option lists begin with an option ("-o
 * FILE, --output=FILE", "--start"), and so does each ", "-separated
 * part of them.  The section ends at the next title, a line of '=' only
 * under it (a table's has spaces).
 */
static void man_options(const char *rst, const char *title, char *set,
			size_t size)
{
	const char *line, *end;
	char head[64];

	snprintf(head, sizeof(head), "\n%s\n=", title);
	line = strstr(rst, head);
	if (!line)
		return;
	line = strchr(strchr(line + 1, '\n') + 1, '\n');
	for (end = line; (end = strstr(end + 1, "\n=")); )
		if (strspn(end + 1, "=") == strcspn(end + 1, "\n"))
			break;
	if (end)	/* back to the title above the line of '=' */
		while (end > line && end[-1] != '\n')
			end--;
	for (; line && *line && (!end || line < end); line = strchr(line + 1, '\n')) {
		const char *p = line + 1;

		while (*p == ' ')
			p++;
		while (p[0] == '-' && (isalpha((unsigned char)p[1]) ||
				       (p[1] == '-' && isalpha((unsigned char)p[2])))) {
			const char *eol = strchr(p, '\n');
			size_t n = 1;

			while (isalnum((unsigned char)p[n]) || p[n] == '-')
				n++;
			add_word(set, size, p, n);
			p = strstr(p, ", ");
			if (!p || (eol && p > eol))
				break;
			p += 2;
		}
	}
}

/*
 * The man pages say what the tables say: a subcommand's own options are
 * its page's OPTIONS, its command words' (ctl chain --count) its page's
 * COMMANDS, both ways, so that an option added to a table and not to
 * Documentation/man/tracebuf-SUB.1.rst fails here, and back.
 */
TEST(man_pages_list_their_table)
{
	struct row *r = calloc(MAX_ROWS, sizeof(*r));
	unsigned int s;
	int n;

	ASSERT_NE(NULL, r);
	n = read_rows(r);
	ASSERT_LE(0, n);
	for (s = 0; s < ARRAY_SIZE(subs); s++) {
		char path[128], table[2048], man[2048], what[64];
		char *rst;
		int scoped;

		snprintf(path, sizeof(path),
			 "../../Documentation/man/tracebuf-%s.1.rst", subs[s]);
		rst = tu_slurp(path);
		EXPECT_NE(NULL, rst) TH_LOG("cannot read %s", path);
		if (!rst)
			continue;
		for (scoped = 0; scoped < 2; scoped++) {
			const char *title = scoped ? "COMMANDS" : "OPTIONS";

			table[0] = 0;
			man[0] = 0;
			table_options(r, n, subs[s], scoped, table, sizeof(table));
			man_options(rst, title, man, sizeof(man));
			snprintf(what, sizeof(what), "man page's %s", title);
			same_words(_metadata, subs[s], table, "table", man, what);
		}
		free(rst);
	}
	free(r);
}

/*
 * The vocabulary in prose: tools.rst's table "Options common to every
 * subcommand" has a row for each entry of tb_opt_vocab[], spelled as the
 * code spells it.
 */
TEST(tools_rst_lists_the_vocabulary)
{
	char *rst = tu_slurp("../../Documentation/tools.rst"), *sec, *end;
	unsigned int v;

	ASSERT_NE(NULL, rst);
	sec = strstr(rst, "\nOptions common to every subcommand\n");
	ASSERT_NE(NULL, sec);
	/* Up to the next title: a line of '=' only (a table's has spaces). */
	end = strchr(sec + 1, '\n') + 1;
	end = strchr(end, '\n');
	while (end && (end = strstr(end + 1, "\n=")))
		if (strspn(end + 1, "=") == strcspn(end + 1, "\n"))
			break;
	if (end) {
		while (end > sec && end[-1] != '\n')
			end--;
		*end = 0;
	}
	for (v = 0; v < tb_opt_vocab_size; v++) {
		const struct tb_opt *o = &tb_opt_vocab[v].opt;
		char want[64];

		if (o->letter)
			snprintf(want, sizeof(want), "``-%c, --%s", o->letter, o->name);
		else
			snprintf(want, sizeof(want), "``--%s", o->name);
		EXPECT_NE(NULL, strstr(sec, want)) {
			TH_LOG("tools.rst does not list %s`` (%s)", want,
			       tb_opt_vocab[v].meaning);
		}
	}
	free(rst);
}

/* Each old spelling still works, and says what to write instead. */
TEST(old_spellings_work_and_say_so)
{
	static const struct {
		const char *args, *note, *then;
		int status;
	} c[] = {
		{ "ctl -d /nonexistent/tb status", "use '-D'",
		  "cannot open /nonexistent/tb", TB_EXIT_FAIL },
		{ "ctl -D /nonexistent/tb chain -n 0", "use '--count'",
		  "--count '0'", TB_EXIT_USAGE },
		{ "ctl -D /nonexistent/tb chain -q 2000", "use '--depth'",
		  "--depth '2000'", TB_EXIT_USAGE },
		{ "ctl -D /nonexistent/tb snapshot -c", "use '--clear'",
		  "cannot open", TB_EXIT_FAIL },
		{ "ctl -D /nonexistent/tb inject -t", "use '--text'",
		  "cannot open", TB_EXIT_FAIL },
		{ "ctl -D /nonexistent/tb inject -b", "use '--binary'",
		  "cannot open", TB_EXIT_FAIL },
		{ "fdr -D /nonexistent/tb stats -j", "use '-J'",
		  "cannot open", TB_EXIT_FAIL },
		{ "fdr -D /nonexistent/tb config -m sometimes", "use '--mode'",
		  "--mode 'sometimes'", TB_EXIT_USAGE },
		{ "record -D /nonexistent/tb -m flight --start", "use '--mode'",
		  "cannot open", TB_EXIT_FAIL },
		{ "bpf -b 3K", "use '-s'", "--size '3K'", TB_EXIT_USAGE },
		{ "bpf --buffer-size 3K", "use '--size'", "--size '3K'",
		  TB_EXIT_USAGE },
		{ "workload -c 100000 getppid 1", "use '-C'", "--cpu '100000'",
		  TB_EXIT_USAGE },
		{ "workload -f 3 rtc 1", "use '--freq'", "--freq '3'",
		  TB_EXIT_USAGE },
		{ "convert --names fdr-text /nonexistent/x", "use '--with-names'",
		  "cannot open", TB_EXIT_FAIL },
		{ "report --class bogus /nonexistent/x", "use '--events'",
		  "unknown class 'bogus'", TB_EXIT_USAGE },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		int st;
		char *out = tu_run(&st, "%s %s", tu_tool("tracebuf"), c[i].args);

		EXPECT_EQ(c[i].status, st) TH_LOG("%s: %s", c[i].args, out);
		EXPECT_NE(NULL, strstr(out, "old spelling")) TH_LOG("%s: %s", c[i].args, out);
		EXPECT_NE(NULL, strstr(out, c[i].note)) TH_LOG("%s: %s", c[i].args, out);
		EXPECT_NE(NULL, strstr(out, c[i].then)) TH_LOG("%s: %s", c[i].args, out);
		free(out);
	}
}

/*
 * The operands that follow the options (record's and bpf's COMMAND) are
 * what execvp() runs: moved to the front of argv, they must end with a
 * NULL, or the command gets the options' words after its own.
 */
TEST(operands_end_with_null)
{
	static const struct tb_opt opts[] = {
		{ .id = 'o', .letter = 'o', .name = "output",
		  .arg = TB_OPT_REQUIRED, .val = TB_VAL_FILE },
		{ .id = 'q', .letter = 'q', .name = "quiet" },
		{ 0 },
	};
	static const struct tb_opt_spec spec = {
		.name = "t", .opts = opts, .operands = TB_VAL_COMMAND,
		.in_order = true,
	};
	static const char *const cases[][8] = {
		{ "t", "-o", "f", "-q", "--", "cmd", "a", NULL },
		{ "t", "-o", "f", "-q", "cmd", "a", NULL },
		{ "t", "-qof", "--", "cmd", "a", NULL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *argv[8];
		struct tb_opt_parser p;
		int argc = 0;

		while (cases[i][argc]) {
			argv[argc] = (char *)cases[i][argc];
			argc++;
		}
		argv[argc] = NULL;
		tb_opt_init(&p, &spec, NULL, argc, argv, 1);
		while (tb_opt_next(&p) > 0)
			;
		ASSERT_EQ(2, p.nr_operands) TH_LOG("case %u", i);
		EXPECT_STREQ("cmd", p.operands[0]);
		EXPECT_STREQ("a", p.operands[1]);
		EXPECT_EQ(NULL, p.operands[2]) TH_LOG("case %u: %s", i, p.operands[2]);
	}
}

TEST_HARNESS_MAIN
