// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel event feed of the emulated /dev/tracebuf (syscalls, IRQs,
 * page faults, syscall returns, context switches), its CPU selection,
 * concurrent writers and readers on several CPUs, CPU hotplug while the
 * feed runs, module unload with the feed on, and the buf_size parameter.
 */
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>

#include "tb_harness.h"
#include "tb_dev_util.h"

/*
 * Count messages by upper nibble, walking back from the newest byte: an
 * indirect message (1001/1101) owns the 4 bytes before it.  Stops at a
 * 0x00 message position (never-written part).  Also collects targets.
 */
struct tally {
	int by_nibble[16];
	int nonzero_count;	/* messages with CCCC != 0 or roll-overs */
	uint32_t targets[64];
	int ntargets;
};

static void tally(const uint8_t *b, int n, struct tally *t)
{
	int i = n - 1;

	memset(t, 0, sizeof(*t));
	while (i >= 0 && b[i]) {
		uint8_t m = b[i];

		t->by_nibble[m >> 4]++;
		if (m == 0xff || (m & 0x0f))
			t->nonzero_count++;
		if ((m & 0xb0) == 0x90) {
			if (i < 4)
				break;
			if (t->ntargets < 64)
				t->targets[t->ntargets++] =
					(uint32_t)b[i - 4] << 24 | b[i - 3] << 16 |
					b[i - 2] << 8 | b[i - 1];
			i -= 5;
		} else {
			i--;
		}
	}
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void syscall_burst(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

FIXTURE(feed)
{
	int fd;
	uint8_t buf[TB_SIZE];
	struct tally t;
};

FIXTURE_SETUP(feed)
{
	self->fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0));
}

FIXTURE_TEARDOWN(feed)
{
	tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0);
	close(self->fd);
}

/* Feed @mask while @work runs, then read the buffer and tally it. */
static int capture(int fd, uint32_t mask, uint32_t cpu, void (*work)(void),
		   uint8_t *buf, struct tally *t)
{
	if (tb_set_sources(fd, mask, cpu) || ioctl(fd, TRACEBUF_IOC_CLEAR) ||
	    ioctl(fd, TRACEBUF_IOC_ENABLE))
		return -errno;
	work();
	if (ioctl(fd, TRACEBUF_IOC_DISABLE) || tb_set_sources(fd, 0, 0))
		return -errno;
	if (tb_read_buf(fd, buf))
		return -EIO;
	tally(buf, TB_SIZE, t);
	return 0;
}

static void work_syscalls(void)
{
	syscall_burst(2000);
}

TEST_F(feed, syscalls_are_swi)
{
	struct tracebuf_status st;
	int n;

	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_SYSCALL, TRACEBUF_CPU_ALL,
			     work_syscalls, self->buf, &self->t));
	n = self->t.by_nibble[2];
	EXPECT_GE(n, 100) {
		TH_LOG("only %d SWI messages", n);
	}
	ASSERT_EQ(0, tb_set_sources(self->fd, TRACEBUF_SRC_SYSCALL, TRACEBUF_CPU_ALL));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TRACEBUF_SRC_SYSCALL, st.sources);
	if (!(st.flags & TRACEBUF_STATUS_COUNTS)) {
		/* No instruction counter (qemu TCG): every count is 0. */
		TH_LOG("no hardware instruction counter: counts are 0");
		EXPECT_EQ(0, self->t.nonzero_count);
		EXPECT_EQ(n, TB_SIZE);
	} else {
		TH_LOG("instruction counts are real");
	}
}

static void work_tty(void)
{
	int fd = open("/dev/ttyS0", O_WRONLY | O_NOCTTY);
	int i;

	/* Serial output completes by interrupt: IRQ exceptions. */
	for (i = 0; fd >= 0 && i < 20; i++) {
		if (write(fd, "# feed: tty irq workload\n", 25) < 0)
			break;
		tcdrain(fd);
	}
	if (fd >= 0)
		close(fd);
}

TEST_F(feed, hard_irqs_are_irq_exceptions)
{
	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_IRQ, TRACEBUF_CPU_ALL,
			     work_tty, self->buf, &self->t));
	EXPECT_GE(self->t.by_nibble[6], 1);
	/* Nothing but IRQ messages. */
	EXPECT_EQ(0, self->t.by_nibble[2]);
}

