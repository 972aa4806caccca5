// SPDX-License-Identifier: GPL-2.0
/*
 * Function id -> name, for the id spaces whose keys mean nothing by
 * themselves.  Exported as text by TRACEBUF_FDR_IOC_NAMES.
 *
 * Work functions get small keys from a fixed open-addressing table of
 * FDR_WORK_SLOTS function pointers, filled from probe context with
 * cmpxchg (lock-free, safe in any context); the key is the slot index and
 * stays valid until the next capture starts.  When the table is full,
 * further functions share the key TRACEBUF_FDR_KEY_OTHER.
 *
 * IRQ names are copied from irqaction->name the first time an IRQ number
 * below FDR_IRQ_NAMES is seen (the action may be freed later, so no
 * pointer is kept).  The first handler seen names a shared line.
 *
 * Traced kernel functions are named by kfunc.c.
 *
 * Syscall names are not here: numbers are ABI and userspace names them
 * from its headers.  Softirq, fault and task names are fixed.
 */
#include <linux/atomic.h>
#include <linux/random.h>
#include <linux/interrupt.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <linux/tracebuf.h>

#include "names.h"

#define FDR_WORK_BITS		10
#define FDR_WORK_SLOTS		BIT(FDR_WORK_BITS)
#define FDR_IRQ_NAMES		1024
#define FDR_IRQ_NAME_LEN	32

static unsigned long fdr_work_fn[FDR_WORK_SLOTS];

enum { FDR_IRQ_NONE, FDR_IRQ_BUSY, FDR_IRQ_READY };
static atomic_t fdr_irq_state[FDR_IRQ_NAMES];
static char fdr_irq_name[FDR_IRQ_NAMES][FDR_IRQ_NAME_LEN];

/* Vector names as in the kernel's softirq_to_name[] (not exported). */
static const char * const fdr_softirq_names[] = TRACEBUF_FDR_SOFTIRQ_NAMES;
static_assert(ARRAY_SIZE(fdr_softirq_names) == NR_SOFTIRQS);
static const char * const fdr_fault_names[] = TRACEBUF_FDR_FAULT_NAMES;
static const char * const fdr_task_names[] = TRACEBUF_FDR_TASK_NAMES;

/*
 * A work function's key is its slot, found from a keyed hash of its
 * address with a secret chosen for each capture: a plain hash of the
 * address (hash_ptr()) made the keys, which unprivileged readers of a
 * trace or of a passed descriptor see, tell where the kernel is loaded.
 */
static siphash_key_t fdr_work_secret;

/* Stopped: no probe runs. */
void fdr_names_reset(void)
{
	int i;

	memset(fdr_work_fn, 0, sizeof(fdr_work_fn));
	get_random_bytes(&fdr_work_secret, sizeof(fdr_work_secret));
	for (i = 0; i < FDR_IRQ_NAMES; i++)
		atomic_set(&fdr_irq_state[i], FDR_IRQ_NONE);
}

u32 fdr_names_work_key(void *func)
{
	unsigned long fn = (unsigned long)func;
	u32 i, slot = siphash_1u64(fn, &fdr_work_secret) % FDR_WORK_SLOTS;

	if (!fn)
		return TRACEBUF_FDR_KEY_OTHER;
	for (i = 0; i < FDR_WORK_SLOTS; i++, slot = (slot + 1) % FDR_WORK_SLOTS) {
		unsigned long old = READ_ONCE(fdr_work_fn[slot]);

		if (!old)
			old = cmpxchg(&fdr_work_fn[slot], 0UL, fn);
		if (!old || old == fn)
			return slot;
	}
	return TRACEBUF_FDR_KEY_OTHER;
}

void fdr_names_irq_seen(int irq, const char *name)
{
	if (irq < 0 || irq >= FDR_IRQ_NAMES || !name ||
	    atomic_read(&fdr_irq_state[irq]) != FDR_IRQ_NONE)
		return;
	if (atomic_cmpxchg(&fdr_irq_state[irq], FDR_IRQ_NONE,
			   FDR_IRQ_BUSY) != FDR_IRQ_NONE)
		return;
	strscpy(fdr_irq_name[irq], name, FDR_IRQ_NAME_LEN);
	atomic_set_release(&fdr_irq_state[irq], FDR_IRQ_READY);
}

/* Worst case of one line: id, space name, a %ps symbol. */
#define FDR_LINE_MAX	(16 + KSYM_SYMBOL_LEN)

size_t fdr_names_size(void)
{
	return (FDR_WORK_SLOTS + FDR_IRQ_NAMES + NR_SOFTIRQS +
		ARRAY_SIZE(fdr_fault_names) + ARRAY_SIZE(fdr_task_names)) *
	       FDR_LINE_MAX;
}

void fdr_names_write(struct fdr_text *t)
{
	int i;

	for (i = 0; i < NR_SOFTIRQS; i++)
		fdr_text_line(t, "%x softirq %s\n",
			      TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, i),
			      fdr_softirq_names[i]);
	for (i = 0; i < ARRAY_SIZE(fdr_fault_names); i++)
		fdr_text_line(t, "%x fault %s\n",
			      TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, i),
			      fdr_fault_names[i]);
	for (i = 0; i < ARRAY_SIZE(fdr_task_names); i++)
		fdr_text_line(t, "%x task %s\n",
			      TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_TASK, i),
			      fdr_task_names[i]);
	for (i = 0; i < FDR_IRQ_NAMES; i++)
		if (atomic_read_acquire(&fdr_irq_state[i]) == FDR_IRQ_READY)
			fdr_text_line(t, "%x irq %s\n",
				      TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, i),
				      fdr_irq_name[i]);
	for (i = 0; i < FDR_WORK_SLOTS; i++) {
		void *fn = (void *)READ_ONCE(fdr_work_fn[i]);

		if (fn)
			fdr_text_line(t, "%x work %ps\n",
				      TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_WORK, i),
				      fn);
	}
}
