// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf ABI: status, every ioctl's error paths (EBUSY, EINVAL,
 * ENOTTY, EFAULT, E2BIG, ENOSPC), size-versioned structs, all-or-nothing
 * writes, snapshots, poll() wakeups and chained capture.
 */
#include <poll.h>
#include <pthread.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_dev_util.h"

FIXTURE(api)
{
	int fd;
	uint8_t rec[TB_REC_SIZE];
	uint8_t rec2[TB_REC_SIZE];
};

FIXTURE_SETUP(api)
{
	self->fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 1));
}

FIXTURE_TEARDOWN(api)
{
	tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0);
	close(self->fd);
}

TEST_F(api, status_fields)
{
	struct tracebuf_status st;

	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TRACEBUF_ABI_VERSION, st.abi_version);
	EXPECT_EQ(TRACEBUF_BACKEND_EMULATED, st.backend);
	EXPECT_EQ(TRACEBUF_MODE_WRAP, st.mode);
	EXPECT_EQ(TB_SIZE, st.buf_size);
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_ENABLED);
	/* Injected counts are exact. */
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_COUNTS);
	EXPECT_EQ(0, st.chain_depth);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_FALSE(st.flags & TRACEBUF_STATUS_ENABLED);
}

TEST_F(api, busy_while_enabled)
{
	struct tracebuf_chkpt ck = { 1, 2 };

	EXPECT_EQ(-1, tb_set_mode(self->fd, TRACEBUF_MODE_FILL_ONCE));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SET_CHKPT, &ck));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, tb_set_chain(self->fd, 4));
	EXPECT_EQ(EBUSY, errno);
	/* Status, chkpt get, clear and snapshot are fine while enabled. */
	EXPECT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_CHKPT, &ck));
	EXPECT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_CLEAR));
	EXPECT_EQ(0, tb_snapshot(self->fd, self->rec, 0));
}

TEST_F(api, bad_values)
{
	struct tracebuf_chain ch = { .depth = 1, .reserved = 1 };

	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	EXPECT_EQ(-1, tb_set_mode(self->fd, 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SET_CHAIN, &ch));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, tb_set_chain(self->fd, TRACEBUF_CHAIN_MAX + 1));
	EXPECT_EQ(EINVAL, errno);
	/* Chaining needs fill-once mode. */
	EXPECT_EQ(-1, tb_set_chain(self->fd, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, tb_set_sources(self->fd, 1U << 5, TRACEBUF_CPU_ALL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, tb_set_sources(self->fd, TRACEBUF_SRC_SYSCALL, 4096));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(api, unknown_ioctls)
{
	struct tracebuf_status st;

	EXPECT_EQ(-1, ioctl(self->fd, _IO(TRACEBUF_IOC_MAGIC, 0x3f)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOR('x', 0x01, struct tracebuf_status), &st));
	EXPECT_EQ(ENOTTY, errno);
	/* Right number, wrong direction. */
	EXPECT_EQ(-1, ioctl(self->fd, _IOW(TRACEBUF_IOC_MAGIC, 0x01, struct tracebuf_status), &st));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOR(TRACEBUF_IOC_MAGIC, 0x04, __u32), &st));
	EXPECT_EQ(ENOTTY, errno);
	/* FDR commands belong to the other device. */
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(ENOTTY, errno);
}

/* Not a constant, so the compiler does not object to the bad buffer. */
static volatile uintptr_t bad_addr = 8;

