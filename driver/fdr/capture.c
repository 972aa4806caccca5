// SPDX-License-Identifier: GPL-2.0
/*
 * The capture of /dev/tracebuf_fdr: its configuration, START and STOP,
 * and the state the device's files read it by.  The capture belongs to
 * the device, not to a file.  Everything here runs under its lock.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "capture.h"
#include "clock.h"
#include "crash.h"
#include "events.h"
#include "kfunc.h"
#include "mmap.h"
#include "names.h"
#include "ring/frontend.h"
#include "ring/record.h"
#include "trigger.h"
#include "core/probes.h"

static struct fdr_capture fdr_cap = {
	.lock = __MUTEX_INITIALIZER(fdr_cap.lock),
	.cfg = {
		.classes	= TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |
				  TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED,
		.mode		= TRACEBUF_FDR_MODE_FLIGHT,
		.buf_size	= TRACEBUF_FDR_BUF_DEFAULT,
	},
	.gen = 1,	/* 0 is never a capture number */
};

struct fdr_capture *fdr_capture(void)
{
	return &fdr_cap;
}

static u32 fdr_capture_wakeup(const struct tracebuf_fdr_config *cfg)
{
	return cfg->wakeup ? cfg->wakeup : TRACEBUF_FDR_WAKEUP_DEFAULT(cfg->buf_size);
}

/*
 * The lock held, stopped, no file mapping the rings
 * (fdr_mmap_hold_off()): the rings at @size, described to crash images
 * (fdr_crash_rings()).  The
 * description of the old rings goes before they do, and rings a crash
 * image could not find are refused as any ENOMEM, the old ones gone.
 */
static int fdr_capture_alloc(u32 size)
{
	int ret;

	fdr_crash_rings_gone();
	ret = fdr_ring_alloc(size);
	if (!ret && fdr_crash_rings()) {
		fdr_ring_free();
		ret = -ENOMEM;
	}
	return ret;
}

/*
 * The lock held, stopped, before the capture is discarded: files partway
 * through a page keep its rest, so that their outputs end with whole
 * blocks; fdr_capture_rests_kept() then lets those pages go, once the
 * capture goes, or drops the copies.  A failure leaves the capture as it
 * was.
 */
static int fdr_capture_keep_rests(void)
{
	int ret = fdr_stream_keep_rests();

	if (!ret) {
		ret = fdr_snap_keep_rests();
		if (ret)
			fdr_stream_rests_kept(false);
	}
	return ret;
}

static void fdr_capture_rests_kept(bool go)
{
	fdr_stream_rests_kept(go);
	fdr_snap_rests_kept(go);
}

int fdr_capture_start(void)
{
	u8 hdr[FDR_HDR_SIZE];
	int ret;

	/* Running, or a file still holds pages of the capture to discard. */
	if (fdr_cap.running || fdr_stream_lent(NULL))
		return -EBUSY;
	if (!fdr_ring_allocated()) {
		/* No rings, so no file partway through one. */
		if (!fdr_mmap_hold_off())
			return -EBUSY;
		ret = fdr_capture_alloc(fdr_cap.cfg.buf_size);
		fdr_mmap_allow();
		if (ret)
			return ret;
	}
	ret = fdr_capture_keep_rests();
	if (ret)
		return ret;
	/*
	 * The steps that can fail come first, with the rings still off (the
	 * probes find them so and write nothing): a START that fails leaves
	 * the stopped capture, its names and its readers as they were.
	 */
	fdr_events_config(fdr_cap.cfg.classes, fdr_cap.cfg.nr_args);
	ret = fdr_events_start();
	if (!ret) {
		ret = fdr_kfunc_start();
		if (ret)
			fdr_events_stop();
	}
	if (ret) {
		fdr_capture_rests_kept(false);
		return ret;
	}
	fdr_capture_rests_kept(true);
	fdr_names_reset();
	fdr_trig_reset();
	fdr_ring_reset(fdr_cap.cfg.mode, fdr_capture_wakeup(&fdr_cap.cfg));
	fdr_ring_set_on(true);
	WRITE_ONCE(fdr_cap.running, true);
	WRITE_ONCE(fdr_cap.gen, fdr_cap.gen + 1);
	fdr_put_header(hdr, fdr_clock_hz());
	fdr_crash_state(TRACEBUF_CRASH_RECORDING, fdr_cap.cfg.mode, hdr);
	WRITE_ONCE(fdr_cap.markers, fdr_cap.cfg.classes & TRACEBUF_FDR_MARKER);
	/* Readers of the previous capture see it is gone. */
	wake_up_interruptible_all(fdr_ring_waitq());
	return 0;
}

