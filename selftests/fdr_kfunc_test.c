// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions as XRay functions (TRACEBUF_FDR_IOC_KFUNCS): a workload
 * of known call structure (read() of /dev/zero: the read syscall calls
 * vfs_read, which calls rw_verify_area and then read_zero / read_iter_zero)
 * gives exactly one entry and one exit per call, nested as the code nests
 * them, interrupts inside included; bad lists, limits and refused
 * functions give their errors; calls that cannot be followed are counted
 * and reported; stopping, restarting and unloading while a traced call
 * sleeps are clean.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "fdr_util.h"
#include "fdr_trig_util.h"
#include "kfunc_nest.h"
#include "tb_stress.h"

static int set_kfuncs(int fd, const char *names, uint32_t maxactive,
		      struct tracebuf_fdr_kfuncs *out)
{
	struct tracebuf_fdr_kfuncs kf = {
		.names = (uintptr_t)names,
		.len = names ? strlen(names) : 0,
		.maxactive = maxactive,
	};
	int ret = ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &kf) ? -errno : 0;

	if (out)
		*out = kf;
	return ret;
}

/* Module built without kretprobes: every test that needs them skips. */
static int kfuncs_supported(int fd)
{
	int ret = set_kfuncs(fd, "vfs_read\n", 0, NULL);

	set_kfuncs(fd, NULL, 0, NULL);
	return ret != -EOPNOTSUPP;
}

static int check_stream(int fd, struct nest *n, char *err, size_t errlen)
{
	size_t len;
	uint8_t *buf;
	int ret;

	buf = fdr_read_all(fd, &len);
	if (!buf)
		return -1;
	ret = fdr_check(buf, len, nest_cb, n, err, errlen);
	free(buf);
	return ret;
}

FIXTURE(kfunc) {
	int fd;
};

FIXTURE_SETUP(kfunc)
{
	self->fd = fdr_open_stopped();
	ASSERT_LE(0, self->fd);
	if (!kfuncs_supported(self->fd))
		SKIP(return, "module built without CONFIG_KRETPROBES");
}

FIXTURE_TEARDOWN(kfunc)
{
	ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
	set_kfuncs(self->fd, NULL, 0, NULL);
	close(self->fd);
}

/*
 * N reads of /dev/zero: exactly N vfs_read calls of this thread, each
 * inside its read syscall, each holding exactly one rw_verify_area and one
 * read_zero (/dev/zero has a .read, which vfs_read prefers), and
 * every exit closing the innermost open call.  The big reads give the
 * interrupts time to land inside vfs_read, and they must nest there too.
 */
#define NREADS		400
#define NBIG		40

TEST_F(kfunc, nesting_exact)
{
	static char buf[4 << 20];
	struct tracebuf_fdr_stats st;
	struct tracebuf_fdr_kfuncs kf;
	struct nest n = { 0 };
	char err[256] = "";
	int zfd, i;

	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |
				TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED,
				TRACEBUF_FDR_MODE_FLIGHT, 16 << 20, 0));
	ASSERT_EQ(0, set_kfuncs(self->fd, "vfs_read\nrw_verify_area\nread_zero\n",
				0, &kf));
	EXPECT_EQ(3U, kf.count);
	EXPECT_EQ(TRACEBUF_FDR_KFUNC_NONE, kf.failed);
	zfd = open("/dev/zero", O_RDONLY);
	ASSERT_LE(0, zfd);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < NREADS; i++)
		ASSERT_EQ(1, read(zfd, buf, 1));
	for (i = 0; i < NBIG; i++)
		ASSERT_EQ((ssize_t)sizeof(buf), read(zfd, buf, sizeof(buf)));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	close(zfd);
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	ASSERT_EQ(0ULL, st.dropped);
	ASSERT_EQ(0ULL, st.overwritten);

	n.tid = syscall(SYS_gettid);
	n.outer = KF(0);
	ASSERT_LT(0, check_stream(self->fd, &n, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, n.errors);
	EXPECT_EQ(NREADS + NBIG, n.enter[0]);
	EXPECT_EQ(NREADS + NBIG, n.exit[0]);
	/*
	 * vfs_read's own call of rw_verify_area is inlined in some kernels
	 * (the tinyconfig debug kernel); the probe then sees no call at all.
	 */
	if (n.enter[1] || n.exit[1]) {
		EXPECT_EQ(NREADS + NBIG, n.enter[1]);
		EXPECT_EQ(NREADS + NBIG, n.exit[1]);
		EXPECT_EQ(NREADS + NBIG, n.in_outer[1]);
	} else {
		TH_LOG("rw_verify_area is inlined in vfs_read here");
	}
	EXPECT_EQ(NREADS + NBIG, n.enter[2]);
	EXPECT_EQ(NREADS + NBIG, n.exit[2]);
	EXPECT_EQ(NREADS + NBIG, n.in_outer[2]);
	EXPECT_EQ(0U, n.sys_outside);
	EXPECT_EQ(0U, n.lost_reports);
	TH_LOG("%u interrupts inside vfs_read", n.irq_inside);
}

