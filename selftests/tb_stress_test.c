// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf under stress, checked exactly:
 *
 *  - the largest counts (0xffffffff) at every buffer size the module can
 *    have, in wrap-around, fill-once and chained mode: bytes, counters
 *    and loss counts to the unit;
 *  - one write of 65536 such events: no CPU stuck (soft lockup watchdog
 *    at its shortest, 2 s);
 *  - chained fill-once capture at the highest rate two injectors and a
 *    reader reach: every entry read in its writer's order, and what was
 *    injected == entries read + 51 * chain_lost + what the last buffer
 *    holds; with the kernel feed on as well, every record decodes and
 *    seq, lost_before and chain_lost add up;
 *  - concurrent readers, writers and control on both CPUs, and CPU 1
 *    going offline and online under the feed: the device works exactly
 *    afterwards;
 *  - a chained read into a bad buffer loses no record uncounted.
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/klog.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "fuzz_after.h"

#define MAXC	0xffffffffU

FIXTURE(xs) {
	int fd;
};

FIXTURE_SETUP(xs)
{
	self->fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0));
}

FIXTURE_TEARDOWN(xs)
{
	struct tracebuf_status st;

	if (self->fd >= 0) {
		tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0);
		tb_status(self->fd, &st);
		close(self->fd);
	}
	tb_unpin();
	if (tb_cpu_hotpluggable(1))
		tb_cpu_online(1, 1);
	/* The next test expects the default 256 bytes. */
	if (self->fd < 0 || st.buf_size != TB_SIZE)
		tb_reload("");
}

static int reopen_with_size(int *fd, uint32_t size)
{
	char params[32];
	int ret;

	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	snprintf(params, sizeof(params), "tb_buf_size=%u", size);
	ret = tb_reload(size == TB_SIZE ? "" : params);
	if (ret)
		return ret;
	*fd = tb_open_dev(O_RDWR);
	return *fd < 0 ? -errno : 0;
}

static int status_eq(struct __test_metadata *_metadata, int fd,
		     uint64_t bytes, uint64_t dropped, uint32_t flags)
{
	struct tracebuf_status st;

	if (tb_status(fd, &st))
		return -1;
	EXPECT_EQ(bytes, st.bytes_written);
	EXPECT_EQ(dropped, st.messages_dropped);
	EXPECT_EQ(flags, st.flags);
	return 0;
}

/* One read session of the whole buffer; 0 if it is exactly @exp. */
static int read_session_is(int fd, const uint8_t *exp, uint32_t size)
{
	uint8_t *got = malloc(size + 1);
	int ret = -1;

	if (got && read(fd, got, size + 1) == (ssize_t)size &&
	    read(fd, got, 1) == 0)
		ret = tb_memdiff(got, exp, size) < 0 ? 0 : -1;
	free(got);
	return ret;
}

