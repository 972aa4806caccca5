// SPDX-License-Identifier: GPL-2.0
/*
 * ELF instrumentation map writer; see format/xray_map.h.  Sled entries (64-bit):
 * u64 sled address, u64 function address, u8 kind (0 = function entry),
 * u8 always-instrument, u8 version (0: absolute addresses), 13 bytes of
 * padding.  The file is written front to back without seeking.
 */
#include <errno.h>
#include <string.h>

#include "format/xray_map.h"
#include "util/bytes.h"

#define EHDR_SIZE	64
#define SHDR_SIZE	64
#define SYM_SIZE	24
#define SLED_SIZE	32

enum { S_NULL, S_TEXT, S_MAP, S_SYMTAB, S_STRTAB, S_SHSTRTAB, S_NR };

static const char shstr[] =
	"\0.text\0xray_instr_map\0.symtab\0.strtab\0.shstrtab";
/* Offsets of the names above in shstr. */
static const unsigned int shname[S_NR] = { 0, 1, 7, 22, 30, 38 };

struct sec {
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t off;
	uint64_t size;
	uint32_t link;
	uint32_t info;
	uint64_t align;
	uint64_t entsize;
};

static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static int pad(FILE *f, uint64_t *pos, uint64_t to)
{
	static const uint8_t zero[64];

	while (*pos < to) {
		size_t n = to - *pos > sizeof(zero) ? sizeof(zero) :
			   (size_t)(to - *pos);

		if (put(f, zero, n))
			return -1;
		*pos += n;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

int tb_xray_map_write(FILE *f, const struct tb_name_map *m)
{
	uint32_t max_id = m->n ? m->v[m->n - 1].id : 0;
	struct sec s[S_NR] = { { 0 } };
	uint64_t strsz = 1, pos;
	uint8_t b[EHDR_SIZE];
	size_t i;
	uint32_t id;

	if (!max_id || max_id > TB_XRAY_MAP_MAX_ID)
		return -ERANGE;
	for (i = 0; i < m->n; i++)
		strsz += strlen(m->v[i].name) + 1;

	/* .text only gives the symbols a home: no bytes in the file. */
	s[S_TEXT] = (struct sec){ 8, 6, TB_XRAY_MAP_TEXT, EHDR_SIZE,
		(uint64_t)max_id * TB_XRAY_MAP_STRIDE, 0, 0, 16, 0 };
	s[S_MAP] = (struct sec){ 1, 2,
		align_up(TB_XRAY_MAP_TEXT + s[S_TEXT].size, 4096),
		align_up(EHDR_SIZE, 8), (uint64_t)max_id * SLED_SIZE,
		0, 0, 8, 0 };
	s[S_SYMTAB] = (struct sec){ 2, 0, 0,
		align_up(s[S_MAP].off + s[S_MAP].size, 8),
		(uint64_t)(m->n + 1) * SYM_SIZE, S_STRTAB, 1, 8, SYM_SIZE };
	s[S_STRTAB] = (struct sec){ 3, 0, 0,
		s[S_SYMTAB].off + s[S_SYMTAB].size, strsz, 0, 0, 1, 0 };
	s[S_SHSTRTAB] = (struct sec){ 3, 0, 0,
		s[S_STRTAB].off + strsz, sizeof(shstr), 0, 0, 1, 0 };
	pos = align_up(s[S_SHSTRTAB].off + sizeof(shstr), 8);

	memset(b, 0, sizeof(b));
	memcpy(b, "\x7f" "ELF", 4);
	b[4] = 2;			/* ELFCLASS64 */
	b[5] = 1;			/* little-endian */
	b[6] = 1;			/* EV_CURRENT */
	tb_bytes_put16(b + 16, 2);		/* ET_EXEC */
	tb_bytes_put16(b + 18, 62);		/* EM_X86_64 */
	tb_bytes_put32(b + 20, 1);
	tb_bytes_put64(b + 40, pos);		/* e_shoff */
	tb_bytes_put16(b + 52, EHDR_SIZE);
	tb_bytes_put16(b + 58, SHDR_SIZE);
	tb_bytes_put16(b + 60, S_NR);
	tb_bytes_put16(b + 62, S_SHSTRTAB);
	if (put(f, b, EHDR_SIZE))
		return -EIO;
	pos = EHDR_SIZE;
	if (pad(f, &pos, s[S_MAP].off))
		return -EIO;

	/* One entry sled per function id, 1..max_id in order. */
	for (id = 1; id <= max_id; id++) {
		uint64_t fn = TB_XRAY_MAP_TEXT +
			      (uint64_t)(id - 1) * TB_XRAY_MAP_STRIDE;

		memset(b, 0, SLED_SIZE);
		tb_bytes_put64(b, fn);
		tb_bytes_put64(b + 8, fn);
		b[16] = 0;		/* entry */
		b[17] = 1;		/* always instrument */
		b[18] = 0;		/* version 0: absolute */
		if (put(f, b, SLED_SIZE))
			return -EIO;
	}
	pos = s[S_MAP].off + s[S_MAP].size;
	if (pad(f, &pos, s[S_SYMTAB].off))
		return -EIO;

	memset(b, 0, SYM_SIZE);
	if (put(f, b, SYM_SIZE))
		return -EIO;
	strsz = 1;
	for (i = 0; i < m->n; i++) {
		memset(b, 0, SYM_SIZE);
		tb_bytes_put32(b, (uint32_t)strsz);
		b[4] = 1 << 4 | 2;	/* STB_GLOBAL, STT_FUNC */
		tb_bytes_put16(b + 6, S_TEXT);
		tb_bytes_put64(b + 8, TB_XRAY_MAP_TEXT +
			       (uint64_t)(m->v[i].id - 1) * TB_XRAY_MAP_STRIDE);
		tb_bytes_put64(b + 16, TB_XRAY_MAP_STRIDE);
		if (put(f, b, SYM_SIZE))
			return -EIO;
		strsz += strlen(m->v[i].name) + 1;
	}
	if (put(f, "", 1))
		return -EIO;
	for (i = 0; i < m->n; i++)
		if (put(f, m->v[i].name, strlen(m->v[i].name) + 1))
			return -EIO;
	if (put(f, shstr, sizeof(shstr)))
		return -EIO;
	pos = s[S_SHSTRTAB].off + sizeof(shstr);
	if (pad(f, &pos, align_up(pos, 8)))
		return -EIO;

	for (i = 0; i < S_NR; i++) {
		memset(b, 0, SHDR_SIZE);
		if (i) {
			tb_bytes_put32(b, shname[i]);
			tb_bytes_put32(b + 4, s[i].type);
			tb_bytes_put64(b + 8, s[i].flags);
			tb_bytes_put64(b + 16, s[i].addr);
			tb_bytes_put64(b + 24, s[i].off);
			tb_bytes_put64(b + 32, s[i].size);
			tb_bytes_put32(b + 40, s[i].link);
			tb_bytes_put32(b + 44, s[i].info);
			tb_bytes_put64(b + 48, s[i].align);
			tb_bytes_put64(b + 56, s[i].entsize);
		}
		if (put(f, b, SHDR_SIZE))
			return -EIO;
	}
	return fflush(f) ? -EIO : 0;
}
