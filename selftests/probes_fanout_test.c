// SPDX-License-Identifier: GPL-2.0
/*
 * The probe layer with both devices on the same tracepoints: the FDR
 * recorder and the emulated trace buffer's feed each register a probe of
 * their own on raw_syscalls:sys_enter and sys_exit (core/probes.h), so
 * with both on, the tracepoint has two probes and calls each.  Each device
 * must see every event exactly once, also while the other one attaches
 * and detaches over and over as events flow.
 *
 * The events are recognised exactly: a getppid() made by one syscall
 * instruction (x86-64 only), whose return address is known.  The FDR
 * trace counts its entries and exits by the thread's id; the emulated
 * buffer records the return as an indirect branch to that address (5
 * bytes, as many as the status's byte count grows by).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "tb_dev_util.h"
#include "fdr_util.h"

#define ID(space, key)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)

#ifdef __x86_64__
/* getppid() from one place: its return address is tb_marked_ret. */
extern const char tb_marked_ret[];

static __attribute__((noinline)) long marked_getppid(void)
{
	long ret;

	asm volatile("syscall\n\t"
		     ".globl tb_marked_ret\n"
		     "tb_marked_ret:"
		     : "=a" (ret) : "a" ((long)SYS_getppid)
		     : "rcx", "r11", "memory");
	return ret;
}
#define HAVE_MARKED 1
#elif defined(__aarch64__)
extern const char tb_marked_ret[];

static __attribute__((noinline)) long marked_getppid(void)
{
	register long x8 asm("x8") = SYS_getppid;
	register long x0 asm("x0");

	asm volatile("svc #0\n\t"
		     ".globl tb_marked_ret\n"
		     "tb_marked_ret:"
		     : "=r" (x0) : "r" (x8) : "memory");
	return x0;
}
#define HAVE_MARKED 1
#else
#define HAVE_MARKED 0
static long marked_getppid(void)
{
	return 0;
}

static const char tb_marked_ret[1];
#endif

static uint32_t marked_pc(void)
{
	return (uint32_t)(uintptr_t)tb_marked_ret;
}

/* How many indirect branches to tb_marked_ret a buffer holds (newest back). */
static int count_marked(const uint8_t *b, int n)
{
	int i = n - 1, found = 0;

	while (i >= 0 && b[i]) {
		if ((b[i] & 0xb0) == 0x90) {
			if (i < 4)
				break;
			found += ((uint32_t)b[i - 4] << 24 | b[i - 3] << 16 |
				  b[i - 2] << 8 | b[i - 1]) == marked_pc();
			i -= 5;
		} else {
			i--;
		}
	}
	return found;
}

struct seen {
	pid_t tid;
	int enters, exits;
};

static void seen_cb(const struct fdr_rec *r, void *arg)
{
	struct seen *s = arg;

	if (r->kind != FDR_R_FUNC || r->tid != s->tid ||
	    r->id != ID(SYSCALL, SYS_getppid))
		return;
	if (r->type == 1)
		s->exits++;
	else
		s->enters++;
}

/* Stop the recorder, read its trace and count @tid's getppid() records. */
static int fdr_count(int fd, pid_t tid, struct seen *s, uint64_t *lost)
{
	struct tracebuf_fdr_stats st;
	char err[128];
	size_t len = 0;
	uint8_t *buf;
	int ret;

	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP) || fdr_stats(fd, &st))
		return -1;
	*lost = st.dropped + st.overwritten;
	buf = fdr_read_all(fd, &len);
	if (!buf)
		return -1;
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	ret = fdr_check(buf, len, seen_cb, s, err, sizeof(err));
	if (ret < 0)
		fprintf(stderr, "# fdr_check: %s\n", err);
	free(buf);
	return ret < 0 ? -1 : 0;
}

static int last_cpu(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
}

FIXTURE(fan)
{
	int tb, fdr;
};

