// SPDX-License-Identifier: GPL-2.0
/*
 * XScale decoder and trace buffer input detection.  Buffers are built by a
 * small model of the hardware (a ring written oldest to newest, read out
 * from the write position), so expected messages come from what was
 * written, not from the decoder.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "format/xs.h"
#include "format/xs_record.h"
#include "util/bytes.h"

struct entry {
	uint64_t pos;		/* stream position of the first byte */
	unsigned int len;
	struct tb_xs_msg m;
};

struct sim {
	size_t size;
	uint8_t *ring;
	uint64_t written;
	struct entry *e;
	size_t n;
};

static void sim_init(struct sim *s, size_t size, size_t max)
{
	s->size = size;
	s->ring = calloc(1, size);
	s->e = calloc(max, sizeof(*s->e));
	s->written = 0;
	s->n = 0;
}

static void sim_free(struct sim *s)
{
	free(s->ring);
	free(s->e);
}

static void sim_put(struct sim *s, uint8_t raw, uint32_t target)
{
	struct entry *e = &s->e[s->n++];
	uint8_t b[5];
	unsigned int i;

	memset(e, 0, sizeof(*e));
	e->m.raw = raw;
	e->m.target = target;
	e->m.kind = (raw >> 4 == 9 || raw >> 4 == 0xd) ? TB_XS_INDIRECT :
		    TB_XS_BRANCH;
	e->len = (unsigned int)tb_xs_encode(&e->m, b);
	e->pos = s->written;
	for (i = 0; i < e->len; i++)
		s->ring[(s->written++) % s->size] = b[i];
}

/* Read out oldest first, as TBREG reads do. */
static void sim_read(const struct sim *s, uint8_t *out)
{
	size_t wp = s->written % s->size, i;

	for (i = 0; i < s->size; i++)
		out[i] = s->ring[(wp + i) % s->size];
}

static uint8_t random_msg(unsigned int *seed, uint32_t *target)
{
	static const uint8_t vec[] = { 1, 2, 3, 4, 6, 7 };
	unsigned int r = rand_r(seed);
	uint8_t c = r & 15;

	*target = (uint32_t)rand_r(seed) * 2654435761U;
	switch ((r >> 4) % 5) {
	case 0:
		return (uint8_t)(vec[(r >> 8) % 6] << 4 | c);
	case 1:
		return 0x80 | c;
	case 2:
		return 0x90 | c;
	case 3:
		return 0xff;
	}
	return (r >> 8) & 1 ? 0x90 | c : 0x80 | c;
}

static int decode(const uint8_t *buf, size_t size, struct tb_xs_msg **msgs,
		  struct tb_xs_result *res, const struct tb_xs_chkpt_regs *r)
{
	*msgs = calloc(size, sizeof(**msgs));
	return tb_xs_decode(buf, size, r, *msgs, res);
}

TEST(unwrapped_stream)
{
	uint8_t buf[256];
	struct tb_xs_msg *m;
	struct tb_xs_result res;
	struct sim s;

	sim_init(&s, 256, 16);
	sim_put(&s, 0x63, 0);		/* IRQ, 3 instructions */
	sim_put(&s, 0x80, 0);		/* branch, back to back */
	sim_put(&s, 0x92, 0x12345678);	/* indirect */
	sim_put(&s, 0xff, 0);		/* roll-over */
	sim_put(&s, 0x8f, 0);
	sim_read(&s, buf);
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
	ASSERT_EQ(5, res.nr);
	EXPECT_FALSE(res.wrapped);
	EXPECT_EQ(256 - 9, res.zeros);
	EXPECT_EQ(0, res.warn_mask);
	EXPECT_EQ(TB_XS_EXCEPTION, m[0].kind);
	EXPECT_EQ(6, m[0].vector);
	EXPECT_EQ(3, m[0].count);
	EXPECT_EQ(247, m[0].offset);
	EXPECT_EQ(TB_XS_BRANCH, m[1].kind);
	EXPECT_EQ(0, m[1].count);
	EXPECT_EQ(TB_XS_INDIRECT, m[2].kind);
	EXPECT_EQ(0x12345678, m[2].target);
	EXPECT_TRUE(m[2].target_known);
	EXPECT_EQ(2, m[2].count);
	EXPECT_EQ(253, m[2].offset);
	EXPECT_EQ(TB_XS_ROLLOVER, m[3].kind);
	EXPECT_EQ(16, m[3].count);
	EXPECT_EQ(15, m[4].count);
	EXPECT_EQ(255, m[4].offset);
	free(m);
	sim_free(&s);
}

