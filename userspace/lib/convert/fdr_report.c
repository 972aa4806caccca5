// SPDX-License-Identifier: GPL-2.0
/* The summary of an FDR trace; see convert/fdr_report.h. */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "convert/fdr_post.h"
#include "convert/fdr_report.h"
#include "format/fdr_marks.h"
#include "util/buf.h"
#include "util/hash.h"

#define RP_MARKERS_MAX	256	/* distinct marker texts kept */
#define RP_MARKER_NAME	40	/* bytes of a marker's text used as name */
#define RP_UNORDERED	1	/* visitor: a task's records went back */

/* A call in progress. */
struct tb_fdr_report_frame {
	uint32_t fi;		/* its function: index in funcs[] */
	bool counted;		/* passes the filters */
	uint16_t cpu;
	uint64_t tsc;
	uint64_t child;		/* ticks of completed calls inside it */
	uint32_t node;		/* its folded-stack node, 0 if none */
};

/* Function ids below this are found through an index, not a search. */
#define RP_DIRECT	65536

/*
 * During a pass funcs[] only grows at its end, so that an index (in the
 * call stacks, the longest events) stays valid; it is sorted by id after.
 */
struct rp_ctx {
	struct tb_fdr_report *r;
	uint32_t *direct;	/* id -> index in funcs[] + 1 */
	struct tb_hash far;	/* the same for ids from RP_DIRECT up */
	/* a pid, tid, CPU or time filter: rp_counted() looks at the record */
	bool narrow;
	uint32_t points;	/* rp_point_classes(), once per pass */
	struct tb_fdr_report_task *last;	/* the task of the last record */
	struct tb_error *err;
	struct tb_hash fold_index;	/* key -> node index + 1 */
	int oom;
};

const char *tb_fdr_report_class_name(unsigned int rc)
{
	if (rc < TB_FDR_NR_CLASSES)
		return tb_fdr_classes[rc].name;
	return rc == TB_RC_KFUNC ? "kfunc" : "function";
}

int tb_fdr_report_class(const char *name)
{
	unsigned int rc;

	for (rc = 0; rc < TB_RC_NR; rc++)
		if (!strcmp(name, tb_fdr_report_class_name(rc)))
			return (int)rc;
	return -1;
}

/* The class of kernel id @kid (0: none known). */
static unsigned int rp_class_of(uint32_t kid)
{
	uint32_t space = TRACEBUF_FDR_ID_SPACE(kid);
	unsigned int i;

	if (!kid)
		return TB_RC_OTHER;
	if (space == TRACEBUF_FDR_SPACE_KFUNC)
		return TB_RC_KFUNC;
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		if (tb_fdr_classes[i].space && tb_fdr_classes[i].space == space)
			return i;
	return TB_RC_OTHER;
}

/* The classes of point events (faults, fork, exit): a bit each. */
static uint32_t rp_point_classes(void)
{
	uint32_t m = 0;
	unsigned int rc;

	for (rc = 0; rc < TB_FDR_NR_CLASSES; rc++)
		if (tb_fdr_classes[rc].space == TRACEBUF_FDR_SPACE_FAULT ||
		    tb_fdr_classes[rc].space == TRACEBUF_FDR_SPACE_TASK)
			m |= 1U << rc;
	return m;
}

static inline bool rp_is_point(const struct rp_ctx *c, unsigned int rc)
{
	return c->points >> rc & 1;
}

uint64_t tb_fdr_report_ns(const struct tb_fdr_report *r, uint64_t ticks)
{
	if (!r->hdr.cycle_frequency)
		return ticks;
	return (uint64_t)((long double)ticks * 1e9L /
			  (long double)r->hdr.cycle_frequency);
}

static uint64_t rp_ticks(const struct tb_fdr_report *r, uint64_t ns)
{
	if (!r->hdr.cycle_frequency)
		return ns;
	return (uint64_t)((long double)ns *
			  (long double)r->hdr.cycle_frequency / 1e9L);
}

