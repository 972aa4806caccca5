/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The XRay FDR files tracebuf writes: LLVM's flight data recorder format,
 * version 5, as /dev/tracebuf_fdr streams it, as the BPF collector and the
 * converters write it, and as llvm-xray reads it; and what tracebuf puts
 * in it (function ids, event classes, marker texts).
 *
 * The one definition of the wire format: the module (driver/fdr/ring/record.h),
 * the library (userspace/lib/fdr_records.h) and the BPF program
 * (userspace/bpf/tracebuf_bpf.h) all build on these constants.  Constants
 * and macros only, no types and no includes, so that a BPF program built
 * against vmlinux.h can include it too.  Documentation/formats.rst
 * describes the format; uapi/linux/tracebuf.h (which includes this header)
 * the device.
 *
 * All fields are little-endian and unaligned: the format has no alignment.
 */
#ifndef _UAPI_LINUX_TRACEBUF_FDR_H
#define _UAPI_LINUX_TRACEBUF_FDR_H

/* ---------------------------------------------------------- file header */

/*
 * 32 bytes: u16 version, u16 type, u32 flags, u64 cycle_frequency (the
 * unit of every time in the file), u64 buffer size (for XRay's readers of
 * FDR version 1, which cut a file into buffers of this size; tracebuf
 * writes 0 or the size of its blocks' buffers), then 8 bytes of zero.
 */
#define TRACEBUF_FDR_VERSION		5
#define TRACEBUF_FDR_FILE_TYPE		1	/* FDR (0 is XRay's basic log) */
#define TRACEBUF_FDR_HEADER_SIZE	32
#define TRACEBUF_FDR_HDR_VERSION	0	/* offsets in the header */
#define TRACEBUF_FDR_HDR_TYPE		2
#define TRACEBUF_FDR_HDR_FLAGS		4
#define TRACEBUF_FDR_HDR_FREQUENCY	8
#define TRACEBUF_FDR_HDR_BUFFER_SIZE	16
/* Header flags: tracebuf's clocks are constant-rate and run in idle. */
#define TRACEBUF_FDR_HDR_CONSTANT_TSC	(1U << 0)
#define TRACEBUF_FDR_HDR_NONSTOP_TSC	(1U << 1)

/* -------------------------------------------------------------- records */

/*
 * Two sizes of record, told apart by bit 0 of byte 0.  A metadata record
 * is 16 bytes: byte 0 is TRACEBUF_FDR_META_BYTE(kind), its fields follow
 * at the offsets below, the rest is zero; a CustomEventMarker's or
 * TypedEventMarker's payload follows the record.  A function record is 8
 * bytes: a u32 TRACEBUF_FDR_FUNC_WORD(id, type), then a u32 time delta
 * from the previous record.
 */
#define TRACEBUF_FDR_META_SIZE		16
#define TRACEBUF_FDR_FUNC_SIZE		8
#define TRACEBUF_FDR_META_BYTE(kind)	(((kind) << 1) | 1)
#define TRACEBUF_FDR_FUNC_WORD(id, type)	(((id) << 4) | ((type) << 1))
#define TRACEBUF_FDR_FUNC_DELTA		4	/* the function record's delta */
#define TRACEBUF_FDR_FUNC_ID_MAX	0x0fffffffU

/* Metadata kinds, and each one's fields: offset (size) from byte 0. */
#define TRACEBUF_FDR_NEW_BUFFER		0	/* 1 (4): tid */
#define TRACEBUF_FDR_END_OF_BUFFER	1	/* versions 1-2 only */
#define TRACEBUF_FDR_NEW_CPU		2	/* 1 (2): cpu, 3 (8): time */
#define TRACEBUF_FDR_TSC_WRAP		3	/* 1 (8): time */
#define TRACEBUF_FDR_WALLCLOCK		4	/* 1 (8): s, 9 (4): us */
#define TRACEBUF_FDR_CUSTOM		5	/* 1 (4): size, 5 (4): delta */
#define TRACEBUF_FDR_CALL_ARG		6	/* 1 (8): argument */
#define TRACEBUF_FDR_BUFFER_EXTENTS	7	/* 1 (8): bytes after it */
#define TRACEBUF_FDR_TYPED		8	/* 1 (4): size, 5 (4): delta,
						 * 9 (2): type
						 */