TEST_F_TIMEOUT(xs, max_counts_at_every_buffer_size, 240)
{
	const struct tracebuf_event ev[] = {
		EXC(TRACEBUF_VEC_SWI, MAXC), IND(0x12345678, MAXC),
	};
	const uint32_t on = TRACEBUF_STATUS_ENABLED | TRACEBUF_STATUS_COUNTS;
	struct tracebuf_chkpt ck;
	struct tracebuf_status st;
	uint32_t size;

	for (size = 256; size <= 65536; size *= 2) {
		uint32_t rec = sizeof(struct tracebuf_record) + size;
		uint32_t depth = (8U << 20) / rec, i;
		uint64_t nbuf = (1ULL << 28) / size;
		uint8_t *exp = malloc(size), *r = malloc(rec);

		ASSERT_NE(NULL, exp);
		ASSERT_NE(NULL, r);
		if (depth > TRACEBUF_CHAIN_MAX)
			depth = TRACEBUF_CHAIN_MAX;
		ASSERT_EQ(0, reopen_with_size(&self->fd, size));
		TH_LOG("buf_size %u", size);

		/* Wrap: 2^28 - 1 roll-overs each, the last 5 bytes kept. */
		ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 1));
		ASSERT_EQ(0, tb_inject(self->fd, ev, 2));
		ASSERT_EQ(0, status_eq(_metadata, self->fd, (1ULL << 29) + 4, 0,
				       on | TRACEBUF_STATUS_WRAPPED));
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_CHKPT, &ck));
		EXPECT_EQ(0x12345678U, ck.chkpt0);
		EXPECT_EQ(0U, ck.chkpt1);
		memset(exp, 0xff, size);
		memcpy(exp + size - 5, "\x12\x34\x56\x78\xdf", 5);
		EXPECT_EQ(0, read_session_is(self->fd, exp, size));

		/* Fill-once: full of roll-overs, everything else counted. */
		ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
		ASSERT_EQ(0, tb_inject(self->fd, ev, 2));
		ASSERT_EQ(0, status_eq(_metadata, self->fd, size,
				       (1ULL << 29) - size,
				       on | TRACEBUF_STATUS_FULL));
		memset(exp, 0xff, size);
		EXPECT_EQ(0, read_session_is(self->fd, exp, size));

		/* Chained: exactly 2^28 / size full buffers, depth saved. */
		ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
		ASSERT_EQ(0, tb_set_chain(self->fd, depth));
		ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
		ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
		ASSERT_EQ(0, tb_status(self->fd, &st));
		EXPECT_EQ(depth, st.chain_saved);
		EXPECT_EQ(nbuf - depth, st.chain_lost);
		EXPECT_EQ(depth, st.chain_queued);
		EXPECT_EQ(0, st.bytes_written);
		EXPECT_EQ(0, st.messages_dropped);
		for (i = 0; i < depth; i++) {
			const struct tracebuf_record *h = (const void *)r;

			ASSERT_EQ((ssize_t)rec, read(self->fd, r, rec));
			ASSERT_EQ(i, h->seq);
			ASSERT_EQ(0, h->lost_before);
			ASSERT_EQ(TRACEBUF_RECORD_FULL | TRACEBUF_RECORD_FILL |
				  TRACEBUF_RECORD_COUNTS, h->flags);
			ASSERT_EQ(-1, tb_memdiff(r + sizeof(*h), exp, size));
		}
		/* The next full buffer says how many were lost before it. */
		ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
		ASSERT_EQ((ssize_t)rec, read(self->fd, r, rec));
		EXPECT_EQ(nbuf, ((struct tracebuf_record *)r)->seq);
		EXPECT_EQ(nbuf - depth, ((struct tracebuf_record *)r)->lost_before);
		free(exp);
		free(r);
	}
	ASSERT_EQ(0, reopen_with_size(&self->fd, TB_SIZE));
}

/* "soft lockup" anywhere in the kernel log? */
static int kernel_log_has(const char *what)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf;
	int n, ret;

	if (len <= 0)
		return -1;
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	n = klogctl(3, buf, len);	/* SYSLOG_ACTION_READ_ALL */
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = 0;
	ret = strstr(buf, what) != NULL;
	free(buf);
	return ret;
}

/*
 * One write of 65536 events with the largest count into the largest
 * wrap-around buffer: 2^44 bytes of roll-overs.  Exact counters, the
 * right bytes, and no soft lockup with the watchdog at 2 s.
 */
