// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf crash: the flight recorder's trace out of a memory image of a
 * crashed kernel (format/crash_image.h), written as `tracebuf record` writes its
 * files (convert/fdr_post.h).  Documentation/fdr.rst, "Recovery after a crash".
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tracebuf_crash.h>

#include "cli/cli.h"
#include "cli_opt.h"
#include "cmds.h"
#include "collect/collect.h"
#include "convert/crash_recover.h"
#include "convert/fdr_post.h"
#include "convert/fdr_post_files.h"
#include "format/crash_image.h"
#include "tool.h"

#include "syscall_names.h"	/* generated from the UAPI headers */

#define DEFAULT_OUT "crash.fdr"

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] IMAGE\n"
		"\n"
		"Recover the flight recorder's rings from IMAGE, a memory image of a\n"
		"kernel that panicked while tracebuf recorded: an ELF core of physical\n"
		"memory (kdump's /proc/vmcore, makedumpfile -E, qemu dump-guest-memory),\n"
		"a kdump-compressed dump (makedumpfile -c, zlib or plain pages) or\n"
		"/proc/kcore.  The rings were frozen by the module's panic notifier;\n"
		"every CPU's newest data is written as an FDR file with the files\n"
		"'tracebuf record' writes.  Damaged blocks are dropped and reported.\n"
		"\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_crash_spec, NULL);
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf crash /var/crash/*/vmcore && tracebuf report --before 100 crash.fdr\n"
	      "  tracebuf crash -o panic.fdr -J guest.elf\n"
	      "\n"
	      "Exit status: 0 ok, 1 failure (also when nothing could be recovered: not\n"
	      "an image, no recorder in it, recorder stopped or never started),\n"
	      "2 usage, 3 malformed input.\n", f);
}

static void note(void *ctx, const char *msg)
{
	tb_cli_warn("%s", msg);
}

static const struct tb_opt crash_opts[] = {
	{ TB_OPT_OUTPUT,
	  .help = "the trace (default " DEFAULT_OUT "), with FILE.names, FILE.map and FILE.tfile next to it" },
	{ TB_COLLECT_OPT_RAW,
	  .help = "keep kernel ids and records as recorded" },
	{ TB_COLLECT_OPT_NO_TFILE,
	  .help = "do not write FILE.tfile" },
	{ TB_OPT_JSON,
	  .help = "also write FILE.json (trace_event)" },
	{ TB_OPT_QUIET,
	  .help = "no summary" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

const struct tb_opt_spec cmd_crash_spec = {
	.name = "crash", .opts = crash_opts, .operands = TB_VAL_FILE,
};

/*
 * The recovered capture's id: from what was recovered (FNV-1a over the
 * kernel's capture number and the stream), so that every dump of one
 * panic names the same capture, and two panics differ.
 */
