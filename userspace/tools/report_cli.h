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

#include "cli/opt.h"
#include "convert/fdr_report.h"

/* The classes -e takes (convert/fdr_report_class.h). */
#define REPORT_CLI_CLASS_WORDS \
	"syscall irq softirq workqueue fault sched marker kfunc function"

/* Ids of the filter options; a command's own ids start at _END. */
enum {
	REPORT_CLI_OPT_TID = TB_OPT_ID_FIRST_FREE,
	REPORT_CLI_OPT_NAME,
	REPORT_CLI_OPT_TIME,
	REPORT_CLI_OPT_BEFORE,
	REPORT_CLI_OPT_END,
};

/*
 * The filters as entries of a command's option table, the same in every
 * command that reads traces as report does: -p, --tid, -C, -e, --name,
 * --time, --before, with their help texts; those of -C, --time and
 * --before say what the command makes of them.  report_cli_filter()
 * takes their values.
 */
#define REPORT_CLI_FILTER_OPTS(cpu_help, time_help, before_help) \
	{ .id = 'p', .letter = 'p', .name = "pid", .arg = TB_OPT_REQUIRED, \
	  .val = TB_VAL_NUMBER, .arg_name = "PID", \
	  .help = "only the events of process PID" }, \
	{ .id = REPORT_CLI_OPT_TID, .name = "tid", .arg = TB_OPT_REQUIRED, \
	  .val = TB_VAL_NUMBER, .arg_name = "TID", \
	  .help = "only the events of thread TID" }, \
	{ TB_OPT_CPU, .help = cpu_help }, \
	{ TB_OPT_EVENTS_OF(REPORT_CLI_CLASS_WORDS), \
	  .help = "only these classes, comma separated: syscall, irq, softirq, workqueue, fault, sched, marker, kfunc, function" }, \
	{ .id = REPORT_CLI_OPT_NAME, .name = "name", .arg = TB_OPT_REQUIRED, \
	  .arg_name = "GLOB", \
	  .help = "only the event names GLOB matches (sys_*)" }, \
	{ .id = REPORT_CLI_OPT_TIME, .name = "time", .arg = TB_OPT_REQUIRED, \
	  .arg_name = "FROM,TO", .help = time_help }, \
	{ .id = REPORT_CLI_OPT_BEFORE, .name = "before", \
	  .arg = TB_OPT_REQUIRED, .val = TB_VAL_NUMBER, .arg_name = "MS", \
	  .help = before_help }

/*
 * Option @id of REPORT_CLI_FILTER_OPTS with its value @arg into @o:
 * true if @id is one of them (a bad value exits), false otherwise.
 */
bool report_cli_filter(int id, const char *arg,
		       struct tb_fdr_report_opts *o);

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

/* The same for @in, already open from @path: a copy when it cannot seek. */
FILE *report_cli_seekable(FILE *in, const char *path);


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
