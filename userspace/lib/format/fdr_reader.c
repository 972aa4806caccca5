// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming XRay FDR producer and block verifier; see format/fdr_reader.h.
 *
 * What is accepted follows llvm-xray 14's fdr-dump -verify (lib/XRay
 * FileBasedRecordProducer, BlockIndexer, BlockVerifier):
 *
 *  - from version 3 a BufferExtents record says how many bytes of records
 *    follow and no record may cross that extent; llvm keeps the extent in
 *    32 bits, so does this reader.  When an extent is used up, bytes are
 *    skipped up to the next BufferExtents introducer (0x0f).
 *  - blocks, for the grammar, start at each NewBuffer record; a block may
 *    end anywhere (fdr-dump -verify does not check how blocks end).
 *  - after an EndOfBuffer record (version 1) everything up to the next
 *    NewBuffer is parsed but not checked against the grammar: the rest of
 *    a fixed-size thread buffer, zero bytes that read as function records.
 *
 * Where we differ (Documentation/formats.rst says why): a file that ends
 * inside a record, which llvm-xray refuses (but for a BufferExtents record
 * with its size field, which it reads), is read up to its last whole
 * record, with a warning that says what is lost.
 */
#include <stdlib.h>
#include <string.h>

#include "format/fdr_reader.h"
#include "util/bytes.h"

/*
 * A CustomEventMarker of versions 1 to 4, which tracebuf reads but never
 * writes: a u64 time in place of version 5's delta, then (version 4) the
 * CPU.  Version 5's fields are uapi/linux/tracebuf_fdr.h's.
 */
#define CUSTOM_V4_TSC	5
#define CUSTOM_V4_CPU	13

#define WINDOW	(64U * 1024)

/* parse_*(): the file ends inside the record (rd->cut_kind, cut_have). */
#define CUT	(-2)

/* Grammar states: the kind of the previous record in the block. */
enum {
	ST_UNKNOWN = 100,	/* before the first NewBuffer */
};

struct tb_fdr_reader {
	FILE *f;
	const uint8_t *mem;
	size_t mem_len;
	size_t mem_pos;

	uint8_t *win;
	size_t pos;		/* next unread byte in win */
	size_t len;		/* bytes valid in win */
	uint64_t off;		/* file offset of win[pos] */

	uint8_t *payload;
	size_t payload_cap;

	struct tb_fdr_header hdr;
	unsigned int state;
	uint64_t remaining;	/* bytes left in the current extent (v3+) */
	uint64_t extent_at;	/* offset of the current extent's record */
	struct tb_fdr_record cur;	/* carries the block state */
	struct tb_error *err;

	/* The file ends inside a record: its kind and the bytes there. */
	bool cut;
	unsigned int cut_kind;
	size_t cut_have;
	uint64_t cut_at;	/* its offset: where the read ended */
};

const char *tb_fdr_reader_kind_name(unsigned int kind)
{
	switch (kind) {
	case TB_FDR_NEW_BUFFER: return "NewBuffer";
	case TB_FDR_END_OF_BUFFER: return "EndOfBuffer";
	case TB_FDR_NEW_CPU: return "NewCPUId";
	case TB_FDR_TSC_WRAP: return "TSCWrap";
	case TB_FDR_WALLCLOCK: return "WallClockTime";
	case TB_FDR_CUSTOM: return "CustomEventMarker";
	case TB_FDR_CALL_ARG: return "CallArgument";
	case TB_FDR_BUFFER_EXTENTS: return "BufferExtents";
	case TB_FDR_TYPED: return "TypedEventMarker";
	case TB_FDR_PID: return "PIDEntry";
	case TB_FDR_FUNCTION: return "Function";
	case ST_UNKNOWN: return "start of block";
	}
	return "unknown";
}