/* Where task @tid is in tasks[] (sorted by tid), or would go. */
static size_t rp_task_at(const struct tb_fdr_report *r, int32_t tid)
{
	size_t lo = 0, hi = r->ntasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->tasks[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The trace's command name of @tid, or NULL. */
static const char *rp_trace_comm(const struct tb_fdr_report *r, int32_t tid)
{
	size_t i = rp_task_at(r, tid);

	if (i < r->ntasks && r->tasks[i].tid == tid && r->tasks[i].comm[0])
		return r->tasks[i].comm;
	return NULL;
}

const char *tb_fdr_report_comm(const struct tb_fdr_report *r, int32_t tid,
			       int32_t pid)
{
	const char *c = r->tasks_map ? tb_task_map_comm(r->tasks_map, tid) :
			NULL;

	if (!c)
		c = rp_trace_comm(r, tid);
	if (c || !pid || pid == tid)
		return c;
	c = r->tasks_map ? tb_task_map_comm(r->tasks_map, pid) : NULL;
	return c ? c : rp_trace_comm(r, pid);
}

/* Whether events of @f pass --class and --name. */
static bool rp_selected(const struct tb_fdr_report *r,
			const struct tb_fdr_report_func *f)
{
	const struct tb_fdr_report_opts *o = &r->opts;

	if (o->classes && !(o->classes & (1U << f->rc)))
		return false;
	return !o->name || !fnmatch(o->name, f->name, 0);
}

/* A name seen for the first time: append it. */
static struct tb_fdr_report_func *rp_func_new(struct rp_ctx *c, uint32_t id)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_func *f;
	const char *name;
	uint32_t kid;
	char buf[48];

	if (r->nfuncs >= UINT32_MAX - 1 ||
	    tb_buf_array_grow(&r->funcs, &r->cap_funcs, r->nfuncs + 1,
			      sizeof(*f)))
		return NULL;
	kid = tb_name_map_kernel_id(r->names, id);
	name = tb_name_map_find(r->names, id);
	if (!name) {
		if (kid)
			snprintf(buf, sizeof(buf), "%s_0x%x",
				 tb_fdr_report_class_name(rp_class_of(kid)),
				 TRACEBUF_FDR_ID_KEY(kid));
		else
			snprintf(buf, sizeof(buf), "function_%u", id);
		name = buf;
	}
	f = &r->funcs[r->nfuncs];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->rc = rp_class_of(kid);
	f->name = strdup(name);
	if (!f->name)
		return NULL;
	f->selected = rp_selected(r, f);
	if (id < RP_DIRECT) {
		c->direct[id] = (uint32_t)r->nfuncs + 1;
	} else if (tb_hash_put(&c->far, id, (uint32_t)r->nfuncs + 1)) {
		free(f->name);
		return NULL;
	}
	r->nfuncs++;
	return f;
}

/* Index in funcs[] of function @id, made on first sight; -1: no memory. */
static inline int64_t rp_func(struct rp_ctx *c, uint32_t id)
{
	uint32_t v = id < RP_DIRECT ? c->direct[id] : tb_hash_get(&c->far, id);

	if (v)
		return v - 1;
	return rp_func_new(c, id) ? (int64_t)c->r->nfuncs - 1 : -1;
}

static struct tb_fdr_report_task *rp_task_find(struct rp_ctx *c,
					       const struct tb_fdr_record *rec)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_task *t;
	size_t lo = rp_task_at(r, rec->tid);

	if (lo < r->ntasks && r->tasks[lo].tid == rec->tid)
		return c->last = &r->tasks[lo];
	if (tb_buf_array_grow(&r->tasks, &r->cap_tasks, r->ntasks + 1,
			      sizeof(*t)))
		return NULL;
	memmove(&r->tasks[lo + 1], &r->tasks[lo],
		(r->ntasks - lo) * sizeof(*t));
	t = &r->tasks[lo];
	memset(t, 0, sizeof(*t));
	t->tid = rec->tid;
	t->pid = rec->pid;
	t->first = rec->tsc;
	r->ntasks++;
	c->last = t;
	return t;
}

