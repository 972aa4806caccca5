/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text visitor for FDR records: one line per record in the layout of
 * `llvm-xray fdr-dump` (without -verify), so the two can be diffed.
 */
#ifndef TB_FDR_PRINT_H
#define TB_FDR_PRINT_H

#include <stdio.h>

#include "format/fdr_records.h"

void tb_fdr_print(FILE *out, const struct tb_fdr_record *r);

/*
 * The same, a function record followed by " NAME" after its '>' when
 * @name is not NULL (tracebuf convert fdr-text with names: no longer
 * llvm-xray's text).
 */
void tb_fdr_print_named(FILE *out, const struct tb_fdr_record *r,
			const char *name);

#endif /* TB_FDR_PRINT_H */
