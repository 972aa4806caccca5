// SPDX-License-Identifier: GPL-2.0
/*
 * Errors that say what to do (issue 27 item 3): a table of wrong
 * invocations, each with the exit status and the words its message must
 * hold (and must not), then the rules every subcommand follows: a
 * mistyped option is one line and a pointer to --help, every --help
 * states the four exit statuses and ends with examples.
 *
 * No device is needed: the device options point to /nonexistent, so
 * that a command line checked after the device was opened shows.
 */
#include <string.h>

#include "tb_harness.h"
#include "cli/cli.h"
#include "tb_test_util.h"

#define NODEV	"/nonexistent/tb"
#define FDR	"data/corpus/fdr/gen-v2.fdr"
#define SNAP	"data/corpus/xscale/snapshot.bin"
#define TFILE	"data/corpus/tfile/fdr-tfile.tf"

static const char *const subs[] = {
	"record", "bpf", "report", "diff", "script", "top", "crash", "fdr",
	"ctl", "convert", "decode", "workload",
};

TEST(wrong_invocations)
{
	static const struct {
		const char *args;
		int status;
		const char *want, *want2, *not;
	} c[] = {
		/* The module is missing: every device says so. */
		{ "record -D " NODEV " -- true", TB_EXIT_FAIL,
		  "is the tracebuf module loaded?", NODEV, NULL },
		{ "record -D " NODEV " --stop", TB_EXIT_FAIL,
		  "is the tracebuf module loaded?", NULL, NULL },
		{ "fdr -D " NODEV " stats", TB_EXIT_FAIL,
		  "is the tracebuf module loaded?", NULL, NULL },
		{ "ctl -D " NODEV " status", TB_EXIT_FAIL,
		  "is the tracebuf module loaded?", NULL, NULL },
		/* -D is the device in ctl too: no "invalid option". */
		{ "ctl -D /dev/null status", TB_EXIT_FAIL, "status", NULL, "option" },
		/* Ranges in range errors. */
		{ "fdr -D " NODEV " config -s 3M", TB_EXIT_USAGE,
		  "--size '3M'", "from 64K to 64M", NODEV },
		{ "record -D " NODEV " -s 128M", TB_EXIT_USAGE,
		  "from 64K to 64M", "K, M, G", NODEV },
		{ "record -D " NODEV " -a 7", TB_EXIT_USAGE, "from 0 to 6", NULL, NODEV },
		{ "record -D " NODEV " -w 2G", TB_EXIT_USAGE, "--wakeup '2G'", " to ", NODEV },
		{ "record -D " NODEV " -d 0", TB_EXIT_USAGE, "from 1 to", NULL, NODEV },
		{ "record -D " NODEV " --keep 0 --trigger oops", TB_EXIT_USAGE,
		  "from 1 to 1000000", NULL, NODEV },
		{ "record -D " NODEV " -e syscall,bogus", TB_EXIT_USAGE,
		  "--events 'syscall,bogus'", "workqueue", NODEV },
		{ "record -D " NODEV " --mode sometimes", TB_EXIT_USAGE,
		  "stream or flight", NULL, NODEV },
		{ "top -D " NODEV, TB_EXIT_FAIL,
		  "is the tracebuf module loaded?", NODEV, NULL },
		{ "top -D " NODEV " -i 0.05", TB_EXIT_USAGE,
		  "--interval '0.05'", "0.1 to 3600", NODEV },
		{ "top -D " NODEV " -i 1x", TB_EXIT_USAGE, "--interval '1x'", NULL, NODEV },
		{ "top -D " NODEV " --iterations 0", TB_EXIT_USAGE,
		  "--iterations '0'", NULL, NODEV },
		{ "top -D " NODEV " --sort p50", TB_EXIT_USAGE,
		  "count, total, p99 or max", NULL, NODEV },
		{ "top -D " NODEV " -e syscall,bogus", TB_EXIT_USAGE,
		  "--events 'syscall,bogus'", NULL, NODEV },
		{ "top -D " NODEV " extra", TB_EXIT_USAGE, "'extra' is extra", NULL, NODEV },
		/* --attach follows the capture as its owner configured it. */
		{ "top -D " NODEV " --attach", TB_EXIT_FAIL,
		  "is the tracebuf module loaded?", NODEV, NULL },
		{ "top -D " NODEV " --attach -e syscall", TB_EXIT_USAGE,
		  "--attach follows the capture as its owner configured it",
		  "no -e, -s or -w", NULL },
		{ "bpf -s 100", TB_EXIT_USAGE, "from 4K to 1G", NULL, NULL },
		{ "bpf -d 99999999999", TB_EXIT_USAGE, "from 1 to", NULL, NULL },
		{ "bpf -e marker", TB_EXIT_USAGE, "needs the module", NULL, NULL },
		/* What bpf_collector_test expects in the guest, here too. */
		{ "bpf -e syscall,nope", TB_EXIT_USAGE, "unknown event class 'nope'",
		  "workqueue", NULL },
		{ "decode -s 300 " SNAP, TB_EXIT_USAGE, "from 256 to", NULL, NULL },
		{ "convert -s 1 xscale-text " SNAP, TB_EXIT_USAGE, "from 256 to", NULL, NULL },
		{ "convert -c 0 xscale-fdr " SNAP, TB_EXIT_USAGE,
		  "a number from 1 to", NULL, NULL },
		{ "report --top 5000 " FDR, TB_EXIT_USAGE, "from 0 to 1000", NULL, NULL },
		{ "report --hist x " FDR, TB_EXIT_USAGE, "from 0 to 100000", NULL, NULL },
		{ "workload -C 99999 getppid 1", TB_EXIT_USAGE, "--cpu '99999'", " to ", NULL },
		{ "workload --freq 3 rtc 1", TB_EXIT_USAGE, "from 2 to 8192", NULL, NULL },
		{ "ctl -D " NODEV " chain --depth 0", TB_EXIT_USAGE,
		  "from 1 to 1024", NULL, NODEV },
		/* Another kind of input: what it is and what reads it. */
		{ "decode " FDR, TB_EXIT_DATA,
		  "is an XRay FDR trace", "tracebuf report " FDR, NULL },
		{ "convert fdr-text " SNAP, TB_EXIT_DATA,
		  "is an XScale trace buffer", "tracebuf decode " SNAP, NULL },
		{ "convert fdr-json " TFILE, TB_EXIT_DATA,
		  "is a GDB trace file", "tracebuf convert tfile-text", NULL },
		{ "convert tfile-text " FDR " /dev/null", TB_EXIT_DATA,
		  "is an XRay FDR trace", "tracebuf report", NULL },
		{ "convert map-elf " FDR " /dev/null", TB_EXIT_DATA,
		  "not an ID NAME names file", "tracebuf report", NULL },
		{ "report " SNAP, TB_EXIT_DATA,
		  "is an XScale trace buffer", "tracebuf decode", NULL },
		{ "report -m " FDR " " FDR, TB_EXIT_DATA, "--map: ", "is an XRay FDR trace", NULL },
		{ "script " SNAP, TB_EXIT_DATA,
		  "is an XScale trace buffer", "tracebuf decode", NULL },
		/* Standard input, a file or a pipe, is named alike. */
		{ "report - < " SNAP, TB_EXIT_DATA,
		  "standard input is an XScale trace buffer", "tracebuf decode -", NULL },
		{ "script - < " SNAP, TB_EXIT_DATA,
		  "standard input is an XScale trace buffer", "tracebuf decode -", NULL },
		{ "report - < " TFILE, TB_EXIT_DATA,
		  "standard input is a GDB trace file", NULL, NULL },
		{ "script --before 5 --time 1, " FDR, TB_EXIT_USAGE,
		  "choose one", NULL, NULL },
		/* Arguments are checked before the device is opened. */
		{ "ctl -D " NODEV " mode bogus", TB_EXIT_USAGE,
		  "unknown mode 'bogus' (wrap or fill)", NULL, NODEV },
		{ "ctl -D " NODEV " chkpt 1", TB_EXIT_USAGE, "CHKPT0 CHKPT1", NULL, NODEV },
		{ "ctl -D " NODEV " chkpt 1 x", TB_EXIT_USAGE, "0xffffffff", NULL, NODEV },
		{ "ctl -D " NODEV " sources syscall,bogus", TB_EXIT_USAGE,
		  "unknown source 'bogus'", NULL, NODEV },
		{ "ctl -D " NODEV " status now", TB_EXIT_USAGE,
		  "unexpected argument 'now'", NULL, NODEV },
		{ "ctl -D " NODEV " frobnicate", TB_EXIT_USAGE,
		  "unknown command 'frobnicate'", NULL, NODEV },
		{ "ctl -D " NODEV " read a b", TB_EXIT_USAGE,
		  "unexpected argument 'b'", NULL, NODEV },
		{ "fdr -D " NODEV " stats --csv", TB_EXIT_USAGE,
		  "unknown option '--csv'", NULL, NODEV },
		{ "record -D " NODEV " --trigger bogus", TB_EXIT_USAGE,
		  "--trigger bogus", NULL, NODEV },
		/* Usage errors point to the help, without printing it. */
		{ "convert", TB_EXIT_USAGE,
		  "no conversion given", "Try 'tracebuf convert --help'", "Usage:" },
		{ "convert frobnicate", TB_EXIT_USAGE,
		  "unknown conversion 'frobnicate'", "Try", "Usage:" },
		{ "crash", TB_EXIT_USAGE, "no IMAGE given", "Try", "Usage:" },
		{ "workload getppid", TB_EXIT_USAGE, "WORKLOAD and COUNT", "Try", "Usage:" },
		{ "ctl", TB_EXIT_USAGE, "no command given", "Try", "Usage:" },
		{ "fdr", TB_EXIT_USAGE, "no command given", "Try", "Usage:" },
		{ "record --st", TB_EXIT_USAGE, "ambiguous", "--start", "Usage:" },
		{ "record -o", TB_EXIT_USAGE, "option '-o' needs a value", "Try", "Usage:" },
		{ "report --json=yes " FDR, TB_EXIT_USAGE,
		  "option '--json' takes no value", "Try", "Usage:" },
		{ "--bogus", TB_EXIT_USAGE,
		  "unknown option '--bogus'", "Try 'tracebuf --help'", "Usage:" },
		{ "help help", TB_EXIT_OK, "Usage: tracebuf", NULL, NULL },
		/* --help after a command word: the subcommand's help. */
		{ "fdr stats --help", TB_EXIT_OK, "Usage: tracebuf fdr", NULL, NULL },
		{ "ctl chain -h", TB_EXIT_OK, "Usage: tracebuf ctl", NULL, NULL },
		{ "fdr config --version", TB_EXIT_OK, "tracebuf fdr (tracebuf)", NULL, NULL },
		{ "help record extra", TB_EXIT_USAGE, "'extra'", NULL, NULL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		int st;
		char *out = tu_run(&st, "%s %s", tu_tool("tracebuf"), c[i].args);

		EXPECT_EQ(c[i].status, st) TH_LOG("tracebuf %s: %s", c[i].args, out);
		EXPECT_NE(NULL, strstr(out, c[i].want))
			TH_LOG("tracebuf %s: no '%s' in: %s", c[i].args, c[i].want, out);
		if (c[i].want2)
			EXPECT_NE(NULL, strstr(out, c[i].want2))
				TH_LOG("tracebuf %s: no '%s' in: %s", c[i].args,
				       c[i].want2, out);
		if (c[i].not)
			EXPECT_EQ(NULL, strstr(out, c[i].not))
				TH_LOG("tracebuf %s: '%s' in: %s", c[i].args,
				       c[i].not, out);
		free(out);
	}
}

/* A mistyped option: one line, then "Try 'PROG --help'", as GNU tools. */
/*
 * @n bytes in a file of @dir, read by tracebuf report: a data error, named
 * a trace_event JSON file when @json, and never called JSON otherwise.
 */
static void report_names(struct __test_metadata *_metadata, const char *dir,
			 const void *bytes, size_t n, bool json)
{
	char path[512], *out;
	int st;

	snprintf(path, sizeof(path), "%s/input", dir);
	ASSERT_EQ(0, tu_write(path, bytes, n));
	out = tu_run(&st, "%s report %s", tu_tool("tracebuf"), path);
	EXPECT_EQ(TB_EXIT_DATA, st);
	if (json) {
		EXPECT_NE(NULL, strstr(out, "is a trace_event JSON file")) TH_LOG("%s", out);
	} else {
		EXPECT_EQ(NULL, strstr(out, "JSON")) TH_LOG("%s", out);
	}
	free(out);
}

/*
 * A file is named as trace_event JSON by what JSON is, not by one byte:
 * a binary file that happens to begin with '[' (one in 128 of random
 * ones) is of no known kind, and a real JSON trace is still named.
 */
TEST(json_named_by_more_than_one_byte)
{
	static const uint8_t binary[] = { '[', 0x8f, 0x69, 0xa5, 0x04, 0x52, 0x00, 0x62,
					  '{', 0x15, 0xb4, 0x7f, 0x6d, 0x00, 0x98, 0x68 };
	static const char *const json[] = {
		"{\"traceEvents\": []}\n",
		"  [\n  {\"name\": \"a\", \"ph\": \"B\"}]\n",
	};
	char *dir = tu_tmpdir(), *out;
	size_t i;
	int st;

	report_names(_metadata, dir, binary, sizeof(binary), false);
	for (i = 0; i < ARRAY_SIZE(json); i++)
		report_names(_metadata, dir, json[i], strlen(json[i]), true);
	/* Through a pipe, which report and script copy to a file first. */
	out = tu_run(&st, "cat %s | %s script -", SNAP, tu_tool("tracebuf"));
	EXPECT_EQ(TB_EXIT_DATA, st);
	EXPECT_NE(NULL, strstr(out, "standard input is an XScale trace buffer")) TH_LOG("%s", out);
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/*
 * JSON saved with a UTF-8 byte order mark (PowerShell's Out-File, some
 * Windows editors) is still JSON: RFC 8259 lets a reader ignore the mark,
 * and the file is named as the JSON it is, not taken for a trace with no
 * names and a truncated header.
 */
TEST(json_named_after_a_byte_order_mark)
{
	static const char *const json[] = {
		"\xef\xbb\xbf{\"traceEvents\": []}\r\n",
		"\xef\xbb\xbf\r\n[{\"name\": \"\xc3\xa9\", \"ph\": \"X\"}]",
	};
	char *dir = tu_tmpdir();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json); i++)
		report_names(_metadata, dir, json[i], strlen(json[i]), true);
	tu_rmdir(dir);
	free(dir);
}