/* Make at least @n bytes available at win[pos]; returns what is there. */
static size_t ensure(struct tb_fdr_reader *rd, size_t n)
{
	size_t avail = rd->len - rd->pos;

	if (avail >= n)
		return avail;
	memmove(rd->win, rd->win + rd->pos, avail);
	rd->pos = 0;
	rd->len = avail;
	while (rd->len < WINDOW) {
		size_t got;

		if (rd->f) {
			got = fread(rd->win + rd->len, 1, WINDOW - rd->len,
				    rd->f);
		} else {
			got = rd->mem_len - rd->mem_pos;
			if (got > WINDOW - rd->len)
				got = WINDOW - rd->len;
			memcpy(rd->win + rd->len, rd->mem + rd->mem_pos, got);
			rd->mem_pos += got;
		}
		if (!got)
			break;
		rd->len += got;
		if (rd->len >= n)
			break;
	}
	return rd->len - rd->pos;
}

static void consume(struct tb_fdr_reader *rd, size_t n)
{
	rd->pos += n;
	rd->off += n;
}

/*
 * The file ends @have bytes into a record of @kind, which is not whole:
 * a trace cut at any byte, as a copy taken while the file was written, a
 * full disk or a crash dump's partial ring leave it.  run() ends the read
 * at that record, as if the file ended right before it.
 */
static int cut(struct tb_fdr_reader *rd, unsigned int kind, size_t have)
{
	rd->cut_kind = kind;
	rd->cut_have = have;
	return CUT;
}

int tb_fdr_reader_parse_header(const uint8_t *p, struct tb_fdr_header *h,
			       struct tb_error *err)
{
	h->version = tb_bytes_get16(p + TRACEBUF_FDR_HDR_VERSION);
	h->type = tb_bytes_get16(p + TRACEBUF_FDR_HDR_TYPE);
	h->flags = tb_bytes_get32(p + TRACEBUF_FDR_HDR_FLAGS);
	h->cycle_frequency = tb_bytes_get64(p + TRACEBUF_FDR_HDR_FREQUENCY);
	h->buffer_size = tb_bytes_get64(p + TRACEBUF_FDR_HDR_BUFFER_SIZE);
	if (h->type != TB_FDR_TYPE_FDR) {
		tb_error_set(err, 2,
			     "FileHeader record: trace type %u is not FDR (1)",
			     h->type);
		return -1;
	}
	if (h->version < TB_FDR_VERSION_MIN ||
	    h->version > TB_FDR_VERSION_MAX) {
		tb_error_set(err, 0,
			     "FileHeader record: unsupported FDR version %u",
			     h->version);
		return -1;
	}
	return 0;
}

/*
 * Which record kinds may follow @state inside a block.  After an
 * EndOfBuffer record nothing is checked until the next NewBuffer, which
 * starts a new block (run() handles both).
 */
static bool allowed(unsigned int state, unsigned int kind)
{
	bool body = kind == TB_FDR_NEW_CPU || kind == TB_FDR_TSC_WRAP ||
		    kind == TB_FDR_CUSTOM || kind == TB_FDR_TYPED ||
		    kind == TB_FDR_FUNCTION || kind == TB_FDR_END_OF_BUFFER;

	switch (state) {
	case ST_UNKNOWN:
		return kind == TB_FDR_NEW_BUFFER;
	case TB_FDR_NEW_BUFFER:
		return kind == TB_FDR_WALLCLOCK;
	case TB_FDR_WALLCLOCK:
		return kind == TB_FDR_PID || kind == TB_FDR_NEW_CPU;
	case TB_FDR_PID:
		return kind == TB_FDR_NEW_CPU;
	case TB_FDR_NEW_CPU:
	case TB_FDR_TSC_WRAP:
	case TB_FDR_CUSTOM:
	case TB_FDR_TYPED:
		return body;
	case TB_FDR_FUNCTION:
	case TB_FDR_CALL_ARG:
		return body || kind == TB_FDR_CALL_ARG;
	}
	return false;
}

