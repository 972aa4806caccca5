/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events to inject into /dev/tracebuf (struct tracebuf_event), from the
 * file `tracebuf ctl inject` reads: binary records, or text with one
 * event per line:
 *
 *   exc VECTOR [COUNT]    VECTOR: undef swi pabort dabort irq fiq or 1-7
 *   br TARGET [COUNT]     direct branch
 *   ind TARGET [COUNT]    indirect branch
 *
 * '#' starts a comment; COUNT is the instructions since the previous
 * event.  Every event is checked as the device would check it.
 */
#ifndef TB_XSCALE_INJECT_H
#define TB_XSCALE_INJECT_H

#include <stddef.h>
#include <stdio.h>

#include <linux/types.h>
#include <linux/tracebuf.h>

#include "util/error.h"

struct tb_xs_events {
	struct tracebuf_event *ev;
	size_t n, cap;
};

enum tb_xs_inject_form {
	TB_XS_INJECT_GUESS = -1,	/* text unless the first byte is a control byte */
	TB_XS_INJECT_BINARY = 0,
	TB_XS_INJECT_TEXT = 1,
};

/*
 * Parse @len bytes at @data in @form into @out (empty at the call).
 * Returns 0, -EINVAL with @err set ("NAME:LINE: what" for text, @name
 * being the file's name in messages, err->offset the byte offset), or
 * -ENOMEM.  Release @out with tb_xs_inject_free() in every case.
 */
int tb_xs_inject_parse(const char *name, const void *data, size_t len,
		       enum tb_xs_inject_form form, struct tb_xs_events *out,
		       struct tb_error *err);

/*
 * The same for everything @in holds (a file or stdin); also -EIO with
 * @err set ("error reading NAME: ...") when reading fails.
 */
int tb_xs_inject_read(FILE *in, const char *name, enum tb_xs_inject_form form,
		      struct tb_xs_events *out, struct tb_error *err);

void tb_xs_inject_free(struct tb_xs_events *e);

#endif /* TB_XSCALE_INJECT_H */