void fdr_capture_stop(void)
{
	if (!fdr_cap.running)
		return;
	fdr_trig_stop();
	WRITE_ONCE(fdr_cap.markers, false);
	/* Reports its losses, so before the ring goes off. */
	fdr_kfunc_stop();
	fdr_ring_set_on(false);
	/*
	 * Detach waits for every probe and, through its RCU grace period,
	 * for every marker writer (they run with interrupts off) and every
	 * kernel function handler (they run with preemption off).
	 */
	fdr_events_stop();
	fdr_ring_quiesce();
	WRITE_ONCE(fdr_cap.running, false);
	fdr_crash_state(TRACEBUF_CRASH_STOPPED, fdr_cap.cfg.mode, NULL);
	wake_up_interruptible_all(fdr_ring_waitq());
}

static int fdr_capture_check(const struct tracebuf_fdr_config *c)
{
	u32 size = c->buf_size ? c->buf_size : fdr_cap.cfg.buf_size;

	if (!c->classes || (c->classes & ~TRACEBUF_FDR_ALL) || c->reserved)
		return -EINVAL;
	if (c->mode != TRACEBUF_FDR_MODE_FLIGHT &&
	    c->mode != TRACEBUF_FDR_MODE_STREAM)
		return -EINVAL;
	if (c->buf_size && (!is_power_of_2(c->buf_size) ||
			    c->buf_size < TRACEBUF_FDR_BUF_MIN ||
			    c->buf_size > TRACEBUF_FDR_BUF_MAX))
		return -EINVAL;
	/* A threshold the ring may never reach would leave readers asleep. */
	if (c->nr_args > TRACEBUF_FDR_ARGS_MAX ||
	    c->wakeup > FDR_WAKEUP_MAX(size))
		return -EINVAL;
	if ((c->classes & TRACEBUF_FDR_FAULT) &&
	    (tbcore_probes_available() & (TBCORE_EVMASK(TBCORE_EV_FAULT_USER) |
				      TBCORE_EVMASK(TBCORE_EV_FAULT_KERNEL))) !=
	    (TBCORE_EVMASK(TBCORE_EV_FAULT_USER) | TBCORE_EVMASK(TBCORE_EV_FAULT_KERNEL)))
		return -EOPNOTSUPP;
	return 0;
}

int fdr_capture_config(struct tracebuf_fdr_config *c)
{
	bool resize;
	int ret;

	if (fdr_cap.running || fdr_stream_lent(NULL))
		return -EBUSY;
	ret = fdr_capture_check(c);
	if (ret)
		return ret;
	if (!c->buf_size)
		c->buf_size = fdr_cap.cfg.buf_size;
	resize = c->buf_size != fdr_ring_size();
	/* Mapped: the ring and the capture stay as they are. */
	if (resize && !fdr_mmap_hold_off())
		return -EBUSY;
	ret = fdr_capture_keep_rests();
	if (ret)
		goto out;
	fdr_capture_rests_kept(true);
	if (resize)
		ret = fdr_capture_alloc(c->buf_size);
	fdr_kfunc_forget();
	if (!ret) {
		fdr_cap.cfg = *c;
		fdr_ring_reset(c->mode, fdr_capture_wakeup(c));
		fdr_crash_state(TRACEBUF_CRASH_IDLE, c->mode, NULL);
	}
	/* Else the old buffers are gone, and the capture with them. */
	WRITE_ONCE(fdr_cap.gen, fdr_cap.gen + 1);
	wake_up_interruptible_all(fdr_ring_waitq());
out:
	if (resize)
		fdr_mmap_allow();
	return ret;
}

char *fdr_capture_names(size_t *len)
{
	struct fdr_text t;

	t.size = fdr_names_size() + fdr_kfunc_names_size();
	t.buf = kvmalloc(t.size, GFP_KERNEL);
	if (!t.buf)
		return NULL;
	t.len = 0;
	t.truncated = false;
	fdr_names_write(&t);
	fdr_kfunc_names(&t, false);
	*len = t.len;
	return t.buf;
}

