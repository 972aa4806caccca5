// SPDX-License-Identifier: GPL-2.0
/*
 * The XScale hardware backend: the real trace buffer behind CP14.
 *
 *   DCSR    c10   GE (31), H (30), MOE (4:2), M (1: fill-once), E (0)
 *   TBREG   c11   one byte per read, oldest first; reading clears it
 *   CHKPT0  c12   target of the newest checkpointed entry
 *   CHKPT1  c13   target of the previous one
 *
 * The hardware traces the instructions the core executes; nothing is
 * injected and there is no kernel feed, so write() and the sources ioctl
 * are not offered.  Reading or touching the checkpoints while tracing is
 * unpredictable, so every access clears DCSR.E first and restores it
 * after, under tb_xs.lock with interrupts off (the core is uniprocessor,
 * the lock is for interrupts and for correctness on principle).
 *
 * Fill-once mode.  When a fill-once buffer fills, the core raises a
 * trace-buffer-full debug break (DCSR.MOE = 6); in monitor mode it arrives
 * as a data abort with FSR bit 9 set.  Linux 6.1's ARM abort path decodes
 * the FSR status bits only and would treat that abort as a fault of the
 * interrupted context, so there is no way for a module to see the break.
 * Fill-once (and chained capture, which needs the break) therefore need a
 * small arch patch that calls a registered hook from do_DataAbort() for
 * FSR bit 9 before the normal decoding (Documentation/tracebuf.rst
 * describes it); it does not exist yet.  Until then fill-once and chaining
 * are refused with EOPNOTSUPP, and only wrap-around mode, which never
 * raises the break, is offered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <asm/cputype.h>

#include "backend.h"

#define TB_XS_SIZE	256

#define DCSR_GE		BIT(31)
#define DCSR_H		BIT(30)
#define DCSR_MOE_MASK	(7U << 2)
#define DCSR_M		BIT(1)
#define DCSR_E		BIT(0)

static bool tb_emulate;
module_param(tb_emulate, bool, 0444);
MODULE_PARM_DESC(tb_emulate, "on XScale, use the emulated backend instead of the hardware");
/* The name before parameters had their product's prefix; for one release. */
module_param_named(emulate, tb_emulate, bool, 0444);
MODULE_PARM_DESC(emulate, "deprecated name of tb_emulate");

static inline u32 tb_xs_dcsr_read(void)
{
	u32 v;

	asm volatile("mrc p14, 0, %0, c10, c0, 0" : "=r" (v));
	return v;
}

static inline void tb_xs_dcsr_write(u32 v)
{
	asm volatile("mcr p14, 0, %0, c10, c0, 0" : : "r" (v));
}

static inline u8 tb_xs_tbreg_read(void)
{
	u32 v;

	asm volatile("mrc p14, 0, %0, c11, c0, 0" : "=r" (v));
	return v & 0xff;
}

static inline u32 tb_xs_chkpt0_read(void)
{
	u32 v;

	asm volatile("mrc p14, 0, %0, c12, c0, 0" : "=r" (v));
	return v;
}

static inline void tb_xs_chkpt0_write(u32 v)
{
	asm volatile("mcr p14, 0, %0, c12, c0, 0" : : "r" (v));
}

static inline u32 tb_xs_chkpt1_read(void)
{
	u32 v;

	asm volatile("mrc p14, 0, %0, c13, c0, 0" : "=r" (v));
	return v;
}

static inline void tb_xs_chkpt1_write(u32 v)
{
	asm volatile("mcr p14, 0, %0, c13, c0, 0" : : "r" (v));
}

static struct {
	spinlock_t lock;	/* CP14 trace registers */
	u32 mode;		/* TRACEBUF_MODE_*, applied at enable */
	bool enabled;
	u32 dcsr_saved;		/* DCSR as found at load, restored at exit */
} tb_xs = {
	.lock = __SPIN_LOCK_UNLOCKED(tb_xs.lock),
};