TEST_F_TIMEOUT(xs, one_write_of_max_counts_no_lockup, 300)
{
	const size_t n = 65536;
	struct tracebuf_event *ev = calloc(n, sizeof(*ev));
	char thresh[16] = "10\n";
	uint8_t *exp = malloc(65536);
	double t;
	size_t i;
	FILE *f;

	ASSERT_NE(NULL, ev);
	ASSERT_NE(NULL, exp);
	ASSERT_EQ(0, kernel_log_has("soft lockup"))
		TH_LOG("a soft lockup before this test");
	f = fopen("/proc/sys/kernel/watchdog_thresh", "r");
	if (f) {
		if (!fgets(thresh, sizeof(thresh), f))
			snprintf(thresh, sizeof(thresh), "10\n");
		fclose(f);
	}
	ASSERT_EQ(0, reopen_with_size(&self->fd, 65536));
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 1));
	for (i = 0; i < n; i++)
		ev[i] = (struct tracebuf_event)EXC(TRACEBUF_VEC_SWI, MAXC);
	tb_write_str("/proc/sys/kernel/watchdog_thresh", "1\n");
	t = tb_now();
	ASSERT_EQ(0, tb_inject(self->fd, ev, n));
	t = tb_now() - t;
	/* Let the watchdog look once more before it gets its old time. */
	usleep(2500000);
	tb_write_str("/proc/sys/kernel/watchdog_thresh", thresh);
	TH_LOG("one write of %zu largest counts: %.2f s", n, t);
	EXPECT_EQ(0, status_eq(_metadata, self->fd, (uint64_t)n << 28, 0,
			       TRACEBUF_STATUS_ENABLED | TRACEBUF_STATUS_COUNTS |
			       TRACEBUF_STATUS_WRAPPED));
	memset(exp, 0xff, 65536);
	exp[65535] = 0x2f;
	EXPECT_EQ(0, read_session_is(self->fd, exp, 65536));
	EXPECT_EQ(0, kernel_log_has("soft lockup")) {
		TH_LOG("the write kept a CPU from scheduling for 2 s or more");
	}
	free(ev);
	free(exp);
	ASSERT_EQ(0, reopen_with_size(&self->fd, TB_SIZE));
}

/* ---------------------------------------------- chained, max rate */

#define PER_BUF		51	/* 5-byte entries in a 256-byte buffer */
#define WRITER_SHIFT	24

struct injector {
	int fd, cpu, batches;
	uint64_t injected;
	atomic_int *stop;
};

/* Writer w's entry s: target w << 24 | s, count s % 16 (no roll-over). */
static void *injector_fn(void *arg)
{
	struct injector *in = arg;
	struct tracebuf_event ev[PER_BUF];
	uint32_t s = 0;
	int b, i;

	if (in->cpu >= 0)
		tb_pin(in->cpu);
	for (b = 0; b < in->batches; b++) {
		for (i = 0; i < PER_BUF; i++, s++)
			ev[i] = (struct tracebuf_event)
				IND((uint32_t)(in->cpu + 1) << WRITER_SHIFT | s,
				    s % 16);
		if (tb_inject(in->fd, ev, PER_BUF)) {
			s -= PER_BUF;
			if (in->stop && atomic_load(in->stop))
				break;
			continue;
		}
		in->injected += PER_BUF;
	}
	return NULL;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

struct chain_reader {
	int fd;
	size_t per_read;	/* records per read() */
	uint8_t *recs;
	size_t nrec, cap;
	int err;
};

static void *chain_reader_fn(void *arg)
{
	struct chain_reader *c = arg;
	const size_t rs = TB_REC_SIZE;
	ssize_t n;

	for (;;) {
		if (c->cap - c->nrec < c->per_read) {
			c->cap = 2 * c->cap + 64;
			c->recs = realloc(c->recs, c->cap * rs);
			if (!c->recs) {
				c->err = ENOMEM;
				return NULL;
			}
		}
		n = read(c->fd, c->recs + c->nrec * rs, c->per_read * rs);
		if (n == 0)
			break;		/* disarmed */
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			c->err = errno;
			break;
		}
		if (n % rs) {
			c->err = EIO;
			break;
		}
		c->nrec += n / rs;
	}
	return NULL;
}

/*
 * Decode a 256-byte record backwards from its newest byte: 1-byte
 * messages (exceptions, direct branches, roll-overs) and 5-byte indirect
 * entries; only up to 4 leading zero bytes may remain.  Calls @cb for
 * each indirect entry, oldest last.  0 if it decodes.
 */
