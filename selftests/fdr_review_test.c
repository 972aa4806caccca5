// SPDX-License-Identifier: GPL-2.0
/*
 * Review attacks on the /dev/tracebuf_fdr read side (snapshots that hold
 * ring pages, streaming readers that own a page, outputs tied to a
 * capture).  Markers carry "cap C cpu N seq S" as in fdr_read_test.c.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "tb_stress.h"
#include "fdr_util.h"

/* ------------------------------------------------------------ poll */

/*
 * A streaming file that stopped inside a page owns the rest of it, and
 * its next read() returns that rest at once.  poll() must say so: it
 * must not report "nothing to read" to the one file that has a page to
 * finish (fdr_stream_ready() skips every owned CPU, its own included).
 * Otherwise an event loop that reads in small pieces sleeps while its CPU
 * fills and drops.
 */
TEST(poll_sees_own_partial_page)
{
	struct tracebuf_fdr_stats st;
	struct pollfd p;
	char buf[1000];
	int fd, rfd, r;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	/* 64 KiB pages, wake-up 256 KiB: only markers, only on CPU 1. */
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	rfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, rfd);
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 1, 1, 0, 3000, MARK_SIZE);	/* ~3 pages closed */
	ASSERT_EQ(32, read(rfd, buf, 32));
	ASSERT_EQ((ssize_t)sizeof(buf), read(rfd, buf, sizeof(buf)));
	/* This file owns the rest of a 64 KiB page. */
	p.fd = rfd;
	p.events = POLLIN;
	p.revents = 0;
	r = poll(&p, 1, 2000);
	EXPECT_EQ(1, r) TH_LOG("poll() says nothing to read, yet read() has "
			       "%d bytes of the owned page", 65536 - 1000);
	/* And read() does return them without blocking. */
	EXPECT_EQ((ssize_t)sizeof(buf), read(rfd, buf, sizeof(buf)));
	/* An event loop trusting poll() sleeps while CPU 1 fills up. */
	put_markers(fd, 1, 1, 3000, 20000, MARK_SIZE);
	p.revents = 0;
	r = poll(&p, 1, 1000);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	TH_LOG("after filling CPU 1: poll %d, dropped %llu", r,
	       (unsigned long long)st.dropped);
	EXPECT_EQ(1, r);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(rfd);
	close(fd);
}

/* ------------------------------------------------ owner closes, peer sleeps */

/*
 * File A stops inside a page of CPU 1; file B blocks in read() because
 * CPU 1 is A's.  A closes: the rest of its page is discarded and CPU 1's
 * further closed pages are free for B, but nothing wakes B.
 */
TEST(owner_close_wakes_peer)
{
	struct blocked_read b = { 0 };
	char buf[1000];
	pthread_t th;
	int fd, afd, i;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	afd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, afd);
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 2, 1, 0, 3000, MARK_SIZE);	/* ~3 pages closed */
	ASSERT_EQ(32, read(afd, buf, 32));
	ASSERT_EQ((ssize_t)sizeof(buf), read(afd, buf, sizeof(buf)));
	b.fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, blocked_read_thread, &b));
	for (i = 0; i < 100 && !b.header; i++)
		usleep(10000);
	usleep(300000);
	ASSERT_FALSE(b.done);		/* CPU 1 is A's: B waits */
	close(afd);			/* page 0's rest dropped, pages 1-2 free */
	for (i = 0; i < 200 && !b.done; i++)
		usleep(10000);
	EXPECT_TRUE(b.done) TH_LOG("B still sleeps with closed pages to read");
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	pthread_join(th, NULL);
	close(b.fd);
	close(fd);
}

/* ------------------------------------- stopped: the page a full ring kept */

/* blocked_read_thread() at SCHED_IDLE: it runs only when its CPU is idle. */
static void *idle_blocked_read_thread(void *p)
{
	struct sched_param sp = { 0 };

	sched_setscheduler(0, SCHED_IDLE, &sp);
	return blocked_read_thread(p);
}

/*
 * Capture stopped with CPU 1's ring full: the page being filled could not
 * be closed, there was no free page for it.  File A owns the rest of CPU
 * 1's oldest page, so file B blocks.  A reads every closed page, which
 * wakes B (A's page is done); B looks only after that read (it shares A's
 * CPU at SCHED_IDLE, as a reader waits for its vCPU under TCG) and finds
 * neither a closed page nor the wake-up amount, only the open page.  That
 * page is B's to read: a read of a stopped capture closes it.  If B
 * sleeps again, A closes and reads it, reaches EOF, and nothing wakes B
 * until the next START (fdr_stress_test's "no EOF after STOP" on arm64).
 */
