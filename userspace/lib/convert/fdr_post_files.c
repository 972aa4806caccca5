// SPDX-License-Identifier: GPL-2.0
/* A collector's files next to its trace; see convert/fdr_post_files.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "convert/fdr_json.h"
#include "convert/fdr_post_files.h"
#include "convert/fdr_tfile.h"
#include "util/companion.h"
#include "util/output.h"

/* One of the converters, from the written trace and names file. */
static int convert(const char *trace, const char *names, const char *out,
		   int (*fn)(FILE *in, FILE *out,
			     const struct tb_name_map *names, void *ctx,
			     struct tb_error *err),
		   void *ctx, struct tb_error *err)
{
	struct tb_name_map m = { 0 };
	struct tb_output o;
	FILE *in, *nf;
	int ret;

	if (names) {
		nf = fopen(names, "r");
		if (!nf)
			return -errno;
		ret = tb_name_map_load(&m, nf, err);
		fclose(nf);
		if (ret) {
			tb_name_map_free(&m);
			return -1;
		}
	}
	in = fopen(trace, "rb");
	if (!in) {
		ret = -errno;
		goto out;
	}
	ret = tb_output_open(&o, out);
	if (ret) {
		fclose(in);
		goto out;
	}
	ret = fn(in, o.f, &m, ctx, err);
	if (ret)
		tb_output_abort(&o);
	else
		ret = tb_output_commit(&o);
	fclose(in);
out:
	tb_name_map_free(&m);
	return ret;
}

static int tfile_write(FILE *in, FILE *out, const struct tb_name_map *names,
		       void *ctx, struct tb_error *err)
{
	return tb_fdr_tfile_write(in, out, names, err);
}

int tb_fdr_post_files_tfile(const char *trace, const char *names, const char *out,
			    struct tb_error *err)
{
	return convert(trace, names, out, tfile_write, NULL, err);
}

static int json_write(FILE *in, FILE *out, const struct tb_name_map *names,
		      void *ctx, struct tb_error *err)
{
	return tb_fdr_json_write(in, out, names, ctx, NULL, err);
}

/* Tasks named by TRACE.tasks when the collector wrote one. */
int tb_fdr_post_files_json(const char *trace, const char *names, const char *out,
			   struct tb_error *err)
{
	struct tb_task_map tasks;
	char *path = tb_companion_path(trace, TB_COMPANION_TASKS);
	int ret = 0;

	tb_task_map_init(&tasks);
	if (!path)
		return -ENOMEM;
	ret = tb_task_map_load(&tasks, path, err);
	free(path);
	if (ret == -ENOENT)
		ret = 0;
	if (!ret)
		ret = convert(trace, names, out, json_write, &tasks, err);
	tb_task_map_free(&tasks);
	return ret;
}

/* A tfile or JSON: a warning when it cannot be written. */
static void companion(const char *trace, const char *names, const char *out,
		      int (*fn)(const char *trace, const char *names,
				const char *path, struct tb_error *err))
{
	struct tb_error err;
	int ret;

	if (!out)
		return;
	if (tb_output_same_path(out, trace)) {
		tb_cli_warn("%s: not written: it is the trace", out);
		return;
	}
	ret = fn(trace, names, out, &err);
	if (ret)
		tb_cli_warn("%s: not written: %s", out,
			    ret == -1 ? err.msg : strerror(-ret));
}

int tb_fdr_post_files(const struct tb_fdr_post *p,
		      const struct tb_fdr_post_files *f, struct tb_error *err)
{
	struct tb_output names, map = { 0 };
	const char *same = NULL;
	bool with_map;
	int ret;

	if (!f->names)
		return 0;
	/* Written after the trace: never over it. */
	if (f->trace && tb_output_same_path(f->names, f->trace))
		same = f->names;
	else if (f->trace && f->map && !tb_fdr_post_kernel_ids(p) &&
		 tb_output_same_path(f->map, f->trace))
		same = f->map;
	if (same) {
		tb_error_set(err, 0, "%s: is the trace %s, not overwritten",
			     same, f->trace);
		return -1;
	}
	ret = tb_output_open(&names, f->names);
	if (ret) {
		tb_error_set(err, 0, "%s: %s", f->names, strerror(-ret));
		return -1;
	}
	/* An ELF map of no function is no map: none when nothing ran. */
	with_map = f->map && !tb_fdr_post_kernel_ids(p) && p->nids;
	if (with_map) {
		ret = tb_output_open(&map, f->map);
		if (ret) {
			tb_error_set(err, 0, "%s: %s", f->map, strerror(-ret));
			tb_output_abort(&names);
			return -1;
		}
	}
	ret = tb_fdr_post_names(p, names.f, map.f, f->known,
				f->namer ? f->namer : tb_fdr_post_syscall_namer,
				f->namer ? f->namer_ctx : (void *)&f->syscalls);
	if (ret) {
		tb_output_abort(&names);
		if (map.f)
			tb_output_abort(&map);
	} else {
		ret = tb_output_commit(&names);
		if (map.f && !ret)
			ret = tb_output_commit(&map);
		else if (map.f)
			tb_output_abort(&map);
	}
	if (ret) {
		tb_error_set(err, 0, "%s: cannot write the names or the map: %s",
			     f->names, strerror(-ret));
		return -1;
	}
	/*
	 * No map this time: one left by an earlier capture of the same name
	 * would give llvm-xray -m wrong names for this one's ids.
	 */
	if (f->map && !with_map && !tb_fdr_post_kernel_ids(p) && unlink(f->map) &&
	    errno != ENOENT) {
		tb_error_set(err, 0, "%s: cannot remove the earlier map: %s",
			     f->map, strerror(errno));
		return -1;
	}
	if (!p->raw)
		companion(f->trace, f->names, f->tfile, tb_fdr_post_files_tfile);
	companion(f->trace, f->names, f->json, tb_fdr_post_files_json);
	return 0;
}