static int decode_record(const uint8_t *d, void (*cb)(uint32_t, uint8_t, void *),
			 void *arg)
{
	int i = TB_SIZE - 1;

	while (i >= 0) {
		uint8_t m = d[i];

		if (!m)
			break;
		if ((m & 0xb0) == 0x90) {	/* indirect, maybe checkpointed */
			if (i < 4)
				return -1;
			if (cb)
				cb(be32(d + i - 4), m, arg);
			i -= 5;
			continue;
		}
		if (m != 0xff && (m & 0xb0) != 0x80 &&
		    !((m >> 4) >= 1 && (m >> 4) <= 7 && (m >> 4) != 5))
			return -1;
		i--;
	}
	/* What is left: the never-written start, zeros, at most 4. */
	if (i >= 4)
		return -1;
	for (; i >= 0; i--)
		if (d[i])
			return -1;
	return 0;
}

struct order {
	int64_t oldest[3], newest[3];	/* per writer (1, 2) */
	int backwards, foreign, bad_count;
	uint64_t entries;
};

/* Entries arrive newest first: each writer's sequence must go down. */
static void order_cb(uint32_t target, uint8_t msg, void *arg)
{
	struct order *o = arg;
	uint32_t w = target >> WRITER_SHIFT, s = target & 0xffffff;

	if (w < 1 || w > 2) {
		o->foreign++;
		return;
	}
	if ((msg & 0x0f) != s % 16)
		o->bad_count++;
	if (o->newest[w] < 0)
		o->newest[w] = s;
	else if ((int64_t)s >= o->oldest[w])
		o->backwards++;
	o->oldest[w] = s;
	o->entries++;
}

#define ORDER_INIT { .oldest = { -1, -1, -1 }, .newest = { -1, -1, -1 } }

/*
 * Two injectors (one per CPU) at full speed into 256-byte fill-once
 * buffers chained 16 deep, one reader.  Every entry is 5 bytes, so every
 * full buffer holds exactly 51: entries injected == entries read +
 * 51 * chain_lost + entries in the last, partial buffer.
 */
TEST_F_TIMEOUT(xs, chain_two_injectors_exact, 180)
{
	struct injector in[2];
	struct chain_reader cr = { .per_read = 3 };
	uint8_t last[TB_REC_SIZE];
	struct tracebuf_status st;
	pthread_t it[2], rt;
	uint64_t injected = 0, seq_next = 0, lost_sum = 0, lost_since[3] = { 0 };
	int64_t prev[3] = { -1, -1, -1 };
	size_t r;
	int i;

	if (tb_ncpus() < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 16));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	cr.fd = tb_open_dev(O_RDONLY);
	ASSERT_LE(0, cr.fd);
	ASSERT_EQ(0, pthread_create(&rt, NULL, chain_reader_fn, &cr));
	for (i = 0; i < 2; i++) {
		memset(&in[i], 0, sizeof(in[i]));
		in[i].fd = self->fd;
		in[i].cpu = i;
		in[i].batches = (int)tb_scaled(600, 60);
		ASSERT_EQ(0, pthread_create(&it[i], NULL, injector_fn, &in[i]));
	}
	for (i = 0; i < 2; i++) {
		pthread_join(it[i], NULL);
		injected += in[i].injected;
	}
	/* Take the partial buffer, then let the reader drain and stop. */
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_snapshot(self->fd, last, 0));
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(0, tb_status(self->fd, &st));
		if (!st.chain_queued)
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, tb_set_chain(self->fd, 0));
	pthread_join(rt, NULL);
	ASSERT_EQ(0, cr.err) TH_LOG("%s", strerror(cr.err));
	TH_LOG("%llu entries injected, %zu records read, saved %llu, lost %llu, %llu bytes left",
	       (unsigned long long)injected, cr.nrec,
	       (unsigned long long)st.chain_saved,
	       (unsigned long long)st.chain_lost,
	       (unsigned long long)st.bytes_written);
	EXPECT_EQ(st.chain_saved, cr.nrec);
	EXPECT_EQ(0, st.messages_dropped);
	EXPECT_EQ(0, st.bytes_written % 5);
	EXPECT_EQ(injected, 51 * (cr.nrec + st.chain_lost) + st.bytes_written / 5);
	/*
	 * Oldest record first, entries in it newest first.  Each writer
	 * goes on where it stopped in the previous record it appears in,
	 * unless a buffer was lost in between.
	 */
	for (r = 0; r < cr.nrec; r++) {
		const uint8_t *rec = cr.recs + r * TB_REC_SIZE;
		const struct tracebuf_record *h = (const void *)rec;
		struct order ro = ORDER_INIT;

		ASSERT_EQ(TRACEBUF_RECORD_MAGIC, h->magic);
		ASSERT_EQ(seq_next + h->lost_before, h->seq) TH_LOG("record %zu", r);
		seq_next = h->seq + 1;
		lost_sum += h->lost_before;
		for (i = 1; i <= 2; i++)
			lost_since[i] += h->lost_before;
		ASSERT_EQ(0, decode_record(rec + sizeof(*h), order_cb, &ro))
			TH_LOG("record %zu does not decode", r);
		ASSERT_EQ(PER_BUF, ro.entries) TH_LOG("record %zu", r);
		ASSERT_EQ(0, ro.foreign + ro.bad_count + ro.backwards);
		for (i = 1; i <= 2; i++) {
			if (ro.newest[i] < 0)
				continue;
			if (lost_since[i]) {
				EXPECT_LT(prev[i], ro.oldest[i]);
			} else {
				EXPECT_EQ(prev[i] + 1, ro.oldest[i]) {
					TH_LOG("record %zu: writer %d resumes at %lld after %lld",
					       r, i, (long long)ro.oldest[i],
					       (long long)prev[i]);
				}
			}
			prev[i] = ro.newest[i];
			lost_since[i] = 0;
		}
	}
	EXPECT_LE(lost_sum, st.chain_lost);
	EXPECT_EQ(st.chain_saved + st.chain_lost, seq_next + (st.chain_lost - lost_sum));
	free(cr.recs);
	close(cr.fd);
}

