/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR version 5 record encoding.  Pure functions that store one record
 * at a byte pointer; no state.  All multi-byte fields are little-endian and
 * unaligned (the format has no alignment).
 *
 * Metadata records are 16 bytes: byte 0 is kind << 1 | 1, the fields follow
 * from byte 1, the rest is zero.  Function records are 8 bytes: a u32 of
 * id << 4 | type << 1 (bit 0 clear), then a u32 time delta.
 */
#ifndef _FDR_RECORD_H
#define _FDR_RECORD_H

#include <linux/string.h>
#include <linux/types.h>
#include <asm/unaligned.h>

#define FDR_VERSION		5
#define FDR_TYPE_FDR		1
#define FDR_HDR_SIZE		32
#define FDR_META_SIZE		16
#define FDR_FUNC_SIZE		8

/* The block header: BufferExtents NewBuffer WallClockTime PIDEntry NewCPUId */
#define FDR_BLOCK_HDR_SIZE	(5 * FDR_META_SIZE)

enum fdr_meta_kind {
	FDR_M_NEW_BUFFER	= 0,
	FDR_M_NEW_CPU		= 2,
	FDR_M_TSC_WRAP		= 3,
	FDR_M_WALLCLOCK		= 4,
	FDR_M_CUSTOM		= 5,
	FDR_M_CALL_ARG		= 6,
	FDR_M_EXTENTS		= 7,
	FDR_M_PID		= 9,
};

enum fdr_func_type {
	FDR_F_ENTER		= 0,
	FDR_F_EXIT		= 1,
	FDR_F_ENTER_ARGS	= 3,
};

/* Header flags: both of our clocks (fdr_clock.c) are constant-rate and run in idle. */
#define FDR_HDR_CONSTANT_TSC	BIT(0)
#define FDR_HDR_NONSTOP_TSC	BIT(1)

static inline void fdr_put_header(u8 *p, u64 freq)
{
	memset(p, 0, FDR_HDR_SIZE);
	put_unaligned_le16(FDR_VERSION, p);
	put_unaligned_le16(FDR_TYPE_FDR, p + 2);
	put_unaligned_le32(FDR_HDR_CONSTANT_TSC | FDR_HDR_NONSTOP_TSC, p + 4);
	put_unaligned_le64(freq, p + 8);
}

static __always_inline u8 *fdr_meta(u8 *p, enum fdr_meta_kind kind)
{
	memset(p, 0, FDR_META_SIZE);
	p[0] = (kind << 1) | 1;
	return p + 1;
}

static __always_inline void fdr_put_extents(u8 *p, u64 bytes)
{
	put_unaligned_le64(bytes, fdr_meta(p, FDR_M_EXTENTS));
}

/* Update the length of an already written BufferExtents record. */
static __always_inline void fdr_set_extents(u8 *p, u64 bytes)
{
	put_unaligned_le64(bytes, p + 1);
}

static __always_inline void fdr_put_new_buffer(u8 *p, s32 tid)
{
	put_unaligned_le32(tid, fdr_meta(p, FDR_M_NEW_BUFFER));
}

static __always_inline void fdr_put_wallclock(u8 *p, u64 sec, u32 usec)
{
	u8 *f = fdr_meta(p, FDR_M_WALLCLOCK);

	put_unaligned_le64(sec, f);
	put_unaligned_le32(usec, f + 8);
}

static __always_inline void fdr_put_pid(u8 *p, s32 pid)
{
	put_unaligned_le32(pid, fdr_meta(p, FDR_M_PID));
}

static __always_inline void fdr_put_new_cpu(u8 *p, u16 cpu, u64 tsc)
{
	u8 *f = fdr_meta(p, FDR_M_NEW_CPU);

	put_unaligned_le16(cpu, f);
	put_unaligned_le64(tsc, f + 2);
}

static __always_inline void fdr_put_tsc_wrap(u8 *p, u64 tsc)
{
	put_unaligned_le64(tsc, fdr_meta(p, FDR_M_TSC_WRAP));
}

static __always_inline void fdr_put_call_arg(u8 *p, u64 arg)
{
	put_unaligned_le64(arg, fdr_meta(p, FDR_M_CALL_ARG));
}

/* Version 5: the marker carries a delta that advances the stream's time. */
static __always_inline void fdr_put_custom(u8 *p, s32 size, u32 delta)
{
	u8 *f = fdr_meta(p, FDR_M_CUSTOM);

	put_unaligned_le32(size, f);
	put_unaligned_le32(delta, f + 4);
}

/*
 * The first 32 bits of a function record: kind bit 0 clear, the type in
 * bits 1-3, the function id in bits 4-31.  Computed by the caller, where
 * id and type are usually constants.
 */
static __always_inline u32 fdr_func_word(u32 id, enum fdr_func_type type)
{
	return (id << 4) | (type << 1);
}

static __always_inline void fdr_put_func_word(u8 *p, u32 word, u32 delta)
{
	put_unaligned_le32(word, p);
	put_unaligned_le32(delta, p + 4);
}

static __always_inline void fdr_put_function(u8 *p, u32 id,
					     enum fdr_func_type type, u32 delta)
{
	fdr_put_func_word(p, fdr_func_word(id, type), delta);
}

#endif /* _FDR_RECORD_H */
