// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf record: capture kernel events with /dev/tracebuf_fdr.
 *
 * Configures and starts the recorder, runs a command (or waits for -d
 * seconds, or for SIGINT/SIGTERM/SIGHUP), drains the device, and hands the
 * stream to the library's collector post-processing (lib/convert/fdr_post.h:
 * block order, dense ids, unmatched exits, names file and ELF map), then
 * prints a summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "cli_opt.h"
#include "cmds.h"
#include "collect/collect.h"
#include "convert/fdr_post.h"
#include "convert/fdr_post_files.h"
#include "device/dev.h"
#include "device/fdr_dev.h"
#include "device/fdr_mmap.h"
#include "device/fdr_trigger.h"
#include "device/kfunc.h"
#include "format/fdr_classes.h"
#include "format/name_map.h"
#include "record_trigger.h"
#include "syscall_names.h"	/* generated from the UAPI headers */
#include "tool.h"
#include "util/buf.h"
#include "util/parse.h"

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
		"Records while COMMAND runs, for -d seconds, or until SIGINT/SIGTERM/SIGHUP.\n"
		"Writes FILE, FILE.names (\"ID NAME\"), FILE.map (ELF instrumentation\n"
		"map: llvm-xray account -m FILE.map) and FILE.tfile (GDB trace file, as\n"
		"tracebuf convert fdr-tfile writes it).  Function ids in FILE are dense (1..N); FILE.names\n"
		"gives each one's kernel id.\n"
		"\n"
		"Options:\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_record_spec, NULL);
	fprintf(f,
		"\n"
		"Examples:\n"
		"  tracebuf record -e syscall,sched -- make -j2 && tracebuf report\n"
		"  tracebuf record --trigger 'syscall>5ms' --keep 5 -o slow.fdr\n"
		"\n"
		"Exit status: 0 ok (recorded), 1 failure (also a COMMAND that cannot run),\n"
		"2 usage, 3 malformed input.\n");
}

/*
 * The read() path.  A file's reads are of the capture its first read
 * found running, until EOF: START and CONFIG end that capture with an
 * EOF, and the read after it begins the next capture from its header
 * (ioctl-fdr.rst).  So the first read is this capture's only if the
 * capture number has not moved since START when it has returned, and
 * nothing is read past an EOF.
 */
struct reader {
	struct tb_buf b;
	uint64_t gen;		/* the capture started; 0: a module without */
	bool bound;		/* the file's reads are of capture @gen */
	bool eof;		/* read to EOF: the next read is another's */
};

/* A new output of the file (SNAPSHOT) is bound anew. */
static void reader_reset(struct reader *r)
{
	r->b.len = 0;
	r->bound = false;
	r->eof = false;
}

/*
 * Read what the device has now; 1 if something was read, 0 at EOF (also
 * when what the first read returned may be another capture's: it is then
 * dropped), -1 if it would block.
 */
static int drain_once(int fd, struct reader *r)
{
	struct tracebuf_fdr_stats st;
	ssize_t n;

	if (r->eof)
		return 0;
	if (tb_buf_reserve(&r->b, 256 << 10))
		tool_die(TB_EXIT_FAIL, "out of memory");
	n = read(fd, (char *)r->b.data + r->b.len, r->b.cap - r->b.len);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return -1;
		tool_die_errno(TB_EXIT_FAIL, "read");
	}
	if (!n) {
		r->eof = true;
		return 0;
	}
	if (!r->bound) {
		if (tb_fdr_dev_stats(fd, &st, NULL))
			tool_die_errno(TB_EXIT_FAIL, "stats");
		if (r->gen && st.gen != r->gen) {
			r->eof = true;	/* its next reads are not ours either */
			return 0;
		}
		r->bound = true;
	}
	r->b.len += n;
	return 1;
}

/*
 * Wait for a stopped stream whose rest another file holds (a page it is
 * partway through, pages lent to it).  Modules before 2026-11-29 say
 * such a stream is readable at once: no more than 100 reads a second.
 */
static void wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 100) > 0)
		usleep(10000);
}

/*
 * Zero-copy streaming: the rings' pages go from the mapping to an unlinked
 * spool file beside the output (in $TMPDIR for stdout), with O_DIRECT
 * where its file system has it (device/fdr_spool.h), which the post-processing
 * then reads as it reads the buffer of the read() path.
 */
struct spool {
	struct tb_fdr_mmap m;
	struct tb_fdr_spool out;
	int fd;
	void *map;
	char *dir;		/* where the spool is, for messages */
};

