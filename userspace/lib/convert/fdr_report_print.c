// SPDX-License-Identifier: GPL-2.0
/* Printing a trace's summary; see convert/fdr_report_print.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_report_errors_print.h"
#include "convert/fdr_report_print.h"
#include "convert/fdr_report_sched_print.h"
#include "util/json.h"

#define RP_PCT_NR	3
/* A marker's name and "..." */
#define RP_NAME_CUT	64
static const double rp_pcts[RP_PCT_NR] = { 50, 90, 99 };

/* @ns with a unit chosen for reading (convert/latency.h). */
static const char *rp_dur(uint64_t ns, char *buf, size_t size)
{
	return tb_latency_dur(ns, buf, size);
}

const char *tb_fdr_report_print_dur(uint64_t ns, char *buf, size_t size)
{
	return rp_dur(ns, buf, size);
}

/* Functions with completed calls, the most total time first. */
static int rp_by_total(const void *a, const void *b)
{
	const struct tb_fdr_report_func *x = *(void *const *)a;
	const struct tb_fdr_report_func *y = *(void *const *)b;

	if (x->lat.total != y->lat.total)
		return x->lat.total < y->lat.total ? 1 : -1;
	return x->lat.count < y->lat.count ? 1 : x->lat.count > y->lat.count ?
	       -1 : strcmp(x->name, y->name);
}

static int rp_by_count(const void *a, const void *b)
{
	const struct tb_fdr_report_func *x = *(void *const *)a;
	const struct tb_fdr_report_func *y = *(void *const *)b;

	if (x->points != y->points)
		return x->points < y->points ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Pointers to the functions @keep selects, sorted by @cmp. */
static struct tb_fdr_report_func **
rp_select(struct tb_fdr_report *r, bool (*keep)(const struct tb_fdr_report_func *),
	  int (*cmp)(const void *, const void *), size_t *n)
{
	struct tb_fdr_report_func **v = malloc((r->nfuncs + 1) * sizeof(*v));
	size_t i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < r->nfuncs; i++)
		if (keep(&r->funcs[i]))
			v[(*n)++] = &r->funcs[i];
	qsort(v, *n, sizeof(*v), cmp);
	return v;
}

static bool rp_has_calls(const struct tb_fdr_report_func *f)
{
	return f->lat.count;
}

static bool rp_has_points(const struct tb_fdr_report_func *f)
{
	return f->points;
}

static bool rp_incomplete(const struct tb_fdr_report_func *f)
{
	return f->no_entry || f->no_exit;
}

static bool rp_too_deep(const struct tb_fdr_report_func *f)
{
	return f->too_deep;
}

