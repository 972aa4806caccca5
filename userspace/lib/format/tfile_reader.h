/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GDB trace file reader: definition lines, then frames block by block.
 * Reads gdb's own `tsave` output and ours, and gives gdb 13's verdict on
 * every file: what `target tfile` refuses to open we refuse with an error
 * naming the byte offset; what gdb opens we read, frame by frame, as far
 * as gdb's `tfind` gets, with a warning for everything gdb tolerates (a
 * carriage return before a newline, a block longer than its frame, a
 * missing end marker...).  Documentation/formats.rst has the rules.
 * Frames are streamed: memory is bounded by the largest single block.
 */
#ifndef TB_TFILE_READER_H
#define TB_TFILE_READER_H

#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* gdb refuses definition lines of this many bytes or more. */
#define TB_TFILE_MAX_LINE	1000
/* Register blocks larger than this are skipped, not handed out. */
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
	/* Something gdb tolerates, "offset N: ..." (may be NULL). */
	void (*warning)(void *ctx, const struct tb_error *w);
};

struct tb_tfile_info {
	int reg_size;		/* the last R line, as gdb reads it */
	uint64_t frames;	/* frames gdb's tfind reaches */
	uint64_t status_frames;	/* tframes from the status line */
	unsigned int tracepoints;	/* "tp T" lines */
	unsigned int tsvs;
	unsigned int warnings;
};

/*
 * 0 when gdb would open the file (the frames it can select were handed
 * out), -1 when gdb refuses it (@err says where and why), or a callback's
 * value.
 */
int tb_tfile_reader_read(FILE *f, const struct tb_tfile_visitor *v, void *ctx,
			 struct tb_tfile_info *info, struct tb_error *err);

#endif /* TB_TFILE_READER_H */