static void work_faults(void)
{
	size_t len = 64 * 4096, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	munmap(p, len);
}

TEST_F(feed, page_faults_are_data_aborts)
{
	int ret = tb_set_sources(self->fd, TRACEBUF_SRC_FAULT, TRACEBUF_CPU_ALL);

	if (ret && errno == EOPNOTSUPP)
		SKIP(return, "no page fault tracepoints on this architecture");
	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_FAULT, TRACEBUF_CPU_ALL,
			     work_faults, self->buf, &self->t));
	EXPECT_GE(self->t.by_nibble[4], 32);
}

TEST_F(feed, syscall_return_is_indirect_branch_to_user_pc)
{
	int i, same = 0;

	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_RET_USER, TRACEBUF_CPU_ALL,
			     work_syscalls, self->buf, &self->t));
	/* 256 / 5: 51 complete entries, all returns to the same PC. */
	EXPECT_GE(self->t.ntargets, 50);
	EXPECT_GE(self->t.by_nibble[9] + self->t.by_nibble[0xd], 50);
	for (i = 1; i < self->t.ntargets; i++)
		same += self->t.targets[i] == self->t.targets[0];
	EXPECT_GE(same, 45);
	EXPECT_NE(0, self->t.targets[0]);
}

static void work_switch(void)
{
	int i;

	for (i = 0; i < 30; i++)
		usleep(1000);
}

TEST_F(feed, context_switch_is_indirect_branch_to_pid)
{
	int i, mine = 0;

	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_SWITCH, TRACEBUF_CPU_ALL,
			     work_switch, self->buf, &self->t));
	EXPECT_GE(self->t.ntargets, 10);
	for (i = 0; i < self->t.ntargets; i++)
		mine += self->t.targets[i] == (uint32_t)getpid();
	EXPECT_GE(mine, 1);
}

TEST_F(feed, one_cpu_only)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (ncpu < 2)
		SKIP(return, "needs 2 CPUs");
	/* Feed CPU 1, run on CPU 1: recorded. */
	ASSERT_EQ(0, pin_to(1));
	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_SYSCALL, 1, work_syscalls,
			     self->buf, &self->t));
	EXPECT_GE(self->t.by_nibble[2], 100);
	/* Feed CPU 1, run on CPU 0: (almost) nothing from the idle CPU 1. */
	ASSERT_EQ(0, pin_to(0));
	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_SYSCALL, 1, work_syscalls,
			     self->buf, &self->t));
	EXPECT_LT(self->t.by_nibble[2], 20);
}

/* An injector pinned to @cpu, until killed. */
static pid_t spawn_injector(int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct tracebuf_event ev[32];
		int fd = tb_open_dev(O_WRONLY), i;

		pin_to(cpu);
		for (i = 0; i < 32; i++)
			ev[i] = (struct tracebuf_event)IND(0x1000 * cpu + i, i);
		for (;;)
			if (write(fd, ev, sizeof(ev)) < 0 && errno != EBUSY)
				_exit(1);
	}
	return pid;
}

static pid_t spawn_reader(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		uint8_t b[TB_REC_SIZE];
		struct tracebuf_status st;
		int fd = tb_open_dev(O_RDONLY | O_NONBLOCK);

		for (;;) {
			/* EINVAL: chained, 100 bytes is less than a record. */
			if (read(fd, b, 100) < 0 && errno != EAGAIN &&
			    errno != EINVAL)
				_exit(1);
			tb_snapshot(fd, b, TRACEBUF_SNAP_CLEAR);
			tb_status(fd, &st);
		}
	}
	return pid;
}

static void spin_syscalls_ms(int ms)
{
	int i;

	for (i = 0; i < ms; i++) {
		syscall_burst(50);
		usleep(1000);
	}
}

