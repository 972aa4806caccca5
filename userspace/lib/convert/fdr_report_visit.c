// SPDX-License-Identifier: GPL-2.0
/* tracebuf report's visitor of the records; see convert/fdr_report_visit.h. */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "convert/fdr_post.h"
#include "convert/fdr_report_class.h"
#include "convert/fdr_report_visit.h"
#include "format/fdr_event.h"
#include "format/fdr_marks.h"
#include "format/fdr_meta.h"
#include "util/buf.h"
#include "util/hash.h"

static inline bool rp_is_point(const struct rp_ctx *c, unsigned int rc)
{
	return c->points >> rc & 1;
}

uint64_t tb_fdr_report_visit_ticks(const struct tb_fdr_report *r, uint64_t ns)
{
	if (!r->hdr.cycle_frequency)
		return ns;
	return (uint64_t)((long double)ns *
			  (long double)r->hdr.cycle_frequency / 1e9L);
}

uint64_t tb_fdr_report_visit_ns(const struct tb_fdr_report *r, uint64_t ticks)
{
	long double ns;

	if (!r->hdr.cycle_frequency)
		return ticks;
	ns = (long double)ticks * 1e9L / (long double)r->hdr.cycle_frequency;
	/*
	 * A clock below 1 GHz (a header's frequency is the file's word)
	 * makes more nanoseconds than ticks: the largest value, not the
	 * wrapped or undefined conversion, and the ns histogram stays
	 * monotonic.
	 */
	return ns >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)ns;
}

/*
 * The table of rp_ctx.ns_log2: the ticks of one log2 bucket, [2^(b-1),
 * 2^b), last less than twice the first, and so are their nanoseconds:
 * they span one or two buckets of those.
 */
static void rp_ns_buckets(struct rp_ctx *c)
{
	const struct tb_fdr_report *r = c->r;
	unsigned int b, k;

	for (b = 0; b < TB_LATENCY_LOG2; b++) {
		uint64_t lo = b ? 1ULL << (b - 1) : 0;
		uint64_t hi = b ? lo + (lo - 1) : 0;

		k = tb_latency_log2(tb_fdr_report_visit_ns(r, lo));
		c->ns_log2[b] = (uint8_t)k;
		/* The last tick still in ns bucket k. */
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2 + 1;

			if (tb_latency_log2(tb_fdr_report_visit_ns(r, mid)) == k)
				lo = mid;
			else
				hi = mid - 1;
		}
		c->ns_split[b] = lo;
	}
}

/* The log2 bucket of @ticks in nanoseconds (rp_ns_buckets()). */
static inline unsigned int rp_ns_log2(const struct rp_ctx *c, uint64_t ticks)
{
	unsigned int b = tb_latency_log2(ticks);

	return c->ns_log2[b] + (ticks > c->ns_split[b]);
}

