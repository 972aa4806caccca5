// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf_fdr under stress, every output through the strict parser
 * of fdr_strict.h:
 *
 *  - streaming readers of every read size (1, 2, 3, 7, 100, 1000, 4095,
 *    4096, 4103, 65549, 131072, 1 MiB and odd sizes) while pinned writers
 *    on both CPUs write numbered markers of varying length and other
 *    threads load both CPUs: every marker exactly once, byte for byte, in
 *    its writer's order, in a block of its writer's CPU; the per-CPU
 *    content identical to what the 1 MiB reader got; events in the
 *    stream == STATS.written, per CPU;
 *  - losses at the highest rate: produced == recorded + dropped exactly;
 *  - start/stop/config/snapshot cycles under heavy tracing with streaming
 *    readers: every piece a reader gets between two EOFs is one capture
 *    after its own header, and the readers together get exactly what
 *    STATS says each capture recorded;
 *  - a wake-up amount at the limits (wakeup = buf_size): readers wake;
 *  - rmmod refused while a file is open, clean right after the last
 *    close while probes fire;
 *  - CPU 1 offline/online while streaming and while snapshotting;
 *  - the largest buffer in the 1 GiB guest, snapshots of it from many
 *    files, and a configuration under memory pressure: each works or
 *    fails with ENOMEM, and nothing is OOM-killed.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>

#include "tb_harness.h"
#include "fdr_strict.h"
#include "fdr_util.h"
#include "tb_stress.h"

#define KiB	1024UL
#define MiB	(1024 * 1024UL)

static inline uint64_t tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	/* The recorder's clock there; Linux lets EL0 read it. */
	uint64_t t;

	asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r" (t) : : "memory");
	return t;
#else
	return 0;
#endif
}

static int fdr_cfg(int fd, uint32_t classes, uint32_t mode, uint32_t size,
		   uint32_t nargs, uint32_t wakeup)
{
	struct tracebuf_fdr_config c = {
		.classes = classes, .mode = mode, .buf_size = size,
		.nr_args = nargs, .wakeup = wakeup,
	};

	return ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c) ? -errno : 0;
}

static int stats_cpus(int fd, struct tracebuf_fdr_stats *st,
		      struct tracebuf_fdr_cpu_stats *cs)
{
	memset(st, 0, sizeof(*st));
	memset(cs, 0, FS_MAX_CPUS * sizeof(*cs));
	st->cpus = (uintptr_t)cs;
	st->nr_cpus = FS_MAX_CPUS;
	st->cpu_size = sizeof(*cs);
	return ioctl(fd, TRACEBUF_FDR_IOC_STATS, st) ? -errno : 0;
}

/* ------------------------------------------------------------ load */

static atomic_int load_stop;

/*
 * Backpressure for tests that must lose nothing: producers wait while the
 * reader is more than @limit bytes behind what the rings hold.  Without it
 * a reader of one byte per read() on a slow kernel falls behind the
 * interrupts that the load causes, whatever the writers' pace, and the
 * ring drops events.  @limit sits well above the reader's wake-up point
 * (else the reader sleeps while the producers wait) and well below one
 * CPU's ring.
 */
struct backlog_gate {
	int fd;
	const atomic_size_t *consumed;
	size_t limit;
};

static size_t backlog(const struct backlog_gate *g)
{
	struct tracebuf_fdr_cpu_stats cs[FS_MAX_CPUS];
	struct tracebuf_fdr_stats st;
	size_t bytes = 0, done;
	int i;

	memset(&st, 0, sizeof(st));
	memset(cs, 0, sizeof(cs));
	st.cpus = (uintptr_t)cs;
	st.nr_cpus = FS_MAX_CPUS;
	st.cpu_size = sizeof(cs[0]);
	if (ioctl(g->fd, TRACEBUF_FDR_IOC_STATS, &st))
		return 0;
	for (i = 0; i < FS_MAX_CPUS; i++)
		bytes += cs[i].bytes;
	done = atomic_load(g->consumed);
	return bytes > done ? bytes - done : 0;
}

/* Wait until the reader has caught up; give up after 10 s (TB_SLOW). */
static void gate_wait(const struct backlog_gate *g)
{
	double t = tb_now();

	while (g && !atomic_load(&load_stop) && backlog(g) > g->limit &&
	       tb_now() - t < tb_bound(10))
		usleep(1000);
}

/* A CPU kept busy with system calls (untraced unless SYSCALL is on). */
static void *spinner(void *arg)
{
	tb_pin((int)(intptr_t)arg);
	while (!atomic_load(&load_stop))
		syscall(SYS_getppid);
	return NULL;
}

/* The VM's PCI UART (tb_irq_tty(), to a null sink): device interrupts. */
static void *uart_noise(void *arg)
{
	const struct backlog_gate *g = arg;
	char buf[512], path[64];
	struct termios tio;
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", tb_irq_tty());
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	memset(buf, 'n', sizeof(buf));
	while (!atomic_load(&load_stop)) {
		gate_wait(g);
		if (write(fd, buf, sizeof(buf)) < 0)
			break;
		tcdrain(fd);
	}
	close(fd);
	return NULL;
}

struct load {
	pthread_t th[8];
	int n;
};

static void load_start(struct load *l, int spin, int uart,
		       const struct backlog_gate *g)
{
	int cpu;

	atomic_store(&load_stop, 0);
	l->n = 0;
	for (cpu = 0; spin && cpu < 2 && cpu < tb_ncpus(); cpu++)
		if (!pthread_create(&l->th[l->n], NULL, spinner,
				    (void *)(intptr_t)cpu))
			l->n++;
	if (uart && !pthread_create(&l->th[l->n], NULL, uart_noise, (void *)g))
		l->n++;
}

static void load_stop_all(struct load *l)
{
	int i;

	atomic_store(&load_stop, 1);
	for (i = 0; i < l->n; i++)
		pthread_join(l->th[i], NULL);
	l->n = 0;
}

/* ------------------------------------------------------------ readers */

struct reader {
	int fd;
	size_t chunk;
	uint8_t *buf;
	size_t len, cap;
	int err;
	/* Segmented mode: keep reading across EOFs until told to stop. */
	int segmented;
	atomic_int eofs;
	atomic_int stop;
	size_t *cuts;		/* offsets where an EOF was read */
	int ncuts, capcuts;
	int pause_us;		/* between reads: a slow reader */
	atomic_size_t consumed;	/* @len, for other threads */
	atomic_int tid;		/* the thread's, for reader_where() */
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	ssize_t n;

