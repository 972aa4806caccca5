// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf bpf: record the kernel FDR recorder's events with BPF programs
 * instead of the tracebuf module, and write the same XRay FDR v5 file:
 * the same function ids (uapi/linux/tracebuf.h) and one block per task run
 * on a CPU.  Needs no module, only a kernel with BTF.
 *
 * See Documentation/bpf-collector.rst.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/types.h>
#include <linux/tracebuf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fdr_blocks.h"
#include "fdr_classes.h"
#include "fdr_post.h"
#include "fdr_writer.h"
#include "tb_bytes.h"
#include "cmds.h"
#include "tb_cli.h"
#include "syscall_names.h"	/* generated from the UAPI headers */
#include "tracebuf_bpf.h"
#include "tracebuf.skel.h"

/* Classes this collector can record (no user markers: there is no fd). */
#define BPF_CLASSES	(TRACEBUF_FDR_ALL & ~TRACEBUF_FDR_MARKER)

/* The library's class table; this collector has all classes but the last, marker. */
#define NR_CLASSES	(TB_FDR_NR_CLASSES - 1)
static_assert(BPF_CLASSES == (1U << NR_CLASSES) - 1, "marker is not the last class");

struct options {
	uint32_t classes;
	uint32_t nr_args;
	uint64_t duration;	/* seconds, 0 = until the command ends or a signal */
	uint64_t rb_size;
	uint64_t wakeup;
	const char *output;
	const char *stats_json;
	const char *names;
	const char *replay;
	bool quiet;
	bool verbose;
	bool raw;
	bool no_tfile;
	bool json;
	char **cmd;
};

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

#define MAX_IRQ_NAMES	1024	/* like the module: IRQs below this get names */

struct collector {
	struct options *opt;
	struct tb_fdr_blocks blk;	/* the blocks being built */
	int nr_cpus;
	__u64 *workfns;		/* WORK key = index of the function here */
	size_t nr_workfns, cap_workfns;
	__s64 realtime_off;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	__u64 irq_seen[MAX_IRQ_NAMES / 64];	/* IRQs to name */
	/* statistics */
	__u64 records;
	__u64 events;
	__u64 per_class[NR_CLASSES];
	__u64 switches;
	__u64 unmatched;	/* exits without a recorded entry, left out */
	__u64 gap_reports;	/* loss markers written into the stream */
	__u64 gap_events;	/* events they report */
	__u64 bad;		/* malformed records (never expected) */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		tb_die(TB_EXIT_FAIL, "out of memory");
	return p;
}

static __u32 work_key(struct collector *c, __u64 fn)
{
	size_t i;

	for (i = 0; i < c->nr_workfns; i++)
		if (c->workfns[i] == fn)
			return i;
	if (c->nr_workfns == c->cap_workfns) {
		c->cap_workfns = c->cap_workfns ? c->cap_workfns * 2 : 64;
		c->workfns = xrealloc(c->workfns,
				      c->cap_workfns * sizeof(*c->workfns));
	}
	c->workfns[c->nr_workfns] = fn;
	return c->nr_workfns++;
}

