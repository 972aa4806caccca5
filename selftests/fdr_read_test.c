// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf_fdr read-side attacks: every read size gives a valid stream
 * with the same content, a read never outlives its capture, a wake-up
 * threshold is always reachable, and snapshots cost no memory per file.
 *
 * Markers carry "cap C cpu N seq S": the capture they belong to, the CPU
 * they were written on (the writer is pinned) and a per-CPU sequence, so a
 * checker can tell a block spliced from another CPU, a record from another
 * capture, and a gap.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <linux/userfaultfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "fdr_util.h"

/* Read @fd to EOF in reads of @size bytes. */
static uint8_t *read_in(int fd, size_t size, size_t *lenp)
{
	size_t cap = 4 << 20, len = 0;
	uint8_t *buf = malloc(cap);
	ssize_t n;

	while (buf) {
		if (cap - len < size) {
			cap = 2 * cap + size;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		n = read(fd, buf + len, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (!n)
			break;
		len += n;
	}
	*lenp = len;
	return buf;
}

/* ------------------------------------------------------------ read sizes */

/*
 * A read that ends inside a page of CPU 1 while CPU 0 closes pages must
 * continue that page first: the next read must not copy CPU 0's pages
 * into the middle of CPU 1's block.
 */
TEST(read_resumes_its_page)
{
	struct tracebuf_fdr_stats st;
	struct mark_seen s = { .cap = 1 };
	uint8_t *out, *rest;
	size_t len, rlen;
	char err[160];
	ssize_t n;
	int fd, rfd;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	rfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, rfd);
	out = malloc(4 << 20);
	ASSERT_NE(NULL, out);
	/* Pages of 64 KiB: 3000 markers close two on CPU 1. */
	ASSERT_EQ(0, pin_cpu(1));
	put_markers(fd, 1, 1, 0, 3000, MARK_SIZE);
	ASSERT_EQ(32, read(rfd, out, 32));
	n = read(rfd, out + 32, 1000);
	ASSERT_EQ(1000, n);
	/* Now CPU 0 closes pages while CPU 1's is half read. */
	ASSERT_EQ(0, pin_cpu(0));
	put_markers(fd, 1, 0, 0, 3000, MARK_SIZE);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	fcntl(rfd, F_SETFL, 0);
	rest = read_in(rfd, 4103, &rlen);
	ASSERT_NE(NULL, rest);
	memcpy(out + 1032, rest, rlen);
	len = 1032 + rlen;
	ASSERT_EQ(0, fdr_stats(fd, &st));
	ASSERT_LE(1, fdr_check(out, len, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(0, s.wrong_cpu);
	EXPECT_EQ(0, s.gaps);
	EXPECT_EQ(3000, s.n[0]);
	EXPECT_EQ(3000, s.n[1]);
	EXPECT_EQ(0ULL, st.dropped);
	free(rest);
	free(out);
	close(rfd);
	close(fd);
}

/*
 * A file partway through a page when CONFIG or START discards the capture
 * still ends its output with whole blocks: the rest of the block it began,
 * then EOF.  Streaming (the page it owns) and flight (its snapshot's page).
 */
static void reset_midway(struct __test_metadata *_metadata, uint32_t mode,
			 unsigned long reset)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = mode,
		.buf_size = 1 << 20,
	};
	struct mark_seen s = { .cap = 1 };
	uint8_t *out, *rest;
	size_t rlen;
	char err[160];
	int fd, rfd;

	fd = fdr_open_started0(c.classes, mode, c.buf_size);
	ASSERT_LE(0, fd);
	/* Pages of 64 KiB: 3000 markers close two. */
	put_markers(fd, 1, 0, 0, 3000, MARK_SIZE);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	out = malloc(4 << 20);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(32, read(rfd, out, 32));
	ASSERT_EQ(1000, read(rfd, out + 32, 1000));
	/* The capture goes while the file is inside its first block. */
	if (reset == TRACEBUF_FDR_IOC_CONFIG) {
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	} else {
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	}
	rest = read_in(rfd, 4096, &rlen);
	ASSERT_NE(NULL, rest);
	ASSERT_GT(4 << 20, 1032 + rlen);
	memcpy(out + 1032, rest, rlen);
	ASSERT_LE(1, fdr_check(out, 1032 + rlen, mark_cb, &s, err, sizeof(err)))
		TH_LOG("%zu bytes after the reset: %s", rlen, err);
	EXPECT_LT(0, s.n[0]);
	EXPECT_EQ(0, s.gaps);
	EXPECT_EQ(0, s.foreign);
	if (reset == TRACEBUF_FDR_IOC_START)
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	free(rest);
	free(out);
	close(rfd);
	close(fd);
}

TEST(config_ends_the_stream_block_begun)
{
	reset_midway(_metadata, TRACEBUF_FDR_MODE_STREAM, TRACEBUF_FDR_IOC_CONFIG);
}

TEST(start_ends_the_stream_block_begun)
{
	reset_midway(_metadata, TRACEBUF_FDR_MODE_STREAM, TRACEBUF_FDR_IOC_START);
}

TEST(config_ends_the_snapshot_block_begun)
{
	reset_midway(_metadata, TRACEBUF_FDR_MODE_FLIGHT, TRACEBUF_FDR_IOC_CONFIG);
}

TEST(start_ends_the_snapshot_block_begun)
{
	reset_midway(_metadata, TRACEBUF_FDR_MODE_FLIGHT, TRACEBUF_FDR_IOC_START);
}

/* ------------------------------------------------------------ peek */

/*
 * One TRACEBUF_FDR_IOC_PEEK of CPU 0 into @buf, the capture's header to
 * the 32 bytes before it: pages, or -errno.
 */
static int peek0(int fd, uint8_t *buf, uint32_t size, uint64_t *next,
		 uint64_t *gen, uint32_t *len, uint32_t *missed)
{
	struct tracebuf_fdr_peek p = {
		.buf = (uintptr_t)buf, .size = size, .cpu = 0,
		.next = *next, .gen = *gen,
	};
	int n = ioctl(fd, TRACEBUF_FDR_IOC_PEEK, &p);

	if (n < 0)
		return -errno;
	*next = p.next;
	*gen = p.gen;
	*len = p.len;
	*missed = p.missed;
	memcpy(buf - 32, p.header, 32);
	return n;
}

/*
 * A look takes nothing: the streaming reader still gets every marker,
 * the look's own pages are a valid FDR stream of the same markers, a
 * second look finds nothing new, and pages the reader took before a look
 * are counted as missed.
 */
TEST(peek_takes_nothing_from_the_stream)
{
	struct mark_seen seen = { .cap = 1 }, all = { .cap = 1 };
	uint64_t next = 0, gen = 0, gen1;
	uint32_t len, len1, missed;
	uint8_t tail32[32];
	uint8_t *pk, *out;
	size_t olen;
	char err[160];
	int fd, rfd, n;

	fd = fdr_open_started0(TRACEBUF_FDR_MARKER, TRACEBUF_FDR_MODE_STREAM,
			       1 << 20);
	ASSERT_LE(0, fd);
	pk = malloc(32 + (1 << 20));
	ASSERT_NE(NULL, pk);
	/* Pages of 64 KiB: 3000 markers close two. */
	put_markers(fd, 1, 0, 0, 3000, MARK_SIZE);
	n = peek0(fd, pk + 32, 1 << 20, &next, &gen, &len, &missed);
	ASSERT_LE(2, n);
	EXPECT_EQ(0, missed);
	ASSERT_LE(1, fdr_check(pk, 32 + len, mark_cb, &seen, err, sizeof(err)))
		TH_LOG("the look: %s", err);
	EXPECT_LT(0, seen.n[0]);
	EXPECT_EQ(0, seen.gaps);
	len1 = len;
	/* Nothing new: nothing copied, nothing missed. */
	gen1 = gen;
	EXPECT_EQ(0, peek0(fd, pk + 32, 1 << 20, &next, &gen, &len, &missed));
	EXPECT_EQ(0, len);
	EXPECT_EQ(0, missed);
	EXPECT_EQ(gen1, gen);
	/* A ring page is the least a look takes. */
	EXPECT_EQ(-EINVAL, peek0(fd, pk + 32, 4096, &next, &gen, &len, &missed));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	/* Stopped, the open page is final: the last look takes it, once. */
	memcpy(tail32, pk + len1, 32);	/* peek0() puts a header there */
	n = peek0(fd, pk + 32 + len1, (1 << 20) - len1, &next, &gen, &len,
		  &missed);
	EXPECT_EQ(1, n);
	EXPECT_EQ(0, missed);
	memcpy(pk + len1, tail32, 32);
	memset(&seen, 0, sizeof(seen));
	seen.cap = 1;
	ASSERT_LE(1, fdr_check(pk, 32 + len1 + len, mark_cb, &seen, err,
			       sizeof(err)))
		TH_LOG("the looks: %s", err);
	EXPECT_EQ(3000, seen.n[0]) TH_LOG("the looks missed markers");
	EXPECT_EQ(0, seen.gaps);
	EXPECT_EQ(0, peek0(fd, pk + 32, 1 << 20, &next, &gen, &len, &missed));
	len = len1;
	/* The reader gets all 3000, the looks' pages among them. */
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	out = fdr_read_all(rfd, &olen);
	ASSERT_NE(NULL, out);
	ASSERT_LE(1, fdr_check(out, olen, mark_cb, &all, err, sizeof(err)))
		TH_LOG("the reader: %s", err);
	EXPECT_EQ(3000, all.n[0]);
	EXPECT_EQ(0, memcmp(pk + 32, out + 32, len)) TH_LOG("the look's pages differ");
	free(out);
	/*
	 * A new capture's pages are looked at from its oldest; pages the
	 * look saw and the reader then took are nothing missed; pages the
	 * reader took first are still there to look at until reused.
	 */
	gen1 = gen;
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 1, 0, 0, 3000, MARK_SIZE);
	n = peek0(fd, pk + 32, 1 << 20, &next, &gen, &len, &missed);
	EXPECT_NE(gen1, gen);
	EXPECT_EQ(0, missed);
	EXPECT_LE(2, n);
	out = malloc(1 << 20);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(32, read(rfd, out, 1 << 20));	/* the new output's header */
	ASSERT_LT(0, read(rfd, out, 1 << 20));	/* the pages looked at */
	n = peek0(fd, pk + 32, 1 << 20, &next, &gen, &len, &missed);
	EXPECT_EQ(0, n);
	EXPECT_EQ(0, missed) TH_LOG("the pages the look had seen were read");
	put_markers(fd, 1, 0, 3000, 3000, MARK_SIZE);
	ASSERT_LT(0, read(rfd, out, 1 << 20));	/* the next two, first */
	n = peek0(fd, pk + 32, 1 << 20, &next, &gen, &len, &missed);
	EXPECT_LE(2, n) TH_LOG("pages the reader took first were not shown");
	EXPECT_EQ(0, missed);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	free(out);
	free(pk);
	close(rfd);
	close(fd);
}

