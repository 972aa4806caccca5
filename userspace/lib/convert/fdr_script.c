// SPDX-License-Identifier: GPL-2.0
/* One line per event in time order; see convert/fdr_script.h. */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_timeline.h"
#include "convert/fdr_report_class.h"
#include "convert/fdr_script.h"
#include "format/fdr_event.h"
#include "format/fdr_marks.h"
#include "util/buf.h"
#include "util/hash.h"

#define DEPTH_MAX	1024

struct frame {
	uint32_t id;
	uint64_t tsc;
};

struct task {
	int32_t tid;
	int32_t pid;		/* of its last event */
	struct frame *stack;
	size_t depth, cap;
	uint64_t deep;		/* entries beyond DEPTH_MAX */
	bool point;		/* a point event's entry was the last record */
	uint32_t point_id;
	/* "COMM TID [", made at its first line: 16 + 1 + 11 + 2 at most */
	char head[32];
	/* its last event, for the RET that may follow an exit */
	size_t last_block;
	bool last_exit;		/* was an exit (of last_id), in last_block */
	bool last_shown;	/* and had a line */
	uint32_t last_id;
};

struct name {
	char *name;
	char *full;		/* "CLASS:NAME" */
	unsigned int rc;	/* class */
	uint32_t kid;
	bool selected;		/* passes -e and --name */
};

struct sc {
	const struct tb_fdr_script_opts *o;
	const struct tb_fdr_report_opts *f;
	const struct tb_name_map *names;
	const struct tb_task_map *tasks;
	struct tb_task_map comms;	/* the trace's own command names */
	FILE *out;
	struct tb_fdr_timeline_info info;
	uint64_t from, to;	/* window, ticks */
	uint32_t points;	/* classes of point events */
	struct task *tv;
	size_t nt, capt;
	struct tb_hash task_index;	/* tid -> tv index + 1 */
	struct name *nv;
	size_t nn, capn;
	struct tb_hash name_index;	/* id -> nv index + 1 */
	uint64_t lines;
	int sched;		/* the sched class's index */
	/*
	 * The last exit line waits for its end (dur=) until the next event:
	 * a RET right after the exit in its block puts ret= before it.
	 */
	bool pending;
	int32_t pending_tid;
	char tail[48];
	bool oom;
};

/* ---- pass one: the trace's command names ---- */

static int sc_learn(void *ctx, const struct tb_fdr_record *r)
{
	static const char comm[] = TRACEBUF_FDR_COMM_PREFIX;
	struct sc *c = ctx;
	char name[TB_TASK_COMM_LEN];
	size_t n, i;

	if (r->kind != TB_FDR_CUSTOM || r->size <= (int32_t)sizeof(comm) - 1 ||
	    memcmp(r->data, comm, sizeof(comm) - 1))
		return 0;
	n = (size_t)r->size - (sizeof(comm) - 1);
	if (n > sizeof(name) - 1)
		n = sizeof(name) - 1;
	for (i = 0; i < n; i++) {
		char ch = (char)r->data[sizeof(comm) - 1 + i];

		name[i] = ch >= 0x20 && ch < 0x7f ? ch : '.';
	}
	name[n] = '\0';
	return tb_task_map_set(&c->comms, r->tid, r->pid, name) ? -ENOMEM : 0;
}

/* ---- times ---- */

static uint64_t sc_ns(const struct sc *c, uint64_t ticks)
{
	uint64_t hz = c->info.hdr.cycle_frequency;
	long double ns;

	if (!hz)
		return ticks;
	ns = (long double)ticks * 1e9L / (long double)hz;
	return ns >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)ns;
}

static uint64_t sc_ticks(const struct sc *c, uint64_t ns)
{
	uint64_t hz = c->info.hdr.cycle_frequency;

	if (!hz)
		return ns;
	return (uint64_t)((long double)ns * (long double)hz / 1e9L);
}

