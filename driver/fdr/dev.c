// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf_fdr: control and read-out of the flight data recorder.
 *
 * The capture belongs to the device, not to a file: a daemon may
 * configure and start it, close the file, and read later; closing does not
 * stop it, module unload does.  States:
 *
 *   stopped --START--> running --STOP--> stopped (data kept for reading)
 *   CONFIG only while stopped; it and START discard the recorded data.
 *
 * read() always yields a valid XRay FDR file from its first byte: the
 * 32-byte header, then whole blocks, then EOF (see struct fdr_file for
 * how that output is tied to one capture).  In flight-recorder mode a file
 * reads one snapshot (taken by TRACEBUF_FDR_IOC_SNAPSHOT, or by the first
 * read) and then EOF; after EOF it reads EOF until SNAPSHOT, or until a new
 * capture was started or configured, re-arms it.  A snapshot copies
 * nothing: it holds the pages it covers until read (snap.c).  In
 * streaming mode reads consume the data: they block until a CPU committed
 * the wake-up amount, and return EOF once capture is stopped and
 * everything was read.  Several streaming readers share the data, each
 * getting whole pages.
 *
 * write() records its bytes as one CustomEventMarker on the writer's CPU.
 *
 * mmap() maps one CPU's ring read-only, and TRACEBUF_FDR_IOC_MMAP_GET
 * lends the file that CPU's closed pages instead of copying them
 * (mmap.c); the streaming readers share the pages either way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "capture.h"
#include "cond.h"
#include "crash.h"
#include "fdr.h"
#include "kfunc.h"
#include "mmap.h"
#include "ring/frontend.h"
#include "ring/frontend_api.h"
#include "ring/record.h"
#include "trigger.h"
#include "core/probes.h"
#include "core/core.h"

#define FDR_DEV_NAME	"tracebuf_fdr"

/* Largest per-CPU array entry STATS accepts (room for growth). */
#define FDR_CPU_STATS_MAX	256

/*
 * What a file reads is one "output": the header, then the capture's blocks
 * (a snapshot, or the stream), then EOF.  An output belongs to the capture
 * it began in: once START or CONFIG discard that capture, the output ends
 * (EOF) and the next read begins a new one, header first.  It never reads
 * blocks of another capture, nor consumes pages a flight recorder keeps.
 */
struct fdr_file {
	struct mutex lock;	/* serialises this file's reads and SNAPSHOT */
	struct fdr_reader rd;	/* its place in the rings: the capture lock */
	struct fdr_mmap mm;	/* its mappings' control pages */
	u64 gen;		/* the capture of the output below */
	u32 mode;		/* TRACEBUF_FDR_MODE_* of that capture */
	u32 hdr_pos;		/* header bytes already read */
	bool reading;		/* an output is under way */
	bool at_eof;		/* the output of capture @gen was read to EOF */
};

/* ------------------------------------------------------------ control */

static long fdr_ioc_config(struct file *file, void __user *uarg,
			   size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct tracebuf_fdr_config c;
	int ret;

	ret = tbcore_uabi_get(&c, sizeof(c), sizeof(c), uarg, usize);
	if (ret)
		return ret;
	mutex_lock(&cap->lock);
	ret = fdr_capture_config(&c);
	mutex_unlock(&cap->lock);
	return ret;
}

static long fdr_ioc_get_config(struct file *file, void __user *uarg,
			       size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct tracebuf_fdr_config c;

	mutex_lock(&cap->lock);
	c = cap->cfg;
	mutex_unlock(&cap->lock);
	return tbcore_uabi_put(uarg, usize, &c, sizeof(c));
}

