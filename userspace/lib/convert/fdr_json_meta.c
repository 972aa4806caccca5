// SPDX-License-Identifier: GPL-2.0
/* The metadata events of trace_event JSON; see convert/fdr_json_meta.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_json_meta.h"
#include "convert/fdr_json_sched.h"
#include "format/task_map.h"

/* ---- what the first pass found: names, CPU tracks, cut starts ---- */

static void fj_meta(struct fj_ctx *c, const char *what, int32_t pid,
		    int32_t tid, const char *name, long sort)
{
	fprintf(c->out, "%s\n{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %" PRId32
		", \"tid\": %" PRId32 ", \"args\": {", c->first ? "" : ",",
		what, pid, tid);
	c->first = false;
	if (name) {
		fprintf(c->out, "\"name\": \"");
		tb_json_string(c->out, name, strlen(name));
		fprintf(c->out, "\"}}");
	} else {
		fprintf(c->out, "\"sort_index\": %ld}}", sort);
	}
}

/* What to call thread @t: its name (tb_fdr_json_meta_tasks()), else "tid N". */
static const char *fj_thread_name(const struct fj_thread *t, char *buf,
				  size_t size)
{
	if (t && t->comm)
		return t->comm;
	snprintf(buf, size, "tid %" PRId32, t ? t->tid : -1);
	return buf;
}

