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
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "cli/cli.h"
#include "cli_cmd.h"
#include "cli_opt.h"
#include "cmds.h"
#include "device/dev.h"
#include "device/fdr_dev.h"
#include "format/fdr_classes.h"
#include "tool.h"

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
"                        data); the options are tracebuf record's, below\n"
"  start                 start recording\n"
"  stop                  stop recording\n"
"  snapshot [FILE]       flight mode: write a snapshot of every CPU's\n"
"                        buffer (an FDR file) to FILE or stdout\n"
"  stats [-J|--json]     counters, per CPU and in total\n"
"  names                 the kernel's function ids: \"ID SPACE NAME\"\n"
"\n"
"Options:\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_fdr_spec, NULL);
	fputs("\n"
	      "Options of config:\n", f);
	tb_opt_help(f, &cmd_fdr_spec, "config");
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf fdr config --mode flight -s 4M && tracebuf fdr start\n"
	      "  tracebuf fdr snapshot flight.fdr && tracebuf report flight.fdr\n"
	      "\n"
	      "Exit status: 0 ok, 1 failure, 2 usage, 3 malformed input.\n", f);
}

static const struct tb_opt fdr_opts[] = {
	{ TB_OPT_DEVICE, .help = "device (default " TB_FDR_DEV_PATH ")" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ TB_OPT_EVENTS, .scope = "config",
	  .help = "syscall, irq, softirq, workqueue, fault, sched, marker, all (comma separated)" },
	{ TB_FDR_OPT_MODE, .scope = "config", .arg_name = "MODE",
	  .help = "stream or flight" },
	{ TB_FDR_OPT_MODE_OLD, .scope = "config" },
	{ TB_OPT_SIZE, .scope = "config",
	  .help = "per-CPU buffer, power of two, 64K..64M" },
	{ TB_FDR_OPT_ARGS, .scope = "config",
	  .help = "syscall arguments to record, 0..6" },
	{ TB_FDR_OPT_WAKEUP, .scope = "config", .arg_name = "BYTES",
	  .help = "stream mode: bytes committed on a CPU before readers wake (0: a quarter of the buffer)" },
	{ TB_OPT_JSON, .scope = "stats" },
	{ .id = 'J', .letter = 'j', .scope = "stats", .instead = "-J" },
	{ 0 }
};

static const struct tb_opt_word fdr_words[] = {
	{ .name = "config" }, { .name = "start" }, { .name = "stop" },
	{ .name = "snapshot", .val = TB_VAL_FILE }, { .name = "stats" },
	{ .name = "names" },
	{ NULL }
};

const struct tb_opt_spec cmd_fdr_spec = {
	.name = "fdr", .opts = fdr_opts, .words = fdr_words, .in_order = true,
};

/* The command line of a command, read before the device is opened. */
static struct {
	struct tracebuf_fdr_config set;	/* config: the values given */
	unsigned int given;		/* config: which, by 1 << index */
	bool json;			/* stats -J */
	const char *file;		/* snapshot FILE */
	int fd;				/* the device, open once checked */
} cl;

static unsigned int config_bit(int id)
{
	switch (id) {
	case 'e':
		return 1;
	case TB_FDR_ID_MODE:
		return 2;
	case 's':
		return 4;
	case 'a':
		return 8;
	}
	return 16;	/* 'w' */
}

/* Options and operands of command @argv[0]; exits 2 when they are wrong. */
static void check(const struct cli_cmd *c, int argc, char **argv)
{
	struct tb_opt_parser p;
	char msg[256];
	int id, ret;

	tb_opt_init(&p, &cmd_fdr_spec, argv[0], argc, argv, 1);
	while ((id = cli_opt_next(&p, print_usage))) {
		if (id == 'J') {
			cl.json = true;
			continue;
		}
		ret = tb_fdr_dev_config_opt(&cl.set, id, p.arg, msg, sizeof(msg));
		if (ret < 0)
			cli_opt_bad_value(msg);
		cl.given |= config_bit(id);
	}
	if (!strcmp(argv[0], "snapshot") && p.nr_operands == 1)
		cl.file = p.operands[0];
	else if (p.nr_operands)
		cli_opt_usage("%s: unexpected argument '%s'", argv[0],
			      p.operands[0]);
}