static long fdr_ioc_stats(struct file *file, void __user *uarg,
			  size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct tracebuf_fdr_stats s;
	u64 __user *ucpus;
	u32 n_in, csize;
	int ret, cpu;

	/*
	 * Callers of version 1 pass the struct without kfunc and trigger
	 * fields.
	 */
	static_assert(offsetofend(struct tracebuf_fdr_stats, bytes) ==
		      TRACEBUF_FDR_STATS_SIZE_VER1);
	static_assert(offsetofend(struct tracebuf_fdr_stats, trig_after) ==
		      TRACEBUF_FDR_STATS_SIZE_VER2);
	static_assert(offsetofend(struct tracebuf_fdr_stats, trig_frozen) ==
		      TRACEBUF_FDR_STATS_SIZE_VER3);
	ret = tbcore_uabi_get(&s, sizeof(s), TRACEBUF_FDR_STATS_SIZE_VER1,
			      uarg, usize);
	if (ret)
		return ret;
	n_in = s.nr_cpus;
	csize = s.cpu_size;
	ucpus = u64_to_user_ptr(s.cpus);
	if (s.cpus && (!csize || csize > FDR_CPU_STATS_MAX || csize % 8))
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	s.cpus = (uintptr_t)ucpus;	/* kept: the struct can be reused */
	s.abi_version = TRACEBUF_ABI_VERSION;
	s.running = READ_ONCE(cap->running);
	s.nr_cpus = nr_cpu_ids;
	s.cpu_size = sizeof(struct tracebuf_fdr_cpu_stats);
	mutex_lock(&cap->lock);
	s.gen = cap->gen;
	fdr_trig_stats(&s);
	for_each_possible_cpu(cpu) {
		struct tracebuf_fdr_cpu_stats cs;

		fdr_ring_cpu_stats(cpu, &cs);
		s.written += cs.written;
		s.dropped += cs.dropped;
		s.overwritten += cs.overwritten;
		s.bytes += cs.bytes;
		if (!ucpus || cpu >= n_in)
			continue;
		ret = tbcore_uabi_put((u8 __user *)ucpus + (size_t)cpu * csize,
				      csize, &cs, sizeof(cs));
		if (ret)
			break;
	}
	mutex_unlock(&cap->lock);
	if (ret)
		return ret;
	s.kfunc_missed = fdr_kfunc_missed();
	return tbcore_uabi_put(uarg, usize, &s, sizeof(s));
}

static long fdr_ioc_kfuncs(struct file *file, void __user *uarg,
			   size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct tracebuf_fdr_kfuncs kf;
	char *names = NULL;
	long ret;

	ret = tbcore_uabi_get(&kf, sizeof(kf), sizeof(kf), uarg, usize);
	if (ret)
		return ret;
	if (kf.len > TRACEBUF_FDR_KFUNC_MAX * TRACEBUF_FDR_KFUNC_NAME_MAX)
		return -E2BIG;
	/* Clearing the list arms nothing: any opener may. */
	if (kf.len) {
		ret = tbcore_kprobes_allowed(file);
		if (ret)
			return ret;
		names = vmemdup_user(u64_to_user_ptr(kf.names), kf.len);
		if (IS_ERR(names))
			return PTR_ERR(names);
	}
	mutex_lock(&cap->lock);
	if (cap->running) {
		ret = -EBUSY;
		kf.failed = TRACEBUF_FDR_KFUNC_NONE;
	} else {
		ret = fdr_kfunc_set(names, kf.len, &kf);
	}
	mutex_unlock(&cap->lock);
	kvfree(names);
	/* Which name was refused is part of the answer. */
	if (tbcore_uabi_put(uarg, usize, &kf, sizeof(kf)))
		return -EFAULT;
	return ret;
}

static long fdr_ioc_names(struct file *file, void __user *uarg,
			  size_t usize)
{
	struct tracebuf_fdr_names n;
	size_t len;
	char *text;
	int ret;

	ret = tbcore_uabi_get(&n, sizeof(n), sizeof(n), uarg, usize);
	if (ret)
		return ret;
	text = fdr_capture_names(&len);
	if (!text)
		return -ENOMEM;
	if (n.buf && copy_to_user(u64_to_user_ptr(n.buf), text,
				  min_t(size_t, n.len, len)))
		ret = -EFAULT;
	kvfree(text);
	if (ret)
		return ret;
	n.size = len;
	return tbcore_uabi_put(uarg, usize, &n, sizeof(n));
}

/* ------------------------------------------------------------ outputs */

/*
 * The capture lock: the output of @f ends here; its next read begins a new one.
 */
static void fdr_output_end(struct fdr_file *f)
{
	fdr_snap_release(&f->rd);
	fdr_rest_free(&f->rd.rest);
	f->reading = false;
	f->at_eof = true;
}

/*
 * The capture lock: make sure @f has an output of the current capture under
 * way, beginning one (and in flight mode taking its snapshot) unless @f already
 * read this capture to EOF.  False: the read returns EOF.
 */
static bool fdr_output_begin(struct fdr_file *f)
{
	struct fdr_capture *cap = fdr_capture();

	if (f->reading) {
		/* The rest of a block begun is read before the end. */
		if (f->gen == cap->gen || fdr_rest_pending(&f->rd.rest))
			return true;
		fdr_output_end(f);	/* its capture was discarded */
		return false;
	}
	if (f->at_eof && f->gen == cap->gen)
		return false;		/* this capture was read to EOF */
	fdr_rest_free(&f->rd.rest);	/* the end of an output given up */
	f->gen = cap->gen;
	f->mode = cap->cfg.mode;
	f->hdr_pos = 0;
	f->reading = true;
	f->at_eof = false;
	if (f->mode == TRACEBUF_FDR_MODE_FLIGHT) {
		fdr_trig_settle();
		/* Losses so far are part of what the snapshot shows. */
		if (cap->running)
			fdr_kfunc_report_missed();
		fdr_snap_take(&f->rd);
	} else {
		f->rd.cpu = -1;		/* no page partway through yet */
	}
	return true;
}

