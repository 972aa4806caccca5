// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf record --trigger: see record_trigger.h.  The loop waits in
 * poll() for EPOLLPRI (the kernel froze the rings after the trigger's
 * window), reads the frozen recording with SNAPSHOT, writes it out
 * through the collector's post-processing (lib/convert/fdr_post.h), removes the
 * oldest file set beyond --keep, and arms again, which resumes recording.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cmds.h"
#include "device/fdr_dev.h"
#include "format/name_map.h"
#include "record_trigger.h"
#include "tool.h"
#include "util/buf.h"

/* Trace number @n: OUT-NNNNNN.fdr (OUT without its .fdr). */
static char *file_name(const struct record_trigger *rt, unsigned long n)
{
	size_t base = strlen(rt->out);
	char *p;

	if (base > 4 && !strcmp(rt->out + base - 4, ".fdr"))
		base -= 4;
	if (asprintf(&p, "%.*s-%06lu.fdr", (int)base, rt->out, n) < 0)
		tool_die(TB_EXIT_FAIL, "out of memory");
	return p;
}

static void remove_one(const char *p)
{
	if (p && unlink(p) && errno != ENOENT)
		tb_cli_warn_errno("%s", p);
}

/* Trace @n and its companions (lib/collect/collect.h names them). */
static void remove_set(const struct record_trigger *rt, unsigned long n)
{
	struct tb_collect_paths paths;
	char *trace = file_name(rt, n);

	if (tb_collect_paths_init(&paths, trace))
		tool_die(TB_EXIT_FAIL, "out of memory");
	remove_one(trace);
	remove_one(paths.names);
	remove_one(paths.map);
	remove_one(paths.tfile);
	remove_one(paths.json);
	remove_one(paths.tasks);
	tb_collect_paths_free(&paths);
	free(trace);
}

/* The frozen recording: SNAPSHOT, then read to EOF. */
static uint8_t *read_snapshot(int fd, size_t *len)
{
	struct tb_buf b = { 0 };
	ssize_t n;

	if (ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT))
		tool_die_errno(TB_EXIT_FAIL, "snapshot");
	for (;;) {
		if (tb_buf_reserve(&b, 65536))
			tool_die(TB_EXIT_FAIL, "out of memory");
		n = read(fd, (char *)b.data + b.len, b.cap - b.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			tool_die_errno(TB_EXIT_FAIL, "read");
		if (!n) {
			*len = b.len;
			return b.data;
		}
		b.len += n;
	}
}