TEST_F(api, bad_pointers)
{
	struct tracebuf_snapshot_req req = { .buf = 8, .len = TB_REC_SIZE };

	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_STATUS, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_GET_CHKPT, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SET_SOURCES, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SNAPSHOT, &req));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, write(self->fd, (void *)bad_addr, sizeof(struct tracebuf_event)));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, read(self->fd, (void *)bad_addr, TB_SIZE));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(api, versioned_sizes)
{
	uint8_t big[sizeof(struct tracebuf_status) + 16];
	uint32_t small[2] = { 0xaaaaaaaa, 0xaaaaaaaa };
	struct { struct tracebuf_chkpt ck; uint32_t extra[2]; } in;
	struct tracebuf_chkpt ck;
	size_t i;

	/* A newer caller's bigger struct: the unknown tail reads as zero. */
	memset(big, 0xaa, sizeof(big));
	ASSERT_EQ(0, ioctl(self->fd, _IOC(_IOC_READ, TRACEBUF_IOC_MAGIC, 0x01, sizeof(big)), big));
	for (i = sizeof(struct tracebuf_status); i < sizeof(big); i++)
		EXPECT_EQ(0, big[i]);
	EXPECT_EQ(TRACEBUF_ABI_VERSION, ((struct tracebuf_status *)big)->abi_version);
	/* An older caller's smaller struct gets only what it asked for. */
	ASSERT_EQ(0, ioctl(self->fd, _IOC(_IOC_READ, TRACEBUF_IOC_MAGIC, 0x01, 4), small));
	EXPECT_EQ(TRACEBUF_ABI_VERSION, small[0]);
	EXPECT_EQ(0xaaaaaaaa, small[1]);

	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	/* Bigger input with zero tail: accepted. */
	memset(&in, 0, sizeof(in));
	in.ck.chkpt0 = 0x1234;
	ASSERT_EQ(0, ioctl(self->fd, _IOC(_IOC_WRITE, TRACEBUF_IOC_MAGIC, 0x07, sizeof(in)), &in));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_CHKPT, &ck));
	EXPECT_EQ(0x1234, ck.chkpt0);
	/* Non-zero unknown trailing bytes: E2BIG, nothing changed. */
	in.ck.chkpt0 = 0x5678;
	in.extra[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, _IOC(_IOC_WRITE, TRACEBUF_IOC_MAGIC, 0x07, sizeof(in)), &in));
	EXPECT_EQ(E2BIG, errno);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_CHKPT, &ck));
	EXPECT_EQ(0x1234, ck.chkpt0);
	/* Smaller than version 1 of an input struct: EINVAL. */
	EXPECT_EQ(-1, ioctl(self->fd, _IOC(_IOC_WRITE, TRACEBUF_IOC_MAGIC, 0x07, 4), &in));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(api, snapshot_record)
{
	const struct tracebuf_event ev[] = { BR(0x4000, 1), EXC(TRACEBUF_VEC_IRQ, 2) };
	struct tracebuf_record *hdr = (struct tracebuf_record *)self->rec;
	struct tracebuf_snapshot_req req = {
		.buf = (uintptr_t)self->rec, .len = TB_REC_SIZE - 1,
	};
	uint8_t *data = self->rec + sizeof(*hdr);
	struct tracebuf_status st;

	EXPECT_EQ(40, sizeof(struct tracebuf_record));
	ASSERT_EQ(0, tb_inject(self->fd, ev, 2));
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SNAPSHOT, &req));
	EXPECT_EQ(ENOSPC, errno);
	req.len = TB_REC_SIZE;
	req.flags = 2;
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SNAPSHOT, &req));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, tb_snapshot(self->fd, self->rec, 0));
	EXPECT_EQ(TRACEBUF_RECORD_MAGIC, hdr->magic);
	EXPECT_EQ(TRACEBUF_RECORD_VERSION, hdr->version);
	EXPECT_EQ(sizeof(*hdr), hdr->hdr_size);
	EXPECT_EQ(0x4000, hdr->chkpt0);
	EXPECT_EQ(0, hdr->chkpt1);
	EXPECT_EQ(TB_SIZE, hdr->buf_size);
	EXPECT_EQ(TRACEBUF_RECORD_COUNTS, hdr->flags);
	EXPECT_EQ(0, hdr->seq);
	EXPECT_EQ(0xc1, data[TB_SIZE - 2]);
	EXPECT_EQ(0x62, data[TB_SIZE - 1]);
	EXPECT_EQ(0, data[TB_SIZE - 3]);
	/* Without TRACEBUF_SNAP_CLEAR the buffer stays. */
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(2, st.bytes_written);
	ASSERT_EQ(0, tb_snapshot(self->fd, self->rec2, TRACEBUF_SNAP_CLEAR));
	EXPECT_EQ(-1, tb_memdiff(self->rec, self->rec2, TB_REC_SIZE));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.bytes_written);
}