/* The task of @rec; records come in runs of one task (a block each). */
static inline struct tb_fdr_report_task *
rp_task(struct rp_ctx *c, const struct tb_fdr_record *rec)
{
	if (c->last && c->last->tid == rec->tid)
		return c->last;
	return rp_task_find(c, rec);
}

static struct tb_fdr_report_cpu *rp_cpu_new(struct rp_ctx *c, uint16_t cpu)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_cpu *v;
	unsigned int n = cpu + 1U;

	v = realloc(r->cpus, n * sizeof(*v));
	if (!v)
		return NULL;
	memset(v + r->ncpus, 0, (n - r->ncpus) * sizeof(*v));
	r->cpus = v;
	r->ncpus = n;
	return &r->cpus[cpu];
}

static inline struct tb_fdr_report_cpu *rp_cpu(struct rp_ctx *c,
					       uint16_t cpu)
{
	return cpu < c->r->ncpus ? &c->r->cpus[cpu] : rp_cpu_new(c, cpu);
}

/* Whether an event of @f by @rec passes the filters. */
static inline bool rp_counted(const struct rp_ctx *c,
			      const struct tb_fdr_report_func *f,
			      const struct tb_fdr_record *rec)
{
	const struct tb_fdr_report *r = c->r;
	const struct tb_fdr_report_opts *o = &r->opts;

	if (!f->selected)
		return false;
	if (!c->narrow)
		return true;
	if (o->pid != TB_REPORT_NO_FILTER && rec->pid != o->pid)
		return false;
	if (o->tid != TB_REPORT_NO_FILTER && rec->tid != o->tid)
		return false;
	if (o->cpu != TB_REPORT_NO_FILTER && rec->cpu != o->cpu)
		return false;
	return rec->tsc >= r->window_from && rec->tsc <= r->window_to;
}

/* Whether a call of @ticks enters the opts.top longest. */
static inline bool rp_long_enough(const struct tb_fdr_report *r,
				  uint64_t ticks)
{
	unsigned int n = r->nlongest;

	return r->opts.top &&
	       (n < r->opts.top || ticks > r->longest[n - 1].ticks);
}

/* Keep @l among the opts.top longest (sorted, longest first). */
static void rp_longest(struct tb_fdr_report *r,
		       const struct tb_fdr_report_long *l)
{
	unsigned int i, n = r->nlongest;

	if (n < r->opts.top)
		n++;
	for (i = n - 1; i > 0 && r->longest[i - 1].ticks < l->ticks; i--)
		r->longest[i] = r->longest[i - 1];
	r->longest[i] = *l;
	r->nlongest = n;
}

/* --before: the newest opts.top events of each CPU up to the trigger. */
static void rp_before(struct rp_ctx *c, const struct tb_fdr_report_long *l)
{
	struct tb_fdr_report *r = c->r;
	unsigned int top = r->opts.top, n;

	if (!r->opts.before_ns || !top)
		return;
	if (l->cpu >= r->before_cpus) {
		unsigned int ncpu = l->cpu + 1U;
		struct tb_fdr_report_long *b;
		unsigned int *nb;

		b = realloc(r->before, (size_t)ncpu * top * sizeof(*b));
		if (b)
			r->before = b;
		nb = realloc(r->nbefore, ncpu * sizeof(*nb));
		if (nb)
			r->nbefore = nb;
		if (!b || !nb) {
			c->oom = 1;
			return;
		}
		memset(b + (size_t)r->before_cpus * top, 0,
		       (size_t)(ncpu - r->before_cpus) * top * sizeof(*b));
		memset(nb + r->before_cpus, 0,
		       (ncpu - r->before_cpus) * sizeof(*nb));
		r->before_cpus = ncpu;
	}
	/* A ring per CPU: slot n % top holds the n-th event. */
	n = r->nbefore[l->cpu]++;
	r->before[(size_t)l->cpu * top + n % top] = *l;
}