/* The ids are named by NAMES, in list order. */
TEST_F(kfunc, names)
{
	struct tracebuf_fdr_names nm = { 0 };
	char *text, line[64];

	ASSERT_EQ(0, set_kfuncs(self->fd, "vfs_read\nvfs_write\n", 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_NAMES, &nm));
	text = calloc(1, nm.size + 1);
	ASSERT_NE(NULL, text);
	nm.buf = (uintptr_t)text;
	nm.len = nm.size;
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_NAMES, &nm));
	snprintf(line, sizeof(line), "%x kfunc vfs_read\n", KF(0));
	EXPECT_NE(NULL, strstr(text, line));
	snprintf(line, sizeof(line), "%x kfunc vfs_write\n", KF(1));
	EXPECT_NE(NULL, strstr(text, line));
	/* Cleared: no kfunc line left. */
	ASSERT_EQ(0, set_kfuncs(self->fd, NULL, 0, NULL));
	nm.len = nm.size;
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_NAMES, &nm));
	text[nm.size < nm.len ? nm.size : nm.len] = '\0';
	EXPECT_EQ(NULL, strstr(text, " kfunc "));
	free(text);
}

static int names_have_kfunc(int fd)
{
	struct tracebuf_fdr_names nm = { 0 };
	char *text;
	int has;

	if (ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &nm))
		return -1;
	text = calloc(1, nm.size + 1);
	nm.buf = (uintptr_t)text;
	nm.len = nm.size;
	if (!text || ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &nm))
		return -1;
	has = strstr(text, " kfunc ") != NULL;
	free(text);
	return has;
}

