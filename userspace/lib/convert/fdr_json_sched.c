// SPDX-License-Identifier: GPL-2.0
/* CPU tracks from switches, wake-ups as flows; see convert/fdr_json_sched.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_json_sched.h"
#include "format/fdr_event.h"
#include "util/buf.h"

/* The times of CPU @cpu's records, grown to hold it. */
static struct fj_cpu_span *fj_span(struct fj_ctx *c, uint16_t cpu)
{
	size_t n = c->ncpus;

	if (cpu >= n) {
		if (tb_buf_array_grow(&c->cpus, &c->cpucap, (size_t)cpu + 1,
				      sizeof(*c->cpus)))
			return NULL;
		memset(&c->cpus[n], 0, ((size_t)cpu + 1 - n) * sizeof(*c->cpus));
		c->ncpus = (size_t)cpu + 1;
	}
	return &c->cpus[cpu];
}

int tb_fdr_json_sched_scan(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	struct fj_cpu_span *s;
	struct tb_fdr_event ev;

	if (r->kind != TB_FDR_FUNCTION && r->kind != TB_FDR_CUSTOM &&
	    r->kind != TB_FDR_TYPED)
		return 0;
	s = fj_span(c, r->cpu);
	if (!s)
		return -ENOMEM;
	if (!s->seen || r->tsc < s->first)
		s->first = r->tsc;
	if (!s->seen || r->tsc > s->last)
		s->last = r->tsc;
	s->seen = true;
	switch (tb_fdr_event_decode(r, &ev)) {
	case TB_FDR_EV_SWITCH:
		if (tb_buf_array_grow(&c->sw, &c->swcap, c->nsw + 1,
				      sizeof(*c->sw)))
			return -ENOMEM;
		c->sw[c->nsw++] = (struct fj_switch){
			.tsc = r->tsc, .cpu = r->cpu,
			.prev_tid = ev.sw.prev_tid, .next_tid = ev.sw.next_tid,
			/* the record opens next's block: its pid is the block's */
			.next_pid = ev.sw.next_tid == r->tid ? r->pid : -1,
			.seq = c->nsw,
		};
		s->switches++;
		break;
	case TB_FDR_EV_WAKEUP:
		if (tb_buf_array_grow(&c->wk, &c->wkcap, c->nwk + 1,
				      sizeof(*c->wk)))
			return -ENOMEM;
		c->wk[c->nwk++] = (struct fj_wakeup){
			.tsc = r->tsc, .cpu = r->cpu, .tid = ev.wakeup.tid,
		};
		break;
	default:
		break;
	}
	return 0;
}

