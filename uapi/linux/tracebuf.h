/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tracebuf: XScale trace buffer device and kernel XRay FDR flight recorder.
 *
 * This header is the whole user ABI of the tracebuf module.  It covers two
 * character devices:
 *
 *   /dev/tracebuf      the Intel XScale trace buffer (hardware or emulated)
 *   /dev/tracebuf_fdr  the per-CPU kernel flight data recorder (XRay FDR v5)
 *
 * Versioning: every ioctl argument is a struct whose size is encoded in the
 * ioctl number.  The driver accepts any size for a known command number and
 * direction: input structs are read with copy_struct_from_user() (unknown
 * trailing bytes must be zero, else E2BIG), output structs are copied out up
 * to the caller's size.  Adding a field at the end of a struct is therefore
 * compatible both ways.  All structs consist of __u32/__u64 fields only, are
 * free of implicit padding and are identical for 32- and 64-bit callers.
 *
 * See Documentation/ioctl.rst for the reference and the errors returned.
 */
#ifndef _UAPI_LINUX_TRACEBUF_H
#define _UAPI_LINUX_TRACEBUF_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include <linux/tracebuf_fdr.h>

#define TRACEBUF_IOC_MAGIC	0xB8

/* ABI version reported by TRACEBUF_IOC_STATUS and TRACEBUF_FDR_IOC_STATS. */
#define TRACEBUF_ABI_VERSION	1

/* ------------------------------------------------------------------------ */
/* /dev/tracebuf: the XScale trace buffer                                   */
/* ------------------------------------------------------------------------ */

/* Trace modes; values equal the DCSR.M bit of the hardware. */
#define TRACEBUF_MODE_WRAP	0	/* wrap-around: overwrite the oldest */
#define TRACEBUF_MODE_FILL_ONCE	1	/* stop when full, signal "full" */

/* Backends, as reported in tracebuf_status.backend. */
#define TRACEBUF_BACKEND_EMULATED	0
#define TRACEBUF_BACKEND_XSCALE		1

/* tracebuf_status.flags */
#define TRACEBUF_STATUS_ENABLED		(1U << 0) /* capture is on */
#define TRACEBUF_STATUS_FULL		(1U << 1) /* fill-once buffer is full */
#define TRACEBUF_STATUS_WRAPPED		(1U << 2) /* wrap buffer overwrote data */
#define TRACEBUF_STATUS_COUNTS		(1U << 3) /* instruction counts are real */
#define TRACEBUF_STATUS_CHAINED		(1U << 4) /* chained capture is armed */

/*
 * Kernel event sources for the emulated backend (tracebuf_sources.mask).
 * Each maps a kernel event onto the message the hardware would record:
 */
#define TRACEBUF_SRC_SYSCALL	(1U << 0) /* syscall entry: SWI exception */
#define TRACEBUF_SRC_IRQ	(1U << 1) /* hard IRQ: IRQ exception */
#define TRACEBUF_SRC_FAULT	(1U << 2) /* page fault: data abort */
#define TRACEBUF_SRC_RET_USER	(1U << 3) /* syscall return: indirect branch */
#define TRACEBUF_SRC_SWITCH	(1U << 4) /* context switch: indirect branch */
#define TRACEBUF_SRC_ALL	0x1fU

/* tracebuf_sources.cpu: feed from every CPU. */
#define TRACEBUF_CPU_ALL	0xffffffffU

/**
 * struct tracebuf_status - state of the trace buffer (TRACEBUF_IOC_STATUS)
 * @abi_version:	TRACEBUF_ABI_VERSION
 * @backend:		TRACEBUF_BACKEND_*
 * @mode:		TRACEBUF_MODE_*
 * @flags:		TRACEBUF_STATUS_*
 * @buf_size:		size of the buffer in bytes (256 on hardware)
 * @sources:		TRACEBUF_SRC_* currently feeding the buffer
 * @bytes_written:	bytes written into the buffer since the last clear
 * @messages_dropped:	messages not recorded: fill-once buffer full, or a
 *			writer could not get the buffer (NMI while busy)
 * @chain_saved:	buffers saved by chained capture since it was armed
 * @chain_lost:		full buffers lost because the chain queue was full
 * @chain_queued:	buffers waiting in the chain queue now
 * @chain_depth:	capacity of the chain queue (0: chaining off)
 */
struct tracebuf_status {
	__u32 abi_version;
	__u32 backend;
	__u32 mode;
	__u32 flags;
	__u32 buf_size;
	__u32 sources;
	__u64 bytes_written;
	__u64 messages_dropped;
	__u64 chain_saved;
	__u64 chain_lost;
	__u32 chain_queued;
	__u32 chain_depth;
};