/* False when the module cannot be mapped (one older than mmap()). */
static bool spool_open(struct spool *sp, int dev, const char *out,
		       const struct tracebuf_fdr_config *cfg, bool direct)
{
	const char *slash = strrchr(out, '/');
	const char *tmp = getenv("TMPDIR");
	struct tracebuf_fdr_stats st;
	char *path;
	int ret;

	if (!strcmp(out, "-"))
		ret = asprintf(&path, "%s/tracebuf-XXXXXX", tmp ? tmp : "/tmp");
	else if (slash)
		ret = asprintf(&path, "%.*s/.tracebuf-XXXXXX",
			       (int)(slash - out), out);
	else
		ret = asprintf(&path, ".tracebuf-XXXXXX");
	if (ret < 0)
		tool_die(TB_EXIT_FAIL, "out of memory");
	/* Not for COMMAND: it would keep the spool, and its file system, busy. */
	sp->fd = mkostemp(path, O_CLOEXEC);
	if (sp->fd < 0)
		tool_die_errno(TB_EXIT_FAIL, "%s", path);
	unlink(path);
	slash = strrchr(path, '/');
	sp->dir = slash ? strndup(path, slash - path) : strdup(".");
	free(path);
	if (!sp->dir)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (tb_fdr_dev_stats(dev, &st, NULL))
		tool_die_errno(TB_EXIT_FAIL, "stats");
	errno = -tb_fdr_mmap_open(&sp->m, dev, cfg->buf_size, st.nr_cpus);
	if (errno == ENODEV) {
		close(sp->fd);
		return false;
	}
	if (errno)
		tool_die_errno(TB_EXIT_FAIL, "cannot map the rings (--no-mmap reads instead)");
	tb_fdr_spool_init(&sp->out, sp->fd, sp->m.page_size, direct);
	return true;
}

/*
 * Write what the rings have now; 1 once everything was read, -1 when the
 * capture is another one now (tb_fdr_mmap_drain()'s -ESTALE, or MMAP_GET
 * refused by a device configured anew).  O_DIRECT writes block, which
 * getrusage() counts as voluntary switches: those are waits for our own
 * writes, not wake-ups (*@write_waits).
 */
static int spool_drain(struct spool *sp, long *write_waits)
{
	struct tracebuf_fdr_stats st;
	struct rusage a, b;
	int ret;

	getrusage(RUSAGE_SELF, &a);
	ret = tb_fdr_mmap_drain(&sp->m, &sp->out);
	getrusage(RUSAGE_SELF, &b);
	*write_waits += b.ru_nvcsw - a.ru_nvcsw;
	if (ret == -ESTALE)
		return -1;	/* another capture's pages: not taken */
	/* EINVAL: another process configured a flight recorder since. */
	if (ret < 0 && !sp->out.write_errno &&
	    tb_fdr_dev_capture_gone(sp->m.fd, sp->m.gen, false, &st))
		return -1;
	if (ret < 0) {
		errno = sp->out.write_errno ? sp->out.write_errno : -ret;
		if (sp->out.write_errno)
			tool_die_errno(TB_EXIT_FAIL, "cannot write the spool file in %s",
				       sp->dir);
		tool_die_errno(TB_EXIT_FAIL, "mapped read");
	}
	return ret;
}

/* Everything was read: the spool, mapped, as the stream to post-process. */
/* @raw then is the spool file's mapping: never grown, unmapped at the end. */
static void spool_finish(struct spool *sp, struct tb_buf *raw)
{
	uint64_t len;

	tb_fdr_mmap_close(&sp->m);
	errno = -tb_fdr_spool_finish(&sp->out, &len);
	if (errno)
		tool_die_errno(TB_EXIT_FAIL, "cannot compact the spool file in %s",
			       sp->dir);
	raw->len = len;
	/* Nothing: not even the header of a capture of its own. */
	if (!len)
		return;
	sp->map = mmap(NULL, raw->len, PROT_READ, MAP_PRIVATE, sp->fd, 0);
	if (sp->map == MAP_FAILED)
		tool_die_errno(TB_EXIT_FAIL, "spool");
	raw->data = sp->map;
}

/* The kernel's id list (TRACEBUF_FDR_IOC_NAMES), by kernel id. */
static void kernel_names(int fd, struct tb_name_map *m)
{
	struct tb_error err;
	char *text = tb_fdr_dev_names_text(fd);

	if (!text || !*text) {
		tb_cli_warn_errno("names ioctl");
		free(text);
		return;
	}
	if (tb_fdr_post_kernel_names(m, text))
		tool_die(TB_EXIT_FAIL, "out of memory");
	free(text);
	if (tb_name_map_finish(m, &err))
		tool_die(TB_EXIT_FAIL, "kernel names: duplicate id");
}

