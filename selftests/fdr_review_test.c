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

/* The device, stopped, set to stream markers in @size bytes per CPU. */
static int marker_stream(struct __test_metadata *_metadata, uint32_t size)
{
	int fd = fdr_open_stopped();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, size, 0));
	return fd;
}

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
	fd = marker_stream(_metadata, 1 << 20);
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

/* ---------------------------------------------- a file that owns a page */

/*
 * A file of its own (O_NONBLOCK, returned) reads the header and 100 bytes
 * of CPU 1's closed pages: it owns the rest of CPU 1's oldest page, and
 * other files skip CPU 1 until it is done.
 */
static int owner_of_cpu1_page(struct __test_metadata *_metadata)
{
	char buf[100];
	int afd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);

	ASSERT_LE(0, afd);
	ASSERT_EQ(32, read(afd, buf, 32));
	ASSERT_EQ(100, read(afd, buf, 100));
	return afd;
}

/*
 * File B opened and its thread @fn started: it reads the header, then
 * its second read() should block.  Returns once the header is read and
 * B had time to go to sleep.
 */
static void peer_start(struct __test_metadata *_metadata,
		       struct blocked_read *b, pthread_t *th,
		       void *(*fn)(void *))
{
	double t;

	b->fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, b->fd);
	ASSERT_EQ(0, pthread_create(th, NULL, fn, b));
	for (t = tb_now(); !b->header && tb_now() - t < tb_bound(1);)
		usleep(10000);
	usleep(300000);
}

/*
 * Wait up to @secs (times TB_SLOW) for the reader thread @th to set
 * *@done, then join it; one still asleep is woken by a new capture (START
 * and STOP) so that the test ends.  Whether it had ended by itself.
 */
static bool reader_ended(int fd, pthread_t th, volatile int *done, double secs)
{
	bool ended;
	double t;

	for (t = tb_now(); !*done && tb_now() - t < tb_bound(secs);)
		usleep(10000);
	ended = *done;
	if (!ended) {
		ioctl(fd, TRACEBUF_FDR_IOC_START);
		ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	}
	pthread_join(th, NULL);
	return ended;
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
	pthread_t th;
	int fd, afd, i;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &cfg));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pin_cpu(1));
	/* Markers on CPU 1 until its ring is full and drops. */
	for (i = 0; i < 1000; i++) {
		put_markers(fd, 3, 1, i * 100, 100, MARK_SIZE);
		ASSERT_EQ(0, fdr_stats(fd, &st));
		if (st.dropped)
			break;
	}
	ASSERT_NE(0, st.dropped);
	afd = owner_of_cpu1_page(_metadata);	/* A */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	peer_start(_metadata, &b, &th, idle_blocked_read_thread);
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
	EXPECT_TRUE(reader_ended(fd, th, &b.done, 5))
		TH_LOG("B still sleeps after A's EOF");
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

/* ---------------------------------------- poll after STOP, a peer's page */

/*
 * Capture stopped; file A owns the rest of CPU 1's oldest page and the
 * other CPUs are drained.  read() on file B would block (EAGAIN with
 * O_NONBLOCK): it gets EOF only once A is done.  fdr_poll() reports
 * EPOLLIN whenever capture is stopped, so an event loop on B polls and
 * reads EAGAIN in a busy loop for as long as A keeps its page.
 */