/* --time and --before as ticks, as the report takes them. */
static int sc_window(struct sc *c, struct tb_error *err)
{
	const struct tb_fdr_report_opts *f = c->f;

	c->from = 0;
	c->to = UINT64_MAX;
	if (f->before_ns) {
		uint64_t span = sc_ticks(c, f->before_ns);

		if (!c->info.has_trigger) {
			tb_error_set(err, 0,
				     "--before: the trace has no trigger or panic event");
			return -1;
		}
		c->to = c->info.trigger_tsc;
		c->from = c->to > span ? c->to - span : 0;
	} else if (f->from_ns || f->to_ns) {
		c->from = c->info.first + sc_ticks(c, f->from_ns);
		if (f->to_ns)
			c->to = c->info.first + sc_ticks(c, f->to_ns);
	}
	return 0;
}

/* @v in decimal, at least @width digits, ending at @end; returns its start. */
static char *sc_dec(char *end, uint64_t v, unsigned int width)
{
	char *p = end;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v || (unsigned int)(end - p) < width);
	return p;
}

/*
 * "TIME" of the line, seconds.microseconds from the first event or of
 * the wall clock, right-aligned in 12 columns, written to end at @end.
 */
static char *sc_time(const struct sc *c, uint64_t tsc, char *end)
{
	uint64_t us;
	char *p;

	if (c->o->wallclock) {
		const struct tb_fdr_timeline_info *in = &c->info;
		uint64_t base = in->wall_sec * 1000000 + in->wall_usec;

		if (tsc >= in->wall_tsc)
			us = base + sc_ns(c, tsc - in->wall_tsc) / 1000;
		else
			us = base - sc_ns(c, in->wall_tsc - tsc) / 1000;
	} else {
		us = sc_ns(c, tsc - c->info.first) / 1000;
	}
	p = sc_dec(end, us % 1000000, 6);
	*--p = '.';
	p = sc_dec(p, us / 1000000, 1);
	while (end - p < 12)
		*--p = ' ';
	return p;
}

/* ---- tasks and names ---- */

static struct task *sc_task(struct sc *c, int32_t tid)
{
	uint32_t v = tb_hash_get(&c->task_index, (uint32_t)tid);
	struct task *t;

	if (v)
		return &c->tv[v - 1];
	if (tb_buf_array_grow(&c->tv, &c->capt, c->nt + 1, sizeof(*t)) ||
	    tb_hash_put(&c->task_index, (uint32_t)tid, (uint32_t)c->nt + 1))
		return NULL;
	t = &c->tv[c->nt++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
}

static struct name *sc_name(struct sc *c, uint32_t id)
{
	uint32_t v = tb_hash_get(&c->name_index, id);
	const struct tb_fdr_report_opts *f = c->f;
	struct name *n;
	char buf[48];

