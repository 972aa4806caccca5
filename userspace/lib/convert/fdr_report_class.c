// SPDX-License-Identifier: GPL-2.0
/* The classes of tracebuf report; see convert/fdr_report_class.h. */
#include <stdio.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_report_class.h"

const char *tb_fdr_report_class_name(unsigned int rc)
{
	if (rc < TB_FDR_NR_CLASSES)
		return tb_fdr_classes[rc].name;
	return rc == TB_RC_KFUNC ? "kfunc" : "function";
}

int tb_fdr_report_class(const char *name)
{
	unsigned int rc;

	for (rc = 0; rc < TB_RC_NR; rc++)
		if (!strcmp(name, tb_fdr_report_class_name(rc)))
			return (int)rc;
	return -1;
}

/* The class of kernel id @kid (0: none known). */
unsigned int tb_fdr_report_class_of(uint32_t kid)
{
	uint32_t space = TRACEBUF_FDR_ID_SPACE(kid);
	unsigned int i;

	if (!kid)
		return TB_RC_OTHER;
	if (space == TRACEBUF_FDR_SPACE_KFUNC)
		return TB_RC_KFUNC;
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		if (tb_fdr_classes[i].space && tb_fdr_classes[i].space == space)
			return i;
	return TB_RC_OTHER;
}

/* The classes of point events (faults, fork, exit): a bit each. */
uint32_t tb_fdr_report_class_points(void)
{
	uint32_t m = 0;
	unsigned int rc;

	for (rc = 0; rc < TB_FDR_NR_CLASSES; rc++)
		if (tb_fdr_classes[rc].space == TRACEBUF_FDR_SPACE_FAULT ||
		    tb_fdr_classes[rc].space == TRACEBUF_FDR_SPACE_TASK)
			m |= 1U << rc;
	return m;
}

const char *tb_fdr_report_class_event(const struct tb_name_map *names,
				      uint32_t id, char *buf, size_t size)
{
	uint32_t kid = tb_name_map_kernel_id(names, id);
	const char *name = tb_name_map_find(names, id);

	if (name)
		return name;
	if (kid)
		snprintf(buf, size, "%s_0x%x",
			 tb_fdr_report_class_name(tb_fdr_report_class_of(kid)),
			 TRACEBUF_FDR_ID_KEY(kid));
	else
		snprintf(buf, size, "function_%u", id);
	return buf;
}
