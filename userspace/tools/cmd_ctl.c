// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf ctl: control /dev/tracebuf, the XScale trace buffer device.
 * One subcommand per ioctl, plus snapshot, raw read, event injection and
 * chained capture.  See --help and Documentation/tracebuf.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "cli_cmd.h"
#include "cli_opt.h"
#include "cmds.h"
#include "device/dev.h"
#include "device/xs_inject.h"
#include "format/xs.h"
#include "format/xs_record.h"
#include "tool.h"
#include "util/parse.h"

static const char *dev_path = TB_DEV_PATH;

enum {
	OPT_CLEAR = TB_OPT_ID_FIRST_FREE, OPT_TEXT, OPT_BINARY, OPT_COUNT,
	OPT_DEPTH,
};

static const struct tb_opt ctl_opts[] = {
	{ TB_OPT_DEVICE, .help = "device (default " TB_DEV_PATH ")" },
	{ .id = 'D', .letter = 'd', .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_DEVICE, .instead = "-D" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ TB_OPT_CPU, .scope = "sources" },
	{ .id = OPT_CLEAR, .name = "clear", .scope = "snapshot" },
	{ .id = OPT_CLEAR, .letter = 'c', .scope = "snapshot",
	  .instead = "--clear" },
	{ .id = OPT_TEXT, .name = "text", .scope = "inject" },
	{ .id = OPT_TEXT, .letter = 't', .scope = "inject", .instead = "--text" },
	{ .id = OPT_BINARY, .name = "binary", .scope = "inject" },
	{ .id = OPT_BINARY, .letter = 'b', .scope = "inject",
	  .instead = "--binary" },
	{ .id = OPT_COUNT, .name = "count", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER, .scope = "chain" },
	{ .id = OPT_COUNT, .letter = 'n', .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER, .scope = "chain", .instead = "--count" },
	{ .id = OPT_DEPTH, .name = "depth", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER, .scope = "chain" },
	{ .id = OPT_DEPTH, .letter = 'q', .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER, .scope = "chain", .instead = "--depth" },
	{ 0 }
};

#define CTL_SOURCE_WORDS "none all syscall irq fault ret-user switch"

static const struct tb_opt_word ctl_words[] = {
	{ .name = "status" },
	{ .name = "mode", .val = TB_VAL_WORD, .values = "wrap fill" },
	{ .name = "enable" },
	{ .name = "disable" },
	{ .name = "chkpt", .val = TB_VAL_NUMBER },
	{ .name = "clear" },
	{ .name = "sources", .val = TB_VAL_LIST, .values = CTL_SOURCE_WORDS },
	{ .name = "snapshot", .val = TB_VAL_FILE },
	{ .name = "read", .val = TB_VAL_FILE },
	{ .name = "inject", .val = TB_VAL_FILE },
	{ .name = "chain", .val = TB_VAL_FILE },
	{ NULL }
};

const struct tb_opt_spec cmd_ctl_spec = {
	.name = "ctl", .opts = ctl_opts, .words = ctl_words, .in_order = true,
};

/* The command line, read and checked before the device is opened. */
static struct {
	char **args;			/* the command's operands */
	int nargs;
	const char *file;		/* its FILE, "-" by default */
	uint32_t mode;			/* mode */
	struct tracebuf_chkpt ck;	/* chkpt */
	struct tracebuf_sources src;	/* sources */
	uint32_t snap_flags;		/* snapshot --clear */
	enum tb_xs_inject_form form;	/* inject --text, --binary */
	uint64_t count;			/* chain --count, 0: until a signal */
	uint32_t depth;			/* chain --depth */
	int fd;				/* the device, open once checked */
} cl;

