// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf convert: convert between XScale trace buffers, XRay FDR traces and GDB
 * trace files.  Every conversion streams: input is read once, front to
 * back, in bounded memory.  The mappings are described in
 * Documentation/conversions.rst.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "cli_cmd.h"
#include "cli_opt.h"
#include "cmds.h"
#include "names_cli.h"
#include "report_cli.h"
#include "convert/fdr_ctf.h"
#include "convert/fdr_json.h"
#include "convert/fdr_post.h"
#include "convert/fdr_print.h"
#include "convert/fdr_tracedat.h"
#include "convert/fdr_tfile.h"
#include "convert/xs_fdr.h"
#include "convert/xs_print.h"
#include "convert/xs_tfile.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "format/name_map.h"
#include "format/task_map.h"
#include "format/tfile.h"
#include "format/tfile_reader.h"
#include "format/xray_map.h"
#include "format/xs.h"
#include "format/xs_record.h"
#include "tool.h"
#include "util/buf.h"
#include "util/output.h"
#include "util/sniff.h"

enum { OPT_WITH_NAMES = TB_OPT_ID_FIRST_FREE };

static struct {
	uint32_t size;
	uint64_t clock;
	const char *map;
	bool names;		/* --with-names: fdr-text names from INPUT.names */
	bool no_names;		/* --no-names: no companion picked up */
	bool quiet;		/* -q: no warnings, no progress */
	const char *in;
	const char *out;
	FILE *in_f;
	enum tb_sniff_kind kind;	/* what the conversion reads */
} opt = {
	.size = TB_XS_MIN_SIZE,
	.clock = TB_XS_FDR_DEFAULT_CLOCK,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] CONVERSION [INPUT|-] [OUTPUT|-]\n"
		"Convert traces; INPUT and OUTPUT (or -o OUTPUT) default to stdin and\n"
		"stdout.\n\n"
		"Conversions:\n"
		"  xscale-text   trace buffer (dump, snapshot, chain) -> text (as tracebuf decode)\n"
		"  xscale-tfile  trace buffer -> GDB trace file (arm)\n"
		"  xscale-fdr    trace buffer -> XRay FDR v5 (lossless mapping)\n"
		"  fdr-xscale    FDR made by xscale-fdr -> chain file\n"
		"  xscale-names  \"ID NAME\" map of the xscale-fdr function ids\n"
		"  fdr-text      XRay FDR (v1-5) -> text, as llvm-xray fdr-dump\n"
		"  fdr-tfile     XRay FDR -> GDB trace file (x86-64)\n"
		"  fdr-json      XRay FDR -> trace_event JSON (Perfetto, speedscope)\n"
		"  fdr-ctf       XRay FDR -> CTF 1.8 directory OUTPUT/kernel, an LTTng\n"
		"                kernel trace (babeltrace2, Trace Compass, lttng-analyses)\n"
		"  fdr-tracedat  XRay FDR -> trace-cmd trace.dat (version 6): trace-cmd\n"
		"                report, KernelShark\n"
		"  fdr-tidy      kernel FDR capture (cat /dev/tracebuf_fdr) -> one block\n"
		"                per task, exits without entry left out, for llvm-xray\n"
		"                account and stack\n"
		"  tfile-text    GDB trace file -> text\n"
		"  map-elf       \"ID NAME\" map -> ELF instrumentation map for llvm-xray -m\n\n"
		"Options:\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_convert_spec, NULL);
	fputs("\n"
	      "An option a conversion does not use is refused (exit 2).\n\n"
	      "Examples:\n"
	      "  tracebuf convert fdr-json trace.fdr trace.json   # names from trace.fdr.names\n"
	      "  tracebuf convert xscale-fdr chain.rec chain.fdr && llvm-xray account chain.fdr\n"
	      "  tracebuf convert fdr-ctf trace.fdr trace.ctf && babeltrace2 trace.ctf\n"
	      "  tracebuf convert fdr-tracedat trace.fdr trace.dat && trace-cmd report trace.dat\n\n"
	      "Exit status: 0 ok, 1 failure (I/O), 2 usage, 3 malformed input.\n", f);
}

static void data_error(const struct tb_error *err)
{
	char msg[512];

	tb_cli_progress_done();
	/* A read that failed is not a short file. */
	if (opt.in_f && ferror(opt.in_f))
		tool_die(TB_EXIT_FAIL, "error reading '%s'", opt.in);
	/*
	 * Another kind of file: which, and what reads it; standard input
	 * too, when it was copied to a file (the FDR conversions with
	 * names).
	 */
	if (tb_sniff_mismatch_file(opt.in, opt.in_f, opt.kind, msg, sizeof(msg)))
		tool_die(TB_EXIT_DATA, "%s (%s)", msg, err->msg);
	tool_die(TB_EXIT_DATA, "%s: %s", opt.in, err->msg);
}

