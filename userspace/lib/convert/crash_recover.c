// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's rings out of a crash image: the descriptor found
 * and checked, the frozen rings read into an FDR stream; see
 * convert/crash_recover.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "convert/crash_recover.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/bytes.h"

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ------------------------------------------------------------ descriptor */

/* An error about the recorder, not at a place in the file: no offset. */
static void crash_err(struct tb_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void crash_err(struct tb_error *e, const char *fmt, ...)
{
	va_list ap;

	e->offset = 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

uint32_t tb_crash_recover_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return ~crc;
}

#define DESC_HDR	sizeof(struct tracebuf_crash_desc)
#define DESC_HDR_V1	TRACEBUF_CRASH_DESC_SIZE_VER1
#define DESC_CPU	sizeof(struct tracebuf_crash_cpu)
/* More than any names text the module writes (its area is 64 KiB). */
#define NAMES_MAX	(16U << 20)
#define MAX_CPUS	65536U
#define SCAN_ALIGN	4096U

/*
 * A descriptor found in the image, checked and copied out; a version-1
 * header is copied with zeros for the fields it lacks (no names area).
 */
struct desc {
	uint64_t paddr;
	uint32_t hdr_size;		/* of its version */
	struct tracebuf_crash_desc h;
	struct tracebuf_crash_cpu *cpus;
	uint64_t *tables;
	uint32_t frames_per_table;
	uint32_t frames;
};

/* Read and check the descriptor at @pa; false with @why set if it is not. */
static bool desc_load(const struct tb_crash_image *im, uint64_t pa,
		      struct desc *d, char *why, size_t wsize)
{
	struct tracebuf_crash_desc *h = &d->h;
	uint64_t expect, ntables;
	uint8_t *all = NULL;
	uint32_t crc, sum;

	memset(d, 0, sizeof(*d));
	d->paddr = pa;
	if (tb_crash_image_phys(im, pa, h, DESC_HDR_V1)) {
		snprintf(why, wsize, "truncated");
		return false;
	}
	if (h->version != 1 && h->version != TRACEBUF_CRASH_VERSION) {
		snprintf(why, wsize, "version %u (this tool reads 1 to %u)",
			 h->version, TRACEBUF_CRASH_VERSION);
		return false;
	}
	d->hdr_size = h->version == 1 ? DESC_HDR_V1 : DESC_HDR;
	if (d->hdr_size > DESC_HDR_V1 &&
	    tb_crash_image_phys(im, pa, h, d->hdr_size)) {
		snprintf(why, wsize, "truncated");
		return false;
	}
	if (!h->nr_cpus || h->nr_cpus > MAX_CPUS ||
	    !pow2(h->frame_size) || h->frame_size < 4096 ||
	    h->frame_size > (1U << 20) || h->tables_per_cpu > (1U << 20)) {
		snprintf(why, wsize, "bad geometry (%u CPUs, frames of %u bytes)",
			 h->nr_cpus, h->frame_size);
		return false;
	}
	ntables = (uint64_t)h->nr_cpus * h->tables_per_cpu;
	expect = d->hdr_size + (uint64_t)h->nr_cpus * DESC_CPU + ntables * 8;
	if (h->size != expect) {
		snprintf(why, wsize, "size %u, expected %llu", h->size,
			 (unsigned long long)expect);
		return false;
	}
	all = malloc(h->size);
	if (!all || tb_crash_image_phys(im, pa, all, h->size)) {
		snprintf(why, wsize, all ? "truncated (%u bytes)" : "out of memory",
			 h->size);
		free(all);
		return false;
	}
	sum = h->checksum;
	memset(all + offsetof(struct tracebuf_crash_desc, checksum), 0, 4);
	crc = tb_crash_recover_crc32(0, all, h->size);
	if (crc != sum) {
		snprintf(why, wsize, "checksum 0x%08x, computed 0x%08x", sum, crc);
		free(all);
		return false;
	}
	d->cpus = malloc((size_t)h->nr_cpus * DESC_CPU);
	d->tables = malloc(ntables * 8 + 1);
	if (!d->cpus || !d->tables) {
		snprintf(why, wsize, "out of memory");
		free(all);
		return false;
	}
	memcpy(d->cpus, all + d->hdr_size, (size_t)h->nr_cpus * DESC_CPU);
	memcpy(d->tables, all + d->hdr_size + (size_t)h->nr_cpus * DESC_CPU,
	       ntables * 8);
	free(all);
	d->frames_per_table = h->frame_size / 8;
	return true;
}

static void desc_free(struct desc *d)
{
	free(d->cpus);
	free(d->tables);
	d->cpus = NULL;
	d->tables = NULL;
}

/* The geometry of the rings, checked once the state says they matter. */
static bool desc_rings_ok(const struct tb_crash_image *im, struct desc *d,
			  char *why, size_t wsize)
{
	const struct tracebuf_crash_desc *h = &d->h;
	uint64_t t, ntables = (uint64_t)h->nr_cpus * h->tables_per_cpu;
	uint8_t *page;
	uint32_t crc = 0;

	if (!pow2(h->buf_size) || h->buf_size < TRACEBUF_FDR_BUF_MIN ||
	    h->buf_size > TRACEBUF_FDR_BUF_MAX ||
	    h->page_size != h->buf_size / TRACEBUF_FDR_PAGES ||
	    h->buf_size < h->frame_size) {
		snprintf(why, wsize, "bad buffer size %u (sub-buffers of %u)",
			 h->buf_size, h->page_size);
		return false;
	}
	d->frames = h->buf_size / h->frame_size;
	if (h->tables_per_cpu !=
	    (d->frames + d->frames_per_table - 1) / d->frames_per_table) {
		snprintf(why, wsize, "%u frame tables per CPU for %u frames",
			 h->tables_per_cpu, d->frames);
		return false;
	}
	page = malloc(h->frame_size);
	if (!page) {
		snprintf(why, wsize, "out of memory");
		return false;
	}
	for (t = 0; t < ntables; t++) {
		if (tb_crash_image_phys(im, d->tables[t], page, h->frame_size)) {
			snprintf(why, wsize, "frame table %llu at 0x%llx not in the image",
				 (unsigned long long)t,
				 (unsigned long long)d->tables[t]);
			free(page);
			return false;
		}
		crc = tb_crash_recover_crc32(crc, page, h->frame_size);
	}
	free(page);
	if (crc != h->tables_checksum) {
		snprintf(why, wsize, "frame tables damaged (checksum 0x%08x, computed 0x%08x)",
			 h->tables_checksum, crc);
		return false;
	}
	return true;
}

/* Physical address of byte @off of CPU @cpu's buffer. */
static int ring_addr(const struct tb_crash_image *im, const struct desc *d,
		     uint32_t cpu, uint64_t off, uint64_t *pa)
{
	uint64_t f = off / d->h.frame_size;
	uint64_t t = (uint64_t)cpu * d->h.tables_per_cpu + f / d->frames_per_table;
	uint8_t e[8];

	if (tb_crash_image_phys(im, d->tables[t] + (f % d->frames_per_table) * 8,
				e, 8))
		return -1;
	*pa = tb_bytes_get64(e) + off % d->h.frame_size;
	return 0;
}

/* Copy @n bytes at @off of CPU @cpu's buffer, frame by frame. */
static int ring_read(const struct tb_crash_image *im, const struct desc *d,
		     uint32_t cpu, uint64_t off, uint8_t *dst, size_t n)
{
	while (n) {
		size_t k = d->h.frame_size - off % d->h.frame_size;
		uint64_t pa;

		if (k > n)
			k = n;
		if (ring_addr(im, d, cpu, off, &pa) ||
		    tb_crash_image_phys(im, pa, dst, k))
			return -1;
		off += k;
		dst += k;
		n -= k;
	}
	return 0;
}

/* A copy of the magic at @pa: keep the descriptor if it is the best yet. */
static void desc_consider(const struct tb_crash_image *im, uint64_t pa,
			  struct desc *best, unsigned int *found,
			  unsigned int *bad, tb_crash_note_fn note, void *ctx)
{
	char why[160], msg[256];
	struct desc d;

	if (!desc_load(im, pa, &d, why, sizeof(why))) {
		/* The module's own copy of the magic lands here too. */
		(*bad)++;
		desc_free(&d);
		return;
	}
	(*found)++;
	if (!best->cpus || (d.h.state == TRACEBUF_CRASH_FROZEN &&
			    best->h.state != TRACEBUF_CRASH_FROZEN)) {
		if (best->cpus) {
			snprintf(msg, sizeof(msg), "ignoring the descriptor at 0x%llx (not frozen)",
				 (unsigned long long)best->paddr);
			note(ctx, msg);
		}
		desc_free(best);
		*best = d;
	} else {
		snprintf(msg, sizeof(msg), "ignoring a second descriptor at 0x%llx",
			 (unsigned long long)d.paddr);
		note(ctx, msg);
		desc_free(&d);
	}
}

/* A copy of the magic at @pa (tb_crash_image_scan()). */
struct desc_scan {
	struct desc *best;
	unsigned int found, bad;
	tb_crash_note_fn note;
	void *ctx;
};

static void desc_seen(void *arg, const struct tb_crash_image *im, uint64_t pa)
{
	struct desc_scan *s = arg;

	desc_consider(im, pa, s->best, &s->found, &s->bad, s->note, s->ctx);
}

/* Scan every page of the image for descriptors; keep the best one. */
static int desc_find(const struct tb_crash_image *im, struct desc *best,
		     tb_crash_note_fn note, void *ctx, struct tb_error *err)
{
	struct desc_scan s = { .best = best, .note = note, .ctx = ctx };

	memset(best, 0, sizeof(*best));
	if (tb_crash_image_scan(im, SCAN_ALIGN, TRACEBUF_CRASH_MAGIC,
				TRACEBUF_CRASH_MAGIC_SIZE, desc_seen, &s)) {
		crash_err(err, "out of memory");
		return -1;
	}
	if (!s.found) {
		crash_err(err, s.bad ?
			  "no valid tracebuf crash descriptor in the image (%u damaged or stale copies of its magic): the module's memory is damaged or missing from the image" :
			  "no tracebuf crash descriptor in the image: the kernel did not run tracebuf.ko (or one without crash support), or the dump left out its memory (makedumpfile -d: Documentation/fdr.rst)",
			  s.bad);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ recovery */

struct blk_check {
	uint64_t last;		/* offset of the last record seen */
	uint64_t end;		/* and of the byte after it */
};

static int blk_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct blk_check *b = ctx;

	b->last = r->offset;
	if (r->kind == TB_FDR_FUNCTION)
		b->end = r->offset + TB_FDR_FUNC_SIZE;
	else if (r->kind == TB_FDR_CUSTOM || r->kind == TB_FDR_TYPED)
		b->end = r->offset + TB_FDR_META_SIZE + r->size;
	else
		b->end = r->offset + TB_FDR_META_SIZE;
	return 0;
}

struct recovery {
	const struct tb_crash_image *im;
	const struct desc *d;
	struct tb_crash_result *res;
	tb_crash_note_fn note;
	void *ctx;
	uint8_t *tmp;		/* header + one page */
};

static int out_append(struct tb_crash_result *res, const void *p, size_t n,
		      size_t *cap)
{
	if (tb_buf_array_grow(&res->stream, cap, res->len + n, 1))
		return -1;
	memcpy(res->stream + res->len, p, n);
	res->len += n;
	return 0;
}

static void notef(struct recovery *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void notef(struct recovery *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->note(r->ctx, msg);
}

/*
 * The blocks of one page (@len bytes, in r->tmp after the header): each
 * checked alone by the FDR reader; a damaged one is dropped.  @open is the
 * offset of the block still open at the freeze (its BufferExtents is
 * stale), or TRACEBUF_CRASH_NO_BLOCK; with @torn its last record may be
 * half written and is dropped.
 */
static int page_blocks(struct recovery *r, uint32_t cpu, uint64_t seq,
		       uint32_t len, uint32_t open, bool torn, size_t *cap)
{
	struct tb_crash_cpu_result *cr = &r->res->cpus[cpu];
	uint8_t *page = r->tmp + TB_FDR_HEADER_SIZE;
	uint32_t off = 0;

	while (off < len) {
		uint32_t n = len - off;
		uint64_t ext;
		struct blk_check b = { 0 };
		struct tb_error e;
		uint8_t *blk = page + off;

		if (n < TB_FDR_META_SIZE ||
		    blk[0] != TRACEBUF_FDR_META_BYTE(TB_FDR_BUFFER_EXTENTS)) {
			notef(r, "CPU %u page %llu: no block at offset %u: dropped the last %u bytes of the page",
			      cpu, (unsigned long long)seq, off, n);
			cr->dropped++;
			return 0;
		}
		if (off == open) {
			ext = n - TB_FDR_META_SIZE;
			tb_bytes_put64(blk + TRACEBUF_FDR_FIELD, ext);
		} else {
			ext = tb_bytes_get64(blk + TRACEBUF_FDR_FIELD);
			if (ext > n - TB_FDR_META_SIZE) {
				notef(r, "CPU %u page %llu: block at offset %u claims %llu bytes, %u left: dropped the rest of the page",
				      cpu, (unsigned long long)seq, off,
				      (unsigned long long)ext, n);
				cr->dropped++;
				return 0;
			}
		}
		n = TB_FDR_META_SIZE + ext;
		/* The block alone after the file header, where the reader wants it. */
		memmove(page, blk, n);
		if (tb_fdr_reader_read_mem(r->tmp, TB_FDR_HEADER_SIZE + n, NULL,
					   blk_visit, &b, NULL, &e)) {
			notef(r, "CPU %u page %llu: damaged block at offset %u dropped (%s)",
			      cpu, (unsigned long long)seq, off, e.msg);
			cr->dropped++;
		} else if (off == open && torn) {
			/* Stopped inside a write: its last record may be half done. */
			uint32_t cut = b.last - TB_FDR_HEADER_SIZE;

			if (cut <= 5 * TB_FDR_META_SIZE) {
				notef(r, "CPU %u: stopped inside a write: its open block dropped",
				      cpu);
				cr->dropped++;
			} else {
				notef(r, "CPU %u: stopped inside a write: its last record dropped",
				      cpu);
				tb_bytes_put64(page + TRACEBUF_FDR_FIELD, cut - TB_FDR_META_SIZE);
				if (out_append(r->res, page, cut, cap))
					return -1;
				cr->blocks++;
				cr->bytes += cut;
			}
		} else {
			if (out_append(r->res, page, n, cap))
				return -1;
			cr->blocks++;
			cr->bytes += n;
		}
		/* The move wrote below off + n: the next block is intact. */
		off += n;
	}
	return 0;
}

static int cpu_blocks(struct recovery *r, uint32_t cpu, size_t *cap)
{
	const struct tracebuf_crash_cpu *c = &r->d->cpus[cpu];
	uint32_t psize = r->d->h.page_size;
	uint64_t seq;

	r->res->cpus[cpu].flags = c->flags;
	if (c->head - c->tail >= TRACEBUF_FDR_PAGES || c->len > psize ||
	    (c->block != TRACEBUF_CRASH_NO_BLOCK && c->block >= c->len)) {
		notef(r, "CPU %u: impossible positions (pages %llu..%llu, %u bytes): its data dropped",
		      cpu, (unsigned long long)c->tail,
		      (unsigned long long)c->head, c->len);
		r->res->cpus[cpu].dropped++;
		return 0;
	}
	for (seq = c->tail; seq != c->head + 1; seq++) {
		bool last = seq == c->head;
		uint32_t len = last ? c->len : c->page_len[seq % TRACEBUF_FDR_PAGES];

		if (!len)
			continue;
		if (len > psize) {
			notef(r, "CPU %u page %llu: length %u larger than a page: dropped",
			      cpu, (unsigned long long)seq, len);
			r->res->cpus[cpu].dropped++;
			continue;
		}
		if (ring_read(r->im, r->d, cpu,
			      (uint64_t)(seq % TRACEBUF_FDR_PAGES) * psize,
			      r->tmp + TB_FDR_HEADER_SIZE, len)) {
			notef(r, "CPU %u page %llu: not in the image: dropped",
			      cpu, (unsigned long long)seq);
			r->res->cpus[cpu].dropped++;
			continue;
		}
		if (page_blocks(r, cpu, seq, len,
				last ? c->block : TRACEBUF_CRASH_NO_BLOCK,
				last && (c->flags & TRACEBUF_CRASH_CPU_TORN), cap))
			return -1;
	}
	return 0;
}

/*
 * The names text of the names area (version 2), into @res; what is missing
 * or damaged is only noted: the trace then has numeric names.
 */
static void names_read(struct recovery *r)
{
	const struct tracebuf_crash_desc *h = &r->d->h;
	uint32_t crc;
	char *text;

	if (h->version < 2 || !h->names_paddr) {
		notef(r, "no names in the crash descriptor (%s): numeric names for IRQs, softirqs, work functions, faults and tasks",
		      h->version < 2 ? "an older module" :
		      "the module had no memory for them");
		return;
	}
	if (!h->names_len) {
		notef(r, "the names area is empty: numeric names");
		return;
	}
	if (h->names_len > h->names_size || h->names_len > NAMES_MAX) {
		notef(r, "names area damaged (%u bytes written in %u): numeric names",
		      h->names_len, h->names_size);
		return;
	}
	text = malloc((size_t)h->names_len + 1);
	if (!text) {
		notef(r, "no memory for the names: numeric names");
		return;
	}
	if (tb_crash_image_phys(r->im, h->names_paddr, text, h->names_len)) {
		notef(r, "the names area at 0x%llx is not in the image: numeric names",
		      (unsigned long long)h->names_paddr);
		free(text);
		return;
	}
	crc = tb_crash_recover_crc32(0, text, h->names_len);
	if (crc != h->names_checksum) {
		notef(r, "names area damaged (checksum 0x%08x, computed 0x%08x): numeric names",
		      h->names_checksum, crc);
		free(text);
		return;
	}
	if (h->names_flags & TRACEBUF_CRASH_NAMES_TRUNCATED)
		notef(r, "the names did not all fit in the names area: some are numeric");
	text[h->names_len] = 0;
	r->res->names = text;
	r->res->names_len = h->names_len;
}

static const char *const state_why[] = {
	[TRACEBUF_CRASH_IDLE] = "the recorder was never started (or was reconfigured after its last capture): nothing to recover",
	[TRACEBUF_CRASH_RECORDING] = "the recorder was recording but its rings were not frozen by a panic: the image was not taken at a panic, or kdump ran before the panic notifiers (boot with crash_kexec_post_notifiers: Documentation/fdr.rst)",
	[TRACEBUF_CRASH_STOPPED] = "the recorder was stopped before the crash: nothing was recording (its last capture is not a crash trace)",
};

int tb_crash_recover(const struct tb_crash_image *im,
		     struct tb_crash_result *res, tb_crash_note_fn note,
		     void *ctx, struct tb_error *err)
{
	struct recovery r = { .im = im, .res = res, .note = note, .ctx = ctx };
	struct tb_fdr_header fh;
	struct desc d;
	char why[160];
	size_t cap = 0;
	uint32_t cpu;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (desc_find(im, &d, note, ctx, err))
		return -1;
	r.d = &d;
	res->desc_paddr = d.paddr;
	res->nr_cpus = d.h.nr_cpus;
	res->capture = d.h.capture;
	if (d.h.state != TRACEBUF_CRASH_FROZEN) {
		if (d.h.state < TRACEBUF_CRASH_FROZEN)
			crash_err(err, "%s", state_why[d.h.state]);
		else
			crash_err(err, "unknown recorder state %u", d.h.state);
		goto out;
	}
	if (!desc_rings_ok(im, &d, why, sizeof(why))) {
		crash_err(err, "the crash descriptor at 0x%llx: %s",
			  (unsigned long long)d.paddr, why);
		goto out;
	}
	if (tb_fdr_reader_parse_header(d.h.fdr_header, &fh, err))
		goto out;
	if (d.h.panic_cpu >= d.h.nr_cpus) {
		crash_err(err, "panic CPU %u of %u", d.h.panic_cpu,
			  d.h.nr_cpus);
		goto out;
	}
	res->panic_cpu = d.h.panic_cpu;
	res->cpus = calloc(d.h.nr_cpus, sizeof(*res->cpus));
	r.tmp = malloc(TB_FDR_HEADER_SIZE + d.h.page_size);
	if (!res->cpus || !r.tmp ||
	    out_append(res, d.h.fdr_header, TB_FDR_HEADER_SIZE, &cap)) {
		crash_err(err, "out of memory");
		goto out;
	}
	memcpy(r.tmp, d.h.fdr_header, TB_FDR_HEADER_SIZE);
	for (cpu = 0; cpu < d.h.nr_cpus; cpu++) {
		if (cpu_blocks(&r, cpu, &cap)) {
			crash_err(err, "out of memory");
			goto out;
		}
		res->blocks += res->cpus[cpu].blocks;
		res->dropped += res->cpus[cpu].dropped;
	}
	if (!res->blocks) {
		crash_err(err, "the rings were frozen but hold no intact block");
		goto out;
	}
	names_read(&r);
	ret = 0;
out:
	free(r.tmp);
	desc_free(&d);
	return ret;
}

void tb_crash_recover_free(struct tb_crash_result *res)
{
	free(res->stream);
	free(res->names);
	free(res->cpus);
	memset(res, 0, sizeof(*res));
}
