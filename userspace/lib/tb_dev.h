/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening /dev/tracebuf from a tool, with an error message that says what
 * to do, and writing struct tracebuf_record in its on-disk byte order.
 */
#ifndef TB_DEV_H
#define TB_DEV_H

#include <stdio.h>

#include <linux/tracebuf.h>

#define TB_DEV_PATH	"/dev/tracebuf"

/* open(@path, @flags) or die: names the missing module or privilege. */
int tb_dev_open(const char *path, int flags);

/*
 * Write @hdr (host order, as the kernel gives it) little-endian, then
 * @hdr->buf_size bytes of @data.  Returns 0 or -1 with errno set.
 */
int tb_record_write(FILE *f, const struct tracebuf_record *hdr,
		    const void *data);

#endif /* TB_DEV_H */
