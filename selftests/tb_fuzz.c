// SPDX-License-Identifier: GPL-2.0
/*
 * tb_fuzz: a seeded fuzzer of /dev/tracebuf and /dev/tracebuf_fdr.
 *
 *   tb_fuzz [-s SEED] [-n CALLS] [-t THREADS] [-r ROUNDS] [-R] [-c] [-o FILE] [-v]
 *
 * Several threads make CALLS calls in all (ioctl, read, write, poll,
 * epoll_wait, mmap, close and reopen, fcntl, lseek) on both devices while
 * an FDR capture runs and the trace buffer's kernel feed is on, and one
 * more thread maps and unmaps a region the others pass as buffers.  The
 * run is split in ROUNDS (default 9); before each one the module is
 * reloaded with the next trace-buffer size, 512, 1024 ... 65536 and 256
 * last, so the checks after the run see the default size (-R: no reload,
 * use the module as loaded).
 *
 * Arguments: command numbers around ours (every direction and size for
 * our type, numbers 0x00..0x4f, other types, VFS ioctls); every struct
 * field from a table of limits and random values; pointers that are NULL,
 * unmapped, kernel addresses, non-canonical, misaligned, straddling into
 * an inaccessible page, read-only, or inside the region being remapped;
 * injected events with random kinds, vectors, targets and counts up to
 * 0xffffffff (a few malformed); FDR configurations with every limit;
 * mappings of the FDR rings (exact, or wrong in size, offset or
 * protection: only the exact read-only ones may succeed, and their pages
 * are read and their pages taken with MMAP_GET while writers go on);
 * kernel-function lists (names accepted, unknown, blacklisted, ours,
 * malformed, too many, too long; every maxactive limit) and triggers
 * (every condition type and field at and around its limits, reserved
 * bytes, unused entries).  Both budgeted per round: they register probes.
 *
 * Every thread draws its calls from its own generator seeded from SEED,
 * the round and the thread number, so a seed gives the same calls (their
 * interleaving is up to the scheduler).  The seed is printed first;
 * `tb_fuzz -s SEED -n CALLS -t THREADS` repeats a run.
 *
 * Fails (exit 1) on a result no correct driver gives: an errno outside
 * the documented ones, a read longer than asked, an impossible STATUS,
 * STATS or GET_CONFIG, or no progress for 60 s (TB_SLOW stretches it:
 * then it prints what each thread was doing and exits 3).  With -c it
 * then checks that both devices still work exactly (fuzz_after.h); -o
 * saves the recorder capture of that check for llvm-xray.
 */
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "fuzz_after.h"

#ifndef FIGETBSZ
#define FIGETBSZ	_IO(0x00, 2)
#endif

#define MAX_THREADS	16
#define OWN_FDS		6
#define SHARED_FDS	4
#define SCRATCH		(2 << 20)	/* per-thread valid buffer */
#define RACE_PAGES	16		/* the remapped region */
#define TOGGLES		12		/* tracepoint (un)registrations per round */
#define ARMS		24		/* TRIGGER calls per round */

static uint64_t seed;
static unsigned long total_calls = 100000;
static int nthreads = 4, nrounds = 9, reload = 1, verbose;
static long page;

/* Set up by main for each round. */
static int shared_fd[SHARED_FDS];
static uint8_t *race_base;	/* RACE_PAGES, remapped by the mapper */
static uint8_t *hole;		/* never accessible */
static uint8_t *ro_page;	/* read-only, holds random bytes */
static uint8_t *edge;		/* a page followed by an inaccessible one */
static uint32_t tb_size;	/* the round's trace-buffer size */
static atomic_int toggles_left;
static atomic_int arms_left;	/* triggers, which may attach probes */
static atomic_int fdr_big;	/* a large FDR buffer may be configured */
static atomic_bool stop_mapper;

static atomic_ulong calls_done, unexpected, bad_results;
/* KFUNCS and TRIGGER calls of our type, and how many succeeded. */
static atomic_ulong kfuncs_calls, kfuncs_ok, trigger_calls, trigger_ok;
static atomic_int threads_done;
static atomic_ulong kind_count[10], kind_ok[10], kind_us[10];
static const char *const kind_name[10] = {
	"ioctl", "read", "write", "poll", "epoll", "mmap", "reopen", "fcntl",
	"lseek", "control",
};

/* What each thread is doing, for the no-progress report. */
struct cur {
	atomic_int tid;
	atomic_int kind;
	atomic_ulong cmd;
	atomic_ulong len;
};

static struct cur cur[MAX_THREADS];
static atomic_int mapper_tid;

/* ------------------------------------------------------------- random */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

static bool chance(struct rng *r, int percent)
{
	return below(r, 100) < (uint32_t)percent;
}

/* A u32 field: limits, neighbours of limits, powers of two, noise. */
static uint32_t rnd_u32(struct rng *r)
{
	static const uint32_t lim[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 31, 32, 63, 64, 255,
		256, 257, 1023, 1024, 1025, 4095, 4096, 65535, 65536,
		64 << 10, (64 << 10) - 1, 1 << 20, 64 << 20, (64 << 20) + 1,
		128 << 20, 0x7fffffff, 0x80000000, 0xfffffff0, 0xfffffffe,
		0xffffffff,
	};

	switch (below(r, 4)) {
	case 0:
		return (uint32_t)rnd(r);
	case 1:
		return 1U << below(r, 32);
	default:
		return lim[below(r, sizeof(lim) / sizeof(lim[0]))];
	}
}

/* ------------------------------------------------------------- pointers */

static const uint64_t kernel_addr[] = {
	0xffffffff81000000ULL, 0xffff888000000000ULL, 0xffffffffff600000ULL,
	0xfffffe0000000000ULL, 0xffffffffffffffffULL, 0xffffc90000000000ULL,
};

enum { P_VALID, P_NULL, P_HOLE, P_KERNEL, P_NONCANON, P_MISALIGNED,
	P_EDGE, P_RACE, P_RO, P_RANDOM, P_NR };

/*
 * A pointer for @len bytes of kind @k.  *@fill says whether the caller may
 * write the bytes there itself (only memory no other thread remaps).
 */
static uint8_t *ptr_of(struct rng *r, int k, uint8_t *scratch, size_t len,
		       bool *fill)
{
	size_t room;

	*fill = false;
	switch (k) {
	case P_NULL:
		return NULL;
	case P_HOLE:
		return hole + below(r, page);
	case P_KERNEL:
		return (uint8_t *)(uintptr_t)kernel_addr[below(r, 6)] -
		       below(r, 2) * below(r, 4096);
	case P_NONCANON:
		return (uint8_t *)(uintptr_t)(0x8000000000000000ULL + below(r, 1 << 20));
	case P_EDGE:
		/* The last 1..len bytes of a page, the rest beyond it. */
		room = 1 + below(r, len < (size_t)page ? len : page);
		*fill = true;
		return edge + page - room;
	case P_RACE:
		if (len > RACE_PAGES * (size_t)page)
			return race_base;
		return race_base + below(r, RACE_PAGES * page - len + 1);
	case P_RO:
		if (len > (size_t)page)
			return ro_page;
		return ro_page + below(r, page - len + 1);
	case P_RANDOM:
		/* Never one of our own mappings: upper half only. */
		return (uint8_t *)(uintptr_t)(rnd(r) | 1ULL << 63);
	case P_MISALIGNED:
	case P_VALID:
	default:
		*fill = true;
		if (len + 8 > SCRATCH)
			return scratch;
		return scratch + below(r, (SCRATCH - len - 8) / 8) * 8 +
		       (k == P_MISALIGNED ? 1 + below(r, 7) : 0);
	}
}

static int rnd_ptr_kind(struct rng *r)
{
	/* Mostly valid, so that calls get past the copy-in. */
	if (chance(r, 55))
		return P_VALID;
	return below(r, P_NR);
}

/* How many of @len bytes at @p we may write: not past the edge page. */
static size_t fillable(const uint8_t *p, size_t len)
{
	uintptr_t a = (uintptr_t)p, e = (uintptr_t)edge;

	if (a >= e && a < e + page && e + page - a < len)
		return e + page - a;
	return len;
}

