/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The definition lines of a GDB trace file, checked as gdb 13 checks them
 * when it opens one (format/tfile_reader.c says which it refuses).
 */
#ifndef TB_TFILE_DEFS_H
#define TB_TFILE_DEFS_H

#include "format/tfile_rd.h"

/* Read the definitions up to the frames: 0, or -1 with r->err set. */
int tb_tfile_defs_read(struct tb_tfile_rd *r);

#endif /* TB_TFILE_DEFS_H */
