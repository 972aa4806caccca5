// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf message encoding, byte for byte: every message kind, the
 * roll-over rule, fill-once and wrap-around, leading zeros, checkpoints,
 * and what reading does.  Events are injected with write(); every expected
 * byte below is written out by hand from the XScale manual's encoding.
 */
#include <poll.h>

#include "tb_harness.h"
#include "tb_dev_util.h"

FIXTURE(tb)
{
	int fd;
	uint8_t got[TB_SIZE];
	uint8_t exp[TB_SIZE];
};

FIXTURE_SETUP(tb)
{
	self->fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 1));
}

FIXTURE_TEARDOWN(tb)
{
	ioctl(self->fd, TRACEBUF_IOC_DISABLE);
	close(self->fd);
}

static void get_chkpt(int fd, uint32_t *c0, uint32_t *c1)
{
	struct tracebuf_chkpt ck = { 0xdead, 0xbeef };

	ioctl(fd, TRACEBUF_IOC_GET_CHKPT, &ck);
	*c0 = ck.chkpt0;
	*c1 = ck.chkpt1;
}

TEST_F(tb, exception_messages)
{
	const struct tracebuf_event ev[] = {
		EXC(TRACEBUF_VEC_UNDEF, 0), EXC(TRACEBUF_VEC_SWI, 3),
		EXC(TRACEBUF_VEC_PABORT, 15), EXC(TRACEBUF_VEC_DABORT, 1),
		EXC(TRACEBUF_VEC_IRQ, 0), EXC(TRACEBUF_VEC_FIQ, 9),
	};
	const uint8_t tail[] = { 0x10, 0x23, 0x3f, 0x41, 0x60, 0x79 };
	struct tracebuf_status st;
	uint32_t c0, c1;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 6));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(6, st.bytes_written);
	EXPECT_EQ(0, st.messages_dropped);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	/* Exceptions are never checkpointed. */
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0, c0);
	EXPECT_EQ(0, c1);
}

TEST_F(tb, direct_branches)
{
	const struct tracebuf_event ev[] = {
		BR(0x8000, 2), BR(0x8010, 0), BR(0x8020, 15),
	};
	/* The first branch into an empty buffer is checkpointed: 1100. */
	const uint8_t tail[] = { 0xc2, 0x80, 0x8f };
	uint32_t c0, c1;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 3));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x8000, c0);
	EXPECT_EQ(0, c1);
}

TEST_F(tb, indirect_branches_msb_first)
{
	const struct tracebuf_event ev[] = {
		IND(0x12345678, 3), IND(0xaabbccdd, 0),
	};
	const uint8_t tail[] = {
		0x12, 0x34, 0x56, 0x78, 0xd3,
		0xaa, 0xbb, 0xcc, 0xdd, 0x90,
	};
	uint32_t c0, c1;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 2));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x12345678, c0);
	EXPECT_EQ(0, c1);
}

TEST_F(tb, rollover_counting)
{
	const struct tracebuf_event ev[] = {
		EXC(TRACEBUF_VEC_SWI, 15),	/* 2f: count 15, no roll-over */
		EXC(TRACEBUF_VEC_SWI, 16),	/* ff 20: 16th non-branch rolls */
		EXC(TRACEBUF_VEC_SWI, 31),	/* ff 2f */
		EXC(TRACEBUF_VEC_SWI, 32),	/* ff ff 20 */
		BR(0x100, 15),			/* cf: 16th insn is the branch */
		BR(0x104, 16),			/* ff 80 */
		BR(0x108, 0),			/* 80: back-to-back */
		IND(0x200, 47),			/* ff ff 00 00 02 00 9f */
	};
	const uint8_t tail[] = {
		0x2f, 0xff, 0x20, 0xff, 0x2f, 0xff, 0xff, 0x20,
		0xcf, 0xff, 0x80, 0x80,
		0xff, 0xff, 0x00, 0x00, 0x02, 0x00, 0x9f,
	};
	struct tracebuf_status st;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 8));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(sizeof(tail), st.bytes_written);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, huge_count_wraps_with_rollovers)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 16 * 1000 + 5) };
	struct tracebuf_status st;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(1001, st.bytes_written);
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_WRAPPED);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	memset(self->exp, 0xff, TB_SIZE);
	self->exp[TB_SIZE - 1] = 0x25;
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, huge_count_fill_once_drops)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 16 * 1000) };
	struct tracebuf_status st;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TB_SIZE, st.bytes_written);
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_FULL);
	/* 1000 roll-overs + 1 exception, 256 recorded. */
	EXPECT_EQ(745, st.messages_dropped);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	memset(self->exp, 0xff, TB_SIZE);
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

