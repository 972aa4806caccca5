// SPDX-License-Identifier: GPL-2.0
/*
 * tb_provoke: a test-only module that makes the kernel report trouble on
 * request, so that the flight recorder's WARN and OOPS triggers can be
 * fired for real (scripts/check/crash-check.sh).  Built with the selftests,
 * never packaged.  Write one word to /dev/tb_provoke:
 *
 *   warn       WARN(1, ...): the report every WARN() prints
 *   warn_once  WARN_ON_ONCE(1): the other path of x86's __WARN_FLAGS (no
 *              printk before the trap); prints the first time only
 *   oops       a NULL pointer store: an oops in process context.  Without
 *              panic_on_oops the writer is killed and the kernel goes on,
 *              tainted (D); with oops=panic the kernel panics
 *
 * A misc device, not procfs, debugfs or sysfs: their write paths hold a
 * reference (use_pde(), debugfs_file_get(), kernfs_get_active()) that an
 * oops would leak, leaving the module unremovable.  A write to a character
 * device holds nothing the killed writer takes with it.
 */
#include <linux/bug.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/*
 * Not instrumented by KASAN, whose check of the store would report a
 * "general protection fault ... KASAN: null-ptr-deref" of its own: the
 * oops reads "BUG: kernel NULL pointer dereference" in every kernel.
 */
static noinline __no_sanitize_address void tb_provoke_oops(void)
{
	/* volatile: the store happens, whatever the compiler knows of NULL. */
	int *volatile p = NULL;

	*p = 0x7b;
}

static ssize_t tb_provoke_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char word[16];
	size_t n = min(count, sizeof(word) - 1);

	if (copy_from_user(word, ubuf, n))
		return -EFAULT;
	word[n] = 0;
	strim(word);
	if (!strcmp(word, "warn"))
		WARN(1, "tb_provoke: warning on request\n");
	else if (!strcmp(word, "warn_once"))
		WARN_ON_ONCE(1);
	else if (!strcmp(word, "oops"))
		tb_provoke_oops();
	else
		return -EINVAL;
	return count;
}

static const struct file_operations tb_provoke_fops = {
	.owner = THIS_MODULE,
	.write = tb_provoke_write,
	.llseek = noop_llseek,
};

static struct miscdevice tb_provoke_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tb_provoke",
	.fops = &tb_provoke_fops,
	.mode = 0200,
};

module_misc_device(tb_provoke_dev);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracebuf selftests: WARN and oops on request (test only)");
