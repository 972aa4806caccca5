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

#define TB_BPF_MAX_ARGS	6

/*
 * The FDR function id layout of uapi/linux/tracebuf.h, which the BPF side
 * cannot include next to vmlinux.h.  The collector includes that header
 * first, and the assertions below tie each copy to its original.
 */
#define TB_BPF_ID_SHIFT		24
#define TB_BPF_ID_KEY_MASK	0xffffffU
#define TB_BPF_ID(space, key) \
	(((space) << TB_BPF_ID_SHIFT) | ((__u32)(key) & TB_BPF_ID_KEY_MASK))
#define TB_BPF_SPACE_SYSCALL	1
#define TB_BPF_SPACE_IRQ	2
#define TB_BPF_SPACE_SOFTIRQ	3
#define TB_BPF_SPACE_WORK	4
#define TB_BPF_SPACE_FAULT	5
#define TB_BPF_SPACE_TASK	6
#define TB_BPF_SPACE_KFUNC	7	/* key: index in the -f list */
#define TB_BPF_KEY_OTHER	0xffffffU	/* a syscall number out of range */
#define TB_BPF_KEY_COMPAT	0x800000U	/* a 32-bit compat syscall */

#ifdef _UAPI_LINUX_TRACEBUF_H
_Static_assert(TB_BPF_ID(TB_BPF_SPACE_TASK, 0x123456) ==
	       TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_TASK, 0x123456) &&
	       TB_BPF_ID_SHIFT == TRACEBUF_FDR_ID_SPACE_SHIFT &&
	       TB_BPF_ID_KEY_MASK == TRACEBUF_FDR_ID_KEY_MASK,
	       "FDR id layout differs from uapi/linux/tracebuf.h");
_Static_assert(TB_BPF_SPACE_SYSCALL == TRACEBUF_FDR_SPACE_SYSCALL &&
	       TB_BPF_SPACE_IRQ == TRACEBUF_FDR_SPACE_IRQ &&
	       TB_BPF_SPACE_SOFTIRQ == TRACEBUF_FDR_SPACE_SOFTIRQ &&
	       TB_BPF_SPACE_WORK == TRACEBUF_FDR_SPACE_WORK &&
	       TB_BPF_SPACE_FAULT == TRACEBUF_FDR_SPACE_FAULT &&
	       TB_BPF_SPACE_TASK == TRACEBUF_FDR_SPACE_TASK &&
	       TB_BPF_SPACE_KFUNC == TRACEBUF_FDR_SPACE_KFUNC,
	       "FDR id spaces differ from uapi/linux/tracebuf.h");
_Static_assert(TB_BPF_KEY_OTHER == TRACEBUF_FDR_KEY_OTHER &&
	       TB_BPF_KEY_COMPAT == TRACEBUF_FDR_KEY_COMPAT,
	       "FDR keys differ from uapi/linux/tracebuf.h");
#endif

/*
 * Drop counters, one per FDR id space (TRACEBUF_FDR_SPACE_*), index 0 for
 * switch records; a per-CPU array so that counting needs no shared line.
 */
#define TB_BPF_NR_COUNTERS	8
#ifdef _UAPI_LINUX_TRACEBUF_H
_Static_assert(TB_BPF_NR_COUNTERS > TRACEBUF_FDR_SPACE_KFUNC,
	       "a drop counter per FDR id space");
#endif

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