/*
 * A flight recorder overwrites its oldest pages: a look that comes back
 * after that counts them as missed, and what it copies is still whole.
 */
TEST(peek_counts_what_a_flight_recorder_overwrote)
{
	struct mark_seen seen = { .cap = 1 };
	uint64_t next = 0, gen = 0;
	uint32_t len, missed;
	struct tracebuf_fdr_peek bad = { 0 };
	char err[160];
	uint8_t *pk;
	int fd, n;

	fd = fdr_open_started0(TRACEBUF_FDR_MARKER, TRACEBUF_FDR_MODE_FLIGHT,
			       64 << 10);
	ASSERT_LE(0, fd);
	pk = malloc(32 + (64 << 10));
	ASSERT_NE(NULL, pk);
	put_markers(fd, 1, 0, 0, 200, MARK_SIZE);
	ASSERT_LE(1, peek0(fd, pk + 32, 64 << 10, &next, &gen, &len, &missed));
	EXPECT_EQ(0, missed);
	/* 4 KiB pages: 3000 markers go round the ring more than once. */
	put_markers(fd, 1, 0, 200, 3000, MARK_SIZE);
	n = peek0(fd, pk + 32, 64 << 10, &next, &gen, &len, &missed);
	EXPECT_LE(1, n);
	EXPECT_LT(0, missed);
	ASSERT_LE(1, fdr_check(pk, 32 + len, mark_cb, &seen, err, sizeof(err)))
		TH_LOG("%s", err);
	/* It begins after what was overwritten: one jump there, no other. */
	EXPECT_GE(1, seen.gaps);
	TH_LOG("%d pages copied, %u missed", n, missed);
	/* Arguments checked. */
	bad.buf = (uintptr_t)pk;
	bad.size = 64 << 10;
	bad.cpu = 1U << 30;
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_PEEK, &bad));
	EXPECT_EQ(EINVAL, errno);
	bad.cpu = 0;
	bad.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_PEEK, &bad));
	EXPECT_EQ(EINVAL, errno);
	bad.reserved[1] = 0;
	bad.buf = 8;
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_PEEK, &bad));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	free(pk);
	close(fd);
}

