/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event classes of tracebuf convert fdr-ctf and the bytes of their
 * events.  A class is created when its first event is written (the
 * metadata, written last, declares only the classes a trace uses): its
 * name, its id and the CTF text of its payload's fields.  An event is an
 * id (uint32) and a timestamp (uint64) then its fields, every one
 * byte-aligned and little-endian:
 *
 *	TB_CTF_I32, TB_CTF_I64	signed integers
 *	TB_CTF_U32		unsigned
 *	TB_CTF_X64		unsigned, shown in hex (addresses)
 *	TB_CTF_STR		NUL-terminated string
 *	TB_CTF_COMM		char[16], as LTTng's command names
 *	TB_CTF_SEQ		uint64 _NAME_length, then that many chars
 *
 * Documentation/formats.rst ("CTF") lists every class.
 */
#ifndef TB_FDR_CTF_CLASS_H
#define TB_FDR_CTF_CLASS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"
#include "util/hash.h"

enum tb_ctf_type {
	TB_CTF_I32, TB_CTF_I64, TB_CTF_U32, TB_CTF_X64, TB_CTF_STR,
	TB_CTF_COMM, TB_CTF_SEQ,
};

#define TB_CTF_COMM_LEN		16
#define TB_CTF_EVENT_HDR	12	/* id, timestamp */

struct tb_ctf_class {
	char *name;
	struct tb_buf fields;	/* CTF text of the payload's struct body */
};

struct tb_ctf_classes {
	struct tb_ctf_class *v;
	size_t n, cap;
	struct tb_hash by_key;	/* caller's key -> id + 1 */
};

/*
 * The id of the class the caller knows by @key (non-zero), or -1 if there
 * is none yet: then create it with tb_ctf_class_new() and describe its
 * fields with tb_ctf_class_field(), in the order the events write them.
 */
int64_t tb_ctf_class_find(const struct tb_ctf_classes *c, uint64_t key);
/* Returns the new id or -ENOMEM. */
int64_t tb_ctf_class_new(struct tb_ctf_classes *c, uint64_t key,
			 const char *name);
int tb_ctf_class_field(struct tb_ctf_classes *c, uint32_t id,
		       enum tb_ctf_type type, const char *name);

/* The metadata's event blocks, stream 0.  Returns 0 or -EIO. */
int tb_ctf_class_print(const struct tb_ctf_classes *c, FILE *out);

void tb_ctf_class_free(struct tb_ctf_classes *c);

/* ---- an event's bytes, in @b (emptied first by _begin) ---- */
int tb_ctf_ev_begin(struct tb_buf *b, uint32_t id, uint64_t tsc);
int tb_ctf_ev_i32(struct tb_buf *b, int32_t v);
int tb_ctf_ev_u32(struct tb_buf *b, uint32_t v);
int tb_ctf_ev_64(struct tb_buf *b, uint64_t v);	/* I64 and X64 */
int tb_ctf_ev_str(struct tb_buf *b, const char *s);
/* @s cut or padded with NULs to 16 bytes. */
int tb_ctf_ev_comm(struct tb_buf *b, const char *s);
int tb_ctf_ev_seq(struct tb_buf *b, const void *p, size_t n);

#endif /* TB_FDR_CTF_CLASS_H */