/* The kind a record introducer byte announces, for error messages. */
static const char *introducer_kind(uint8_t b)
{
	if (!(b & 1))
		return "Function";
	if ((b >> 1) >= TB_FDR_META_NR)
		return "unknown metadata";
	return tb_fdr_reader_kind_name(b >> 1);
}

static int read_payload(struct tb_fdr_reader *rd, struct tb_fdr_record *r,
			size_t *reclen)
{
	size_t need = TB_FDR_META_SIZE + (size_t)r->size;
	size_t have;

	if (r->size <= 0) {
		tb_error_set(rd->err, rd->off + 1,
			     "%s record: invalid payload size %d",
			     tb_fdr_reader_kind_name(r->kind), r->size);
		return -1;
	}
	if ((uint32_t)r->size > TB_FDR_MAX_PAYLOAD) {
		tb_error_set(rd->err, rd->off + 1,
			     "%s record: payload size %d larger than we accept (%u)",
			     tb_fdr_reader_kind_name(r->kind), r->size,
			     TB_FDR_MAX_PAYLOAD);
		return -1;
	}
	*reclen = need;
	if (rd->hdr.version >= 3 && need > rd->remaining) {
		tb_error_set(rd->err, rd->off,
			     "%s record: payload of %d bytes crosses the buffer extent (%llu bytes left)",
			     tb_fdr_reader_kind_name(r->kind), r->size,
			     (unsigned long long)rd->remaining);
		return -1;
	}
	have = ensure(rd, need);
	if (have >= need) {
		r->data = rd->win + rd->pos + TB_FDR_META_SIZE;
		return 0;
	}
	/* ensure() stopped short of a need that fits the window: the end. */
	if (need <= WINDOW)
		return cut(rd, r->kind, have);
	/* Larger than the window: copy it out piece by piece. */
	if (rd->payload_cap < (size_t)r->size) {
		uint8_t *p = realloc(rd->payload, r->size);

		if (!p) {
			tb_error_set(rd->err, rd->off, "out of memory");
			return -1;
		}
		rd->payload = p;
		rd->payload_cap = r->size;
	}
	consume(rd, TB_FDR_META_SIZE);
	{
		size_t done = 0;

		while (done < (size_t)r->size) {
			size_t chunk;

			have = ensure(rd, 1);
			if (!have)
				return cut(rd, r->kind,
					   TB_FDR_META_SIZE + done);
			chunk = (size_t)r->size - done;
			if (chunk > have)
				chunk = have;
			memcpy(rd->payload + done, rd->win + rd->pos, chunk);
			consume(rd, chunk);
			done += chunk;
		}
	}
	r->data = rd->payload;
	/* Caller consumes reclen; we already did. */
	*reclen = 0;
	return 0;
}