static void fill_bytes(uint8_t *p, const void *src, size_t len, bool fill)
{
	if (fill && p)
		memcpy(p, src, fillable(p, len));
}

/* ------------------------------------------------------------- results */

static void note_errno(int kind, unsigned long cmd, int err, const int *ok)
{
	for (; *ok; ok++)
		if (*ok == err)
			return;
	atomic_fetch_add(&unexpected, 1);
	if (atomic_load(&unexpected) <= 20)
		printf("# tb_fuzz: unexpected errno %d (%s) from %s %#lx\n", err,
		       strerror(err), kind_name[kind], cmd);
}

static void bad(const char *what, unsigned long v)
{
	atomic_fetch_add(&bad_results, 1);
	if (atomic_load(&bad_results) <= 20)
		printf("# tb_fuzz: impossible result: %s (%#lx)\n", what, v);
}

/* Errnos any call on our files may legitimately give. */
static const int ok_ioctl[] = {
	EFAULT, EINVAL, ENOTTY, EBUSY, EAGAIN, EINTR, E2BIG, ENOSPC, ENOMEM,
	EOPNOTSUPP, EBADF, 0
};
/* KFUNCS also names an unknown function; TRIGGER needs a running capture. */
static const int ok_kfuncs[] = {
	EFAULT, EINVAL, ENOTTY, EBUSY, EINTR, E2BIG, ENOMEM, EOPNOTSUPP, EBADF,
	ENOENT, 0
};
static const int ok_trigger[] = {
	EFAULT, EINVAL, ENOTTY, EBUSY, EINTR, E2BIG, ENOMEM, EOPNOTSUPP, EBADF,
	ESRCH,
	0
};
static const int ok_read[] = { EFAULT, EINVAL, EAGAIN, EINTR, ENOMEM, EBADF, 0 };
static const int ok_write[] = {
	EFAULT, EINVAL, EBUSY, EINTR, ENOMEM, EBADF, EMSGSIZE, EOPNOTSUPP, 0
};
static const int ok_mmap[] = { ENODEV, EACCES, EINVAL, ENOMEM, EPERM, EBADF, 0 };
static const int ok_misc[] = { ESPIPE, EINVAL, EBADF, EINTR, EFAULT, 0 };

/* ------------------------------------------------------------- threads */

struct worker {
	int id;
	struct rng r;
	unsigned long target, calls;
	int fd[OWN_FDS];
	bool fdr[OWN_FDS];
	int ep;
	uint8_t *scratch;
	timer_t timer;
};

/* Expiries of this thread's timer: arm() waits for one (an early expiry). */
static __thread volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

/*
 * Interrupt this thread's next call if it blocks: after @ms, and again
 * every @ms until disarm().  The first expiry alone is not enough: a
 * thread that is not scheduled for @ms between arm() and its call (a
 * slow or loaded machine, the debug kernel under TCG) takes the signal
 * before the call, which then blocks for as long as nothing wakes it, a
 * stream read whose wake-up amount never comes forever.  That happens
 * here on purpose, on every machine: now and then the first expiry is
 * taken before the call.
 */
#define ALARM_EARLY	10	/* percent of the calls */

static void arm(struct worker *w, int ms)
{
	struct itimerspec its = {
		.it_value = { 0, ms * 1000000L },
		.it_interval = { 0, ms * 1000000L },
	};
	sig_atomic_t seen = alarms;
	double t0;

	if (!chance(&w->r, ALARM_EARLY)) {
		timer_settime(w->timer, 0, &its, NULL);
		return;
	}
	/* The signal comes on the way back from the timer's interrupt. */
	its.it_value.tv_nsec = 1000;
	timer_settime(w->timer, 0, &its, NULL);
	for (t0 = tb_now(); alarms == seen && tb_now() - t0 < 1;)
		;
}

static void disarm(struct worker *w)
{
	struct itimerspec its = { 0 };

	timer_settime(w->timer, 0, &its, NULL);
}

static int open_random(struct rng *r, bool *is_fdr)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	int flags = modes[below(r, 3)] | O_CLOEXEC;

	if (chance(r, 70))
		flags |= O_NONBLOCK;
	*is_fdr = chance(r, 50);
	return open(*is_fdr ? TB_FDR_DEV : TB_DEV, flags);
}

static int pick_fd(struct worker *w, bool *is_fdr)
{
	int i;

	if (chance(&w->r, 25)) {
		i = below(&w->r, SHARED_FDS);
		*is_fdr = i >= SHARED_FDS / 2;
		return shared_fd[i];
	}
	i = below(&w->r, OWN_FDS);
	*is_fdr = w->fdr[i];
	return w->fd[i];
}

static void count(struct worker *w, int kind)
{
	w->calls++;
	atomic_fetch_add(&calls_done, 1);
	atomic_fetch_add(&kind_count[kind], 1);
}

/* For -v: how often each kind succeeds and how long it takes. */
static void account(int kind, double t0, int ok)
{
	atomic_fetch_add(&kind_us[kind], (unsigned long)((tb_now() - t0) * 1e6));
	if (ok)
		atomic_fetch_add(&kind_ok[kind], 1);
}

/* --- ioctl arguments, struct by struct --- */

static void make_config(struct rng *r, struct tracebuf_fdr_config *c)
{
	static const uint32_t sizes[] = {
		0, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20,
		2 << 20, 4 << 20, 32 << 10, 100000, (64 << 20) + 1, 128 << 20,
		0xffffffff, 1,
	};
	uint32_t size;

	c->classes = chance(r, 80) ? 1 + below(r, TRACEBUF_FDR_ALL) : rnd_u32(r);
	c->mode = chance(r, 85) ? below(r, 2) : rnd_u32(r);
	c->buf_size = chance(r, 85) ? sizes[below(r, 14)] : rnd_u32(r);
	c->nr_args = chance(r, 85) ? below(r, TRACEBUF_FDR_ARGS_MAX + 2) : rnd_u32(r);
	size = c->buf_size ? c->buf_size : 1 << 20;
	switch (below(r, 6)) {
	case 0:
		c->wakeup = 0;
		break;
	case 1:
		c->wakeup = size;	/* the limit */
		break;
	case 2:
		c->wakeup = 1 + below(r, 64);
		break;
	case 3:
		c->wakeup = size + 1;
		break;
	default:
		c->wakeup = below(r, size / 4 + 1);
		break;
	}
	c->reserved = chance(r, 90) ? 0 : rnd_u32(r);
}

/*
 * A kernel-function list: names the kernel accepts, refuses (unknown,
 * blacklisted, ours, malformed) and limits, in random order and framing.
 * Written at a pointer of a random kind; returns its length.
 */
static uint32_t make_kfuncs(struct worker *w, struct tracebuf_fdr_kfuncs *k)
{
	static const char *const names[] = {
		"vfs_read", "rw_verify_area", "pipe_read", "__x64_sys_getppid",
		"no_such_function_xyzzy", "fdr_write_func", "do_int3",
		"exc_int3", "vfs read", "", "vfs_*", "tracebuf:vfs_read",
		"vfs_read.cold", "kretprobe_trampoline", "a\001b",
	};
	static const uint32_t actives[] = {
		0, 1, 2, 64, TRACEBUF_FDR_KFUNC_ACTIVE_MAX,
		TRACEBUF_FDR_KFUNC_ACTIVE_MAX + 1, 0xffffffff,
	};
	const size_t cap = TRACEBUF_FDR_KFUNC_MAX * TRACEBUF_FDR_KFUNC_NAME_MAX + 64;
	struct rng *r = &w->r;
	uint32_t i, n, len = 0;
	bool fill, valid;
	uint8_t *p;
	char *txt;

	txt = calloc(1, cap);
	if (!txt)
		return 0;
	k->count = below(r, 4);	/* where the valid names start */
	switch (below(r, 8)) {
	case 0:
		/* More names than allowed, or the longest name and one more. */
		n = TRACEBUF_FDR_KFUNC_MAX + below(r, 2);
		for (i = 0; i < n && len + 8 < cap; i++)
			len += sprintf(txt + len, "f%u\n", i);
		break;
	case 1:
		n = TRACEBUF_FDR_KFUNC_NAME_MAX - 2 + below(r, 3);
		memset(txt, 'a', n);
		txt[n] = '\n';
		len = n + 1;
		break;
	default:
		/* Often only names the kernel accepts (the first four). */
		valid = chance(r, 50);
		n = below(r, 5);
		for (i = 0; i < n; i++) {
			const char *nm = names[valid ? (i + k->count) % 4 :
					       below(r, sizeof(names) / sizeof(names[0]))];

			len += sprintf(txt + len, "%s%s", nm,
				       i + 1 < n || chance(r, 90) ? "\n" : "");
		}
		break;
	}
	if (chance(r, 10))
		len = chance(r, 50) ? len + 1 - 2 * below(r, 2) : rnd_u32(r);
	k->len = len;
	k->maxactive = chance(r, 70) ? 0 : actives[below(r, 7)];
	k->count = rnd_u32(r);
	k->failed = rnd_u32(r);
	p = ptr_of(r, rnd_ptr_kind(r), w->scratch,
		   len > cap ? cap : len, &fill);
	fill_bytes(p, txt, len > cap ? cap : len, fill);
	k->names = chance(r, 5) ? rnd(r) : (uintptr_t)p;
	free(txt);
	return len;
}

