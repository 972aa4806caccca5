/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text built line by line in a fixed buffer (text.c): the NAMES text,
 * which the panic writes too, so nothing here allocates, sleeps or locks.
 */
#ifndef _FDR_TEXT_H
#define _FDR_TEXT_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * Text in a buffer of @size bytes, complete lines only: the first line
 * that does not fit sets @truncated and ends it.
 */
struct fdr_text {
	char *buf;
	size_t size;
	size_t len;
	bool truncated;
};

__printf(2, 3) void fdr_text_line(struct fdr_text *t, const char *fmt, ...);

#endif /* _FDR_TEXT_H */
