// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf ctl: control /dev/tracebuf, the XScale trace buffer device.
 * One subcommand per ioctl, plus snapshot, raw read, event injection and
 * chained capture.  See --help and Documentation/tracebuf.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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

#include "cmds.h"
#include "tb_cli.h"
#include "tb_dev.h"
#include "xscale_decode.h"
#include "xscale_inject.h"

static const char *dev_path = TB_DEV_PATH;

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
	"  sources [LIST] [--cpu N|all]\n"
	"                         show or set the kernel event feed; LIST is\n"
	"                         none, all or a comma list of syscall, irq,\n"
	"                         fault, ret-user (or ret), switch\n"
	"  snapshot [-c] [FILE]   write a record (header + buffer) atomically;\n"
	"                         -c clears the buffer after copying\n"
	"  read [FILE]            read the raw buffer once (clears it)\n"
	"  inject [-t|-b] [FILE]  inject events: binary struct tracebuf_event\n"
	"                         records (-b) or text lines (-t); default: guess\n"
	"  chain [-n N] [-q DEPTH] [FILE]\n"
	"                         chained fill-once capture: save N buffers\n"
	"                         (default: until Ctrl-C/SIGTERM) as records\n"
	"\n"
	"FILE '-' or none means stdin/stdout.  Text events, one per line:\n"
	"  exc VECTOR [COUNT]     VECTOR: undef swi pabort dabort irq fiq or 1-7\n"
	"  br TARGET [COUNT]      direct branch\n"
	"  ind TARGET [COUNT]     indirect branch\n"
	"  '#' starts a comment.  COUNT: instructions since the previous event.\n"
	"\n"
	"Options: -d, --device PATH;  -h, --help;  -V, --version\n"
	"Exit status: 0 ok, 1 failure, 2 usage, 3 malformed input.\n";

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [-d DEVICE] COMMAND [ARGS]\n", tb_prog());
	fputs(usage_text, f);
}

static void xioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	if (ioctl(fd, cmd, arg) == 0)
		return;
	if (errno == EBUSY)
		tb_die_errno(TB_EXIT_FAIL, "%s (disable capture first)", what);
	tb_die_errno(TB_EXIT_FAIL, "%s", what);
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

static int cmd_status(int fd)
{
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

static int cmd_mode(int fd, int argc, char **argv)
{
	uint32_t mode;

	if (argc == 0) {
		xioctl(fd, TRACEBUF_IOC_GET_MODE, &mode, "get mode");
		printf("%s\n", mode == TRACEBUF_MODE_FILL_ONCE ? "fill" : "wrap");
		return TB_EXIT_OK;
	}
	if (argc > 1)
		tb_die(TB_EXIT_USAGE, "mode takes one argument");
	if (!strcmp(argv[0], "wrap"))
		mode = TRACEBUF_MODE_WRAP;
	else if (!strcmp(argv[0], "fill") || !strcmp(argv[0], "fill-once"))
		mode = TRACEBUF_MODE_FILL_ONCE;
	else
		tb_die(TB_EXIT_USAGE, "unknown mode '%s' (wrap or fill)", argv[0]);
	xioctl(fd, TRACEBUF_IOC_SET_MODE, &mode, "set mode");
	return TB_EXIT_OK;
}

static int cmd_chkpt(int fd, int argc, char **argv)
{
	struct tracebuf_chkpt ck;

	if (argc == 0) {
		xioctl(fd, TRACEBUF_IOC_GET_CHKPT, &ck, "get checkpoints");
		printf("CHKPT0 0x%08x\nCHKPT1 0x%08x\n", ck.chkpt0, ck.chkpt1);
		return TB_EXIT_OK;
	}
	if (argc != 2)
		tb_die(TB_EXIT_USAGE, "chkpt takes no argument or CHKPT0 CHKPT1");
	if (tb_parse_u32(argv[0], 0, UINT32_MAX, &ck.chkpt0) ||
	    tb_parse_u32(argv[1], 0, UINT32_MAX, &ck.chkpt1))
		tb_die(TB_EXIT_USAGE, "checkpoints must be 32-bit numbers");
	xioctl(fd, TRACEBUF_IOC_SET_CHKPT, &ck, "set checkpoints");
	return TB_EXIT_OK;
}

static uint32_t parse_sources(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint32_t mask = 0;
	size_t i;

	if (!copy)
		tb_die_errno(TB_EXIT_FAIL, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "none"))
			continue;
		if (!strcmp(tok, "all")) {
			mask |= TRACEBUF_SRC_ALL;
			continue;
		}
		for (i = 0; i < NSRC; i++)
			if (!strcmp(tok, src_names[i]))
				break;
		if (!strcmp(tok, "ret"))	/* short for ret-user */
			i = 3;
		if (i == NSRC)
			tb_die(TB_EXIT_USAGE, "unknown source '%s'", tok);
		mask |= 1U << i;
	}
	free(copy);
	return mask;
}