/* A trigger: every condition type with values at and around its limits. */
static void make_trigger(struct rng *r, struct tracebuf_fdr_trigger *t)
{
	static const uint32_t classes[] = {
		TRACEBUF_FDR_SYSCALL, TRACEBUF_FDR_IRQ, TRACEBUF_FDR_SOFTIRQ,
		TRACEBUF_FDR_WORKQUEUE, 0,
		TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ,
	};
	static const uint32_t spaces[] = {
		TRACEBUF_FDR_SPACE_SYSCALL, TRACEBUF_FDR_SPACE_IRQ,
		TRACEBUF_FDR_SPACE_SOFTIRQ, TRACEBUF_FDR_SPACE_WORK,
	};
	static const uint32_t thresholds[] = {
		0, 1, 2, 100, 100000, TRACEBUF_FDR_TRIG_THRESHOLD_MAX,
		TRACEBUF_FDR_TRIG_THRESHOLD_MAX + 1,
	};
	static const uint32_t errors[] = {
		0, 1, 2, 11, 12, 22, 38, TRACEBUF_FDR_TRIG_ERROR_MAX,
		TRACEBUF_FDR_TRIG_ERROR_MAX + 1,
	};
	static const uint32_t events[] = {
		0, 1, 2, 100, TRACEBUF_FDR_TRIG_EVENTS_MAX,
		TRACEBUF_FDR_TRIG_EVENTS_MAX + 1,
	};
	static const uint32_t usecs[] = {
		0, 1, 1000, TRACEBUF_FDR_TRIG_USECS_MAX,
		TRACEBUF_FDR_TRIG_USECS_MAX + 1,
	};
	uint32_t i, n;

	memset(t, 0, sizeof(*t));
	t->nr_conds = chance(r, 90) ? below(r, TRACEBUF_FDR_TRIG_MAX + 1) :
		      rnd_u32(r);
	t->flags = chance(r, 95) ? 0 : rnd_u32(r);
	t->post_events = chance(r, 90) ? events[below(r, 6)] : rnd_u32(r);
	t->post_usecs = chance(r, 90) ? usecs[below(r, 5)] : rnd_u32(r);
	n = t->nr_conds < TRACEBUF_FDR_TRIG_MAX ? t->nr_conds : TRACEBUF_FDR_TRIG_MAX;
	for (i = 0; i < n; i++) {
		struct tracebuf_fdr_trig_cond *c = &t->conds[i];
		uint32_t k = below(r, 4);

		/* Mostly the defined types, sometimes the next ones, any. */
		c->type = chance(r, 85) ? 1 + below(r, 5) :
			  chance(r, 50) ? below(r, 10) : rnd_u32(r);
		switch (c->type) {
		case TRACEBUF_FDR_TRIG_DURATION:
			c->ev_class = chance(r, 90) ? classes[below(r, 6)] :
				      rnd_u32(r);
			c->threshold_us = thresholds[below(r, 7)];
			if (chance(r, 30)) {
				c->flags = TRACEBUF_FDR_TRIG_F_ID;
				c->id = TRACEBUF_FDR_ID(spaces[k], below(r, 400));
			}
			break;
		case TRACEBUF_FDR_TRIG_ERRNO:
			c->error = errors[below(r, 9)];
			if (chance(r, 30)) {
				c->flags = TRACEBUF_FDR_TRIG_F_ID;
				c->id = chance(r, 80) ?
					TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL,
							below(r, 500)) : rnd_u32(r);
			}
			break;
		case TRACEBUF_FDR_TRIG_MARKER:
			c->prefix_len = chance(r, 90) ?
				below(r, TRACEBUF_FDR_TRIG_PREFIX_MAX + 2) : rnd_u32(r);
			for (k = 0; k < TRACEBUF_FDR_TRIG_PREFIX_MAX; k++)
				if (k < c->prefix_len || chance(r, 2))
					c->prefix[k] = (uint8_t)rnd(r);
			break;
		default:
			break;
		}
		/* A field the condition does not use, or a reserved one. */
		if (chance(r, 8))
			((uint32_t *)c)[below(r, 8)] = rnd_u32(r);
	}
	/* Bytes in the unused entries. */
	if (chance(r, 5))
		((uint8_t *)t->conds)[below(r, sizeof(t->conds))] = 1 + below(r, 255);
}

static bool take(atomic_int *budget)
{
	int n = atomic_load(budget);

	while (n > 0)
		if (atomic_compare_exchange_weak(budget, &n, n - 1))
			return true;
	return false;
}

/* Tracepoints are (un)registered: a budget per round (slow under TCG). */
static bool may_toggle(void)
{
	return take(&toggles_left);
}