/* The writer that goes round the ring while a look's copy is stalled. */
struct lapper {
	int uffd, fd;
	void *page;		/* the registered page the look copies to */
	long psz;
};

static void *lapper_fn(void *arg)
{
	struct lapper *l = arg;
	struct pollfd pfd = { .fd = l->uffd, .events = POLLIN };
	struct uffdio_copy cp = { 0 };
	struct uffd_msg msg;
	void *src = calloc(1, l->psz);

	if (!src || poll(&pfd, 1, (int)(tb_bound(30) * 1000)) != 1 ||
	    read(l->uffd, &msg, sizeof(msg)) != sizeof(msg))
		return NULL;
	/* The copy is stalled on our page: 3000 markers, 4 KiB pages, go
	 * round the 64 KiB ring three times. */
	pin_cpu(0);
	put_markers(l->fd, 1, 0, 1000, 3000, MARK_SIZE);
	cp.dst = (uintptr_t)l->page;
	cp.src = (uintptr_t)src;
	cp.len = l->psz;
	ioctl(l->uffd, UFFDIO_COPY, &cp);
	free(src);
	return NULL;
}

/*
 * A look whose copy stalls (a page fault on its buffer, here held by
 * userfaultfd) while the flight recorder goes round the ring: it must
 * stop at the pages that were closed when it began, never copy the page
 * being written nor pages again under later numbers, and count what was
 * overwritten as missed.
 */