/**
 * struct tracebuf_chkpt - the checkpoint registers
 * @chkpt0:	CHKPT0: target of the newest checkpointed entry
 * @chkpt1:	CHKPT1: target of the previous checkpointed entry
 */
struct tracebuf_chkpt {
	__u32 chkpt0;
	__u32 chkpt1;
};

/**
 * struct tracebuf_sources - kernel events that feed the emulated buffer
 * @mask:	TRACEBUF_SRC_* (0 turns the kernel feed off)
 * @cpu:	CPU whose events are recorded, or TRACEBUF_CPU_ALL
 */
struct tracebuf_sources {
	__u32 mask;
	__u32 cpu;
};

/**
 * struct tracebuf_chain - chained fill-once capture (OpenOCD "fill n")
 * @depth:	queue capacity in buffers, 1..TRACEBUF_CHAIN_MAX and at most
 *		8 MiB of records; 0 disarms (queued records are dropped)
 * @reserved:	must be zero
 *
 * Needs fill-once mode and capture disabled; arming clears the buffer.
 * While armed, read() returns whole records (header + buf_size bytes).
 */
struct tracebuf_chain {
	__u32 depth;
	__u32 reserved;
};

#define TRACEBUF_CHAIN_MAX	1024

/**
 * struct tracebuf_snapshot_req - atomic snapshot (TRACEBUF_IOC_SNAPSHOT)
 * @buf:	user pointer (as __u64) receiving a struct tracebuf_record
 *		header followed by the buffer bytes, oldest first
 * @len:	size of @buf; at least sizeof(struct tracebuf_record) +
 *		status.buf_size, else ENOSPC
 * @flags:	TRACEBUF_SNAP_CLEAR to clear the buffer after copying; the
 *		hardware backend cannot read without clearing and requires
 *		it (EOPNOTSUPP otherwise)
 */
struct tracebuf_snapshot_req {
	__u64 buf;
	__u32 len;
	__u32 flags;
};

#define TRACEBUF_SNAP_CLEAR	(1U << 0)

/*
 * struct tracebuf_record - header of a saved buffer
 *
 * The snapshot ioctl and chained capture (read() while chaining is armed)
 * produce records: this header followed by @buf_size bytes of trace data,
 * oldest byte first.  It is also the on-disk format of snapshot and chain
 * files.  The kernel fills it in CPU byte order; files are little-endian
 * (tracebufctl converts).  The first magic byte 0x54 would be an exception
 * on the unused vector, which the hardware never records, so an unwrapped
 * raw trace never starts with it; after a wrap the oldest bytes can be
 * address bytes of any value, so readers also check version and hdr_size.
 * seq and lost_before are 0 in snapshots; in chained records every full
 * buffer, saved or lost, takes the next seq.
 */
#define TRACEBUF_RECORD_MAGIC	0x52554254U	/* "TBUR" read little-endian */
#define TRACEBUF_RECORD_VERSION	1

#define TRACEBUF_RECORD_FULL	(1U << 0) /* fill-once buffer was full */
#define TRACEBUF_RECORD_WRAPPED	(1U << 1) /* wrap buffer overwrote data */
#define TRACEBUF_RECORD_COUNTS	(1U << 2) /* instruction counts are real */
#define TRACEBUF_RECORD_FILL	(1U << 3) /* captured in fill-once mode */

struct tracebuf_record {
	__u32 magic;
	__u16 version;
	__u16 hdr_size;		/* sizeof(struct tracebuf_record) */
	__u32 chkpt0;
	__u32 chkpt1;
	__u32 flags;		/* TRACEBUF_RECORD_* */
	__u32 buf_size;
	__u64 seq;		/* chain sequence number, from 0 */
	__u64 lost_before;	/* buffers lost between this and the previous */
};

#define TRACEBUF_IOC_STATUS	_IOR(TRACEBUF_IOC_MAGIC, 0x01, struct tracebuf_status)
#define TRACEBUF_IOC_GET_MODE	_IOR(TRACEBUF_IOC_MAGIC, 0x02, __u32)
#define TRACEBUF_IOC_SET_MODE	_IOW(TRACEBUF_IOC_MAGIC, 0x03, __u32)
#define TRACEBUF_IOC_ENABLE	_IO(TRACEBUF_IOC_MAGIC, 0x04)
#define TRACEBUF_IOC_DISABLE	_IO(TRACEBUF_IOC_MAGIC, 0x05)
#define TRACEBUF_IOC_GET_CHKPT	_IOR(TRACEBUF_IOC_MAGIC, 0x06, struct tracebuf_chkpt)
#define TRACEBUF_IOC_SET_CHKPT	_IOW(TRACEBUF_IOC_MAGIC, 0x07, struct tracebuf_chkpt)
#define TRACEBUF_IOC_CLEAR	_IO(TRACEBUF_IOC_MAGIC, 0x08)
#define TRACEBUF_IOC_GET_SOURCES _IOR(TRACEBUF_IOC_MAGIC, 0x09, struct tracebuf_sources)
#define TRACEBUF_IOC_SET_SOURCES _IOW(TRACEBUF_IOC_MAGIC, 0x0a, struct tracebuf_sources)
#define TRACEBUF_IOC_SNAPSHOT	_IOW(TRACEBUF_IOC_MAGIC, 0x0b, struct tracebuf_snapshot_req)
#define TRACEBUF_IOC_SET_CHAIN	_IOW(TRACEBUF_IOC_MAGIC, 0x0c, struct tracebuf_chain)

