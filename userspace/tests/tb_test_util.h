/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for host tests: scratch directories, running the real readers
 * (gdb, llvm-xray) and capturing their output, and finding our tools.
 * Header-only because each test source file is its own test binary.
 */
#ifndef TB_TEST_UTIL_H
#define TB_TEST_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The timeout of a test that runs an outside program over hundreds of
 * files (llvm-xray or gdb once or twice a file, our tools on every
 * truncation of a capture): 5 to 10 s each here, plain or ASan, with both
 * cores busy (2026-11-29).  The harness's 30 s left them three times
 * that, which a shared machine twice as slow used up (CI, 2026-11-29:
 * fdr_llvm_test's mutations_match_verify and tools_test's
 * fdr_tidy_hostile_input, 'Test terminated by timeout', and so did
 * tfile_gdb_test's two batches on 10% of one core).  Six times their
 * time, and TB_SLOW stretches it like every other (tb_harness.h).
 */
#define TU_BATCH_TIMEOUT	60

static inline char *tu_tmpdir(void)
{
	char *d = strdup("/tmp/tbtest.XXXXXX");

	if (!d || !mkdtemp(d)) {
		perror("mkdtemp");
		exit(1);
	}
	return d;
}

static inline void tu_rmdir(const char *d)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", d);
}

/* Run a shell command, return its stdout+stderr (malloc'd) and status. */
static inline char *tu_run(int *status, const char *fmt, ...)
{
	char cmd[4096];
	size_t len = 0, cap = 65536;
	char *out = malloc(cap);
	va_list ap;
	FILE *p;
	size_t n;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	p = popen(cmd, "r");
	if (!p || !out) {
		perror("popen");
		exit(1);
	}
	while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 4096) {
			cap *= 2;
			out = realloc(out, cap);
			if (!out)
				exit(1);
		}
	}
	out[len] = 0;
	st = pclose(p);
	if (status)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	return out;
}

static inline int tu_have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/* The whole file at @path, NUL-terminated, to free(); NULL if unreadable. */
static inline char *tu_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		s = calloc(1, n + 1);
		if (s && fread(s, 1, n, f) != (size_t)n) {
			free(s);
			s = NULL;
		}
	}
	fclose(f);
	return s;
}

static inline int tu_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The words of @s (separated by spaces and newlines) sorted, each once,
 * one space apart, to free(); @s is changed.
 */
static inline char *tu_sorted_words(char *s)
{
	char *w[512], *save = NULL, *t, *out;
	size_t n = 0, i, len = strlen(s) + 2;

	for (t = strtok_r(s, " \n", &save); t && n < 512;
	     t = strtok_r(NULL, " \n", &save))
		w[n++] = t;
	qsort(w, n, sizeof(w[0]), tu_cmp_str);
	out = calloc(1, len);
	for (i = 0; out && i < n; i++) {
		if (i && !strcmp(w[i], w[i - 1]))
			continue;
		strcat(out, *out ? " " : "");
		strcat(out, w[i]);
	}
	return out;
}

/* Count lines of @s that contain @needle. */
static inline int tu_count(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

static inline int tu_write(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (!f)
		return -1;
	if (fwrite(p, 1, n, f) != n)
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/*
 * Our tools: next to the test's build directory (build/userspace/), also
 * when the test itself is the sanitizer build (build/userspace-asan/,
 * which builds tests only).
 */
static inline const char *tu_tool(const char *name)
{
	static char path[4][2200];
	static int next;
	char self[1024], *p = path[next++ & 3];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return name;
	self[n] = 0;
	slash = strrchr(self, '/');	/* .../build/userspace-x/tests/t */
	if (slash)
		*slash = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(p, 2200, "%s/%s", self, name);
	if (!access(p, X_OK))
		return p;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(p, 2200, "%s/userspace/%s", self, name);
	return p;
}

#endif /* TB_TEST_UTIL_H */
