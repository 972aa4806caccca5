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
#include "convert/fdr_json_meta.h"
#include "convert/fdr_json_out.h"
#include "convert/fdr_json_sched.h"
#include "format/fdr_event.h"
#include "format/fdr_classes.h"
#include "format/fdr_marks.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/hash.h"

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
	tb_fdr_json_out_frame_of(&f, call);
	tb_fdr_json_out_call_event(c, &f, 'i', r->pid, r->tid, r->tsc, cut);
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
	tb_fdr_json_out_frame_of(f, call);
	f->nth = ++t->entries;
	if (!c->writing)
		return;
	/* The first pass said whether this call will be cut. */
	while (t->next < t->ncuts && t->cuts[t->next].nth < f->nth)
		t->next++;
	if (t->next < t->ncuts && t->cuts[t->next].nth == f->nth)
		f->cut = t->cuts[t->next++].cut;
	tb_fdr_json_out_call_event(c, f, 'B', r->pid, r->tid, r->tsc, NULL);
}

/* Close stack[depth - 1] at @tsc. */
static void fj_close(struct fj_ctx *c, struct fj_thread *t, uint64_t tsc)
{
	t->depth--;
	if (t->depth < t->npre)
		t->npre = t->depth;
	if (c->writing)
		tb_fdr_json_out_call_event(c, &t->stack[t->depth], 'E', t->pid, t->tid,
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
	uint32_t key, space = tb_fdr_json_out_space(c, call->rec.func_id, &key);

	return !tb_fdr_json_out_is_exit(&call->rec) && call->nargs &&
	       (space == TRACEBUF_FDR_SPACE_FAULT ||
		space == TRACEBUF_FDR_SPACE_TASK);
}

static void fj_release_held(struct fj_ctx *c)
{
	struct fj_thread *t;

	if (!c->held.pending)
		return;
	c->held.pending = false;
	t = tb_fdr_json_out_thread(c, c->held.rec.pid, c->held.rec.tid);
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

	if (c->held.pending && tb_fdr_json_out_is_exit(r) && r->func_id == h->func_id &&
	    r->tsc == h->tsc && r->pid == h->pid && r->tid == h->tid) {
		c->held.pending = false;
		if (tb_fdr_json_out_space(c, h->func_id, &key) == TRACEBUF_FDR_SPACE_TASK &&
		    key == 1) {
			t = tb_fdr_json_out_thread(c, h->pid, h->tid);
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
	t = tb_fdr_json_out_thread(c, r->pid, r->tid);
	if (!t)
		c->oom = -ENOMEM;
	else if (tb_fdr_json_out_is_exit(r))
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
	struct fj_thread *t = tb_fdr_json_out_thread(c, r->pid, r->tid);
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

	if (r->ignored || tb_fdr_meta_record(r))
		return 0;
	if (fj_is_comm(r, NULL)) {
		struct fj_thread *t = tb_fdr_json_out_thread(c, r->pid, r->tid);

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
		if (!ret)
			ret = tb_fdr_json_sched_scan(c, r);
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
	if (c->oom)
		return c->oom;
	return tb_fdr_json_sched_prepare(c);
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
	tb_fdr_json_out_head(c, "lost events", "loss", 'i', r->pid, r->tid, r->tsc);
	fprintf(c->out, ", \"args\": {\"lost\": %llu}}", n);
	tb_fdr_json_out_head(c, "lost events", "loss", 'i', TB_FDR_JSON_CPUS_PID,
			     TB_FDR_JSON_CPU_TID(r->cpu), r->tsc);
	fprintf(c->out, ", \"args\": {\"lost\": %llu}}", n);
	c->st->instants += 2;
	return true;
}

/*
 * A typed event of ours: switches and wake-ups are drawn on the CPU
 * tracks, a return value is an instant on its thread.  False for the
 * others (types this version does not know, payloads too short).
 */
static bool fj_typed(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	struct tb_fdr_event ev;
	const char *name;
	int err;

	switch (tb_fdr_event_decode(r, &ev)) {
	case TB_FDR_EV_SWITCH:
	case TB_FDR_EV_WAKEUP:
	case TB_FDR_EV_META:
		return true;
	case TB_FDR_EV_RET:
		err = tb_fdr_event_errno(ev.ret.value);
		name = tb_fdr_event_errno_name(err);
		tb_fdr_json_out_head(c, "return", "syscall", 'i', r->pid,
				     r->tid, r->tsc);
		fprintf(c->out, ", \"args\": {\"ret\": %" PRId64, ev.ret.value);
		if (name)
			fprintf(c->out, ", \"errno\": \"%s\"", name);
		fprintf(c->out, "}}");
		c->st->instants++;
		return true;
	case TB_FDR_EV_NONE:
		break;
	}
	return false;
}

static void fj_event(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	if (fj_lost(c, r) || (r->kind == TB_FDR_TYPED && fj_typed(c, r)))
		return;
	tb_fdr_json_out_head(c, r->kind == TB_FDR_TYPED ? "typed event" : "marker",
			     "marker", 'i', r->pid, r->tid, r->tsc);
	fprintf(c->out, ", \"args\": {");
	if (r->kind == TB_FDR_TYPED)
		fprintf(c->out, "\"type\": %u, ", r->event_type);
	fprintf(c->out, "\"data\": \"");
	tb_json_string(c->out, (const char *)r->data, (size_t)r->size);
	fprintf(c->out, "\"}}");
	c->st->instants++;
}

static int fj_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct fj_ctx *c = ctx;

	if (r->ignored || tb_fdr_meta_record(r) || tb_fdr_marks_is_start(r) ||
	    fj_is_comm(r, NULL))
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
	tb_fdr_json_sched_free(c);
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
	/* Viewers leave out what they do not know, otherData too. */
	fprintf(out, "{\"displayTimeUnit\": \"ns\", \"otherData\": "
		"{\"cpu_tracks\": \"%s\"}, \"traceEvents\": [",
		tb_fdr_json_meta_cpu_source(&c));
	ret = tb_fdr_json_meta_tasks(&c);
	if (!ret)
		ret = tb_fdr_json_meta_cpus(&c);
	if (ret)
		goto out;
	tb_fdr_json_meta_cut_starts(&c);
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