static int rp_by_deep(const void *a, const void *b)
{
	const struct tb_fdr_report_func *x = *(void *const *)a;
	const struct tb_fdr_report_func *y = *(void *const *)b;

	if (x->too_deep != y->too_deep)
		return x->too_deep < y->too_deep ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* What to call task @tid: @buf holds the name if the map does not. */
static const char *rp_task_name(const struct tb_fdr_report *r, int32_t tid,
				int32_t pid, char buf[TB_TASK_COMM_LEN])
{
	const char *c = tb_fdr_report_comm(r, tid, pid, buf);

	return c ? c : "?";
}

static void rp_heading(struct tb_fdr_report *r,
		       const struct tb_fdr_report_print *p, FILE *out)
{
	const struct tb_fdr_report_opts *o = &r->opts;
	char d[32];

	fprintf(out, "%s: XRay FDR version %u, ", p->input, r->hdr.version);
	if (r->hdr.cycle_frequency)
		fprintf(out, "clock %.3f GHz\n",
			(double)r->hdr.cycle_frequency / 1e9);
	else
		fprintf(out, "clock of unknown frequency (read as ns)\n");
	fprintf(out, "  %u CPUs, %zu tasks, %s from the first record to the last\n",
		r->ncpus, r->ntasks,
		rp_dur(tb_fdr_report_ns(r, r->last - r->first), d, sizeof(d)));
	/* The words of Documentation/tools.rst: events, records. */
	fprintf(out, "  %" PRIu64 " events (calls and point events begun, markers) in %"
		PRIu64 " function records; %" PRIu64
		" records lost (the recorder's loss reports)\n", r->events,
		r->stats.functions, r->lost);
	fprintf(out, "  names: %s; tasks: %s\n",
		p->names ? p->names : "none (ids as numbers)",
		p->tasks ? p->tasks : "none (threads as tid)");
	if (r->stats.cut_bytes)
		fprintf(out, "  CUT: its last block (at offset %llu) lacks the records of its last %llu bytes\n",
			(unsigned long long)r->stats.cut_block,
			(unsigned long long)r->stats.cut_bytes);
	if (r->tidied)
		fprintf(out, "  the records of its tasks were not in time order: ordered in memory first (fdr-tidy)\n");
	if (r->trigger.found)
		fprintf(out, "  trigger at %.6f s on CPU %u: %s\n",
			(double)tb_fdr_report_ns(r, r->trigger.tsc - r->first) /
			1e9, r->trigger.cpu, r->trigger.text);
	if (r->trigger.count > 1)
		fprintf(out, "  (the last of %llu trigger or panic events in the file)\n",
			(unsigned long long)r->trigger.count);
	if (o->pid != TB_REPORT_NO_FILTER || o->tid != TB_REPORT_NO_FILTER ||
	    o->cpu != TB_REPORT_NO_FILTER || o->classes || o->name ||
	    r->window_from || r->window_to != UINT64_MAX) {
		fprintf(out, "  filtered:");
		if (o->pid != TB_REPORT_NO_FILTER)
			fprintf(out, " pid %" PRId64, o->pid);
		if (o->tid != TB_REPORT_NO_FILTER)
			fprintf(out, " tid %" PRId64, o->tid);
		if (o->cpu != TB_REPORT_NO_FILTER)
			fprintf(out, " cpu %" PRId64, o->cpu);
		if (o->name)
			fprintf(out, " name %s", o->name);
		if (o->classes) {
			unsigned int rc;

			fprintf(out, " class");
			for (rc = 0; rc < TB_RC_NR; rc++)
				if (o->classes & (1U << rc))
					fprintf(out, " %s",
						tb_fdr_report_class_name(rc));
		}
		if (r->window_from || r->window_to != UINT64_MAX)
			fprintf(out, " time %.6f..%.6f s",
				(double)tb_fdr_report_ns(r, r->window_from >
					r->first ? r->window_from - r->first : 0) / 1e9,
				r->window_to == UINT64_MAX ?
				(double)tb_fdr_report_ns(r, r->last - r->first) / 1e9 :
				(double)tb_fdr_report_ns(r, r->window_to - r->first) / 1e9);
		fprintf(out, " (events begun in it)\n");
	}
	if (r->too_deep)
		fprintf(out, "  %" PRIu64 " calls nested deeper than %u levels in their task: counted, not timed (DEEP below)\n",
			r->too_deep, o->depth_max);
	if (r->backwards)
		fprintf(out, "  %" PRIu64 " exits earlier than their entry counted as 0\n",
			r->backwards);
	if (r->clock_back)
		fprintf(out, "  %" PRIu64 " step%s back in a task's clock (at most %" PRIu64
			" ticks, %s): records kept in file order\n",
			r->clock_back, r->clock_back == 1 ? "" : "s",
			r->clock_back_max,
			rp_dur(tb_fdr_report_ns(r, r->clock_back_max), d,
			       sizeof(d)));
}

static void rp_latencies(struct tb_fdr_report *r, FILE *out, bool *approx)
{
	struct tb_fdr_report_func **v;
	char d[RP_PCT_NR + 4][32];
	size_t n, i;
	unsigned int k;

	v = rp_select(r, rp_has_calls, rp_by_total, &n);
	if (!v || !n) {
		fprintf(out, "\nNo completed calls.\n");
		free(v);
		return;
	}
	fprintf(out, "\nLatency by event: entry to exit in one task, nested events included\n");
	fprintf(out, "%-9s %-28s %8s %10s %10s %10s %10s %10s %10s\n",
		"CLASS", "NAME", "COUNT", "TOTAL", "MIN", "P50", "P90", "P99",
		"MAX");
	for (i = 0; i < n; i++) {
		struct tb_fdr_report_func *f = v[i];

		fprintf(out, "%-9s %-28s %8" PRIu64 " %10s %10s",
			tb_fdr_report_class_name(f->rc), f->name, f->lat.count,
			rp_dur(tb_fdr_report_ns(r, f->lat.total), d[0], 32),
			rp_dur(tb_fdr_report_ns(r, f->lat.min), d[1], 32));
		for (k = 0; k < RP_PCT_NR; k++) {
			bool exact;
			uint64_t t = tb_latency_percentile(&f->lat, rp_pcts[k],
							   &exact);
			char cell[40];

			snprintf(cell, sizeof(cell), "%s%s", exact ? "" : "~",
				 rp_dur(tb_fdr_report_ns(r, t), d[2 + k], 32));
			fprintf(out, " %10s", cell);
			if (!exact)
				*approx = true;
		}
		fprintf(out, " %10s\n",
			rp_dur(tb_fdr_report_ns(r, f->lat.max), d[0], 32));
	}
	free(v);
}

/* A marker's name, "..." after it when its text was longer. */
static const char *rp_marker_name(const struct tb_fdr_report_func *m,
				  char *buf)
{
	if (!m->cut)
		return m->name;
	snprintf(buf, RP_NAME_CUT, "%s...", m->name);
	return buf;
}

static void rp_points(struct tb_fdr_report *r, FILE *out)
{
	struct tb_fdr_report_func **v;
	char name[RP_NAME_CUT];
	size_t n, i;

	v = rp_select(r, rp_has_points, rp_by_count, &n);
	if (v && (n || r->nmarkers)) {
		fprintf(out, "\nPoint events and markers\n%-9s %-28s %8s\n",
			"CLASS", "NAME", "COUNT");
		for (i = 0; i < n; i++)
			fprintf(out, "%-9s %-28s %8" PRIu64 "\n",
				tb_fdr_report_class_name(v[i]->rc), v[i]->name,
				v[i]->points);
		for (i = 0; i < r->nmarkers; i++)
			/* A longer text is counted by its first bytes. */
			fprintf(out, "%-9s %-28s %8" PRIu64 "\n", "marker",
				rp_marker_name(&r->markers[i], name),
				r->markers[i].points);
		if (r->markers_other)
			fprintf(out, "%-9s %-28s %8" PRIu64 "\n", "marker",
				"(other texts)", r->markers_other);
	}
	free(v);
	v = rp_select(r, rp_incomplete, rp_by_total, &n);
	if (v && n) {
		fprintf(out, "\nIncomplete calls, not in the latencies: the capture began or ended inside them, or a record was lost\n");
		fprintf(out, "%-9s %-28s %14s %14s\n", "CLASS", "NAME",
			"EXIT-NO-ENTRY", "ENTRY-NO-EXIT");
		for (i = 0; i < n; i++)
			fprintf(out, "%-9s %-28s %14" PRIu64 " %14" PRIu64 "\n",
				tb_fdr_report_class_name(v[i]->rc), v[i]->name,
				v[i]->no_entry, v[i]->no_exit);
	}
	free(v);
	v = rp_select(r, rp_too_deep, rp_by_deep, &n);
	if (v && n) {
		fprintf(out, "\nCalls nested deeper than %u levels in their task, not in the latencies: counted, not timed\n",
			r->opts.depth_max);
		fprintf(out, "%-9s %-28s %8s\n", "CLASS", "NAME", "DEEP");
		for (i = 0; i < n; i++)
			fprintf(out, "%-9s %-28s %8" PRIu64 "\n",
				tb_fdr_report_class_name(v[i]->rc), v[i]->name,
				v[i]->too_deep);
	}
	free(v);
}

/* A log2 histogram in nanoseconds, as bcc's print_log2_hist draws it. */
static void rp_hist(const struct tb_fdr_report_func *f, FILE *out)
{
	fprintf(out, "\n%s %s: %" PRIu64 " calls\n",
		tb_fdr_report_class_name(f->rc), f->name, f->lat.count);
	tb_latency_print_log2(f->log2_ns, out);
}

static void rp_hists(struct tb_fdr_report *r,
		     const struct tb_fdr_report_print *p, FILE *out)
{
	struct tb_fdr_report_func **v;
	size_t n, i;

	if (!p->hists)
		return;
	v = rp_select(r, rp_has_calls, rp_by_total, &n);
	if (!v || !n) {
		free(v);
		return;
	}
	fprintf(out, "\nLatency histograms of the %zu events with the most time (--hist N for more)\n",
		n < p->hists ? n : p->hists);
	for (i = 0; i < n && i < p->hists; i++)
		rp_hist(v[i], out);
	free(v);
}

/* The classes with any count in @count, as column headings. */
static unsigned int rp_columns(const struct tb_fdr_report *r,
			       unsigned int *cols)
{
	unsigned int rc, n = 0;
	size_t i;

	for (rc = 0; rc < TB_RC_NR; rc++) {
		bool any = false;

		for (i = 0; i < r->ncpus && !any; i++)
			any = r->cpus[i].count[rc];
		for (i = 0; i < r->ntasks && !any; i++)
			any = r->tasks[i].count[rc];
		if (any)
			cols[n++] = rc;
	}
	return n;
}

static void rp_tasks(struct tb_fdr_report *r, FILE *out)
{
	unsigned int cols[TB_RC_NR], nc = rp_columns(r, cols), k;
	char d[32], comm[TB_TASK_COMM_LEN];
	size_t i;

	fprintf(out, "\nTasks (events begun by each; TIME: its outermost syscalls, kfuncs, IRQs...)\n");
	fprintf(out, "%10s %10s %-16s %-7s", "TID", "PID", "COMMAND", "CPUS");
	for (k = 0; k < nc; k++)
		fprintf(out, " %9s", tb_fdr_report_class_name(cols[k]));
	fprintf(out, " %10s\n", "TIME");
	for (i = 0; i < r->ntasks; i++) {
		const struct tb_fdr_report_task *t = &r->tasks[i];
		char cpus[16] = "";
		uint64_t busy = 0, any = 0;
		unsigned int c, len = 0;

		for (k = 0; k < TB_RC_NR; k++) {
			busy += t->time[k];
			any += t->count[k];
		}
		if (!any)
			continue;
		for (c = 0; c < 64 && len < sizeof(cpus) - 4; c++)
			if (t->cpus & (1ULL << c))
				len += snprintf(cpus + len, sizeof(cpus) - len,
						"%s%u", len ? "," : "", c);
		fprintf(out, "%10d %10d %-16s %-7s",
			tb_task_map_shown_tid(t->tid), t->pid,
			rp_task_name(r, t->tid, t->pid, comm), cpus);
		for (k = 0; k < nc; k++)
			fprintf(out, " %9" PRIu64, t->count[cols[k]]);
		fprintf(out, " %10s\n",
			rp_dur(tb_fdr_report_ns(r, busy), d, sizeof(d)));
	}
}

static void rp_cpus(struct tb_fdr_report *r, FILE *out)
{
	unsigned int cols[TB_RC_NR], nc = rp_columns(r, cols), k, c;

	fprintf(out, "\nCPUs (events begun on each)\n%4s", "CPU");
	for (k = 0; k < nc; k++)
		fprintf(out, " %9s", tb_fdr_report_class_name(cols[k]));
	fprintf(out, " %9s\n", "LOST");
	for (c = 0; c < r->ncpus; c++) {
		fprintf(out, "%4u", c);
		for (k = 0; k < nc; k++)
			fprintf(out, " %9" PRIu64, r->cpus[c].count[cols[k]]);
		fprintf(out, " %9" PRIu64 "\n", r->cpus[c].lost);
	}
}

static void rp_long_line(struct tb_fdr_report *r,
			 const struct tb_fdr_report_long *l, FILE *out,
			 uint64_t zero, bool negative)
{
	char d[32], comm[TB_TASK_COMM_LEN];
	double at;

	if (negative)
		at = -(double)tb_fdr_report_ns(r, zero - l->start) / 1e9;
	else
		at = (double)tb_fdr_report_ns(r, l->start - zero) / 1e9;
	fprintf(out, "%12.6f %4u %10d %-16s %-9s %-28s %10s\n", at, l->cpu,
		tb_task_map_shown_tid(l->tid),
		rp_task_name(r, l->tid, l->pid, comm),
		l->func ? tb_fdr_report_class_name(l->func->rc) : "?",
		l->func ? l->func->name : "?",
		rp_dur(tb_fdr_report_ns(r, l->ticks), d, sizeof(d)));
}

static void rp_longest(struct tb_fdr_report *r, FILE *out)
{
	unsigned int i;

	if (!r->nlongest)
		return;
	fprintf(out, "\nThe %u longest events\n%12s %4s %10s %-16s %-9s %-28s %10s\n",
		r->nlongest, "START(s)", "CPU", "TID", "COMMAND", "CLASS",
		"NAME", "DURATION");
	for (i = 0; i < r->nlongest; i++)
		rp_long_line(r, &r->longest[i], out, r->first, false);
}

static void rp_before_text(struct tb_fdr_report *r, FILE *out)
{
	unsigned int c, top = r->opts.top, i;

	if (!r->before)
		return;
	fprintf(out, "\nEach CPU's last completed events before the trigger (START relative to it)\n");
	for (c = 0; c < r->before_cpus; c++) {
		unsigned int n = r->nbefore[c], from = n > top ? n - top : 0;

		fprintf(out, "CPU %u: %u events in the window%s\n", c, n,
			n > top ? ", the last ones:" : "");
		for (i = from; i < n; i++)
			rp_long_line(r, &r->before[(size_t)c * top + i % top],
				     out, r->trigger.tsc, true);
	}
}

int tb_fdr_report_print_text(struct tb_fdr_report *r,
			     const struct tb_fdr_report_print *p, FILE *out)
{
	bool approx = false;

	rp_heading(r, p, out);
	if (p->sched_only) {
		tb_fdr_report_sched_print_text(r, p->hists, out);
		return ferror(out) ? -EIO : 0;
	}
	rp_latencies(r, out, &approx);
	/*
	 * The bound in thousandths of a percent, rounded up: the error
	 * reaches 1/256 = 0.390625% on a bucket's lower edge, which "0.39%"
	 * would not cover.
	 */
	if (approx)
		fprintf(out, "~ from a histogram (more than %u calls): within %u.%03u%% (1/256)\n",
			TB_LATENCY_EXACT, (TB_LATENCY_ERROR_PPM + 9) / 10 / 1000,
			(TB_LATENCY_ERROR_PPM + 9) / 10 % 1000);
	rp_points(r, out);
	rp_hists(r, p, out);
	rp_tasks(r, out);
	rp_cpus(r, out);
	rp_longest(r, out);
	rp_before_text(r, out);
	tb_fdr_report_errors_print_text(r, out);
	tb_fdr_report_sched_print_text(r, p->hists, out);
	return ferror(out) ? -EIO : 0;
}

/* @s as a JSON string. */
static void rp_jstr(FILE *out, const char *s)
{
	fputc('"', out);
	tb_json_string(out, s, strlen(s));
	fputc('"', out);
}

static void rp_json_func(struct tb_fdr_report *r,
			 struct tb_fdr_report_func *f, FILE *out)
{
	unsigned int k;
	bool exact, all_exact = true;

	fprintf(out, "{\"class\": \"%s\", \"name\": ",
		tb_fdr_report_class_name(f->rc));
	rp_jstr(out, f->name);
	/* A marker's text longer than its name: said, not printed. */
	if (f->cut)
		fprintf(out, ", \"cut\": true");
	fprintf(out, ", \"count\": %" PRIu64 ", \"points\": %" PRIu64
		", \"exit_no_entry\": %" PRIu64 ", \"entry_no_exit\": %" PRIu64
		", \"too_deep\": %" PRIu64,
		f->lat.count, f->points, f->no_entry, f->no_exit, f->too_deep);
	if (f->lat.count) {
		fprintf(out, ", \"total_ns\": %" PRIu64 ", \"min_ns\": %" PRIu64
			", \"max_ns\": %" PRIu64,
			tb_fdr_report_ns(r, f->lat.total),
			tb_fdr_report_ns(r, f->lat.min),
			tb_fdr_report_ns(r, f->lat.max));
		for (k = 0; k < RP_PCT_NR; k++) {
			uint64_t t = tb_latency_percentile(&f->lat, rp_pcts[k],
							   &exact);

			fprintf(out, ", \"p%.0f_ns\": %" PRIu64, rp_pcts[k],
				tb_fdr_report_ns(r, t));
			all_exact &= exact;
		}
		fprintf(out, ", \"percentiles_exact\": %s, \"log2_ticks\": [",
			all_exact ? "true" : "false");
		for (k = 0; k < TB_LATENCY_LOG2; k++)
			fprintf(out, "%s%" PRIu64, k ? ", " : "",
				f->lat.log2[k]);
		fprintf(out, "]");
	}
	fprintf(out, "}");
}

static void rp_json_long(struct tb_fdr_report *r,
			 const struct tb_fdr_report_long *l, FILE *out,
			 uint64_t zero)
{
	char comm[TB_TASK_COMM_LEN];

	fprintf(out, "{\"start_ns\": %" PRId64 ", \"cpu\": %u, \"tid\": %d, \"pid\": %d, \"comm\": ",
		l->start >= zero ? (int64_t)tb_fdr_report_ns(r, l->start - zero) :
		-(int64_t)tb_fdr_report_ns(r, zero - l->start),
		l->cpu, tb_task_map_shown_tid(l->tid), l->pid);
	rp_jstr(out, rp_task_name(r, l->tid, l->pid, comm));
	fprintf(out, ", \"class\": \"%s\", \"name\": ",
		l->func ? tb_fdr_report_class_name(l->func->rc) : "?");
	rp_jstr(out, l->func ? l->func->name : "?");
	fprintf(out, ", \"duration_ns\": %" PRIu64 "}",
		tb_fdr_report_ns(r, l->ticks));
}

static void rp_json_counts(FILE *out, const uint64_t *count)
{
	unsigned int rc;
	bool first = true;

	fprintf(out, "{");
	for (rc = 0; rc < TB_RC_NR; rc++) {
		if (!count[rc])
			continue;
		fprintf(out, "%s\"%s\": %" PRIu64, first ? "" : ", ",
			tb_fdr_report_class_name(rc), count[rc]);
		first = false;
	}
	fprintf(out, "}");
}

int tb_fdr_report_print_json(struct tb_fdr_report *r,
			     const struct tb_fdr_report_print *p, FILE *out)
{
	unsigned int c, i, top = r->opts.top;
	char comm[TB_TASK_COMM_LEN];
	size_t k;

	fprintf(out, "{\"trace\": ");
	rp_jstr(out, p->input);
	fprintf(out, ", \"version\": %u, \"cycle_frequency\": %" PRIu64
		", \"cpus\": %u, \"span_ns\": %" PRIu64 ", \"events\": %" PRIu64
		", \"lost\": %" PRIu64 ", \"tidied\": %s, \"too_deep\": %" PRIu64
		", \"backwards\": %" PRIu64 ", \"clock_back\": %" PRIu64
		", \"clock_back_max_ns\": %" PRIu64 ", \"cut_bytes\": %" PRIu64,
		r->hdr.version, r->hdr.cycle_frequency, r->ncpus,
		tb_fdr_report_ns(r, r->last - r->first), r->events, r->lost,
		r->tidied ? "true" : "false", r->too_deep, r->backwards,
		r->clock_back, tb_fdr_report_ns(r, r->clock_back_max),
		r->stats.cut_bytes);
	if (r->trigger.found) {
		fprintf(out, ", \"trigger\": {\"at_ns\": %" PRIu64
			", \"cpu\": %u, \"tid\": %d, \"text\": ",
			tb_fdr_report_ns(r, r->trigger.tsc - r->first),
			r->trigger.cpu, tb_task_map_shown_tid(r->trigger.tid));
		rp_jstr(out, r->trigger.text);
		fprintf(out, ", \"count\": %" PRIu64 "}", r->trigger.count);
	}
	fprintf(out, ",\n\"names\": [");
	for (k = 0, i = 0; k < r->nfuncs; k++) {
		struct tb_fdr_report_func *f = &r->funcs[k];

		if (!f->lat.count && !f->points && !f->no_entry &&
		    !f->no_exit && !f->too_deep)
			continue;
		fprintf(out, "%s\n", i++ ? "," : "");
		rp_json_func(r, f, out);
	}
	for (k = 0; k < r->nmarkers; k++) {
		fprintf(out, "%s\n", i++ ? "," : "");
		rp_json_func(r, &r->markers[k], out);
	}
	/* The text output's "(other texts)": every marker is accounted for. */
	fprintf(out, "],\n\"markers_other\": %" PRIu64 ",\n\"tasks\": [",
		r->markers_other);
	for (k = 0, i = 0; k < r->ntasks; k++) {
		const struct tb_fdr_report_task *t = &r->tasks[k];
		uint64_t busy = 0;
		unsigned int rc;

		for (rc = 0; rc < TB_RC_NR; rc++)
			busy += t->time[rc];
		fprintf(out, "%s\n{\"tid\": %d, \"pid\": %d, \"comm\": ",
			i++ ? "," : "", tb_task_map_shown_tid(t->tid), t->pid);
		rp_jstr(out, rp_task_name(r, t->tid, t->pid, comm));
		fprintf(out, ", \"time_ns\": %" PRIu64 ", \"events\": ",
			tb_fdr_report_ns(r, busy));
		rp_json_counts(out, t->count);
		fprintf(out, "}");
	}
	fprintf(out, "],\n\"per_cpu\": [");
	for (c = 0; c < r->ncpus; c++) {
		uint64_t ns[TB_RC_NR];
		unsigned int rc;

		fprintf(out, "%s\n{\"cpu\": %u, \"lost\": %" PRIu64
			", \"events\": ", c ? "," : "", c, r->cpus[c].lost);
		rp_json_counts(out, r->cpus[c].count);
		/* Outermost calls begun on it, by class (the sched section's shares). */
		for (rc = 0; rc < TB_RC_NR; rc++)
			ns[rc] = tb_fdr_report_ns(r, r->cpus[c].time[rc]);
		fprintf(out, ", \"time_ns\": ");
		rp_json_counts(out, ns);
		fprintf(out, "}");
	}
	fprintf(out, "],\n\"longest\": [");
	for (i = 0; i < r->nlongest; i++) {
		fprintf(out, "%s\n", i ? "," : "");
		rp_json_long(r, &r->longest[i], out, r->first);
	}
	fprintf(out, "]");
	if (r->before) {
		fprintf(out, ",\n\"before_trigger\": [");
		for (c = 0; c < r->before_cpus; c++) {
			unsigned int n = r->nbefore[c];

			fprintf(out, "%s\n{\"cpu\": %u, \"events\": %u, \"last\": [",
				c ? "," : "", c, n);
			for (i = n > top ? n - top : 0; i < n; i++) {
				fprintf(out, "%s", i > (n > top ? n - top : 0) ?
					", " : "");
				rp_json_long(r, &r->before[(size_t)c * top +
						i % top], out, r->trigger.tsc);
			}
			fprintf(out, "]}");
		}
		fprintf(out, "]");
	}
	tb_fdr_report_errors_print_json(r, out);
	tb_fdr_report_sched_print_json(r, out);
	fprintf(out, "}\n");
	return ferror(out) ? -EIO : 0;
}

/*
 * @s in a folded stack, whose frames ';' separates: a ';' of a command
 * or function name is written as ':' (Documentation/tools.rst).
 */
static void rp_fold_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : *s, out);
}

