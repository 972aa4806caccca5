// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: tracebuf script's listing (lib/convert/fdr_script.h,
 * over the merge of lib/convert/fdr_timeline.h) of arbitrary bytes.  What
 * the reader reads whole, the listing lists whole: every function
 * record, custom and typed event once, and no error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "convert/fdr_script.h"
#include "format/fdr_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(void *ctx, const struct tb_fdr_record *r)
{
	uint64_t *n = ctx;

	if (!r->ignored && (r->kind == TB_FDR_FUNCTION ||
			    r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED))
		(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tb_fdr_script_opts o = {
		.filter = {
			.pid = TB_REPORT_NO_FILTER, .tid = TB_REPORT_NO_FILTER,
			.cpu = TB_REPORT_NO_FILTER,
		},
	};
	struct tb_name_map names = { 0 };
	struct tb_fdr_script_stats st;
	struct tb_task_map tasks;
	struct tb_error err = { 0 };
	uint64_t events = 0;
	int fd, ret, read_ret;
	FILE *out;

	fd = memfd_create("fdr_script_fuzz", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	out = fopen("/dev/null", "w");
	if (!out) {
		close(fd);
		return 0;
	}
	tb_task_map_init(&tasks);
	ret = tb_fdr_script_run(fd, out, &names, &tasks, &o, &st, &err);
	read_ret = tb_fdr_reader_read_mem(data, size, NULL, count, &events,
					  NULL, &err);
	if (!read_ret && ret && ret != -ENOMEM)
		abort();	/* the reader reads it, the listing refuses it */
	if (!ret && st.events != events)
		abort();	/* events lost or listed twice */
	fclose(out);
	close(fd);
	tb_task_map_free(&tasks);
	return 0;
}