/* A trace read only in part: said on stderr, the exit status stays 0. */
static void warn_cut(const struct tb_error *err)
{
	if (err->warning[0] && !opt.quiet)
		tb_cli_warn("%s: %s", opt.in, err->warning);
}

static void progress(uint64_t bytes)
{
	if (!opt.quiet)
		tb_cli_progress(bytes);
}

static void write_error(int err)
{
	errno = err;
	tool_die_errno(TB_EXIT_FAIL, "writing '%s'", opt.out);
}

/* ---- trace buffer input, shared by the xscale-* conversions ---- */

/* Called once per decoded buffer; non-zero stops the walk. */
typedef int (*buffer_fn)(void *ctx, const struct tb_xs_buffer *b,
			 const struct tb_xs_msg *msgs,
			 const struct tb_xs_result *res);

struct walk {
	buffer_fn fn;
	void *ctx;
};

static int walk_one(void *ctx, const struct tb_xs_input *tin, const struct tb_xs_buffer *b,
		    const struct tb_xs_msg *msgs, const struct tb_xs_result *res)
{
	const struct walk *w = ctx;

	if (w->fn(w->ctx, b, msgs, res))
		tool_die(TB_EXIT_FAIL, "conversion failed");
	progress(tin->off);
	return 0;
}

static void walk_buffers(FILE *in, buffer_fn fn, void *ctx)
{
	struct walk w = { fn, ctx };
	struct tb_xs_input tin;
	int ret;

	tb_xs_record_init(&tin, in, opt.size);
	ret = tb_xs_record_decode_each(&tin, walk_one, &w);
	tb_xs_record_release(&tin);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret < 0)
		data_error(&tin.err);
	if (ferror(in))
		tool_die_errno(TB_EXIT_FAIL, "reading '%s'", opt.in);
}

struct text_ctx {
	FILE *out;
	unsigned long n;
};

static int xs_text_buf(void *ctx, const struct tb_xs_buffer *b,
		       const struct tb_xs_msg *msgs,
		       const struct tb_xs_result *res)
{
	struct text_ctx *t = ctx;

	tb_xs_print_buffer(t->out, t->n++, b, msgs, res);
	return 0;
}

static void xscale_text(FILE *in, FILE *out)
{
	struct text_ctx t = { .out = out };

	walk_buffers(in, xs_text_buf, &t);
}

/* xscale-tfile: the library's mapping (convert/xs_tfile.h). */
static int xt_buf(void *ctx, const struct tb_xs_buffer *b,
		  const struct tb_xs_msg *msgs,
		  const struct tb_xs_result *res)
{
	int ret = tb_xs_tfile_buffer(ctx, msgs, res);

	if (ret == -E2BIG)
		tool_die(TB_EXIT_DATA, "more than %d distinct addresses",
			 TB_TFILE_MAX_TP);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	return ret;
}

static void xscale_tfile(FILE *in, FILE *out)
{
	struct tb_xs_tfile *x = tb_xs_tfile_create(out);
	int ret;

	if (!x)
		tool_die(TB_EXIT_FAIL, "cannot create the trace file writer");
	walk_buffers(in, xt_buf, x);
	ret = tb_xs_tfile_finish(x);
	if (ret)
		write_error(-ret);
}

struct xf_ctx {
	struct tb_fdr_writer w;
	uint64_t tsc;
};

static int xf_buf(void *ctx, const struct tb_xs_buffer *b,
		  const struct tb_xs_msg *msgs,
		  const struct tb_xs_result *res)
{
	struct xf_ctx *x = ctx;

	if (tb_xs_fdr_write_buffer(&x->w, b, msgs, res, &x->tsc))
		write_error(x->w.error ? x->w.error : EIO);
	return 0;
}

static void xscale_fdr(FILE *in, FILE *out)
{
	struct tb_fdr_header h = {
		.version = 5,
		.type = TB_FDR_TYPE_FDR,
		.flags = TB_FDR_FLAG_CONSTANT_TSC | TB_FDR_FLAG_NONSTOP_TSC,
		.cycle_frequency = opt.clock,
	};
	struct xf_ctx x = { .tsc = 0 };
	int ret;

	if (tb_fdr_writer_init(&x.w, out, &h, 0))
		write_error(x.w.error);
	walk_buffers(in, xf_buf, &x);
	ret = tb_fdr_writer_finish(&x.w);
	if (ret)
		write_error(-ret);
}