/* Stop tracing for a register access; returns the DCSR to restore. */
static u32 tb_xs_pause(void)
{
	u32 dcsr = tb_xs_dcsr_read();

	if (dcsr & DCSR_E)
		tb_xs_dcsr_write(dcsr & ~DCSR_E);
	return dcsr;
}

static void tb_xs_resume(u32 dcsr)
{
	if (dcsr & DCSR_E)
		tb_xs_dcsr_write(dcsr);
}

/* Read all 256 bytes, oldest first: also clears the buffer. */
static u32 tb_xs_drain(u8 *data)
{
	u32 i, nonzero = 0;

	for (i = 0; i < TB_XS_SIZE; i++) {
		u8 b = tb_xs_tbreg_read();

		if (data)
			data[i] = b;
		nonzero += b != 0;
	}
	return nonzero;
}

static void tb_xs_status(struct tracebuf_status *st)
{
	unsigned long flags;

	spin_lock_irqsave(&tb_xs.lock, flags);
	st->mode = tb_xs.mode;
	if (tb_xs_dcsr_read() & DCSR_E)
		st->flags |= TRACEBUF_STATUS_ENABLED;
	/* The hardware counts instructions itself. */
	st->flags |= TRACEBUF_STATUS_COUNTS;
	spin_unlock_irqrestore(&tb_xs.lock, flags);
}

static int tb_xs_set_mode(u32 mode)
{
	unsigned long flags;
	int ret = 0;

	if (mode == TRACEBUF_MODE_FILL_ONCE)
		return -EOPNOTSUPP;	/* the full break would be unhandled */
	spin_lock_irqsave(&tb_xs.lock, flags);
	if (tb_xs.enabled)
		ret = -EBUSY;
	else
		tb_xs.mode = mode;
	spin_unlock_irqrestore(&tb_xs.lock, flags);
	return ret;
}

static int tb_xs_enable(bool on)
{
	unsigned long flags;
	u32 dcsr;

	spin_lock_irqsave(&tb_xs.lock, flags);
	dcsr = tb_xs_dcsr_read() & ~(DCSR_M | DCSR_E);
	if (on) {
		/* Monitor mode (H = 0): the kernel, not a JTAG probe, owns debug. */
		dcsr &= ~DCSR_H;
		dcsr |= DCSR_GE | DCSR_E;
		if (tb_xs.mode == TRACEBUF_MODE_FILL_ONCE)
			dcsr |= DCSR_M;
	} else if (!(tb_xs.dcsr_saved & DCSR_GE)) {
		dcsr &= ~DCSR_GE;
	}
	tb_xs_dcsr_write(dcsr);
	tb_xs.enabled = on;
	spin_unlock_irqrestore(&tb_xs.lock, flags);
	return 0;
}

static void tb_xs_get_chkpt(struct tracebuf_chkpt *ck)
{
	unsigned long flags;
	u32 dcsr;

	spin_lock_irqsave(&tb_xs.lock, flags);
	dcsr = tb_xs_pause();
	ck->chkpt0 = tb_xs_chkpt0_read();
	ck->chkpt1 = tb_xs_chkpt1_read();
	tb_xs_resume(dcsr);
	spin_unlock_irqrestore(&tb_xs.lock, flags);
}

static int tb_xs_set_chkpt(const struct tracebuf_chkpt *ck)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&tb_xs.lock, flags);
	if (tb_xs.enabled) {
		ret = -EBUSY;
	} else {
		tb_xs_chkpt0_write(ck->chkpt0);
		tb_xs_chkpt1_write(ck->chkpt1);
	}
	spin_unlock_irqrestore(&tb_xs.lock, flags);
	return ret;
}

static void tb_xs_clear(void)
{
	unsigned long flags;
	u32 dcsr;

	spin_lock_irqsave(&tb_xs.lock, flags);
	dcsr = tb_xs_pause();
	tb_xs_drain(NULL);
	tb_xs_resume(dcsr);
	spin_unlock_irqrestore(&tb_xs.lock, flags);
}

/*
 * The hardware cannot be read without clearing it, so every snapshot
 * clears; tb_dev.c refuses TRACEBUF_SNAP_CLEAR-less snapshots up front
 * for this backend (see .snapshot_clears).
 */
