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
 * Before the first tb_feed_set(): where the events go.  @sink takes them
 * in any context; @sink_syscall only those of the syscall entry and exit
 * probes, which run in process context with interrupts on, never in NMI
 * (the kernel's generic entry code runs syscall work with interrupts
 * enabled), so it may disable and enable interrupts instead of saving
 * them.  Static calls, patched to direct calls: this is the per-event
 * path, and a function pointer would cost a retpolined call per event.
 */
void tb_feed_init(tb_feed_sink_fn sink, tb_feed_sink_fn sink_syscall);

/*
 * Turn the kernel events in @src on (mask != 0) or off.  Sleeps.
 * tb_feed_counts() says whether every fed CPU has an instruction counter.
 */
int tb_feed_set(const struct tracebuf_sources *src);
bool tb_feed_counts(void);
void tb_feed_exit(void);

#endif /* _TB_FEED_H */