TEST(stopped_poll_while_peer_owns_page)
{
	static char big[1 << 20];
	struct pollfd p;
	char buf[1000];
	int fd, afd, bfd, r, spins;
	ssize_t n;
	double t;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = marker_stream(_metadata, 1 << 20);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 4, 1, 0, 3000, MARK_SIZE);	/* ~2 pages closed */
	afd = owner_of_cpu1_page(_metadata);	/* A */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	bfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, bfd);
	ASSERT_EQ(32, read(bfd, buf, 32));
	/* Nothing for B but what follows A's page. */
	n = read(bfd, big, sizeof(big));
	ASSERT_EQ(-1, n);
	ASSERT_EQ(EAGAIN, errno);
	/* An event loop: poll, read, for half a second. */
	spins = 0;
	for (t = tb_now(); tb_now() - t < 0.5;) {
		p.fd = bfd;
		p.events = POLLIN;
		p.revents = 0;
		r = poll(&p, 1, 500);
		if (r <= 0)
			break;
		n = read(bfd, big, sizeof(big));
		if (n >= 0 || errno != EAGAIN)
			break;
		spins++;
	}
	TH_LOG("poll() readable, read() EAGAIN: %d times in 0.5 s", spins);
	EXPECT_GE(1, spins) TH_LOG("poll() says readable while read() would block");
	/* A finishes: now B has the pages after A's and then EOF. */
	while (read(afd, big, sizeof(big)) > 0)
		;
	p.fd = bfd;
	p.events = POLLIN;
	p.revents = 0;
	EXPECT_EQ(1, poll(&p, 1, (int)(tb_bound(2) * 1000)));
	n = read(bfd, big, sizeof(big));
	EXPECT_LE(0, n);
	close(bfd);
	close(afd);
	close(fd);
}

/* ----------------------------------- a lender gives back, a reader wakes */

static size_t review_map_size(uint32_t buf)
{
	return TRACEBUF_FDR_MMAP_SIZE(sysconf(_SC_PAGESIZE), buf);
}

/*
 * Capture stopped; file L has CPU 1's closed pages lent through its
 * mapping, file B blocks in read() (the page B's read closed is behind
 * L's).  L giving them back, by MMAP_GET with RELEASE or by its last
 * unmap and close, must wake B, which then reads the rest and EOF.
 */
static void lender_returns(struct __test_metadata *_metadata, bool by_close)
{
	struct tracebuf_fdr_mmap_get g = { .cpu = 1 };
	struct blocked_read b = { 0 };
	size_t sz = review_map_size(1 << 20);
	char buf[256];
	pthread_t th;
	void *map;
	int fd, lfd;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = marker_stream(_metadata, 1 << 20);
	lfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, lfd);
	map = mmap(NULL, sz, PROT_READ, MAP_SHARED, lfd, (off_t)sz);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 5, 1, 0, 3000, MARK_SIZE);	/* ~2 pages closed */
	ASSERT_LT(0, ioctl(lfd, TRACEBUF_FDR_IOC_MMAP_GET, &g));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	peer_start(_metadata, &b, &th, blocked_read_thread);
	EXPECT_FALSE(b.done) TH_LOG("B read %zd past L's lent pages", b.n);
	if (by_close) {
		munmap(map, sz);
		close(lfd);
	} else {
		g.flags = TRACEBUF_FDR_MMAP_RELEASE;
		ASSERT_EQ(0, ioctl(lfd, TRACEBUF_FDR_IOC_MMAP_GET, &g));
	}
	EXPECT_TRUE(reader_ended(fd, th, &b.done, 3))
		TH_LOG("B sleeps after L gave its pages back");
	EXPECT_LT(0, b.n);
	/* The page B's first read closed, then EOF. */
	while (read(b.fd, buf, sizeof(buf)) > 0)
		;
	EXPECT_EQ(0, read(b.fd, buf, sizeof(buf)));
	close(b.fd);
	if (!by_close) {
		munmap(map, sz);
		close(lfd);
	}
	close(fd);
}

TEST(stopped_lender_release_wakes_reader)
{
	lender_returns(_metadata, false);
}

TEST(stopped_lender_close_wakes_reader)
{
	lender_returns(_metadata, true);
}

/*
 * Capture stopped; file L holds every page left of CPU 0, lent through its
 * mapping, and file A owns the rest of CPU 1's oldest page.  L's read()
 * would give its pages back and find nothing but A's: EAGAIN, or a sleep.
 * poll() must not call L readable then (it did for any file holding lent
 * pages once stopped: an event loop spun once per lend), and must once A
 * is done.
 */
