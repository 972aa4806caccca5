// SPDX-License-Identifier: GPL-2.0
/* Kernel id names from the uapi header and /proc (device/fdr_knames.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "device/fdr_knames.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const softirq_names[] = TRACEBUF_FDR_SOFTIRQ_NAMES;
static const char *const fault_names[] = TRACEBUF_FDR_FAULT_NAMES;
static const char *const task_names[] = TRACEBUF_FDR_TASK_NAMES;

static void names(FILE *out, uint32_t space, const char *what,
		  const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "0x%x %s %s\n",
			(uint32_t)TRACEBUF_FDR_ID(space, i), what, v[i]);
}

void tb_fdr_knames_fixed(FILE *out)
{
	names(out, TRACEBUF_FDR_SPACE_SOFTIRQ, "softirq", softirq_names,
	      ARRAY_LEN(softirq_names));
	names(out, TRACEBUF_FDR_SPACE_FAULT, "fault", fault_names,
	      ARRAY_LEN(fault_names));
	names(out, TRACEBUF_FDR_SPACE_TASK, "task", task_names,
	      ARRAY_LEN(task_names));
}

/*
 * A line is "IRQ:", one count per CPU of the header line, then chip,
 * hardware irq and type, then the actions separated by ", ".  Lines such
 * as "NMI:" or "ERR:" have no number and are skipped.
 */
int tb_fdr_knames_irqs(FILE *interrupts, const uint64_t *seen, FILE *out)
{
	char *line = NULL, *tok, *save;
	size_t cap = 0;
	int ncpu = 0, i, written = 0;

	if (getline(&line, &cap, interrupts) > 0)
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			ncpu++;
	while (getline(&line, &cap, interrupts) > 0) {
		char *end, *name = NULL;
		unsigned long irq;

		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		irq = strtoul(tok, &end, 10);
		if (end == tok || *end != ':' || irq >= TB_FDR_KNAMES_IRQS ||
		    !(seen[irq / 64] & (1ULL << (irq % 64))))
			continue;
		for (i = 0; i < ncpu + 2 && tok; i++)
			tok = strtok_r(NULL, " \t\n", &save);
		if (tok)
			name = strtok_r(NULL, ",\n", &save);
		while (name && *name == ' ')
			name++;
		if (!name || !*name)
			continue;
		fprintf(out, "0x%x irq %s\n",
			(uint32_t)TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, irq),
			name);
		written++;
	}
	free(line);
	return written;
}

int tb_fdr_knames_work(FILE *kallsyms, const uint64_t *fns, size_t n,
		       FILE *out)
{
	char **name = calloc(n + 1, sizeof(*name));
	char *line = NULL;
	size_t cap = 0, i;
	int found = 0;

	if (!name)
		return -ENOMEM;
	while (n && kallsyms && getline(&line, &cap, kallsyms) > 0) {
		char sym[256], mod[64] = "", type;
		unsigned long long addr;
		int k = sscanf(line, "%llx %c %255s [%63[^]]]", &addr, &type,
			       sym, mod);

		if (k < 3)
			continue;
		for (i = 0; i < n; i++) {
			if (fns[i] != addr || name[i])
				continue;
			if (asprintf(&name[i], k == 4 ? "%s [%s]" : "%s", sym,
				     mod) < 0) {
				name[i] = NULL;
				found = -ENOMEM;
				goto out;
			}
			found++;
		}
	}
	for (i = 0; i < n; i++) {
		uint32_t id = TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_WORK, i);

		if (name[i])
			fprintf(out, "0x%x work %s\n", id, name[i]);
		else
			fprintf(out, "0x%x work 0x%llx\n", id,
				(unsigned long long)fns[i]);
	}
out:
	for (i = 0; i < n; i++)
		free(name[i]);
	free(name);
	free(line);
	return found;
}