/* Each bad list: its errno, the index to blame, and no list left. */
TEST_F(kfunc, bad_lists)
{
	static const struct {
		const char *names;
		int err;
		uint32_t failed;
	} bad[] = {
		{ "\n", EINVAL, 0 },
		{ "vfs_read", EINVAL, 0 },		/* no newline */
		{ "vfs_read\nvfs read\n", EINVAL, 1 },
		{ "vfs_read\nvfs_read\n", EINVAL, 1 },	/* duplicate */
		{ "vfs_read\ntracebuf:vfs_read\n", EINVAL, 1 },
		{ "vfs_read\nvfs_*\n", EINVAL, 1 },	/* globs are userspace's */
		{ "no_such_function_xyzzy\n", ENOENT, 0 },
		{ "vfs_read\nfdr_write_func\n", EINVAL, 1 },	/* ourselves */
	};
	struct tracebuf_fdr_kfuncs kf;
	char longname[TRACEBUF_FDR_KFUNC_NAME_MAX + 2];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(0, set_kfuncs(self->fd, "vfs_write\n", 0, NULL));
		EXPECT_EQ(-bad[i].err, set_kfuncs(self->fd, bad[i].names, 0, &kf))
			TH_LOG("%s", bad[i].names);
		EXPECT_EQ(bad[i].failed, kf.failed) TH_LOG("%s", bad[i].names);
		EXPECT_EQ(0U, kf.count);
		EXPECT_EQ(0, names_have_kfunc(self->fd));
	}
	memset(longname, 'a', sizeof(longname));
	longname[sizeof(longname) - 1] = '\0';
	longname[sizeof(longname) - 2] = '\n';
	EXPECT_EQ(-EINVAL, set_kfuncs(self->fd, longname, 0, &kf));
	/* A bad pointer. */
	kf = (struct tracebuf_fdr_kfuncs){ .names = 8, .len = 9 };
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_FDR_IOC_KFUNCS, &kf));
	EXPECT_EQ(EFAULT, errno);
	/* Only while stopped. */
	ASSERT_EQ(0, set_kfuncs(self->fd, "vfs_read\n", 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(-EBUSY, set_kfuncs(self->fd, "vfs_write\n", 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
}

/* A function in the kernel's kprobe blacklist is refused by name. */
TEST_F(kfunc, blacklisted)
{
	char line[256], name[160], list[200];
	struct tracebuf_fdr_kfuncs kf;
	unsigned long a, b;
	FILE *f;

	system("mount -t debugfs none /sys/kernel/debug 2>/dev/null");
	f = fopen("/sys/kernel/debug/kprobes/blacklist", "r");
	if (!f)
		SKIP(return, "no /sys/kernel/debug/kprobes/blacklist");
	name[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "0x%lx-0x%lx %127[A-Za-z0-9_.]", &a, &b, name) == 3 &&
		    !strchr(line, '['))
			break;
	fclose(f);
	ASSERT_NE('\0', name[0]);
	snprintf(list, sizeof(list), "vfs_read\n%s\n", name);
	EXPECT_EQ(-EINVAL, set_kfuncs(self->fd, list, 0, &kf)) TH_LOG("%s", name);
	EXPECT_EQ(1U, kf.failed);
}

/*
 * A kernel list of names, sorted: its lines start with the name ("name"
 * or "name [module]": available_filter_functions), or come after an
 * address and a type ("ffffffff81000000 T name": /proc/kallsyms, text
 * symbols of vmlinux only), or after a range ("0xa-0xb name": the kprobe
 * blacklist).
 */
struct klist {
	char **v;
	size_t n;
};

static int klist_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int klist_load(struct klist *k, const char *path)
{
	char line[512], a[160], b[160], c[160], *name;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int n;

	k->v = NULL;
	k->n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%159s %159s %159s", a, b, c);
		if (strstr(path, "kallsyms"))
			name = n == 3 && strchr("tT", b[0]) &&
			       !strchr(line, '[') ? c : NULL;
		else if (strstr(path, "blacklist"))
			name = n >= 2 ? b : NULL;
		else
			name = n >= 1 ? a : NULL;
		if (!name)
			continue;
		if (k->n == cap) {
			cap = cap ? cap * 2 : 4096;
			k->v = realloc(k->v, cap * sizeof(*k->v));
			if (!k->v)
				return -1;
		}
		k->v[k->n++] = strdup(name);
	}
	fclose(f);
	qsort(k->v, k->n, sizeof(*k->v), klist_cmp);
	return 0;
}

/* How many times @k lists @name. */
static int klist_count(const struct klist *k, const char *name)
{
	char **p = bsearch(&name, k->v, k->n, sizeof(*k->v), klist_cmp);
	int n = 0;

	if (!p)
		return 0;
	while (p > k->v && !strcmp(p[-1], name))
		p--;
	while (p < k->v + k->n && !strcmp(*p, name))
		p++, n++;
	return n;
}

static void klist_free(struct klist *k)
{
	while (k->n)
		free(k->v[--k->n]);
	free(k->v);
}

#define AVAIL	"/sys/kernel/tracing/available_filter_functions"
#define KSYMS	"/proc/kallsyms"
#define KBLACK	"/sys/kernel/debug/kprobes/blacklist"

/*
 * Functions the kernel's own kprobe events refuse because they are
 * notrace (no ftrace location, so not in available_filter_functions):
 * the clocks, irq_work, rcu_is_watching, lockdep on the debug kernel.
 * Probing them recursed, or froze the debug kernel for good
 * (rcu_is_watching).  Only KFUNCS is asked: nothing is ever armed.
 */
TEST_F(kfunc, notrace_refused)
{
	static const char *const notrace[] = {
		"rcu_is_watching", "irq_work_queue", "irq_work_queue_on",
		"read_tsc", "local_clock", "sched_clock_cpu",
		"native_write_msr", "lock_acquire", "lock_release",
		"arch_irq_work_raise", "native_sched_clock",
	};
	struct klist avail, ksyms;
	char list[200];
	int checked = 0;
	unsigned int i;

	system("mount -t tracefs none /sys/kernel/tracing 2>/dev/null");
	ASSERT_EQ(0, klist_load(&avail, AVAIL)) TH_LOG("no %s", AVAIL);
	ASSERT_EQ(0, klist_load(&ksyms, KSYMS));
	ASSERT_EQ(1, klist_count(&avail, "vfs_read"));
	for (i = 0; i < sizeof(notrace) / sizeof(notrace[0]); i++) {
		struct tracebuf_fdr_kfuncs kf;
		int ret;

		if (klist_count(&ksyms, notrace[i]) != 1)
			continue;	/* not in this kernel, or not one */
		if (klist_count(&avail, notrace[i])) {
			TH_LOG("%s is traceable in this kernel", notrace[i]);
			continue;
		}
		snprintf(list, sizeof(list), "%s\n", notrace[i]);
		ret = set_kfuncs(self->fd, list, 0, &kf);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("%s accepted", notrace[i]);
		EXPECT_EQ(0U, kf.failed);
		EXPECT_EQ(0U, kf.count);
		checked++;
	}
	klist_free(&avail);
	klist_free(&ksyms);
	TH_LOG("%d notrace functions asked for", checked);
	EXPECT_LE(4, checked);
}

/*
 * Functions on and near the recorder's own path: its clock, its wake-ups,
 * the kprobe and rethook machinery its handlers run in, RCU, preemption
 * and lock hooks around every tracepoint, the debug kernel's checkers,
 * where its events come from, and what its readers call.  Each must be
 * refused (EINVAL, or ENOENT where this kernel has no such function) or
 * survive a capture of every class while a reader drains the rings, with
 * either clock.  Surviving means the guest lives on (the debug kernel's
 * log is checked after), the stream is well formed and every miss counted.
 */
static const char *const near_recorder[] = {
	"read_tsc", "local_clock", "sched_clock_cpu", "native_sched_clock",
	"ktime_get", "ktime_get_mono_fast_ns", "native_read_msr",
	"native_write_msr", "irq_work_queue", "irq_work_queue_on",
	"irq_work_run", "irq_work_single", "arch_irq_work_raise",
	"__wake_up", "__wake_up_common", "__wake_up_common_lock",
	"try_to_wake_up", "wake_up_process",
	"pre_handler_kretprobe", "kprobe_ftrace_handler", "get_kprobe",
	"rethook_try_get", "rethook_recycle", "rethook_hook",
	"arch_rethook_prepare", "kprobe_busy_begin", "kprobe_busy_end",
	"rcu_is_watching", "__rcu_read_lock", "__rcu_read_unlock",
	"preempt_count_add", "preempt_count_sub", "debug_smp_processor_id",
	"check_preemption_disabled", "lock_acquire", "lock_release",
	"lock_is_held_type", "_raw_spin_lock", "_raw_spin_unlock",
	"_raw_spin_lock_irqsave", "_raw_spin_unlock_irqrestore",
	"kasan_check_range", "__asan_load8", "__ubsan_handle_out_of_bounds",
	"irq_enter_rcu", "irq_exit_rcu", "handle_irq_event", "__do_softirq",
	"run_timer_softirq", "rcu_core", "__schedule", "schedule",
	"finish_task_switch", "pick_next_task_fair", "queue_work_on",
	"__queue_work", "process_one_work", "handle_mm_fault",
	"exc_page_fault", "do_user_addr_fault", "syscall_exit_to_user_mode",
	"vmalloc_to_page", "vm_insert_page", "_copy_to_user",
	"__check_object_size", "mutex_lock", "mutex_unlock", "kfree",
	"__kmalloc", "kmem_cache_alloc", "pipe_read", "vfs_read", "vfs_write",
	"__warn", "notify_die", "atomic_notifier_call_chain",
};

#define CLOCK_PARAM	"/sys/module/tracebuf/parameters/fdr_clock"
#define NEAR_N	(sizeof(near_recorder) / sizeof(near_recorder[0]))

/* Every class's events: syscalls, faults, task switches, markers, sleeps. */
static void near_workload(int fd)
{
	char buf[4096];
	int i, z = open("/dev/zero", O_RDONLY);

	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	for (i = 0; z >= 0 && i < 100; i++)
		if (read(z, buf, sizeof(buf)) < 0)
			break;
	if (z >= 0)
		close(z);
	for (i = 0; i < 50; i++) {
		snprintf(buf, sizeof(buf), "near marker %d", i);
		if (write(fd, buf, strlen(buf)) < 0)
			break;
		usleep(500);
	}
	for (i = 0; i < 5; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			char *p = malloc(1 << 20);

			if (p)
				memset(p, 1, 1 << 20);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

struct drain {
	int fd;
	uint8_t *buf;
	size_t len;
};

static void *drain_thread(void *p)
{
	struct drain *d = p;

	d->buf = fdr_read_all(d->fd, &d->len);
	return NULL;
}

TEST_F_TIMEOUT(kfunc, near_the_recorder_refused_or_survive, 600)
{
	static const char *const clocks[] = { "auto", "local" };
	char text[NEAR_N * 48], refused[NEAR_N * 48] = "";
	bool in[NEAR_N];
	unsigned int i, c, n = NEAR_N, map[NEAR_N];
	int ret, rounds = 0;

	for (i = 0; i < NEAR_N; i++)
		in[i] = true;
	for (;;) {
		struct tracebuf_fdr_kfuncs kf;
		size_t len = 0;

		for (i = 0, n = 0; i < NEAR_N; i++)
			if (in[i]) {
				len += sprintf(text + len, "%s\n", near_recorder[i]);
				map[n++] = i;
			}
		ret = set_kfuncs(self->fd, text, 0, &kf);
		if (!ret)
			break;
		ASSERT_TRUE(ret == -EINVAL || ret == -ENOENT)
			TH_LOG("%s: error %d", kf.failed < n ?
			       near_recorder[map[kf.failed]] : "(none)", ret);
		ASSERT_GT(n, kf.failed);
		in[map[kf.failed]] = false;
		snprintf(refused + strlen(refused), sizeof(refused) - strlen(refused),
			 " %s%s", near_recorder[map[kf.failed]],
			 ret == -ENOENT ? "(absent)" : "");
		ASSERT_GT(200, ++rounds);
	}
	TH_LOG("%u of %zu accepted; refused:%s", n, NEAR_N, refused);
	ASSERT_LE(20U, n);

	for (c = 0; c < 2; c++) {
		struct tracebuf_fdr_stats st;
		struct drain d = { .fd = self->fd };
		char err[256] = "", val[16];
		pthread_t th;

		snprintf(val, sizeof(val), "%s\n", clocks[c]);
		ASSERT_EQ(0, tb_write_str(CLOCK_PARAM, val));
		ASSERT_EQ(0, fdr_config(self->fd, fdr_all(),
					TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
		ASSERT_EQ(0, pthread_create(&th, NULL, drain_thread, &d));
		near_workload(self->fd);
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
		ASSERT_EQ(0, pthread_join(th, NULL));
		ASSERT_NE(NULL, d.buf) TH_LOG("clock %s: the reader failed", clocks[c]);
		ASSERT_LT(0, fdr_check(d.buf, d.len, NULL, NULL, err, sizeof(err)))
			TH_LOG("clock %s: %s", clocks[c], err);
		free(d.buf);
		ASSERT_EQ(0, fdr_stats(self->fd, &st));
		EXPECT_LE(st.kfunc_missed, st.dropped);
		TH_LOG("clock %s: %zu bytes, %llu dropped, %llu calls missed",
		       clocks[c], d.len, (unsigned long long)st.dropped,
		       (unsigned long long)st.kfunc_missed);
	}
	tb_write_str(CLOCK_PARAM, "auto\n");
}

/*
 * The module and the userspace selector keep one rule: a function of
 * vmlinux is accepted exactly when it is in available_filter_functions
 * and not in the kprobe blacklist.  Checked on a spread of vmlinux's
 * text symbols with unique names, one at a time.
 */
TEST_F_TIMEOUT(kfunc, one_rule_with_the_selector, 300)
{
	int taken = 0, accepted = 0, refused = 0;
	struct klist avail, ksyms, black;
	char list[200];
	size_t step, i;

	system("mount -t tracefs none /sys/kernel/tracing 2>/dev/null");
	system("mount -t debugfs none /sys/kernel/debug 2>/dev/null");
	if (klist_load(&black, KBLACK))
		SKIP(return, "no %s", KBLACK);
	ASSERT_EQ(0, klist_load(&avail, AVAIL));
	ASSERT_EQ(0, klist_load(&ksyms, KSYMS));
	step = ksyms.n / tb_scaled(150, 30) + 1;
	for (i = 0; i < ksyms.n; i += step) {
		const char *name = ksyms.v[i];
		struct tracebuf_fdr_kfuncs kf;
		int want, ret;

		if (strlen(name) >= TRACEBUF_FDR_KFUNC_NAME_MAX ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") !=
		    strlen(name) || klist_count(&ksyms, name) != 1)
			continue;
		want = klist_count(&avail, name) == 1 &&
		       !klist_count(&black, name);
		snprintf(list, sizeof(list), "%s\n", name);
		ret = set_kfuncs(self->fd, list, 0, &kf);
		if (want) {
			EXPECT_EQ(0, ret) TH_LOG("%s refused (%d)", name, ret);
		} else {
			EXPECT_NE(0, ret) TH_LOG("%s accepted", name);
		}
		accepted += !ret;
		refused += !!ret;
		taken++;
	}
	klist_free(&avail);
	klist_free(&ksyms);
	klist_free(&black);
	set_kfuncs(self->fd, NULL, 0, NULL);
	TH_LOG("%d functions: %d accepted, %d refused", taken, accepted,
	       refused);
	EXPECT_LE(10, accepted);
	EXPECT_LE(3, refused);
}

/* The limits: maxactive, and names times maxactive. */
TEST_F(kfunc, limits)
{
	struct tracebuf_fdr_kfuncs kf;
	size_t cap = (TRACEBUF_FDR_KFUNC_MAX + 1) * 16;
	char *list = malloc(cap);
	unsigned int i, max;
	size_t len = 0;

	ASSERT_NE(NULL, list);
	EXPECT_EQ(-E2BIG, set_kfuncs(self->fd, "vfs_read\n",
				     TRACEBUF_FDR_KFUNC_ACTIVE_MAX + 1, &kf));
	/* With the most instances per function, fewer functions fit. */
	max = TRACEBUF_FDR_KFUNC_INSTANCES_MAX / TRACEBUF_FDR_KFUNC_ACTIVE_MAX;
	for (i = 0; i <= max; i++)
		len += snprintf(list + len, cap - len, "f%u\n", i);
	EXPECT_EQ(-E2BIG, set_kfuncs(self->fd, list, TRACEBUF_FDR_KFUNC_ACTIVE_MAX,
				     &kf));
	EXPECT_EQ(max, kf.failed);
	len = 0;
	for (i = 0; i <= TRACEBUF_FDR_KFUNC_MAX; i++)
		len += snprintf(list + len, cap - len, "f%u\n", i);
	EXPECT_EQ(-E2BIG, set_kfuncs(self->fd, list, 1, &kf));
	EXPECT_EQ((uint32_t)TRACEBUF_FDR_KFUNC_MAX, kf.failed);
	/* Longer than any list can be. */
	kf = (struct tracebuf_fdr_kfuncs){
		.names = (uintptr_t)list,
		.len = TRACEBUF_FDR_KFUNC_MAX * TRACEBUF_FDR_KFUNC_NAME_MAX + 1,
	};
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_FDR_IOC_KFUNCS, &kf));
	EXPECT_EQ(E2BIG, errno);
	free(list);
}

/* ------------------------------------------ sleeping calls and misses */

struct counts {
	int32_t tid;
	unsigned int enter, exit, lost_reports;
};

static void count_cb(const struct fdr_rec *r, void *arg)
{
	struct counts *c = arg;

	if (r->kind == FDR_R_CUSTOM) {
		if (r->size > 15 && !memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX, 15))
			c->lost_reports++;
		return;
	}
	if (r->id != KF(0) || (c->tid && r->tid != c->tid))
		return;
	if (r->type == 1)
		c->exit++;
	else
		c->enter++;
}

/*
 * What the write path calls while it owns a CPU's ring must not be
 * traced: a kernel function's probe handler would be a nested writer and
 * lose its event.  The wake-up of a streaming reader goes through
 * irq_work_queue(), notrace, but it calls arch_irq_work_raise() and the
 * APIC's IPI to self (default_send_IPI_self(), x2apic_send_IPI_self()),
 * which are traceable.  Traced, with the ring far from full, every
 * wake-up lost a record (about 116 per 1,000 markers with a 4 KiB
 * wake-up), and the function was never recorded: now the wake-up is
 * queued once the ring is given up, so nothing is lost and the
 * functions' calls are in the stream.
 */
struct wake_counts {
	unsigned int markers, enter, exit;
};

static void wake_cb(const struct fdr_rec *r, void *arg)
{
	struct wake_counts *c = arg;

	if (r->kind == FDR_R_CUSTOM) {
		if (r->size > 4 && !memcmp(r->data, "cap ", 4))
			c->markers++;
		return;
	}
	if (r->id < KF(0) || r->id > KF(TRACEBUF_FDR_KFUNC_MAX - 1))
		return;
	if (r->type == 1)
		c->exit++;
	else
		c->enter++;
}

TEST_F(kfunc, wakeup_path_traced_without_loss)
{
	static const char *const wake_fns[] = {
		"arch_irq_work_raise", "default_send_IPI_self",
		"x2apic_send_IPI_self", "__ipi_send_mask",
	};
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = 1 << 20, .wakeup = 4096,
	};
	struct drain d = { .fd = self->fd };
	struct tracebuf_fdr_stats st;
	struct wake_counts wc = { 0 };
	char names[256] = "", shown[256] = "", err[256] = "";
	size_t len = 0, i;
	pthread_t th;

	/* Those this kernel has and lets us trace. */
	for (i = 0; i < sizeof(wake_fns) / sizeof(wake_fns[0]); i++) {
		char one[64];

		snprintf(one, sizeof(one), "%s\n", wake_fns[i]);
		if (set_kfuncs(self->fd, one, 0, NULL))
			continue;
		len += snprintf(names + len, sizeof(names) - len, "%s", one);
		snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown),
			 " %s", wake_fns[i]);
	}
	if (!len)
		SKIP(return, "none of the wake-up path's functions is traceable");
	TH_LOG("traced:%s", shown);
	ASSERT_EQ(0, set_kfuncs(self->fd, names, 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pthread_create(&th, NULL, drain_thread, &d));
	ASSERT_EQ(0, pin_cpu(0));
	/* 2000 of 48 bytes: 94 KiB, a tenth of the ring; ~23 wake-ups. */
	put_markers(self->fd, 1, 0, 0, 2000, MARK_SIZE);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_NE(NULL, d.buf);
	ASSERT_LT(0, fdr_check(d.buf, d.len, wake_cb, &wc, err, sizeof(err)))
		TH_LOG("%s", err);
	free(d.buf);
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	TH_LOG("%u markers, %u entries and %u exits of the wake-up path, "
	       "dropped %llu, calls missed %llu", wc.markers, wc.enter, wc.exit,
	       (unsigned long long)st.dropped,
	       (unsigned long long)st.kfunc_missed);
	EXPECT_EQ(0U, st.dropped);
	EXPECT_EQ(2000U, wc.markers);
	EXPECT_LT(0U, wc.enter) TH_LOG("the wake-up path was never recorded");
	set_kfuncs(self->fd, NULL, 0, NULL);
}