TEST(stopped_poll_lender_behind_peer)
{
	struct tracebuf_fdr_mmap_get g = { .cpu = 0 };
	size_t sz = review_map_size(1 << 20);
	static char big[1 << 20];
	struct pollfd p = { .events = POLLIN };
	char buf[64];
	int fd, lfd, afd, r, i;
	void *map;
	ssize_t n;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = marker_stream(_metadata, 1 << 20);
	lfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, lfd);
	map = mmap(NULL, sz, PROT_READ, MAP_SHARED, lfd, 0);	/* CPU 0 */
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(32, read(lfd, buf, 32));	/* the header is not news */
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pin_cpu(i));
		put_markers(fd, 14, i, 0, 3000, MARK_SIZE);	/* ~2 pages */
	}
	ASSERT_LT(0, ioctl(lfd, TRACEBUF_FDR_IOC_MMAP_GET, &g));
	afd = owner_of_cpu1_page(_metadata);	/* CPU 0 is L's: A takes 1 */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	/*
	 * The first pages back, and the page left open at STOP lent, closed
	 * by the flush: all that is left of CPU 0 is L's.
	 */
	ASSERT_LT(0, ioctl(lfd, TRACEBUF_FDR_IOC_MMAP_GET, &g));
	p.fd = lfd;
	r = poll(&p, 1, 0);
	n = read(lfd, big, sizeof(big));
	TH_LOG("L: poll %d, then read %zd (%s)", r, n,
	       n < 0 ? strerror(errno) : "data");
	if (r == 1)
		EXPECT_FALSE(n < 0 && errno == EAGAIN)
			TH_LOG("poll() readable, read() EAGAIN");
	/* A finishes: L has the rest of CPU 1, then EOF. */
	while (read(afd, big, sizeof(big)) > 0)
		;
	p.revents = 0;
	EXPECT_EQ(1, poll(&p, 1, (int)(tb_bound(2) * 1000)));
	while ((n = read(lfd, big, sizeof(big))) > 0)
		;
	EXPECT_EQ(0, n) TH_LOG("L: %s", strerror(errno));
	munmap(map, sz);
	close(afd);
	close(lfd);
	close(fd);
}

/* -------------------------------------------- hotplug under a blocked read */

struct read_all {
	int fd;
	uint8_t *buf;
	size_t len;
	volatile int done;
};

static void *read_all_thread(void *p)
{
	struct read_all *r = p;

	r->buf = fdr_read_all(r->fd, &r->len);
	r->done = 1;
	return NULL;
}

/*
 * A reader blocks while CPU 1 holds less than the wake-up amount; CPU 1
 * goes offline with its page open, then capture stops.  The reader must
 * get every marker of CPU 1 (the stopped flush closes an offline CPU's
 * page without an IPI) and then EOF.
 */
