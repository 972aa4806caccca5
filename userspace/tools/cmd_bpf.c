// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf bpf: record the kernel FDR recorder's events with BPF programs
 * instead of the tracebuf module, and write the same XRay FDR v5 file:
 * the same function ids (uapi/linux/tracebuf.h) and one block per task run
 * on a CPU.  Needs no module, only a kernel with BTF.
 *
 * This file is the libbpf side: options, the BPF object, the ring buffer
 * loop and the loss counters; the kernel functions of -f and their
 * programs are bpf_kfunc_*().  The records become the file in
 * lib/collect/fdr_bpf.h; the command, the files and the statistics are the
 * collectors' lib/collect/collect.h.  See Documentation/bpf-collector.rst.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/types.h>
#include <linux/tracebuf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_kfunc.h"
#include "cli/cli.h"
#include "cli/optval.h"
#include "cli_opt.h"
#include "cmds.h"
#include "collect/collect.h"
#include "collect/fdr_bpf.h"
#include "device/fdr_dev.h"
#include "device/kfunc.h"
#include "format/fdr_classes.h"
#include "syscall_names.h"	/* generated from the UAPI headers */
#include "tool.h"
#include "tracebuf.skel.h"
#include "tracebuf_bpf.h"

struct options {
	uint32_t classes;
	uint32_t nr_args;
	uint64_t duration;	/* seconds, 0 = until the command ends or a signal */
	uint64_t rb_size;
	uint64_t wakeup;
	const char *output;
	const char *kfunc_pats;	/* -f */
	struct tb_kfuncs kfuncs;	/* what -f chose */
	struct tb_collect_out out;	/* -r -N -J -q -n -j */
	bool verbose;
	char **cmd;
};

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [OPTIONS] [-- COMMAND [ARG...]]\n", tb_cli_prog());
	fputs("\n"
	      "Record kernel events with BPF programs into an XRay FDR v5 file: the same\n"
	      "function ids and per-task blocks as the tracebuf module's /dev/tracebuf_fdr,\n"
	      "without the module.  Traces the whole system (except itself) until COMMAND\n"
	      "exits, the duration ends, or SIGINT/SIGTERM/SIGHUP arrives.  Like tracebuf record,\n"
	      "writes OUTPUT, OUTPUT.names (\"ID NAME\"), OUTPUT.map (ELF\n"
	      "instrumentation map: llvm-xray account -m OUTPUT.map) and OUTPUT.tfile\n"
	      "(GDB trace file, as tracebuf convert fdr-tfile writes it); function ids in\n"
	      "OUTPUT are dense (1..N), OUTPUT.names gives each one's kernel id.\n"
	      "\n"
	      "Options:\n", f);
	tb_opt_help(f, &cmd_bpf_spec, NULL);
	fputs("\n"
	      "Needs root, or CAP_BPF and CAP_PERFMON, and a kernel with BTF.\n"
	      "\n"
	      "Examples:\n"
	      "  tracebuf bpf -e syscall,sched -- make -j2\n"
	      "  tracebuf bpf -d 10 -J -o idle.fdr && tracebuf report idle.fdr\n"
	      "\n"
	      "Exit status: 0 ok (the trace was written), 1 failure, 2 usage, 3 malformed\n"
	      "input; the command's own status is in the summary.\n", f);
}

static __u32 parse_classes(const char *list)
{
	char bad[32];
	__u32 mask;
	int ret;

	ret = tb_fdr_classes_parse(list, TB_FDR_BPF_CLASSES, &mask, bad, sizeof(bad));
	if (ret == -EINVAL)
		tool_die(TB_EXIT_USAGE, "--events: unknown event class '%s' (%s)", bad,
			 "syscall, irq, softirq, workqueue, fault, sched, all");
	if (ret == -ENODATA)
		tool_die(TB_EXIT_USAGE, "no event class given");
	if (ret)
		tool_die(TB_EXIT_FAIL, "out of memory");
	/* "all" means TB_FDR_BPF_CLASSES, so the bit is set only when named. */
	if (mask & TRACEBUF_FDR_MARKER)
		tool_die(TB_EXIT_USAGE,
			 "class 'marker' needs the module's /dev/tracebuf_fdr");
	return mask;
}