/*
 * maxactive 1 and three children asleep in pipe_read: the first holds the
 * only instance, the other two calls are missed, counted live in STATS,
 * added to dropped and reported in the stream at STOP.  The one recorded
 * call is whole.
 */
TEST_F(kfunc, missed_counted_and_reported)
{
	struct tb_sleeper s[3];
	struct tracebuf_fdr_stats st;
	struct counts c = { 0 };
	char err[256] = "";
	size_t len;
	uint8_t *buf;
	int i;

	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SCHED,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, set_kfuncs(self->fd, "pipe_read\n", 1, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, tb_sleeper_start(&s[i]));
		tb_sleeper_wait(&s[i]);
	}
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	EXPECT_LE(2ULL, st.kfunc_missed);
	for (i = 2; i >= 0; i--)
		ASSERT_EQ(0, tb_sleeper_end(&s[i]));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	EXPECT_LE(2ULL, st.kfunc_missed);
	EXPECT_LE(st.kfunc_missed, st.dropped);
	buf = fdr_read_all(self->fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LT(0, fdr_check(buf, len, count_cb, &c, err, sizeof(err))) TH_LOG("%s", err);
	free(buf);
	EXPECT_EQ(c.enter, c.exit);
	EXPECT_LE(1U, c.enter);
	EXPECT_LE(1U, c.lost_reports);
}

