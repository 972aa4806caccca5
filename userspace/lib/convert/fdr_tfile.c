// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR -> GDB trace file: see convert/fdr_tfile.h.  Arguments are
 * $param0..5: gdb's tdump treats any "$arg..." name as "all arguments".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "convert/fdr_tfile.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"
#include "format/task_map.h"
#include "format/tfile.h"
#include "format/xray_map.h"
#include "util/hash.h"

enum {
	FT_TSC = 1, FT_CPU, FT_TID, FT_PID, FT_FID, FT_TYPE, FT_NARGS,
	FT_ARG0,
};
#define FT_MAX_ARGS	TB_FDR_CALL_MAX_ARGS
#define FT_SMALL_IDS	65536
static const char *const ft_names[] = {
	NULL, "tsc", "cpu", "tid", "pid", "fid", "type", "nargs",
	"param0", "param1", "param2", "param3", "param4", "param5",
};
static const char *const ft_cmds[] = {
	"collect $tsc, $cpu, $tid, $pid, $fid, $type",
	"collect $nargs, $param0, $param1, $param2, $param3, $param4, $param5",
};

struct ft_ctx {
	struct tb_tfile_writer *w;
	const struct tb_name_map *names;
	struct tb_error *err;
	int fail;		/* sticky: -1 (err set) or -errno */
	struct tb_hash tps;	/* function id + 1 -> tracepoint */
	uint16_t small[FT_SMALL_IDS];	/* the same for small ids, faster */
	unsigned int ntp;
	unsigned int custom_tp;
	struct tb_fdr_call call;	/* with its CallArgument records */
	uint64_t n;
};

/*
 * The address of function @fid: the one the ELF map writer gives it, so
 * that gdb names it with the map loaded.  The map has no id 0; its
 * tracepoint goes just below function 1, as every tracepoint needs an
 * address of its own (gdb would take two at one address for one).
 */
static uint64_t ft_addr(uint32_t fid)
{
	if (!fid)
		return TB_XRAY_MAP_TEXT - TB_XRAY_MAP_STRIDE;
	return TB_XRAY_MAP_TEXT + (uint64_t)(fid - 1) * TB_XRAY_MAP_STRIDE;
}

static unsigned int ft_tracepoint(struct ft_ctx *c, uint32_t fid)
{
	unsigned int tp;
	const char *name;
	char buf[64];

	if (fid < FT_SMALL_IDS && c->small[fid])
		return c->small[fid];
	tp = tb_hash_get(&c->tps, (uint64_t)fid + 1);
	if (tp)
		return tp;
	if (c->ntp == TB_TFILE_MAX_TP) {
		tb_error_set(c->err, 0, "more than %d distinct function ids",
			     TB_TFILE_MAX_TP);
		c->fail = -1;
		return 0;
	}
	tp = ++c->ntp;
	if (fid < FT_SMALL_IDS)
		c->small[fid] = (uint16_t)tp;
	else if (tb_hash_put(&c->tps, (uint64_t)fid + 1, tp))
		goto oom;
	name = tb_name_map_find(c->names, fid);
	if (!name) {
		snprintf(buf, sizeof(buf), "function %u", fid);
		name = buf;
	}
	if (tb_tfile_tracepoint(c->w, tp, ft_addr(fid), name, ft_cmds, 2))
		goto oom;
	return tp;
oom:
	c->fail = -ENOMEM;
	return 0;
}

/*
 * The variables of a frame, $tsc to $nargs and the arguments, are
 * numbered consecutively so they go out in one call.
 */
static void ft_vars(struct ft_ctx *c, const struct tb_fdr_record *r,
		    int64_t fid, int64_t type, int64_t nargs,
		    const uint64_t *args)
{
	int64_t v[FT_ARG0 - 1 + FT_MAX_ARGS];
	unsigned int i, n = FT_ARG0 - 1;

	v[FT_TSC - 1] = (int64_t)r->tsc;
	v[FT_CPU - 1] = r->cpu;
	/* An idle task is tid 0 as gdb users know it; $cpu tells which. */
	v[FT_TID - 1] = tb_task_map_shown_tid(r->tid);
	v[FT_PID - 1] = r->pid;
	v[FT_FID - 1] = fid;
	v[FT_TYPE - 1] = type;
	v[FT_NARGS - 1] = nargs;
	for (i = 0; args && i < (unsigned int)nargs; i++)
		v[n++] = (int64_t)args[i];
	tb_tfile_frame_tsvs(c->w, FT_TSC, v, n);
}