static int parse_meta(struct tb_fdr_reader *rd, struct tb_fdr_record *r,
		      size_t *reclen)
{
	const uint8_t *p = rd->win + rd->pos;
	unsigned int kind = p[0] >> 1;
	unsigned int v = rd->hdr.version;
	size_t avail;

	if (kind >= TB_FDR_META_NR) {
		tb_error_set(rd->err, rd->off, "unknown metadata record kind %u",
			     kind);
		return -1;
	}
	if (kind == TB_FDR_END_OF_BUFFER && v >= 2) {
		tb_error_set(rd->err, rd->off,
			     "EndOfBuffer record is not allowed in version %u",
			     v);
		return -1;
	}
	/*
	 * A BufferExtents record too: llvm-xray reads one whose size field
	 * ends the file, but it is not whole, and a cut trace reads as the
	 * same file cut before its last partial record.
	 */
	avail = rd->len - rd->pos;
	if (avail < TB_FDR_META_SIZE)
		return cut(rd, kind, avail);
	r->kind = kind;
	r->data = NULL;
	*reclen = TB_FDR_META_SIZE;
	switch (kind) {
	case TB_FDR_NEW_BUFFER:
		r->tid = (int32_t)tb_bytes_get32(p + TRACEBUF_FDR_FIELD);
		r->pid = 0;
		r->cpu = 0;
		r->tsc = 0;
		break;
	case TB_FDR_NEW_CPU:
		r->cpu = tb_bytes_get16(p + TRACEBUF_FDR_FIELD);
		r->value = tb_bytes_get64(p + TRACEBUF_FDR_NEW_CPU_TIME);
		r->tsc = r->value;
		break;
	case TB_FDR_TSC_WRAP:
		r->value = tb_bytes_get64(p + TRACEBUF_FDR_FIELD);
		r->tsc = r->value;
		break;
	case TB_FDR_WALLCLOCK:
		r->value = tb_bytes_get64(p + TRACEBUF_FDR_FIELD);
		r->micros = tb_bytes_get32(p + TRACEBUF_FDR_WALLCLOCK_USEC);
		break;
	case TB_FDR_CUSTOM:
		r->size = (int32_t)tb_bytes_get32(p + TRACEBUF_FDR_FIELD);
		if (v >= 5) {
			r->event_delta = (int32_t)tb_bytes_get32(p + TRACEBUF_FDR_EVENT_DELTA);
			if (!r->ignored)
				r->tsc += (int64_t)r->event_delta;
		} else {
			r->value = tb_bytes_get64(p + CUSTOM_V4_TSC);
			if (!r->ignored)
				r->tsc = r->value;
			/*
			 * Version 4's CPU; unused before, but what the
			 * record carries there is what fdr-dump prints.
			 */
			r->event_cpu = tb_bytes_get16(p + CUSTOM_V4_CPU);
		}
		return read_payload(rd, r, reclen);
	case TB_FDR_TYPED:
		r->size = (int32_t)tb_bytes_get32(p + TRACEBUF_FDR_FIELD);
		r->event_delta = (int32_t)tb_bytes_get32(p + TRACEBUF_FDR_EVENT_DELTA);
		r->event_type = tb_bytes_get16(p + TRACEBUF_FDR_TYPED_TYPE);
		if (!r->ignored)
			r->tsc += (int64_t)r->event_delta;
		return read_payload(rd, r, reclen);
	case TB_FDR_CALL_ARG:
	case TB_FDR_BUFFER_EXTENTS:
		r->value = tb_bytes_get64(p + TRACEBUF_FDR_FIELD);
		break;
	case TB_FDR_PID:
		r->pid = (int32_t)tb_bytes_get32(p + TRACEBUF_FDR_FIELD);
		break;
	case TB_FDR_END_OF_BUFFER:
		break;
	}
	return 0;
}

static inline int parse_func(struct tb_fdr_reader *rd,
			     struct tb_fdr_record *r, size_t *reclen)
{
	const uint8_t *p = rd->win + rd->pos;
	uint32_t w;

	if (rd->len - rd->pos < TB_FDR_FUNC_SIZE)
		return cut(rd, TB_FDR_FUNCTION, rd->len - rd->pos);
	w = tb_bytes_get32(p);
	r->kind = TB_FDR_FUNCTION;
	r->func_type = (w >> 1) & 7;
	if (r->func_type > TB_FDR_ENTER_ARGS) {
		tb_error_set(rd->err, rd->off, "unknown function record type %u",
			     r->func_type);
		return -1;
	}
	r->func_id = w >> 4;
	r->delta = tb_bytes_get32(p + TRACEBUF_FDR_FUNC_DELTA);
	if (!r->ignored)
		r->tsc += r->delta;
	r->data = NULL;
	*reclen = TB_FDR_FUNC_SIZE;
	return 0;
}

/* What llvm-xray keeps of an extent: CurrentBufferBytes is 32 bits. */
static void set_extent(struct tb_fdr_reader *rd, uint64_t size)
{
	rd->remaining = (uint32_t)size;
}

/*
 * Version 3+: between extents, skip to the next BufferExtents introducer
 * as llvm-xray does.  Returns 1 with the extent parsed, 0 at a clean end,
 * CUT when the file ends inside the BufferExtents record.
 */