TEST(empty_buffer)
{
	uint8_t buf[256] = { 0 };
	struct tb_xs_msg *m;
	struct tb_xs_result res;

	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
	EXPECT_EQ(0, res.nr);
	EXPECT_FALSE(res.wrapped);
	EXPECT_EQ(256, res.zeros);
	free(m);
}

/* <= 4 zeros before an indirect message: they are its address bytes. */
TEST(four_zeros_are_address_bytes)
{
	uint8_t buf[256];
	struct tb_xs_msg *m;
	struct tb_xs_result res;

	memset(buf, 0x81, sizeof(buf));
	memset(buf, 0, 4);
	buf[4] = 0x95;
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
	EXPECT_TRUE(res.wrapped);
	EXPECT_EQ(0, res.fragment);
	EXPECT_EQ(0, res.start);
	ASSERT_EQ(252, res.nr);
	EXPECT_EQ(TB_XS_INDIRECT, m[0].kind);
	EXPECT_EQ(0, m[0].target);
	EXPECT_EQ(5, m[0].count);
	free(m);
}

/* Fewer than 4 bytes before the oldest indirect message: a fragment. */
TEST(partial_entry_dropped)
{
	uint8_t buf[256];
	struct tb_xs_msg *m;
	struct tb_xs_result res;

	memset(buf, 0x81, sizeof(buf));
	buf[0] = 0x12;
	buf[1] = 0x34;
	buf[2] = 0x9a;
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
	EXPECT_TRUE(res.wrapped);
	EXPECT_EQ(3, res.fragment);
	EXPECT_EQ(3, res.start);
	EXPECT_EQ(253, res.nr);
	EXPECT_EQ(3, m[0].offset);
	free(m);
}

/* Five zeros: not wrapped, even before an indirect message. */
TEST(five_zeros_not_wrapped)
{
	uint8_t buf[256];
	struct tb_xs_msg *m;
	struct tb_xs_result res;

	memset(buf, 0x82, sizeof(buf));
	memset(buf, 0, 5);
	buf[9] = 0x93;		/* bytes 5..8 are its target */
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
	EXPECT_FALSE(res.wrapped);
	EXPECT_EQ(5, res.zeros);
	ASSERT_EQ(247, res.nr);
	EXPECT_EQ(TB_XS_INDIRECT, m[0].kind);
	EXPECT_EQ(0x82828282, m[0].target);
	free(m);
}

TEST(reserved_and_bad_vectors_reported)
{
	uint8_t buf[256] = { 0 };
	static const uint8_t r[] = { 0xa3, 0xb0, 0xe1, 0xf3 };
	struct tb_xs_msg *m;
	struct tb_xs_result res;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		memset(buf, 0, sizeof(buf));
		buf[255] = r[i];
		ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
		ASSERT_EQ(1, res.nr);
		EXPECT_EQ(TB_XS_RESERVED, m[0].kind);
		EXPECT_EQ(r[i], m[0].raw);
		EXPECT_TRUE(res.warn_mask & (1U << TB_XS_W_RESERVED));
		EXPECT_EQ(255, res.warn_offset[TB_XS_W_RESERVED]);
		free(m);
	}
	buf[254] = 0x05;	/* reset vector, count 5 */
	buf[255] = 0x53;	/* unused vector */
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
	EXPECT_EQ(2, res.nr);
	EXPECT_TRUE(res.warn_mask & (1U << TB_XS_W_VECTOR));
	EXPECT_EQ(254, res.warn_offset[TB_XS_W_VECTOR]);
	free(m);
}

