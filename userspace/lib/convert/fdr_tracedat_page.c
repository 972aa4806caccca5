// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU's ring-buffer pages: see convert/fdr_tracedat_page.h.  The
 * encoding is the kernel's (kernel/trace/ring_buffer.c), as the
 * header_event text of the file describes it: the layout readers
 * (libtraceevent's kbuffer) decode.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_tracedat_page.h"

#define TD_TYPE_DATA_MAX	28	/* type_len 1..28: 4 * type_len bytes */
#define TD_TYPE_TIME_EXTEND	30
#define TD_DELTA_BITS		27
#define TD_MISSED_EVENTS	(1ULL << 31)
#define TD_MISSED_STORED	(1ULL << 30)

static void td_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void td_put64(uint8_t *p, uint64_t v)
{
	td_put32(p, (uint32_t)v);
	td_put32(p + 4, (uint32_t)(v >> 32));
}

/* Room for events on a page: the lost count, when any, follows them. */
static size_t td_room(const struct tb_td_page *p)
{
	return TB_TD_PAGE_SIZE - TB_TD_PAGE_HDR - (p->lost ? 8U : 0U);
}

/*
 * The page buffer, made on a CPU's first event: a trace may name CPUs
 * up to 65535, and only those with events cost a page of memory.
 */
static int td_alloc(struct tb_td_page *p)
{
	if (!p->data)
		p->data = calloc(1, TB_TD_PAGE_SIZE);
	return p->data ? 0 : -ENOMEM;
}

static int td_write(struct tb_td_page *p)
{
	uint64_t commit = p->len;

	if (td_alloc(p))
		return -ENOMEM;
	if (!p->f) {
		p->f = tmpfile();
		if (!p->f)
			return errno ? -errno : -EIO;
	}
	if (p->lost) {
		commit |= TD_MISSED_EVENTS | TD_MISSED_STORED;
		td_put64(p->data + TB_TD_PAGE_HDR + p->len, p->lost);
	}
	td_put64(p->data, p->ts0);
	td_put64(p->data + 8, commit);
	if (fwrite(p->data, TB_TD_PAGE_SIZE, 1, p->f) != 1)
		return errno ? -errno : -EIO;
	memset(p->data, 0, TB_TD_PAGE_SIZE);
	p->len = 0;
	p->lost = 0;
	p->pages++;
	return 0;
}

int tb_fdr_tracedat_page_flush(struct tb_td_page *p)
{
	if (!p->len && !p->lost)
		return 0;
	return td_write(p);
}

int tb_fdr_tracedat_page_lost(struct tb_td_page *p, uint64_t n)
{
	int ret = 0;

	/* The events on the page came before the loss. */
	if (p->len)
		ret = td_write(p);
	p->lost += n;
	return ret;
}

int tb_fdr_tracedat_page_add(struct tb_td_page *p, uint64_t ts, const void *rec,
		   size_t n)
{
	size_t a = (n + 3) & ~(size_t)3, need;
	uint64_t delta;
	uint8_t *d;
	int ret;

	if (n > TB_TD_RECORD_MAX)
		return -EINVAL;
	if (td_alloc(p))
		return -ENOMEM;
	for (;;) {
		if (!p->len) {
			p->ts0 = ts;
			p->last = ts;
		}
		delta = ts - p->last;
		need = 4 + (a > 4 * TD_TYPE_DATA_MAX ? 4 : 0) + a +
		       (delta >> TD_DELTA_BITS ? 8 : 0);
		if (p->len + need <= td_room(p))
			break;
		ret = td_write(p);
		if (ret)
			return ret;
	}
	d = p->data + TB_TD_PAGE_HDR + p->len;
	if (delta >> TD_DELTA_BITS) {
		/* A gap longer than 27 bits: its high bits in a time extend. */
		td_put32(d, TD_TYPE_TIME_EXTEND |
			 (uint32_t)(delta << 5));
		td_put32(d + 4, (uint32_t)(delta >> TD_DELTA_BITS));
		d += 8;
		delta = 0;
	}
	if (a > 4 * TD_TYPE_DATA_MAX) {
		/* type_len 0: the length, itself included, in the next word. */
		td_put32(d, (uint32_t)(delta << 5));
		td_put32(d + 4, (uint32_t)a + 4);
		d += 8;
	} else {
		td_put32(d, (uint32_t)(a / 4) | (uint32_t)(delta << 5));
		d += 4;
	}
	memcpy(d, rec, n);
	memset(d + n, 0, a - n);
	p->len += need;
	p->last = ts;
	return 0;
}

void tb_fdr_tracedat_page_free(struct tb_td_page *p)
{
	if (p->f)
		fclose(p->f);
	p->f = NULL;
	free(p->data);
	p->data = NULL;
}
