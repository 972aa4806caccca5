/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rings as their owner sees them: allocation and state, START and
 * STOP's switches, windows, crash positions, and the reading side:
 * snapshots, streaming, page lending, looks, and the rest of a page kept
 * for a file whose capture went.  The write API is frontend_api.h's.
 *
 * Locking: the functions marked "serialised" expect their caller to
 * hold one lock of its own around every call to them (the recorder's
 * capture lock); the write path takes none.  What the ring must tell its
 * owner it is given as a callback (fdr_ring_window_open()).
 */
#ifndef _FDR_RING_FRONTEND_H
#define _FDR_RING_FRONTEND_H

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <linux/tracebuf.h>

struct tracebuf_fdr_cpu_stats;

/* Woken when a reader has something to read (streaming, a freeze). */
wait_queue_head_t *fdr_ring_waitq(void);

int fdr_ring_init(void);
void fdr_ring_exit(void);

/*
 * Serialised, stopped: (re)allocate buffers of @size bytes per possible CPU,
 * or free them.  Either discards the capture: the rings are left empty,
 * their counters zero, in the last mode set (a failed allocation leaves
 * none, which readers and writers take as empty too).
 */
int fdr_ring_alloc(u32 size);
void fdr_ring_free(void);
bool fdr_ring_allocated(void);
/* The buffers' size (0: none) and the buffer of @cpu (crash images). */
u32 fdr_ring_size(void);
const u8 *fdr_ring_data(unsigned int cpu);

/* Serialised, stopped: empty the buffers and counters for a new capture. */
void fdr_ring_reset(u32 mode, u32 wakeup);
/* Serialised: let writers in (true) or keep them out (false). */
void fdr_ring_set_on(bool on);
/* After fdr_ring_set_on(false) and a grace period: flush deferred work. */
void fdr_ring_quiesce(void);
/*
 * Any context: stop every writer (a trigger's freeze, the panic).  Writes
 * under way finish; the ones after are counted as frozen out until
 * fdr_ring_set_on().
 */
void fdr_ring_stop_writers(void);
/* Events the stopped writers turned away since START (STATS). */
u64 fdr_ring_frozen(void);
/* The counters of one CPU. */
void fdr_ring_cpu_stats(unsigned int cpu, struct tracebuf_fdr_cpu_stats *out);

/*
 * A window: count the records written from now on, on every CPU, and call
 * @done (any context, from the write path's slow path) when @records of
 * them have been written; it is called once, and the window stays open
 * (counting) until closed.  Open, close: any context.  The count: records
 * written in windows since the last fdr_ring_window_clear() or reset.
 * Opening one costs every write the slow path while it lasts.
 */
void fdr_ring_window_open(u32 records, void (*done)(void));
void fdr_ring_window_close(void);
u64 fdr_ring_window_count(void);
void fdr_ring_window_clear(void);

/**
 * struct fdr_ring_pos - where a stopped CPU's ring is (crash images)
 * @head:	the page being filled (sequence number)
 * @tail:	the oldest page held
 * @len:	bytes in page @head
 * @block:	offset of the open block in page @head, or FDR_NO_BLOCK
 * @torn:	the CPU was stopped inside a write: its last record may be
 *		incomplete
 * @page_len:	the length of each page, by sequence number modulo
 *		TRACEBUF_FDR_PAGES (closed pages' are final)
 */
struct fdr_ring_pos {
	unsigned long head;
	unsigned long tail;
	u32 len;
	u32 block;
	bool torn;
	u32 page_len[TRACEBUF_FDR_PAGES];
};

/*
 * Panic: let this CPU's writes in again whatever stopped them (a
 * trigger's freeze), for the last words; then, after
 * fdr_ring_stop_writers(), read every CPU's position.
 */
void fdr_ring_panic_open(void);
void fdr_ring_pos(unsigned int cpu, struct fdr_ring_pos *out);

/*
 * The largest streaming wake-up threshold for a buffer of @buf_size bytes:
 * one the ring always reaches before it is full, whatever the records
 * (the write path checks it against its largest reservation at build time).
 */
#define FDR_WAKEUP_MAX(buf_size)	TRACEBUF_FDR_WAKEUP_MAX(buf_size)

/* ---------------------------------------------------------- reading */

#define FDR_NO_BLOCK	U32_MAX

struct fdr_snap_cpu;

/**
 * struct fdr_rest - the rest of a page a file was partway through when
 * its capture was discarded, kept for it (serialised)
 * @buf:	@len bytes, or NULL
 * @len:	bytes kept
 * @off:	bytes of them already read
 */
struct fdr_rest {
	u8 *buf;
	u32 len;
	u32 off;
};

