/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR version 5 writer.  Each block is what compiler-rt writes per
 * thread buffer: BufferExtents, NewBuffer, WallClockTime, PIDEntry,
 * NewCPUId, then records.  Callers give absolute TSC values; the writer
 * turns them into 32-bit deltas and inserts TSCWrap records when a delta
 * does not fit.  A block is kept in memory until it is complete because
 * BufferExtents must state its length.
 *
 * It is also the last visitor of a reader -> filter -> writer pipeline:
 * tb_fdr_writer_record() writes one parsed record (format/fdr_reader.h) of a
 * block's body, its time taken from the record's absolute TSC, so a
 * filter may drop or change records and the deltas stay right.
 *
 * One block per thread, by default.  llvm-xray 14 puts each thread's
 * blocks in order with a comparison that says "earlier" only when both
 * the wall-clock seconds and the microseconds are smaller: blocks of one
 * thread that start within the same second compare equal, and more than
 * 16 of them (where its sort stops being an insertion sort) come out
 * shuffled, so that `llvm-xray stack` and `account` see exits before
 * their entries.  A block grows up to TB_FDR_MAX_BLOCK before a thread
 * continues in a new one (Documentation/formats.rst).
 *
 * Collectors that keep finished blocks as they are (tracebuf record
 * --raw) emit them with tb_fdr_writer_block().
 */
#ifndef TB_FDR_WRITER_H
#define TB_FDR_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "format/fdr_records.h"

/*
 * Largest block the writer makes (block_size 0): far below the 2^32 bytes
 * where llvm-xray 14's reading of BufferExtents stops (formats.rst).
 */
#define TB_FDR_MAX_BLOCK	(1U << 30)

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

/* @block_size 0: TB_FDR_MAX_BLOCK (one block per thread). */
int tb_fdr_writer_init(struct tb_fdr_writer *w, FILE *f,
		       const struct tb_fdr_header *h, size_t block_size);
/* Start a block for a thread (ends the open one). */
int tb_fdr_writer_begin(struct tb_fdr_writer *w, int32_t pid, int32_t tid,
			uint16_t cpu, uint64_t tsc, uint64_t wall_sec,
			uint32_t wall_usec);
int tb_fdr_writer_new_cpu(struct tb_fdr_writer *w, uint16_t cpu, uint64_t tsc);
/* A function record; ENTER_ARGS writes @nargs CallArgument records. */
int tb_fdr_writer_function(struct tb_fdr_writer *w, unsigned int type,
			   uint32_t func_id, uint64_t tsc, const uint64_t *args,
			   unsigned int nargs);
int tb_fdr_writer_custom(struct tb_fdr_writer *w, uint64_t tsc, const void *data,
			 int32_t size);
int tb_fdr_writer_typed(struct tb_fdr_writer *w, uint64_t tsc, uint16_t type,
			const void *data, int32_t size);
int tb_fdr_writer_end(struct tb_fdr_writer *w);
/*
 * The record visitor: write @r, a record of a block's body as the reader
 * hands it (NewCPUId, Function, CallArgument, CustomEvent, TypedEvent),
 * at its absolute time r->tsc, into the open block.  A CallArgument
 * follows the function record written before it.  Records that make a
 * block's frame (BufferExtents, NewBuffer, WallClockTime, PIDEntry,
 * EndOfBuffer) and TSCWrap are the writer's own: they are skipped, 0.
 */
int tb_fdr_writer_record(struct tb_fdr_writer *w,
			 const struct tb_fdr_record *r);
/*
 * Pre-formed records appended to the open block as they are (the caller
 * owns their deltas; the writer's TSC base becomes @tsc, the time after
 * them).  A collector re-ordering per-CPU data uses this or, for whole
 * blocks, tb_fdr_writer_block().
 */
int tb_fdr_writer_append(struct tb_fdr_writer *w, const void *records, size_t len,
			 uint64_t tsc);
/* A complete pre-formed block (NewBuffer ... records), without extents. */
int tb_fdr_writer_block(struct tb_fdr_writer *w, const void *records,
			size_t len);
/* End the open block, flush; returns 0 or -errno.  Frees memory. */
int tb_fdr_writer_finish(struct tb_fdr_writer *w);

/* Encode single records into @out (16 or 8 bytes); for collectors. */
void tb_fdr_writer_put_meta(uint8_t out[16], unsigned int kind);
void tb_fdr_writer_put_func(uint8_t out[8], unsigned int type, uint32_t func_id,
			    uint32_t delta);
void tb_fdr_writer_put_header(uint8_t out[32], const struct tb_fdr_header *h);

#endif /* TB_FDR_WRITER_H */