/*
 * write() to /dev/tracebuf injects events into the emulated backend.  A
 * write is a whole number of these 16-byte records; it is validated as a
 * whole before any record is applied, so a malformed write (short record,
 * unknown kind, bad vector, non-zero reserved field) fails with EINVAL and
 * leaves the buffer exactly as it was.  At most 1 MiB per write; capture
 * must be enabled (EBUSY).  Emulated backend only (EOPNOTSUPP).
 */
#define TRACEBUF_EV_EXCEPTION	1	/* @arg = vector 1-4, 6 or 7 */
#define TRACEBUF_EV_BRANCH	2	/* direct branch, @arg = target */
#define TRACEBUF_EV_INDIRECT	3	/* indirect branch, @arg = target */

/* Vector numbers: bits 4:2 of the exception vector offset. */
#define TRACEBUF_VEC_RESET	0	/* never recorded by the hardware */
#define TRACEBUF_VEC_UNDEF	1
#define TRACEBUF_VEC_SWI	2
#define TRACEBUF_VEC_PABORT	3
#define TRACEBUF_VEC_DABORT	4
#define TRACEBUF_VEC_UNUSED	5	/* never recorded by the hardware */
#define TRACEBUF_VEC_IRQ	6
#define TRACEBUF_VEC_FIQ	7

/**
 * struct tracebuf_event - one injected event
 * @kind:	TRACEBUF_EV_*
 * @arg:	vector (exception) or target address (branches)
 * @icount:	instructions executed since the previous event, not
 *		counting the branch itself; produces roll-over messages
 *		exactly as the hardware does
 * @reserved:	must be zero
 */
struct tracebuf_event {
	__u32 kind;
	__u32 arg;
	__u32 icount;
	__u32 reserved;
};

/* ------------------------------------------------------------------------ */
/* /dev/tracebuf_fdr: the kernel flight data recorder                       */
/* ------------------------------------------------------------------------ */

/*
 * read() returns an LLVM XRay FDR version 5 file: a 32-byte header, then
 * blocks (BufferExtents, NewBuffer, WallClockTime, PIDEntry, NewCPUId,
 * records), each block holding one task's events on one CPU.  Timestamps
 * are in the header's cycle_frequency: the TSC where the kernel trusts it
 * (tsc_khz * 1000), else local_clock() nanoseconds (1000000000).  See
 * Documentation/fdr.rst for the stream and Documentation/ioctl-fdr.rst for
 * the ioctls.
 */

/* Event classes, function ids and marker texts: <linux/tracebuf_fdr.h>. */

/* Recording modes. */
#define TRACEBUF_FDR_MODE_FLIGHT	0 /* overwrite oldest, snapshot on demand */
#define TRACEBUF_FDR_MODE_STREAM	1 /* consume as produced, drop when full */

/* Limits of tracebuf_fdr_config. */
#define TRACEBUF_FDR_BUF_MIN		(64U << 10)
#define TRACEBUF_FDR_BUF_MAX		(64U << 20)
#define TRACEBUF_FDR_BUF_DEFAULT	(1U << 20)
#define TRACEBUF_FDR_PAGES		16 /* sub-buffers per CPU buffer */
#define TRACEBUF_FDR_ARGS_MAX		6
/*
 * Largest streaming wake-up threshold for a buffer of @size bytes: every
 * ring reaches it before it is full, whatever the records.
 */
#define TRACEBUF_FDR_WAKEUP_MAX(size)	((size) / 2)
/* The threshold of tracebuf_fdr_config.wakeup 0: a quarter buffer. */
#define TRACEBUF_FDR_WAKEUP_DEFAULT(size)	((size) / 4)

/* Largest user marker: a longer write() fails with EMSGSIZE. */
#define TRACEBUF_FDR_MARKER_MAX		1024