static const char usage_text[] =
	"\n"
	"Control the XScale trace buffer device (default " TB_DEV_PATH ").\n"
	"\n"
	"Commands:\n"
	"  status                 mode, flags, counters and chain state\n"
	"  mode [wrap|fill]       show or set the trace mode (set: capture off)\n"
	"  enable | disable       start or stop capture\n"
	"  chkpt [CHKPT0 CHKPT1]  show or set the checkpoint registers\n"
	"  clear                  empty the buffer, zero the drop counter\n"
	"  sources [LIST] [-C|--cpu N|all]\n"
	"                         show or set the kernel event feed; LIST is\n"
	"                         none, all or a comma list of syscall, irq,\n"
	"                         fault, ret-user (or ret), switch\n"
	"  snapshot [--clear] [FILE]\n"
	"                         write a record (header + buffer) atomically;\n"
	"                         --clear empties the buffer after copying\n"
	"  read [FILE]            read the raw buffer once (clears it)\n"
	"  inject [--text|--binary] [FILE]\n"
	"                         inject events: binary struct tracebuf_event\n"
	"                         records or text lines; default: guess\n"
	"  chain [--count N] [--depth DEPTH] [FILE]\n"
	"                         chained fill-once capture: save N buffers\n"
	"                         (default: until Ctrl-C/SIGTERM) as records,\n"
	"                         DEPTH buffers queued in the kernel (1..%u)\n"
	"\n"
	"FILE '-' or none means stdin/stdout.  Text events, one per line:\n"
	"  exc VECTOR [COUNT]     VECTOR: undef swi pabort dabort irq fiq or 1-7\n"
	"  br TARGET [COUNT]      direct branch\n"
	"  ind TARGET [COUNT]     indirect branch\n"
	"  '#' starts a comment.  COUNT: instructions since the previous event.\n"
	"\n"
	"Options:\n";

static const char usage_tail[] =
	"\n"
	"Examples:\n"
	"  tracebuf ctl mode fill && tracebuf ctl enable\n"
	"  tracebuf ctl snapshot | tracebuf decode\n"
	"\n"
	"Exit status: 0 ok, 1 failure, 2 usage, 3 malformed input.\n";

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [-D DEVICE] COMMAND [ARGS]\n", tb_cli_prog());
	fprintf(f, usage_text, TRACEBUF_CHAIN_MAX);
	tb_opt_help(f, &cmd_ctl_spec, NULL);
	fputs(usage_tail, f);
}

static void xioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	if (ioctl(fd, cmd, arg) == 0)
		return;
	if (errno == EBUSY)
		tool_die_errno(TB_EXIT_FAIL, "%s (disable capture first)", what);
	tool_die_errno(TB_EXIT_FAIL, "%s", what);
}

static void get_status(int fd, struct tracebuf_status *st)
{
	memset(st, 0, sizeof(*st));
	xioctl(fd, TRACEBUF_IOC_STATUS, st, "status");
}

static const char *const src_names[] = {
	"syscall", "irq", "fault", "ret-user", "switch",
};

#define NSRC ARRAY_SIZE(src_names)

static void print_sources(FILE *f, uint32_t mask)
{
	const char *sep = "";
	size_t i;

	if (!mask) {
		fputs("none", f);
		return;
	}
	for (i = 0; i < NSRC; i++) {
		if (mask & (1U << i)) {
			fprintf(f, "%s%s", sep, src_names[i]);
			sep = ",";
		}
	}
}

static int cmd_simple(int fd, unsigned long cmd, const char *what)
{
	xioctl(fd, cmd, NULL, what);
	return TB_EXIT_OK;
}

