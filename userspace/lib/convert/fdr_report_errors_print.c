// SPDX-License-Identifier: GPL-2.0
/* Printing the errors section; see convert/fdr_report_errors_print.h. */
#include <inttypes.h>
#include <string.h>

#include <linux/tracebuf_fdr.h>

#include "convert/fdr_report_errors_print.h"
#include "format/fdr_event.h"
#include "util/json.h"

/* The report's entry of function @id (funcs[] is sorted by id), or NULL. */
static const struct tb_fdr_report_func *ep_func(const struct tb_fdr_report *r,
						uint32_t id)
{
	size_t lo = 0, hi = r->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->funcs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nfuncs && r->funcs[lo].id == id ? &r->funcs[lo] : NULL;
}

/* "ENOENT", or "errno 4000" for a number without a name. */
static const char *ep_name(int err, char *buf, size_t size)
{
	const char *n = tb_fdr_event_errno_name(err);

	if (n)
		return n;
	snprintf(buf, size, "errno %d", err);
	return buf;
}

/* The failed calls of v[@i] and the ones after it of the same id. */
static uint64_t ep_failed(const struct tb_fdr_report_errors *e, size_t i)
{
	uint64_t n = 0;
	size_t k;

	for (k = i; k < e->n && e->v[k].id == e->v[i].id; k++)
		n += e->v[k].count;
	return n;
}

static bool ep_has_syscalls(const struct tb_fdr_report *r)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++)
		if ((1U << r->funcs[i].rc) == TRACEBUF_FDR_SYSCALL &&
		    r->funcs[i].selected &&
		    (r->funcs[i].lat.count || r->funcs[i].no_entry))
			return true;
	return false;
}

/* Calls of @f whose exit the trace holds: the ones a value can be of. */
static uint64_t ep_calls(const struct tb_fdr_report_func *f)
{
	return f ? f->lat.count + f->no_entry : 0;
}

void tb_fdr_report_errors_print_text(const struct tb_fdr_report *r, FILE *out)
{
	const struct tb_fdr_report_errors *e = &r->errors;
	uint64_t failed = 0;
	char buf[24];
	size_t i;

	if (!e->returns && !ep_has_syscalls(r))
		fprintf(out, "\nErrors: the trace has no system calls: record with -e syscall\n");
	else if (!e->returns)
		fprintf(out, "\nErrors: the trace has no return values (RET events): no system call failed, or its recorder wrote none: record with -e syscall\n");
	if (!e->returns) {
		/* Damaged ones are said, not hidden behind "none". */
		if (e->malformed)
			fprintf(out, "  %" PRIu64 " return values too short to read\n",
				e->malformed);
		return;
	}
	for (i = 0; i < e->n; i++)
		failed += e->v[i].count;
	fprintf(out, "\nErrors: %" PRIu64 " failed system calls (return values -4095..-1)\n",
		failed);
	if (e->unmatched || e->malformed)
		fprintf(out, "  %" PRIu64 " return values not pinned on a call (not just after its exit), %"
			PRIu64 " too short to read: not counted\n",
			e->unmatched, e->malformed);
	if (!e->n)
		return;
	fprintf(out, "%-9s %-28s %8s %8s\n", "CLASS", "NAME", "CALLS",
		"ERRORS");
	for (i = 0; i < e->n; i++) {
		const struct tb_fdr_report_func *f = ep_func(r, e->v[i].id);

		if (!i || e->v[i - 1].id != e->v[i].id)
			fprintf(out, "%-9s %-28s %8" PRIu64 " %8" PRIu64 "\n",
				f ? tb_fdr_report_class_name(f->rc) : "?",
				f ? f->name : "?", ep_calls(f), ep_failed(e, i));
		fprintf(out, "%38s %-16s %" PRIu64 "\n", "",
			ep_name(e->v[i].err, buf, sizeof(buf)), e->v[i].count);
	}
}

void tb_fdr_report_errors_print_json(const struct tb_fdr_report *r, FILE *out)
{
	const struct tb_fdr_report_errors *e = &r->errors;
	char buf[24];
	size_t i;
	int n = 0;

	fprintf(out, ",\n\"errors\": {\"returns\": %" PRIu64 ", \"pinned\": %"
		PRIu64 ", \"unmatched\": %" PRIu64 ", \"malformed\": %" PRIu64
		", \"calls\": [", e->returns, e->pinned, e->unmatched,
		e->malformed);
	for (i = 0; i < e->n; i++) {
		const struct tb_fdr_report_func *f = ep_func(r, e->v[i].id);
		const char *name;

		if (i && e->v[i - 1].id == e->v[i].id) {
			fprintf(out, ", ");
		} else {
			fprintf(out, "%s\n{\"class\": \"%s\", \"name\": \"",
				i ? "}}," : "",
				f ? tb_fdr_report_class_name(f->rc) : "?");
			name = f ? f->name : "?";
			tb_json_string(out, name, strlen(name));
			fprintf(out, "\", \"calls\": %" PRIu64 ", \"failed\": %"
				PRIu64 ", \"errnos\": {", ep_calls(f),
				ep_failed(e, i));
			n++;
		}
		name = ep_name(e->v[i].err, buf, sizeof(buf));
		fprintf(out, "\"%s\": %" PRIu64, name, e->v[i].count);
	}
	fprintf(out, "%s]}", n ? "}}" : "");
}
