/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel-header shim for host tests; see types.h. */
#ifndef TB_KSHIM_STRING_H
#define TB_KSHIM_STRING_H

#include <string.h>

#endif /* TB_KSHIM_STRING_H */
