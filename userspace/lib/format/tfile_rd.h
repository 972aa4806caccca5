/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GDB trace file reader's window on its input (format/tfile_reader.c
 * reads the frames, format/tfile_defs.c the definitions): bytes made
 * available ahead, taken as they are parsed, and warnings with the
 * offset they are about.
 */
#ifndef TB_TFILE_RD_H
#define TB_TFILE_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/tfile_reader.h"
#include "util/error.h"

#define TB_TFILE_RD_AHEAD	(128U * 1024)

struct tb_tfile_rd {
	FILE *f;
	uint64_t off;		/* file offset of buf[pos] */
	uint8_t *buf;
	size_t cap;
	size_t pos;
	size_t len;
	const struct tb_tfile_visitor *v;
	void *ctx;
	struct tb_tfile_info *info;
	struct tb_error *err;
	bool cr_warned;
	struct tb_tfile_rd_tp *tps;	/* tracepoints the "tp" lines name */
	size_t ntps;
	size_t cap_tps;
};

/* A tracepoint a "tp" line names; gdb keys them by number and address. */
struct tb_tfile_rd_tp {
	uint64_t num;
	uint64_t addr;
	uint64_t at;		/* offset of the line */
	bool defined;		/* a "tp T" line */
};

/* Make @n bytes available at buf[pos]; returns how many there are. */
size_t tb_tfile_rd_fill(struct tb_tfile_rd *r, size_t n);
/* The next @n bytes are read. */
void tb_tfile_rd_take(struct tb_tfile_rd *r, size_t n);
/* A warning about offset @off, for the visitor's warning(). */
void tb_tfile_rd_warn(struct tb_tfile_rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* TB_TFILE_RD_H */
