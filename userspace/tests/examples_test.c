// SPDX-License-Identifier: GPL-2.0
/*
 * The man pages' EXAMPLES (issue 27 item 4): every page has some, and
 * the host-side ones run.  Host-side are the examples of the pages of
 * convert, decode, report, diff, script and tracebuf(1) whose tracebuf
 * commands are all convert, decode, report, diff, script or help, and
 * that read no device: they run in a directory holding the files they
 * name (trace.fdr with its .names and .tasks, a kernel trace from the
 * demo, and before.fdr and after.fdr, copies of it; chain.rec, XScale
 * records) and must exit 0.
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "tb_test_util.h"

#define MANDIR	"../../Documentation/man"

static const char *const pages[] = {
	"tracebuf.1", "tracebuf.4", "tracebuf-record.1", "tracebuf-bpf.1",
	"tracebuf-report.1", "tracebuf-diff.1", "tracebuf-script.1",
	"tracebuf-top.1", "tracebuf-crash.1", "tracebuf-fdr.1",
	"tracebuf-ctl.1", "tracebuf-convert.1", "tracebuf-decode.1",
	"tracebuf-workload.1",
};

static const char *const host_pages[] = {
	"tracebuf.1", "tracebuf-report.1", "tracebuf-diff.1",
	"tracebuf-script.1", "tracebuf-convert.1", "tracebuf-decode.1",
};

/*
 * The command lines of @rst's EXAMPLES section: its literal blocks'
 * lines (indented by four), continuation lines joined, one per line of
 * the returned text.
 */
static char *examples(const char *rst)
{
	const char *p = strstr(rst, "\nEXAMPLES\n========\n"), *end;
	char *out = calloc(1, strlen(rst) + 1);
	size_t n = 0;

	if (!p || !out)
		return out;
	p += strlen("\nEXAMPLES\n========\n");
	end = strstr(p, "\n=====");
	if (end)	/* back to the start of the next heading's title */
		while (end > p && end[-1] != '\n')
			end--;
	while (p && *p && (!end || p < end)) {
		const char *line = p;
		size_t len = strcspn(p, "\n");

		p = p[len] ? p + len + 1 : NULL;
		if (strncmp(line, "    ", 4) || len <= 4)
			continue;
		/* A continuation's deeper indent. */
		while (line[4] == ' ') {
			line++;
			len--;
		}
		memcpy(out + n, line + 4, len - 4);
		n += len - 4;
		if (out[n - 1] == '\\')
			out[--n] = ' ';
		else
			out[n++] = '\n';
	}
	return out;
}

TEST(every_page_has_examples)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		char path[256], *rst, *ex;

		snprintf(path, sizeof(path), MANDIR "/%s.rst", pages[i]);
		rst = tu_slurp(path);
		ASSERT_NE(NULL, rst) TH_LOG("%s", path);
		ex = examples(rst);
		EXPECT_NE(NULL, strstr(ex, "tracebuf")) {
			TH_LOG("%s: no EXAMPLES section with a tracebuf command", pages[i]);
		}
		free(ex);
		free(rst);
	}
}

/* Does @line run here: only host-side subcommands, no device? */
static bool host_side(const char *line)
{
	static const char *const subs[] = {
		"convert ", "decode ", "decode\n", "report ", "report\n",
		"diff ", "script ", "script\n", "help ", "--help",
	};
	const char *p = line;
	unsigned int i;

	if (strstr(line, "/dev/"))
		return false;
	while ((p = strstr(p, "tracebuf "))) {
		p += strlen("tracebuf ");
		for (i = 0; i < ARRAY_SIZE(subs); i++)
			if (!strncmp(p, subs[i], strlen(subs[i])))
				break;
		if (i == ARRAY_SIZE(subs))
			return false;
	}
	return !strncmp(line, "tracebuf ", 9);
}

/*
 * The first program @line runs after a pipe or a list operator that is
 * not installed here (python3 in the PXA guest), into @name; false if all
 * are.  Such a line is left out, and said so.
 */
static bool needs_absent_program(const char *line, char *name, size_t n)
{
	const char *p = line;

	while ((p = strpbrk(p, "|&;"))) {
		size_t len;

		p += strspn(p, "|&; ");
		len = strcspn(p, " |&;");
		if (!len || len >= n)
			continue;
		memcpy(name, p, len);
		name[len] = 0;
		if (strcmp(name, "tracebuf") && !tu_have(name))
			return true;
	}
	return false;
}

TEST(host_side_examples_run)
{
	char *dir = tu_tmpdir(), bin[2200], *slash, *out;
	unsigned int i, ran = 0;
	int st;

	snprintf(bin, sizeof(bin), "%s", tu_tool("tracebuf"));
	slash = strrchr(bin, '/');
	ASSERT_NE(NULL, slash);
	*slash = 0;
	out = tu_run(&st, "cp data/viewer/demo.fdr %s/trace.fdr && "
		     "cp data/viewer/demo.fdr.names %s/trace.fdr.names && "
		     "cp data/viewer/demo.fdr.tasks %s/trace.fdr.tasks && "
		     "cp data/corpus/xscale/gen-three-checkpoints.bin %s/chain.rec",
		     dir, dir, dir, dir);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	/* tracebuf-diff(1)'s two runs: the demo's trace twice. */
	out = tu_run(&st, "cd %s && for f in before after; do "
		     "cp trace.fdr $f.fdr && cp trace.fdr.names $f.fdr.names; "
		     "done", dir);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	for (i = 0; i < ARRAY_SIZE(host_pages); i++) {
		char path[256], *rst, *ex, *line, *save = NULL;

		snprintf(path, sizeof(path), MANDIR "/%s.rst", host_pages[i]);
		rst = tu_slurp(path);
		ASSERT_NE(NULL, rst);
		ex = examples(rst);
		for (line = strtok_r(ex, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char absent[64];
			FILE *f;

			if (!host_side(line))
				continue;
			if (needs_absent_program(line, absent, sizeof(absent))) {
				TH_LOG("%s: '%s' not run: no %s here",
				       host_pages[i], line, absent);
				continue;
			}
			/* As a script: the line may hold any quotes. */
			snprintf(path, sizeof(path), "%s/example.sh", dir);
			f = fopen(path, "w");
			ASSERT_NE(NULL, f);
			fprintf(f, "%s\n", line);
			fclose(f);
			out = tu_run(&st, "cd %s && PATH=%s:$PATH sh example.sh >/dev/null",
				     dir, bin);
			EXPECT_EQ(0, st) TH_LOG("%s: '%s': %s", host_pages[i], line, out);
			free(out);
			ran++;
		}
		free(ex);
		free(rst);
	}
	/* Enough ran that the filter did not drop them all. */
	EXPECT_LE(10, ran);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
