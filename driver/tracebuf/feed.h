/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel event feed (feed.c) as its one user, the emulated backend
 * (emul.c), sees it: events go to the sink the backend registered.
 */
#ifndef _TB_FEED_H
#define _TB_FEED_H

#include <linux/types.h>

#include <linux/tracebuf.h>

/* Records one event, in any context (NMI included); may modify it. */
typedef void (*tb_feed_sink_fn)(struct tracebuf_event *ev);

/* Before the first tb_feed_set(): where the events go. */
void tb_feed_init(tb_feed_sink_fn sink);

/*
 * Turn the kernel events in @src on (mask != 0) or off.  Sleeps.
 * tb_feed_counts() says whether every fed CPU has an instruction counter.
 */
int tb_feed_set(const struct tracebuf_sources *src);
bool tb_feed_counts(void);
void tb_feed_exit(void);

#endif /* _TB_FEED_H */
