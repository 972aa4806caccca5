/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Chained fill-once capture: a bounded FIFO of saved buffers, each a
 * struct tracebuf_record followed by the buffer bytes.  Allocated when
 * chaining is armed (may sleep); push and pop never allocate and take no
 * lock: the backend calls them under its own lock.
 */
#ifndef _TB_CHAIN_H
#define _TB_CHAIN_H

#include <linux/types.h>

#include <linux/tracebuf.h>

struct tb_model;

/* Bound on the memory one chain may pin: depth * record size. */
#define TB_CHAIN_MAX_BYTES	(8U << 20)

/**
 * struct tb_chain - the queue
 * @depth:	capacity in records
 * @rec_size:	bytes per record (header + buffer)
 * @head:	index of the oldest queued record
 * @count:	records queued
 * @seq:	sequence number of the next full buffer, saved or lost
 * @saved:	records queued since armed
 * @lost:	full buffers dropped because the queue was full
 * @lost_pending: lost since the last saved record (its lost_before)
 * @mem:	@depth records
 */
struct tb_chain {
	u32 depth;
	u32 rec_size;
	u32 head;
	u32 count;
	u64 seq;
	u64 saved;
	u64 lost;
	u64 lost_pending;
	u8 *mem;
};

struct tb_chain *tb_chain_alloc(u32 depth, u32 buf_size);
void tb_chain_free(struct tb_chain *c);
void tb_chain_push(struct tb_chain *c, const struct tb_model *m, u32 flags);
void tb_chain_lose(struct tb_chain *c, u64 n);
bool tb_chain_pop(struct tb_chain *c, u8 *out);

static inline bool tb_chain_is_full(const struct tb_chain *c)
{
	return c->count == c->depth;
}

#endif /* _TB_CHAIN_H */
