/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf record --trigger: the daemon mode of cmd_record.c, in a file of
 * its own.  Records in flight mode, and each time the kernel trigger fires
 * writes the frozen recording to a file of its own with its companions,
 * keeps the newest few, and arms the trigger again.
 */
#ifndef TB_RECORD_TRIGGER_H
#define TB_RECORD_TRIGGER_H

#include <signal.h>
#include <stdbool.h>

#include <linux/tracebuf.h>

#include "collect/collect.h"
#include "convert/fdr_post.h"

struct record_trigger {
	struct tracebuf_fdr_trigger trig;	/* conditions and window */
	unsigned int keep;		/* newest files kept, >= 1 */
	const char *out;		/* OUT: files OUT-NNNNNN.fdr */
	double duration;		/* seconds, 0: until a signal */
	struct tb_collect_out opts;	/* record's -r -N -J -q */
	struct tb_fdr_syscalls syscalls;
	uint32_t classes;		/* recorded, for the META block */
	const char *cmdline;		/* the command line, for it too */
};

/* The forms of COND, for completion. */
#define RECORD_TRIGGER_WORDS \
	"syscall> irq> softirq> work> syscall= marker: oops warn snapshot"

/* --trigger's help text (cmd_record's option table). */
#define RECORD_TRIGGER_HELP \
	"daemon mode (flight): each time COND holds, write the frozen " \
	"recording to OUT-NNNNNN.fdr (OUT is -o without .fdr) with its " \
	".names, .map and .tfile, then arm again; repeat for up to 8 " \
	"conditions, any of which fires.  COND is one of\n" \
	"  CLASS>DURATION[:WHICH]  CLASS syscall, irq,\n" \
	"    softirq or work ran longer (5ms, 250us, 2s);\n" \
	"    WHICH: syscall name or number, IRQ number,\n" \
	"    softirq name or vector, work key\n" \
	"  syscall=ERROR[:WHICH]  returned -ERROR (ENOMEM)\n" \
	"  marker:PREFIX  a user marker begins with PREFIX\n" \
	"  oops  the kernel oopsed\n" \
	"  warn  the kernel printed a WARNING\n" \
	"  snapshot  tracebuf fdr snapshot was called\n" \
	"(a panic is recovered by tracebuf crash instead)"

/* Runs until a signal sets *@stop or @rt->duration passes: exit status. */
int record_trigger_run(int fd, const struct tracebuf_fdr_config *cfg,
		       const struct record_trigger *rt,
		       volatile sig_atomic_t *stop);

#endif /* TB_RECORD_TRIGGER_H */
