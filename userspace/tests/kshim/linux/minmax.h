/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel-header shim for host tests; see types.h. */
#ifndef TB_KSHIM_MINMAX_H
#define TB_KSHIM_MINMAX_H

/* Distinct local names: the model nests these. */
#define min(a, b)	({ typeof(a) _min_a = (a); typeof(b) _min_b = (b); \
			   _min_a < _min_b ? _min_a : _min_b; })
#define min_t(t, a, b)	({ t _mint_a = (a); t _mint_b = (b);		\
			   _mint_a < _mint_b ? _mint_a : _mint_b; })
#define max_t(t, a, b)	({ t _maxt_a = (a); t _maxt_b = (b);		\
			   _maxt_a > _maxt_b ? _maxt_a : _maxt_b; })

#endif /* TB_KSHIM_MINMAX_H */
