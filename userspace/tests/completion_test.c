// SPDX-License-Identifier: GPL-2.0
/*
 * The bash completion (scripts/ship/tracebuf-completion.bash), driven as bash
 * drives it: bash-completion loaded, COMP_WORDS and COMP_CWORD set as
 * bash splits the line (--map=F is "--map" "=" "F"), _tracebuf run, and
 * COMPREPLY compared.  It offers what the option tables say (issue 27
 * item 2): values where an option takes them, files only where a file is
 * expected, the traced command's own completion after record's options,
 * and the same for the old names.  Every subcommand and command word is
 * checked against `tracebuf __options`.
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "tb_test_util.h"

#define COMPLETION	"../../scripts/ship/tracebuf-completion.bash"
#define BASH_COMPLETION	"/usr/share/bash-completion/bash_completion"

/* What bash offers for @words (bash syntax; the last is the word typed). */
static char *complete(const char *words)
{
	char dir[2200], *slash, *script = realpath(COMPLETION, NULL), *out, *s;

	snprintf(dir, sizeof(dir), "%s", tu_tool("tracebuf"));
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	/* In data/, so that file names complete to something known. */
	out = tu_run(NULL, "cd data && PATH=%s:$PATH bash -c '. " BASH_COMPLETION
		     " && . %s && COMP_WORDS=(%s) && "
		     "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && "
		     "COMP_LINE=\"${COMP_WORDS[*]}\" && COMP_POINT=${#COMP_LINE} && "
		     "_tracebuf && printf \"%%s\\n\" \"${COMPREPLY[@]}\"'",
		     dir, script ? script : COMPLETION, words);
	free(script);
	s = tu_sorted_words(out);
	free(out);
	return s;
}

FIXTURE(bash) {
	int have;
};

FIXTURE_SETUP(bash)
{
	self->have = !access(BASH_COMPLETION, R_OK) && tu_have("bash");
}

FIXTURE_TEARDOWN(bash)
{
}

/* The cases, and one of each kind of value. */
TEST_F(bash, values_from_the_tables)
{
	static const struct {
		const char *words, *want;
	} c[] = {
		{ "tracebuf \"\"", "bpf convert crash ctl decode diff fdr help record report script top workload" },
		{ "tracebuf -", "--help --version" },
		{ "tracebuf help \"\"", "bpf convert crash ctl decode diff fdr record report script top workload" },
		{ "tracebuf record -e \"\"", "all fault irq marker sched softirq syscall workqueue" },
		{ "tracebuf record -e syscall,s", "syscall,sched syscall,softirq syscall,syscall" },
		{ "tracebuf record --trigger \"\"",
		  "irq> marker: oops snapshot softirq> syscall= syscall> warn work>" },
		{ "tracebuf record --mode \"\"", "flight stream" },
		{ "tracebuf record -m \"\"", "flight stream" },
		{ "tracebuf record -s \"\"", "16M 1M 256K 4M 64K" },
		{ "tracebuf record -a \"\"", "0 1 2 3 4 5 6" },
		{ "tracebuf record -d \"\"", "" },
		{ "tracebuf record --st", "--start --stats-json --stop" },
		{ "tracebuf fdr \"\"", "config names snapshot start stats stop" },
		{ "tracebuf fdr stats -", "--json -J" },
		{ "tracebuf fdr -D /dev/null config --m", "--mode" },
		{ "tracebuf fdr config --mode \"\"", "flight stream" },
		{ "tracebuf ctl \"\"",
		  "chain chkpt clear disable enable inject mode read snapshot sources status" },
		{ "tracebuf ctl mode \"\"", "fill wrap" },
		{ "tracebuf ctl sources syscall,ir", "syscall,irq" },
		{ "tracebuf ctl chain --", "--count --depth" },
		{ "tracebuf ctl inject --", "--binary --text" },
		{ "tracebuf convert fdr-j", "fdr-json" },
		{ "tracebuf convert -q fdr-t", "fdr-text fdr-tfile fdr-tidy fdr-tracedat" },
		{ "tracebuf report -e k", "kfunc" },
		{ "tracebuf report --folded = c", "count" },
		{ "tracebuf diff --sort p", "p50 p99" },
		{ "tracebuf diff -e k", "kfunc" },
		{ "tracebuf script -e k", "kfunc" },
		{ "tracebuf script --w", "--wallclock" },
		{ "tracebuf top --sort \"\"", "count max p99 total" },
		{ "tracebuf bpf -e m", "" },
		{ "tracebuf workload \"\"", "enoent faults getppid pingpong rtc serial yield" },
		{ "tracebuf workload getppid \"\"", "" },
		{ "tracebuf decode -s \"\"", "16M 1M 256K 4M 64K" },
		/* The old names complete as their subcommands. */
		{ "tbconv fdr-j", "fdr-json" },
		{ "tracebufctl \"\"",
		  "chain chkpt clear disable enable inject mode read snapshot sources status" },
		{ "tracebuf-record -e sys", "syscall" },
		{ "tracebuf-bpf --b", "" },
		{ "tb-workload \"\"", "enoent faults getppid pingpong rtc serial yield" },
		/* The traced command completes as a command line of its own. */
		{ "tracebuf record -- tracebuf rec", "record" },
		{ "tracebuf record -e irq tracebuf ctl m", "mode" },
		{ "tracebuf bpf -d 5 -- tracebuf fdr stats -", "--json -J" },
	};
	unsigned int i;

	if (!self->have)
		SKIP(return, "no bash-completion (scripts/setup.sh installs it)");
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		char *want = strdup(c[i].want), *w = tu_sorted_words(want);
		char *got = complete(c[i].words);

		EXPECT_STREQ(w, got) TH_LOG("completing: %s", c[i].words);
		free(want);
		free(w);
		free(got);
	}
}

