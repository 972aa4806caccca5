/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two kernel FDR collectors share around their own recording
 * (tracebuf record drains the module's /dev/tracebuf_fdr, tracebuf bpf a
 * BPF ring buffer): the traced command, the files written next to the
 * trace, and the statistics, printed as the end-of-run summary and
 * written as one JSON line (--stats-json).  One definition of each, so
 * that both tools behave and report alike (Documentation/tools.rst).
 */
#ifndef TB_COLLECT_H
#define TB_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "cli/opt.h"
#include "convert/fdr_post.h"
#include "convert/fdr_post_files.h"
#include "format/fdr_classes.h"
#include "format/task_map.h"

/*
 * The traced command.  It is forked first and waits; it runs only once
 * tracing is on (tb_collect_cmd_start()), so that it is recorded whole.
 * A command that cannot be run (exec fails) is reported by the parent
 * with exec's errno: "cannot run 'CMD': No such file or directory", exit
 * status 1, never an empty trace that looks like a quiet command.
 */
struct tb_collect_cmd {
	pid_t pid;		/* 0 when there is no child */
	int go_fd;		/* write end: one byte releases the child */
	int err_fd;		/* read end: exec's errno, or EOF on success */
};

/*
 * The signals that end a recording cleanly (the capture stopped, the
 * trace written): SIGINT, SIGTERM and SIGHUP, a closed terminal.  Installs
 * @handler for them, without SA_RESTART, so that a blocked poll() returns.
 */
void tb_collect_on_stop_signals(void (*handler)(int));

/*
 * Fork the child for @argv (argv[0] looked up in PATH).  With
 * @stdout_to_stderr the command's stdout goes to stderr (the trace is on
 * stdout).  The child gets default signal handling and an empty signal
 * mask; if this process ends before the start, the child exits 127.
 * Returns 0 or -errno (pipe, fork).
 */
int tb_collect_cmd_fork(struct tb_collect_cmd *c, char *const argv[],
			bool stdout_to_stderr);

/*
 * Let the child exec and wait for the outcome: 0 once the command runs,
 * or -errno of the failed exec (the child exited 127 and is reaped,
 * c->pid is 0).
 */
int tb_collect_cmd_start(struct tb_collect_cmd *c);

/*
 * Without a start: end the child (it exits 127 without running
 * anything) and reap it.
 */
void tb_collect_cmd_cancel(struct tb_collect_cmd *c);

/*
 * The output options every collector takes (tracebuf record, bpf, crash):
 * -r raw, -N no tfile, -J JSON, -q quiet, -n names file, -j statistics
 * JSON.  A tool's getopt string lists those it offers.
 */
struct tb_collect_out {
	bool raw, no_tfile, json, quiet;
	const char *names;		/* -n, or NULL: OUTPUT.names */
	const char *stats_json;		/* -j, or NULL */
};

/* Their cli/opt.h entries: -q, -J and -n are the common TB_OPT_*. */
#define TB_COLLECT_OPT_RAW	.id = 'r', .letter = 'r', .name = "raw"
#define TB_COLLECT_OPT_NO_TFILE	.id = 'N', .letter = 'N', .name = "no-tfile"
#define TB_COLLECT_OPT_STATS_JSON					\
	.id = 'j', .letter = 'j', .name = "stats-json",			\
	.arg = TB_OPT_REQUIRED, .val = TB_VAL_FILE

/* Take option @opt with argument @arg if it is one of them: true. */
bool tb_collect_out_option(struct tb_collect_out *o, int opt,
			   const char *arg);

/*
 * The files next to the trace OUTPUT: OUTPUT.names, OUTPUT.map,
 * OUTPUT.tfile, OUTPUT.json and OUTPUT.tasks (util/companion.h).  A trace on
 * stdout ("-") has none but an explicit names file.
 */
struct tb_collect_paths {
	char *names, *map, *tfile, *json, *tasks; /* allocated, NULL for "-" */
};

/* Returns 0 or -ENOMEM. */
int tb_collect_paths_init(struct tb_collect_paths *p, const char *output);
void tb_collect_paths_free(struct tb_collect_paths *p);

/*
 * The post-processing's files from @p and the options @o: -n's names
 * file instead of OUTPUT.names, the tfile unless -N, the JSON only with
 * -J.  The caller sets f->known and f->syscalls.
 */
void tb_collect_post_files(struct tb_fdr_post_files *f,
			   const struct tb_collect_paths *p,
			   const char *output, const struct tb_collect_out *o);

/*
 * The command names of the tasks a trace may show (format/task_map.h): every
 * task in /proc, scanned when tracing starts and again when it ends, so
 * that a task that exec()s has its new name.  A task that both starts and
 * exits in between is not seen: readers show it as "tid N".
 */
void tb_collect_tasks_scan(struct tb_task_map *m);

/*
 * Write @m to @path (tb_output: whole or not at all) before the
 * post-processing's files, which name threads with it, as @p's META block
 * has it (tb_fdr_post_tasks(): with @p's capture id).  Returns 0 or
 * -errno.
 */