TEST_F(feed, concurrent_writers_and_readers)
{
	pid_t pids[4];
	struct tracebuf_status st;
	int i, status;

	ASSERT_EQ(0, tb_set_sources(self->fd, TRACEBUF_SRC_ALL & ~TRACEBUF_SRC_FAULT,
				    TRACEBUF_CPU_ALL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	pids[0] = spawn_injector(0);
	pids[1] = spawn_injector(1);
	pids[2] = spawn_reader();
	pids[3] = spawn_reader();
	spin_syscalls_ms(300);
	/* Mode and chain changes race with everything. */
	for (i = 0; i < 20; i++) {
		ioctl(self->fd, TRACEBUF_IOC_DISABLE);
		tb_set_mode(self->fd, i & 1);
		if (i & 1)
			tb_set_chain(self->fd, 4);
		else
			tb_set_chain(self->fd, 0);
		ioctl(self->fd, TRACEBUF_IOC_ENABLE);
		spin_syscalls_ms(10);
	}
	for (i = 0; i < 4; i++) {
		kill(pids[i], SIGKILL);
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status)) {
			TH_LOG("child %d exited with %d", i, WEXITSTATUS(status));
		}
	}
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_LE(st.bytes_written, TB_SIZE * 2ULL);
}

TEST_F(feed, cpu_hotplug_while_feeding)
{
	const char *path = "/sys/devices/system/cpu/cpu1/online";
	int fd = open(path, O_WRONLY);
	pid_t pid;
	int status;

	if (fd < 0)
		SKIP(return, "CPU 1 cannot be hot-unplugged");
	ASSERT_EQ(0, tb_set_sources(self->fd, TRACEBUF_SRC_ALL & ~TRACEBUF_SRC_FAULT,
				    TRACEBUF_CPU_ALL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		spin_syscalls_ms(600);
		_exit(0);
	}
	usleep(100000);
	ASSERT_EQ(2, pwrite(fd, "0\n", 2, 0));
	usleep(200000);
	ASSERT_EQ(2, pwrite(fd, "1\n", 2, 0));
	close(fd);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	/* CPU 1 feeds again after coming back. */
	ASSERT_EQ(0, pin_to(1));
	ASSERT_EQ(0, capture(self->fd, TRACEBUF_SRC_SYSCALL, 1, work_syscalls,
			     self->buf, &self->t));
	EXPECT_GE(self->t.by_nibble[2], 100);
}

TEST(unload_with_feed_on_then_reload)
{
	struct tracebuf_status st;
	int fd = tb_open_dev(O_RDWR);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tb_reset(fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(fd, 16));
	ASSERT_EQ(0, tb_set_sources(fd, TRACEBUF_SRC_ALL & ~TRACEBUF_SRC_FAULT,
				    TRACEBUF_CPU_ALL));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_IOC_ENABLE));
	spin_syscalls_ms(50);
	/* An open file pins the module. */
	EXPECT_EQ(-EWOULDBLOCK, tb_module_unload());
	close(fd);
	/* Left enabled, feeding and chained: unload must still be clean. */
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_wait_node(0));
	ASSERT_EQ(0, tb_module_load());
	ASSERT_EQ(0, tb_wait_node(1));
	fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tb_status(fd, &st));
	EXPECT_EQ(0, st.sources);
	EXPECT_EQ(0, st.flags & (TRACEBUF_STATUS_ENABLED | TRACEBUF_STATUS_CHAINED));
	close(fd);
}

TEST(buf_size_parameter)
{
	uint8_t big[1024 + 1];
	struct tracebuf_status st;
	const struct tracebuf_event ev = EXC(TRACEBUF_VEC_SWI, 1);
	int fd;

	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_wait_node(0));
	EXPECT_EQ(-EINVAL, tb_module_load_params("tb_buf_size=100"));
	EXPECT_EQ(-EINVAL, tb_module_load_params("tb_buf_size=128"));
	EXPECT_EQ(-EINVAL, tb_module_load_params("tb_buf_size=131072"));
	/* The name without the prefix still works, for one release. */
	EXPECT_EQ(-EINVAL, tb_module_load_params("buf_size=131072"));
	ASSERT_EQ(0, tb_module_load_params("buf_size=512"));
	ASSERT_EQ(0, tb_wait_node(1));
	fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tb_status(fd, &st));
	EXPECT_EQ(512, st.buf_size);
	close(fd);
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_wait_node(0));
	ASSERT_EQ(0, tb_module_load_params("tb_buf_size=1024"));
	ASSERT_EQ(0, tb_wait_node(1));
	fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tb_status(fd, &st));
	EXPECT_EQ(1024, st.buf_size);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, tb_inject(fd, &ev, 1));
	EXPECT_EQ(1024, read(fd, big, sizeof(big)));
	EXPECT_EQ(0x21, big[1023]);
	EXPECT_EQ(0, read(fd, big, sizeof(big)));
	close(fd);
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_wait_node(0));
	ASSERT_EQ(0, tb_module_load());
	ASSERT_EQ(0, tb_wait_node(1));
}