TEST(offline_cpu_page_read_after_stop)
{
	struct mark_seen s = { .cap = 6 };
	struct read_all r = { 0 };
	char err[160];
	pthread_t th;
	bool ended;
	int fd;

	if (nr_cpus() < 2 || !tb_cpu_hotpluggable(1))
		SKIP(return, "needs CPU 1 hotpluggable");
	fd = marker_stream(_metadata, 1 << 20);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	r.fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, read_all_thread, &r));
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 6, 1, 0, 500, MARK_SIZE);	/* 28 KB: below wake-up */
	ASSERT_EQ(0, pin_cpu(0));
	usleep(200000);
	ASSERT_FALSE(r.done);
	ASSERT_EQ(0, tb_cpu_online(1, 0));
	usleep(200000);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ended = reader_ended(fd, th, &r.done, 5);
	tb_cpu_online(1, 1);
	EXPECT_TRUE(ended) TH_LOG("no EOF after STOP, CPU 1 offline");
	ASSERT_NE(NULL, r.buf);
	ASSERT_LE(1, fdr_check(r.buf, r.len, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(500, s.n[1]);
	EXPECT_EQ(0, s.gaps + s.wrong_cpu);
	free(r.buf);
	close(r.fd);
	close(fd);
}

/* ------------------------------------------- a signal, then the same read */

static void review_sig(int sig)
{
}

/*
 * A blocked streaming read() interrupted by a signal without SA_RESTART
 * returns EINTR and consumes nothing: the next read() of the same file
 * gets every marker, then EOF after STOP.
 */
TEST(interrupted_read_loses_nothing)
{
	struct sigaction sa = { .sa_handler = review_sig };
	struct mark_seen s = { .cap = 8 };
	struct blocked_read b = { 0 };
	size_t len = 0;
	uint8_t *out;
	char err[160];
	pthread_t th;
	int fd, hfd;
	double t;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	fd = marker_stream(_metadata, 1 << 20);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	b.fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, blocked_read_thread, &b));
	for (t = tb_now(); !b.header && tb_now() - t < tb_bound(1);)
		usleep(10000);
	usleep(200000);
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 8, 1, 0, 500, MARK_SIZE);	/* below wake-up */
	usleep(100000);
	ASSERT_FALSE(b.done);
	pthread_kill(th, SIGUSR1);
	for (t = tb_now(); !b.done && tb_now() - t < tb_bound(3);)
		usleep(10000);
	ASSERT_TRUE(b.done);
	pthread_join(th, NULL);
	EXPECT_EQ(-1, b.n);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	out = fdr_read_all(b.fd, &len);
	ASSERT_NE(NULL, out);
	/* The thread read the header: the same 32 bytes as any file's. */
	hfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, hfd);
	memmove(out + 32, out, len);
	ASSERT_EQ(32, read(hfd, out, 32));
	close(hfd);
	ASSERT_LE(1, fdr_check(out, len + 32, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(500, s.n[1]);
	EXPECT_EQ(0, s.gaps);
	free(out);
	signal(SIGUSR1, SIG_DFL);
	close(b.fd);
	close(fd);
}

/* ------------------------------- 1-byte and large reads, two files, STOP */

/*
 * After STOP two O_NONBLOCK files take turns: A reads 1 byte per call, B
 * 4 KiB.  Each gets a valid stream (A's spans its owned pages, B skips
 * them), together every marker once, and both reach EOF: no EAGAIN
 * forever, no early EOF.
 */
TEST(stopped_one_byte_and_large_readers_share)
{
	struct mark_seen sa = { .cap = 9 }, sb = { .cap = 9 };
	size_t alen = 0, blen = 0, cap = 1 << 20;
	uint8_t *a = malloc(cap), *bb = malloc(cap);
	int fd, afd, bfd, turns, aeof = 0, beof = 0;
	char err[160];
	ssize_t n;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, bb);
	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = marker_stream(_metadata, 1 << 18);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pin_cpu(0));
	put_markers(fd, 9, 0, 0, 1000, MARK_SIZE);
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 9, 1, 0, 1000, MARK_SIZE);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	afd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	bfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, afd);
	ASSERT_LE(0, bfd);
	for (turns = 0; turns < 1000000 && !(aeof && beof); turns++) {
		if (!aeof) {
			n = read(afd, a + alen, 1);
			if (n == 0)
				aeof = 1;
			else if (n > 0)
				alen += n;
			else
				ASSERT_EQ(EAGAIN, errno);
		}
		if (!beof && turns % 64 == 0) {
			n = read(bfd, bb + blen, 4096);
			if (n == 0)
				beof = 1;
			else if (n > 0)
				blen += n;
			else
				ASSERT_EQ(EAGAIN, errno);
		}
	}
	TH_LOG("A %zu bytes, B %zu bytes, %d turns", alen, blen, turns);
	EXPECT_TRUE(aeof && beof);
	if (alen > 32)
		EXPECT_LE(0, fdr_check(a, alen, mark_cb, &sa, err, sizeof(err)))
			TH_LOG("A: %s", err);
	if (blen > 32)
		EXPECT_LE(0, fdr_check(bb, blen, mark_cb, &sb, err, sizeof(err)))
			TH_LOG("B: %s", err);
	EXPECT_EQ(1000, sa.n[0] + sb.n[0]);
	EXPECT_EQ(1000, sa.n[1] + sb.n[1]);
	EXPECT_EQ(0, sa.wrong_cpu + sb.wrong_cpu);
	free(a);
	free(bb);
	close(afd);
	close(bfd);
	close(fd);
}

