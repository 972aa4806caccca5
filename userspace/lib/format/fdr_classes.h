/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel FDR event classes by name, as both collectors take them on
 * the command line (-e syscall,irq,...).
 */
#ifndef TB_FDR_CLASSES_H
#define TB_FDR_CLASSES_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct tb_fdr_class - one event class
 * @name:	as on the command line
 * @bit:	TRACEBUF_FDR_*
 * @space:	the FDR id space of its events (TRACEBUF_FDR_SPACE_*), 0 for
 *		markers
 */
struct tb_fdr_class {
	const char *name;
	uint32_t bit;
	uint32_t space;
};

/* Every class in bit order, so marker is last (the BPF collector has all but it). */
#define TB_FDR_NR_CLASSES	7
extern const struct tb_fdr_class tb_fdr_classes[TB_FDR_NR_CLASSES];

/*
 * Parse a comma-separated list of class names (syscall, irq, softirq,
 * workqueue, fault, sched, marker, or all, which stands for @all) into
 * TRACEBUF_FDR_* bits.  Returns 0, or -EINVAL with the first unknown name
 * copied to @bad (may be truncated), or -ENODATA for an empty list.
 */
int tb_fdr_classes_parse(const char *list, uint32_t all, uint32_t *mask,
			 char *bad, size_t bad_size);

/* The names of the classes in @mask, comma separated, or "none". */
void tb_fdr_classes_format(uint32_t mask, char *buf, size_t size);

#endif /* TB_FDR_CLASSES_H */
