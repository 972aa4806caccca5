// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR -> trace_event JSON: see fdr_json.h.  A function record waits
 * for its CallArgument records, like in the tfile mapping.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "fdr_json.h"
#include "fdr_reader.h"

struct fj_ctx {
	FILE *out;
	const struct tb_name_map *names;
	struct tb_fdr_json_stats *st;
	uint64_t freq;
	bool first;		/* no event written yet: no comma */
	struct tb_fdr_call call;	/* with its CallArgument records */
};

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

/* The common part of an event: name, phase, pid, tid, ts. */
static void fj_begin(struct fj_ctx *c, const struct tb_fdr_record *r,
		     const char *name, char ph)
{
	long double us = (long double)r->tsc * 1000000.0L / c->freq;

	fprintf(c->out, "%s\n{\"name\": \"", c->first ? "" : ",");
	c->first = false;
	fj_string(c->out, name, strlen(name));
	fprintf(c->out, "\", \"ph\": \"%c\", \"pid\": %" PRId32
		", \"tid\": %" PRId32 ", \"ts\": %.3Lf", ph, r->pid, r->tid,
		us);
}

static void fj_call(void *ctx, const struct tb_fdr_call *call)
{
	const struct tb_fdr_record *r = &call->rec;
	struct fj_ctx *c = ctx;
	const char *name;
	char buf[32];
	unsigned int i;
	bool is_exit;

	name = tb_name_map_find(c->names, r->func_id);
	if (!name) {
		snprintf(buf, sizeof(buf), "function %" PRIu32, r->func_id);
		name = buf;
	}
	is_exit = r->func_type == TB_FDR_EXIT || r->func_type == TB_FDR_TAIL_EXIT;
	fj_begin(c, r, name, is_exit ? 'E' : 'B');
	if (is_exit)
		c->st->ends++;
	else
		c->st->begins++;
	if (call->nargs) {
		fprintf(c->out, ", \"args\": {");
		for (i = 0; i < call->nargs; i++)
			fprintf(c->out, "%s\"arg%u\": %" PRIu64, i ? ", " : "",
				i, call->args[i]);
		fprintf(c->out, "}");
	}
	fprintf(c->out, "}");
}

static void fj_event(struct fj_ctx *c, const struct tb_fdr_record *r)
{
	fj_begin(c, r, r->kind == TB_FDR_TYPED ? "typed event" :
		 "custom event", 'i');
	fprintf(c->out, ", \"s\": \"t\", \"args\": {");
	if (r->kind == TB_FDR_TYPED)
		fprintf(c->out, "\"type\": %u, ", r->event_type);
	fprintf(c->out, "\"data\": \"");
	fj_string(c->out, (const char *)r->data, (size_t)r->size);
	fprintf(c->out, "\"}}");
	c->st->instants++;
}

static int fj_header(void *ctx, const struct tb_fdr_header *h)
{
	struct fj_ctx *c = ctx;

	/* A zero frequency: count in TSC ticks as if they were ns. */
	c->freq = h->cycle_frequency ? h->cycle_frequency : 1000000000ULL;
	return 0;
}

static int fj_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct fj_ctx *c = ctx;

	if (r->ignored)
		return 0;
	if (!tb_fdr_call_feed(&c->call, r, fj_call, c) &&
	    (r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED))
		fj_event(c, r);
	return ferror(c->out) ? -EIO : 0;
}

int tb_fdr_json_write(FILE *in, FILE *out, const struct tb_name_map *names,
		      struct tb_fdr_json_stats *stats, struct tb_error *err)
{
	struct tb_fdr_json_stats local;
	struct fj_ctx c = {
		.out = out, .names = names, .first = true,
		.freq = 1000000000ULL,
	};
	int ret;

	c.st = stats ? stats : &local;
	memset(c.st, 0, sizeof(*c.st));
	fprintf(out, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [");
	ret = tb_fdr_read(in, fj_header, fj_visit, &c, NULL, err);
	if (ret)
		return ret;
	tb_fdr_call_flush(&c.call, fj_call, &c);
	fprintf(out, "\n]}\n");
	if (ferror(out) || fflush(out))
		return -EIO;
	return 0;
}