static int handle_event(void *ctx, void *data, size_t size)
{
	struct collector *c = ctx;
	const struct tb_bpf_event *e = data;
	__u32 space, id, tid;
	int nargs, i, type;

	c->records++;
	if (size < sizeof(*e) || e->cpu >= c->nr_cpus ||
	    e->nargs > TB_BPF_MAX_ARGS ||
	    size < sizeof(*e) + e->nargs * sizeof(__u64)) {
		c->bad++;
		return 0;
	}
	/* Idle tasks all have pid 0 but each runs on one CPU only. */
	tid = e->tid ? e->tid : (__u32)TRACEBUF_FDR_IDLE_TID(e->cpu);
	id = e->id;
	space = id >> TRACEBUF_FDR_ID_SPACE_SHIFT;
	nargs = e->nargs;

	if (e->kind == TB_BPF_SWITCH) {
		c->switches++;
		/* With the sched class, the block shows when the task came in. */
		tb_fdr_blocks_switch(&c->blk, e->cpu, tid, e->tgid, e->ts,
				     c->opt->classes & TRACEBUF_FDR_SCHED);
		return 0;
	}

	switch (e->kind) {
	case TB_BPF_LOST:
		type = TB_FDR_EV_LOST;
		c->gap_reports++;
		c->gap_events += nargs ? e->args[0] : 0;
		break;
	case TB_BPF_ENTER:
	case TB_BPF_EXIT:
	case TB_BPF_POINT:
		type = e->kind == TB_BPF_ENTER ? TB_FDR_EV_ENTER :
		       e->kind == TB_BPF_EXIT ? TB_FDR_EV_EXIT : TB_FDR_EV_POINT;
		for (i = 0; i < (int)NR_CLASSES; i++)
			if (tb_fdr_classes[i].space == space)
				c->per_class[i]++;
		c->events++;
		if (space == TRACEBUF_FDR_SPACE_WORK && nargs) {
			id = TRACEBUF_FDR_ID(space, work_key(c, e->args[0]));
			nargs = 0;
		}
		if (space == TRACEBUF_FDR_SPACE_IRQ &&
		    (id & TRACEBUF_FDR_ID_KEY_MASK) < MAX_IRQ_NAMES) {
			__u32 irq = id & TRACEBUF_FDR_ID_KEY_MASK;

			c->irq_seen[irq / 64] |= 1ULL << (irq % 64);
		}
		break;
	default:
		c->bad++;
		return 0;
	}

	tb_fdr_blocks_event(&c->blk, e->cpu, tid, e->tgid, e->ts, type, id,
			    (const uint64_t *)e->args, nargs);
	return 0;
}

/* The blocks' stream: FDR v5 with CLOCK_MONOTONIC nanoseconds. */
static int blocks_init(struct collector *c)
{
	struct tb_fdr_header h = {
		.version = 5,
		.type = TB_FDR_TYPE_FDR,
		/* bpf_ktime_get_ns() is CLOCK_MONOTONIC: constant, non-stop. */
		.flags = TB_FDR_FLAG_CONSTANT_TSC | TB_FDR_FLAG_NONSTOP_TSC,
		.cycle_frequency = 1000000000ULL,
		.buffer_size = c->opt->rb_size,
	};

	return tb_fdr_blocks_init(&c->blk, c->nr_cpus, &h);
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/*
 * Names of the ids, in the module's TRACEBUF_FDR_IOC_NAMES text format
 * ("<id hex> <space> <name>" per line), so that the library names both
 * recorders' ids alike (lib/fdr_post.h); syscalls are named by the
 * library from the build's table, as for tracebuf-record.  Softirq,
 * fault and task names are fixed; IRQs are named after /proc/interrupts
 * (the first handler of a shared line) and work functions after
 * /proc/kallsyms, both read at the end.
 */
static const char *const softirq_names[] = TRACEBUF_FDR_SOFTIRQ_NAMES;

static void irq_names(struct collector *c, FILE *out)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char *line = NULL, *tok, *save;
	size_t cap = 0;
	int ncpu = 0, i;

	if (!f)
		return;
	if (getline(&line, &cap, f) > 0)
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			ncpu++;
	while (getline(&line, &cap, f) > 0) {
		char *end, *names = NULL;
		unsigned long irq;

		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		irq = strtoul(tok, &end, 10);
		if (end == tok || *end != ':' || irq >= MAX_IRQ_NAMES ||
		    !(c->irq_seen[irq / 64] & (1ULL << (irq % 64))))
			continue;
		/* Counts per CPU, chip, hardware irq and type, then actions. */
		for (i = 0; i < ncpu + 2 && tok; i++)
			tok = strtok_r(NULL, " \t\n", &save);
		if (tok)
			names = strtok_r(NULL, ",\n", &save);
		while (names && *names == ' ')
			names++;
		if (names && *names)
			fprintf(out, "0x%x irq %s\n",
				(__u32)TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, irq),
				names);
	}
	free(line);
	fclose(f);
}