TEST_F(api, malformed_write_changes_nothing)
{
	const struct tracebuf_event good[] = {
		IND(0xcafe0000, 3), EXC(TRACEBUF_VEC_SWI, 17), BR(0x10, 0),
	};
	const struct tracebuf_event bad[][2] = {
		{ EXC(TRACEBUF_VEC_SWI, 1), { 4, 0, 0, 0 } },		/* kind */
		{ EXC(TRACEBUF_VEC_SWI, 1), { 0, 0, 0, 0 } },		/* kind 0 */
		{ EXC(TRACEBUF_VEC_SWI, 1), EXC(TRACEBUF_VEC_RESET, 1) },
		{ EXC(TRACEBUF_VEC_SWI, 1), EXC(TRACEBUF_VEC_UNUSED, 1) },
		{ EXC(TRACEBUF_VEC_SWI, 1), EXC(8, 1) },
		{ EXC(TRACEBUF_VEC_SWI, 1), { TRACEBUF_EV_BRANCH, 0, 0, 1 } },
	};
	const size_t esz = sizeof(struct tracebuf_event);
	struct tracebuf_status st0, st;
	size_t i;

	ASSERT_EQ(0, tb_inject(self->fd, good, 3));
	ASSERT_EQ(0, tb_snapshot(self->fd, self->rec, 0));
	ASSERT_EQ(0, tb_status(self->fd, &st0));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-1, write(self->fd, bad[i], sizeof(bad[i]))) {
			TH_LOG("bad write %zu accepted", i);
		}
		EXPECT_EQ(EINVAL, errno);
	}
	/* Short and partial records. */
	EXPECT_EQ(-1, write(self->fd, good, esz - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(self->fd, good, esz + 8));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, write(self->fd, good, 0));

	ASSERT_EQ(0, tb_snapshot(self->fd, self->rec2, 0));
	EXPECT_EQ(-1, tb_memdiff(self->rec, self->rec2, TB_REC_SIZE));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(st0.bytes_written, st.bytes_written);
	EXPECT_EQ(st0.messages_dropped, st.messages_dropped);
}

TEST_F(api, write_while_disabled)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 1) };
	struct tracebuf_status st;

	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	EXPECT_EQ(-EBUSY, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.bytes_written);
}

TEST_F(api, clear_resets_counters)
{
	struct tracebuf_event ev[TB_SIZE + 3];
	struct tracebuf_status st;
	int i;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
	for (i = 0; i < TB_SIZE + 3; i++)
		ev[i] = (struct tracebuf_event)EXC(TRACEBUF_VEC_SWI, 0);
	ASSERT_EQ(0, tb_inject(self->fd, ev, TB_SIZE + 3));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(3, st.messages_dropped);
	/* Reading clears the buffer, not the drop count. */
	ASSERT_EQ(0, tb_read_buf(self->fd, self->rec));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(3, st.messages_dropped);
	EXPECT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_CLEAR));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.messages_dropped);
	EXPECT_EQ(0, st.bytes_written);
}

struct injector {
	int fd;
	int delay_ms;
	int n;
};

static void *inject_later(void *arg)
{
	struct injector *inj = arg;
	struct tracebuf_event ev = EXC(TRACEBUF_VEC_FIQ, 0);
	int i;

	usleep(inj->delay_ms * 1000);
	for (i = 0; i < inj->n; i++)
		if (write(inj->fd, &ev, sizeof(ev)) != sizeof(ev))
			break;
	return NULL;
}

TEST_F(api, poll_wakes_when_full)
{
	struct injector inj = { .fd = self->fd, .delay_ms = 200, .n = TB_SIZE };
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	pthread_t t;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, inject_later, &inj));
	EXPECT_EQ(1, poll(&p, 1, 10000));
	EXPECT_TRUE(p.revents & POLLIN);
	pthread_join(t, NULL);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->rec));
	EXPECT_EQ(0x70, self->rec[0]);
	EXPECT_EQ(0x70, self->rec[TB_SIZE - 1]);
}

TEST_F(api, poll_wakes_in_wrap_mode_after_a_buffer)
{
	struct injector inj = { .fd = self->fd, .delay_ms = 200, .n = TB_SIZE };
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	pthread_t t;

	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, inject_later, &inj));
	EXPECT_EQ(1, poll(&p, 1, 10000));
	pthread_join(t, NULL);
}

/*
 * Chained capture: indirect branches whose targets count up.  A 256-byte
 * buffer holds 51 of them (255 bytes); the 52nd does not fit, so every
 * record is one leading zero and 51 entries, and the 52nd opens the next
 * buffer.  Continuity: target n + 1 follows target n across records.
 */
#define PER_BUF 51