/*
 * The same calls missed while a trigger freezes the rings before STOP: the
 * misses still add to dropped (the frozen rings cannot take a record that
 * says so, but the count must add up), as they do in a plain capture.
 */
TEST_F(kfunc, missed_counted_when_a_trigger_froze_the_rings)
{
	struct tracebuf_fdr_trigger t = one(marker_cond("BOOM"), 0, 0);
	struct tracebuf_fdr_stats st;
	struct tb_sleeper s[3];
	int i;

	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SCHED | TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, set_kfuncs(self->fd, "pipe_read\n", 1, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, arm(self->fd, &t));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, tb_sleeper_start(&s[i]));
		tb_sleeper_wait(&s[i]);
	}
	ASSERT_EQ(4, write(self->fd, "BOOM", 4));
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	ASSERT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
	for (i = 2; i >= 0; i--)
		ASSERT_EQ(0, tb_sleeper_end(&s[i]));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	EXPECT_LE(2ULL, st.kfunc_missed);
	EXPECT_LE(st.kfunc_missed, st.dropped)
		TH_LOG("kfunc_missed %llu, dropped %llu",
		       (unsigned long long)st.kfunc_missed,
		       (unsigned long long)st.dropped);
}

/* The events "tracebuf: lost N events" report, summed. */
static void lost_cb(const struct fdr_rec *r, void *arg)
{
	const size_t plen = sizeof(TRACEBUF_FDR_LOST_PREFIX) - 1;
	unsigned long long *sum = arg;
	char text[64];

	if (r->kind != FDR_R_CUSTOM || r->size <= plen ||
	    r->size >= sizeof(text) ||
	    memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX, plen))
		return;
	memcpy(text, r->data, r->size);
	text[r->size] = '\0';
	*sum += strtoull(text + plen, NULL, 10);
}

