/* SPDX-License-Identifier: GPL-2.0 */
/*
 * After the fuzzer: do both devices still work exactly?  Used by tb_fuzz
 * (-c) and by fuzz_test.  Each check returns 0, or -1 with a message in
 * @err.  They run on the module as the fuzzer left it (not reloaded), so
 * the trace buffer must have the default 256 bytes (tb_fuzz's last round
 * loads it that way).
 *
 * The trace buffer: known injected sequences read back byte for byte,
 * with the expected bytes written out by hand as in tracebuf_test.c; the
 * counters and checkpoints they imply; a chained capture.  The recorder:
 * a flight-recorder and a streaming capture of a known workload are valid
 * FDR streams (fdr_check() of fdr_util.h and the strict parser), hold
 * exactly STATS.written events and every call and marker of the workload;
 * the flight capture is saved for llvm-xray on the host.
 */
#ifndef FUZZ_AFTER_H
#define FUZZ_AFTER_H

#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fdr_strict.h"
#include "fdr_util.h"
#include "tb_dev_util.h"
#include "tb_stress.h"

#define FA_FAIL(...) do { \
	snprintf(err, errlen, __VA_ARGS__); \
	goto out; \
} while (0)

static inline int fa_status_is(int fd, uint64_t bytes, uint64_t dropped,
			       uint32_t flags, char *err, size_t errlen)
{
	struct tracebuf_status st;

	if (tb_status(fd, &st))
		return snprintf(err, errlen, "STATUS: %s", strerror(errno)), -1;
	if (st.bytes_written != bytes || st.messages_dropped != dropped ||
	    st.flags != flags || st.buf_size != TB_SIZE ||
	    st.abi_version != TRACEBUF_ABI_VERSION)
		return snprintf(err, errlen,
				"status: %llu bytes, %llu dropped, flags %#x, size %u; want %llu, %llu, %#x, %u",
				(unsigned long long)st.bytes_written,
				(unsigned long long)st.messages_dropped,
				st.flags, st.buf_size,
				(unsigned long long)bytes,
				(unsigned long long)dropped, flags, TB_SIZE), -1;
	return 0;
}