	if (v)
		return &c->nv[v - 1];
	if (tb_buf_array_grow(&c->nv, &c->capn, c->nn + 1, sizeof(*n)))
		return NULL;
	n = &c->nv[c->nn];
	n->kid = tb_name_map_kernel_id(c->names, id);
	n->rc = tb_fdr_report_class_of(n->kid);
	n->name = strdup(tb_fdr_report_class_event(c->names, id, buf,
						   sizeof(buf)));
	n->full = n->name ? malloc(strlen(n->name) + 16) : NULL;
	if (!n->full || tb_hash_put(&c->name_index, id, (uint32_t)c->nn + 1)) {
		free(n->name);
		free(n->full);
		return NULL;
	}
	sprintf(n->full, "%s:%s", tb_fdr_report_class_name(n->rc), n->name);
	n->selected = (!f->classes || f->classes & (1U << n->rc)) &&
		      (!f->name || !fnmatch(f->name, n->name, 0));
	c->nn++;
	return n;
}

/* The command name of a line: the tasks file's, the trace's, the process's. */
static const char *sc_comm(const struct sc *c, int32_t tid, int32_t pid,
			   char buf[TB_TASK_COMM_LEN])
{
	const char *s = tb_task_map_comm(c->tasks, tid, buf);

	if (!s)
		s = tb_task_map_comm(&c->comms, tid, buf);
	if (!s && pid && pid != tid) {
		s = tb_task_map_comm(c->tasks, pid, buf);
		if (!s)
			s = tb_task_map_comm(&c->comms, pid, buf);
	}
	if (!s) {
		snprintf(buf, TB_TASK_COMM_LEN, ":%d", tid);
		s = buf;
	}
	return s;
}

/* ---- lines ---- */

static bool sc_who(const struct sc *c, const struct tb_fdr_timeline_event *e)
{
	const struct tb_fdr_report_opts *f = c->f;

	if (f->pid != TB_REPORT_NO_FILTER && e->pid != f->pid)
		return false;
	if (f->tid != TB_REPORT_NO_FILTER && e->tid != f->tid &&
	    tb_task_map_shown_tid(e->tid) != f->tid)
		return false;
	return true;
}

static bool sc_where(const struct sc *c, const struct tb_fdr_timeline_event *e)
{
	const struct tb_fdr_report_opts *f = c->f;

	if (f->cpu != TB_REPORT_NO_FILTER && e->cpu != f->cpu)
		return false;
	return e->tsc >= c->from && e->tsc <= c->to;
}

/* The end of the exit line that waits (the pending one), if any. */
static void sc_flush(struct sc *c)
{
	if (!c->pending)
		return;
	c->pending = false;
	fputs_unlocked(c->tail, c->out);
	fputc_unlocked('\n', c->out);
}

/* "COMM TID [CPU] TIME: " of task @tid's line, the line before ended. */
static int sc_prefix_of(struct sc *c, int32_t tid, int32_t pid,
			const struct tb_fdr_timeline_event *e)
{
	struct task *t = sc_task(c, tid);
	char comm[TB_TASK_COMM_LEN], buf[64], *end = buf + sizeof(buf), *p;

	if (!t)
		return -ENOMEM;
	sc_flush(c);
	if (!t->head[0])
		snprintf(t->head, sizeof(t->head), "%16s %7d [",
			 sc_comm(c, tid, pid, comm),
			 tb_task_map_shown_tid(tid));
	*--end = ' ';
	*--end = ':';
	p = sc_time(c, e->tsc, end);
	*--p = ' ';
	*--p = ']';
	p = sc_dec(p, e->cpu, 3);
	fputs_unlocked(t->head, c->out);
	fwrite_unlocked(p, 1, (size_t)(end + 2 - p), c->out);
	c->lines++;
	return 0;
}

static int sc_prefix(struct sc *c, const struct tb_fdr_timeline_event *e)
{
	return sc_prefix_of(c, e->tid, e->pid, e);
}

/* The decoded arguments of a call or point event (Documentation/fdr.rst). */
static void sc_args(struct sc *c, const struct name *n,
		    const struct tb_fdr_timeline_event *e)
{
	uint32_t space = TRACEBUF_FDR_ID_SPACE(n->kid);
	uint32_t key = TRACEBUF_FDR_ID_KEY(n->kid);
	unsigned int i = 0;

	if (!n->kid)
		space = 0;
	switch (space) {
	case TRACEBUF_FDR_SPACE_IRQ:
		fprintf(c->out, " irq=%" PRIu32, key);
		break;
	case TRACEBUF_FDR_SPACE_SOFTIRQ:
		fprintf(c->out, " vec=%" PRIu32, key);
		break;
	case TRACEBUF_FDR_SPACE_FAULT:
		if (e->nargs)
			fprintf(c->out, " address=%#" PRIx64, e->args[i++]);
		break;
	case TRACEBUF_FDR_SPACE_TASK:
		if (e->nargs)
			fprintf(c->out, " %s=%" PRIu64,
				key ? "pid" : "child_pid", e->args[i++]);
		break;
	}
	/* Syscall arguments and the rest: by position, in hex. */
	for (; i < e->nargs; i++)
		fprintf(c->out, " arg%u=%#" PRIx64, i, e->args[i]);
}

/* " dur=N.NNNus" into @tail (sizeof(c->tail)). */
static void sc_duration(struct sc *c, uint64_t ticks, char *tail)
{
	uint64_t ns = sc_ns(c, ticks);
	char buf[40], *end = buf + sizeof(buf), *p;

	*--end = '\0';
	*--end = 's';
	*--end = 'u';
	p = sc_dec(end, ns % 1000, 3);
	*--p = '.';
	p = sc_dec(p, ns / 1000, 1);
	snprintf(tail, sizeof(c->tail), " dur=%s", p);
}

static int sc_function(struct sc *c, const struct tb_fdr_timeline_event *e)
{
	struct task *t = sc_task(c, e->tid);
	struct name *n = sc_name(c, e->func_id);
	bool is_exit = e->func_type == TB_FDR_EXIT ||
		       e->func_type == TB_FDR_TAIL_EXIT;
	bool show, was_point;
	uint64_t start = 0;
	size_t d;
	int found = -1;	/* exit: 1 entry found, 0 not in the trace */

	if (!t || !n)
		return -ENOMEM;
	t->pid = e->pid;
	t->last_block = e->block;
	t->last_exit = is_exit;
	t->last_id = e->func_id;
	t->last_shown = false;
	was_point = t->point && t->point_id == e->func_id;
	t->point = false;
	if (c->points >> n->rc & 1) {
		/* A point event: its entry and exit at once, one line. */
		if (is_exit && was_point)
			return 0;
		if (!is_exit) {
			t->point = true;
			t->point_id = e->func_id;
		}
	} else if (!is_exit) {
		if (t->depth >= DEPTH_MAX) {
			t->deep++;
		} else {
			if (tb_buf_array_grow(&t->stack, &t->cap, t->depth + 1,
					      sizeof(*t->stack)))
				return -ENOMEM;
			t->stack[t->depth++] = (struct frame){
				.id = e->func_id, .tsc = e->tsc,
			};
		}
	} else if (t->deep) {
		t->deep--;
		found = 0;
	} else {
		for (d = t->depth; d > 0 && t->stack[d - 1].id != e->func_id; d--)
			;
		found = d > 0;
		if (d) {
			/* The calls above it lost their exits. */
			start = t->stack[d - 1].tsc;
			t->depth = d - 1;
		}
	}
	show = n->selected && sc_who(c, e) && sc_where(c, e);
	if (!show)
		return 0;
	if (sc_prefix(c, e))
		return -ENOMEM;
	fputs_unlocked(n->full, c->out);
	if (!(c->points >> n->rc & 1))
		fputs_unlocked(is_exit ? " exit" : " enter", c->out);
	if (!is_exit || c->points >> n->rc & 1)
		sc_args(c, n, e);
	if (found == -1) {
		fputc_unlocked('\n', c->out);
		return 0;
	}
	/* An exit: its line ends at the next event, ret= may come first. */
	if (found == 1)
		sc_duration(c, e->tsc >= start ? e->tsc - start : 0, c->tail);
	else
		snprintf(c->tail, sizeof(c->tail), " (entry not in the trace)");
	c->pending = true;
	c->pending_tid = e->tid;
	t->last_shown = true;
	return 0;
}

/* " ret=V", and the errno's name when it is one. */
static void sc_ret_value(struct sc *c, int64_t v)
{
	int err = tb_fdr_event_errno(v);
	const char *name = tb_fdr_event_errno_name(err);

	fprintf(c->out, " ret=%" PRId64, v);
	if (name)
		fprintf(c->out, " err=%s", name);
	else if (err)
		fprintf(c->out, " err=%d", err);
}

/*
 * A system call's return value (RET): on its exit's line, which waits
 * for it, when it comes right after that exit in the same block;
 * else on a line of its own that says it follows no exit of its call.
 */
static int sc_ret(struct sc *c, const struct tb_fdr_timeline_event *e,
		  const struct tb_fdr_ret *ret)
{
	struct task *t = sc_task(c, e->tid);
	struct name *n = sc_name(c, ret->func_id);
	bool matched;

	if (!t || !n)
		return -ENOMEM;
	matched = t->last_exit && t->last_block == e->block &&
		  t->last_id == ret->func_id;
	t->last_exit = false;
	t->pid = e->pid;
	t->last_block = e->block;
	if (matched && !t->last_shown)
		return 0;	/* its exit was filtered out: so is it */
	if (matched && c->pending && c->pending_tid == e->tid) {
		sc_ret_value(c, ret->value);
		sc_flush(c);
		return 0;
	}
	if (!n->selected || !sc_who(c, e) || !sc_where(c, e))
		return 0;
	if (sc_prefix(c, e))
		return -ENOMEM;
	fputs_unlocked(n->full, c->out);
	fputs_unlocked(" return", c->out);
	sc_ret_value(c, ret->value);
	fputs_unlocked(matched ? "\n" :
		       " (not right after an exit of its call)\n", c->out);
	return 0;
}

/* -p and -t: either task of a switch or a wake-up, as report. */
static bool sc_who2(const struct sc *c, int32_t tid, int32_t pid,
		    int32_t tid2, int32_t pid2)
{
	const struct tb_fdr_report_opts *f = c->f;
	bool a = true, b = true;

	if (f->pid != TB_REPORT_NO_FILTER) {
		a = pid == f->pid;
		b = pid2 == f->pid;
	}
	if (f->tid != TB_REPORT_NO_FILTER) {
		a = a && (tid == f->tid || tb_task_map_shown_tid(tid) == f->tid);
		b = b && (tid2 == f->tid ||
			  tb_task_map_shown_tid(tid2) == f->tid);
	}
	return a || b;
}

/* -e sched and --name for a sched event called @name. */
static bool sc_sched_selected(const struct sc *c, const char *name)
{
	const struct tb_fdr_report_opts *f = c->f;

	if (f->classes && (c->sched < 0 || !(f->classes & (1U << c->sched))))
		return false;
	return !f->name || !fnmatch(f->name, name, 0);
}

/* The pid of a task we know only by its tid: its last event's. */
static int32_t sc_pid_of(struct sc *c, int32_t tid)
{
	uint32_t v = tb_hash_get(&c->task_index, (uint32_t)tid);

	return v ? c->tv[v - 1].pid : 0;
}

/* "COMM:TID [PRIO]", ":TID [PRIO]" for a task of no known name. */
static void sc_task_prio(struct sc *c, int32_t tid, int32_t pid, int prio)
{
	char comm[TB_TASK_COMM_LEN];
	const char *s = sc_comm(c, tid, pid, comm);

	if (s == comm && comm[0] == ':')
		s = "";
	fprintf(c->out, "%s:%d [%d]", s, tb_task_map_shown_tid(tid), prio);
}

/*
 * A context switch, as perf script and trace-cmd print sched_switch:
 * the line is the previous task's (the event happens as it leaves),
 * though the record opens the next task's block.
 */
static int sc_switch(struct sc *c, const struct tb_fdr_timeline_event *e,
		     const struct tb_fdr_switch *sw)
{
	int32_t prev_pid = sc_pid_of(c, sw->prev_tid);
	struct task *t = sc_task(c, e->tid);

	if (!t)
		return -ENOMEM;
	t->pid = e->pid;
	t->last_exit = false;
	t->last_block = e->block;
	if (!sc_sched_selected(c, "sched_switch") || !sc_where(c, e) ||
	    !sc_who2(c, sw->prev_tid, prev_pid, sw->next_tid,
		     sw->next_tid == e->tid ? e->pid : sc_pid_of(c, sw->next_tid)))
		return 0;
	if (sc_prefix_of(c, sw->prev_tid, prev_pid, e))
		return -ENOMEM;
	fputs_unlocked("sched:sched_switch ", c->out);
	sc_task_prio(c, sw->prev_tid, prev_pid, sw->prev_prio);
	fprintf(c->out, " %c ==> ", tb_fdr_event_state_letter(sw->prev_state));
	sc_task_prio(c, sw->next_tid, sw->next_tid == e->tid ? e->pid :
		     sc_pid_of(c, sw->next_tid), sw->next_prio);
	fputc_unlocked('\n', c->out);
	return 0;
}

/* A wake-up, on the line of the task that woke it (its block's). */
static int sc_wakeup(struct sc *c, const struct tb_fdr_timeline_event *e,
		     const struct tb_fdr_wakeup *w)
{
	const char *name = w->new_task ? "sched_wakeup_new" : "sched_wakeup";
	struct task *t = sc_task(c, e->tid);
	int32_t pid;

	if (!t)
		return -ENOMEM;
	t->pid = e->pid;
	t->last_exit = false;
	t->last_block = e->block;
	pid = sc_pid_of(c, w->tid);
	if (!sc_sched_selected(c, name) || !sc_where(c, e) ||
	    !sc_who2(c, e->tid, e->pid, w->tid, pid))
		return 0;
	if (sc_prefix(c, e))
		return -ENOMEM;
	fprintf(c->out, "sched:%s ", name);
	sc_task_prio(c, w->tid, pid, w->prio);
	fprintf(c->out, " target_cpu=%03u\n", w->cpu);
	return 0;
}

/* A typed event: ours decoded, the trace's description silent. */
static int sc_typed(struct sc *c, const struct tb_fdr_timeline_event *e)
{
	const struct tb_fdr_report_opts *f = c->f;
	struct tb_fdr_record r = {
		.kind = TB_FDR_TYPED, .event_type = e->event_type,
		/* what the merge kept: a payload grown past it keeps its head */
		.size = e->text_len, .data = (const uint8_t *)e->text,
	};
	struct tb_fdr_event ev;
	struct task *t;

	switch (tb_fdr_event_decode(&r, &ev)) {
	case TB_FDR_EV_SWITCH:
		return sc_switch(c, e, &ev.sw);
	case TB_FDR_EV_WAKEUP:
		return sc_wakeup(c, e, &ev.wakeup);
	case TB_FDR_EV_RET:
		return sc_ret(c, e, &ev.ret);
	case TB_FDR_EV_META:
		return 0;
	case TB_FDR_EV_NONE:
		break;
	}
	t = sc_task(c, e->tid);
	if (!t)
		return -ENOMEM;
	t->last_exit = false;
	t->last_block = e->block;
	if (f->classes || f->name || !sc_who(c, e) || !sc_where(c, e))
		return 0;
	if (sc_prefix(c, e))
		return -ENOMEM;
	fprintf(c->out, "typed: type=%u size=%d%s\n", e->event_type, e->size,
		tb_fdr_event_malformed(&r) ? " (too short for its type)" : "");
	return 0;
}

/* A marker's text, printable, cut at what the merge keeps. */
static void sc_text(struct sc *c, const struct tb_fdr_timeline_event *e,
		    size_t skip)
{
	size_t i;

	for (i = skip; i < e->text_len; i++) {
		char ch = e->text[i];

		fputc(ch >= 0x20 && ch < 0x7f ? ch : '.', c->out);
	}
	if (e->size > e->text_len)
		fprintf(c->out, "... (%d bytes)", e->size);
}

static bool sc_starts(const struct tb_fdr_timeline_event *e, const char *p)
{
	size_t n = strlen(p);

	return e->text_len >= n && !memcmp(e->text, p, n);
}

static int sc_custom(struct sc *c, const struct tb_fdr_timeline_event *e)
{
	static const char lost[] = TRACEBUF_FDR_LOST_PREFIX;
	const struct tb_fdr_report_opts *f = c->f;
	struct task *t;
	char name[256];
	size_t i;

	if (e->kind == TB_FDR_TYPED)
		return sc_typed(c, e);
	/* Between an exit and a RET, the RET is no longer right after it. */
	t = sc_task(c, e->tid);
	if (!t)
		return -ENOMEM;
	t->last_exit = false;
	t->last_block = e->block;
	if (sc_starts(e, TRACEBUF_FDR_COMM_PREFIX) ||
	    (e->text_len == strlen(TB_FDR_MARKS_START) &&
	     sc_starts(e, TB_FDR_MARKS_START)))
		return 0;
	if (sc_starts(e, lost)) {
		/* What was lost is no task's: only -C and the window apply. */
		if (!sc_where(c, e))
			return 0;
		if (sc_prefix(c, e))
			return -ENOMEM;
		fputs("lost: ", c->out);
		sc_text(c, e, sizeof(lost) - 1);
		fputs(" (the recorder dropped them here)\n", c->out);
		return 0;
	}
	if ((f->classes && !(f->classes & (1U << (TB_FDR_NR_CLASSES - 1)))) ||
	    !sc_who(c, e) || !sc_where(c, e))
		return 0;
	if (f->name) {
		for (i = 0; i < e->text_len && i < sizeof(name) - 1; i++)
			name[i] = e->text[i] >= 0x20 && e->text[i] < 0x7f ?
				  e->text[i] : '.';
		name[i] = '\0';
		if (fnmatch(f->name, name, 0))
			return 0;
	}
	if (sc_prefix(c, e))
		return -ENOMEM;
	fputs("marker: ", c->out);
	sc_text(c, e, 0);
	fputc('\n', c->out);
	return 0;
}

static void sc_free(struct sc *c)
{
	size_t i;

	for (i = 0; i < c->nt; i++)
		free(c->tv[i].stack);
	for (i = 0; i < c->nn; i++) {
		free(c->nv[i].name);
		free(c->nv[i].full);
	}
	free(c->tv);
	free(c->nv);
	tb_hash_free(&c->task_index);
	tb_hash_free(&c->name_index);
	tb_task_map_free(&c->comms);
}

int tb_fdr_script_run(int fd, FILE *out, const struct tb_name_map *names,
		      const struct tb_task_map *tasks,
		      const struct tb_fdr_script_opts *o,
		      struct tb_fdr_script_stats *st, struct tb_error *err)
{
	struct sc c = {
		.o = o, .f = &o->filter, .names = names, .tasks = tasks,
		.out = out, .points = tb_fdr_report_class_points(),
		.sched = tb_fdr_report_class("sched"),
	};
	const struct tb_fdr_timeline_event *e;
	struct tb_fdr_timeline *m;
	int ret;

