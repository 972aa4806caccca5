// SPDX-License-Identifier: GPL-2.0
/*
 * The XScale trace buffer model.  Everything the hardware decides about
 * bytes lives here, so the emulated backend and the tests agree on one
 * definition.
 *
 * Counting.  An event carries icount, the instructions executed since the
 * previous event, not counting the branch itself.  The hardware counter
 * writes a roll-over (0xFF) when it stands at 15 and a 16th non-branch
 * instruction executes, then restarts at 0.  So icount n gives n / 16
 * roll-overs followed by the message with CCCC = n % 16: 15 gives CCCC 15,
 * 16 gives one roll-over and CCCC 0, 31 one roll-over and CCCC 15.
 *
 * Write position.  Bytes go to buf[wpos]; wrap-around mode wraps wpos at
 * the end, fill-once mode stops.  Read order always starts at wpos (the
 * oldest byte, or the first never-written 0x00 of a partial buffer), so a
 * partly filled buffer reads as leading zeros followed by the trace, and
 * the last byte read is always the newest message byte.
 *
 * Fill-once.  An entry that does not fit whole (a 5-byte indirect branch
 * with fewer than 5 bytes left) is never split: it is not written, and
 * the buffer counts as full from that moment, so the trace has no gap.
 * Up to 4 bytes at the end then stay 0x00 and read as leading zeros.
 *
 * Checkpoints (project rule).  The buffer is "armed" when cleared and
 * whenever a byte is written at index 0 or at index size / 2, that is
 * when the write position enters a half of the buffer.  The first branch
 * message byte written while armed gets the checkpoint flag (bit 6), its
 * target moves into CHKPT0 and the old CHKPT0 into CHKPT1, and the buffer
 * is disarmed.  For an indirect branch the decision is taken at its
 * message byte, after its 4 target bytes.
 */
#include <linux/minmax.h>
#include <linux/string.h>

#include "model.h"

void tb_model_init(struct tb_model *m, u8 *buf, u32 size)
{
	memset(m, 0, sizeof(*m));
	m->buf = buf;
	m->size = size;
	m->mode = TRACEBUF_MODE_WRAP;
	tb_model_clear(m);
}

/* What reading the whole hardware buffer does: every byte back to 0x00. */
void tb_model_clear(struct tb_model *m)
{
	memset(m->buf, 0, m->size);
	m->wpos = 0;
	m->armed = true;
	m->full = false;
	m->bytes_written = 0;
	tb_model_fast_update(m);
}

/* @fast_end for the buffer's state: see struct tb_model. */
void tb_model_fast_update(struct tb_model *m)
{
	u32 half = m->size / 2;

	if (m->armed || m->full || !(m->wpos & (half - 1)))
		m->fast_end = 0;
	else
		m->fast_end = (m->wpos | (half - 1)) + 1;
}

bool tb_model_event_valid(const struct tracebuf_event *ev)
{
	if (ev->reserved)
		return false;
	switch (ev->kind) {
	case TRACEBUF_EV_EXCEPTION:
		/* Reset and the unused vector are never recorded. */
		return ev->arg <= TRACEBUF_VEC_FIQ &&
		       ev->arg != TRACEBUF_VEC_RESET &&
		       ev->arg != TRACEBUF_VEC_UNUSED;
	case TRACEBUF_EV_BRANCH:
	case TRACEBUF_EV_INDIRECT:
		return true;
	default:
		return false;
	}
}

/* Messages @ev still stands for: its roll-overs and the message itself. */
u64 tb_model_messages_in(const struct tracebuf_event *ev)
{
	return ev->icount / TB_ROLLOVER_INSNS + 1;
}

bool tb_model_wrapped(const struct tb_model *m)
{
	return m->mode == TRACEBUF_MODE_WRAP && m->bytes_written > m->size;
}

static void tb_arm_at_wpos(struct tb_model *m)
{
	u32 idx = m->wpos & (m->size - 1);

	if (idx == 0 || idx == m->size / 2)
		m->armed = true;
}

/* Store @b at the write position; the caller has done the arming. */
static void tb_store_byte(struct tb_model *m, u8 b)
{
	m->buf[m->wpos & (m->size - 1)] = b;
	m->wpos++;
	if (m->mode == TRACEBUF_MODE_WRAP)
		m->wpos &= m->size - 1;
	m->bytes_written++;
}

static void tb_put_byte(struct tb_model *m, u8 b)
{
	tb_arm_at_wpos(m);
	tb_store_byte(m, b);
}

static u32 tb_room(const struct tb_model *m)
{
	return m->mode == TRACEBUF_MODE_WRAP ? U32_MAX : m->size - m->wpos;
}

/*
 * Write the roll-overs of @ev, at most *@work bytes of them, and take
 * their instructions off ev->icount and the bytes off *@work.
 */