TEST(peek_stalled_while_the_ring_laps)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct mark_seen seen = { .cap = 1 };
	struct tracebuf_fdr_peek p = { 0 };
	struct lapper l = { 0 };
	char err[160];
	uint8_t *buf;
	pthread_t th;
	size_t size = 256 << 10;
	int fd, n;

	l.psz = sysconf(_SC_PAGESIZE);
	l.uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (l.uffd < 0 || ioctl(l.uffd, UFFDIO_API, &api))
		SKIP(return, "no userfaultfd (%s)", strerror(errno));
	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = fdr_open_started0(TRACEBUF_FDR_MARKER, TRACEBUF_FDR_MODE_FLIGHT,
			       64 << 10);
	ASSERT_LE(0, fd);
	put_markers(fd, 1, 0, 0, 1000, MARK_SIZE);
	/* The look's buffer: 32 bytes of header room, then pages; the second
	 * system page is missing, so the first ring page's copy stalls. */
	buf = mmap(NULL, size + 2 * l.psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0, l.psz);
	reg.range.start = (uintptr_t)buf + l.psz;
	reg.range.len = l.psz;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	ASSERT_EQ(0, ioctl(l.uffd, UFFDIO_REGISTER, &reg));
	l.fd = fd;
	l.page = buf + l.psz;
	ASSERT_EQ(0, pthread_create(&th, NULL, lapper_fn, &l));
	/* The look runs on CPU 1 while the lapper writes on CPU 0. */
	ASSERT_EQ(0, pin_cpu(1));
	p.buf = (uintptr_t)buf + 32;
	p.size = (uint32_t)size;
	n = ioctl(fd, TRACEBUF_FDR_IOC_PEEK, &p);
	pthread_join(th, NULL);
	ASSERT_LE(0, n) TH_LOG("%s", strerror(errno));
	TH_LOG("%d pages, %u bytes, %u missed, next %llu", n, p.len, p.missed,
	       (unsigned long long)p.next);
	/* At most the 15 closed pages a 16-page ring holds. */
	EXPECT_GE(15, n);
	EXPECT_LT(0, p.missed);
	memcpy(buf, p.header, 32);
	if (p.len)
		EXPECT_LE(1, fdr_check(buf, 32 + p.len, mark_cb, &seen, err,
				       sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	munmap(buf, size + 2 * l.psz);
	close(l.uffd);
	close(fd);
}

struct load_arg {
	int fd, cpu, count;
	volatile int *go;
};

static void *load_thread(void *p)
{
	struct load_arg *a = p;
	int i;

	pin_cpu(a->cpu);
	while (!*a->go)
		usleep(100);
	for (i = 0; i < a->count; i += 50) {
		put_markers(a->fd, 2, a->cpu, i, 50, MARK_SIZE);
		getppid();
	}
	return NULL;
}

/*
 * Every read size, odd ones included, while both CPUs write: the stream
 * must parse, every marker must be in a block of its own CPU, in order,
 * none missing (the buffer is large enough that nothing is dropped), so
 * the content equals what a 1 MiB reader gets.
 */
TEST_TIMEOUT(every_read_size_under_load, 120)
{
	static const size_t sizes[] = {
		1, 3, 7, 100, 1000, 4095, 4096, 4103, 65536, 65549,
		131072, 1 << 20, 3 << 20,
	};
	/* Whole rounds of load_thread's 50. */
	const int many = tb_scaled(4000, 200) / 50 * 50;
	const int few = tb_scaled(400, 50) / 50 * 50;
	int count;
	unsigned int i;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct tracebuf_fdr_config c = {
			.classes = TRACEBUF_FDR_MARKER | TRACEBUF_FDR_SYSCALL,
			.mode = TRACEBUF_FDR_MODE_STREAM,
			.buf_size = 4 << 20,
			.wakeup = 4096,
		};
		struct load_arg la[2];
		struct tracebuf_fdr_stats st;
		struct mark_seen s = { .cap = 2 };
		volatile int go = 0;
		pthread_t th[2];
		uint8_t *buf;
		char err[160];
		size_t len;
		int fd, rfd, cpu;

		/* Byte-sized reads are slow: fewer markers, same checks. */
		count = sizes[i] < 100 ? few : many;
		fd = fdr_open_stopped();
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
		rfd = open(TB_FDR_DEV, O_RDONLY);
		ASSERT_LE(0, rfd);
		for (cpu = 0; cpu < 2; cpu++) {
			la[cpu] = (struct load_arg){ fd, cpu, count, &go };
			ASSERT_EQ(0, pthread_create(&th[cpu], NULL, load_thread,
						    &la[cpu]));
		}
		go = 1;
		pthread_join(th[0], NULL);
		pthread_join(th[1], NULL);
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
		buf = read_in(rfd, sizes[i], &len);
		ASSERT_NE(NULL, buf);
		ASSERT_EQ(0, fdr_stats(fd, &st));
		ASSERT_LE(1, fdr_check(buf, len, mark_cb, &s, err, sizeof(err)))
			TH_LOG("read size %zu: %s", sizes[i], err);
		TH_LOG("read size %zu: %zu bytes, markers %d + %d", sizes[i],
		       len, s.n[0], s.n[1]);
		EXPECT_EQ(0ULL, st.dropped);
		EXPECT_EQ(0, s.wrong_cpu);
		EXPECT_EQ(0, s.gaps);
		EXPECT_EQ(count, s.n[0]);
		EXPECT_EQ(count, s.n[1]);
		free(buf);
		close(rfd);
		close(fd);
	}
}