TEST(checkpoint_registers)
{
	struct tb_xs_chkpt_regs regs = { true, 0xc0001000, 0xc0002000 };
	uint8_t buf[256] = { 0 };
	struct tb_xs_msg *m;
	struct tb_xs_result res;

	/* One checkpointed entry: CHKPT0. */
	buf[254] = 0xc3;
	buf[255] = 0x81;
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, &regs));
	EXPECT_EQ(TB_XS_CHK0, m[0].checkpointed);
	EXPECT_EQ(0xc0001000, m[0].target);
	EXPECT_TRUE(m[0].target_known);
	EXPECT_EQ(TB_XS_CHK_NONE, m[1].checkpointed);
	EXPECT_FALSE(m[1].target_known);
	EXPECT_EQ(0, res.warn_mask);
	free(m);

	/*
	 * Two, in a buffer that wrapped: the older is CHKPT1; an indirect
	 * must agree with it.
	 */
	memset(buf, 0x81, sizeof(buf));
	buf[0] = 0xc0;		/* written index 0, first half */
	buf[1] = 0x00;
	buf[2] = 0x20;
	buf[3] = 0x00;
	buf[4] = 0xd1;
	buf[200] = 0xc3;	/* second half */
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, &regs));
	EXPECT_TRUE(res.wrapped);
	EXPECT_EQ(TB_XS_CHK1, m[0].checkpointed);
	EXPECT_EQ(0xc0002000, m[0].target);
	EXPECT_EQ(TB_XS_CHK0, m[196].checkpointed);
	EXPECT_EQ(0xc0001000, m[196].target);
	EXPECT_EQ(0, res.warn_mask);
	free(m);

	/* Disagreeing checkpoint: suspect. */
	regs.chkpt1 = 0xdead0000;
	ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, &regs));
	EXPECT_TRUE(res.warn_mask & (1U << TB_XS_W_CHKPT));
	EXPECT_EQ(4, res.warn_offset[TB_XS_W_CHKPT]);
	free(m);
}

/*
 * The checkpoint rule (tracebuf.rst): armed when cleared and when the
 * write position enters a half, one checkpointed entry per pass over a
 * half.  Layouts it produces decode quietly (a third, older entry after a
 * wrap lost its register); layouts it cannot produce are suspect.
 */
TEST(checkpoint_rule)
{
	static const struct {
		const char *what;
		uint32_t zeros;		/* unwritten bytes at the start */
		uint32_t chk[5];	/* offsets of checkpointed branches */
		unsigned int n;
		int suspect;
	} cases[] = {
		{ "not wrapped, one per half", 56, { 60, 190 }, 2, 0 },
		{ "not wrapped, two in the first half", 56,
		  { 60, 120 }, 2, 1 },
		{ "not wrapped, two in the second half", 56,
		  { 190, 250 }, 2, 1 },
		{ "not wrapped, three", 10, { 20, 100, 200 }, 3, 1 },
		{ "wrapped, two anywhere", 0, { 200, 210 }, 2, 0 },
		{ "wrapped, three, one per pass", 0, { 20, 100, 200 }, 3, 0 },
		{ "wrapped, three, half a buffer and one byte apart", 0,
		  { 0, 1, 129 }, 3, 0 },
		{ "wrapped, three, half a buffer apart", 0,
		  { 0, 1, 128 }, 3, 1 },
		{ "wrapped, three within half a buffer", 0,
		  { 20, 60, 148 }, 3, 1 },
		{ "wrapped, three, the oldest in the second half", 0,
		  { 128, 200, 255 }, 3, 1 },
		{ "wrapped, four", 0, { 10, 80, 150, 220 }, 4, 1 },
	};
	unsigned int i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t buf[256];
		struct tb_xs_msg *m;
		struct tb_xs_result res;

		memset(buf, 0x85, sizeof(buf));
		memset(buf, 0, cases[i].zeros);
		for (k = 0; k < cases[i].n; k++)
			buf[cases[i].chk[k]] = 0xc5;
		ASSERT_EQ(0, decode(buf, sizeof(buf), &m, &res, NULL));
		EXPECT_EQ(!cases[i].zeros, res.wrapped);
		EXPECT_EQ(cases[i].suspect,
			  !!(res.warn_mask & (1U << TB_XS_W_EXTRA_CHKPT))) {
			TH_LOG("%s", cases[i].what);
		}
		if (cases[i].suspect)
			EXPECT_EQ(cases[i].chk[0],
				  res.warn_offset[TB_XS_W_EXTRA_CHKPT]);
		EXPECT_EQ(0, res.warn_mask & ~(1U << TB_XS_W_EXTRA_CHKPT));
		/* The registers go to the two newest, whatever the rule. */
		for (k = 0; k < res.nr; k++) {
			if (m[k].offset == cases[i].chk[cases[i].n - 1])
				EXPECT_EQ(TB_XS_CHK0, m[k].checkpointed);
			if (m[k].offset == cases[i].chk[cases[i].n - 2])
				EXPECT_EQ(TB_XS_CHK1, m[k].checkpointed);
			if (cases[i].n > 2 &&
			    m[k].offset == cases[i].chk[0])
				EXPECT_EQ(TB_XS_CHK_LOST, m[k].checkpointed);
		}
		free(m);
	}
}

