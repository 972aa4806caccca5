/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tracebuf report and tracebuf diff share on their command lines,
 * so that a filter means the same in both and a trace is read and its
 * errors said the same way: the filters' values (--pid, --events,
 * --time, --before) into struct tb_fdr_report_opts, a trace's companion
 * files, and one trace read into a struct tb_fdr_report.  Each exits
 * with the tools' status on a bad value or input (cli/cli.h).
 */
#ifndef TB_REPORT_CLI_H
#define TB_REPORT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/fdr_report.h"

/* The classes -e takes (convert/fdr_report_class.h). */
#define REPORT_CLI_CLASS_WORDS \
	"syscall irq softirq workqueue fault sched marker kfunc function"

/* --time FROM,TO (seconds, or with ms, us, ns) into @o. */
void report_cli_window(const char *arg, struct tb_fdr_report_opts *o);

/* --before MS (a plain number is milliseconds) into @o. */
void report_cli_before(const char *arg, struct tb_fdr_report_opts *o);

/* --events LIST: a bit per class. */
uint32_t report_cli_classes(const char *arg);

/* A number from 0 to @max given to option @opt (--pid, --top). */
int64_t report_cli_id(const char *opt, const char *arg, uint32_t max);

/*
 * @path ("-": stdin) as a seekable stream: the report may read it twice
 * (--time, --before, a capture that must be ordered first).
 */
FILE *report_cli_open(const char *path);

/*
 * A companion of trace @input: @given (which must exist), else INPUT
 * followed by @suffix if it exists, else (or with @off) NULL.
 */
char *report_cli_companion(const char *input, const char *given,
			   const char *suffix, bool off);

/* Load names file @path (--map or a companion) into @names. */
void report_cli_names(struct tb_name_map *names, const char *path);

/*
 * Read trace @path, open as @in (closed here), into @r; an input that
 * is not an FDR trace is named with the command that reads it.  The
 * reader's warning (a cut file) goes to stderr.
 */
void report_cli_read(struct tb_fdr_report *r, const char *path, FILE *in,
		     const struct tb_name_map *names,
		     const struct tb_task_map *tasks,
		     const struct tb_fdr_report_opts *o, bool folded);

#endif /* TB_REPORT_CLI_H */
