/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel-header shim for host tests; see types.h. */
#ifndef TB_KSHIM_MINMAX_H
#define TB_KSHIM_MINMAX_H

#define min(a, b)	({ typeof(a) _a = (a); typeof(b) _b = (b);	\
			   _a < _b ? _a : _b; })

#endif /* TB_KSHIM_MINMAX_H */