/* ----------------------------------------- a START that fails, stopped */

static int review_set_kfuncs(int fd, const char *names)
{
	struct tracebuf_fdr_kfuncs kf = {
		.names = (uintptr_t)names,
		.len = names ? strlen(names) : 0,
	};

	return ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &kf) ? -errno : 0;
}

/*
 * Capture stopped with data unread: A owns the rest of CPU 1's oldest
 * page, B blocks behind it.  A START that fails (a listed function's
 * module went away: fdr_kfunc_start() fails) must leave the stopped
 * capture as it was.  fdr_capture_start() called fdr_ring_reset() before
 * it could fail: the unread pages and A's ownership were gone, fdr_gen
 * not bumped (no reader saw its capture end) and nothing woke the queue,
 * so A read EOF instead of its data and B, whose condition (stopped and
 * empty) became true, slept on.  Later it let A's page go before it
 * could fail, keeping A's rest: B took the next page.
 */
TEST(failed_start_keeps_stopped_stream)
{
	struct blocked_read b = { 0 };
	static char big[1 << 20];
	struct tracebuf_fdr_stats st;
	uint64_t gen;
	ssize_t n, rest = 0;
	pthread_t th;
	int fd, afd, ret, i;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	ret = tb_provoke_load();
	if (ret)
		SKIP(return, "%s: %s", TB_PROVOKE_KO, strerror(-ret));
	fd = marker_stream(_metadata, 1 << 20);
	ret = review_set_kfuncs(fd, "tb_provoke_write\n");
	if (ret == -EOPNOTSUPP)
		SKIP(return, "no kretprobes");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 7, 1, 0, 3000, MARK_SIZE);	/* ~2 pages closed */
	afd = owner_of_cpu1_page(_metadata);	/* A */
	ASSERT_EQ(0, tb_provoke_unload());
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	peer_start(_metadata, &b, &th, blocked_read_thread);
	ASSERT_FALSE(b.done);		/* all that is left is A's */
	ASSERT_EQ(0, fdr_stats(fd, &st));
	gen = st.gen;
	/* The listed function is gone: START refuses. */
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(0U, st.running);
	/*
	 * A still owns its page, so B stays blocked: given the time to run,
	 * B must not have read.  Before 2026-11-30 START copied A's rest out
	 * and let its page go before it could fail, B woke and took the next
	 * page, and A read its rest, then EAGAIN (a debug-kernel CI run).
	 */
	for (i = 0; i < 100 && !b.done; i++)
		usleep(10000);
	EXPECT_FALSE(b.done) TH_LOG("B read %zd bytes of A's CPU after the failed START",
				     b.n);
	/* A finishes its page and reads the rest to EOF. */
	while ((n = read(afd, big, sizeof(big))) > 0)
		rest += n;
	TH_LOG("after the failed START: gen %llu -> %llu, A read %zd more "
	       "then %zd", (unsigned long long)gen,
	       (unsigned long long)st.gen, rest, n);
	EXPECT_LT(100000, rest) TH_LOG("the stopped capture's pages are gone");
	/* Cleared first, so that a START can wake B if it must. */
	review_set_kfuncs(fd, NULL);
	EXPECT_TRUE(reader_ended(fd, th, &b.done, 3))
		TH_LOG("B sleeps after A's EOF");
	close(b.fd);
	close(afd);
	close(fd);
}

/* ------------------------------ failures that discard the capture */

/*
 * The discarded capture must be gone for every reader: STATS all zero and
 * a new file reads the header, then EOF.  Checked after each step of a
 * sequence of CONFIG and START failures.
 */
