// SPDX-License-Identifier: GPL-2.0
/* One interval of tracebuf top; see convert/fdr_top.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_top.h"

static const char *const top_keys[TB_FDR_TOP_NR] = {
	"count", "total", "p99", "max",
};

const char *tb_fdr_top_key_name(enum tb_fdr_top_key key)
{
	return key < TB_FDR_TOP_NR ? top_keys[key] : "?";
}

int tb_fdr_top_key(const char *name)
{
	unsigned int k;

	for (k = 0; k < TB_FDR_TOP_NR; k++)
		if (!strcmp(name, top_keys[k]))
			return (int)k;
	/* top's keystrokes: the word's first letter, 'p' for p99 */
	if (name[0] && !name[1])
		for (k = 0; k < TB_FDR_TOP_NR; k++)
			if (name[0] == top_keys[k][0])
				return (int)k;
	return -1;
}

/* The value @key sorts by, of a name's row or a waiting task's. */
static uint64_t top_key_val(enum tb_fdr_top_key key, uint64_t count,
			    uint64_t total, uint64_t p99, uint64_t max)
{
	switch (key) {
	case TB_FDR_TOP_TOTAL:
		return total;
	case TB_FDR_TOP_P99:
		return p99;
	case TB_FDR_TOP_MAX:
		return max;
	default:
		return count;
	}
}

static uint64_t top_row_val(const struct tb_fdr_top_row *x,
			    enum tb_fdr_top_key key)
{
	return top_key_val(key, x->count, x->total, x->p99, x->max);
}

/* qsort() has no context argument: the key of the sort under way. */
static enum tb_fdr_top_key top_sort_key;

/* Largest first; ties by count, then class and name, so runs agree. */
static int top_by_key(const void *a, const void *b)
{
	const struct tb_fdr_top_row *x = a, *y = b;
	uint64_t u = top_row_val(x, top_sort_key);
	uint64_t v = top_row_val(y, top_sort_key);

	if (u != v)
		return u < v ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->func->rc != y->func->rc)
		return x->func->rc < y->func->rc ? -1 : 1;
	return strcmp(x->func->name, y->func->name);
}

/* Tasks: count by count, every other key by time. */
static int top_task_by_key(const void *a, const void *b)
{
	const struct tb_fdr_top_task *x = a, *y = b;
	bool by_count = top_sort_key == TB_FDR_TOP_COUNT;
	uint64_t u = by_count ? x->count : x->time;
	uint64_t v = by_count ? y->count : y->time;

	if (u != v)
		return u < v ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->task->tid < y->task->tid ? -1 : x->task->tid > y->task->tid;
}

static uint64_t top_wait_val(const struct tb_fdr_top_wait *x,
			     enum tb_fdr_top_key key)
{
	return top_key_val(key, x->count, x->total, x->p99, x->max);
}

/* Tasks that waited for a CPU: by key, then total, then tid. */
static int top_wait_by_key(const void *a, const void *b)
{
	const struct tb_fdr_top_wait *x = a, *y = b;
	uint64_t u = top_wait_val(x, top_sort_key);
	uint64_t v = top_wait_val(y, top_sort_key);

	if (u != v)
		return u < v ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->task->tid < y->task->tid ? -1 : x->task->tid > y->task->tid;
}

void tb_fdr_top_sort(struct tb_fdr_top *t, enum tb_fdr_top_key key)
{
	t->key = key;
	top_sort_key = key;
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof(*t->rows), top_by_key);
	if (t->ntasks)
		qsort(t->tasks, t->ntasks, sizeof(*t->tasks), top_task_by_key);
	if (t->sched.ntasks)
		qsort(t->sched.tasks, t->sched.ntasks, sizeof(*t->sched.tasks),
		      top_wait_by_key);
}

/*
 * The process of task @st: its blocks' (the report's tasks), else the
 * switches' in its own block, else 0, as the report's scheduler text.
 */
static int32_t top_wait_pid(const struct tb_fdr_report *r,
			    const struct tb_fdr_report_sched_task *st)
{
	size_t i = tb_task_map_index(r->tasks, r->ntasks, sizeof(*r->tasks),
				     st->tid);

	return i < r->ntasks && r->tasks[i].tid == st->tid ? r->tasks[i].pid :
							    st->pid;
}

/*
 * The report's scheduler section of the interval, in nanoseconds: no
 * computation of its own, only the cut to what top shows.
 */