/**
 * struct tracebuf_fdr_config - capture configuration (TRACEBUF_FDR_IOC_CONFIG)
 * @classes:	TRACEBUF_FDR_* event classes to record
 * @mode:	TRACEBUF_FDR_MODE_*
 * @buf_size:	bytes per CPU, a power of two from TRACEBUF_FDR_BUF_MIN to
 *		TRACEBUF_FDR_BUF_MAX; 0 keeps the current size
 * @nr_args:	syscall arguments recorded as CallArgument records, 0..6
 * @wakeup:	streaming mode: bytes committed on a CPU before poll() and
 *		blocked reads wake up; 0 means the default (a quarter buffer),
 *		at most TRACEBUF_FDR_WAKEUP_MAX(buf_size).  A full ring wakes
 *		its readers whatever the threshold.
 * @reserved:	must be zero
 *
 * Only while stopped (EBUSY otherwise).  Discards the recorded data.
 */
struct tracebuf_fdr_config {
	__u32 classes;
	__u32 mode;
	__u32 buf_size;
	__u32 nr_args;
	__u32 wakeup;
	__u32 reserved;
};

/**
 * struct tracebuf_fdr_stats - exact per-CPU and total counters
 * @abi_version:	TRACEBUF_ABI_VERSION
 * @running:		1 while capturing
 * @nr_cpus:		entries in the per-CPU array @cpus points to
 * @cpu_size:		sizeof(struct tracebuf_fdr_cpu_stats) the caller uses
 * @cpus:		user pointer (as __u64) to an array of @nr_cpus entries,
 *			or 0 for totals only; on return @nr_cpus holds the
 *			number of possible CPUs (nr_cpu_ids), the first
 *			min(in, out) entries are filled and @cpus is kept,
 *			so the struct can be passed again as it is
 * @written:		events recorded, all CPUs (a function record with its
 *			arguments or a marker is one event; the recorder's own
 *			block headers and loss reports are not counted)
 * @dropped:		events not recorded: streaming buffer full, every
 *			page of a flight-recorder buffer held by a snapshot
 *			not yet read, or a nested writer (NMI) while the CPU
 *			was writing
 * @overwritten:	recorded events overwritten in flight-recorder mode
 * @bytes:		bytes committed, block headers included
 * @kfunc_missed:	calls of the TRACEBUF_FDR_IOC_KFUNCS functions recorded
 *			neither at entry nor at exit: more than maxactive in
 *			progress, or a call made by a probe handler (the
 *			recorder itself).  When capture stops they are added
 *			to @dropped of the stopping CPU and reported in its
 *			stream.  (This field and the ones below came with
 *			kernel functions and triggers: a caller passing the
 *			version-1 struct, TRACEBUF_FDR_STATS_SIZE_VER1 bytes,
 *			does not get them.)
 *
 * @trig_state:		TRACEBUF_FDR_TRIG_STATE_*
 * @trig_cond:		index in tracebuf_fdr_trigger.conds of the condition
 *			that fired, when @trig_state is FIRED or FROZEN
 * @trig_fires:		triggers fired since START
 * @trig_after:		events recorded after the last firing condition and
 *			its reason event: the post-trigger window, plus any
 *			write already under way on another CPU at the freeze
 * @trig_frozen:	events not recorded because a trigger had frozen the
 *			rings, from the freeze until they were armed again,
 *			disarmed or stopped, since START: neither in @written
 *			nor in @dropped (the recording ended at the freeze,
 *			nothing in it is missing).  Context switches are not
 *			events and are not counted.  Not in version 2 of the
 *			struct (TRACEBUF_FDR_STATS_SIZE_VER2 bytes)
 * @gen:		capture number, as in the mapping's control page
 *			(tracebuf_fdr_mmap_page.gen): it changes when START
 *			or CONFIG discards the data, so a reader that saw
 *			another number at its START is reading another
 *			capture.  Never 0 for a module that has it; not in
 *			version 3 of the struct (TRACEBUF_FDR_STATS_SIZE_VER3
 *			bytes)
 *
 * Counters are reset by TRACEBUF_FDR_IOC_START and by a configuration.
 */
struct tracebuf_fdr_stats {
	__u32 abi_version;
	__u32 running;
	__u32 nr_cpus;
	__u32 cpu_size;
	__u64 cpus;
	__u64 written;
	__u64 dropped;
	__u64 overwritten;
	__u64 bytes;
	__u64 kfunc_missed;
	__u32 trig_state;
	__u32 trig_cond;
	__u64 trig_fires;
	__u64 trig_after;
	__u64 trig_frozen;
	__u64 gen;
};