#define TRACEBUF_FDR_PID		9	/* 1 (4): pid */
#define TRACEBUF_FDR_META_KINDS		10

#define TRACEBUF_FDR_FIELD		1	/* every kind's first field */
#define TRACEBUF_FDR_NEW_CPU_TIME	3
#define TRACEBUF_FDR_WALLCLOCK_USEC	9
#define TRACEBUF_FDR_EVENT_DELTA	5	/* CUSTOM and TYPED */
#define TRACEBUF_FDR_TYPED_TYPE		9

/* Function record types. */
#define TRACEBUF_FDR_ENTER		0
#define TRACEBUF_FDR_EXIT		1
#define TRACEBUF_FDR_TAIL_EXIT		2
#define TRACEBUF_FDR_ENTER_ARGS		3	/* CALL_ARG records follow */

/*
 * A block, as tracebuf writes them: BufferExtents, NewBuffer(tid),
 * WallClockTime, PIDEntry(tgid), NewCPUId(cpu, time), then the records of
 * one task on one CPU; BufferExtents counts the bytes after itself.
 */
#define TRACEBUF_FDR_BLOCK_HDR_SIZE	(5 * TRACEBUF_FDR_META_SIZE)

/* ---------------------------------------------------------- event classes */

/*
 * The kernel's events are recorded by class (tracebuf_fdr_config.classes,
 * tracebuf bpf's -e).  Bit n of the mask is class n.
 */
#define TRACEBUF_FDR_SYSCALL	(1U << 0) /* raw_syscalls sys_enter/exit */
#define TRACEBUF_FDR_IRQ	(1U << 1) /* irq_handler_entry/exit */
#define TRACEBUF_FDR_SOFTIRQ	(1U << 2) /* softirq_entry/exit */
#define TRACEBUF_FDR_WORKQUEUE	(1U << 3) /* workqueue_execute_start/end */
#define TRACEBUF_FDR_FAULT	(1U << 4) /* page_fault_user/kernel */
#define TRACEBUF_FDR_SCHED	(1U << 5) /* sched_switch, wakeups, fork, exit */
#define TRACEBUF_FDR_MARKER	(1U << 6) /* user markers written to the fd */
#define TRACEBUF_FDR_ALL	0x7fU
#define TRACEBUF_FDR_CLASSES	7

/* ----------------------------------------------------------- function ids */

/*
 * Function ids: 28 bits, the top 4 are the id space, the low 24 the key
 * within it.  Documentation/fdr.rst lists the keys of each space.
 */
#define TRACEBUF_FDR_ID_SPACE_SHIFT	24
#define TRACEBUF_FDR_ID_KEY_MASK	0xffffffU
#define TRACEBUF_FDR_ID(space, key) \
	(((space) << TRACEBUF_FDR_ID_SPACE_SHIFT) | ((key) & TRACEBUF_FDR_ID_KEY_MASK))
#define TRACEBUF_FDR_ID_SPACE(id)	(((id) >> TRACEBUF_FDR_ID_SPACE_SHIFT) & 0xf)
#define TRACEBUF_FDR_ID_KEY(id)		((id) & TRACEBUF_FDR_ID_KEY_MASK)
#define TRACEBUF_FDR_SPACE_SYSCALL	1 /* key: syscall number */
#define TRACEBUF_FDR_SPACE_IRQ		2 /* key: IRQ number */
#define TRACEBUF_FDR_SPACE_SOFTIRQ	3 /* key: softirq vector */
#define TRACEBUF_FDR_SPACE_WORK		4 /* key: index in the work-function table */
#define TRACEBUF_FDR_SPACE_FAULT	5 /* key: 0 user, 1 kernel */
#define TRACEBUF_FDR_SPACE_TASK		6 /* key: 0 fork, 1 exit */
#define TRACEBUF_FDR_SPACE_KFUNC	7 /* key: index in the KFUNCS list */
#define TRACEBUF_FDR_SPACES		8 /* one more than the largest */
/*
 * The id space of each class's events, indexed by class number (the bit
 * of TRACEBUF_FDR_SYSCALL and the others): the sched class's task events
 * are SPACE_TASK, the marker class has none (0).
 */
