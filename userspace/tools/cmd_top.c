// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf top: a capture summarized every interval while it runs.  A
 * thread of its own reads the rings through the mapped reader
 * (lib/device/fdr_mmap.h) into memory; at each interval's end the main
 * thread takes what was read, and the report (lib/convert/fdr_top.c)
 * summarizes it while the reader goes on into a second buffer.  The
 * summary is printed (lib/convert/fdr_top_print.c): in place on a
 * terminal, sorted by a key a keystroke changes, or as successive blocks
 * or JSON lines.  This file is the command line and the loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "cli/cli.h"
#include "cli_opt.h"
#include "cmds.h"
#include "collect/collect.h"
#include "convert/fdr_post.h"
#include "convert/fdr_post_files.h"
#include "convert/fdr_report_class.h"
#include "convert/fdr_top.h"
#include "convert/fdr_top_print.h"
#include "device/fdr_dev.h"
#include "device/fdr_mmap.h"
#include "device/fdr_peek.h"
#include "device/fdr_spool.h"
#include "device/kfunc.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "syscall_names.h"	/* generated from the UAPI headers */
#include "tool.h"
#include "util/buf.h"
#include "util/parse.h"

/*
 * The wake-up amount top configures unless -w says otherwise: an
 * interval shows what the rings closed by its end, and a CPU closes its
 * page for the reader only once it holds this much (fdr.rst, "Zero-copy
 * reading"), so a quarter buffer (record's default) would leave a quiet
 * CPU's events out of interval after interval.
 */
#define TOP_WAKEUP	4096
#define TOP_TICK_MIN	0.01	/* seconds between two drains */
#define TOP_TICK_MAX	0.1
#define TOP_NAMES	10	/* rows of names in a block (not a terminal) */
/* A number as the help writes it: "10" for TOP_NAMES. */
#define TOP_STR(n)	TOP_STR_(n)
#define TOP_STR_(n)	#n
#define TOP_TASKS	5

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

enum {
	OPT_SAVE = TB_OPT_ID_FIRST_FREE, OPT_ATTACH, OPT_SORT, OPT_ROWS,
	OPT_ITERATIONS,
};

static const struct tb_opt top_opts[] = {
	{ TB_OPT_EVENTS,
	  .help = "classes, comma separated: syscall, irq, softirq, workqueue, fault, sched, marker, all (default syscall,irq,softirq,sched)" },
	{ TB_OPT_SIZE,
	  .help = "per-CPU buffer, power of two, 64K..64M (default 1M)" },
	{ TB_FDR_OPT_WAKEUP,
	  .arg_name = "BYTES", .help = "bytes a CPU holds before its page is read (default 4096)" },
	{ .id = 'i', .letter = 'i', .name = "interval",
	  .arg = TB_OPT_REQUIRED,
	  .arg_name = "SECS", .help = "0.1 to 3600 seconds (default 1)" },
	{ .id = OPT_ITERATIONS, .name = "iterations", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .help = "stop after N intervals (default: until q or a signal)" },
	{ .id = OPT_SORT, .name = "sort", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_WORD, .values = "count total p99 max",
	  .arg_name = "KEY", .help = "count (default), total, p99 or max" },
	{ .id = OPT_ROWS, .name = "rows", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .help = "names per block when not on a terminal (default " TOP_STR(TOP_NAMES) ", 0: all)" },
	{ TB_OPT_JSON,
	  .help = "one JSON line per interval, every name and task" },
	{ .id = OPT_SAVE, .name = "save", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_FILE,
	  .help = "also write the capture read, as record -r writes it (the trace's own names inside), and FILE.names (tracebuf report FILE)" },
	{ .id = OPT_ATTACH, .name = "attach",
	  .help = "follow the capture another process started, as it is configured, without taking its pages; ends when it does (tracebuf-top(1))" },
	{ TB_OPT_DEVICE,
	  .help = "device (default " TB_FDR_DEV_PATH ")" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_top_spec = {
	.name = "top", .opts = top_opts,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS]\n"
		"Capture kernel events with /dev/tracebuf_fdr and summarize them every\n"
		"interval as tracebuf report does: per event name the events that\n"
		"ended in the interval with the total, p50, p99 and max latency of its\n"
		"calls, and the busiest tasks; with the scheduler's events, the\n"
		"run-queue delays (wake-up to running), time off CPU by state and the\n"
		"tasks that waited most.  On a terminal the view is redrawn in place\n"
		"and keys change the order: c count, t total, p p99, m max; q quits.\n"
		"Otherwise each interval is printed as a block, or a JSON line.\n\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_top_spec, NULL);
	fputs("\nExamples:\n"
	      "  tracebuf top -e syscall,irq\n"
	      "  tracebuf top --json -i 0.5 --iterations 20 > top.jsonl\n\n"
	      "Exit status: 0 ok, 1 failure, 2 usage, 3 malformed input.\n", f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --------------------------------------------------------- the terminal */

static struct termios saved_tio;
static bool tio_saved;

static void tty_restore(void)
{
	if (tio_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	tio_saved = false;
}

/* Keys without Enter and without echo, until exit. */
static void tty_keys(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tio))
		return;
	t = saved_tio;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t))
		return;
	tio_saved = true;
	atexit(tty_restore);
}

