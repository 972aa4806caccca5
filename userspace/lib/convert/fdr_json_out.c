// SPDX-License-Identifier: GPL-2.0
/* Writing one trace_event JSON event; see convert/fdr_json_out.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_json_out.h"
#include "format/fdr_classes.h"
#include "format/task_map.h"
#include "util/buf.h"

static const char *const cut_text[] = {
	[FJ_CUT_START] = "capture start",
	[FJ_CUT_END] = "capture end",
	[FJ_CUT_EXITED] = "task exited",
	[FJ_CUT_INNER] = "exit not in the trace",
};

struct fj_thread *tb_fdr_json_out_thread(struct fj_ctx *c, int32_t pid, int32_t tid)
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
uint32_t tb_fdr_json_out_space(const struct fj_ctx *c, uint32_t id, uint32_t *key)
{
	uint32_t kid = tb_name_map_kernel_id(c->names, id);

	*key = TRACEBUF_FDR_ID_KEY(kid);
	return kid ? TRACEBUF_FDR_ID_SPACE(kid) : 0;
}

bool tb_fdr_json_out_is_exit(const struct tb_fdr_record *r)
{
	return r->func_type == TB_FDR_EXIT || r->func_type == TB_FDR_TAIL_EXIT;
}

/* ---- writing ---- */

void tb_fdr_json_out_ts(struct fj_ctx *c, const char *key, uint64_t tsc)
{
	long double us = (long double)tsc * 1000000.0L / c->freq;

	fprintf(c->out, ", \"%s\": %.3Lf", key, us);
}

/* The common part of an event: name, category, phase, pid, tid, ts. */
void tb_fdr_json_out_head(struct fj_ctx *c, const char *name, const char *cat,
			  char ph, int32_t pid, int32_t tid, uint64_t tsc)
{
	fprintf(c->out, "%s\n{\"name\": \"", c->first ? "" : ",");
	c->first = false;
	tb_json_string(c->out, name, strlen(name));
	fprintf(c->out, "\", \"cat\": \"%s\", \"ph\": \"%c\", \"pid\": %" PRId32
		", \"tid\": %" PRId32, cat, ph, pid, tid);
	tb_fdr_json_out_ts(c, "ts", tsc);
	if (ph == 'i')
		fprintf(c->out, ", \"s\": \"t\"");
}

const char *tb_fdr_json_out_name(const struct fj_ctx *c, uint32_t id, char *buf,
				 size_t size)
{
	const char *name = tb_name_map_find(c->names, id);

	if (name)
		return name;
	snprintf(buf, size, "function %" PRIu32, id);
	return buf;
}

const char *tb_fdr_json_out_cat(uint32_t space)
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
void tb_fdr_json_out_args(struct fj_ctx *c, uint32_t id, const struct fj_frame *f,
			  const char *cut)
{
	uint32_t key, space = tb_fdr_json_out_space(c, id, &key);
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
		cut = cut_text[f->cut];
	if (cut)
		fprintf(c->out, "%s\"cut\": \"%s\"", sep, cut);
	fprintf(c->out, "}");
}

void tb_fdr_json_out_call_event(struct fj_ctx *c, const struct fj_frame *f,
				char ph, int32_t pid, int32_t tid, uint64_t tsc,
				const char *cut)
{
	uint32_t key, space = tb_fdr_json_out_space(c, f->id, &key);
	char buf[32];

	tb_fdr_json_out_head(c, tb_fdr_json_out_name(c, f->id, buf, sizeof(buf)),
			     tb_fdr_json_out_cat(space), ph, pid, tid, tsc);
	tb_fdr_json_out_args(c, f->id, f, cut);
	fprintf(c->out, "}");
	if (ph == 'B')
		c->st->begins++;
	else if (ph == 'E')
		c->st->ends++;
	else
		c->st->instants++;
}

/*
 * Task @tid (of @pid, -1 when unknown) on CPU @cpu from @from to @to,
 * named "COMMAND TID" with the tid as shown.  "B" and "E" with the same
 * name and arguments, at the very times the next slice starts and the
 * previous ends ("X" events' rounded durations can overlap the next
 * slice).
 */
void tb_fdr_json_out_cpu_slice(struct fj_ctx *c, uint16_t cpu, int32_t pid,
			       int32_t tid, const char *comm, uint64_t from,
			       uint64_t to)
{
	int32_t shown = tb_task_map_shown_tid(tid);
	char name[48];
	char ph;

	/* The command and the tid as shown: one name per task. */
	if (comm)
		snprintf(name, sizeof(name), "%s %" PRId32, comm, shown);
	else
		snprintf(name, sizeof(name), "tid %" PRId32, shown);
	for (ph = 'B'; ph; ph = ph == 'B' ? 'E' : 0) {
		tb_fdr_json_out_head(c, name, "cpu", ph, TB_FDR_JSON_CPUS_PID,
				     TB_FDR_JSON_CPU_TID(cpu),
				     ph == 'B' ? from : to);
		if (pid >= 0)
			fprintf(c->out, ", \"args\": {\"pid\": %" PRId32
				", \"tid\": %" PRId32 "}}", pid, shown);
		else
			fprintf(c->out, ", \"args\": {\"tid\": %" PRId32 "}}",
				shown);
	}
	c->st->cpu_slices++;
}

void tb_fdr_json_out_frame_of(struct fj_frame *f, const struct tb_fdr_call *call)
{
	memset(f, 0, sizeof(*f));
	f->id = call->rec.func_id;
	f->nargs = call->nargs;
	memcpy(f->args, call->args, sizeof(f->args));
}