static int cmd_status(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_status st;
	struct tracebuf_sources src = { 0 };

	get_status(fd, &st);
	xioctl(fd, TRACEBUF_IOC_GET_SOURCES, &src, "get sources");
	printf("backend:          %s\n",
	       st.backend == TRACEBUF_BACKEND_XSCALE ? "xscale" : "emulated");
	printf("abi version:      %u\n", st.abi_version);
	printf("buffer size:      %u\n", st.buf_size);
	printf("mode:             %s\n",
	       st.mode == TRACEBUF_MODE_FILL_ONCE ? "fill" : "wrap");
	printf("enabled:          %s\n",
	       st.flags & TRACEBUF_STATUS_ENABLED ? "yes" : "no");
	printf("full:             %s\n", st.flags & TRACEBUF_STATUS_FULL ? "yes" : "no");
	printf("wrapped:          %s\n", st.flags & TRACEBUF_STATUS_WRAPPED ? "yes" : "no");
	printf("counts:           %s\n",
	       st.flags & TRACEBUF_STATUS_COUNTS ? "real" : "zero (no instruction counter)");
	printf("sources:          ");
	print_sources(stdout, st.sources);
	if (st.sources) {
		if (src.cpu == TRACEBUF_CPU_ALL)
			printf(" (all CPUs)");
		else
			printf(" (CPU %u)", src.cpu);
	}
	printf("\nbytes written:    %llu\n", (unsigned long long)st.bytes_written);
	printf("messages dropped: %llu\n", (unsigned long long)st.messages_dropped);
	if (st.flags & TRACEBUF_STATUS_CHAINED)
		printf("chain:            depth %u, queued %u, saved %llu, lost %llu\n",
		       st.chain_depth, st.chain_queued,
		       (unsigned long long)st.chain_saved,
		       (unsigned long long)st.chain_lost);
	else
		printf("chain:            off\n");
	return TB_EXIT_OK;
}

static int cmd_mode(int argc, char **argv)
{
	int fd = cl.fd;
	uint32_t mode;

	if (!cl.nargs) {
		xioctl(fd, TRACEBUF_IOC_GET_MODE, &mode, "get mode");
		printf("%s\n", mode == TRACEBUF_MODE_FILL_ONCE ? "fill" : "wrap");
		return TB_EXIT_OK;
	}
	xioctl(fd, TRACEBUF_IOC_SET_MODE, &cl.mode, "set mode");
	return TB_EXIT_OK;
}

static int cmd_chkpt(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_chkpt ck;

	if (!cl.nargs) {
		xioctl(fd, TRACEBUF_IOC_GET_CHKPT, &ck, "get checkpoints");
		printf("CHKPT0 0x%08x\nCHKPT1 0x%08x\n", ck.chkpt0, ck.chkpt1);
		return TB_EXIT_OK;
	}
	xioctl(fd, TRACEBUF_IOC_SET_CHKPT, &cl.ck, "set checkpoints");
	return TB_EXIT_OK;
}

static int source_word(void *ctx, const char *tok)
{
	uint32_t *mask = ctx;
	size_t i;

	if (!strcmp(tok, "none"))
		return 0;
	if (!strcmp(tok, "all")) {
		*mask |= TRACEBUF_SRC_ALL;
		return 0;
	}
	for (i = 0; i < NSRC; i++)
		if (!strcmp(tok, src_names[i]))
			break;
	if (!strcmp(tok, "ret"))	/* short for ret-user */
		i = 3;
	if (i == NSRC)
		cli_opt_usage("sources: unknown source '%s' (none, all, %s)",
			      tok, "syscall, irq, fault, ret-user, switch");
	*mask |= 1U << i;
	return 0;
}

static uint32_t parse_sources(const char *list)
{
	uint32_t mask = 0;

	errno = -tb_parse_words(list, source_word, &mask);
	if (errno)
		tool_die_errno(TB_EXIT_FAIL, "out of memory");
	return mask;
}

static int cmd_sources(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_sources src = { .cpu = TRACEBUF_CPU_ALL };

	if (!cl.nargs) {
		xioctl(fd, TRACEBUF_IOC_GET_SOURCES, &src, "get sources");
		print_sources(stdout, src.mask);
		if (src.mask && src.cpu != TRACEBUF_CPU_ALL)
			printf(" cpu %u", src.cpu);
		putchar('\n');
		return TB_EXIT_OK;
	}
	src = cl.src;
	if (ioctl(fd, TRACEBUF_IOC_SET_SOURCES, &src)) {
		if (errno == EOPNOTSUPP)
			tool_die(TB_EXIT_FAIL,
				 "a requested source is not available on this kernel or backend");
		if (errno == EINVAL)
			tool_die(TB_EXIT_FAIL, "invalid sources or CPU %u", src.cpu);
		tool_die_errno(TB_EXIT_FAIL, "set sources");
	}
	return TB_EXIT_OK;
}