int tb_collect_tasks_write(const struct tb_fdr_post *p,
			   const struct tb_task_map *m, const char *path);

/*
 * The collector's lines of the META block's capture text
 * (format/fdr_meta.h, Documentation/formats.rst): "collector @collector",
 * "classes" the names of @classes (no line for 0: not known),
 * "clock @clock", "hostname" and
 * "release" of this machine when @this_machine (not for a crash dump of
 * another boot), "arguments" the collector's @argc words of @argv (no
 * such line when NULL).
 * Allocated; NULL when out of memory.
 */
/*
 * The clock of a capture's @len bytes at @raw, from its header's
 * frequency: "local_clock" (ns, Documentation/fdr.rst "Clock"), "tsc"
 * (x86) or "counter", "unknown" without a header.
 */
const char *tb_collect_clock(const void *raw, size_t len);

char *tb_collect_capture_text(const char *collector, uint32_t classes,
			      const char *clock, bool this_machine,
			      const char *arguments);

/*
 * The command line @argc words of @argv joined by spaces, line ends
 * made spaces, for "arguments": taken before the option parser moves
 * them (cli/opt.h).  Allocated; NULL when out of memory.
 */
char *tb_collect_cmdline(int argc, char *const argv[]);

/* A collector's own counter, written after the shared ones. */
struct tb_collect_count {
	const char *key;
	uint64_t value;
};

#define TB_COLLECT_MAX_COUNTS	16

/*
 * The statistics of one run.  Both collectors fill the shared fields
 * with the same meaning; the JSON keys are documented in
 * Documentation/tools.rst.
 */
struct tb_collect_stats {
	const char *output;	/* the trace file */
	uint32_t classes;	/* TRACEBUF_FDR_* asked for */
	/*
	 * Records written, all classes: an entry, an exit, a marker each
	 * (the device's "written"; "events" in the JSON, as it always was).
	 */
	uint64_t events;
	/* events: calls (entry and exit once), points, markers */
	uint64_t per_class[TB_FDR_NR_CLASSES];	/* by tb_fdr_classes[] */
	bool kfuncs;		/* kernel functions were traced (-f) */
	uint64_t kfunc_calls;	/* their calls recorded */
	/* typed events in the trace (tb_fdr_post's counts) */
	uint64_t switches, wakeups, errors;
	uint64_t bytes;		/* size of the trace written */
	uint64_t blocks;	/* blocks in it */
	uint64_t lost;		/* records lost, all classes */
	uint64_t unmatched;	/* exits without a recorded entry, left out */
	double duration;	/* seconds, from tracing on to the end */
	struct rusage ru0, ru1;	/* the collector's usage at those times */
	/* voluntary switches that were waits for its own writes, not wake-ups */
	long write_waits;
	int status;		/* the command's wait status, or -1 */
	bool raw;		/* -r: kernel ids, no map or tfile */
	const struct tb_fdr_post_files *files;	/* NULL: none written */
	/* lost events per class, or NULL when the collector cannot tell */
	const uint64_t *lost_per_class;
	struct tb_collect_count counts[TB_COLLECT_MAX_COUNTS];
	unsigned int nr_counts;
};

/*
 * Append a counter of the collector's own: 0, or -ENOSPC past
 * TB_COLLECT_MAX_COUNTS (a collector's bug: its tests write them all).
 */
int tb_collect_count(struct tb_collect_stats *s, const char *key,
		     uint64_t value);

/*
 * Leave out of the collector's usage (@s->ru1 - @s->ru0) what it used
 * from @a to @b: control work inside the measured span, such as stopping
 * the capture, that is not reading.
 */
void tb_collect_exclude(struct tb_collect_stats *s, const struct rusage *a,
			const struct rusage *b);

/* The command's status as one number: exit code, 128 + signal, or -1. */
int tb_collect_status(int status);

/*
 * The summary on @f (stderr: the trace may be on stdout):
 *
 *   PROG: N records in T s -> OUTPUT (B bytes, K blocks)
 *     N events: syscall N irq N ...@class_tail   (the classes asked for)
 *     lost N records@lost_tail; command exited S
 *     left out N exits ...                 (only when there are)
 *     names: F, map: F (llvm-xray -m), tfile: F   (the files written)
 *
 * @class_tail and @lost_tail (may be NULL) are the collector's details.
 */
void tb_collect_summary(FILE *f, const struct tb_collect_stats *s,
			const char *class_tail, const char *lost_tail);

/*
 * The statistics as one JSON object on one line (scripts append it to
 * JSON Lines files): the shared keys, then the collector's counters.
 */
void tb_collect_json(FILE *f, const struct tb_collect_stats *s);

/* tb_collect_json() into the file @path, written whole (util/output.h): 0 or -errno. */
int tb_collect_write_json(const char *path, const struct tb_collect_stats *s);

#endif /* TB_COLLECT_H */
