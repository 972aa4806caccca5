/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two passes of the CTF writer (convert/fdr_ctf.c) share with
 * the mapping of records to LTTng's events (convert/fdr_ctf_event.c):
 * the items of the temporary file, the tasks, the context, and the
 * writing of one item as CTF events.
 */
#ifndef TB_FDR_CTF_EVENT_H
#define TB_FDR_CTF_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_ctf.h"
#include "convert/fdr_ctf_class.h"
#include "convert/fdr_ctf_meta.h"
#include "convert/fdr_ctf_stream.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/hash.h"

/* The items of the temporary file, as the first pass writes them. */

enum { IT_ENTER, IT_EXIT, IT_MARKER, IT_TYPED, IT_LOST };

struct cv_item {
	uint64_t tsc;
	int32_t tid, pid;
	uint32_t id;		/* function id of the file, or typed type */
	uint32_t len;		/* payload bytes after the arguments */
	uint16_t cpu;
	uint8_t kind;
	uint8_t nargs;
	uint32_t pad;
};

struct cv_task {
	int32_t tid, pid;
	char comm[TB_CTF_COMM_LEN];
	bool forked;		/* a fork in the trace made it */
};

struct cv_run {
	uint64_t start, end;	/* item bytes in the temporary file */
};

/*
 * Each run's read window: 4 KiB, less when there are so many runs (a
 * capture read from the device: a block per page) that the windows
 * would pass CV_WINDOWS_MAX together, never below CV_WINDOW_MIN.
 */
#define CV_WINDOW	4096
#define CV_WINDOW_MIN	256
#define CV_WINDOWS_MAX	(16U << 20)

struct cv_cursor {
	uint64_t off, end;
	uint8_t *win;		/* win_cap bytes */
	size_t win_cap;
	uint64_t win_off;
	size_t win_len;
	struct cv_item it;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
	struct tb_buf data;
};

struct cv_ctx {
	const struct tb_fdr_ctf_opts *o;
	struct tb_fdr_ctf_stats *st;
	FILE *tmp;
	uint64_t tmp_len;
	struct tb_fdr_call call;
	int err;
	/* runs */
	struct cv_run *runs;
	size_t nruns, runcap;
	bool new_run;
	uint64_t last_tsc;
	uint64_t first, last;	/* the trace's span */
	bool has_first;
	/* tasks: tid -> index + 1 */
	struct cv_task *tasks;
	size_t ntasks, taskcap;
	struct tb_hash by_tid;
	/* clock */
	uint64_t freq;
	bool wall_pending, has_wall;
	uint64_t wall_s;
	uint32_t wall_us;
	uint64_t wall_tsc;
	/* second pass */
	struct tb_ctf_classes classes;
	struct tb_ctf_meta meta;
	struct tb_ctf_stream *streams;	/* by CPU, f NULL when unused */
	int32_t *current;		/* tid on each CPU, -1 none */
	size_t ncpus;
	const char *dir;
	struct tb_buf ev;
	bool dumped;
};

/* The entry of @tid, made if new (pid -1, no name); NULL: no memory. */
struct cv_task *tb_fdr_ctf_event_task(struct cv_ctx *c, int32_t tid);

/* The kernel id of file id @id (0: none known). */
uint32_t tb_fdr_ctf_event_kid(const struct cv_ctx *c, uint32_t id);

/*
 * Write the item at @k as its CTF events (the state dump before the
 * first, a sched_switch when its CPU's task changes).  Returns 0 or
 * -errno.
 */
int tb_fdr_ctf_event_write(struct cv_ctx *c, const struct cv_cursor *k);

#endif /* TB_FDR_CTF_EVENT_H */