/* Size of struct tracebuf_fdr_stats before triggers (version 1). */
#define TRACEBUF_FDR_STATS_SIZE_VER1	56
/* Size before @trig_frozen (version 2). */
#define TRACEBUF_FDR_STATS_SIZE_VER2	88
/* Size before @gen (version 3). */
#define TRACEBUF_FDR_STATS_SIZE_VER3	96

struct tracebuf_fdr_cpu_stats {
	__u64 written;
	__u64 dropped;
	__u64 overwritten;
	__u64 bytes;
};

/**
 * struct tracebuf_fdr_names - id-to-name table (TRACEBUF_FDR_IOC_NAMES)
 * @buf:	user pointer (as __u64) receiving text, or 0 to ask the size
 * @len:	size of @buf
 * @size:	on return: size of the whole text; if larger than @len only
 *		the first @len bytes were copied, retry with a larger buffer
 *
 * The text has one line per known id: "<id in hex> <space> <name>\n", for
 * example "2000004 irq ttyS0".  Syscall names are not listed: syscall
 * numbers are ABI, tools name them from the UAPI headers.
 */
struct tracebuf_fdr_names {
	__u64 buf;
	__u32 len;
	__u32 size;
};

/*
 * Kernel functions recorded as XRay functions (TRACEBUF_FDR_IOC_KFUNCS):
 * at most TRACEBUF_FDR_KFUNC_MAX functions, names of at most
 * TRACEBUF_FDR_KFUNC_NAME_MAX - 1 characters, at most
 * TRACEBUF_FDR_KFUNC_ACTIVE_MAX calls of one function in progress at once.
 */
#define TRACEBUF_FDR_KFUNC_MAX		512
#define TRACEBUF_FDR_KFUNC_NAME_MAX	128
#define TRACEBUF_FDR_KFUNC_ACTIVE_MAX	1024
#define TRACEBUF_FDR_KFUNC_ACTIVE_DEFAULT 64
/* Total of calls in progress of all functions (memory reserved up front). */
#define TRACEBUF_FDR_KFUNC_INSTANCES_MAX 65536
/* tracebuf_fdr_kfuncs.failed when no name is to blame. */
#define TRACEBUF_FDR_KFUNC_NONE		0xffffffffU

/**
 * struct tracebuf_fdr_kfuncs - kernel functions to record (TRACEBUF_FDR_IOC_KFUNCS)
 * @names:	user pointer (as __u64) to the function names, each followed
 *		by a newline ("vfs_read\nrw_verify_area\n"); characters
 *		A-Z a-z 0-9 _ . only, no duplicates.  The i-th name gets the
 *		id TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, i).
 * @len:	bytes at @names, at most TRACEBUF_FDR_KFUNC_MAX *
 *		TRACEBUF_FDR_KFUNC_NAME_MAX; 0 clears the list
 * @maxactive:	calls of one function that can be in progress at once (on
 *		all CPUs, sleeping ones included), 1..
 *		TRACEBUF_FDR_KFUNC_ACTIVE_MAX; 0 means
 *		TRACEBUF_FDR_KFUNC_ACTIVE_DEFAULT.  Calls beyond it are not
 *		recorded and count in tracebuf_fdr_stats.kfunc_missed.
 * @count:	on return: the number of functions in the list now
 * @failed:	on return: the index of the name that was refused, or
 *		TRACEBUF_FDR_KFUNC_NONE
 *
 * Only while stopped (EBUSY).  Replaces the whole list, or on error leaves
 * no list at all.  Errors: EINVAL for a malformed list, a duplicate, or a
 * function the kernel's kprobe events would refuse (notrace code, i.e. not
 * in available_filter_functions; the kprobe blacklist) or the tracebuf
 * module itself; ENOENT for an unknown function; E2BIG above the limits;
 * EOPNOTSUPP without CONFIG_KRETPROBES or CONFIG_DYNAMIC_FTRACE.  The functions
 * are recorded from the next START on, each call as an entry and an exit
 * record nested as the calls nest.
 */
struct tracebuf_fdr_kfuncs {
	__u64 names;
	__u32 len;
	__u32 maxactive;
	__u32 count;
	__u32 failed;
};

