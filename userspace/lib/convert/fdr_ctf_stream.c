// SPDX-License-Identifier: GPL-2.0
/*
 * CTF data streams: see convert/fdr_ctf_stream.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_ctf_stream.h"
#include "util/bytes.h"

int tb_ctf_stream_open(struct tb_ctf_stream *s, const char *dir, uint32_t cpu)
{
	char path[4096];

	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	if ((size_t)snprintf(path, sizeof(path), "%s/channel0_%u", dir, cpu) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	s->buf = malloc(TB_CTF_PACKET_MAX);
	if (!s->buf)
		return -ENOMEM;
	s->f = fopen(path, "wb");
	if (!s->f) {
		free(s->buf);
		s->buf = NULL;
		return -errno;
	}
	s->created = true;
	return 0;
}

/* The packet header and context, then its events. */
static int cs_flush(struct tb_ctf_stream *s, const uint8_t uuid[16])
{
	uint8_t h[TB_CTF_PACKET_HDR], *p = h;
	uint64_t bits = (uint64_t)(TB_CTF_PACKET_HDR + s->len) * 8;

	if (!s->open)
		return 0;
	tb_bytes_put32(p, TB_CTF_MAGIC);
	p += 4;
	memcpy(p, uuid, 16);
	p += 16;
	tb_bytes_put32(p, 0);			/* stream_id */
	p += 4;
	tb_bytes_put64(p, s->cpu);		/* stream_instance_id */
	p += 8;
	tb_bytes_put64(p, s->begin);		/* timestamp_begin */
	tb_bytes_put64(p + 8, s->end);		/* timestamp_end */
	tb_bytes_put64(p + 16, bits);		/* content_size */
	tb_bytes_put64(p + 24, bits);		/* packet_size */
	tb_bytes_put64(p + 32, s->seq);		/* packet_seq_num */
	tb_bytes_put64(p + 40, s->discarded);	/* events_discarded */
	tb_bytes_put32(p + 48, s->cpu);		/* cpu_id */
	if (fwrite(h, 1, sizeof(h), s->f) != sizeof(h) ||
	    fwrite(s->buf, 1, s->len, s->f) != s->len)
		return errno ? -errno : -EIO;
	s->seq++;
	s->len = 0;
	s->open = false;
	return 0;
}

static void cs_begin(struct tb_ctf_stream *s, uint64_t tsc)
{
	if (s->open)
		return;
	/* Packets follow each other: the next begins where one ended. */
	s->begin = s->seq ? s->end : s->start < tsc ? s->start : tsc;
	s->end = tsc;
	s->open = true;
}

int tb_ctf_stream_add(struct tb_ctf_stream *s, const uint8_t *ev, size_t len,
		      uint64_t tsc, const uint8_t uuid[16])
{
	int ret;

	if (len > TB_CTF_PACKET_MAX)
		return -E2BIG;
	if (s->open && s->len + len > TB_CTF_PACKET_MAX) {
		ret = cs_flush(s, uuid);
		if (ret)
			return ret;
	}
	cs_begin(s, tsc);
	memcpy(s->buf + s->len, ev, len);
	s->len += len;
	s->end = tsc;
	s->events++;
	return 0;
}

int tb_ctf_stream_lost(struct tb_ctf_stream *s, uint64_t n, uint64_t tsc,
		       const uint8_t uuid[16])
{
	int ret;

	/*
	 * Readers take the first packet's count as where counting starts:
	 * it must be 0, so a loss in it goes to a packet of its own.
	 */
	if (!s->seq) {
		cs_begin(s, tsc);
		ret = cs_flush(s, uuid);
		if (ret)
			return ret;
	}
	cs_begin(s, tsc);
	s->end = tsc;
	s->discarded += n;
	return cs_flush(s, uuid);
}

int tb_ctf_stream_close(struct tb_ctf_stream *s, const uint8_t uuid[16])
{
	int ret;

	/* The last packet ends at the trace's end, an empty one if need be. */
	if (!s->open && s->seq && s->stop > s->end)
		cs_begin(s, s->stop);
	if (s->open && s->stop > s->end)
		s->end = s->stop;
	ret = cs_flush(s, uuid);

	if (fclose(s->f) && !ret)
		ret = errno ? -errno : -EIO;
	s->f = NULL;
	/* Not freed: tb_ctf_stream_free() after close only frees. */
	free(s->buf);
	s->buf = NULL;
	return ret;
}

void tb_ctf_stream_free(struct tb_ctf_stream *s)
{
	if (s->f)
		fclose(s->f);
	s->f = NULL;
	free(s->buf);
	s->buf = NULL;
}
