/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/tracebuf_fdr from a tool: the capture options that `tracebuf
 * record` and `tracebuf fdr config` share, the names and stats ioctls, and
 * the counters line both print.
 */
#ifndef TB_FDR_DEV_H
#define TB_FDR_DEV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/tracebuf.h>

#include "cli/opt.h"

#define TB_FDR_DEV_PATH	"/dev/tracebuf_fdr"

/*
 * What EPERM from TRACEBUF_FDR_IOC_KFUNCS or from arming a WARN trigger
 * means: the device was opened without CAP_PERFMON and the module does
 * not grant kernel probes to the tracing group (driver/core/uabi.c).
 */
#define TB_FDR_KPROBES_EPERM \
	"arming kernel probes needs CAP_PERFMON or CAP_SYS_ADMIN; the tracing group gets them with the module parameter group_kprobes=Y (tracebuf(4))"

/* What `tracebuf record` records when given no option. */
#define TB_FDR_CONFIG_DEFAULT {						\
	.classes = TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |		\
		   TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED,		\
	.mode = TRACEBUF_FDR_MODE_STREAM,				\
	.buf_size = TRACEBUF_FDR_BUF_DEFAULT,				\
}

/*
 * The capture options of `tracebuf record` and `tracebuf fdr config`
 * (cli/opt.h entries): -e/--events, --mode (-m, its old spelling: -m is
 * the name map everywhere), -s/--size, -a/--args and -w/--wakeup: the
 * TB_OPT_EVENTS, TB_FDR_OPT_MODE(_OLD), TB_OPT_SIZE, TB_FDR_OPT_ARGS and
 * TB_FDR_OPT_WAKEUP entries.  tb_fdr_dev_config_opt() applies option @id with @arg to @cfg:
 * returns 1 if @id is one of them, 0 if not, -EINVAL with @msg (@len
 * bytes) saying what a bad value should be.
 */
#define TB_FDR_ID_MODE		0x1100
#define TB_FDR_MODE_WORDS	"stream flight"
#define TB_FDR_OPT_MODE							\
	.id = TB_FDR_ID_MODE, .name = "mode", .arg = TB_OPT_REQUIRED,	\
	.val = TB_VAL_WORD, .values = TB_FDR_MODE_WORDS
#define TB_FDR_OPT_MODE_OLD						\
	.id = TB_FDR_ID_MODE, .letter = 'm', .arg = TB_OPT_REQUIRED,	\
	.val = TB_VAL_WORD, .values = TB_FDR_MODE_WORDS, .instead = "--mode"
#define TB_FDR_OPT_ARGS							\
	.id = 'a', .letter = 'a', .name = "args", .arg = TB_OPT_REQUIRED, \
	.val = TB_VAL_NUMBER, .values = "0 1 2 3 4 5 6"
#define TB_FDR_OPT_WAKEUP						\
	.id = 'w', .letter = 'w', .name = "wakeup", .arg = TB_OPT_REQUIRED, \
	.val = TB_VAL_SIZE
int tb_fdr_dev_config_opt(struct tracebuf_fdr_config *cfg, int id,
			  const char *arg, char *msg, size_t len);

const char *tb_fdr_dev_mode_name(__u32 mode);

/*
 * The kernel's id list (TRACEBUF_FDR_IOC_NAMES), NUL-terminated, to
 * free(); NULL with errno set if the ioctl or the allocation fails.
 */
char *tb_fdr_dev_names_text(int fd);

/*
 * TRACEBUF_FDR_IOC_STATS; with @cpus, also the per-CPU counters in a
 * malloc()ed array of @st->nr_cpus entries.  0 or -1 with errno set.
 */
int tb_fdr_dev_stats(int fd, struct tracebuf_fdr_stats *st,
		     struct tracebuf_fdr_cpu_stats **cpus);

/*
 * TRACEBUF_FDR_IOC_START for a capture this process owns: until
 * tb_fdr_dev_stop_owned(), its exit stops the capture, also an exit through
 * tool_die() after a failed write.  A recorder that dies must not leave the
 * tracepoints armed and the rings filling with nobody to drain them
 * (`tracebuf record --start` is the way to leave a capture running).
 * *@gen is the capture's number (tracebuf_fdr_stats.gen; 0 from a module
 * without it).  With @cfg, the configuration in force must be @cfg
 * (buf_size 0: any size).  1 when another process configured, or stopped
 * and started, the device in the meantime, so that what would record is
 * not the caller's configuration or capture: the configuration is
 * checked before START (nothing is started), the capture number after
 * it (START counts one capture: a capture that moved by more is
 * stopped).  TB_FDR_START_RACED says so.  0 or -1 with errno set (START
 * failed, or a STATS or GET_CONFIG; a capture started is then stopped
 * at exit).
 */
int tb_fdr_dev_start_owned(int fd, const struct tracebuf_fdr_config *cfg,
			   uint64_t *gen);
#define TB_FDR_START_RACED \
	"another process configured, or stopped and started, the device while this one set up its capture: nothing recorded, and a capture it started is stopped"
/* Stop the capture of tb_fdr_dev_start_owned(): 0 or -1 with errno set. */
int tb_fdr_dev_stop_owned(int fd);
/* The capture is not ours any more (tb_fdr_dev_capture_gone()): leave it be. */
void tb_fdr_dev_disown(void);

/*
 * Has capture @gen (tracebuf_fdr_stats.gen after its START; 0 for a
 * module without it, which only tells whether it still runs) gone from
 * under its reader?  NULL while it runs, else what became of it: another
 * process stopped it, or restarted or reconfigured the device (START or
 * CONFIG), which discarded what was not read yet.  With @running false
 * only a new capture counts (the reader stopped it itself).  While it is
 * still capture @gen, its statistics are left in *@st.
 */
const char *tb_fdr_dev_capture_gone(int fd, uint64_t gen, bool running,
				    struct tracebuf_fdr_stats *st);

/* "recorder: written N, dropped N, overwritten N, N bytes committed" */
void tb_fdr_dev_print_totals(FILE *f, const struct tracebuf_fdr_stats *st);

#endif /* TB_FDR_DEV_H */