static uint32_t rp_fold_node(struct rp_ctx *c, uint32_t parent, uint32_t id,
			     const struct tb_fdr_report_task *t)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_fold *n;
	uint64_t key;
	uint32_t v;

	/* Roots by tid, inner nodes by (parent, id): both fit 64 bits. */
	key = parent ? (uint64_t)parent << 32 | id :
		       1ULL << 63 | (uint32_t)t->tid;
	v = tb_hash_get(&c->fold_index, key);
	if (v)
		return v;
	if (tb_buf_array_grow(&r->folds, &r->cap_folds, r->nfolds + 1,
			      sizeof(*n))) {
		c->oom = 1;
		return 0;
	}
	n = &r->folds[r->nfolds];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->id = id;
	n->tid = t->tid;
	n->pid = t->pid;
	if (tb_hash_put(&c->fold_index, key, (uint32_t)r->nfolds + 1)) {
		c->oom = 1;
		return 0;
	}
	r->nfolds++;
	return (uint32_t)r->nfolds;
}

static void rp_enter(struct rp_ctx *c, struct tb_fdr_report_task *t,
		     uint32_t fi, const struct tb_fdr_record *rec)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_func *f = &r->funcs[fi];
	struct tb_fdr_report_frame *fr;
	uint32_t parent;

	if (t->depth >= r->opts.depth_max) {
		r->too_deep++;
		return;
	}
	if (tb_buf_array_grow(&t->stack, &t->cap, t->depth + 1,
			      sizeof(*t->stack))) {
		c->oom = 1;
		return;
	}
	fr = &t->stack[t->depth++];
	*fr = (struct tb_fdr_report_frame){
		.fi = fi, .cpu = rec->cpu, .tsc = rec->tsc,
		.counted = rp_counted(c, f, rec),
	};
	if (fr->counted) {
		struct tb_fdr_report_cpu *cpu = rp_cpu(c, rec->cpu);

		r->events++;
		t->count[f->rc]++;
		if (cpu)
			cpu->count[f->rc]++;
		else
			c->oom = 1;
	}
	if (r->want_folds && !rp_is_point(c, f->rc)) {
		parent = t->depth > 1 ? fr[-1].node : 0;
		if (t->depth == 1 || parent)
			parent = parent ? parent :
				 rp_fold_node(c, 0, 0, t);
		fr->node = parent ? rp_fold_node(c, parent, f->id, t) : 0;
	}
}

/* The frame on top of @t ends at @tsc: complete. */
static void rp_complete(struct rp_ctx *c, struct tb_fdr_report_task *t,
			uint64_t tsc)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_frame *fr = &t->stack[--t->depth];
	struct tb_fdr_report_func *f = &r->funcs[fr->fi];
	struct tb_fdr_report_long l;
	uint64_t ticks;

	if (tsc < fr->tsc) {
		r->backwards++;
		ticks = 0;
	} else {
		ticks = tsc - fr->tsc;
	}
	if (t->depth)
		t->stack[t->depth - 1].child += ticks;
	if (!fr->counted)
		return;
	if (rp_is_point(c, f->rc)) {
		f->points++;
		return;
	}
	if (tb_latency_add(&f->lat, ticks))
		c->oom = 1;
	if (!t->depth)
		t->time[f->rc] += ticks;
	/* Most calls are not among the longest: decide before copying. */
	if (rp_long_enough(r, ticks) || r->opts.before_ns) {
		/* Pointers into funcs[] move as it grows: index + 1 for now. */
		l = (struct tb_fdr_report_long){
			.start = fr->tsc, .ticks = ticks, .tid = t->tid,
			.pid = t->pid, .cpu = fr->cpu,
			.func = (const void *)(uintptr_t)(fr->fi + 1),
		};
		if (rp_long_enough(r, ticks))
			rp_longest(r, &l);
		rp_before(c, &l);
	}
	if (fr->node) {
		struct tb_fdr_report_fold *n = &r->folds[fr->node - 1];

		n->ticks += ticks > fr->child ? ticks - fr->child : 0;
		n->count++;
	}
}

/* The frame on top of @t has no exit in the trace. */
static void rp_abandon(struct rp_ctx *c, struct tb_fdr_report_task *t)
{
	struct tb_fdr_report_frame *fr = &t->stack[--t->depth];

	if (fr->counted)
		c->r->funcs[fr->fi].no_exit++;
}

