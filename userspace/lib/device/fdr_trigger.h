/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trigger conditions as text (tracebuf record --trigger COND), parsed into
 * struct tracebuf_fdr_trig_cond:
 *
 *   CLASS>DURATION[:WHICH]   a call ran longer than DURATION
 *                            CLASS: syscall, irq, softirq, work
 *                            DURATION: a number with us, ms or s (5ms)
 *                            WHICH: syscall name or number, IRQ number,
 *                            softirq name (NET_RX) or vector, work key
 *   syscall=ERROR[:WHICH]    a syscall returned -ERROR (ENOMEM or 12)
 *   marker:PREFIX            a user marker begins with PREFIX
 *   oops                     the kernel oopsed
 *   warn                     the kernel printed a WARNING
 *   snapshot                 TRACEBUF_FDR_IOC_SNAPSHOT was called
 *
 * Errors name the part of the text that is wrong.
 */
#ifndef TB_FDR_TRIGGER_H
#define TB_FDR_TRIGGER_H

#include <stddef.h>
#include <stdint.h>

#include <linux/tracebuf.h>

#include "format/fdr_syscalls.h"
#include "util/error.h"

/*
 * @sys (may be NULL) names syscalls for WHICH.  Returns 0, or -1 with
 * @err->msg saying which part of @s is wrong.
 */
int tb_fdr_trigger_parse(const char *s, const struct tb_fdr_syscalls *sys,
			 struct tracebuf_fdr_trig_cond *c, struct tb_error *err);

/* A duration: a number with us, ms or s; 0 or -1 (@us untouched). */
int tb_fdr_trigger_parse_us(const char *s, uint64_t *us);

#endif /* TB_FDR_TRIGGER_H */
