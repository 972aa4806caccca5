/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task names of a trace: tid -> (pid, command name).  The kernel's FDR
 * blocks carry a tid and a pid but no name, so the collectors keep the
 * names they can see in /proc (when recording starts and when it ends) in
 * a companion file next to the trace, OUTPUT.tasks, that the readers
 * (convert, report) pick up.  One line per task:
 *
 *	TID PID COMM
 *
 * decimal numbers, one space each, COMM the rest of the line with bytes
 * below 0x20, 0x7f and up, and '\' written as \xNN ('#' starts a comment
 * line).  Documentation/formats.rst describes it.
 */
#ifndef TB_TASK_MAP_H
#define TB_TASK_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* TASK_COMM_LEN: 15 bytes and the NUL. */
#define TB_TASK_COMM_LEN	16

struct tb_task {
	int32_t tid;
	int32_t pid;
	char comm[TB_TASK_COMM_LEN];
};

struct tb_task_map {
	struct tb_task *v;	/* sorted by tid, tids unique */
	size_t n, cap;
};

/*
 * Where @tid is, or would go, in the @n elements of @size bytes at @v,
 * sorted by tid, each beginning with its int32_t tid (struct tb_task and
 * the report's tasks): the lower bound.
 */
size_t tb_task_map_index(const void *v, size_t n, size_t size, int32_t tid);

void tb_task_map_init(struct tb_task_map *m);
void tb_task_map_free(struct tb_task_map *m);

/*
 * Add @tid or replace what the map says of it: the newest name wins (a
 * command that exec()s changes its name).  @comm is cut to 15 bytes.
 * Returns 0 or -ENOMEM.
 */
int tb_task_map_set(struct tb_task_map *m, int32_t tid, int32_t pid,
		    const char *comm);

/* The entry of @tid, or NULL. */
const struct tb_task *tb_task_map_find(const struct tb_task_map *m,
				       int32_t tid);

/*
 * What to call @tid: its command name, "swapper/N" for the idle task of
 * CPU N (TRACEBUF_FDR_IDLE_TID), written into @buf, or NULL when unknown.
 * The name lives as long as the map or @buf, whichever it is in.  @m may
 * be NULL (no names known): idle tasks are still named.
 */
const char *tb_task_map_comm(const struct tb_task_map *m, int32_t tid,
			     char buf[TB_TASK_COMM_LEN]);

/* The CPU whose idle task @tid is (TRACEBUF_FDR_IDLE_TID), or -1. */
int tb_task_map_idle_cpu(int32_t tid);

/*
 * The tid to show a person for @tid: 0 for an idle task, as the kernel,
 * perf and trace-cmd show every one (its name, swapper/N, tells them
 * apart), @tid otherwise.  Traces keep one tid per idle task so that
 * the calls of different CPUs' idle tasks are not mixed.
 */
int32_t tb_task_map_shown_tid(int32_t tid);

/*
 * Add every task under @proc (normally "/proc": PROC/PID/task/TID/comm).
 * Tasks that exit during the scan are skipped.  Returns the number of
 * tasks added, or -errno when @proc cannot be read.
 */
int tb_task_map_scan(struct tb_task_map *m, const char *proc);

/* The same for the threads of one process; -errno if it is gone. */
int tb_task_map_scan_pid(struct tb_task_map *m, const char *proc,
			 int32_t pid);

/* The file format above; returns 0 or -errno. */
int tb_task_map_write(const struct tb_task_map *m, FILE *out);

/*
 * Read @path into @m (initialised by the caller; entries are added).
 * Returns 0, -ENOENT when @path does not exist, or -1 with @err set
 * ("PATH line N: ...") when it is unreadable or malformed.
 */
int tb_task_map_load(struct tb_task_map *m, const char *path,
		     struct tb_error *err);

/* The same from @f, called @path in messages: 0 or -1 with @err set. */
int tb_task_map_load_file(struct tb_task_map *m, FILE *f, const char *path,
			  struct tb_error *err);

#endif /* TB_TASK_MAP_H */