static long fdr_ioc_snapshot(struct file *file, void __user *uarg,
			     size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct fdr_file *f = file->private_data;
	long ret = 0;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	mutex_lock(&cap->lock);
	if (cap->cfg.mode != TRACEBUF_FDR_MODE_FLIGHT) {
		ret = -EINVAL;
	} else {
		/*
		 * A new output, from the header, of the recording as it is now.
		 */
		f->reading = false;
		f->at_eof = false;
		/* Or, when it fires a trigger, as it is once frozen. */
		if (cap->running)
			fdr_kfunc_report_missed();
		if (!fdr_cond_snapshot())
			fdr_output_begin(f);
	}
	mutex_unlock(&cap->lock);
	mutex_unlock(&f->lock);
	return ret;
}

/* A WARN condition registers a kprobe on __warn(). */
static bool fdr_trig_wants_kprobe(const struct tracebuf_fdr_trigger *t)
{
	unsigned int i;

	/* Entries from nr_conds on are zero or refused by fdr_trig_arm(). */
	for (i = 0; i < TRACEBUF_FDR_TRIG_MAX; i++)
		if (t->conds[i].type == TRACEBUF_FDR_TRIG_WARN)
			return true;
	return false;
}

static long fdr_ioc_trigger(struct file *file, void __user *uarg,
			    size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct tracebuf_fdr_trigger *t;
	long ret;

	/* 656 bytes: not on the stack. */
	t = kmalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	ret = tbcore_uabi_get(t, sizeof(*t), sizeof(*t), uarg, usize);
	if (!ret && fdr_trig_wants_kprobe(t))
		ret = tbcore_kprobes_allowed(file);
	if (!ret) {
		mutex_lock(&cap->lock);
		ret = fdr_trig_arm(t, cap->running, &cap->cfg);
		mutex_unlock(&cap->lock);
	}
	kfree(t);
	return ret;
}

static long fdr_ioc_start(struct file *file, void __user *uarg, size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	long ret;

	mutex_lock(&cap->lock);
	ret = fdr_capture_start();
	mutex_unlock(&cap->lock);
	return ret;
}

static long fdr_ioc_stop(struct file *file, void __user *uarg, size_t usize)
{
	struct fdr_capture *cap = fdr_capture();

	mutex_lock(&cap->lock);
	fdr_capture_stop();
	mutex_unlock(&cap->lock);
	return 0;
}

static long fdr_ioc_mmap_get(struct file *file, void __user *uarg,
			     size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct fdr_file *f = file->private_data;
	struct tracebuf_fdr_mmap_get g;
	u8 hdr[FDR_HDR_SIZE];
	long ret;

	ret = tbcore_uabi_get(&g, sizeof(g), sizeof(g), uarg, usize);
	if (ret)
		return ret;
	if ((g.flags & ~TRACEBUF_FDR_MMAP_RELEASE) || g.reserved)
		return -EINVAL;
	mutex_lock(&cap->lock);
	if (cap->cfg.mode != TRACEBUF_FDR_MODE_STREAM) {
		ret = -EINVAL;
	} else {
		fdr_put_header(hdr, fdr_clock_hz());
		ret = fdr_mmap_get(&f->mm, &f->rd, &g, cap->running, cap->gen,
				   hdr);
	}
	mutex_unlock(&cap->lock);
	return ret;
}

static long fdr_ioc_peek(struct file *file, void __user *uarg, size_t usize)
{
	struct fdr_capture *cap = fdr_capture();
	struct tracebuf_fdr_peek p;
	long ret;

	ret = tbcore_uabi_get(&p, sizeof(p), sizeof(p), uarg, usize);
	if (ret)
		return ret;
	if (p.reserved[0] || p.reserved[1] || p.cpu >= nr_cpu_ids)
		return -EINVAL;
	p.cpu = array_index_nospec(p.cpu, nr_cpu_ids);
	if (!cpu_possible(p.cpu))
		return -EINVAL;
	mutex_lock(&cap->lock);
	if (!fdr_ring_allocated()) {
		ret = -ENODEV;
	} else {
		ret = fdr_peek_cpu(p.cpu, u64_to_user_ptr(p.buf), p.size,
				   &p.next, p.gen == cap->gen, !cap->running,
				   &p.len, &p.missed);
		p.gen = cap->gen;
		fdr_put_header(p.header, fdr_clock_hz());
	}
	mutex_unlock(&cap->lock);
	if (ret >= 0 && tbcore_uabi_put(uarg, usize, &p, sizeof(p)))
		ret = -EFAULT;
	return ret;
}

