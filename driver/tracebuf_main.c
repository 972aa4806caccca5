// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf: Intel XScale trace buffer device and kernel XRay FDR recorder.
 *
 * This file only wires the parts together; see Documentation/design.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/security.h>

#include "fdr.h"
#include "tb_probes.h"
#include "tracebuf.h"

int tb_open_allowed(void)
{
	int ret;

	if (!perfmon_capable())
		return -EPERM;
	ret = security_locked_down(LOCKDOWN_PERF);
	if (ret)
		return ret;
	return 0;
}

static int __init tracebuf_init(void)
{
	int ret;

	ret = tb_probes_init();
	if (ret)
		return ret;
	ret = tb_dev_init();
	if (ret)
		goto err_probes;
	ret = fdr_dev_init();
	if (ret)
		goto err_dev;
	pr_info("loaded\n");
	return 0;

err_dev:
	tb_dev_exit();
err_probes:
	tb_probes_exit();
	return ret;
}

static void __exit tracebuf_exit(void)
{
	fdr_dev_exit();
	tb_dev_exit();
	tb_probes_exit();
	pr_info("unloaded\n");
}

module_init(tracebuf_init);
module_exit(tracebuf_exit);

MODULE_DESCRIPTION("XScale trace buffer device and kernel XRay FDR flight recorder");
MODULE_AUTHOR("The tracebuf developers");
MODULE_LICENSE("GPL");