static inline int after_xscale_exact(char *err, size_t errlen)
{
	/* From tracebuf_test.c's rollover_counting, bytes by hand. */
	const struct tracebuf_event ev[] = {
		EXC(TRACEBUF_VEC_SWI, 15),	/* 2f */
		EXC(TRACEBUF_VEC_SWI, 16),	/* ff 20 */
		EXC(TRACEBUF_VEC_SWI, 31),	/* ff 2f */
		EXC(TRACEBUF_VEC_SWI, 32),	/* ff ff 20 */
		BR(0x100, 15),			/* cf: first branch, checkpointed */
		BR(0x104, 16),			/* ff 80 */
		BR(0x108, 0),			/* 80 */
		IND(0x200, 47),			/* ff ff 00 00 02 00 9f */
	};
	const uint8_t tail[] = {
		0x2f, 0xff, 0x20, 0xff, 0x2f, 0xff, 0xff, 0x20,
		0xcf, 0xff, 0x80, 0x80,
		0xff, 0xff, 0x00, 0x00, 0x02, 0x00, 0x9f,
	};
	const uint32_t on = TRACEBUF_STATUS_ENABLED | TRACEBUF_STATUS_COUNTS;
	struct tracebuf_event irq = EXC(TRACEBUF_VEC_IRQ, 0), many[300];
	struct tracebuf_event huge = EXC(TRACEBUF_VEC_SWI, 0xffffffff);
	struct tracebuf_event seq[2 * 51 + 1];
	uint8_t got[TB_SIZE], exp[TB_SIZE], rec[TB_REC_SIZE];
	const struct tracebuf_record *hdr = (const void *)rec;
	struct tracebuf_chkpt ck;
	int fd, i, r, ret = -1;

	fd = tb_open_dev(O_RDWR);
	if (fd < 0)
		return snprintf(err, errlen, "open: %s", strerror(errno)), -1;
	if (tb_reset(fd, TRACEBUF_MODE_WRAP, 1))
		FA_FAIL("reset to wrap mode: %s", strerror(errno));
	if (tb_inject(fd, ev, 8))
		FA_FAIL("inject the known sequence: %s", strerror(errno));
	if (fa_status_is(fd, sizeof(tail), 0, on, err, errlen))
		goto out;
	if (ioctl(fd, TRACEBUF_IOC_GET_CHKPT, &ck) || ck.chkpt0 != 0x100 ||
	    ck.chkpt1 != 0)
		FA_FAIL("checkpoints %#x %#x, want 0x100 0", ck.chkpt0, ck.chkpt1);
	if (tb_read_buf(fd, got))
		FA_FAIL("read session of the known sequence");
	tb_expect_tail(exp, tail, sizeof(tail));
	if (tb_memdiff(got, exp, TB_SIZE) >= 0)
		FA_FAIL("known sequence: bytes differ (see above)");

	/* Fill-once: 256 IRQ exceptions kept, 44 dropped. */
	if (tb_reset(fd, TRACEBUF_MODE_FILL_ONCE, 1))
		FA_FAIL("reset to fill-once: %s", strerror(errno));
	for (i = 0; i < 300; i++)
		many[i] = irq;
	if (tb_inject(fd, many, 300))
		FA_FAIL("inject 300 IRQ exceptions");
	if (fa_status_is(fd, TB_SIZE, 44, on | TRACEBUF_STATUS_FULL, err, errlen))
		goto out;
	if (tb_read_buf(fd, got))
		FA_FAIL("read the full fill-once buffer");
	memset(exp, 0x60, TB_SIZE);
	if (tb_memdiff(got, exp, TB_SIZE) >= 0)
		FA_FAIL("fill-once: bytes differ (see above)");

	/* The largest count: 2^28 - 1 roll-overs, then SWI with count 15. */
	if (tb_reset(fd, TRACEBUF_MODE_WRAP, 1) || tb_inject(fd, &huge, 1))
		FA_FAIL("inject the largest count: %s", strerror(errno));
	if (fa_status_is(fd, 1ULL << 28, 0, on | TRACEBUF_STATUS_WRAPPED, err,
			 errlen))
		goto out;
	if (tb_read_buf(fd, got))
		FA_FAIL("read after the largest count");
	memset(exp, 0xff, TB_SIZE);
	exp[TB_SIZE - 1] = 0x2f;
	if (tb_memdiff(got, exp, TB_SIZE) >= 0)
		FA_FAIL("largest count: bytes differ (see above)");

	/* Chained: 51 indirect entries per buffer, targets counting up. */
	if (tb_reset(fd, TRACEBUF_MODE_FILL_ONCE, 0) || tb_set_chain(fd, 4) ||
	    ioctl(fd, TRACEBUF_IOC_ENABLE))
		FA_FAIL("arm a chain: %s", strerror(errno));
	for (i = 0; i < 2 * 51 + 1; i++)
		seq[i] = (struct tracebuf_event)IND(0x1000 + i, i % 16);
	if (tb_inject(fd, seq, 2 * 51 + 1))
		FA_FAIL("inject into the chain");
	for (r = 0; r < 2; r++) {
		if (read(fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec))
			FA_FAIL("chained read %d: %s", r, strerror(errno));
		if (hdr->magic != TRACEBUF_RECORD_MAGIC || hdr->seq != (uint64_t)r ||
		    hdr->lost_before || hdr->buf_size != TB_SIZE ||
		    hdr->chkpt0 != 0x1000 + 51 * r + 25 ||
		    hdr->chkpt1 != 0x1000 + 51 * r)
			FA_FAIL("chained record %d: bad header", r);
		memset(exp, 0, TB_SIZE);
		for (i = 0; i < 51; i++) {
			uint32_t t = 0x1000 + 51 * r + i;
			uint8_t *e = exp + 1 + 5 * i;

			e[0] = t >> 24;
			e[1] = t >> 16;
			e[2] = t >> 8;
			e[3] = t;
			e[4] = (i == 0 || i == 25 ? 0xd0 : 0x90) | (51 * r + i) % 16;
		}
		if (tb_memdiff(rec + sizeof(*hdr), exp, TB_SIZE) >= 0)
			FA_FAIL("chained record %d: bytes differ (see above)", r);
	}
	ret = 0;
out:
	tb_reset(fd, TRACEBUF_MODE_WRAP, 0);
	close(fd);
	return ret;
}