/*
 * The same with the reader draining while the writers run, so reads end
 * anywhere in pages of either CPU while the other closes pages.
 */
struct drain_arg {
	int fd;
	size_t size, len;
	uint8_t *buf;
};

static void *drain_thread(void *p)
{
	struct drain_arg *a = p;

	a->buf = read_in(a->fd, a->size, &a->len);
	return NULL;
}

TEST_TIMEOUT(every_read_size_while_streaming, 120)
{
	static const size_t sizes[] = { 1000, 4103, 65549, 131072, 1 << 20 };
	const int count = tb_scaled(4000, 200) / 50 * 50;
	unsigned int i;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct tracebuf_fdr_config c = {
			.classes = TRACEBUF_FDR_MARKER | TRACEBUF_FDR_SYSCALL,
			.mode = TRACEBUF_FDR_MODE_STREAM,
			.buf_size = 4 << 20,
			.wakeup = 4096,
		};
		struct mark_seen s = { .cap = 2 };
		struct tracebuf_fdr_stats st;
		struct drain_arg d = { 0 };
		struct load_arg la[2];
		volatile int go = 0;
		pthread_t th[2], rd;
		char err[160];
		int fd, cpu;

		fd = fdr_open_stopped();
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
		d.fd = open(TB_FDR_DEV, O_RDONLY);
		ASSERT_LE(0, d.fd);
		d.size = sizes[i];
		ASSERT_EQ(0, pthread_create(&rd, NULL, drain_thread, &d));
		for (cpu = 0; cpu < 2; cpu++) {
			la[cpu] = (struct load_arg){ fd, cpu, count, &go };
			ASSERT_EQ(0, pthread_create(&th[cpu], NULL, load_thread,
						    &la[cpu]));
		}
		go = 1;
		pthread_join(th[0], NULL);
		pthread_join(th[1], NULL);
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
		pthread_join(rd, NULL);
		ASSERT_NE(NULL, d.buf);
		ASSERT_EQ(0, fdr_stats(fd, &st));
		ASSERT_LE(1, fdr_check(d.buf, d.len, mark_cb, &s, err,
				       sizeof(err)))
			TH_LOG("read size %zu: %s", sizes[i], err);
		TH_LOG("read size %zu: %zu bytes, markers %d + %d, dropped %llu",
		       sizes[i], d.len, s.n[0], s.n[1],
		       (unsigned long long)st.dropped);
		EXPECT_EQ(0, s.wrong_cpu);
		EXPECT_EQ(0, s.gaps);
		EXPECT_EQ(0ULL, st.dropped);
		EXPECT_EQ(count, s.n[0]);
		EXPECT_EQ(count, s.n[1]);
		free(d.buf);
		close(d.fd);
		close(fd);
	}
}

