// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf: the character device in front of the trace buffer.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <linux/tracebuf.h>

#include "tracebuf.h"

static int tb_open(struct inode *inode, struct file *file)
{
	int ret = tb_open_allowed();

	if (ret)
		return ret;
	return nonseekable_open(inode, file);
}

static int tb_release(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations tb_fops = {
	.owner		= THIS_MODULE,
	.open		= tb_open,
	.release	= tb_release,
	.llseek		= no_llseek,
};

static struct miscdevice tb_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= TRACEBUF_NAME,
	.fops	= &tb_fops,
	.mode	= 0600,
};

int tb_dev_init(void)
{
	return misc_register(&tb_miscdev);
}

void tb_dev_exit(void)
{
	misc_deregister(&tb_miscdev);
}
