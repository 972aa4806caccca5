/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-header shims for host tests that compile driver code as it is
 * (xscale_model_test builds driver/tracebuf/model.c): only what that code
 * uses.
 */
#ifndef TB_KSHIM_TYPES_H
#define TB_KSHIM_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#define U32_MAX	UINT32_MAX

#endif /* TB_KSHIM_TYPES_H */
