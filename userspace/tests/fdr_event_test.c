// SPDX-License-Identifier: GPL-2.0
/*
 * format/fdr_event.h: every typed event decoded field by field from bytes
 * laid out here by hand (not by a writer of ours), payloads one byte
 * short refused, longer ones read, unknown types and states, and the
 * errno table against this host's <errno.h> (x86-64 and arm share the
 * generic numbers the table holds).
 */
#include <errno.h>
#include <string.h>

#include "format/fdr_event.h"

#include "tb_harness.h"

static struct tb_fdr_record typed(uint16_t type, const uint8_t *p, int32_t n)
{
	struct tb_fdr_record r;

	memset(&r, 0, sizeof(r));
	r.kind = TB_FDR_TYPED;
	r.event_type = type;
	r.data = p;
	r.size = n;
	return r;
}

TEST(switch_fields)
{
	/* prev 0x01020304, next 0x40000001 (idle of CPU 1), prio 120, -1 */
	static const uint8_t p[] = { 4, 3, 2, 1, 1, 0, 0, 0x40, 120, 0,
				     0xff, 0xff, TRACEBUF_FDR_STATE_UNINTERRUPTIBLE,
				     0xaa };
	struct tb_fdr_record r = typed(TRACEBUF_FDR_TYPED_SWITCH, p, 13);
	struct tb_fdr_event ev;

	ASSERT_EQ(TB_FDR_EV_SWITCH, tb_fdr_event_decode(&r, &ev));
	EXPECT_EQ(0x01020304, ev.sw.prev_tid);
	EXPECT_EQ(0x40000001, ev.sw.next_tid);
	EXPECT_EQ(120, ev.sw.prev_prio);
	EXPECT_EQ(-1, ev.sw.next_prio);
	EXPECT_EQ(TRACEBUF_FDR_STATE_UNINTERRUPTIBLE, ev.sw.prev_state);
	EXPECT_EQ('D', tb_fdr_event_state_letter(ev.sw.prev_state));
	/* a longer payload reads the same; one byte short is malformed */
	r.size = 14;
	ASSERT_EQ(TB_FDR_EV_SWITCH, tb_fdr_event_decode(&r, &ev));
	EXPECT_FALSE(tb_fdr_event_malformed(&r));
	r.size = 12;
	EXPECT_EQ(TB_FDR_EV_NONE, tb_fdr_event_decode(&r, &ev));
	EXPECT_TRUE(tb_fdr_event_malformed(&r));
}

TEST(state_out_of_range_is_other)
{
	uint8_t p[13] = { 0 };
	struct tb_fdr_record r = typed(TRACEBUF_FDR_TYPED_SWITCH, p, 13);
	struct tb_fdr_event ev;

	p[12] = 200;
	ASSERT_EQ(TB_FDR_EV_SWITCH, tb_fdr_event_decode(&r, &ev));
	EXPECT_EQ(TRACEBUF_FDR_STATE_OTHER, ev.sw.prev_state);
	EXPECT_EQ('?', tb_fdr_event_state_letter(200));
	EXPECT_STREQ("other", tb_fdr_event_state_name(200));
	EXPECT_STREQ("sleeping",
		     tb_fdr_event_state_name(TRACEBUF_FDR_STATE_SLEEPING));
}

TEST(wakeup_fields)
{
	static const uint8_t p[] = { 0x39, 0x30, 0, 0, 3, 0, 0x64, 0,
				     TRACEBUF_FDR_WAKEUP_NEW };
	struct tb_fdr_record r = typed(TRACEBUF_FDR_TYPED_WAKEUP, p, 9);
	struct tb_fdr_event ev;

	ASSERT_EQ(TB_FDR_EV_WAKEUP, tb_fdr_event_decode(&r, &ev));
	EXPECT_EQ(12345, ev.wakeup.tid);
	EXPECT_EQ(3, ev.wakeup.cpu);
	EXPECT_EQ(100, ev.wakeup.prio);
	EXPECT_TRUE(ev.wakeup.new_task);
	r.size = 8;
	EXPECT_EQ(TB_FDR_EV_NONE, tb_fdr_event_decode(&r, &ev));
}

TEST(ret_fields)
{
	/* id 0x01000002 (syscall 2), value -2 */
	static const uint8_t p[] = { 2, 0, 0, 1, 0xfe, 0xff, 0xff, 0xff,
				     0xff, 0xff, 0xff, 0xff };
	struct tb_fdr_record r = typed(TRACEBUF_FDR_TYPED_RET, p, 12);
	struct tb_fdr_event ev;

	ASSERT_EQ(TB_FDR_EV_RET, tb_fdr_event_decode(&r, &ev));
	EXPECT_EQ(0x01000002U, ev.ret.func_id);
	EXPECT_EQ(-2, ev.ret.value);
	EXPECT_EQ(ENOENT, tb_fdr_event_errno(ev.ret.value));
	EXPECT_STREQ("ENOENT", tb_fdr_event_errno_name(ENOENT));
	r.size = 11;
	EXPECT_EQ(TB_FDR_EV_NONE, tb_fdr_event_decode(&r, &ev));
	r.size = 12;
	r.data = NULL;
	EXPECT_EQ(TB_FDR_EV_NONE, tb_fdr_event_decode(&r, &ev));
}

TEST(meta_and_foreign)
{
	static const char text[] = "capture 0123";
	struct tb_fdr_record r = typed(TRACEBUF_FDR_TYPED_META_CAPTURE,
				       (const uint8_t *)text, 12);
	struct tb_fdr_event ev;

	ASSERT_EQ(TB_FDR_EV_META, tb_fdr_event_decode(&r, &ev));
	EXPECT_EQ(TRACEBUF_FDR_TYPED_META_CAPTURE, ev.meta.type);
	EXPECT_EQ(12U, ev.meta.len);
	/* a type that is not ours, and a record that is not typed */
	r.event_type = 999;
	EXPECT_EQ(TB_FDR_EV_NONE, tb_fdr_event_decode(&r, &ev));
	EXPECT_FALSE(tb_fdr_event_malformed(&r));
	r.kind = TB_FDR_CUSTOM;
	r.event_type = TRACEBUF_FDR_TYPED_RET;
	EXPECT_EQ(TB_FDR_EV_NONE, tb_fdr_event_decode(&r, &ev));
}

TEST(errno_range_and_names)
{
	EXPECT_EQ(0, tb_fdr_event_errno(0));
	EXPECT_EQ(0, tb_fdr_event_errno(5));
	EXPECT_EQ(0, tb_fdr_event_errno(-4096));
	EXPECT_EQ(4095, tb_fdr_event_errno(-4095));
	EXPECT_EQ(1, tb_fdr_event_errno(-1));
	EXPECT_STREQ("EPERM", tb_fdr_event_errno_name(EPERM));
	EXPECT_STREQ("EAGAIN", tb_fdr_event_errno_name(EAGAIN));
	EXPECT_STREQ("EHWPOISON", tb_fdr_event_errno_name(EHWPOISON));
	EXPECT_STREQ("ERESTARTSYS", tb_fdr_event_errno_name(512));
	EXPECT_STREQ("ERESTART_RESTARTBLOCK", tb_fdr_event_errno_name(516));
	EXPECT_TRUE(tb_fdr_event_errno_name(0) == NULL);
	EXPECT_TRUE(tb_fdr_event_errno_name(41) == NULL);	/* a hole */
	EXPECT_TRUE(tb_fdr_event_errno_name(4095) == NULL);
}

TEST_HARNESS_MAIN