static int fj_cmp_switch(const void *a, const void *b)
{
	const struct fj_switch *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	/* At one time, in file order: the last one says who has the CPU. */
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* For the flows: switches by the task switched in, then time. */
static int fj_cmp_in(const void *a, const void *b)
{
	const struct fj_switch_in *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

int tb_fdr_json_sched_prepare(struct fj_ctx *c)
{
	size_t i;

	if (!c->nsw)
		return 0;	/* no switch: nothing to draw (and no qsort(NULL)) */
	/* A task seen only as a switch's prev: its thread by tid alone. */
	for (i = 0; i < c->nth; i++)
		if (!tb_hash_get(&c->tidmap, (uint32_t)c->th[i].tid) &&
		    tb_hash_put(&c->tidmap, (uint32_t)c->th[i].tid,
				(uint32_t)i + 1))
			return -ENOMEM;
	qsort(c->sw, c->nsw, sizeof(*c->sw), fj_cmp_switch);
	for (i = c->nsw; i > 0; i--)
		c->cpus[c->sw[i - 1].cpu].at = i - 1;
	if (!c->nwk)
		return 0;
	c->sw_in = malloc(c->nsw * sizeof(*c->sw_in));
	if (!c->sw_in)
		return -ENOMEM;
	for (i = 0; i < c->nsw; i++)
		c->sw_in[i] = (struct fj_switch_in){
			.tid = c->sw[i].next_tid, .tsc = c->sw[i].tsc, .at = i,
		};
	qsort(c->sw_in, c->nsw, sizeof(*c->sw_in), fj_cmp_in);
	return 0;
}

bool tb_fdr_json_sched_has_switches(const struct fj_ctx *c, uint16_t cpu)
{
	return cpu < c->ncpus && c->cpus[cpu].switches;
}

/* The thread of @tid: of @pid when known (>= 0), else any of its. */
static const struct fj_thread *fj_find(const struct fj_ctx *c, int32_t pid,
				       int32_t tid)
{
	uint32_t i = 0;

	if (pid >= 0)
		i = tb_hash_get(&c->thmap, (uint64_t)(uint32_t)pid << 32 |
					   (uint32_t)tid);
	if (!i)
		i = tb_hash_get(&c->tidmap, (uint32_t)tid);
	return i ? &c->th[i - 1] : NULL;
}

/* Task @tid on CPU @cpu from @from to @to. */
static void fj_task_slice(struct fj_ctx *c, uint16_t cpu, int32_t pid,
			  int32_t tid, uint64_t from, uint64_t to)
{
	const struct fj_thread *t;
	char buf[TB_TASK_COMM_LEN];
	const char *comm;

	if (to <= from)
		return;
	t = fj_find(c, pid, tid);
	comm = t ? t->comm : NULL;
	if (!comm)
		comm = tb_task_map_comm(c->tasks, tid, buf);
	if (t)
		pid = t->pid;
	else if (pid < 0)
		pid = tb_task_map_idle_cpu(tid) >= 0 ? 0 : -1;
	tb_fdr_json_out_cpu_slice(c, cpu, pid, tid, comm, from, to);
}

/*
 * From each switch to the next, the task switched in; one task's
 * stretches that meet (a switch from a task to itself) are one slice.
 */
void tb_fdr_json_sched_track(struct fj_ctx *c, uint16_t cpu)
{
	const struct fj_cpu_span *s = &c->cpus[cpu];
	const struct fj_switch *sw = &c->sw[s->at];
	size_t n = s->switches, i;
	uint64_t from = s->first;
	int32_t tid = sw[0].prev_tid, pid = -1;

	for (i = 0; i < n; i++) {
		if (sw[i].next_tid == tid && (pid < 0 || sw[i].next_pid == pid))
			continue;
		fj_task_slice(c, cpu, pid, tid, from, sw[i].tsc);
		from = sw[i].tsc;
		tid = sw[i].next_tid;
		pid = sw[i].next_pid;
	}
	fj_task_slice(c, cpu, pid, tid, from, s->last);
}

/* The end of the slice switch @j begins: the CPU's next switch, or its end. */
static uint64_t fj_slice_end(const struct fj_ctx *c, size_t j)
{
	const struct fj_switch *sw = &c->sw[j];

	if (j + 1 < c->nsw && c->sw[j + 1].cpu == sw->cpu)
		return c->sw[j + 1].tsc;
	return c->cpus[sw->cpu].last;
}

static void fj_flow(struct fj_ctx *c, char ph, uint16_t cpu, uint64_t tsc,
		    uint64_t id)
{
	tb_fdr_json_out_head(c, "wakeup", "sched", ph, TB_FDR_JSON_CPUS_PID,
			     TB_FDR_JSON_CPU_TID(cpu), tsc);
	fprintf(c->out, ", \"id\": %" PRIu64 "%s}", id,
		ph == 'f' ? ", \"bp\": \"e\"" : "");
}

void tb_fdr_json_sched_flows(struct fj_ctx *c)
{
	size_t i, lo, hi, mid;

	if (!c->sw_in)
		return;
	for (i = 0; i < c->nwk; i++) {
		const struct fj_wakeup *w = &c->wk[i];
		const struct fj_switch *in;
		uint64_t end;

		/* The woken task's first switch-in at or after the wake-up. */
		lo = 0;
		hi = c->nsw;
		while (lo < hi) {
			const struct fj_switch_in *m;

			mid = lo + (hi - lo) / 2;
			m = &c->sw_in[mid];
			if (m->tid < w->tid || (m->tid == w->tid && m->tsc < w->tsc))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == c->nsw || c->sw_in[lo].tid != w->tid)
			continue;
		in = &c->sw[c->sw_in[lo].at];
		end = fj_slice_end(c, c->sw_in[lo].at);
		/* A slice of no length is not drawn: nothing to point at. */
		if (end <= in->tsc + 1)
			continue;
		c->st->flows++;
		fj_flow(c, 's', w->cpu, w->tsc, c->st->flows);
		fj_flow(c, 'f', in->cpu, in->tsc + (end - in->tsc) / 2,
			c->st->flows);
	}
}

void tb_fdr_json_sched_free(struct fj_ctx *c)
{
	free(c->sw);
	free(c->wk);
	free(c->sw_in);
	free(c->cpus);
	tb_hash_free(&c->tidmap);
}