static int cmd_sources(int fd, int argc, char **argv)
{
	struct tracebuf_sources src = { .cpu = TRACEBUF_CPU_ALL };
	int i;

	if (argc == 0) {
		xioctl(fd, TRACEBUF_IOC_GET_SOURCES, &src, "get sources");
		print_sources(stdout, src.mask);
		if (src.mask && src.cpu != TRACEBUF_CPU_ALL)
			printf(" cpu %u", src.cpu);
		putchar('\n');
		return TB_EXIT_OK;
	}
	src.mask = parse_sources(argv[0]);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cpu") || i + 1 >= argc)
			tb_die(TB_EXIT_USAGE, "sources LIST [--cpu N|all]");
		i++;
		if (!strcmp(argv[i], "all"))
			src.cpu = TRACEBUF_CPU_ALL;
		else if (tb_parse_u32(argv[i], 0, UINT32_MAX - 1, &src.cpu))
			tb_die(TB_EXIT_USAGE, "bad CPU '%s'", argv[i]);
	}
	if (ioctl(fd, TRACEBUF_IOC_SET_SOURCES, &src)) {
		if (errno == EOPNOTSUPP)
			tb_die(TB_EXIT_FAIL,
			       "a requested source is not available on this kernel or backend");
		if (errno == EINVAL)
			tb_die(TB_EXIT_FAIL, "invalid sources or CPU %u", src.cpu);
		tb_die_errno(TB_EXIT_FAIL, "set sources");
	}
	return TB_EXIT_OK;
}

static int cmd_snapshot(int fd, int argc, char **argv)
{
	struct tracebuf_snapshot_req req = { 0 };
	struct tracebuf_status st;
	const char *path = "-";
	uint8_t *buf;
	FILE *out;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--clear"))
			req.flags |= TRACEBUF_SNAP_CLEAR;
		else if (!strcmp(path, "-") && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
			path = argv[i];
		else
			tb_die(TB_EXIT_USAGE, "snapshot [-c] [FILE]");
	}
	get_status(fd, &st);
	req.len = sizeof(struct tracebuf_record) + st.buf_size;
	buf = calloc(1, req.len);
	if (!buf)
		tb_die_errno(TB_EXIT_FAIL, "out of memory");
	req.buf = (uintptr_t)buf;
	xioctl(fd, TRACEBUF_IOC_SNAPSHOT, &req, "snapshot");
	out = tb_open_output(path);
	if (tb_record_write(out, (struct tracebuf_record *)buf,
			    buf + sizeof(struct tracebuf_record)))
		tb_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	tb_close_output(out, path);
	free(buf);
	return TB_EXIT_OK;
}

static int cmd_read(int fd, int argc, char **argv)
{
	struct tracebuf_status st;
	const char *path = argc ? argv[0] : "-";
	uint8_t *buf;
	ssize_t n;
	FILE *out;

	if (argc > 1)
		tb_die(TB_EXIT_USAGE, "read [FILE]");
	get_status(fd, &st);
	if (st.flags & TRACEBUF_STATUS_CHAINED)
		tb_die(TB_EXIT_FAIL, "chained capture is armed: use 'chain' to read records");
	buf = malloc(st.buf_size);
	if (!buf)
		tb_die_errno(TB_EXIT_FAIL, "out of memory");
	n = read(fd, buf, st.buf_size);
	if (n < 0)
		tb_die_errno(TB_EXIT_FAIL, "read %s", dev_path);
	out = tb_open_output(path);
	if (fwrite(buf, 1, n, out) != (size_t)n)
		tb_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	tb_close_output(out, path);
	free(buf);
	return TB_EXIT_OK;
}

/* ---------------------------------------------------------------- inject */

static int cmd_inject(int fd, int argc, char **argv)
{
	enum tb_xs_inject_form form = TB_XS_INJECT_GUESS;
	const char *path = "-";
	struct tb_xs_events b = { 0 };
	struct tb_error err;
	size_t off, chunk;
	FILE *in;
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-t"))
			form = TB_XS_INJECT_TEXT;
		else if (!strcmp(argv[i], "-b"))
			form = TB_XS_INJECT_BINARY;
		else if (!strcmp(path, "-") && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
			path = argv[i];
		else
			tb_die(TB_EXIT_USAGE, "inject [-t|-b] [FILE]");
	}
	in = tb_open_input(path);
	ret = tb_xs_inject_read(in, path, form, &b, &err);
	if (in != stdin)
		fclose(in);
	if (ret == -ENOMEM)
		tb_die(TB_EXIT_FAIL, "out of memory");
	if (ret == -EIO)
		tb_die(TB_EXIT_FAIL, "%s", err.msg);
	if (ret)
		tb_die(TB_EXIT_DATA, "%s", err.msg);
	/* The device takes up to 1 MiB per write, each validated whole. */
	chunk = (1U << 20) / sizeof(struct tracebuf_event);
	for (off = 0; off < b.n; off += chunk) {
		size_t n = b.n - off < chunk ? b.n - off : chunk;
		ssize_t w = write(fd, b.ev + off, n * sizeof(struct tracebuf_event));

		if (w < 0 && errno == EBUSY)
			tb_die(TB_EXIT_FAIL, "capture is disabled (run '%s enable' first)",
			       tb_prog());
		if (w < 0 && errno == EINVAL)
			tb_die(TB_EXIT_DATA,
			       "%s: the device rejected malformed events near event %zu",
			       path, off);
		if (w < 0)
			tb_die_errno(TB_EXIT_FAIL, "write %s", dev_path);
	}
	fprintf(stderr, "%s: injected %zu events\n", tb_prog(), b.n);
	tb_xs_events_free(&b);
	return TB_EXIT_OK;
}