static u64 tb_xs_snapshot(struct tracebuf_record *rec, u8 *data, bool clear)
{
	unsigned long flags;
	u32 dcsr, nonzero;

	memset(rec, 0, sizeof(*rec));
	rec->magic = TRACEBUF_RECORD_MAGIC;
	rec->version = TRACEBUF_RECORD_VERSION;
	rec->hdr_size = sizeof(*rec);
	rec->buf_size = TB_XS_SIZE;
	rec->flags = TRACEBUF_RECORD_COUNTS;

	spin_lock_irqsave(&tb_xs.lock, flags);
	dcsr = tb_xs_pause();
	rec->chkpt0 = tb_xs_chkpt0_read();
	rec->chkpt1 = tb_xs_chkpt1_read();
	nonzero = tb_xs_drain(data);
	if (tb_xs.mode == TRACEBUF_MODE_FILL_ONCE)
		rec->flags |= TRACEBUF_RECORD_FILL;
	/* A non-zero oldest byte: wrapped or exactly full. */
	if (data[0] && tb_xs.mode == TRACEBUF_MODE_FILL_ONCE)
		rec->flags |= TRACEBUF_RECORD_FULL;
	tb_xs_resume(dcsr);
	spin_unlock_irqrestore(&tb_xs.lock, flags);
	/* Bytes written are not counted by the hardware; non-zero is close. */
	return nonzero;
}

static int tb_xs_set_chain(u32 depth)
{
	/* Needs the full break (see the top of this file). */
	return depth ? -EOPNOTSUPP : 0;
}

static int tb_xs_pop_record(u8 *out)
{
	return -ENODATA;
}

static bool tb_xs_readable(void)
{
	return false;
}

static void tb_xs_exit(void)
{
	unsigned long flags;

	spin_lock_irqsave(&tb_xs.lock, flags);
	tb_xs_dcsr_write(tb_xs.dcsr_saved & ~DCSR_E);
	tb_xs.enabled = false;
	spin_unlock_irqrestore(&tb_xs.lock, flags);
}

static const struct tb_backend tb_xs_backend = {
	.name		= "xscale",
	.id		= TRACEBUF_BACKEND_XSCALE,
	.buf_size	= TB_XS_SIZE,
	.snapshot_clears = true,
	.exit		= tb_xs_exit,
	.status		= tb_xs_status,
	.set_mode	= tb_xs_set_mode,
	.enable		= tb_xs_enable,
	.get_chkpt	= tb_xs_get_chkpt,
	.set_chkpt	= tb_xs_set_chkpt,
	.clear		= tb_xs_clear,
	.snapshot	= tb_xs_snapshot,
	.set_chain	= tb_xs_set_chain,
	.pop_record	= tb_xs_pop_record,
	.readable	= tb_xs_readable,
};

/*
 * XScale core generations 1 and 2 (PXA2xx, IXP4xx, 80200...): Intel
 * implementer, ARMv5TE (architecture field 5), core generation in bits
 * 15:13.  This excludes the Intel StrongARM SA-1110 (ARMv4) and the
 * XScale3 cores, whose trace buffer we have no documentation for.
 */
static bool tb_xs_present(void)
{
	u32 id = read_cpuid_id();
	u32 gen = (id >> 13) & 7;

	return read_cpuid_implementor() == ARM_CPU_IMP_INTEL &&
	       ((id >> 16) & 0xf) == 5 && (gen == 1 || gen == 2);
}

const struct tb_backend *tb_xscale_init(tb_notify_fn notify)
{
	if (tb_emulate || !tb_xs_present())
		return NULL;
	tb_xs.dcsr_saved = tb_xs_dcsr_read();
	tb_xs.mode = TRACEBUF_MODE_WRAP;
	tb_xs.enabled = false;
	/* Start from a known state: off, wrap-around, empty. */
	tb_xs_dcsr_write(tb_xs.dcsr_saved & ~(DCSR_E | DCSR_M));
	tb_xs_drain(NULL);
	return &tb_xs_backend;
}
