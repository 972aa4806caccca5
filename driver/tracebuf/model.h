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
 * @fast_end:	tb_model_put_fast() takes an entry ending before it: the
 *		next multiple of size / 2 after @wpos, or 0 (never) when
 *		@wpos is one, or the buffer is armed or full.  Whatever
 *		changes those fields other than the fast path recomputes it
 *		(tb_model_fast_update()).
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
	u32 fast_end;
};

/* Result of tb_model_put(). */
enum tb_put {
	TB_PUT_DONE,	/* the whole entry, roll-overs included, is in */
	TB_PUT_FULL,	/* fill-once buffer full: the rest is left in the event */
	TB_PUT_MORE,	/* the work allowed was spent: the rest is left too */
};

/**
 * tb_model_put_fast() - tb_model_put()'s common case, inline for the feed
 * @m:		the buffer
 * @kind:	TRACEBUF_EV_*, as in a valid struct tracebuf_event
 * @arg:	its argument
 * @icount:	its instruction count
 *
 * The common case: no roll-over, and the entry lies strictly inside the
 * half of the buffer its first byte is in (@fast_end), with the buffer
 * not armed and not full.  Nothing the hardware decides at a boundary can
 * then happen: no byte lands on a multiple of size / 2 (arming), the
 * write position neither wraps nor reaches the end (fill-once full), and
 * a wrap-around buffer's byte count, which equals the write position
 * modulo the size, does not reach a multiple of the size (readable).  The
 * entry's bytes are stored and counted, and that is all.
 *
 * Return: the bytes written (the event is then recorded whole), or 0 when
 * it is not the common case and nothing was done.
 */
static __always_inline u32 tb_model_put_fast(struct tb_model *m, u32 kind,
					     u32 arg, u32 icount)
{
	u32 wpos = m->wpos;
	u8 *p = m->buf + wpos;

	if (icount >= TB_ROLLOVER_INSNS)
		return 0;
	if (kind == TRACEBUF_EV_INDIRECT) {
		if (wpos + 5 >= m->fast_end)
			return 0;
		p[0] = arg >> 24;
		p[1] = arg >> 16;
		p[2] = arg >> 8;
		p[3] = arg;
		p[4] = TB_MSG_INDIRECT | icount;
		m->wpos = wpos + 5;
		m->bytes_written += 5;
		return 5;
	}
	if (wpos + 1 >= m->fast_end)
		return 0;
	p[0] = kind == TRACEBUF_EV_EXCEPTION ? arg << 4 | icount :
					       TB_MSG_DIRECT | icount;
	m->wpos = wpos + 1;
	m->bytes_written++;
	return 1;
}

void tb_model_init(struct tb_model *m, u8 *buf, u32 size);
void tb_model_clear(struct tb_model *m);
void tb_model_fast_update(struct tb_model *m);
bool tb_model_event_valid(const struct tracebuf_event *ev);
enum tb_put tb_model_put(struct tb_model *m, struct tracebuf_event *ev,
			 s64 *work);
u64 tb_model_messages_in(const struct tracebuf_event *ev);
void tb_model_copy(const struct tb_model *m, u8 *out);
bool tb_model_wrapped(const struct tb_model *m);

#endif /* _TB_MODEL_H */
