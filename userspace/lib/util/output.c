// SPDX-License-Identifier: GPL-2.0
/* Output files written whole or not at all; see util/output.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/output.h"

/*
 * Temporary files not yet renamed, removed at exit or on a fatal signal.
 * A slot is filled only once its name is complete and emptied before the
 * name is freed (atomic stores), so the signal handler always sees whole
 * names.
 */
#define MAX_PENDING	32

static char *pending[MAX_PENDING];
static int cleanup_ready;

static void remove_pending(void)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++) {
		char *p = __atomic_load_n(&pending[i], __ATOMIC_SEQ_CST);

		if (p)
			unlink(p);	/* async-signal-safe */
	}
}

static void on_fatal_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * At exit, and on the signals that end a tool by default (a tool that
 * handles one itself, to stop a capture cleanly, keeps its handler).
 */
static void setup_cleanup(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	unsigned int i;

	if (cleanup_ready)
		return;
	cleanup_ready = 1;
	atexit(remove_pending);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(sigs[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigaction(sigs[i], &sa, NULL);
	}
}

static int add_pending(char *tmp)
{
	int i;

	setup_cleanup();
	for (i = 0; i < MAX_PENDING; i++) {
		if (!__atomic_load_n(&pending[i], __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&pending[i], tmp, __ATOMIC_SEQ_CST);
			return 0;
		}
	}
	return -EMFILE;
}

static void drop_pending(const char *tmp)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (__atomic_load_n(&pending[i], __ATOMIC_SEQ_CST) == tmp)
			__atomic_store_n(&pending[i], NULL, __ATOMIC_SEQ_CST);
}

/* Write @path in place: stdout, devices, FIFOs. */
static int open_direct(struct tb_output *o, const char *path)
{
	o->f = fopen(path, "wbe");
	if (!o->f)
		return -errno;
	o->path = strdup(path);
	if (!o->path) {
		fclose(o->f);
		o->f = NULL;
		return -ENOMEM;
	}
	return 0;
}

int tb_output_open(struct tb_output *o, const char *path)
{
	struct stat st;
	mode_t mode, mask;
	char *slash;
	int fd, ret, exists;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	exists = !stat(path, &st);
	if (exists && S_ISDIR(st.st_mode))
		return -EISDIR;
	if (exists && !S_ISREG(st.st_mode))
		return open_direct(o, path);
	/* Replace what a symbolic link points to, not the link. */
	o->path = exists ? realpath(path, NULL) : strdup(path);
	if (!o->path)
		return -errno;
	slash = strrchr(o->path, '/');
	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX",
		     slash ? (int)(slash + 1 - o->path) : 0, o->path,
		     slash ? slash + 1 : o->path) < 0) {
		o->tmp = NULL;
		ret = -ENOMEM;
		goto fail;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		/*
		 * A directory we may not create files in, but an output we
		 * may write: write it in place, as before.
		 */
		if (exists && (ret == -EACCES || ret == -EPERM ||
			       ret == -EROFS) && !access(path, W_OK)) {
			free(o->tmp);
			free(o->path);
			o->tmp = NULL;
			o->path = NULL;
			return open_direct(o, path);
		}
		goto fail;
	}
	/* The mode an existing output had, or what fopen() would give. */
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	ret = fchmod(fd, mode) ? -errno : add_pending(o->tmp);
	if (ret) {
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		ret = -errno;
		close(fd);
		tb_output_abort(o);
		return ret;
	}
	return 0;
fail:
	free(o->tmp);
	free(o->path);
	o->tmp = NULL;
	o->path = NULL;
	return ret;
}

static void release(struct tb_output *o)
{
	if (o->tmp) {
		drop_pending(o->tmp);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = NULL;
	o->path = NULL;
	o->f = NULL;
}

int tb_output_commit(struct tb_output *o)
{
	int ret = 0;

	if (!o->f)
		return -EBADF;
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		ret = errno ? -errno : -EIO;
	if (o->f == stdout) {
		o->f = NULL;
		return ret;
	}
	if (fclose(o->f) && !ret)
		ret = errno ? -errno : -EIO;
	o->f = NULL;
	if (!ret && o->tmp && rename(o->tmp, o->path))
		ret = -errno;
	if (!ret && o->tmp) {
		drop_pending(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	release(o);
	return ret;
}

void tb_output_abort(struct tb_output *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	release(o);
}

bool tb_output_same_file(FILE *f, const char *path)
{
	struct stat a, b;

	return f && !fstat(fileno(f), &a) && !stat(path, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool tb_output_same_path(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}