/*
 * Rows of names that fit the terminal beside the headings and tasks,
 * and the scheduler lines when @cur has them (convert/fdr_top_print.h).
 */
static unsigned int tty_names(const struct tb_fdr_top *cur)
{
	unsigned int other = TOP_TASKS + 7;
	struct winsize ws;

	if (cur->sched.present)
		other += 4 + (cur->sched.ntasks < TOP_TASKS ?
			      (unsigned int)cur->sched.ntasks : TOP_TASKS + 1);
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_row)
		ws.ws_row = 24;
	/* 0 would mean all of them */
	return ws.ws_row > other + 1 ? ws.ws_row - other : 1;
}

/* -------------------------------------------------------- the capture */

/*
 * The capture and its reader thread.  t->lock guards what both threads
 * touch: the drains (t->m, t->pk, t->sp, t->bufs[t->fill]), t->fill,
 * t->gone and t->ended.
 */
struct top {
	int dev;
	bool attach;		/* following another's capture (t->pk) */
	struct tb_fdr_peek pk;
	struct tb_fdr_mmap m;
	struct tb_fdr_spool sp;
	int save;		/* --save's file, or -1 */
	uint64_t gen;
	struct tb_buf bufs[2];	/* the interval's stream, and the last one */
	unsigned int fill;	/* the one drained to (t->sp.mem) */
	const char *gone;	/* why the capture ended under us, or NULL */
	bool ended;		/* --attach: its owner stopped it */
	double last_drain;	/* top_drain_paced()'s, or 0 */
	uint32_t buf_size;	/* a ring's bytes: the pace of the drains */
	pthread_t reader;
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* the reader is to stop */
	bool started, reading, stop_reading;
};

/*
 * --attach: copy the pages closed since the last look into the
 * interval's stream; 1 once the capture stopped (all that closed was copied), -1 when
 * it is another one now (t->gone says so).
 */
static int top_peek(struct top *t)
{
	struct tracebuf_fdr_stats st;
	bool had = t->pk.has_header;
	int ret;

	/* Stopped before the look: the look is then its last. */
	if (tb_fdr_dev_stats(t->dev, &st, NULL))
		tool_die_errno(TB_EXIT_FAIL, "stats");
	ret = tb_fdr_peek_drain(&t->pk, t->sp.mem, &t->sp.bytes);
	/* A failed look may be the owner's new capture (a bigger page). */
	if (ret && ret != -ESTALE && ret != -ENOTTY &&
	    !tb_fdr_dev_stats(t->dev, &st, NULL) && st.gen != t->gen)
		ret = -ESTALE;
	if (ret == -ESTALE || (!ret && st.gen != t->gen)) {
		t->gone = "another process started or configured a capture";
		return -1;
	}
	if (ret == -ENOTTY)
		tool_die(TB_EXIT_FAIL, "--attach: this tracebuf module cannot be looked at without reading it (no TRACEBUF_FDR_IOC_PEEK); load the module of this version");
	if (ret) {
		errno = -ret;
		tool_die_errno(TB_EXIT_FAIL, "--attach");
	}
	if (!had && t->pk.has_header)
		tb_fdr_spool_header(&t->sp, t->pk.header);
	if (!st.running)
		t->ended = true;
	return !st.running;
}

/*
 * Drain the rings into the interval's stream; 1 once all was read, -1 when
 * the capture is another one now (t->gone says what became of ours).
 */
static int top_drain(struct top *t)
{
	struct tracebuf_fdr_stats st;
	int ret;

	if (t->attach)
		return top_peek(t);
	ret = tb_fdr_mmap_drain(&t->m, &t->sp);

	if (ret == -ESTALE || (ret < 0 && !t->sp.write_errno)) {
		t->gone = tb_fdr_dev_capture_gone(t->dev, t->gen, false, &st);
		if (ret == -ESTALE && !t->gone)
			t->gone = "its pages are of another capture";
		if (t->gone)
			return -1;
	}
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret < 0) {
		errno = t->sp.write_errno ? t->sp.write_errno : -ret;
		tool_die_errno(TB_EXIT_FAIL, "mapped read");
	}
	return ret;
}

