/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel FDR event classes by name, as both collectors take them on
 * the command line (-e syscall,irq,...).
 */
#ifndef TB_FDR_CLASSES_H
#define TB_FDR_CLASSES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a comma-separated list of class names (syscall, irq, softirq,
 * workqueue, fault, sched, marker, or all, which stands for @all) into
 * TRACEBUF_FDR_* bits.  Returns 0, or -EINVAL with the first unknown name
 * copied to @bad (may be truncated), or -ENODATA for an empty list.
 */
int tb_fdr_parse_classes(const char *list, uint32_t all, uint32_t *mask,
			 char *bad, size_t bad_size);

/* The names of the classes in @mask, comma separated, or "none". */
void tb_fdr_format_classes(uint32_t mask, char *buf, size_t size);

#endif /* TB_FDR_CLASSES_H */
