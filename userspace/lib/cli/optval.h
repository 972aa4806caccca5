/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of the common options, one grammar each, with errors that
 * say what was expected (the range, the suffixes):
 *
 *   sizes      a number with an optional K, M or G (powers of 1024)
 *   durations  whole seconds, 1 to a year
 *
 * Each returns 0, or -EINVAL with @msg (@len bytes) set: "--size '3M': a
 * power of two from 64K to 64M expected (K, M, G suffixes)".
 */
#ifndef TB_OPTVAL_H
#define TB_OPTVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A size within [@min, @max], and a power of two when @pow2. */
int tb_optval_size(const char *what, const char *s, uint64_t min,
		   uint64_t max, bool pow2, uint64_t *out, char *msg,
		   size_t len);

#define TB_OPTVAL_SECONDS_MAX	(365ULL * 86400)
int tb_optval_seconds(const char *what, const char *s, uint64_t *out,
		      char *msg, size_t len);

/* A number within [@min, @max]. */
int tb_optval_number(const char *what, const char *s, uint64_t min,
		     uint64_t max, uint64_t *out, char *msg, size_t len);

/* @v as the size grammar writes it: "64K", "1M", "1G" or "300". */
void tb_optval_format_size(uint64_t v, char *buf, size_t len);

#endif /* TB_OPTVAL_H */
