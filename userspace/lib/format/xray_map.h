/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writer of a minimal ELF64 x86-64 file that llvm-xray accepts as an
 * instrumentation map (-m): an `xray_instr_map` section of 32-byte sled
 * entries and a symbol table with one function symbol at each sled's
 * function address, so `llvm-xray account -m map.elf` prints names.
 *
 * llvm-xray numbers functions 1, 2, 3... in sled order, bumping the id each
 * time the sled's function address changes; ids cannot be skipped.  Gaps
 * between named ids therefore get unnamed placeholder functions, and the
 * map costs 32 bytes per id up to the largest: TB_XRAY_MAP_MAX_ID bounds
 * it.
 */
#ifndef TB_XRAY_MAP_H
#define TB_XRAY_MAP_H

#include <stdio.h>

#include "format/name_map.h"

#define TB_XRAY_MAP_MAX_ID	(1U << 20)
#define TB_XRAY_MAP_TEXT	0x400000ULL	/* address of function 1 */
#define TB_XRAY_MAP_STRIDE	16		/* bytes per function */

/* Write the map for @m (finished, sorted); 0 or -errno. */
int tb_xray_map_write(FILE *f, const struct tb_name_map *m);

#endif /* TB_XRAY_MAP_H */