static atomic_int spin_stop;

static void *syscall_spinner(void *arg)
{
	tb_pin((int)(intptr_t)arg);
	while (!atomic_load(&spin_stop))
		syscall(SYS_getppid);
	return NULL;
}

/*
 * The same with every kernel source feeding as well (syscalls spinning
 * on both CPUs): records hold messages of every kind; each decodes, the
 * injected entries keep their order, and seq/lost_before/chain_lost add
 * up exactly.
 */
TEST_F_TIMEOUT(xs, chain_with_feed_at_max_rate, 180)
{
	struct injector in[2];
	struct chain_reader cr = { .per_read = 1 };
	struct tracebuf_status st;
	pthread_t it[2], rt, sp[2];
	uint64_t seq_next = 0, lost_sum = 0;
	size_t r;
	int i;

	if (tb_ncpus() < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 8));
	ASSERT_EQ(0, tb_set_sources(self->fd, tb_src_all(), TRACEBUF_CPU_ALL));
	cr.fd = tb_open_dev(O_RDONLY);
	ASSERT_LE(0, cr.fd);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, pthread_create(&rt, NULL, chain_reader_fn, &cr));
	atomic_store(&spin_stop, 0);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&sp[i], NULL, syscall_spinner,
					    (void *)(intptr_t)i));
	for (i = 0; i < 2; i++) {
		memset(&in[i], 0, sizeof(in[i]));
		in[i].fd = self->fd;
		in[i].cpu = i;
		in[i].batches = (int)tb_scaled(300, 30);
		ASSERT_EQ(0, pthread_create(&it[i], NULL, injector_fn, &in[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(it[i], NULL);
	atomic_store(&spin_stop, 1);
	for (i = 0; i < 2; i++)
		pthread_join(sp[i], NULL);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_set_sources(self->fd, 0, 0));
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(0, tb_status(self->fd, &st));
		if (!st.chain_queued)
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, tb_set_chain(self->fd, 0));
	pthread_join(rt, NULL);
	ASSERT_EQ(0, cr.err);
	TH_LOG("%zu records read, saved %llu, lost %llu",
	       cr.nrec, (unsigned long long)st.chain_saved,
	       (unsigned long long)st.chain_lost);
	EXPECT_EQ(st.chain_saved, cr.nrec);
	for (r = 0; r < cr.nrec; r++) {
		const uint8_t *rec = cr.recs + r * TB_REC_SIZE;
		const struct tracebuf_record *h = (const void *)rec;
		struct order ro = ORDER_INIT;

		ASSERT_EQ(seq_next + h->lost_before, h->seq) TH_LOG("record %zu", r);
		seq_next = h->seq + 1;
		lost_sum += h->lost_before;
		ASSERT_EQ(0, decode_record(rec + sizeof(*h), order_cb, &ro))
			TH_LOG("record %zu does not decode", r);
		EXPECT_EQ(0, ro.bad_count + ro.backwards) TH_LOG("record %zu", r);
	}
	EXPECT_LE(lost_sum, st.chain_lost);
	EXPECT_EQ(st.chain_saved + st.chain_lost, seq_next + (st.chain_lost - lost_sum));
	free(cr.recs);
	close(cr.fd);
}

/* ------------------------------------------ concurrency, hotplug */

struct chaos_arg {
	int id;
	atomic_int *stop;
	unsigned long ops;
};

/* Sessions, snapshots, status, clears and injections, all at once. */
static void *tb_chaos(void *arg)
{
	struct chaos_arg *a = arg;
	unsigned int seed = 77 + a->id;
	uint8_t buf[TB_REC_SIZE * 2];
	struct tracebuf_status st;
	int fd = tb_open_dev(O_RDWR | (a->id & 1 ? O_NONBLOCK : 0));

	if (fd < 0)
		return NULL;
	while (!atomic_load(a->stop)) {
		struct tracebuf_event ev[8];
		int i, n = 1 + rand_r(&seed) % 8;

		for (i = 0; i < n; i++)
			ev[i] = (struct tracebuf_event)IND(rand_r(&seed),
				rand_r(&seed) % 4 ? rand_r(&seed) % 64 : MAXC);
		switch (rand_r(&seed) % 6) {
		case 0:
		case 1:
			write(fd, ev, n * sizeof(ev[0]));
			break;
		case 2:
			read(fd, buf, 1 + rand_r(&seed) % sizeof(buf));
			break;
		case 3:
			tb_snapshot(fd, buf, rand_r(&seed) % 2);
			break;
		case 4:
			tb_status(fd, &st);
			break;
		default:
			if (rand_r(&seed) % 8 == 0)
				ioctl(fd, TRACEBUF_IOC_CLEAR);
			break;
		}
		a->ops++;
	}
	close(fd);
	return NULL;
}

TEST_F_TIMEOUT(xs, concurrent_use_then_exact, 180)
{
	struct chaos_arg ca[4];
	atomic_int stop = 0;
	pthread_t th[4];
	char err[512] = "";
	int i, k, rounds = (int)tb_scaled(40, 8);

	ASSERT_EQ(0, tb_set_sources(self->fd, tb_src_all(), TRACEBUF_CPU_ALL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	for (i = 0; i < 4; i++) {
		ca[i] = (struct chaos_arg){ .id = i, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, tb_chaos, &ca[i]));
	}
	/* Modes and chains change under them. */
	for (k = 0; k < rounds; k++) {
		ioctl(self->fd, TRACEBUF_IOC_DISABLE);
		tb_set_chain(self->fd, 0);
		tb_set_mode(self->fd, k % 2);
		if (k % 4 == 1)
			tb_set_chain(self->fd, 1 + k % 5);
		ioctl(self->fd, TRACEBUF_IOC_ENABLE);
		usleep(20000);
	}
	atomic_store(&stop, 1);
	/* A chained reader may wait: disarming wakes it. */
	ioctl(self->fd, TRACEBUF_IOC_DISABLE);
	tb_set_chain(self->fd, 0);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	TH_LOG("%lu %lu %lu %lu operations", ca[0].ops, ca[1].ops, ca[2].ops,
	       ca[3].ops);
	ASSERT_EQ(0, after_xscale_exact(err, sizeof(err))) TH_LOG("%s", err);
}

static void *unpinned_injector(void *arg)
{
	struct injector *in = arg;
	struct tracebuf_event ev[16];
	int i;

	for (i = 0; i < 16; i++)
		ev[i] = (struct tracebuf_event)EXC(TRACEBUF_VEC_FIQ, i);
	while (!atomic_load(in->stop)) {
		write(in->fd, ev, sizeof(ev));
		syscall(SYS_getppid);
	}
	return NULL;
}

TEST_F_TIMEOUT(xs, cpu_hotplug_under_feed_then_exact, 180)
{
	atomic_int stop = 0;
	struct injector in[2];
	pthread_t th[2];
	char err[512] = "";
	uint8_t buf[TB_SIZE];
	int i, k, cycles = (int)tb_scaled(8, 2), swi = 0;

	if (!tb_cpu_hotpluggable(1) || tb_ncpus() < 2)
		SKIP(return, "CPU 1 cannot be hot-unplugged");
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 4));
	ASSERT_EQ(0, tb_set_sources(self->fd, tb_src_all(), TRACEBUF_CPU_ALL));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	for (i = 0; i < 2; i++) {
		in[i] = (struct injector){ .fd = self->fd, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, unpinned_injector, &in[i]));
	}
	for (k = 0; k < cycles; k++) {
		ASSERT_EQ(0, tb_cpu_online(1, 0));
		usleep(30000);
		ASSERT_EQ(0, tb_cpu_online(1, 1));
		usleep(30000);
		if (k == cycles / 2) {
			/* Half-way: the feed on CPU 1 only, then on all. */
			tb_set_sources(self->fd, TRACEBUF_SRC_SYSCALL, 1);
		}
	}
	atomic_store(&stop, 1);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	ASSERT_EQ(0, after_xscale_exact(err, sizeof(err))) TH_LOG("%s", err);
	/* CPU 1 feeds after all this. */
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0));
	ASSERT_EQ(0, tb_pin(1));
	ASSERT_EQ(0, tb_set_sources(self->fd, TRACEBUF_SRC_SYSCALL, 1));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_set_sources(self->fd, 0, 0));
	ASSERT_EQ(0, tb_read_buf(self->fd, buf));
	for (i = 0; i < TB_SIZE; i++)
		swi += buf[i] >> 4 == TRACEBUF_VEC_SWI;
	EXPECT_LE(100, swi);
}

