// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf: the character device in front of the trace buffer.
 *
 * Reading.  The hardware buffer can only be read whole, and reading clears
 * it.  Each open file therefore reads in "sessions": the first read() of a
 * session takes an atomic snapshot of the whole buffer (pause, copy, clear,
 * resume), the following reads return the rest of that copy in any chunk
 * size, and the read after the last byte returns 0 (end of file) and ends
 * the session.  So cat, dd bs=1 and xxd all see exactly one buffer and
 * stop.  An empty buffer reads as the hardware's buf_size zero bytes,
 * except with O_NONBLOCK, which fails with EAGAIN when nothing was written
 * since the last clear.  While chained capture is armed, read() instead
 * returns whole records (header and data), blocking for the next one
 * unless O_NONBLOCK; it returns 0 once chaining is disarmed.
 *
 * Writing injects struct tracebuf_event records (emulated backend only).
 *
 * Wakeups come from writers that may run inside the scheduler or in NMI,
 * so the notify callback the backend gets (tb_dev_notify()) only queues
 * an irq_work, and the irq_work wakes the wait queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <linux/tracebuf.h>

#include "backend.h"
#include "model.h"
#include "tb.h"
#include "core/core.h"

#define TB_DEV_NAME	"tracebuf"

/* Largest write(): validated as a whole, so it is copied in as a whole. */
#define TB_WRITE_MAX	SZ_1M

static const struct tb_backend *tb_be;
static DECLARE_WAIT_QUEUE_HEAD(tb_wq);

static void tb_wake_fn(struct irq_work *work)
{
	wake_up_interruptible_poll(&tb_wq, EPOLLIN | EPOLLRDNORM);
}

static struct irq_work tb_wake_work = IRQ_WORK_INIT(tb_wake_fn);

static void tb_dev_notify(void)
{
	irq_work_queue(&tb_wake_work);
}

/**
 * struct tb_file - per-open state
 * @lock:	serialises read() on this file
 * @sess:	the snapshot a read session serves, buf_size bytes
 * @sess_len:	bytes in @sess (0: no session)
 * @sess_pos:	bytes of @sess already returned
 * @rec:	bounce buffer for one chained record
 * @rec_pending: @rec holds a record taken from the queue that a read
 *		could not copy out (EFAULT): the next read returns it first
 */
struct tb_file {
	struct mutex lock;	/* read() of this file */
	u8 *sess;
	u32 sess_len;
	u32 sess_pos;
	u8 *rec;
	bool rec_pending;
};

static size_t tb_rec_size(void)
{
	return sizeof(struct tracebuf_record) + tb_be->buf_size;
}

static int tb_open(struct inode *inode, struct file *file)
{
	struct tb_file *f;
	int ret = tbcore_open_allowed();

	if (ret)
		return ret;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int tb_release(struct inode *inode, struct file *file)
{
	struct tb_file *f = file->private_data;

	kvfree(f->sess);
	kvfree(f->rec);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

static bool tb_chained(void)
{
	struct tracebuf_status st = { 0 };

	tb_be->status(&st);
	return st.flags & TRACEBUF_STATUS_CHAINED;
}

/* Return whole chained records; caller holds f->lock. */
static ssize_t tb_read_records(struct tb_file *f, char __user *ubuf,
			       size_t count, bool nonblock)
{
	size_t rec_size = tb_rec_size();
	size_t done = 0;
	int ret;

	if (count < rec_size)
		return -EINVAL;
	if (!f->rec) {
		f->rec = kvmalloc(rec_size, GFP_KERNEL);
		if (!f->rec)
			return -ENOMEM;
	}
	if (f->rec_pending) {
		if (copy_to_user(ubuf, f->rec, rec_size))
			return -EFAULT;
		f->rec_pending = false;
		done = rec_size;
	}
	while (count - done >= rec_size) {
		ret = tb_be->pop_record(f->rec);
		if (ret == -EAGAIN && !done && !nonblock) {
			ret = wait_event_interruptible(tb_wq, tb_be->readable() ||
						       !tb_chained());
			if (ret)
				return ret;
			continue;
		}
		if (ret == -ENODATA && !done)
			return 0;	/* disarmed: end of file */
		if (ret)
			break;
		if (copy_to_user(ubuf + done, f->rec, rec_size)) {
			/* Taken from the queue: this file keeps it. */
			f->rec_pending = true;
			return done ? done : -EFAULT;
		}
		done += rec_size;
	}
	return done ? done : ret;
}

static ssize_t tb_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	struct tb_file *f = file->private_data;
	bool nonblock = file->f_flags & O_NONBLOCK;
	struct tracebuf_record hdr;
	ssize_t ret;
	size_t n;

	if (!count)
		return 0;
	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;

	if (f->sess_len && f->sess_pos == f->sess_len) {
		f->sess_len = 0;	/* the end-of-file read of a session */
		ret = 0;
		goto out;
	}
	if (!f->sess_len) {
		if (tb_chained()) {
			ret = tb_read_records(f, ubuf, count, nonblock);
			goto out;
		}
		if (!f->sess) {
			f->sess = kvmalloc(tb_be->buf_size, GFP_KERNEL);
			if (!f->sess) {
				ret = -ENOMEM;
				goto out;
			}
		}
		if (!tb_be->snapshot(&hdr, f->sess, true) && nonblock) {
			ret = -EAGAIN;
			goto out;
		}
		f->sess_len = tb_be->buf_size;
		f->sess_pos = 0;
	}
	n = min_t(size_t, count, f->sess_len - f->sess_pos);
	if (copy_to_user(ubuf, f->sess + f->sess_pos, n)) {
		ret = -EFAULT;
		goto out;
	}
	f->sess_pos += n;
	ret = n;
out:
	mutex_unlock(&f->lock);
	return ret;
}

static ssize_t tb_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	const size_t esz = sizeof(struct tracebuf_event);
	struct tracebuf_event *evs;
	size_t i, n = count / esz;
	int ret;

	if (!tb_be->inject)
		return -EOPNOTSUPP;
	if (!count)
		return 0;
	if (count % esz || count > TB_WRITE_MAX)
		return -EINVAL;
	evs = kvmalloc(count, GFP_KERNEL);
	if (!evs)
		return -ENOMEM;
	if (copy_from_user(evs, ubuf, count)) {
		ret = -EFAULT;
		goto out;
	}
	/* All or nothing: a bad record anywhere leaves the buffer untouched. */
	for (i = 0; i < n; i++) {
		if (!tb_model_event_valid(&evs[i])) {
			ret = -EINVAL;
			goto out;
		}
	}
	ret = tb_be->inject(evs, n);
out:
	kvfree(evs);
	return ret ? ret : count;
}