TEST(bad_sizes_rejected)
{
	uint8_t buf[512] = { 0 };
	struct tb_xs_msg m[512];
	struct tb_xs_result res;

	EXPECT_EQ(-EINVAL, tb_xs_decode(buf, 128, NULL, m, &res));
	EXPECT_EQ(-EINVAL, tb_xs_decode(buf, 384, NULL, m, &res));
	EXPECT_EQ(0, tb_xs_decode(buf, 512, NULL, m, &res));
}

/*
 * Every size from 256 to 64 KiB, wrapped and not: the decoded messages
 * are exactly the entries that survive whole in the ring.
 */
TEST(model_all_sizes)
{
	unsigned int seed = 1;
	size_t size;

	for (size = 256; size <= 65536; size *= 2) {
		int round;

		for (round = 0; round < 4; round++) {
			size_t count = round == 0 ? size / 8 : size * round;
			uint8_t *buf = malloc(size), b[5];
			struct tb_xs_msg *m;
			struct tb_xs_result res;
			uint64_t oldest;
			size_t i, first = 0, pos;
			struct sim s;

			sim_init(&s, size, count);
			for (i = 0; i < count; i++) {
				uint32_t t;
				uint8_t raw = random_msg(&seed, &t);

				sim_put(&s, raw, t);
			}
			sim_read(&s, buf);
			ASSERT_EQ(0, decode(buf, size, &m, &res, NULL));
			oldest = s.written > size ? s.written - size : 0;
			while (s.e[first].pos < oldest)
				first++;
			ASSERT_EQ(count - first, res.nr);
			EXPECT_EQ(s.written > size, res.wrapped);
			pos = res.start;
			for (i = 0; i < res.nr; i++) {
				const struct entry *e = &s.e[first + i];

				ASSERT_EQ(e->m.raw, m[i].raw);
				if (e->m.kind == TB_XS_INDIRECT)
					ASSERT_EQ(e->m.target, m[i].target);
				/* Re-encoding gives back the bytes. */
				pos += tb_xs_encode(&m[i], b);
				ASSERT_EQ(pos - 1, m[i].offset);
				ASSERT_EQ(0, memcmp(b, buf + pos -
						    tb_xs_encode(&m[i], b),
						    tb_xs_encode(&m[i], b)));
			}
			ASSERT_EQ(size, pos);
			free(m);
			free(buf);
			sim_free(&s);
		}
	}
}

/* ---- input detection ---- */

static FILE *mem(const void *p, size_t n)
{
	FILE *f = tmpfile();

	if (n)
		fwrite(p, 1, n, f);
	rewind(f);
	return f;
}

static size_t make_record(uint8_t *out, uint32_t size, uint64_t seq)
{
	struct tracebuf_record r = {
		.magic = TRACEBUF_RECORD_MAGIC,
		.version = TRACEBUF_RECORD_VERSION,
		.hdr_size = 40,
		.chkpt0 = 0x1000,
		.chkpt1 = 0x2000,
		.flags = TRACEBUF_RECORD_WRAPPED,
		.buf_size = size,
		.seq = seq,
	};

	tb_xs_record_format(&r, out);
	memset(out + 40, 0x80 | (seq & 15), size);
	return 40 + size;
}