	atomic_store(&r->tid, gettid());
	for (;;) {
		size_t want = r->chunk;

		if (r->cap - r->len < want) {
			r->cap = 2 * r->cap + want + MiB;
			r->buf = realloc(r->buf, r->cap);
			if (!r->buf) {
				r->err = ENOMEM;
				return NULL;
			}
		}
		n = read(r->fd, r->buf + r->len, want);
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			/* Segmented readers end so; reader_join() stops any. */
			if (atomic_load(&r->stop))
				break;
			continue;
		}
		if (n < 0) {
			r->err = errno;
			return NULL;
		}
		if (n > 0) {
			if ((size_t)n > want) {
				r->err = E2BIG;
				return NULL;
			}
			r->len += n;
			atomic_store(&r->consumed, r->len);
			if (r->pause_us)
				usleep(r->pause_us);
			continue;
		}
		if (!r->segmented)
			break;
		/* EOF: the end of one capture's data for this file. */
		if (!r->ncuts || r->cuts[r->ncuts - 1] != r->len) {
			if (r->ncuts == r->capcuts) {
				r->capcuts = 2 * r->capcuts + 64;
				r->cuts = realloc(r->cuts, r->capcuts * sizeof(*r->cuts));
				if (!r->cuts) {
					r->err = ENOMEM;
					return NULL;
				}
			}
			r->cuts[r->ncuts++] = r->len;
		}
		atomic_fetch_add(&r->eofs, 1);
		if (atomic_load(&r->stop))
			break;
		usleep(1000);
	}
	return NULL;
}

/* Where reader @r is, for a failure's log: its bytes, then tb_task_where(). */
static void reader_where(struct reader *r, char *out, size_t size)
{
	char where[1200];

	tb_task_where(atomic_load(&r->tid), where, sizeof(where));
	snprintf(out, size, "%zu bytes read, err %d, eofs %d; %s",
		 atomic_load(&r->consumed), r->err, atomic_load(&r->eofs),
		 where);
}

static void reader_nudge(int sig)
{
}

/*
 * Wait for reader @r, which must come to its end (an EOF, or its stop
 * flag) now that capture stopped.  One that does not within @secs
 * (stretched by TB_SLOW) is described in @where, then interrupted by a
 * signal so that the test goes on: -1.  A reader that hangs is a failure
 * with its state, not the harness's timeout of the whole test.
 */
static int reader_join(struct reader *r, pthread_t th, double secs,
		       char *where, size_t size)
{
	struct sigaction sa = { .sa_handler = reader_nudge };
	struct timespec ts;
	double t = tb_now();
	int ret = 0;

	while (pthread_tryjoin_np(th, NULL) == EBUSY) {
		if (tb_now() - t < tb_bound(secs)) {
			usleep(2000);
			continue;
		}
		reader_where(r, where, size);
		ret = -1;
		/* No SA_RESTART: the read returns EINTR and the reader stops. */
		sigaction(SIGUSR2, &sa, NULL);
		atomic_store(&r->stop, 1);
		do {
			pthread_kill(th, SIGUSR2);
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
		} while (pthread_timedjoin_np(th, NULL, &ts) == ETIMEDOUT);
		break;
	}
	return ret;
}

/* The reader's file, opened; reader_run() starts its reads. */
static int reader_open(struct reader *r, size_t chunk, int flags)
{
	memset(r, 0, sizeof(*r));
	r->chunk = chunk;
	r->fd = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC | flags);
	return r->fd < 0 ? -errno : 0;
}

static int reader_run(struct reader *r, pthread_t *th)
{
	return pthread_create(th, NULL, reader_fn, r) ? -1 : 0;
}

static int reader_start(struct reader *r, pthread_t *th, size_t chunk,
			int flags)
{
	int ret = reader_open(r, chunk, flags);

	return ret ? ret : reader_run(r, th);
}

static void reader_free(struct reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	free(r->cuts);
	r->buf = NULL;
	r->cuts = NULL;
	r->fd = -1;
}

/* ------------------------------------------------- numbered markers */

/*
 * Marker @n of the writer on CPU @cpu: "C<cpu>N<n>:" and 2..190 bytes
 * that depend on both, so any byte out of place shows.
 */
static size_t make_marker(int cpu, int n, uint8_t *out)
{
	uint32_t x = (uint32_t)(cpu * 7919 + n) * 2654435761U | 1;
	size_t len = (size_t)snprintf((char *)out, 24, "C%dN%06d:", cpu, n);
	size_t extra = 2 + (x >> 8) % 189, i;

	for (i = 0; i < extra; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		out[len + i] = (uint8_t)x;
	}
	return len + extra;
}

#define MAX_WRITERS	4

struct marker_check {
	int nwriters;
	pid_t tid[MAX_WRITERS];
	int cpu[MAX_WRITERS];		/* -1: any (hotplug) */
	int next[MAX_WRITERS];
	int out_of_order, wrong_cpu, wrong_tid, corrupt, foreign;
	uint64_t hash[FS_MAX_CPUS];	/* per-CPU content */
	char first_err[160];
};

static void marker_err(struct marker_check *m, const char *fmt, int a, int b)
{
	if (!m->first_err[0])
		snprintf(m->first_err, sizeof(m->first_err), fmt, a, b);
}

static void marker_cb(const struct fs_rec *r, void *arg)
{
	struct marker_check *m = arg;
	uint8_t want[256];
	int cpu, n, w;
	size_t len;

	if (r->kind != FS_CUSTOM_REC)
		return;
	if (r->size < 10 || r->data[0] != 'C' ||
	    sscanf((const char *)r->data, "C%dN%6d:", &cpu, &n) != 2) {
		m->foreign++;
		return;
	}
	for (w = 0; w < m->nwriters; w++)
		if (m->tid[w] == r->blk->tid)
			break;
	if (w == m->nwriters) {
		m->wrong_tid++;
		marker_err(m, "marker of writer %d in a block of tid %d", cpu,
			   r->blk->tid);
		return;
	}
	len = make_marker(cpu, n, want);
	if (len != r->size || memcmp(want, r->data, len)) {
		m->corrupt++;
		marker_err(m, "marker %d of writer %d: wrong bytes", n, w);
		return;
	}
	if (m->cpu[w] >= 0 && r->blk->cpu != m->cpu[w]) {
		m->wrong_cpu++;
		marker_err(m, "marker %d of writer %d in a block of another CPU",
			   n, w);
	}
	if (n != m->next[w]) {
		m->out_of_order++;
		marker_err(m, "writer %d: marker %d where %d was next", w, n);
	}
	m->next[w] = n + 1;
	m->hash[r->blk->cpu] = fs_hash(m->hash[r->blk->cpu], r->data, r->size);
}

struct writer {
	int fd, cpu, n, pace_us;
	const struct backlog_gate *gate;	/* or NULL */
	pid_t tid;
	atomic_int ready;
	atomic_int done;	/* its @n writes made */
	int written;
};

static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	uint8_t m[256];
	int i;

	if (w->cpu >= 0)
		tb_pin(w->cpu);
	w->tid = gettid();
	atomic_store(&w->ready, 1);
	for (i = 0; i < w->n; i++) {
		size_t len = make_marker(w->cpu < 0 ? 9 : w->cpu, i, m);

		gate_wait(w->gate);
		if (write(w->fd, m, len) == (ssize_t)len)
			w->written++;
		if (w->pace_us)
			usleep(w->pace_us);
	}
	atomic_store(&w->done, 1);
	return NULL;
}

/* ------------------------------------------------ every read size */

FIXTURE(rs) {
	int fd;
};

