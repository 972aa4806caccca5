// SPDX-License-Identifier: GPL-2.0
/* Printing two traces compared; see convert/fdr_diff_print.h. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "convert/fdr_diff_print.h"
#include "convert/fdr_report_class.h"
#include "convert/fdr_report_print.h"
#include "convert/latency.h"
#include "util/json.h"

#define FDP_CELL	32

/* One trace's line of the heading. */
static void fdp_heading(const struct tb_fdr_report *r, const char *which,
			const char *path, FILE *out)
{
	char d[FDP_CELL];

	fprintf(out, "%s: %s: %" PRIu64 " events counted in %s, %u CPUs, %"
		PRIu64 " lost", which, path, r->events,
		tb_fdr_report_print_dur(tb_fdr_report_ns(r, r->last - r->first),
					d, sizeof(d)),
		r->ncpus, r->lost);
	if (!r->hdr.cycle_frequency)
		fprintf(out, "; clock of unknown frequency (read as ns)");
	if (r->stats.cut_bytes)
		fprintf(out, "; CUT: %llu bytes of its last block missing",
			(unsigned long long)r->stats.cut_bytes);
	if (r->tidied)
		fprintf(out, "; its tasks' records ordered in memory first");
	if (r->too_deep)
		fprintf(out, "; %" PRIu64 " entries nested deeper than %u levels not matched",
			r->too_deep, r->opts.depth_max);
	fprintf(out, "\n");
}

/* The filters both traces were read with, if any. */
static void fdp_filters(const struct tb_fdr_report_opts *o, FILE *out)
{
	unsigned int rc;

	if (o->pid == TB_REPORT_NO_FILTER && o->tid == TB_REPORT_NO_FILTER &&
	    o->cpu == TB_REPORT_NO_FILTER && !o->classes && !o->name &&
	    !o->from_ns && !o->to_ns && !o->before_ns)
		return;
	fprintf(out, "Both filtered:");
	if (o->pid != TB_REPORT_NO_FILTER)
		fprintf(out, " pid %" PRId64, o->pid);
	if (o->tid != TB_REPORT_NO_FILTER)
		fprintf(out, " tid %" PRId64, o->tid);
	if (o->cpu != TB_REPORT_NO_FILTER)
		fprintf(out, " cpu %" PRId64, o->cpu);
	if (o->name)
		fprintf(out, " name %s", o->name);
	if (o->classes) {
		fprintf(out, " class");
		for (rc = 0; rc < TB_RC_NR; rc++)
			if (o->classes & (1U << rc))
				fprintf(out, " %s", tb_fdr_report_class_name(rc));
	}
	if (o->from_ns || o->to_ns) {
		fprintf(out, " time %.6f..", (double)o->from_ns / 1e9);
		if (o->to_ns)
			fprintf(out, "%.6f s", (double)o->to_ns / 1e9);
		else
			fprintf(out, "end");
	}
	if (o->before_ns)
		fprintf(out, " the last %.3f ms before the trigger",
			(double)o->before_ns / 1e6);
	fprintf(out, " (events begun in it)\n");
}

static const char *const fdp_heads[TB_FDR_DIFF_NR] = {
	"COUNT", "TOTAL", "P50", "P99", "MAX",
};

/* Percentiles from a histogram (convert/latency.h) are marked "~". */
static bool fdp_approx(const struct tb_fdr_diff_side *s, unsigned int k)
{
	return s->calls && !s->exact &&
	       (k == TB_FDR_DIFF_P50 || k == TB_FDR_DIFF_P99);
}

/* Column @k of side @s: a count, a time, or "-" where it has none. */
static const char *fdp_value(const struct tb_fdr_diff_side *s, unsigned int k,
			     char *buf, bool *approx)
{
	char d[FDP_CELL];

	if (!s->present || (k != TB_FDR_DIFF_COUNT && !s->calls))
		return "-";
	if (k == TB_FDR_DIFF_COUNT) {
		snprintf(buf, FDP_CELL, "%" PRIu64, s->v[k]);
		return buf;
	}
	*approx |= fdp_approx(s, k);
	snprintf(buf, FDP_CELL, "%s%s", fdp_approx(s, k) ? "~" : "",
		 tb_fdr_report_print_dur(s->v[k], d, sizeof(d)));
	return buf;
}

/* The change of column @k: "+3", "-1.20 ms", "0", or "-" for none. */
static const char *fdp_change(const struct tb_fdr_diff_row *row,
			      unsigned int k, char *buf, bool *approx)
{
	int64_t v = row->change[k];
	uint64_t size = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	bool inexact = fdp_approx(&row->a, k) || fdp_approx(&row->b, k);
	char d[FDP_CELL];

	if (k != TB_FDR_DIFF_COUNT && !row->a.calls && !row->b.calls)
		return "-";
	*approx |= inexact;
	if (!v)
		snprintf(buf, FDP_CELL, "%s0", inexact ? "~" : "");
	else if (k == TB_FDR_DIFF_COUNT)
		snprintf(buf, FDP_CELL, "%+" PRId64, v);
	else
		snprintf(buf, FDP_CELL, "%s%c%s", inexact ? "~" : "",
			 v < 0 ? '-' : '+',
			 tb_fdr_report_print_dur(size, d, sizeof(d)));
	return buf;
}

