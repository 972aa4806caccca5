// SPDX-License-Identifier: GPL-2.0
/* Task names of a trace; see format/task_map.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "format/task_map.h"
#include "util/buf.h"

/* Idle tids: one per CPU, far above any pid the kernel hands out. */
#define TB_TASK_IDLE_CPUS	0x10000

void tb_task_map_init(struct tb_task_map *m)
{
	memset(m, 0, sizeof(*m));
}

void tb_task_map_free(struct tb_task_map *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

size_t tb_task_map_index(const void *v, size_t n, size_t size, int32_t tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int32_t at;

		memcpy(&at, (const char *)v + mid * size, sizeof(at));
		if (at < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of @tid, or of where it would go (and *found false). */
static size_t tm_index(const struct tb_task_map *m, int32_t tid, bool *found)
{
	size_t lo = tb_task_map_index(m->v, m->n, sizeof(*m->v), tid);

	*found = lo < m->n && m->v[lo].tid == tid;
	return lo;
}

int tb_task_map_set(struct tb_task_map *m, int32_t tid, int32_t pid,
		    const char *comm)
{
	struct tb_task *t;
	bool found;
	size_t i = tm_index(m, tid, &found);

	if (!found) {
		if (tb_buf_array_grow(&m->v, &m->cap, m->n + 1, sizeof(*m->v)))
			return -ENOMEM;
		memmove(&m->v[i + 1], &m->v[i], (m->n - i) * sizeof(*t));
		m->n++;
	}
	t = &m->v[i];
	t->tid = tid;
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return 0;
}

const struct tb_task *tb_task_map_find(const struct tb_task_map *m,
				       int32_t tid)
{
	bool found;
	size_t i = tm_index(m, tid, &found);

	return found ? &m->v[i] : NULL;
}

int tb_task_map_idle_cpu(int32_t tid)
{
	int64_t cpu = (int64_t)tid - TRACEBUF_FDR_IDLE_TID(0);

	return cpu < 0 || cpu >= TB_TASK_IDLE_CPUS ? -1 : (int)cpu;
}

int32_t tb_task_map_shown_tid(int32_t tid)
{
	return tb_task_map_idle_cpu(tid) < 0 ? tid : 0;
}

const char *tb_task_map_comm(const struct tb_task_map *m, int32_t tid,
			     char buf[TB_TASK_COMM_LEN])
{
	const struct tb_task *t = m ? tb_task_map_find(m, tid) : NULL;
	int cpu = tb_task_map_idle_cpu(tid);

	if (t)
		return t->comm;
	if (cpu < 0)
		return NULL;
	/* "swapper/65535" and its NUL fit TB_TASK_COMM_LEN. */
	snprintf(buf, TB_TASK_COMM_LEN, "swapper/%d", cpu);
	return buf;
}

/* The contents of a small file at @dirfd/@name, without its newline. */
static int tm_read_small(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t len;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	if (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return 0;
}

/* A decimal number that fits an int32_t, or -1. */
static int32_t tm_number(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > INT32_MAX)
		return -1;
	return (int32_t)v;
}

/* The threads of process @pid (its directory @pfd). */
static int tm_scan_process(struct tb_task_map *m, int pfd, int32_t pid)
{
	char comm[TB_TASK_COMM_LEN + 8];
	struct dirent *de;
	int n = 0, tfd;
	DIR *d;

	tfd = openat(pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return 0;	/* exited meanwhile */
	d = fdopendir(tfd);
	if (!d) {
		close(tfd);
		return 0;
	}
	while ((de = readdir(d))) {
		int32_t tid = tm_number(de->d_name);
		char path[sizeof(de->d_name) + 8];

		if (tid < 0)
			continue;
		snprintf(path, sizeof(path), "%s/comm", de->d_name);
		if (tm_read_small(tfd, path, comm, sizeof(comm)))
			continue;
		if (tb_task_map_set(m, tid, pid, comm)) {
			closedir(d);
			return -ENOMEM;
		}
		n++;
	}
	closedir(d);
	return n;
}

int tb_task_map_scan(struct tb_task_map *m, const char *proc)
{
	struct dirent *de;
	int n = 0, ret;
	DIR *d = opendir(proc);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int32_t pid = tm_number(de->d_name);
		int pfd;

		if (pid < 0)
			continue;
		pfd = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0)
			continue;
		ret = tm_scan_process(m, pfd, pid);
		close(pfd);
		if (ret < 0) {
			closedir(d);
			return ret;
		}
		n += ret;
	}
	closedir(d);
	return n;
}

int tb_task_map_scan_pid(struct tb_task_map *m, const char *proc, int32_t pid)
{
	char path[PATH_MAX];
	int pfd, ret;

	snprintf(path, sizeof(path), "%s/%d", proc, pid);
	pfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	ret = tm_scan_process(m, pfd, pid);
	close(pfd);
	return ret;
}

int tb_task_map_write(const struct tb_task_map *m, FILE *out)
{
	size_t i;
	const char *c;

	fprintf(out, "# tracebuf tasks: TID PID COMM\n");
	for (i = 0; i < m->n; i++) {
		fprintf(out, "%d %d ", m->v[i].tid, m->v[i].pid);
		for (c = m->v[i].comm; *c; c++) {
			unsigned char b = (unsigned char)*c;

			if (b < 0x20 || b >= 0x7f || b == '\\')
				fprintf(out, "\\x%02x", b);
			else
				fputc(b, out);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static int tm_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* COMM with its \xNN escapes undone into @out; false if malformed. */
static bool tm_unescape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	while (*s) {
		int c = (unsigned char)*s++;

		if (c == '\\') {
			int hi, lo;

			if (*s++ != 'x')
				return false;
			hi = tm_hex((unsigned char)s[0]);
			lo = hi < 0 ? -1 : tm_hex((unsigned char)s[1]);
			if (lo < 0)
				return false;
			c = hi << 4 | lo;
			s += 2;
			if (!c)
				return false;
		}
		if (n + 1 >= size)
			return false;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return n > 0;
}

/* One "TID PID COMM" line (no newline); false if malformed. */
static bool tm_parse(char *line, int32_t *tid, int32_t *pid, char *comm)
{
	char *sp1 = strchr(line, ' '), *sp2;

	if (!sp1)
		return false;
	*sp1 = '\0';
	sp2 = strchr(sp1 + 1, ' ');
	if (!sp2)
		return false;
	*sp2 = '\0';
	*tid = tm_number(line);
	*pid = tm_number(sp1 + 1);
	return *tid >= 0 && *pid >= 0 &&
	       tm_unescape(sp2 + 1, comm, TB_TASK_COMM_LEN);
}

int tb_task_map_load(struct tb_task_map *m, const char *path,
		     struct tb_error *err)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		if (errno == ENOENT)
			return -ENOENT;
		tb_error_set(err, 0, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = tb_task_map_load_file(m, f, path, err);
	fclose(f);
	return ret;
}

int tb_task_map_load_file(struct tb_task_map *m, FILE *f, const char *path,
			  struct tb_error *err)
{
	char line[256], comm[TB_TASK_COMM_LEN];
	unsigned int lineno = 0;
	int32_t tid, pid;
	int ret = 0;

	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (len && line[len - 1] == '\n') {
			line[--len] = '\0';
		} else if (!feof(f)) {
			tb_error_set(err, 0, "%s line %u: line too long", path,
				     lineno);
			ret = -1;
			break;
		}
		if (!len || line[0] == '#')
			continue;
		if (!tm_parse(line, &tid, &pid, comm)) {
			tb_error_set(err, 0,
				     "%s line %u: not \"TID PID COMM\"", path,
				     lineno);
			ret = -1;
			break;
		}
		if (tb_task_map_set(m, tid, pid, comm)) {
			tb_error_set(err, 0, "%s: out of memory", path);
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f)) {
		tb_error_set(err, 0, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}
