/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kind of file an input is, from its first bytes, so that a tool
 * given the wrong kind (an FDR trace to `tracebuf decode`, a GDB trace
 * file to `convert fdr-text`) says what the file is and which command
 * reads it, instead of the offset where its parser gave up.
 */
#ifndef TB_SNIFF_H
#define TB_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tb_sniff_kind {
	TB_SNIFF_UNKNOWN,	/* e.g. a raw XScale dump: any bytes */
	TB_SNIFF_FDR,		/* XRay FDR trace (FileHeader type 1) */
	TB_SNIFF_XSCALE,	/* trace buffer record or chain ("TBUR") */
	TB_SNIFF_TFILE,		/* GDB trace file ("\x7fTRACE0\n") */
	TB_SNIFF_ELF,		/* ELF: a map, a program, a memory image */
	TB_SNIFF_JSON,		/* trace_event JSON */
	TB_SNIFF_NAMES,		/* "ID NAME" lines */
	TB_SNIFF_NR_KINDS,
};

/* The kind of a file starting with the @n bytes at @p. */
enum tb_sniff_kind tb_sniff_bytes(const uint8_t *p, size_t n);

/* The kind of the file at @path: TB_SNIFF_UNKNOWN if unreadable or "-". */
enum tb_sniff_kind tb_sniff_path(const char *path);

/*
 * If @path is a file of a known kind other than @expected, say so in
 * @msg (@len bytes): "trace.fdr is an XRay FDR trace, not an XScale
 * trace buffer: read it with tracebuf report trace.fdr or tracebuf
 * convert fdr-text trace.fdr", and return true.
 */
bool tb_sniff_mismatch(const char *path, enum tb_sniff_kind expected,
		       char *msg, size_t len);

/*
 * The kind of the open file @f from its first bytes, its position kept:
 * standard input once copied to a file can be sniffed this way.
 * TB_SNIFF_UNKNOWN if it cannot seek (a pipe read as it comes).
 */
enum tb_sniff_kind tb_sniff_file(FILE *f);

/*
 * tb_sniff_mismatch() for @path open as @f: "-" (standard input) is
 * sniffed through @f when it can seek, and said "standard input", with
 * "-" in the commands that read it.
 */
bool tb_sniff_mismatch_file(const char *path, FILE *f,
			    enum tb_sniff_kind expected, char *msg, size_t len);

#endif /* TB_SNIFF_H */