/* "%ps" of each work function: symbol, and " [module]" for a module's. */
static void work_names(struct collector *c, FILE *out)
{
	char **names = calloc(c->nr_workfns + 1, sizeof(*names));
	char *line = NULL;
	size_t cap = 0, i;
	FILE *f;

	if (!names)
		tb_die(TB_EXIT_FAIL, "out of memory");
	f = c->nr_workfns ? fopen("/proc/kallsyms", "r") : NULL;
	while (f && getline(&line, &cap, f) > 0) {
		char sym[256], mod[64] = "", type;
		unsigned long long addr;
		int n = sscanf(line, "%llx %c %255s [%63[^]]]", &addr, &type,
			       sym, mod);

		if (n < 3)
			continue;
		for (i = 0; i < c->nr_workfns; i++) {
			if (c->workfns[i] != addr || names[i])
				continue;
			if (asprintf(&names[i], n == 4 ? "%s [%s]" : "%s", sym,
				     mod) < 0)
				tb_die(TB_EXIT_FAIL, "out of memory");
		}
	}
	if (f)
		fclose(f);
	free(line);
	for (i = 0; i < c->nr_workfns; i++) {
		__u32 id = TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_WORK, i);

		if (names[i])
			fprintf(out, "0x%x work %s\n", id, names[i]);
		else
			fprintf(out, "0x%x work 0x%llx\n", id,
				(unsigned long long)c->workfns[i]);
		free(names[i]);
	}
	free(names);
}

/* The names this tool knows, by kernel id, for the library. */
static void known_names(struct collector *c, struct tb_name_map *known)
{
	struct tb_error err;
	char *text = NULL;
	size_t len = 0, i;
	FILE *t = open_memstream(&text, &len);

	if (!t)
		tb_die(TB_EXIT_FAIL, "out of memory");
	for (i = 0; i < ARRAY_SIZE(softirq_names); i++)
		fprintf(t, "0x%x softirq %s\n",
			(__u32)TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SOFTIRQ, i),
			softirq_names[i]);
	fprintf(t, "0x%x fault user\n", TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 0));
	fprintf(t, "0x%x fault kernel\n", TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_FAULT, 1));
	fprintf(t, "0x%x task fork\n", TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_TASK, 0));
	fprintf(t, "0x%x task exit\n", TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_TASK, 1));
	irq_names(c, t);
	work_names(c, t);
	if (fclose(t) || tb_fdr_post_kernel_names(known, text) ||
	    tb_name_map_finish(known, &err))
		tb_die(TB_EXIT_FAIL, "cannot build the names");
	free(text);
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [OPTIONS] [-- COMMAND [ARG...]]\n", tb_prog());
	fputs("\n"
	      "Record kernel events with BPF programs into an XRay FDR v5 file: the same\n"
	      "function ids and per-task blocks as the tracebuf module's /dev/tracebuf_fdr,\n"
	      "without the module.  Traces the whole system (except itself) until COMMAND\n"
	      "exits, the duration ends, or SIGINT/SIGTERM arrives.  Like tracebuf record,\n"
	      "writes OUTPUT, OUTPUT.names (\"ID NAME\"), OUTPUT.map (ELF\n"
	      "instrumentation map: llvm-xray account -m OUTPUT.map) and OUTPUT.tfile\n"
	      "(GDB trace file, as tracebuf convert fdr-tfile writes it); function ids in\n"
	      "OUTPUT are dense (1..N), OUTPUT.names gives each one's kernel id.\n"
	      "\n"
	      "Options:\n"
	      "  -e, --events LIST      event classes, comma separated: syscall, irq,\n"
	      "                         softirq, workqueue, fault, sched, all\n"
	      "                         (default: syscall,irq,softirq,sched)\n"
	      "  -a, --args N           syscall arguments to record, 0..6 (default 0)\n"
	      "  -o, --output FILE      FDR file to write, - for stdout (default trace.fdr;\n"
	      "                         with -, COMMAND's stdout goes to stderr)\n"
	      "  -d, --duration SECS    stop after SECS seconds\n"
	      "  -b, --buffer-size SIZE BPF ring buffer size, a power of two, K/M/G\n"
	      "                         suffixes (default 8M)\n"
	      "  -w, --wakeup SIZE      wake the reader when SIZE bytes are waiting\n"
	      "                         (default: a quarter of the ring buffer)\n"
	      "  -j, --stats-json FILE  write the statistics as JSON to FILE\n"
	      "  -n, --names FILE       names file, \"ID NAME\" lines (default:\n"
	      "                         OUTPUT.names; none for -o - without -n)\n"
	      "  -r, --raw              write kernel function ids and keep exits whose\n"
	      "                         entry is not in the capture (llvm-xray stack and\n"
	      "                         account reject them); no OUTPUT.map or .tfile\n"
	      "  -N, --no-tfile         do not write OUTPUT.tfile (GDB trace file)\n"
	      "  -J, --json             also write OUTPUT.json (trace_event JSON for\n"
	      "                         Perfetto, as tracebuf convert fdr-json writes it)\n"
	      "  -q, --quiet            no summary on stderr\n"
	      "  -v, --verbose          libbpf's messages and the work function table\n"
	      "  -h, --help             this text\n"
	      "  -V, --version          print the version\n"
	      "      --replay FILE      no BPF: build the file from records saved in FILE\n"
	      "                         (each a u32 size and a struct tb_bpf_event; tests)\n"
	      "\n"
	      "Needs root, or CAP_BPF and CAP_PERFMON, and a kernel with BTF.\n"
	      "Exit status: 0 when the trace was written, 1 on failure, 2 on a bad\n"
	      "command line; the command's own status is in the summary.\n", f);
}