/*
 * A snapshot taken while calls are being missed: the misses so far are in
 * dropped and reported in the snapshot itself, not only at STOP; and STOP
 * reports the rest without counting them twice.
 */
TEST_F(kfunc, missed_reported_in_a_snapshot)
{
	struct tracebuf_fdr_stats st;
	unsigned long long lost = 0;
	char err[256] = "";
	struct tb_sleeper s[3];
	uint64_t missed;
	size_t len;
	uint8_t *buf;
	int i;

	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SCHED,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, set_kfuncs(self->fd, "pipe_read\n", 1, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, tb_sleeper_start(&s[i]));
		tb_sleeper_wait(&s[i]);
	}
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	missed = st.kfunc_missed;
	ASSERT_LE(2ULL, missed);

	/* A read in flight mode takes the snapshot. */
	buf = fdr_read_all(self->fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LT(0, fdr_check(buf, len, lost_cb, &lost, err, sizeof(err)))
		TH_LOG("%s", err);
	free(buf);
	EXPECT_LE(missed, lost)
		TH_LOG("the snapshot reports %llu lost, %llu calls were missed",
		       lost, (unsigned long long)missed);
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	EXPECT_LE(missed, st.dropped) TH_LOG("dropped before STOP");

	for (i = 2; i >= 0; i--)
		ASSERT_EQ(0, tb_sleeper_end(&s[i]));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	EXPECT_LE(st.kfunc_missed, st.dropped);
	/*
	 * Each miss counted once: the first snapshot's are not added again
	 * at STOP (the write path keeps interrupts off, so the ring itself
	 * drops nothing here but for an NMI).
	 */
	EXPECT_GT(st.kfunc_missed + missed, st.dropped)
		TH_LOG("dropped %llu, kfunc_missed %llu",
		       (unsigned long long)st.dropped,
		       (unsigned long long)st.kfunc_missed);
	/* The whole capture, again from its start: every miss reported. */
	lost = 0;
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	buf = fdr_read_all(self->fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LT(0, fdr_check(buf, len, lost_cb, &lost, err, sizeof(err)))
		TH_LOG("%s", err);
	free(buf);
	EXPECT_LE(st.kfunc_missed, lost);
	EXPECT_LE(lost, st.dropped);
}

/*
 * A call that began in one capture and returns in the next writes no exit
 * there: the second capture's stream has no exit without its entry.
 */
TEST_F(kfunc, sleeping_call_across_captures)
{
	struct tb_sleeper s;
	struct counts c = { 0 };
	char err[256] = "";
	size_t len;
	uint8_t *buf;

	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SCHED,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, set_kfuncs(self->fd, "pipe_read\n", 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, tb_sleeper_start(&s));
	tb_sleeper_wait(&s);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, tb_sleeper_end(&s));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	c.tid = s.pid;
	buf = fdr_read_all(self->fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(0, fdr_check(buf, len, count_cb, &c, err, sizeof(err))) TH_LOG("%s", err);
	free(buf);
	EXPECT_EQ(0U, c.enter);
	EXPECT_EQ(0U, c.exit);
}

/*
 * Start, stop and replace the list while other threads call the traced
 * functions: every capture's stream stays balanced per thread.
 */
static volatile int hammer_stop;

static void *hammer(void *arg)
{
	char b[64];
	int zfd = open("/dev/zero", O_RDONLY);

	while (!hammer_stop)
		if (read(zfd, b, sizeof(b)) < 0)
			break;
	close(zfd);
	return NULL;
}

TEST_F_TIMEOUT(kfunc, attach_detach_race, 300)
{
	static const char * const lists[] = {
		"vfs_read\nrw_verify_area\n", "rw_verify_area\nvfs_read\n",
	};
	pthread_t th[2];
	int i, round;

	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	hammer_stop = 0;
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, hammer, NULL));
	for (round = 0; round < 10; round++) {
		char err[256] = "";
		size_t len;
		uint8_t *buf;

		ASSERT_EQ(0, set_kfuncs(self->fd, lists[round & 1], 0, NULL));
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
		usleep(2000);
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
		buf = fdr_read_all(self->fd, &len);
		ASSERT_NE(NULL, buf);
		ASSERT_LE(0, fdr_check(buf, len, NULL, NULL, err, sizeof(err)))
			TH_LOG("%s", err);
		free(buf);
	}
	hammer_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
}

