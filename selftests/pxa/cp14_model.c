// SPDX-License-Identifier: GPL-2.0
/*
 * cp14_model: a register-level model of the XScale trace buffer's CP14
 * registers, for the PXA270 test guest only (qemu 7.2 does not implement
 * them: every mrc/mcr p14 of the trace buffer is an undefined instruction
 * there).  Never part of the module we ship.
 *
 * Written from the XScale Core Developer's Manual (sections 9.12, 9.13;
 * the project's notes in /work/shared/reference/xscale-trace-buffer.md),
 * on its own, so that driver/tracebuf/xscale.c is checked against the
 * manual and not against the driver's emulated backend.
 *
 * The registers (opcode_1 0, CRm c0, opcode_2 0):
 *
 *   DCSR    c10  GE (31), H (30), MOE (4:2), M (1: fill-once), E (0)
 *   TBREG   c11  read: the byte at the buffer's position, oldest first;
 *                the read clears it to 0x00.  Writes are ignored.
 *   CHKPT0  c12  read/write
 *   CHKPT1  c13  read/write
 *
 * An undefined-instruction hook (the test kernel exports
 * register_undef_hook(): selftests/pxa/export-undef-hook.patch) takes the
 * kernel-mode (SVC) ARM accesses with condition AL, performs them and
 * steps over the instruction.  Anything else on p14 stays undefined, user
 * mode included, as the manual says.
 *
 * Where the messages come from.  A model cannot see the instructions the
 * core executes, so the "program" is injected: text written to
 * debugfs tb_cp14/exec, one event per line,
 *
 *   run N          N instructions that are not branches
 *   b ADDR [chk]   a direct branch (B, BL) to ADDR
 *   bx ADDR [chk]  an indirect branch (BX, LDR pc, ...) to ADDR
 *   exc V          an exception through vector V (1-4, 6, 7)
 *
 * ("chk": the hardware checkpoints this entry; the manual does not say
 * when it does, so the program says.)  They are recorded only while
 * tracing is on (DCSR.GE and DCSR.E), by the manual's rules: the count of
 * instructions since the previous message, a roll-over byte 0xff each 16
 * instructions, a branch on the 16th written with a count of 15, the four
 * target bytes of an indirect branch before its message, most significant
 * first, a checkpointed entry's target into CHKPT0 and CHKPT0's old value
 * into CHKPT1.
 *
 * The buffer is a ring with one position: a message byte is written at it,
 * a TBREG read returns and clears the byte at it; both advance it.  So 256
 * reads return the oldest byte first and the newest last, the untouched
 * bytes of a buffer that did not wrap (0x00) first.
 *
 * Fill-once (DCSR.M): once 256 bytes have been written since the buffer
 * was last read through (256 consecutive TBREG reads), a message that
 * does not fit is not written and the trace-buffer-full debug break is
 * raised: DCSR.MOE = 6 and E cleared (a debug exception clears E).  The
 * manual does not say what happens to a 5-byte entry with fewer bytes
 * left: the model writes none of it.  The break itself cannot be
 * delivered (on the hardware it arrives as a data abort with FSR bit 9,
 * which 6.1's ARM abort path does not route: Documentation/
 * architectures.rst); the model counts it.
 *
 * What the model saw, for the tests (debugfs tb_cp14/):
 *
 *   buffer      CHKPT0, CHKPT1 (little-endian u32) and the 256 bytes in
 *               read order: the register state now, read without a TBREG
 *               access
 *   last_drain  the same, as it was when the last pass of TBREG reads
 *               began: what a driver that read the buffer through
 *               should have returned
 *   stats       accesses per register, accesses the manual calls
 *               unpredictable (TBREG or a checkpoint touched while
 *               tracing), passes cut short, full breaks, DCSR
 *   reset       write anything: registers and counters to power-on
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <asm/cputype.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

#define CP14_TB_SIZE	256

#define CP14_DCSR	10
#define CP14_TBREG	11
#define CP14_CHKPT0	12
#define CP14_CHKPT1	13

#define DCSR_GE		BIT(31)
#define DCSR_MOE_SHIFT	2
#define DCSR_MOE_MASK	(7U << DCSR_MOE_SHIFT)
#define DCSR_MOE_TB_FULL 6
#define DCSR_M		BIT(1)
#define DCSR_E		BIT(0)

/* Message bytes (manual 9.13, "Trace Buffer Entries"). */
#define MSG_DIRECT	0x80
#define MSG_INDIRECT	0x90
#define MSG_CHKPT	0x40
#define MSG_ROLLOVER	0xff
#define COUNT_MAX	15