static const struct tb_opt bpf_opts[] = {
	{ TB_OPT_EVENTS_OF("syscall irq softirq workqueue fault sched all"),
	  .help = "event classes, comma separated: syscall, irq, softirq, workqueue, fault, sched, all (default: syscall,irq,softirq,sched)" },
	{ TB_FDR_OPT_ARGS,
	  .help = "syscall arguments to record, 0..6 (default 0)" },
	{ .id = 'f', .letter = 'f', .name = "functions", .arg = TB_OPT_REQUIRED,
	  .arg_name = "PATTERNS", .help = "also record these kernel functions' calls (names or globs, comma separated, as set_ftrace_filter takes them) with fentry/fexit programs, as tracebuf record -f does with the module; functions fentry cannot take (no BTF: clones, inlined) are skipped with a line; the list traced is written to OUTPUT.kfuncs" },
	{ TB_OPT_OUTPUT,
	  .help = "FDR file to write, - for stdout (default trace.fdr; with -, COMMAND's stdout goes to stderr)" },
	{ TB_OPT_DURATION,
	  .help = "stop after SECS seconds (1 to a year)" },
	{ TB_OPT_SIZE,
	  .help = "BPF ring buffer size, a power of two from 4K to 1G, K/M/G suffixes (default 8M)" },
	{ .id = 's', .letter = 'b', .arg = TB_OPT_REQUIRED, .val = TB_VAL_SIZE,
	  .instead = "-s" },
	{ .id = 's', .name = "buffer-size", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_SIZE, .instead = "--size" },
	{ TB_FDR_OPT_WAKEUP,
	  .help = "wake the reader when SIZE bytes are waiting (default: a quarter of the ring buffer)" },
	{ TB_COLLECT_OPT_STATS_JSON,
	  .help = "write the statistics as JSON to FILE" },
	{ TB_OPT_NAMES,
	  .help = "names file, \"ID NAME\" lines (default: OUTPUT.names; none for -o - without -n)" },
	{ TB_OPT_QUIET,
	  .help = "no summary on stderr" },
	{ TB_COLLECT_OPT_RAW,
	  .help = "write kernel function ids and keep exits whose entry is not in the capture (llvm-xray stack and account reject them); no OUTPUT.map or .tfile" },
	{ TB_COLLECT_OPT_NO_TFILE,
	  .help = "do not write OUTPUT.tfile (GDB trace file)" },
	{ TB_OPT_JSON,
	  .help = "also write OUTPUT.json (trace_event JSON for Perfetto, as tracebuf convert fdr-json writes it)" },
	{ TB_OPT_VERBOSE,
	  .help = "libbpf's messages, the kernel functions and the work function table" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_bpf_spec = {
	.name = "bpf", .opts = bpf_opts, .operands = TB_VAL_COMMAND,
	.in_order = true,
};

static void parse_args(int argc, char **argv, struct options *o)
{
	struct tb_opt_parser p;
	char msg[256];
	int ch;

	/* tracebuf record's default */
	o->classes = TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |
		     TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED;
	o->output = "trace.fdr";
	o->rb_size = 8 << 20;
	/* In order: options end at the command's name. */
	tb_opt_init(&p, &cmd_bpf_spec, NULL, argc, argv, 1);
	while ((ch = cli_opt_next(&p, usage))) {
		const char *optarg = p.arg;
		uint64_t v;

		if (tb_collect_out_option(&o->out, ch, optarg))
			continue;
		switch (ch) {
		case 'e':
			o->classes = parse_classes(optarg);
			break;
		case 'a':
			if (tb_optval_number("--args", optarg, 0, TB_BPF_MAX_ARGS,
					     &v, msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			o->nr_args = v;
			break;
		case 'f':
			o->kfunc_pats = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'd':
			if (tb_optval_seconds("--duration", optarg, &o->duration,
					      msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			break;
		case 's':
			/* A power of two of at least a page is whole pages. */
			if (tb_optval_size("--size", optarg, sysconf(_SC_PAGESIZE),
					   1ULL << 30, true, &o->rb_size, msg,
					   sizeof(msg)))
				cli_opt_bad_value(msg);
			break;
		case 'w':
			if (tb_optval_size("--wakeup", optarg, 1, 1ULL << 30, false,
					   &o->wakeup, msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			break;
		case 'v':
			o->verbose = true;
			break;
		}
	}
	if (p.nr_operands)
		o->cmd = p.operands;
	if (!o->wakeup || o->wakeup > o->rb_size)
		o->wakeup = o->rb_size / 4;
}

/* ------------------------------------------------------------------ */
/* Running                                                             */
/* ------------------------------------------------------------------ */

/* Set by the handlers, read by the loop: atomics instead of volatile. */
static sig_atomic_t stop_signal;
static sig_atomic_t child_exited;

static void on_stop(int sig)
{
	__atomic_store_n(&stop_signal, sig, __ATOMIC_RELAXED);
}

static void on_child(int sig)
{
	__atomic_store_n(&child_exited, 1, __ATOMIC_RELAXED);
}

static bool libbpf_verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	/* Warnings are printed only with -v: the tool reports failures. */
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* Each program and the FDR id space it records (0: block boundaries). */
struct prog_space {
	struct bpf_program *prog;
	__u32 space;
};

static size_t prog_spaces(struct tracebuf_bpf *skel, struct prog_space *ps)
{
	const struct prog_space tab[] = {
		{ skel->progs.tb_sys_enter,	TRACEBUF_FDR_SPACE_SYSCALL },
		{ skel->progs.tb_sys_exit,	TRACEBUF_FDR_SPACE_SYSCALL },
		{ skel->progs.tb_irq_entry,	TRACEBUF_FDR_SPACE_IRQ },
		{ skel->progs.tb_irq_exit,	TRACEBUF_FDR_SPACE_IRQ },
		{ skel->progs.tb_softirq_entry,	TRACEBUF_FDR_SPACE_SOFTIRQ },
		{ skel->progs.tb_softirq_exit,	TRACEBUF_FDR_SPACE_SOFTIRQ },
		{ skel->progs.tb_work_start,	TRACEBUF_FDR_SPACE_WORK },
		{ skel->progs.tb_work_end,	TRACEBUF_FDR_SPACE_WORK },
		{ skel->progs.tb_fault_user,	TRACEBUF_FDR_SPACE_FAULT },
		{ skel->progs.tb_fault_kernel,	TRACEBUF_FDR_SPACE_FAULT },
		{ skel->progs.tb_fork,		TRACEBUF_FDR_SPACE_TASK },
		{ skel->progs.tb_exit,		TRACEBUF_FDR_SPACE_TASK },
		{ skel->progs.tb_wakeup,	TRACEBUF_FDR_SPACE_TASK },
		{ skel->progs.tb_wakeup_new,	TRACEBUF_FDR_SPACE_TASK },
		{ skel->progs.tb_sched_switch,	0 },
	};

	memcpy(ps, tab, sizeof(tab));
	return ARRAY_SIZE(tab);
}

#define MAX_PROGS	16

/* The class a space is counted under, or -1 (switches). */
static int space_class(__u32 space)
{
	size_t i;

	for (i = 0; i < TB_FDR_BPF_NR_CLASSES; i++)
		if (tb_fdr_classes[i].space == space)
			return i;
	return -1;
}

static void set_autoload(struct tracebuf_bpf *skel, __u32 mask)
{
	struct prog_space ps[MAX_PROGS];
	size_t i, n = prog_spaces(skel, ps);

	/* tb_sched_switch always loads: it delimits the blocks. */
	for (i = 0; i < n; i++) {
		int cls = space_class(ps[i].space);

		if (cls >= 0)
			bpf_program__set_autoload(ps[i].prog,
						  !!(mask & tb_fdr_classes[cls].bit));
	}
}

static void read_losses(struct tracebuf_bpf *skel, int nr_cpus,
			struct tb_fdr_bpf_losses *l)
{
	__u64 *vals = calloc(nr_cpus, sizeof(__u64));
	int fd = bpf_map__fd(skel->maps.drops);
	struct prog_space ps[MAX_PROGS];
	size_t i, n = prog_spaces(skel, ps);
	__u32 k;
	int cpu;

	if (!vals)
		tool_die(TB_EXIT_FAIL, "out of memory");
	memset(l, 0, sizeof(*l));
	for (k = 0; k < TB_BPF_NR_COUNTERS; k++) {
		if (bpf_map_lookup_elem(fd, &k, vals)) {
			tb_cli_warn_errno("cannot read the drop counters");
			continue;
		}
		for (cpu = 0; cpu < nr_cpus; cpu++)
			l->ringbuf[k] += vals[cpu];
	}
	free(vals);
	for (i = 0; i < n; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int pfd = bpf_program__fd(ps[i].prog);

		if (pfd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(pfd, &info, &len))
			l->recursion[ps[i].space] += info.recursion_misses;
	}
}

static __u64 now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* What a run measured besides the collector's counters. */
struct result {
	struct tb_fdr_bpf_losses lost;
	struct rusage ru0;	/* the reader's usage after attach */
	__u64 t0;		/* CLOCK_MONOTONIC when recording started */
	int status;		/* the command's wait status, or -1 */
	struct tb_task_map tasks;	/* command names (collect/collect.h) */
};

/* One run of the BPF programs: what run_bpf()'s steps hand each other. */
struct run {
	struct tb_fdr_bpf *c;
	const struct options *opt;
	struct tb_kfuncs *kfuncs;	/* -f's, less what the kernel refuses */
	struct result *r;
	struct tracebuf_bpf *skel;
	struct bpf_program *kfunc_tmpl[2];	/* entry, exit */
	struct bpf_kfunc_progs kp;
	struct ring_buffer *rb;
	struct tb_collect_cmd cmd;
	pid_t child;
	int status;
	__u64 deadline;		/* CLOCK_MONOTONIC, or 0 */
};

/* The skeleton opened, set up for the options, loaded; the ring mapped. */
static void run_load(struct run *run)
{
	const struct options *opt = run->opt;
	struct tracebuf_bpf *skel;
	int err;

	skel = tracebuf_bpf__open();
	if (!skel)
		tool_die_errno(TB_EXIT_FAIL, "cannot open the BPF object");
	run->skel = skel;
	run->kfunc_tmpl[0] = skel->progs.tb_kfunc_entry;
	run->kfunc_tmpl[1] = skel->progs.tb_kfunc_exit;
	skel->rodata->nr_args = opt->nr_args;
	skel->rodata->self_tgid = getpid();
	skel->rodata->wakeup_bytes = opt->wakeup;
	skel->rodata->sched_events = !!(opt->classes & TRACEBUF_FDR_SCHED);
	err = bpf_map__set_max_entries(skel->maps.events, opt->rb_size);
	if (err) {
		errno = -err;
		tool_die_errno(TB_EXIT_FAIL, "cannot size the ring buffer");
	}
	set_autoload(skel, opt->classes);
	/* Without it the load fails with ESRCH and no word of why. */
	if ((opt->classes & TRACEBUF_FDR_FAULT) &&
	    libbpf_find_vmlinux_btf_id("page_fault_user", BPF_TRACE_RAW_TP) < 0)
		tool_die(TB_EXIT_FAIL,
			 "this kernel has no page-fault tracepoints (exceptions:page_fault_user and _kernel are x86's): leave 'fault' out of -e");
	bpf_kfunc_prepare(run->kfunc_tmpl, run->kfuncs);

	err = tracebuf_bpf__load(skel);
	if (err) {
		errno = -err;
		if (errno == EPERM)
			tool_die(TB_EXIT_FAIL,
				 "cannot load BPF programs: %s (need CAP_BPF+CAP_PERFMON or root)",
				 strerror(errno));
		tool_die(TB_EXIT_FAIL,
			 "cannot load BPF programs: %s (the kernel refused them; -v shows libbpf's and the verifier's log)",
			 strerror(errno));
	}
	bpf_kfunc_load(run->kfunc_tmpl, run->kfuncs, &run->kp, opt->verbose);
	run->rb = ring_buffer__new(bpf_map__fd(skel->maps.events),
				   tb_fdr_bpf_record, run->c, NULL);
	if (!run->rb)
		tool_die_errno(TB_EXIT_FAIL, "cannot map the ring buffer");
}

/*
 * The command forked, the programs attached and enabled all at once,
 * then the command let go.
 */
static void run_start(struct run *run)
{
	const struct options *opt = run->opt;
	struct result *r = run->r;
	int err;

	if (opt->cmd) {
		errno = -tb_collect_cmd_fork(&run->cmd, opt->cmd,
					     !strcmp(opt->output, "-"));
		if (errno)
			tool_die_errno(TB_EXIT_FAIL, "cannot fork");
	}

	run->c->blk.wall_off = now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC);
	err = tracebuf_bpf__attach(run->skel);
	if (err) {
		errno = -err;
		tool_die_errno(TB_EXIT_FAIL, "cannot attach BPF programs");
	}
	bpf_kfunc_attach(run->kfuncs, &run->kp);
	/* All programs start recording at once; see tracebuf.bpf.c. */
	__atomic_store_n(&run->skel->bss->enabled, 1, __ATOMIC_RELEASE);
	/* The reader's CPU time is counted from here: loading is not. */
	getrusage(RUSAGE_SELF, &r->ru0);
	r->t0 = now_ns(CLOCK_MONOTONIC);
	if (opt->duration)
		run->deadline = r->t0 + opt->duration * 1000000000ULL;
	if (opt->cmd) {
		errno = -tb_collect_cmd_start(&run->cmd);
		if (errno)
			tool_die_errno(TB_EXIT_FAIL, "cannot run '%s'", opt->cmd[0]);
		run->child = run->cmd.pid;
		/* Its name after exec(): it may be gone by the end. */
		tb_task_map_scan_pid(&r->tasks, "/proc", run->child);
	}
}

/* The ring drained until the command ends, the duration or a signal. */
static void run_loop(struct run *run)
{
	int err;

	while (!__atomic_load_n(&stop_signal, __ATOMIC_RELAXED)) {
		if (run->child &&
		    __atomic_load_n(&child_exited, __ATOMIC_RELAXED) &&
		    waitpid(run->child, &run->status, WNOHANG) == run->child) {
			run->child = 0;
			break;
		}
		if (run->deadline && now_ns(CLOCK_MONOTONIC) >= run->deadline)
			break;
		err = ring_buffer__poll(run->rb, 100);
		/*
		 * poll() consumes only after a wake-up, and the programs
		 * skip those below --wakeup bytes: drain on the timeout.
		 */
		if (err == 0)
			err = ring_buffer__consume(run->rb);
		if (err < 0 && err != -EINTR) {
			errno = -err;
			tool_die_errno(TB_EXIT_FAIL, "cannot read the ring buffer");
		}
	}
}

/* The programs stopped, the ring drained, the losses counted, all closed. */
static void run_stop(struct run *run)
{
	struct result *r = run->r;
	int err;

	/*
	 * Stop the producers first so that the drain below is complete; all
	 * at once, like the start.
	 */
	__atomic_store_n(&run->skel->bss->enabled, 0, __ATOMIC_RELEASE);
	tracebuf_bpf__detach(run->skel);
	bpf_kfunc_detach(&run->kp);
	err = ring_buffer__consume(run->rb);
	if (err < 0) {
		errno = -err;
		tool_die_errno(TB_EXIT_FAIL, "cannot read the ring buffer");
	}
	if (run->child) {
		kill(run->child, SIGTERM);
		waitpid(run->child, &run->status, 0);
	}
	read_losses(run->skel, run->c->nr_cpus, &r->lost);
	r->lost.recursion[TRACEBUF_FDR_SPACE_KFUNC] += bpf_kfunc_misses(&run->kp);
	bpf_kfunc_free(&run->kp);
	r->status = run->status;
	ring_buffer__free(run->rb);
	tracebuf_bpf__destroy(run->skel);
}

/*
 * Record with the BPF programs until the command ends, the duration is
 * over or a signal comes; everything is drained into @c.  The command is
 * forked before the programs attach and runs once they record.
 */
static void run_bpf(struct tb_fdr_bpf *c, struct options *opt,
		    struct result *r)
{
	struct run run = {
		.c = c, .opt = opt, .kfuncs = &opt->kfuncs, .r = r,
		.status = -1,
	};

	run_load(&run);
	run_start(&run);
	run_loop(&run);
	run_stop(&run);
}

/* The statistics (collect/collect.h, lib/collect/fdr_bpf.h) as summary and JSON. */
static void report(const struct tb_fdr_bpf *c, const struct options *opt,
		   const struct result *r, const struct tb_fdr_post *post,
		   const struct tb_fdr_post_files *files)
{
	struct tb_collect_stats s = {
		.output = opt->output,
		.classes = opt->classes,
		.ru0 = r->ru0,
		.status = r->status,
		.files = files,
	};
	uint64_t lost_cls[TB_FDR_NR_CLASSES];
	char class_tail[128], lost_tail[128];
	struct tb_fdr_bpf_lost tot;
	size_t i;

	tb_fdr_bpf_stats(c, post, &r->lost, lost_cls, &s, &tot);
	s.kfuncs = c->kfuncs;
	s.kfunc_calls = post->enters[TRACEBUF_FDR_SPACE_KFUNC];
	tb_collect_count(&s, "ringbuf_bytes", opt->rb_size);
	tb_collect_count(&s, "wakeup_bytes", opt->wakeup);
	tb_collect_count(&s, "nr_args", opt->nr_args);
	getrusage(RUSAGE_SELF, &s.ru1);
	s.duration = (now_ns(CLOCK_MONOTONIC) - r->t0) / 1e9;

	if (!opt->out.quiet) {
		snprintf(class_tail, sizeof(class_tail), ", switches %llu",
			 (unsigned long long)c->switches);
		snprintf(lost_tail, sizeof(lost_tail),
			 " (ring buffer full %llu, recursion %llu), %llu switches",
			 (unsigned long long)tot.ringbuf,
			 (unsigned long long)tot.recursion,
			 (unsigned long long)tot.switches);
		tb_collect_summary(stderr, &s, class_tail, lost_tail);
		if (c->bad)
			fprintf(stderr, "  %llu malformed records ignored\n",
				(unsigned long long)c->bad);
	}
	if (opt->verbose) {
		fprintf(stderr, "  %llu records clamped\n",
			(unsigned long long)c->blk.clamped);
		for (i = 0; i < tb_buf_nr(&c->workfns, sizeof(uint64_t)); i++)
			fprintf(stderr, "  work key %zu: function 0x%llx\n", i,
				(unsigned long long)
				((const uint64_t *)c->workfns.data)[i]);
	}
	if (opt->out.stats_json)
		tool_check(tb_collect_write_json(opt->out.stats_json, &s),
			   "error writing '%s'", opt->out.stats_json);
}

/* The names of the ids, from /proc read now, at the end (device/fdr_knames.h). */
static void known_names(const struct tb_fdr_bpf *c, struct tb_name_map *known)
{
	FILE *irqs = fopen("/proc/interrupts", "r");
	FILE *syms = c->workfns.len ? fopen("/proc/kallsyms", "r") : NULL;

	if (tb_fdr_bpf_names(c, irqs, syms, known))
		tool_die(TB_EXIT_FAIL, "cannot build the names");
	if (irqs)
		fclose(irqs);
	if (syms)
		fclose(syms);
}

int cmd_bpf(int argc, char **argv)
{
	struct options opt = { 0 };
	struct tb_fdr_bpf col;
	struct sigaction sa;
	struct result r = { .status = -1 };
	struct tb_fdr_post_files files = {
		.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
	};
	struct tb_collect_paths paths;
	struct tb_fdr_post post = { 0 };
	struct tb_name_map known = { 0 };
	struct tb_fdr_post_meta meta;
	struct tb_error err;
	char *capture, *cmdline;
	int nr_cpus;
	FILE *out;

	tb_cli_init(argv[0]);
	/* For the META block, before the parser moves the words. */
	cmdline = tb_collect_cmdline(argc, argv);
	if (!cmdline)
		tool_die(TB_EXIT_FAIL, "out of memory");
	parse_args(argc, argv, &opt);
	bpf_kfunc_choose(opt.kfunc_pats, opt.verbose, &opt.kfuncs);
	libbpf_verbose = opt.verbose;
	libbpf_set_print(libbpf_print);

	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus <= 0) {
		errno = -nr_cpus;
		tool_die_errno(TB_EXIT_FAIL, "cannot count the possible CPUs");
	}
	if (tb_fdr_bpf_init(&col, nr_cpus, opt.classes, opt.rb_size))
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (opt.kfunc_pats)
		col.kfuncs = &opt.kfuncs;
	if (tb_collect_paths_init(&paths, opt.output))
		tool_die(TB_EXIT_FAIL, "out of memory");
	/*
	 * Handlers first: a SIGTERM while loading (a script that stops us
	 * early) still ends with a valid, if empty, file.
	 */
	tb_collect_on_stop_signals(on_stop);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);

	/* Fail on an unwritable output before tracing anything. */
	out = tool_open_output(opt.output);
	/* Names of the tasks: read before tracing, not traced. */
	tb_task_map_init(&r.tasks);
	tb_collect_tasks_scan(&r.tasks);
	run_bpf(&col, &opt, &r);
	tb_collect_tasks_scan(&r.tasks);

	/* The names and tasks before the trace, whose META block has them. */
	known_names(&col, &known);
	files.known = &known;
	capture = tb_collect_capture_text("bpf", opt.classes, "ktime_get_ns",
					  true, cmdline);
	free(cmdline);
	if (!capture)
		tool_die(TB_EXIT_FAIL, "out of memory");
	meta = (struct tb_fdr_post_meta){
		.capture = capture, .known = &known,
		.syscalls = files.syscalls, .tasks = &r.tasks,
	};
	post.meta = &meta;
	post.raw = opt.out.raw;
	if (tb_fdr_bpf_write(&col, out, &post, &err))
		tool_die(TB_EXIT_FAIL, "%s: %s", opt.output, err.msg);
	tool_close_output(out, opt.output);
	free(capture);
	tb_collect_post_files(&files, &paths, opt.output, &opt.out);
	/* Before the JSON that shows them. */
	if (paths.tasks) {
		errno = -tb_collect_tasks_write(&post, &r.tasks, paths.tasks);
		if (errno)
			tool_die_errno(TB_EXIT_FAIL, "%s", paths.tasks);
	}
	tb_task_map_free(&r.tasks);
	if (files.names && tb_fdr_post_files(&post, &files, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	tb_name_map_free(&known);
	if (opt.kfunc_pats && strcmp(opt.output, "-") &&
	    tb_kfunc_write_beside(&opt.kfuncs, opt.output, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	report(&col, &opt, &r, &post, files.names ? &files : NULL);

	tb_collect_paths_free(&paths);
	tb_fdr_post_free(&post);
	tb_fdr_bpf_free(&col);
	tb_kfunc_free(&opt.kfuncs);
	return TB_EXIT_OK;
}