static void rp_exit(struct rp_ctx *c, struct tb_fdr_report_task *t,
		    uint32_t fi, const struct tb_fdr_record *rec)
{
	struct tb_fdr_report_func *f = &c->r->funcs[fi];
	unsigned int i = t->depth;

	while (i && t->stack[i - 1].fi != fi)
		i--;
	if (!i) {
		/* Its entry came before the trace, or was lost. */
		if (rp_counted(c, f, rec))
			f->no_entry++;
		return;
	}
	/* Calls above it never returned in the trace: their exits are lost. */
	while (t->depth > i)
		rp_abandon(c, t);
	rp_complete(c, t, rec->tsc);
}

static void rp_custom(struct rp_ctx *c, const struct tb_fdr_record *rec)
{
	static const char lost[] = TRACEBUF_FDR_LOST_PREFIX;
	static const char trig[] = TRACEBUF_FDR_TRIG_PREFIX;
	static const char panic[] = TRACEBUF_CRASH_PANIC_PREFIX;
	static const char comm[] = TRACEBUF_FDR_COMM_PREFIX;
	struct tb_fdr_report *r = c->r;
	const char *d = (const char *)rec->data;
	size_t len = rec->size > 0 ? (size_t)rec->size : 0;
	struct tb_fdr_report_cpu *cpu = rp_cpu(c, rec->cpu);
	struct tb_fdr_report_task *t;
	struct tb_fdr_report_func *m;
	char name[RP_MARKER_NAME + 1];
	size_t i, n;

	if (!cpu) {
		c->oom = 1;
		return;
	}
	if (len > sizeof(lost) - 1 && !memcmp(d, lost, sizeof(lost) - 1)) {
		char num[24];
		uint64_t v;

		n = len - (sizeof(lost) - 1);
		n = n < sizeof(num) - 1 ? n : sizeof(num) - 1;
		memcpy(num, d + sizeof(lost) - 1, n);
		num[n] = '\0';
		v = strtoull(num, NULL, 10);
		cpu->lost += v;
		r->lost += v;
		return;
	}
	if ((len >= sizeof(trig) - 1 && !memcmp(d, trig, sizeof(trig) - 1)) ||
	    (len >= sizeof(panic) - 1 &&
	     !memcmp(d, panic, sizeof(panic) - 1))) {
		struct tb_fdr_report_trigger *tr = &r->trigger;

		tr->found = true;
		tr->tsc = rec->tsc;
		tr->cpu = rec->cpu;
		tr->tid = rec->tid;
		n = len < sizeof(tr->text) - 1 ? len : sizeof(tr->text) - 1;
		for (i = 0; i < n; i++)
			tr->text[i] = d[i] >= 0x20 && d[i] < 0x7f ? d[i] : '.';
		tr->text[n] = '\0';
		return;
	}
	/* A task's command name (uapi): names its thread, no event. */
	if (len > sizeof(comm) - 1 && !memcmp(d, comm, sizeof(comm) - 1)) {
		t = rp_task(c, rec);
		if (!t) {
			c->oom = 1;
			return;
		}
		n = len - (sizeof(comm) - 1);
		n = n < sizeof(t->comm) - 1 ? n : sizeof(t->comm) - 1;
		for (i = 0; i < n; i++) {
			char ch = d[sizeof(comm) - 1 + i];

			t->comm[i] = ch >= 0x20 && ch < 0x7f ? ch : '.';
		}
		t->comm[n] = '\0';
		return;
	}
	/* The post-processing's start of a task (format/fdr_marks.h): no event. */
	if (len == sizeof(TB_FDR_MARKS_START) - 1 &&
	    !memcmp(d, TB_FDR_MARKS_START, len))
		return;
	/* A user marker: counted by its first bytes. */
	if (r->opts.cpu != TB_REPORT_NO_FILTER && rec->cpu != r->opts.cpu)
		return;
	if ((r->opts.pid != TB_REPORT_NO_FILTER && rec->pid != r->opts.pid) ||
	    (r->opts.tid != TB_REPORT_NO_FILTER && rec->tid != r->opts.tid) ||
	    (r->opts.classes &&
	     !(r->opts.classes & (1U << (TB_FDR_NR_CLASSES - 1)))) ||
	    rec->tsc < r->window_from || rec->tsc > r->window_to)
		return;
	n = len < RP_MARKER_NAME ? len : RP_MARKER_NAME;
	for (i = 0; i < n; i++)
		name[i] = d[i] >= 0x20 && d[i] < 0x7f ? d[i] : '.';
	name[n] = '\0';
	if (r->opts.name && fnmatch(r->opts.name, name, 0))
		return;
	t = rp_task(c, rec);
	if (!t) {
		c->oom = 1;
		return;
	}
	r->events++;
	t->count[TB_FDR_NR_CLASSES - 1]++;
	cpu->count[TB_FDR_NR_CLASSES - 1]++;
	for (i = 0; i < r->nmarkers; i++)
		if (!strcmp(r->markers[i].name, name))
			break;
	if (i == r->nmarkers) {
		if (r->nmarkers == RP_MARKERS_MAX) {
			r->markers_other++;
			return;
		}
		if (tb_buf_array_grow(&r->markers, &r->cap_markers, r->nmarkers + 1,
				      sizeof(*m))) {
			c->oom = 1;
			return;
		}
		m = &r->markers[r->nmarkers];
		memset(m, 0, sizeof(*m));
		m->rc = TB_FDR_NR_CLASSES - 1;
		m->name = strdup(name);
		if (!m->name) {
			c->oom = 1;
			return;
		}
		r->nmarkers++;
	}
	r->markers[i].points++;
}

