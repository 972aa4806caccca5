// SPDX-License-Identifier: GPL-2.0
/* A trace's names and tasks, for every reader; see convert/trace_names.h. */
#include <errno.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert/trace_names.h"
#include "util/companion.h"
#include "util/sniff.h"

/* A message that is no parse error: no offset in it. */
static void say(struct tb_error *err, const char *fmt, ...)
{
	va_list ap;

	err->offset = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/*
 * How each kind of companion begins, in its first two lines: its capture
 * line (format/fdr_meta.h), else, in files written before there was
 * one, the heading tb_fdr_post_names() and tb_task_map_write() write.
 */
static const char *const names_marks[] = {
	"# tracebuf names", "# function ids of the trace", NULL,
};
static const char *const tasks_marks[] = { "# tracebuf tasks", NULL };

/* Does one of @f's first two lines begin with one of @marks? */
static bool marked(FILE *f, const char *const *marks)
{
	char line[128];
	bool hit = false;
	unsigned int i, k;

	for (i = 0; i < 2 && !hit && fgets(line, sizeof(line), f); i++)
		for (k = 0; marks[k] && !hit; k++)
			hit = !strncmp(line, marks[k], strlen(marks[k]));
	rewind(f);
	return hit;
}

/*
 * Check companion @path (open as @f), expected to begin with capture line
 * @own, against the trace: 0 to load it, -1 with @err set to refuse it.
 * @other are the marks of the other kind of companion, called @other_what.
 */
static int check(const struct tb_trace_names *t, const char *opt,
		 const char *path, FILE *f, const char *buf, size_t len,
		 const char *own, const char *const *other, const char *what,
		 const char *other_what, struct tb_error *err)
{
	enum tb_sniff_kind k = tb_sniff_bytes((const uint8_t *)buf, len);
	char line[128], a[17], b[17];
	uint64_t id;
	int has;

	if (marked(f, other)) {
		say(err, "%s%s is %s, not %s: refused", opt, path,
		    other_what, what);
		return -1;
	}
	if (k != TB_SNIFF_UNKNOWN && k != TB_SNIFF_NAMES) {
		char msg[400];

		if (tb_sniff_mismatch(path, TB_SNIFF_NAMES, msg, sizeof(msg)) &&
		    !strcmp(what, "a names file"))
			say(err, "%s%s", opt, msg);
		else
			say(err, "%s%s is not %s (its first bytes are another kind of file's): refused",
			    opt, path, what);
		return -1;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	rewind(f);
	has = tb_fdr_meta_id_line(line, own, &id);
	/*
	 * A damaged capture line says nothing of the capture it belongs
	 * to: refused, never taken as matching, even by a trace with no id
	 * to check it against.
	 */
	if (has < 0) {
		say(err, "%s%s: its first line is damaged (not \"%sID\", ID 16 hex digits): refused; without that line it reads as a file of no capture, unchecked",
		    opt, path, own);
		return -1;
	}
	if (!has || !t->meta.has_id || id == t->meta.id)
		return 0;
	tb_fdr_meta_id_text(id, a);
	tb_fdr_meta_id_text(t->meta.id, b);
	say(err, "%s%s is of capture %s, the trace of capture %s: the companion of another recording, refused",
	    opt, path, a, b);
	return -1;
}

/* A companion larger than this is no names or tasks file of ours. */
#define TB_COMPANION_MAX	(256UL << 20)

/*
 * Companion @path, read whole into *@buf (free it after the stream) and
 * opened in memory: checking its first lines and loading it then read
 * the same bytes even when @path is a pipe (--map <(...), /dev/stdin),
 * which can neither be rewound nor opened twice.  NULL with @err set and
 * *@ret the -errno when it cannot be read: a directory (fopen() opens
 * one, and reading it would look like an empty file), or a file past
 * TB_COMPANION_MAX (/dev/zero).
 */
static FILE *open_companion(const char *opt, const char *path, char **buf,
			    size_t *len, int *ret, struct tb_error *err)
{
	FILE *f = fopen(path, "r"), *m = NULL;
	size_t cap = 0, n = 0, got;
	struct stat st;
	char *p;

	*buf = NULL;
	if (f && !fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		f = NULL;
		errno = EISDIR;
	}
	while (f) {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			if (cap > TB_COMPANION_MAX + 1)
				cap = TB_COMPANION_MAX + 1;
			p = n == cap ? NULL : realloc(*buf, cap);
			if (!p) {
				errno = n == cap ? EFBIG : ENOMEM;
				break;
			}
			*buf = p;
		}
		got = fread(*buf + n, 1, cap - n, f);
		n += got;
		if (!got) {
			if (!ferror(f))
				m = fmemopen(*buf ? *buf : (char *)"", n, "r");
			break;
		}
	}
	if (f && !m && errno != EFBIG && ferror(f))
		errno = EIO;
	if (f)
		fclose(f);
	if (!m) {
		*ret = -errno;
		say(err, "%s%s: %s", opt, path, errno == EISDIR ?
		    "is a directory" : errno == EFBIG ?
		    "larger than 256 MiB: no names or tasks file" :
		    strerror(errno));
		free(*buf);
		*buf = NULL;
	}
	*len = n;
	return m;
}

static int load_names_file(struct tb_trace_names *t, const char *opt,
			   const char *path, struct tb_error *err)
{
	int ret = 0;
	size_t len;
	char *buf;
	FILE *f = open_companion(opt, path, &buf, &len, &ret, err);

	if (!f)
		return ret;
	ret = check(t, opt, path, f, buf, len, TB_FDR_META_NAMES_LINE, tasks_marks,
		    "a names file", "a tasks file", err);
	if (!ret && tb_name_map_load(&t->names, f, err)) {
		char msg[sizeof(err->msg)];

		memcpy(msg, err->msg, sizeof(msg));
		say(err, "%s%s: %s", opt, path, msg);
		ret = -1;
	}
	fclose(f);
	free(buf);
	if (!ret)
		t->names_from = path;
	return ret;
}

static int load_tasks_file(struct tb_trace_names *t, const char *opt,
			   const char *path, struct tb_error *err)
{
	int ret = 0;
	size_t len;
	char *buf;
	FILE *f = open_companion(opt, path, &buf, &len, &ret, err);

	if (!f)
		return ret;
	ret = check(t, opt, path, f, buf, len, TB_FDR_META_TASKS_LINE,
		    names_marks, "a tasks file", "a names file", err);
	if (!ret)
		ret = tb_task_map_load_file(&t->tasks, f, path, err);
	fclose(f);
	free(buf);
	if (!ret)
		t->tasks_from = path;
	return ret;
}

/* The META block's text @text as a names or tasks map. */
static int load_embedded(struct tb_trace_names *t, bool names,
			 struct tb_error *err)
{
	char *text = names ? t->meta.names : t->meta.tasks;
	size_t len = names ? t->meta.names_len : t->meta.tasks_len;
	char msg[sizeof(err->msg)];
	FILE *f;
	int ret;

	if (!text)
		return 0;
	f = fmemopen(text, len, "r");
	if (!f) {
		say(err, "out of memory");
		return -ENOMEM;
	}
	if (names)
		ret = tb_name_map_load(&t->names, f, err);
	else
		ret = tb_task_map_load_file(&t->tasks, f, "tasks", err);
	fclose(f);
	if (ret) {
		memcpy(msg, err->msg, sizeof(msg));
		say(err, "the trace's own %s (META block): %s; give the %s with %s, or read the trace without names with --no-names",
		    names ? "names" : "tasks", msg,
		    names ? "names" : "tasks", names ? "--map" : "--tasks");
		return -1;
	}
	if (names)
		t->names_from = TB_TRACE_NAMES_EMBEDDED;
	else
		t->tasks_from = TB_TRACE_NAMES_EMBEDDED;
	return 0;
}

/* INPUT.SUFFIX if it exists, else NULL; -ENOMEM. */
static int beside(const char *input, const char *suffix, char **path)
{
	struct stat st;

	*path = NULL;
	if (!input || !strcmp(input, "-"))
		return 0;
	*path = tb_companion_path(input, suffix);
	if (!*path)
		return -ENOMEM;
	/*
	 * Only a regular file: a FIFO of that name would block the open,
	 * a directory is no companion.
	 */
	if (stat(*path, &st) || !S_ISREG(st.st_mode)) {
		free(*path);
		*path = NULL;
	}
	return 0;
}

int tb_trace_names_load(struct tb_trace_names *t, const char *input, FILE *in,
			const struct tb_trace_names_opts *o,
			struct tb_error *err)
{
	int ret;

	memset(t, 0, sizeof(*t));
	tb_task_map_init(&t->tasks);
	if (o->off)
		return 0;
	ret = tb_fdr_meta_read(in, &t->meta);
	if (ret) {
		say(err, "%s: %s", input ? input : "-",
			     strerror(-ret));
		return ret;
	}
	/*
	 * A META block without a text of names or tasks (a collector that had
	 * none to give) falls back to the companion, checked all the same.
	 */
	if (o->names)
		ret = load_names_file(t, "--map: ", o->names, err);
	else if (t->meta.names)
		ret = load_embedded(t, true, err);
	else {
		ret = beside(input, TB_COMPANION_NAMES, &t->names_path);
		if (!ret && t->names_path)
			ret = load_names_file(t, "", t->names_path, err);
	}
	if (ret)
		return ret;
	if (o->tasks)
		return load_tasks_file(t, "--tasks: ", o->tasks, err);
	if (t->meta.tasks)
		return load_embedded(t, false, err);
	ret = beside(input, TB_COMPANION_TASKS, &t->tasks_path);
	if (!ret && t->tasks_path)
		ret = load_tasks_file(t, "", t->tasks_path, err);
	return ret;
}

bool tb_trace_names_missing(const struct tb_trace_names *t, const char *input,
			    const struct tb_trace_names_opts *o, char *buf,
			    size_t size)
{
	const char *why = t->meta.present ? "its META block has none" :
			  "no META block: an older or llvm-xray trace";

	if (o->off || t->names_from)
		return false;
	if (!input || !strcmp(input, "-"))
		snprintf(buf, size, "the trace carries no names (%s): functions show as numbers; give its names file with --map",
			 why);
	else
		snprintf(buf, size, "%s carries no names (%s) and has no %s%s: functions show as numbers; give its names file with --map",
			 input, why, input, TB_COMPANION_NAMES);
	return true;
}

void tb_trace_names_free(struct tb_trace_names *t)
{
	tb_name_map_free(&t->names);
	tb_task_map_free(&t->tasks);
	tb_fdr_meta_free(&t->meta);
	free(t->names_path);
	free(t->tasks_path);
	memset(t, 0, sizeof(*t));
}
