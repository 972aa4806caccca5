// SPDX-License-Identifier: GPL-2.0
/* Event class names for the collectors' -e option; see format/fdr_classes.h. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "format/fdr_classes.h"
#include "util/parse.h"

const struct tb_fdr_class tb_fdr_classes[TB_FDR_NR_CLASSES] = {
	{ "syscall", TRACEBUF_FDR_SYSCALL, TRACEBUF_FDR_SPACE_SYSCALL },
	{ "irq", TRACEBUF_FDR_IRQ, TRACEBUF_FDR_SPACE_IRQ },
	{ "softirq", TRACEBUF_FDR_SOFTIRQ, TRACEBUF_FDR_SPACE_SOFTIRQ },
	{ "workqueue", TRACEBUF_FDR_WORKQUEUE, TRACEBUF_FDR_SPACE_WORK },
	{ "fault", TRACEBUF_FDR_FAULT, TRACEBUF_FDR_SPACE_FAULT },
	{ "sched", TRACEBUF_FDR_SCHED, TRACEBUF_FDR_SPACE_TASK },
	{ "marker", TRACEBUF_FDR_MARKER, 0 },
};

/* One entry per bit, in bit order. */
static_assert(TRACEBUF_FDR_ALL == (1U << TB_FDR_NR_CLASSES) - 1 &&
	       TRACEBUF_FDR_MARKER == 1U << (TB_FDR_NR_CLASSES - 1),
	       "tb_fdr_classes[] and the TRACEBUF_FDR_* classes differ");

static int class_bit(const char *name, uint32_t all, uint32_t *bit)
{
	size_t i;

	if (!strcmp(name, "all")) {
		*bit = all;
		return 0;
	}
	for (i = 0; i < TB_FDR_NR_CLASSES; i++) {
		if (!strcmp(name, tb_fdr_classes[i].name)) {
			*bit = tb_fdr_classes[i].bit;
			return 0;
		}
	}
	return -EINVAL;
}

struct class_list {
	uint32_t all, mask;
	char *bad;
	size_t bad_size;
};

static int class_word(void *ctx, const char *word)
{
	struct class_list *l = ctx;
	uint32_t bit;

	if (class_bit(word, l->all, &bit)) {
		if (l->bad && l->bad_size)
			snprintf(l->bad, l->bad_size, "%s", word);
		return -EINVAL;
	}
	l->mask |= bit;
	return 0;
}

int tb_fdr_classes_parse(const char *list, uint32_t all, uint32_t *mask,
			 char *bad, size_t bad_size)
{
	struct class_list l = { .all = all, .bad = bad, .bad_size = bad_size };
	int ret = tb_parse_words(list, class_word, &l);

	if (ret)
		return ret;
	if (!l.mask)
		return -ENODATA;
	*mask = l.mask;
	return 0;
}

void tb_fdr_classes_format(uint32_t mask, char *buf, size_t size)
{
	size_t i, n = 0;

	snprintf(buf, size, "none");
	for (i = 0; i < TB_FDR_NR_CLASSES; i++) {
		if (!(mask & tb_fdr_classes[i].bit) || n >= size)
			continue;
		n += snprintf(buf + n, size - n, "%s%s", n ? "," : "",
			      tb_fdr_classes[i].name);
	}
}