/* ---- FDR input ---- */

static int fx_emit(void *ctx, const struct tracebuf_record *hdr,
		   bool has_hdr, const uint8_t *data)
{
	FILE *out = ctx;
	uint8_t h[TB_RECORD_HDR_SIZE];
	struct tracebuf_record r = *hdr;

	/* A raw dump comes back as a record: nothing else can carry it. */
	if (!has_hdr) {
		memset(&r, 0, sizeof(r));
		r.buf_size = hdr->buf_size;
	}
	r.magic = TRACEBUF_RECORD_MAGIC;
	r.version = TRACEBUF_RECORD_VERSION;
	r.hdr_size = TB_RECORD_HDR_SIZE;
	tb_xs_record_format(&r, h);
	if (fwrite(h, 1, sizeof(h), out) != sizeof(h) ||
	    fwrite(data, 1, r.buf_size, out) != r.buf_size)
		write_error(errno ? errno : EIO);
	return 0;
}

static void fdr_xscale(FILE *in, FILE *out)
{
	struct tb_xs_fdr_reader x;
	struct tb_error err = { 0 };
	int left_out = 0;

	tb_xs_fdr_reader_init(&x, &err, fx_emit, out);
	if (tb_fdr_reader_read(in, NULL, tb_xs_fdr_visit, &x, NULL, &err))
		data_error(&err);
	/* A cut trace: its last buffer may have lost its end. */
	if (err.warning[0])
		left_out = tb_xs_fdr_reader_finish_cut(&x);
	else if (tb_xs_fdr_reader_finish(&x))
		left_out = -1;
	if (left_out < 0)
		data_error(&err);
	if (err.warning[0] && !opt.quiet)
		tb_cli_warn("%s: %s%s", opt.in, err.warning, left_out ?
			    "; the trace buffer it ends in is left out" : "");
}

struct ft_ctx {
	FILE *out;
	uint64_t n;
	const struct tb_name_map *names;
};

static int ft_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct ft_ctx *t = ctx;

	tb_fdr_print(t->out, r);
	if (!(++t->n & 0xffff))
		progress(r->offset);
	return 0;
}

/*
 * The trace's names and tasks (convert/trace_names.h): -m's file, else
 * the trace's own, else INPUT.names and INPUT.tasks when they exist;
 * none with --no-names.  Read once, at the first need.
 */
static struct tb_trace_names *trace_names(void)
{
	static struct tb_trace_names tn;
	static bool loaded;

	if (!loaded)
		names_cli_load(&tn, opt.in, opt.in_f, opt.map, NULL,
			       opt.no_names, opt.quiet);
	loaded = true;
	return &tn;
}

/* The names, handed over: the caller frees them. */
static void load_names(struct tb_name_map *m)
{
	struct tb_trace_names *tn = trace_names();

	*m = tn->names;
	memset(&tn->names, 0, sizeof(tn->names));
}

/* The tasks, handed over likewise. */
static void load_tasks(struct tb_task_map *tasks)
{
	struct tb_trace_names *tn = trace_names();

	*tasks = tn->tasks;
	tb_task_map_init(&tn->tasks);
}

/* fdr-text with names: each function record followed by its name. */
static int ft_visit_named(void *ctx, const struct tb_fdr_record *r)
{
	struct ft_ctx *t = ctx;

	tb_fdr_print_named(t->out, r, r->kind == TB_FDR_FUNCTION ?
			   tb_name_map_find(t->names, r->func_id) : NULL);
	if (!(++t->n & 0xffff))
		progress(r->offset);
	return 0;
}

static void fdr_text(FILE *in, FILE *out)
{
	struct ft_ctx t = { .out = out };
	struct tb_error err = { 0 };
	struct tb_name_map names;
	int ret;

	/* llvm-xray fdr-dump's text unless names are asked for. */
	memset(&names, 0, sizeof(names));
	if (opt.map || opt.names)
		load_names(&names);
	t.names = &names;
	ret = tb_fdr_reader_read(in, NULL, opt.map || opt.names ? ft_visit_named :
				 ft_visit, &t, NULL, &err);
	tb_name_map_free(&names);
	if (ret)
		data_error(&err);
	warn_cut(&err);
}

/* fdr-tfile: the library's mapping (lib/convert/fdr_tfile.h). */
static void fdr_tfile(FILE *in, FILE *out)
{
	struct tb_name_map names;
	struct tb_error err = { 0 };
	int ret;

	load_names(&names);
	ret = tb_fdr_tfile_write(in, out, &names, &err);
	tb_name_map_free(&names);
	if (ret == -1)
		data_error(&err);
	if (ret)
		write_error(-ret);
	warn_cut(&err);
}

