// SPDX-License-Identifier: GPL-2.0
/* The report's scheduler section; see convert/fdr_report_sched.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_report_sched.h"
#include "format/task_map.h"
#include "util/buf.h"

int tb_fdr_report_sched_add(struct tb_fdr_report_sched *s,
			    const struct tb_fdr_record *rec,
			    const struct tb_fdr_event *ev)
{
	struct tb_fdr_report_sched_ev *e;

	if (tb_buf_array_grow(&s->ev, &s->cap_ev, s->nev + 1, sizeof(*e)))
		return -ENOMEM;
	e = &s->ev[s->nev];
	memset(e, 0, sizeof(*e));
	e->tsc = rec->tsc;
	e->cpu = rec->cpu;
	e->seq = (uint32_t)s->nev;
	if (ev->kind == TB_FDR_EV_WAKEUP) {
		e->wakeup = 1;
		e->tid = ev->wakeup.tid;
		e->prev = rec->tid;
		s->wakeups++;
	} else {
		e->tid = ev->sw.next_tid;
		e->prev = ev->sw.prev_tid;
		e->pid = rec->tid == e->tid ? rec->pid : -1;
		e->state = ev->sw.prev_state;
		s->switches++;
	}
	s->nev++;
	return 0;
}

/*
 * Time order; at one time wake-ups first (a task woken and switched in
 * at the same tick waited 0), then file order.
 */