FIXTURE_VARIANT(rs) {
	size_t chunk;
};

/* The 1 MiB reader first: the others are compared with what it got. */
FIXTURE_VARIANT_ADD(rs, r1MiB) { .chunk = 1 << 20 };
FIXTURE_VARIANT_ADD(rs, r1) { .chunk = 1 };
FIXTURE_VARIANT_ADD(rs, r2) { .chunk = 2 };
FIXTURE_VARIANT_ADD(rs, r3) { .chunk = 3 };
FIXTURE_VARIANT_ADD(rs, r7) { .chunk = 7 };
FIXTURE_VARIANT_ADD(rs, r100) { .chunk = 100 };
FIXTURE_VARIANT_ADD(rs, r1000) { .chunk = 1000 };
FIXTURE_VARIANT_ADD(rs, r4095) { .chunk = 4095 };
FIXTURE_VARIANT_ADD(rs, r4096) { .chunk = 4096 };
FIXTURE_VARIANT_ADD(rs, r4103) { .chunk = 4103 };
FIXTURE_VARIANT_ADD(rs, r65549) { .chunk = 65549 };
FIXTURE_VARIANT_ADD(rs, r131072) { .chunk = 131072 };
/* Odd sizes that share no factor with the block and page sizes. */
FIXTURE_VARIANT_ADD(rs, r13) { .chunk = 13 };
FIXTURE_VARIANT_ADD(rs, r517) { .chunk = 517 };
FIXTURE_VARIANT_ADD(rs, r9973) { .chunk = 9973 };
FIXTURE_VARIANT_ADD(rs, r33333) { .chunk = 33333 };

FIXTURE_SETUP(rs)
{
	self->fd = fdr_open_stopped();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(rs)
{
	ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
	close(self->fd);
}

#define RS_REF	"/tmp/fdr_stress.1mib"

TEST_F_TIMEOUT(rs, every_marker_once_in_order, 120)
{
	char where[1400];
	struct tracebuf_fdr_cpu_stats cs[FS_MAX_CPUS];
	struct tracebuf_fdr_stats st;
	struct marker_check m = { .nwriters = 2 };
	struct fs_scan sc = { .cb = marker_cb, .arg = &m };
	struct backlog_gate gate;
	struct writer w[2];
	struct reader rd;
	struct load l;
	pthread_t wt[2], rt;
	uint64_t ref[2];
	int i, n = (int)tb_scaled(800, 100);
	double t0, t1;
	bool tiny;
	FILE *f;

	if (tb_ncpus() < 2)
		SKIP(return, "needs two CPUs");
	/*
	 * 8 KiB pages, and a reader woken only every 32 KiB (the default
	 * quarter buffer): pages fill and close while it reads, so reads
	 * of most sizes end inside a page while other pages close.
	 *
	 * Interrupts come at a rate of their own, which no gate holds
	 * back (a busy CPU's tick alone: about 4.5 KB/s in the arm64
	 * guest).  A reader of a few bytes per read() can fall below it
	 * when its CPU is shared: in the arm64 guest under TCG on
	 * 2026-11-28 the one-byte reader, runnable but waiting for its
	 * vCPU for seconds at a time, read 1 to 20 KB/s while the ring
	 * stayed full, so every marker waited out the gate and the test
	 * timed out.  Such readers read the markers alone, whose rate the
	 * gate sets; the others read the interrupts too.
	 */
	tiny = variant->chunk < 8;
	ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_MARKER |
			     (tiny ? 0 : TRACEBUF_FDR_IRQ | TRACEBUF_FDR_SOFTIRQ),
			     TRACEBUF_FDR_MODE_STREAM, 128 * KiB, 0, 0));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	t0 = tb_now();
	ASSERT_EQ(0, reader_start(&rd, &rt, variant->chunk, 0));
	gate.fd = self->fd;
	gate.consumed = &rd.consumed;
	gate.limit = 80 * KiB;
	load_start(&l, 1, !tiny, &gate);
	for (i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].fd = self->fd;
		w[i].cpu = i;
		w[i].n = n;
		w[i].gate = &gate;
		/*
		 * A reader of a few bytes per read() makes that many system
		 * calls: the writers go slower for it (and on a slow kernel),
		 * so that the ring never fills and the content can be
		 * compared whole.
		 */
		w[i].pace_us = 700 * (variant->chunk < 8 ? 8 : 1) *
			       tb_env_factor("TB_SLOW");
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, writer_fn, &w[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(wt[i], NULL);
	load_stop_all(&l);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, reader_join(&rd, rt, 30, where, sizeof(where)))
		TH_LOG("the reader got no EOF after STOP: %s", where);
	t1 = tb_now();
	ASSERT_EQ(0, rd.err) TH_LOG("read: %s", strerror(rd.err));
	ASSERT_EQ(0, stats_cpus(self->fd, &st, cs));
	for (i = 0; i < 2; i++) {
		m.tid[i] = w[i].tid;
		m.cpu[i] = i;
		EXPECT_EQ(n, w[i].written);
	}
	ASSERT_LE(1, fs_scan_stream(rd.buf, rd.len, &sc)) {
		TH_LOG("read size %zu: %s", variant->chunk, sc.err);
	}
	TH_LOG("read size %zu: %zu bytes in %.1f s, %zu blocks, %llu events, dropped %llu",
	       variant->chunk, rd.len, t1 - t0, sc.nblk,
	       (unsigned long long)sc.events, (unsigned long long)st.dropped);
	EXPECT_EQ(1, sc.segments);
	/* Sized so that nothing is lost: every event is in the stream. */
	EXPECT_EQ(0ULL, st.dropped);
	EXPECT_EQ(st.written, sc.events);
	for (i = 0; i < FS_MAX_CPUS; i++) {
		EXPECT_EQ(cs[i].written, sc.events_cpu[i]) TH_LOG("CPU %d", i);
	}
	EXPECT_EQ(0, m.out_of_order + m.wrong_cpu + m.wrong_tid + m.corrupt) {
		TH_LOG("%s", m.first_err);
	}
	EXPECT_EQ(n, m.next[0]);
	EXPECT_EQ(n, m.next[1]);
	/* The same per-CPU content as the 1 MiB reader's capture. */
	if (variant->chunk == 1 << 20) {
		f = fopen(RS_REF, "w");
		ASSERT_NE(NULL, f);
		fprintf(f, "%d %llx %llx\n", n, (unsigned long long)m.hash[0],
			(unsigned long long)m.hash[1]);
		fclose(f);
	} else {
		int rn = 0;

		f = fopen(RS_REF, "r");
		ASSERT_NE(NULL, f) TH_LOG("the 1 MiB reader's variant did not run");
		ASSERT_EQ(3, fscanf(f, "%d %llx %llx", &rn,
				    (unsigned long long *)&ref[0],
				    (unsigned long long *)&ref[1]));
		fclose(f);
		ASSERT_EQ(n, rn);
		EXPECT_EQ(ref[0], m.hash[0]);
		EXPECT_EQ(ref[1], m.hash[1]);
	}
	fs_scan_free(&sc);
	reader_free(&rd);
}