/* --------------------------------------------------- capture lifetime */

/*
 * Keep every other task off CPU 1 for @ms: a SCHED_FIFO spinner there
 * holds a woken reader pinned to CPU 1 until the capture has changed.
 */
static pid_t hold_cpu1(int ms)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec t0, t;
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin_cpu(1);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	_exit(0);
}

struct sleeper {
	int fd;
	size_t len;
	uint8_t buf[1 << 20];
	int eof;		/* a read returned 0 */
	volatile int blocked;	/* about to block in read() */
};

/* Read the stream on CPU 1 until the first EOF. */
static void *sleeper_thread(void *p)
{
	struct sleeper *s = p;
	ssize_t n;

	pin_cpu(1);
	for (;;) {
		s->blocked = 1;
		n = read(s->fd, s->buf + s->len, sizeof(s->buf) - s->len);
		if (n <= 0)
			break;
		s->len += n;
	}
	s->eof = n == 0;
	return NULL;
}

/*
 * A streaming reader asleep while its capture is stopped and another one
 * configured and started must end with EOF at its own capture's end: it
 * must neither take the next capture's blocks (without their header) nor
 * consume a flight recorder's pages.
 */
static void reader_across(struct __test_metadata *_metadata, uint32_t next_mode)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = 64 << 10,
		.wakeup = 4096,
	};
	struct mark_seen s = { .cap = 3 }, s2 = { .cap = 4 };
	struct sleeper *sl;
	pthread_t th;
	char err[160];
	uint8_t *buf;
	size_t len;
	pid_t spin;
	int fd, rfd;

	if (nr_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	sl = calloc(1, sizeof(*sl));
	ASSERT_NE(NULL, sl);
	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 3, 0, 0, 10, MARK_SIZE);
	sl->fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, sl->fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, sleeper_thread, sl));
	/* Let it read the header and block for the wake-up amount. */
	TB_WAIT_FOR(sl->blocked && sl->len >= 32, 2);
	usleep(100000);
	ASSERT_EQ(32, sl->len);
	spin = hold_cpu1(600);
	usleep(50000);
	/* The capture changes while the reader cannot run. */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	c.mode = next_mode;
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	/* 100 markers: more than the wake-up amount. */
	put_markers(fd, 4, 0, 0, 100, MARK_SIZE);
	waitpid(spin, NULL, 0);
	pthread_join(th, NULL);
	EXPECT_EQ(1, sl->eof);
	/* START discarded what it had not read: a valid stream, and no more. */
	ASSERT_LE(0, fdr_check(sl->buf, sl->len, mark_cb, &s, err, sizeof(err)))
		TH_LOG("the old capture's reader: %s", err);
	EXPECT_GE(10, s.n[0]);
	EXPECT_EQ(0, s.foreign) TH_LOG("it read the next capture's markers");

	/* The next capture is whole for a new reader. */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	buf = fdr_read_all(rfd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, mark_cb, &s2, err, sizeof(err)))
		TH_LOG("the next capture: %s", err);
	EXPECT_EQ(100, s2.n[0]) TH_LOG("markers missing from the next capture");
	EXPECT_EQ(0, s2.gaps);
	/* The old reader's file then reads the next capture from its header. */
	memset(&s2, 0, sizeof(s2));
	s2.cap = 4;
	free(buf);
	buf = fdr_read_all(sl->fd, &len);
	ASSERT_NE(NULL, buf);
	if (next_mode == TRACEBUF_FDR_MODE_FLIGHT) {
		ASSERT_LE(1, fdr_check(buf, len, mark_cb, &s2, err, sizeof(err)))
			TH_LOG("%s", err);
		EXPECT_EQ(100, s2.n[0]);
	}
	free(buf);
	close(rfd);
	close(sl->fd);
	close(fd);
	free(sl);
}