static int fj_cmp_pid(const void *a, const void *b)
{
	const struct fj_thread *x = *(const struct fj_thread * const *)a;
	const struct fj_thread *y = *(const struct fj_thread * const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static const char *fj_exit_comm(const struct fj_thread *t)
{
	return t->exit_comm[0] ? t->exit_comm : NULL;
}

int tb_fdr_json_meta_tasks(struct fj_ctx *c)
{
	const char *comm, *pcomm = NULL;
	struct fj_thread **v;
	char buf[32], tbuf[TB_TASK_COMM_LEN];
	size_t i, j;

	v = malloc((c->nth ? c->nth : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->nth; i++)
		v[i] = &c->th[i];
	qsort(v, c->nth, sizeof(*v), fj_cmp_pid);
	for (i = 0; i < c->nth; i++) {
		if (!i || v[i]->pid != v[i - 1]->pid) {
			/*
			 * A process is named after its main thread, else
			 * after a thread of it the tasks file knows, else
			 * after one that exited during the capture.
			 */
			comm = v[i]->pid ? tb_task_map_comm(c->tasks, v[i]->pid,
							    tbuf) : "swapper";
			for (j = i; !comm && j < c->nth &&
			     v[j]->pid == v[i]->pid; j++)
				if (v[j]->tid == v[i]->pid)
					comm = fj_exit_comm(v[j]);
			for (j = i; !comm && j < c->nth &&
			     v[j]->pid == v[i]->pid; j++)
				comm = tb_task_map_comm(c->tasks, v[j]->tid,
							tbuf);
			for (j = i; !comm && j < c->nth &&
			     v[j]->pid == v[i]->pid; j++)
				comm = fj_exit_comm(v[j]);
			if (!comm) {
				snprintf(buf, sizeof(buf), "pid %" PRId32,
					 v[i]->pid);
				comm = buf;
			}
			fj_meta(c, "process_name", v[i]->pid, 0, comm, 0);
			/*
			 * A thread the tasks file does not know (it began
			 * and ended between the collector's looks at /proc)
			 * goes by its process's command, as in the report.
			 */
			pcomm = v[i]->pid && comm != buf ? comm : NULL;
		}
		v[i]->comm = tb_task_map_comm(c->tasks, v[i]->tid,
					      v[i]->idle_comm);
		if (!v[i]->comm)
			v[i]->comm = fj_exit_comm(v[i]);
		if (!v[i]->comm)
			v[i]->comm = pcomm;
		fj_meta(c, "thread_name", v[i]->pid, v[i]->tid,
			fj_thread_name(v[i], buf, sizeof(buf)), 0);
	}
	free(v);
	return 0;
}

static int fj_cmp_stint(const void *a, const void *b)
{
	const struct fj_stint *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	/* The longer first, so that the shorter one is inside it. */
	return (x->last < y->last) - (x->last > y->last);
}

/* A task on a CPU from s->first to s->last. */
static void fj_cpu_write(struct fj_ctx *c, const struct fj_stint *s)
{
	const struct fj_thread *t = tb_fdr_json_out_thread(c, s->pid, s->tid);

	tb_fdr_json_out_cpu_slice(c, s->cpu, s->pid, s->tid,
				  t ? t->comm : NULL, s->first, s->last);
}

/*
 * The next piece of a CPU's track: joined to the one before when it is
 * the same task from where that one ended (a viewer would nest a "B"
 * at the time of an "E" of the same name and arguments inside it).
 */
static void fj_cpu_slice(struct fj_ctx *c, struct fj_stint *prev,
			 const struct fj_stint *s, uint64_t from, uint64_t to)
{
	if (to <= from)
		return;
	if (prev->last > prev->first && prev->tid == s->tid &&
	    prev->pid == s->pid && prev->last == from) {
		prev->last = to;
		return;
	}
	if (prev->last > prev->first)
		fj_cpu_write(c, prev);
	*prev = *s;
	prev->first = from;
	prev->last = to;
}

/*
 * One CPU's stretches, sorted, as slices that do not overlap.  A stretch
 * that starts inside another is a task that ran while the other was
 * switched out on the same CPU (the collectors keep a NewCPUId only where
 * a task changed CPU): it holds the CPU from its first record to its last,
 * then the other one has it again.
 */
static int fj_cpu_track(struct fj_ctx *c, const struct fj_stint *s, size_t n)
{
	const struct fj_stint **stack;
	struct fj_stint prev = { 0 };
	size_t depth = 0, i;
	uint64_t t = 0;

	stack = malloc((n ? n : 1) * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	for (i = 0; i <= n; i++) {
		uint64_t at = i < n ? s[i].first : UINT64_MAX;

		/* What ends before @at, and what it had interrupted. */
		while (depth && stack[depth - 1]->last <= at) {
			fj_cpu_slice(c, &prev, stack[depth - 1], t,
				     stack[depth - 1]->last);
			if (stack[depth - 1]->last > t)
				t = stack[depth - 1]->last;
			depth--;
		}
		if (i == n)
			break;
		if (depth)
			fj_cpu_slice(c, &prev, stack[depth - 1], t, at);
		stack[depth++] = &s[i];
		t = at;
	}
	if (prev.last > prev.first)
		fj_cpu_write(c, &prev);
	free(stack);
	return 0;
}

int tb_fdr_json_meta_cpus(struct fj_ctx *c)
{
	char name[32];
	size_t i, j;
	int ret;

	if (!c->nstints)
		return 0;
	qsort(c->stints, c->nstints, sizeof(*c->stints), fj_cmp_stint);
	fj_meta(c, "process_name", TB_FDR_JSON_CPUS_PID, 0, "CPUs", 0);
	fj_meta(c, "process_sort_index", TB_FDR_JSON_CPUS_PID, 0, NULL, -1);
	for (i = 0; i < c->nstints; i = j) {
		uint16_t cpu = c->stints[i].cpu;

		for (j = i; j < c->nstints && c->stints[j].cpu == cpu; j++)
			;
		snprintf(name, sizeof(name), "CPU %u", cpu);
		fj_meta(c, "thread_name", TB_FDR_JSON_CPUS_PID,
			TB_FDR_JSON_CPU_TID(cpu), name, 0);
		fj_meta(c, "thread_sort_index", TB_FDR_JSON_CPUS_PID,
			TB_FDR_JSON_CPU_TID(cpu), NULL, cpu);
		/* What ran there: the switches, else a guess from the blocks. */
		if (tb_fdr_json_sched_has_switches(c, cpu)) {
			tb_fdr_json_sched_track(c, cpu);
			continue;
		}
		ret = fj_cpu_track(c, &c->stints[i], j - i);
		if (ret)
			return ret;
	}
	tb_fdr_json_sched_flows(c);
	return 0;
}

const char *tb_fdr_json_meta_cpu_source(struct fj_ctx *c)
{
	size_t i, with = 0, without = 0;

	for (i = 0; i < c->nstints; i++) {
		if (tb_fdr_json_sched_has_switches(c, c->stints[i].cpu))
			with++;
		else
			without++;
	}
	if (!with)
		return "blocks";
	return without ? "switches where recorded, else blocks" : "switches";
}

/*
 * Calls running when the capture started, at the capture's earliest time,
 * before the thread's other events: a viewer puts the earlier of two "B"
 * at one time outside.
 */
void tb_fdr_json_meta_cut_starts(struct fj_ctx *c)
{
	struct fj_thread *t;
	size_t i, j;

	for (i = 0; i < c->nth; i++) {
		t = &c->th[i];
		for (j = 0; j < t->npre; j++) {
			tb_fdr_json_out_call_event(c, &t->stack[j], 'B', t->pid, t->tid,
						   c->t0, NULL);
			c->st->cut_start++;
		}
	}
}

