/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XRay FDR records, as llvm-xray 14 reads them (versions 1 to 5).  Like
 * LLVM's lib/XRay, the library is split into the records (this header), a
 * producer that turns bytes into records (format/fdr_reader.c), a verifier for the
 * block grammar (inside the producer) and visitors that consume records
 * (text printer, converters).  Documentation/formats.rst describes the
 * format as we read and write it.
 */
#ifndef TB_FDR_RECORDS_H
#define TB_FDR_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/tracebuf_fdr.h>

/*
 * The format's constants are uapi/linux/tracebuf_fdr.h's, which the module
 * and the BPF program use too; these are the library's names for them.
 */
#define TB_FDR_HEADER_SIZE	TRACEBUF_FDR_HEADER_SIZE
#define TB_FDR_META_SIZE	TRACEBUF_FDR_META_SIZE
#define TB_FDR_FUNC_SIZE	TRACEBUF_FDR_FUNC_SIZE
#define TB_FDR_TYPE_FDR		TRACEBUF_FDR_FILE_TYPE
#define TB_FDR_VERSION_MIN	1
#define TB_FDR_VERSION_MAX	TRACEBUF_FDR_VERSION
/*
 * Largest custom/typed event payload we accept (the runtime's own limit
 * is one buffer); keeps the reader's memory bounded.
 */
#define TB_FDR_MAX_PAYLOAD	(16U << 20)

#define TB_FDR_FLAG_CONSTANT_TSC	TRACEBUF_FDR_HDR_CONSTANT_TSC
#define TB_FDR_FLAG_NONSTOP_TSC		TRACEBUF_FDR_HDR_NONSTOP_TSC

/* Metadata record kinds, and a pseudo-kind for function records. */
enum tb_fdr_kind {
	TB_FDR_NEW_BUFFER = TRACEBUF_FDR_NEW_BUFFER,
	TB_FDR_END_OF_BUFFER = TRACEBUF_FDR_END_OF_BUFFER,
	TB_FDR_NEW_CPU = TRACEBUF_FDR_NEW_CPU,
	TB_FDR_TSC_WRAP = TRACEBUF_FDR_TSC_WRAP,
	TB_FDR_WALLCLOCK = TRACEBUF_FDR_WALLCLOCK,
	TB_FDR_CUSTOM = TRACEBUF_FDR_CUSTOM,
	TB_FDR_CALL_ARG = TRACEBUF_FDR_CALL_ARG,
	TB_FDR_BUFFER_EXTENTS = TRACEBUF_FDR_BUFFER_EXTENTS,
	TB_FDR_TYPED = TRACEBUF_FDR_TYPED,
	TB_FDR_PID = TRACEBUF_FDR_PID,
	TB_FDR_META_NR = TRACEBUF_FDR_META_KINDS,
	TB_FDR_FUNCTION = 16,	/* not a metadata kind: 8-byte record */
};

/* Function record types. */
enum tb_fdr_func_type {
	TB_FDR_ENTER = TRACEBUF_FDR_ENTER,
	TB_FDR_EXIT = TRACEBUF_FDR_EXIT,
	TB_FDR_TAIL_EXIT = TRACEBUF_FDR_TAIL_EXIT,
	TB_FDR_ENTER_ARGS = TRACEBUF_FDR_ENTER_ARGS,
};

#define TB_FDR_FUNC_ID_MAX	TRACEBUF_FDR_FUNC_ID_MAX

struct tb_fdr_header {
	uint16_t version;
	uint16_t type;
	uint32_t flags;
	uint64_t cycle_frequency;
	uint64_t buffer_size;
};

/*
 * One record.  Only the fields of its kind are meaningful; the state
 * fields (tid, pid, cpu, tsc) are what the block says at this point, with
 * tsc the absolute time after applying the record's delta.
 */
struct tb_fdr_record {
	unsigned int kind;	/* enum tb_fdr_kind */
	unsigned int version;	/* of the file: the custom event layout */
	uint64_t offset;	/* file offset of the record */
	/*
	 * After an EndOfBuffer record and up to the next NewBuffer (version
	 * 1: the rest of a fixed-size thread buffer, usually zero bytes
	 * that read as "Function Enter #0").  llvm-xray's dump prints these
	 * records, its trace loader skips them: converters skip them too.
	 */
	bool ignored;

	/* TB_FDR_FUNCTION */
	unsigned int func_type;	/* enum tb_fdr_func_type */
	uint32_t func_id;
	uint32_t delta;

	/* metadata fields */
	/* tsc (cpu, wrap, custom v1-4), argument, extent, wall seconds */
	uint64_t value;
	uint32_t micros;	/* wallclock */
	int32_t size;		/* custom/typed payload size */
	int32_t event_delta;	/* custom v5, typed */
	uint16_t event_type;	/* typed */
	uint16_t event_cpu;	/* custom v1-4: the CPU field (v4 only means it) */
	const uint8_t *data;	/* payload, @size bytes */

	/* block state after this record */
	int32_t tid;
	int32_t pid;
	uint16_t cpu;
	uint64_t tsc;
};

const char *tb_fdr_reader_kind_name(unsigned int kind);

#endif /* TB_FDR_RECORDS_H */
