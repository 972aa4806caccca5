/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CTF 1.8 data streams of tracebuf convert fdr-ctf: one file per CPU
 * (channel0_N, as LTTng names a kernel channel's streams), written as a
 * sequence of packets.  A packet is built in memory (at most
 * TB_CTF_PACKET_MAX bytes of events) because its context, written first,
 * holds its end time and size; memory is one packet per CPU.  Every field
 * is byte-aligned (the metadata says align = 8), so an event is its bytes
 * with no padding.  convert/fdr_ctf_meta.c describes the same layout.
 */
#ifndef TB_FDR_CTF_STREAM_H
#define TB_FDR_CTF_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TB_CTF_MAGIC		0xc1fc1fc1U
#define TB_CTF_PACKET_MAX	(64U << 10)
/* packet header (magic, uuid, stream_id, stream_instance_id) + context */
#define TB_CTF_PACKET_HDR	(4 + 16 + 4 + 8 + 6 * 8 + 4)

struct tb_ctf_stream {
	FILE *f;
	uint32_t cpu;
	uint8_t *buf;		/* the packet's events */
	size_t len;
	uint64_t begin, end;	/* times of the packet */
	bool open;		/* a packet has begun */
	bool created;		/* the file was made (kept after close) */
	uint64_t seq;		/* packets written */
	uint64_t discarded;	/* events lost so far, the CTF's running count */
	uint64_t events;
	/*
	 * The trace's first and last times: the first packet begins at
	 * @start and the last ends at @stop, so that every stream spans
	 * the whole recording (readers intersect the streams' spans).
	 */
	uint64_t start, stop;
};

/* Create @dir/channel0_@cpu.  Returns 0 or -errno. */
int tb_ctf_stream_open(struct tb_ctf_stream *s, const char *dir, uint32_t cpu);

/*
 * Add an event of @len bytes at @tsc (its header included, as
 * tb_ctf_stream_event() lays it out).  Returns 0 or -errno.
 */
int tb_ctf_stream_add(struct tb_ctf_stream *s, const uint8_t *ev, size_t len,
		      uint64_t tsc, const uint8_t uuid[16]);

/*
 * @n events lost at @tsc: counted in the packet that ends there, which
 * is how CTF says where events were discarded.  Returns 0 or -errno.
 */
int tb_ctf_stream_lost(struct tb_ctf_stream *s, uint64_t n, uint64_t tsc,
		       const uint8_t uuid[16]);

/* Write the last packet and close.  Returns 0 or -errno. */
int tb_ctf_stream_close(struct tb_ctf_stream *s, const uint8_t uuid[16]);

/* Free what is left after an error. */
void tb_ctf_stream_free(struct tb_ctf_stream *s);

#endif /* TB_FDR_CTF_STREAM_H */