static int sc_by_time(const void *a, const void *b)
{
	const struct tb_fdr_report_sched_ev *x = a, *y = b;

	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	if (x->wakeup != y->wakeup)
		return x->wakeup ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* sc_by_time() without the file order: @x goes before @y. */
static bool sc_before(const struct tb_fdr_report_sched_ev *x,
		      const struct tb_fdr_report_sched_ev *y)
{
	return x->tsc < y->tsc || (x->tsc == y->tsc && x->wakeup > y->wakeup);
}

/* Merge the sorted runs src[a, m) and src[m, b) into dst[a, b), stably. */
static void sc_merge(const struct tb_fdr_report_sched_ev *src,
		     struct tb_fdr_report_sched_ev *dst,
		     size_t a, size_t m, size_t b)
{
	size_t i = a, j = m, k = a;

	while (i < m && j < b)
		dst[k++] = sc_before(&src[j], &src[i]) ? src[j++] : src[i++];
	memcpy(&dst[k], &src[i], (m - i) * sizeof(*dst));
	k += m - i;
	memcpy(&dst[k], &src[j], (b - j) * sizeof(*dst));
}

/*
 * Sort the events as sc_by_time() orders them.  They come in runs
 * already in time order, one per block a CPU wrote, so the runs are
 * merged, pairs at a time: n log(runs) where qsort() took n log(n) and
 * was a third of a scheduler trace's report (the events are in file
 * order, so a stable merge keeps it at one time).  A file cut into a
 * run per event is no worse than qsort(); without the memory, qsort().
 */
static void sc_sort(struct tb_fdr_report_sched_ev *ev, size_t n)
{
	struct tb_fdr_report_sched_ev *tmp, *src = ev, *dst;
	size_t *runs, nruns = 1, i, r, w;

	for (i = 1; i < n; i++)
		nruns += sc_before(&ev[i], &ev[i - 1]);
	if (nruns == 1)
		return;
	tmp = malloc(n * sizeof(*tmp));
	runs = malloc((nruns + 1) * sizeof(*runs));
	if (!tmp || !runs) {
		free(tmp);
		free(runs);
		qsort(ev, n, sizeof(*ev), sc_by_time);
		return;
	}
	runs[0] = 0;
	for (i = 1, r = 1; i < n; i++)
		if (sc_before(&ev[i], &ev[i - 1]))
			runs[r++] = i;
	runs[nruns] = n;
	dst = tmp;
	while (nruns > 1) {
		/* runs[r, r + 2] into one; an odd last run is copied over */
		for (r = 0, w = 0; r < nruns; r += 2, w++) {
			size_t end = r + 2 <= nruns ? runs[r + 2] : runs[r + 1];

			sc_merge(src, dst, runs[r], runs[r + 1], end);
			runs[w] = runs[r];
		}
		runs[w] = n;
		nruns = w;
		src = dst;
		dst = src == ev ? tmp : ev;
	}
	if (src != ev)
		memcpy(ev, src, n * sizeof(*ev));
	free(runs);
	free(tmp);
}

/*
 * Task @tid's entry, made on first sight; NULL: idle task or no memory.
 * By a hash, not a sorted insert: a file may name a new tid in every
 * event.  The pointer is valid until the next new task.
 */
static struct tb_fdr_report_sched_task *
sc_task(struct tb_fdr_report_sched *s, int32_t tid, int *oom)
{
	struct tb_fdr_report_sched_task *t;
	uint32_t at;

	if (tb_task_map_idle_cpu(tid) >= 0)
		return NULL;
	at = tb_hash_get(&s->index, (uint32_t)tid);
	if (at)
		return &s->tasks[at - 1];
	if (tb_buf_array_grow(&s->tasks, &s->cap_tasks, s->ntasks + 1,
			      sizeof(*t)) ||
	    tb_hash_put(&s->index, (uint32_t)tid, (uint32_t)s->ntasks + 1)) {
		*oom = 1;
		return NULL;
	}
	t = &s->tasks[s->ntasks++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
}

static int sc_by_tid(const void *a, const void *b)
{
	const struct tb_fdr_report_sched_task *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static struct tb_fdr_report_sched_cpu *
sc_cpu(struct tb_fdr_report_sched *s, uint16_t cpu)
{
	struct tb_fdr_report_sched_cpu *v;
	unsigned int n = cpu + 1U;

	if (cpu < s->ncpus)
		return &s->cpus[cpu];
	v = realloc(s->cpus, n * sizeof(*v));
	if (!v)
		return NULL;
	memset(v + s->ncpus, 0, (n - s->ncpus) * sizeof(*v));
	s->cpus = v;
	s->ncpus = n;
	return &s->cpus[cpu];
}

/* Keep @d among the @top longest (sorted, longest first). */
static void sc_longest(struct tb_fdr_report_sched *s,
		       const struct tb_fdr_report_sched_delay *d)
{
	unsigned int i, n = s->nlongest;

	if (!s->top || (n == s->top && d->ticks <= s->longest[n - 1].ticks))
		return;
	if (n < s->top)
		n++;
	for (i = n - 1; i > 0 && s->longest[i - 1].ticks < d->ticks; i--)
		s->longest[i] = s->longest[i - 1];
	s->longest[i] = *d;
	s->nlongest = n;
}

bool tb_fdr_report_sched_shown(const struct tb_fdr_report_sched_filter *f,
			       int32_t tid, int32_t pid)
{
	if (f->pid >= 0 && pid != f->pid)
		return false;
	return f->tid < 0 || tid == f->tid ||
	       tb_task_map_shown_tid(tid) == f->tid;
}

/* Task @t is switched in on @e->cpu at @e->tsc. */
static int sc_in(struct tb_fdr_report_sched *s,
		 struct tb_fdr_report_sched_task *t,
		 const struct tb_fdr_report_sched_ev *e,
		 const struct tb_fdr_report_sched_filter *f,
		 uint64_t (*ns)(const void *, uint64_t), const void *ctx)
{
	struct tb_fdr_report_sched_delay d;
	unsigned int b;

	/*
	 * With --cpu, a task's numbers are its own on that CPU: switches in
	 * and waits that ended there, time off the CPU until it came back
	 * there (and time on it, in sc_out()).
	 */
	bool here = f->cpu < 0 || e->cpu == f->cpu;

	if (here)
		t->switches++;
	if (e->pid >= 0)
		t->pid = e->pid;
	if (t->off_known && here)
		t->off[t->state] += e->tsc - t->since;
	if (t->waiting && here) {
		d = (struct tb_fdr_report_sched_delay){
			.wake_tsc = t->wake_tsc, .ticks = e->tsc - t->wake_tsc,
			.tid = t->tid, .cpu = e->cpu,
			.preempted = t->off_known &&
				     t->state == TRACEBUF_FDR_STATE_RUNNING,
		};
		if (tb_latency_add(&t->runq, d.ticks))
			return -ENOMEM;
		b = tb_latency_log2(ns(ctx, d.ticks));
		t->runq_log2_ns[b]++;
		if (tb_fdr_report_sched_shown(f, t->tid, t->pid) &&
		    (f->cpu < 0 || e->cpu == f->cpu)) {
			if (tb_latency_add(&s->all, d.ticks))
				return -ENOMEM;
			s->all_log2_ns[b]++;
			sc_longest(s, &d);
		}
	}
	t->waiting = false;
	t->off_known = false;
	t->running = true;
	t->since = e->tsc;
	return 0;
}

/* Task @t leaves its CPU at @e->tsc in state @e->state. */
static void sc_out(struct tb_fdr_report_sched_task *t,
		   const struct tb_fdr_report_sched_ev *e,
		   const struct tb_fdr_report_sched_filter *f)
{
	if (t->running && (f->cpu < 0 || e->cpu == f->cpu))
		t->on += e->tsc - t->since;
	t->running = false;
	t->off_known = true;
	t->state = e->state;
	t->since = e->tsc;
	/* Preempted: runnable, waiting for a CPU from now. */
	t->waiting = e->state == TRACEBUF_FDR_STATE_RUNNING;
	t->wake_tsc = e->tsc;
}

static int sc_switch(struct tb_fdr_report_sched *s,
		     const struct tb_fdr_report_sched_ev *e,
		     const struct tb_fdr_report_sched_filter *f,
		     uint64_t (*ns)(const void *, uint64_t), const void *ctx)
{
	struct tb_fdr_report_sched_cpu *c = sc_cpu(s, e->cpu);
	struct tb_fdr_report_sched_task *t;
	int oom = 0;

	if (!c)
		return -ENOMEM;
	/* What ran since the CPU's last switch was prev. */
	if (c->seen) {
		if (tb_task_map_idle_cpu(e->prev) >= 0)
			c->idle += e->tsc - c->last;
		else
			c->busy += e->tsc - c->last;
	} else {
		c->first = e->tsc;
	}
	c->seen = true;
	c->last = e->tsc;
	c->switches++;
	if (e->prev == e->tid)
		return 0;
	t = sc_task(s, e->prev, &oom);
	if (t)
		sc_out(t, e, f);
	t = sc_task(s, e->tid, &oom);
	if (t && sc_in(s, t, e, f, ns, ctx))
		return -ENOMEM;
	return oom ? -ENOMEM : 0;
}

static int sc_wakeup(struct tb_fdr_report_sched *s,
		     const struct tb_fdr_report_sched_ev *e)
{
	struct tb_fdr_report_sched_task *t;
	int oom = 0;

	t = sc_task(s, e->tid, &oom);
	if (!t)
		return oom ? -ENOMEM : 0;
	/*
	 * A task woken while still on its CPU (it had not yet switched
	 * out to sleep) does not wait; one already waiting waits from the
	 * first time it became runnable.
	 */
	if (t->running || t->waiting)
		return 0;
	t->waiting = true;
	t->wake_tsc = e->tsc;
	return 0;
}

int tb_fdr_report_sched_finish(struct tb_fdr_report_sched *s,
			       unsigned int top,
			       const struct tb_fdr_report_sched_filter *f,
			       uint64_t (*ns)(const void *ctx, uint64_t ticks),
			       const void *ctx)
{
	size_t i;
	int ret = 0;

	s->top = top;
	if (top && !s->longest) {
		s->longest = calloc(top, sizeof(*s->longest));
		if (!s->longest)
			return -ENOMEM;
	}
	sc_sort(s->ev, s->nev);
	for (i = 0; i < s->nev && !ret; i++)
		ret = s->ev[i].wakeup ? sc_wakeup(s, &s->ev[i]) :
					sc_switch(s, &s->ev[i], f, ns, ctx);
	/* The tables by tid, as the report's; the walk's events are done. */
	if (s->ntasks)
		qsort(s->tasks, s->ntasks, sizeof(*s->tasks), sc_by_tid);
	tb_hash_free(&s->index);
	free(s->ev);
	s->ev = NULL;
	s->nev = s->cap_ev = 0;
	return ret;
}

void tb_fdr_report_sched_free(struct tb_fdr_report_sched *s)
{
	size_t i;

	for (i = 0; i < s->ntasks; i++)
		tb_latency_free(&s->tasks[i].runq);
	tb_latency_free(&s->all);
	free(s->ev);
	free(s->tasks);
	free(s->cpus);
	free(s->longest);
	tb_hash_free(&s->index);
	memset(s, 0, sizeof(*s));
}

int tb_fdr_report_sched_carry_in(struct tb_fdr_report_sched *s,
				 const struct tb_fdr_report_sched_carry *c)
{
	size_t i;

	if (!c->nev)
		return 0;
	if (tb_buf_array_grow(&s->ev, &s->cap_ev, s->nev + c->nev,
			      sizeof(*s->ev)))
		return -ENOMEM;
	for (i = 0; i < c->nev; i++) {
		s->ev[s->nev] = c->ev[i];
		s->ev[s->nev].seq = (uint32_t)s->nev;
		s->nev++;
	}
	s->carried += c->nev;
	return 0;
}

int tb_fdr_report_sched_carry_out(struct tb_fdr_report_sched_carry *c,
				  const struct tb_fdr_report_sched *s)
{
	size_t i, n = 0;

	c->nev = 0;
	for (i = 0; i < s->ntasks; i++)
		n += s->tasks[i].waiting;
	if (tb_buf_array_grow(&c->ev, &c->cap, n, sizeof(*c->ev)))
		return -ENOMEM;
	for (i = 0; i < s->ntasks; i++) {
		const struct tb_fdr_report_sched_task *t = &s->tasks[i];

		if (!t->waiting)
			continue;
		c->ev[c->nev++] = (struct tb_fdr_report_sched_ev){
			.tsc = t->wake_tsc, .tid = t->tid, .prev = -1,
			.pid = -1, .wakeup = 1,
		};
	}
	return 0;
}

void tb_fdr_report_sched_carry_free(struct tb_fdr_report_sched_carry *c)
{
	free(c->ev);
	memset(c, 0, sizeof(*c));
}
