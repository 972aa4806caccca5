/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files a collector writes next to its post-processed trace
 * (convert/fdr_post.h): the names file and instrumentation map, the GDB
 * trace file and the trace_event JSON, converted from the written trace.
 */
#ifndef TB_FDR_POST_FILES_H
#define TB_FDR_POST_FILES_H

#include "convert/fdr_post.h"
#include "util/error.h"

/*
 * The GDB trace file (convert/fdr_tfile.h) of the written trace @trace, its
 * tracepoints named by the names file @names (may be NULL), to @out.
 * Returns 0, -1 with @err set, or -errno.
 */
int tb_fdr_post_files_tfile(const char *trace, const char *names,
			    const char *out, struct tb_error *err);

/* The same for the trace_event JSON (convert/fdr_json.h). */
int tb_fdr_post_files_json(const char *trace, const char *names,
			   const char *out, struct tb_error *err);

/* The files a collector writes next to its trace; NULL skips one. */
struct tb_fdr_post_files {
	const char *trace;	/* the trace written by tb_fdr_post_run() */
	const char *names;	/* names file (needed by tfile and json) */
	const char *map;	/* ELF instrumentation map (not in raw mode) */
	const char *tfile;	/* GDB trace file (not in raw mode) */
	const char *json;	/* trace_event JSON */
	const struct tb_name_map *known;	/* names by kernel id */
	struct tb_fdr_syscalls syscalls;	/* then the syscall table */
	/* Or else, when set, @namer (as struct tb_fdr_post_meta's). */
	tb_fdr_namer_fn namer;
	void *namer_ctx;
};

/*
 * Write @f's files, names as tb_fdr_post_names() with @f's namer, or
 * tb_fdr_post_syscall_namer().  Returns 0, or -1 with @err set when the names
 * file or the map cannot be written; a tfile or JSON that cannot be
 * written is only reported on stderr (tb_cli_warn), the trace stays usable.
 */
int tb_fdr_post_files(const struct tb_fdr_post *p,
		      const struct tb_fdr_post_files *f, struct tb_error *err);

#endif /* TB_FDR_POST_FILES_H */