static int top_collect_sched(struct tb_fdr_top *t)
{
	struct tb_fdr_report_sched *s = &t->r.sched;
	struct tb_fdr_top_sched *w = &t->sched;
	const struct tb_fdr_report *r = &t->r;
	bool exact;
	size_t i;
	unsigned int k;

	w->present = s->switches || s->wakeups || s->malformed;
	if (!w->present)
		return 0;
	w->malformed = s->malformed;
	w->switches = s->switches;
	w->wakeups = s->wakeups;
	w->carried = s->carried;
	w->count = s->all.count;
	if (s->all.count) {
		w->total = tb_fdr_report_ns(r, s->all.total);
		w->max = tb_fdr_report_ns(r, s->all.max);
		w->p50 = tb_fdr_report_ns(r,
			tb_latency_percentile(&s->all, 50, &exact));
		w->p99 = tb_fdr_report_ns(r,
			tb_latency_percentile(&s->all, 99, &exact));
	}
	w->tasks = calloc(s->ntasks + 1, sizeof(*w->tasks));
	if (!w->tasks)
		return -ENOMEM;
	for (i = 0; i < s->ntasks; i++) {
		struct tb_fdr_report_sched_task *st = &s->tasks[i];
		struct tb_fdr_top_wait *x = &w->tasks[w->ntasks];

		w->waiting += st->waiting;
		for (k = 0; k < TRACEBUF_FDR_STATES; k++)
			w->off[k] += st->off[k];
		if (!st->runq.count)
			continue;
		x->task = st;
		x->pid = top_wait_pid(r, st);
		x->count = st->runq.count;
		x->total = tb_fdr_report_ns(r, st->runq.total);
		x->max = tb_fdr_report_ns(r, st->runq.max);
		x->p99 = tb_fdr_report_ns(r,
			tb_latency_percentile(&st->runq, 99, &exact));
		w->ntasks++;
	}
	/* Summed in ticks, converted once: as the report's total. */
	for (k = 0; k < TRACEBUF_FDR_STATES; k++)
		w->off[k] = tb_fdr_report_ns(r, w->off[k]);
	return 0;
}

/* The report's numbers of the interval, in nanoseconds. */
static int top_collect(struct tb_fdr_top *t)
{
	struct tb_fdr_report *r = &t->r;
	size_t i;
	unsigned int k;
	bool exact;

	t->rows = calloc(r->nfuncs + 1, sizeof(*t->rows));
	t->tasks = calloc(r->ntasks + 1, sizeof(*t->tasks));
	if (!t->rows || !t->tasks)
		return -ENOMEM;
	for (i = 0; i < r->nfuncs; i++) {
		struct tb_fdr_report_func *f = &r->funcs[i];
		struct tb_fdr_top_row *w = &t->rows[t->nrows];

		if (!f->selected)
			continue;
		w->count = f->lat.count + f->no_entry + f->points;
		if (!w->count)
			continue;
		w->func = f;
		w->timed = f->lat.count;
		if (f->lat.count) {
			w->total = tb_fdr_report_ns(r, f->lat.total);
			w->max = tb_fdr_report_ns(r, f->lat.max);
			w->p50 = tb_fdr_report_ns(r,
				tb_latency_percentile(&f->lat, 50, &exact));
			w->p99 = tb_fdr_report_ns(r,
				tb_latency_percentile(&f->lat, 99, &exact));
		}
		t->nrows++;
	}
	for (i = 0; i < r->ntasks; i++) {
		const struct tb_fdr_report_task *s = &r->tasks[i];
		struct tb_fdr_top_task *w = &t->tasks[t->ntasks];
		uint64_t ticks = 0;

		w->task = s;
		for (k = 0; k < TB_RC_NR; k++) {
			w->count += s->count[k];
			ticks += s->time[k];
		}
		w->time = tb_fdr_report_ns(r, ticks);
		if (w->count)
			t->ntasks++;
	}
	return 0;
}

int tb_fdr_top_run(struct tb_fdr_top *t, const void *data, size_t len,
		   const struct tb_name_map *names,
		   const struct tb_task_map *tasks,
		   const struct tb_fdr_report_opts *o, enum tb_fdr_top_key key,
		   struct tb_error *err)
{
	FILE *in;
	int ret;

	memset(t, 0, sizeof(*t));
	/* fmemopen() of 0 bytes fails: a stream has its header at least */
	if (len < 32) {
		tb_error_set(err, 0, "interval of %zu bytes: no stream header",
			     len);
		return -1;
	}
	in = fmemopen((void *)data, len, "r");
	if (!in)
		return -ENOMEM;
	ret = tb_fdr_report_run(&t->r, in, names, tasks, o, false, err);
	fclose(in);
	if (!ret)
		ret = top_collect(t);
	if (!ret)
		ret = top_collect_sched(t);
	if (!ret)
		tb_fdr_top_sort(t, key);
	return ret;
}

void tb_fdr_top_free(struct tb_fdr_top *t)
{
	tb_fdr_report_free(&t->r);
	free(t->rows);
	free(t->tasks);
	free(t->sched.tasks);
	memset(t, 0, sizeof(*t));
}