static int cmd_snapshot(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_snapshot_req req = { .flags = cl.snap_flags };
	struct tracebuf_status st;
	const char *path = cl.file;
	uint8_t *buf;
	FILE *out;

	get_status(fd, &st);
	req.len = sizeof(struct tracebuf_record) + st.buf_size;
	buf = calloc(1, req.len);
	if (!buf)
		tool_die_errno(TB_EXIT_FAIL, "out of memory");
	req.buf = (uintptr_t)buf;
	xioctl(fd, TRACEBUF_IOC_SNAPSHOT, &req, "snapshot");
	out = tool_open_output(path);
	if (tb_xs_record_write(out, (struct tracebuf_record *)buf,
			       buf + sizeof(struct tracebuf_record)))
		tool_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	tool_close_output(out, path);
	free(buf);
	return TB_EXIT_OK;
}

static int cmd_read(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_status st;
	const char *path = cl.file;
	uint8_t *buf;
	ssize_t n;
	FILE *out;

	get_status(fd, &st);
	if (st.flags & TRACEBUF_STATUS_CHAINED)
		tool_die(TB_EXIT_FAIL, "chained capture is armed: use 'chain' to read records");
	buf = malloc(st.buf_size);
	if (!buf)
		tool_die_errno(TB_EXIT_FAIL, "out of memory");
	n = read(fd, buf, st.buf_size);
	if (n < 0)
		tool_die_errno(TB_EXIT_FAIL, "read %s", dev_path);
	out = tool_open_output(path);
	if (fwrite(buf, 1, n, out) != (size_t)n)
		tool_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	tool_close_output(out, path);
	free(buf);
	return TB_EXIT_OK;
}

/* ---------------------------------------------------------------- inject */

static int cmd_inject(int argc, char **argv)
{
	int fd = cl.fd;
	const char *path = cl.file;
	struct tb_xs_events b = { 0 };
	struct tb_error err;
	size_t off, chunk;
	FILE *in;
	int ret;

	in = tool_open_input(path);
	ret = tb_xs_inject_read(in, path, cl.form, &b, &err);
	if (in != stdin)
		fclose(in);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret == -EIO)
		tool_die(TB_EXIT_FAIL, "%s", err.msg);
	if (ret)
		tool_die(TB_EXIT_DATA, "%s", err.msg);
	/* The device takes up to 1 MiB per write, each validated whole. */
	chunk = (1U << 20) / sizeof(struct tracebuf_event);
	for (off = 0; off < b.n; off += chunk) {
		size_t n = b.n - off < chunk ? b.n - off : chunk;
		ssize_t w = write(fd, b.ev + off, n * sizeof(struct tracebuf_event));

		if (w < 0 && errno == EBUSY)
			tool_die(TB_EXIT_FAIL, "capture is disabled (run '%s enable' first)",
				 tb_cli_prog());
		if (w < 0 && errno == EINVAL)
			tool_die(TB_EXIT_DATA,
				 "%s: the device rejected malformed events near event %zu",
				 path, off);
		if (w < 0)
			tool_die_errno(TB_EXIT_FAIL, "write %s", dev_path);
	}
	fprintf(stderr, "%s: injected %zu events\n", tb_cli_prog(), b.n);
	tb_xs_inject_free(&b);
	return TB_EXIT_OK;
}