static void rp_time(struct tb_fdr_report *r, uint64_t tsc)
{
	if (!r->first || tsc < r->first)
		r->first = tsc;
	if (tsc > r->last)
		r->last = tsc;
}

static int rp_header(void *ctx, const struct tb_fdr_header *h)
{
	struct rp_ctx *c = ctx;

	c->r->hdr = *h;
	return 0;
}

static int rp_visit(void *ctx, const struct tb_fdr_record *rec)
{
	struct rp_ctx *c = ctx;
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_task *t;
	int64_t fi;

	if (rec->ignored)
		return 0;
	if (rec->kind == TB_FDR_CUSTOM || rec->kind == TB_FDR_TYPED) {
		rp_time(r, rec->tsc);
		rp_custom(c, rec);
		return c->oom ? -ENOMEM : 0;
	}
	if (rec->kind != TB_FDR_FUNCTION)
		return 0;
	rp_time(r, rec->tsc);
	t = rp_task(c, rec);
	fi = rp_func(c, rec->func_id);
	if (!t || fi < 0)
		return -ENOMEM;
	if (rec->tsc < t->last)
		return RP_UNORDERED;
	t->last = rec->tsc;
	if (rec->cpu < 64)
		t->cpus |= 1ULL << rec->cpu;
	if (rec->func_type == TB_FDR_EXIT || rec->func_type == TB_FDR_TAIL_EXIT)
		rp_exit(c, t, (uint32_t)fi, rec);
	else
		rp_enter(c, t, (uint32_t)fi, rec);
	return c->oom ? -ENOMEM : 0;
}

/* Pass one for --time and --before: the first record and the trigger. */
static int rp_bounds(void *ctx, const struct tb_fdr_record *rec)
{
	struct rp_ctx *c = ctx;

	if (rec->ignored)
		return 0;
	if (rec->kind == TB_FDR_FUNCTION) {
		rp_time(c->r, rec->tsc);
	} else if (rec->kind == TB_FDR_CUSTOM || rec->kind == TB_FDR_TYPED) {
		rp_time(c->r, rec->tsc);
		rp_custom(c, rec);
	}
	return c->oom ? -ENOMEM : 0;
}

static void rp_reset(struct tb_fdr_report *r)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++) {
		free(r->funcs[i].name);
		tb_latency_free(&r->funcs[i].lat);
	}
	for (i = 0; i < r->nmarkers; i++)
		free(r->markers[i].name);
	for (i = 0; i < r->ntasks; i++)
		free(r->tasks[i].stack);
	free(r->funcs);
	free(r->markers);
	free(r->tasks);
	free(r->cpus);
	free(r->longest);
	free(r->before);
	free(r->nbefore);
	free(r->folds);
}