static void seq_events(struct tracebuf_event *ev, uint32_t first, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ev[i] = (struct tracebuf_event)IND(first + i, (first + i) % 16);
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* Check record @rec holds targets first..first+50; 0 or a failing index. */
static int check_seq_record(const uint8_t *rec, uint32_t first)
{
	const struct tracebuf_record *hdr = (const void *)rec;
	const uint8_t *d = rec + sizeof(*hdr);
	int i;

	if (hdr->magic != TRACEBUF_RECORD_MAGIC || hdr->buf_size != TB_SIZE ||
	    !(hdr->flags & TRACEBUF_RECORD_FULL) ||
	    !(hdr->flags & TRACEBUF_RECORD_FILL) || d[0] != 0)
		return 1000;
	for (i = 0; i < PER_BUF; i++) {
		const uint8_t *e = d + 1 + 5 * i;
		/*
		 * Checkpointed: entry 0 (empty buffer) and entry 25, whose
		 * bytes 125..129 cross index 128.
		 */
		uint8_t msg = (i == 0 || i == 25 ? 0xd0 : 0x90) | (first + i) % 16;

		if (be32_at(e) != first + i || e[4] != msg)
			return i + 1;
	}
	if (hdr->chkpt0 != first + 25 || hdr->chkpt1 != first)
		return 999;
	return 0;
}

TEST_F(api, chain_200_buffers_without_gap)
{
	const int nbuf = 200;
	int nev = nbuf * PER_BUF;
	struct tracebuf_event *ev = calloc(nev, sizeof(*ev));
	struct tracebuf_record *hdr = (struct tracebuf_record *)self->rec;
	struct tracebuf_status st;
	int i;

	ASSERT_NE(NULL, ev);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 256));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	seq_events(ev, 0, nev);
	ASSERT_EQ(0, tb_inject(self->fd, ev, nev));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_CHAINED);
	/*
	 * The 200th buffer holds its 51 entries (255 bytes) and is not full
	 * until a 52nd entry fails to fit.
	 */
	EXPECT_EQ(nbuf - 1, st.chain_saved);
	EXPECT_EQ(nbuf - 1, st.chain_queued);
	EXPECT_EQ(0, st.chain_lost);
	EXPECT_EQ(255, st.bytes_written);

	/* Records shorter than a whole record cannot be read. */
	EXPECT_EQ(-1, read(self->fd, self->rec, TB_REC_SIZE - 1));
	EXPECT_EQ(EINVAL, errno);
	for (i = 0; i < nbuf - 1; i++) {
		ASSERT_EQ(TB_REC_SIZE, read(self->fd, self->rec, TB_REC_SIZE));
		EXPECT_EQ(i, hdr->seq);
		EXPECT_EQ(0, hdr->lost_before);
		ASSERT_EQ(0, check_seq_record(self->rec, i * PER_BUF)) {
			TH_LOG("record %d", i);
		}
	}
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.chain_queued);
	free(ev);
}

TEST_F(api, chain_counts_lost_buffers)
{
	struct tracebuf_event ev[10 * PER_BUF + 1];
	struct tracebuf_record *hdr = (struct tracebuf_record *)self->rec;
	struct tracebuf_status st;
	int fd = tb_open_dev(O_RDONLY | O_NONBLOCK);
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 4));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	EXPECT_EQ(-1, read(fd, self->rec, TB_REC_SIZE));
	EXPECT_EQ(EAGAIN, errno);
	seq_events(ev, 0, 10 * PER_BUF + 1);	/* fills 10 buffers */
	ASSERT_EQ(0, tb_inject(self->fd, ev, 10 * PER_BUF + 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(4, st.chain_saved);
	EXPECT_EQ(6, st.chain_lost);
	EXPECT_EQ(4, st.chain_queued);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(TB_REC_SIZE, read(fd, self->rec, TB_REC_SIZE));
		EXPECT_EQ(i, hdr->seq);
		EXPECT_EQ(0, check_seq_record(self->rec, i * PER_BUF));
	}
	EXPECT_EQ(-1, read(fd, self->rec, TB_REC_SIZE));
	EXPECT_EQ(EAGAIN, errno);
	/* The next saved buffer says 6 were lost before it. */
	seq_events(ev, 10 * PER_BUF + 1, PER_BUF);
	ASSERT_EQ(0, tb_inject(self->fd, ev, PER_BUF));
	ASSERT_EQ(TB_REC_SIZE, read(fd, self->rec, TB_REC_SIZE));
	EXPECT_EQ(10, hdr->seq);
	EXPECT_EQ(6, hdr->lost_before);
	EXPECT_EQ(0, check_seq_record(self->rec, 10 * PER_BUF));
	close(fd);
}

TEST_F(api, chain_huge_rollovers_bounded)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 0xfffffff0) };
	struct tracebuf_status st;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 2));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	/*
	 * 0x0fffffff roll-overs and the exception: 2^28 bytes, exactly
	 * 1048576 full buffers; two fit the queue.
	 */
	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(2, st.chain_saved);
	EXPECT_EQ(1048576 - 2, st.chain_lost);
	EXPECT_EQ(0, st.bytes_written);
}

