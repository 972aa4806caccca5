// SPDX-License-Identifier: GPL-2.0
/* Printing the scheduler section; see convert/fdr_report_sched_print.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_report_sched_print.h"
#include "format/fdr_event.h"
#include "util/json.h"

#define SP_DUR	32

/* The process of task @tid, as its blocks say; 0 if it has none. */
static int32_t sp_pid(const struct tb_fdr_report *r, int32_t tid)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	size_t i = tb_task_map_index(r->tasks, r->ntasks, sizeof(*r->tasks),
				     tid);

	if (i < r->ntasks && r->tasks[i].tid == tid)
		return r->tasks[i].pid;
	i = tb_task_map_index(s->tasks, s->ntasks, sizeof(*s->tasks), tid);
	return i < s->ntasks && s->tasks[i].tid == tid ? s->tasks[i].pid : 0;
}

static const char *sp_comm(const struct tb_fdr_report *r, int32_t tid,
			   char buf[TB_TASK_COMM_LEN])
{
	const char *c = tb_fdr_report_comm(r, tid, sp_pid(r, tid), buf);

	return c ? c : "?";
}

/* Whether @t is a row of the tables: --pid and --tid. */
static bool sp_shown(const struct tb_fdr_report *r,
		     const struct tb_fdr_report_sched_task *t)
{
	struct tb_fdr_report_sched_filter f = {
		.pid = r->opts.pid, .tid = r->opts.tid, .cpu = r->opts.cpu,
	};

	/* With --cpu, a task that did nothing there is no row. */
	if (f.cpu != TB_REPORT_NO_FILTER && !t->switches && !t->runq.count &&
	    !t->on)
		return false;
	return tb_fdr_report_sched_shown(&f, t->tid, sp_pid(r, t->tid));
}

/* Whether CPU @c is a row of the tables: --cpu. */
static bool sp_cpu_shown(const struct tb_fdr_report *r, unsigned int c)
{
	return r->opts.cpu == TB_REPORT_NO_FILTER || r->opts.cpu == c;
}

/*
 * Did CPU @c switch, or run a class's events?  A CPU number that only a
 * damaged or hostile switch names (CPU 65534) gets no row of its own,
 * nor do the numbers below it that nothing ran on.
 */
static bool sp_cpu_seen(const struct tb_fdr_report *r, unsigned int c)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	unsigned int rc;

	if (c < s->ncpus && s->cpus[c].switches)
		return true;
	for (rc = 0; c < r->ncpus && rc < TB_RC_NR; rc++)
		if (r->cpus[c].time[rc])
			return true;
	return false;
}

static const char *sp_dur(const struct tb_fdr_report *r, uint64_t ticks,
			  char *buf)
{
	return tb_latency_dur(tb_fdr_report_ns(r, ticks), buf, SP_DUR);
}

/* The states any task left a CPU in, as columns. */
static unsigned int sp_states(const struct tb_fdr_report_sched *s,
			      unsigned int *cols)
{
	unsigned int st, n = 0;
	size_t i;

	for (st = 0; st < TRACEBUF_FDR_STATES; st++) {
		for (i = 0; i < s->ntasks && !s->tasks[i].off[st]; i++)
			;
		if (i < s->ntasks)
			cols[n++] = st;
	}
	return n;
}

/* Tasks with more run-queue time first. */
static int sp_by_runq(const void *a, const void *b)
{
	const struct tb_fdr_report_sched_task *x = *(void *const *)a;
	const struct tb_fdr_report_sched_task *y = *(void *const *)b;

	if (x->runq.total != y->runq.total)
		return x->runq.total < y->runq.total ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The histograms of the @hists tasks that waited longest, as runqlat -P. */
static void sp_task_hists(const struct tb_fdr_report *r, unsigned int hists,
			  FILE *out)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	const struct tb_fdr_report_sched_task **v;
	char comm[TB_TASK_COMM_LEN];
	size_t i, n = 0;

	if (!hists || !s->ntasks)
		return;
	v = malloc(s->ntasks * sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < s->ntasks; i++)
		if (s->tasks[i].runq.count && sp_shown(r, &s->tasks[i]))
			v[n++] = &s->tasks[i];
	qsort(v, n, sizeof(*v), sp_by_runq);
	for (i = 0; i < n && i < hists; i++) {
		fprintf(out, "\ntid %d %s: %" PRIu64 " waits\n",
			tb_task_map_shown_tid(v[i]->tid),
			sp_comm(r, v[i]->tid, comm), v[i]->runq.count);
		tb_latency_print_log2(v[i]->runq_log2_ns, out);
	}
	free(v);
}

