// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel function selection for record -f: see device/kfunc.h.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/tracebuf.h>

#include "device/fdr_dev.h"
#include "device/kfunc.h"
#include "util/buf.h"

/* Not a parser: messages without tb_error_set()'s offset. */
__attribute__((format(printf, 2, 3))) /* __printf() is the kernel's */
static void kf_err(struct tb_error *e, const char *fmt, ...)
{
	va_list ap;

	e->offset = 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

/* One function of the kernel's list. */
struct kf_entry {
	char *name;
	unsigned char dup;		/* several functions have this name */
	unsigned char banned;		/* in the kprobe blacklist */
	unsigned char denied;		/* refused by the collector */
	unsigned char chosen;
};

struct kf_table {
	struct kf_entry *e;
	size_t n, cap;
};

static int kf_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kf_entry *)a)->name,
		      ((const struct kf_entry *)b)->name);
}

static struct kf_entry *kf_find(const struct kf_table *t, const char *name)
{
	struct kf_entry key = { .name = (char *)name };

	return bsearch(&key, t->e, t->n, sizeof(key), kf_cmp);
}

static int kf_add(struct kf_table *t, const char *name, size_t len)
{
	if (tb_buf_array_grow(&t->e, &t->cap, t->n + 1, sizeof(*t->e)))
		return -1;
	t->e[t->n].name = strndup(name, len);
	if (!t->e[t->n].name)
		return -1;
	t->e[t->n].dup = 0;
	t->e[t->n].banned = 0;
	t->e[t->n].denied = 0;
	t->e[t->n].chosen = 0;
	t->n++;
	return 0;
}

static void kf_table_free(struct kf_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->e[i].name);
	free(t->e);
}

/* A name the module takes (device/kfunc.c checks the same). */
static int kf_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= TRACEBUF_FDR_KFUNC_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

/*
 * The list, sorted, one entry per name with @dup set where the kernel has
 * several; names the module could not take are left out.
 */
#define KF_FTRACE_PLACEHOLDER	"__ftrace_invalid_address_"