/*
 * fdr-json: trace_event JSON (lib/convert/fdr_json.h), tasks named by INPUT.tasks
 * when the collector left one.
 */
static void fdr_json(FILE *in, FILE *out)
{
	struct tb_fdr_json_stats st;
	struct tb_name_map names;
	struct tb_task_map tasks;
	struct tb_error err = { 0 };
	int ret;

	load_names(&names);
	load_tasks(&tasks);
	ret = tb_fdr_json_write(in, out, &names, &tasks, &st, &err);
	tb_name_map_free(&names);
	tb_task_map_free(&tasks);
	if (ret == -1)
		data_error(&err);
	if (ret)
		write_error(-ret);
	warn_cut(&err);
	if (st.disordered && !opt.quiet)
		tb_cli_warn("%s: %llu threads have records out of time order: calls are matched in file order (tracebuf convert fdr-tidy orders a capture read from the device)",
			    opt.in, (unsigned long long)st.disordered);
}

/*
 * fdr-tracedat: a trace-cmd trace.dat (lib/convert/fdr_tracedat.h); what
 * ftrace's events cannot say is said here.
 */
static void fdr_tracedat(FILE *in, FILE *out)
{
	struct tb_fdr_tracedat_opts o = { 0 };
	struct tb_fdr_tracedat_stats st;
	struct tb_name_map names;
	struct tb_task_map tasks;
	struct tb_error err = { 0 };
	int ret;

	load_names(&names);
	load_tasks(&tasks);
	o.names = &names;
	o.tasks = &tasks;
	ret = tb_fdr_tracedat_write(in, out, &o, &st, &err);
	tb_name_map_free(&names);
	tb_task_map_free(&tasks);
	if (ret == -1)
		data_error(&err);
	if (ret)
		write_error(-ret);
	warn_cut(&err);
	if (opt.quiet)
		return;
	tb_cli_warn("%s: %llu events on %u CPUs in %llu pages, %llu command lines",
		    opt.out, (unsigned long long)st.events, st.cpus,
		    (unsigned long long)st.pages, (unsigned long long)st.tasks);
	if (st.switches || st.wakeups)
		tb_cli_warn("%s: %llu sched_switch and %llu sched_wakeup from the recorded switches and wake-ups",
			    opt.out, (unsigned long long)st.switches,
			    (unsigned long long)st.wakeups);
	else
		tb_cli_warn("%s: no switch or wake-up in the trace (the sched class was off, or an older recorder), so no sched_switch, sched_wakeup",
			    opt.out);
	tb_cli_warn("%s: the events' flags and preempt counts are 0; no kernel symbol addresses (kallsyms empty): kernel functions are tracebuf:func_entry/func_exit with their names",
		    opt.out);
	if (st.rets)
		tb_cli_warn("%s: %llu sys_exit have a return value in the trace (an error)",
			    opt.out, (unsigned long long)st.rets);
	if (st.sys_exits)
		tb_cli_warn("%s: %llu sys_exit have no return value in the trace (the recorder writes only errors): ret written as 0",
			    opt.out, (unsigned long long)st.sys_exits);
	if (st.rets_unmatched)
		tb_cli_warn("%s: %llu return values (RET) do not follow an exit of their call: left out",
			    opt.out, (unsigned long long)st.rets_unmatched);
	if (st.malformed)
		tb_cli_warn("%s: %llu typed events too short for their type: written as tracebuf:typed_event",
			    opt.out, (unsigned long long)st.malformed);
	if (st.irq_exits)
		tb_cli_warn("%s: %llu irq_handler_exit: ret is not recorded, written as 1 (handled)",
			    opt.out, (unsigned long long)st.irq_exits);
	if (st.faults)
		tb_cli_warn("%s: %llu page faults: ip and error_code are not recorded, written as 0",
			    opt.out, (unsigned long long)st.faults);
	if (st.args_unrecorded)
		tb_cli_warn("%s: %llu sys_enter have no arguments recorded: args are -1",
			    opt.out, (unsigned long long)st.args_unrecorded);
	if (st.compat)
		tb_cli_warn("%s: %llu sys_enter/sys_exit are 32-bit (compat) calls: raw_syscalls cannot say so",
			    opt.out, (unsigned long long)st.compat);
	if (st.own)
		tb_cli_warn("%s: %llu events have no ftrace counterpart (kernel functions, work items, typed events): written as tracebuf:* events",
			    opt.out, (unsigned long long)st.own);
	if (st.cut_markers)
		tb_cli_warn("%s: %llu markers or typed events longer than a page were cut",
			    opt.out, (unsigned long long)st.cut_markers);
	if (st.nul_markers)
		tb_cli_warn("%s: %llu markers hold a NUL byte: ftrace's print event shows each up to it",
			    opt.out, (unsigned long long)st.nul_markers);
	if (st.sub_ns)
		tb_cli_warn("%s: the trace's clock is finer than 1 ns: times rounded down to ns",
			    opt.out);
}