void tb_fdr_report_free(struct tb_fdr_report *r)
{
	rp_reset(r);
	memset(r, 0, sizeof(*r));
}

/* A fresh state with the options, names and tasks kept. */
static int rp_init(struct tb_fdr_report *r, const struct tb_name_map *names,
		   const struct tb_task_map *tasks,
		   const struct tb_fdr_report_opts *o, bool folds)
{
	memset(r, 0, sizeof(*r));
	r->names = names;
	r->tasks_map = tasks;
	r->opts = *o;
	if (!r->opts.depth_max)
		r->opts.depth_max = 1024;
	r->want_folds = folds;
	r->window_to = UINT64_MAX;
	if (r->opts.top) {
		r->longest = calloc(r->opts.top, sizeof(*r->longest));
		if (!r->longest)
			return -ENOMEM;
	}
	return 0;
}

/* Read the whole of @in, put it in order with fdr-tidy's logic. */
static FILE *rp_tidy(FILE *in, char **buf, size_t *len, struct tb_error *err)
{
	struct tb_fdr_post post = { .keep_ids = true };
	struct tb_buf raw = { 0 };
	FILE *out;
	int ret;

	*buf = NULL;
	ret = fseek(in, 0, SEEK_SET) ? -errno : tb_buf_read_file(&raw, in);
	if (ret) {
		tb_error_set(err, 0, ret == -ENOMEM ? "out of memory" :
			     "cannot read the trace again to order it: %s",
			     strerror(-ret));
		tb_buf_free(&raw);
		return NULL;
	}
	out = open_memstream(buf, len);
	if (!out || tb_fdr_post_run(&post, raw.data, raw.len, out, err)) {
		if (out)
			fclose(out);
		tb_fdr_post_free(&post);
		tb_buf_free(&raw);
		free(*buf);
		*buf = NULL;
		return NULL;
	}
	tb_fdr_post_free(&post);
	tb_buf_free(&raw);
	fclose(out);
	return fmemopen(*buf, *len, "r");
}

