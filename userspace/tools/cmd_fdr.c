// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf fdr: control /dev/tracebuf_fdr, the kernel flight data
 * recorder, without recording through this command: configure, start,
 * stop, take a flight-mode snapshot, print the counters and the names.
 * `tracebuf record` does all of it around one capture.  See
 * Documentation/ioctl-fdr.rst for the ioctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "cmds.h"
#include "fdr_classes.h"
#include "fdr_dev.h"
#include "tb_cli.h"
#include "tb_dev.h"

static void print_usage(FILE *f)
{
	fprintf(f,
"Usage: %s [-D DEVICE] COMMAND [ARGS]\n"
"\n"
"Control the kernel flight data recorder (default " TB_FDR_DEV_PATH ").\n"
"\n"
"Commands:\n"
"  config [OPTIONS]      show the configuration, or change what OPTIONS\n"
"                        name (only while stopped; discards the recorded\n"
"                        data); the options are tracebuf record's:\n"
"    -e, --events LIST   syscall, irq, softirq, workqueue, fault, sched,\n"
"                        marker, all (comma separated)\n"
"    -m, --mode MODE     stream or flight\n"
"    -s, --size SIZE     per-CPU buffer, power of two, 64K..64M\n"
"    -a, --args N        syscall arguments to record, 0..6\n"
"    -w, --wakeup BYTES  stream mode: bytes committed on a CPU before\n"
"                        readers wake (0: a quarter of the buffer)\n"
"  start                 start recording\n"
"  stop                  stop recording\n"
"  snapshot [FILE]       flight mode: write a snapshot of every CPU's\n"
"                        buffer (an FDR file) to FILE or stdout\n"
"  stats [-j|--json]     counters, per CPU and in total\n"
"  names                 the kernel's function ids: \"ID SPACE NAME\"\n"
"\n"
"Options: -D, --device PATH;  -h, --help;  -V, --version\n"
"Exit status: 0 ok, 1 failure, 2 usage.\n", tb_prog());
}

static void xioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	if (!ioctl(fd, cmd, arg))
		return;
	if (errno == EBUSY)
		tb_die_errno(TB_EXIT_FAIL, "%s (stop recording first)", what);
	tb_die_errno(TB_EXIT_FAIL, "%s", what);
}

/* Only what the user named changes: the rest keeps the device's values. */
static int fdr_config(int fd, int argc, char **argv)
{
	static const struct option none[] = { { NULL, 0, NULL, 0 } };
	const struct option *opts = tb_fdr_config_longopts(none);
	struct tracebuf_fdr_config cfg, set = { 0 };
	unsigned char given[128] = { 0 };
	char list[128];
	int c, any = 0;

	while ((c = getopt_long(argc, argv, "+" TB_FDR_CONFIG_SHORTOPTS, opts,
				NULL)) != -1) {
		if (!tb_fdr_config_opt(&set, c, optarg)) {
			print_usage(stderr);
			exit(TB_EXIT_USAGE);
		}
		given[c & 127] = 1;
		any = 1;
	}
	if (optind < argc)
		tb_die(TB_EXIT_USAGE, "config: unexpected argument '%s'", argv[optind]);
	if (fd < 0)
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	xioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, &cfg, "get config");
	if (!any) {
		tb_fdr_format_classes(cfg.classes, list, sizeof(list));
		printf("events:  %s\nmode:    %s\nsize:    %u\nargs:    %u\n",
		       list, tb_fdr_mode_name(cfg.mode), cfg.buf_size,
		       cfg.nr_args);
		if (cfg.wakeup)
			printf("wakeup:  %u\n", cfg.wakeup);
		else
			printf("wakeup:  0 (a quarter of the buffer)\n");
		return TB_EXIT_OK;
	}
	if (given['e'])
		cfg.classes = set.classes;
	if (given['m'])
		cfg.mode = set.mode;
	if (given['s'])
		cfg.buf_size = set.buf_size;
	if (given['a'])
		cfg.nr_args = set.nr_args;
	if (given['w'])
		cfg.wakeup = set.wakeup;
	xioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &cfg, "configure");
	return TB_EXIT_OK;
}

static int fdr_snapshot(int fd, int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "-";
	static char buf[256 << 10];
	FILE *out;
	ssize_t n;

	if (argc > 2)
		tb_die(TB_EXIT_USAGE, "snapshot: one FILE at most");
	if (fd < 0)
		return 0;
	if (ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT)) {
		if (errno == EINVAL)
			tb_die_errno(TB_EXIT_FAIL, "snapshot (flight mode only)");
		tb_die_errno(TB_EXIT_FAIL, "snapshot");
	}
	out = tb_open_output(path);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			tb_die_errno(TB_EXIT_FAIL, "read");
		if (fwrite(buf, 1, n, out) != (size_t)n)
			tb_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	}
	tb_close_output(out, path);
	return TB_EXIT_OK;
}

