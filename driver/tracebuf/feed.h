/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel event feed (feed.c) as its one user, the emulated backend
 * (emul.c), sees it: events go to the sink the backend registered.
 */
#ifndef _TB_FEED_H
#define _TB_FEED_H

#include <linux/types.h>

#include <linux/tracebuf.h>

/*
 * Where the feed's events go, in emul.c: records one event (the fields of
 * a struct tracebuf_event), in any context, NMI included.  A direct call
 * with the fields in registers: the feed has no other user, and this is
 * the per-event path.
 */
void tb_emul_feed_event(u32 kind, u32 arg, u32 icount);

/*
 * Turn the kernel events in @src on (mask != 0) or off.  Sleeps.
 * tb_feed_counts() says whether every fed CPU has an instruction counter.
 */
int tb_feed_set(const struct tracebuf_sources *src);
bool tb_feed_counts(void);
void tb_feed_exit(void);

#endif /* _TB_FEED_H */