static void sp_runq(const struct tb_fdr_report *r, unsigned int hists,
		    FILE *out)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	char comm[TB_TASK_COMM_LEN], d[4][SP_DUR];
	bool exact, approx = false;
	size_t i;

	fprintf(out, "\nRun-queue delay by task: from its wake-up, or its preemption, to its next switch in on any CPU\n");
	fprintf(out, "%10s %10s %-16s %8s %10s %10s %10s %10s\n", "TID", "PID",
		"COMMAND", "COUNT", "TOTAL", "P50", "P99", "MAX");
	for (i = 0; i < s->ntasks; i++) {
		struct tb_fdr_report_sched_task *t = &s->tasks[i];
		uint64_t p50, p99;

		if (!t->runq.count || !sp_shown(r, t))
			continue;
		p50 = tb_latency_percentile(&t->runq, 50, &exact);
		approx |= !exact;
		p99 = tb_latency_percentile(&t->runq, 99, &exact);
		approx |= !exact;
		fprintf(out, "%10d %10d %-16s %8" PRIu64 " %10s %10s %10s %10s\n",
			tb_task_map_shown_tid(t->tid), sp_pid(r, t->tid),
			sp_comm(r, t->tid, comm), t->runq.count, sp_dur(r, t->runq.total, d[0]),
			sp_dur(r, p50, d[1]), sp_dur(r, p99, d[2]),
			sp_dur(r, t->runq.max, d[3]));
	}
	if (approx)
		fprintf(out, "(percentiles of more than %u delays from a histogram, within %u ppm)\n",
			TB_LATENCY_EXACT, TB_LATENCY_ERROR_PPM);
	fprintf(out, "\nRun-queue delay of all tasks: %" PRIu64 " waits\n",
		s->all.count);
	tb_latency_print_log2(s->all_log2_ns, out);
	sp_task_hists(r, hists, out);
}

static void sp_oncpu(const struct tb_fdr_report *r, FILE *out)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	unsigned int cols[TRACEBUF_FDR_STATES], nc = sp_states(s, cols), k;
	char comm[TB_TASK_COMM_LEN], d[SP_DUR], head[32];
	size_t i;

	fprintf(out, "\nTime on and off a CPU by task, between its switches; off by the state it left the CPU in\n");
	fprintf(out, "%10s %10s %-16s %8s %10s", "TID", "PID", "COMMAND",
		"SWITCHES", "ON-CPU");
	for (k = 0; k < nc; k++) {
		snprintf(head, sizeof(head), "OFF-%s",
			 tb_fdr_event_state_name(cols[k]));
		fprintf(out, " %12s", head);
	}
	fputc('\n', out);
	for (i = 0; i < s->ntasks; i++) {
		const struct tb_fdr_report_sched_task *t = &s->tasks[i];

		if (!sp_shown(r, t))
			continue;
		fprintf(out, "%10d %10d %-16s %8" PRIu64 " %10s",
			tb_task_map_shown_tid(t->tid),
			sp_pid(r, t->tid), sp_comm(r, t->tid, comm),
			t->switches, sp_dur(r, t->on, d));
		for (k = 0; k < nc; k++)
			fprintf(out, " %12s", sp_dur(r, t->off[cols[k]], d));
		fputc('\n', out);
	}
}