/* ------------------------------------------------ losses, exactly */

FIXTURE(fs) {
	int fd;
};

FIXTURE_SETUP(fs)
{
	self->fd = fdr_open_stopped();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(fs)
{
	ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
	close(self->fd);
	tb_unpin();
	if (tb_cpu_hotpluggable(1))
		tb_cpu_online(1, 1);
}

/*
 * Markers only, as fast as four writers (two per CPU) can write them
 * into the smallest buffer, one reader that starts reading once the
 * rings have dropped and then reads while they go on dropping: what they
 * wrote == what the stream holds + what STATS counts as dropped, exactly;
 * each writer's markers in order; the loss reports never exceed the drops.
 */
TEST_F_TIMEOUT(fs, loss_exact_at_max_rate, 120)
{
	char where[1400];
	struct tracebuf_fdr_cpu_stats cs[FS_MAX_CPUS];
	struct tracebuf_fdr_stats st;
	struct marker_check m = { .nwriters = MAX_WRITERS };
	struct fs_scan sc = { .cb = marker_cb, .arg = &m };
	struct writer w[MAX_WRITERS];
	pthread_t wt[MAX_WRITERS], rt;
	struct reader rd;
	uint64_t produced = 0;
	int i, n = (int)tb_scaled(20000, 2000), left;

	if (tb_ncpus() < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_MARKER,
			     TRACEBUF_FDR_MODE_STREAM, 64 * KiB, 0, 0));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	/*
	 * The reader's file is open, but nothing reads it until the rings
	 * have dropped: each CPU gets at least 2 * 2000 markers of 12 bytes
	 * and more (about 100 on average) against a 64 KiB buffer, so loss
	 * comes from the sizes alone, on any machine.  A reader that only
	 * rested between reads (200 ms) kept up with the writers in the
	 * debug kernel on a loaded machine (CI, 2026-11-29: produced 16000,
	 * dropped 0) and there was no loss to count.
	 */
	ASSERT_EQ(0, reader_open(&rd, 1 << 20, 0));
	for (i = 0; i < MAX_WRITERS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].fd = self->fd;
		w[i].cpu = i % 2;
		w[i].n = n;
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, writer_fn, &w[i]));
	}
	/*
	 * Until the first drop, or until the writers are done (then the
	 * sizes above are wrong, and EXPECT_LT below says so); the harness's
	 * timeout bounds the wait.
	 */
	do {
		usleep(1000);
		ASSERT_EQ(0, stats_cpus(self->fd, &st, cs));
		for (i = 0, left = 0; i < MAX_WRITERS; i++)
			left += !atomic_load(&w[i].done);
	} while (!st.dropped && left);
	TH_LOG("the reader starts after %llu dropped, %d writers still writing",
	       (unsigned long long)st.dropped, left);
	ASSERT_EQ(0, reader_run(&rd, &rt));
	for (i = 0; i < MAX_WRITERS; i++) {
		pthread_join(wt[i], NULL);
		produced += w[i].written;
		EXPECT_EQ(n, w[i].written);
	}
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, reader_join(&rd, rt, 30, where, sizeof(where)))
		TH_LOG("the reader got no EOF after STOP: %s", where);
	ASSERT_EQ(0, rd.err);
	ASSERT_EQ(0, stats_cpus(self->fd, &st, cs));
	/*
	 * Two writers share a CPU and a make_marker() namespace: tell them
	 * apart by tid, and only count order per writer.
	 */
	for (i = 0; i < MAX_WRITERS; i++) {
		m.tid[i] = w[i].tid;
		m.cpu[i] = w[i].cpu;
	}
	ASSERT_LE(1, fs_scan_stream(rd.buf, rd.len, &sc)) TH_LOG("%s", sc.err);
	TH_LOG("produced %llu, in the stream %llu, written %llu, dropped %llu, reported lost %llu",
	       (unsigned long long)produced, (unsigned long long)sc.markers,
	       (unsigned long long)st.written, (unsigned long long)st.dropped,
	       (unsigned long long)sc.lost);
	EXPECT_EQ(produced, sc.markers + st.dropped);
	EXPECT_EQ(st.written, sc.markers);
	EXPECT_EQ(st.written, sc.events);
	EXPECT_LT(0ULL, st.dropped) TH_LOG("the reader kept up: no loss to count");
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(cs[i].written, sc.events_cpu[i]);
		EXPECT_GE(cs[i].dropped, sc.lost_cpu[i]);
	}
	EXPECT_EQ(0, m.wrong_cpu + m.wrong_tid + m.corrupt) TH_LOG("%s", m.first_err);
	fs_scan_free(&sc);
	reader_free(&rd);
}

/* Marker order with gaps allowed (losses), per writer. */
struct gap_check {
	pid_t tid[MAX_WRITERS];
	int last[MAX_WRITERS], backwards, seen;
};

static void gap_cb(const struct fs_rec *r, void *arg)
{
	struct gap_check *g = arg;
	int cpu, n, w;

	if (r->kind != FS_CUSTOM_REC || r->size < 10 || r->data[0] != 'C' ||
	    sscanf((const char *)r->data, "C%dN%6d:", &cpu, &n) != 2)
		return;
	for (w = 0; w < MAX_WRITERS; w++)
		if (g->tid[w] == r->blk->tid) {
			if (n <= g->last[w])
				g->backwards++;
			g->last[w] = n;
			g->seen++;
		}
}

/*
 * Every class and six syscall arguments, syscalls as fast as both CPUs
 * go, markers, a slow reader on a small buffer: the stream holds exactly
 * STATS.written events, per CPU, and the losses reported in it never
 * exceed STATS.dropped.  (1 MiB reads of 128 KiB buffers never end
 * inside a page: other read sizes are the tests above.)
 */
TEST_F_TIMEOUT(fs, heavy_tracing_counts_exact, 120)
{
	char where[1400];
	struct tracebuf_fdr_cpu_stats cs[FS_MAX_CPUS];
	struct tracebuf_fdr_stats st;
	struct gap_check g;
	struct fs_scan sc = { .cb = gap_cb, .arg = &g };
	struct writer w[2];
	pthread_t wt[2], rt;
	struct reader rd;
	struct load l;
	int i;

	ASSERT_EQ(0, fdr_cfg(self->fd, fdr_all(),
			     TRACEBUF_FDR_MODE_STREAM, 128 * KiB, 6, 0));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, reader_start(&rd, &rt, 1 << 20, 0));
	rd.pause_us = 20000;
	load_start(&l, 1, 1, NULL);
	memset(&g, 0, sizeof(g));
	for (i = 0; i < 2; i++) {
		g.last[i] = -1;
		memset(&w[i], 0, sizeof(w[i]));
		w[i].fd = self->fd;
		w[i].cpu = i % tb_ncpus();
		w[i].n = (int)tb_scaled(5000, 500);
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, writer_fn, &w[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(wt[i], NULL);
	load_stop_all(&l);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, reader_join(&rd, rt, 30, where, sizeof(where)))
		TH_LOG("the reader got no EOF after STOP: %s", where);
	ASSERT_EQ(0, rd.err);
	ASSERT_EQ(0, stats_cpus(self->fd, &st, cs));
	for (i = 0; i < 2; i++)
		g.tid[i] = w[i].tid;
	g.tid[2] = -1;
	g.tid[3] = -1;
	ASSERT_LE(1, fs_scan_stream(rd.buf, rd.len, &sc)) TH_LOG("%s", sc.err);
	TH_LOG("%zu bytes, %llu events, written %llu, dropped %llu, reported lost %llu",
	       rd.len, (unsigned long long)sc.events,
	       (unsigned long long)st.written, (unsigned long long)st.dropped,
	       (unsigned long long)sc.lost);
	EXPECT_EQ(st.written, sc.events);
	EXPECT_GE(st.dropped, sc.lost);
	for (i = 0; i < FS_MAX_CPUS; i++) {
		EXPECT_EQ(cs[i].written, sc.events_cpu[i]) TH_LOG("CPU %d", i);
		EXPECT_GE(cs[i].dropped, sc.lost_cpu[i]) TH_LOG("CPU %d", i);
	}
	EXPECT_EQ(0, g.backwards);
	fs_scan_free(&sc);
	reader_free(&rd);
}