static uint64_t crash_capture_id(const struct tb_crash_result *res)
{
	uint64_t h = 0xcbf29ce484222325ULL, c = res->capture;
	const uint8_t *p = res->stream;
	size_t i;

	for (i = 0; i < 8; i++, c >>= 8)
		h = (h ^ (c & 0xff)) * 0x100000001b3ULL;
	for (i = 0; i < res->len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h ? h : 1;
}

int cmd_crash(int argc, char **argv)
{
	struct tb_opt_parser p;
	const char *out = DEFAULT_OUT, *image;
	struct tb_fdr_post post = { 0 };
	struct tb_fdr_post_files files = {
		.syscalls = { syscall_names, ARRAY_SIZE(syscall_names) },
	};
	struct tb_name_map known = { 0 };
	struct tb_fdr_post_meta meta;
	char *capture, *text;
	struct tb_crash_result res;
	struct tb_crash_image im;
	struct tb_crash_src src;
	struct tb_error err;
	struct tb_collect_out oo = { 0 };	/* -r -N -J -q */
	struct tb_collect_paths paths;
	int opt, fd;
	struct stat st;
	uint32_t cpu;
	FILE *f;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_crash_spec, NULL, argc, argv, 1);
	while ((opt = cli_opt_next(&p, print_help))) {
		if (tb_collect_out_option(&oo, opt, p.arg))
			continue;
		if (opt == 'o')
			out = p.arg;
	}
	if (!p.nr_operands)
		cli_opt_usage("no IMAGE given");
	if (p.nr_operands > 1)
		cli_opt_usage("one IMAGE at a time ('%s' is extra)", p.operands[1]);
	image = p.operands[0];
	fd = open(image, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tool_die_errno(TB_EXIT_FAIL, "%s", image);
	if (fstat(fd, &st))
		tool_die_errno(TB_EXIT_FAIL, "%s", image);
	if (S_ISDIR(st.st_mode))
		tool_die(TB_EXIT_FAIL, "%s: is a directory", image);
	tb_crash_image_src_fd(&src, fd, S_ISREG(st.st_mode) ? (uint64_t)st.st_size :
			      UINT64_MAX);
	if (tb_crash_image_open(&im, &src, &err))
		tool_die(TB_EXIT_FAIL, "%s: %s", image, err.msg);
	if (tb_crash_recover(&im, &res, note, NULL, &err))
		tool_die(TB_EXIT_FAIL, "%s: %s", image, err.msg);
	tb_crash_image_free(&im);
	close(fd);
	/* The names the panic saved; without them ids stay numeric (noted). */
	if (res.names) {
		if (tb_fdr_post_kernel_names(&known, res.names))
			tool_die(TB_EXIT_FAIL, "out of memory");
		if (tb_name_map_finish(&known, &err)) {
			tb_cli_warn("%s: the saved names repeat an id: numeric names",
				    image);
			tb_name_map_free(&known);
			memset(&known, 0, sizeof(known));
		} else {
			files.known = &known;
		}
	}

	/*
	 * The same META block as record's, of what the image says: no
	 * tasks (the dump has no /proc), not this machine's name, and not
	 * this command's words, so that every dump of one panic (an ELF
	 * core, a kdump-compressed one) gives the same bytes.
	 */
	capture = tb_collect_capture_text("crash", 0,
					  tb_collect_clock(res.stream, res.len),
					  false, NULL);
	post.capture_id = crash_capture_id(&res);
	if (!capture || asprintf(&text, "%skernel_capture %llu\npanic_cpu %u\n",
				 capture, (unsigned long long)res.capture,
				 res.panic_cpu) < 0)
		tool_die(TB_EXIT_FAIL, "out of memory");
	free(capture);
	meta = (struct tb_fdr_post_meta){
		.capture = text, .known = &known, .syscalls = files.syscalls,
	};
	post.meta = &meta;
	post.raw = oo.raw;
	f = tool_open_output(out);
	if (tb_fdr_post_run(&post, res.stream, res.len, f, &err))
		tool_die(TB_EXIT_FAIL, "%s: recovered blocks: %s", image, err.msg);
	tool_close_output(f, out);
	free(text);
	if (tb_collect_paths_init(&paths, out))
		tool_die(TB_EXIT_FAIL, "out of memory");
	tb_collect_post_files(&files, &paths, out, &oo);
	if (files.names && tb_fdr_post_files(&post, &files, &err))
		tool_die(TB_EXIT_FAIL, "%s", err.msg);

	/* On stderr: the trace may be on stdout (-o -). */
	if (!oo.quiet) {
		fprintf(stderr, "%s: capture %llu, frozen by a panic on CPU %u; descriptor at 0x%llx\n",
			image, (unsigned long long)res.capture, res.panic_cpu,
			(unsigned long long)res.desc_paddr);
		for (cpu = 0; cpu < res.nr_cpus; cpu++) {
			const struct tb_crash_cpu_result *c = &res.cpus[cpu];

			if (!c->blocks && !c->dropped)
				continue;
			fprintf(stderr, "cpu %u: %llu blocks, %llu bytes%s%s", cpu,
				(unsigned long long)c->blocks,
				(unsigned long long)c->bytes,
				c->flags & TRACEBUF_CRASH_CPU_PANIC ?
				", ends with the panic message" : "",
				c->flags & TRACEBUF_CRASH_CPU_TORN ?
				", stopped inside a write" : "");
			if (c->dropped)
				fprintf(stderr, ", %llu damaged dropped",
					(unsigned long long)c->dropped);
			fprintf(stderr, "\n");
		}
		fprintf(stderr, "%s: %llu blocks, %llu bytes, %llu markers\n", out,
			(unsigned long long)post.blocks,
			(unsigned long long)post.bytes,
			(unsigned long long)post.markers);
		if (files.names && post.raw)
			fprintf(stderr, "names: %s (kernel ids)\n", files.names);
		else if (files.names)
			fprintf(stderr, "names: %s, map: %s (llvm-xray -m), tfile: %s\n",
				files.names, files.map,
				files.tfile ? files.tfile : "-");
	}
	tb_fdr_post_free(&post);
	tb_name_map_free(&known);
	tb_crash_recover_free(&res);
	tb_collect_paths_free(&paths);
	return TB_EXIT_OK;
}
