/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace buffer product (/dev/tracebuf) as the module sees it.  Inside
 * it: dev.c (the device) over a backend (backend.h: emul.c with its
 * feed.c and chain.c over model.c, or xscale.c on the hardware).
 */
#ifndef _TB_H
#define _TB_H

int tb_dev_init(void);
void tb_dev_exit(void);

#endif /* _TB_H */