TEST(stopped_peer_reads_page_left_open)
{
	struct tracebuf_fdr_config cfg = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = TRACEBUF_FDR_BUF_MIN,
		.wakeup = TRACEBUF_FDR_WAKEUP_MAX(TRACEBUF_FDR_BUF_MIN),
	};
	struct blocked_read b = { 0 };
	struct tracebuf_fdr_stats st;
	static char big[1 << 20];
	ssize_t first, last, eof;
	char buf[1000];
	pthread_t th;
	int fd, afd, i;
	double t;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &cfg));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	afd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, afd);
	ASSERT_EQ(0, pin_cpu(1));
	/* Markers on CPU 1 until its ring is full and drops. */
	for (i = 0; i < 1000; i++) {
		put_markers(fd, 3, 1, i * 100, 100, MARK_SIZE);
		ASSERT_EQ(0, fdr_stats(fd, &st));
		if (st.dropped)
			break;
	}
	ASSERT_NE(0, st.dropped);
	ASSERT_EQ(32, read(afd, buf, 32));
	ASSERT_EQ(100, read(afd, buf, 100));	/* A owns CPU 1's oldest page */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	b.fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, idle_blocked_read_thread, &b));
	for (t = tb_now(); !b.header && tb_now() - t < tb_bound(1);)
		usleep(10000);
	usleep(300000);
	ASSERT_FALSE(b.done);		/* all that is left is A's */
	first = read(afd, big, sizeof(big));	/* every closed page */
	usleep(300000);			/* B looks now */
	/*
	 * The page left open goes to whichever file closes it: B, which
	 * then owns its rest (A: EAGAIN), or A, then A's EOF.
	 */
	last = read(afd, big, sizeof(big));
	eof = read(afd, big, sizeof(big));
	TH_LOG("A read %zd, then %zd, then %zd; B %s", first, last, eof,
	       b.done ? "done" : "asleep");
	EXPECT_LT(0, first);
	for (t = tb_now(); !b.done && tb_now() - t < tb_bound(5);)
		usleep(10000);
	EXPECT_TRUE(b.done) TH_LOG("B still sleeps after A's EOF");
	/* A new capture's generation wakes B whatever happened. */
	if (!b.done) {
		ioctl(fd, TRACEBUF_FDR_IOC_START);
		ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	}
	pthread_join(th, NULL);
	close(b.fd);
	close(afd);
	close(fd);
}

/* ------------------------------------------------------------ CONFIG ENOMEM */

/*
 * Run the rest of this process in a memory cgroup limited to @max bytes
 * (cgroup v2, mounted here if the system has not).  0 or -errno.
 */
static int join_memcg(const char *name, const char *max)
{
	char path[128], pid[32];
	int fd;

	mkdir("/sys/fs/cgroup", 0755);
	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) &&
	    mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		return -errno;
	fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY);
	if (fd < 0)
		return -errno;
	write(fd, "+memory", 7);
	close(fd);
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/memory.max", name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, max, strlen(max)) < 0)
		return -errno;
	close(fd);
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/cgroup.procs", name);
	fd = open(path, O_WRONLY);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (fd < 0 || write(fd, pid, strlen(pid)) < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * A CONFIG that fails for memory has already freed the old ring: a file
 * in the middle of a flight snapshot of it must then read EOF, never the
 * freed ring (it oopsed in fdr_snap_read()).  The ring is charged to the
 * caller's memory cgroup and fails with ENOMEM instead of calling the OOM
 * killer, so a cgroup of 16 MiB makes 64 MiB buffers fail cleanly.
 */
TEST(config_enomem_during_snapshot)
{
	struct tracebuf_fdr_config c = { 0 };
	uint8_t buf[4096];
	int fd, rfd, st;
	ssize_t n;
	pid_t pid;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 3, 0, 0, 300, MARK_SIZE);	/* 4 KiB pages: ~5 */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	ASSERT_EQ(32, read(rfd, buf, 32));	/* snapshot taken and held */
	ASSERT_LT(0, read(rfd, buf, 100));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, &c));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (join_memcg("tb_enomem", "16M"))
			_exit(100);
		c.buf_size = 64 << 20;
		if (ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c))
			_exit(errno);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_NE(100, WEXITSTATUS(st)) TH_LOG("no memory cgroup here");
	EXPECT_EQ(ENOMEM, WEXITSTATUS(st));
	rmdir("/sys/fs/cgroup/tb_enomem");
	/* The capture is gone: the holder's output ends, nothing faults. */
	while ((n = read(rfd, buf, sizeof(buf))) > 0)
		;
	EXPECT_EQ(0, n);
	close(rfd);
	c.buf_size = 64 << 10;
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	close(fd);
}

