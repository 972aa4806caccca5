// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's rings out of a memory image: crash_image.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "crash_image.h"
#include "fdr_reader.h"
#include "tb_bytes.h"

/* ------------------------------------------------------------ sources */

static int mem_read(const struct tb_crash_src *s, uint64_t off, void *dst,
		    size_t n)
{
	if (off > s->size || n > s->size - off)
		return -1;
	memcpy(dst, s->mem + off, n);
	return 0;
}

void tb_crash_src_mem(struct tb_crash_src *s, const void *buf, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->read = mem_read;
	s->mem = buf;
	s->fd = -1;
	s->size = len;
}

static int fd_read(const struct tb_crash_src *s, uint64_t off, void *dst,
		   size_t n)
{
	int fd = s->fd;
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (uint8_t *)dst + done, n - done,
				  (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

void tb_crash_src_fd(struct tb_crash_src *s, int fd, uint64_t size)
{
	memset(s, 0, sizeof(*s));
	s->read = fd_read;
	s->fd = fd;
	s->size = size;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ------------------------------------------------------------ flattened */

/*
 * makedumpfile's flattened format (-F; qemu 7.2 writes kdump dumps this
 * way): a 4096-byte header starting "makedumpfile", then records of a
 * big-endian 64-bit offset and size and that many bytes, to be written at
 * that offset of the real dump; an offset of -1 ends it.  Read through an
 * index of the records sorted by offset.
 */
#define FLAT_SIGNATURE		"makedumpfile"
#define FLAT_HDR_SIZE		4096
#define FLAT_MAX_RECORDS	(1U << 26)

struct flat_rec {
	uint64_t off, len, pos;	/* dump offset, bytes, file position */
};

struct tb_crash_flat {
	struct tb_crash_src inner;
	struct flat_rec *recs;
	size_t n;
};

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static int flat_cmp(const void *a, const void *b)
{
	const struct flat_rec *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->pos < y->pos ? -1 : 1;	/* the later write wins */
}

static int flat_read(const struct tb_crash_src *s, uint64_t off, void *dst,
		     size_t n)
{
	const struct tb_crash_flat *f = s->priv;
	uint8_t *d = dst;

	while (n) {
		size_t lo = 0, hi = f->n, k;
		const struct flat_rec *r;

		/* The last record starting at or before @off. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (f->recs[mid].off <= off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return -1;
		r = &f->recs[lo - 1];
		if (off - r->off >= r->len)
			return -1;
		k = r->len - (off - r->off);
		if (k > n)
			k = n;
		if (f->inner.read(&f->inner, r->pos + (off - r->off), d, k))
			return -1;
		d += k;
		off += k;
		n -= k;
	}
	return 0;
}

/* Index the records of a flattened dump; im->src then reads the dump. */
static int flat_open(struct tb_crash_image *im, struct tb_error *err)
{
	struct tb_crash_flat *f = calloc(1, sizeof(*f));
	uint64_t pos = FLAT_HDR_SIZE, end = 0;
	size_t cap = 0;
	uint8_t h[16];

	if (!f) {
		tb_seterr(err, 0, "out of memory");
		return -1;
	}
	im->flat = f;
	f->inner = im->src;
	for (;;) {
		struct flat_rec *r;

		if (f->inner.read(&f->inner, pos, h, sizeof(h))) {
			tb_seterr(err, pos, "truncated flattened dump (no end record)");
			return -1;
		}
		if (get_be64(h) == UINT64_MAX)
			break;
		if (f->n == FLAT_MAX_RECORDS || get_be64(h) >> 62 ||
		    !get_be64(h + 8) || get_be64(h + 8) >> 40) {
			tb_seterr(err, pos, "flattened dump: bad record (offset %llu, %llu bytes)",
				  (unsigned long long)get_be64(h),
				  (unsigned long long)get_be64(h + 8));
			return -1;
		}
		if (f->n == cap) {
			struct flat_rec *q;

			cap = cap ? cap * 2 : 1024;
			q = realloc(f->recs, cap * sizeof(*q));
			if (!q) {
				tb_seterr(err, 0, "out of memory");
				return -1;
			}
			f->recs = q;
		}
		r = &f->recs[f->n++];
		r->off = get_be64(h);
		r->len = get_be64(h + 8);
		r->pos = pos + sizeof(h);
		pos = r->pos + r->len;
		if (r->off + r->len > end)
			end = r->off + r->len;
	}
	qsort(f->recs, f->n, sizeof(*f->recs), flat_cmp);
	memset(&im->src, 0, sizeof(im->src));
	im->src.read = flat_read;
	im->src.priv = f;
	im->src.fd = -1;
	im->src.size = end;
	return 0;
}

static void flat_free(struct tb_crash_flat *f)
{
	if (f)
		free(f->recs);
	free(f);
}

/* ------------------------------------------------------------ ELF core */

#define ELF_EHDR_SIZE	64
#define ELF_PHDR_SIZE	56
#define ELF_PT_LOAD	1
#define ELF_ET_CORE	4
#define ELF_PN_XNUM	0xffff
/* More program headers than any memory map has: a corrupt count. */
#define ELF_MAX_PHDRS	(1U << 20)

/* ------------------------------------------------------------ kdump */

/*
 * The kdump-compressed format (makedumpfile's default, qemu's kdump-*):
 *
 *   block 0        disk_dump_header: "KDUMP   ", header_version, utsname,
 *                  timestamp, then block_size (the page size) at 428,
 *                  sub_hdr_size (blocks) at 432, bitmap_blocks at 436,
 *                  max_mapnr (pages) at 440
 *   block 1..      kdump_sub_header; from version 6 max_mapnr_64 at 72
 *   then           bitmap_blocks blocks: two bitmaps of max_mapnr bits,
 *                  pages that exist, then pages dumped (LSB first)
 *   then           one page_desc per dumped page, in page order: offset
 *                  (8), size (4), flags (4), page_flags (8)
 */
#define KDUMP_SIGNATURE		"KDUMP   "
#define KDUMP_HDR_SIZE		464
#define KDUMP_DESC_SIZE		24
#define KDUMP_ZLIB		0x1
#define KDUMP_LZO		0x2
#define KDUMP_SNAPPY		0x4
#define KDUMP_ZSTD		0x20
#define KDUMP_RANK_BITS		4096	/* a rank checkpoint every 4096 pages */

struct tb_crash_kdump {
	uint32_t block;		/* page size */
	uint64_t max_pfn;
	uint8_t *dumped;	/* the second bitmap */
	uint64_t *rank;		/* dumped pages before each checkpoint */
	uint64_t descs;		/* file offset of the page descriptors */
	uint8_t *cbuf;		/* a compressed page */
	uint8_t *page;		/* the last page read, @page_pfn */
	uint64_t page_pfn;
};

static bool kd_dumped(const struct tb_crash_kdump *kd, uint64_t pfn)
{
	return pfn < kd->max_pfn && (kd->dumped[pfn / 8] >> (pfn % 8) & 1);
}

static void kd_free(struct tb_crash_kdump *kd)
{
	if (!kd)
		return;
	free(kd->dumped);
	free(kd->rank);
	free(kd->cbuf);
	free(kd->page);
	free(kd);
}

static int kd_open(struct tb_crash_image *im, const uint8_t *h,
		   struct tb_error *err)
{
	const struct tb_crash_src *src = &im->src;
	struct tb_crash_kdump *kd = calloc(1, sizeof(*kd));
	uint32_t version = tb_get32(h + 8), sub, bitmap_blocks, bytes;
	uint64_t bitmap, i, n = 0;
	uint8_t s8[8];

	if (!kd) {
		tb_seterr(err, 0, "out of memory");
		return -1;
	}
	im->kd = kd;
	kd->block = tb_get32(h + 428);
	sub = tb_get32(h + 432);
	bitmap_blocks = tb_get32(h + 436);
	kd->max_pfn = tb_get32(h + 440);
	if (!pow2(kd->block) || kd->block < 4096 || kd->block > (1U << 20) ||
	    sub > (1U << 20) || !bitmap_blocks || bitmap_blocks > (1U << 24)) {
		tb_seterr(err, 428, "kdump: bad geometry (pages of %u bytes, %u bitmap blocks)",
			  kd->block, bitmap_blocks);
		return -1;
	}
	if (version >= 6 && !src->read(src, kd->block + 72, s8, 8) &&
	    tb_get64(s8))
		kd->max_pfn = tb_get64(s8);
	/* Each bitmap is half of the bitmap blocks. */
	bytes = (uint64_t)bitmap_blocks * kd->block / 2 > UINT32_MAX ? 0 :
		(uint32_t)((uint64_t)bitmap_blocks * kd->block / 2);
	if (!bytes || kd->max_pfn > (uint64_t)bytes * 8) {
		tb_seterr(err, 436, "kdump: %llu pages, bitmaps of %u bytes",
			  (unsigned long long)kd->max_pfn, bytes);
		return -1;
	}
	bitmap = (uint64_t)(1 + sub) * kd->block;
	kd->descs = bitmap + (uint64_t)bitmap_blocks * kd->block;
	if (src->size != UINT64_MAX && kd->descs > src->size) {
		tb_seterr(err, bitmap, "truncated: kdump bitmaps end at %llu, the file at %llu",
			  (unsigned long long)kd->descs,
			  (unsigned long long)src->size);
		return -1;
	}
	kd->dumped = malloc(bytes);
	kd->rank = malloc((kd->max_pfn / KDUMP_RANK_BITS + 1) * 8);
	kd->cbuf = malloc(kd->block);
	kd->page = malloc(kd->block);
	if (!kd->dumped || !kd->rank || !kd->cbuf || !kd->page) {
		tb_seterr(err, 0, "out of memory");
		return -1;
	}
	if (src->read(src, bitmap + bytes, kd->dumped, bytes)) {
		tb_seterr(err, bitmap, "truncated: kdump bitmaps missing");
		return -1;
	}
	for (i = 0; i < kd->max_pfn; i++) {
		if (!(i % KDUMP_RANK_BITS))
			kd->rank[i / KDUMP_RANK_BITS] = n;
		n += kd_dumped(kd, i);
	}
	kd->page_pfn = UINT64_MAX;
	return 0;
}

/* Page @pfn into kd->page: 0, or -1 when not dumped or unreadable. */
static int kd_page(const struct tb_crash_image *im, uint64_t pfn)
{
	struct tb_crash_kdump *kd = im->kd;
	uint8_t d[KDUMP_DESC_SIZE];
	uint64_t idx, i, off;
	uint32_t size, flags;
	uLongf out = kd->block;

	if (kd->page_pfn == pfn)
		return 0;
	if (!kd_dumped(kd, pfn))
		return -1;
	idx = kd->rank[pfn / KDUMP_RANK_BITS];
	for (i = pfn - pfn % KDUMP_RANK_BITS; i < pfn; i++)
		idx += kd_dumped(kd, i);
	if (im->src.read(&im->src, kd->descs + idx * KDUMP_DESC_SIZE, d, sizeof(d)))
		return -1;
	off = tb_get64(d);
	size = tb_get32(d + 8);
	flags = tb_get32(d + 12);
	kd->page_pfn = UINT64_MAX;
	if (!size || size > kd->block)
		return -1;
	if (flags & (KDUMP_LZO | KDUMP_SNAPPY | KDUMP_ZSTD))
		return -1;	/* not linked in: reported by the caller's note */
	if (!(flags & KDUMP_ZLIB)) {
		if (size != kd->block ||
		    im->src.read(&im->src, off, kd->page, kd->block))
			return -1;
	} else if (im->src.read(&im->src, off, kd->cbuf, size) ||
		   uncompress(kd->page, &out, kd->cbuf, size) != Z_OK ||
		   out != kd->block) {
		return -1;
	}
	kd->page_pfn = pfn;
	return 0;
}

int tb_crash_image_open(struct tb_crash_image *im,
			const struct tb_crash_src *src, struct tb_error *err)
{
	uint8_t eh[ELF_EHDR_SIZE], ph[ELF_PHDR_SIZE];
	uint64_t phoff, shoff;
	uint32_t phnum, i;

	memset(im, 0, sizeof(*im));
	im->src = *src;
	if (src->read(src, 0, eh, sizeof(eh))) {
		tb_seterr(err, 0, "too short for an ELF core (%llu bytes)",
			  (unsigned long long)src->size);
		return -1;
	}
	if (!memcmp(eh, FLAT_SIGNATURE, strlen(FLAT_SIGNATURE))) {
		if (flat_open(im, err)) {
			tb_crash_image_free(im);
			return -1;
		}
		src = &im->src;
		if (src->read(src, 0, eh, sizeof(eh))) {
			tb_seterr(err, FLAT_HDR_SIZE, "flattened dump holds no image header");
			tb_crash_image_free(im);
			return -1;
		}
	}
	if (!memcmp(eh, KDUMP_SIGNATURE, 8)) {
		uint8_t kh[KDUMP_HDR_SIZE];

		if (src->read(src, 0, kh, sizeof(kh))) {
			tb_seterr(err, 0, "truncated kdump header");
			return -1;
		}
		if (kd_open(im, kh, err)) {
			tb_crash_image_free(im);
			return -1;
		}
		return 0;
	}
	if (memcmp(eh, "\177ELF", 4)) {
		tb_seterr(err, 0, "not an ELF core of physical memory (no ELF magic)");
		return -1;
	}
	if (eh[4] != 2 || eh[5] != 1) {
		tb_seterr(err, 4, "only 64-bit little-endian ELF cores are read (class %u, data %u)",
			  eh[4], eh[5]);
		return -1;
	}
	if (tb_get16(eh + 16) != ELF_ET_CORE) {
		tb_seterr(err, 16, "ELF type %u is not a core dump",
			  tb_get16(eh + 16));
		return -1;
	}
	phoff = tb_get64(eh + 32);
	shoff = tb_get64(eh + 40);
	phnum = tb_get16(eh + 56);
	if (tb_get16(eh + 54) != ELF_PHDR_SIZE) {
		tb_seterr(err, 54, "program header size %u, expected %u",
			  tb_get16(eh + 54), ELF_PHDR_SIZE);
		return -1;
	}
	if (phnum == ELF_PN_XNUM) {
		/* Too many for 16 bits: the count is section 0's sh_info. */
		uint8_t sh[4];

		if (!shoff || src->read(src, shoff + 44, sh, 4)) {
			tb_seterr(err, 40, "extended program header count unreadable");
			return -1;
		}
		phnum = tb_get32(sh);
	}
	if (!phnum || phnum > ELF_MAX_PHDRS) {
		tb_seterr(err, 56, "%u program headers", phnum);
		return -1;
	}
	im->segs = calloc(phnum, sizeof(*im->segs));
	if (!im->segs) {
		tb_seterr(err, 0, "out of memory");
		return -1;
	}
	for (i = 0; i < phnum; i++) {
		uint64_t at = phoff + (uint64_t)i * ELF_PHDR_SIZE;
		struct tb_crash_seg *s = &im->segs[im->nsegs];

		if (phoff > UINT64_MAX / 2 || src->read(src, at, ph, sizeof(ph))) {
			tb_seterr(err, at, "truncated: program header %u of %u missing",
				  i, phnum);
			tb_crash_image_free(im);
			return -1;
		}
		if (tb_get32(ph) != ELF_PT_LOAD)
			continue;
		s->off = tb_get64(ph + 8);
		s->paddr = tb_get64(ph + 24);
		s->len = tb_get64(ph + 32);	/* p_filesz */
		/* /proc/kcore: segments that are not RAM have no address. */
		if (s->paddr == UINT64_MAX || !s->len ||
		    s->paddr + s->len < s->paddr || s->off + s->len < s->off)
			continue;
		/* A truncated image keeps the segments it still holds, cut. */
		if (src->size != UINT64_MAX) {
			if (s->off >= src->size)
				continue;
			if (s->len > src->size - s->off)
				s->len = src->size - s->off;
		}
		im->nsegs++;
	}
	if (!im->nsegs) {
		tb_seterr(err, phoff, "no memory in this ELF core (no PT_LOAD with a physical address)");
		tb_crash_image_free(im);
		return -1;
	}
	return 0;
}

int tb_crash_image_phys(const struct tb_crash_image *im, uint64_t pa,
			void *dst, size_t n)
{
	uint8_t *d = dst;

	while (im->kd && n) {
		uint32_t in = pa % im->kd->block;
		size_t k = im->kd->block - in;

		if (k > n)
			k = n;
		if (kd_page(im, pa / im->kd->block))
			return -1;
		memcpy(d, im->kd->page + in, k);
		d += k;
		pa += k;
		n -= k;
	}
	while (n) {
		const struct tb_crash_seg *s = NULL;
		size_t i, k;

		for (i = 0; i < im->nsegs; i++) {
			if (pa >= im->segs[i].paddr &&
			    pa - im->segs[i].paddr < im->segs[i].len) {
				s = &im->segs[i];
				break;
			}
		}
		if (!s)
			return -1;
		k = s->len - (pa - s->paddr);
		if (k > n)
			k = n;
		if (im->src.read(&im->src, s->off + (pa - s->paddr), d, k))
			return -1;
		d += k;
		pa += k;
		n -= k;
	}
	return 0;
}

void tb_crash_image_free(struct tb_crash_image *im)
{
	kd_free(im->kd);
	im->kd = NULL;
	flat_free(im->flat);
	im->flat = NULL;
	free(im->segs);
	im->segs = NULL;
	im->nsegs = 0;
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

uint32_t tb_crc32(uint32_t crc, const void *buf, size_t len)
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
#define SCAN_CHUNK	(1U << 20)
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
	crc = tb_crc32(0, all, h->size);
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
		crc = tb_crc32(crc, page, h->frame_size);
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
	*pa = tb_get64(e) + off % d->h.frame_size;
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

/* Scan every page of the image for descriptors; keep the best one. */
static int desc_find(const struct tb_crash_image *im, struct desc *best,
		     tb_crash_note_fn note, void *ctx, struct tb_error *err)
{
	uint8_t *chunk = malloc(SCAN_CHUNK);
	unsigned int found = 0, bad = 0;
	uint64_t pfn;
	size_t i;

	memset(best, 0, sizeof(*best));
	if (!chunk) {
		crash_err(err, "out of memory");
		return -1;
	}
	for (pfn = 0; im->kd && pfn < im->kd->max_pfn; pfn++) {
		uint32_t o, bs = im->kd->block;

		if (!kd_dumped(im->kd, pfn) || kd_page(im, pfn))
			continue;
		/* Loading a descriptor reads other pages: keep this one. */
		memcpy(chunk, im->kd->page, bs);
		for (o = 0; o < bs; o += SCAN_ALIGN)
			if (!memcmp(chunk + o, TRACEBUF_CRASH_MAGIC,
				    TRACEBUF_CRASH_MAGIC_SIZE))
				desc_consider(im, pfn * bs + o, best, &found,
					      &bad, note, ctx);
	}
	for (i = 0; i < im->nsegs; i++) {
		const struct tb_crash_seg *s = &im->segs[i];
		uint64_t pa = (s->paddr + SCAN_ALIGN - 1) & ~(uint64_t)(SCAN_ALIGN - 1);

		while (pa < s->paddr + s->len) {
			uint64_t n = s->paddr + s->len - pa, o;
			uint64_t at = s->off + (pa - s->paddr);

			if (n > SCAN_CHUNK)
				n = SCAN_CHUNK;
			if (im->src.read(&im->src, at, chunk, n))
				break;	/* a short image: what it lacks is lost */
			for (o = 0; o + TRACEBUF_CRASH_MAGIC_SIZE <= n; o += SCAN_ALIGN)
				if (!memcmp(chunk + o, TRACEBUF_CRASH_MAGIC,
					    TRACEBUF_CRASH_MAGIC_SIZE))
					desc_consider(im, pa + o, best, &found,
						      &bad, note, ctx);
			pa += n;
		}
	}
	free(chunk);
	if (!found) {
		crash_err(err, bad ?
			  "no valid tracebuf crash descriptor in the image (%u damaged or stale copies of its magic): the module's memory is damaged or missing from the image" :
			  "no tracebuf crash descriptor in the image: the kernel did not run tracebuf.ko (or one without crash support), or the dump left out its memory (makedumpfile -d: Documentation/fdr.rst)",
			  bad);
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
	if (res->len + n > *cap) {
		size_t c = *cap ? *cap * 2 : 1 << 20;
		uint8_t *q;

		while (c < res->len + n)
			c *= 2;
		q = realloc(res->stream, c);
		if (!q)
			return -1;
		res->stream = q;
		*cap = c;
	}
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
		    blk[0] != ((TB_FDR_BUFFER_EXTENTS << 1) | 1)) {
			notef(r, "CPU %u page %llu: no block at offset %u: dropped the last %u bytes of the page",
			      cpu, (unsigned long long)seq, off, n);
			cr->dropped++;
			return 0;
		}
		if (off == open) {
			ext = n - TB_FDR_META_SIZE;
			tb_put64(blk + 1, ext);
		} else {
			ext = tb_get64(blk + 1);
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
		if (tb_fdr_read_mem(r->tmp, TB_FDR_HEADER_SIZE + n, NULL,
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
				tb_put64(page + 1, cut - TB_FDR_META_SIZE);
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
	crc = tb_crc32(0, text, h->names_len);
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
	if (tb_fdr_parse_header(d.h.fdr_header, &fh, err))
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

void tb_crash_result_free(struct tb_crash_result *res)
{
	free(res->stream);
	free(res->names);
	free(res->cpus);
	memset(res, 0, sizeof(*res));
}