/*
 * Triggers (TRACEBUF_FDR_IOC_TRIGGER), flight mode only.  When one of the
 * armed conditions holds, the recorder writes a CustomEventMarker
 * "tracebuf trigger: <what happened>" on the CPU where it held, records
 * for the post-trigger window, then freezes every ring (writers stop, the
 * capture stays "running") and wakes poll() with EPOLLPRI.  Reading the
 * device then gives the frozen recording.  Arming again resumes recording
 * into the same rings; disarming (nr_conds 0) resumes it too.
 *
 * OOPS fires from the die notifier (DIE_OOPS), before the oops report is
 * printed.  WARN fires when a WARN(), WARN_ON(), WARN_ONCE() or
 * WARN_ON_ONCE() prints its warning: Linux 6.1 has no notifier for that, so
 * the module puts a kprobe on __warn(), the one function every one of them
 * calls on every architecture, and only when it prints (a _ONCE warning
 * already printed does not fire it again).  It needs CONFIG_KPROBES and an
 * architecture that gives kprobes the function's arguments (EOPNOTSUPP
 * otherwise).  A WARN inside another kprobe's handler is not
 * seen (the kprobe layer does not nest).
 */
#define TRACEBUF_FDR_TRIG_DURATION	1 /* a call ran over @threshold_us */
#define TRACEBUF_FDR_TRIG_ERRNO		2 /* a syscall returned -@error */
#define TRACEBUF_FDR_TRIG_MARKER	3 /* a user marker begins with @prefix */
#define TRACEBUF_FDR_TRIG_OOPS		4 /* the kernel oopsed (die notifier) */
#define TRACEBUF_FDR_TRIG_SNAPSHOT	5 /* TRACEBUF_FDR_IOC_SNAPSHOT was called */
#define TRACEBUF_FDR_TRIG_WARN		6 /* the kernel printed a WARNING (see below) */

/* Condition flags. */
#define TRACEBUF_FDR_TRIG_F_ID		(1U << 0) /* only function @id */

/* Limits. */
#define TRACEBUF_FDR_TRIG_MAX		8	/* conditions per trigger */
#define TRACEBUF_FDR_TRIG_PREFIX_MAX	48	/* marker prefix bytes */
#define TRACEBUF_FDR_TRIG_THRESHOLD_MAX	3600000000U /* us: one hour */
#define TRACEBUF_FDR_TRIG_EVENTS_MAX	(1U << 24)
#define TRACEBUF_FDR_TRIG_USECS_MAX	60000000U /* us: one minute */
#define TRACEBUF_FDR_TRIG_ERROR_MAX	4095	/* MAX_ERRNO */

/* Trigger states (tracebuf_fdr_stats.trig_state). */
#define TRACEBUF_FDR_TRIG_STATE_OFF	0 /* no trigger armed */
#define TRACEBUF_FDR_TRIG_STATE_ARMED	1 /* waiting for a condition */
#define TRACEBUF_FDR_TRIG_STATE_FIRED	2 /* in the post-trigger window */
#define TRACEBUF_FDR_TRIG_STATE_FROZEN	3 /* rings frozen, readable */

/* Text of the reason event: this prefix, then what happened (no NUL). */
#define TRACEBUF_FDR_TRIG_PREFIX	"tracebuf trigger: "

/**
 * struct tracebuf_fdr_trig_cond - one trigger condition
 * @type:	TRACEBUF_FDR_TRIG_*
 * @flags:	TRACEBUF_FDR_TRIG_F_* (DURATION and ERRNO only)
 * @ev_class:	DURATION: exactly one of TRACEBUF_FDR_SYSCALL, _IRQ, _SOFTIRQ,
 *		_WORKQUEUE; 0 otherwise
 * @id:		with TRACEBUF_FDR_TRIG_F_ID: the function id
 *		(TRACEBUF_FDR_ID()) of @ev_class's space (DURATION) or of the
 *		syscall space (ERRNO); 0 otherwise
 * @threshold_us: DURATION: 1..TRACEBUF_FDR_TRIG_THRESHOLD_MAX; fires when a
 *		call ran longer; 0 otherwise
 * @error:	ERRNO: 1..TRACEBUF_FDR_TRIG_ERROR_MAX (ENOMEM, not -ENOMEM);
 *		0 otherwise
 * @prefix_len:	MARKER: 1..TRACEBUF_FDR_TRIG_PREFIX_MAX; 0 otherwise
 * @reserved:	must be zero
 * @prefix:	MARKER: the first @prefix_len bytes are compared with the
 *		start of each marker; bytes past @prefix_len must be zero
 *
 * A field a condition does not use must be zero (EINVAL otherwise).
 */
struct tracebuf_fdr_trig_cond {
	__u32 type;
	__u32 flags;
	__u32 ev_class;
	__u32 id;
	__u32 threshold_us;
	__u32 error;
	__u32 prefix_len;
	__u32 reserved;
	__u8 prefix[TRACEBUF_FDR_TRIG_PREFIX_MAX];
};

