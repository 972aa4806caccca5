/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser errors.  Every reader in the library reports the byte offset where
 * the input stopped making sense, and what it expected there, so that a
 * user can look at the file with a hex dump and see the problem.
 */
#ifndef TB_ERROR_H
#define TB_ERROR_H

#include <stdint.h>

struct tb_error {
	uint64_t offset;
	char msg[240];		/* "offset N: what went wrong" */
	/*
	 * Set by a reader that succeeded on input it could read only in
	 * part (an FDR trace cut inside a block), empty otherwise: tools
	 * print it on stderr and still exit 0, as perf and trace-cmd do
	 * with a truncated file.
	 */
	char warning[256];
};

void tb_error_set(struct tb_error *e, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void tb_error_warn(struct tb_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* TB_ERROR_H */