static unsigned long known_cmd(struct worker *w, bool is_fdr, void *buf,
			       size_t *size)
{
	static const unsigned long tb_cmds[] = {
		TRACEBUF_IOC_STATUS, TRACEBUF_IOC_GET_MODE, TRACEBUF_IOC_SET_MODE,
		TRACEBUF_IOC_ENABLE, TRACEBUF_IOC_DISABLE, TRACEBUF_IOC_GET_CHKPT,
		TRACEBUF_IOC_SET_CHKPT, TRACEBUF_IOC_CLEAR,
		TRACEBUF_IOC_GET_SOURCES, TRACEBUF_IOC_SET_SOURCES,
		TRACEBUF_IOC_SNAPSHOT, TRACEBUF_IOC_SET_CHAIN,
	};
	static const unsigned long fdr_cmds[] = {
		TRACEBUF_FDR_IOC_CONFIG, TRACEBUF_FDR_IOC_GET_CONFIG,
		TRACEBUF_FDR_IOC_START, TRACEBUF_FDR_IOC_STOP,
		TRACEBUF_FDR_IOC_SNAPSHOT, TRACEBUF_FDR_IOC_STATS,
		TRACEBUF_FDR_IOC_NAMES, TRACEBUF_FDR_IOC_KFUNCS,
		TRACEBUF_FDR_IOC_TRIGGER, TRACEBUF_FDR_IOC_MMAP_GET,
	};
	struct rng *r = &w->r;
	unsigned long cmd;
	bool fill;

	memset(buf, 0, sizeof(struct tracebuf_fdr_trigger));
	/* Mostly the command for this device, sometimes the other one's. */
	if (is_fdr != chance(r, 10))
		cmd = fdr_cmds[below(r, 10)];
	else
		cmd = tb_cmds[below(r, 12)];
	*size = _IOC_SIZE(cmd);

	switch (cmd) {
	case TRACEBUF_IOC_SET_MODE: {
		uint32_t m = chance(r, 80) ? below(r, 2) : rnd_u32(r);

		memcpy(buf, &m, 4);
		break;
	}
	case TRACEBUF_IOC_SET_CHKPT: {
		struct tracebuf_chkpt ck = { rnd_u32(r), rnd_u32(r) };

		memcpy(buf, &ck, sizeof(ck));
		break;
	}
	case TRACEBUF_IOC_SET_SOURCES: {
		static const uint32_t cpus[] = { 0, 1, 2, 63, 64, 4096,
						 TRACEBUF_CPU_ALL };
		struct tracebuf_sources s;

		s.mask = chance(r, 80) ? below(r, TRACEBUF_SRC_ALL + 1) : rnd_u32(r);
		s.cpu = chance(r, 80) ? cpus[below(r, 7)] : rnd_u32(r);
		/* A valid change registers tracepoints: budgeted. */
		if (!(s.mask & ~TRACEBUF_SRC_ALL) && !may_toggle())
			return TRACEBUF_IOC_GET_SOURCES;
		memcpy(buf, &s, sizeof(s));
		break;
	}
	case TRACEBUF_IOC_SNAPSHOT: {
		struct tracebuf_snapshot_req q;
		size_t need = sizeof(struct tracebuf_record) + tb_size;
		size_t len = chance(r, 70) ? need + below(r, 3) * below(r, 4096) :
			     rnd_u32(r) % (2 * need + 1);

		/* The driver writes a whole record whatever len says. */
		q.buf = (uintptr_t)ptr_of(r, rnd_ptr_kind(r), w->scratch,
					  need + 4096, &fill);
		q.len = chance(r, 90) ? len : rnd_u32(r);
		q.flags = chance(r, 85) ? below(r, 2) : rnd_u32(r);
		memcpy(buf, &q, sizeof(q));
		break;
	}
	case TRACEBUF_IOC_SET_CHAIN: {
		static const uint32_t depths[] = { 0, 0, 1, 2, 4, 31, 127, 128,
						   1024, 1025 };
		struct tracebuf_chain ch;

		ch.depth = chance(r, 85) ? depths[below(r, 10)] : rnd_u32(r);
		ch.reserved = chance(r, 90) ? 0 : rnd_u32(r);
		memcpy(buf, &ch, sizeof(ch));
		break;
	}
	case TRACEBUF_FDR_IOC_CONFIG: {
		struct tracebuf_fdr_config c;

		make_config(r, &c);
		memcpy(buf, &c, sizeof(c));
		break;
	}
	case TRACEBUF_FDR_IOC_START:
	case TRACEBUF_FDR_IOC_STOP:
		if (!may_toggle())
			return TRACEBUF_FDR_IOC_GET_CONFIG;
		break;
	case TRACEBUF_FDR_IOC_SNAPSHOT:
		/* The snapshot copies the whole buffer: not while large. */
		if (atomic_load(&fdr_big))
			return TRACEBUF_FDR_IOC_GET_CONFIG;
		break;
	case TRACEBUF_FDR_IOC_STATS: {
		struct tracebuf_fdr_stats s = { 0 };
		uint32_t n = chance(r, 70) ? below(r, 130) : rnd_u32(r);
		uint32_t csz = chance(r, 70) ? 8 * below(r, 34) : rnd_u32(r);
		size_t len = (size_t)n * (csz > 256 ? 256 : csz);

		s.nr_cpus = n;
		s.cpu_size = csz;
		s.cpus = chance(r, 15) ? 0 :
			 (uintptr_t)ptr_of(r, rnd_ptr_kind(r), w->scratch,
					   len > SCRATCH ? SCRATCH : len, &fill);
		memcpy(buf, &s, sizeof(s));
		break;
	}
	case TRACEBUF_FDR_IOC_NAMES: {
		struct tracebuf_fdr_names n = { 0 };
		uint32_t len = chance(r, 70) ? below(r, 1 << 17) : rnd_u32(r);

		n.len = len;
		n.buf = chance(r, 20) ? 0 :
			(uintptr_t)ptr_of(r, rnd_ptr_kind(r), w->scratch,
					  len > SCRATCH ? SCRATCH : len, &fill);
		n.size = rnd_u32(r);
		memcpy(buf, &n, sizeof(n));
		break;
	}
	case TRACEBUF_FDR_IOC_KFUNCS: {
		struct tracebuf_fdr_kfuncs k;

		/* A list that registers probes while stopped: budgeted. */
		if (!may_toggle())
			return TRACEBUF_FDR_IOC_GET_CONFIG;
		make_kfuncs(w, &k);
		memcpy(buf, &k, sizeof(k));
		break;
	}
	case TRACEBUF_FDR_IOC_MMAP_GET: {
		/* Mostly a CPU this file has not mapped: EINVAL. */
		struct tracebuf_fdr_mmap_get g = {
			.cpu = chance(r, 80) ? below(r, 4) : rnd_u32(r),
			.flags = chance(r, 80) ? below(r, 2) : rnd_u32(r),
			.reserved = chance(r, 90) ? 0 : rnd(r),
		};

		memcpy(buf, &g, sizeof(g));
		break;
	}
	case TRACEBUF_FDR_IOC_TRIGGER: {
		struct tracebuf_fdr_trigger t;

		if (!take(&arms_left))
			return TRACEBUF_FDR_IOC_GET_CONFIG;
		make_trigger(r, &t);
		memcpy(buf, &t, sizeof(t));
		break;
	}
	default:
		break;
	}
	/* Versions: a larger struct (zero or not), a smaller one, none. */
	if (_IOC_DIR(cmd) != _IOC_NONE && chance(r, 20)) {
		size_t s = *size;

		switch (below(r, 4)) {
		case 0:
			s += 8 * (1 + below(r, 4));
			break;
		case 1:
			s += 4;
			((uint8_t *)buf)[s - 1] = 1;
			break;
		case 2:
			s = s > 4 ? s - 4 : 0;
			break;
		default:
			s = below(r, 64);
			break;
		}
		*size = s;
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd), s);
	}
	return cmd;
}

static bool is_toggle(unsigned long cmd)
{
	unsigned int nr = _IOC_NR(cmd);

	return _IOC_TYPE(cmd) == TRACEBUF_IOC_MAGIC &&
	       (nr == _IOC_NR(TRACEBUF_FDR_IOC_START) ||
		nr == _IOC_NR(TRACEBUF_FDR_IOC_STOP) ||
		nr == _IOC_NR(TRACEBUF_IOC_SET_SOURCES));
}

/* Check what a successful known command returned. */
static void check_out(unsigned long cmd, const uint8_t *out, size_t size,
		      bool is_fdr)
{
	if (_IOC_TYPE(cmd) != TRACEBUF_IOC_MAGIC)
		return;
	if (!is_fdr && _IOC_NR(cmd) == _IOC_NR(TRACEBUF_IOC_STATUS) &&
	    _IOC_DIR(cmd) == _IOC_READ && size >= sizeof(struct tracebuf_status)) {
		const struct tracebuf_status *st = (const void *)out;

		if (st->abi_version != TRACEBUF_ABI_VERSION)
			bad("STATUS abi_version", st->abi_version);
		if (st->buf_size != tb_size)
			bad("STATUS buf_size", st->buf_size);
		if (st->mode > 1)
			bad("STATUS mode", st->mode);
		if (st->flags & ~0x1fU)
			bad("STATUS flags", st->flags);
		if (st->sources & ~TRACEBUF_SRC_ALL)
			bad("STATUS sources", st->sources);
		if (st->chain_queued > st->chain_depth ||
		    st->chain_depth > TRACEBUF_CHAIN_MAX)
			bad("STATUS chain_queued/depth", st->chain_queued);
		if (st->mode == TRACEBUF_MODE_FILL_ONCE &&
		    st->bytes_written > tb_size)
			bad("STATUS fill-once bytes_written", st->bytes_written);
	}
	if (is_fdr && _IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_GET_CONFIG) &&
	    _IOC_DIR(cmd) == _IOC_READ &&
	    size >= sizeof(struct tracebuf_fdr_config)) {
		const struct tracebuf_fdr_config *c = (const void *)out;

		if (!c->classes || c->classes & ~TRACEBUF_FDR_ALL)
			bad("GET_CONFIG classes", c->classes);
		if (c->mode > 1 || c->nr_args > TRACEBUF_FDR_ARGS_MAX ||
		    c->reserved)
			bad("GET_CONFIG mode/nr_args", c->mode);
		if (c->buf_size < TRACEBUF_FDR_BUF_MIN ||
		    c->buf_size > TRACEBUF_FDR_BUF_MAX ||
		    (c->buf_size & (c->buf_size - 1)))
			bad("GET_CONFIG buf_size", c->buf_size);
		if (c->wakeup > c->buf_size)
			bad("GET_CONFIG wakeup", c->wakeup);
	}
	if (is_fdr && cmd == TRACEBUF_FDR_IOC_KFUNCS) {
		const struct tracebuf_fdr_kfuncs *k = (const void *)out;

		if (k->count > TRACEBUF_FDR_KFUNC_MAX ||
		    k->failed != TRACEBUF_FDR_KFUNC_NONE)
			bad("KFUNCS count/failed", k->count);
	}
	if (is_fdr && _IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_STATS) &&
	    _IOC_DIR(cmd) == (_IOC_READ | _IOC_WRITE) &&
	    size >= sizeof(struct tracebuf_fdr_stats)) {
		const struct tracebuf_fdr_stats *s = (const void *)out;

		if (s->abi_version != TRACEBUF_ABI_VERSION || s->running > 1 ||
		    s->cpu_size != sizeof(struct tracebuf_fdr_cpu_stats) ||
		    s->nr_cpus < 1 || s->nr_cpus > 8192)
			bad("STATS header", s->nr_cpus);
	}
}