/**
 * struct tracebuf_fdr_trigger - arm or disarm (TRACEBUF_FDR_IOC_TRIGGER)
 * @nr_conds:	conditions in @conds, 0..TRACEBUF_FDR_TRIG_MAX; 0 disarms;
 *		any one of them fires the trigger
 * @flags:	none defined: must be zero
 * @post_events: freeze after this many more events (any CPU, any class),
 *		0..TRACEBUF_FDR_TRIG_EVENTS_MAX; 0: no event limit
 * @post_usecs:	freeze after this many microseconds,
 *		0..TRACEBUF_FDR_TRIG_USECS_MAX; 0: no time limit.  With both
 *		limits the first reached freezes; with neither the rings
 *		freeze right after the reason event
 * @conds:	the conditions; entries from @nr_conds on must be zero
 *
 * Only while running in flight mode: EOPNOTSUPP in streaming mode, ESRCH
 * while stopped (disarming is always accepted).  Replaces any armed
 * trigger; STOP disarms.
 */
struct tracebuf_fdr_trigger {
	__u32 nr_conds;
	__u32 flags;
	__u32 post_events;
	__u32 post_usecs;
	struct tracebuf_fdr_trig_cond conds[TRACEBUF_FDR_TRIG_MAX];
};

/*
 * Zero-copy reading (streaming mode): mmap() of one CPU's ring, read-only.
 * The mapping of CPU n starts at offset n * TRACEBUF_FDR_MMAP_SIZE(ps,
 * buf_size) and is exactly that long, ps being the system page size and
 * buf_size the configured per-CPU buffer: one control page (struct
 * tracebuf_fdr_mmap_page, this file's own), then the CPU's buffer of
 * TRACEBUF_FDR_PAGES ring pages of buf_size / TRACEBUF_FDR_PAGES bytes.
 * TRACEBUF_FDR_IOC_MMAP_GET lends the file the CPU's closed ring pages and
 * describes them in the control page; the reader uses them in place and
 * the next MMAP_GET (or TRACEBUF_FDR_MMAP_RELEASE, or close) gives them
 * back.  Documentation/fdr.rst, "Zero-copy reading", has the protocol.
 */
#define TRACEBUF_FDR_MMAP_VERSION	1
#define TRACEBUF_FDR_MMAP_SIZE(page_size, buf_size) \
	((__u64)(page_size) + (__u64)(buf_size))

/* tracebuf_fdr_mmap_page.flags */
/* Capture stopped and this CPU has nothing after the pages lent: its EOF. */
#define TRACEBUF_FDR_MMAP_EOF		(1U << 0)

/**
 * struct tracebuf_fdr_mmap_page - the control page of a CPU's mapping
 * @version:	TRACEBUF_FDR_MMAP_VERSION; a reader that knows an older
 *		version reads the fields it knows (new ones are appended)
 * @size:	bytes of this struct the kernel fills in
 * @cpu:	the CPU whose ring the mapping shows
 * @nr_pages:	ring pages in the buffer (TRACEBUF_FDR_PAGES)
 * @page_size:	bytes per ring page (buf_size / @nr_pages)
 * @data_offset: offset in the mapping of ring page slot 0 (one system page)
 * @data_size:	bytes of the buffer (buf_size)
 * @first:	sequence number of the first ring page the last
 *		TRACEBUF_FDR_IOC_MMAP_GET lent; page s is in slot
 *		s % @nr_pages, at @data_offset + (s % @nr_pages) * @page_size
 * @count:	pages lent, 0..@nr_pages - 1, from @first on, in stream order
 * @flags:	TRACEBUF_FDR_MMAP_EOF
 * @gen:	capture number: changes when START or CONFIG discard the data
 * @header:	the 32-byte XRay FDR file header of the capture, which the
 *		lent pages follow (the same header read() begins with)
 * @page_len:	bytes of data in lent page s: @page_len[s % @nr_pages];
 *		the rest of the page is not part of the stream
 * @reserved:	zero
 *
 * Written by the kernel only during TRACEBUF_FDR_IOC_MMAP_GET on this
 * CPU, by the file that mapped it: its values stay as they are until the
 * file calls it again, so no memory ordering is needed beyond the ioctl.
 */
struct tracebuf_fdr_mmap_page {
	__u32 version;
	__u32 size;
	__u32 cpu;
	__u32 nr_pages;
	__u32 page_size;
	__u32 data_offset;
	__u64 data_size;
	__u64 first;
	__u32 count;
	__u32 flags;
	__u64 gen;
	__u8 header[32];
	__u32 page_len[TRACEBUF_FDR_PAGES];
	__u64 reserved[4];
};

/* tracebuf_fdr_mmap_get.flags */
/* Only give back the pages lent before; lend none. */
#define TRACEBUF_FDR_MMAP_RELEASE	(1U << 0)

