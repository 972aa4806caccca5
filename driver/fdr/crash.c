// SPDX-License-Identifier: GPL-2.0
/*
 * Recovery after a crash: the crash descriptor and the panic notifier.
 *
 * A tool reading a memory image of a dead kernel has no symbols and no
 * page tables it can trust, only physical memory.  So the recorder keeps
 * a self-describing descriptor (uapi/linux/tracebuf_crash.h) in one
 * physically contiguous, page-aligned allocation: a magic to find it by
 * scanning pages, a version, a checksum, the capture's FDR file header,
 * and the physical address of every frame of every CPU's buffer, through
 * one-page frame tables (a vmalloc'd buffer is not contiguous).
 *
 * Nothing here runs per event.  The frame tables are written when the
 * rings are allocated, the header and state when a capture starts or
 * stops, and the positions only at a panic: the notifier writes the panic
 * message as the panicking CPU's last event, turns every writer away and
 * copies each CPU's head, tail, open block and page lengths into the
 * descriptor (fdr_crash_freeze()), then seals it with its checksum.
 *
 * The names.  A trace's IRQ, softirq, work function, fault, task and
 * kernel function ids mean something only with the NAMES text, which
 * changes while recording (an IRQ or a work function seen the first time).
 * So the panic also writes that text (fdr_names_write(), which neither
 * allocates nor locks) into the names area, physically contiguous pages
 * allocated with the descriptor, with its length and CRC-32 in the
 * descriptor (version 2).  A reader that finds it damaged falls back to
 * numeric names.
 *
 * Panic context: other CPUs are stopped (maybe inside a write), interrupts
 * are off, nothing may sleep or take a lock another CPU could hold.  The
 * notifier only reads and writes memory it owns; it runs once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/crc32.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "crash.h"
#include "kfunc.h"
#include "names.h"
#include "ring/frontend.h"
#include "ring/frontend_api.h"

#define FDR_FRAMES_PER_TABLE	(PAGE_SIZE / sizeof(u64))
/*
 * The names area: room for the softirq, fault and task names, a few
 * hundred IRQs and work functions and the kernel functions of a typical
 * capture (a few KiB to a few tens); what does not fit is left out, and
 * flagged.  Contiguous, so allocated once, at load.
 */
#define FDR_NAMES_AREA		SZ_64K

static struct tracebuf_crash_desc *fdr_desc;
static size_t fdr_desc_size;
static u64 **fdr_tables;	/* nr_cpu_ids * tables_per_cpu pages */
static unsigned int fdr_nr_tables;
static atomic_t fdr_frozen = ATOMIC_INIT(0);

/* The panic message, built in place: no allocation in panic context. */
static char fdr_panic_msg[256];
static char *fdr_names_area;

static struct tracebuf_crash_cpu *fdr_desc_cpus(void)
{
	return (struct tracebuf_crash_cpu *)(fdr_desc + 1);
}

static u64 *fdr_desc_tables(void)
{
	return (u64 *)(fdr_desc_cpus() + nr_cpu_ids);
}

/* The standard CRC-32 (zlib's crc32()), which tools compute anywhere. */
static u32 fdr_crc(u32 crc, const void *p, size_t len)
{
	return ~crc32_le(~crc, p, len);
}

static void fdr_desc_seal(void)
{
	fdr_desc->checksum = 0;
	fdr_desc->checksum = fdr_crc(0, fdr_desc, fdr_desc->size);
}

/* Any virtual address of the rings: vmalloc'd or in the direct map. */
static u64 fdr_phys(const void *p)
{
	if (is_vmalloc_addr(p))
		return page_to_phys(vmalloc_to_page(p)) + offset_in_page(p);
	return virt_to_phys((void *)p);
}

static void fdr_tables_free(void)
{
	unsigned int i;

	for (i = 0; fdr_tables && i < fdr_nr_tables; i++)
		free_page((unsigned long)fdr_tables[i]);
	kfree(fdr_tables);
	fdr_tables = NULL;
	fdr_nr_tables = 0;
}

void fdr_crash_rings_gone(void)
{
	if (!fdr_desc)
		return;
	fdr_desc->state = TRACEBUF_CRASH_IDLE;
	fdr_desc->buf_size = 0;
	fdr_desc->page_size = 0;
	fdr_desc->tables_per_cpu = 0;
	fdr_desc->tables_checksum = 0;
	fdr_desc->size = sizeof(*fdr_desc) +
			 nr_cpu_ids * sizeof(struct tracebuf_crash_cpu);
	fdr_desc_seal();
	fdr_tables_free();
}

