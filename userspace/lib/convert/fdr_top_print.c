// SPDX-License-Identifier: GPL-2.0
/* Printing an interval of tracebuf top; see convert/fdr_top_print.h. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "convert/fdr_report_class.h"
#include "convert/fdr_report_print.h"
#include "convert/fdr_top_print.h"
#include "format/fdr_event.h"
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

/* The command name of a task that waited for a CPU, or "?". */
static const char *top_wait_comm(const struct tb_fdr_top *t,
				 const struct tb_fdr_top_wait *w,
				 char buf[TB_TASK_COMM_LEN])
{
	const char *c = tb_fdr_report_comm(&t->r, w->task->tid, w->pid, buf);

	return c ? c : "?";
}

/* The scheduler lines, when the interval holds switches or wake-ups. */
static void top_print_sched(const struct tb_fdr_top *t,
			    const struct tb_fdr_top_print *p, FILE *out)
{
	const struct tb_fdr_top_sched *s = &t->sched;
	char a[DUR], b[DUR], c[DUR], d[DUR], comm[TB_TASK_COMM_LEN];
	const char *sep = "";
	unsigned int k;
	size_t i, n;

	fprintf(out, "\nrun queue: %" PRIu64 " delays", s->count);
	if (s->count)
		fprintf(out, ", p50 %s, p99 %s, max %s, total %s",
			tb_fdr_report_print_dur(s->p50, a, DUR),
			tb_fdr_report_print_dur(s->p99, b, DUR),
			tb_fdr_report_print_dur(s->max, c, DUR),
			tb_fdr_report_print_dur(s->total, d, DUR));
	fprintf(out, "; %" PRIu64 " switches, %" PRIu64 " wake-ups, %" PRIu64 " waits carried in, %" PRIu64 " still waiting",
		s->switches, s->wakeups, s->carried, s->waiting);
	if (s->malformed)
		fprintf(out, "; %" PRIu64 " switch or wake-up events too short to read",
			s->malformed);
	fputc('\n', out);
	fputs("off cpu:", out);
	for (k = 0; k < TRACEBUF_FDR_STATES; k++) {
		if (!s->off[k])
			continue;
		fprintf(out, "%s %c %s", sep, tb_fdr_event_state_letter(k),
			tb_fdr_report_print_dur(s->off[k], a, DUR));
		sep = ",";
	}
	fputs(*sep ? "\n" : " -\n", out);
	if (!s->ntasks)
		return;
	fprintf(out, "%8s %8s %-16s %9s %10s %10s %10s\n", "TID", "PID",
		"COMM", "WAITS", "WAITED", "P99", "MAX");
	n = p->tasks && p->tasks < s->ntasks ? p->tasks : s->ntasks;
	for (i = 0; i < n; i++) {
		const struct tb_fdr_top_wait *w = &s->tasks[i];

		fprintf(out, "%8" PRId32 " %8" PRId32 " %-16s %9" PRIu64 " %10s %10s %10s\n",
			tb_task_map_shown_tid(w->task->tid), w->pid,
			top_wait_comm(t, w, comm), w->count,
			tb_fdr_report_print_dur(w->total, a, DUR),
			tb_fdr_report_print_dur(w->p99, b, DUR),
			tb_fdr_report_print_dur(w->max, c, DUR));
	}
	if (n < s->ntasks)
		fprintf(out, "(%zu more tasks waited)\n", s->ntasks - n);
}

/* The JSON "sched" object, when the interval holds switches or wake-ups. */
static void top_json_sched(const struct tb_fdr_top *t, FILE *out)
{
	const struct tb_fdr_top_sched *s = &t->sched;
	char comm[TB_TASK_COMM_LEN];
	const char *sep = "";
	const char *c;
	unsigned int k;
	size_t i;

	fprintf(out, ", \"sched\": {\"switches\": %" PRIu64 ", \"wakeups\": %" PRIu64 ", \"malformed\": %" PRIu64 ", \"carried\": %" PRIu64 ", \"waiting\": %" PRIu64 ", \"runq\": {\"count\": %" PRIu64,
		s->switches, s->wakeups, s->malformed, s->carried, s->waiting,
		s->count);
	if (s->count)
		fprintf(out, ", \"total_ns\": %" PRIu64 ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64,
			s->total, s->p50, s->p99, s->max);
	fputs("}, \"off_ns\": {", out);
	for (k = 0; k < TRACEBUF_FDR_STATES; k++) {
		if (!s->off[k])
			continue;
		fprintf(out, "%s\"%c\": %" PRIu64, sep,
			tb_fdr_event_state_letter(k), s->off[k]);
		sep = ", ";
	}
	fputs("}, \"tasks\": [", out);
	for (i = 0; i < s->ntasks; i++) {
		const struct tb_fdr_top_wait *w = &s->tasks[i];

		fprintf(out, "%s{\"tid\": %" PRId32 ", \"pid\": %" PRId32 ", \"comm\": \"",
			i ? ", " : "", tb_task_map_shown_tid(w->task->tid),
			w->pid);
		c = top_wait_comm(t, w, comm);
		tb_json_string(out, c, strlen(c));
		fprintf(out, "\", \"waits\": %" PRIu64 ", \"total_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64 "}",
			w->count, w->total, w->p99, w->max);
	}
	fputs("]}", out);
}

int tb_fdr_top_print_text(const struct tb_fdr_top *t,
			  const struct tb_fdr_top_print *p, FILE *out)
{
	char a[DUR], b[DUR], c[DUR], d[DUR], comm[TB_TASK_COMM_LEN];
	size_t i, n;

	fprintf(out, "tracebuf top: interval %u at %.1f s, %.2f s, %zu bytes, %" PRIu64 " events, %" PRIu64 " lost",
		p->interval, p->start_s, p->length_s, p->bytes, t->r.events,
		t->r.lost);
	if (p->attached)
		fprintf(out, ", %" PRIu64 " pages missed", p->missed);
	fprintf(out, "; sorted by %s%s\n", tb_fdr_top_key_name(t->key),
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
	if (t->sched.present)
		top_print_sched(t, p, out);
	return ferror(out) ? -EIO : 0;
}

int tb_fdr_top_print_json(const struct tb_fdr_top *t,
			  const struct tb_fdr_top_print *p, FILE *out)
{
	char comm[TB_TASK_COMM_LEN];
	const char *s;
	size_t i;

	fprintf(out, "{\"interval\": %u, \"start_s\": %.3f, \"length_s\": %.3f, \"bytes\": %zu, \"events\": %" PRIu64 ", \"lost\": %" PRIu64 ", ",
		p->interval, p->start_s, p->length_s, p->bytes, t->r.events,
		t->r.lost);
	if (p->attached)
		fprintf(out, "\"missed_pages\": %" PRIu64 ", ", p->missed);
	fprintf(out, "\"sort\": \"%s\", \"names\": [",
		tb_fdr_top_key_name(t->key));
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
	fputs("]", out);
	if (t->sched.present)
		top_json_sched(t, out);
	fputs("}\n", out);
	return ferror(out) ? -EIO : 0;
}