/* Files where a file is expected, and only there. */
TEST_F(bash, files_only_where_a_file_is_expected)
{
	static const struct {
		const char *words;
		int files;
	} c[] = {
		{ "tracebuf record -o corpus/xscale/snap", 1 },
		{ "tracebuf convert --map = corpus/xscale/snap", 1 },
		{ "tracebuf convert fdr-text corpus/xscale/snap", 1 },
		{ "tbdecode corpus/xscale/snap", 1 },
		{ "tracebuf report -m corpus/xscale/snap", 1 },
		{ "tracebuf ctl snapshot corpus/xscale/snap", 1 },
		{ "tracebuf fdr snapshot corpus/xscale/snap", 1 },
		{ "tracebuf record -e corpus/xscale/snap", 0 },
		{ "tracebuf record --trigger corpus/xscale/snap", 0 },
		{ "tracebuf record -m corpus/xscale/snap", 0 },
		{ "tracebuf ctl mode corpus/xscale/snap", 0 },
		{ "tracebuf ctl corpus/xscale/snap", 0 },
		{ "tracebuf convert corpus/xscale/snap", 0 },
		{ "tracebuf fdr stats corpus/xscale/snap", 0 },
		{ "tracebuf workload getppid corpus/xscale/snap", 0 },
	};
	unsigned int i;

	if (!self->have)
		SKIP(return, "no bash-completion (scripts/setup.sh installs it)");
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		char *got = complete(c[i].words);
		const char *hit = strstr(got, "corpus/xscale/snapshot.bin");

		if (c[i].files) {
			EXPECT_NE(NULL, hit) TH_LOG("%s: %s", c[i].words, got);
		} else {
			EXPECT_EQ(NULL, hit) TH_LOG("%s: %s", c[i].words, got);
		}
		free(got);
	}
}

/*
 * Every subcommand, and every command word's scope, offers exactly the
 * long options of its table, old spellings left out; so do the old names.
 */
TEST_F(bash, every_subcommand_offers_its_table)
{
	static const char *const olds[][2] = {
		{ "tracebuf-record", "record" }, { "tracebuf-bpf", "bpf" },
		{ "tracebufctl", "ctl" }, { "tbconv", "convert" },
		{ "tbdecode", "decode" }, { "tb-workload", "workload" },
	};
	char *table, *line, *save = NULL, sub[32] = "", scope[64] = "";
	char want[2048] = "", words[256];
	unsigned int i, n = 0;
	int st;

	if (!self->have)
		SKIP(return, "no bash-completion (scripts/setup.sh installs it)");
	table = tu_run(&st, "%s __options | awk -F'\\t' '$6 == \"-\" && $4 != \"-\" "
		       "{ print $1 \" \" $2 \" --\" $4 }' | sort -k1,2 -s; echo end - -",
		       tu_tool("tracebuf"));
	ASSERT_EQ(0, st);
	/* Lines "SUB SCOPE --NAME", grouped by SUB and SCOPE. */
	for (line = strtok_r(table, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char s[32], sc[64], name[40];

		if (sscanf(line, "%31s %63s %39s", s, sc, name) != 3)
			continue;
		if (*sub && (strcmp(s, sub) || strcmp(sc, scope))) {
			char *w = tu_sorted_words(want), *got;
			const char *first = strtok(scope, " ");

			/* A scope of several words: the first one stands for all. */
			snprintf(words, sizeof(words), "tracebuf %s %s --", sub,
				 strcmp(scope, "-") ? first : "");
			got = complete(words);
			EXPECT_STREQ(w, got) TH_LOG("completing: %s", words);
			for (i = 0; i < ARRAY_SIZE(olds) && !strcmp(scope, "-"); i++) {
				char *old;

				if (strcmp(olds[i][1], sub))
					continue;
				snprintf(words, sizeof(words), "%s --", olds[i][0]);
				old = complete(words);
				EXPECT_STREQ(w, old) TH_LOG("completing: %s", words);
				free(old);
			}
			free(w);
			free(got);
			want[0] = 0;
			n++;
		}
		snprintf(sub, sizeof(sub), "%s", s);
		snprintf(scope, sizeof(scope), "%s", sc);
		strcat(want, " ");
		strcat(want, name);
	}
	/* 9 subcommands, fdr config and stats, ctl's 4 commands with options */
	EXPECT_LE(15, n);
	free(table);
}

TEST_HARNESS_MAIN
