/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR version 5 writer.  Each block is what compiler-rt writes per
 * thread buffer: BufferExtents, NewBuffer, WallClockTime, PIDEntry,
 * NewCPUId, then records.  Callers give absolute TSC values; the writer
 * turns them into 32-bit deltas and inserts TSCWrap records when a delta
 * does not fit.  A block is kept in memory (bounded by the block size)
 * until it is complete because BufferExtents must state its length.
 *
 * Collectors that already hold finished blocks (per-CPU kernel buffers
 * re-ordered by time) can emit them with tb_fdr_write_block().
 */
#ifndef TB_FDR_WRITER_H
#define TB_FDR_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "fdr_records.h"

#define TB_FDR_DEFAULT_BLOCK	(64U * 1024)

struct tb_fdr_writer {
	FILE *f;
	uint8_t *blk;		/* records of the open block */
	size_t len;
	size_t cap;
	size_t block_size;	/* flush when the block would grow past it */
	bool open;
	int32_t pid;
	int32_t tid;
	uint16_t cpu;
	uint64_t tsc;		/* base for the next delta */
	uint64_t wall_sec;
	uint32_t wall_usec;
	uint64_t bytes;		/* written to the file */
	int error;		/* sticky: first errno */
};

int tb_fdr_writer_init(struct tb_fdr_writer *w, FILE *f,
		       const struct tb_fdr_header *h, size_t block_size);
/* Start a block for a thread (ends the open one). */
int tb_fdr_begin(struct tb_fdr_writer *w, int32_t pid, int32_t tid,
		 uint16_t cpu, uint64_t tsc, uint64_t wall_sec,
		 uint32_t wall_usec);
int tb_fdr_new_cpu(struct tb_fdr_writer *w, uint16_t cpu, uint64_t tsc);
/* A function record; ENTER_ARGS writes @nargs CallArgument records. */
int tb_fdr_function(struct tb_fdr_writer *w, unsigned int type,
		    uint32_t func_id, uint64_t tsc, const uint64_t *args,
		    unsigned int nargs);
int tb_fdr_custom(struct tb_fdr_writer *w, uint64_t tsc, const void *data,
		  int32_t size);
int tb_fdr_typed(struct tb_fdr_writer *w, uint64_t tsc, uint16_t type,
		 const void *data, int32_t size);
int tb_fdr_end(struct tb_fdr_writer *w);
/*
 * Pre-formed records appended to the open block as they are (the caller
 * owns their deltas; the writer's TSC base becomes @tsc, the time after
 * them).  A collector re-ordering per-CPU data uses this or, for whole
 * blocks, tb_fdr_write_block().
 */
int tb_fdr_append(struct tb_fdr_writer *w, const void *records, size_t len,
		  uint64_t tsc);
/* A complete pre-formed block (NewBuffer ... records), without extents. */
int tb_fdr_write_block(struct tb_fdr_writer *w, const void *records,
		       size_t len);
/* End the open block, flush; returns 0 or -errno.  Frees memory. */
int tb_fdr_writer_finish(struct tb_fdr_writer *w);

/* Encode single records into @out (16 or 8 bytes); for collectors. */
void tb_fdr_put_meta(uint8_t out[16], unsigned int kind);
void tb_fdr_put_func(uint8_t out[8], unsigned int type, uint32_t func_id,
		     uint32_t delta);
void tb_fdr_put_header(uint8_t out[32], const struct tb_fdr_header *h);

#endif /* TB_FDR_WRITER_H */