static const struct tbcore_ioctl fdr_ioctls[] = {
	{ TRACEBUF_FDR_IOC_CONFIG,	fdr_ioc_config },
	{ TRACEBUF_FDR_IOC_GET_CONFIG,	fdr_ioc_get_config },
	{ TRACEBUF_FDR_IOC_STATS,	fdr_ioc_stats },
	{ TRACEBUF_FDR_IOC_NAMES,	fdr_ioc_names },
	{ TRACEBUF_FDR_IOC_KFUNCS,	fdr_ioc_kfuncs },
	{ TRACEBUF_FDR_IOC_START,	fdr_ioc_start },
	{ TRACEBUF_FDR_IOC_STOP,	fdr_ioc_stop },
	{ TRACEBUF_FDR_IOC_SNAPSHOT,	fdr_ioc_snapshot },
	{ TRACEBUF_FDR_IOC_TRIGGER,	fdr_ioc_trigger },
	{ TRACEBUF_FDR_IOC_MMAP_GET,	fdr_ioc_mmap_get },
	{ TRACEBUF_FDR_IOC_PEEK,	fdr_ioc_peek },
};

static long fdr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return tbcore_ioctl(fdr_ioctls, ARRAY_SIZE(fdr_ioctls), file, cmd, arg);
}

/* ------------------------------------------------------------ read */

/* The capture lock: the next bytes of the file header. */
static ssize_t fdr_read_header(struct fdr_file *f, char __user *buf,
			       size_t count)
{
	size_t n = min_t(size_t, count, FDR_HDR_SIZE - f->hdr_pos);
	u8 hdr[FDR_HDR_SIZE];

	fdr_put_header(hdr, fdr_clock_hz());
	if (copy_to_user(buf, hdr + f->hdr_pos, n))
		return -EFAULT;
	f->hdr_pos += n;
	return n;
}

/*
 * The capture lock, dropped and retaken while waiting: the next bytes of @f's
 * streaming output, waiting for a CPU to commit the wake-up amount.  EOF
 * once capture stopped and everything was read, or once the capture is
 * gone.
 */
static ssize_t fdr_read_stream(struct file *file, struct fdr_file *f,
			       char __user *buf, size_t count)
{
	struct fdr_capture *cap = fdr_capture();
	ssize_t ret;
	bool running;
	u64 gen;

	for (;;) {
		if (!fdr_output_begin(f))
			return 0;
		running = cap->running;
		ret = fdr_stream_read(&f->rd, buf, count);
		if (!ret) {
			fdr_stream_flush(!running);
			ret = fdr_stream_read(&f->rd, buf, count);
		}
		if (ret)
			return ret;
		/*
		 * Stopped and nothing left: EOF.  Stopped with pages another
		 * file is partway through: wait for it, they may be followed
		 * by pages for us.
		 */
		if (!running && fdr_stream_empty(NULL)) {
			fdr_output_end(f);
			return 0;
		}
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		gen = f->gen;
		mutex_unlock(&cap->lock);
		ret = wait_event_interruptible(*fdr_ring_waitq(),
					       fdr_stream_ready(&f->rd, !running) ||
					       READ_ONCE(cap->running) != running ||
					       READ_ONCE(cap->gen) != gen ||
					       (!running && fdr_stream_empty(NULL)));
		mutex_lock(&cap->lock);
		if (ret)
			return -ERESTARTSYS;
	}
}

static ssize_t fdr_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct fdr_capture *cap = fdr_capture();
	struct fdr_file *f = file->private_data;
	ssize_t ret;

	if (!count)
		return 0;
	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	mutex_lock(&cap->lock);
	if (!fdr_output_begin(f)) {
		ret = 0;
	} else if (f->hdr_pos < FDR_HDR_SIZE) {
		ret = fdr_read_header(f, buf, count);
	} else if (fdr_rest_pending(&f->rd.rest)) {
		ret = fdr_rest_read(&f->rd.rest, buf, count);
	} else if (f->mode == TRACEBUF_FDR_MODE_FLIGHT) {
		ret = fdr_snap_read(&f->rd, buf, count);
		if (!ret)
			fdr_output_end(f);
	} else {
		ret = fdr_read_stream(file, f, buf, count);
	}
	mutex_unlock(&cap->lock);
	mutex_unlock(&f->lock);
	return ret;
}