TEST(input_raw_dump)
{
	uint8_t buf[1024];
	struct tb_xs_input in;
	struct tb_xs_buffer b;
	FILE *f;

	memset(buf, 0x81, sizeof(buf));
	f = mem(buf, 256);
	tb_xs_record_init(&in, f, 0);
	ASSERT_EQ(1, tb_xs_record_next(&in, &b));
	EXPECT_FALSE(b.has_hdr);
	EXPECT_EQ(256, b.hdr.buf_size);
	EXPECT_EQ(0, tb_xs_record_next(&in, &b));
	tb_xs_record_release(&in);
	fclose(f);

	f = mem(buf, 1024);
	tb_xs_record_init(&in, f, 1024);
	ASSERT_EQ(1, tb_xs_record_next(&in, &b));
	tb_xs_record_release(&in);
	fclose(f);

	/* Short and long raw dumps are errors naming the size. */
	f = mem(buf, 255);
	tb_xs_record_init(&in, f, 0);
	ASSERT_EQ(-1, tb_xs_record_next(&in, &b));
	EXPECT_NE(NULL, strstr(in.err.msg, "expected exactly 256"));
	tb_xs_record_release(&in);
	fclose(f);
	f = mem(buf, 257);
	tb_xs_record_init(&in, f, 0);
	ASSERT_EQ(-1, tb_xs_record_next(&in, &b));
	EXPECT_NE(NULL, strstr(in.err.msg, "longer than 256"));
	tb_xs_record_release(&in);
	fclose(f);
}

TEST(input_chain)
{
	uint8_t buf[3 * (40 + 512)];
	size_t len = 0;
	struct tb_xs_input in;
	struct tb_xs_buffer b;
	FILE *f;
	int i;

	for (i = 0; i < 3; i++)
		len += make_record(buf + len, 512, i);
	f = mem(buf, len);
	tb_xs_record_init(&in, f, 0);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, tb_xs_record_next(&in, &b));
		EXPECT_TRUE(b.has_hdr);
		EXPECT_EQ((uint64_t)i, b.hdr.seq);
		EXPECT_EQ(512, b.hdr.buf_size);
		EXPECT_EQ(0x1000, b.hdr.chkpt0);
		EXPECT_EQ((uint64_t)i * 552, b.offset);
		EXPECT_EQ(0x80 | i, b.data[0]);
	}
	EXPECT_EQ(0, tb_xs_record_next(&in, &b));
	tb_xs_record_release(&in);
	fclose(f);
}

/* Malformed records: the error gives the byte offset of the problem. */
TEST(input_malformed_records)
{
	static const struct {
		unsigned int at;	/* byte of record 2 to change */
		uint8_t val;
		size_t cut;		/* or truncate the file */
		const char *msg;
	} cases[] = {
		{ 0, 'X', 0, "offset 296: bad record magic" },
		{ 4, 2, 0, "offset 300: unsupported record version 2" },
		{ 6, 8, 0, "offset 302: bad record header size 8" },
		{ 21, 3, 0, "offset 316: bad buffer size" },
		{ 0, 0, 296 + 20, "offset 296: truncated record header" },
		{ 0, 0, 296 + 40 + 100, "offset 436: truncated record data" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t buf[2 * 296];
		size_t len = make_record(buf, 256, 0);
		struct tb_xs_input in;
		struct tb_xs_buffer b;
		FILE *f;

		len += make_record(buf + len, 256, 1);
		if (cases[i].cut)
			len = cases[i].cut;
		else
			buf[296 + cases[i].at] = cases[i].val;
		f = mem(buf, len);
		tb_xs_record_init(&in, f, 0);
		ASSERT_EQ(1, tb_xs_record_next(&in, &b));
		ASSERT_EQ(-1, tb_xs_record_next(&in, &b));
		EXPECT_NE(NULL, strstr(in.err.msg, cases[i].msg)) {
			TH_LOG("case %u: got \"%s\"", i, in.err.msg);
		}
		tb_xs_record_release(&in);
		fclose(f);
	}
}

TEST_HARNESS_MAIN