static void write_set(int fd, const struct record_trigger *rt,
		      unsigned long n, const uint8_t *raw, size_t len)
{
	struct tb_collect_paths paths;
	char *trace = file_name(rt, n);
	struct tb_fdr_post post = { .raw = rt->opts.raw };
	struct tb_name_map known = { 0 };
	struct tb_fdr_post_meta meta;
	struct tb_fdr_post_files files;
	struct tb_task_map tasks;
	struct tb_error err;
	char *text;
	FILE *f;

	if (tb_collect_paths_init(&paths, trace))
		tool_die(TB_EXIT_FAIL, "out of memory");
	text = tb_fdr_dev_names_text(fd);
	if (text && *text && (tb_fdr_post_kernel_names(&known, text) ||
			      tb_name_map_finish(&known, &err)))
		tool_die(TB_EXIT_FAIL, "kernel names");
	free(text);
	/*
	 * The tasks as the trigger found them and the kernel's names, before
	 * the trace whose META block holds them, and the JSON that names them.
	 */
	tb_task_map_init(&tasks);
	tb_collect_tasks_scan(&tasks);
	text = tb_collect_capture_text("record", rt->classes,
				       tb_collect_clock(raw, len), true,
				       rt->cmdline);
	if (!text)
		tool_die(TB_EXIT_FAIL, "out of memory");
	meta = (struct tb_fdr_post_meta){
		.capture = text, .known = &known, .syscalls = rt->syscalls,
		.tasks = &tasks,
	};
	post.meta = &meta;
	f = tool_open_output(trace);
	if (tb_fdr_post_run(&post, raw, len, f, &err))
		tool_die(TB_EXIT_DATA, "device stream: %s", err.msg);
	tool_close_output(f, trace);
	free(text);
	errno = -tb_collect_tasks_write(&post, &tasks, paths.tasks);
	if (errno)
		tool_die_errno(TB_EXIT_FAIL, "%s", paths.tasks);
	tb_task_map_free(&tasks);
	files = (struct tb_fdr_post_files){
		.known = &known, .syscalls = rt->syscalls,
	};
	tb_collect_post_files(&files, &paths, trace,
			      &(struct tb_collect_out){
				.no_tfile = rt->opts.no_tfile,
				.json = rt->opts.json });
	if (tb_fdr_post_files(&post, &files, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	if (!rt->opts.quiet)
		printf("%s: %llu blocks, %llu bytes\n", trace,
		       (unsigned long long)post.blocks,
		       (unsigned long long)post.bytes);
	tb_name_map_free(&known);
	tb_fdr_post_free(&post);
	tb_collect_paths_free(&paths);
	free(trace);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * TRIGGER failed: ESRCH when another process stopped the capture first,
 * which is what to say then.  What became of the capture, or exit.
 */
static const char *arm_failed(int fd, uint64_t gen,
			      struct tracebuf_fdr_stats *st)
{
	int e = errno;
	const char *gone = tb_fdr_dev_capture_gone(fd, gen, true, st);

	if (!gone) {
		errno = e;
		tool_die_errno(TB_EXIT_FAIL, "arming the trigger");
	}
	return gone;
}

int record_trigger_run(int fd, const struct tracebuf_fdr_config *cfg,
		       const struct record_trigger *rt,
		       volatile sig_atomic_t *stop)
{
	struct tracebuf_fdr_trigger off = { 0 };
	struct tracebuf_fdr_stats st;
	const char *gone = NULL;
	double t0 = now_s();
	unsigned long n = 0;
	uint8_t *raw;
	uint64_t gen;
	size_t len;
	int ret;

	/* The capture the files are of (tracebuf_fdr_stats.gen). */
	ret = tb_fdr_dev_start_owned(fd, cfg, &gen);
	if (ret < 0)
		tool_die_errno(TB_EXIT_FAIL, "start");
	if (ret)
		tool_die(TB_EXIT_FAIL, "%s", TB_FDR_START_RACED);
	if (ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, &rt->trig)) {
		if (errno == EPERM)
			tool_die(TB_EXIT_FAIL, "arming the trigger: %s",
				 TB_FDR_KPROBES_EPERM);
		gone = arm_failed(fd, gen, &st);
	}
	if (!gone && !rt->opts.quiet)
		printf("recording (%s), waiting for a trigger\n",
		       tb_fdr_dev_mode_name(cfg->mode));
	fflush(stdout);
	while (!gone && !*stop &&
	       (!rt->duration || now_s() - t0 < rt->duration)) {
		struct pollfd p = { .fd = fd, .events = POLLPRI };

		if (poll(&p, 1, 100) <= 0 || !(p.revents & POLLPRI)) {
			/* Stopped or restarted by another: no trigger comes. */
			gone = tb_fdr_dev_capture_gone(fd, gen, true, &st);
			if (gone)
				break;
			continue;
		}
		raw = read_snapshot(fd, &len);
		/* A snapshot of another capture is not this daemon's. */
		gone = tb_fdr_dev_capture_gone(fd, gen, true, &st);
		if (gone) {
			free(raw);
			break;
		}
		write_set(fd, rt, ++n, raw, len);
		free(raw);
		if (n > rt->keep)
			remove_set(rt, n - rt->keep);
		/* Arming again resumes recording. */
		if (ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, &rt->trig)) {
			gone = arm_failed(fd, gen, &st);
			break;
		}
		/*
		 * Said once armed again: whoever watches the log may make the
		 * next trigger happen now, and it will be caught.
		 */
		if (!rt->opts.quiet)
			printf("trigger %lu: condition %u, %llu events after it\n",
			       n, st.trig_cond,
			       (unsigned long long)st.trig_after);
		fflush(stdout);
	}
	if (gone) {
		tb_fdr_dev_disown();	/* not ours to stop or disarm any more */
		tb_cli_warn("the capture ended under the trigger daemon: %s; %lu trigger file sets were written before",
			    gone, n);
		return TB_EXIT_FAIL;
	}
	/* Before STOP, which keeps the counters but disarms. */
	if (tb_fdr_dev_stats(fd, &st, NULL))
		tool_die_errno(TB_EXIT_FAIL, "stats");
	if (ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, &off) ||
	    tb_fdr_dev_stop_owned(fd))
		tool_die_errno(TB_EXIT_FAIL, "stop");
	/* What the frozen rings turned away while each set was saved. */
	if (!rt->opts.quiet)
		printf("%lu triggers, newest %u kept; %llu events not recorded while frozen\n",
		       n, rt->keep, (unsigned long long)st.trig_frozen);
	return TB_EXIT_OK;
}
