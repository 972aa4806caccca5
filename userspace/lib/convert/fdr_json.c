// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR -> trace_event JSON: see convert/fdr_json.h.
 *
 * Two passes over the input, both through fj_call(), so that they match
 * exits to entries alike.  The first (c->writing false) learns what a
 * stream cannot know in time: each thread's first and last time, the
 * calls already running when the capture started (exits with nothing
 * open), which calls will be cut (by an outer exit or the end) and the
 * stretches of each task on each CPU.  The second writes.
 *
 * A cut slice says so in its "cut" argument on the "B" and the "E" alike:
 * speedscope keys a frame by its name and arguments, and an "E" whose key
 * differs from its "B" at the same time (a call cut at the very record
 * it entered) is taken before the "B" and closes the wrong frame.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_json.h"
#include "format/fdr_classes.h"
#include "format/fdr_marks.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/hash.h"

/* Why a slice is cut (the "cut" argument). */
enum fj_cut {
	FJ_WHOLE,
	FJ_CUT_START,		/* running when the capture started */
	FJ_CUT_END,		/* still running at the thread's last record */
	FJ_CUT_EXITED,		/* the same, and the task exited */
	FJ_CUT_INNER,		/* its exit is missing: an outer exit closes it */
};

static const char *const fj_cut_text[] = {
	[FJ_CUT_START] = "capture start",
	[FJ_CUT_END] = "capture end",
	[FJ_CUT_EXITED] = "task exited",
	[FJ_CUT_INNER] = "exit not in the trace",
};

/* An open call: its "E" repeats its "B"'s arguments. */
struct fj_frame {
	uint32_t id;
	uint8_t cut;		/* enum fj_cut */
	unsigned int nargs;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
	uint64_t nth;		/* its thread's nth entry, from 1 */
};

/* First pass: the nth entry of a thread will be cut, and why. */
struct fj_cutmark {
	uint64_t nth;
	uint8_t cut;
};

struct fj_thread {
	int32_t pid, tid;
	const char *comm;	/* fj_meta_tasks(): its name, NULL if none */
	char exit_comm[16];	/* TRACEBUF_FDR_COMM_PREFIX's, or "" */
	uint64_t first, last;	/* times of its first and last record */
	bool seen;		/* first and last are set */
	bool disordered;
	bool exited;		/* a task exit event */
	struct fj_frame *stack;
	size_t depth, cap;
	size_t npre;		/* stack[0..npre) opened at the first time */
	uint64_t entries;	/* entries so far in this pass */
	/* first pass: exits with nothing open, innermost first */
	uint32_t *pre;
	size_t npres, precap;
	/* first pass: cut entries; second: the next one to mark is [next] */
	struct fj_cutmark *cuts;
	size_t ncuts, cutcap, next;
};

/* A task's records on one CPU, from a NewCPUId to the next. */
struct fj_stint {
	uint64_t first, last;
	int32_t pid, tid;
	uint16_t cpu;
};

struct fj_ctx {
	FILE *out;
	const struct tb_name_map *names;
	const struct tb_task_map *tasks;
	struct tb_fdr_json_stats *st;
	uint64_t freq;
	uint64_t t0;		/* the capture's earliest time */
	bool has_t0;
	bool first;		/* no event written yet: no comma */
	struct fj_thread *th;
	size_t nth, thcap;
	struct tb_hash thmap;	/* pid << 32 | tid -> index + 1 */
	struct fj_stint *stints;
	size_t nstints, stcap;
	bool in_stint;		/* stints[nstints - 1] is the current block's */
	struct tb_fdr_call call;	/* with its CallArgument records */
	struct tb_fdr_call held;	/* a point event's entry, until its exit */
	bool writing;		/* second pass */
	int oom;
};

static struct fj_thread *fj_thread(struct fj_ctx *c, int32_t pid, int32_t tid)
{
	uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	uint32_t i = tb_hash_get(&c->thmap, key);
	struct fj_thread *t;