/* ------------------------------------- start/stop/config/snapshot */

struct capture {
	uint64_t t0, t1;	/* TSC before START, after STOP */
	uint32_t mode;
	uint64_t written;
	uint64_t seen;		/* events all readers got from it */
	int drained;		/* the readers read it to EOF */
};

/* Which capture a block belongs to, by its first timestamp; -1: none. */
static int capture_of(const struct capture *c, int n, uint64_t t)
{
	int i;

	for (i = 0; i < n; i++)
		if (t >= c[i].t0 && t <= c[i].t1)
			return i;
	return -1;
}

/*
 * Check one reader's output: each piece between EOFs parses strictly
 * (a new header may start a new segment), each segment's blocks all come
 * from one capture, and each capture's events are added up.
 */
static int check_pieces(struct reader *r, struct capture *c, int ncap,
			char *err, size_t errlen)
{
	size_t start = 0;
	int p, bad = 0;

#define PIECE_ERR(...) do { \
	if (!bad++) \
		snprintf(err, errlen, __VA_ARGS__); \
} while (0)
	for (p = 0; p <= r->ncuts; start = p < r->ncuts ? r->cuts[p] : start, p++) {
		size_t end = p < r->ncuts ? r->cuts[p] : r->len;
		struct fs_scan sc = { 0 };
		int seg_cap[64], b;

		if (end == start)
			continue;
		if (fs_scan_stream(r->buf + start, end - start, &sc) < 0)
			PIECE_ERR("piece %d (bytes %zu..%zu): %s", p, start, end,
				  sc.err);
		for (b = 0; b < 64; b++)
			seg_cap[b] = -2;
		/* Blocks up to a parse error still count, by their time. */
		for (b = 0; b < (int)sc.nblk; b++) {
			const struct fs_block *k = &sc.blk[b];
			int ci = capture_of(c, ncap, k->t_first);
			int s = k->segment < 64 ? k->segment : 63;

			if (ci < 0) {
				PIECE_ERR("piece %d: block at %zu from no capture",
					  p, k->off);
				continue;
			}
			c[ci].seen += k->events;
			if (seg_cap[s] == -2)
				seg_cap[s] = ci;
			if (seg_cap[s] != ci)
				PIECE_ERR("piece %d: one segment holds blocks of captures %d and %d (block at %zu)",
					  p, seg_cap[s], ci, k->off);
		}
		fs_scan_free(&sc);
	}
#undef PIECE_ERR
	if (bad > 1)
		snprintf(err + strlen(err), errlen - strlen(err),
			 " (and %d more)", bad - 1);
	return bad ? -1 : 0;
}

/* A snapshot: one capture, strictly valid.  Reports its clock. */
static int check_snapshot(const uint8_t *buf, size_t len, uint64_t *hz,
			  char *err, size_t errlen)
{
	struct fs_scan sc = { 0 };
	int ret = -1;

	if (fs_scan_stream(buf, len, &sc) < 0)
		snprintf(err, errlen, "%s", sc.err);
	else if (sc.segments != 1)
		snprintf(err, errlen, "%d headers", sc.segments);
	else
		ret = 0;
	*hz = sc.hz;
	fs_scan_free(&sc);
	return ret;
}

#define NREADERS	3

TEST_F_TIMEOUT(fs, start_stop_config_snapshot_cycles, 300)
{
	static const size_t read_size[NREADERS] = { 1 << 20, 65537, 4093 };
	struct tracebuf_fdr_stats st;
	struct reader rd[NREADERS];
	pthread_t rt[NREADERS];
	struct capture *cap;
	char err[1400];
	int ncap = (int)tb_scaled(24, 6), i, k, snaps = 0;
	unsigned int rs = 7;
	struct load l;
	size_t len;
	uint8_t *buf;
	uint64_t hz = 0;

	cap = calloc(ncap, sizeof(*cap));
	ASSERT_NE(NULL, cap);
	/*
	 * Read sizes that end inside pages: a capture discarded while a
	 * reader is partway through one must still end its output with
	 * whole blocks (the rest of the page kept for it).
	 */
	for (i = 0; i < NREADERS; i++) {
		ASSERT_EQ(0, reader_start(&rd[i], &rt[i], read_size[i], 0));
		rd[i].segmented = 1;
	}
	load_start(&l, 1, 1, NULL);
	for (k = 0; k < ncap; k++) {
		struct capture *c = &cap[k];
		uint32_t size = (64 * KiB) << (rand_r(&rs) % 3);
		int eofs[NREADERS];

		/* Buffers of 64 to 256 KiB per CPU; a reachable wake-up. */
		c->mode = rand_r(&rs) % 2;
		ASSERT_EQ(0, fdr_cfg(self->fd, fdr_all(), c->mode, size,
				     rand_r(&rs) % 7,
				     rand_r(&rs) % 2 ? 0 : 1 + rand_r(&rs) % (size / 4)));
		c->t0 = tsc();
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
		usleep(20000 + rand_r(&rs) % 60000);
		if (c->mode == TRACEBUF_FDR_MODE_FLIGHT) {
			/* A snapshot while running, read by this file. */
			ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_SNAPSHOT));
			buf = fdr_read_all(self->fd, &len);
			ASSERT_NE(NULL, buf);
			err[0] = 0;
			EXPECT_EQ(0, check_snapshot(buf, len, &hz, err, sizeof(err)))
				TH_LOG("snapshot %d: %s", k, err);
			free(buf);
			snaps++;
		}
		for (i = 0; i < NREADERS; i++)
			eofs[i] = atomic_load(&rd[i].eofs);
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
		c->t1 = tsc();
		/*
		 * Every other cycle goes straight on to the next capture:
		 * a reader still blocked in the old one must not read the
		 * new one's blocks as the old one's (segments stay pure).
		 * The others wait until every reader drained to EOF, so
		 * that together they must have read everything.
		 */
		c->drained = k % 2 == 0;
		for (i = 0; c->drained && i < NREADERS; i++) {
			double t = tb_now();

			while (atomic_load(&rd[i].eofs) == eofs[i] &&
			       tb_now() - t < tb_bound(10))
				usleep(2000);
			EXPECT_NE(eofs[i], atomic_load(&rd[i].eofs)) {
				char where[1400];

				reader_where(&rd[i], where, sizeof(where));
				TH_LOG("capture %d: reader %d got no EOF after STOP: %s",
				       k, i, where);
			}
		}
		ASSERT_EQ(0, fdr_stats(self->fd, &st));
		c->written = st.written;
	}
	load_stop_all(&l);
	for (i = 0; i < NREADERS; i++) {
		atomic_store(&rd[i].stop, 1);
		/* A reader still blocked gets a signal-free nudge: EOF. */
		ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
		ASSERT_EQ(0, reader_join(&rd[i], rt[i], 30, err, sizeof(err)))
			TH_LOG("reader %d did not end: %s", i, err);
		ASSERT_EQ(0, rd[i].err) TH_LOG("reader %d: %s", i, strerror(rd[i].err));
	}
	if (hz == 1000000000ULL)
		SKIP(goto out, "the recorder uses local_clock(), not the TSC");
	for (i = 0; i < NREADERS; i++) {
		err[0] = 0;
		EXPECT_EQ(0, check_pieces(&rd[i], cap, ncap, err, sizeof(err))) {
			TH_LOG("reader %d: %s", i, err);
		}
	}
	/* Together the readers got each streaming capture whole. */
	for (k = 0; k < ncap; k++) {
		if (cap[k].mode != TRACEBUF_FDR_MODE_STREAM || !cap[k].drained)
			continue;
		EXPECT_EQ(cap[k].written, cap[k].seen) {
			TH_LOG("streaming capture %d: %llu events recorded, readers got %llu",
			       k, (unsigned long long)cap[k].written,
			       (unsigned long long)cap[k].seen);
		}
	}
	TH_LOG("%d captures, %d snapshots", ncap, snaps);
