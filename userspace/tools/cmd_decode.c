// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf decode: print the messages of XScale trace buffers (raw dump, snapshot
 * record or chain file) in readable form, with warnings where the trace is
 * suspect.  Reads stdin by default, so `tracebuf ctl snapshot | tracebuf decode -`
 * works.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

#include "cmds.h"
#include "tb_cli.h"
#include "tb_input.h"
#include "xscale_decode.h"
#include "xscale_print.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] [FILE|-]\n"
		"Decode XScale trace buffers: a raw dump, a snapshot record or a\n"
		"chain file (detected by the \"TBUR\" record magic).\n\n"
		"  -s, --size=BYTES  size of a raw dump (power of two, default 256,\n"
		"                    K/M suffixes)\n"
		"  -h, --help        this help\n"
		"  -V, --version     print the version\n\n"
		"Exit status: 0 ok (suspect traces are reported in the output),\n"
		"1 I/O error, 2 usage, 3 malformed input.\n", tb_prog());
}

static int print_buffer(void *ctx, const struct tb_in *in,
			const struct tb_buf *b, const struct tb_xs_msg *msgs,
			const struct tb_xs_result *res)
{
	tb_xs_print_buffer(stdout, in->nr ? in->nr - 1 : 0, b, msgs, res);
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	uint32_t size = TB_XS_MIN_SIZE;
	uint64_t size64;
	const char *path = "-";
	struct tb_in in;
	FILE *f;
	int c, ret;

	tb_cli_init(argv[0]);
	while ((c = getopt_long(argc, argv, "s:hV", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (tb_parse_size(optarg, TB_XS_MIN_SIZE,
					  TB_XS_MAX_SIZE, &size64) ||
			    !tb_xs_size_ok(size64))
				tb_die(TB_EXIT_USAGE,
				       "--size: a power of two from 256 to %u expected",
				       TB_XS_MAX_SIZE);
			size = (uint32_t)size64;
			break;
		default:
			tb_cli_std_option(c, usage);
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		usage(stderr);
		return TB_EXIT_USAGE;
	}
	f = tb_open_input(path);
	tb_in_init(&in, f, size);
	ret = tb_in_decode_each(&in, print_buffer, NULL);
	tb_in_release(&in);
	if (ret == -ENOMEM)
		tb_die(TB_EXIT_FAIL, "out of memory");
	if (ret < 0)
		tb_die(TB_EXIT_DATA, "%s: %s", path, in.err.msg);
	if (ferror(f))
		tb_die_errno(TB_EXIT_FAIL, "%s: read error", path);
	tb_close_output(stdout, "-");
	return TB_EXIT_OK;
}