	if (i)
		return &c->th[i - 1];
	if (tb_buf_array_grow(&c->th, &c->thcap, c->nth + 1, sizeof(*c->th)) ||
	    tb_hash_put(&c->thmap, key, (uint32_t)c->nth + 1))
		return NULL;
	t = &c->th[c->nth++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

/* Class of a function id: its kernel id's space, 0 when unknown. */
static uint32_t fj_space(const struct fj_ctx *c, uint32_t id, uint32_t *key)
{
	uint32_t kid = tb_name_map_kernel_id(c->names, id);

	*key = TRACEBUF_FDR_ID_KEY(kid);
	return kid ? TRACEBUF_FDR_ID_SPACE(kid) : 0;
}

static bool fj_is_exit(const struct tb_fdr_record *r)
{
	return r->func_type == TB_FDR_EXIT || r->func_type == TB_FDR_TAIL_EXIT;
}

/* ---- writing ---- */

/* @s (@len bytes) as the body of a JSON string. */
static void fj_string(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
}

static void fj_ts(struct fj_ctx *c, const char *key, uint64_t tsc)
{
	long double us = (long double)tsc * 1000000.0L / c->freq;

	fprintf(c->out, ", \"%s\": %.3Lf", key, us);
}

/* The common part of an event: name, category, phase, pid, tid, ts. */
static void fj_head(struct fj_ctx *c, const char *name, const char *cat,
		    char ph, int32_t pid, int32_t tid, uint64_t tsc)
{
	fprintf(c->out, "%s\n{\"name\": \"", c->first ? "" : ",");
	c->first = false;
	fj_string(c->out, name, strlen(name));
	fprintf(c->out, "\", \"cat\": \"%s\", \"ph\": \"%c\", \"pid\": %" PRId32
		", \"tid\": %" PRId32, cat, ph, pid, tid);
	fj_ts(c, "ts", tsc);
	if (ph == 'i')
		fprintf(c->out, ", \"s\": \"t\"");
}

static const char *fj_name(const struct fj_ctx *c, uint32_t id, char *buf,
			   size_t size)
{
	const char *name = tb_name_map_find(c->names, id);

	if (name)
		return name;
	snprintf(buf, size, "function %" PRIu32, id);
	return buf;
}

static const char *fj_cat(uint32_t space)
{
	unsigned int i;

	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		if (space && tb_fdr_classes[i].space == space)
			return tb_fdr_classes[i].name;
	return space == TRACEBUF_FDR_SPACE_KFUNC ? "kfunc" : "function";
}

/*
 * The arguments of a call of @id, named by its class (the table of
 * Documentation/fdr.rst), then @cut when the slice is cut.
 */
static void fj_args(struct fj_ctx *c, uint32_t id, const struct fj_frame *f,
		    const char *cut)
{
	uint32_t key, space = fj_space(c, id, &key);
	const char *sep = "";
	unsigned int i = 0;

	fprintf(c->out, ", \"args\": {");
	switch (space) {
	case TRACEBUF_FDR_SPACE_SYSCALL:
		if (key == TRACEBUF_FDR_KEY_OTHER)
			break;
		fprintf(c->out, "\"nr\": %" PRIu32 "%s",
			key & (TRACEBUF_FDR_KEY_COMPAT - 1),
			key & TRACEBUF_FDR_KEY_COMPAT ? ", \"compat\": true" : "");
		sep = ", ";
		break;
	case TRACEBUF_FDR_SPACE_IRQ:
		fprintf(c->out, "\"irq\": %" PRIu32, key);
		sep = ", ";
		break;
	case TRACEBUF_FDR_SPACE_SOFTIRQ:
		fprintf(c->out, "\"vector\": %" PRIu32, key);
		sep = ", ";
		break;
	case TRACEBUF_FDR_SPACE_FAULT:
		if (f->nargs) {
			fprintf(c->out, "\"address\": \"%#" PRIx64 "\"",
				f->args[0]);
			sep = ", ";
			i = 1;
		}
		break;
	case TRACEBUF_FDR_SPACE_TASK:
		if (f->nargs) {
			fprintf(c->out, "\"%s\": %" PRIu64,
				key == 0 ? "child_pid" : "pid", f->args[0]);
			sep = ", ";
			i = 1;
		}
		break;
	}
	/* Syscall arguments and the rest: by position, in hex. */
	for (; i < f->nargs; i++) {
		fprintf(c->out, "%s\"arg%u\": \"%#" PRIx64 "\"", sep, i,
			f->args[i]);
		sep = ", ";
	}
	if (f->cut)
		cut = fj_cut_text[f->cut];
	if (cut)
		fprintf(c->out, "%s\"cut\": \"%s\"", sep, cut);
	fprintf(c->out, "}");
}

static void fj_call_event(struct fj_ctx *c, const struct fj_frame *f,
			  char ph, int32_t pid, int32_t tid, uint64_t tsc,
			  const char *cut)
{
	uint32_t key, space = fj_space(c, f->id, &key);
	char buf[32];

	fj_head(c, fj_name(c, f->id, buf, sizeof(buf)), fj_cat(space), ph,
		pid, tid, tsc);
	fj_args(c, f->id, f, cut);
	fprintf(c->out, "}");
	if (ph == 'B')
		c->st->begins++;
	else if (ph == 'E')
		c->st->ends++;
	else
		c->st->instants++;
}

static void fj_frame_of(struct fj_frame *f, const struct tb_fdr_call *call)
{
	memset(f, 0, sizeof(*f));
	f->id = call->rec.func_id;
	f->nargs = call->nargs;
	memcpy(f->args, call->args, sizeof(f->args));
}

/* ---- both passes: matching exits to entries ---- */

static int fj_mark(struct fj_thread *t, const struct fj_frame *f, uint8_t cut)
{
	if (tb_buf_array_grow(&t->cuts, &t->cutcap, t->ncuts + 1, sizeof(*t->cuts)))
		return -ENOMEM;
	t->cuts[t->ncuts++] = (struct fj_cutmark){ .nth = f->nth, .cut = cut };
	return 0;
}

/* An event that is a point in time: instant, with @cut when it is one. */
static void fj_instant(struct fj_ctx *c, const struct tb_fdr_call *call,
		       const char *cut)
{
	const struct tb_fdr_record *r = &call->rec;
	struct fj_frame f;

	if (!c->writing)
		return;
	fj_frame_of(&f, call);
	fj_call_event(c, &f, 'i', r->pid, r->tid, r->tsc, cut);
}

static void fj_enter(struct fj_ctx *c, struct fj_thread *t,
		     const struct tb_fdr_call *call)
{
	const struct tb_fdr_record *r = &call->rec;
	struct fj_frame *f;

	if (t->depth >= TB_FDR_JSON_MAX_DEPTH) {
		/* A point in time rather than a slice left open. */
		fj_instant(c, call, "nested too deep");
		return;
	}
	if (tb_buf_array_grow(&t->stack, &t->cap, t->depth + 1, sizeof(*t->stack))) {
		c->oom = -ENOMEM;
		return;
	}
	f = &t->stack[t->depth++];
	fj_frame_of(f, call);
	f->nth = ++t->entries;
	if (!c->writing)
		return;
	/* The first pass said whether this call will be cut. */
	while (t->next < t->ncuts && t->cuts[t->next].nth < f->nth)
		t->next++;
	if (t->next < t->ncuts && t->cuts[t->next].nth == f->nth)
		f->cut = t->cuts[t->next++].cut;
	fj_call_event(c, f, 'B', r->pid, r->tid, r->tsc, NULL);
}

/* Close stack[depth - 1] at @tsc. */
static void fj_close(struct fj_ctx *c, struct fj_thread *t, uint64_t tsc)
{
	t->depth--;
	if (t->depth < t->npre)
		t->npre = t->depth;
	if (c->writing)
		fj_call_event(c, &t->stack[t->depth], 'E', t->pid, t->tid,
			      tsc, NULL);
}

/*
 * An exit closes the innermost open call of its id above the calls
 * opened at the first time; those are closed only in the order the
 * first pass found them, each by the exit that found it (nothing else
 * open then), so that both passes decide alike.
 */
static void fj_exit(struct fj_ctx *c, struct fj_thread *t,
		    const struct tb_fdr_call *call)
{
	const struct tb_fdr_record *r = &call->rec;
	size_t i;

	for (i = t->depth; i > t->npre; i--)
		if (t->stack[i - 1].id == r->func_id)
			break;
	if (i > t->npre) {
		while (t->depth > i) {
			/* Its exit is not in the trace: cut here. */
			if (!c->writing && fj_mark(t, &t->stack[t->depth - 1],
						   FJ_CUT_INNER))
				c->oom = -ENOMEM;
			fj_close(c, t, r->tsc);
			c->st->cut_inner += c->writing;
		}
		fj_close(c, t, r->tsc);
		return;
	}
	if (t->depth == t->npre && !c->writing &&
	    t->npres < TB_FDR_JSON_MAX_DEPTH) {
		/* Running when the capture started: opened at the first time. */
		if (tb_buf_array_grow(&t->pre, &t->precap, t->npres + 1,
				      sizeof(*t->pre))) {
			c->oom = -ENOMEM;
			return;
		}
		t->pre[t->npres++] = r->func_id;
		return;
	}
	if (t->depth && t->depth == t->npre &&
	    t->stack[t->depth - 1].id == r->func_id) {
		fj_close(c, t, r->tsc);
		return;
	}
	/* Nothing to close: the exit is shown where it happened. */
	fj_instant(c, call, "entry not in the trace");
	c->st->orphans += c->writing;
}

/* A point event's entry waits for its exit: both become one instant. */
static bool fj_is_point(const struct fj_ctx *c, const struct tb_fdr_call *call)
{
	uint32_t key, space = fj_space(c, call->rec.func_id, &key);

	return !fj_is_exit(&call->rec) && call->nargs &&
	       (space == TRACEBUF_FDR_SPACE_FAULT ||
		space == TRACEBUF_FDR_SPACE_TASK);
}

static void fj_release_held(struct fj_ctx *c)
{
	struct fj_thread *t;

	if (!c->held.pending)
		return;
	c->held.pending = false;
	t = fj_thread(c, c->held.rec.pid, c->held.rec.tid);
	if (t)
		fj_enter(c, t, &c->held);
	else
		c->oom = -ENOMEM;
}

static void fj_call(void *ctx, const struct tb_fdr_call *call)
{
	struct fj_ctx *c = ctx;
	const struct tb_fdr_record *r = &call->rec, *h = &c->held.rec;
	struct fj_thread *t;
	uint32_t key;

	if (c->held.pending && fj_is_exit(r) && r->func_id == h->func_id &&
	    r->tsc == h->tsc && r->pid == h->pid && r->tid == h->tid) {
		c->held.pending = false;
		if (fj_space(c, h->func_id, &key) == TRACEBUF_FDR_SPACE_TASK &&
		    key == 1) {
			t = fj_thread(c, h->pid, h->tid);
			if (t)
				t->exited = true;
		}
		fj_instant(c, &c->held, NULL);
		return;
	}
	fj_release_held(c);
	if (fj_is_point(c, call)) {
		c->held = *call;
		c->held.pending = true;
		return;
	}
	t = fj_thread(c, r->pid, r->tid);
	if (!t)
		c->oom = -ENOMEM;
	else if (fj_is_exit(r))
		fj_exit(c, t, call);
	else
		fj_enter(c, t, call);
}

/* ---- the first pass ---- */

static int fj_header(void *ctx, const struct tb_fdr_header *h)
{
	struct fj_ctx *c = ctx;

	/* A zero frequency: count in TSC ticks as if they were ns. */
	c->freq = h->cycle_frequency ? h->cycle_frequency : 1000000000ULL;
	return 0;
}

/* A record of @r's task at r->tsc: its thread's and stint's times. */
static int fj_seen(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	struct fj_thread *t = fj_thread(c, r->pid, r->tid);
	struct fj_stint *s;

	if (!t)
		return -ENOMEM;
	if (!t->seen) {
		t->seen = true;
		t->first = r->tsc;
		t->last = r->tsc;
		c->st->threads++;
	} else if (r->tsc < t->last) {
		if (!t->disordered)
			c->st->disordered++;
		t->disordered = true;
	}
	if (r->tsc < t->first)
		t->first = r->tsc;
	if (r->tsc > t->last)
		t->last = r->tsc;
	s = c->in_stint ? &c->stints[c->nstints - 1] : NULL;
	if (!s || s->pid != r->pid || s->tid != r->tid || s->cpu != r->cpu) {
		/* No NewCPUId for this task here: it starts now. */
		if (tb_buf_array_grow(&c->stints, &c->stcap, c->nstints + 1,
				      sizeof(*c->stints)))
			return -ENOMEM;
		s = &c->stints[c->nstints++];
		s->first = r->tsc;
		s->pid = r->pid;
		s->tid = r->tid;
		s->cpu = r->cpu;
		c->in_stint = true;
	}
	s->last = r->tsc;
	return 0;
}

/*
 * A task's command name, written as it exits (uapi): it names the thread,
 * no event of its own.  With @t, keep it there.
 */
static bool fj_is_comm(const struct tb_fdr_record *r, struct fj_thread *t)
{
	const size_t pre = strlen(TRACEBUF_FDR_COMM_PREFIX);
	size_t n, i;

	if (r->kind != TB_FDR_CUSTOM || r->size <= (int32_t)pre ||
	    memcmp(r->data, TRACEBUF_FDR_COMM_PREFIX, pre))
		return false;
	if (!t)
		return true;
	n = (size_t)r->size - pre;
	n = n < sizeof(t->exit_comm) - 1 ? n : sizeof(t->exit_comm) - 1;
	for (i = 0; i < n; i++) {
		uint8_t ch = r->data[pre + i];

		t->exit_comm[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '.';
	}
	t->exit_comm[n] = '\0';
	return true;
}

static int fj_scan(void *ctx, const struct tb_fdr_record *r)
{
	struct fj_ctx *c = ctx;
	int ret = 0;

	if (r->ignored)
		return 0;
	if (fj_is_comm(r, NULL)) {
		struct fj_thread *t = fj_thread(c, r->pid, r->tid);

		if (!t)
			return -ENOMEM;
		fj_is_comm(r, t);
		return 0;
	}
	if ((r->kind == TB_FDR_FUNCTION || r->kind == TB_FDR_CUSTOM ||
	     r->kind == TB_FDR_TYPED) && (!c->has_t0 || r->tsc < c->t0)) {
		c->t0 = r->tsc;
		c->has_t0 = true;
	}
	if (tb_fdr_marks_is_start(r))
		return 0;
	switch (r->kind) {
	case TB_FDR_NEW_BUFFER:
		c->in_stint = false;
		break;
	case TB_FDR_NEW_CPU:
		/* A stretch starts at the NewCPUId even with no record yet. */
		if (tb_buf_array_grow(&c->stints, &c->stcap, c->nstints + 1,
				      sizeof(*c->stints)))
			return -ENOMEM;
		c->stints[c->nstints++] = (struct fj_stint){
			.first = r->tsc, .last = r->tsc,
			.pid = r->pid, .tid = r->tid, .cpu = r->cpu,
		};
		c->in_stint = true;
		break;
	case TB_FDR_FUNCTION:
	case TB_FDR_CUSTOM:
	case TB_FDR_TYPED:
		ret = fj_seen(c, r);
		break;
	}
	if (!ret && !tb_fdr_reader_call_feed(&c->call, r, fj_call, c))
		fj_release_held(c);
	return ret ? ret : c->oom;
}

static int fj_cmp_mark(const void *a, const void *b)
{
	const struct fj_cutmark *x = a, *y = b;

	return (x->nth > y->nth) - (x->nth < y->nth);
}

/*
 * After the first pass: calls still open are cut at the end, the cut
 * marks in entry order, and each thread starts again with the calls
 * running at the capture's start open, outermost first.
 */
static int fj_scan_done(struct fj_ctx *c)
{
	struct fj_thread *t;
	struct fj_frame *f;
	size_t i, j;

	tb_fdr_reader_call_flush(&c->call, fj_call, c);
	fj_release_held(c);
	for (i = 0; i < c->nth && !c->oom; i++) {
		t = &c->th[i];
		for (j = 0; j < t->depth; j++)
			if (fj_mark(t, &t->stack[j], t->exited ? FJ_CUT_EXITED :
				    FJ_CUT_END))
				return -ENOMEM;
		if (t->ncuts)
			qsort(t->cuts, t->ncuts, sizeof(*t->cuts), fj_cmp_mark);
		t->depth = 0;
		t->entries = 0;
		for (j = t->npres; j > 0; j--) {
			if (tb_buf_array_grow(&t->stack, &t->cap, t->depth + 1,
					      sizeof(*t->stack)))
				return -ENOMEM;
			f = &t->stack[t->depth++];
			memset(f, 0, sizeof(*f));
			f->id = t->pre[j - 1];
			f->cut = FJ_CUT_START;
		}
		t->npre = t->depth;
		free(t->pre);
		t->pre = NULL;
		t->npres = 0;
	}
	memset(&c->call, 0, sizeof(c->call));
	return c->oom;
}

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
		fj_string(c->out, name, strlen(name));
		fprintf(c->out, "\"}}");
	} else {
		fprintf(c->out, "\"sort_index\": %ld}}", sort);
	}
}

/* What to call thread @t: its name (fj_meta_tasks()), else "tid N". */
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

static int fj_meta_tasks(struct fj_ctx *c)
{
	const char *comm, *pcomm = NULL;
	struct fj_thread **v;
	char buf[32];
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
			comm = v[i]->pid ? tb_task_map_comm(c->tasks, v[i]->pid)
					 : "swapper";
			for (j = i; !comm && j < c->nth &&
			     v[j]->pid == v[i]->pid; j++)
				if (v[j]->tid == v[i]->pid)
					comm = fj_exit_comm(v[j]);
			for (j = i; !comm && j < c->nth &&
			     v[j]->pid == v[i]->pid; j++)
				comm = tb_task_map_comm(c->tasks, v[j]->tid);
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
		v[i]->comm = tb_task_map_comm(c->tasks, v[i]->tid);
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

/*
 * A task on a CPU from @from to @to.  "B" and "E" with the same name and
 * arguments, at the very times the next slice starts and the previous
 * ends ("X" events' rounded durations can overlap the next slice).
 */
static void fj_cpu_write(struct fj_ctx *c, const struct fj_stint *s)
{
	const struct fj_thread *t = fj_thread(c, s->pid, s->tid);
	const char *comm = t ? t->comm : NULL;
	char name[48];
	char ph;

	/* The command and the tid: one name per task. */
	if (comm)
		snprintf(name, sizeof(name), "%s %" PRId32, comm, s->tid);
	else
		snprintf(name, sizeof(name), "tid %" PRId32, s->tid);
	for (ph = 'B'; ph; ph = ph == 'B' ? 'E' : 0) {
		fj_head(c, name, "cpu", ph, TB_FDR_JSON_CPUS_PID,
			TB_FDR_JSON_CPU_TID(s->cpu),
			ph == 'B' ? s->first : s->last);
		fprintf(c->out, ", \"args\": {\"pid\": %" PRId32
			", \"tid\": %" PRId32 "}}", s->pid, s->tid);
	}
	c->st->cpu_slices++;
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

static int fj_cpus(struct fj_ctx *c)
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
		ret = fj_cpu_track(c, &c->stints[i], j - i);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Calls running when the capture started, at the capture's earliest time,
 * before the thread's other events: a viewer puts the earlier of two "B"
 * at one time outside.
 */
static void fj_cut_starts(struct fj_ctx *c)
{
	struct fj_thread *t;
	size_t i, j;

	for (i = 0; i < c->nth; i++) {
		t = &c->th[i];
		for (j = 0; j < t->npre; j++) {
			fj_call_event(c, &t->stack[j], 'B', t->pid, t->tid,
				      c->t0, NULL);
			c->st->cut_start++;
		}
	}
}

/* ---- the second pass ---- */

/* A loss report: on the thread and on the CPU where it happened. */
static bool fj_lost(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	size_t plen = strlen(TRACEBUF_FDR_LOST_PREFIX);
	unsigned long long n = 0;
	char text[64];
	size_t len;
	int k = 0;

	len = r->size > 0 ? (size_t)r->size : 0;
	if (r->kind != TB_FDR_CUSTOM || len <= plen || len >= sizeof(text) ||
	    memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX, plen))
		return false;
	memcpy(text, r->data, len);
	text[len] = 0;
	if (sscanf(text + plen, "%llu events%n", &n, &k) != 1 ||
	    (size_t)k != len - plen)
		return false;
	fj_head(c, "lost events", "loss", 'i', r->pid, r->tid, r->tsc);
	fprintf(c->out, ", \"args\": {\"lost\": %llu}}", n);
	fj_head(c, "lost events", "loss", 'i', TB_FDR_JSON_CPUS_PID,
		TB_FDR_JSON_CPU_TID(r->cpu), r->tsc);
	fprintf(c->out, ", \"args\": {\"lost\": %llu}}", n);
	c->st->instants += 2;
	return true;
}

static void fj_event(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	if (fj_lost(c, r))
		return;
	fj_head(c, r->kind == TB_FDR_TYPED ? "typed event" : "marker",
		"marker", 'i', r->pid, r->tid, r->tsc);
	fprintf(c->out, ", \"args\": {");
	if (r->kind == TB_FDR_TYPED)
		fprintf(c->out, "\"type\": %u, ", r->event_type);
	fprintf(c->out, "\"data\": \"");
	fj_string(c->out, (const char *)r->data, (size_t)r->size);
	fprintf(c->out, "\"}}");
	c->st->instants++;
}

static int fj_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct fj_ctx *c = ctx;

	if (r->ignored || tb_fdr_marks_is_start(r) || fj_is_comm(r, NULL))
		return 0;
	if (!tb_fdr_reader_call_feed(&c->call, r, fj_call, c)) {
		fj_release_held(c);
		if (r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED)
			fj_event(c, r);
	}
	if (c->oom)
		return c->oom;
	return ferror(c->out) ? -EIO : 0;
}

/* Calls still open: closed at their thread's last time, marked so. */
static void fj_cut_ends(struct fj_ctx *c)
{
	struct fj_thread *t;
	size_t i;

	for (i = 0; i < c->nth; i++) {
		t = &c->th[i];
		while (t->depth) {
			fj_close(c, t, t->last);
			c->st->cut_end++;
		}
	}
}

/* ---- the whole ---- */

/* @in if it can be read twice, else a copy of it (a pipe). */
static FILE *fj_seekable(FILE *in, off_t *start)
{
	char buf[65536];
	FILE *tmp;
	size_t n;

	*start = ftello(in);
	if (*start >= 0 && !fseeko(in, *start, SEEK_SET))
		return in;
	tmp = tmpfile();
	if (!tmp)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, tmp) != n)
			break;
	if (ferror(in) || ferror(tmp) || fseeko(tmp, 0, SEEK_SET)) {
		fclose(tmp);
		return NULL;
	}
	*start = 0;
	return tmp;
}