/* What the recorder checks look for in a capture of fa_workload(). */
struct fa_seen {
	pid_t tid, child;
	int cpu;
	int enters, exits, markers, marker_gaps, forks, exits_child;
	int wrong_cpu;
};

static void fa_cb(const struct fs_rec *r, void *arg)
{
	struct fa_seen *s = arg;
	int v;

	if (r->kind == FS_CUSTOM_REC && r->blk->tid == s->tid) {
		if (r->size != 16 || sscanf((const char *)r->data,
					    "after-fuzz %5d", &v) != 1)
			return;
		if (v != s->markers)
			s->marker_gaps++;
		s->markers++;
		return;
	}
	if (r->kind != FS_FUNC_REC)
		return;
	if (r->id == TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, SYS_getppid) &&
	    r->blk->tid == s->tid) {
		if (r->blk->cpu != s->cpu)
			s->wrong_cpu++;
		if (r->type == 1)
			s->exits++;
		else
			s->enters++;
	}
	if (r->id == TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_TASK, 0) && r->type == 3 &&
	    r->nargs == 1 && r->args[0] == (uint64_t)s->child)
		s->forks++;
	if (r->id == TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_TASK, 1) && r->type == 3 &&
	    r->nargs == 1 && r->args[0] == (uint64_t)s->child)
		s->exits_child++;
}

#define FA_CALLS	500
#define FA_MARKERS	100

/* Known work on CPU 0: getppid calls, markers, a child; returns its pid. */
static inline pid_t fa_workload(int fd)
{
	char m[17];
	pid_t child;
	int i;

	for (i = 0; i < FA_CALLS; i++) {
		syscall(SYS_getppid);
		if (i % 5 == 0) {
			snprintf(m, sizeof(m), "after-fuzz %5d", i / 5);
			if (write(fd, m, 16) != 16)
				return -1;
		}
		if (i % 100 == 99)
			usleep(2000);
	}
	child = fork();
	if (child == 0)
		_exit(0);
	if (child > 0)
		waitpid(child, NULL, 0);
	return child;
}

static inline int fa_check_capture(const uint8_t *buf, size_t len,
				   const struct tracebuf_fdr_stats *st,
				   struct fa_seen *s, char *err, size_t errlen)
{
	char e2[128];
	struct fs_scan sc = { .cb = fa_cb, .arg = s };
	int ret = -1;

	if (fdr_check(buf, len, NULL, NULL, e2, sizeof(e2)) < 1)
		return snprintf(err, errlen, "fdr_check: %s", e2), -1;
	if (fs_scan_stream(buf, len, &sc) < 1)
		FA_FAIL("strict parser: %s", sc.err);
	if (sc.segments != 1)
		FA_FAIL("%d headers in one capture", sc.segments);
	if (st->overwritten == 0 && sc.events != st->written)
		FA_FAIL("%llu events in the stream, STATS.written %llu",
			(unsigned long long)sc.events,
			(unsigned long long)st->written);
	if (s->enters != FA_CALLS || s->exits != FA_CALLS || s->wrong_cpu)
		FA_FAIL("getppid: %d enters, %d exits (want %d), %d on another CPU",
			s->enters, s->exits, FA_CALLS, s->wrong_cpu);
	if (s->markers != FA_MARKERS || s->marker_gaps)
		FA_FAIL("%d markers, %d out of order (want %d)", s->markers,
			s->marker_gaps, FA_MARKERS);
	if (s->forks != 1 || s->exits_child != 1)
		FA_FAIL("child %d: %d fork and %d exit records", s->child,
			s->forks, s->exits_child);
	ret = 0;
out:
	fs_scan_free(&sc);
	return ret;
}