static void sp_cpus(const struct tb_fdr_report *r, FILE *out)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	uint64_t span = r->last - r->first;
	unsigned int c, rc;
	char d[3][SP_DUR], head[24];
	bool any[TB_RC_NR] = { 0 };

	for (c = 0; c < r->ncpus; c++)
		for (rc = 0; rc < TB_RC_NR; rc++)
			any[rc] |= r->cpus[c].time[rc] != 0;
	fprintf(out, "\nCPUs: busy and idle (swapper) between their first and last switch; share of the trace's %s by class\n",
		sp_dur(r, span, d[0]));
	fprintf(out, "%4s %8s %10s %10s %10s", "CPU", "SWITCHES", "BUSY",
		"IDLE", "UNKNOWN");
	for (rc = 0; rc < TB_RC_NR; rc++) {
		if (!any[rc])
			continue;
		snprintf(head, sizeof(head), "%s%%",
			 tb_fdr_report_class_name(rc));
		fprintf(out, " %9s", head);
	}
	fputc('\n', out);
	for (c = 0; c < s->ncpus || c < r->ncpus; c++) {
		const struct tb_fdr_report_sched_cpu *sc =
			c < s->ncpus ? &s->cpus[c] : NULL;
		uint64_t busy = sc ? sc->busy : 0, idle = sc ? sc->idle : 0;

		if (!sp_cpu_shown(r, c) || !sp_cpu_seen(r, c))
			continue;
		fprintf(out, "%4u %8" PRIu64 " %10s %10s %10s", c,
			sc ? sc->switches : 0, sp_dur(r, busy, d[0]),
			sp_dur(r, idle, d[1]),
			sp_dur(r, span > busy + idle ? span - busy - idle : 0,
			       d[2]));
		for (rc = 0; rc < TB_RC_NR; rc++) {
			if (!any[rc])
				continue;
			fprintf(out, " %8.1f%%", c < r->ncpus && span ?
				100.0 * (double)r->cpus[c].time[rc] /
				(double)span : 0.0);
		}
		fputc('\n', out);
	}
}

static void sp_longest(const struct tb_fdr_report *r, FILE *out)
{
	const struct tb_fdr_report_sched *s = &r->sched;
	char comm[TB_TASK_COMM_LEN], d[SP_DUR];
	unsigned int i;

	if (!s->nlongest)
		return;
	fprintf(out, "\nThe %u longest run-queue delays\n%12s %4s %10s %-16s %10s %s\n",
		s->nlongest, "START(s)", "CPU", "TID", "COMMAND", "DELAY",
		"AFTER");
	for (i = 0; i < s->nlongest; i++) {
		const struct tb_fdr_report_sched_delay *l = &s->longest[i];

		fprintf(out, "%12.6f %4u %10d %-16s %10s %s\n",
			(double)tb_fdr_report_ns(r, l->wake_tsc - r->first) / 1e9,
			l->cpu, tb_task_map_shown_tid(l->tid),
			sp_comm(r, l->tid, comm),
			sp_dur(r, l->ticks, d),
			l->preempted ? "preempted" : "wake-up");
	}
}

void tb_fdr_report_sched_print_text(const struct tb_fdr_report *r,
				    unsigned int hists, FILE *out)
{
	const struct tb_fdr_report_sched *s = &r->sched;

	if (!s->switches) {
		fprintf(out, "\nScheduler: the trace has no context switches (SWITCH events): record with -e sched\n");
		/* What it has then is not hidden: wake-ups, damaged events. */
		if (s->wakeups || s->malformed)
			fprintf(out, "  %" PRIu64 " wake-ups without a switch to time them, %"
				PRIu64 " switch or wake-up events too short to read\n",
				s->wakeups, s->malformed);
		return;
	}
	fprintf(out, "\nScheduler: %" PRIu64 " context switches, %" PRIu64 " wake-ups\n",
		s->switches, s->wakeups);
	if (s->malformed)
		fprintf(out, "  %" PRIu64 " switch or wake-up events too short to read, left out\n",
			s->malformed);
	sp_runq(r, hists, out);
	sp_oncpu(r, out);
	sp_cpus(r, out);
	sp_longest(r, out);
}

static void sp_jstr(FILE *out, const char *str)
{
	fputc('"', out);
	tb_json_string(out, str, strlen(str));
	fputc('"', out);
}

static void sp_json_log2(const uint64_t *v, FILE *out)
{
	unsigned int k;

	fputc('[', out);
	for (k = 0; k < TB_LATENCY_LOG2; k++)
		fprintf(out, "%s%" PRIu64, k ? ", " : "", v[k]);
	fputc(']', out);
}