/* Exception i of a pattern: vector 1 + i % 3, count i % 16. */
static struct tracebuf_event pattern_ev(int i)
{
	struct tracebuf_event e = EXC(1 + i % 3, i % 16);

	return e;
}

static uint8_t pattern_byte(int i)
{
	return (uint8_t)((1 + i % 3) << 4 | i % 16);
}

TEST_F(tb, wrap_around_keeps_newest)
{
	struct tracebuf_event ev[300];
	struct tracebuf_status st;
	int i;

	for (i = 0; i < 300; i++)
		ev[i] = pattern_ev(i);
	ASSERT_EQ(0, tb_inject(self->fd, ev, 300));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(300, st.bytes_written);
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_WRAPPED);
	EXPECT_FALSE(st.flags & TRACEBUF_STATUS_FULL);
	EXPECT_EQ(0, st.messages_dropped);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	for (i = 0; i < TB_SIZE; i++)
		self->exp[i] = pattern_byte(300 - TB_SIZE + i);
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, wrap_exactly_full_is_not_wrapped)
{
	struct tracebuf_event ev[TB_SIZE];
	struct tracebuf_status st;
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	int i;

	for (i = 0; i < TB_SIZE - 1; i++)
		ev[i] = pattern_ev(i);
	ASSERT_EQ(0, tb_inject(self->fd, ev, TB_SIZE - 1));
	/* One byte short of a whole buffer: nothing for poll() yet. */
	EXPECT_EQ(0, poll(&p, 1, 0));
	ev[0] = pattern_ev(TB_SIZE - 1);
	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(1, poll(&p, 1, 0));
	EXPECT_TRUE(p.revents & POLLIN);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_FALSE(st.flags & TRACEBUF_STATUS_WRAPPED);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	for (i = 0; i < TB_SIZE; i++)
		self->exp[i] = pattern_byte(i);
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	EXPECT_NE(0, self->got[0]);	/* non-zero oldest byte: full */
}

TEST_F(tb, fill_once_exactly_full_then_drops)
{
	struct tracebuf_event ev[TB_SIZE + 2];
	struct tracebuf_status st;
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	int i;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
	for (i = 0; i < TB_SIZE + 2; i++)
		ev[i] = pattern_ev(i);
	ASSERT_EQ(0, tb_inject(self->fd, ev, TB_SIZE - 1));
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, tb_inject(self->fd, ev + TB_SIZE - 1, 3));
	ASSERT_EQ(1, poll(&p, 1, 0));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_FULL);
	EXPECT_FALSE(st.flags & TRACEBUF_STATUS_WRAPPED);
	EXPECT_EQ(TB_SIZE, st.bytes_written);
	EXPECT_EQ(2, st.messages_dropped);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	for (i = 0; i < TB_SIZE; i++)
		self->exp[i] = pattern_byte(i);
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	/* Reading re-arms: full is gone, the next event is recorded. */
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_FALSE(st.flags & TRACEBUF_STATUS_FULL);
	EXPECT_EQ(0, st.bytes_written);
}

TEST_F(tb, fill_once_indirect_not_split)
{
	struct tracebuf_event ev[TB_SIZE];
	struct tracebuf_status st;
	int i;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
	for (i = 0; i < 253; i++)
		ev[i] = (struct tracebuf_event)EXC(TRACEBUF_VEC_IRQ, i % 16);
	ev[253] = (struct tracebuf_event)IND(0x11223344, 5);
	ev[254] = (struct tracebuf_event)EXC(TRACEBUF_VEC_IRQ, 0);
	ASSERT_EQ(0, tb_inject(self->fd, ev, 255));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_FULL);
	EXPECT_EQ(253, st.bytes_written);
	/* The 5-byte entry is dropped whole; the buffer is full from then. */
	EXPECT_EQ(2, st.messages_dropped);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	/* Three never-written bytes read first, as leading zeros. */
	self->exp[0] = self->exp[1] = self->exp[2] = 0;
	for (i = 0; i < 253; i++)
		self->exp[3 + i] = 0x60 | (i % 16);
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, fill_once_indirect_fits_exactly)
{
	struct tracebuf_event ev[TB_SIZE];
	struct tracebuf_status st;
	uint32_t c0, c1;
	int i;

	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_FILL_ONCE, 1));
	for (i = 0; i < 251; i++)
		ev[i] = (struct tracebuf_event)EXC(TRACEBUF_VEC_UNDEF, 0);
	ev[251] = (struct tracebuf_event)IND(0x11223344, 5);
	ASSERT_EQ(0, tb_inject(self->fd, ev, 252));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_TRUE(st.flags & TRACEBUF_STATUS_FULL);
	EXPECT_EQ(TB_SIZE, st.bytes_written);
	EXPECT_EQ(0, st.messages_dropped);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	memset(self->exp, 0x10, TB_SIZE);
	self->exp[251] = 0x11;
	self->exp[252] = 0x22;
	self->exp[253] = 0x33;
	self->exp[254] = 0x44;
	self->exp[255] = 0xd5;	/* first branch: checkpointed */
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x11223344, c0);
}