/* ----------------------------------------------------------------- chain */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int cmd_chain(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_chain ch = { .depth = cl.depth };
	struct tracebuf_status st;
	struct sigaction sa;
	const char *path = cl.file;
	uint64_t want = cl.count, saved = 0, lost = 0;
	uint32_t mode = TRACEBUF_MODE_FILL_ONCE;
	size_t rec_size;
	uint8_t *rec;
	FILE *out;
	int ret = TB_EXIT_OK;

	get_status(fd, &st);
	rec_size = sizeof(struct tracebuf_record) + st.buf_size;
	rec = malloc(rec_size);
	if (!rec)
		tool_die_errno(TB_EXIT_FAIL, "out of memory");
	out = tool_open_output(path);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: read() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	xioctl(fd, TRACEBUF_IOC_DISABLE, NULL, "disable");
	xioctl(fd, TRACEBUF_IOC_SET_MODE, &mode, "set fill-once mode");
	xioctl(fd, TRACEBUF_IOC_SET_CHAIN, &ch, "arm chained capture");
	xioctl(fd, TRACEBUF_IOC_ENABLE, NULL, "enable");
	while (!stop && (!want || saved < want)) {
		const struct tracebuf_record *hdr = (const void *)rec;
		ssize_t n = read(fd, rec, rec_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tb_cli_warn_errno("read %s", dev_path);
			ret = TB_EXIT_FAIL;
			break;
		}
		if (n == 0)
			break;	/* someone disarmed the chain */
		lost += hdr->lost_before;
		if (tb_xs_record_write(out, hdr, rec + sizeof(*hdr))) {
			tb_cli_warn_errno("error writing '%s'", path);
			ret = TB_EXIT_FAIL;
			break;
		}
		saved++;
	}
	ioctl(fd, TRACEBUF_IOC_DISABLE);
	get_status(fd, &st);
	ch.depth = 0;
	ioctl(fd, TRACEBUF_IOC_SET_CHAIN, &ch);
	tool_close_output(out, path);
	/* Buffers still queued or lost after the last record we wrote. */
	fprintf(stderr, "%s: %llu buffers saved, %llu lost, %llu more lost or queued at the end\n",
		tb_cli_prog(), (unsigned long long)saved, (unsigned long long)lost,
		(unsigned long long)(st.chain_lost - lost) + st.chain_queued);
	free(rec);
	return ret;
}

static int cmd_enable(int argc, char **argv)
{
	int fd = cl.fd;

	return cmd_simple(fd, TRACEBUF_IOC_ENABLE, "enable");
}

static int cmd_disable(int argc, char **argv)
{
	int fd = cl.fd;

	return cmd_simple(fd, TRACEBUF_IOC_DISABLE, "disable");
}

static int cmd_clear(int argc, char **argv)
{
	int fd = cl.fd;

	return cmd_simple(fd, TRACEBUF_IOC_CLEAR, "clear");
}

/* What each command takes: operands at least and at most, and their use. */
struct ctl_args {
	int min, max;
	const char *usage;
};

#define CTL_CMD(name, fn, min, max, use) \
	{ name, NULL, fn, NULL, &(const struct ctl_args){ min, max, use } }

static const struct cli_cmd commands[] = {
	CTL_CMD("status", cmd_status, 0, 0, "status"),
	CTL_CMD("mode", cmd_mode, 0, 1, "mode [wrap|fill]"),
	CTL_CMD("enable", cmd_enable, 0, 0, "enable"),
	CTL_CMD("disable", cmd_disable, 0, 0, "disable"),
	CTL_CMD("chkpt", cmd_chkpt, 0, 2, "chkpt [CHKPT0 CHKPT1]"),
	CTL_CMD("clear", cmd_clear, 0, 0, "clear"),
	CTL_CMD("sources", cmd_sources, 0, 1, "sources [LIST] [-C N|all]"),
	CTL_CMD("snapshot", cmd_snapshot, 0, 1, "snapshot [--clear] [FILE]"),
	CTL_CMD("read", cmd_read, 0, 1, "read [FILE]"),
	CTL_CMD("inject", cmd_inject, 0, 1, "inject [--text|--binary] [FILE]"),
	CTL_CMD("chain", cmd_chain, 0, 1,
		"chain [--count N] [--depth DEPTH] [FILE]"),
	{ NULL }
};