/*
 * fdr-ctf: an LTTng kernel trace in the directory OUTPUT
 * (lib/convert/fdr_ctf.h); what LTTng's events cannot say is said here.
 */
static void fdr_ctf(FILE *in, const char *dir)
{
	struct tb_fdr_ctf_opts o = { .source = opt.in };
	const struct tb_fdr_meta_block *meta;
	char host[256], release[256], unknown[64] = "";
	struct tb_fdr_ctf_stats st;
	struct tb_name_map names;
	struct tb_task_map tasks;
	struct tb_error err = { 0 };
	int ret;

	load_names(&names);
	load_tasks(&tasks);
	o.names = &names;
	o.tasks = &tasks;
	/* The capture's description, when the trace has one (fdr_meta.h). */
	meta = &trace_names()->meta;
	o.hostname = tb_fdr_meta_value(meta, "hostname", host, sizeof(host));
	o.kernel_release = tb_fdr_meta_value(meta, "release", release,
					     sizeof(release));
	snprintf(unknown, sizeof(unknown), "%s%s%s",
		 o.hostname ? "" : "hostname",
		 !o.hostname && !o.kernel_release ? ", " : "",
		 o.kernel_release ? "" : "kernel release");
	ret = tb_fdr_ctf_write(in, dir, &o, &st, &err);
	tb_name_map_free(&names);
	tb_task_map_free(&tasks);
	if (ret == -1)
		data_error(&err);
	if (ret == -EEXIST)
		tool_die(TB_EXIT_FAIL, "'%s/kernel' holds a trace already: refusing to mix another one in",
			 dir);
	if (ret)
		write_error(-ret);
	warn_cut(&err);
	if (opt.quiet)
		return;
	if (unknown[0])
		tb_cli_warn("%s: %llu events on %u CPUs; not in the trace, so written as \"unknown\": %s",
			    dir, (unsigned long long)st.events, st.cpus, unknown);
	else
		tb_cli_warn("%s: %llu events on %u CPUs", dir,
			    (unsigned long long)st.events, st.cpus);
	if (st.rets)
		tb_cli_warn("%s: %llu syscall exits have a return value in the trace (an error)",
			    dir, (unsigned long long)st.rets);
	if (st.sys_exits)
		tb_cli_warn("%s: %llu syscall exits have no return value in the trace (the recorder writes only errors): ret written as 0",
			    dir, (unsigned long long)st.sys_exits);
	if (st.rets_unmatched)
		tb_cli_warn("%s: %llu return values (RET) do not follow an exit of their call: left out",
			    dir, (unsigned long long)st.rets_unmatched);
	if (st.malformed)
		tb_cli_warn("%s: %llu typed events too short for their type: written as tracebuf_typed_event",
			    dir, (unsigned long long)st.malformed);
	if (st.irq_exits)
		tb_cli_warn("%s: %llu IRQ handler exits: ret is not recorded, written as 1 (IRQ_HANDLED)",
			    dir, (unsigned long long)st.irq_exits);
	if (st.sched_switches || st.wakeups)
		tb_cli_warn("%s: %llu sched_switch and %llu sched_wakeup from the recorded switches and wake-ups",
			    dir, (unsigned long long)st.sched_switches,
			    (unsigned long long)st.wakeups);
	if (st.switches)
		tb_cli_warn("%s: %llu sched_switch derived from the blocks (a CPU's events changing task%s): prev_state 0 and priorities 20 are not recorded",
			    dir, (unsigned long long)st.switches,
			    st.sched_switches ? " where no switch was recorded" : "");
	if (st.args_unrecorded)
		tb_cli_warn("%s: %llu syscall entries have no arguments recorded: the fields lttng-analyses reads are -1 or \"\"",
			    dir, (unsigned long long)st.args_unrecorded);
	if (st.args_dropped)
		tb_cli_warn("%s: %llu arguments past the syscalls' own left out",
			    dir, (unsigned long long)st.args_dropped);
	if (st.own)
		tb_cli_warn("%s: %llu events have no LTTng counterpart (kernel functions, work items, typed events): written as tracebuf_* events",
			    dir, (unsigned long long)st.own);
	if (st.cut_markers)
		tb_cli_warn("%s: %llu markers longer than a packet were cut",
			    dir, (unsigned long long)st.cut_markers);
}