static __u32 parse_classes(const char *list)
{
	char bad[32];
	__u32 mask;
	int ret;

	ret = tb_fdr_parse_classes(list, BPF_CLASSES, &mask, bad, sizeof(bad));
	if (ret == -EINVAL)
		tb_die(TB_EXIT_USAGE, "unknown event class '%s' (try --help)", bad);
	if (ret == -ENODATA)
		tb_die(TB_EXIT_USAGE, "no event class given");
	if (ret)
		tb_die(TB_EXIT_FAIL, "out of memory");
	/* "all" means BPF_CLASSES, so the bit is set only when named. */
	if (mask & TRACEBUF_FDR_MARKER)
		tb_die(TB_EXIT_USAGE,
		       "class 'marker' needs the module's /dev/tracebuf_fdr");
	return mask;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "events",	 required_argument, NULL, 'e' },
		{ "args",	 required_argument, NULL, 'a' },
		{ "output",	 required_argument, NULL, 'o' },
		{ "duration",	 required_argument, NULL, 'd' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "wakeup",	 required_argument, NULL, 'w' },
		{ "stats-json",	 required_argument, NULL, 'j' },
		{ "names",	 required_argument, NULL, 'n' },
		{ "quiet",	 no_argument,	    NULL, 'q' },
		{ "raw",	 no_argument,	    NULL, 'r' },
		{ "no-tfile",	 no_argument,	    NULL, 'N' },
		{ "json",	 no_argument,	    NULL, 'J' },
		{ "verbose",	 no_argument,	    NULL, 'v' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ "version",	 no_argument,	    NULL, 'V' },
		{ "replay",	 required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	/* tracebuf record's default */
	o->classes = TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |
		     TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED;
	o->output = "trace.fdr";
	o->rb_size = 8 << 20;
	/* '+': options end at the command's name. */
	while ((ch = getopt_long(argc, argv, "+e:a:o:d:b:w:j:n:rNJqvhV",
				 longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			o->classes = parse_classes(optarg);
			break;
		case 'a':
			if (tb_parse_u32(optarg, 0, TB_BPF_MAX_ARGS, &o->nr_args))
				tb_die(TB_EXIT_USAGE, "--args takes 0..%d, not '%s'",
				       TB_BPF_MAX_ARGS, optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'd':
			if (tb_parse_u64(optarg, 1, 1000000, &o->duration))
				tb_die(TB_EXIT_USAGE,
				       "--duration takes whole seconds 1..1000000, not '%s'",
				       optarg);
			break;
		case 'b':
			if (tb_parse_size(optarg, 4096, 1ULL << 30, &o->rb_size) ||
			    (o->rb_size & (o->rb_size - 1)) ||
			    o->rb_size % sysconf(_SC_PAGESIZE))
				tb_die(TB_EXIT_USAGE,
				       "--buffer-size takes a power of two from 4K to 1G, not '%s'",
				       optarg);
			break;
		case 'w':
			if (tb_parse_size(optarg, 1, 1ULL << 30, &o->wakeup))
				tb_die(TB_EXIT_USAGE, "bad --wakeup '%s'", optarg);
			break;
		case 'j':
			o->stats_json = optarg;
			break;
		case 'R':
			o->replay = optarg;
			break;
		case 'n':
			o->names = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'r':
			o->raw = true;
			break;
		case 'N':
			o->no_tfile = true;
			break;
		case 'J':
			o->json = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		default:
			tb_cli_std_option(ch, usage);
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (o->replay && (o->cmd || o->duration))
		tb_die(TB_EXIT_USAGE, "--replay takes neither a command nor --duration");
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

	for (i = 0; i < NR_CLASSES; i++)
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

/*
 * Lost records by id space: ring buffer reservation failures counted by
 * the programs, and runs the kernel skipped because the same program was
 * already running on that CPU (bpf_prog_info.recursion_misses).
 */
struct losses {
	__u64 ringbuf[TB_BPF_NR_COUNTERS];
	__u64 recursion[TB_BPF_NR_COUNTERS];
};

static void read_losses(struct tracebuf_bpf *skel, int nr_cpus,
			struct losses *l)
{
	__u64 *vals = calloc(nr_cpus, sizeof(__u64));
	int fd = bpf_map__fd(skel->maps.drops);
	struct prog_space ps[MAX_PROGS];
	size_t i, n = prog_spaces(skel, ps);
	__u32 k;
	int cpu;

	if (!vals)
		tb_die(TB_EXIT_FAIL, "out of memory");
	memset(l, 0, sizeof(*l));
	for (k = 0; k < TB_BPF_NR_COUNTERS; k++) {
		if (bpf_map_lookup_elem(fd, &k, vals)) {
			tb_warn_errno("cannot read the drop counters");
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

/*
 * Start the command once the programs are attached.  A close-on-exec
 * pipe carries exec's errno back, so that a missing command is an error
 * here rather than an empty trace.
 */
static pid_t start_command(char **cmd, bool stdout_is_trace)
{
	int pfd[2], err = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		tb_die_errno(TB_EXIT_FAIL, "pipe");
	pid = fork();
	if (pid < 0)
		tb_die_errno(TB_EXIT_FAIL, "cannot fork");
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		close(pfd[0]);
		/* With -o -, stdout carries the trace: keep the command off it. */
		if (stdout_is_trace && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(cmd[0], cmd);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	if (read(pfd[0], &err, sizeof(err)) == sizeof(err)) {
		waitpid(pid, NULL, 0);
		errno = err;
		tb_die_errno(TB_EXIT_FAIL, "cannot run '%s'", cmd[0]);
	}
	close(pfd[0]);
	return pid;
}

static double tv_sec(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static __u64 now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct result {
	struct losses lost;
	struct rusage ru0, ru1;	/* reader's usage after attach, at the end */
	__u64 bytes;
	__u64 blocks;		/* in the file */
	__u64 t0;		/* CLOCK_MONOTONIC when recording started */
	double duration;
	int status;		/* the command's wait status, or -1 */
};

static __u64 lost_events(const struct losses *l, int cls)
{
	__u32 sp = tb_fdr_classes[cls].space;

	return l->ringbuf[sp] + l->recursion[sp];
}

static void print_summary(const struct collector *c, const struct result *r)
{
	__u64 lost = 0, lost_rb = 0, lost_rec = 0;
	size_t i;

	for (i = 0; i < NR_CLASSES; i++) {
		lost += lost_events(&r->lost, i);
		lost_rb += r->lost.ringbuf[tb_fdr_classes[i].space];
		lost_rec += r->lost.recursion[tb_fdr_classes[i].space];
	}
	fprintf(stderr, "%s: %llu events in %.2f s -> %s (%llu bytes, %llu blocks)\n",
		tb_prog(), (unsigned long long)c->events, r->duration,
		c->opt->output, (unsigned long long)r->bytes,
		(unsigned long long)r->blocks);
	fprintf(stderr, " ");
	for (i = 0; i < NR_CLASSES; i++)
		if (c->opt->classes & tb_fdr_classes[i].bit)
			fprintf(stderr, " %s %llu", tb_fdr_classes[i].name,
				(unsigned long long)c->per_class[i]);
	fprintf(stderr, ", switches %llu\n", (unsigned long long)c->switches);
	fprintf(stderr, "  lost %llu events (ring buffer full %llu, recursion %llu), %llu switches",
		(unsigned long long)lost, (unsigned long long)lost_rb,
		(unsigned long long)lost_rec,
		(unsigned long long)(r->lost.ringbuf[0] + r->lost.recursion[0]));
	if (r->status != -1) {
		if (WIFEXITED(r->status))
			fprintf(stderr, "; command exited %d",
				WEXITSTATUS(r->status));
		else if (WIFSIGNALED(r->status))
			fprintf(stderr, "; command killed by signal %d",
				WTERMSIG(r->status));
	}
	fprintf(stderr, "\n");
	if (c->bad)
		fprintf(stderr, "  %llu malformed records ignored\n",
			(unsigned long long)c->bad);
	if (c->opt->verbose) {
		fprintf(stderr, "  %llu exits without entry left out, %llu records clamped\n",
			(unsigned long long)c->unmatched,
			(unsigned long long)c->blk.clamped);
		for (i = 0; i < c->nr_workfns; i++)
			fprintf(stderr, "  work key %zu: function 0x%llx\n", i,
				(unsigned long long)c->workfns[i]);
	}
}

static double cpu_delta(struct timeval a, struct timeval b)
{
	return (b.tv_sec - a.tv_sec) + (b.tv_usec - a.tv_usec) / 1e6;
}

/*
 * One object on one line (scripts append it to JSON Lines files); the
 * keys are documented in bpf-collector.rst.
 */
static void write_json(const struct collector *c, const struct result *r,
		       const char *path)
{
	FILE *j = tb_open_output(path);
	__u64 lost = 0, lost_rb = 0, lost_rec = 0;
	double user, sys;
	int st = r->status;
	size_t i;

	for (i = 0; i < NR_CLASSES; i++) {
		lost += lost_events(&r->lost, i);
		lost_rb += r->lost.ringbuf[tb_fdr_classes[i].space];
		lost_rec += r->lost.recursion[tb_fdr_classes[i].space];
	}
	fprintf(j, "{\"events\": %llu, \"records\": %llu, \"switches\": %llu, ",
		(unsigned long long)c->events, (unsigned long long)c->records,
		(unsigned long long)c->switches);
	fprintf(j, "\"bytes\": %llu, \"blocks\": %llu, ",
		(unsigned long long)r->bytes, (unsigned long long)r->blocks);
	fprintf(j, "\"lost\": %llu, \"lost_ringbuf\": %llu, ",
		(unsigned long long)lost, (unsigned long long)lost_rb);
	fprintf(j, "\"lost_recursion\": %llu, \"lost_switches\": %llu, ",
		(unsigned long long)lost_rec,
		(unsigned long long)(r->lost.ringbuf[0] + r->lost.recursion[0]));
	fprintf(j, "\"clamped\": %llu, \"unmatched\": %llu, \"malformed\": %llu, ",
		(unsigned long long)c->blk.clamped,
		(unsigned long long)c->unmatched, (unsigned long long)c->bad);
	fprintf(j, "\"loss_markers\": %llu, \"loss_marked\": %llu, ",
		(unsigned long long)c->gap_reports,
		(unsigned long long)c->gap_events);
	fprintf(j, "\"classes\": {");
	for (i = 0; i < NR_CLASSES; i++)
		fprintf(j, "%s\"%s\": %llu", i ? ", " : "", tb_fdr_classes[i].name,
			(unsigned long long)c->per_class[i]);
	fprintf(j, "}, \"lost_classes\": {");
	for (i = 0; i < NR_CLASSES; i++)
		fprintf(j, "%s\"%s\": %llu", i ? ", " : "", tb_fdr_classes[i].name,
			(unsigned long long)lost_events(&r->lost, i));
	fprintf(j, "}, ");
	user = cpu_delta(r->ru0.ru_utime, r->ru1.ru_utime);
	sys = cpu_delta(r->ru0.ru_stime, r->ru1.ru_stime);
	fprintf(j, "\"duration_s\": %.6f, \"reader_user_s\": %.6f, ",
		r->duration, user);
	fprintf(j, "\"reader_sys_s\": %.6f, \"reader_ns\": %.0f, ",
		sys, (user + sys) * 1e9);
	fprintf(j, "\"setup_cpu_s\": %.6f, \"ringbuf_bytes\": %llu, \"nr_args\": %u, ",
		tv_sec(r->ru0.ru_utime) + tv_sec(r->ru0.ru_stime),
		(unsigned long long)c->opt->rb_size, c->opt->nr_args);
	fprintf(j, "\"command_status\": %d}\n",
		st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) :
		128 + WTERMSIG(st));
	tb_close_output(j, path);
}

/*
 * Record with the BPF programs until the command ends, the duration is
 * over or a signal comes; everything is drained into @c.
 */
static void run_bpf(struct collector *c, struct options *opt,
		    struct result *r)
{
	struct tracebuf_bpf *skel;
	struct ring_buffer *rb;
	__u64 deadline = 0;
	int status = -1, err;
	pid_t child = 0;

	skel = tracebuf_bpf__open();
	if (!skel)
		tb_die_errno(TB_EXIT_FAIL, "cannot open the BPF object");
	skel->rodata->nr_args = opt->nr_args;
	skel->rodata->self_tgid = getpid();
	skel->rodata->wakeup_bytes = opt->wakeup;
	err = bpf_map__set_max_entries(skel->maps.events, opt->rb_size);
	if (err) {
		errno = -err;
		tb_die_errno(TB_EXIT_FAIL, "cannot size the ring buffer");
	}
	set_autoload(skel, opt->classes);

	err = tracebuf_bpf__load(skel);
	if (err) {
		errno = -err;
		if (errno == EPERM)
			tb_die(TB_EXIT_FAIL,
			       "cannot load BPF programs: %s (need CAP_BPF+CAP_PERFMON or root)",
			       strerror(errno));
		tb_die(TB_EXIT_FAIL,
		       "cannot load BPF programs: %s (the kernel refused them; -v shows libbpf's and the verifier's log)",
		       strerror(errno));
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), handle_event,
			      c, NULL);
	if (!rb)
		tb_die_errno(TB_EXIT_FAIL, "cannot map the ring buffer");

	c->realtime_off = now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC);
	c->blk.wall_off = c->realtime_off;
	err = tracebuf_bpf__attach(skel);
	if (err) {
		errno = -err;
		tb_die_errno(TB_EXIT_FAIL, "cannot attach BPF programs");
	}
	/* All programs start recording at once; see tracebuf.bpf.c. */
	__atomic_store_n(&skel->bss->enabled, 1, __ATOMIC_RELEASE);
	/* The reader's CPU time is counted from here: loading is not. */
	getrusage(RUSAGE_SELF, &r->ru0);
	r->t0 = now_ns(CLOCK_MONOTONIC);
	if (opt->duration)
		deadline = r->t0 + opt->duration * 1000000000ULL;
	if (opt->cmd)
		child = start_command(opt->cmd, !strcmp(opt->output, "-"));

	while (!__atomic_load_n(&stop_signal, __ATOMIC_RELAXED)) {
		if (child && __atomic_load_n(&child_exited, __ATOMIC_RELAXED) &&
		    waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (deadline && now_ns(CLOCK_MONOTONIC) >= deadline)
			break;
		err = ring_buffer__poll(rb, 100);
		/*
		 * poll() consumes only after a wake-up, and the programs
		 * skip those below --wakeup bytes: drain on the timeout.
		 */
		if (err == 0)
			err = ring_buffer__consume(rb);
		if (err < 0 && err != -EINTR) {
			errno = -err;
			tb_die_errno(TB_EXIT_FAIL, "cannot read the ring buffer");
		}
	}

	/*
	 * Stop the producers first so that the drain below is complete; all
	 * at once, like the start.
	 */
	__atomic_store_n(&skel->bss->enabled, 0, __ATOMIC_RELEASE);
	tracebuf_bpf__detach(skel);
	err = ring_buffer__consume(rb);
	if (err < 0) {
		errno = -err;
		tb_die_errno(TB_EXIT_FAIL, "cannot read the ring buffer");
	}
	if (child) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	read_losses(skel, c->nr_cpus, &r->lost);
	r->status = status;
	ring_buffer__free(rb);
	tracebuf_bpf__destroy(skel);
}

/*
 * --replay: the same processing on records from a file instead of the
 * ring buffer (each a little-endian u32 size, then the record), with the
 * wall clock at 0.  It tests the block building on any host, without BPF.
 */
static void run_replay(struct collector *c, const char *path)
{
	FILE *f = tb_open_input(path);
	uint8_t len[4];
	__u64 rec[64];
	__u32 n;

	while (fread(len, sizeof(len), 1, f) == 1) {
		n = tb_get32(len);
		if (n > sizeof(rec) || fread(rec, 1, n, f) != n)
			tb_die(TB_EXIT_DATA, "%s: truncated or oversized record", path);
		handle_event(c, rec, n);
	}
	if (ferror(f))
		tb_die_errno(TB_EXIT_FAIL, "error reading '%s'", path);
	if (f != stdin)
		fclose(f);
}

int cmd_bpf(int argc, char **argv)
{
	struct options opt = { 0 };
	struct collector col = { 0 };
	struct sigaction sa;
	struct result r = { .status = -1 };
	struct tb_fdr_post_files files = {
		.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
	};
	struct tb_fdr_post post = { 0 };
	struct tb_name_map known = { 0 };
	struct tb_error err;
	char *names = NULL, *map_path = NULL;
	char *tfile_path = NULL, *json_path = NULL;
	FILE *out;

	tb_cli_init(argv[0]);
	parse_args(argc, argv, &opt);
	libbpf_verbose = opt.verbose;
	libbpf_set_print(libbpf_print);

	col.opt = &opt;
	/* Replayed records may name any CPU a real machine could have. */
	col.nr_cpus = opt.replay ? 4096 : libbpf_num_possible_cpus();
	if (col.nr_cpus <= 0) {
		errno = -col.nr_cpus;
		tb_die_errno(TB_EXIT_FAIL, "cannot count the possible CPUs");
	}
	if (blocks_init(&col))
		tb_die(TB_EXIT_FAIL, "out of memory");
	/*
	 * Handlers first: a SIGTERM while loading (a script that stops us
	 * early) still ends with a valid, if empty, file.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);

	/* Fail on an unwritable output before tracing anything. */
	out = tb_open_output(opt.output);

	if (opt.replay) {
		getrusage(RUSAGE_SELF, &r.ru0);
		r.t0 = now_ns(CLOCK_MONOTONIC);
		run_replay(&col, opt.replay);
	} else {
		run_bpf(&col, &opt, &r);
	}

	/* The blocks as they ended, put in order by the post-processing. */
	if (tb_fdr_blocks_finish(&col.blk))
		tb_die(TB_EXIT_FAIL, "out of memory");
	post.raw = opt.raw;
	if (tb_fdr_post_run(&post, col.blk.fdr, col.blk.fdr_len, out, &err))
		tb_die(TB_EXIT_FAIL, "%s: %s", opt.output, err.msg);
	tb_close_output(out, opt.output);
	r.bytes = post.bytes;
	r.blocks = post.out_blocks;
	col.unmatched = post.removed;
	/* Next to a file: OUTPUT.names, .map, .tfile, .json (-J). */
	if (strcmp(opt.output, "-")) {
		if (asprintf(&names, "%s.names", opt.output) < 0 ||
		    asprintf(&map_path, "%s.map", opt.output) < 0 ||
		    asprintf(&tfile_path, "%s.tfile", opt.output) < 0 ||
		    asprintf(&json_path, "%s.json", opt.output) < 0)
			tb_die(TB_EXIT_FAIL, "out of memory");
		files.trace = opt.output;
		files.map = map_path;
		files.tfile = opt.no_tfile ? NULL : tfile_path;
		files.json = opt.json ? json_path : NULL;
	}
	files.names = opt.names ? opt.names : names;
	if (files.names) {
		known_names(&col, &known);
		files.known = &known;
		if (tb_fdr_post_files(&post, &files, &err))
			tb_die(TB_EXIT_FAIL, "%s", err.msg);
		tb_name_map_free(&known);
	}
	free(names);
	free(map_path);
	free(tfile_path);
	free(json_path);
	tb_fdr_post_free(&post);
	getrusage(RUSAGE_SELF, &r.ru1);
	r.duration = (now_ns(CLOCK_MONOTONIC) - r.t0) / 1e9;

	if (!opt.quiet)
		print_summary(&col, &r);
	if (opt.stats_json)
		write_json(&col, &r, opt.stats_json);

	tb_fdr_blocks_free(&col.blk);
	free(col.workfns);
	return TB_EXIT_OK;
}