#define TRACEBUF_FDR_CLASS_SPACES { \
	TRACEBUF_FDR_SPACE_SYSCALL, TRACEBUF_FDR_SPACE_IRQ, \
	TRACEBUF_FDR_SPACE_SOFTIRQ, TRACEBUF_FDR_SPACE_WORK, \
	TRACEBUF_FDR_SPACE_FAULT, TRACEBUF_FDR_SPACE_TASK, 0 }
/* Key for values that do not fit (negative syscall number, full table). */
#define TRACEBUF_FDR_KEY_OTHER		TRACEBUF_FDR_ID_KEY_MASK
/* Syscall key bit of a 32-bit compat syscall (x86: int 0x80). */
#define TRACEBUF_FDR_KEY_COMPAT		0x800000U
/*
 * Names of the softirq vectors, the keys of TRACEBUF_FDR_SPACE_SOFTIRQ, as
 * the kernel's softirq_to_name[] (which modules cannot use): an
 * initializer for an array indexed by vector.
 */
#define TRACEBUF_FDR_SOFTIRQ_NAMES { \
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", \
	"SCHED", "HRTIMER", "RCU" }

/*
 * Names of the keys of TRACEBUF_FDR_SPACE_FAULT and TRACEBUF_FDR_SPACE_TASK,
 * as TRACEBUF_FDR_IOC_NAMES gives them: initializers for arrays indexed by
 * key.
 */
#define TRACEBUF_FDR_FAULT_NAMES { "user", "kernel" }
#define TRACEBUF_FDR_TASK_NAMES { "fork", "exit" }

/*
 * Tid of the idle task of CPU n in NewBuffer records: idle tasks all have
 * pid 0, but each runs on one CPU only, so each gets its own thread.
 */
#define TRACEBUF_FDR_IDLE_TID(cpu)	(0x40000000 + (cpu))

/* ------------------------------------------------------------ typed events */

/*
 * What the trace knows beyond calls: TypedEventMarker records (kind
 * TRACEBUF_FDR_TYPED) whose u16 type is one of these, payload fields at
 * the offsets given (little-endian, unaligned).  llvm-xray reads them as
 * "typed-event" records and leaves them out of account, stack and graph.
 * A payload may grow: readers take the fields they know and ignore bytes
 * past them, and ignore types they do not know.  A payload shorter than
 * its type's size is malformed.  Tids are those of NewBuffer records
 * (TRACEBUF_FDR_IDLE_TID() for idle tasks).
 *
 * SWITCH (sched class): the CPU switched from prev to next; the first
 * record of next's block, at the time of the switch.
 */
#define TRACEBUF_FDR_TYPED_SWITCH	1
#define TRACEBUF_FDR_SWITCH_PREV_TID	0	/* s32 */
#define TRACEBUF_FDR_SWITCH_NEXT_TID	4	/* s32 */
#define TRACEBUF_FDR_SWITCH_PREV_PRIO	8	/* s16, the kernel's prio */
#define TRACEBUF_FDR_SWITCH_NEXT_PRIO	10	/* s16 */
#define TRACEBUF_FDR_SWITCH_PREV_STATE	12	/* u8, TRACEBUF_FDR_STATE_* */
#define TRACEBUF_FDR_SWITCH_SIZE	13

/*
 * The state prev left the CPU in, from sched_switch's prev_state: running
 * (preempted, or yielded while runnable), sleeping (S), uninterruptible
 * (D), idle (TASK_IDLE: a kernel thread waiting for work, D without
 * load), stopped or traced (T, t), dead (X, Z: its last switch), other.
 */
