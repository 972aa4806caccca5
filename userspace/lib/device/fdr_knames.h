/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of kernel FDR function ids for a collector without the module's
 * TRACEBUF_FDR_IOC_NAMES (tracebuf bpf), in that ioctl's text format
 * ("<id hex> <space> <name>" per line, read by
 * tb_fdr_post_kernel_names()), from the same sources the module uses:
 * the uapi header's fixed names, the IRQ handlers /proc/interrupts lists
 * and the symbols /proc/kallsyms gives work function addresses.
 */
#ifndef TB_FDR_KNAMES_H
#define TB_FDR_KNAMES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* IRQ numbers below this are named, as the module names them. */
#define TB_FDR_KNAMES_IRQS	1024

/* The softirq, fault and task names (uapi/linux/tracebuf.h) to @out. */
void tb_fdr_knames_fixed(FILE *out);

/*
 * Each IRQ whose bit is set in @seen (TB_FDR_KNAMES_IRQS bits) named
 * after its line in @interrupts (text of /proc/interrupts): the first
 * handler of a shared line, as the module does.  IRQs without a line or
 * a handler are left out.  Returns the number of names written.
 */
int tb_fdr_knames_irqs(FILE *interrupts, const uint64_t *seen, FILE *out);

/*
 * Work function @fns[i] named as key i, like the kernel's %ps: its symbol
 * in @kallsyms (text of /proc/kallsyms, may be NULL), "SYMBOL [MODULE]"
 * for a module's, else its address "0x...".  Returns the number found
 * in @kallsyms, or -ENOMEM.
 */
int tb_fdr_knames_work(FILE *kallsyms, const uint64_t *fns, size_t n,
		       FILE *out);

#endif /* TB_FDR_KNAMES_H */