/*
 * A write of events with the largest icount must not hold the CPU: each
 * event stands for 2^28 roll-overs, a whole 64 KiB buffer of them, so the
 * write is long, and it must let another task on its CPU run all along
 * (bounded work per lock hold, a scheduling point between holds).  The
 * probe thread sleeps 1 ms at a time; its longest gap must be a small part
 * of the write, where a write that never yields makes it the whole write.
 */
struct gap_probe {
	volatile int stop;
	double max_gap;
};

static double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *gap_thread(void *p)
{
	struct gap_probe *g = p;
	double last = mono_s(), now;

	while (!g->stop) {
		usleep(1000);
		now = mono_s();
		if (now - last > g->max_gap)
			g->max_gap = now - last;
		last = now;
	}
	return NULL;
}

static void max_icount_write(struct __test_metadata *_metadata, uint32_t mode,
			     uint32_t depth, size_t nev)
{
	struct tracebuf_event *evs = calloc(nev, sizeof(*evs));
	struct gap_probe g = { 0 };
	struct tracebuf_status st;
	cpu_set_t cpu0;
	pthread_t th;
	double t0, secs;
	uint8_t *buf;
	size_t i;
	int fd;

	ASSERT_NE(NULL, evs);
	for (i = 0; i < nev; i++)
		evs[i] = (struct tracebuf_event)BR(0x1000 + i, 0xffffffffU);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));
	fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tb_set_mode(fd, mode));
	if (depth)
		ASSERT_EQ(0, tb_set_chain(fd, depth));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_IOC_ENABLE));
	/* The probe thread inherits CPU 0. */
	ASSERT_EQ(0, pthread_create(&th, NULL, gap_thread, &g));
	usleep(20000);
	t0 = mono_s();
	ASSERT_EQ((ssize_t)(nev * sizeof(*evs)),
		  write(fd, evs, nev * sizeof(*evs)));
	secs = mono_s() - t0;
	g.stop = 1;
	pthread_join(th, NULL);
	ASSERT_EQ(0, tb_status(fd, &st));
	TH_LOG("mode %u depth %u: %zu events in %.2f s, longest gap on the CPU %.3f s",
	       mode, depth, nev, secs, g.max_gap);
	if (depth) {
		/* 2^28 bytes per event: exactly 4096 full buffers each. */
		EXPECT_EQ((uint64_t)nev * 4096, st.chain_saved + st.chain_lost);
	} else {
		buf = malloc(65536);
		ASSERT_NE(NULL, buf);
		ASSERT_EQ(65536, read(fd, buf, 65536));
		for (i = 0; i < 65535 && buf[i] == 0xff; i++)
			;
		EXPECT_EQ(65535, i);
		/* The last branch: direct, CCCC 15. */
		EXPECT_EQ(0x8f, buf[65535] & ~0x40);
		free(buf);
	}
	EXPECT_LT(g.max_gap * 4, secs + 0.2)
		TH_LOG("the write kept its CPU for %.3f s of %.2f s", g.max_gap,
		       secs);
	ioctl(fd, TRACEBUF_IOC_DISABLE);
	if (depth)
		tb_set_chain(fd, 0);
	close(fd);
	free(evs);
}

TEST(max_icount_write_yields)
{
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_wait_node(0));
	ASSERT_EQ(0, tb_module_load_params("tb_buf_size=65536"));
	ASSERT_EQ(0, tb_wait_node(1));
	max_icount_write(_metadata, TRACEBUF_MODE_WRAP, 0, 4096);
	max_icount_write(_metadata, TRACEBUF_MODE_FILL_ONCE, 100, 64);
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_wait_node(0));
	ASSERT_EQ(0, tb_module_load());
	ASSERT_EQ(0, tb_wait_node(1));
}

TEST_HARNESS_MAIN