static void expect_empty(struct __test_metadata *_metadata, int fd,
			 const char *after)
{
	struct tracebuf_fdr_stats st;
	uint8_t *buf;
	size_t len = 0;
	int rfd;

	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(0U, st.running);
	EXPECT_EQ(0U, st.written + st.dropped + st.overwritten + st.bytes +
		  st.kfunc_missed)
		TH_LOG("after %s: written %llu dropped %llu overwritten %llu "
		       "bytes %llu kfunc_missed %llu", after,
		       (unsigned long long)st.written,
		       (unsigned long long)st.dropped,
		       (unsigned long long)st.overwritten,
		       (unsigned long long)st.bytes,
		       (unsigned long long)st.kfunc_missed);
	rfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, rfd);
	buf = fdr_read_all(rfd, &len);
	close(rfd);
	ASSERT_NE(NULL, buf) TH_LOG("after %s: read: %s", after,
				    strerror(errno));
	free(buf);
	EXPECT_EQ(32U, len) TH_LOG("after %s: %zu bytes, not the header "
				   "then EOF", after, len);
}

/* CONFIG at @size from a child in a memory cgroup of 16 MiB: its errno. */
static int config_in_memcg(struct __test_metadata *_metadata, int fd,
			   uint32_t mode, uint32_t size)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER, .mode = mode, .buf_size = size,
	};
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (join_memcg("tb_enomem", "16M"))
			_exit(100);
		_exit(ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c) ? errno : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	rmdir("/sys/fs/cgroup/tb_enomem");
	return WEXITSTATUS(st);
}

/*
 * A CONFIG that fails for memory frees the rings; the START after it
 * allocates new ones and may then fail too (a listed function's module
 * went away).  Every per-CPU state of the freed rings (head, tail, the
 * open page's pointer and length, the counters) must be gone with them:
 * otherwise the new rings read as the old capture's pages (zeros or
 * stale data after the header), STATS report the old counters, and a
 * reader's flush writes a block length through the freed page pointer.
 * Then a START that works records only its own capture.
 */
