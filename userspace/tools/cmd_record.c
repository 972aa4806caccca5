// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf record: capture kernel events with /dev/tracebuf_fdr.
 *
 * Configures and starts the recorder, runs a command (or waits for -d
 * seconds, or for SIGINT/SIGTERM), drains the device, and hands the
 * stream to the library's collector post-processing (lib/fdr_post.h:
 * block order, dense ids, unmatched exits, names file and ELF map), then
 * prints a summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "fdr_dev.h"
#include "fdr_post.h"
#include "fdr_trigger.h"
#include "name_map.h"
#include "cmds.h"
#include "record_trigger.h"
#include "tb_cli.h"
#include "syscall_names.h"	/* generated from the UAPI headers */

#define DEFAULT_OUT	"trace.fdr"

/* volatile sig_atomic_t: what C requires for a flag set by a handler. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void print_help(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [--] [COMMAND [ARG...]]\n"
"\n"
"Record kernel events with /dev/tracebuf_fdr into an XRay FDR file.\n"
"Records while COMMAND runs, for -d seconds, or until SIGINT/SIGTERM.\n"
"Writes FILE, FILE.names (\"ID NAME\"), FILE.map (ELF instrumentation\n"
"map: llvm-xray account -m FILE.map) and FILE.tfile (GDB trace file, as\n"
"tracebuf convert fdr-tfile writes it).  Function ids in FILE are dense (1..N); FILE.names\n"
"gives each one's kernel id.\n"
"\n"
"Options:\n"
"  -o, --output FILE     trace file (default " DEFAULT_OUT ")\n"
"  -n, --names FILE      names file (default: FILE.names)\n"
"  -e, --events LIST     classes, comma separated: syscall, irq, softirq,\n"
"                        workqueue, fault, sched, marker, all\n"
"                        (default syscall,irq,softirq,sched)\n"
"  -m, --mode MODE       stream (default: drain while recording, drop\n"
"                        when full) or flight (keep the newest data,\n"
"                        snapshot at the end)\n"
"  -s, --size SIZE       per-CPU buffer, power of two, 64K..64M (default 1M)\n"
"  -a, --args N          syscall arguments to record, 0..6 (default 0)\n"
"  -w, --wakeup BYTES    stream mode: bytes committed on a CPU before the\n"
"                        reader wakes (default 0: a quarter buffer)\n"
"  -d, --duration SECS   stop after SECS seconds\n"
"  -D, --device PATH     device (default " TB_FDR_DEV_PATH ")\n"
"  -r, --raw             write the device's blocks unchanged: kernel\n"
"                        function ids, and exits whose entry is not in\n"
"                        the capture (llvm-xray stack/account reject them)\n"
"  -N, --no-tfile        do not write FILE.tfile (GDB trace file)\n"
"  -J, --json            also write FILE.json (trace_event JSON for\n"
"                        Perfetto, as tracebuf convert fdr-json writes it)\n"
"  -q, --quiet           no summary\n"
"  -j, --stats-json FILE write the recorder's counters as one JSON line:\n"
"                        events, bytes, lost (dropped + overwritten),\n"
"                        dropped, overwritten, reader_ns (this tool's CPU\n"
"                        time while recording and draining)\n"
"      --start           only configure and start recording, then exit\n"
"                        (read later with cat " TB_FDR_DEV_PATH "); the same\n"
"                        as tracebuf fdr stop, config, start\n"
"      --stop            only stop recording and print the counters\n"
RECORD_TRIGGER_HELP
"  -h, --help            this text\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 recorded, 1 failure, 2 bad usage, 3 malformed data.\n",
		tb_prog());
}

/* ------------------------------------------------------------ buffer */

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t more)
{
	if (b->cap - b->len >= more)
		return;
	while (b->cap - b->len < more)
		b->cap = b->cap ? b->cap * 2 : 1 << 20;
	b->p = realloc(b->p, b->cap);
	if (!b->p)
		tb_die(TB_EXIT_FAIL, "out of memory");
}