/*
 * Checkpoint rule: the first branch in an empty buffer, and the first
 * branch after the write position enters the other half (index 128 or 0).
 */
TEST_F(tb, checkpoints_at_half_boundaries)
{
	struct tracebuf_event ev[TB_SIZE];
	uint32_t c0, c1;
	int n = 0, i;

	ev[n++] = (struct tracebuf_event)BR(0xa0, 0);		/* idx 0: c0 */
	for (i = 0; i < 126; i++)				/* idx 1..126 */
		ev[n++] = (struct tracebuf_event)EXC(TRACEBUF_VEC_UNDEF, 0);
	ev[n++] = (struct tracebuf_event)BR(0xb0, 1);		/* idx 127: 81 */
	ev[n++] = (struct tracebuf_event)BR(0xc0, 2);		/* idx 128: c2 */
	ev[n++] = (struct tracebuf_event)BR(0xd0, 3);		/* idx 129: 83 */
	for (i = 0; i < 122; i++)				/* idx 130..251 */
		ev[n++] = (struct tracebuf_event)EXC(TRACEBUF_VEC_UNDEF, 0);
	/* Target bytes at 252..255, message byte wraps to index 0: d4. */
	ev[n++] = (struct tracebuf_event)IND(0xe0e1e2e3, 4);
	ASSERT_EQ(0, tb_inject(self->fd, ev, n));

	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0xe0e1e2e3, c0);
	EXPECT_EQ(0xc0, c1);

	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	/* Read order starts at index 1: the c0 at index 0 was overwritten. */
	memset(self->exp, 0x10, TB_SIZE);
	self->exp[126] = 0x81;
	self->exp[127] = 0xc2;
	self->exp[128] = 0x83;
	self->exp[251] = 0xe0;
	self->exp[252] = 0xe1;
	self->exp[253] = 0xe2;
	self->exp[254] = 0xe3;
	self->exp[255] = 0xd4;
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, checkpoint_decided_at_message_byte)
{
	struct tracebuf_event ev[TB_SIZE];
	uint32_t c0, c1;
	int n = 0, i;

	ev[n++] = (struct tracebuf_event)BR(0x10, 0);		/* idx 0: c0 */
	for (i = 0; i < 124; i++)				/* idx 1..124 */
		ev[n++] = (struct tracebuf_event)EXC(TRACEBUF_VEC_UNDEF, 0);
	/* Target bytes 125..128 cross into the second half; message at 129. */
	ev[n++] = (struct tracebuf_event)IND(0x55667788, 1);
	ev[n++] = (struct tracebuf_event)BR(0x20, 0);		/* idx 130: 80 */
	ASSERT_EQ(0, tb_inject(self->fd, ev, n));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x55667788, c0);
	EXPECT_EQ(0x10, c1);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	/* 131 bytes written, 125 leading zeros. */
	memset(self->exp, 0, TB_SIZE);
	self->exp[125] = 0xc0;
	memset(self->exp + 126, 0x10, 124);
	self->exp[250] = 0x55;
	self->exp[251] = 0x66;
	self->exp[252] = 0x77;
	self->exp[253] = 0x88;
	self->exp[254] = 0xd1;
	self->exp[255] = 0x80;
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, indirect_ending_before_half_not_checkpointed)
{
	struct tracebuf_event ev[TB_SIZE];
	uint32_t c0, c1;
	int n = 0, i;

	ev[n++] = (struct tracebuf_event)BR(0x10, 0);		/* idx 0: c0 */
	for (i = 0; i < 122; i++)				/* idx 1..122 */
		ev[n++] = (struct tracebuf_event)EXC(TRACEBUF_VEC_UNDEF, 0);
	ev[n++] = (struct tracebuf_event)IND(0x01020304, 2);	/* 123..127: 92 */
	ev[n++] = (struct tracebuf_event)BR(0x30, 7);		/* idx 128: c7 */
	ASSERT_EQ(0, tb_inject(self->fd, ev, n));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x30, c0);
	EXPECT_EQ(0x10, c1);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	EXPECT_EQ(0x92, self->got[TB_SIZE - 2]);
	EXPECT_EQ(0xc7, self->got[TB_SIZE - 1]);
	EXPECT_EQ(0xc0, self->got[TB_SIZE - 129]);
}