/* The snapshot format of buffer and last_drain. */
#define CP14_REC_SIZE	(8 + CP14_TB_SIZE)

enum { ACC_DCSR_R, ACC_DCSR_W, ACC_TBREG_R, ACC_TBREG_W, ACC_CHKPT_R,
	ACC_CHKPT_W, ACC_N };

static const char * const acc_names[ACC_N] = {
	"dcsr_reads", "dcsr_writes", "tbreg_reads", "tbreg_writes",
	"chkpt_reads", "chkpt_writes",
};

static DEFINE_RAW_SPINLOCK(cp14_lock);

static struct {
	u32 dcsr;
	u32 chkpt[2];
	u8 buf[CP14_TB_SIZE];
	u8 pos;			/* next byte written or read */
	u32 written;		/* bytes written since the last read-through */
	u32 pass;		/* consecutive TBREG reads, 0..255 */
	u32 count;		/* instructions since the previous message */
	u8 last[CP14_REC_SIZE];	/* as the last pass of reads began */
	u64 acc[ACC_N];
	u64 unpredictable;	/* TBREG or CHKPTn touched while tracing */
	u64 passes;		/* completed passes of 256 reads */
	u64 cut_passes;		/* passes a write or a new start cut short */
	u64 full_breaks;	/* fill-once buffer-full breaks raised */
	u64 events;		/* program events recorded */
	u64 ignored;		/* program events while tracing was off */
} m;

static bool cp14_tracing(void)
{
	return (m.dcsr & (DCSR_GE | DCSR_E)) == (DCSR_GE | DCSR_E);
}

/* CHKPT0, CHKPT1 and the buffer in read order, oldest byte first. */
static void cp14_record(u8 *out)
{
	unsigned int i;

	memcpy(out, &m.chkpt[0], 4);
	memcpy(out + 4, &m.chkpt[1], 4);
	for (i = 0; i < CP14_TB_SIZE; i++)
		out[8 + i] = m.buf[(u8)(m.pos + i)];
}

/*
 * Write one message (1 or 5 bytes).  Returns false if fill-once stopped
 * it: the buffer is full and the break is raised.
 */
static bool cp14_put(const u8 *bytes, unsigned int n)
{
	unsigned int i;

	if ((m.dcsr & DCSR_M) && m.written + n > CP14_TB_SIZE) {
		m.dcsr = (m.dcsr & ~(DCSR_MOE_MASK | DCSR_E)) |
			 (DCSR_MOE_TB_FULL << DCSR_MOE_SHIFT);
		m.full_breaks++;
		return false;
	}
	if (m.pass) {
		m.cut_passes++;	/* a write in the middle of a read-through */
		m.pass = 0;
	}
	for (i = 0; i < n; i++)
		m.buf[m.pos++] = bytes[i];
	m.written = min_t(u32, m.written + n, CP14_TB_SIZE);
	return true;
}

/* One executed instruction that is not a branch. */
static void cp14_step(void)
{
	u8 b = MSG_ROLLOVER;

	if (m.count < COUNT_MAX) {
		m.count++;
		return;
	}
	/* The 16th: a roll-over message, and counting starts again. */
	if (cp14_put(&b, 1))
		m.count = 0;
}

static void cp14_checkpoint(u32 target)
{
	m.chkpt[1] = m.chkpt[0];
	m.chkpt[0] = target;
}

static void cp14_branch(bool indirect, u32 target, bool chk)
{
	u8 msg[5] = { target >> 24, target >> 16, target >> 8, target };
	u8 b = (indirect ? MSG_INDIRECT : MSG_DIRECT) | (chk ? MSG_CHKPT : 0) |
	       m.count;
	bool ok;

	if (indirect) {
		msg[4] = b;
		ok = cp14_put(msg, 5);
	} else {
		ok = cp14_put(&b, 1);
	}
	if (!ok)
		return;
	m.count = 0;
	if (chk)
		cp14_checkpoint(target);
}

static void cp14_exception(u32 vec)
{
	u8 b = (vec << 4) | m.count;

	if (cp14_put(&b, 1))
		m.count = 0;
}