static void ft_call(void *ctx, const struct tb_fdr_call *call)
{
	const struct tb_fdr_record *r = &call->rec;
	struct ft_ctx *c = ctx;
	unsigned int tp;

	tp = ft_tracepoint(c, r->func_id);
	if (!tp)
		return;
	tb_tfile_frame_begin(c->w, tp);
	ft_vars(c, r, r->func_id, r->func_type, call->nargs, call->args);
	if (tb_tfile_frame_end(c->w))
		c->fail = -EIO;
}

static bool ft_custom_tp(struct ft_ctx *c)
{
	if (c->custom_tp)
		return true;
	if (c->ntp == TB_TFILE_MAX_TP) {
		tb_error_set(c->err, 0, "too many tracepoints");
		c->fail = -1;
		return false;
	}
	c->custom_tp = ++c->ntp;
	if (tb_tfile_tracepoint(c->w, c->custom_tp,
				TB_FDR_TFILE_CUSTOM_ADDR, "custom event",
				ft_cmds, 2)) {
		c->fail = -ENOMEM;
		return false;
	}
	return true;
}

static void ft_event(struct ft_ctx *c, const struct tb_fdr_record *r)
{
	uint64_t addr = TB_FDR_TFILE_PAYLOAD_ADDR;
	size_t done = 0;

	if (!ft_custom_tp(c))
		return;
	tb_tfile_frame_begin(c->w, c->custom_tp);
	/* Type: 4 custom, 5 typed (after the function record types). */
	ft_vars(c, r, r->kind == TB_FDR_TYPED ? r->event_type : 0,
		r->kind == TB_FDR_CUSTOM ? 4 : 5, r->size, NULL);
	while (done < (size_t)r->size) {
		size_t n = (size_t)r->size - done;

		if (n > 0xffff)
			n = 0xffff;
		tb_tfile_frame_mem(c->w, addr + done, r->data + done,
				   (uint16_t)n);
		done += n;
	}
	if (tb_tfile_frame_end(c->w))
		c->fail = -EIO;
}

static int ft_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct ft_ctx *c = ctx;

	if (r->ignored || tb_fdr_meta_record(r))
		return 0;
	if (!(++c->n & 0xffff))
		tb_cli_progress(r->offset);
	if (!tb_fdr_reader_call_feed(&c->call, r, ft_call, c) &&
	    (r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED))
		ft_event(c, r);
	return c->fail;
}

/* Pass one of a seekable input: tracepoints and frame count. */
static int ft_scan(void *ctx, const struct tb_fdr_record *r)
{
	struct ft_ctx *c = ctx;

	if (r->ignored || tb_fdr_meta_record(r))
		return 0;
	if (r->kind == TB_FDR_FUNCTION) {
		ft_tracepoint(c, r->func_id);
		c->n++;
	} else if (r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED) {
		ft_custom_tp(c);
		c->n++;
	}
	return c->fail;
}

static bool seekable(FILE *f)
{
	struct stat st;

	return !fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	       ftello(f) == 0;
}

int tb_fdr_tfile_write(FILE *in, FILE *out, const struct tb_name_map *names,
		       struct tb_error *err)
{
	struct ft_ctx *c = calloc(1, sizeof(*c));	/* large */
	unsigned int i;
	int ret;

	if (!c)
		return -ENOMEM;
	c->names = names;
	c->err = err;
	c->w = tb_tfile_create(out, "i386:x86-64", TB_FDR_TFILE_REG_SIZE);
	if (!c->w) {
		free(c);
		return -ENOMEM;
	}
	for (i = FT_TSC; i < FT_ARG0 + FT_MAX_ARGS; i++)
		tb_tfile_tsv(c->w, i, ft_names[i], 0);
	/*
	 * A regular file is read twice: the first pass finds every
	 * tracepoint and the frame count, so that frames can be written
	 * straight behind the definitions instead of through a spool.
	 */
	if (seekable(in)) {
		ret = tb_fdr_reader_read(in, NULL, ft_scan, c, NULL, err);
		if (ret)
			goto abort;
		if (tb_tfile_start_frames(c->w, c->n) ||
		    fseeko(in, 0, SEEK_SET)) {
			ret = errno ? -errno : -EIO;
			goto abort;
		}
		c->n = 0;
	}
	ret = tb_fdr_reader_read(in, NULL, ft_visit, c, NULL, err);
	if (!ret) {
		tb_fdr_reader_call_flush(&c->call, ft_call, c);
		ret = c->fail;
	}
	if (ret)
		goto abort;
	ret = tb_tfile_finish(c->w);
	goto out;
abort:
	tb_tfile_abort(c->w);
out:
	tb_hash_free(&c->tps);
	free(c);
	return ret;
}