/*
 * top_drain(), and *@tick for the next one: the time a quarter of a ring
 * of @buf_size bytes lasts at the rate of this drain.
 */
static int top_drain_paced(struct top *t, double *tick, uint32_t buf_size)
{
	uint64_t before = t->sp.bytes;
	double now = now_s(), rate;
	int ret = top_drain(t);

	if (t->last_drain && now > t->last_drain) {
		rate = (double)(t->sp.bytes - before) / (now - t->last_drain);
		*tick = rate > 0 ? buf_size / 4 / rate : TOP_TICK_MAX;
		if (*tick < TOP_TICK_MIN)
			*tick = TOP_TICK_MIN;
		if (*tick > TOP_TICK_MAX)
			*tick = TOP_TICK_MAX;
	}
	t->last_drain = now;
	return ret;
}

/*
 * The reader thread: drains on a timer, paced by top_drain_paced(),
 * until told to stop or the capture ends or is not ours any more.
 * Draining here and not between the main thread's summaries keeps a
 * summary from leaving the rings unread: a big interval's takes hundreds
 * of milliseconds under emulation, while a 1 MiB ring at make bench's
 * getppid() rate fills in 80, and top lost 8% of that workload's events
 * at 0.1 s intervals when it drained only between them.
 */
static void *top_read(void *arg)
{
	struct top *t = arg;
	double tick = TOP_TICK_MAX;

	pthread_mutex_lock(&t->lock);
	while (!t->stop_reading && !t->gone && !t->ended) {
		struct timespec ts;
		double at;

		if (top_drain_paced(t, &tick, t->buf_size) < 0)
			break;
		at = now_s() + tick;
		ts.tv_sec = (time_t)at;
		ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
		while (!t->stop_reading && now_s() < at &&
		       pthread_cond_timedwait(&t->wake, &t->lock, &ts) !=
		       ETIMEDOUT)
			;
	}
	t->reading = false;
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* Start the reader thread, with every signal left to the main thread. */
static void top_read_start(struct top *t)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int ret;

	if (pthread_mutex_init(&t->lock, NULL) ||
	    pthread_condattr_init(&ca) ||
	    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_cond_init(&t->wake, &ca))
		tool_die(TB_EXIT_FAIL, "cannot set up the reader thread");
	pthread_condattr_destroy(&ca);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	t->reading = true;
	ret = pthread_create(&t->reader, NULL, top_read, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		errno = ret;
		tool_die_errno(TB_EXIT_FAIL, "reader thread");
	}
	t->started = true;
}

/* Stop the reader thread and wait for it; once only. */
static void top_read_stop(struct top *t)
{
	if (!t->started)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop_reading = true;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->reader, NULL);
	t->started = false;
}

/* The capture ended under the reader (t->gone or t->ended say how). */
static bool top_read_over(struct top *t)
{
	bool over;

	pthread_mutex_lock(&t->lock);
	over = !t->reading;
	pthread_mutex_unlock(&t->lock);
	return over;
}

/*
 * Take the interval's stream: the reader goes on into the other buffer,
 * started with the header.  The caller holds t->lock, or the reader
 * thread is stopped.
 */
static struct tb_buf *top_swap(struct top *t)
{
	struct tb_buf *taken = &t->bufs[t->fill];

	t->fill ^= 1;
	t->sp.mem = &t->bufs[t->fill];
	t->sp.mem->len = 0;
	if (t->sp.has_header &&
	    tb_buf_append(t->sp.mem, t->sp.header, TB_FDR_SPOOL_HEADER))
		tool_die(TB_EXIT_FAIL, "out of memory");
	return taken;
}

/* Append the stream @b taken to --save's file: the header only once. */
static void top_save(struct top *t, const struct tb_buf *b, bool first)
{
	size_t skip = first ? 0 : TB_FDR_SPOOL_HEADER;

	if (t->save >= 0 && b->len > skip &&
	    write(t->save, (char *)b->data + skip, b->len - skip) !=
	    (ssize_t)(b->len - skip))
		tool_die_errno(TB_EXIT_FAIL, "--save");
}

/*
 * Print the interval shown (@clear: redrawn in place; @blank: a blank
 * line after it) and write it out whole.  Into memory first: stdio gives
 * up on a write() that a signal interrupts, so a ^C while top's reader
 * was slow (its output a full pipe) made top fail with "Interrupted
 * system call" instead of printing its last interval.  0 or -errno.
 */