static void sp_json_task(struct tb_fdr_report *r,
			 struct tb_fdr_report_sched_task *t, FILE *out)
{
	char comm[TB_TASK_COMM_LEN];
	bool exact, all_exact = true;
	uint64_t p50, p99;
	unsigned int st;

	fprintf(out, "{\"tid\": %d, \"pid\": %d, \"comm\": ",
		tb_task_map_shown_tid(t->tid),
		sp_pid(r, t->tid));
	sp_jstr(out, sp_comm(r, t->tid, comm));
	fprintf(out, ", \"switches\": %" PRIu64 ", \"on_cpu_ns\": %" PRIu64
		", \"off_cpu_ns\": {", t->switches, tb_fdr_report_ns(r, t->on));
	for (st = 0; st < TRACEBUF_FDR_STATES; st++)
		fprintf(out, "%s\"%s\": %" PRIu64, st ? ", " : "",
			tb_fdr_event_state_name(st),
			tb_fdr_report_ns(r, t->off[st]));
	p50 = tb_latency_percentile(&t->runq, 50, &exact);
	all_exact &= exact;
	p99 = tb_latency_percentile(&t->runq, 99, &exact);
	all_exact &= exact;
	fprintf(out, "}, \"runq\": {\"count\": %" PRIu64 ", \"total_ns\": %" PRIu64
		", \"min_ns\": %" PRIu64 ", \"p50_ns\": %" PRIu64
		", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64
		", \"percentiles_exact\": %s, \"log2_ns\": ",
		t->runq.count, tb_fdr_report_ns(r, t->runq.total),
		tb_fdr_report_ns(r, t->runq.count ? t->runq.min : 0),
		tb_fdr_report_ns(r, p50), tb_fdr_report_ns(r, p99),
		tb_fdr_report_ns(r, t->runq.max),
		all_exact ? "true" : "false");
	sp_json_log2(t->runq_log2_ns, out);
	fprintf(out, "}}");
}

void tb_fdr_report_sched_print_json(struct tb_fdr_report *r, FILE *out)
{
	struct tb_fdr_report_sched *s = &r->sched;
	char comm[TB_TASK_COMM_LEN];
	unsigned int c;
	size_t i, n;

	fprintf(out, ",\n\"sched\": {\"switches\": %" PRIu64 ", \"wakeups\": %"
		PRIu64 ", \"malformed\": %" PRIu64 ", \"runq_log2_ns\": ",
		s->switches, s->wakeups, s->malformed);
	sp_json_log2(s->all_log2_ns, out);
	fprintf(out, ",\n\"tasks\": [");
	for (i = 0, n = 0; i < s->ntasks; i++) {
		if (!sp_shown(r, &s->tasks[i]))
			continue;
		fprintf(out, "%s\n", n++ ? "," : "");
		sp_json_task(r, &s->tasks[i], out);
	}
	fprintf(out, "],\n\"cpus\": [");
	for (c = 0, n = 0; c < s->ncpus; c++) {
		if (!sp_cpu_shown(r, c) || !sp_cpu_seen(r, c))
			continue;
		fprintf(out, "%s\n{\"cpu\": %u, \"switches\": %" PRIu64
			", \"busy_ns\": %" PRIu64 ", \"idle_ns\": %" PRIu64 "}",
			n++ ? "," : "", c, s->cpus[c].switches,
			tb_fdr_report_ns(r, s->cpus[c].busy),
			tb_fdr_report_ns(r, s->cpus[c].idle));
	}
	fprintf(out, "],\n\"longest\": [");
	for (c = 0; c < s->nlongest; c++) {
		const struct tb_fdr_report_sched_delay *l = &s->longest[c];

		fprintf(out, "%s\n{\"wake_ns\": %" PRIu64 ", \"cpu\": %u, \"tid\": %d, \"pid\": %d, \"comm\": ",
			c ? "," : "", tb_fdr_report_ns(r, l->wake_tsc - r->first),
			l->cpu, tb_task_map_shown_tid(l->tid),
			sp_pid(r, l->tid));
		sp_jstr(out, sp_comm(r, l->tid, comm));
		fprintf(out, ", \"delay_ns\": %" PRIu64 ", \"preempted\": %s}",
			tb_fdr_report_ns(r, l->ticks),
			l->preempted ? "true" : "false");
	}
	fprintf(out, "]}");
}
