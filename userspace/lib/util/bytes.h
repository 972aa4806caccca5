/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Little-endian field access.  Every file format we read or write is
 * little-endian on disk whatever the host; going through these helpers
 * (byte by byte) also keeps unaligned reads legal.
 */
#ifndef TB_BYTES_H
#define TB_BYTES_H

#include <stdint.h>
#include <string.h>

/*
 * On a little-endian host a memcpy is the whole job, and compilers turn
 * it into one (unaligned-safe) load or store; the byte-wise versions
 * below are the portable fallback.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TB_LE_HOST 1
#else
#define TB_LE_HOST 0
#endif

static inline uint16_t tb_bytes_get16(const uint8_t *p)
{
	if (TB_LE_HOST) {
		uint16_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t tb_bytes_get32(const uint8_t *p)
{
	if (TB_LE_HOST) {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t tb_bytes_get64(const uint8_t *p)
{
	if (TB_LE_HOST) {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	return (uint64_t)tb_bytes_get32(p) | (uint64_t)tb_bytes_get32(p + 4) << 32;
}

static inline void tb_bytes_put16(uint8_t *p, uint16_t v)
{
	if (TB_LE_HOST) {
		memcpy(p, &v, sizeof(v));
		return;
	}
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void tb_bytes_put32(uint8_t *p, uint32_t v)
{
	if (TB_LE_HOST) {
		memcpy(p, &v, sizeof(v));
		return;
	}
	tb_bytes_put16(p, (uint16_t)v);
	tb_bytes_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void tb_bytes_put64(uint8_t *p, uint64_t v)
{
	if (TB_LE_HOST) {
		memcpy(p, &v, sizeof(v));
		return;
	}
	tb_bytes_put32(p, (uint32_t)v);
	tb_bytes_put32(p + 4, (uint32_t)(v >> 32));
}

#endif /* TB_BYTES_H */