out:
	for (i = 0; i < NREADERS; i++)
		reader_free(&rd[i]);
	free(cap);
}

/* ------------------------------------------- wake-up at the limits */

struct poller {
	int fd;
	int ret;
	double secs;
};

static void *poll_fn(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	double t = tb_now();

	tb_unpin();
	p->ret = poll(&pfd, 1, (int)(tb_bound(3) * 1000));
	p->secs = tb_now() - t;
	return NULL;
}

struct timed_read {
	int fd;
	ssize_t ret;
	double secs;
	uint8_t buf[4096];
};

static void *timed_read_fn(void *arg)
{
	struct timed_read *b = arg;
	double t = tb_now();

	tb_unpin();
	b->ret = read(b->fd, b->buf, sizeof(b->buf));
	/* The header comes at once; the first data is what we wait for. */
	if (b->ret == 32)
		b->ret = read(b->fd, b->buf, sizeof(b->buf));
	b->secs = tb_now() - t;
	return NULL;
}

/*
 * A wake-up amount the ring may never reach (the whole buffer, or just
 * below) is refused; the largest one accepted (TRACEBUF_FDR_WAKEUP_MAX)
 * and the default must wake: once the ring is full, poll() must report
 * data and a blocked reader must wake, within 3 s.  Two captures per
 * amount, so that the reader cannot take the data from under poll().
 */
TEST_F_TIMEOUT(fs, wakeup_at_buffer_size_wakes, 120)
{
	const uint32_t size = 64 * KiB;
	const uint32_t refused[] = { size, size - 8,
				     TRACEBUF_FDR_WAKEUP_MAX(size) + 1 };
	const uint32_t wakeups[] = { TRACEBUF_FDR_WAKEUP_MAX(size), 0 };
	const double bound = tb_bound(3);
	unsigned int i;

	ASSERT_EQ(0, tb_pin(0));
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		EXPECT_EQ(-EINVAL, fdr_cfg(self->fd, TRACEBUF_FDR_MARKER,
					   TRACEBUF_FDR_MODE_STREAM, size, 0,
					   refused[i]));
	for (i = 0; i < sizeof(wakeups) / sizeof(wakeups[0]); i++) {
		struct timed_read b = { 0 };
		struct poller p = { 0 };
		pthread_t bt, pt;
		struct writer w = { .fd = self->fd, .cpu = 0,
				    .n = 3 * size / 100 };
		double t;

		/* poll() alone. */
		ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_MARKER,
				     TRACEBUF_FDR_MODE_STREAM, size, 0,
				     wakeups[i]));
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
		p.fd = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, p.fd);
		ASSERT_EQ(0, pthread_create(&pt, NULL, poll_fn, &p));
		usleep(100000);
		writer_fn(&w);		/* three buffers' worth: full */
		pthread_join(pt, NULL);
		ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
		close(p.fd);
		/* poll() re-checks once at its timeout: wake means sooner. */
		EXPECT_TRUE(p.ret == 1 && p.secs < bound - 0.5) {
			TH_LOG("wakeup %u: poll() = %d after %.2f s with a full ring",
			       wakeups[i], p.ret, p.secs);
		}

		/* A blocked read() alone. */
		ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_MARKER,
				     TRACEBUF_FDR_MODE_STREAM, size, 0,
				     wakeups[i]));
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
		b.fd = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, b.fd);
		ASSERT_EQ(0, pthread_create(&bt, NULL, timed_read_fn, &b));
		usleep(100000);
		w.written = 0;
		writer_fn(&w);
		for (t = tb_now(); !b.secs && tb_now() - t < bound;)
			usleep(10000);
		EXPECT_NE(0, b.secs) {
			TH_LOG("wakeup %u: a blocked read() did not return with a full ring",
			       wakeups[i]);
		}
		/* STOP releases it either way. */
		ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
		pthread_join(bt, NULL);
		close(b.fd);
	}
}

/* ------------------------------------------------------ rmmod */

struct prober {
	atomic_int stop;
	pthread_t th[2];
};