/**
 * struct tracebuf_fdr_mmap_get - take the next pages (TRACEBUF_FDR_IOC_MMAP_GET)
 * @cpu:	a CPU this file has mapped
 * @flags:	TRACEBUF_FDR_MMAP_RELEASE, or 0; other bits: EINVAL
 * @reserved:	must be zero (EINVAL)
 *
 * Gives back the pages of @cpu lent to this file before, then (unless
 * TRACEBUF_FDR_MMAP_RELEASE) lends it the CPU's closed pages, closing the
 * page being filled first if it holds the wake-up amount or capture is
 * stopped, exactly as read() would consume them.  Returns the number of
 * pages lent, also in the control page with their lengths.  Pages another
 * file is reading (read() partway through a page, or lent) are not lent:
 * 0, and poll() wakes when they are given back.  Streaming mode only
 * (EINVAL); EINVAL also for a CPU this file has not mapped.
 */
struct tracebuf_fdr_mmap_get {
	__u32 cpu;
	__u32 flags;
	__u64 reserved;
};

/**
 * struct tracebuf_fdr_peek - look at a CPU's pages (TRACEBUF_FDR_IOC_PEEK)
 * @buf:	user address the pages are copied to
 * @size:	bytes at @buf; at least one ring page (buf_size /
 *		TRACEBUF_FDR_PAGES), else EINVAL
 * @cpu:	a possible CPU, else EINVAL
 * @next:	in: the page to begin at, as returned by the last call, when
 *		@gen is the current capture; out: the page after the last
 *		one copied
 * @gen:	in: the capture @next is of (0: none, begin at the oldest
 *		page); out: the current capture (as in tracebuf_fdr_stats)
 * @len:	out: bytes copied: whole pages, in stream order, each its
 *		blocks only, as read() gives them
 * @missed:	out: pages from @next on that the writer had reused before
 *		they could be copied; their data is not in @buf (a page a
 *		streaming reader took stays until reused)
 * @header:	out: the capture's 32-byte XRay FDR file header
 * @reserved:	zero (EINVAL)
 *
 * Copies the pages of @cpu the caller has not seen (the ring's last
 * TRACEBUF_FDR_PAGES - 1, read by a reader or not), without
 * consuming, closing or holding any: the capture's writers and its
 * readers go on as if nobody looked, so any file may follow a capture
 * another process started (tracebuf top --attach).  The page being
 * filled is copied once it closes, or once capture is stopped (then as
 * the CPU's last page, its open block's BufferExtents up to date).
 * Either mode; ENODEV before the first buffers exist.  Returns the
 * number of pages copied.
 */
struct tracebuf_fdr_peek {
	__u64 buf;
	__u32 size;
	__u32 cpu;
	__u64 next;
	__u64 gen;
	__u32 len;
	__u32 missed;
	__u8 header[32];
	__u64 reserved[2];
};

#define TRACEBUF_FDR_IOC_CONFIG	_IOW(TRACEBUF_IOC_MAGIC, 0x40, struct tracebuf_fdr_config)
#define TRACEBUF_FDR_IOC_GET_CONFIG _IOR(TRACEBUF_IOC_MAGIC, 0x41, struct tracebuf_fdr_config)
#define TRACEBUF_FDR_IOC_START	_IO(TRACEBUF_IOC_MAGIC, 0x42)
#define TRACEBUF_FDR_IOC_STOP	_IO(TRACEBUF_IOC_MAGIC, 0x43)
#define TRACEBUF_FDR_IOC_SNAPSHOT _IO(TRACEBUF_IOC_MAGIC, 0x44)
#define TRACEBUF_FDR_IOC_STATS	_IOWR(TRACEBUF_IOC_MAGIC, 0x45, struct tracebuf_fdr_stats)
#define TRACEBUF_FDR_IOC_NAMES	_IOWR(TRACEBUF_IOC_MAGIC, 0x46, struct tracebuf_fdr_names)
#define TRACEBUF_FDR_IOC_KFUNCS	_IOWR(TRACEBUF_IOC_MAGIC, 0x47, struct tracebuf_fdr_kfuncs)
#define TRACEBUF_FDR_IOC_TRIGGER _IOW(TRACEBUF_IOC_MAGIC, 0x48, struct tracebuf_fdr_trigger)
#define TRACEBUF_FDR_IOC_MMAP_GET _IOW(TRACEBUF_IOC_MAGIC, 0x49, struct tracebuf_fdr_mmap_get)
#define TRACEBUF_FDR_IOC_PEEK	_IOWR(TRACEBUF_IOC_MAGIC, 0x4a, struct tracebuf_fdr_peek)

#endif /* _UAPI_LINUX_TRACEBUF_H */