static int next_extent(struct tb_fdr_reader *rd, struct tb_fdr_record *r)
{
	uint64_t skipped = 0;
	uint64_t start = rd->off;
	uint8_t first = 0;
	size_t have;

	for (;;) {
		if (!ensure(rd, 1)) {
			if (!skipped)
				return 0;
			tb_error_set(rd->err, start,
				     "%llu trailing bytes without a BufferExtents record (a %s record introducer, 0x%02x, starts them)",
				     (unsigned long long)skipped,
				     introducer_kind(first), first);
			return -1;
		}
		if (rd->win[rd->pos] == TRACEBUF_FDR_META_BYTE(TB_FDR_BUFFER_EXTENTS))
			break;
		if (!skipped)
			first = rd->win[rd->pos];
		consume(rd, 1);
		skipped++;
	}
	have = ensure(rd, TB_FDR_META_SIZE);
	r->offset = rd->off;
	if (have < TB_FDR_META_SIZE)
		return cut(rd, TB_FDR_BUFFER_EXTENTS, have);
	r->kind = TB_FDR_BUFFER_EXTENTS;
	rd->extent_at = rd->off;
	r->ignored = false;
	r->value = tb_bytes_get64(rd->win + rd->pos + TRACEBUF_FDR_FIELD);
	r->data = NULL;
	set_extent(rd, r->value);
	consume(rd, TB_FDR_META_SIZE);
	return 1;
}

/*
 * Check @r against the block grammar and move the state on.  Records
 * after an EndOfBuffer are left alone until the next NewBuffer.
 */
static int verify(struct tb_fdr_reader *rd, const struct tb_fdr_record *r)
{
	if (r->kind == TB_FDR_BUFFER_EXTENTS || r->ignored)
		return 0;
	/* The common case needs no table: a function after a function. */
	if (r->kind == TB_FDR_FUNCTION && rd->state == TB_FDR_FUNCTION)
		return 0;
	if (r->kind == TB_FDR_NEW_BUFFER)
		rd->state = ST_UNKNOWN;
	if (!allowed(rd->state, r->kind)) {
		tb_error_set(rd->err, r->offset, "%s record not allowed after %s",
			     tb_fdr_reader_kind_name(r->kind),
			     tb_fdr_reader_kind_name(rd->state));
		return -1;
	}
	rd->state = r->kind;
	return 0;
}

/*
 * The read ends at offset @at, before a record the file holds only
 * rd->cut_have bytes of (none: the file ends at @at).  Say in the error's
 * warning what is lost, in one line; the records before are read as in
 * the file cut at @at, so every reader's output is that file's.  -1 if
 * the record would cross its extent even whole: that file is malformed.
 */
static int end_at(struct tb_fdr_reader *rd, struct tb_fdr_stats *st,
		  uint64_t at)
{
	const char *kind = tb_fdr_reader_kind_name(rd->cut_kind);
	bool in_block = rd->hdr.version >= 3 && rd->remaining;
	unsigned long long have = rd->cut_have;
	size_t need = rd->cut_kind == TB_FDR_FUNCTION ? TB_FDR_FUNC_SIZE :
		      TB_FDR_META_SIZE;

	if (have && in_block && rd->cut_kind != TB_FDR_BUFFER_EXTENTS &&
	    need > rd->remaining) {
		tb_error_set(rd->err, at,
			     "%s record crosses the buffer extent (over-read by %llu bytes)",
			     kind, (unsigned long long)(need - rd->remaining));
		return -1;
	}
	rd->cut_at = at;
	rd->cut = true;
	if (in_block) {
		/* The file ends where its last block says more follows. */
		st->cut_bytes = rd->remaining;
		st->cut_block = rd->extent_at;
		if (!have)
			tb_error_warn(rd->err,
				      "the trace is cut: its last block (BufferExtents at offset %llu) lacks its last %llu bytes, whose records are lost",
				      (unsigned long long)rd->extent_at,
				      (unsigned long long)rd->remaining);
		else
			tb_error_warn(rd->err,
				      "the trace is cut: its last block (BufferExtents at offset %llu) lacks its last %llu bytes, whose records are lost, and the %llu bytes of a %s record at offset %llu are left out",
				      (unsigned long long)rd->extent_at,
				      (unsigned long long)rd->remaining - have,
				      have, kind, (unsigned long long)at);
	} else if (have && rd->cut_kind == TB_FDR_BUFFER_EXTENTS) {
		tb_error_warn(rd->err,
			      "the trace is cut: the %llu bytes of a BufferExtents record at offset %llu are left out, and the block it starts is lost",
			      have, (unsigned long long)at);
	} else if (have) {
		tb_error_warn(rd->err,
			      "the trace is cut: the %llu bytes of a %s record at offset %llu are left out, and whatever followed it is lost",
			      have, kind, (unsigned long long)at);
	}
	return 0;
}