int fdr_crash_rings(void)
{
	u32 size = fdr_ring_size(), frames, per_cpu, crc = 0;
	unsigned int cpu, t, f;
	u64 *phys;

	if (!fdr_desc)
		return 0;	/* loaded without crash recovery */
	phys = fdr_desc_tables();
	fdr_crash_rings_gone();
	frames = size / PAGE_SIZE;
	per_cpu = DIV_ROUND_UP(frames, FDR_FRAMES_PER_TABLE);
	fdr_tables = kcalloc(nr_cpu_ids * per_cpu, sizeof(*fdr_tables),
			     GFP_KERNEL);
	if (!fdr_tables)
		return -ENOMEM;
	fdr_nr_tables = nr_cpu_ids * per_cpu;
	for (t = 0; t < fdr_nr_tables; t++) {
		fdr_tables[t] = (u64 *)get_zeroed_page(GFP_KERNEL);
		if (!fdr_tables[t]) {
			fdr_tables_free();
			return -ENOMEM;
		}
	}
	/* Possible CPUs have buffers; impossible ids keep zeroed tables. */
	for_each_possible_cpu(cpu) {
		const u8 *data = fdr_ring_data(cpu);

		for (f = 0; f < frames; f++)
			fdr_tables[cpu * per_cpu + f / FDR_FRAMES_PER_TABLE]
				  [f % FDR_FRAMES_PER_TABLE] =
				fdr_phys(data + (size_t)f * PAGE_SIZE);
	}
	for (t = 0; t < fdr_nr_tables; t++) {
		phys[t] = fdr_phys(fdr_tables[t]);
		crc = fdr_crc(crc, fdr_tables[t], PAGE_SIZE);
	}
	fdr_desc->buf_size = size;
	fdr_desc->page_size = size / TRACEBUF_FDR_PAGES;
	fdr_desc->tables_per_cpu = per_cpu;
	fdr_desc->tables_checksum = crc;
	fdr_desc->size = (u8 *)(phys + fdr_nr_tables) - (u8 *)fdr_desc;
	fdr_desc_seal();
	return 0;
}

void fdr_crash_state(u32 state, u32 mode, const u8 *hdr)
{
	if (!fdr_desc)
		return;
	fdr_desc->state = state;
	fdr_desc->mode = mode;
	fdr_desc->names_len = 0;
	fdr_desc->names_checksum = 0;
	fdr_desc->names_flags = 0;
	if (state == TRACEBUF_CRASH_RECORDING) {
		fdr_desc->capture++;
		memcpy(fdr_desc->fdr_header, hdr, FDR_HDR_SIZE);
	}
	fdr_desc_seal();
}

/*
 * Write @msg as this CPU's last event, keep every writer out, and publish
 * each CPU's positions in the descriptor.  Rings a trigger froze (an oops
 * trigger, then oops=panic) still take the panic message on this CPU,
 * after the trigger's events: nobody else writes any more.  Kernel
 * function calls missed and not reported yet go in just before it.
 */
static void fdr_crash_freeze(const char *msg, u32 len)
{
	struct tracebuf_crash_cpu *out = fdr_desc_cpus();
	unsigned int self = raw_smp_processor_id();
	struct fdr_ring_pos pos;
	bool wrote;
	int cpu, i;

	fdr_ring_panic_open();
	fdr_write_lost(fdr_kfunc_missed_unreported());
	wrote = fdr_write_marker(msg, len);

	fdr_ring_stop_writers();
	smp_mb();	/* writers are out before their positions are read */
	for_each_possible_cpu(cpu) {
		struct tracebuf_crash_cpu *o = &out[cpu];

		fdr_ring_pos(cpu, &pos);
		o->head = pos.head;
		o->tail = pos.tail;
		o->len = pos.len;
		o->block = pos.block == FDR_NO_BLOCK ? TRACEBUF_CRASH_NO_BLOCK :
						       pos.block;
		o->flags = 0;
		if (pos.torn)
			o->flags |= TRACEBUF_CRASH_CPU_TORN;
		if (cpu == self && wrote)
			o->flags |= TRACEBUF_CRASH_CPU_PANIC;
		for (i = 0; i < TRACEBUF_FDR_PAGES; i++)
			o->page_len[i] = pos.page_len[i];
	}
}