TEST_F(tb, set_chkpt_then_checkpoint_shifts_it)
{
	struct tracebuf_chkpt ck = { 0x1111, 0x2222 };
	const struct tracebuf_event ev[] = { BR(0x3333, 0) };
	uint32_t c0, c1;

	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_SET_CHKPT, &ck));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x1111, c0);
	EXPECT_EQ(0x2222, c1);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	get_chkpt(self->fd, &c0, &c1);
	EXPECT_EQ(0x3333, c0);
	EXPECT_EQ(0x1111, c1);
}

TEST_F(tb, read_clears_and_empty_reads_zero)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 1) };
	struct tracebuf_status st;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	EXPECT_EQ(0x21, self->got[TB_SIZE - 1]);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.bytes_written);
	/* A blocking read of the empty buffer: 256 zeros, as the hardware. */
	memset(self->got, 0xaa, TB_SIZE);
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	memset(self->exp, 0, TB_SIZE);
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
}

TEST_F(tb, nonblocking_read_of_empty_buffer)
{
	int fd = tb_open_dev(O_RDONLY | O_NONBLOCK);
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 1) };

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, read(fd, self->got, TB_SIZE));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, tb_read_buf(fd, self->got));
	EXPECT_EQ(0x21, self->got[TB_SIZE - 1]);
	EXPECT_EQ(-1, read(fd, self->got, TB_SIZE));
	EXPECT_EQ(EAGAIN, errno);
	close(fd);
}

TEST_F(tb, byte_by_byte_session)
{
	const struct tracebuf_event ev[] = {
		EXC(TRACEBUF_VEC_SWI, 1), BR(0x40, 2), EXC(TRACEBUF_VEC_IRQ, 3),
	};
	const struct tracebuf_event late[] = { EXC(TRACEBUF_VEC_FIQ, 4) };
	const uint8_t tail[] = { 0x21, 0xc2, 0x63 };
	int i;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 3));
	for (i = 0; i < TB_SIZE; i++) {
		ASSERT_EQ(1, read(self->fd, self->got + i, 1));
		/* Events during a session go to the buffer, not the copy. */
		if (i == 10)
			ASSERT_EQ(0, tb_inject(self->fd, late, 1));
	}
	EXPECT_EQ(0, read(self->fd, self->got, 1));
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->got, self->exp, TB_SIZE));
	/* The next session has the late event only. */
	ASSERT_EQ(0, tb_read_buf(self->fd, self->got));
	EXPECT_EQ(0x74, self->got[TB_SIZE - 1]);
	EXPECT_EQ(0x00, self->got[TB_SIZE - 2]);
}

TEST_F(tb, large_read_returns_one_buffer)
{
	uint8_t big[3 * TB_SIZE];
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 1) };

	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	EXPECT_EQ(TB_SIZE, read(self->fd, big, sizeof(big)));
	EXPECT_EQ(0x21, big[TB_SIZE - 1]);
	EXPECT_EQ(0, read(self->fd, big, sizeof(big)));
	EXPECT_EQ(100, read(self->fd, big, 100));
	EXPECT_EQ(TB_SIZE - 100, read(self->fd, big, sizeof(big)));
	EXPECT_EQ(0, read(self->fd, big, sizeof(big)));
}

TEST_F(tb, mode_change_clears)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 1) };
	struct tracebuf_status st;
	uint32_t mode = 7;

	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_set_mode(self->fd, TRACEBUF_MODE_FILL_ONCE));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_MODE, &mode));
	EXPECT_EQ(TRACEBUF_MODE_FILL_ONCE, mode);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.bytes_written);
	EXPECT_EQ(TRACEBUF_MODE_FILL_ONCE, st.mode);
}

TEST_HARNESS_MAIN