/* Read what the device has now; 0 at EOF, -1 if it would block. */
static int drain_once(int fd, struct buf *b)
{
	ssize_t n;

	buf_reserve(b, 256 << 10);
	n = read(fd, b->p + b->len, b->cap - b->len);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return -1;
		tb_die_errno(TB_EXIT_FAIL, "read");
	}
	b->len += n;
	return n > 0;
}

/* The kernel's id list (TRACEBUF_FDR_IOC_NAMES), by kernel id. */
static void kernel_names(int fd, struct tb_name_map *m)
{
	struct tb_error err;
	char *text = tb_fdr_names_text(fd);

	if (!text || !*text) {
		tb_warn_errno("names ioctl");
		free(text);
		return;
	}
	if (tb_fdr_post_kernel_names(m, text))
		tb_die(TB_EXIT_FAIL, "out of memory");
	free(text);
	if (tb_name_map_finish(m, &err))
		tb_die(TB_EXIT_FAIL, "kernel names: duplicate id");
}

/* ------------------------------------------------------------ main */

static int print_stats(int fd)
{
	struct tracebuf_fdr_stats st;

	if (tb_fdr_stats(fd, &st, NULL))
		tb_die_errno(TB_EXIT_FAIL, "stats");
	tb_fdr_print_totals(stdout, &st);
	return TB_EXIT_OK;
}

