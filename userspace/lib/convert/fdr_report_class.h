/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classes tracebuf report counts events by: the collectors' event
 * classes (-e, format/fdr_classes.h), kernel functions and other ids.
 */
#ifndef TB_FDR_REPORT_CLASS_H
#define TB_FDR_REPORT_CLASS_H

#include <stddef.h>
#include <stdint.h>

#include "format/fdr_classes.h"
#include "format/name_map.h"

/* The classes of the report: the collectors' (-e), then two more. */
enum {
	TB_RC_KFUNC = TB_FDR_NR_CLASSES,	/* kernel functions (-f) */
	TB_RC_OTHER,	/* an id of no kernel space: other XRay traces */
	TB_RC_NR,
};

/* "syscall", ..., "marker", "kfunc", "function". */
const char *tb_fdr_report_class_name(unsigned int rc);

/* Class index of a name, or -1. */
int tb_fdr_report_class(const char *name);

/* The class of kernel id @kid (0: none known). */
unsigned int tb_fdr_report_class_of(uint32_t kid);

/* The classes of point events (faults, fork, exit): a bit each. */
uint32_t tb_fdr_report_class_points(void);

/*
 * The name of id @id of a trace, as the report and the listing print it:
 * @names' name, else "CLASS_0xKEY" for a kernel id, else "function_ID"
 * (written into @buf).
 */
const char *tb_fdr_report_class_event(const struct tb_name_map *names,
				      uint32_t id, char *buf, size_t size);

#endif /* TB_FDR_REPORT_CLASS_H */