#define TRACEBUF_FDR_STATE_RUNNING	0
#define TRACEBUF_FDR_STATE_SLEEPING	1
#define TRACEBUF_FDR_STATE_UNINTERRUPTIBLE 2
#define TRACEBUF_FDR_STATE_IDLE		3
#define TRACEBUF_FDR_STATE_STOPPED	4
#define TRACEBUF_FDR_STATE_DEAD		5
#define TRACEBUF_FDR_STATE_OTHER	6
#define TRACEBUF_FDR_STATES		7
/* Their letters, as ps and perf sched print them: indexed by state. */
#define TRACEBUF_FDR_STATE_LETTERS	"RSDITX?"

/*
 * WAKEUP (sched class): sched_wakeup or sched_wakeup_new made a task
 * runnable; in the block of the task running where the tracepoint fired,
 * at the time of the wake-up: the waker, or the task an interrupt's
 * wake-up interrupted, or, for a remote wake-up the kernel queues to the
 * target CPU, whatever task that CPU was running when the IPI came (so
 * that block's task need not be the waker).
 */
#define TRACEBUF_FDR_TYPED_WAKEUP	2
#define TRACEBUF_FDR_WAKEUP_TID		0	/* s32: the task woken */
#define TRACEBUF_FDR_WAKEUP_CPU		4	/* u16: the CPU it will run on */
#define TRACEBUF_FDR_WAKEUP_PRIO	6	/* s16 */
#define TRACEBUF_FDR_WAKEUP_FLAGS	8	/* u8: TRACEBUF_FDR_WAKEUP_* */
#define TRACEBUF_FDR_WAKEUP_SIZE	9
#define TRACEBUF_FDR_WAKEUP_NEW		(1U << 0)	/* sched_wakeup_new */

/*
 * RET (syscall class): the return value of the system call whose exit
 * record comes just before it in the same block, written when it is an
 * error (-4095 to -1); the function id repeats the exit's, so that a
 * reader never pins a value on the wrong call.
 */
#define TRACEBUF_FDR_TYPED_RET		3
#define TRACEBUF_FDR_RET_ID		0	/* u32: the exit's function id */
#define TRACEBUF_FDR_RET_VALUE		4	/* s64 */
#define TRACEBUF_FDR_RET_SIZE		12
#define TRACEBUF_FDR_RET_ERRNO_MAX	4095	/* -4095..-1 are errors */

/*
 * The trace's own description, so that it reads alone: the collectors
 * (tracebuf record, bpf, crash) write one block of these first, thread
 * TRACEBUF_FDR_META_TID, before every event.  Each payload is text lines;
 * a long text is cut at line ends into several events of its type, which
 * readers join in order.
 *   META_CAPTURE: "KEY VALUE" lines (capture id, clock, classes...), as
 *		Documentation/formats.rst lists them;
 *   META_NAMES:   the names file ("ID NAME" lines, as OUTPUT.names);
 *   META_TASKS:   the tasks file ("TID PID COMM" lines, as OUTPUT.tasks).
 */
#define TRACEBUF_FDR_TYPED_META_CAPTURE	4
#define TRACEBUF_FDR_TYPED_META_NAMES	5
#define TRACEBUF_FDR_TYPED_META_TASKS	6
#define TRACEBUF_FDR_META_TID		0x7ffffffe
#define TRACEBUF_FDR_META_CHUNK		32768	/* largest payload written */

/* ------------------------------------------------------------ marker texts */

/*
 * Loss report: where a CPU lost events, its stream holds a
 * CustomEventMarker whose data is this text (no NUL), for example
 * "tracebuf: lost 12 events".  Readers match the prefix.
 */
#define TRACEBUF_FDR_LOST_PREFIX	"tracebuf: lost "
#define TRACEBUF_FDR_LOST_FMT		TRACEBUF_FDR_LOST_PREFIX "%llu events"

/*
 * Command name: with the task class (TRACEBUF_FDR_SCHED), a task that
 * exits writes, after its exit event and in its own block, a
 * CustomEventMarker whose data is this prefix and its command name (up
 * to 15 bytes, no NUL), for example "tracebuf: comm make".  Readers name
 * the block's thread with it: a task that began and ended while the
 * capture ran is named, which no look at /proc before or after can do.
 */
#define TRACEBUF_FDR_COMM_PREFIX	"tracebuf: comm "

#endif /* _UAPI_LINUX_TRACEBUF_FDR_H */