/*
 * CPU 1 goes offline and comes back while threads call the traced
 * functions: the capture stays a valid stream and the nesting of this
 * thread's calls stays exact.
 */
TEST_F_TIMEOUT(kfunc, cpu_hotplug_while_tracing, 300)
{
	const char *path = "/sys/devices/system/cpu/cpu1/online";
	struct nest n = { 0 };
	char err[256] = "", b[64];
	pthread_t th[2];
	int cpu_fd, zfd, i;

	cpu_fd = open(path, O_WRONLY);
	if (cpu_fd < 0)
		SKIP(return, "CPU 1 cannot be hot-unplugged");
	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ,
				TRACEBUF_FDR_MODE_FLIGHT, 4 << 20, 0));
	ASSERT_EQ(0, set_kfuncs(self->fd, "vfs_read\nrw_verify_area\nread_zero\n",
				0, NULL));
	zfd = open("/dev/zero", O_RDONLY);
	ASSERT_LE(0, zfd);
	hammer_stop = 0;
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, hammer, NULL));
	for (i = 0; i < 50; i++)
		ASSERT_EQ(1, read(zfd, b, 1));
	ASSERT_EQ(2, pwrite(cpu_fd, "0\n", 2, 0));
	for (i = 0; i < 50; i++)
		ASSERT_EQ(1, read(zfd, b, 1));
	ASSERT_EQ(2, pwrite(cpu_fd, "1\n", 2, 0));
	for (i = 0; i < 50; i++)
		ASSERT_EQ(1, read(zfd, b, 1));
	hammer_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	close(zfd);
	close(cpu_fd);
	n.tid = syscall(SYS_gettid);
	n.outer = KF(0);
	ASSERT_LT(0, check_stream(self->fd, &n, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, n.errors);
	EXPECT_EQ(150U, n.enter[0]);
	EXPECT_EQ(150U, n.exit[0]);
	EXPECT_EQ(150U, n.enter[2]);
}