/*
 * fdr-tidy: the collectors' post-processing (lib/convert/fdr_post.h) for a capture
 * read straight from the device, keeping the kernel's function ids (the
 * names: tracebuf fdr names).  It holds the whole capture in memory.
 */
static void fdr_tidy(FILE *in, FILE *out)
{
	struct tb_fdr_post p = { .keep_ids = true };
	struct tb_error err = { 0 };
	struct tb_buf buf = { 0 };
	int ret;

	ret = tb_buf_read_file(&buf, in);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	tool_check(ret, "error reading '%s'", opt.in);
	errno = 0;
	if (tb_fdr_post_run(&p, buf.data, buf.len, out, &err)) {
		if (errno && ferror(out))
			write_error(errno);
		data_error(&err);
	}
	if (p.removed && !opt.quiet)
		tb_cli_warn("left out %llu exits whose entry precedes the capture or was lost",
			    (unsigned long long)p.removed);
	if (p.meta_later && !opt.quiet)
		tb_cli_warn("left out %llu META block%s not first in '%s' (another capture's description, or misplaced: no reader reads one)",
			    (unsigned long long)p.meta_later,
			    p.meta_later == 1 ? "" : "s", opt.in);
	warn_cut(&err);
	tb_fdr_post_free(&p);
	tb_buf_free(&buf);
}

/* ---- tfile-text ---- */

static int tt_line(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
	return 0;
}

static int tt_frame(void *ctx, unsigned int tp, uint64_t off, uint32_t size)
{
	fprintf(ctx, "frame at %" PRIu64 ": tracepoint %u, %u bytes\n", off,
		tp, size);
	return 0;
}

static int tt_block(void *ctx, const struct tb_tfile_block *b)
{
	FILE *out = ctx;
	uint32_t i;

	switch (b->type) {
	case 'R':
		fprintf(out, "  R %u bytes\n", b->len);
		break;
	case 'M':
		fprintf(out, "  M 0x%" PRIx64 " %u bytes:", b->addr, b->len);
		for (i = 0; i < b->len && i < 64; i++)
			fprintf(out, " %02x", b->data[i]);
		fprintf(out, "%s\n", b->len > 64 ? " ..." : "");
		break;
	case 'V':
		fprintf(out, "  V %d = %" PRId64 "\n", b->num, b->value);
		break;
	}
	return 0;
}

/* What gdb tolerates, in the text where it happens. */
static void tt_warning(void *ctx, const struct tb_error *w)
{
	fprintf(ctx, "# warning: %s\n", w->msg);
}

static void tfile_text(FILE *in, FILE *out)
{
	static const struct tb_tfile_visitor v = {
		.line = tt_line, .frame = tt_frame, .block = tt_block,
		.warning = tt_warning,
	};
	struct tb_tfile_info info;
	struct tb_error err = { 0 };

	fputs("# definitions\n", out);
	if (tb_tfile_reader_read(in, &v, out, &info, &err))
		data_error(&err);
	fprintf(out, "# %" PRIu64 " frame(s), %u tracepoint(s), %u variable(s)\n",
		info.frames, info.tracepoints, info.tsvs);
}

static void map_elf(FILE *in, FILE *out)
{
	struct tb_name_map m;
	struct tb_error err = { 0 };
	int ret;

	if (tb_name_map_load(&m, in, &err))
		data_error(&err);
	ret = tb_xray_map_write(out, &m);
	tb_name_map_free(&m);
	if (ret == -ERANGE)
		tool_die(TB_EXIT_DATA, "%s: function ids must be 1..%u",
			 opt.in, TB_XRAY_MAP_MAX_ID);
	if (ret)
		write_error(-ret);
}

/* Names of the XScale mapping's pseudo-functions, for map-elf. */
static void xscale_names(FILE *in, FILE *out)
{
	uint32_t id;

	for (id = 1; id <= TB_XS_FDR_NR_IDS; id++)
		fprintf(out, "%u %s\n", id, tb_xs_fdr_id_name(id));
}

/* The options each conversion uses; any other is refused. */
enum {
	USE_SIZE = 1 << 0, USE_CLOCK = 1 << 1, USE_MAP = 1 << 2,
	USE_NAMES = 1 << 3, USE_NO_NAMES = 1 << 4,
};

