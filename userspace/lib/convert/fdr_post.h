/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Post-processing of a kernel FDR capture, shared by the collectors
 * (tracebuf record, tracebuf bpf).  The input is an FDR v5 stream of
 * finished blocks in any order (per-CPU buffers drained one after the
 * other).  The output is what llvm-xray's stack and account accept.  It
 * is the LLVM shape, reader -> filter -> writer: a first pass of the
 * reader indexes the blocks, then each task's blocks are read again in
 * time order, filtered and written by the FDR writer:
 *
 *  - one block per task (NewCPUId records where it changed CPU), tasks
 *    ordered by their first event: llvm-xray 14 cannot be trusted to put
 *    more than 16 blocks of one thread in order (format/fdr_writer.h);
 *  - function ids renumbered densely, 1..N in kernel-id order, because
 *    llvm-xray numbers the functions of an ELF instrumentation map that
 *    way (the kernel's ids, space << 24 | key, are far larger);
 *  - exits whose entry is not in the capture left out (calls in progress
 *    when recording started, or whose entry was lost); the writer
 *    computes every delta again from the records' absolute times;
 *  - each task's block starts with a custom event TB_FDR_MARKS_START
 *    (format/fdr_marks.h; not in raw mode, dropped from an input and
 *    written anew) at the time of the capture's earliest record:
 *    llvm-xray 14's account and graph refuse every record older than
 *    the first record they read, and they read the threads in the
 *    order of a hash table.
 *
 *  - a typed event RET (the errno of the exit before it) gets the dense
 *    id of that exit, and is left out with it;
 *  - with @meta, the trace's own description first, right after the
 *    file header: one block of thread TRACEBUF_FDR_META_TID (pid 0, CPU
 *    0, at the capture's earliest time, so that llvm-xray 14's account
 *    reads past it) holding META_CAPTURE, META_NAMES and META_TASKS
 *    (format/fdr_meta.h): the names text is the names file's, the tasks
 *    text the tasks file's, each with the capture id in its first line.
 *    An input's META block is then left out; without @meta it is kept,
 *    first.  A META block that is not the input's first block is left
 *    out in every mode (meta_later): no reader reads one.
 *
 * In raw mode the device's blocks are only ordered: blocks, ids and
 * records stay as recorded (the META block is written all the same).  With keep_ids the blocks are merged and
 * filtered but the ids stay the kernel's (no map: tracebuf convert
 * fdr-tidy, for a capture read straight from the device); keep_records
 * adds that nothing is filtered.  The names file and the instrumentation map
 * are written from the ids the trace uses.
 */
#ifndef TB_FDR_POST_H
#define TB_FDR_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/fdr_marks.h"
#include "format/fdr_records.h"
#include "format/fdr_syscalls.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "util/error.h"

#define TB_FDR_POST_SPACES	16	/* kernel id >> 24: 0..15 */

/*
 * What the META block says besides what the post-processing knows
 * itself (the capture id, the clock's frequency): the collector's
 * "KEY VALUE" lines, and the names and tasks as the companion files get
 * them (the same @known and @syscalls as struct tb_fdr_post_files).
 */
/*
 * Name of kernel id @kid for the names file: write at most @size bytes
 * to @out.  @known (kernel id -> name, may be NULL) is tried first.
 */
typedef void (*tb_fdr_namer_fn)(void *ctx, const struct tb_name_map *known,
				uint32_t kid, char *out, size_t size);

struct tb_fdr_post_meta {
	const char *capture;		/* "KEY VALUE\n" lines, or NULL */
	const struct tb_name_map *known;	/* names by kernel id */
	struct tb_fdr_syscalls syscalls;
	const struct tb_task_map *tasks;	/* may be NULL: none known */
	/*
	 * The names of the ids @known lacks: @namer's, with @namer_ctx; NULL:
	 * tb_fdr_post_syscall_namer() over @syscalls, as the names file's.
	 */
	tb_fdr_namer_fn namer;
	void *namer_ctx;
};

