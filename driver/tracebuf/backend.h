/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One interface in front of the two ways to have a trace buffer: the
 * emulated model (every architecture) and the XScale CP14 registers.
 * tb_dev.c only talks to this table.  Every operation is atomic against
 * the writers of the buffer (kernel events on any CPU, injected events,
 * or the hardware itself), and may be called from process context only.
 */
#ifndef _TB_BACKEND_H
#define _TB_BACKEND_H

#include <linux/types.h>

#include <linux/tracebuf.h>

/**
 * struct tb_backend - a trace buffer implementation
 * @name:	for messages
 * @id:		TRACEBUF_BACKEND_*
 * @buf_size:	bytes in the buffer, fixed after init
 * @snapshot_clears: the buffer cannot be read without clearing it (the
 *		hardware): snapshots without TRACEBUF_SNAP_CLEAR are refused
 * @exit:	stop capture and free everything
 * @status:	fill every field of @st it knows (st is zeroed)
 * @set_mode:	TRACEBUF_MODE_*; -EBUSY while enabled or chained
 * @enable:	start or stop capture
 * @get_chkpt:	read CHKPT0/1
 * @set_chkpt:	write CHKPT0/1; -EBUSY while enabled
 * @clear:	empty the buffer as a hardware read does
 * @snapshot:	fill @rec (seq 0) and copy the buffer to @data, oldest byte
 *		first, and clear it if @clear; atomic; returns the byte count
 *		written since the last clear (0: nothing new)
 * @inject:	record @n valid events (emulated only; NULL otherwise);
 *		-EBUSY while capture is disabled
 * @set_sources: kernel event feed (emulated only; NULL otherwise)
 * @get_sources: current feed
 * @set_chain:	arm chained capture with @depth records, 0 disarms
 * @pop_record:	move the oldest chained record (header and data) to @out;
 *		-EAGAIN if none queued, -ENODATA if chaining is off
 * @readable:	poll(): a full buffer or a queued record is waiting
 */
struct tb_backend {
	const char *name;
	u32 id;
	u32 buf_size;
	bool snapshot_clears;
	void (*exit)(void);
	void (*status)(struct tracebuf_status *st);
	int (*set_mode)(u32 mode);
	int (*enable)(bool on);
	void (*get_chkpt)(struct tracebuf_chkpt *ck);
	int (*set_chkpt)(const struct tracebuf_chkpt *ck);
	void (*clear)(void);
	u64 (*snapshot)(struct tracebuf_record *rec, u8 *data, bool clear);
	int (*inject)(const struct tracebuf_event *ev, unsigned int n);
	int (*set_sources)(const struct tracebuf_sources *src);
	void (*get_sources)(struct tracebuf_sources *src);
	int (*set_chain)(u32 depth);
	int (*pop_record)(u8 *out);
	bool (*readable)(void);
};

/*
 * Wakes poll() and blocked readers of the device; safe from any context,
 * even NMI.  A backend calls it when tb_backend.readable may have changed.
 */
typedef void (*tb_notify_fn)(void);

/*
 * Each returns the backend, or NULL if it does not apply to this machine;
 * @notify is the device's, for the backend to call.
 */
const struct tb_backend *tb_emul_init(tb_notify_fn notify);
#ifdef CONFIG_CPU_XSCALE
const struct tb_backend *tb_xscale_init(tb_notify_fn notify);
#else
static inline const struct tb_backend *tb_xscale_init(tb_notify_fn notify)
{
	return NULL;
}
#endif

#endif /* _TB_BACKEND_H */