static __poll_t tb_poll(struct file *file, poll_table *wait)
{
	struct tb_file *f = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &tb_wq, wait);
	if (tb_be->readable() || READ_ONCE(f->sess_len))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (tb_be->inject)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

/* ------------------------------------------------------------------ ioctl */

/* Copy an ioctl struct by the caller's size (the rule is in core/uabi.c). */
static int tb_copy_out(void __user *arg, size_t usize, const void *k,
		       size_t ksize)
{
	return tbcore_uabi_put(arg, usize, k, ksize);
}

static int tb_copy_in(void __user *arg, size_t usize, void *k, size_t ksize)
{
	return tbcore_uabi_get(k, ksize, ksize, arg, usize);
}

static long tb_ioc_status(struct file *file, void __user *arg, size_t usize)
{
	struct tracebuf_status st = { 0 };

	tb_be->status(&st);
	st.abi_version = TRACEBUF_ABI_VERSION;
	st.backend = tb_be->id;
	st.buf_size = tb_be->buf_size;
	return tb_copy_out(arg, usize, &st, sizeof(st));
}

static long tb_ioc_get_mode(struct file *file, void __user *arg, size_t usize)
{
	struct tracebuf_status st = { 0 };
	u32 mode;

	tb_be->status(&st);
	mode = st.mode;
	return tb_copy_out(arg, usize, &mode, sizeof(mode));
}

static long tb_ioc_set_mode(struct file *file, void __user *arg, size_t usize)
{
	u32 mode;
	int ret;

	ret = tb_copy_in(arg, usize, &mode, sizeof(mode));
	if (ret)
		return ret;
	if (mode != TRACEBUF_MODE_WRAP && mode != TRACEBUF_MODE_FILL_ONCE)
		return -EINVAL;
	return tb_be->set_mode(mode);
}

static long tb_ioc_enable(struct file *file, void __user *arg, size_t usize)
{
	return tb_be->enable(true);
}

static long tb_ioc_disable(struct file *file, void __user *arg, size_t usize)
{
	return tb_be->enable(false);
}

static long tb_ioc_get_chkpt(struct file *file, void __user *arg, size_t usize)
{
	struct tracebuf_chkpt ck = { 0 };

	tb_be->get_chkpt(&ck);
	return tb_copy_out(arg, usize, &ck, sizeof(ck));
}

static long tb_ioc_set_chkpt(struct file *file, void __user *arg, size_t usize)
{
	struct tracebuf_chkpt ck;
	int ret;

	ret = tb_copy_in(arg, usize, &ck, sizeof(ck));
	if (ret)
		return ret;
	return tb_be->set_chkpt(&ck);
}

static long tb_ioc_clear(struct file *file, void __user *arg, size_t usize)
{
	tb_be->clear();
	return 0;
}

