/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records that the tracebuf-bpf programs put into the BPF ring buffer.
 * Shared by the BPF side (after vmlinux.h) and the collector (after
 * <linux/types.h>).
 *
 * The ring buffer is one MPSC buffer for all CPUs, so a record must say
 * which CPU and task it belongs to.  Each record carries an absolute
 * bpf_ktime_get_ns() timestamp instead of an FDR 32-bit delta: a program
 * that interrupts another one on the same CPU (an IRQ during sys_enter)
 * would otherwise break the delta chain.  The collector turns the records
 * into FDR v5 blocks (deltas, TSCWrap, block headers); see
 * Documentation/bpf-collector.rst.
 */
#ifndef TRACEBUF_BPF_H
#define TRACEBUF_BPF_H

/* tb_bpf_event.kind */
#define TB_BPF_ENTER	0	/* FDR function entry */
#define TB_BPF_EXIT	1	/* FDR function exit */
#define TB_BPF_POINT	2	/* instant event: entry and exit at @ts */
/*
 * sched_switch: @tid/@tgid are the next task.  With the sched class,
 * TB_BPF_SWITCH_ARGS args: TB_BPF_SWITCH_TASKS and TB_BPF_SWITCH_STATE.
 */
#define TB_BPF_SWITCH	3
#define TB_BPF_LOST	4	/* args[0] events lost on this CPU just before */
/* An exiting task's command name: TB_BPF_COMM_ARGS args of its bytes. */
#define TB_BPF_COMM	5
#define TB_BPF_COMM_LEN		16	/* the kernel's TASK_COMM_LEN */
#define TB_BPF_COMM_ARGS	(TB_BPF_COMM_LEN / 8)
/*
 * sched_wakeup or sched_wakeup_new, by the current task: args[0] is
 * TB_BPF_WAKEUP_ARG(), @id the TRACEBUF_FDR_WAKEUP_* flags.
 */
#define TB_BPF_WAKEUP	6

/*
 * A switch's args (sched class): args[0] the previous task's pid and both
 * prios, args[1] the raw prev_state the tracepoint passes (the kernel's
 * TASK_* bits, which no UAPI header defines) and whether prev was
 * preempted.  The collector maps them to TRACEBUF_FDR_STATE_*: the BPF
 * side only copies, the cheapest place and the one a host test reaches.
 */
#define TB_BPF_SWITCH_ARGS	2
#define TB_BPF_SWITCH_TASKS(prev_pid, prev_prio, next_prio) \
	((__u64)(__u32)(prev_pid) | (__u64)(__u16)(prev_prio) << 32 | \
	 (__u64)(__u16)(next_prio) << 48)
#define TB_BPF_SWITCH_STATE(prev_state, preempt) \
	((__u64)(__u32)(prev_state) | (__u64)!!(preempt) << 32)
#define TB_BPF_WAKEUP_ARG(pid, cpu, prio) \
	((__u64)(__u32)(pid) | (__u64)(__u16)(cpu) << 32 | \
	 (__u64)(__u16)(prio) << 48)

#define TB_BPF_MAX_ARGS	6
#ifdef _UAPI_LINUX_TRACEBUF_H
_Static_assert(TB_BPF_MAX_ARGS == TRACEBUF_FDR_ARGS_MAX,
	       "the arguments of a syscall entry, as /dev/tracebuf_fdr's");
#endif

/*
 * Function ids, their spaces and keys: the wire format's header, which has
 * no types and so goes with vmlinux.h as well as with <linux/types.h>.
 */
#include <linux/tracebuf_fdr.h>

/*
 * Drop counters, one per FDR id space (TRACEBUF_FDR_SPACE_*), index 0 for
 * switch records; a per-CPU array so that counting needs no shared line.
 */
#define TB_BPF_NR_COUNTERS	TRACEBUF_FDR_SPACES

/**
 * struct tb_bpf_event - one ring buffer record (24 bytes + args)
 * @ts:		bpf_ktime_get_ns() (CLOCK_MONOTONIC, 1 GHz "TSC")
 * @id:		28-bit FDR function id, TRACEBUF_FDR_ID(space, key);
 *		TRACEBUF_FDR_WAKEUP_* flags for TB_BPF_WAKEUP
 * @kind:	TB_BPF_*
 * @nargs:	number of @args that follow: syscall arguments (written as
 *		CallArgument records), the child tid of a fork, for the
 *		WORK space the work function address (mapped to a key), for
 *		a syscall's TB_BPF_EXIT its return value when an error
 *		(-4095..-1: a RET typed event follows the exit)
 * @cpu:	CPU the event happened on
 * @tid:	current task (kernel pid), or next task for TB_BPF_SWITCH
 * @tgid:	its thread group (user-visible pid)
 */
struct tb_bpf_event {
	__u64 ts;
	__u32 id;
	__u8 kind;
	__u8 nargs;
	__u16 cpu;
	__u32 tid;
	__u32 tgid;
	__u64 args[];
};

#endif /* TRACEBUF_BPF_H */