/* Options and operands of command @c, all checked: exits 2. */
static void check(const struct cli_cmd *c, int argc, char **argv)
{
	const struct ctl_args *a = c->data;
	struct tb_opt_parser p;
	bool cpu_given = false;
	char msg[256];
	uint64_t v;
	int id;

	cl.src.cpu = TRACEBUF_CPU_ALL;
	cl.depth = 64;
	cl.form = TB_XS_INJECT_GUESS;
	tb_opt_init(&p, &cmd_ctl_spec, argv[0], argc, argv, 1);
	while ((id = cli_opt_next(&p, usage))) {
		switch (id) {
		case 'C':
			cpu_given = true;
			if (!strcmp(p.arg, "all"))
				cl.src.cpu = TRACEBUF_CPU_ALL;
			else if (tb_optval_number("--cpu", p.arg, 0, UINT32_MAX - 1,
						  &v, msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			else
				cl.src.cpu = v;
			break;
		case OPT_CLEAR:
			cl.snap_flags |= TRACEBUF_SNAP_CLEAR;
			break;
		case OPT_TEXT:
			cl.form = TB_XS_INJECT_TEXT;
			break;
		case OPT_BINARY:
			cl.form = TB_XS_INJECT_BINARY;
			break;
		case OPT_COUNT:
			if (tb_optval_number("--count", p.arg, 1, UINT64_MAX,
					     &cl.count, msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			break;
		case OPT_DEPTH:
			if (tb_optval_number("--depth", p.arg, 1,
					     TRACEBUF_CHAIN_MAX, &v, msg,
					     sizeof(msg)))
				cli_opt_bad_value(msg);
			cl.depth = v;
			break;
		}
	}
	cl.args = p.operands;
	cl.nargs = p.nr_operands;
	cl.file = cl.nargs ? cl.args[0] : "-";
	if (cl.nargs > a->max)
		cli_opt_usage("%s: unexpected argument '%s' (%s)", argv[0],
			      cl.args[a->max], a->usage);
	if (cl.nargs < a->min || (!strcmp(argv[0], "chkpt") && cl.nargs == 1))
		cli_opt_usage("%s: an argument is missing (%s)", argv[0],
			      a->usage);
	if (!strcmp(argv[0], "mode") && cl.nargs) {
		if (!strcmp(cl.args[0], "wrap"))
			cl.mode = TRACEBUF_MODE_WRAP;
		else if (!strcmp(cl.args[0], "fill") ||
			 !strcmp(cl.args[0], "fill-once"))
			cl.mode = TRACEBUF_MODE_FILL_ONCE;
		else
			cli_opt_usage("mode: unknown mode '%s' (wrap or fill)",
				      cl.args[0]);
	}
	if (!strcmp(argv[0], "chkpt") && cl.nargs &&
	    (tb_parse_u32(cl.args[0], 0, UINT32_MAX, &cl.ck.chkpt0) ||
	     tb_parse_u32(cl.args[1], 0, UINT32_MAX, &cl.ck.chkpt1)))
		cli_opt_bad_value("chkpt: CHKPT0 and CHKPT1 are numbers from 0 to 0xffffffff");
	if (!strcmp(argv[0], "sources") && cl.nargs)
		cl.src.mask = parse_sources(cl.args[0]);
	if (!strcmp(argv[0], "sources") && cpu_given && !cl.nargs)
		cli_opt_usage("sources: --cpu goes with a LIST of sources");
}

int cmd_ctl(int argc, char **argv)
{
	static const struct cli_cmd_device ctl = {
		.spec = &cmd_ctl_spec, .cmds = commands, .usage = usage,
		.check = check, .path = &dev_path, .fd = &cl.fd,
	};

	return cli_cmd_device(&ctl, argc, argv);
}