/* ----------------------------------------------------------------- chain */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int cmd_chain(int fd, int argc, char **argv)
{
	struct tracebuf_chain ch = { .depth = 64 };
	struct tracebuf_status st;
	struct sigaction sa;
	const char *path = "-";
	uint64_t want = 0, saved = 0, lost = 0;
	uint32_t mode = TRACEBUF_MODE_FILL_ONCE;
	size_t rec_size;
	uint8_t *rec;
	FILE *out;
	int i, ret = TB_EXIT_OK;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			if (tb_parse_u64(argv[++i], 1, UINT64_MAX, &want))
				tb_die(TB_EXIT_USAGE, "-n takes a positive count");
		} else if (!strcmp(argv[i], "-q") && i + 1 < argc) {
			if (tb_parse_u32(argv[++i], 1, TRACEBUF_CHAIN_MAX, &ch.depth))
				tb_die(TB_EXIT_USAGE, "-q takes a depth from 1 to %u",
				       TRACEBUF_CHAIN_MAX);
		} else if (!strcmp(path, "-") && (argv[i][0] != '-' || !strcmp(argv[i], "-"))) {
			path = argv[i];
		} else {
			tb_die(TB_EXIT_USAGE, "chain [-n N] [-q DEPTH] [FILE]");
		}
	}
	get_status(fd, &st);
	rec_size = sizeof(struct tracebuf_record) + st.buf_size;
	rec = malloc(rec_size);
	if (!rec)
		tb_die_errno(TB_EXIT_FAIL, "out of memory");
	out = tb_open_output(path);

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
			tb_warn_errno("read %s", dev_path);
			ret = TB_EXIT_FAIL;
			break;
		}
		if (n == 0)
			break;	/* someone disarmed the chain */
		lost += hdr->lost_before;
		if (tb_record_write(out, hdr, rec + sizeof(*hdr))) {
			tb_warn_errno("error writing '%s'", path);
			ret = TB_EXIT_FAIL;
			break;
		}
		saved++;
	}
	ioctl(fd, TRACEBUF_IOC_DISABLE);
	get_status(fd, &st);
	ch.depth = 0;
	ioctl(fd, TRACEBUF_IOC_SET_CHAIN, &ch);
	tb_close_output(out, path);
	/* Buffers still queued or lost after the last record we wrote. */
	fprintf(stderr, "%s: %llu buffers saved, %llu lost, %llu more lost or queued at the end\n",
		tb_prog(), (unsigned long long)saved, (unsigned long long)lost,
		(unsigned long long)(st.chain_lost - lost) + st.chain_queued);
	free(rec);
	return ret;
}

int cmd_ctl(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c, fd, ret;

	tb_cli_init(argv[0]);
	/* '+': options after the command belong to the command. */
	while ((c = getopt_long(argc, argv, "+d:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev_path = optarg;
			break;
		default:
			tb_cli_std_option(c, usage);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return TB_EXIT_USAGE;
	}
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;

	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return TB_EXIT_OK;
	}
	fd = tb_dev_open(dev_path, O_RDWR);
	if (!strcmp(cmd, "status") && !argc)
		ret = cmd_status(fd);
	else if (!strcmp(cmd, "mode"))
		ret = cmd_mode(fd, argc, argv);
	else if (!strcmp(cmd, "enable") && !argc)
		ret = cmd_simple(fd, TRACEBUF_IOC_ENABLE, "enable");
	else if (!strcmp(cmd, "disable") && !argc)
		ret = cmd_simple(fd, TRACEBUF_IOC_DISABLE, "disable");
	else if (!strcmp(cmd, "chkpt"))
		ret = cmd_chkpt(fd, argc, argv);
	else if (!strcmp(cmd, "clear") && !argc)
		ret = cmd_simple(fd, TRACEBUF_IOC_CLEAR, "clear");
	else if (!strcmp(cmd, "sources"))
		ret = cmd_sources(fd, argc, argv);
	else if (!strcmp(cmd, "snapshot"))
		ret = cmd_snapshot(fd, argc, argv);
	else if (!strcmp(cmd, "read"))
		ret = cmd_read(fd, argc, argv);
	else if (!strcmp(cmd, "inject"))
		ret = cmd_inject(fd, argc, argv);
	else if (!strcmp(cmd, "chain"))
		ret = cmd_chain(fd, argc, argv);
	else
		tb_die(TB_EXIT_USAGE, "unknown command or arguments: '%s' (see --help)", cmd);
	close(fd);
	return ret;
}