static const int *ok_for(unsigned long cmd)
{
	if (_IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_KFUNCS))
		return ok_kfuncs;
	if (_IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_TRIGGER))
		return ok_trigger;
	return ok_ioctl;
}

static void do_ioctl(struct worker *w)
{
	static const unsigned int sizes[] = {
		0, 1, 3, 4, 7, 8, 12, 16, 24, 32, 40, 41, 48, 64, 72, 80, 100,
		255, 256, 4096, 16383,
	};
	static const unsigned long vfs[] = {
		FIONBIO, FIOCLEX, FIONCLEX, FIOASYNC, FIONREAD, FIGETBSZ,
		FIOQSIZE, 0x5401 /* TCGETS */,
	};
	struct rng *r = &w->r;
	uint8_t in[1024], *arg;	/* the largest struct, grown by 32 */
	unsigned long cmd;
	size_t size = 0;
	bool is_fdr, fill;
	int fd = pick_fd(w, &is_fdr), k, ret;

	memset(in, 0, sizeof(in));
	switch (below(r, 20)) {
	case 0 ... 10:
		cmd = known_cmd(w, is_fdr, in, &size);
		break;
	case 11 ... 16: {
		/* Our type, numbers in and around ours, any direction/size. */
		unsigned int nr = chance(r, 80) ? below(r, 0x50) : below(r, 256);

		size = chance(r, 60) ? sizes[below(r, 21)] : below(r, 1 << 14);
		cmd = _IOC(below(r, 4), TRACEBUF_IOC_MAGIC, nr, size);
		for (k = 0; k < (int)sizeof(in); k++)
			in[k] = chance(r, 50) ? 0 : (uint8_t)rnd(r);
		if ((_IOC_NR(cmd) == _IOC_NR(TRACEBUF_IOC_SET_SOURCES) ||
		     _IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_START) ||
		     _IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_STOP)) &&
		    !may_toggle())
			cmd = _IOC(_IOC_READ, TRACEBUF_IOC_MAGIC, 0x41, size);
		break;
	}
	case 17:
		cmd = vfs[below(r, 8)];
		size = 8;
		break;
	case 18:
		/* Other types, and numbers that look like ours elsewhere. */
		cmd = _IOC(below(r, 4), below(r, 256), below(r, 0x50),
			   sizes[below(r, 21)]);
		size = _IOC_SIZE(cmd);
		if (_IOC_TYPE(cmd) == TRACEBUF_IOC_MAGIC)
			cmd ^= 1U << _IOC_TYPESHIFT;
		break;
	default:
		cmd = (uint32_t)rnd(r);
		size = _IOC_SIZE(cmd);
		if (_IOC_TYPE(cmd) == TRACEBUF_IOC_MAGIC)
			cmd ^= 1U << _IOC_TYPESHIFT;
		break;
	}
	if (cmd == FIOASYNC || cmd == FIONBIO) {
		/* Turning O_ASYNC on would send SIGIO to us. */
		arg = w->scratch;
		memset(arg, 0, 8);
		arg[0] = cmd == FIONBIO ? below(r, 2) : 0;
	} else {
		/* Room for all @size bytes: output structs are cleared up to it. */
		k = rnd_ptr_kind(r);
		arg = ptr_of(r, k, w->scratch, size, &fill);
		fill_bytes(arg, in, size > sizeof(in) ? sizeof(in) : size, fill);
	}
	atomic_store(&cur[w->id].cmd, cmd);
	arm(w, 100);
	ret = ioctl(fd, cmd, arg);
	disarm(w);
	count(w, is_toggle(cmd) ? 9 : 0);
	if (_IOC_TYPE(cmd) == TRACEBUF_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_KFUNCS)) {
		atomic_fetch_add(&kfuncs_calls, 1);
		atomic_fetch_add(&kfuncs_ok, ret == 0);
	}
	if (_IOC_TYPE(cmd) == TRACEBUF_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(TRACEBUF_FDR_IOC_TRIGGER)) {
		atomic_fetch_add(&trigger_calls, 1);
		atomic_fetch_add(&trigger_ok, ret == 0);
	}
	if (ret < 0) {
		/* Whatever a VFS or foreign ioctl may say on our files. */
		if (_IOC_TYPE(cmd) == TRACEBUF_IOC_MAGIC)
			note_errno(0, cmd, errno, ok_for(cmd));
		return;
	}
	if (arg == w->scratch || (arg >= w->scratch && arg < w->scratch + SCRATCH))
		check_out(cmd, arg, size, is_fdr);
}

static struct tracebuf_event rnd_event(struct rng *r, bool valid)
{
	static const uint32_t counts[] = {
		0, 1, 15, 16, 17, 31, 32, 255, 256, 4096, 65536, 0xfffffff0,
		0xffffffff,
	};
	static const uint32_t vectors[] = { 1, 2, 3, 4, 6, 7 };
	static const uint32_t bad_vectors[] = { 0, 5, 8, 0xffffffff };
	struct tracebuf_event e;

	e.kind = 1 + below(r, 3);
	e.arg = e.kind == TRACEBUF_EV_EXCEPTION ?
		vectors[below(r, 6)] : (uint32_t)rnd(r);
	e.icount = chance(r, 50) ? below(r, 64) : counts[below(r, 13)];
	e.reserved = 0;
	if (!valid) {
		switch (below(r, 4)) {
		case 0:
			e.kind = chance(r, 50) ? 0 : 4 + below(r, 100);
			break;
		case 1:
			e.kind = TRACEBUF_EV_EXCEPTION;
			e.arg = bad_vectors[below(r, 4)];
			break;
		default:
			e.reserved = rnd_u32(r) | 1;
			break;
		}
	}
	return e;
}