static __poll_t fdr_poll(struct file *file, poll_table *wait)
{
	struct fdr_capture *cap = fdr_capture();
	struct fdr_file *f = file->private_data;
	__poll_t mask = 0;
	bool stopped;

	poll_wait(file, fdr_ring_waitq(), wait);
	/*
	 * A snapshot, the end of a capture, or its data (the rest of a page
	 * it kept among them) are all readable.
	 * A stopped stream is not while all that is left belongs to other
	 * files (read() would wait for them): an event loop would spin.
	 * Pages lent to this file are not left: its read() gives them back
	 * first.
	 */
	stopped = !READ_ONCE(cap->running);
	if (READ_ONCE(cap->cfg.mode) == TRACEBUF_FDR_MODE_FLIGHT ||
	    fdr_stream_ready(&f->rd, stopped) ||
	    (stopped && (fdr_stream_empty(&f->rd) ||
			 (READ_ONCE(f->at_eof) &&
			  READ_ONCE(f->gen) == READ_ONCE(cap->gen)))) ||
	    (READ_ONCE(f->reading) && READ_ONCE(f->gen) != READ_ONCE(cap->gen)) ||
	    fdr_rest_pending(&f->rd.rest))
		mask = EPOLLIN | EPOLLRDNORM;
	/* A trigger froze the rings: the moment is ready to read. */
	if (fdr_trig_frozen())
		mask |= EPOLLPRI;
	return mask;
}

/* ------------------------------------------------------------ markers */

static ssize_t fdr_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	struct fdr_capture *cap = fdr_capture();
	void *data;
	bool ok;

	if (count > TRACEBUF_FDR_MARKER_MAX)
		return -EMSGSIZE;
	if (!count)
		return 0;
	if (!READ_ONCE(cap->markers))
		return -EINVAL;
	data = memdup_user(buf, count);
	if (IS_ERR(data))
		return PTR_ERR(data);
	ok = READ_ONCE(cap->markers) && fdr_write_marker(data, count);
	/* After the marker, so the trace shows it before the reason. */
	if (ok)
		fdr_cond_marker(data, count);
	kfree(data);
	return ok ? count : -EINVAL;
}

/* ------------------------------------------------------------ files */

static int fdr_open(struct inode *inode, struct file *file)
{
	struct fdr_file *f;
	int ret;

	ret = tbcore_open_allowed();
	if (ret)
		return ret;
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	ret = fdr_reader_init(&f->rd);
	if (ret) {
		kfree(f);
		return ret;
	}
	mutex_init(&f->lock);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int fdr_release(struct inode *inode, struct file *file)
{
	struct fdr_capture *cap = fdr_capture();
	struct fdr_file *f = file->private_data;

	mutex_lock(&cap->lock);
	fdr_reader_exit(&f->rd);
	mutex_unlock(&cap->lock);
	/* Its last mapping is gone: the vma held the file. */
	fdr_mmap_file_exit(&f->mm);
	kfree(f);
	return 0;
}

static int fdr_mmap_fop(struct file *file, struct vm_area_struct *vma)
{
	struct fdr_file *f = file->private_data;

	return fdr_mmap(&f->mm, vma);
}

static const struct file_operations fdr_fops = {
	.owner		= THIS_MODULE,
	.open		= fdr_open,
	.release	= fdr_release,
	.read		= fdr_read,
	.write		= fdr_write,
	.poll		= fdr_poll,
	.mmap		= fdr_mmap_fop,
	.unlocked_ioctl	= fdr_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= no_llseek,
};

static struct miscdevice fdr_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= FDR_DEV_NAME,
	.fops	= &fdr_fops,
	.mode	= 0600,
};

int fdr_dev_init(void)
{
	int ret;

	ret = fdr_crash_init();
	if (ret)
		return ret;
	ret = fdr_ring_init();
	if (ret)
		goto err_crash;
	fdr_trig_init();
	ret = misc_register(&fdr_miscdev);
	if (ret)
		goto err_ring;
	return 0;

err_ring:
	fdr_ring_exit();
err_crash:
	fdr_crash_exit();
	return ret;
}

void fdr_dev_exit(void)
{
	struct fdr_capture *cap = fdr_capture();

	misc_deregister(&fdr_miscdev);
	mutex_lock(&cap->lock);
	fdr_capture_stop();
	/* No handler can run after this: the ring can go. */
	fdr_kfunc_exit();
	/* A crash image must not find rings that are gone. */
	fdr_crash_rings_gone();
	mutex_unlock(&cap->lock);
	fdr_ring_exit();
	fdr_crash_exit();
}