/* ------------------------------------------------ flight then stream, one file */

/*
 * A file that read a flight snapshot to EOF keeps rd->cpu == nr_cpu_ids
 * (fdr_snap_read()'s end); after CONFIG to streaming and START, its first
 * streaming read does per_cpu_ptr(fdr_cpus, rd->cpu) with that index
 * (fdr_stream_read(): "if (rd->cpu >= 0)").  Out of bounds: it may read
 * anything or fault.  Also the empty-ring variant (no capture yet).
 */
TEST(flight_eof_then_stream_same_file)
{
	struct mark_seen s = { .cap = 4 };
	uint8_t *buf;
	size_t len;
	char err[160];
	int fd, rfd;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 9, 0, 0, 100, MARK_SIZE);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	buf = fdr_read_all(rfd, &len);	/* to EOF: rd->cpu = nr_cpu_ids */
	ASSERT_NE(NULL, buf);
	free(buf);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 4, 0, 0, 100, MARK_SIZE);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	buf = fdr_read_all(rfd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(100, s.n[0]);
	EXPECT_EQ(0, s.gaps);
	free(buf);
	close(rfd);
	close(fd);
}

/* ------------------------------------------------------------ EFAULT */

/*
 * A read that faults partway through a page returns what it copied; the
 * next reads continue exactly there (snapshot and stream), and the whole
 * is a valid file with every marker.
 */
static void efault_mid_copy(struct __test_metadata *_metadata, uint32_t mode)
{
	struct mark_seen s = { .cap = 5 };
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map, *out, *rest;
	size_t len, rlen;
	char err[160];
	ssize_t n;
	int fd, rfd, i;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER, mode, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 5, 0, 0, 3000, MARK_SIZE);
	if (mode == TRACEBUF_FDR_MODE_FLIGHT)
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + pg, pg, PROT_NONE));
	out = malloc(8 << 20);
	ASSERT_NE(NULL, out);
	len = 0;
	ASSERT_EQ(32, read(rfd, out, 32));
	len = 32;
	/* Reads that run into the hole at various offsets. */
	for (i = 0; i < 20; i++) {
		size_t at = pg - 1 - (i * 397) % pg;

		n = read(rfd, map + at, pg);
		if (n == 0)
			break;
		if (n < 0) {
			ASSERT_EQ(EFAULT, errno);
			continue;
		}
		ASSERT_LE((size_t)n, pg - at);
		memcpy(out + len, map + at, n);
		len += n;
	}
	if (mode == TRACEBUF_FDR_MODE_STREAM)
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	rest = fdr_read_all(rfd, &rlen);
	ASSERT_NE(NULL, rest);
	memcpy(out + len, rest, rlen);
	len += rlen;
	ASSERT_LE(1, fdr_check(out, len, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(3000, s.n[0]);
	EXPECT_EQ(0, s.gaps);
	free(rest);
	free(out);
	munmap(map, 2 * pg);
	close(rfd);
	close(fd);
}

TEST(efault_mid_snapshot)
{
	efault_mid_copy(_metadata, TRACEBUF_FDR_MODE_FLIGHT);
}

TEST(efault_mid_stream)
{
	efault_mid_copy(_metadata, TRACEBUF_FDR_MODE_STREAM);
}

/* ------------------------------------------------------------ holds */

/*
 * Closing a file that holds a snapshot, or a START discarding it, lets go
 * of its pages: the flight recorder overwrites again, nothing dropped.
 */
TEST(hold_released_by_close_and_start)
{
	struct tracebuf_fdr_stats st;
	uint8_t buf[64];
	int fd, rfd;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 6, 0, 0, 2000, MARK_SIZE);	/* wrapped */
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	ASSERT_EQ(32, read(rfd, buf, 32));		/* holds all 16 pages */
	put_markers(fd, 6, 0, 2000, 2000, MARK_SIZE);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	TH_LOG("while held: dropped %llu", (unsigned long long)st.dropped);
	EXPECT_LT(0ULL, st.dropped);			/* documented */
	close(rfd);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	put_markers(fd, 7, 0, 0, 2000, MARK_SIZE);
	ASSERT_EQ(32, read(rfd, buf, 32));		/* hold */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));	/* discards it */
	put_markers(fd, 8, 0, 0, 4000, MARK_SIZE);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(0ULL, st.dropped);
	EXPECT_LT(0ULL, st.overwritten);
	EXPECT_EQ(0, read(rfd, buf, sizeof(buf)));	/* its output ended */
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(rfd);
	close(fd);
}

TEST_HARNESS_MAIN
