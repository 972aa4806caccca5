// SPDX-License-Identifier: GPL-2.0
/* lib/xscale_inject: the text and binary files `tracebuf ctl inject` reads. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tb_harness.h"
#include "device/xs_inject.h"

static int parse(const char *text, enum tb_xs_inject_form form,
		 struct tb_xs_events *e, struct tb_error *err)
{
	memset(e, 0, sizeof(*e));
	memset(err, 0, sizeof(*err));
	return tb_xs_inject_parse("f.txt", text, strlen(text), form, e, err);
}

TEST(text_events)
{
	struct tb_xs_events e;
	struct tb_error err;

	ASSERT_EQ(0, parse("# a comment\n"
			   "exc swi 3\n"
			   "\n"
			   "  br 0x8000   # jump\n"
			   "ind 4096 0x10\r\n"
			   "exc IRQ\n"
			   "exc 6 0\n", TB_XS_INJECT_GUESS, &e, &err));
	ASSERT_EQ(5, e.n);
	EXPECT_EQ(TRACEBUF_EV_EXCEPTION, e.ev[0].kind);
	EXPECT_EQ(TRACEBUF_VEC_SWI, e.ev[0].arg);
	EXPECT_EQ(3, e.ev[0].icount);
	EXPECT_EQ(TRACEBUF_EV_BRANCH, e.ev[1].kind);
	EXPECT_EQ(0x8000, e.ev[1].arg);
	EXPECT_EQ(0, e.ev[1].icount);
	EXPECT_EQ(TRACEBUF_EV_INDIRECT, e.ev[2].kind);
	EXPECT_EQ(4096, e.ev[2].arg);
	EXPECT_EQ(16, e.ev[2].icount);
	EXPECT_EQ(TRACEBUF_VEC_IRQ, e.ev[3].arg);	/* names in any case */
	EXPECT_EQ(6, e.ev[4].arg);
	tb_xs_inject_free(&e);
	EXPECT_EQ(NULL, e.ev);
}

TEST(empty_is_text)
{
	struct tb_xs_events e;
	struct tb_error err;

	ASSERT_EQ(0, parse("", TB_XS_INJECT_GUESS, &e, &err));
	EXPECT_EQ(0, e.n);
	tb_xs_inject_free(&e);
}

/* Every error names the line, counting empty lines. */
TEST(text_errors)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "exc swi 3 4\n", "f.txt:1: too many words" },
		{ "\n\nexc\n", "f.txt:3: exc needs a vector: undef swi pabort dabort irq fiq, 1-7" },
		{ "exc 8\n", "f.txt:1: exc needs a vector" },
		{ "exc reset\n", "f.txt:1: the hardware never records vector 0" },
		{ "br 1 2 3 4 5\n", "f.txt:1: too many words" },
		{ "exc 0\n", "f.txt:1: the hardware never records vector 0" },
		{ "exc 5\n", "f.txt:1: the hardware never records vector 5" },
		{ "br\n", "f.txt:1: br needs a 32-bit target" },
		{ "ind 0x100000000\n", "f.txt:1: ind needs a 32-bit target" },
		{ "br 1 -1\n", "f.txt:1: bad instruction count '-1'" },
		{ "jmp 1\n", "f.txt:1: unknown event 'jmp' (exc, br or ind)" },
		{ "br 1\nbr 2 x\n", "f.txt:2: bad instruction count 'x'" },
	};
	struct tb_xs_events e;
	struct tb_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, parse(bad[i].text, TB_XS_INJECT_TEXT, &e, &err))
			TH_LOG("%s", bad[i].text);
		EXPECT_EQ(0, strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)))
			TH_LOG("'%s' gave '%s'", bad[i].text, err.msg);
		tb_xs_inject_free(&e);
	}
}

TEST(nul_in_text)
{
	struct tb_xs_events e = { 0 };
	struct tb_error err;

	EXPECT_EQ(-EINVAL, tb_xs_inject_parse("f.txt", "br 1\n\0", 6,
					      TB_XS_INJECT_TEXT, &e, &err));
	EXPECT_STREQ("f.txt: NUL byte in a text event file", err.msg);
	EXPECT_EQ(5, err.offset);
	tb_xs_inject_free(&e);
}

/* Binary records are taken as they are; the device checks them. */
TEST(binary)
{
	struct tracebuf_event in[2] = {
		{ .kind = TRACEBUF_EV_BRANCH, .arg = 0x1000, .icount = 2 },
		{ .kind = TRACEBUF_EV_EXCEPTION, .arg = TRACEBUF_VEC_FIQ },
	};
	struct tb_xs_events e = { 0 };
	struct tb_error err;

	/* A kind of 1..3 starts with a control byte: guessed binary. */
	ASSERT_EQ(0, tb_xs_inject_parse("f.bin", in, sizeof(in),
					TB_XS_INJECT_GUESS, &e, &err));
	ASSERT_EQ(2, e.n);
	EXPECT_EQ(0, memcmp(in, e.ev, sizeof(in)));
	tb_xs_inject_free(&e);
	EXPECT_EQ(-EINVAL, tb_xs_inject_parse("f.bin", in, sizeof(in) - 1,
					      TB_XS_INJECT_BINARY, &e, &err));
	EXPECT_STREQ("f.bin: 31 bytes is not a whole number of 16-byte events",
		     err.msg);
	tb_xs_inject_free(&e);
}

/* From a stream, larger than the first read buffer; a read error is -EIO. */
TEST(read_stream)
{
	struct tb_xs_events e = { 0 };
	struct tb_error err;
	FILE *f = tmpfile();
	int i;

	ASSERT_NE(NULL, f);
	for (i = 0; i < 1000; i++)
		fprintf(f, "br 0x%x %d\n", i * 4, i);
	rewind(f);
	ASSERT_EQ(0, tb_xs_inject_read(f, "s.txt", TB_XS_INJECT_GUESS, &e, &err));
	ASSERT_EQ(1000, e.n);
	EXPECT_EQ(999 * 4, e.ev[999].arg);
	EXPECT_EQ(999, e.ev[999].icount);
	tb_xs_inject_free(&e);
	fclose(f);
	/* A directory opens but does not read (EISDIR). */
	f = fopen("/", "r");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(-EIO, tb_xs_inject_read(f, "/", TB_XS_INJECT_GUESS, &e, &err));
	EXPECT_EQ(0, strncmp(err.msg, "error reading '/': ", 19));
	tb_xs_inject_free(&e);
	fclose(f);
}

TEST_HARNESS_MAIN