FIXTURE_SETUP(fan)
{
	if (!HAVE_MARKED)
		SKIP(return, "the marked syscall is x86-64 and arm64 only");
	self->tb = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->tb);
	ASSERT_EQ(0, tb_reset(self->tb, TRACEBUF_MODE_WRAP, 0));
	self->fdr = fdr_open_stopped();
	ASSERT_LE(0, self->fdr);
	ASSERT_EQ(0, fdr_config(self->fdr, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 8 << 20, 0));
}

FIXTURE_TEARDOWN(fan)
{
	if (!HAVE_MARKED)
		return;
	ioctl(self->fdr, TRACEBUF_FDR_IOC_STOP);
	close(self->fdr);
	tb_reset(self->tb, TRACEBUF_MODE_WRAP, 0);
	tb_set_sources(self->tb, 0, 0);
	close(self->tb);
}

/*
 * Both on at once: rounds of 35 marked calls.  Each round's buffer (read
 * clears it) holds exactly 35 returns to the mark, and the FDR trace has
 * every call's entry and exit exactly once.
 */
TEST_F(fan, both_devices_see_every_event_once)
{
	const int rounds = 50, per = 35;	/* 35 * 6 bytes fit 256 */
	uint8_t buf[TB_SIZE];
	int cpu = last_cpu(), r, i, bad = 0;
	struct seen s;
	uint64_t lost;

	ASSERT_EQ(0, pin_cpu(cpu));
	ASSERT_EQ(0, tb_set_sources(self->tb, TRACEBUF_SRC_SYSCALL |
				    TRACEBUF_SRC_RET_USER, cpu));
	ASSERT_EQ(0, ioctl(self->tb, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, ioctl(self->fdr, TRACEBUF_FDR_IOC_START));
	for (r = 0; r < rounds; r++) {
		ASSERT_EQ(0, tb_read_buf(self->tb, buf));
		for (i = 0; i < per; i++)
			marked_getppid();
		ASSERT_EQ(0, tb_read_buf(self->tb, buf));
		if (count_marked(buf, TB_SIZE) != per && bad++ < 5)
			TH_LOG("round %d: %d returns to the mark, not %d", r,
			       count_marked(buf, TB_SIZE), per);
	}
	EXPECT_EQ(0, bad);
	ASSERT_EQ(0, fdr_count(self->fdr, gettid(), &s, &lost));
	EXPECT_EQ(0, lost);
	EXPECT_EQ(rounds * per, s.enters);
	EXPECT_EQ(rounds * per, s.exits);
}

/*
 * A thread making marked calls on one CPU: it spins (no syscall) until
 * @go, calls until @halt or @target calls (spinning @pause loops after
 * each), sets @done and spins again until @release.
 */
struct caller {
	int cpu;
	long target;		/* 0: no limit */
	long pause;
	atomic_int ready, go, halt, done, release;
	atomic_long calls;
	pid_t tid;
};

static void *caller_thread(void *p)
{
	struct caller *c = p;

	if (pin_cpu(c->cpu))
		return NULL;
	c->tid = gettid();
	atomic_store(&c->ready, 1);
	while (!atomic_load(&c->go))
		;
	while (!atomic_load(&c->halt) &&
	       (!c->target || atomic_load(&c->calls) < c->target)) {
		volatile long k;

		marked_getppid();
		atomic_fetch_add(&c->calls, 1);
		for (k = 0; k < c->pause; k++)
			;
	}
	atomic_store(&c->done, 1);
	while (!atomic_load(&c->release))
		;
	return NULL;
}

/*
 * Spin loops in about @us microseconds here (not a measurement: only so
 * that the calls of a test spread over the attaches and detaches).
 */
static long loops_per(long us)
{
	struct timespec a, b;
	volatile long k;
	long ns;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (k = 0; k < 10000000; k++)
		;
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns = (b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec;
	return ns > 0 ? 10000000L * 1000 * us / ns : 1000;
}

static void caller_start(struct __test_metadata *_metadata, struct caller *c,
			 pthread_t *th)
{
	ASSERT_EQ(0, pthread_create(th, NULL, caller_thread, c));
	while (!atomic_load(&c->ready))
		usleep(1000);
}

/* Stop calling; then no syscall of the caller's until caller_end(). */
static void caller_halt(struct caller *c)
{
	atomic_store(&c->halt, 1);
	while (!atomic_load(&c->done))
		usleep(1000);
}

static void caller_end(struct caller *c, pthread_t th)
{
	atomic_store(&c->release, 1);
	pthread_join(th, NULL);
}

/*
 * The FDR recorder runs throughout while the feed attaches and detaches
 * over and over: every call's entry and exit is in the trace exactly once.
 * The calls are paced (about one per 20 us) so that they spread over many
 * attaches and detaches, and at most 200,000, whose records fit the
 * flight buffer.
 */
TEST_F_TIMEOUT(fan, fdr_exact_while_feed_attaches_and_detaches, 300)
{
	struct caller c = {
		.cpu = last_cpu(), .target = 200000, .pause = loops_per(20),
	};
	pthread_t th;
	struct seen s;
	uint64_t lost;
	int i;

	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, ioctl(self->tb, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, ioctl(self->fdr, TRACEBUF_FDR_IOC_START));
	caller_start(_metadata, &c, &th);
	atomic_store(&c.go, 1);
	i = 0;
	do {
		ASSERT_EQ(0, tb_set_sources(self->tb, TRACEBUF_SRC_SYSCALL |
					    TRACEBUF_SRC_RET_USER,
					    i & 1 ? TRACEBUF_CPU_ALL : c.cpu));
		usleep(500);
		ASSERT_EQ(0, tb_set_sources(self->tb, 0, 0));
	} while (++i < 300 && !atomic_load(&c.done));
	caller_halt(&c);
	caller_end(&c, th);
	ASSERT_EQ(0, fdr_count(self->fdr, c.tid, &s, &lost));
	TH_LOG("%ld calls, %d attach/detach cycles", atomic_load(&c.calls), i);
	EXPECT_LT(0, atomic_load(&c.calls));
	EXPECT_EQ(0, lost);
	EXPECT_EQ(atomic_load(&c.calls), s.enters);
	EXPECT_EQ(atomic_load(&c.calls), s.exits);
}

/*
 * The feed runs throughout (syscall returns of the caller's CPU only)
 * while the recorder starts and stops 50 times: the buffer's byte count
 * grows by exactly 5 bytes per call.
 */
TEST_F_TIMEOUT(fan, feed_exact_while_fdr_starts_and_stops, 300)
{
	struct caller c = { .cpu = last_cpu() };
	struct tracebuf_status before, after;
	pthread_t th;
	int i;

	if (c.cpu == 0)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, tb_set_sources(self->tb, TRACEBUF_SRC_RET_USER, c.cpu));
	ASSERT_EQ(0, ioctl(self->tb, TRACEBUF_IOC_ENABLE));
	caller_start(_metadata, &c, &th);
	ASSERT_EQ(0, tb_status(self->tb, &before));
	atomic_store(&c.go, 1);
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, ioctl(self->fdr, TRACEBUF_FDR_IOC_START));
		usleep(500);
		ASSERT_EQ(0, ioctl(self->fdr, TRACEBUF_FDR_IOC_STOP));
	}
	caller_halt(&c);
	ASSERT_EQ(0, tb_status(self->tb, &after));
	caller_end(&c, th);
	TH_LOG("%ld calls", atomic_load(&c.calls));
	EXPECT_LT(0, atomic_load(&c.calls));
	EXPECT_EQ(5 * atomic_load(&c.calls),
		  after.bytes_written - before.bytes_written);
}

TEST_HARNESS_MAIN