static void *probe_fire(void *arg)
{
	struct prober *p = arg;
	int fd = -1;

	while (!atomic_load(&p->stop)) {
		syscall(SYS_getppid);
		/*
		 * Forks and exits: more probes.  The child shares our file
		 * table, so it holds no reference of its own to a device
		 * file that would keep the module busy.
		 */
		if (rand() % 64 == 0) {
			pid_t c = syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0,
					  NULL, NULL, 0);

			if (c == 0)
				syscall(SYS_exit, 0);
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int delete_module_raw(unsigned int flags)
{
	return syscall(SYS_delete_module, "tracebuf", flags) ? -errno : 0;
}

TEST_F_TIMEOUT(fs, rmmod_busy_while_open_clean_after_close, 120)
{
	char where[1400];
	int round, rounds = (int)tb_scaled(6, 2), i;
	struct prober p = { 0 };

	/* The fixture's file would pin the module. */
	close(self->fd);
	self->fd = -1;
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&p.th[i], NULL, probe_fire, &p));
	for (round = 0; round < rounds; round++) {
		struct tracebuf_event ev = { TRACEBUF_EV_EXCEPTION, 2, 0, 0 };
		int fdr = open(TB_FDR_DEV, O_RDWR | O_CLOEXEC);
		int tb = open(TB_DEV, O_RDWR | O_CLOEXEC);
		struct tracebuf_sources src = { tb_src_all(), TRACEBUF_CPU_ALL };
		struct reader rd;
		pthread_t rt;
		int ret;

		ASSERT_LE(0, fdr);
		ASSERT_LE(0, tb);
		ASSERT_EQ(0, fdr_cfg(fdr, fdr_all(), round % 2, 128 * KiB,
				     round % 7, 0));
		ASSERT_EQ(0, ioctl(fdr, TRACEBUF_FDR_IOC_START));
		ASSERT_EQ(0, ioctl(tb, TRACEBUF_IOC_SET_SOURCES, &src));
		ASSERT_EQ(0, ioctl(tb, TRACEBUF_IOC_ENABLE));
		ASSERT_EQ((ssize_t)sizeof(ev), write(tb, &ev, sizeof(ev)));
		/* Each open file alone pins the module. */
		ret = delete_module_raw(O_NONBLOCK);
		EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("%d", ret);
		close(tb);
		ret = delete_module_raw(O_NONBLOCK);
		EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("%d", ret);
		/* So does a streaming reader blocked in read(). */
		if (round % 2) {
			ASSERT_EQ(0, reader_start(&rd, &rt, 1 << 20, 0));
			usleep(20000);
			close(fdr);
			fdr = -1;
			ret = delete_module_raw(O_NONBLOCK);
			EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("%d", ret);
			/* Another file stops it; the reader gets EOF. */
			fdr = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC);
			ASSERT_LE(0, fdr);
			ioctl(fdr, TRACEBUF_FDR_IOC_STOP);
			ASSERT_EQ(0, reader_join(&rd, rt, 30, where, sizeof(where)))
				TH_LOG("the reader got no EOF after STOP: %s", where);
			EXPECT_EQ(0, rd.err);
			reader_free(&rd);
		}
		ret = delete_module_raw(0);
		EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("%d", ret);
		/* The capture and feed keep running; the last close frees it. */
		close(fdr);
		ASSERT_EQ(0, delete_module_raw(O_NONBLOCK)) TH_LOG("right after the last close");
		ASSERT_EQ(0, tb_wait_nodes(0));
		ASSERT_EQ(0, tb_reload(""));
	}
	atomic_store(&p.stop, 1);
	for (i = 0; i < 2; i++)
		pthread_join(p.th[i], NULL);
	self->fd = fdr_open_stopped();
	ASSERT_LE(0, self->fd);
}

/* ------------------------------------------------------ hotplug */

/* Each marker of unpinned writers at most once, whichever CPU. */
#define DUP_MAX	200000

struct dup_check {
	pid_t tid[2];
	uint8_t *seen[2];
	int dups, count[2];
};

static void dup_cb(const struct fs_rec *r, void *arg)
{
	struct dup_check *d = arg;
	int cpu, n, w;

	if (r->kind != FS_CUSTOM_REC || r->size < 10 || r->data[0] != 'C' ||
	    sscanf((const char *)r->data, "C%dN%6d:", &cpu, &n) != 2 ||
	    n < 0 || n >= DUP_MAX)
		return;
	for (w = 0; w < 2; w++)
		if (d->tid[w] == r->blk->tid) {
			if (d->seen[w][n]++)
				d->dups++;
			else
				d->count[w]++;
		}
}

TEST_F_TIMEOUT(fs, cpu_hotplug_while_streaming, 180)
{
	char where[1400];
	struct tracebuf_fdr_stats st;
	struct dup_check d = { 0 };
	struct fs_scan sc = { .cb = dup_cb, .arg = &d };
	struct writer w[2];
	pthread_t wt[2], rt[2];
	struct reader rd[2];
	struct load l;
	uint64_t events = 0;
	int i, k, cycles = (int)tb_scaled(8, 2), n = (int)tb_scaled(4000, 400);

	if (!tb_cpu_hotpluggable(1) || tb_ncpus() < 2)
		SKIP(return, "CPU 1 cannot be hot-unplugged");
	ASSERT_EQ(0, fdr_cfg(self->fd, fdr_all(),
			     TRACEBUF_FDR_MODE_STREAM, 256 * KiB, 2, 8192));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, reader_start(&rd[0], &rt[0], 4096, 0));
	ASSERT_EQ(0, reader_start(&rd[1], &rt[1], 1 << 20, 0));
	load_start(&l, 0, 1, NULL);
	for (i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].fd = self->fd;
		w[i].cpu = -1;		/* unpinned: CPU 1 comes and goes */
		w[i].n = n;
		w[i].pace_us = 100;
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, writer_fn, &w[i]));
	}
	for (k = 0; k < cycles; k++) {
		ASSERT_EQ(0, tb_cpu_online(1, 0));
		usleep(30000);
		ASSERT_EQ(0, tb_cpu_online(1, 1));
		usleep(30000);
	}
	for (i = 0; i < 2; i++)
		pthread_join(wt[i], NULL);
	load_stop_all(&l);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, reader_join(&rd[i], rt[i], 30, where, sizeof(where)))
			TH_LOG("reader %d got no EOF after STOP: %s", i, where);
		ASSERT_EQ(0, rd[i].err);
		d.tid[i] = w[i].tid;
		d.seen[i] = calloc(DUP_MAX, 1);
		ASSERT_NE(NULL, d.seen[i]);
	}
	ASSERT_EQ(0, fdr_stats(self->fd, &st));
	/* Two readers shared the pages: each part is valid, the sum whole. */
	for (i = 0; i < 2; i++) {
		ASSERT_LE(0, fs_scan_stream(rd[i].buf, rd[i].len, &sc)) {
			TH_LOG("reader %d: %s", i, sc.err);
		}
		events += sc.events;
	}
	TH_LOG("%d offline/online cycles: %llu events read, written %llu, dropped %llu",
	       cycles, (unsigned long long)events, (unsigned long long)st.written,
	       (unsigned long long)st.dropped);
	EXPECT_EQ(st.written, events);
	EXPECT_EQ(0, d.dups);
	if (!st.dropped) {
		EXPECT_EQ(w[0].written, d.count[0]);
		EXPECT_EQ(w[1].written, d.count[1]);
	}
	fs_scan_free(&sc);
	for (i = 0; i < 2; i++) {
		free(d.seen[i]);
		reader_free(&rd[i]);
	}
}