/*
 * Unload the module while a traced call sleeps in a child, then let it
 * return through the kretprobe trampoline: no handler of ours may run.
 * The module is loaded again for the tests that follow.
 */
TEST(unload_while_attached)
{
	struct tb_sleeper s;
	int fd = fdr_open_stopped();

	ASSERT_LE(0, fd);
	if (!kfuncs_supported(fd)) {
		close(fd);
		SKIP(return, "module built without CONFIG_KRETPROBES");
	}
	ASSERT_EQ(0, set_kfuncs(fd, "pipe_read\nvfs_read\n", 0, NULL));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, tb_sleeper_start(&s));
	tb_sleeper_wait(&s);
	close(fd);
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_sleeper_end(&s));
	ASSERT_EQ(0, tb_module_load());
}

/*
 * A listed function whose module goes away: its probe is gone with the
 * module's text.  Unloading while recording is clean; a START after it
 * fails with EINVAL (nothing half started) and a new list works.  The
 * module is the selftests' tb_provoke.ko, whose write handler is traced.
 */
TEST_F(kfunc, function_s_module_unloaded)
{
	struct tracebuf_fdr_stats st;
	int ret = tb_provoke_load();

	if (ret)
		SKIP(return, "%s: %s", TB_PROVOKE_KO, strerror(-ret));
	ASSERT_EQ(0, fdr_config(self->fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	/* Recording when the module goes: the probe dies with it. */
	ASSERT_EQ(0, set_kfuncs(self->fd, "vfs_read\ntb_provoke_write\n", 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(0, tb_provoke_unload());
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	/* Listed but gone: START refuses, and nothing is left running. */
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	EXPECT_EQ(0U, st.running);
	/* Loaded again, it is a new module: the old list still names the gone one. */
	ASSERT_EQ(0, tb_provoke_load());
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	/* A new list replaces the dead probe's. */
	EXPECT_EQ(0, set_kfuncs(self->fd, "vfs_read\ntb_provoke_write\n", 0, NULL));
	EXPECT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	EXPECT_EQ(0, set_kfuncs(self->fd, NULL, 0, NULL));
	EXPECT_EQ(0, tb_provoke_unload());
}

TEST_HARNESS_MAIN