struct tb_fdr_post {
	bool raw;		/* keep blocks, ids and records as recorded */
	bool keep_ids;		/* one block per task, but the kernel's ids */
	/*
	 * With keep_ids: every function record kept, no exit left out or
	 * added -- only put in order (tracebuf report matches the calls
	 * itself, and counts the halves).
	 */
	bool keep_records;
	const struct tb_fdr_post_meta *meta;	/* NULL: no META block */
	/*
	 * The capture's id, in the META block and the companions' first
	 * lines: the caller's if it sets one (a crash dump's is its
	 * capture's, the same from every dump of it), else drawn at random
	 * by tb_fdr_post_run() with @meta; 0 (none) without.
	 */
	uint64_t capture_id;
	struct tb_fdr_header hdr;
	uint32_t *ids;		/* kernel ids used, sorted: dense id i + 1 */
	size_t nids;
	/* statistics of the input */
	uint64_t blocks;
	uint64_t enters[TB_FDR_POST_SPACES];	/* entries by id space */
	uint64_t markers;	/* custom events other than loss reports */
	/* typed events (format/fdr_event.h): switches, wake-ups, errors */
	uint64_t switches, wakeups, rets;
	uint64_t lost_reports;	/* custom events "tracebuf: lost ..." */
	/* of the output */
	uint64_t out_blocks;	/* one per task; the input's in raw mode */
	uint64_t removed;	/* exits left out */
	uint64_t removed_rets;	/* RET events left out with their exit */
	/*
	 * Function records of an input's META blocks, left out with them: a
	 * collector's has none, and no reader shows that thread's.
	 */
	uint64_t meta_functions;
	/*
	 * META blocks of the input after its first block, left out: no
	 * reader reads one (format/fdr_meta.h), and moved first it would
	 * name this trace with another capture's names.
	 */
	uint64_t meta_later;
	uint64_t closed;	/* exits added: calls whose exit was lost */
	uint64_t bytes;		/* bytes written */
};

/*
 * Process @len bytes at @buf and write the trace to @out.  Returns 0, or
 * -1 with @err set (malformed input, or errno from writing: see @err).
 * Release with tb_fdr_post_free() in both cases.
 */
int tb_fdr_post_run(struct tb_fdr_post *p, const void *buf, size_t len,
		    FILE *out, struct tb_error *err);

/* Does the written trace carry the kernel's ids (not dense ones)? */
bool tb_fdr_post_kernel_ids(const struct tb_fdr_post *p);

/* Kernel id of an id of the written trace (itself in raw mode). */
uint32_t tb_fdr_post_kernel_id(const struct tb_fdr_post *p, uint32_t id);

/*
 * The namer both collectors use: syscalls named "sys_<name>" from @ctx, a
 * struct tb_fdr_syscalls, "sys_<nr>" for numbers it does not have,
 * "fdr_0x<id>" for other ids.
 */

void tb_fdr_post_syscall_namer(void *ctx, const struct tb_name_map *known,
			       uint32_t kid, char *out, size_t size);

/*
 * Add the kernel's id list (TRACEBUF_FDR_IOC_NAMES text: "<id hex>
 * <space> <name>" lines) to @m as "<space>_<name>" ("irq_<n>_<name>" for
 * IRQs), blanks in names turned into '_'.  Returns 0 or -1 (no memory).
 */
int tb_fdr_post_kernel_names(struct tb_name_map *m, const char *text);

/*
 * The names file (with a capture id, first its line "# tracebuf names
 * capture ID"; then "ID NAME" lines, the format tb_name_map_load() reads,
 * IDs in decimal, each followed by "# kernel id 0x..."), for every id of
 * the written trace, and, if @map is not NULL and not in raw mode, the ELF
 * instrumentation map (format/xray_map.h).  @namer may be NULL: "fdr_0x..." for
 * ids @known does not name.  Returns 0 or -errno.
 */
int tb_fdr_post_names(const struct tb_fdr_post *p, FILE *names, FILE *map,
		      const struct tb_name_map *known, tb_fdr_namer_fn namer,
		      void *ctx);

/*
 * The tasks file (format/task_map.h) of @m, first, with a capture id, its
 * line "# tracebuf tasks capture ID".  Returns 0 or -errno.
 */
int tb_fdr_post_tasks(const struct tb_fdr_post *p, const struct tb_task_map *m,
		      FILE *out);

void tb_fdr_post_free(struct tb_fdr_post *p);

#endif /* TB_FDR_POST_H */
