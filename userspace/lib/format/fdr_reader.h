/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streaming XRay FDR reader (producer + block verifier).  It reads through
 * a fixed-size window, so memory stays constant whatever the file size
 * (payloads are bounded by TB_FDR_MAX_PAYLOAD), and hands every record to a
 * visitor callback in file order.  It accepts the files llvm-xray 14's
 * fdr-dump -verify accepts for versions 1 to 5 (Documentation/formats.rst
 * lists the exceptions), and reports the first problem with its byte
 * offset and record kind.  A file that ends at any byte inside a record
 * is read up to its last whole record (@bytes in the stats), as if it
 * ended there, and the error's warning says in one line what is lost: a
 * cut trace is not a malformed one.  Records that llvm-xray's trace
 * loader skips (version 1 padding after an EndOfBuffer) come with
 * r->ignored set.
 */
#ifndef TB_FDR_READER_H
#define TB_FDR_READER_H

#include <stdbool.h>
#include <stdio.h>

#include "format/fdr_records.h"
#include "util/error.h"

/* Return 0 to go on; anything else stops tb_fdr_reader_read() with that value. */
typedef int (*tb_fdr_visit_fn)(void *ctx, const struct tb_fdr_record *r);

struct tb_fdr_stats {
	uint64_t records;
	uint64_t functions;
	uint64_t blocks;
	uint64_t bytes;
	/*
	 * Versions 3+: the file ended inside a block, whose BufferExtents
	 * record (at offset @cut_block) announced @cut_bytes more bytes after
	 * the last whole record.  The read still succeeds (llvm-xray accepts
	 * such a file too), with the same words in the error's warning.
	 */
	uint64_t cut_bytes;
	uint64_t cut_block;
};

struct tb_fdr_reader;

/*
 * Read a stream.  @on_header (may be NULL) sees the file header first and
 * may stop the read by returning non-zero.  Returns 0 at a clean end, -1
 * on malformed input (@err says where and why), or the visitor's value.
 */
int tb_fdr_reader_read(FILE *f, int (*on_header)(void *ctx,
						 const struct tb_fdr_header *h),
		       tb_fdr_visit_fn visit, void *ctx, struct tb_fdr_stats *stats,
		       struct tb_error *err);

/* The same over a memory buffer (fuzzers, tests). */
int tb_fdr_reader_read_mem(const void *buf, size_t len,
			   int (*on_header)(void *ctx, const struct tb_fdr_header *h),
			   tb_fdr_visit_fn visit, void *ctx,
			   struct tb_fdr_stats *stats, struct tb_error *err);

/*
 * A function record with the CallArgument records that follow it, for
 * visitors that need a call's arguments with the call: feed every record
 * to tb_fdr_reader_call_feed(); @done sees each function record once its
 * arguments are known (at the next record that is not an argument, or at
 * tb_fdr_reader_call_flush() after the read).
 */
#define TB_FDR_CALL_MAX_ARGS	6

struct tb_fdr_call {
	bool pending;
	struct tb_fdr_record rec;
	unsigned int nargs;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
};

typedef void (*tb_fdr_call_fn)(void *ctx, const struct tb_fdr_call *c);

/* 1 if @r was taken (function record, argument), 0 for the caller. */
int tb_fdr_reader_call_feed(struct tb_fdr_call *c, const struct tb_fdr_record *r,
			    tb_fdr_call_fn done, void *ctx);
void tb_fdr_reader_call_flush(struct tb_fdr_call *c, tb_fdr_call_fn done, void *ctx);

int tb_fdr_reader_parse_header(const uint8_t *p, struct tb_fdr_header *h,
			       struct tb_error *err);

#endif /* TB_FDR_READER_H */
