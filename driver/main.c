// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf: Intel XScale trace buffer device and kernel XRay FDR recorder.
 *
 * This file only starts and stops the core and the two products, in that
 * order, and back; see Documentation/design.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "core/probes.h"
#include "fdr/fdr.h"
#include "tracebuf/tb.h"

static int __init tracebuf_init(void)
{
	int ret;

	ret = tbcore_probes_init();
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
	tbcore_probes_exit();
	return ret;
}

static void __exit tracebuf_exit(void)
{
	fdr_dev_exit();
	tb_dev_exit();
	tbcore_probes_exit();
	pr_info("unloaded\n");
}

module_init(tracebuf_init);
module_exit(tracebuf_exit);

MODULE_DESCRIPTION("XScale trace buffer device and kernel XRay FDR flight recorder");
MODULE_AUTHOR("The tracebuf developers");
MODULE_LICENSE("GPL");
