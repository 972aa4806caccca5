/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GDB trace file ("tfile") writer, in the form gdb 13's `target tfile`
 * accepts, and where `tfind tracepoint N` and `info tracepoints` use our
 * numbers and names (Documentation/formats.rst, which also says why gdb's
 * `tfind pc` cannot work on trace files).  The definition section must
 * list every tracepoint and the frame count before the first frame, but a
 * converter only knows them at the end: frames are therefore spooled to
 * an anonymous temporary file and copied behind the definitions by
 * tb_tfile_finish().  Memory stays bounded by the number of tracepoints.
 */
#ifndef TB_TFILE_WRITER_H
#define TB_TFILE_WRITER_H

#include <stdint.h>
#include <stdio.h>

#define TB_TFILE_MAX_TP		32767	/* frame tracepoint numbers are i16 */
/*
 * The longest name gdb is given for a tracepoint, as the quoted C string
 * it shows (quotes and escapes included): its hex-encoded definition line
 * stays well under gdb's 1000 bytes.  Longer names are cut and end in
 * "...".
 */
#define TB_TFILE_NAME_MAX	400

struct tb_tfile_writer;

/*
 * @arch is a BFD architecture name (e.g. "arm", "i386:x86-64") written as
 * tdesc so gdb needs no executable; @reg_size is the "R" line (non-zero).
 */
struct tb_tfile_writer *tb_tfile_create(FILE *out, const char *arch,
					unsigned int reg_size);
/* Trace state variables: numbered from 1, name without '$'. */
int tb_tfile_tsv(struct tb_tfile_writer *w, unsigned int num,
		 const char *name, int64_t initial);
/*
 * Define tracepoint @num at @addr.  Tracepoints are numbered 1, 2, 3...
 * in the order they are defined (else -EINVAL): gdb numbers the
 * tracepoints of a file itself, and only then are its numbers ours.
 * @cmds (may be NULL) are action lines such as "collect $tsc" that
 * `tdump` shows; the array must outlive the writer.  @name (may be NULL)
 * becomes the tracepoint's condition, a C string constant: gdb never
 * evaluates a condition on a trace file, drops comment lines, and shows
 * the condition in `info tracepoints`.
 */
int tb_tfile_tracepoint(struct tb_tfile_writer *w, unsigned int num,
			uint64_t addr, const char *name,
			const char *const *cmds, unsigned int ncmds);
/*
 * Optional fast path: a caller that knows every tracepoint and the frame
 * count before the first frame (two passes over a seekable input) calls
 * this first; the definitions are written at once and frames go straight
 * to the output, with no spool to copy.  Exactly @frames must follow.
 */
int tb_tfile_start_frames(struct tb_tfile_writer *w, uint64_t frames);
int tb_tfile_frame_begin(struct tb_tfile_writer *w, unsigned int tp);
int tb_tfile_frame_regs(struct tb_tfile_writer *w, const void *regs);
int tb_tfile_frame_mem(struct tb_tfile_writer *w, uint64_t addr,
		       const void *data, uint16_t len);
int tb_tfile_frame_tsv(struct tb_tfile_writer *w, unsigned int num,
		       int64_t value);
/* @n variables numbered @first, @first + 1, ...: one call per frame. */
int tb_tfile_frame_tsvs(struct tb_tfile_writer *w, unsigned int first,
			const int64_t *values, unsigned int n);
int tb_tfile_frame_end(struct tb_tfile_writer *w);
/* Write everything out and free the writer; 0 or -errno. */
int tb_tfile_finish(struct tb_tfile_writer *w);
/* Free without writing (error paths). */
void tb_tfile_abort(struct tb_tfile_writer *w);

#endif /* TB_TFILE_WRITER_H */
