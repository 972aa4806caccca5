// SPDX-License-Identifier: GPL-2.0
/*
 * lib/fdr_knames: the names tracebuf bpf gives kernel ids, from fixtures
 * of /proc/interrupts and /proc/kallsyms (data/proc/), in the text format
 * of the module's TRACEBUF_FDR_IOC_NAMES.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "tb_harness.h"
#include "convert/fdr_post.h"
#include "device/fdr_knames.h"
#include "format/name_map.h"

struct text {
	char *p;
	size_t len;
	FILE *f;
};

static void text_open(struct text *t)
{
	t->p = NULL;
	t->len = 0;
	t->f = open_memstream(&t->p, &t->len);
}

static void text_close(struct text *t)
{
	fclose(t->f);
}

static void see(uint64_t *seen, unsigned int irq)
{
	seen[irq / 64] |= 1ULL << (irq % 64);
}

/* The same lines, by the same definitions, as the module's ioctl. */
TEST(fixed_names)
{
	struct tb_name_map m = { 0 };
	struct tb_error err;
	struct text t;

	text_open(&t);
	tb_fdr_knames_fixed(t.f);
	text_close(&t);
	EXPECT_NE(NULL, strstr(t.p, "0x3000000 softirq HI\n"));
	EXPECT_NE(NULL, strstr(t.p, "0x3000009 softirq RCU\n"));
	EXPECT_NE(NULL, strstr(t.p, "0x5000000 fault user\n"
				    "0x5000001 fault kernel\n"
				    "0x6000000 task fork\n"
				    "0x6000001 task exit\n"));
	/* And the library reads them back as it reads the module's. */
	ASSERT_EQ(0, tb_fdr_post_kernel_names(&m, t.p));
	ASSERT_EQ(0, tb_name_map_finish(&m, &err));
	EXPECT_EQ(14, m.n);
	EXPECT_STREQ("softirq_TIMER", tb_name_map_find(&m, 0x3000001));
	EXPECT_STREQ("task_exit", tb_name_map_find(&m, 0x6000001));
	tb_name_map_free(&m);
	free(t.p);
}

/*
 * Only IRQs seen; a shared line by its first handler; lines without a
 * handler, without a number or at/above the limit are left out.
 */
TEST(irqs_from_proc_interrupts)
{
	uint64_t seen[TB_FDR_KNAMES_IRQS / 64] = { 0 };
	FILE *f = fopen("data/proc/interrupts", "r");
	struct text t;

	ASSERT_NE(NULL, f);
	see(seen, 0);
	see(seen, 11);
	see(seen, 24);		/* no handler */
	see(seen, 5);		/* no line */
	text_open(&t);
	EXPECT_EQ(2, tb_fdr_knames_irqs(f, seen, t.f));
	text_close(&t);
	fclose(f);
	EXPECT_STREQ("0x2000000 irq timer\n0x200000b irq uhci_hcd:usb1\n", t.p);
	free(t.p);
}

/* An IRQ number over the limit is never named, even if a line has it. */
TEST(irq_limit)
{
	uint64_t seen[TB_FDR_KNAMES_IRQS / 64];
	FILE *f = fopen("data/proc/interrupts", "r");
	struct text t;

	ASSERT_NE(NULL, f);
	memset(seen, 0xff, sizeof(seen));
	text_open(&t);
	EXPECT_EQ(4, tb_fdr_knames_irqs(f, seen, t.f));
	text_close(&t);
	fclose(f);
	EXPECT_EQ(NULL, strstr(t.p, "nvme"));
	EXPECT_NE(NULL, strstr(t.p, "0x2000001 irq i8042\n"));
	EXPECT_NE(NULL, strstr(t.p, "0x2000009 irq acpi\n"));
	free(t.p);
}

/*
 * Keys in the order given; the first symbol at an address; a module's
 * with its module; an address kallsyms does not have stays an address.
 */
TEST(work_from_proc_kallsyms)
{
	const uint64_t fns[] = {
		0xffffffff810a2b40ULL, 0xffffffffc0201000ULL, 0x1234,
		0xffffffff810c0000ULL,
	};
	FILE *f = fopen("data/proc/kallsyms", "r");
	struct text t;

	ASSERT_NE(NULL, f);
	text_open(&t);
	EXPECT_EQ(3, tb_fdr_knames_work(f, fns, 4, t.f));
	text_close(&t);
	fclose(f);
	EXPECT_STREQ("0x4000000 work vmstat_update\n"
		     "0x4000001 work e1000_watchdog [e1000]\n"
		     "0x4000002 work 0x1234\n"
		     "0x4000003 work kfree_rcu_monitor\n", t.p);
	free(t.p);
}

/* Without kallsyms (unreadable), every function is its address. */
TEST(work_without_kallsyms)
{
	const uint64_t fns[] = { 0x1234, 0x5678 };
	struct text t;

	text_open(&t);
	EXPECT_EQ(0, tb_fdr_knames_work(NULL, fns, 2, t.f));
	text_close(&t);
	EXPECT_STREQ("0x4000000 work 0x1234\n0x4000001 work 0x5678\n", t.p);
	free(t.p);
	text_open(&t);
	EXPECT_EQ(0, tb_fdr_knames_work(NULL, NULL, 0, t.f));
	text_close(&t);
	EXPECT_STREQ("", t.p);
	free(t.p);
}

TEST_HARNESS_MAIN