static void *disarm_later(void *arg)
{
	int fd = *(int *)arg;
	struct tracebuf_chain ch = { 0 };

	usleep(200 * 1000);
	ioctl(fd, TRACEBUF_IOC_DISABLE);
	ioctl(fd, TRACEBUF_IOC_SET_CHAIN, &ch);
	return NULL;
}

TEST_F(api, chain_blocked_reader_sees_eof_on_disarm)
{
	pthread_t t;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 2));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, pthread_create(&t, NULL, disarm_later, &self->fd));
	EXPECT_EQ(0, read(self->fd, self->rec, TB_REC_SIZE));
	pthread_join(t, NULL);
}

TEST_F(api, chain_reader_thread_keeps_up)
{
	const int nbuf = 300;
	struct tracebuf_event *ev = calloc(nbuf * PER_BUF, sizeof(*ev));
	struct tracebuf_record *hdr = (struct tracebuf_record *)self->rec;
	int rfd = tb_open_dev(O_RDONLY);
	struct tracebuf_status st;
	int i, status, nread = 0;
	pid_t pid;

	ASSERT_NE(NULL, ev);
	ASSERT_LE(0, rfd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 0));
	ASSERT_EQ(0, tb_set_chain(self->fd, 8));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Writer: one buffer per write, so the reader can keep up. */
		for (i = 0; i < nbuf; i++) {
			seq_events(ev, i * PER_BUF, PER_BUF);
			if (tb_inject(self->fd, ev, PER_BUF))
				_exit(1);
			if (i % 4 == 3)
				usleep(1000);
		}
		_exit(0);
	}
	i = 0;
	/*
	 * Every record read is whole and in order; lost ones show as gaps
	 * in seq that lost_before accounts for.  Stop when nothing more
	 * arrives for 2 s (the writer is done).
	 */
	for (;;) {
		struct pollfd p = { .fd = rfd, .events = POLLIN };

		if (poll(&p, 1, 2000) != 1)
			break;
		ASSERT_EQ(TB_REC_SIZE, read(rfd, self->rec, TB_REC_SIZE));
		ASSERT_LE(i, hdr->seq);
		EXPECT_EQ(hdr->seq - i, hdr->lost_before);
		EXPECT_EQ(0, check_seq_record(self->rec, hdr->seq * PER_BUF));
		i = hdr->seq + 1;
		nread++;
	}
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(nbuf - 1, st.chain_saved + st.chain_lost);
	EXPECT_EQ(nread, st.chain_saved);
	TH_LOG("%d records read, %llu lost", nread, (unsigned long long)st.chain_lost);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	close(rfd);
	free(ev);
}

/*
 * Hostile arguments: every command number of our type with every
 * direction, odd sizes, NULL, unmapped, and valid buffers of random
 * bytes; random writes.  Only errors or success are acceptable; the
 * kernel log check of the VM runner catches anything worse.
 */
TEST_F(api, hostile_ioctls_and_writes)
{
	static const unsigned int sizes[] = { 0, 1, 4, 7, 8, 16, 24, 64, 65, 4096 };
	static uint8_t junk[8192];
	const unsigned int dirs[] = { _IOC_NONE, _IOC_READ, _IOC_WRITE,
				      _IOC_READ | _IOC_WRITE };
	unsigned int nr, d, sz, a, i;
	struct tracebuf_status st;

	srand(1234);
	for (nr = 0; nr < 0x48; nr++)
		for (d = 0; d < 4; d++)
			for (sz = 0; sz < sizeof(sizes) / sizeof(sizes[0]); sz++)
				for (a = 0; a < 3; a++) {
					unsigned long cmd = _IOC(dirs[d], TRACEBUF_IOC_MAGIC,
								 nr, sizes[sz]);
					void *arg = a == 0 ? NULL :
						    a == 1 ? (void *)bad_addr : junk;

					for (i = 0; i < sizeof(junk); i++)
						junk[i] = rand() & 0xff;
					/* Keep it from sleeping in a chained read. */
					if (nr == _IOC_NR(TRACEBUF_IOC_SET_CHAIN) && a == 2)
						junk[0] = 0;
					ioctl(self->fd, cmd, arg);
				}
	for (i = 0; i < 200; i++) {
		size_t len = rand() % 200;

		for (a = 0; a < len; a++)
			junk[a] = rand() % 4 == 0 ? rand() & 0xff : 0;
		if (write(self->fd, junk, len) < 0)
			EXPECT_TRUE(errno == EINVAL || errno == EBUSY);
	}
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.bytes_written);
}

TEST_HARNESS_MAIN
