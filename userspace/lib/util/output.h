/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written whole or not at all, for every tool and for the
 * library code that writes files (the collectors' names, map, tfile and
 * JSON files).  The data goes to a temporary file in the output's
 * directory, which tb_output_commit() renames over the output only when
 * everything was written.  A conversion that fails, a tool that dies
 * (tool_die(), exit()) or is stopped by SIGINT, SIGTERM or SIGHUP leaves
 * the previous file, or none, behind -- never a partial one.
 *
 * Written directly: "-" (stdout), and an existing output that is not a
 * regular file (/dev/null, a FIFO, a terminal), which cannot be replaced.
 * A symbolic link is followed: the file it points to is replaced.
 */
#ifndef TB_OUTPUT_H
#define TB_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct tb_output {
	FILE *f;
	char *path;		/* the output, symbolic links resolved */
	char *tmp;		/* the temporary file; NULL: written directly */
};

/* Open @path for writing.  Returns 0 or -errno (o->f is then NULL). */
int tb_output_open(struct tb_output *o, const char *path);

/*
 * Flush, close and rename into place.  Returns 0 or -errno; on failure
 * the temporary file is removed and the output left as it was.
 */
int tb_output_commit(struct tb_output *o);

/* Close and remove the temporary file: the output stays as it was. */
void tb_output_abort(struct tb_output *o);

/*
 * True if @path names the file open as @f (same device and inode), so
 * that writing @path would destroy what @f reads.
 */
bool tb_output_same_file(FILE *f, const char *path);

/* True if @a and @b both exist and are the same file. */
bool tb_output_same_path(const char *a, const char *b);

#endif /* TB_OUTPUT_H */
