/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening the tracebuf devices (/dev/tracebuf, /dev/tracebuf_fdr), with
 * the hint a tool's error message gives about what to do.
 */
#ifndef TB_DEV_H
#define TB_DEV_H

#define TB_DEV_PATH	"/dev/tracebuf"

/* open(@path, @flags | O_CLOEXEC): a descriptor, or -1 with errno set. */
int tb_dev_open(const char *path, int flags);

/*
 * What a failed open with errno @err suggests: the missing module or
 * privilege, " (...)" to append to the message, or "".
 */
const char *tb_dev_open_hint(int err);

#endif /* TB_DEV_H */