static int fdr_crash_panic(struct notifier_block *nb, unsigned long event,
			   void *data)
{
	const char *why = data ? data : "";
	int n;

	if (!fdr_desc || READ_ONCE(fdr_desc->state) != TRACEBUF_CRASH_RECORDING)
		return NOTIFY_DONE;
	if (atomic_xchg(&fdr_frozen, 1))
		return NOTIFY_DONE;
	n = scnprintf(fdr_panic_msg, sizeof(fdr_panic_msg), "%s%s",
		      TRACEBUF_CRASH_PANIC_PREFIX, why);
	/* panic() passes the message with its newline. */
	while (n > 0 && fdr_panic_msg[n - 1] == '\n')
		n--;
	fdr_crash_freeze(fdr_panic_msg, n);
	if (fdr_names_area) {
		struct fdr_text t = { .buf = fdr_names_area,
				      .size = FDR_NAMES_AREA };

		fdr_names_write(&t);
		fdr_kfunc_names(&t, true);
		fdr_desc->names_len = t.len;
		fdr_desc->names_checksum = fdr_crc(0, fdr_names_area, t.len);
		if (t.truncated)
			fdr_desc->names_flags |= TRACEBUF_CRASH_NAMES_TRUNCATED;
	}
	fdr_desc->panic_cpu = raw_smp_processor_id();
	fdr_desc->state = TRACEBUF_CRASH_FROZEN;
	fdr_desc_seal();
	return NOTIFY_DONE;
}

/*
 * First in the chain: pvpanic stops a virtual machine in its notifier, and
 * whatever runs before us may fail in a dying kernel.
 */
static struct notifier_block fdr_panic_nb = {
	.notifier_call = fdr_crash_panic,
	.priority = INT_MAX,
};

int fdr_crash_init(void)
{
	fdr_desc_size = sizeof(*fdr_desc) +
		nr_cpu_ids * (sizeof(struct tracebuf_crash_cpu) +
			      DIV_ROUND_UP(TRACEBUF_FDR_BUF_MAX / PAGE_SIZE,
					   FDR_FRAMES_PER_TABLE) * sizeof(u64));
	/*
	 * Page-aligned and contiguous: found by scanning physical pages.
	 * Without it the recorder works, crash images just do not show it.
	 */
	fdr_desc = alloc_pages_exact(fdr_desc_size, GFP_KERNEL | __GFP_ZERO |
				     __GFP_NOWARN);
	if (!fdr_desc) {
		pr_warn("no memory for the crash descriptor (%zu bytes): crash recovery off\n",
			fdr_desc_size);
		return 0;
	}
	/* Without it the trace is recovered with numeric names. */
	fdr_names_area = alloc_pages_exact(FDR_NAMES_AREA, GFP_KERNEL |
					   __GFP_ZERO | __GFP_NOWARN);
	if (!fdr_names_area)
		pr_warn("no memory for the crash names area: numeric names in crash traces\n");
	memcpy(fdr_desc->magic, TRACEBUF_CRASH_MAGIC, TRACEBUF_CRASH_MAGIC_SIZE);
	fdr_desc->version = TRACEBUF_CRASH_VERSION;
	if (fdr_names_area) {
		fdr_desc->names_paddr = virt_to_phys(fdr_names_area);
		fdr_desc->names_size = FDR_NAMES_AREA;
	}
	fdr_desc->nr_cpus = nr_cpu_ids;
	fdr_desc->frame_size = PAGE_SIZE;
	fdr_crash_rings_gone();
	atomic_notifier_chain_register(&panic_notifier_list, &fdr_panic_nb);
	return 0;
}

void fdr_crash_exit(void)
{
	if (!fdr_desc)
		return;
	atomic_notifier_chain_unregister(&panic_notifier_list, &fdr_panic_nb);
	fdr_tables_free();
	/* A later crash image must not find a descriptor of freed rings. */
	memzero_explicit(fdr_desc, fdr_desc_size);
	free_pages_exact(fdr_desc, fdr_desc_size);
	fdr_desc = NULL;
	if (fdr_names_area)
		free_pages_exact(fdr_names_area, FDR_NAMES_AREA);
	fdr_names_area = NULL;
}
