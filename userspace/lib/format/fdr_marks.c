// SPDX-License-Identifier: GPL-2.0
/* tracebuf's own custom events in FDR traces; see fdr_marks.h. */
#include <stdint.h>
#include <string.h>

#include "format/fdr_marks.h"

bool tb_fdr_marks_is_start(const struct tb_fdr_record *r)
{
	return r->kind == TB_FDR_CUSTOM &&
	       r->size == (int32_t)strlen(TB_FDR_MARKS_START) &&
	       !memcmp(r->data, TB_FDR_MARKS_START, strlen(TB_FDR_MARKS_START));
}