/**
 * struct fdr_reader - where one file is in the rings (serialised)
 * @holders:	on the list of snapshot holders while it holds one
 * @snap:	per possible CPU, the snapshot it holds
 * @cpu:	snapshot: the CPU being copied; streaming: the CPU whose oldest
 *		page this file is partway through, or -1
 * @off:	snapshot: bytes of the current page already copied
 * @rest:	what fdr_stream_keep_rests() or fdr_snap_keep_rests() kept
 */
struct fdr_reader {
	struct list_head holders;
	struct fdr_snap_cpu *snap;
	int cpu;
	u32 off;
	struct fdr_rest rest;
};

/* Open: 0 or -ENOMEM.  Close (serialised): let go of everything held. */
int fdr_reader_init(struct fdr_reader *rd);
void fdr_reader_exit(struct fdr_reader *rd);

/*
 * Flight-recorder snapshots (serialised): take one (replacing any held),
 * read it (0 at its end, when it is let go), let it go.  A held snapshot
 * keeps writers from reusing its pages; nothing is copied.
 */
void fdr_snap_take(struct fdr_reader *rd);
ssize_t fdr_snap_read(struct fdr_reader *rd, char __user *buf, size_t count);
void fdr_snap_release(struct fdr_reader *rd);
bool fdr_snap_held(const struct fdr_reader *rd);

/*
 * Before CONFIG or START discard the capture (serialised), in two steps,
 * so that one that fails after the first changes nothing.  Keep: every
 * file partway through a page, of its snapshot or of the stream, gets the
 * rest of that page copied into its @rest (0, or -ENOMEM with none
 * kept).  Then, once the capture is sure to go, rests_kept(true) lets
 * those pages go as if read; or rests_kept(false) drops the copies, and
 * the files read on from where they were.
 */
int fdr_snap_keep_rests(void);
void fdr_snap_rests_kept(bool go);
int fdr_stream_keep_rests(void);
void fdr_stream_rests_kept(bool go);

/*
 * Copy @cpu's closed pages to @buf, whole ones while they fit in @size
 * (at least a ring page, else -EINVAL), from page *@next (@resume) or the
 * oldest, without consuming, closing or holding any (serialised); with
 * capture @stopped, the open page too, as the last.  *@next becomes the
 * page after the last copied; *@len the bytes, *@missed the pages gone
 * before they could be copied.  Returns the pages copied.
 */
int fdr_peek_cpu(unsigned int cpu, char __user *buf, u32 size, u64 *next,
		 bool resume, bool stopped, u32 *len, u32 *missed);

/*
 * A file's kept rest (serialised): read before anything else, and freed
 * once read, when the file's output ends, and at close.
 */
static inline bool fdr_rest_pending(const struct fdr_rest *r)
{
	return !!READ_ONCE(r->buf);
}

ssize_t fdr_rest_read(struct fdr_rest *r, char __user *buf, size_t count);
void fdr_rest_free(struct fdr_rest *r);

/* Streaming consumption (serialised). */
ssize_t fdr_stream_read(struct fdr_reader *rd, char __user *buf, size_t count);
void fdr_stream_flush(bool all);
/*
 * Lockless: is there something @rd should look at (a closed page nobody
 * else is partway through, the rest of its own page, or a CPU past the
 * wake-up amount, or with capture stopped (@all) any open page)?  Is
 * there nothing left at all, but pages lent to @rd (NULL: to nobody),
 * which its read() gives back first?
 */
bool fdr_stream_ready(const struct fdr_reader *rd, bool all);
bool fdr_stream_empty(const struct fdr_reader *rd);

/**
 * struct fdr_lend - closed pages of one CPU lent to a file
 * @first:	sequence number of the first page lent
 * @count:	pages lent from @first on
 * @eof:	none lent, capture stopped and nothing left on the CPU
 * @len:	bytes in page s: @len[s % TRACEBUF_FDR_PAGES]
 */
struct fdr_lend {
	unsigned long first;
	u32 count;
	bool eof;
	u32 len[TRACEBUF_FDR_PAGES];
};

/*
 * Zero-copy streaming (serialised): give back the pages of @cpu lent to @rd,
 * then if @lend lend it the CPU's closed pages (closing the open page
 * first as read() would, @running telling whether capture runs) and
 * describe them in @out.  Returns the number of pages lent; none while
 * another file is partway through the CPU.  A file that reads with read()
 * or closes gives back what it borrowed.  fdr_stream_lent(): does @rd,
 * or any file when NULL, hold pages (START and CONFIG must not reset
 * them; lockless for poll())?
 */
int fdr_stream_lend(struct fdr_reader *rd, unsigned int cpu, bool lend,
		    bool running, struct fdr_lend *out);
bool fdr_stream_lent(const struct fdr_reader *rd);

#endif /* _FDR_RING_FRONTEND_H */