static int rp_by_id(const void *a, const void *b)
{
	const struct tb_fdr_report_func *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* An event kept during the pass as index + 1 (rp_complete) gets its name. */
static void rp_name_event(struct tb_fdr_report_long *l, const uint32_t *to,
			  const struct tb_fdr_report_func *funcs)
{
	uintptr_t v = (uintptr_t)l->func;

	l->func = v ? &funcs[to[v - 1]] : NULL;
}

/*
 * funcs[] in id order, as the printers expect; the events kept by index
 * follow their function to its new place.
 */
static int rp_sort_funcs(struct tb_fdr_report *r)
{
	struct tb_fdr_report_func *sorted;
	uint32_t *to;
	size_t k;

	if (!r->nfuncs)
		return 0;
	to = malloc(r->nfuncs * sizeof(*to));
	sorted = malloc(r->nfuncs * sizeof(*sorted));
	if (!to || !sorted) {
		free(to);
		free(sorted);
		return -ENOMEM;
	}
	memcpy(sorted, r->funcs, r->nfuncs * sizeof(*sorted));
	qsort(sorted, r->nfuncs, sizeof(*sorted), rp_by_id);
	/* ids are unique: old index -> new index */
	for (k = 0; k < r->nfuncs; k++) {
		const struct tb_fdr_report_func *f;

		f = bsearch(&r->funcs[k], sorted, r->nfuncs, sizeof(*sorted),
			    rp_by_id);
		to[k] = (uint32_t)(f - sorted);
	}
	free(r->funcs);
	r->funcs = sorted;
	r->cap_funcs = r->nfuncs;
	for (k = 0; k < r->nlongest; k++)
		rp_name_event(&r->longest[k], to, r->funcs);
	if (r->before) {
		size_t nb = (size_t)r->before_cpus * r->opts.top;

		for (k = 0; k < nb; k++)
			rp_name_event(&r->before[k], to, r->funcs);
	}
	free(to);
	return 0;
}

static int rp_pass(struct tb_fdr_report *r, FILE *in, struct tb_error *err)
{
	struct rp_ctx c = { .r = r, .err = err };
	const struct tb_fdr_report_opts *o = &r->opts;
	size_t k;
	int ret;

	c.narrow = o->pid != TB_REPORT_NO_FILTER ||
		   o->tid != TB_REPORT_NO_FILTER ||
		   o->cpu != TB_REPORT_NO_FILTER || r->window_from ||
		   r->window_to != UINT64_MAX;
	c.points = rp_point_classes();
	c.direct = calloc(RP_DIRECT, sizeof(*c.direct));
	if (!c.direct)
		return -ENOMEM;
	ret = tb_fdr_reader_read(in, rp_header, rp_visit, &c, &r->stats, err);
	if (!ret) {
		/* The calls still open when the trace ends. */
		for (k = 0; k < r->ntasks; k++)
			while (r->tasks[k].depth)
				rp_abandon(&c, &r->tasks[k]);
		if (c.oom)
			ret = -ENOMEM;
	}
	tb_hash_free(&c.fold_index);
	tb_hash_free(&c.far);
	free(c.direct);
	if (ret)
		return ret;
	return rp_sort_funcs(r);
}

/* The window of --time and --before, in ticks; pass one if needed. */
static int rp_window(struct tb_fdr_report *r, FILE *in, struct tb_error *err)
{
	const struct tb_fdr_report_opts *o = &r->opts;
	struct tb_fdr_report b;
	struct rp_ctx c = { .r = &b, .err = err };
	int ret;

	if (!o->from_ns && !o->to_ns && !o->before_ns)
		return 0;
	memset(&b, 0, sizeof(b));
	b.opts = *o;
	b.opts.cpu = TB_REPORT_NO_FILTER;
	ret = tb_fdr_reader_read(in, rp_header, rp_bounds, &c, NULL, err);
	if (!ret && (fseek(in, 0, SEEK_SET) < 0)) {
		tb_error_set(err, 0, "--time and --before read the trace twice: %s",
			     strerror(errno));
		ret = -1;
	}
	if (!ret) {
		r->hdr = b.hdr;
		if (o->before_ns) {
			uint64_t span = rp_ticks(r, o->before_ns);

			if (!b.trigger.found) {
				tb_error_set(err, 0,
					     "--before: the trace has no trigger or panic event");
				ret = -1;
			} else {
				r->window_to = b.trigger.tsc;
				r->window_from = b.trigger.tsc > span ?
						 b.trigger.tsc - span : 0;
			}
		} else {
			r->window_from = b.first + rp_ticks(r, o->from_ns);
			r->window_to = o->to_ns ? b.first + rp_ticks(r, o->to_ns) :
						  UINT64_MAX;
		}
	}
	rp_reset(&b);
	return ret;
}

int tb_fdr_report_run(struct tb_fdr_report *r, FILE *in,
		      const struct tb_name_map *names,
		      const struct tb_task_map *tasks,
		      const struct tb_fdr_report_opts *opts, bool folds,
		      struct tb_error *err)
{
	uint64_t from, to;
	FILE *tidy = NULL;
	char *buf = NULL;
	size_t len;
	int ret;

	if (rp_init(r, names, tasks, opts, folds))
		return -ENOMEM;
	ret = rp_window(r, in, err);
	if (ret)
		return ret;
	from = r->window_from;
	to = r->window_to;
	ret = rp_pass(r, in, err);
	if (ret == RP_UNORDERED) {
		/* A capture read from the device: order it, start again. */
		rp_reset(r);
		if (rp_init(r, names, tasks, opts, folds))
			return -ENOMEM;
		r->window_from = from;
		r->window_to = to;
		tidy = rp_tidy(in, &buf, &len, err);
		if (!tidy)
			return -1;
		r->tidied = true;
		ret = rp_pass(r, tidy, err);
		fclose(tidy);
		free(buf);
		if (ret == RP_UNORDERED) {
			tb_error_set(err, 0, "records of a task still go back in time after ordering");
			ret = -1;
		}
	}
	return ret;
}
