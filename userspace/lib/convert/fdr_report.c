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
#include "convert/fdr_report_class.h"
#include "convert/fdr_report_visit.h"
#include "format/fdr_marks.h"
#include "format/fdr_meta.h"
#include "util/buf.h"
#include "util/hash.h"

uint64_t tb_fdr_report_ns(const struct tb_fdr_report *r, uint64_t ticks)
{
	return tb_fdr_report_visit_ns(r, ticks);
}

/* The trace's command name of @tid, or NULL. */
static const char *rp_trace_comm(const struct tb_fdr_report *r, int32_t tid)
{
	size_t i = tb_fdr_report_visit_task_at(r, tid);

	if (i < r->ntasks && r->tasks[i].tid == tid && r->tasks[i].comm[0])
		return r->tasks[i].comm;
	return NULL;
}

const char *tb_fdr_report_comm(const struct tb_fdr_report *r, int32_t tid,
			       int32_t pid, char buf[TB_TASK_COMM_LEN])
{
	const char *c = r->tasks_map ?
			tb_task_map_comm(r->tasks_map, tid, buf) : NULL;

	if (!c)
		c = rp_trace_comm(r, tid);
	if (c || !pid || pid == tid)
		return c;
	c = r->tasks_map ? tb_task_map_comm(r->tasks_map, pid, buf) : NULL;
	return c ? c : rp_trace_comm(r, pid);
}

/* Pass one for --time and --before: the first record and the trigger. */
static int rp_bounds(void *ctx, const struct tb_fdr_record *rec)
{
	struct rp_ctx *c = ctx;

	if (rec->ignored || tb_fdr_meta_record(rec))
		return 0;
	if (rec->kind == TB_FDR_FUNCTION) {
		tb_fdr_report_visit_time(c->r, rec->tsc);
	} else if (rec->kind == TB_FDR_CUSTOM || rec->kind == TB_FDR_TYPED) {
		tb_fdr_report_visit_time(c->r, rec->tsc);
		tb_fdr_report_visit_custom(c, rec);
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
	tb_fdr_report_sched_free(&r->sched);
	tb_fdr_report_errors_free(&r->errors);
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

/*
 * Read the whole of @in, put it in order with fdr-tidy's logic, every
 * record kept: fdr-tidy leaves out exits without entry and closes calls
 * whose exit is lost, for llvm-xray; the report counts both as such.
 */
static FILE *rp_tidy(FILE *in, char **buf, size_t *len, struct tb_error *err)
{
	struct tb_fdr_post post = { .keep_ids = true, .keep_records = true };
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

/* Ticks to nanoseconds for the scheduler section's walk. */
static uint64_t rp_sched_ns(const void *ctx, uint64_t ticks)
{
	return tb_fdr_report_visit_ns(ctx, ticks);
}

static int rp_pass(struct tb_fdr_report *r, FILE *in, struct tb_error *err)
{
	struct rp_ctx c = { .r = r, .err = err };
	const struct tb_fdr_report_opts *o = &r->opts;
	struct tb_fdr_report_sched_filter sf = {
		.pid = o->pid, .tid = o->tid, .cpu = o->cpu,
	};
	size_t k;
	int ret;

	c.narrow = o->pid != TB_REPORT_NO_FILTER ||
		   o->tid != TB_REPORT_NO_FILTER ||
		   o->cpu != TB_REPORT_NO_FILTER || r->window_from ||
		   r->window_to != UINT64_MAX;
	c.points = tb_fdr_report_class_points();
	c.direct = calloc(RP_DIRECT, sizeof(*c.direct));
	if (!c.direct)
		return -ENOMEM;
	ret = tb_fdr_reader_read(in, tb_fdr_report_visit_header,
				 tb_fdr_report_visit_record, &c, &r->stats, err);
	if (!ret) {
		/* The calls still open when the trace ends. */
		for (k = 0; k < r->ntasks; k++)
			while (r->tasks[k].depth)
				tb_fdr_report_visit_abandon(&c, &r->tasks[k]);
		if (c.oom)
			ret = -ENOMEM;
	}
	tb_hash_free(&c.fold_index);
	tb_hash_free(&c.far);
	free(c.direct);
	if (ret)
		return ret;
	tb_fdr_report_errors_sort(&r->errors);
	if (o->sched_carry &&
	    tb_fdr_report_sched_carry_in(&r->sched, o->sched_carry))
		return -ENOMEM;
	if (tb_fdr_report_sched_finish(&r->sched, r->opts.top, &sf, rp_sched_ns,
				       r))
		return -ENOMEM;
	if (o->sched_carry &&
	    tb_fdr_report_sched_carry_out(o->sched_carry, &r->sched))
		return -ENOMEM;
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
	ret = tb_fdr_reader_read(in, tb_fdr_report_visit_header, rp_bounds, &c, NULL, err);
	if (!ret && (fseek(in, 0, SEEK_SET) < 0)) {
		tb_error_set(err, 0, "--time and --before read the trace twice: %s",
			     strerror(errno));
		ret = -1;
	}
	if (!ret) {
		r->hdr = b.hdr;
		if (o->before_ns) {
			uint64_t span = tb_fdr_report_visit_ticks(r, o->before_ns);

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
			r->window_from = b.first + tb_fdr_report_visit_ticks(r, o->from_ns);
			r->window_to = o->to_ns ? b.first + tb_fdr_report_visit_ticks(r, o->to_ns) :
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