static int kf_load_avail(struct kf_table *t, const char *avail)
{
	const char *p = avail;
	size_t i, j;

	while (*p) {
		size_t len = strcspn(p, " \t\n");

		/*
		 * ftrace lists a weak function the linker dropped as
		 * __ftrace_invalid_address___N: a place, not a function.
		 */
		if (kf_name_ok(p, len) && strncmp(p, KF_FTRACE_PLACEHOLDER,
						  strlen(KF_FTRACE_PLACEHOLDER)) &&
		    kf_add(t, p, len))
			return -1;
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	if (!t->n)
		return 0;
	qsort(t->e, t->n, sizeof(*t->e), kf_cmp);
	for (i = 0, j = 0; i < t->n; i++) {
		if (j && !strcmp(t->e[j - 1].name, t->e[i].name)) {
			t->e[j - 1].dup = 1;
			free(t->e[i].name);
			continue;
		}
		t->e[j++] = t->e[i];
	}
	t->n = j;
	return 0;
}

static void kf_load_blacklist(struct kf_table *t, const char *bl)
{
	const char *p = bl;

	while (p && *p) {
		char name[TRACEBUF_FDR_KFUNC_NAME_MAX];
		struct kf_entry *e;

		if (sscanf(p, "%*s %127[A-Za-z0-9_.]", name) == 1) {
			e = kf_find(t, name);
			if (e)
				e->banned = 1;
		}
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
}

static void kf_load_deny(struct kf_table *t, const struct tb_kfunc_deny *deny)
{
	const char *const *g;
	size_t i;

	for (g = deny ? deny->globs : NULL; g && *g; g++)
		for (i = 0; i < t->n; i++)
			if (!fnmatch(*g, t->e[i].name, 0))
				t->e[i].denied = 1;
}

static int kf_is_glob(const char *pat)
{
	return !!strpbrk(pat, "*?[");
}

/* Mark what @pat matches; the number of functions it matched. */
static int kf_match(struct kf_table *t, const char *pat,
		    const struct tb_kfunc_deny *deny, struct tb_error *err)
{
	struct kf_entry *e;
	size_t i;
	int n = 0;

	if (!kf_is_glob(pat)) {
		e = kf_find(t, pat);
		if (!e) {
			kf_err(err, "'%s' is not a function the kernel can trace (notrace: not in available_filter_functions)",
			       pat);
			return -1;
		}
		if (e->banned) {
			kf_err(err, "'%s' is in the kprobe blacklist", pat);
			return -1;
		}
		if (e->denied) {
			kf_err(err, "'%s' %s", pat, deny->why);
			return -1;
		}
		if (e->dup) {
			kf_err(err, "'%s' names several kernel functions; a probe cannot tell them apart",
			       pat);
			return -1;
		}
		e->chosen = 1;
		return 1;
	}
	for (i = 0; i < t->n; i++) {
		e = &t->e[i];
		if (e->banned || e->denied || e->dup || fnmatch(pat, e->name, 0))
			continue;
		e->chosen = 1;
		n++;
	}
	if (!n) {
		kf_err(err, "pattern '%s' matches no traceable kernel function", pat);
		return -1;
	}
	return n;
}

static int kf_check_pattern(const char *pat, struct tb_error *err)
{
	size_t i;

	if (!*pat) {
		kf_err(err, "empty function pattern");
		return -1;
	}
	for (i = 0; pat[i]; i++)
		if (!kf_name_ok(pat + i, 1) && !strchr("*?[]!-^", pat[i])) {
			kf_err(err, "bad character '%c' in function pattern '%s'",
			       pat[i], pat);
			return -1;
		}
	return 0;
}

int tb_kfunc_select(const char *patterns, const char *avail,
		    const char *blacklist, const struct tb_kfunc_deny *deny,
		    size_t limit, struct tb_kfuncs *out, struct tb_error *err)
{
	struct kf_table t = { 0 };
	char *pats, *pat, *save = NULL;
	size_t i, n = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	pats = strdup(patterns);
	if (!pats || kf_load_avail(&t, avail)) {
		kf_err(err, "out of memory");
		goto out;
	}
	kf_load_blacklist(&t, blacklist);
	kf_load_deny(&t, deny);
	if (!*patterns) {
		kf_err(err, "empty function pattern");
		goto out;
	}
	/* strtok_r would skip empty patterns ("a,,b"): refuse them. */
	for (pat = pats; pat; pat = save) {
		save = strchr(pat, ',');
		if (save)
			*save++ = '\0';
		if (kf_check_pattern(pat, err) || kf_match(&t, pat, deny, err) < 0)
			goto out;
	}
	for (i = 0; i < t.n; i++)
		n += t.e[i].chosen;
	if (n > limit) {
		kf_err(err, "'%s' selects %zu kernel functions, at most %zu can be traced: narrow the patterns",
		       patterns, n, limit);
		goto out;
	}
	out->names = calloc(n ? n : 1, sizeof(*out->names));
	if (!out->names) {
		kf_err(err, "out of memory");
		goto out;
	}
	for (i = 0; i < t.n; i++) {
		if (!t.e[i].chosen)
			continue;
		out->names[out->n++] = t.e[i].name;
		t.e[i].name = NULL;
	}
	ret = 0;
out:
	kf_table_free(&t);
	free(pats);
	return ret;
}

/* A whole file as a string; NULL with errno set. */
static char *kf_slurp(const char *path)
{
	struct tb_buf b = { 0 };
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return NULL;
	ret = tb_buf_read_file(&b, f);
	fclose(f);
	if (!ret)
		ret = tb_buf_append(&b, "", 1);
	if (ret) {
		tb_buf_free(&b);
		errno = -ret;
		return NULL;
	}
	return b.data;
}

int tb_kfunc_select_kernel(const char *patterns,
			   const struct tb_kfunc_deny *deny, size_t limit,
			   struct tb_kfuncs *out, struct tb_error *err)
{
	static const char * const paths[] = TB_KFUNC_AVAIL_PATHS;
	char *avail = NULL, *bl;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]) && !avail; i++)
		avail = kf_slurp(paths[i]);
	if (!avail) {
		kf_err(err, "%s: %s (is tracefs mounted?)", paths[0],
		       strerror(errno));
		return -1;
	}
	/* Without debugfs the module still refuses them, by name. */
	bl = kf_slurp(TB_KFUNC_BLACKLIST_PATH);
	ret = tb_kfunc_select(patterns, avail, bl, deny, limit, out, err);
	free(avail);
	free(bl);
	return ret;
}