static pid_t start_command(char **argv, int *go_fd)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		tb_die_errno(TB_EXIT_FAIL, "pipe");
	pid = fork();
	if (pid < 0)
		tb_die_errno(TB_EXIT_FAIL, "fork");
	if (pid == 0) {
		char c;

		close(pfd[1]);
		/* Wait until capture runs, so the command is recorded whole. */
		if (read(pfd[0], &c, 1) != 1)
			_exit(127);
		close(pfd[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", tb_prog(), argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	*go_fd = pfd[1];
	return pid;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rusage_ns(const struct rusage *ru)
{
	return (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ULL +
	       (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ULL;
}

/* For scripts and make bench: the same keys as tracebuf bpf's. */
static void write_stats_json(const char *path,
			     const struct tracebuf_fdr_stats *st,
			     const struct rusage *ru0, const struct rusage *ru1)
{
	FILE *j = tb_open_output(path);

	fprintf(j, "{\"events\": %llu, \"bytes\": %llu, \"lost\": %llu, ",
		(unsigned long long)st->written, (unsigned long long)st->bytes,
		(unsigned long long)(st->dropped + st->overwritten));
	fprintf(j, "\"dropped\": %llu, \"overwritten\": %llu, \"reader_ns\": %llu}\n",
		(unsigned long long)st->dropped,
		(unsigned long long)st->overwritten,
		(unsigned long long)(rusage_ns(ru1) - rusage_ns(ru0)));
	tb_close_output(j, path);
}

int cmd_record(int argc, char **argv)
{
	static const struct option record_opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "names", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'D' },
		{ "raw", no_argument, NULL, 'r' },
		{ "no-tfile", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'J' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats-json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "start", no_argument, NULL, 'S' },
		{ "stop", no_argument, NULL, 'T' },
		{ "trigger", required_argument, NULL, 'G' },
		{ "keep", required_argument, NULL, 'K' },
		{ "post-events", required_argument, NULL, 'P' },
		{ "post-time", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = tb_fdr_config_longopts(record_opts);
	struct tracebuf_fdr_config cfg = TB_FDR_CONFIG_DEFAULT;
	const char *out = DEFAULT_OUT, *names = NULL, *dev = TB_FDR_DEV_PATH;
	const char *stats_json = NULL;
	struct rusage ru0, ru1;
	struct tracebuf_fdr_stats st;
	struct tb_fdr_post post = { 0 };
	struct tb_fdr_post_files files = {
		.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
	};
	struct tb_name_map known = { 0 };
	struct buf raw = { 0 };
	struct tb_error err;
	int control = 0, mode_given = 0;
	uint64_t v;
	double duration = 0, t0;
	int opt, fd, go_fd = -1, status = 0, quiet = 0;
	char *names_buf = NULL, *map_path = NULL, *tfile_path = NULL;
	char *json_path = NULL;
	int no_tfile = 0, json = 0;
	pid_t child = 0;
	struct record_trigger rt = {
		.keep = 10, .trig.post_events = 1000,
		.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
	};
	FILE *f;

	tb_cli_init(argv[0]);
	while ((opt = getopt_long(argc, argv, "+o:n:d:D:j:rNJqhV" TB_FDR_CONFIG_SHORTOPTS,
				  opts, NULL)) != -1) {
		mode_given |= opt == 'm';
		if (tb_fdr_config_opt(&cfg, opt, optarg))
			continue;
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'n':
			names = optarg;
			break;
		case 'd':
			if (tb_parse_u64(optarg, 1, 86400 * 365, &v))
				tb_die(TB_EXIT_USAGE, "bad duration '%s'", optarg);
			duration = v;
			break;
		case 'D':
			dev = optarg;
			break;
		case 'r':
			post.raw = true;
			break;
		case 'N':
			no_tfile = 1;
			break;
		case 'J':
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'j':
			stats_json = optarg;
			break;
		case 'S':
			control = 'S';
			break;
		case 'T':
			control = 'T';
			break;
		case 'G':
			if (rt.trig.nr_conds == TRACEBUF_FDR_TRIG_MAX)
				tb_die(TB_EXIT_USAGE, "at most %d --trigger",
				       TRACEBUF_FDR_TRIG_MAX);
			if (tb_fdr_trig_parse(optarg, &rt.syscalls,
					      &rt.trig.conds[rt.trig.nr_conds++], &err))
				tb_die(TB_EXIT_USAGE, "--trigger %s: %s", optarg,
				       err.msg);
			break;
		case 'K':
			if (tb_parse_u32(optarg, 1, 1000000, &rt.keep))
				tb_die(TB_EXIT_USAGE, "bad --keep '%s' (1..1000000)", optarg);
			break;
		case 'P':
			if (tb_parse_u32(optarg, 0, TRACEBUF_FDR_TRIG_EVENTS_MAX,
					 &rt.trig.post_events))
				tb_die(TB_EXIT_USAGE, "bad --post-events '%s' (0..%u)",
				       optarg, TRACEBUF_FDR_TRIG_EVENTS_MAX);
			break;
		case 'M':
			if (tb_fdr_trig_parse_us(optarg, &v) ||
			    v > TRACEBUF_FDR_TRIG_USECS_MAX)
				tb_die(TB_EXIT_USAGE, "bad --post-time '%s' (0us..60s)",
				       optarg);
			rt.trig.post_usecs = v;
			break;
		default:
			tb_cli_std_option(opt, print_help);
		}
	}
	names_buf = malloc(strlen(out) + 7);
	map_path = malloc(strlen(out) + 5);
	tfile_path = malloc(strlen(out) + 7);
	json_path = malloc(strlen(out) + 6);
	if (!names_buf || !map_path || !tfile_path || !json_path)
		tb_die(TB_EXIT_FAIL, "out of memory");
	sprintf(names_buf, "%s.names", out);
	sprintf(map_path, "%s.map", out);
	sprintf(tfile_path, "%s.tfile", out);
	sprintf(json_path, "%s.json", out);
	if (!names)
		names = names_buf;

	if (rt.trig.nr_conds) {
		if (cfg.mode == TRACEBUF_FDR_MODE_STREAM && mode_given)
			tb_die(TB_EXIT_USAGE, "--trigger records in flight mode, not stream");
		if (optind < argc || control)
			tb_die(TB_EXIT_USAGE, "--trigger runs until a signal or -d: no COMMAND, --start or --stop");
		cfg.mode = TRACEBUF_FDR_MODE_FLIGHT;
	}
	fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		tb_die_errno(TB_EXIT_FAIL, "%s", dev);
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP))
		tb_die_errno(TB_EXIT_FAIL, "stop");
	if (control == 'T')
		return print_stats(fd);
	if (ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &cfg))
		tb_die_errno(TB_EXIT_FAIL, "configure");
	if (control == 'S') {
		if (ioctl(fd, TRACEBUF_FDR_IOC_START))
			tb_die_errno(TB_EXIT_FAIL, "start");
		return TB_EXIT_OK;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (rt.trig.nr_conds) {
		rt.out = out;
		rt.duration = duration;
		rt.raw = post.raw;
		rt.no_tfile = no_tfile;
		rt.json = json;
		rt.quiet = quiet;
		return record_triggered(fd, &cfg, &rt, &got_signal);
	}
	if (optind < argc)
		child = start_command(argv + optind, &go_fd);
	getrusage(RUSAGE_SELF, &ru0);
	if (ioctl(fd, TRACEBUF_FDR_IOC_START))
		tb_die_errno(TB_EXIT_FAIL, "start");
	t0 = now_s();
	if (child) {
		if (write(go_fd, "g", 1) != 1)
			tb_die_errno(TB_EXIT_FAIL, "starting the command");
		close(go_fd);
	}

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (got_signal)
			break;
		if (child && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (!child && optind < argc)
			break;
		if (duration && now_s() - t0 >= duration)
			break;
		if (cfg.mode == TRACEBUF_FDR_MODE_STREAM &&
		    poll(&p, 1, 100) > 0)
			drain_once(fd, &raw);
		else if (cfg.mode != TRACEBUF_FDR_MODE_STREAM)
			usleep(50000);
	}
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP))
		tb_die_errno(TB_EXIT_FAIL, "stop");
	if (child) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	if (cfg.mode == TRACEBUF_FDR_MODE_FLIGHT) {
		raw.len = 0;
		if (ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT))
			tb_die_errno(TB_EXIT_FAIL, "snapshot");
	}
	while (drain_once(fd, &raw))
		;
	getrusage(RUSAGE_SELF, &ru1);
	if (tb_fdr_stats(fd, &st, NULL))
		tb_die_errno(TB_EXIT_FAIL, "stats");
	if (stats_json)
		write_stats_json(stats_json, &st, &ru0, &ru1);

	f = tb_open_output(out);
	if (tb_fdr_post_run(&post, raw.p, raw.len, f, &err))
		tb_die(TB_EXIT_DATA, "device stream: %s", err.msg);
	tb_close_output(f, out);
	kernel_names(fd, &known);
	files.trace = out;
	files.names = names;
	files.map = map_path;
	files.tfile = no_tfile ? NULL : tfile_path;
	files.json = json ? json_path : NULL;
	files.known = &known;
	if (tb_fdr_post_files(&post, &files, &err))
		tb_die(TB_EXIT_FAIL, "%s", err.msg);
	tb_name_map_free(&known);
	close(fd);

	if (!quiet) {
		printf("%s: %llu blocks, %llu bytes\n", out,
		       (unsigned long long)post.blocks,
		       (unsigned long long)post.bytes);
		printf("events: syscall %llu, irq %llu, softirq %llu, work %llu, fault %llu, task %llu, marker %llu\n",
		       (unsigned long long)post.enters[TRACEBUF_FDR_SPACE_SYSCALL],
		       (unsigned long long)post.enters[TRACEBUF_FDR_SPACE_IRQ],
		       (unsigned long long)post.enters[TRACEBUF_FDR_SPACE_SOFTIRQ],
		       (unsigned long long)post.enters[TRACEBUF_FDR_SPACE_WORK],
		       (unsigned long long)post.enters[TRACEBUF_FDR_SPACE_FAULT],
		       (unsigned long long)post.enters[TRACEBUF_FDR_SPACE_TASK],
		       (unsigned long long)post.markers);
		tb_fdr_print_totals(stdout, &st);
		if (post.removed)
			printf("left out %llu exits whose entry precedes the capture or was lost (-r keeps them)\n",
			       (unsigned long long)post.removed);
		if (post.raw)
			printf("names: %s (kernel ids; no map or tfile with -r)\n", names);
		else
			printf("names: %s, map: %s (llvm-xray -m), tfile: %s\n",
			       names, map_path, no_tfile ? "-" : tfile_path);
		if (json)
			printf("trace_event JSON: %s\n", json_path);
		if (optind < argc && WIFEXITED(status) && WEXITSTATUS(status))
			printf("command exited with status %d\n",
			       WEXITSTATUS(status));
	}
	tb_fdr_post_free(&post);
	free(raw.p);
	free(names_buf);
	free(map_path);
	free(tfile_path);
	free(json_path);
	return TB_EXIT_OK;
}