TEST(reader_across_stream_to_flight)
{
	reader_across(_metadata, TRACEBUF_FDR_MODE_FLIGHT);
}

TEST(reader_across_stream_to_stream)
{
	reader_across(_metadata, TRACEBUF_FDR_MODE_STREAM);
}

/* ------------------------------------------------------------ wake-up */

/* The largest wake-up threshold CONFIG accepts for @c's buffer size. */
static uint32_t largest_wakeup(int fd, struct tracebuf_fdr_config *c)
{
	uint32_t w;

	for (w = c->buf_size; w >= c->buf_size / 4; w -= 1024) {
		c->wakeup = w;
		if (!ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, c))
			return w;
		if (errno != EINVAL)
			return 0;
	}
	return 0;
}

/*
 * A threshold the ring cannot reach is refused; the largest one accepted
 * wakes a blocked reader even with the largest markers, which pack the
 * fewest bytes into a page.
 */
TEST(wakeup_threshold_reachable)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = 64 << 10,
	};
	static const uint32_t sizes[] = { 64 << 10, 1 << 20 };
	struct tracebuf_fdr_stats st;
	struct pollfd pfd;
	unsigned int i;
	int fd, rfd, n;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	for (i = 0; i < 2; i++) {
		uint32_t max;

		c.buf_size = sizes[i];
		max = largest_wakeup(fd, &c);
		TH_LOG("buf_size %u: largest wakeup accepted %u", c.buf_size, max);
		ASSERT_LT(0, max);
		c.wakeup = c.buf_size + 1;
		EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
		c.wakeup = max;
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
		rfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, rfd);
		pfd.fd = rfd;
		pfd.events = POLLIN;
		/* Largest markers until the ring drops: poll must be ready. */
		for (n = 0; n < 100000; n++) {
			put_markers(fd, 5, 0, n, 1, TRACEBUF_FDR_MARKER_MAX);
			ASSERT_EQ(0, fdr_stats(fd, &st));
			if (st.dropped)
				break;
		}
		TH_LOG("ring full after %d markers of %d bytes, %llu bytes",
		       n, TRACEBUF_FDR_MARKER_MAX,
		       (unsigned long long)st.bytes);
		EXPECT_LT(0ULL, st.dropped);
		/* The threshold accepted must be reachable. */
		EXPECT_LE(max, st.bytes);
		EXPECT_EQ(1, poll(&pfd, 1, 3000))
			TH_LOG("a full ring did not wake its reader");
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
		close(rfd);
	}
	close(fd);
}