static enum tb_put tb_put_rollovers(struct tb_model *m,
				    struct tracebuf_event *ev, s64 *work)
{
	u32 n = ev->icount / TB_ROLLOVER_INSNS;
	u32 i, room, todo, run;

	if (m->mode == TRACEBUF_MODE_WRAP && n > m->size) {
		/*
		 * Only the last @size roll-overs survive; account for the
		 * others without writing them one by one.  The @size bytes
		 * written after this cross both halves, so arming is
		 * unaffected.
		 */
		u32 skip = n - m->size;

		m->wpos = (m->wpos + skip) & (m->size - 1);
		m->bytes_written += skip;
		ev->icount -= skip * TB_ROLLOVER_INSNS;
		n = m->size;
	}
	room = tb_room(m);
	todo = min_t(s64, min(n, room), max_t(s64, *work, 0));
	for (i = 0; i < todo; i += run) {
		u32 idx = m->wpos & (m->size - 1);
		u32 half = m->size / 2;

		/* A run of 0xFF up to the next half boundary: one memset. */
		run = min(todo - i, half - (idx & (half - 1)));
		tb_arm_at_wpos(m);
		memset(m->buf + idx, TB_MSG_ROLLOVER, run);
		m->wpos += run;
		if (m->mode == TRACEBUF_MODE_WRAP)
			m->wpos &= m->size - 1;
		m->bytes_written += run;
	}
	ev->icount -= todo * TB_ROLLOVER_INSNS;
	*work -= todo;
	if (todo == n)
		return TB_PUT_DONE;
	return todo == room ? TB_PUT_FULL : TB_PUT_MORE;
}

/* tb_model_put() for all the cases tb_model_put_fast() leaves (model.h). */
static enum tb_put tb_model_put_slow(struct tb_model *m,
				     struct tracebuf_event *ev, s64 *work)
{
	enum tb_put r;
	u32 count, need;
	u8 msg;

	if (m->full)
		return TB_PUT_FULL;
	r = tb_put_rollovers(m, ev, work);
	if (r == TB_PUT_FULL)
		goto full;
	if (r == TB_PUT_MORE)
		return r;

	count = ev->icount;	/* now below 16 */
	need = ev->kind == TRACEBUF_EV_INDIRECT ? 5 : 1;
	if (tb_room(m) < need)
		goto full;

	switch (ev->kind) {
	case TRACEBUF_EV_EXCEPTION:
		msg = ev->arg << 4 | count;
		break;
	case TRACEBUF_EV_INDIRECT:
		tb_put_byte(m, ev->arg >> 24);
		tb_put_byte(m, ev->arg >> 16);
		tb_put_byte(m, ev->arg >> 8);
		tb_put_byte(m, ev->arg);
		msg = TB_MSG_INDIRECT | count;
		break;
	default:
		msg = TB_MSG_DIRECT | count;
		break;
	}
	tb_arm_at_wpos(m);
	if (ev->kind != TRACEBUF_EV_EXCEPTION) {
		if (m->armed) {
			msg |= TB_MSG_CHKPT;
			m->chkpt[1] = m->chkpt[0];
			m->chkpt[0] = ev->arg;
			m->armed = false;
		}
	}
	tb_store_byte(m, msg);
	*work -= need;
	ev->icount = 0;
	if (m->mode == TRACEBUF_MODE_FILL_ONCE && m->wpos == m->size)
		m->full = true;
	return TB_PUT_DONE;

full:
	m->full = true;
	return TB_PUT_FULL;
}

/**
 * tb_model_put() - record one event as the hardware would
 * @m:		the buffer
 * @ev:		a valid event; unless TB_PUT_DONE, ev->icount is reduced by
 *		the roll-overs already written, so putting @ev again (into a
 *		cleared buffer after TB_PUT_FULL) continues exactly there
 * @work:	bytes this call may write (roll-overs; the message itself
 *		always goes in whole); reduced by what it wrote.  It bounds
 *		the time one call takes whatever the icount.
 *
 * Return: TB_PUT_DONE; TB_PUT_FULL when a fill-once buffer is full
 * (m->full is then set); TB_PUT_MORE when *@work ran out first.  m->full
 * can also become set with TB_PUT_DONE when the entry filled the buffer
 * exactly.
 */
enum tb_put tb_model_put(struct tb_model *m, struct tracebuf_event *ev,
			 s64 *work)
{
	u32 need = tb_model_put_fast(m, ev->kind, ev->arg, ev->icount);
	enum tb_put r;

	if (need) {
		*work -= need;
		ev->icount = 0;
		return TB_PUT_DONE;
	}
	r = tb_model_put_slow(m, ev, work);
	tb_model_fast_update(m);
	return r;
}

/* The whole buffer in read order, oldest byte first. */
void tb_model_copy(const struct tb_model *m, u8 *out)
{
	u32 start = m->wpos & (m->size - 1);

	memcpy(out, m->buf + start, m->size - start);
	memcpy(out + m->size - start, m->buf, start);
}
