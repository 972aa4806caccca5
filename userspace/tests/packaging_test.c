// SPDX-License-Identifier: GPL-2.0
/*
 * What gets installed agrees with the tool, so that it cannot drift:
 *
 *  - every subcommand `tracebuf --help` lists has a man page
 *    (Documentation/man/tracebuf-NAME.1.rst) and every such page a
 *    subcommand, and is in tracebuf(1)'s list and README's Tools table;
 *  - each man page's option lists name exactly the options its --help
 *    names (and options_test holds --help to the option tables the
 *    completion offers, so the completion offers what the page says);
 *  - the bash completion completes subcommands, options and commands;
 *  - the HTML pages the man pages cite are made from the Documentation;
 *  - the version is the same in the tools, dkms.conf and debian/changelog.
 *
 * Tests run in userspace/tests; the tree's top is two levels up.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "tb_test_util.h"

#define TOP		"../.."
#define MANDIR		TOP "/Documentation/man"
#define COMPLETION	TOP "/scripts/ship/tracebuf-completion.bash"

/* Is @w already one of the space-separated words of @set? */
static int has_word(const char *set, const char *w)
{
	size_t n = strlen(w);
	const char *p = set;

	while ((p = strstr(p, w))) {
		if ((p == set || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * The options a reStructuredText page defines: its option lists, whose
 * lines begin with an option ("-o FILE, --output=FILE", "--start").
 */
static char *man_options(const char *rst)
{
	char *set = calloc(1, strlen(rst) + 1), *all;
	const char *line = rst;

	while (set && line && *line) {
		const char *p = line, *end = strchr(line, '\n');

		while (*p == ' ')
			p++;
		if (p[0] == '-' && (isalpha((unsigned char)p[1]) ||
				    (p[1] == '-' && isalpha((unsigned char)p[2])))) {
			/* Each ", "-separated part starts with an option. */
			while (p && *p == '-') {
				size_t n = strspn(p, "-abcdefghijklmnopqrstuvwxyz"
						  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

				strcat(set, " ");
				strncat(set, p, n);
				p = strstr(p, ", ");
				if (p && (!end || p < end))
					p += 2;
				else
					p = NULL;
			}
		}
		line = end ? end + 1 : NULL;
	}
	all = set ? tu_sorted_words(set) : NULL;
	free(set);
	return all;
}

/*
 * The options `tracebuf SUB --help` names: "-x" or "--name" at the start
 * of a line, or after "[", "|", "(", ",", ";" or ":" (and spaces).
 */
static char *help_options(const char *sub)
{
	char *out, *all;
	int st;

	out = tu_run(&st, "h=$(%s %s --help) && printf '%%s\\n' \"$h\" | "
		     "grep -oE '(^|[[|(,;:]) *--?[A-Za-z][A-Za-z0-9-]*' | "
		     "grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u",
		     tu_tool("tracebuf"), sub);
	if (st) {
		free(out);
		return NULL;
	}
	all = tu_sorted_words(out);
	free(out);
	return all;
}

/* The subcommands `tracebuf --help` lists, space-separated. */
static char *subcommands(void)
{
	char *out, *all;
	int st;

	out = tu_run(&st, "h=$(%s --help) && printf '%%s\\n' \"$h\" | awk '"
		     "$0 == \"Subcommands:\" { on = 1; next } "
		     "on && /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }'",
		     tu_tool("tracebuf"));
	all = st ? NULL : tu_sorted_words(out);
	free(out);
	return all;
}

TEST(every_subcommand_has_a_man_page_and_back)
{
	char *subs = subcommands(), *pages, *p, *save = NULL, path[256];
	int st;

	ASSERT_NE(NULL, subs);
	ASSERT_NE(0, strlen(subs));
	pages = tu_run(&st, "cd %s && ls tracebuf-*.1.rst | sed 's/^tracebuf-//; s/\\.1\\.rst$//'",
		       MANDIR);
	ASSERT_EQ(0, st);
	for (p = strtok_r(pages, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		EXPECT_TRUE(has_word(subs, p)) {
			TH_LOG("tracebuf-%s.1.rst documents no subcommand", p ? p : "");
		}
	free(pages);
	for (p = strtok_r(subs, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		snprintf(path, sizeof(path), "%s/tracebuf-%s.1.rst", MANDIR, p);
		EXPECT_EQ(0, access(path, R_OK)) {
			TH_LOG("subcommand %s has no man page (%s)", p, path);
		}
	}
	free(subs);
}

/* tracebuf(1) lists each subcommand as "**NAME**" with its page. */
TEST(every_subcommand_is_in_tracebuf_1)
{
	char *subs = subcommands(), *p, *save = NULL, want[128];
	char *man = tu_slurp(MANDIR "/tracebuf.1.rst");

	ASSERT_NE(NULL, subs);
	ASSERT_NE(NULL, man);
	for (p = strtok_r(subs, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		snprintf(want, sizeof(want), "\n**%s**\n", p);
		EXPECT_NE(NULL, strstr(man, want)) {
			TH_LOG("tracebuf.1.rst does not list %s", p);
		}
		snprintf(want, sizeof(want), "**tracebuf-%s**\\(1)", p);
		EXPECT_NE(NULL, strstr(man, want)) {
			TH_LOG("tracebuf.1.rst does not cite tracebuf-%s(1)", p);
		}
	}
	free(subs);
	free(man);
}

/*
 * README's Tools table has a row "| `tracebuf NAME` |" for each
 * subcommand.  A guest has the tests and the man pages, not the tree's
 * README: skipped there.
 */
TEST(every_subcommand_is_in_the_readme)
{
	char *subs, *p, *save = NULL, want[128];
	char *readme = tu_slurp(TOP "/README.md");

	if (!readme)
		SKIP(return, "no README.md here (a guest has the tests, not the tree)");
	subs = subcommands();
	ASSERT_NE(NULL, subs);
	for (p = strtok_r(subs, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		snprintf(want, sizeof(want), "\n| `tracebuf %s` |", p);
		EXPECT_NE(NULL, strstr(readme, want)) {
			TH_LOG("README.md's Tools table has no %s", p);
		}
	}
	free(subs);
	free(readme);
}

/*
 * The viewers the tools send a JSON file to open it: Debian's Chromium
 * does not open chrome://tracing (headless: net::ERR_ABORTED), so
 * neither the help nor the hint for a JSON file given to report names it.
 */
TEST(json_hints_name_viewers_that_open_it)
{
	char *dir = tu_tmpdir(), path[256], *out;
	FILE *f;
	int st;

	snprintf(path, sizeof(path), "%s/t.json", dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs("{\"traceEvents\": []}\n", f);
	fclose(f);
	out = tu_run(&st, "%s report %s 2>&1", tu_tool("tracebuf"), path);
	EXPECT_NE(NULL, strstr(out, "speedscope")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "chrome://tracing")) TH_LOG("%s", out);
	free(out);
	out = tu_run(&st, "%s convert --help", tu_tool("tracebuf"));
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "fdr-json")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "chrome://tracing")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* One page against one --help: the same options, both ways. */
static int same_options(struct __test_metadata *_metadata, const char *page,
			const char *sub)
{
	char path[256], *rst, *man, *help;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", MANDIR, page);
	rst = tu_slurp(path);
	if (!rst) {
		TH_LOG("cannot read %s", path);
		return 0;
	}
	man = man_options(rst);
	help = help_options(sub);
	ok = man && help && *help && !strcmp(man, help);
	if (!ok) {
		TH_LOG("%s lists:  %s", page, man ? man : "?");
		TH_LOG("--help lists: %s", help ? help : "?");
	}
	free(rst);
	free(man);
	free(help);
	return ok;
}

TEST(man_pages_list_the_options_of_help)
{
	char *subs = subcommands(), *p, *save = NULL, page[128];

	ASSERT_NE(NULL, subs);
	EXPECT_TRUE(same_options(_metadata, "tracebuf.1.rst", ""));
	for (p = strtok_r(subs, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		snprintf(page, sizeof(page), "tracebuf-%s.1.rst", p);
		EXPECT_TRUE(same_options(_metadata, page, p)) {
			TH_LOG("tracebuf %s --help and its man page differ", p);
		}
	}
	free(subs);
}

/* The words bash would offer for the command line @words (last: cur). */
static char *complete(const char *words)
{
	char dir[2200], *slash, *script = realpath(COMPLETION, NULL), *out;

	snprintf(dir, sizeof(dir), "%s", tu_tool("tracebuf"));
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	/* In data/, so that file names complete to something known. */
	out = tu_run(NULL, "cd data && PATH=%s:$PATH bash -c '. %s && "
		     "COMP_WORDS=(%s) && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && "
		     "_tracebuf && echo \"${COMPREPLY[*]}\"'",
		     dir, script ? script : COMPLETION, words);
	free(script);
	return out;
}

TEST(completion_offers_subcommands_options_and_commands)
{
	static const struct {
		const char *words, *want;
	} c[] = {
		{ "tracebuf rec", "record" },
		{ "tracebuf help co", "convert" },
		{ "tracebuf record --st", "--start --stats-json --stop" },
		{ "tracebuf ctl \"\"", "status mode enable disable chkpt clear sources snapshot read inject chain" },
		{ "tracebuf fdr stats --j", "--json" },
		{ "tracebuf convert fdr-j", "fdr-json" },
		{ "tracebuf workload p", "pingpong" },
	};
	unsigned int i;

	if (!tu_have("bash"))
		SKIP(return, "bash not installed (the completion is bash's)");
	/* The same words, in any order: bash sorts what it shows. */
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *out = complete(c[i].words), *want = strdup(c[i].want);
		char *got = tu_sorted_words(out), *w = tu_sorted_words(want);

		EXPECT_STREQ(w, got) TH_LOG("completing: %s", c[i].words);
		free(out);
		free(want);
		free(got);
		free(w);
	}
}

/* Whatever subcommands there are: all of them, and help. */
TEST(completion_offers_every_subcommand)
{
	char *subs, *out, *got;
	char want[1024];

	if (!tu_have("bash"))
		SKIP(return, "bash not installed (the completion is bash's)");
	subs = subcommands();
	out = complete("tracebuf \"\"");
	ASSERT_NE(NULL, subs);
	snprintf(want, sizeof(want), "help %s", subs);
	got = tu_sorted_words(out);
	free(out);
	out = tu_sorted_words(want);
	EXPECT_STREQ(out, got);
	free(out);
	free(got);
	free(subs);
}

TEST(completion_offers_files_after_a_file_option)
{
	char *out;

	if (!tu_have("bash"))
		SKIP(return, "bash not installed (the completion is bash's)");
	out = complete("tracebuf record -o corpus/xscale/snap");
	EXPECT_NE(NULL, strstr(out, "corpus/xscale/snapshot.bin")) TH_LOG("%s", out);
	free(out);
}

/*
 * The man pages cite the documentation where the tools package installs
 * it as HTML (make html, DOCDIR): each NAME.html they name is made from
 * a Documentation/NAME.rst, and some are cited.
 */
TEST(man_pages_cite_installed_html)
{
	char *out, *line, *save = NULL, path[256];
	int st, n = 0;

	out = tu_run(&st, "cat %s/*.rst | grep -o '[a-z-]*\\.html' | sort -u",
		     MANDIR);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		snprintf(path, sizeof(path), TOP "/Documentation/%.*s.rst",
			 (int)(strlen(line) - 5), line);
		EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s: no %s", line, path);
		n++;
	}
	/* fdr, tools, tracebuf, formats, conversions, ioctl, ioctl-fdr */
	EXPECT_LE(7, n);
	free(out);
	out = tu_run(&st, "grep -l /usr/share/doc/tracebuf-tools/ %s/*.rst | wc -l",
		     MANDIR);
	EXPECT_LE(4, atoi(out)) TH_LOG("pages citing the HTML: %s", out);
	free(out);
}

TEST(version_is_one_fact)
{
	char *dkms = tu_slurp(TOP "/dkms.conf"), *chlog = tu_slurp(TOP "/debian/changelog");
	char want[64];

	ASSERT_NE(NULL, dkms);
	ASSERT_NE(NULL, chlog);
	snprintf(want, sizeof(want), "PACKAGE_VERSION=\"%s\"\n", TB_VERSION);
	EXPECT_NE(NULL, strstr(dkms, want)) TH_LOG("dkms.conf is not %s", TB_VERSION);
	snprintf(want, sizeof(want), "tracebuf (%s) ", TB_VERSION);
	EXPECT_EQ(0, strncmp(chlog, want, strlen(want)))
		TH_LOG("debian/changelog's first entry is not %s", TB_VERSION);
	free(dkms);
	free(chlog);
}

/*
 * The generated syscall table (userspace/Makefile) is made before any
 * tool that includes it, from a fresh build directory: each such object
 * built alone, as a parallel build may reach it first.  And a compiler
 * that fails makes the rule fail, not an empty table that names every
 * call sys_<n>.
 */
TEST(syscall_table_made_before_its_users)
{
	char *o = tu_tmpdir(), *users, *out, *p;
	int st;

	if (!tu_have("make"))
		SKIP(return, "no make");
	users = tu_run(&st, "grep -l '^#include \"syscall_names.h\"' %s/userspace/tools/*.c",
		       TOP);
	ASSERT_EQ(0, st);
	for (p = strtok(users, "\n"); p; p = strtok(NULL, "\n")) {
		const char *base = strrchr(p, '/') + 1;
		char obj[256];

		if (!strcmp(base, "cmd_bpf.c"))
			continue;	/* needs the BPF skeleton */
		snprintf(obj, sizeof(obj), "%.*s.o", (int)(strlen(base) - 2), base);
		out = tu_run(&st, "rm -rf '%s'/* && make -s -C %s/userspace O='%s' '%s/tools/%s'",
			     o, TOP, o, o, obj);
		EXPECT_EQ(0, st) TH_LOG("%s from a fresh O=: %s", obj, out);
		free(out);
	}
	free(users);
	out = tu_run(&st, "rm -rf '%s'/* && make -s -C %s/userspace O='%s' CC=false '%s/gen/syscall_names.h'",
		     o, TOP, o, o);
	EXPECT_NE(0, st) TH_LOG("a failing compiler made a table: %s", out);
	free(out);
	tu_rmdir(o);
	free(o);
}

TEST_HARNESS_MAIN