/* Count @r, hand it to the visitor, step over its @reclen bytes. */
static inline int deliver(struct tb_fdr_reader *rd,
			  const struct tb_fdr_record *r, size_t reclen,
			  tb_fdr_visit_fn visit, void *ctx,
			  struct tb_fdr_stats *st)
{
	int ret;

	if (r->kind == TB_FDR_FUNCTION)
		st->functions++;
	st->records++;
	if (visit) {
		ret = visit(ctx, r);
		if (ret)
			return ret;
	}
	consume(rd, reclen);
	return 0;
}

static int run(struct tb_fdr_reader *rd,
	       int (*on_header)(void *ctx, const struct tb_fdr_header *h),
	       tb_fdr_visit_fn visit, void *ctx, struct tb_fdr_stats *st)
{
	struct tb_fdr_record *r = &rd->cur;
	size_t have = ensure(rd, TB_FDR_HEADER_SIZE);
	int ret;

	if (have < TB_FDR_HEADER_SIZE) {
		tb_error_set(rd->err, 0,
			     "truncated FileHeader record (%zu of 32 bytes)", have);
		return -1;
	}
	if (tb_fdr_reader_parse_header(rd->win, &rd->hdr, rd->err))
		return -1;
	consume(rd, TB_FDR_HEADER_SIZE);
	r->version = rd->hdr.version;
	if (on_header) {
		ret = on_header(ctx, &rd->hdr);
		if (ret)
			return ret;
	}
	rd->state = ST_UNKNOWN;
	for (;;) {
		size_t reclen;
		uint8_t b;

		/*
		 * Most records are a function record after another, whole in
		 * the window and inside the extent: none of the checks below
		 * can fail for it but its type's.
		 */
		if (rd->state == TB_FDR_FUNCTION &&
		    rd->len - rd->pos >= TB_FDR_FUNC_SIZE &&
		    !(rd->win[rd->pos] & 1) &&
		    (rd->hdr.version < 3 ||
		     rd->remaining >= TB_FDR_FUNC_SIZE)) {
			r->offset = rd->off;
			r->ignored = false;
			if (parse_func(rd, r, &reclen))
				return -1;
			if (rd->hdr.version >= 3)
				rd->remaining -= reclen;
			ret = deliver(rd, r, reclen, visit, ctx, st);
			if (ret)
				return ret;
			continue;
		}
		if (rd->hdr.version >= 3 && !rd->remaining) {
			ret = next_extent(rd, r);
			if (ret == CUT) {
				end_at(rd, st, r->offset);
				break;
			}
			if (ret < 0)
				return -1;
			if (!ret)
				break;
			st->records++;
			st->blocks++;
			if (visit) {
				ret = visit(ctx, r);
				if (ret)
					return ret;
			}
			continue;
		}
		/* ensure() only when the window runs low: it is called a lot */
		if (rd->len - rd->pos < TB_FDR_META_SIZE &&
		    !ensure(rd, TB_FDR_META_SIZE)) {
			rd->cut_have = 0;
			end_at(rd, st, rd->off);
			break;
		}
		r->offset = rd->off;
		b = rd->win[rd->pos];
		r->ignored = rd->state == TB_FDR_END_OF_BUFFER &&
			     b != TRACEBUF_FDR_META_BYTE(TB_FDR_NEW_BUFFER) &&
			     b != TRACEBUF_FDR_META_BYTE(TB_FDR_BUFFER_EXTENTS);
		if (b & 1)
			ret = parse_meta(rd, r, &reclen);
		else
			ret = parse_func(rd, r, &reclen);
		if (ret == CUT) {
			if (end_at(rd, st, r->offset))
				return -1;
			break;
		}
		if (ret)
			return -1;
		if (rd->hdr.version >= 3 && r->kind != TB_FDR_BUFFER_EXTENTS &&
		    reclen > rd->remaining) {
			tb_error_set(rd->err, r->offset,
				     "%s record crosses the buffer extent (over-read by %llu bytes)",
				     tb_fdr_reader_kind_name(r->kind),
				     (unsigned long long)(reclen - rd->remaining));
			return -1;
		}
		if (verify(rd, r))
			return -1;
		if (r->kind == TB_FDR_BUFFER_EXTENTS) {
			rd->extent_at = r->offset;
			set_extent(rd, r->value);
			st->blocks++;
		} else if (rd->hdr.version >= 3) {
			/* Payload bytes copied out were counted. */
			rd->remaining -= reclen ? reclen :
				TB_FDR_META_SIZE + (size_t)r->size;
		}
		ret = deliver(rd, r, reclen, visit, ctx, st);
		if (ret)
			return ret;
	}
	return 0;
}

