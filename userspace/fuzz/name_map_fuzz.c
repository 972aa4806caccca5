// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: "ID NAME" map parsing and the ELF map writer. */
#include <stdio.h>

#include "format/name_map.h"
#include "format/xray_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct tb_name_map m;
	struct tb_error err;
	FILE *f;

	if (!size)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	/* Large ids make big (valid) maps: keep the fuzzer fast. */
	if (!tb_name_map_load(&m, f, &err) && m.n &&
	    m.v[m.n - 1].id < 4096)
		tb_xray_map_write(devnull, &m);
	tb_name_map_free(&m);
	fclose(f);
	return 0;
}
