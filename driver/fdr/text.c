// SPDX-License-Identifier: GPL-2.0
/*
 * Text built line by line in a fixed buffer: the NAMES text, which the
 * panic notifier writes too, so nothing here allocates, sleeps or locks.
 */
#include <linux/kernel.h>

#include "text.h"

void fdr_text_line(struct fdr_text *t, const char *fmt, ...)
{
	va_list args;
	int n;

	if (t->truncated)
		return;
	va_start(args, fmt);
	n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, args);
	va_end(args);
	/* Complete lines only: a line that does not fit ends the text. */
	if (n >= t->size - t->len)
		t->truncated = true;
	else
		t->len += n;
}