/* --------------------------------------------- chained read, EFAULT */

static void *volatile bad_buf = (void *)8;

/*
 * A chained read whose buffer is not writable fails with EFAULT.  The
 * record it was about to return must not vanish uncounted: it is either
 * still queued (the next read returns it, seq 0) or counted in
 * chain_lost.
 */
TEST_F(xs, chain_read_efault_loses_nothing_uncounted)
{
	struct tracebuf_event ev[2 * PER_BUF + 1];
	uint8_t rec[TB_REC_SIZE];
	const struct tracebuf_record *h = (const void *)rec;
	struct tracebuf_status st;
	int i;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 4));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	for (i = 0; i < 2 * PER_BUF + 1; i++)
		ev[i] = (struct tracebuf_event)IND(0x100 + i, 0);
	ASSERT_EQ(0, tb_inject(self->fd, ev, 2 * PER_BUF + 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	ASSERT_EQ(2, st.chain_queued);
	EXPECT_EQ(-1, read(self->fd, bad_buf, TB_REC_SIZE));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	ASSERT_EQ((ssize_t)TB_REC_SIZE, read(self->fd, rec, TB_REC_SIZE));
	TH_LOG("after EFAULT: queued %u, lost %llu, next seq %llu",
	       st.chain_queued, (unsigned long long)st.chain_lost,
	       (unsigned long long)h->seq);
	EXPECT_TRUE(h->seq == 0 || st.chain_lost == 1) {
		TH_LOG("record 0 is gone and chain_lost does not count it");
	}
}

TEST_HARNESS_MAIN