/* A conversion: the table's data (cli_cmd.h). */
struct conv {
	void (*fn)(FILE *in, FILE *out);
	void (*dir_fn)(FILE *in, const char *dir);	/* OUTPUT is a directory */
	unsigned int uses;
	enum tb_sniff_kind kind;	/* of its input */
};

#define CONV(name, fn, uses, kind) \
	{ name, NULL, NULL, NULL, &(const struct conv){ fn, NULL, uses, kind } }
#define CONV_DIR(name, fn, uses, kind) \
	{ name, NULL, NULL, NULL, &(const struct conv){ NULL, fn, uses, kind } }

static const struct cli_cmd convs[] = {
	CONV("xscale-text", xscale_text, USE_SIZE, TB_SNIFF_XSCALE),
	CONV("xscale-tfile", xscale_tfile, USE_SIZE, TB_SNIFF_XSCALE),
	CONV("xscale-fdr", xscale_fdr, USE_SIZE | USE_CLOCK, TB_SNIFF_XSCALE),
	CONV("fdr-xscale", fdr_xscale, 0, TB_SNIFF_FDR),
	CONV("xscale-names", xscale_names, 0, TB_SNIFF_UNKNOWN),
	CONV("fdr-text", fdr_text, USE_MAP | USE_NAMES, TB_SNIFF_FDR),
	CONV("fdr-tfile", fdr_tfile, USE_MAP | USE_NO_NAMES, TB_SNIFF_FDR),
	CONV("fdr-json", fdr_json, USE_MAP | USE_NO_NAMES, TB_SNIFF_FDR),
	CONV_DIR("fdr-ctf", fdr_ctf, USE_MAP | USE_NO_NAMES, TB_SNIFF_FDR),
	CONV("fdr-tracedat", fdr_tracedat, USE_MAP | USE_NO_NAMES, TB_SNIFF_FDR),
	CONV("fdr-tidy", fdr_tidy, 0, TB_SNIFF_FDR),
	CONV("tfile-text", tfile_text, 0, TB_SNIFF_TFILE),
	CONV("map-elf", map_elf, 0, TB_SNIFF_NAMES),
	{ NULL }
};

/* Refuse an option @conv does not use: it would do nothing. */
static void refuse_unused(const struct cli_cmd *c, unsigned int given)
{
	const struct conv *conv = c->data;
	static const char *const flag[] = {
		"--size", "--clock", "--map", "--with-names", "--no-names",
	};
	unsigned int b;

	for (b = 0; b < ARRAY_SIZE(flag); b++)
		if ((given & ~conv->uses) & (1U << b))
			tool_die(TB_EXIT_USAGE, "%s has no effect on %s",
				 flag[b], c->name);
	if (opt.names && opt.map)
		tool_die(TB_EXIT_USAGE, "--with-names reads INPUT.names, --map another file: choose one");
	if (opt.no_names && opt.map)
		tool_die(TB_EXIT_USAGE, "--no-names and --map: choose one");
}

/* A number as the help writes it: "400" for TB_XS_FDR_DEFAULT_MHZ. */
#define CONVERT_STR(n)	CONVERT_STR_(n)
#define CONVERT_STR_(n)	#n