int tb_fdr_diff_print_text(const struct tb_fdr_diff *d,
			   const struct tb_fdr_report *a,
			   const struct tb_fdr_report *b,
			   const struct tb_fdr_diff_print *p, FILE *out)
{
	char v[FDP_CELL], c[FDP_CELL];
	bool approx = false;
	unsigned int k;
	size_t i;

	fdp_heading(a, "A", p->a, out);
	fdp_heading(b, "B", p->b, out);
	fdp_filters(&a->opts, out);
	if (!d->nrows) {
		fprintf(out, "\nNo events in either trace.\n");
		return ferror(out) ? -EIO : 0;
	}
	fprintf(out, "\nBy event: A's values and the change to B's (+/-), the largest change of %s first\n",
		tb_fdr_diff_col_name(d->key));
	fprintf(out, "%-9s %-28s %8s %8s", "CLASS", "NAME", fdp_heads[0], "+/-");
	for (k = TB_FDR_DIFF_TOTAL; k < TB_FDR_DIFF_NR; k++)
		fprintf(out, " %9s %9s", fdp_heads[k], "+/-");
	fprintf(out, " ONLY\n");
	for (i = 0; i < d->nrows; i++) {
		const struct tb_fdr_diff_row *row = &d->rows[i];

		fprintf(out, "%-9s %-28s", tb_fdr_report_class_name(row->rc),
			row->name);
		for (k = 0; k < TB_FDR_DIFF_NR; k++)
			fprintf(out, k ? " %9s %9s" : " %8s %8s",
				fdp_value(&row->a, k, v, &approx),
				fdp_change(row, k, c, &approx));
		fprintf(out, "%s\n", !row->a.present ? " B" :
			!row->b.present ? " A" : "");
	}
	if (approx)
		fprintf(out, "~ from a histogram (more than %u calls): within %.2f%%\n",
			TB_LATENCY_EXACT, TB_LATENCY_ERROR_PPM / 1e4);
	return ferror(out) ? -EIO : 0;
}

/* @s as a JSON string. */
static void fdp_jstr(FILE *out, const char *s)
{
	fputc('"', out);
	tb_json_string(out, s, strlen(s));
	fputc('"', out);
}

static void fdp_json_trace(const struct tb_fdr_report *r, const char *path,
			   FILE *out)
{
	fprintf(out, "{\"trace\": ");
	fdp_jstr(out, path);
	fprintf(out, ", \"cycle_frequency\": %" PRIu64 ", \"cpus\": %u"
		", \"span_ns\": %" PRIu64 ", \"events\": %" PRIu64
		", \"lost\": %" PRIu64 ", \"tidied\": %s, \"too_deep\": %"
		PRIu64 ", \"cut_bytes\": %" PRIu64 "}",
		r->hdr.cycle_frequency, r->ncpus,
		tb_fdr_report_ns(r, r->last - r->first), r->events, r->lost,
		r->tidied ? "true" : "false", r->too_deep,
		(uint64_t)r->stats.cut_bytes);
}

/* The columns of a side, or of the change, as JSON members. */
static void fdp_json_cols(FILE *out, const struct tb_fdr_diff_side *s,
			  const int64_t *change, bool calls)
{
	unsigned int k;

	for (k = 0; k < TB_FDR_DIFF_NR; k++) {
		if (k != TB_FDR_DIFF_COUNT && !calls)
			break;
		fprintf(out, "%s\"%s%s\": ", k ? ", " : "",
			tb_fdr_diff_col_name(k), k ? "_ns" : "");
		if (s)
			fprintf(out, "%" PRIu64, s->v[k]);
		else
			fprintf(out, "%" PRId64, change[k]);
	}
	if (s && calls)
		fprintf(out, ", \"percentiles_exact\": %s",
			s->exact ? "true" : "false");
}

static void fdp_json_side(FILE *out, const char *key,
			  const struct tb_fdr_diff_side *s)
{
	fprintf(out, ", \"%s\": ", key);
	if (!s->present) {
		fprintf(out, "null");
		return;
	}
	fprintf(out, "{");
	fdp_json_cols(out, s, NULL, s->calls);
	fprintf(out, "}");
}

int tb_fdr_diff_print_json(const struct tb_fdr_diff *d,
			   const struct tb_fdr_report *a,
			   const struct tb_fdr_report *b,
			   const struct tb_fdr_diff_print *p, FILE *out)
{
	size_t i;

	fprintf(out, "{\"a\": ");
	fdp_json_trace(a, p->a, out);
	fprintf(out, ",\n\"b\": ");
	fdp_json_trace(b, p->b, out);
	fprintf(out, ",\n\"sort\": \"%s\", \"names\": [",
		tb_fdr_diff_col_name(d->key));
	for (i = 0; i < d->nrows; i++) {
		const struct tb_fdr_diff_row *row = &d->rows[i];

		fprintf(out, "%s\n{\"class\": \"%s\", \"name\": ", i ? "," : "",
			tb_fdr_report_class_name(row->rc));
		fdp_jstr(out, row->name);
		fprintf(out, ", \"only_in\": %s", !row->a.present ? "\"b\"" :
			!row->b.present ? "\"a\"" : "null");
		fdp_json_side(out, "a", &row->a);
		fdp_json_side(out, "b", &row->b);
		fprintf(out, ", \"change\": {");
		fdp_json_cols(out, NULL, row->change,
			      row->a.calls || row->b.calls);
		fprintf(out, "}}");
	}
	fprintf(out, "]}\n");
	return ferror(out) ? -EIO : 0;
}