/* ------------------------------------------------------- the registers */

static u32 cp14_read(unsigned int crn)
{
	u32 v = 0;

	switch (crn) {
	case CP14_DCSR:
		m.acc[ACC_DCSR_R]++;
		v = m.dcsr;
		break;
	case CP14_TBREG:
		m.acc[ACC_TBREG_R]++;
		if (cp14_tracing())
			m.unpredictable++;
		if (!m.pass)
			cp14_record(m.last);
		v = m.buf[m.pos];
		m.buf[m.pos++] = 0;
		if (++m.pass == CP14_TB_SIZE) {
			m.pass = 0;
			m.passes++;
			m.written = 0;	/* read through: initialised */
		}
		break;
	case CP14_CHKPT0:
	case CP14_CHKPT1:
		m.acc[ACC_CHKPT_R]++;
		if (cp14_tracing())
			m.unpredictable++;
		v = m.chkpt[crn - CP14_CHKPT0];
		break;
	}
	return v;
}

static void cp14_write(unsigned int crn, u32 v)
{
	switch (crn) {
	case CP14_DCSR:
		m.acc[ACC_DCSR_W]++;
		/* MOE says why the core last entered debug: the core's. */
		m.dcsr = (v & ~DCSR_MOE_MASK) | (m.dcsr & DCSR_MOE_MASK);
		break;
	case CP14_TBREG:
		m.acc[ACC_TBREG_W]++;
		break;
	case CP14_CHKPT0:
	case CP14_CHKPT1:
		m.acc[ACC_CHKPT_W]++;
		if (cp14_tracing())
			m.unpredictable++;
		m.chkpt[crn - CP14_CHKPT0] = v;
		break;
	}
}

/*
 * MRC/MCR: cond 1110 opc1:3 L CRn Rd 1110 opc2:3 1 CRm.  The hook's mask
 * already matched coprocessor 14 in SVC mode, ARM state.
 */
static int cp14_undef(struct pt_regs *regs, unsigned int instr)
{
	unsigned int cond = instr >> 28, opc1 = (instr >> 21) & 7;
	unsigned int load = (instr >> 20) & 1, crn = (instr >> 16) & 15;
	unsigned int rd = (instr >> 12) & 15, opc2 = (instr >> 5) & 7;
	unsigned int crm = instr & 15;
	unsigned long flags;

	if (cond != 0xe || opc1 || opc2 || crm || rd == 15 ||
	    crn < CP14_DCSR || crn > CP14_CHKPT1)
		return 1;	/* not a trace-buffer register: still undefined */
	raw_spin_lock_irqsave(&cp14_lock, flags);
	if (load)
		regs->uregs[rd] = cp14_read(crn);
	else
		cp14_write(crn, regs->uregs[rd]);
	raw_spin_unlock_irqrestore(&cp14_lock, flags);
	regs->ARM_pc += 4;
	return 0;
}

static struct undef_hook cp14_hook = {
	.instr_mask	= 0x0f000f10,
	.instr_val	= 0x0e000e10,
	.cpsr_mask	= MODE_MASK | PSR_T_BIT,
	.cpsr_val	= SVC_MODE,
	.fn		= cp14_undef,
};

/* --------------------------------------------------------------- debugfs */

static int cp14_event(char *line)
{
	char *argv[4];
	int argc = 0;
	bool chk = false;
	char *tok;
	u32 v;

	while ((tok = strsep(&line, " \t")) && argc < ARRAY_SIZE(argv)) {
		if (*tok)
			argv[argc++] = tok;
	}
	if (tok)
		return -EINVAL;
	if (!argc)
		return 0;
	if (argc == 3 && !strcmp(argv[2], "chk")) {
		chk = true;
		argc--;
	}
	if (argc != 2 || kstrtou32(argv[1], 0, &v))
		return -EINVAL;
	if (!strcmp(argv[0], "run")) {
		if (chk)
			return -EINVAL;
		if (!cp14_tracing()) {
			m.ignored++;
			return 0;
		}
		while (v-- && cp14_tracing())
			cp14_step();
	} else if (!strcmp(argv[0], "b") || !strcmp(argv[0], "bx")) {
		if (!cp14_tracing()) {
			m.ignored++;
			return 0;
		}
		cp14_branch(argv[0][1] == 'x', v, chk);
	} else if (!strcmp(argv[0], "exc")) {
		/* Resets and debug exceptions are never recorded; 5 is unused. */
		if (chk || !v || v == 5 || v > 7)
			return -EINVAL;
		if (!cp14_tracing()) {
			m.ignored++;
			return 0;
		}
		cp14_exception(v);
	} else {
		return -EINVAL;
	}
	m.events++;
	return 0;
}