/* ------------------------------------------------------------ main */

/*
 * The kernel functions of -f, or none: the list is the device's, and a
 * previous session's must not be recorded silently.
 */
static void set_kfuncs(int fd, const char *pats, int verbose,
		       struct tb_kfuncs *k)
{
	struct tb_error err;

	if (!pats) {
		/* An older module has no list to clear. */
		tb_kfunc_set(fd, k, 0, &err);
		return;
	}
	if (tb_kfunc_select_kernel(pats, NULL, tb_kfunc_limit(0), k, &err))
		tool_die(TB_EXIT_USAGE, "%s", err.msg);
	if (verbose)
		tb_kfunc_print(k);
	if (tb_kfunc_set(fd, k, 0, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
}

static int print_stats(int fd)
{
	struct tracebuf_fdr_stats st;

	if (tb_fdr_dev_stats(fd, &st, NULL))
		tool_die_errno(TB_EXIT_FAIL, "stats");
	tb_fdr_dev_print_totals(stdout, &st);
	return TB_EXIT_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The statistics (collect/collect.h): the device's counters for what was
 * recorded and lost, the post-processing's for the file.
 */
static void report(struct tb_collect_stats *s, uint32_t wakeup,
		   const struct tracebuf_fdr_stats *st,
		   const struct tb_fdr_post *post, bool quiet,
		   const char *stats_json)
{
	char lost_tail[96];
	size_t i;

	s->events = st->written;
	s->bytes = post->bytes;
	s->blocks = post->out_blocks;
	s->lost = st->dropped + st->overwritten;
	s->unmatched = post->removed;
	s->raw = post->raw;
	s->switches = post->switches;
	s->wakeups = post->wakeups;
	s->errors = post->rets;
	tb_collect_count(s, "switch_events", post->switches);
	tb_collect_count(s, "wakeup_events", post->wakeups);
	tb_collect_count(s, "syscall_errors", post->rets);
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		s->per_class[i] = tb_fdr_classes[i].bit == TRACEBUF_FDR_MARKER ?
				  post->markers :
				  post->enters[tb_fdr_classes[i].space];
	if (post->enters[TRACEBUF_FDR_SPACE_KFUNC] || st->kfunc_missed) {
		s->kfuncs = true;
		s->kfunc_calls = post->enters[TRACEBUF_FDR_SPACE_KFUNC];
		tb_collect_count(s, "kfunc_calls",
				 post->enters[TRACEBUF_FDR_SPACE_KFUNC]);
		tb_collect_count(s, "kfunc_missed", st->kfunc_missed);
	}
	if (post->closed)
		tb_collect_count(s, "lost_exits_closed", post->closed);
	tb_collect_count(s, "wakeup_bytes", wakeup);
	tb_collect_count(s, "dropped", st->dropped);
	tb_collect_count(s, "overwritten", st->overwritten);
	tb_collect_count(s, "committed_bytes", st->bytes);
	if (!quiet) {
		snprintf(lost_tail, sizeof(lost_tail),
			 " (dropped %llu, overwritten %llu)",
			 (unsigned long long)st->dropped,
			 (unsigned long long)st->overwritten);
		tb_collect_summary(stderr, s, NULL, lost_tail);
	}
	if (stats_json)
		tool_check(tb_collect_write_json(stats_json, s),
			   "error writing '%s'", stats_json);
}

/* Options without a letter. */
enum {
	OPT_NO_DIRECT = TB_OPT_ID_FIRST_FREE, OPT_NO_MMAP, OPT_START, OPT_STOP,
	OPT_TRIGGER, OPT_KEEP, OPT_POST_EVENTS, OPT_POST_TIME,
};

static const struct tb_opt record_opts[] = {
	{ TB_OPT_OUTPUT, .help = "trace file (default " DEFAULT_OUT ")" },
	{ TB_OPT_NAMES, .help = "names file (default: FILE.names)" },
	{ TB_OPT_EVENTS,
	  .help = "classes, comma separated: syscall, irq, softirq, workqueue, fault, sched, marker, all\n"
		  "(default syscall,irq,softirq,sched)" },
	{ TB_FDR_OPT_MODE, .arg_name = "MODE",
	  .help = "stream (default: drain while recording, drop when full) or flight (keep the newest data, snapshot at the end)" },
	{ TB_FDR_OPT_MODE_OLD },
	{ TB_OPT_SIZE,
	  .help = "per-CPU buffer, power of two, 64K..64M (default 1M)" },
	{ TB_FDR_OPT_ARGS,
	  .help = "syscall arguments to record, 0..6 (default 0)" },
	{ TB_FDR_OPT_WAKEUP, .arg_name = "BYTES",
	  .help = "stream mode: bytes committed on a CPU before the reader wakes (default 0: a quarter buffer)" },
	{ .id = 'f', .letter = 'f', .name = "functions", .arg = TB_OPT_REQUIRED,
	  .arg_name = "LIST",
	  .help = "also record these kernel functions' calls and returns: names or globs, comma separated, as set_ftrace_filter takes them (vfs_read,ext4_*); the list is written to FILE.kfuncs" },
	{ TB_OPT_VERBOSE, .help = "print the chosen kernel functions" },
	{ TB_OPT_DURATION, .help = "stop after SECS seconds (1 to a year)" },
	{ TB_OPT_DEVICE, .help = "device (default " TB_FDR_DEV_PATH ")" },
	{ .id = OPT_NO_MMAP, .name = "no-mmap",
	  .help = "stream mode: read the device with read() instead of writing its pages out from a read-only mapping of the rings (the default)" },
	{ .id = OPT_NO_DIRECT, .name = "no-direct",
	  .help = "stream mode, mapped: write the pages through the page cache, not with O_DIRECT where the output's file system has it (the default)" },
	{ TB_COLLECT_OPT_RAW,
	  .help = "write the device's blocks unchanged: kernel function ids, and exits whose entry is not in the capture (llvm-xray stack/account reject them)" },
	{ TB_COLLECT_OPT_NO_TFILE,
	  .help = "do not write FILE.tfile (GDB trace file)" },
	{ TB_OPT_JSON,
	  .help = "also write FILE.json (trace_event JSON for Perfetto, as tracebuf convert fdr-json writes it)" },
	{ TB_OPT_QUIET, .help = "no summary (on stderr)" },
	{ TB_COLLECT_OPT_STATS_JSON,
	  .help = "write the statistics as one JSON line, the keys of tracebuf bpf's (events, bytes, blocks, lost, reader_ns: this tool's CPU time while recording and draining, ...) plus the recorder's dropped, overwritten and committed_bytes (tools.rst)" },
	{ .id = OPT_START, .name = "start",
	  .help = "only configure and start recording, then exit (read later with cat " TB_FDR_DEV_PATH "); the same as tracebuf fdr stop, config, start" },
	{ .id = OPT_STOP, .name = "stop",
	  .help = "only stop recording and print the counters" },
	{ .id = OPT_TRIGGER, .name = "trigger", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_TRIGGER, .values = RECORD_TRIGGER_WORDS,
	  .help = RECORD_TRIGGER_HELP },
	{ .id = OPT_KEEP, .name = "keep", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER, .arg_name = "K",
	  .help = "keep the newest K trigger files (default 10)" },
	{ .id = OPT_POST_EVENTS, .name = "post-events", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .help = "after the trigger, record N more events before freezing (default 1000)" },
	{ .id = OPT_POST_TIME, .name = "post-time", .arg = TB_OPT_REQUIRED,
	  .arg_name = "DUR",
	  .help = "... or DUR (us, ms, s), whichever comes first (default: no time limit)" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_record_spec = {
	.name = "record", .opts = record_opts, .operands = TB_VAL_COMMAND,
	.in_order = true,
};

/*
 * One recording, from its command line to its files: what cmd_record()'s
 * steps hand each other (the command line, then the device and the
 * capture, then what was read of it and the files written from it).
 */
struct record {
	/* The command line. */
	struct tracebuf_fdr_config cfg;
	const char *out;
	const char *dev;
	const char *kfunc_pats;		/* -f, or NULL */
	struct tb_collect_out oo;	/* -r -N -J -q -n -j */
	int verbose;
	bool use_mmap;
	bool direct;
	int control;			/* OPT_START, OPT_STOP or 0 */
	double duration;
	struct record_trigger rt;
	char *cmdline;			/* for the META block */
	char **operands;		/* COMMAND */
	int nr_operands;
	/* The device and the capture. */
	int fd;
	uint64_t gen;
	struct tb_kfuncs kfuncs;
	struct tb_collect_cmd cmd;
	pid_t child;
	struct tb_task_map tasks;
	struct spool sp;
	struct reader rd;
	double t0;
	struct rusage stop0, stop1;	/* around STOP: not the reader's time */
	struct tracebuf_fdr_stats st;
	const char *gone;		/* why the capture is not ours, or NULL */
	bool restarted;			/* nothing the device holds is ours */
	struct tb_collect_stats stats;
	/* What was read, and the files written from it. */
	struct tb_buf raw;
	struct tb_collect_paths paths;
	struct tb_fdr_post post;
	struct tb_fdr_post_meta meta;	/* post.meta */
	struct tb_fdr_post_files files;
	struct tb_name_map known;
};

/* The options that are not the device's configuration nor -r -N -J -q. */
static void record__option(struct record *rec, int opt, const char *optarg)
{
	struct record_trigger *rt = &rec->rt;
	struct tb_error err;
	char msg[256];
	uint64_t v;

	switch (opt) {
	case 'o':
		rec->out = optarg;
		break;
	case 'd':
		if (tb_optval_seconds("--duration", optarg, &v, msg,
				      sizeof(msg)))
			cli_opt_bad_value(msg);
		rec->duration = v;
		break;
	case 'f':
		rec->kfunc_pats = optarg;
		break;
	case 'v':
		rec->verbose = 1;
		break;
	case 'D':
		rec->dev = optarg;
		break;
	case OPT_NO_DIRECT:
		rec->direct = false;
		break;
	case OPT_NO_MMAP:
		rec->use_mmap = false;
		break;
	case OPT_START:
		rec->control = OPT_START;
		break;
	case OPT_STOP:
		rec->control = OPT_STOP;
		break;
	case OPT_TRIGGER:
		if (rt->trig.nr_conds == TRACEBUF_FDR_TRIG_MAX)
			tool_die(TB_EXIT_USAGE, "at most %d --trigger",
				 TRACEBUF_FDR_TRIG_MAX);
		if (tb_fdr_trigger_parse(optarg, &rt->syscalls,
					 &rt->trig.conds[rt->trig.nr_conds++], &err))
			tool_die(TB_EXIT_USAGE, "--trigger %s: %s", optarg,
				 err.msg);
		break;
	case OPT_KEEP:
		if (tb_parse_u32(optarg, 1, 1000000, &rt->keep))
			tool_die(TB_EXIT_USAGE, "--keep '%s': a number from 1 to 1000000 expected",
				 optarg);
		break;
	case OPT_POST_EVENTS:
		if (tb_parse_u32(optarg, 0, TRACEBUF_FDR_TRIG_EVENTS_MAX,
				 &rt->trig.post_events))
			tool_die(TB_EXIT_USAGE,
				 "--post-events '%s': a number from 0 to %u expected",
				 optarg, TRACEBUF_FDR_TRIG_EVENTS_MAX);
		break;
	case OPT_POST_TIME:
		if (tb_fdr_trigger_parse_us(optarg, &v) ||
		    v > TRACEBUF_FDR_TRIG_USECS_MAX)
			tool_die(TB_EXIT_USAGE, "--post-time '%s': a time from 0us to 60s expected",
				 optarg);
		rt->trig.post_usecs = v;
		break;
	}
}

/* The command line, checked whole before the device is opened. */
static void record__parse(struct record *rec, int argc, char **argv)
{
	struct tb_opt_parser op;
	bool mode_given = false;
	char msg[256];
	int opt, ret;

	/* For the META block, before the parser moves the words. */
	rec->cmdline = tb_collect_cmdline(argc, argv);
	if (!rec->cmdline)
		tool_die(TB_EXIT_FAIL, "out of memory");
	tb_opt_init(&op, &cmd_record_spec, NULL, argc, argv, 1);
	while ((opt = cli_opt_next(&op, print_help))) {
		mode_given |= opt == TB_FDR_ID_MODE;
		ret = tb_fdr_dev_config_opt(&rec->cfg, opt, op.arg, msg,
					    sizeof(msg));
		if (ret < 0)
			cli_opt_bad_value(msg);
		if (ret || tb_collect_out_option(&rec->oo, opt, op.arg))
			continue;
		record__option(rec, opt, op.arg);
	}
	rec->operands = op.operands;
	rec->nr_operands = op.nr_operands;
	if (tb_collect_paths_init(&rec->paths, rec->out))
		tool_die(TB_EXIT_FAIL, "out of memory");
	tb_collect_post_files(&rec->files, &rec->paths, rec->out, &rec->oo);
	rec->post.raw = rec->oo.raw;

	if (rec->rt.trig.nr_conds) {
		if (rec->cfg.mode == TRACEBUF_FDR_MODE_STREAM && mode_given)
			tool_die(TB_EXIT_USAGE, "--trigger records in flight mode, not stream");
		if (rec->nr_operands || rec->control)
			tool_die(TB_EXIT_USAGE, "--trigger runs until a signal or -d: no COMMAND, --start or --stop");
		rec->cfg.mode = TRACEBUF_FDR_MODE_FLIGHT;
	}
}

/*
 * The device stopped and configured, with the kernel functions of -f:
 * -1 to record, or the exit code of --start and --stop, which end here.
 */
static int record__setup(struct record *rec)
{
	rec->fd = tool_open_device(rec->dev, O_RDWR | O_NONBLOCK);
	if (ioctl(rec->fd, TRACEBUF_FDR_IOC_STOP))
		tool_die_errno(TB_EXIT_FAIL, "stop");
	if (rec->control == OPT_STOP)
		return print_stats(rec->fd);
	if (ioctl(rec->fd, TRACEBUF_FDR_IOC_CONFIG, &rec->cfg))
		tool_die_errno(TB_EXIT_FAIL, "configure");
	set_kfuncs(rec->fd, rec->kfunc_pats, rec->verbose, &rec->kfuncs);
	if (rec->control == OPT_START) {
		if (ioctl(rec->fd, TRACEBUF_FDR_IOC_START))
			tool_die_errno(TB_EXIT_FAIL, "start");
		return TB_EXIT_OK;
	}
	return -1;
}

/* --trigger: record_trigger.h's loop writes the files. */
static int record__trigger(struct record *rec)
{
	rec->rt.out = rec->out;
	rec->rt.duration = rec->duration;
	rec->rt.opts = rec->oo;
	rec->rt.classes = rec->cfg.classes;
	rec->rt.cmdline = rec->cmdline;
	return record_trigger_run(rec->fd, &rec->cfg, &rec->rt, &got_signal);
}

/* The stream's next part into the spool or the buffer: as drain_once(). */
static int record__drain_once(struct record *rec)
{
	if (rec->use_mmap)
		return spool_drain(&rec->sp, &rec->stats.write_waits);
	return drain_once(rec->fd, &rec->rd);
}

/* COMMAND forked, the capture started, then COMMAND let go. */
static void record__start(struct record *rec)
{
	int ret;

	rec->stats.output = rec->out;
	rec->stats.classes = rec->cfg.classes;
	rec->use_mmap &= rec->cfg.mode == TRACEBUF_FDR_MODE_STREAM;
	if (rec->use_mmap)
		rec->use_mmap = spool_open(&rec->sp, rec->fd, rec->out,
					   &rec->cfg, rec->direct);
	if (rec->nr_operands) {
		errno = -tb_collect_cmd_fork(&rec->cmd, rec->operands,
					     !strcmp(rec->out, "-"));
		if (errno)
			tool_die_errno(TB_EXIT_FAIL, "cannot fork");
	}
	/* Names of the tasks: read before tracing, not traced. */
	tb_task_map_init(&rec->tasks);
	tb_collect_tasks_scan(&rec->tasks);
	/* The capture this file is of: no other one's records follow it. */
	ret = tb_fdr_dev_start_owned(rec->fd, &rec->cfg, &rec->gen);
	if (ret < 0)
		tool_die_errno(TB_EXIT_FAIL, "start");
	if (ret)
		tool_die(TB_EXIT_FAIL, "%s", TB_FDR_START_RACED);
	rec->sp.m.gen = rec->gen;
	rec->rd.gen = rec->gen;
	/*
	 * Its header at once: the file holds it even if another process
	 * restarts the device before anything else was read, and a read()
	 * under way is what makes poll() report such a restart.
	 */
	if (rec->cfg.mode == TRACEBUF_FDR_MODE_STREAM)
		record__drain_once(rec);
	/*
	 * The reader's time is recording and draining: START and STOP
	 * (probe registration, grace periods) are control, not reading.
	 */
	getrusage(RUSAGE_SELF, &rec->stats.ru0);
	rec->t0 = now_s();
	if (rec->nr_operands) {
		errno = -tb_collect_cmd_start(&rec->cmd);
		if (errno) {
			int e = errno;

			/* Nothing to record: leave the device stopped. */
			tb_fdr_dev_stop_owned(rec->fd);
			errno = e;
			tool_die_errno(TB_EXIT_FAIL, "cannot run '%s'",
				       rec->operands[0]);
		}
		rec->child = rec->cmd.pid;
		/* Its name after exec(): it may be gone by the end. */
		tb_task_map_scan_pid(&rec->tasks, "/proc", rec->child);
	}
}

/* Until COMMAND ends, -d, a signal, or the capture is not ours. */
static void record__loop(struct record *rec)
{
	int drained;

	for (;;) {
		struct pollfd p = { .fd = rec->fd, .events = POLLIN };

		if (got_signal)
			break;
		if (rec->child &&
		    waitpid(rec->child, &rec->stats.status, WNOHANG) == rec->child) {
			rec->child = 0;
			break;
		}
		if (!rec->child && rec->nr_operands)
			break;
		if (rec->duration && now_s() - rec->t0 >= rec->duration)
			break;
		/*
		 * The end of the stream, or a quiet moment: is the capture
		 * still ours?  Another process may have stopped it, or
		 * restarted the device, whose next read is another capture.
		 * An EOF is always one of those: the loop ends.
		 */
		if (rec->cfg.mode != TRACEBUF_FDR_MODE_STREAM)
			drained = !usleep(50000);
		else if (poll(&p, 1, 100) > 0)
			drained = rec->use_mmap ?
				  spool_drain(&rec->sp, &rec->stats.write_waits) :
				  !drain_once(rec->fd, &rec->rd);
		else
			drained = 1;	/* a quiet moment */
		if (drained) {
			rec->gone = tb_fdr_dev_capture_gone(rec->fd, rec->gen,
							    true, &rec->st);
			if (rec->gone)
				break;
		}
	}
}

/* The capture stopped (if still ours), COMMAND ended, flight's snapshot. */
static void record__stop(struct record *rec)
{
	int fd = rec->fd;

	/* Whatever ended the loop: a capture that is not ours is not stopped. */
	if (!rec->gone)
		rec->gone = tb_fdr_dev_capture_gone(fd, rec->gen, true,
						    &rec->st);
	getrusage(RUSAGE_SELF, &rec->stop0);
	if (rec->gone)
		tb_fdr_dev_disown();	/* what runs now is not ours to stop */
	else if (tb_fdr_dev_stop_owned(fd))
		tool_die_errno(TB_EXIT_FAIL, "stop");
	getrusage(RUSAGE_SELF, &rec->stop1);
	if (rec->child) {
		kill(rec->child, SIGTERM);
		waitpid(rec->child, &rec->stats.status, 0);
	}
	/* Restarted: nothing the device holds now is of this capture. */
	rec->restarted = tb_fdr_dev_capture_gone(fd, rec->gen, false,
						 &rec->st) != NULL;
	if (rec->cfg.mode == TRACEBUF_FDR_MODE_FLIGHT && !rec->restarted) {
		/* Of the capture running at SNAPSHOT: checked at its first read. */
		reader_reset(&rec->rd);
		if (ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT)) {
			int e = errno;

			/* EINVAL: another process configured a stream since. */
			rec->restarted = tb_fdr_dev_capture_gone(fd, rec->gen,
								 false,
								 &rec->st) != NULL;
			errno = e;
			if (!rec->restarted)
				tool_die_errno(TB_EXIT_FAIL, "snapshot");
		}
	}
}

/* The rest of the capture read, into rec->raw. */
static void record__drain(struct record *rec)
{
	int ret;

	if (rec->restarted) {
		/* Only what was read before. */
	} else if (rec->use_mmap) {
		/* Until another reader gives back the pages it holds. */
		while (!spool_drain(&rec->sp, &rec->stats.write_waits))
			usleep(10000);
	} else {
		/*
		 * To EOF and not past it (the next read is another capture),
		 * waiting, not spinning, while another file holds a page.
		 */
		while ((ret = drain_once(rec->fd, &rec->rd)))
			if (ret < 0)
				wait_readable(rec->fd);
	}
	getrusage(RUSAGE_SELF, &rec->stats.ru1);
	tb_collect_exclude(&rec->stats, &rec->stop0, &rec->stop1);
	rec->stats.duration = now_s() - rec->t0;
	/* Its counters as last seen, if it was restarted while draining. */
	if (!rec->restarted &&
	    tb_fdr_dev_capture_gone(rec->fd, rec->gen, false, &rec->st))
		rec->restarted = true;
	if (rec->restarted && !rec->gone)
		rec->gone = tb_fdr_dev_capture_gone(rec->fd, rec->gen, false,
						    &rec->st);

	if (rec->use_mmap)
		spool_finish(&rec->sp, &rec->raw);
	else
		rec->raw = rec->rd.b;
	/* Not even a header of its own: no file, rather than an empty one. */
	if (!rec->raw.len)
		tool_die(TB_EXIT_FAIL, "the capture ended under the recorder before anything of it was read: %s; nothing written",
			 rec->gone ? rec->gone : "no data");
}

/* The trace, post-processed, and the files beside it. */
static void record__write(struct record *rec)
{
	struct tb_error err;
	char *capture;
	FILE *f;

	/*
	 * The tasks' names as they end and the kernel's names, before the
	 * trace, whose META block holds them (convert/fdr_post.h), and the
	 * JSON that shows them.
	 */
	tb_collect_tasks_scan(&rec->tasks);
	kernel_names(rec->fd, &rec->known);
	rec->files.known = &rec->known;
	capture = tb_collect_capture_text("record", rec->cfg.classes,
					  tb_collect_clock(rec->raw.data,
							   rec->raw.len),
					  true, rec->cmdline);
	free(rec->cmdline);
	if (!capture)
		tool_die(TB_EXIT_FAIL, "out of memory");
	rec->meta = (struct tb_fdr_post_meta){
		.capture = capture, .known = &rec->known,
		.syscalls = rec->files.syscalls, .tasks = &rec->tasks,
	};
	rec->post.meta = &rec->meta;
	f = tool_open_output(rec->out);
	if (tb_fdr_post_run(&rec->post, rec->raw.data, rec->raw.len, f, &err))
		tool_die(TB_EXIT_DATA, "device stream: %s", err.msg);
	tool_close_output(f, rec->out);
	free(capture);
	if (rec->paths.tasks) {
		errno = -tb_collect_tasks_write(&rec->post, &rec->tasks,
						rec->paths.tasks);
		if (errno)
			tool_die_errno(TB_EXIT_FAIL, "%s", rec->paths.tasks);
	}
	tb_task_map_free(&rec->tasks);
	if (rec->files.names &&
	    tb_fdr_post_files(&rec->post, &rec->files, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	tb_name_map_free(&rec->known);
	close(rec->fd);
	if (rec->kfunc_pats &&
	    tb_kfunc_write_beside(&rec->kfuncs, rec->out, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	tb_kfunc_free(&rec->kfuncs);
}

/* The summary, what is left freed, and the exit code. */
static int record__finish(struct record *rec)
{
	const struct tracebuf_fdr_config *cfg = &rec->cfg;

	rec->stats.files = rec->files.names ? &rec->files : NULL;
	if (rec->use_mmap)
		tb_collect_count(&rec->stats, "spool_direct",
				 rec->sp.out.direct);
	report(&rec->stats, cfg->wakeup ? cfg->wakeup :
	       TRACEBUF_FDR_WAKEUP_DEFAULT(cfg->buf_size), &rec->st,
	       &rec->post, rec->oo.quiet, rec->oo.stats_json);
	tb_fdr_post_free(&rec->post);
	tb_collect_paths_free(&rec->paths);
	if (rec->use_mmap) {
		munmap(rec->sp.map, rec->raw.len);
		close(rec->sp.fd);
	} else {
		tb_buf_free(&rec->raw);
	}
	if (rec->gone) {
		tb_cli_warn("the capture ended under the recorder: %s; %s holds what was read of it before (the counters above are from then)",
			    rec->gone,
			    strcmp(rec->out, "-") ? rec->out : "the output");
		return TB_EXIT_FAIL;
	}
	return TB_EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
	struct record rec = {
		.cfg = TB_FDR_CONFIG_DEFAULT,
		.out = DEFAULT_OUT, .dev = TB_FDR_DEV_PATH,
		.use_mmap = true, .direct = true,
		.rt = {
			.keep = 10, .trig.post_events = 1000,
			.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
		},
		.sp = { .fd = -1 },
		.stats = { .status = -1 },
		.files = {
			.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
		},
	};
	int ret;

	tb_cli_init(argv[0]);
	record__parse(&rec, argc, argv);
	ret = record__setup(&rec);
	if (ret >= 0)
		return ret;
	tb_collect_on_stop_signals(on_signal);
	if (rec.rt.trig.nr_conds)
		return record__trigger(&rec);
	record__start(&rec);
	record__loop(&rec);
	record__stop(&rec);
	record__drain(&rec);
	record__write(&rec);
	return record__finish(&rec);
}
