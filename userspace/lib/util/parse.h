/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers from the command line and from text files, parsed strictly. */
#ifndef TB_PARSE_H
#define TB_PARSE_H

#include <stdint.h>

/*
 * Strict number parsing: decimal, 0x hex or 0 octal, the whole string,
 * no sign for unsigned, within [min, max].  Return 0 or -EINVAL/-ERANGE.
 */
int tb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int tb_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
/* Like tb_parse_u64 but accepts a K/M/G suffix (powers of 1024). */
int tb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Call @fn with each word of the comma-separated @list, in order (empty
 * words skipped, as strtok does): 0, -ENOMEM, or the first non-zero
 * value @fn returned.
 */
int tb_parse_words(const char *list, int (*fn)(void *ctx, const char *word),
		   void *ctx);

#endif /* TB_PARSE_H */
