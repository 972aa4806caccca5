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
 * Records one event (the fields of a struct tracebuf_event, in registers),
 * in any context, NMI included.
 */
typedef void (*tb_feed_sink_fn)(u32 kind, u32 arg, u32 icount);

/*
 * Before the first tb_feed_set(): where the events go.  A static call,
 * patched to a direct call: this is the per-event path, and a function
 * pointer would cost a retpolined call per event.
 */
void tb_feed_init(tb_feed_sink_fn sink);

/*
 * Turn the kernel events in @src on (mask != 0) or off.  Sleeps.
 * tb_feed_counts() says whether every fed CPU has an instruction counter.
 */
int tb_feed_set(const struct tracebuf_sources *src);
bool tb_feed_counts(void);
void tb_feed_exit(void);

#endif /* _TB_FEED_H */