static void xioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	if (!ioctl(fd, cmd, arg))
		return;
	if (errno == EBUSY)
		tool_die_errno(TB_EXIT_FAIL, "%s (stop recording first)", what);
	tool_die_errno(TB_EXIT_FAIL, "%s", what);
}

/* Only what the user named changes: the rest keeps the device's values. */
static int fdr_config(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_fdr_config cfg;
	char list[128];

	memset(&cfg, 0, sizeof(cfg));
	xioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, &cfg, "get config");
	if (!cl.given) {
		tb_fdr_classes_format(cfg.classes, list, sizeof(list));
		printf("events:  %s\nmode:    %s\nsize:    %u\nargs:    %u\n",
		       list, tb_fdr_dev_mode_name(cfg.mode), cfg.buf_size,
		       cfg.nr_args);
		if (cfg.wakeup)
			printf("wakeup:  %u\n", cfg.wakeup);
		else
			printf("wakeup:  0 (a quarter of the buffer)\n");
		return TB_EXIT_OK;
	}
	if (cl.given & config_bit('e'))
		cfg.classes = cl.set.classes;
	if (cl.given & config_bit(TB_FDR_ID_MODE))
		cfg.mode = cl.set.mode;
	if (cl.given & config_bit('s'))
		cfg.buf_size = cl.set.buf_size;
	if (cl.given & config_bit('a'))
		cfg.nr_args = cl.set.nr_args;
	if (cl.given & config_bit('w'))
		cfg.wakeup = cl.set.wakeup;
	xioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &cfg, "configure");
	return TB_EXIT_OK;
}

static int fdr_snapshot(int argc, char **argv)
{
	int fd = cl.fd;
	const char *path = cl.file ? cl.file : "-";
	static char buf[256 << 10];
	FILE *out;
	ssize_t n;

	if (ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT)) {
		if (errno == EINVAL)
			tool_die_errno(TB_EXIT_FAIL, "snapshot (flight mode only: tracebuf fdr config --mode flight)");
		tool_die_errno(TB_EXIT_FAIL, "snapshot");
	}
	out = tool_open_output(path);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			tool_die_errno(TB_EXIT_FAIL, "read");
		if (fwrite(buf, 1, n, out) != (size_t)n)
			tool_die_errno(TB_EXIT_FAIL, "error writing '%s'", path);
	}
	tool_close_output(out, path);
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

static int fdr_stats(int argc, char **argv)
{
	int fd = cl.fd;
	struct tracebuf_fdr_cpu_stats *cpus;
	struct tracebuf_fdr_stats st;
	unsigned int i;

	if (tb_fdr_dev_stats(fd, &st, &cpus))
		tool_die_errno(TB_EXIT_FAIL, "stats");
	if (cl.json) {
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

static int fdr_names(int argc, char **argv)
{
	int fd = cl.fd;
	char *text;

	text = tb_fdr_dev_names_text(fd);
	if (!text)
		tool_die_errno(TB_EXIT_FAIL, "names");
	fputs(text, stdout);
	free(text);
	return TB_EXIT_OK;
}

static int fdr_start(int argc, char **argv)
{
	int fd = cl.fd;

	xioctl(fd, TRACEBUF_FDR_IOC_START, NULL, "start");
	return TB_EXIT_OK;
}

static int fdr_stop(int argc, char **argv)
{
	int fd = cl.fd;

	xioctl(fd, TRACEBUF_FDR_IOC_STOP, NULL, "stop");
	return TB_EXIT_OK;
}

static const struct cli_cmd commands[] = {
	{ .name = "config", .fn = fdr_config },
	{ .name = "start", .fn = fdr_start },
	{ .name = "stop", .fn = fdr_stop },
	{ .name = "snapshot", .fn = fdr_snapshot },
	{ .name = "stats", .fn = fdr_stats },
	{ .name = "names", .fn = fdr_names },
	{ NULL }
};

static const char *dev_path = TB_FDR_DEV_PATH;

int cmd_fdr(int argc, char **argv)
{
	static const struct cli_cmd_device fdr = {
		.spec = &cmd_fdr_spec, .cmds = commands, .usage = print_usage,
		.check = check, .path = &dev_path, .fd = &cl.fd,
	};

	return cli_cmd_device(&fdr, argc, argv);
}
