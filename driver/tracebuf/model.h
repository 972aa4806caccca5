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

/**
 * tb_model_put_fast() - tb_model_put()'s common case, inline for the feed
 * @m, @ev, @work: as for tb_model_put()
 *
 * The common case: no roll-over, and the entry's bytes lie one after the
 * other in @buf (it does not wrap round the end and fits a fill-once
 * buffer).  Its bytes are then stored at once, and the arming test looks
 * at the entry's first and last index only: the indexes that arm are the
 * multiples of size / 2, and an entry of at most 5 bytes (size / 2 >= 8)
 * contains one exactly when its first byte is one or it crosses one.
 *
 * Return: the bytes written (the event is then done, as TB_PUT_DONE), or
 * 0 when it is not the common case and nothing was done.
 */
static inline u32 tb_model_put_fast(struct tb_model *m,
				    struct tracebuf_event *ev, s64 *work)
{
	u32 wpos = m->wpos, half = m->size / 2;
	u32 arg = ev->arg, count = ev->icount;
	u8 *p = m->buf + wpos;
	u32 need;
	u8 msg;

	if (count >= TB_ROLLOVER_INSNS || m->full)
		return 0;
	need = ev->kind == TRACEBUF_EV_INDIRECT ? 5 : 1;
	if (wpos + need > m->size)
		return 0;
	if (need == 5) {
		p[0] = arg >> 24;
		p[1] = arg >> 16;
		p[2] = arg >> 8;
		p[3] = arg;
		msg = TB_MSG_INDIRECT | count;
	} else {
		msg = ev->kind == TRACEBUF_EV_EXCEPTION ? arg << 4 | count :
							 TB_MSG_DIRECT | count;
	}
	if (!(wpos & (half - 1)) || (wpos & (half - 1)) + need - 1 >= half)
		m->armed = true;
	if (ev->kind != TRACEBUF_EV_EXCEPTION && m->armed) {
		msg |= TB_MSG_CHKPT;
		m->chkpt[1] = m->chkpt[0];
		m->chkpt[0] = arg;
		m->armed = false;
	}
	p[need - 1] = msg;
	wpos += need;
	m->bytes_written += need;
	*work -= need;
	ev->icount = 0;
	if (m->mode == TRACEBUF_MODE_WRAP)
		wpos &= m->size - 1;
	else if (wpos == m->size)
		m->full = true;
	m->wpos = wpos;
	return need;
}

void tb_model_init(struct tb_model *m, u8 *buf, u32 size);
void tb_model_clear(struct tb_model *m);
bool tb_model_event_valid(const struct tracebuf_event *ev);
enum tb_put tb_model_put(struct tb_model *m, struct tracebuf_event *ev,
			 s64 *work);
u64 tb_model_messages_in(const struct tracebuf_event *ev);
void tb_model_copy(const struct tb_model *m, u8 *out);
bool tb_model_wrapped(const struct tb_model *m);

#endif /* _TB_MODEL_H */
