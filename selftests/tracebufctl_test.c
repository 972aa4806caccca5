// SPDX-License-Identifier: GPL-2.0
/*
 * tracebufctl end to end in the VM: text injection, raw read and snapshot
 * files compared with hand-written bytes, chained capture into a file,
 * exit codes, and plain cat(1) on the device terminating.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_dev_util.h"

#define CTL	"tracebufctl"
#define TMP	"/tmp/tbctl"

static int run(const char *cmd)
{
	int st = system(cmd);

	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static long slurp(const char *path, uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

FIXTURE(ctl)
{
	int fd;
	uint8_t buf[4096];
};

FIXTURE_SETUP(ctl)
{
	self->fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, tb_reset(self->fd, TRACEBUF_MODE_WRAP, 1));
	mkdir(TMP, 0700);
}

FIXTURE_TEARDOWN(ctl)
{
	tb_reset(self->fd, TRACEBUF_MODE_WRAP, 0);
	close(self->fd);
}

TEST_F(ctl, inject_text_then_read_raw)
{
	const uint8_t tail[] = {
		0x23,				/* exc swi 3 */
		0xc2,				/* br 0x8000 2: first, chkpt */
		0xff, 0x12, 0x34, 0x56, 0x78, 0x91,	/* ind 0x12345678 17 */
		0x60,				/* exc irq 0 */
		0xff, 0xff, 0x88,		/* br 0x8010 40 */
	};
	uint8_t exp[TB_SIZE];

	ASSERT_EQ(0, run("printf '# demo\\nexc swi 3\\nbr 0x8000 2\\n\\n"
			 "ind 0x12345678 17 # comment\\nexc 6\\nbr 0x8010 40\\n' >" TMP "/ev.txt"));
	ASSERT_EQ(0, run(CTL " inject " TMP "/ev.txt 2>/dev/null"));
	ASSERT_EQ(0, run(CTL " read " TMP "/raw"));
	ASSERT_EQ(TB_SIZE, slurp(TMP "/raw", self->buf, sizeof(self->buf)));
	tb_expect_tail(exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->buf, exp, TB_SIZE));
}

TEST_F(ctl, snapshot_file_is_little_endian_record)
{
	const struct tracebuf_event ev[] = { BR(0x11223344, 0), EXC(TRACEBUF_VEC_FIQ, 1) };
	const uint8_t head[] = {
		0x54, 0x42, 0x55, 0x52,		/* magic "TBUR" */
		0x01, 0x00, 0x28, 0x00,		/* version 1, hdr_size 40 */
		0x44, 0x33, 0x22, 0x11,		/* CHKPT0 */
		0x00, 0x00, 0x00, 0x00,		/* CHKPT1 */
		0x04, 0x00, 0x00, 0x00,		/* flags: COUNTS */
		0x00, 0x01, 0x00, 0x00,		/* buf_size 256 */
	};

	ASSERT_EQ(0, tb_inject(self->fd, ev, 2));
	ASSERT_EQ(0, run(CTL " snapshot -c " TMP "/snap"));
	ASSERT_EQ(TB_REC_SIZE, slurp(TMP "/snap", self->buf, sizeof(self->buf)));
	EXPECT_EQ(-1, tb_memdiff(self->buf, head, sizeof(head)));
	EXPECT_EQ(0xc0, self->buf[TB_REC_SIZE - 2]);
	EXPECT_EQ(0x71, self->buf[TB_REC_SIZE - 1]);
	/* -c cleared it. */
	ASSERT_EQ(0, run(CTL " snapshot - >" TMP "/snap2"));
	ASSERT_EQ(TB_REC_SIZE, slurp(TMP "/snap2", self->buf, sizeof(self->buf)));
	EXPECT_EQ(0, self->buf[TB_REC_SIZE - 1]);
}

TEST_F(ctl, binary_inject)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_PABORT, 5) };
	FILE *f = fopen(TMP "/ev.bin", "wb");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(ev, sizeof(ev), 1, f));
	fclose(f);
	ASSERT_EQ(0, run(CTL " inject " TMP "/ev.bin 2>/dev/null"));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->buf));
	EXPECT_EQ(0x35, self->buf[TB_SIZE - 1]);
}