static void json_counters(__u64 written, __u64 dropped, __u64 overwritten,
			  __u64 bytes)
{
	printf("\"written\": %llu, \"dropped\": %llu, \"overwritten\": %llu, \"bytes\": %llu",
	       (unsigned long long)written, (unsigned long long)dropped,
	       (unsigned long long)overwritten, (unsigned long long)bytes);
}

static void stats_json(const struct tracebuf_fdr_stats *st,
		       const struct tracebuf_fdr_cpu_stats *cpus)
{
	unsigned int i;

	printf("{\"running\": %u, ", st->running);
	json_counters(st->written, st->dropped, st->overwritten, st->bytes);
	printf(", \"cpus\": [");
	for (i = 0; i < st->nr_cpus; i++) {
		printf("%s{\"cpu\": %u, ", i ? ", " : "", i);
		json_counters(cpus[i].written, cpus[i].dropped,
			      cpus[i].overwritten, cpus[i].bytes);
		putchar('}');
	}
	printf("]}\n");
}

static int fdr_stats(int fd, int argc, char **argv)
{
	struct tracebuf_fdr_cpu_stats *cpus;
	struct tracebuf_fdr_stats st;
	int json = 0;
	unsigned int i;

	if (argc == 2 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json")))
		json = 1;
	else if (argc > 1)
		tb_die(TB_EXIT_USAGE, "stats: unexpected argument '%s'", argv[1]);
	if (fd < 0)
		return 0;
	if (tb_fdr_stats(fd, &st, &cpus))
		tb_die_errno(TB_EXIT_FAIL, "stats");
	if (json) {
		stats_json(&st, cpus);
	} else {
		printf("running: %s\n%-6s %14s %14s %14s %16s\n",
		       st.running ? "yes" : "no", "cpu", "written", "dropped",
		       "overwritten", "bytes");
		for (i = 0; i < st.nr_cpus; i++)
			printf("%-6u %14llu %14llu %14llu %16llu\n", i,
			       (unsigned long long)cpus[i].written,
			       (unsigned long long)cpus[i].dropped,
			       (unsigned long long)cpus[i].overwritten,
			       (unsigned long long)cpus[i].bytes);
		printf("%-6s %14llu %14llu %14llu %16llu\n", "total",
		       (unsigned long long)st.written,
		       (unsigned long long)st.dropped,
		       (unsigned long long)st.overwritten,
		       (unsigned long long)st.bytes);
	}
	free(cpus);
	return TB_EXIT_OK;
}

static int fdr_names(int fd, int argc, char **argv)
{
	char *text;

	if (argc > 1)
		tb_die(TB_EXIT_USAGE, "names: unexpected argument '%s'", argv[1]);
	if (fd < 0)
		return 0;
	text = tb_fdr_names_text(fd);
	if (!text)
		tb_die_errno(TB_EXIT_FAIL, "names");
	fputs(text, stdout);
	free(text);
	return TB_EXIT_OK;
}

static int fdr_simple(int fd, int argc, char **argv)
{
	if (argc > 1)
		tb_die(TB_EXIT_USAGE, "%s: unexpected argument '%s'", argv[0],
		       argv[1]);
	if (fd < 0)
		return 0;
	if (!strcmp(argv[0], "start"))
		xioctl(fd, TRACEBUF_FDR_IOC_START, NULL, "start");
	else
		xioctl(fd, TRACEBUF_FDR_IOC_STOP, NULL, "stop");
	return TB_EXIT_OK;
}

static const struct {
	const char *name;
	int (*fn)(int fd, int argc, char **argv);
} commands[] = {
	{ "config", fdr_config },
	{ "start", fdr_simple },
	{ "stop", fdr_simple },
	{ "snapshot", fdr_snapshot },
	{ "stats", fdr_stats },
	{ "names", fdr_names },
};

int cmd_fdr(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = TB_FDR_DEV_PATH;
	unsigned int i;
	int c, fd, ret;

	tb_cli_init(argv[0]);
	/* '+': options after the command belong to the command. */
	while ((c = getopt_long(argc, argv, "+D:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'D':
			dev = optarg;
			break;
		default:
			tb_cli_std_option(c, print_usage);
		}
	}
	if (optind >= argc) {
		print_usage(stderr);
		return TB_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[0], commands[i].name))
			break;
	if (i == ARRAY_SIZE(commands))
		tb_die(TB_EXIT_USAGE, "unknown command '%s' (see --help)", argv[0]);
	/* Check the command line first (fd -1), then open the device. */
	optind = 0;
	commands[i].fn(-1, argc, argv);
	fd = tb_dev_open(dev, O_RDWR);
	optind = 0;
	ret = commands[i].fn(fd, argc, argv);
	close(fd);
	return ret;
}