static void fj_free(struct fj_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nth; i++) {
		free(c->th[i].stack);
		free(c->th[i].pre);
		free(c->th[i].cuts);
	}
	free(c->th);
	free(c->stints);
	tb_hash_free(&c->thmap);
}

int tb_fdr_json_write(FILE *in, FILE *out, const struct tb_name_map *names,
		      const struct tb_task_map *tasks,
		      struct tb_fdr_json_stats *stats, struct tb_error *err)
{
	struct tb_fdr_json_stats local;
	struct tb_task_map none;
	struct fj_ctx c = {
		.out = out, .names = names, .tasks = tasks, .first = true,
		.freq = 1000000000ULL,
	};
	FILE *f;
	off_t start;
	int ret;

	tb_task_map_init(&none);
	if (!tasks)
		c.tasks = &none;
	c.st = stats ? stats : &local;
	memset(c.st, 0, sizeof(*c.st));
	f = fj_seekable(in, &start);
	if (!f)
		return errno ? -errno : -EIO;
	ret = tb_fdr_reader_read(f, fj_header, fj_scan, &c, NULL, err);
	if (!ret)
		ret = fj_scan_done(&c);
	if (!ret && fseeko(f, start, SEEK_SET))
		ret = -errno;
	if (ret)
		goto out;
	c.writing = true;
	fprintf(out, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [");
	ret = fj_meta_tasks(&c);
	if (!ret)
		ret = fj_cpus(&c);
	if (ret)
		goto out;
	fj_cut_starts(&c);
	ret = tb_fdr_reader_read(f, NULL, fj_visit, &c, NULL, err);
	if (ret)
		goto out;
	tb_fdr_reader_call_flush(&c.call, fj_call, &c);
	fj_release_held(&c);
	fj_cut_ends(&c);
	fprintf(out, "\n]}\n");
	if (c.oom)
		ret = c.oom;
	else if (ferror(out) || fflush(out))
		ret = -EIO;
out:
	if (f != in)
		fclose(f);
	fj_free(&c);
	tb_task_map_free(&none);
	return ret;
}
