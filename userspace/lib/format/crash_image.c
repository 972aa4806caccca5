// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's rings out of a memory image: format/crash_image.h.
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

#include "format/crash_image.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/bytes.h"

/* What a scan reads at once. */
#define SCAN_CHUNK	(1U << 20)

/* ------------------------------------------------------------ sources */

static int mem_read(const struct tb_crash_src *s, uint64_t off, void *dst,
		    size_t n)
{
	if (off > s->size || n > s->size - off)
		return -1;
	memcpy(dst, s->mem + off, n);
	return 0;
}

void tb_crash_image_src_mem(struct tb_crash_src *s, const void *buf, size_t len)
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

void tb_crash_image_src_fd(struct tb_crash_src *s, int fd, uint64_t size)
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
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	im->flat = f;
	f->inner = im->src;
	for (;;) {
		struct flat_rec *r;

		if (f->inner.read(&f->inner, pos, h, sizeof(h))) {
			tb_error_set(err, pos, "truncated flattened dump (no end record)");
			return -1;
		}
		if (get_be64(h) == UINT64_MAX)
			break;
		if (f->n == FLAT_MAX_RECORDS || get_be64(h) >> 62 ||
		    !get_be64(h + 8) || get_be64(h + 8) >> 40) {
			tb_error_set(err, pos, "flattened dump: bad record (offset %llu, %llu bytes)",
				     (unsigned long long)get_be64(h),
				     (unsigned long long)get_be64(h + 8));
			return -1;
		}
		if (tb_buf_array_grow(&f->recs, &cap, f->n + 1,
				      sizeof(*f->recs))) {
			tb_error_set(err, 0, "out of memory");
			return -1;
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
	uint32_t version = tb_bytes_get32(h + 8), sub, bitmap_blocks, bytes;
	uint64_t bitmap, i, n = 0;
	uint8_t s8[8];

	if (!kd) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	im->kd = kd;
	kd->block = tb_bytes_get32(h + 428);
	sub = tb_bytes_get32(h + 432);
	bitmap_blocks = tb_bytes_get32(h + 436);
	kd->max_pfn = tb_bytes_get32(h + 440);
	if (!pow2(kd->block) || kd->block < 4096 || kd->block > (1U << 20) ||
	    sub > (1U << 20) || !bitmap_blocks || bitmap_blocks > (1U << 24)) {
		tb_error_set(err, 428, "kdump: bad geometry (pages of %u bytes, %u bitmap blocks)",
			     kd->block, bitmap_blocks);
		return -1;
	}
	if (version >= 6 && !src->read(src, kd->block + 72, s8, 8) &&
	    tb_bytes_get64(s8))
		kd->max_pfn = tb_bytes_get64(s8);
	/* Each bitmap is half of the bitmap blocks. */
	bytes = (uint64_t)bitmap_blocks * kd->block / 2 > UINT32_MAX ? 0 :
		(uint32_t)((uint64_t)bitmap_blocks * kd->block / 2);
	if (!bytes || kd->max_pfn > (uint64_t)bytes * 8) {
		tb_error_set(err, 436, "kdump: %llu pages, bitmaps of %u bytes",
			     (unsigned long long)kd->max_pfn, bytes);
		return -1;
	}
	bitmap = (uint64_t)(1 + sub) * kd->block;
	kd->descs = bitmap + (uint64_t)bitmap_blocks * kd->block;
	if (src->size != UINT64_MAX && kd->descs > src->size) {
		tb_error_set(err, bitmap, "truncated: kdump bitmaps end at %llu, the file at %llu",
			     (unsigned long long)kd->descs,
			     (unsigned long long)src->size);
		return -1;
	}
	kd->dumped = malloc(bytes);
	kd->rank = malloc((kd->max_pfn / KDUMP_RANK_BITS + 1) * 8);
	kd->cbuf = malloc(kd->block);
	kd->page = malloc(kd->block);
	if (!kd->dumped || !kd->rank || !kd->cbuf || !kd->page) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	if (src->read(src, bitmap + bytes, kd->dumped, bytes)) {
		tb_error_set(err, bitmap, "truncated: kdump bitmaps missing");
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
	off = tb_bytes_get64(d);
	size = tb_bytes_get32(d + 8);
	flags = tb_bytes_get32(d + 12);
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
		tb_error_set(err, 0, "too short for an ELF core (%llu bytes)",
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
			tb_error_set(err, FLAT_HDR_SIZE, "flattened dump holds no image header");
			tb_crash_image_free(im);
			return -1;
		}
	}
	if (!memcmp(eh, KDUMP_SIGNATURE, 8)) {
		uint8_t kh[KDUMP_HDR_SIZE];

		if (src->read(src, 0, kh, sizeof(kh))) {
			tb_error_set(err, 0, "truncated kdump header");
			return -1;
		}
		if (kd_open(im, kh, err)) {
			tb_crash_image_free(im);
			return -1;
		}
		return 0;
	}
	if (memcmp(eh, "\177ELF", 4)) {
		tb_error_set(err, 0, "not an ELF core of physical memory (no ELF magic)");
		return -1;
	}
	if (eh[4] != 2 || eh[5] != 1) {
		tb_error_set(err, 4, "only 64-bit little-endian ELF cores are read (class %u, data %u)",
			     eh[4], eh[5]);
		return -1;
	}
	if (tb_bytes_get16(eh + 16) != ELF_ET_CORE) {
		tb_error_set(err, 16, "ELF type %u is not a core dump",
			     tb_bytes_get16(eh + 16));
		return -1;
	}
	phoff = tb_bytes_get64(eh + 32);
	shoff = tb_bytes_get64(eh + 40);
	phnum = tb_bytes_get16(eh + 56);
	if (tb_bytes_get16(eh + 54) != ELF_PHDR_SIZE) {
		tb_error_set(err, 54, "program header size %u, expected %u",
			     tb_bytes_get16(eh + 54), ELF_PHDR_SIZE);
		return -1;
	}
	if (phnum == ELF_PN_XNUM) {
		/* Too many for 16 bits: the count is section 0's sh_info. */
		uint8_t sh[4];

		if (!shoff || src->read(src, shoff + 44, sh, 4)) {
			tb_error_set(err, 40, "extended program header count unreadable");
			return -1;
		}
		phnum = tb_bytes_get32(sh);
	}
	if (!phnum || phnum > ELF_MAX_PHDRS) {
		tb_error_set(err, 56, "%u program headers", phnum);
		return -1;
	}
	im->segs = calloc(phnum, sizeof(*im->segs));
	if (!im->segs) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	for (i = 0; i < phnum; i++) {
		uint64_t at = phoff + (uint64_t)i * ELF_PHDR_SIZE;
		struct tb_crash_seg *s = &im->segs[im->nsegs];

		if (phoff > UINT64_MAX / 2 || src->read(src, at, ph, sizeof(ph))) {
			tb_error_set(err, at, "truncated: program header %u of %u missing",
				     i, phnum);
			tb_crash_image_free(im);
			return -1;
		}
		if (tb_bytes_get32(ph) != ELF_PT_LOAD)
			continue;
		s->off = tb_bytes_get64(ph + 8);
		s->paddr = tb_bytes_get64(ph + 24);
		s->len = tb_bytes_get64(ph + 32);	/* p_filesz */
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
		tb_error_set(err, phoff, "no memory in this ELF core (no PT_LOAD with a physical address)");
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

int tb_crash_image_scan(const struct tb_crash_image *im, uint32_t align,
			const void *magic, size_t magic_len,
			tb_crash_image_seen_fn seen, void *ctx)
{
	uint8_t *chunk = malloc(SCAN_CHUNK);
	uint64_t pfn;
	size_t i;

	if (!chunk)
		return -ENOMEM;
	for (pfn = 0; im->kd && pfn < im->kd->max_pfn; pfn++) {
		uint32_t o, bs = im->kd->block;

		if (!kd_dumped(im->kd, pfn) || kd_page(im, pfn))
			continue;
		/* @seen reads other pages: keep this one. */
		memcpy(chunk, im->kd->page, bs);
		for (o = 0; o + magic_len <= bs; o += align)
			if (!memcmp(chunk + o, magic, magic_len))
				seen(ctx, im, pfn * bs + o);
	}
	for (i = 0; i < im->nsegs; i++) {
		const struct tb_crash_seg *s = &im->segs[i];
		uint64_t pa = (s->paddr + align - 1) & ~(uint64_t)(align - 1);

		while (pa < s->paddr + s->len) {
			uint64_t n = s->paddr + s->len - pa, o;
			uint64_t at = s->off + (pa - s->paddr);

			if (n > SCAN_CHUNK)
				n = SCAN_CHUNK;
			if (im->src.read(&im->src, at, chunk, n))
				break;	/* a short image: what it lacks is lost */
			for (o = 0; o + magic_len <= n; o += align)
				if (!memcmp(chunk + o, magic, magic_len))
					seen(ctx, im, pa + o);
			pa += n;
		}
	}
	free(chunk);
	return 0;
}
