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
};

void tb_seterr(struct tb_error *e, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* TB_ERROR_H */
