/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XScale trace buffer as a pure data structure: message encoding,
 * roll-over counting, fill-once and wrap-around, the checkpoint rule and
 * read order.  No locking and no allocation here; the owner serialises.
 * Documentation/tracebuf.rst describes the behaviour for users.
 */
#ifndef _TB_MODEL_H
#define _TB_MODEL_H

#include <linux/types.h>

#include <linux/tracebuf.h>

/* Message bytes (upper nibble) as the hardware writes them. */
#define TB_MSG_DIRECT		0x80
#define TB_MSG_INDIRECT		0x90
#define TB_MSG_CHKPT		0x40	/* checkpoint flag, branches only */
#define TB_MSG_ROLLOVER		0xff
#define TB_COUNT_MAX		15	/* CCCC */
#define TB_ROLLOVER_INSNS	16	/* instructions per roll-over */

/**
 * struct tb_model - one trace buffer
 * @buf:	@size bytes, indexed by write position
 * @size:	power of two, >= 16
 * @wpos:	next byte to write; == @size only when a fill-once buffer
 *		filled exactly (read order then starts at index 0)
 * @mode:	TRACEBUF_MODE_*
 * @chkpt:	CHKPT0 and CHKPT1
 * @armed:	the next branch entry is checkpointed
 * @full:	fill-once buffer can take nothing more
 * @bytes_written: bytes written since the last clear
 * @dropped:	messages not recorded because the buffer was full
 */
struct tb_model {
	u8 *buf;
	u32 size;
	u32 wpos;
	u32 mode;
	u32 chkpt[2];
	bool armed;
	bool full;
	u64 bytes_written;
	u64 dropped;
};

/* Result of tb_model_put(). */
enum tb_put {
	TB_PUT_DONE,	/* the whole entry, roll-overs included, is in */
	TB_PUT_FULL,	/* fill-once buffer full: the rest is left in the event */
	TB_PUT_MORE,	/* the work allowed was spent: the rest is left too */
};

void tb_model_init(struct tb_model *m, u8 *buf, u32 size);
void tb_model_clear(struct tb_model *m);
bool tb_model_event_valid(const struct tracebuf_event *ev);
enum tb_put tb_model_put(struct tb_model *m, struct tracebuf_event *ev,
			 s64 *work);
u64 tb_model_messages_in(const struct tracebuf_event *ev);
void tb_model_copy(const struct tb_model *m, u8 *out);
bool tb_model_wrapped(const struct tb_model *m);

#endif /* _TB_MODEL_H */