/*
 * A reader blocked in read() with the largest threshold accepted is woken
 * before, or at the latest when, the ring fills: every event dropped from
 * then on must not leave it asleep.
 */
TEST(full_ring_wakes_blocked_reader)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = 64 << 10,
	};
	struct tracebuf_fdr_stats st;
	struct blocked_read b = { 0 };
	pthread_t th;
	int fd, n;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	/* The largest threshold accepted, with the largest markers. */
	ASSERT_LT(0, largest_wakeup(fd, &c));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	b.fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, blocked_read_thread, &b));
	/* Let it block in read() before anything is written. */
	TB_WAIT_FOR(b.header, 1);
	usleep(200000);
	ASSERT_FALSE(b.done);
	for (n = 0; n < 100000 && !b.done; n++) {
		put_markers(fd, 6, 0, n, 1, TRACEBUF_FDR_MARKER_MAX);
		ASSERT_EQ(0, fdr_stats(fd, &st));
		if (st.dropped)
			break;
	}
	EXPECT_TRUE(TB_WAIT_FOR(b.done, 3)) TH_LOG("the reader still sleeps after %d markers", n);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	pthread_join(th, NULL);
	EXPECT_LT(0, b.n);
	close(b.fd);
	close(fd);
}

/* ------------------------------------------------------------ snapshots */

static long mem_available_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Snapshots on many files at once take no memory per file: with buffers
 * of a quarter of the guest's memory, sixteen files holding snapshots must
 * not drive it out of memory (before, each held a private copy of every
 * CPU's buffer).  Every file still reads the whole recording.
 */
TEST(snapshots_cost_no_copy)
{
	struct mark_seen s;
	long before, after;
	int fd, i, files[16];
	uint32_t size = 64 << 20;
	char err[160];
	uint8_t *buf;
	size_t len;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	/* The largest buffer that fits a quarter of what is free. */
	while (size > (64 << 10) &&
	       (long)size / 1024 * nr_cpus() > mem_available_kb() / 4)
		size /= 2;
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, size, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	put_markers(fd, 7, 0, 0, 1000, MARK_SIZE);
	before = mem_available_kb();
	for (i = 0; i < 16; i++) {
		files[i] = open(TB_FDR_DEV, O_RDONLY);
		ASSERT_LE(0, files[i]);
		ASSERT_EQ(0, ioctl(files[i], TRACEBUF_FDR_IOC_SNAPSHOT));
	}
	after = mem_available_kb();
	TH_LOG("buf_size %u x %d CPUs: MemAvailable %ld -> %ld kB with 16 snapshots",
	       size, nr_cpus(), before, after);
	/* Allow for noise, not for a copy of one CPU's buffer per file. */
	EXPECT_GT(after + (long)size / 1024, before);
	for (i = 0; i < 16; i++) {
		memset(&s, 0, sizeof(s));
		s.cap = 7;
		buf = fdr_read_all(files[i], &len);
		ASSERT_NE(NULL, buf);
		ASSERT_LE(1, fdr_check(buf, len, mark_cb, &s, err, sizeof(err)))
			TH_LOG("file %d: %s", i, err);
		EXPECT_EQ(1000, s.n[0]);
		EXPECT_EQ(0, s.gaps);
		free(buf);
		close(files[i]);
	}
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

TEST_HARNESS_MAIN
