// SPDX-License-Identifier: GPL-2.0
/* Two traces' summaries compared; see convert/fdr_diff.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_diff.h"
#include "convert/fdr_report_class.h"
#include "convert/latency.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const fd_cols[TB_FDR_DIFF_NR] = {
	"count", "total", "p50", "p99", "max",
};

/* The report's row of the marker texts beyond those it keeps by name. */
static const char fd_other_texts[] = "(other texts)";

/* A name of one trace, while the two are matched. */
struct fd_entry {
	unsigned int rc;
	const char *name;
	size_t seq;		/* id order; markers after the functions */
	unsigned int dup;	/* entries before it of its class and name */
	struct tb_fdr_diff_side side;
};

const char *tb_fdr_diff_col_name(unsigned int col)
{
	return col < TB_FDR_DIFF_NR ? fd_cols[col] : "?";
}

int tb_fdr_diff_col(const char *name)
{
	unsigned int i;

	for (i = 0; i < TB_FDR_DIFF_NR; i++)
		if (!strcmp(name, fd_cols[i]))
			return (int)i;
	return -1;
}

/* The columns of name @f of report @r, in nanoseconds. */
static void fd_side(struct tb_fdr_report *r, struct tb_fdr_report_func *f,
		    struct tb_fdr_diff_side *s)
{
	bool e50, e99;

	memset(s, 0, sizeof(*s));
	s->present = true;
	s->exact = true;
	/* A name has calls or point events; both are its events. */
	s->v[TB_FDR_DIFF_COUNT] = f->lat.count + f->points;
	if (!f->lat.count)
		return;
	s->calls = true;
	s->v[TB_FDR_DIFF_TOTAL] = tb_fdr_report_ns(r, f->lat.total);
	s->v[TB_FDR_DIFF_P50] =
		tb_fdr_report_ns(r, tb_latency_percentile(&f->lat, 50, &e50));
	s->v[TB_FDR_DIFF_P99] =
		tb_fdr_report_ns(r, tb_latency_percentile(&f->lat, 99, &e99));
	s->v[TB_FDR_DIFF_MAX] = tb_fdr_report_ns(r, f->lat.max);
	s->exact = e50 && e99;
}

static int fd_by_name(const void *x, const void *y)
{
	const struct fd_entry *a = x, *b = y;
	int c;

	if (a->rc != b->rc)
		return a->rc < b->rc ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Order of two entries of the two traces: class, name, then dup. */
static int fd_match(const struct fd_entry *a, const struct fd_entry *b)
{
	int c;

	if (a->rc != b->rc)
		return a->rc < b->rc ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->dup < b->dup ? -1 : a->dup > b->dup;
}

/* The names of @r with any event, sorted for matching; NULL: no memory. */
static struct fd_entry *fd_entries(struct tb_fdr_report *r, size_t *n)
{
	struct fd_entry *e = calloc(r->nfuncs + r->nmarkers + 1, sizeof(*e));
	size_t i, k = 0;

	*n = 0;
	if (!e)
		return NULL;
	for (i = 0; i < r->nfuncs; i++) {
		struct tb_fdr_report_func *f = &r->funcs[i];

		if (!f->lat.count && !f->points)
			continue;
		e[k].rc = f->rc;
		e[k].name = f->name;
		e[k].seq = k;
		fd_side(r, f, &e[k].side);
		k++;
	}
	for (i = 0; i < r->nmarkers; i++) {
		e[k].rc = r->markers[i].rc;
		e[k].name = r->markers[i].name;
		e[k].seq = k;
		fd_side(r, &r->markers[i], &e[k].side);
		k++;
	}
	if (r->markers_other) {
		e[k].rc = TB_FDR_NR_CLASSES - 1;	/* markers */
		e[k].name = fd_other_texts;
		e[k].seq = k;
		e[k].side.present = true;
		e[k].side.exact = true;
		e[k].side.v[TB_FDR_DIFF_COUNT] = r->markers_other;
		k++;
	}
	qsort(e, k, sizeof(*e), fd_by_name);
	for (i = 1; i < k; i++)
		if (e[i].rc == e[i - 1].rc && !strcmp(e[i].name, e[i - 1].name))
			e[i].dup = e[i - 1].dup + 1;
	*n = k;
	return e;
}

/* @b - @a, or the nearest int64_t. */
static int64_t fd_change(uint64_t a, uint64_t b)
{
	if (b >= a)
		return b - a > (uint64_t)INT64_MAX ? INT64_MAX :
		       (int64_t)(b - a);
	return a - b > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(a - b);
}

static uint64_t fd_size(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* The larger of A's and B's column @k. */
static uint64_t fd_most(const struct tb_fdr_diff_row *r, unsigned int k)
{
	return r->a.v[k] > r->b.v[k] ? r->a.v[k] : r->b.v[k];
}

static int fd_by_change(const void *x, const void *y, void *ctx)
{
	const struct tb_fdr_diff_row *a = x, *b = y;
	const enum tb_fdr_diff_col order[] = {
		*(const enum tb_fdr_diff_col *)ctx, TB_FDR_DIFF_TOTAL,
		TB_FDR_DIFF_COUNT,
	};
	unsigned int i;
	int c;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		uint64_t sa = fd_size(a->change[order[i]]);
		uint64_t sb = fd_size(b->change[order[i]]);

		if (sa != sb)
			return sa < sb ? 1 : -1;
	}
	/* Equal changes: the busier name first, as the report lists them. */
	for (i = 1; i < ARRAY_SIZE(order); i++) {
		uint64_t sa = fd_most(a, order[i]), sb = fd_most(b, order[i]);

		if (sa != sb)
			return sa < sb ? 1 : -1;
	}
	if (a->rc != b->rc)
		return a->rc < b->rc ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->dup < b->dup ? -1 : a->dup > b->dup;
}

int tb_fdr_diff_run(struct tb_fdr_diff *d, struct tb_fdr_report *a,
		    struct tb_fdr_report *b, enum tb_fdr_diff_col key)
{
	struct fd_entry *ea, *eb;
	size_t na, nb, i = 0, j = 0;
	unsigned int k;

	memset(d, 0, sizeof(*d));
	d->key = key < TB_FDR_DIFF_NR ? key : TB_FDR_DIFF_TOTAL;
	ea = fd_entries(a, &na);
	eb = fd_entries(b, &nb);
	d->rows = calloc(na + nb + 1, sizeof(*d->rows));
	if (!ea || !eb || !d->rows) {
		free(ea);
		free(eb);
		tb_fdr_diff_free(d);
		return -ENOMEM;
	}
	while (i < na || j < nb) {
		struct tb_fdr_diff_row *row = &d->rows[d->nrows++];
		int c = i == na ? 1 : j == nb ? -1 : fd_match(&ea[i], &eb[j]);

		if (c <= 0) {
			row->rc = ea[i].rc;
			row->name = ea[i].name;
			row->dup = ea[i].dup;
			row->a = ea[i++].side;
		}
		if (c >= 0) {
			row->rc = eb[j].rc;
			row->name = eb[j].name;
			row->dup = eb[j].dup;
			row->b = eb[j++].side;
		}
		for (k = 0; k < TB_FDR_DIFF_NR; k++)
			row->change[k] = fd_change(row->a.v[k], row->b.v[k]);
	}
	qsort_r(d->rows, d->nrows, sizeof(*d->rows), fd_by_change, &d->key);
	free(ea);
	free(eb);
	return 0;
}

void tb_fdr_diff_free(struct tb_fdr_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
