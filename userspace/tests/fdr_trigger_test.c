// SPDX-License-Identifier: GPL-2.0
/* tracebuf record --trigger COND: the condition parser (lib/device/fdr_trigger.c). */
#include <errno.h>
#include <string.h>

#include "tb_harness.h"
#include "device/fdr_trigger.h"

static const char *const names[] = { [0] = "read", [2] = "open", [257] = "openat" };
static const struct tb_fdr_syscalls sys = { names, sizeof(names) / sizeof(names[0]) };

#define SYS_ID(nr)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)

TEST(durations)
{
	struct tracebuf_fdr_trig_cond c;
	struct tb_error err;

	ASSERT_EQ(0, tb_fdr_trigger_parse("syscall>5ms", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_DURATION, c.type);
	EXPECT_EQ(TRACEBUF_FDR_SYSCALL, c.ev_class);
	EXPECT_EQ(5000, c.threshold_us);
	EXPECT_EQ(0, c.flags);
	EXPECT_EQ(0, c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("syscall>250us:openat", &sys, &c, &err));
	EXPECT_EQ(250, c.threshold_us);
	EXPECT_EQ(TRACEBUF_FDR_TRIG_F_ID, c.flags);
	EXPECT_EQ(SYS_ID(257), c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("syscall>1s:35", &sys, &c, &err));
	EXPECT_EQ(1000000, c.threshold_us);
	EXPECT_EQ(SYS_ID(35), c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("irq>2ms:4", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_IRQ, c.ev_class);
	EXPECT_EQ(TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, 4), c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("softirq>100us:NET_RX", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_SOFTIRQ, c.ev_class);
	EXPECT_EQ(TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, 3), c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("softirq>100us:rcu", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, 9), c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("work>3600s", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_WORKQUEUE, c.ev_class);
	EXPECT_EQ(TRACEBUF_FDR_TRIG_THRESHOLD_MAX, c.threshold_us);
	/* No table: numbers only. */
	ASSERT_EQ(0, tb_fdr_trigger_parse("syscall>1ms:2", NULL, &c, &err));
	EXPECT_EQ(-1, tb_fdr_trigger_parse("syscall>1ms:open", NULL, &c, &err));
}

TEST(errors_markers_and_words)
{
	struct tracebuf_fdr_trig_cond c;
	struct tb_error err;

	ASSERT_EQ(0, tb_fdr_trigger_parse("syscall=ENOMEM", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_ERRNO, c.type);
	EXPECT_EQ(ENOMEM, c.error);
	EXPECT_EQ(0, c.flags);
	ASSERT_EQ(0, tb_fdr_trigger_parse("syscall=2:openat", &sys, &c, &err));
	EXPECT_EQ(ENOENT, c.error);
	EXPECT_EQ(SYS_ID(257), c.id);
	ASSERT_EQ(0, tb_fdr_trigger_parse("marker:BOOM: x>y", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_MARKER, c.type);
	EXPECT_EQ(9, c.prefix_len);
	EXPECT_EQ(0, memcmp(c.prefix, "BOOM: x>y", 9));
	EXPECT_EQ(0, c.prefix[9]);
	ASSERT_EQ(0, tb_fdr_trigger_parse("oops", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_OOPS, c.type);
	ASSERT_EQ(0, tb_fdr_trigger_parse("warn", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_WARN, c.type);
	ASSERT_EQ(0, tb_fdr_trigger_parse("snapshot", &sys, &c, &err));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_SNAPSHOT, c.type);
}

/* Each bad condition is refused, and the message names the bad part. */
TEST(bad_conditions_name_the_part)
{
	static const struct { const char *cond, *part; } bad[] = {
		{ "", "unknown condition" },
		{ "panic", "'panic'" },
		{ "oops2", "'oops2'" },
		{ "warning", "'warning'" },
		{ "fault>1ms", "'fault'" },
		{ "sys>1ms", "'sys'" },
		{ "syscall>", "duration ''" },
		{ "syscall>5", "duration '5'" },
		{ "syscall>5m", "duration '5m'" },
		{ "syscall>ms", "duration 'ms'" },
		{ "syscall>-5ms", "duration '-5ms'" },
		{ "syscall>0us", "duration '0us'" },
		{ "syscall>3601s", "duration '3601s'" },
		{ "syscall>99999999999999999999s", "duration" },
		{ "syscall>5ms:nosuch", "unknown syscall 'nosuch'" },
		{ "syscall>5ms:", "unknown syscall ''" },
		{ "syscall>5ms:16777216", "unknown syscall '16777216'" },
		{ "irq>1ms:eth0", "unknown irq 'eth0'" },
		{ "softirq>1ms:NET", "unknown softirq 'NET'" },
		{ "irq=ENOMEM", "only syscalls" },
		{ "syscall=ENOPE", "error 'ENOPE'" },
		{ "syscall=0", "error '0'" },
		{ "syscall=4096", "error '4096'" },
		{ "syscall=-12", "error '-12'" },
		{ "syscall=ENOMEM:nosuch", "unknown syscall 'nosuch'" },
		{ "marker:", "marker prefix ''" },
		{ "marker:0123456789012345678901234567890123456789012345678",
		  "1 to 48 bytes" },
	};
	struct tracebuf_fdr_trig_cond c;
	struct tb_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-1, tb_fdr_trigger_parse(bad[i].cond, &sys, &c, &err))
			TH_LOG("'%s' accepted", bad[i].cond);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].part))
			TH_LOG("'%s': '%s' does not name '%s'", bad[i].cond,
			       err.msg, bad[i].part);
	}
}

TEST_HARNESS_MAIN