static long tb_ioc_get_sources(struct file *file, void __user *arg,
			       size_t usize)
{
	struct tracebuf_sources src = { 0 };

	if (tb_be->get_sources)
		tb_be->get_sources(&src);
	return tb_copy_out(arg, usize, &src, sizeof(src));
}

static long tb_ioc_set_sources(struct file *file, void __user *arg,
			       size_t usize)
{
	struct tracebuf_sources src;
	int ret;

	ret = tb_copy_in(arg, usize, &src, sizeof(src));
	if (ret)
		return ret;
	if (!tb_be->set_sources)
		return -EOPNOTSUPP;
	return tb_be->set_sources(&src);
}

static long tb_ioc_snapshot(struct file *file, void __user *arg, size_t usize)
{
	struct tracebuf_snapshot_req req;
	struct tracebuf_record hdr;
	void __user *ubuf;
	u8 *data;
	int ret;

	ret = tb_copy_in(arg, usize, &req, sizeof(req));
	if (ret)
		return ret;
	if (req.flags & ~TRACEBUF_SNAP_CLEAR)
		return -EINVAL;
	if (tb_be->snapshot_clears && !(req.flags & TRACEBUF_SNAP_CLEAR))
		return -EOPNOTSUPP;
	if (req.len < tb_rec_size())
		return -ENOSPC;
	ubuf = u64_to_user_ptr(req.buf);
	data = kvmalloc(tb_be->buf_size, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	tb_be->snapshot(&hdr, data, req.flags & TRACEBUF_SNAP_CLEAR);
	ret = 0;
	if (copy_to_user(ubuf, &hdr, sizeof(hdr)) ||
	    copy_to_user(ubuf + sizeof(hdr), data, tb_be->buf_size))
		ret = -EFAULT;
	kvfree(data);
	return ret;
}

static long tb_ioc_set_chain(struct file *file, void __user *arg, size_t usize)
{
	struct tracebuf_chain ch;
	int ret;

	ret = tb_copy_in(arg, usize, &ch, sizeof(ch));
	if (ret)
		return ret;
	if (ch.reserved || ch.depth > TRACEBUF_CHAIN_MAX)
		return -EINVAL;
	return tb_be->set_chain(ch.depth);
}

static const struct tbcore_ioctl tb_ioctls[] = {
	{ TRACEBUF_IOC_STATUS,		tb_ioc_status },
	{ TRACEBUF_IOC_GET_MODE,	tb_ioc_get_mode },
	{ TRACEBUF_IOC_SET_MODE,	tb_ioc_set_mode },
	{ TRACEBUF_IOC_ENABLE,		tb_ioc_enable },
	{ TRACEBUF_IOC_DISABLE,		tb_ioc_disable },
	{ TRACEBUF_IOC_GET_CHKPT,	tb_ioc_get_chkpt },
	{ TRACEBUF_IOC_SET_CHKPT,	tb_ioc_set_chkpt },
	{ TRACEBUF_IOC_CLEAR,		tb_ioc_clear },
	{ TRACEBUF_IOC_GET_SOURCES,	tb_ioc_get_sources },
	{ TRACEBUF_IOC_SET_SOURCES,	tb_ioc_set_sources },
	{ TRACEBUF_IOC_SNAPSHOT,	tb_ioc_snapshot },
	{ TRACEBUF_IOC_SET_CHAIN,	tb_ioc_set_chain },
};

static long tb_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return tbcore_ioctl(tb_ioctls, ARRAY_SIZE(tb_ioctls), file, cmd, arg);
}

static const struct file_operations tb_fops = {
	.owner		= THIS_MODULE,
	.open		= tb_open,
	.release	= tb_release,
	.read		= tb_read,
	.write		= tb_write,
	.poll		= tb_poll,
	.unlocked_ioctl	= tb_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= no_llseek,
};

static struct miscdevice tb_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= TB_DEV_NAME,
	.fops	= &tb_fops,
	.mode	= 0600,
};

int tb_dev_init(void)
{
	const struct tb_backend *be;
	int ret;

	be = tb_xscale_init(tb_dev_notify);
	if (!be)
		be = tb_emul_init(tb_dev_notify);
	if (IS_ERR(be))
		return PTR_ERR(be);
	tb_be = be;
	ret = misc_register(&tb_miscdev);
	if (ret) {
		tb_be->exit();
		irq_work_sync(&tb_wake_work);
		return ret;
	}
	pr_info("%s trace buffer, %u bytes\n", tb_be->name, tb_be->buf_size);
	return 0;
}

void tb_dev_exit(void)
{
	misc_deregister(&tb_miscdev);
	tb_be->exit();		/* no writer runs after this */
	irq_work_sync(&tb_wake_work);
}