static void do_write(struct worker *w)
{
	struct rng *r = &w->r;
	bool is_fdr, fill;
	int fd = pick_fd(w, &is_fdr), k;
	size_t len, n, i, huge = 0;
	uint8_t *p;
	ssize_t ret;

	if (is_fdr) {
		len = chance(r, 90) ? below(r, 64) : below(r, 1100);
		if (chance(r, 3))
			len = TRACEBUF_FDR_MARKER_MAX + below(r, 4);
		k = rnd_ptr_kind(r);
		p = ptr_of(r, k, w->scratch, len, &fill);
		if (fill)
			for (i = 0; i < fillable(p, len); i++)
				p[i] = (uint8_t)rnd(r);
	} else {
		/* Events: mostly few, now and then up to the 1 MiB limit. */
		switch (below(r, 100)) {
		case 0 ... 2:
			n = below(r, 65537);
			break;
		case 3 ... 4:
			n = 65536 + below(r, 3);
			break;
		default:
			n = below(r, 70);
			break;
		}
		len = n * sizeof(struct tracebuf_event);
		if (chance(r, 5))
			len += 1 + below(r, 15);
		k = rnd_ptr_kind(r);
		if (len > SCRATCH)
			k = P_VALID;
		p = ptr_of(r, k, w->scratch, len, &fill);
		if (fill) {
			bool all_valid = chance(r, 90);
			size_t bad_at = all_valid ? (size_t)-1 : below(r, n + 1);

			for (i = 0; i < n; i++) {
				struct tracebuf_event e = rnd_event(r, i != bad_at);

				/*
				 * Each maximal count writes a whole buffer
				 * of roll-overs: bounded per write (one huge
				 * write is the known soft lockup (d)).
				 */
				if (e.icount >= 16 * tb_size && ++huge > 64)
					e.icount = below(r, 64);
				if ((i + 1) * sizeof(e) > fillable(p, len))
					break;
				memcpy(p + i * sizeof(e), &e, sizeof(e));
			}
		}
	}
	atomic_store(&cur[w->id].len, len);
	arm(w, 100);
	ret = write(fd, p, len);
	disarm(w);
	count(w, 2);
	if (ret < 0)
		note_errno(2, len, errno, ok_write);
	else if ((size_t)ret != len)
		bad("short write", ret);
}

static void do_read(struct worker *w)
{
	static const size_t sizes[] = {
		0, 1, 2, 3, 7, 16, 31, 32, 33, 100, 255, 256, 257, 296, 1000,
		4095, 4096, 4103, 65536, 65576, 65549, 131072, 1 << 20,
	};
	struct rng *r = &w->r;
	bool is_fdr, fill;
	int fd = pick_fd(w, &is_fdr);
	size_t len = sizes[below(r, 23)];
	uint8_t *p;
	ssize_t ret;

	/* A flight-mode read takes a snapshot of the whole buffer. */
	if (is_fdr && atomic_load(&fdr_big))
		len = 0;
	p = ptr_of(r, rnd_ptr_kind(r), w->scratch, len > SCRATCH ? SCRATCH : len,
		   &fill);
	if (len > SCRATCH)
		p = w->scratch, len = SCRATCH;
	atomic_store(&cur[w->id].len, len);
	arm(w, chance(r, 90) ? 2 : 50);
	ret = read(fd, p, len);
	disarm(w);
	count(w, 1);
	if (ret < 0)
		note_errno(1, len, errno, ok_read);
	else if ((size_t)ret > len)
		bad("read longer than asked", ret);
	else if (!is_fdr && ret > (ssize_t)tb_size &&
		 ret % (tb_size + sizeof(struct tracebuf_record)))
		bad("trace buffer read of more than a buffer, not records", ret);
}

static void do_poll(struct worker *w)
{
	struct rng *r = &w->r;
	struct pollfd pfd[4];
	int n = 1 + below(r, 4), i;
	bool is_fdr;

	for (i = 0; i < n; i++) {
		pfd[i].fd = pick_fd(w, &is_fdr);
		pfd[i].events = (chance(r, 80) ? POLLIN : 0) |
				(chance(r, 50) ? POLLOUT : 0) |
				(chance(r, 10) ? POLLPRI : 0);
	}
	arm(w, 50);
	if (poll(pfd, n, below(r, 3)) < 0 && errno != EINTR)
		note_errno(3, 0, errno, (const int[]){ EFAULT, 0 });
	disarm(w);
	count(w, 3);
}

static void do_epoll(struct worker *w)
{
	struct rng *r = &w->r;
	struct epoll_event ev[8];
	bool is_fdr;
	int fd;

	if (chance(r, 30)) {
		struct epoll_event e = {
			.events = EPOLLIN | (chance(r, 30) ? EPOLLET : 0) |
				  (chance(r, 30) ? EPOLLOUT : 0),
		};

		fd = pick_fd(w, &is_fdr);
		e.data.fd = fd;
		if (epoll_ctl(w->ep, chance(r, 70) ? EPOLL_CTL_ADD : EPOLL_CTL_DEL,
			      fd, &e) && errno == EEXIST)
			epoll_ctl(w->ep, EPOLL_CTL_MOD, fd, &e);
	} else {
		arm(w, 50);
		epoll_wait(w->ep, ev, 8, below(r, 3));
		disarm(w);
	}
	count(w, 4);
}

static void do_mmap(struct worker *w)
{
	static const int prots[] = { PROT_READ, PROT_WRITE, PROT_READ | PROT_WRITE,
				     PROT_NONE, PROT_READ | PROT_EXEC };
	struct rng *r = &w->r;
	size_t len = page * (1 + below(r, 64)), i;
	struct tracebuf_fdr_config c = { 0 };
	off_t off = chance(r, 80) ? 0 : (off_t)page * below(r, 1024);
	int prot = prots[below(r, 5)];
	bool is_fdr;
	int fd = pick_fd(w, &is_fdr);
	volatile uint8_t sum = 0;
	uint8_t *p;

	/* Often the exact mapping of a CPU's ring (control page + buffer). */
	if (is_fdr && chance(r, 40) &&
	    !ioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, &c)) {
		len = TRACEBUF_FDR_MMAP_SIZE(page, c.buf_size);
		off = (off_t)len * below(r, 3);
	}
	p = mmap(NULL, len, prot, chance(r, 50) ? MAP_SHARED : MAP_PRIVATE,
		 fd, off);
	count(w, 5);
	if (p == MAP_FAILED) {
		note_errno(5, 0, errno, ok_mmap);
		return;
	}
	/* Only the FDR rings map, and only read-only. */
	if (!is_fdr || (prot & (PROT_WRITE | PROT_EXEC)))
		bad("a mapping that must be refused succeeded", (uintptr_t)p);
	/* The buffer cannot change size while mapped: compare with it now. */
	if (is_fdr && (ioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, &c) ||
		       len != TRACEBUF_FDR_MMAP_SIZE(page, c.buf_size) ||
		       off % len))
		bad("a mapping of a wrong size or offset succeeded", len);
	atomic_fetch_add(&kind_ok[5], 1);
	if (prot & PROT_READ) {
		/* Every page readable while the writers go on. */
		for (i = 0; i < len; i += page)
			sum += p[i];
		if (chance(r, 50)) {
			struct tracebuf_fdr_mmap_get g = {
				.cpu = (uint32_t)(off / len),
				.flags = chance(r, 20) ? TRACEBUF_FDR_MMAP_RELEASE : 0,
			};
			int n = ioctl(fd, TRACEBUF_FDR_IOC_MMAP_GET, &g);
			const struct tracebuf_fdr_mmap_page *cp = (const void *)p;

			if (n < 0)
				note_errno(0, TRACEBUF_FDR_IOC_MMAP_GET, errno, ok_ioctl);
			else if ((uint32_t)n != cp->count ||
				 cp->count >= cp->nr_pages ||
				 cp->nr_pages != TRACEBUF_FDR_PAGES ||
				 cp->data_offset != page)
				bad("MMAP_GET control page", n);
		}
	}
	munmap(p, len);
}

static void do_reopen(struct worker *w)
{
	int i = below(&w->r, OWN_FDS), fd;
	bool is_fdr;

	close(w->fd[i]);
	fd = open_random(&w->r, &is_fdr);
	count(w, 6);
	if (fd < 0) {
		printf("# tb_fuzz: reopen: %s\n", strerror(errno));
		atomic_fetch_add(&unexpected, 1);
	}
	w->fd[i] = fd;
	w->fdr[i] = is_fdr;
	if (fd >= 0 && chance(&w->r, 50)) {
		struct epoll_event e = { .events = EPOLLIN, .data.fd = fd };

		epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &e);
	}
}

