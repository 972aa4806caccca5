// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf decode: print the messages of XScale trace buffers (raw dump, snapshot
 * record or chain file) in readable form, with warnings where the trace is
 * suspect.  Reads stdin by default, so `tracebuf ctl snapshot | tracebuf decode -`
 * works.
 */
#include <errno.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "cli_opt.h"
#include "cmds.h"
#include "convert/xs_json.h"
#include "convert/xs_print.h"
#include "format/xs.h"
#include "format/xs_record.h"
#include "tool.h"
#include "util/sniff.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] [FILE|-]\n"
		"Decode XScale trace buffers: a raw dump, a snapshot record or a\n"
		"chain file (detected by the \"TBUR\" record magic).\n\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_decode_spec, NULL);
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf ctl snapshot | tracebuf decode\n"
	      "  tracebuf decode -o chain.txt chain.rec\n\n"
	      "Exit status: 0 ok (suspect traces are reported in the output),\n"
	      "1 failure (I/O), 2 usage, 3 malformed input.\n", f);
}

static int print_buffer(void *ctx, const struct tb_xs_input *in,
			const struct tb_xs_buffer *b, const struct tb_xs_msg *msgs,
			const struct tb_xs_result *res)
{
	tb_xs_print_buffer(ctx, in->nr ? in->nr - 1 : 0, b, msgs, res);
	return 0;
}

static int json_buffer(void *ctx, const struct tb_xs_input *in,
		       const struct tb_xs_buffer *b, const struct tb_xs_msg *msgs,
		       const struct tb_xs_result *res)
{
	tb_xs_json_buffer(ctx, in->nr ? in->nr - 1 : 0, b, msgs, res);
	return 0;
}

static const struct tb_opt decode_opts[] = {
	{ TB_OPT_SIZE,
	  .arg_name = "BYTES", .help = "size of a raw dump (power of two, default 256, K/M suffixes)" },
	{ TB_OPT_OUTPUT,
	  .help = "write the text there instead of stdout" },
	{ TB_OPT_JSON,
	  .help = "one JSON object a buffer, one a line" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_decode_spec = {
	.name = "decode", .opts = decode_opts, .operands = TB_VAL_FILE,
};

int cmd_decode(int argc, char **argv)
{
	uint32_t size = TB_XS_MIN_SIZE;
	const char *path = "-", *output = "-";
	struct tb_opt_parser p;
	char msg[512];
	uint64_t size64;
	tb_xs_record_decoded_fn each = print_buffer;
	struct tb_xs_input in;
	FILE *f, *out;
	int c, ret;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_decode_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		switch (c) {
		case 's':
			if (tb_optval_size("--size", p.arg, TB_XS_MIN_SIZE,
					   TB_XS_MAX_SIZE, true, &size64, msg,
					   sizeof(msg)))
				cli_opt_bad_value(msg);
			size = (uint32_t)size64;
			break;
		case 'o':
			output = p.arg;
			break;
		case 'J':
			each = json_buffer;
			break;
		}
	}
	if (p.nr_operands > 1)
		cli_opt_usage("one FILE at a time ('%s' is extra)", p.operands[1]);
	if (p.nr_operands)
		path = p.operands[0];
	f = tool_open_input(path);
	tool_refuse_input_as_output(f, path, output);
	out = tool_open_output(output);
	tb_xs_record_init(&in, f, size);
	ret = tb_xs_record_decode_each(&in, each, out);
	tb_xs_record_release(&in);
	if (ret == -ENOMEM)
		tool_die(TB_EXIT_FAIL, "out of memory");
	if (ret < 0 && tb_sniff_mismatch(path, TB_SNIFF_XSCALE, msg, sizeof(msg)))
		tool_die(TB_EXIT_DATA, "%s (%s)", msg, in.err.msg);
	if (ret < 0)
		tool_die(TB_EXIT_DATA, "%s: %s", path, in.err.msg);
	if (ferror(f))
		tool_die_errno(TB_EXIT_FAIL, "%s: read error", path);
	tool_close_output(out, output);
	return TB_EXIT_OK;
}
