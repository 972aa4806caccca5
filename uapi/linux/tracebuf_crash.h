/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tracebuf: the crash descriptor of the flight data recorder.
 *
 * The module keeps one descriptor in physically contiguous, page-aligned
 * kernel memory so that a tool reading a memory image of a dead kernel
 * (`tracebuf crash`) finds the recorder's rings without debug info: it
 * scans the image's pages for @magic, checks @version, @size and
 * @checksum, and then follows physical addresses only.
 *
 * Layout, all fields in the byte order of the machine (little-endian on
 * every architecture tracebuf builds for), no implicit padding:
 *
 *   struct tracebuf_crash_desc        the header below
 *   struct tracebuf_crash_cpu         nr_cpus entries
 *   __u64 tables[nr_cpus][tables_per_cpu]
 *                                     physical addresses of frame tables
 *
 * A frame table is one kernel page (@frame_size bytes) of __u64 physical
 * addresses of the frames (kernel pages) of one CPU's buffer, in buffer
 * order: frame f of CPU c is entry f % (@frame_size / 8) of table
 * f / (@frame_size / 8) of CPU c.  A buffer is @buf_size bytes, that is
 * TRACEBUF_FDR_PAGES sub-buffers ("pages", @page_size bytes) of FDR blocks.
 *
 * Version 2 adds the names area: one physically contiguous run of kernel
 * pages (@names_paddr, @names_size bytes) where the panic writes the
 * capture's id-to-name text, as TRACEBUF_FDR_IOC_NAMES gives it (IRQ,
 * softirq, work function, fault, task and kernel function names), complete
 * lines only, @names_len bytes, CRC-32 @names_checksum.  A reader that
 * finds it missing or damaged falls back to numeric names; the trace does
 * not depend on it.  Version 1 descriptors have the header without the
 * names fields (TRACEBUF_CRASH_DESC_SIZE_VER1 bytes).
 *
 * The descriptor changes only when the rings are allocated or freed, when
 * a capture starts or stops, and at a panic (the freeze), never per event.
 * See Documentation/fdr.rst ("Recovery after a crash") and formats.rst.
 */
#ifndef _UAPI_LINUX_TRACEBUF_CRASH_H
#define _UAPI_LINUX_TRACEBUF_CRASH_H

#include <linux/types.h>

/* 16 bytes; the last two are the byte-order mark 0x01 0x00 read as __u16 1. */
#define TRACEBUF_CRASH_MAGIC		"tracebuf-crash\001"
#define TRACEBUF_CRASH_MAGIC_SIZE	16
#define TRACEBUF_CRASH_VERSION		2

/* @state: what the recorder was doing when the image was taken. */
#define TRACEBUF_CRASH_IDLE		0 /* loaded, never started */
#define TRACEBUF_CRASH_RECORDING	1 /* recording, not frozen */
#define TRACEBUF_CRASH_STOPPED		2 /* a capture was stopped */
#define TRACEBUF_CRASH_FROZEN		3 /* recording, frozen at a panic */

/* struct tracebuf_crash_cpu @flags */
#define TRACEBUF_CRASH_CPU_TORN		(1U << 0) /* stopped inside a write */
#define TRACEBUF_CRASH_CPU_PANIC	(1U << 1) /* panic message written here */

/* struct tracebuf_crash_cpu @block when no block is open */
#define TRACEBUF_CRASH_NO_BLOCK		0xffffffffU

/* struct tracebuf_crash_desc @names_flags */
#define TRACEBUF_CRASH_NAMES_TRUNCATED	(1U << 0) /* the text did not fit */

/* The header of version 1, before the names fields. */
#define TRACEBUF_CRASH_DESC_SIZE_VER1	104

/* The custom event the freeze writes on the panicking CPU. */
#define TRACEBUF_CRASH_PANIC_PREFIX	"tracebuf: panic: "

/**
 * struct tracebuf_crash_cpu - one CPU's ring as the freeze left it
 * @head:	sequence number of the page being filled (page @head % 16)
 * @tail:	sequence number of the oldest page kept; pages @tail to
 *		@head - 1 are closed, at most TRACEBUF_FDR_PAGES - 1 of them
 * @len:	bytes written in page @head
 * @block:	offset in page @head of the block still open (its
 *		BufferExtents is stale: the block runs to @len), or
 *		TRACEBUF_CRASH_NO_BLOCK
 * @flags:	TRACEBUF_CRASH_CPU_*
 * @reserved:	zero
 * @page_len:	bytes of each closed page, by page number (@seq % 16)
 *
 * Valid only in state TRACEBUF_CRASH_FROZEN.
 */
struct tracebuf_crash_cpu {
	__u64 head;
	__u64 tail;
	__u32 len;
	__u32 block;
	__u32 flags;
	__u32 reserved;
	__u32 page_len[16];
};

/**
 * struct tracebuf_crash_desc - the header of the crash descriptor
 * @magic:		TRACEBUF_CRASH_MAGIC
 * @version:		TRACEBUF_CRASH_VERSION
 * @size:		bytes of the whole descriptor (header, CPUs, tables)
 * @checksum:		CRC-32 (IEEE 802.3, as zlib's crc32()) of the @size
 *			bytes with this field zero
 * @state:		TRACEBUF_CRASH_*
 * @nr_cpus:		entries in the CPU array (nr_cpu_ids)
 * @mode:		TRACEBUF_FDR_MODE_* of the capture
 * @buf_size:		bytes of each CPU's buffer, 0 when none is allocated
 * @page_size:		bytes of a sub-buffer (@buf_size / 16)
 * @frame_size:		bytes of a kernel page (frames and frame tables)
 * @tables_per_cpu:	frame tables of each CPU (0 without buffers)
 * @panic_cpu:		the CPU that froze the rings (state FROZEN)
 * @tables_checksum:	CRC-32 of all frame tables, in descriptor order
 * @capture:		number of the capture (counts starts since load)
 * @fdr_header:		the 32-byte FDR file header of the capture (version,
 *			type, flags, cycle frequency), as read() sends it
 * @names_paddr:	physical address of the names area, 0 when there is
 *			none (version 2)
 * @names_size:		bytes of the names area (physically contiguous)
 * @names_len:		bytes of names text the panic wrote there: lines
 *			"<id in hex> <space> <name>\n", no NUL (state FROZEN;
 *			0 otherwise)
 * @names_checksum:	CRC-32 of those @names_len bytes
 * @names_flags:	TRACEBUF_CRASH_NAMES_*
 */
struct tracebuf_crash_desc {
	__u8 magic[TRACEBUF_CRASH_MAGIC_SIZE];
	__u32 version;
	__u32 size;
	__u32 checksum;
	__u32 state;
	__u32 nr_cpus;
	__u32 mode;
	__u32 buf_size;
	__u32 page_size;
	__u32 frame_size;
	__u32 tables_per_cpu;
	__u32 panic_cpu;
	__u32 tables_checksum;
	__u64 capture;
	__u8 fdr_header[32];
	__u64 names_paddr;
	__u32 names_size;
	__u32 names_len;
	__u32 names_checksum;
	__u32 names_flags;
};

#endif /* _UAPI_LINUX_TRACEBUF_CRASH_H */
