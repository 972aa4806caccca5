/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the tracebuf selftests. */
#ifndef TB_SELFTEST_H
#define TB_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TB_DEV		"/dev/tracebuf"
#define TB_FDR_DEV	"/dev/tracebuf_fdr"
#define TB_MODULE	"/lib/tracebuf/tracebuf.ko"

/*
 * @params and what every load of this guest needs (TB_MODULE_PARAMS:
 * tb_emulate=1 under qemu's PXA270, which has no CP14 trace buffer).
 */
static inline const char *tb_module_params(const char *params)
{
	static char buf[256];
	const char *env = getenv("TB_MODULE_PARAMS");

	if (!env || !*env)
		return params;
	snprintf(buf, sizeof(buf), "%s %s", params, env);
	return buf;
}

/* Load or unload the module with the raw syscalls, for exact errnos. */
static inline int tb_module_load(void)
{
	int fd = open(TB_MODULE, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, tb_module_params(""), 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static inline int tb_module_unload(void)
{
	return syscall(SYS_delete_module, "tracebuf", O_NONBLOCK) ? -errno : 0;
}

/*
 * The selftests' test-only module (selftests/kmod: a write handler to
 * trace, WARN and oops on request), loaded once (EEXIST is success) and
 * unloaded, as a module that goes away under a capture.
 */
#define TB_PROVOKE_KO	"/lib/tracebuf-test/tb_provoke.ko"

static inline int tb_provoke_load(void)
{
	int fd = open(TB_PROVOKE_KO, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return ret == -EEXIST ? 0 : ret;
}

static inline int tb_provoke_unload(void)
{
	return syscall(SYS_delete_module, "tb_provoke", O_NONBLOCK) ? -errno : 0;
}

/*
 * Drop CAP_SYS_ADMIN and CAP_PERFMON but stay root, so that only the
 * driver's capability check, not the node's file mode, can refuse an open.
 */
static inline int tb_drop_trace_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	for (i = 0; i < 2; i++) {
		__u32 mask = 0;

		if (CAP_SYS_ADMIN / 32 == i)
			mask |= 1U << (CAP_SYS_ADMIN % 32);
		if (CAP_PERFMON / 32 == i)
			mask |= 1U << (CAP_PERFMON % 32);
		data[i].effective &= ~mask;
		data[i].permitted &= ~mask;
		data[i].inheritable &= ~mask;
	}
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* Drop every privilege: run the rest of a forked child as nobody. */
static inline int tb_drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return -errno;
	return 0;
}

/* The first line of /proc/self/task/@tid/@what, or "" (no newline). */
static inline void tb_task_read(int tid, const char *what, char *out,
				size_t size)
{
	char path[64];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, what);
	f = fopen(path, "r");
	if (f) {
		n = fread(out, 1, size - 1, f);
		fclose(f);
	}
	out[n] = 0;
}

/*
 * Where thread @tid of this process is, for a failure's log: its state
 * letter, the system call it is in with its arguments (syscall: number,
 * then the registers), the function it sleeps in and, where the kernel
 * can unwind it, its kernel stack (root reads them).  Enough to tell a
 * thread that waits in a read() for data that never comes from one that
 * waits for a lock, spins, or has ended.
 */
static inline void tb_task_where(int tid, char *out, size_t size)
{
	char stat[160], state[2] = "?", sys[160], wchan[64], stack[1024];
	char *p;

	tb_task_read(tid, "stat", stat, sizeof(stat));
	p = strrchr(stat, ')');
	if (p && p[1] && p[2])
		state[0] = p[2];
	else if (!stat[0])
		snprintf(state, sizeof(state), "-");	/* gone */
	tb_task_read(tid, "syscall", sys, sizeof(sys));
	sys[strcspn(sys, "\n")] = 0;
	tb_task_read(tid, "wchan", wchan, sizeof(wchan));
	tb_task_read(tid, "stack", stack, sizeof(stack));
	/* A long stack is cut short: what fits is what matters most. */
	if (snprintf(out, size, "tid %d state %s, syscall %s, wchan %s; stack:\n%s",
		     tid, state, sys[0] ? sys : "?", wchan[0] ? wchan : "?",
		     stack) >= (int)size && size > 4)
		memcpy(out + size - 4, "...", 4);
}

/*
 * A child asleep in a kernel function it cannot leave until told: read()
 * of an empty pipe, inside pipe_read (kernel-function tests hold a
 * kretprobe instance with it).
 */
struct tb_sleeper {
	int pipe[2];
	pid_t pid;
};

/* A child asleep in read() of an empty pipe: inside pipe_read. */
static inline int tb_sleeper_start(struct tb_sleeper *s)
{
	char c;

	if (pipe(s->pipe))
		return -1;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (!s->pid) {
		int fd;

		/* Nothing else: an inherited device file would pin the module. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != s->pipe[0])
				close(fd);
		_exit(read(s->pipe[0], &c, 1) == 1 ? 0 : 1);
	}
	close(s->pipe[0]);
	return 0;
}

static inline int tb_sleeper_end(struct tb_sleeper *s)
{
	int status;

	if (write(s->pipe[1], "x", 1) != 1)
		return -1;
	close(s->pipe[1]);
	if (waitpid(s->pid, &status, 0) != s->pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* Wait until the child sleeps (state S in /proc/PID/stat). */
static inline void tb_sleeper_wait(const struct tb_sleeper *s)
{
	char path[64], buf[256], *p;
	int i, fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", s->pid);
	for (i = 0; i < 500; i++) {
		fd = open(path, O_RDONLY);
		buf[0] = '\0';
		if (fd >= 0) {
			buf[read(fd, buf, sizeof(buf) - 1) > 0 ? sizeof(buf) - 1 : 0] = '\0';
			close(fd);
		}
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return;
		usleep(10000);
	}
}

#endif /* TB_SELFTEST_H */