static inline int fa_save(const char *path, const uint8_t *buf, size_t len)
{
	char dir[256], *slash;
	FILE *f;
	int ok;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) || !ok ? -1 : 0;
}

struct fa_reader {
	int fd;
	size_t chunk, len;
	uint8_t *buf;
	int err;
};

static void *fa_reader_fn(void *arg)
{
	struct fa_reader *a = arg;
	size_t cap = 1 << 20;
	ssize_t n;

	a->buf = malloc(cap);
	a->len = 0;
	for (;;) {
		if (cap - a->len < a->chunk) {
			cap = 2 * cap + a->chunk;
			a->buf = realloc(a->buf, cap);
		}
		if (!a->buf) {
			a->err = ENOMEM;
			break;
		}
		n = read(a->fd, a->buf + a->len, a->chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			a->err = n < 0 ? errno : 0;
			break;
		}
		a->len += n;
	}
	return NULL;
}

/*
 * A flight-recorder capture (saved to @save, if not NULL) and a streaming
 * capture of the known workload, both checked.
 */
static inline int after_fdr_valid(const char *save, char *err, size_t errlen)
{
	struct tracebuf_fdr_config c = {
		.classes = fdr_all(), .mode = TRACEBUF_FDR_MODE_FLIGHT,
		.buf_size = 1 << 20, .nr_args = 2,
	};
	struct tracebuf_fdr_stats st;
	struct fa_reader rd = { .fd = -1, .chunk = 4096 };
	struct fa_seen s;
	uint8_t *buf = NULL;
	pthread_t th;
	size_t len = 0;
	int fd, rfd = -1, ret = -1;

	fd = open(TB_FDR_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return snprintf(err, errlen, "open: %s", strerror(errno)), -1;
	tb_pin(0);
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP) ||
	    ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c) ||
	    ioctl(fd, TRACEBUF_FDR_IOC_START))
		FA_FAIL("flight capture: %s", strerror(errno));
	memset(&s, 0, sizeof(s));
	s.tid = gettid();
	s.child = fa_workload(fd);
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP) || fdr_stats(fd, &st))
		FA_FAIL("stop: %s", strerror(errno));
	rfd = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC);
	buf = rfd < 0 ? NULL : fdr_read_all(rfd, &len);
	if (!buf)
		FA_FAIL("read the flight capture: %s", strerror(errno));
	if (fa_check_capture(buf, len, &st, &s, err, errlen))
		goto out;
	if (save && fa_save(save, buf, len))
		FA_FAIL("save %s: %s", save, strerror(errno));
	free(buf);
	buf = NULL;
	close(rfd);
	rfd = -1;

	/* Streaming, read in pages by a thread while the workload runs. */
	c.mode = TRACEBUF_FDR_MODE_STREAM;
	c.buf_size = 256 << 10;
	c.wakeup = 4096;
	if (ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c) ||
	    ioctl(fd, TRACEBUF_FDR_IOC_START))
		FA_FAIL("streaming capture: %s", strerror(errno));
	rd.fd = open(TB_FDR_DEV, O_RDONLY | O_CLOEXEC);
	if (rd.fd < 0 || pthread_create(&th, NULL, fa_reader_fn, &rd))
		FA_FAIL("reader: %s", strerror(errno));
	memset(&s, 0, sizeof(s));
	s.tid = gettid();
	s.child = fa_workload(fd);
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP))
		FA_FAIL("stop: %s", strerror(errno));
	pthread_join(th, NULL);
	if (rd.err || !rd.buf)
		FA_FAIL("streaming read: %s", strerror(rd.err));
	if (fdr_stats(fd, &st))
		FA_FAIL("stats: %s", strerror(errno));
	if (st.dropped)
		FA_FAIL("streaming capture dropped %llu events",
			(unsigned long long)st.dropped);
	if (fa_check_capture(rd.buf, rd.len, &st, &s, err, errlen))
		goto out;
	ret = 0;
out:
	if (rd.fd >= 0)
		close(rd.fd);
	free(rd.buf);
	free(buf);
	if (rfd >= 0)
		close(rfd);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
	tb_unpin();
	return ret;
}

#endif /* FUZZ_AFTER_H */