static const struct tb_opt convert_opts[] = {
	{ TB_OPT_SIZE,
	  .arg_name = "BYTES", .help = "size of a raw trace buffer dump (default 256, K/M suffixes)" },
	{ .id = 'c', .letter = 'c', .name = "clock", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .arg_name = "HZ", .help = "xscale-fdr: instruction clock, one tick per instruction (default " CONVERT_STR(TB_XS_FDR_DEFAULT_MHZ) " MHz)" },
	{ TB_OPT_MAP,
	  .help = "fdr-tfile, fdr-json, fdr-text: \"ID NAME\" lines naming function ids (default: INPUT.names, and the threads' names from INPUT.tasks, when they exist; fdr-text only with -m or --names)" },
	{ .id = OPT_WITH_NAMES, .name = "with-names",
	  .help = "fdr-text: name function records from INPUT.names (the text is then no longer llvm-xray's)" },
	{ .id = OPT_WITH_NAMES, .name = "names", .instead = "--with-names" },
	{ TB_OPT_NO_NAMES,
	  .help = "fdr-tfile, fdr-json, fdr-ctf, fdr-tracedat: ignore INPUT.names/.tasks" },
	{ TB_OPT_OUTPUT,
	  .help = "the output, instead of OUTPUT" },
	{ TB_OPT_QUIET,
	  .help = "no warnings (a cut trace, records left out) and no progress on stderr" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

static const struct tb_opt_word convert_words[] = {
	{ .name = "xscale-text", .val = TB_VAL_FILE },
	{ .name = "xscale-tfile", .val = TB_VAL_FILE },
	{ .name = "xscale-fdr", .val = TB_VAL_FILE },
	{ .name = "fdr-xscale", .val = TB_VAL_FILE },
	{ .name = "xscale-names", .val = TB_VAL_FILE },
	{ .name = "fdr-text", .val = TB_VAL_FILE },
	{ .name = "fdr-tfile", .val = TB_VAL_FILE },
	{ .name = "fdr-json", .val = TB_VAL_FILE },
	{ .name = "fdr-ctf", .val = TB_VAL_FILE },
	{ .name = "fdr-tracedat", .val = TB_VAL_FILE },
	{ .name = "fdr-tidy", .val = TB_VAL_FILE },
	{ .name = "tfile-text", .val = TB_VAL_FILE },
	{ .name = "map-elf", .val = TB_VAL_FILE },
	{ NULL }
};

const struct tb_opt_spec cmd_convert_spec = {
	.name = "convert", .opts = convert_opts, .words = convert_words,
	.operands = TB_VAL_FILE,
};

int cmd_convert(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct tb_opt_parser p;
	const char *out_opt = NULL;
	unsigned int given = 0;
	char msg[256];
	uint64_t size;
	const struct cli_cmd *cmd;
	const struct conv *conv;
	FILE *in, *out;
	int c;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_convert_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		switch (c) {
		case 's':
			if (tb_optval_size("--size", p.arg, TB_XS_MIN_SIZE,
					   TB_XS_MAX_SIZE, true, &size, msg,
					   sizeof(msg)))
				cli_opt_bad_value(msg);
			opt.size = (uint32_t)size;
			given |= USE_SIZE;
			break;
		case 'c':
			if (tb_optval_number("--clock", p.arg, 1, UINT64_MAX,
					     &opt.clock, msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			given |= USE_CLOCK;
			break;
		case 'm':
			opt.map = p.arg;
			given |= USE_MAP;
			break;
		case OPT_WITH_NAMES:
			opt.names = true;
			given |= USE_NAMES;
			break;
		case TB_OPT_ID_NO_NAMES:
			opt.no_names = true;
			given |= USE_NO_NAMES;
			break;
		case 'o':
			out_opt = p.arg;
			break;
		case 'q':
			opt.quiet = true;
			break;
		}
	}
	cmd = cli_cmd_pick(convs, "conversion", p.nr_operands, p.operands);
	conv = cmd->data;
	if (p.nr_operands > (out_opt ? 2 : 3))
		cli_opt_usage("unexpected argument '%s'",
			      p.operands[out_opt ? 2 : 3]);
	refuse_unused(cmd, given);
	opt.kind = conv->kind;
	opt.in = p.nr_operands > 1 ? p.operands[1] : "-";
	opt.out = out_opt ? out_opt : p.nr_operands > 2 ? p.operands[2] : "-";
	/*
	 * A trace's own names are in its first block, read before the
	 * conversion reads it from the start: from a pipe, through a
	 * temporary file (fdr-text without names streams, as llvm-xray's
	 * fdr-dump).
	 */
	in = tool_open_input(opt.in);
	/*
	 * Never write over what we read (tracebuf convert fdr-tfile f f,
	 * or f < f): asked of the input itself, before any copy of it.
	 */
	tool_refuse_input_as_output(in, opt.in, opt.out);
	if (conv->kind == TB_SNIFF_FDR && (conv->uses & USE_MAP) &&
	    !opt.no_names && (conv->fn != fdr_text || opt.map || opt.names))
		in = report_cli_seekable(in, opt.in);
	opt.in_f = in;
	if (opt.map && strcmp(opt.out, "-") && tb_output_same_path(opt.map, opt.out))
		tool_die(TB_EXIT_FAIL,
			 "'%s' is the name map '%s': refusing to overwrite it",
			 opt.out, opt.map);
	if (conv->dir_fn) {
		if (!strcmp(opt.out, "-"))
			cli_opt_usage("%s writes a directory: give OUTPUT", cmd->name);
		conv->dir_fn(in, opt.out);
		tb_cli_progress_done();
		if (in != stdin)
			fclose(in);
		return TB_EXIT_OK;
	}
	out = tool_open_output(opt.out);
	setvbuf(out, outbuf, _IOFBF, sizeof(outbuf));
	conv->fn(in, out);
	tb_cli_progress_done();
	tool_close_output(out, opt.out);
	if (in != stdin)
		fclose(in);
	return TB_EXIT_OK;
}
