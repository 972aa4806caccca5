// SPDX-License-Identifier: GPL-2.0
/* lib/format/xs_record.c: records are written little-endian, header then data. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tb_harness.h"
#include "format/xs_record.h"

TEST(record_write_little_endian)
{
	struct tracebuf_record hdr = {
		.magic = TRACEBUF_RECORD_MAGIC, .version = 1, .hdr_size = 0,
		.chkpt0 = 0x11223344, .chkpt1 = 0xa0b0c0d0, .flags = 5,
		.buf_size = 4, .seq = 0x0102030405060708ULL, .lost_before = 9,
	};
	const uint8_t data[4] = { 0xde, 0xad, 0xbe, 0xef };
	const uint8_t want[44] = {
		0x54, 0x42, 0x55, 0x52, 0x01, 0x00, 0x28, 0x00,
		0x44, 0x33, 0x22, 0x11, 0xd0, 0xc0, 0xb0, 0xa0,
		0x05, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x09, 0, 0, 0, 0, 0, 0, 0,
		0xde, 0xad, 0xbe, 0xef,
	};
	uint8_t got[64];
	FILE *f = tmpfile();

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_xs_record_write(f, &hdr, data));
	rewind(f);
	ASSERT_EQ(sizeof(want), fread(got, 1, sizeof(got), f));
	EXPECT_EQ(0, memcmp(got, want, sizeof(want)));
	fclose(f);
}

TEST(record_layout_is_fixed)
{
	EXPECT_EQ(40, sizeof(struct tracebuf_record));
	EXPECT_EQ(16, sizeof(struct tracebuf_event));
	EXPECT_EQ(64, sizeof(struct tracebuf_status));
	EXPECT_EQ(16, sizeof(struct tracebuf_snapshot_req));
}

TEST_HARNESS_MAIN