TEST_F_TIMEOUT(fs, cpu_hotplug_while_snapshotting, 180)
{
	struct load l;
	int k, cycles = (int)tb_scaled(8, 2);
	size_t len;
	uint8_t *buf;

	if (!tb_cpu_hotpluggable(1) || tb_ncpus() < 2)
		SKIP(return, "CPU 1 cannot be hot-unplugged");
	ASSERT_EQ(0, fdr_cfg(self->fd, fdr_all(),
			     TRACEBUF_FDR_MODE_FLIGHT, 256 * KiB, 1, 0));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	load_start(&l, 0, 1, NULL);
	for (k = 0; k < 2 * cycles; k++) {
		struct fs_scan sc = { 0 };

		if (k % 2 == 0)
			ASSERT_EQ(0, tb_cpu_online(1, k % 4 != 0));
		syscall(SYS_getppid);
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_SNAPSHOT));
		buf = fdr_read_all(self->fd, &len);
		ASSERT_NE(NULL, buf);
		EXPECT_LE(0, fs_scan_stream(buf, len, &sc)) TH_LOG("%d: %s", k, sc.err);
		fs_scan_free(&sc);
		free(buf);
	}
	ASSERT_EQ(0, tb_cpu_online(1, 1));
	load_stop_all(&l);
}

/* ------------------------------------------------------ memory */

/* Make this process the OOM killer's first choice. */
static void oom_victim_first(void)
{
	tb_write_str("/proc/self/oom_score_adj", "1000\n");
}

/*
 * A process of @mb MiB of touched anonymous memory, until killed, and
 * the OOM killer's first choice.  Returns once it has touched it all
 * (or died trying).
 */
static pid_t hog(long mb)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		size_t len = (size_t)mb * MiB, i;
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		oom_victim_first();
		close(p[0]);
		if (m == MAP_FAILED)
			_exit(1);
		for (i = 0; i < len; i += 4096)
			m[i] = 1;
		if (write(p[1], "t", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1)
		pid = 0;	/* it died before touching everything */
	close(p[0]);
	return pid;
}

/* Still alive (not OOM-killed)?  Then kill and reap it. */
static int hog_survived(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, WNOHANG) == pid)
		return 0;
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 1;
}

/*
 * The largest buffer (64 MiB per CPU) fits a 1 GiB guest: it works, and
 * a snapshot of it reads as a valid stream.
 */
TEST_F_TIMEOUT(fs, largest_buffer_works, 120)
{
	long long oom0 = tb_vmstat("oom_kill");
	struct fs_scan sc = { 0 };
	size_t len;
	uint8_t *buf;
	int ret;

	ret = fdr_cfg(self->fd, fdr_all(), TRACEBUF_FDR_MODE_FLIGHT,
		      TRACEBUF_FDR_BUF_MAX, 6, 0);
	ASSERT_TRUE(ret == 0 || ret == -ENOMEM) TH_LOG("%s", strerror(-ret));
	if (ret)
		SKIP(return, "no room for 64 MiB per CPU here");
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	usleep(100000);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_STOP));
	buf = fdr_read_all(self->fd, &len);
	ASSERT_NE(NULL, buf) TH_LOG("%s", strerror(errno));
	EXPECT_LE(1, fs_scan_stream(buf, len, &sc)) TH_LOG("%s", sc.err);
	fs_scan_free(&sc);
	free(buf);
	EXPECT_EQ(oom0, tb_vmstat("oom_kill"));
	/* Give the memory back for the next tests. */
	ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_SYSCALL,
			     TRACEBUF_FDR_MODE_FLIGHT, 64 * KiB, 0, 0));
}

/*
 * Snapshots of the largest buffer from many files at once: each
 * SNAPSHOT works or fails with ENOMEM; the guest never OOM-kills (a
 * 64 MiB bystander process survives).  The snapshots are taken by a
 * child that, like the bystander, volunteers as the OOM killer's victim,
 * so that a failure here cannot take the test runner down.
 */
TEST_F_TIMEOUT(fs, many_snapshots_of_largest_buffer_no_oom, 180)
{
	long long oom0 = tb_vmstat("oom_kill");
	int res[3] = { 0 }, pfd[2], status;
	pid_t bystander, child;

	if (fdr_cfg(self->fd, fdr_all(), TRACEBUF_FDR_MODE_FLIGHT,
		    TRACEBUF_FDR_BUF_MAX, 0, 0))
		SKIP(return, "no room for 64 MiB per CPU here");
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	bystander = hog(64);
	ASSERT_LT(0, bystander);
	ASSERT_EQ(0, pipe(pfd));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		int fds[12], i;

		oom_victim_first();
		for (i = 0; i < 12; i++) {
			fds[i] = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC);
			if (fds[i] < 0)
				continue;
			if (!ioctl(fds[i], TRACEBUF_FDR_IOC_SNAPSHOT))
				res[0]++;
			else if (errno == ENOMEM)
				res[1]++;
			else
				res[2]++;
		}
		if (write(pfd[1], res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
	EXPECT_TRUE(WIFEXITED(status)) {
		TH_LOG("the snapshot taker was killed (signal %d)",
		       WTERMSIG(status));
	}
	if (read(pfd[0], res, sizeof(res)) == sizeof(res))
		TH_LOG("%d snapshots taken, %d ENOMEM, %d other errors",
		       res[0], res[1], res[2]);
	close(pfd[0]);
	EXPECT_EQ(0, res[2]);
	EXPECT_TRUE(hog_survived(bystander)) TH_LOG("the bystander was OOM-killed");
	EXPECT_EQ(oom0, tb_vmstat("oom_kill")) TH_LOG("the OOM killer ran");
	ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_SYSCALL,
			     TRACEBUF_FDR_MODE_FLIGHT, 64 * KiB, 0, 0));
}

/*
 * Configuring the largest buffer when the guest has less than that
 * available (a process holds the rest, leaving 32 MiB): ENOMEM (or
 * success), and nobody is OOM-killed for it.
 */
TEST_F_TIMEOUT(fs, config_under_memory_pressure_no_oom, 180)
{
	long long oom0, avail;
	pid_t h;
	int ret;

	ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_SYSCALL,
			     TRACEBUF_FDR_MODE_FLIGHT, 64 * KiB, 0, 0));
	avail = tb_meminfo_kb("MemAvailable");
	ASSERT_LT(256 * 1024, avail);
	h = hog(avail / 1024 - 32);
	ASSERT_LT(0, h) TH_LOG("could not set the memory aside");
	oom0 = tb_vmstat("oom_kill");
	avail = tb_meminfo_kb("MemAvailable");
	ret = fdr_cfg(self->fd, fdr_all(), TRACEBUF_FDR_MODE_FLIGHT,
		      TRACEBUF_FDR_BUF_MAX, 0, 0);
	TH_LOG("CONFIG of 64 MiB per CPU with %lld KiB available: %s",
	       avail, ret ? strerror(-ret) : "ok");
	EXPECT_TRUE(ret == 0 || ret == -ENOMEM);
	EXPECT_TRUE(hog_survived(h)) TH_LOG("the memory holder was OOM-killed");
	EXPECT_EQ(oom0, tb_vmstat("oom_kill")) TH_LOG("the OOM killer ran");
	ASSERT_EQ(0, fdr_cfg(self->fd, TRACEBUF_FDR_SYSCALL,
			     TRACEBUF_FDR_MODE_FLIGHT, 64 * KiB, 0, 0));
}

TEST_HARNESS_MAIN
