/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace's own description (uapi/linux/tracebuf_fdr.h, "typed events",
 * META_*): the one writer and the one reader of the META block, the block
 * of thread TRACEBUF_FDR_META_TID that the collectors write first, right
 * after the file header, so that a trace reads alone.  It holds three
 * texts, each as one or more typed events of its type, joined in order:
 *
 *   capture: "KEY VALUE" lines (Documentation/formats.rst lists the keys;
 *            readers ignore the keys they do not know), among them
 *            "capture ID", ID the capture's 16 hex digits;
 *   names:   the names file, as OUTPUT.names;
 *   tasks:   the tasks file, as OUTPUT.tasks.
 *
 * The companion files begin with a comment line that carries the same
 * capture id ("# tracebuf names capture ID", "# tracebuf tasks capture
 * ID"), which their loaders read as a comment and the readers check
 * against the trace (convert/trace_names.h).  Only a first block is the
 * META block: one found later is not read (a trace whose first block is
 * something else has none, as llvm-xray's own and older traces).
 */
#ifndef TB_FDR_META_H
#define TB_FDR_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/tracebuf_fdr.h>

#include "format/fdr_records.h"
#include "format/fdr_writer.h"
#include "util/error.h"

#define TB_FDR_META_KEY_ID	"capture"	/* "capture 0123456789abcdef" */
#define TB_FDR_META_NAMES_LINE	"# tracebuf names capture "
#define TB_FDR_META_TASKS_LINE	"# tracebuf tasks capture "

struct tb_fdr_meta_block {
	bool present;		/* the trace's first block is the META block */
	bool has_id;		/* its capture text says the capture id */
	uint64_t id;
	char *capture, *names, *tasks;	/* NUL-terminated, or NULL */
	size_t capture_len, names_len, tasks_len;
	uint64_t malformed;	/* META events too short, left out */
};

/*
 * Write @len bytes of @text as typed events of META type @type at time
 * @tsc into @w's open block, cut at line ends into payloads of at most
 * TRACEBUF_FDR_META_CHUNK bytes (a longer line is cut inside).  Returns
 * 0 or -errno (the writer's sticky error).
 */
int tb_fdr_meta_write(struct tb_fdr_writer *w, uint64_t tsc, uint16_t type,
		      const char *text, size_t len);

/*
 * Read the META block of the trace in @f, from its start, and rewind
 * @f.  A trace without one, or cut inside it, leaves @m empty (present
 * false): that is no error.  Returns 0, -ENOMEM, or -errno of the read
 * or the rewind (@f not seekable).
 */
int tb_fdr_meta_read(FILE *f, struct tb_fdr_meta_block *m);

/* The same over a buffer. */
int tb_fdr_meta_read_mem(const void *buf, size_t len, struct tb_fdr_meta_block *m);

/*
 * The value of capture key @key (the rest of its line), copied into
 * @buf of @size bytes, or NULL when the capture text does not have it.
 */
const char *tb_fdr_meta_value(const struct tb_fdr_meta_block *m, const char *key,
			      char *buf, size_t size);

/* "%016llx": the capture id as every text writes it. */
void tb_fdr_meta_id_text(uint64_t id, char buf[17]);

/*
 * What the first line @line of a companion file says: 1 with *@id set
 * when it is the capture line @prefix (TB_FDR_META_*_LINE) with an id
 * (16 hex digits, either case), 0 when it is no capture line, -1 when it
 * is one damaged: cut short (inside the words of @prefix too, from
 * "# tracebuf names" on), its id cut, longer or not hex.
 */
int tb_fdr_meta_id_line(const char *line, const char *prefix, uint64_t *id);

void tb_fdr_meta_free(struct tb_fdr_meta_block *m);

/*
 * Is @r a record of a META block (its thread TRACEBUF_FDR_META_TID)?
 * Readers of events skip these: the block is no task, no track, no
 * event.  The BufferExtents record that begins the next block still
 * carries the META block's tid: it is not one.
 */
static inline bool tb_fdr_meta_record(const struct tb_fdr_record *r)
{
	return r->tid == TRACEBUF_FDR_META_TID &&
	       r->kind != TB_FDR_BUFFER_EXTENTS;
}

#endif /* TB_FDR_META_H */