/*
 * A kernel log (dmesg, a serial console capture) starts with '[' and a
 * number: text, but no trace_event JSON, whose array holds events, each
 * an object.  Named as JSON it was sent to Perfetto.
 */
TEST(kernel_log_is_no_json)
{
	static const char log[] =
		"[    0.000000] Linux version 6.1.0-56-amd64 (debian-kernel@lists.debian.org)\n"
		"[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-6.1.0-56-amd64\n";
	char *dir = tu_tmpdir();

	report_names(_metadata, dir, log, strlen(log), false);
	tu_rmdir(dir);
	free(dir);
}

TEST(mistyped_option_is_two_lines)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(subs); i++) {
		char want[256];
		int st;
		char *out = tu_run(&st, "%s %s --frobnicate", tu_tool("tracebuf"),
				   subs[i]);

		snprintf(want, sizeof(want),
			 "tracebuf %s: unknown option '--frobnicate'\nTry 'tracebuf %s --help' for more information.\n",
			 subs[i], subs[i]);
		EXPECT_EQ(TB_EXIT_USAGE, st);
		EXPECT_STREQ(want, out);
		free(out);
	}
	/* The old names say their own name. */
	{
		int st;
		char *out = tu_run(&st, "%s -x", tu_tool("tbconv"));

		EXPECT_EQ(TB_EXIT_USAGE, st);
		EXPECT_EQ(2, tu_count(out, "\n"));
		EXPECT_NE(NULL, strstr(out, "Try 'tbconv --help'")) TH_LOG("%s", out);
		free(out);
	}
}

/* README's exit statuses in every help, and examples at its end. */
TEST(every_help_states_exit_statuses_and_examples)
{
	static const char *const words[] = {
		"Exit status: 0 ok", "1 failure", "2 usage", "3 malformed input",
	};
	unsigned int i, w;

	for (i = 0; i <= ARRAY_SIZE(subs); i++) {
		const char *sub = i < ARRAY_SIZE(subs) ? subs[i] : "";
		char *out;
		int st;

		out = tu_run(&st, "%s %s --help | tr '\\n' ' ' | tr -s ' '",
			     tu_tool("tracebuf"), sub);
		EXPECT_EQ(0, st);
		for (w = 0; w < ARRAY_SIZE(words); w++) {
			const char *word = words[w];

			EXPECT_NE(NULL, strstr(out, word))
				TH_LOG("tracebuf %s --help: no '%s'", sub, word);
		}
		EXPECT_NE(NULL, strstr(out, "Examples: tracebuf "))
			TH_LOG("tracebuf %s --help has no examples", sub);
		free(out);
	}
}

TEST_HARNESS_MAIN
