/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A strict parser of what a /dev/tracebuf_fdr reader gets, for the stress
 * and fuzz tests.  It checks every block completely and keeps one entry
 * per block, so streams can be compared block by block:
 *
 *  - the stream starts with the 32-byte header (version 5, type 1, the
 *    two clock flags, a plausible cycle_frequency, zero padding); a new
 *    header may start again where a block could start (a new capture
 *    began while the file was being read: a new "segment");
 *  - every block is BufferExtents, NewBuffer, WallClockTime, PIDEntry,
 *    NewCPUId, then records that fill the extents exactly, each inside
 *    the block; unused bytes of metadata records are zero;
 *  - records: function records of the types and id spaces the driver
 *    writes, CallArgument only after an entry with arguments (at most
 *    six), TSCWrap and NewCPUId only forward in time and NewCPUId only
 *    for the block's CPU, CustomEventMarker of 1..1024 bytes,
 *    TypedEventMarker of the kernel's types (switch, wake-up, return
 *    value) with their payload's exact size;
 *  - time never goes backwards inside a block nor, per CPU, from one
 *    block to the next in the same segment.
 *
 * Events are counted as the driver counts them (STATS.written): an entry
 * or exit is one event, an entry with its arguments is one, an instant
 * event (fault, fork, exit: entry, argument, exit) is one, a marker or a
 * typed event is one; the recorder's own loss reports ("tracebuf: lost N events") are
 * not events and are summed per CPU instead.
 */
#ifndef FDR_STRICT_H
#define FDR_STRICT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#define FS_MAX_CPUS	64
#define FS_HDR		32
#define FS_META		16
#define FS_FUNC		8
#define FS_BLOCK_HDR	80
#define FS_LOST_PREFIX	"tracebuf: lost "

static inline uint16_t fs_le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static inline uint32_t fs_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t fs_le64(const uint8_t *p)
{
	return fs_le32(p) | (uint64_t)fs_le32(p + 4) << 32;
}

/* One block as the stream holds it. */
struct fs_block {
	size_t off;		/* of its BufferExtents in the stream */
	uint32_t size;		/* bytes, header included */
	int segment;		/* header count before it, from 0 */
	int32_t tid, pid;
	uint16_t cpu;
	uint64_t t_first;	/* NewCPUId time */
	uint64_t t_last;	/* time of its last record */
	uint32_t events;
	uint64_t hash;		/* of the records, times left out */
};

/* One record, for the callback. */
struct fs_rec {
	const struct fs_block *blk;
	int kind;		/* FS_FUNC_REC, FS_CUSTOM_REC or FS_LOST_REC */
	uint32_t id;
	int type;		/* function records: 0 enter, 1 exit, 3 args */
	int nargs;
	uint64_t args[TRACEBUF_FDR_ARGS_MAX];
	uint64_t t;
	const uint8_t *data;	/* marker bytes */
	uint32_t size;
	uint64_t lost;		/* FS_LOST_REC: N */
};

enum { FS_FUNC_REC, FS_CUSTOM_REC, FS_LOST_REC, FS_TYPED_REC };

typedef void (*fs_cb)(const struct fs_rec *r, void *arg);

struct fs_scan {
	/* Results. */
	struct fs_block *blk;
	size_t nblk, cap;
	int segments;
	uint64_t hz;
	uint64_t events, events_cpu[FS_MAX_CPUS];
	uint64_t lost, lost_cpu[FS_MAX_CPUS];
	uint64_t markers;	/* user markers (not loss reports) */
	char err[256];
	/* Options. */
	fs_cb cb;
	void *arg;
};