/* The path of node @n (index + 1): "task;outer;...;inner". */
static void rp_fold_path(const struct tb_fdr_report *r, uint32_t n,
			 FILE *out)
{
	const struct tb_fdr_report_fold *f = &r->folds[n - 1];
	const struct tb_fdr_report_func *fn = NULL;
	size_t lo = 0, hi = r->nfuncs;
	char comm[TB_TASK_COMM_LEN];

	if (!f->parent) {
		rp_fold_name(out, rp_task_name(r, f->tid, f->pid, comm));
		fprintf(out, "-%d", tb_task_map_shown_tid(f->tid));
		return;
	}
	rp_fold_path(r, f->parent, out);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->funcs[mid].id < f->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nfuncs && r->funcs[lo].id == f->id)
		fn = &r->funcs[lo];
	if (fn) {
		fputc(';', out);
		rp_fold_name(out, fn->name);
	} else {
		fprintf(out, ";function_%u", f->id);
	}
}

int tb_fdr_report_print_folded(const struct tb_fdr_report *r,
			       const struct tb_fdr_report_print *p,
			       FILE *out)
{
	size_t i;

	for (i = 0; i < r->nfolds; i++) {
		const struct tb_fdr_report_fold *f = &r->folds[i];
		uint64_t v = p->fold_counts ? f->count :
			     tb_fdr_report_ns(r, f->ticks);

		if (!f->parent || !v)
			continue;
		rp_fold_path(r, (uint32_t)i + 1, out);
		fprintf(out, " %" PRIu64 "\n", v);
	}
	return ferror(out) ? -EIO : 0;
}