size_t tb_kfunc_limit(uint32_t maxactive)
{
	size_t by_mem;

	if (!maxactive)
		maxactive = TRACEBUF_FDR_KFUNC_ACTIVE_DEFAULT;
	by_mem = TRACEBUF_FDR_KFUNC_INSTANCES_MAX / maxactive;
	return by_mem < TRACEBUF_FDR_KFUNC_MAX ? by_mem : TRACEBUF_FDR_KFUNC_MAX;
}

/*
 * Why the module refused @name (EINVAL): the module and the selector keep
 * one rule, the kernel's traceable set (available_filter_functions) less
 * the kprobe blacklist, so the selector's own verdict names the reason;
 * the module's own functions are the one case the lists do not show.
 */
static void kf_refused(const char *name, struct tb_error *err)
{
	struct tb_kfuncs one = { 0 };
	struct tb_error why;

	if (tb_kfunc_select_kernel(name, NULL, 1, &one, &why) < 0) {
		kf_err(err, "kernel function %s", why.msg);
		return;
	}
	tb_kfunc_free(&one);
	kf_err(err, "kernel function '%s': the kernel refuses to probe it (kprobes, or the tracebuf module's own code)",
	       name);
}

int tb_kfunc_set(int fd, const struct tb_kfuncs *k, uint32_t maxactive,
		 struct tb_error *err)
{
	struct tracebuf_fdr_kfuncs kf = { .maxactive = maxactive };
	size_t i, len = 0;
	char *text;
	int ret;

	for (i = 0; i < k->n; i++)
		len += strlen(k->names[i]) + 1;
	text = malloc(len + 1);
	if (!text) {
		kf_err(err, "out of memory");
		return -1;
	}
	for (i = 0, len = 0; i < k->n; i++)
		len += sprintf(text + len, "%s\n", k->names[i]);
	kf.names = (uintptr_t)text;
	kf.len = len;
	ret = ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &kf);
	free(text);
	if (!ret)
		return 0;
	if (errno == EOPNOTSUPP)
		kf_err(err, "kernel functions: the module was built without CONFIG_KRETPROBES or CONFIG_DYNAMIC_FTRACE");
	else if (errno == EPERM)
		kf_err(err, "kernel functions: %s", TB_FDR_KPROBES_EPERM);
	else if (kf.failed < k->n && errno == EINVAL)
		kf_refused(k->names[kf.failed], err);
	else if (kf.failed < k->n)
		kf_err(err, "kernel function '%s': %s", k->names[kf.failed],
			strerror(errno));
	else
		kf_err(err, "kernel functions: %s", strerror(errno));
	return -1;
}

int tb_kfunc_write_list(const struct tb_kfuncs *k, const char *path,
			struct tb_error *err)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f) {
		kf_err(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# ID NAME: kernel functions recorded (kernel id)\n");
	for (i = 0; i < k->n; i++)
		fprintf(f, "%x %s\n",
			TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, (unsigned int)i),
			k->names[i]);
	if (fclose(f)) {
		kf_err(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int tb_kfunc_write_beside(const struct tb_kfuncs *k, const char *trace,
			  struct tb_error *err)
{
	char *path = malloc(strlen(trace) + sizeof(".kfuncs"));
	int ret;

	if (!path) {
		kf_err(err, "out of memory");
		return -1;
	}
	sprintf(path, "%s.kfuncs", trace);
	ret = tb_kfunc_write_list(k, path, err);
	free(path);
	return ret;
}

void tb_kfunc_print(const struct tb_kfuncs *k)
{
	size_t i;

	printf("kernel functions (%zu):\n", k->n);
	for (i = 0; i < k->n; i++)
		printf("  %s\n", k->names[i]);
}

void tb_kfunc_write_names(const struct tb_kfuncs *k, FILE *out)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		fprintf(out, "%x kfunc %s\n",
			TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, (unsigned int)i),
			k->names[i]);
}

void tb_kfunc_free(struct tb_kfuncs *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->names[i]);
	free(k->names);
	memset(k, 0, sizeof(*k));
}
