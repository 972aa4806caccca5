/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR version 5 record encoding: pure functions that store one record
 * at a byte pointer; no state.  The format itself (kinds, sizes, field
 * offsets) is defined once, in uapi/linux/tracebuf_fdr.h.
 */
#ifndef _FDR_RECORD_H
#define _FDR_RECORD_H

#include <linux/string.h>
#include <linux/types.h>
#include <asm/unaligned.h>

#include <linux/tracebuf_fdr.h>

/* Short names for the sizes, which every writer uses. */
#define FDR_HDR_SIZE		TRACEBUF_FDR_HEADER_SIZE
#define FDR_META_SIZE		TRACEBUF_FDR_META_SIZE
#define FDR_FUNC_SIZE		TRACEBUF_FDR_FUNC_SIZE
#define FDR_BLOCK_HDR_SIZE	TRACEBUF_FDR_BLOCK_HDR_SIZE

static inline void fdr_put_header(u8 *p, u64 freq)
{
	memset(p, 0, FDR_HDR_SIZE);
	put_unaligned_le16(TRACEBUF_FDR_VERSION, p + TRACEBUF_FDR_HDR_VERSION);
	put_unaligned_le16(TRACEBUF_FDR_FILE_TYPE, p + TRACEBUF_FDR_HDR_TYPE);
	put_unaligned_le32(TRACEBUF_FDR_HDR_CONSTANT_TSC |
			   TRACEBUF_FDR_HDR_NONSTOP_TSC, p + TRACEBUF_FDR_HDR_FLAGS);
	put_unaligned_le64(freq, p + TRACEBUF_FDR_HDR_FREQUENCY);
}

/* Start metadata record @kind at @p: zero it and write byte 0. */
static __always_inline u8 *fdr_meta(u8 *p, u8 kind)
{
	memset(p, 0, FDR_META_SIZE);
	p[0] = TRACEBUF_FDR_META_BYTE(kind);
	return p;
}

static __always_inline void fdr_put_extents(u8 *p, u64 bytes)
{
	put_unaligned_le64(bytes, fdr_meta(p, TRACEBUF_FDR_BUFFER_EXTENTS) +
			   TRACEBUF_FDR_FIELD);
}

/* Update the length of an already written BufferExtents record. */
static __always_inline void fdr_set_extents(u8 *p, u64 bytes)
{
	put_unaligned_le64(bytes, p + TRACEBUF_FDR_FIELD);
}

static __always_inline void fdr_put_new_buffer(u8 *p, s32 tid)
{
	put_unaligned_le32(tid, fdr_meta(p, TRACEBUF_FDR_NEW_BUFFER) +
			   TRACEBUF_FDR_FIELD);
}

static __always_inline void fdr_put_wallclock(u8 *p, u64 sec, u32 usec)
{
	fdr_meta(p, TRACEBUF_FDR_WALLCLOCK);
	put_unaligned_le64(sec, p + TRACEBUF_FDR_FIELD);
	put_unaligned_le32(usec, p + TRACEBUF_FDR_WALLCLOCK_USEC);
}

static __always_inline void fdr_put_pid(u8 *p, s32 pid)
{
	put_unaligned_le32(pid, fdr_meta(p, TRACEBUF_FDR_PID) +
			   TRACEBUF_FDR_FIELD);
}

static __always_inline void fdr_put_new_cpu(u8 *p, u16 cpu, u64 tsc)
{
	fdr_meta(p, TRACEBUF_FDR_NEW_CPU);
	put_unaligned_le16(cpu, p + TRACEBUF_FDR_FIELD);
	put_unaligned_le64(tsc, p + TRACEBUF_FDR_NEW_CPU_TIME);
}

static __always_inline void fdr_put_tsc_wrap(u8 *p, u64 tsc)
{
	put_unaligned_le64(tsc, fdr_meta(p, TRACEBUF_FDR_TSC_WRAP) +
			   TRACEBUF_FDR_FIELD);
}

static __always_inline void fdr_put_call_arg(u8 *p, u64 arg)
{
	put_unaligned_le64(arg, fdr_meta(p, TRACEBUF_FDR_CALL_ARG) +
			   TRACEBUF_FDR_FIELD);
}

/* Version 5: the marker carries a delta that advances the stream's time. */
static __always_inline void fdr_put_custom(u8 *p, s32 size, u32 delta)
{
	fdr_meta(p, TRACEBUF_FDR_CUSTOM);
	put_unaligned_le32(size, p + TRACEBUF_FDR_FIELD);
	put_unaligned_le32(delta, p + TRACEBUF_FDR_EVENT_DELTA);
}

/*
 * A TypedEventMarker of @type (TRACEBUF_FDR_TYPED_*) whose @size payload
 * bytes follow the record; the delta advances the time, as the custom one.
 */
static __always_inline void fdr_put_typed(u8 *p, s32 size, u32 delta, u16 type)
{
	fdr_meta(p, TRACEBUF_FDR_TYPED);
	put_unaligned_le32(size, p + TRACEBUF_FDR_FIELD);
	put_unaligned_le32(delta, p + TRACEBUF_FDR_EVENT_DELTA);
	put_unaligned_le16(type, p + TRACEBUF_FDR_TYPED_TYPE);
}

/*
 * The first 32 bits of a function record (TRACEBUF_FDR_FUNC_WORD()),
 * computed by the caller, where id and type are usually constants.
 */
static __always_inline u32 fdr_func_word(u32 id, u32 type)
{
	return TRACEBUF_FDR_FUNC_WORD(id, type);
}

static __always_inline void fdr_put_func_word(u8 *p, u32 word, u32 delta)
{
	put_unaligned_le32(word, p);
	put_unaligned_le32(delta, p + TRACEBUF_FDR_FUNC_DELTA);
}

static __always_inline void fdr_put_function(u8 *p, u32 id, u32 type,
					     u32 delta)
{
	fdr_put_func_word(p, fdr_func_word(id, type), delta);
}

#endif /* _FDR_RECORD_H */