/* Where task @tid is in tasks[] (sorted by tid), or would go. */
size_t tb_fdr_report_visit_task_at(const struct tb_fdr_report *r, int32_t tid)
{
	return tb_task_map_index(r->tasks, r->ntasks, sizeof(*r->tasks), tid);
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
	name = tb_fdr_report_class_event(r->names, id, buf, sizeof(buf));
	f = &r->funcs[r->nfuncs];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->rc = tb_fdr_report_class_of(kid);
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
	size_t lo = tb_fdr_report_visit_task_at(r, rec->tid);

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

/*
 * Whether thread @tid is the --tid @want: as the file has it, or as the
 * tables show it (0: the idle tasks, format/task_map.h).
 */
static inline bool rp_tid_is(int32_t tid, int64_t want)
{
	return tid == want || tb_task_map_shown_tid(tid) == want;
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
	if (o->tid != TB_REPORT_NO_FILTER && !rp_tid_is(rec->tid, o->tid))
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

/* An event of @f begun by task @t on CPU @cpu_nr: counted. */
static void rp_count(struct rp_ctx *c, struct tb_fdr_report_task *t,
		     const struct tb_fdr_report_func *f, uint16_t cpu_nr)
{
	struct tb_fdr_report_cpu *cpu = rp_cpu(c, cpu_nr);

	c->r->events++;
	t->count[f->rc]++;
	if (cpu)
		cpu->count[f->rc]++;
	else
		c->oom = 1;
}

/*
 * A fault, fork or exit: an entry and its exit at once, one event.  A
 * half whose other half was lost is an event all the same, never a call
 * in progress: left open, it would make every later call of the task
 * nested in it.  @entry: t->point before this record.
 */
static void rp_point(struct rp_ctx *c, struct tb_fdr_report_task *t,
		     uint32_t fi, const struct tb_fdr_record *rec,
		     uint32_t entry)
{
	struct tb_fdr_report_func *f = &c->r->funcs[fi];
	bool is_exit = rec->func_type == TB_FDR_EXIT ||
		       rec->func_type == TB_FDR_TAIL_EXIT;

	if (is_exit && entry == fi + 1)
		return;		/* the second half of the record before */
	if (!is_exit)
		t->point = fi + 1;
	if (!rp_counted(c, f, rec))
		return;
	f->points++;
	rp_count(c, t, f, rec->cpu);
}

static void rp_enter(struct rp_ctx *c, struct tb_fdr_report_task *t,
		     uint32_t fi, const struct tb_fdr_record *rec)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_func *f = &r->funcs[fi];
	struct tb_fdr_report_frame *fr;
	uint32_t parent;

	if (t->depth >= r->opts.depth_max) {
		/*
		 * No frame (memory stays bounded): an event, not timed.
		 * The next exit of the task is its own, not one of the
		 * calls kept below it (rp_exit()).
		 */
		t->deep++;
		if (rp_counted(c, f, rec)) {
			r->too_deep++;
			f->too_deep++;
			rp_count(c, t, f, rec->cpu);
		}
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
		.inner = t->depth > 1 &&
			 ((fr[-1].counted &&
			   !rp_is_point(c, r->funcs[fr[-1].fi].rc)) ||
			  fr[-1].inner),
	};
	if (fr->counted)
		rp_count(c, t, f, rec->cpu);
	if (r->want_folds) {
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
	if (tb_latency_add(&f->lat, ticks))
		c->oom = 1;
	f->log2_ns[rp_ns_log2(c, ticks)]++;
	if (!fr->inner) {
		struct tb_fdr_report_cpu *cpu = rp_cpu(c, fr->cpu);

		t->time[f->rc] += ticks;
		if (cpu)
			cpu->time[f->rc] += ticks;
		else
			c->oom = 1;
	}
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

/*
 * The frame on top of @t has no exit in the trace.  The calls it holds
 * that ended go to its caller, whose self time (folded stacks) must not
 * count them again.
 */
void tb_fdr_report_visit_abandon(struct rp_ctx *c, struct tb_fdr_report_task *t)
{
	struct tb_fdr_report_frame *fr = &t->stack[--t->depth];

	if (t->depth)
		t->stack[t->depth - 1].child += fr->child;

	if (fr->counted)
		c->r->funcs[fr->fi].no_exit++;
}

static void rp_exit(struct rp_ctx *c, struct tb_fdr_report_task *t,
		    uint32_t fi, const struct tb_fdr_record *rec)
{
	struct tb_fdr_report_func *f = &c->r->funcs[fi];
	unsigned int i = t->depth;

	if (t->deep) {
		/* The innermost entry, nested too deep to be kept, ends. */
		t->deep--;
		return;
	}
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
		tb_fdr_report_visit_abandon(c, t);
	rp_complete(c, t, rec->tsc);
}

void tb_fdr_report_visit_custom(struct rp_ctx *c, const struct tb_fdr_record *rec)
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
	bool cut;

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
		tr->count++;
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
	    (r->opts.tid != TB_REPORT_NO_FILTER &&
	     !rp_tid_is(rec->tid, r->opts.tid)) ||
	    (r->opts.classes &&
	     !(r->opts.classes & (1U << (TB_FDR_NR_CLASSES - 1)))) ||
	    rec->tsc < r->window_from || rec->tsc > r->window_to)
		return;
	n = len < RP_MARKER_NAME ? len : RP_MARKER_NAME;
	cut = len > n;
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
	/* A text of exactly those bytes is not the longer ones. */
	for (i = 0; i < r->nmarkers; i++)
		if (r->markers[i].cut == cut && !strcmp(r->markers[i].name, name))
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
		m->cut = cut;
		m->name = strdup(name);
		if (!m->name) {
			c->oom = 1;
			return;
		}
		r->nmarkers++;
	}
	r->markers[i].points++;
}

void tb_fdr_report_visit_time(struct tb_fdr_report *r, uint64_t tsc)
{
	/* A first record at TSC 0 (a counter from reset) is the first. */
	if (!r->has_first || tsc < r->first)
		r->first = tsc;
	r->has_first = true;
	if (tsc > r->last)
		r->last = tsc;
}

int tb_fdr_report_visit_header(void *ctx, const struct tb_fdr_header *h)
{
	struct rp_ctx *c = ctx;

	c->r->hdr = *h;
	rp_ns_buckets(c);
	return 0;
}