	memset(st, 0, sizeof(*st));
	tb_task_map_init(&c.comms);
	ret = tb_fdr_timeline_open(&m, fd, sc_learn, &c, err);
	if (m) {
		c.info = *tb_fdr_timeline_info(m);
		st->reader = c.info.stats;
		st->blocks = c.info.blocks;
	}
	if (!ret && o->wallclock && !c.info.has_wall) {
		tb_error_set(err, 0, "--wallclock: the trace has no WallClockTime record");
		ret = -1;
	}
	if (!ret)
		ret = sc_window(&c, err);
	while (!ret && (ret = tb_fdr_timeline_next(m, &e, err)) == 1) {
		st->events++;
		/* The trace's own description: no line (its names are used). */
		if (e->tid == TRACEBUF_FDR_META_TID) {
			ret = 0;
			continue;
		}
		if (e->kind == TB_FDR_FUNCTION)
			ret = sc_function(&c, e);
		else
			ret = sc_custom(&c, e);
		/* The output's error, not the trace's: its errno. */
		if (!ret && ferror(out))
			ret = errno > 0 ? -errno : -EIO;
	}
	/* Even after an error: the line begun is ended. */
	sc_flush(&c);
	if (!ret && ferror(out))
		ret = errno > 0 ? -errno : -EIO;
	if (m) {
		st->backwards = tb_fdr_timeline_backwards(m);
		st->open_max = tb_fdr_timeline_open_max(m);
	}
	st->lines = c.lines;
	tb_fdr_timeline_free(m);
	sc_free(&c);
	return ret;
}
