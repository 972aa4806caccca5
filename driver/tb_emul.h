/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the emulated backend (tb_emul.c) and its kernel event feed
 * (tb_feed.c).
 */
#ifndef _TB_EMUL_H
#define _TB_EMUL_H

#include <linux/types.h>

#include <linux/tracebuf.h>

/* Record one event from probe context (any context, NMI included). */
void tb_emul_feed_event(struct tracebuf_event *ev);

/*
 * The feed: turn the kernel events in @src on (mask != 0) or off.  Sleeps.
 * tb_feed_counts() says whether every fed CPU has an instruction counter.
 */
int tb_feed_set(const struct tracebuf_sources *src);
bool tb_feed_counts(void);
void tb_feed_exit(void);

#endif /* _TB_EMUL_H */