TEST_F(ctl, chain_into_file)
{
	struct tracebuf_event ev[3 * 51 + 1];
	pid_t pid;
	int i, st;

	for (i = 0; i < 3 * 51 + 1; i++)
		ev[i] = (struct tracebuf_event)IND(i, 0);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct tracebuf_status s;

		/* Wait for tracebufctl to arm and enable, then fill 3 buffers. */
		do {
			usleep(20000);
			tb_status(self->fd, &s);
		} while (!(s.flags & TRACEBUF_STATUS_ENABLED));
		_exit(tb_inject(self->fd, ev, 3 * 51 + 1) ? 1 : 0);
	}
	ASSERT_EQ(0, run(CTL " chain -n 3 -q 4 " TMP "/chain 2>" TMP "/chain.err"));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	ASSERT_EQ(3 * TB_REC_SIZE, slurp(TMP "/chain", self->buf, sizeof(self->buf)));
	for (i = 0; i < 3; i++) {
		const uint8_t *r = self->buf + i * TB_REC_SIZE;

		EXPECT_EQ(0x54, r[0]);
		EXPECT_EQ(i, r[24]);		/* seq, little-endian */
		/* Last entry of record i: target 51 i + 50. */
		EXPECT_EQ(51 * i + 50, r[TB_REC_SIZE - 2]);
		EXPECT_EQ(0x90, r[TB_REC_SIZE - 1]);
	}
	ASSERT_EQ(0, run("grep -q '3 buffers saved, 0 lost' " TMP "/chain.err"));
	/* tracebufctl disarmed on the way out. */
	ASSERT_EQ(0, run(CTL " status | grep -q 'chain: *off'"));
}

TEST_F(ctl, exit_codes)
{
	EXPECT_EQ(0, run(CTL " --version >/dev/null"));
	EXPECT_EQ(0, run(CTL " --help >/dev/null"));
	EXPECT_EQ(2, run(CTL " frobnicate 2>/dev/null"));
	EXPECT_EQ(2, run(CTL " mode sideways 2>/dev/null"));
	EXPECT_EQ(0, run("echo 'exc reset 1' >" TMP "/bad.txt"));
	EXPECT_EQ(3, run(CTL " inject " TMP "/bad.txt 2>/dev/null"));
	EXPECT_EQ(0, run("echo 'jump 0x10' >" TMP "/bad.txt"));
	EXPECT_EQ(3, run(CTL " inject " TMP "/bad.txt 2>/dev/null"));
	/* Capture enabled: mode change refused with a hint. */
	EXPECT_EQ(1, run(CTL " mode fill 2>" TMP "/err"));
	EXPECT_EQ(0, run("grep -q 'disable capture first' " TMP "/err"));
	EXPECT_EQ(0, run(CTL " disable"));
	EXPECT_EQ(0, run("echo 'exc swi 1' >" TMP "/ok.txt"));
	EXPECT_EQ(1, run(CTL " inject " TMP "/ok.txt 2>" TMP "/err"));
	EXPECT_EQ(0, run("grep -q 'capture is disabled' " TMP "/err"));
	EXPECT_EQ(1, run(CTL " -d /dev/nonexistent status 2>" TMP "/err"));
	EXPECT_EQ(0, run("grep -q 'module loaded' " TMP "/err"));
}

TEST_F(ctl, cat_reads_one_buffer_and_stops)
{
	const struct tracebuf_event ev[] = { EXC(TRACEBUF_VEC_SWI, 1) };

	ASSERT_EQ(0, tb_inject(self->fd, ev, 1));
	ASSERT_EQ(0, run("timeout 10 cat /dev/tracebuf >" TMP "/cat"));
	ASSERT_EQ(TB_SIZE, slurp(TMP "/cat", self->buf, sizeof(self->buf)));
	EXPECT_EQ(0x21, self->buf[TB_SIZE - 1]);
	ASSERT_EQ(0, run("timeout 10 dd if=/dev/tracebuf of=" TMP "/dd bs=1 2>/dev/null"));
	ASSERT_EQ(TB_SIZE, slurp(TMP "/dd", self->buf, sizeof(self->buf)));
}

TEST_HARNESS_MAIN
