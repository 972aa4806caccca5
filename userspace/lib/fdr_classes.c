// SPDX-License-Identifier: GPL-2.0
/* Event class names for the collectors' -e option; see fdr_classes.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "fdr_classes.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	uint32_t bit;
} tb_fdr_class_names[] = {
	{ "syscall", TRACEBUF_FDR_SYSCALL },
	{ "irq", TRACEBUF_FDR_IRQ },
	{ "softirq", TRACEBUF_FDR_SOFTIRQ },
	{ "workqueue", TRACEBUF_FDR_WORKQUEUE },
	{ "fault", TRACEBUF_FDR_FAULT },
	{ "sched", TRACEBUF_FDR_SCHED },
	{ "marker", TRACEBUF_FDR_MARKER },
};

static int class_bit(const char *name, uint32_t all, uint32_t *bit)
{
	size_t i;

	if (!strcmp(name, "all")) {
		*bit = all;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tb_fdr_class_names); i++) {
		if (!strcmp(name, tb_fdr_class_names[i].name)) {
			*bit = tb_fdr_class_names[i].bit;
			return 0;
		}
	}
	return -EINVAL;
}

int tb_fdr_parse_classes(const char *list, uint32_t all, uint32_t *mask,
			 char *bad, size_t bad_size)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint32_t m = 0, bit;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (class_bit(tok, all, &bit)) {
			if (bad && bad_size)
				snprintf(bad, bad_size, "%s", tok);
			free(copy);
			return -EINVAL;
		}
		m |= bit;
	}
	free(copy);
	if (!m)
		return -ENODATA;
	*mask = m;
	return 0;
}

void tb_fdr_format_classes(uint32_t mask, char *buf, size_t size)
{
	size_t i, n = 0;

	snprintf(buf, size, "none");
	for (i = 0; i < ARRAY_SIZE(tb_fdr_class_names); i++) {
		if (!(mask & tb_fdr_class_names[i].bit) || n >= size)
			continue;
		n += snprintf(buf + n, size - n, "%s%s", n ? "," : "",
			      tb_fdr_class_names[i].name);
	}
}
