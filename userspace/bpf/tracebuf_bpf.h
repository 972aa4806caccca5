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
#define TB_BPF_SWITCH	3	/* sched_switch: @tid/@tgid are the next task */
#define TB_BPF_LOST	4	/* args[0] events lost on this CPU just before */
/* An exiting task's command name: TB_BPF_COMM_ARGS args of its bytes. */
#define TB_BPF_COMM	5
#define TB_BPF_COMM_LEN		16	/* the kernel's TASK_COMM_LEN */
#define TB_BPF_COMM_ARGS	(TB_BPF_COMM_LEN / 8)

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
 * @id:		28-bit FDR function id, TRACEBUF_FDR_ID(space, key)
 * @kind:	TB_BPF_*
 * @nargs:	number of @args that follow: syscall arguments (written as
 *		CallArgument records), the child tid of a fork, or for the
 *		WORK space the work function address (mapped to a key)
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
