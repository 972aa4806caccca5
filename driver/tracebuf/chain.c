// SPDX-License-Identifier: GPL-2.0
/*
 * The chain queue: a ring of @depth fixed-size records.  Every full buffer
 * takes the next sequence number whether it is saved or lost, so a reader
 * sees seq jump by lost_before + 1 across a loss.
 */
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "chain.h"
#include "model.h"

struct tb_chain *tb_chain_alloc(u32 depth, u32 buf_size)
{
	u32 rec_size = sizeof(struct tracebuf_record) + buf_size;
	struct tb_chain *c;

	if (!depth || depth > TRACEBUF_CHAIN_MAX ||
	    (u64)depth * rec_size > TB_CHAIN_MAX_BYTES)
		return ERR_PTR(-EINVAL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->mem = kvmalloc_array(depth, rec_size, GFP_KERNEL);
	if (!c->mem) {
		kfree(c);
		return ERR_PTR(-ENOMEM);
	}
	c->depth = depth;
	c->rec_size = rec_size;
	return c;
}

void tb_chain_free(struct tb_chain *c)
{
	if (!c)
		return;
	kvfree(c->mem);
	kfree(c);
}

/* Count @n full buffers that found the queue full. */
void tb_chain_lose(struct tb_chain *c, u64 n)
{
	c->lost += n;
	c->lost_pending += n;
	c->seq += n;
}

/* Save the full buffer @m with its checkpoints, or count it lost. */
void tb_chain_push(struct tb_chain *c, const struct tb_model *m, u32 flags)
{
	struct tracebuf_record *rec;
	u8 *slot;

	if (tb_chain_is_full(c)) {
		tb_chain_lose(c, 1);
		return;
	}
	slot = c->mem + (size_t)((c->head + c->count) % c->depth) * c->rec_size;
	rec = (struct tracebuf_record *)slot;
	memset(rec, 0, sizeof(*rec));
	rec->magic = TRACEBUF_RECORD_MAGIC;
	rec->version = TRACEBUF_RECORD_VERSION;
	rec->hdr_size = sizeof(*rec);
	rec->chkpt0 = m->chkpt[0];
	rec->chkpt1 = m->chkpt[1];
	rec->flags = flags;
	rec->buf_size = m->size;
	rec->seq = c->seq++;
	rec->lost_before = c->lost_pending;
	tb_model_copy(m, slot + sizeof(*rec));
	c->lost_pending = 0;
	c->count++;
	c->saved++;
}

/* Move the oldest record to @out (rec_size bytes); false if none. */
bool tb_chain_pop(struct tb_chain *c, u8 *out)
{
	if (!c->count)
		return false;
	memcpy(out, c->mem + (size_t)c->head * c->rec_size, c->rec_size);
	c->head = (c->head + 1) % c->depth;
	c->count--;
	return true;
}