static int top_print(struct tb_fdr_top *cur, struct tb_fdr_top_print *pr,
		     bool json, bool clear, bool blank)
{
	char *buf = NULL;
	size_t len = 0, off = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret = 0;

	if (!m)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (clear)
		fputs("\033[H\033[2J", m);
	if (json)
		tb_fdr_top_print_json(cur, pr, m);
	else
		tb_fdr_top_print_text(cur, pr, m);
	if (blank)
		fputc('\n', m);
	if (fclose(m))
		tool_die(TB_EXIT_FAIL, "out of memory");
	while (off < len) {
		ssize_t n = write(STDOUT_FILENO, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	free(buf);
	return ret;
}

/*
 * Names for the interval's tasks that have none yet, from /proc: not a
 * scan of every task each interval, whose system calls top would then
 * trace and show as its own busiest.
 */
static void top_name_task(const struct tb_fdr_top *t, struct tb_task_map *m,
			  int32_t tid, int32_t pid)
{
	char buf[TB_TASK_COMM_LEN];

	if (tb_task_map_idle_cpu(tid) >= 0 ||
	    tb_fdr_report_comm(&t->r, tid, pid, buf))
		return;
	tb_task_map_scan_pid(m, "/proc", pid > 0 ? pid : tid);
}

static void top_name_tasks(const struct tb_fdr_top *t, struct tb_task_map *m)
{
	size_t i;

	for (i = 0; i < t->ntasks; i++)
		top_name_task(t, m, t->tasks[i].task->tid,
			      t->tasks[i].task->pid);
	/* Those that waited for a CPU, as many as a block shows. */
	for (i = 0; i < t->sched.ntasks && i < TOP_TASKS; i++)
		top_name_task(t, m, t->sched.tasks[i].task->tid,
			      t->sched.tasks[i].pid);
}

/*
 * Stop the capture, or leave it be when it is not ours any more, and
 * read what is left of it unless it was restarted.
 */
static void top_stop(struct top *t, struct tracebuf_fdr_stats *st)
{
	if (t->gone)
		return;
	if (t->attach) {
		/* Not ours to stop: what closed until now is the last look. */
		top_drain(t);
		return;
	}
	t->gone = tb_fdr_dev_capture_gone(t->dev, t->gen, true, st);
	if (t->gone)
		tb_fdr_dev_disown();	/* not ours to stop */
	else if (tb_fdr_dev_stop_owned(t->dev))
		tool_die_errno(TB_EXIT_FAIL, "stop");
	/* Stopped, not restarted: the rest is ours to read. */
	if (!tb_fdr_dev_capture_gone(t->dev, t->gen, false, st))
		while (!top_drain(t))
			usleep(10000);
}

/* The kernel's names by kernel id, and the syscalls' (record's namer). */
static void top_names(int fd, struct tb_name_map *m)
{
	struct tb_fdr_syscalls sc = {
		syscall_names, ARRAY_SIZE(syscall_names),
	};
	struct tb_error err;
	char *text = tb_fdr_dev_names_text(fd);
	char name[64];
	size_t nr;

	if (text && tb_fdr_post_kernel_names(m, text))
		tool_die(TB_EXIT_FAIL, "out of memory");
	free(text);
	if (tb_name_map_finish(m, &err))
		tool_die(TB_EXIT_FAIL, "kernel names: %s", err.msg);
	/* The table is empty where the build has no names (32-bit ARM). */
	for (nr = 0; nr < sc.n; nr++) {
		uint32_t kid = TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr);

		if (!sc.names[nr] || tb_name_map_find(m, kid))
			continue;
		tb_fdr_post_syscall_namer(&sc, NULL, kid, name, sizeof(name));
		if (tb_name_map_add(m, kid, name))
			tool_die(TB_EXIT_FAIL, "out of memory");
	}
	if (tb_name_map_finish(m, &err))
		tool_die(TB_EXIT_FAIL, "kernel names: %s", err.msg);
}

/* --save's FILE.names: the names by the ids the saved stream has. */
static void top_save_names(const char *save, const struct tb_name_map *m)
{
	char *path;
	FILE *f;
	size_t i;

	if (asprintf(&path, "%s.names", save) < 0)
		tool_die(TB_EXIT_FAIL, "out of memory");
	f = fopen(path, "w");
	if (!f)
		tool_die_errno(TB_EXIT_FAIL, "%s", path);
	fprintf(f, "# function ids of %s (kernel ids), written by tracebuf top\n",
		save);
	for (i = 0; i < m->n; i++)
		fprintf(f, "%u %s\n", m->v[i].id, m->v[i].name);
	if (fclose(f))
		tool_die_errno(TB_EXIT_FAIL, "%s", path);
	free(path);
}

/*
 * A name for an id top had none for: the one the live view printed, the
 * report's (convert/fdr_report_class.h), so that the saved file's own
 * names read as the intervals did; record's namer would invent
 * "sys_62" where the view said "syscall_0x3e" (a number outside the
 * build's syscall table).
 */
static void top_namer(void *ctx, const struct tb_name_map *known,
		      uint32_t kid, char *out, size_t size)
{
	const char *n = tb_fdr_report_class_event(known, kid, out, size);

	if (n != out)
		snprintf(out, size, "%s", n);
}

/*
 * --save's file as tracebuf record -r writes its trace (convert/fdr_post.h,
 * raw mode): the stream's blocks in order after the META block (capture
 * facts, names, tasks) that lets tracebuf report read it alone, and
 * FILE.names again, now with the capture id the META block has.  The
 * stream was appended interval by interval, so that a top killed on the
 * way leaves what it read; here it is read back and written anew, whole
 * or not at all (tool_open_output()).  A FILE that is no regular file (a
 * pipe) cannot be read back: it keeps the bare stream.
 */
static void top_save_meta(const char *save, int fd,
			  const struct tb_name_map *names,
			  struct tb_task_map *tasks, uint32_t classes,
			  const char *cmdline)
{
	struct tb_fdr_post post = { .raw = true };
	struct tb_fdr_post_files files = {
		.trace = save, .known = names,
		.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
		.namer = top_namer,
	};
	struct tb_fdr_post_meta meta;
	struct tb_error err;
	struct stat sb;
	char *capture, *npath;
	void *raw;
	size_t len;
	FILE *f;

	if (fstat(fd, &sb))
		tool_die_errno(TB_EXIT_FAIL, "%s", save);
	if (S_ISREG(sb.st_mode) && !sb.st_size)
		return;		/* nothing was read, not even a header */
	if (!S_ISREG(sb.st_mode) || (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDWR) {
		tb_cli_warn("--save %s: not a regular file, written without the trace's own description (META block)",
			    save);
		return;
	}
	len = (size_t)sb.st_size;
	raw = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (raw == MAP_FAILED)
		tool_die_errno(TB_EXIT_FAIL, "%s", save);
	/* The tasks' names as they end, as record's */
	tb_collect_tasks_scan(tasks);
	capture = tb_collect_capture_text("top", classes,
					  tb_collect_clock(raw, len), true,
					  cmdline);
	if (!capture || asprintf(&npath, "%s.names", save) < 0)
		tool_die(TB_EXIT_FAIL, "out of memory");
	meta = (struct tb_fdr_post_meta){
		.capture = capture, .known = names,
		.syscalls = files.syscalls, .tasks = tasks,
		.namer = top_namer,
	};
	post.meta = &meta;
	/* whole or not at all; the map keeps the stream's own inode */
	f = tool_open_output(save);
	if (tb_fdr_post_run(&post, raw, len, f, &err))
		tool_die(TB_EXIT_DATA, "--save %s: %s", save, err.msg);
	tool_close_output(f, save);
	files.names = npath;
	if (tb_fdr_post_files(&post, &files, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	tb_fdr_post_free(&post);
	munmap(raw, len);
	free(capture);
	free(npath);
}

/*
 * --attach: follow the capture that runs, as its owner configured it,
 * with looks (TRACEBUF_FDR_IOC_PEEK) that take nothing from it: a
 * second reader would take pages from its reader, and a snapshot would
 * hold its writers back.  Its configuration and gen are left in @cfg and
 * t->gen.
 */
static void top_attach(struct top *t, struct tracebuf_fdr_config *cfg,
		       const struct tracebuf_fdr_stats *st)
{
	if (!st->running)
		tool_die(TB_EXIT_FAIL, "--attach: no capture is running on the device (start one with tracebuf record or tracebuf ctl start)");
	if (ioctl(t->dev, TRACEBUF_FDR_IOC_GET_CONFIG, cfg))
		tool_die_errno(TB_EXIT_FAIL, "--attach: its configuration");
	t->gen = st->gen;
	errno = -tb_fdr_peek_open(&t->pk, t->dev, st->nr_cpus, cfg->buf_size,
				  t->gen, true);
	if (errno)
		tool_die_errno(TB_EXIT_FAIL, "--attach");
}

/*
 * One run of tracebuf top, from its command line to its exit: what
 * cmd_top()'s steps hand each other (the reader's own state is @t).
 */
struct top_run {
	/* The command line. */
	struct tracebuf_fdr_config cfg;
	struct tb_fdr_report_opts o;	/* the summary's options */
	struct tb_fdr_top_print pr;
	enum tb_fdr_top_key key;
	const char *dev;
	const char *save;		/* --save's path, or NULL */
	bool json, attach, configured, tty;
	double interval;
	uint32_t iterations;		/* 0: until q or a signal */
	char *cmdline;			/* for --save's META block */
	/* The capture, and the intervals summarized. */
	struct top t;
	struct tb_name_map names;
	struct tb_kfuncs kfuncs;
	struct tracebuf_fdr_stats st;
	struct tb_task_map tasks;
	struct tb_fdr_top cur;		/* the last interval's summary */
	struct tb_fdr_report_sched_carry carry;
	bool have;			/* @cur holds one */
	bool quit;			/* q was pressed */
	double t0;			/* when the first interval began */
	uint64_t missed_before;		/* --attach: pages missed until now */
};

/* The options that are not the device's configuration. */
static void top__option(struct top_run *tr, int c, const char *optarg)
{
	uint32_t v;
	char *end;
	int ret;

	switch (c) {
	case 'i':
		errno = 0;
		tr->interval = strtod(optarg, &end);
		if (errno || end == optarg || *end || !(tr->interval >= 0.1) ||
		    tr->interval > 3600)
			tool_die(TB_EXIT_USAGE, "--interval '%s': expected seconds from 0.1 to 3600",
				 optarg);
		break;
	case OPT_ITERATIONS:
		if (tb_parse_u32(optarg, 1, UINT32_MAX, &tr->iterations))
			tool_die(TB_EXIT_USAGE, "--iterations '%s': expected a number from 1",
				 optarg);
		break;
	case OPT_SORT:
		ret = tb_fdr_top_key(optarg);
		if (ret < 0)
			tool_die(TB_EXIT_USAGE, "--sort '%s': expected count, total, p99 or max",
				 optarg);
		tr->key = (enum tb_fdr_top_key)ret;
		break;
	case OPT_ROWS:
		if (tb_parse_u32(optarg, 0, 100000, &v))
			tool_die(TB_EXIT_USAGE, "--rows '%s': expected a number from 0 to 100000",
				 optarg);
		tr->pr.names = v;
		break;
	case 'J':
		tr->json = true;
		break;
	case OPT_SAVE:
		tr->save = optarg;
		break;
	case OPT_ATTACH:
		tr->attach = true;
		break;
	case 'D':
		tr->dev = optarg;
		break;
	}
}

/* The command line, checked whole before the device is opened. */
static void top__parse(struct top_run *tr, int argc, char **argv)
{
	struct tb_opt_parser p;
	char msg[256];
	int c, ret;

	/* For --save's META block, before the parser moves the words. */
	tr->cmdline = tb_collect_cmdline(argc, argv);
	if (!tr->cmdline)
		tool_die(TB_EXIT_FAIL, "out of memory");
	/* A wait for a CPU read in one interval, ended in the next. */
	tr->o.sched_carry = &tr->carry;
	tb_opt_init(&p, &cmd_top_spec, NULL, argc, argv, 1);
	tr->cfg.wakeup = TOP_WAKEUP;
	while ((c = cli_opt_next(&p, usage))) {
		ret = tb_fdr_dev_config_opt(&tr->cfg, c, p.arg, msg,
					    sizeof(msg));
		if (ret < 0)
			cli_opt_bad_value(msg);
		if (ret) {
			tr->configured = true;
			continue;
		}
		top__option(tr, c, p.arg);
	}
	if (p.nr_operands)
		cli_opt_usage("no operands ('%s' is extra)", p.operands[0]);
	if (tr->attach && tr->configured)
		cli_opt_usage("--attach follows the capture as its owner configured it: no -e, -s or -w");
	tr->tty = !tr->json && isatty(STDOUT_FILENO);
}

/*
 * The device configured (or the capture to follow found), the names,
 * --save's file and the mapping; then the capture started and the
 * reader thread with it.
 */
static void top__start(struct top_run *tr)
{
	struct top *t = &tr->t;
	struct tb_error err;
	int ret;

	t->attach = tr->attach;
	t->dev = tool_open_device(tr->dev, (tr->attach ? O_RDONLY : O_RDWR) |
				  O_NONBLOCK);
	if (tr->attach) {
		if (tb_fdr_dev_stats(t->dev, &tr->st, NULL))
			tool_die_errno(TB_EXIT_FAIL, "stats");
		top_attach(t, &tr->cfg, &tr->st);
	} else {
		if (ioctl(t->dev, TRACEBUF_FDR_IOC_STOP))
			tool_die_errno(TB_EXIT_FAIL, "stop");
		if (ioctl(t->dev, TRACEBUF_FDR_IOC_CONFIG, &tr->cfg))
			tool_die_errno(TB_EXIT_FAIL, "configure");
		/* No kernel functions: a previous session's must not be traced. */
		tb_kfunc_set(t->dev, &tr->kfuncs, 0, &err);
	}
	top_names(t->dev, &tr->names);
	if (tr->save) {
		/* read back at the end: top_save_meta() */
		t->save = open(tr->save, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
			       0644);
		if (t->save < 0 && errno == EACCES)	/* a pipe's end */
			t->save = open(tr->save, O_WRONLY | O_CREAT | O_TRUNC |
				       O_CLOEXEC, 0644);
		if (t->save < 0)
			tool_die_errno(TB_EXIT_FAIL, "%s", tr->save);
		top_save_names(tr->save, &tr->names);
	}
	if (tb_fdr_dev_stats(t->dev, &tr->st, NULL))
		tool_die_errno(TB_EXIT_FAIL, "stats");
	if (!tr->attach) {
		errno = -tb_fdr_mmap_open(&t->m, t->dev, tr->cfg.buf_size,
					  tr->st.nr_cpus);
		if (errno)
			tool_die_errno(TB_EXIT_FAIL, "cannot map the rings");
	}
	tb_fdr_spool_init_mem(&t->sp, &t->bufs[0],
			      tr->cfg.buf_size / TRACEBUF_FDR_PAGES);
	t->buf_size = tr->cfg.buf_size;
	tb_task_map_init(&tr->tasks);
	tb_collect_tasks_scan(&tr->tasks);
	tb_collect_on_stop_signals(on_signal);
	/* A reader that goes away is a write error: the capture is stopped. */
	signal(SIGPIPE, SIG_IGN);

	if (!tr->attach) {
		ret = tb_fdr_dev_start_owned(t->dev, &tr->cfg, &t->gen);
		if (ret < 0)
			tool_die_errno(TB_EXIT_FAIL, "start");
		if (ret)
			tool_die(TB_EXIT_FAIL, "%s", TB_FDR_START_RACED);
		t->m.gen = t->gen;
	}
	top_drain(t);		/* the header at once */
	top_read_start(t);
	if (tr->tty)
		tty_keys();
	tr->t0 = now_s();
}

/*
 * Until @deadline, the capture's end, a signal or q: keys, while the
 * reader thread drains (top_read()).  A sort key redraws the interval
 * shown, sorted anew.
 */
static void top__keys(struct top_run *tr, double deadline)
{
	int ret;

	while (!got_signal && !tr->quit && !top_read_over(&tr->t)) {
		struct pollfd pf = { .fd = STDIN_FILENO, .events = POLLIN };
		double left = deadline - now_s();
		double wait = left < TOP_TICK_MAX ? left : TOP_TICK_MAX;
		char ch;

		if (left <= 0)
			break;
		ret = poll(&pf, tio_saved ? 1 : 0, (int)(wait * 1000) + 1);
		if (ret <= 0)
			continue;
		if (!(pf.revents & POLLIN) || read(STDIN_FILENO, &ch, 1) != 1)
			continue;
		if (ch == 'q') {
			tr->quit = true;
		} else if ((ret = tb_fdr_top_key((char[]){ ch, 0 })) >= 0) {
			tr->key = (enum tb_fdr_top_key)ret;
			if (!tr->have)
				continue;
			tb_fdr_top_sort(&tr->cur, tr->key);
			tr->pr.names = tty_names(&tr->cur);
			tr->pr.keys = true;
			top_print(&tr->cur, &tr->pr, false, true, false);
		}
	}
}

/*
 * Interval @k, begun at @start: its stream taken from the reader (all
 * of the rest if @last), summarized and printed.  True if it was the
 * last one, also because standard output's reader went away.
 */
static bool top__interval(struct top_run *tr, unsigned int k, double start,
			  bool last)
{
	struct tb_fdr_top_print *pr = &tr->pr;
	struct top *t = &tr->t;
	struct tb_buf *taken;
	struct tb_error err;
	int ret;

	if (last) {
		top_read_stop(t);
		/* Everything up to the stop is in the last interval. */
		top_stop(t, &tr->st);
		taken = top_swap(t);
	} else {
		/* Everything up to now: one drain more. */
		pthread_mutex_lock(&t->lock);
		if (t->reading)
			top_drain(t);
		taken = top_swap(t);
		pthread_mutex_unlock(&t->lock);
	}
	top_save(t, taken, k == 1);
	if (tr->have)
		tb_fdr_top_free(&tr->cur);
	/* The summary keeps nothing of the stream it is given. */
	ret = tb_fdr_top_run(&tr->cur, taken->data, taken->len, &tr->names,
			     &tr->tasks, &tr->o, tr->key, &err);
	pr->bytes = taken->len;
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret)
		tool_die(TB_EXIT_DATA, "interval %u: %s", k, err.msg);
	tr->have = true;
	top_name_tasks(&tr->cur, &tr->tasks);
	pr->interval = k;
	pr->start_s = start - tr->t0;
	pr->length_s = now_s() - start;
	if (tr->attach) {
		pr->attached = true;
		pr->missed = t->pk.missed - tr->missed_before;
		tr->missed_before = t->pk.missed;
	}
	if (tr->tty && !tr->json) {
		pr->names = tty_names(&tr->cur);
		pr->keys = true;
	}
	ret = top_print(&tr->cur, pr, tr->json, tr->tty && !tr->json,
			!tr->json && !tr->tty);
	if (ret) {
		/* Its reader is gone (| head): as a q, quietly. */
		errno = -ret;
		if (ret != -EPIPE)
			tool_die_errno(TB_EXIT_FAIL, "standard output");
		if (!last) {
			top_read_stop(t);
			top_stop(t, &tr->st);
			/* --save's rest */
			top_save(t, top_swap(t), false);
		}
		last = true;
	}
	return last;
}

/* --save's META block, everything closed and freed; the exit code. */
static int top__finish(struct top_run *tr)
{
	struct top *t = &tr->t;

	if (tr->have)
		tb_fdr_top_free(&tr->cur);
	tb_fdr_report_sched_carry_free(&tr->carry);
	tb_fdr_mmap_close(&t->m);
	if (tr->attach && t->pk.missed)
		tb_cli_warn("--attach: %" PRIu64 " of %" PRIu64 " pages were overwritten before top looked: the intervals leave them out",
			    t->pk.missed, t->pk.missed + t->pk.pages);
	tb_fdr_peek_close(&t->pk);
	if (t->save >= 0)
		top_save_meta(tr->save, t->save, &tr->names, &tr->tasks,
			      tr->cfg.classes, tr->cmdline);
	free(tr->cmdline);
	if (t->save >= 0 && close(t->save))
		tool_die_errno(TB_EXIT_FAIL, "%s", tr->save);
	tb_buf_free(&t->bufs[0]);
	tb_buf_free(&t->bufs[1]);
	tb_task_map_free(&tr->tasks);
	tb_name_map_free(&tr->names);
	tb_kfunc_free(&tr->kfuncs);
	close(t->dev);
	/* A capture followed ends as its owner says: not a failure. */
	if (tr->attach && (t->gone || t->ended)) {
		tb_cli_warn("the capture ended: %s",
			    t->gone ? t->gone : "its owner stopped it");
		return TB_EXIT_OK;
	}
	if (t->gone) {
		tb_fdr_dev_disown();
		tb_cli_warn("the capture ended under tracebuf top: %s", t->gone);
		return TB_EXIT_FAIL;
	}
	return TB_EXIT_OK;
}

int cmd_top(int argc, char **argv)
{
	struct top_run tr = {
		.cfg = TB_FDR_CONFIG_DEFAULT,
		.o = {
			.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
			.cpu = TB_REPORT_NO_FILTER,
		},
		.pr = { .names = TOP_NAMES, .tasks = TOP_TASKS },
		.key = TB_FDR_TOP_COUNT,
		.dev = TB_FDR_DEV_PATH,
		.interval = 1,
		.t = { .save = -1 },
	};
	bool last = false;
	unsigned int k;

	tb_cli_init(argv[0]);
	top__parse(&tr, argc, argv);
	top__start(&tr);
	for (k = 1; !last; k++) {
		double start = now_s();

		top__keys(&tr, tr.t0 + k * tr.interval);
		last = got_signal || tr.quit || top_read_over(&tr.t) ||
		       (tr.iterations && k == tr.iterations);
		last = top__interval(&tr, k, start, last);
	}
	return top__finish(&tr);
}