static inline int fs_fail(struct fs_scan *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

static inline int fs_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* FNV-1a, to compare blocks by content. */
static inline uint64_t fs_hash(uint64_t h, const void *data, size_t n)
{
	const uint8_t *p = data;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static inline int fs_is_header(const uint8_t *p, size_t avail)
{
	return avail >= FS_HDR && fs_le16(p) == 5 && fs_le16(p + 2) == 1 &&
	       fs_le32(p + 4) == 3 && fs_le64(p + 8) >= 1000000 &&
	       fs_zero(p + 16, 16);
}

static inline void fs_emit(struct fs_scan *s, struct fs_rec *r)
{
	if (s->cb)
		s->cb(r, s->arg);
}

/* Records of the block at @b (its header already checked). */
static int fs_records(struct fs_scan *s, const uint8_t *buf,
		      struct fs_block *b)
{
	size_t p = b->off + FS_BLOCK_HDR, end = b->off + b->size;
	uint64_t t = b->t_first, h = 0xcbf29ce484222325ULL;
	struct fs_rec pend = { 0 };
	int have = 0;

#define FLUSH() do { if (have) fs_emit(s, &pend); have = 0; } while (0)
	while (p < end) {
		const uint8_t *r = buf + p;

		if (!(r[0] & 1)) {
			uint32_t w, id;
			int type, space;

			if (end - p < FS_FUNC)
				return fs_fail(s, "function record at %zu crosses its block's end",
					       p);
			w = fs_le32(r);
			id = w >> 4;
			type = (w >> 1) & 7;
			space = TRACEBUF_FDR_ID_SPACE(id);
			if (type != 0 && type != 1 && type != 3)
				return fs_fail(s, "function type %d at %zu", type, p);
			if (space < TRACEBUF_FDR_SPACE_SYSCALL ||
			    space > TRACEBUF_FDR_SPACE_TASK)
				return fs_fail(s, "function id %#x at %zu", id, p);
			FLUSH();
			t += fs_le32(r + 4);
			memset(&pend, 0, sizeof(pend));
			pend.blk = b;
			pend.kind = FS_FUNC_REC;
			pend.id = id;
			pend.type = type;
			pend.t = t;
			have = 1;
			/*
			 * An instant event (fault, fork, exit) is one event:
			 * its exit, right after the argument, is not another.
			 */
			if (!(type == 1 && (space == TRACEBUF_FDR_SPACE_FAULT ||
					    space == TRACEBUF_FDR_SPACE_TASK))) {
				b->events++;
			}
			h = fs_hash(h, r, 4);
			p += FS_FUNC;
			continue;
		}
		if (end - p < FS_META)
			return fs_fail(s, "metadata record at %zu crosses its block's end", p);
		switch (r[0] >> 1) {
		case 6:		/* CallArgument */
			if (!have || pend.type != 3 ||
			    pend.nargs >= TRACEBUF_FDR_ARGS_MAX)
				return fs_fail(s, "CallArgument at %zu not after an entry with arguments",
					       p);
			if (!fs_zero(r + 9, 7))
				return fs_fail(s, "CallArgument at %zu: padding not zero", p);
			pend.args[pend.nargs++] = fs_le64(r + 1);
			h = fs_hash(h, r, 9);
			break;
		case 3:		/* TSCWrap */
			FLUSH();
			if (fs_le64(r + 1) < t)
				return fs_fail(s, "TSCWrap at %zu goes back in time", p);
			if (!fs_zero(r + 9, 7))
				return fs_fail(s, "TSCWrap at %zu: padding not zero", p);
			t = fs_le64(r + 1);
			break;
		case 2:		/* NewCPUId inside a block */
			FLUSH();
			if (fs_le16(r + 1) != b->cpu)
				return fs_fail(s, "block at %zu of CPU %u has a NewCPUId of CPU %u at %zu",
					       b->off, b->cpu, fs_le16(r + 1), p);
			if (fs_le64(r + 3) < t)
				return fs_fail(s, "NewCPUId at %zu goes back in time", p);
			t = fs_le64(r + 3);
			break;
		case 5: {	/* CustomEventMarker */
			int32_t size = (int32_t)fs_le32(r + 1);
			struct fs_rec c = { 0 };

			FLUSH();
			if (size <= 0 || size > TRACEBUF_FDR_MARKER_MAX ||
			    (size_t)size > end - p - FS_META)
				return fs_fail(s, "marker size %d at %zu", size, p);
			if (!fs_zero(r + 9, 7))
				return fs_fail(s, "marker at %zu: padding not zero", p);
			t += fs_le32(r + 5);
			c.blk = b;
			c.t = t;
			c.data = r + FS_META;
			c.size = size;
			c.kind = FS_CUSTOM_REC;
			if ((size_t)size > strlen(FS_LOST_PREFIX) &&
			    !memcmp(c.data, FS_LOST_PREFIX, strlen(FS_LOST_PREFIX))) {
				char txt[64];
				unsigned long long n;

				snprintf(txt, sizeof(txt), "%.*s", size, c.data);
				if (sscanf(txt, FS_LOST_PREFIX "%llu events", &n) != 1 || !n)
					return fs_fail(s, "bad loss report '%s' at %zu", txt, p);
				c.kind = FS_LOST_REC;
				c.lost = n;
				s->lost += n;
				s->lost_cpu[b->cpu] += n;
			} else {
				b->events++;
				s->markers++;
			}
			h = fs_hash(h, c.data, size);
			fs_emit(s, &c);
			p += FS_META + size;
			continue;
		}
		case 8: {	/* TypedEventMarker */
			int32_t size = (int32_t)fs_le32(r + 1);
			uint16_t type = fs_le16(r + 9);
			int32_t want = type == TRACEBUF_FDR_TYPED_SWITCH ?
				TRACEBUF_FDR_SWITCH_SIZE :
				type == TRACEBUF_FDR_TYPED_WAKEUP ?
				TRACEBUF_FDR_WAKEUP_SIZE :
				type == TRACEBUF_FDR_TYPED_RET ?
				TRACEBUF_FDR_RET_SIZE : -1;
			struct fs_rec c = { 0 };

			FLUSH();
			if (want < 0)
				return fs_fail(s, "typed event of type %u at %zu", type, p);
			if (size != want || (size_t)size > end - p - FS_META)
				return fs_fail(s, "typed event %u of size %d at %zu",
					       type, size, p);
			if (!fs_zero(r + 11, 5))
				return fs_fail(s, "typed event at %zu: padding not zero", p);
			t += fs_le32(r + 5);
			c.blk = b;
			c.t = t;
			c.data = r + FS_META;
			c.size = size;
			c.kind = FS_TYPED_REC;
			c.type = type;
			b->events++;
			h = fs_hash(h, r + 9, 2);
			h = fs_hash(h, c.data, size);
			fs_emit(s, &c);
			p += FS_META + size;
			continue;
		}
		default:
			return fs_fail(s, "metadata kind %d at %zu inside the block at %zu",
				       r[0] >> 1, p, b->off);
		}
		p += FS_META;
	}
	FLUSH();
#undef FLUSH
	b->t_last = t;
	b->hash = h;
	return 0;
}

/*
 * Check @len bytes of @buf.  Returns the number of blocks, or -1 with a
 * message in s->err.  s->blk is malloc'd: fs_scan_free() it.
 */
static inline long fs_scan_stream(const uint8_t *buf, size_t len,
				  struct fs_scan *s)
{
	uint64_t last_t[FS_MAX_CPUS];
	size_t pos = 0;

	memset(last_t, 0, sizeof(last_t));
	s->nblk = 0;
	s->segments = 0;
	s->events = 0;
	s->lost = 0;
	s->markers = 0;
	memset(s->events_cpu, 0, sizeof(s->events_cpu));
	memset(s->lost_cpu, 0, sizeof(s->lost_cpu));
	s->err[0] = 0;
	if (!fs_is_header(buf, len))
		return fs_fail(s, "no valid FDR header at 0 (%zu bytes)", len);
	while (pos < len) {
		const uint8_t *b = buf + pos;
		struct fs_block *k;
		uint64_t ext;

		/* A header (first byte 0x05) never looks like a block. */
		if (fs_is_header(b, len - pos)) {
			s->hz = fs_le64(b + 8);
			s->segments++;
			memset(last_t, 0, sizeof(last_t));
			pos += FS_HDR;
			continue;
		}
		if (len - pos < FS_BLOCK_HDR)
			return fs_fail(s, "%zu bytes at %zu: too short for a block",
				       len - pos, pos);
		if (b[0] != (7 << 1 | 1) || b[16] != (0 << 1 | 1) ||
		    b[32] != (4 << 1 | 1) || b[48] != (9 << 1 | 1) ||
		    b[64] != (2 << 1 | 1))
			return fs_fail(s, "block at %zu: header records %02x %02x %02x %02x %02x",
				       pos, b[0], b[16], b[32], b[48], b[64]);
		if (!fs_zero(b + 9, 7) || !fs_zero(b + 21, 11) ||
		    !fs_zero(b + 45, 3) || !fs_zero(b + 53, 11) ||
		    !fs_zero(b + 75, 5))
			return fs_fail(s, "block at %zu: header padding not zero", pos);
		ext = fs_le64(b + 1);
		if (ext < FS_BLOCK_HDR - FS_META || ext > len - pos - FS_META)
			return fs_fail(s, "block at %zu: extents %llu, %zu bytes left",
				       pos, (unsigned long long)ext, len - pos);
		if (fs_le32(b + 41) >= 1000000)
			return fs_fail(s, "block at %zu: WallClockTime usec %u", pos,
				       fs_le32(b + 41));
		if (s->nblk == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 1024;
			s->blk = realloc(s->blk, s->cap * sizeof(*s->blk));
			if (!s->blk)
				return fs_fail(s, "out of memory");
		}
		k = &s->blk[s->nblk];
		memset(k, 0, sizeof(*k));
		k->off = pos;
		k->size = FS_META + ext;
		k->segment = s->segments - 1;
		k->tid = (int32_t)fs_le32(b + 17);
		k->pid = (int32_t)fs_le32(b + 49);
		k->cpu = fs_le16(b + 65);
		k->t_first = fs_le64(b + 67);
		if (k->cpu >= FS_MAX_CPUS)
			return fs_fail(s, "block at %zu: CPU %u", pos, k->cpu);
		if (k->tid <= 0 ||
		    (k->tid >= TRACEBUF_FDR_IDLE_TID(0) &&
		     k->tid != TRACEBUF_FDR_IDLE_TID(k->cpu)))
			return fs_fail(s, "block at %zu: tid %d on CPU %u", pos,
				       k->tid, k->cpu);
		if (k->tid == TRACEBUF_FDR_IDLE_TID(k->cpu) && k->pid != 0)
			return fs_fail(s, "block at %zu: idle tid with pid %d", pos, k->pid);
		if (k->t_first < last_t[k->cpu])
			return fs_fail(s, "block at %zu: CPU %u time goes back (%llu < %llu)",
				       pos, k->cpu, (unsigned long long)k->t_first,
				       (unsigned long long)last_t[k->cpu]);
		if (fs_records(s, buf, k))
			return -1;
		last_t[k->cpu] = k->t_last;
		s->events += k->events;
		s->events_cpu[k->cpu] += k->events;
		s->nblk++;
		pos += k->size;
	}
	return (long)s->nblk;
}

static inline void fs_scan_free(struct fs_scan *s)
{
	free(s->blk);
	s->blk = NULL;
	s->nblk = 0;
	s->cap = 0;
}

#endif /* FDR_STRICT_H */