static void do_misc(struct worker *w)
{
	struct rng *r = &w->r;
	bool is_fdr;
	int fd = pick_fd(w, &is_fdr), fl, ret;
	struct stat st;

	switch (below(r, 4)) {
	case 0:
		/* Blocking or not, under another thread's read. */
		fl = fcntl(fd, F_GETFL);
		ret = fl < 0 ? -1 : fcntl(fd, F_SETFL, fl ^ O_NONBLOCK);
		count(w, 7);
		break;
	case 1:
		ret = lseek(fd, rnd(r), below(r, 5));
		count(w, 8);
		if (ret >= 0)
			bad("lseek succeeded", ret);
		break;
	case 2:
		ret = fstat(fd, &st);
		count(w, 7);
		break;
	default:
		ret = pread(fd, w->scratch, 16, 0);
		count(w, 8);
		if (ret >= 0)
			bad("pread succeeded", ret);
		break;
	}
	if (ret < 0)
		note_errno(7, 0, errno, ok_misc);
}

/*
 * The mix of calls, from @k below 100: the kind_name[] index of the
 * call worker_fn() makes (do_misc() counts its own), -1 for getppid().
 */
static int call_kind(uint32_t k)
{
	static const uint8_t upto[] = { 32, 47, 62, 70, 76, 84, 88, 94 };
	int i;

	for (i = 0; i < (int)sizeof(upto); i++)
		if (k < upto[i])
			return i;
	return -1;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct sigevent sev = {
		.sigev_notify = SIGEV_THREAD_ID,
		.sigev_signo = SIGUSR1,
	};
	int i;

	sev._sigev_un._tid = gettid();
	atomic_store(&cur[w->id].tid, gettid());
	w->scratch = malloc(SCRATCH);
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	if (timer_create(CLOCK_MONOTONIC, &sev, &w->timer) || !w->scratch ||
	    w->ep < 0) {
		printf("# tb_fuzz: thread %d: set-up failed\n", w->id);
		atomic_fetch_add(&unexpected, 1);
		atomic_fetch_add(&threads_done, 1);
		return NULL;
	}
	memset(w->scratch, 0, SCRATCH);
	for (i = 0; i < OWN_FDS; i++)
		w->fd[i] = open_random(&w->r, &w->fdr[i]);
	while (w->calls < w->target) {
		int kind = call_kind(below(&w->r, 100));
		double t0 = tb_now();

		atomic_store(&cur[w->id].kind, kind);
		errno = 0;
		switch (kind) {
		case 0:
			do_ioctl(w);
			break;
		case 1:
			do_read(w);
			break;
		case 2:
			do_write(w);
			break;
		case 3:
			do_poll(w);
			break;
		case 4:
			do_epoll(w);
			break;
		case 5:
			do_mmap(w);
			break;
		case 6:
			do_reopen(w);
			break;
		case 7:
			do_misc(w);
			break;
		default:
			syscall(SYS_getppid);	/* to trace */
			break;
		}
		if (kind >= 0)
			account(kind, t0, !errno);
	}
	for (i = 0; i < OWN_FDS; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	close(w->ep);
	timer_delete(w->timer);
	free(w->scratch);
	atomic_fetch_add(&threads_done, 1);
	return NULL;
}

/* Remaps the region the workers pass as buffers, all the time. */
static void *mapper_fn(void *arg)
{
	struct rng r = { seed ^ 0x6d6170706572ULL };
	size_t len = RACE_PAGES * page;
	unsigned long cycles = 0;

	atomic_store(&mapper_tid, gettid());
	while (!atomic_load(&stop_mapper)) {
		void *p = NULL;

		switch (below(&r, 6)) {
		case 0:
			/* A hole between the guards, filled right after. */
			munmap(race_base, len);
			sched_yield();
			p = mmap(race_base, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				 -1, 0);
			break;
		case 1:
			p = mmap(race_base, len, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			break;
		case 2:
			p = mmap(race_base, len, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			break;
		case 3:
			madvise(race_base, len, MADV_DONTNEED);
			break;
		default:
			p = mmap(race_base, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
				 (chance(&r, 50) ? MAP_POPULATE : 0), -1, 0);
			if (p == race_base && chance(&r, 50))
				memset(race_base, (int)cycles, len);
			break;
		}
		if (p == MAP_FAILED) {
			/* Someone took the hole: give up on that page range. */
			printf("# tb_fuzz: remap: %s\n", strerror(errno));
			break;
		}
		cycles++;
		if (chance(&r, 30))
			usleep(below(&r, 200));
	}
	return (void *)cycles;
}

/* ------------------------------------------------------------- rounds */

/* Keep a capture running and the feed on, within the toggle budget. */
static void keep_running(struct rng *r, int ctl_tb, int ctl_fdr)
{
	struct tracebuf_fdr_stats st;
	struct tracebuf_status ts;
	struct tracebuf_fdr_config c;

	if (!fdr_stats(ctl_fdr, &st) && !st.running && may_toggle()) {
		memset(&c, 0, sizeof(c));
		c.classes = TRACEBUF_FDR_ALL;
		c.mode = below(r, 2);
		c.buf_size = (64 << 10) << below(r, 5);
		c.nr_args = below(r, 7);
		c.wakeup = below(r, 2) ? 0 : below(r, c.buf_size + 1);
		ioctl(ctl_fdr, TRACEBUF_FDR_IOC_CONFIG, &c);
		ioctl(ctl_fdr, TRACEBUF_FDR_IOC_START);
	}
	if (!tb_status(ctl_tb, &ts)) {
		if (!ts.sources && may_toggle())
			tb_set_sources(ctl_tb, TRACEBUF_SRC_ALL, TRACEBUF_CPU_ALL);
		if (!(ts.flags & TRACEBUF_STATUS_ENABLED))
			ioctl(ctl_tb, TRACEBUF_IOC_ENABLE);
	}
}

/* Once per round: a large FDR buffer for a while (snapshots held off). */
static void big_buffer(struct rng *r, int ctl_fdr, int on)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_ALL, .mode = below(r, 2),
	};

	if (on) {
		atomic_store(&fdr_big, 1);
		usleep(200000);		/* calls under way finish */
		c.buf_size = (16 << 20) << below(r, 3);
	} else {
		c.buf_size = 256 << 10;
	}
	ioctl(ctl_fdr, TRACEBUF_FDR_IOC_STOP);
	ioctl(ctl_fdr, TRACEBUF_FDR_IOC_CONFIG, &c);
	ioctl(ctl_fdr, TRACEBUF_FDR_IOC_START);
	if (!on)
		atomic_store(&fdr_big, 0);
}

/*
 * Each thread's last call and where it is in the kernel, then every
 * blocked task of the system in the kernel log (SysRq w: a holder that
 * is not ours, a kworker say), for a run that made no progress.
 */
static void report_stuck(struct worker *w)
{
	char where[1200];
	FILE *f;
	int i;

	printf("# tb_fuzz: NO PROGRESS; what each thread is doing:\n");
	for (i = 0; i < nthreads; i++) {
		int kind = atomic_load(&cur[i].kind);

		printf("#   thread %d: %lu of %lu calls%s, last %s, cmd %#lx, len %lu\n",
		       i, w[i].calls, w[i].target,
		       w[i].calls < w[i].target ? "" : " (done)",
		       kind < 0 ? "getppid" : kind_name[kind],
		       atomic_load(&cur[i].cmd), atomic_load(&cur[i].len));
		if (w[i].calls >= w[i].target)
			continue;
		tb_task_where(atomic_load(&cur[i].tid), where, sizeof(where));
		printf("#     %s\n", where);
	}
	tb_task_where(atomic_load(&mapper_tid), where, sizeof(where));
	printf("#   mapper: %s\n", where);
	fflush(stdout);
	f = fopen("/proc/sysrq-trigger", "w");
	if (f) {
		fputc('w', f);
		fclose(f);
		printf("# tb_fuzz: blocked tasks written to the kernel log (SysRq w)\n");
	}
	fflush(stdout);
}

static int run_round(int round, unsigned long calls)
{
	struct worker w[MAX_THREADS];
	pthread_t th[MAX_THREADS], mapper;
	struct rng r = { seed ^ (0x726f756e64ULL + round) };
	unsigned long done0 = atomic_load(&calls_done), last = done0;
	double t_last = tb_now(), t_big = 0;
	int ctl_tb, ctl_fdr, i, big = 0;
	char params[32];
	void *cycles;

	tb_size = 256U << ((round + 1) % 9);
	if (reload) {
		snprintf(params, sizeof(params), "tb_buf_size=%u", tb_size);
		i = tb_reload(round == nrounds - 1 ? "" : params);
		if (i) {
			printf("# tb_fuzz: reload with %s: %s\n", params, strerror(-i));
			return -1;
		}
		if (round == nrounds - 1)
			tb_size = 256;
	}
	ctl_tb = tb_open_dev(O_RDWR);
	ctl_fdr = open(TB_FDR_DEV, O_RDWR | O_CLOEXEC);
	if (ctl_tb < 0 || ctl_fdr < 0)
		return -1;
	if (!reload) {
		struct tracebuf_status st;

		if (tb_status(ctl_tb, &st))
			return -1;
		tb_size = st.buf_size;
	}
	atomic_store(&toggles_left, TOGGLES);
	atomic_store(&arms_left, ARMS);
	atomic_store(&threads_done, 0);
	atomic_store(&fdr_big, 0);
	keep_running(&r, ctl_tb, ctl_fdr);
	for (i = 0; i < SHARED_FDS; i++)
		shared_fd[i] = open(i < SHARED_FDS / 2 ? TB_DEV : TB_FDR_DEV,
				    (i & 1 ? O_RDWR | O_NONBLOCK : O_RDWR) | O_CLOEXEC);
	atomic_store(&stop_mapper, false);
	if (pthread_create(&mapper, NULL, mapper_fn, NULL))
		return -1;
	for (i = 0; i < nthreads; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].id = i;
		w[i].r.s = seed ^ ((uint64_t)round << 32) ^ (0x9e3779b97f4a7c15ULL * (i + 1));
		w[i].target = calls / nthreads + (i < (int)(calls % nthreads));
		if (pthread_create(&th[i], NULL, worker_fn, &w[i]))
			return -1;
	}
	/* Supervise: progress, the capture and feed, the large buffer. */
	for (;;) {
		unsigned long done = atomic_load(&calls_done);
		double t = tb_now();

		if (done != last) {
			last = done;
			t_last = t;
		} else if (t - t_last > tb_bound(60)) {
			report_stuck(w);
			_exit(3);
		}
		if (atomic_load(&threads_done) == nthreads)
			break;
		if (!big && done - done0 > calls / 3) {
			big_buffer(&r, ctl_fdr, 1);
			big = 1;
			t_big = tb_now();
		} else if (big == 1 && tb_now() - t_big > 0.5) {
			big_buffer(&r, ctl_fdr, 0);
			big = 2;
		}
		keep_running(&r, ctl_tb, ctl_fdr);
		usleep(50000);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	if (big == 1)
		big_buffer(&r, ctl_fdr, 0);
	atomic_store(&stop_mapper, true);
	pthread_join(mapper, &cycles);
	for (i = 0; i < SHARED_FDS; i++)
		if (shared_fd[i] >= 0)
			close(shared_fd[i]);
	if (verbose)
		printf("# tb_fuzz: round %d: buf_size %u, %lu remaps, %d toggles left\n",
		       round, tb_size, (unsigned long)(uintptr_t)cycles,
		       atomic_load(&toggles_left));
	close(ctl_tb);
	close(ctl_fdr);
	return 0;
}

static int setup_memory(void)
{
	uint8_t *area;
	int i;

	page = sysconf(_SC_PAGESIZE);
	/* guard | race region | guard | hole | ro | edge | guard */
	area = mmap(NULL, (RACE_PAGES + 7) * page, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return -1;
	race_base = area + page;
	hole = race_base + (RACE_PAGES + 1) * page;
	ro_page = hole + 2 * page;
	edge = ro_page + page;
	if (mmap(race_base, RACE_PAGES * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
	    mprotect(ro_page, page, PROT_READ | PROT_WRITE) ||
	    mprotect(edge, page, PROT_READ | PROT_WRITE))
		return -1;
	for (i = 0; i < page; i++)
		ro_page[i] = (uint8_t)(i * 7);
	return mprotect(ro_page, page, PROT_READ);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: tb_fuzz [-s SEED] [-n CALLS] [-t THREADS] [-r ROUNDS] [-R] [-c] [-o FILE] [-v]\n");
	exit(2);
}

static int clear_kfuncs(void)
{
	struct tracebuf_fdr_kfuncs k = { 0 };
	int fd = open(TB_FDR_DEV, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, TRACEBUF_FDR_IOC_STOP) ||
	      ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &k) ? -1 : 0;
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	const char *out = NULL;
	char err[512];
	int opt, round, check = 0, ret = 0;
	double t0, secs;
	bool have_seed = false;

	while ((opt = getopt(argc, argv, "s:n:t:r:Rco:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = true;
			break;
		case 'n':
			total_calls = strtoul(optarg, NULL, 0);
			break;
		case 't':
			nthreads = atoi(optarg);
			break;
		case 'r':
			nrounds = atoi(optarg);
			break;
		case 'R':
			reload = 0;
			break;
		case 'c':
			check = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (nthreads < 1 || nthreads > MAX_THREADS || nrounds < 1 || optind != argc)
		usage();
	if (!have_seed)
		seed = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid();
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# tb_fuzz: seed %#" PRIx64 ", %lu calls, %d threads, %d rounds%s\n",
	       seed, total_calls, nthreads, nrounds, reload ? "" : " (no reload)");
	printf("# tb_fuzz: repeat with: tb_fuzz -s %#" PRIx64 " -n %lu -t %d -r %d%s\n",
	       seed, total_calls, nthreads, nrounds, reload ? "" : " -R");
	/* Interrupts blocking calls (no SA_RESTART); SIGPIPE is harmless. */
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (setup_memory()) {
		perror("tb_fuzz: memory set-up");
		return 1;
	}
	t0 = tb_now();
	for (round = 0; round < nrounds; round++) {
		unsigned long calls = total_calls / nrounds +
				      (round < (int)(total_calls % nrounds));

		if (run_round(round, calls)) {
			printf("# tb_fuzz: round %d could not run\n", round);
			return 1;
		}
	}
	secs = tb_now() - t0;
	printf("# tb_fuzz: %lu calls in %.1f s (%.0f/s):", atomic_load(&calls_done),
	       secs, atomic_load(&calls_done) / secs);
	for (opt = 0; opt < 10; opt++)
		printf(" %s %lu", kind_name[opt], atomic_load(&kind_count[opt]));
	printf("\n");
	if (verbose) {
		printf("# tb_fuzz: succeeded/ms:");
		for (opt = 0; opt < 8; opt++)
			printf(" %s %lu/%lu", kind_name[opt],
			       atomic_load(&kind_ok[opt]),
			       atomic_load(&kind_us[opt]) / 1000);
		printf("\n# tb_fuzz: KFUNCS %lu/%lu, TRIGGER %lu/%lu succeeded\n",
		       atomic_load(&kfuncs_ok), atomic_load(&kfuncs_calls),
		       atomic_load(&trigger_ok), atomic_load(&trigger_calls));
	}
	printf("# tb_fuzz: %lu unexpected errnos, %lu impossible results\n",
	       atomic_load(&unexpected), atomic_load(&bad_results));
	if (atomic_load(&unexpected) || atomic_load(&bad_results))
		ret = 1;
	/* A kernel-function list outlives the run: later captures would record it. */
	if (clear_kfuncs()) {
		printf("# tb_fuzz: cannot clear the kernel-function list: %s\n",
		       strerror(errno));
		ret = 1;
	}
	if (check) {
		if (after_xscale_exact(err, sizeof(err))) {
			printf("# tb_fuzz: trace buffer after the run: %s\n", err);
			ret = 1;
		}
		if (after_fdr_valid(out, err, sizeof(err))) {
			printf("# tb_fuzz: recorder after the run: %s\n", err);
			ret = 1;
		}
		if (!ret)
			printf("# tb_fuzz: both devices work exactly after the run\n");
	}
	return ret;
}
