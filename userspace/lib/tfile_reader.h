/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GDB trace file reader: definition lines, then frames block by block.
 * Reads gdb's own `tsave` output and ours; checks what gdb 13 checks (the
 * header, a non-zero R size, known block types, blocks inside their frame,
 * the end marker) and reports the byte offset of the first problem.
 * Frames are streamed: memory is bounded by the largest single block.
 */
#ifndef TB_TFILE_READER_H
#define TB_TFILE_READER_H

#include <stdint.h>
#include <stdio.h>

#include "tb_error.h"

#define TB_TFILE_MAX_LINE	4096
#define TB_TFILE_MAX_REGS	65536

struct tb_tfile_block {
	char type;		/* 'R', 'M' or 'V' */
	uint64_t offset;
	const uint8_t *data;	/* R: registers, M: memory */
	uint32_t len;
	uint64_t addr;		/* M */
	int32_t num;		/* V */
	int64_t value;		/* V */
};

struct tb_tfile_visitor {
	/* Each definition line without its newline (may be NULL). */
	int (*line)(void *ctx, const char *line);
	int (*frame)(void *ctx, unsigned int tp, uint64_t offset,
		     uint32_t size);
	int (*block)(void *ctx, const struct tb_tfile_block *b);
};

struct tb_tfile_info {
	unsigned int reg_size;
	uint64_t frames;	/* frames read */
	uint64_t status_frames;	/* tframes from the status line */
	unsigned int tracepoints;	/* "tp T" lines */
	unsigned int tsvs;
};

/* 0 at the end marker, -1 on malformed input, or a callback's value. */
int tb_tfile_read(FILE *f, const struct tb_tfile_visitor *v, void *ctx,
		  struct tb_tfile_info *info, struct tb_error *err);

#endif /* TB_TFILE_READER_H */
