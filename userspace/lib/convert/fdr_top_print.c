// SPDX-License-Identifier: GPL-2.0
/* Printing an interval of tracebuf top; see convert/fdr_top_print.h. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "convert/fdr_report_class.h"
#include "convert/fdr_report_print.h"
#include "convert/fdr_top_print.h"
#include "util/json.h"

#define DUR	16

/* The task's command name, or "?". */
static const char *top_comm(const struct tb_fdr_top *t,
			    const struct tb_fdr_report_task *s,
			    char buf[TB_TASK_COMM_LEN])
{
	const char *c = tb_fdr_report_comm(&t->r, s->tid, s->pid, buf);

	return c ? c : "?";
}

/* A time, or "-" where the interval timed no call. */
static const char *top_dur(const struct tb_fdr_top_row *w, uint64_t ns,
			   char *buf)
{
	return w->timed ? tb_fdr_report_print_dur(ns, buf, DUR) : "-";
}

int tb_fdr_top_print_text(const struct tb_fdr_top *t,
			  const struct tb_fdr_top_print *p, FILE *out)
{
	char a[DUR], b[DUR], c[DUR], d[DUR], comm[TB_TASK_COMM_LEN];
	size_t i, n;

	fprintf(out, "tracebuf top: interval %u at %.1f s, %.2f s, %zu bytes, %" PRIu64 " events, %" PRIu64 " lost; sorted by %s%s\n",
		p->interval, p->start_s, p->length_s, p->bytes, t->r.events,
		t->r.lost, tb_fdr_top_key_name(t->key),
		p->keys ? " (keys c t p m, q quits)" : "");
	fprintf(out, "%-9s %-28s %9s %10s %10s %10s %10s\n", "CLASS", "NAME",
		"COUNT", "TOTAL", "P50", "P99", "MAX");
	n = p->names && p->names < t->nrows ? p->names : t->nrows;
	for (i = 0; i < n; i++) {
		const struct tb_fdr_top_row *w = &t->rows[i];

		fprintf(out, "%-9s %-28.28s %9" PRIu64 " %10s %10s %10s %10s\n",
			tb_fdr_report_class_name(w->func->rc), w->func->name,
			w->count, top_dur(w, w->total, a),
			top_dur(w, w->p50, b), top_dur(w, w->p99, c),
			top_dur(w, w->max, d));
	}
	if (n < t->nrows)
		fprintf(out, "(%zu more names)\n", t->nrows - n);
	fprintf(out, "\n%8s %8s %-16s %9s %10s\n", "TID", "PID", "COMM",
		"EVENTS", "TIME");
	n = p->tasks && p->tasks < t->ntasks ? p->tasks : t->ntasks;
	for (i = 0; i < n; i++) {
		const struct tb_fdr_top_task *w = &t->tasks[i];

		fprintf(out, "%8" PRId32 " %8" PRId32 " %-16s %9" PRIu64 " %10s\n",
			tb_task_map_shown_tid(w->task->tid), w->task->pid,
			top_comm(t, w->task, comm),
			w->count, tb_fdr_report_print_dur(w->time, a, DUR));
	}
	if (n < t->ntasks)
		fprintf(out, "(%zu more tasks)\n", t->ntasks - n);
	return ferror(out) ? -EIO : 0;
}

int tb_fdr_top_print_json(const struct tb_fdr_top *t,
			  const struct tb_fdr_top_print *p, FILE *out)
{
	char comm[TB_TASK_COMM_LEN];
	const char *s;
	size_t i;

	fprintf(out, "{\"interval\": %u, \"start_s\": %.3f, \"length_s\": %.3f, \"bytes\": %zu, \"events\": %" PRIu64 ", \"lost\": %" PRIu64 ", \"sort\": \"%s\", \"names\": [",
		p->interval, p->start_s, p->length_s, p->bytes, t->r.events,
		t->r.lost, tb_fdr_top_key_name(t->key));
	for (i = 0; i < t->nrows; i++) {
		const struct tb_fdr_top_row *w = &t->rows[i];

		fprintf(out, "%s{\"class\": \"%s\", \"name\": ", i ? ", " : "",
			tb_fdr_report_class_name(w->func->rc));
		fputc('"', out);
		tb_json_string(out, w->func->name, strlen(w->func->name));
		fprintf(out, "\", \"count\": %" PRIu64 ", \"timed\": %" PRIu64,
			w->count, w->timed);
		if (w->timed)
			fprintf(out, ", \"total_ns\": %" PRIu64 ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64,
				w->total, w->p50, w->p99, w->max);
		fputc('}', out);
	}
	fputs("], \"tasks\": [", out);
	for (i = 0; i < t->ntasks; i++) {
		const struct tb_fdr_top_task *w = &t->tasks[i];

		fprintf(out, "%s{\"tid\": %" PRId32 ", \"pid\": %" PRId32 ", \"comm\": ",
			i ? ", " : "", tb_task_map_shown_tid(w->task->tid),
			w->task->pid);
		s = top_comm(t, w->task, comm);
		fputc('"', out);
		tb_json_string(out, s, strlen(s));
		fprintf(out, "\", \"events\": %" PRIu64 ", \"time_ns\": %" PRIu64 "}",
			w->count, w->time);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
