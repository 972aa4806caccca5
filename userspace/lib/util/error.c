// SPDX-License-Identifier: GPL-2.0
/* Parser error formatting; see util/error.h. */
#include <stdarg.h>
#include <stdio.h>

#include "util/error.h"

void tb_error_set(struct tb_error *e, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!e)
		return;
	e->offset = offset;
	n = snprintf(e->msg, sizeof(e->msg), "offset %llu: ",
		     (unsigned long long)offset);
	if (n < 0 || (size_t)n >= sizeof(e->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	va_end(ap);
}

void tb_error_warn(struct tb_error *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	vsnprintf(e->warning, sizeof(e->warning), fmt, ap);
	va_end(ap);
}