static ssize_t cp14_exec_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char *text, *p, *line;
	unsigned long flags;
	int ret = 0;

	if (count > PAGE_SIZE)
		return -E2BIG;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	p = text;
	raw_spin_lock_irqsave(&cp14_lock, flags);
	while (!ret && (line = strsep(&p, "\n;")))
		ret = cp14_event(line);
	raw_spin_unlock_irqrestore(&cp14_lock, flags);
	kfree(text);
	return ret ? ret : count;
}

static const struct file_operations cp14_exec_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= cp14_exec_write,
	.llseek	= no_llseek,
};

static ssize_t cp14_rec_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	u8 rec[CP14_REC_SIZE];
	unsigned long flags;

	raw_spin_lock_irqsave(&cp14_lock, flags);
	if (file->private_data)
		memcpy(rec, m.last, sizeof(rec));
	else
		cp14_record(rec);
	raw_spin_unlock_irqrestore(&cp14_lock, flags);
	return simple_read_from_buffer(ubuf, count, ppos, rec, sizeof(rec));
}

static const struct file_operations cp14_rec_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= cp14_rec_read,
	.llseek	= default_llseek,
};

static ssize_t cp14_stats_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char *text;
	unsigned long flags;
	size_t len = 0, size = 512;
	ssize_t ret;
	int i;

	text = kmalloc(size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	raw_spin_lock_irqsave(&cp14_lock, flags);
	for (i = 0; i < ACC_N; i++)
		len += scnprintf(text + len, size - len, "%s %llu\n",
				 acc_names[i], m.acc[i]);
	len += scnprintf(text + len, size - len,
			 "unpredictable %llu\npasses %llu\ncut_passes %llu\n"
			 "full_breaks %llu\nevents %llu\nignored %llu\n"
			 "dcsr 0x%08x\n",
			 m.unpredictable, m.passes, m.cut_passes,
			 m.full_breaks, m.events, m.ignored, m.dcsr);
	raw_spin_unlock_irqrestore(&cp14_lock, flags);
	ret = simple_read_from_buffer(ubuf, count, ppos, text, len);
	kfree(text);
	return ret;
}

static const struct file_operations cp14_stats_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= cp14_stats_read,
	.llseek	= default_llseek,
};

/* Power-on: tracing off, buffer and checkpoints cleared. */
static void cp14_reset(void)
{
	memset(&m, 0, sizeof(m));
}

static ssize_t cp14_reset_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cp14_lock, flags);
	cp14_reset();
	raw_spin_unlock_irqrestore(&cp14_lock, flags);
	return count;
}

static const struct file_operations cp14_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= cp14_reset_write,
	.llseek	= no_llseek,
};

static struct dentry *cp14_dir;

static int __init cp14_init(void)
{
	/* The model stands in for the XScale core's own trace buffer. */
	if (read_cpuid_implementor() != ARM_CPU_IMP_INTEL)
		return -ENODEV;
	cp14_reset();
	cp14_dir = debugfs_create_dir("tb_cp14", NULL);
	debugfs_create_file("exec", 0200, cp14_dir, NULL, &cp14_exec_fops);
	debugfs_create_file("buffer", 0400, cp14_dir, NULL, &cp14_rec_fops);
	debugfs_create_file("last_drain", 0400, cp14_dir, &m.last,
			    &cp14_rec_fops);
	debugfs_create_file("stats", 0400, cp14_dir, NULL, &cp14_stats_fops);
	debugfs_create_file("reset", 0200, cp14_dir, NULL, &cp14_reset_fops);
	register_undef_hook(&cp14_hook);
	pr_info("XScale CP14 trace buffer model (test only)\n");
	return 0;
}

static void __exit cp14_exit(void)
{
	unregister_undef_hook(&cp14_hook);
	debugfs_remove_recursive(cp14_dir);
}

module_init(cp14_init);
module_exit(cp14_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("XScale CP14 trace buffer register model (test kernel only)");