static void failed_config_then_start(struct __test_metadata *_metadata,
				     uint32_t mode)
{
	struct tracebuf_fdr_stats st;
	struct mark_seen s = { .cap = 13 };
	char err[256];
	uint8_t *buf;
	size_t len = 0;
	int fd, rfd, ret, cpu;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	ret = tb_provoke_load();
	if (ret)
		SKIP(return, "%s: %s", TB_PROVOKE_KO, strerror(-ret));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER, mode, 1 << 20, 0));
	ret = review_set_kfuncs(fd, "tb_provoke_write\n");
	if (ret == -EOPNOTSUPP)
		SKIP(return, "no kretprobes");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	for (cpu = 0; cpu < 2; cpu++) {
		ASSERT_EQ(0, pin_cpu(cpu));
		put_markers(fd, 12, cpu, 0, 2000, MARK_SIZE);
	}
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	/* A list that fails leaves the stopped capture alone. */
	ASSERT_GT(0, review_set_kfuncs(fd, "tb_no_such_function\n"));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(4000U, st.written);
	ASSERT_EQ(0, review_set_kfuncs(fd, "tb_provoke_write\n"));
	ASSERT_EQ(0, tb_provoke_unload());

	ret = config_in_memcg(_metadata, fd, mode, 64 << 20);
	ASSERT_NE(100, ret) TH_LOG("no memory cgroup here");
	ASSERT_EQ(ENOMEM, ret);
	expect_empty(_metadata, fd, "a failed CONFIG");
	/* The rings are allocated again, then the listed function is gone. */
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_START));
	expect_empty(_metadata, fd, "a failed CONFIG and a failed START");
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_START));
	expect_empty(_metadata, fd, "a second failed START");

	/* A START that works records its capture alone. */
	ASSERT_EQ(0, review_set_kfuncs(fd, NULL));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	for (cpu = 0; cpu < 2; cpu++) {
		ASSERT_EQ(0, pin_cpu(cpu));
		put_markers(fd, 13, cpu, 0, 10, MARK_SIZE);
	}
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(20U, st.written);
	rfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, rfd);
	buf = fdr_read_all(rfd, &len);
	close(rfd);
	ASSERT_NE(NULL, buf);
	EXPECT_LE(0, fdr_check(buf, len, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	free(buf);
	EXPECT_EQ(10, s.n[0]);
	EXPECT_EQ(10, s.n[1]);
	EXPECT_EQ(0, s.foreign + s.gaps + s.wrong_cpu);
	close(fd);
}

/*
 * The rings freed by a CONFIG that failed for memory are allocated again
 * by START, at the size last configured; a START that fails there, for
 * memory, leaves them freed and the capture empty.
 */
TEST(failed_config_then_start_for_memory)
{
	pid_t pid;
	int fd, ret, st;

	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 16 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 15, 0, 0, 100, MARK_SIZE);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ret = config_in_memcg(_metadata, fd, TRACEBUF_FDR_MODE_STREAM, 64 << 20);
	ASSERT_NE(100, ret) TH_LOG("no memory cgroup here");
	ASSERT_EQ(ENOMEM, ret);
	expect_empty(_metadata, fd, "a failed CONFIG");
	/* 16 MiB a CPU again, in a cgroup of 16 MiB. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (join_memcg("tb_enomem", "16M"))
			_exit(100);
		_exit(ioctl(fd, TRACEBUF_FDR_IOC_START) ? errno : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	rmdir("/sys/fs/cgroup/tb_enomem");
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(ENOMEM, WEXITSTATUS(st));
	expect_empty(_metadata, fd, "a START that failed for memory");
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
	close(fd);
}

TEST(failed_config_then_start_stream)
{
	failed_config_then_start(_metadata, TRACEBUF_FDR_MODE_STREAM);
}

TEST(failed_config_then_start_flight)
{
	failed_config_then_start(_metadata, TRACEBUF_FDR_MODE_FLIGHT);
}

/*
 * kfunc_missed is the capture's count, like dropped: only START and
 * CONFIG reset it.  A START that fails, and a new list of functions or
 * none set while stopped, must leave the stopped capture's count alone.
 * Misses: pipe_read traced with maxactive 1 and three children asleep in
 * it, so that two calls find no instance (as fdr_kfunc_test's
 * missed_counted_and_reported); tb_provoke_write is listed too, so that
 * its module's unload makes the next START fail.
 */
TEST(kfunc_missed_kept_while_stopped)
{
	static const char names[] = "pipe_read\ntb_provoke_write\n";
	struct tracebuf_fdr_kfuncs kf = {
		.names = (uintptr_t)names, .len = sizeof(names) - 1,
		.maxactive = 1,
	};
	struct tracebuf_fdr_stats st;
	struct tb_sleeper sl[3];
	uint64_t missed;
	int fd, ret, i;

	ret = tb_provoke_load();
	if (ret)
		SKIP(return, "%s: %s", TB_PROVOKE_KO, strerror(-ret));
	fd = marker_stream(_metadata, 1 << 20);
	ret = ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &kf) ? -errno : 0;
	if (ret == -EOPNOTSUPP)
		SKIP(return, "no kretprobes");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, tb_sleeper_start(&sl[i]));
		tb_sleeper_wait(&sl[i]);
	}
	for (i = 2; i >= 0; i--)
		ASSERT_EQ(0, tb_sleeper_end(&sl[i]));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	missed = st.kfunc_missed;
	ASSERT_LE(2U, missed);

	ASSERT_EQ(0, review_set_kfuncs(fd, "tb_provoke_write\n"));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(missed, st.kfunc_missed) TH_LOG("after a new list");
	ASSERT_EQ(0, review_set_kfuncs(fd, NULL));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(missed, st.kfunc_missed) TH_LOG("after the list cleared");

	kf.len = sizeof(names) - 1;
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &kf));
	ASSERT_EQ(0, tb_provoke_unload());
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(missed, st.kfunc_missed) TH_LOG("after a failed START");
	EXPECT_EQ(0U, st.running);

	ASSERT_EQ(0, review_set_kfuncs(fd, NULL));
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(0U, st.kfunc_missed) TH_LOG("CONFIG resets it");
	close(fd);
}

TEST_HARNESS_MAIN