static int read_common(struct tb_fdr_reader *rd,
		       int (*on_header)(void *ctx,
					const struct tb_fdr_header *h),
		       tb_fdr_visit_fn visit, void *ctx,
		       struct tb_fdr_stats *stats, struct tb_error *err)
{
	struct tb_fdr_stats local;
	int ret;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	rd->err = err;
	rd->win = malloc(WINDOW);
	if (!rd->win) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	ret = run(rd, on_header, visit, ctx, stats);
	/* A payload cut short was copied out from the window in part. */
	stats->bytes = rd->cut ? rd->cut_at : rd->off;
	free(rd->win);
	free(rd->payload);
	return ret;
}

int tb_fdr_reader_read(FILE *f, int (*on_header)(void *ctx,
						 const struct tb_fdr_header *h),
		       tb_fdr_visit_fn visit, void *ctx, struct tb_fdr_stats *stats,
		       struct tb_error *err)
{
	struct tb_fdr_reader rd = { .f = f };

	return read_common(&rd, on_header, visit, ctx, stats, err);
}

int tb_fdr_reader_read_mem(const void *buf, size_t len,
			   int (*on_header)(void *ctx, const struct tb_fdr_header *h),
			   tb_fdr_visit_fn visit, void *ctx,
			   struct tb_fdr_stats *stats, struct tb_error *err)
{
	struct tb_fdr_reader rd = { .mem = buf, .mem_len = len };

	return read_common(&rd, on_header, visit, ctx, stats, err);
}

void tb_fdr_reader_call_flush(struct tb_fdr_call *c, tb_fdr_call_fn done, void *ctx)
{
	if (!c->pending)
		return;
	c->pending = false;
	done(ctx, c);
}

int tb_fdr_reader_call_feed(struct tb_fdr_call *c, const struct tb_fdr_record *r,
			    tb_fdr_call_fn done, void *ctx)
{
	if (r->kind == TB_FDR_CALL_ARG) {
		if (c->pending && c->nargs < TB_FDR_CALL_MAX_ARGS)
			c->args[c->nargs++] = r->value;
		return 1;
	}
	tb_fdr_reader_call_flush(c, done, ctx);
	if (r->kind != TB_FDR_FUNCTION)
		return 0;
	c->rec = *r;
	c->nargs = 0;
	c->pending = true;
	return 1;
}