/*
 * One of tracebuf's typed events (format/fdr_event.h): a switch or
 * wake-up for the scheduler section, a return value for the errors
 * section, the trace's own description (read elsewhere).  False for a
 * type of no one's knowledge: a marker, as any custom event.
 */
static bool rp_typed(struct rp_ctx *c, const struct tb_fdr_record *rec)
{
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_event ev;

	switch (tb_fdr_event_decode(rec, &ev)) {
	case TB_FDR_EV_SWITCH:
	case TB_FDR_EV_WAKEUP:
		if (tb_fdr_report_sched_add(&r->sched, rec, &ev))
			c->oom = 1;
		break;
	case TB_FDR_EV_RET:
		if (tb_fdr_report_errors_ret(&r->errors, &ev.ret))
			c->oom = 1;
		return true;
	case TB_FDR_EV_META:
		break;
	case TB_FDR_EV_NONE:
		if (!tb_fdr_event_malformed(rec))
			return false;
		if (rec->event_type == TRACEBUF_FDR_TYPED_RET)
			r->errors.malformed++;
		else
			r->sched.malformed++;
		break;
	}
	tb_fdr_report_errors_record(&r->errors, false, 0, false);
	return true;
}

/*
 * The one count of a clock that steps back inside a block (a move to a
 * CPU whose TSC is behind, a typed event's negative delta): @rec against
 * the block's record before it, function record or typed event.
 */
static void rp_clock(struct rp_ctx *c, const struct tb_fdr_record *rec)
{
	struct tb_fdr_report *r = c->r;

	if (c->blk && c->blk_tid == rec->tid && rec->tsc < c->blk_tsc) {
		r->clock_back++;
		if (c->blk_tsc - rec->tsc > r->clock_back_max)
			r->clock_back_max = c->blk_tsc - rec->tsc;
	}
	c->blk = true;
	c->blk_tid = rec->tid;
	c->blk_tsc = rec->tsc;
}

int tb_fdr_report_visit_record(void *ctx, const struct tb_fdr_record *rec)
{
	struct rp_ctx *c = ctx;
	struct tb_fdr_report *r = c->r;
	struct tb_fdr_report_task *t;
	uint32_t point;
	int64_t fi;

	if (rec->ignored || tb_fdr_meta_record(rec))
		return 0;
	if (rec->kind == TB_FDR_CUSTOM || rec->kind == TB_FDR_TYPED) {
		tb_fdr_report_visit_time(r, rec->tsc);
		if (rec->kind == TB_FDR_TYPED)
			rp_clock(c, rec);
		if (rec->kind == TB_FDR_TYPED && rp_typed(c, rec))
			return c->oom ? -ENOMEM : 0;
		tb_fdr_report_errors_record(&r->errors, false, 0, false);
		tb_fdr_report_visit_custom(c, rec);
		return c->oom ? -ENOMEM : 0;
	}
	if (rec->kind == TB_FDR_NEW_BUFFER) {
		c->run = false;
		c->blk = false;
		/* A return value first in a block is no exit's. */
		tb_fdr_report_errors_record(&r->errors, false, 0, false);
	}
	if (rec->kind != TB_FDR_FUNCTION)
		return 0;
	tb_fdr_report_visit_time(r, rec->tsc);
	t = rp_task(c, rec);
	fi = rp_func(c, rec->func_id);
	if (!t || fi < 0)
		return -ENOMEM;
	/*
	 * Blocks out of order (a capture read from the device) are put in
	 * order; inside one block the clock itself went back: read on, say
	 * it (rp_clock()).
	 */
	if (rec->tsc < t->last && (!c->run || c->run_tid != rec->tid))
		return RP_UNORDERED;
	rp_clock(c, rec);
	c->run = true;
	c->run_tid = rec->tid;
	t->last = rec->tsc;
	if (rec->cpu < 64)
		t->cpus |= 1ULL << rec->cpu;
	point = t->point;
	t->point = 0;
	if (rp_is_point(c, r->funcs[fi].rc))
		rp_point(c, t, (uint32_t)fi, rec, point);
	else if (rec->func_type == TB_FDR_EXIT || rec->func_type == TB_FDR_TAIL_EXIT)
		rp_exit(c, t, (uint32_t)fi, rec);
	else
		rp_enter(c, t, (uint32_t)fi, rec);
	tb_fdr_report_errors_record(&r->errors,
				    rec->func_type == TB_FDR_EXIT ||
				    rec->func_type == TB_FDR_TAIL_EXIT,
				    rec->func_id,
				    rp_counted(c, &r->funcs[fi], rec));
	return c->oom ? -ENOMEM : 0;
}
