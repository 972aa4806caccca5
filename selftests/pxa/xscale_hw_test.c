// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf's hardware backend (driver/tracebuf/xscale.c) on the
 * PXA270 guest, its CP14 registers provided by cp14_model.ko (this
 * directory): modes, enable, checkpoints, status, poll, read order,
 * read-clears, chained capture, and tracebuf decode and convert on its
 * captures.  The program the "core" runs is written to the model's
 * debugfs exec file; the expected bytes are written out by hand from the
 * manual's message formats, and every capture must be byte-identical to
 * what the model says it held (its buffer and last_drain files).  No
 * test may make the driver touch TBREG or a checkpoint register while
 * tracing is on, which the manual calls unpredictable: the model counts
 * such accesses.
 *
 * Skips unless the module runs its hardware backend over the model
 * (insmod cp14_model.ko, then tracebuf.ko without tb_emulate).
 */
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_dev_util.h"

#define MODEL	"/sys/kernel/debug/tb_cp14/"
#define TMP	"/tmp/xscale_hw"
#define TB	"tracebuf"

#define DCSR_GE	(1U << 31)
#define DCSR_H	(1U << 30)
#define DCSR_M	(1U << 1)
#define DCSR_E	(1U << 0)

/* The model's record: CHKPT0, CHKPT1, 256 bytes oldest first. */
#define MREC_SIZE	(8 + TB_SIZE)

static int model_exec(const char *prog)
{
	int fd = open(MODEL "exec", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, prog, strlen(prog));
	close(fd);
	return n == (ssize_t)strlen(prog) ? 0 : -EIO;
}

static int model_rec(const char *name, uint8_t *rec)
{
	char path[128];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), MODEL "%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, rec, MREC_SIZE);
	close(fd);
	return n == MREC_SIZE ? 0 : -EIO;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One line of the model's stats file ("name value"), or ~0 if absent. */
static unsigned long long model_stat(const char *key)
{
	FILE *f = fopen(MODEL "stats", "r");
	char name[64];
	unsigned long long v, found = ~0ULL;

	if (!f)
		return ~0ULL;
	while (fscanf(f, "%63s %lli", name, &v) == 2)
		if (!strcmp(name, key))
			found = v;
	fclose(f);
	return found;
}

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

/*
 * The 6.1 harness runs a test's body after its setup skipped: each test
 * starts with this.
 */
#define HW_ONLY() do { \
	if (self->skip) \
		SKIP(return, "needs the XScale backend over cp14_model.ko"); \
} while (0)

FIXTURE(hw)
{
	bool skip;
	int fd;
	unsigned long long unpredictable, cut;
	uint8_t buf[TB_SIZE];
	uint8_t exp[TB_SIZE];
	uint8_t rec[TB_REC_SIZE];
	uint8_t mrec[MREC_SIZE];
};

FIXTURE_SETUP(hw)
{
	struct tracebuf_status st;
	struct tracebuf_chkpt ck = { 0, 0 };
	uint32_t mode = TRACEBUF_MODE_WRAP;

	self->fd = tb_open_dev(O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	self->skip = st.backend != TRACEBUF_BACKEND_XSCALE ||
		     access(MODEL "exec", W_OK);
	if (self->skip)
		return;
	/* Off, wrap-around, no checkpoints, empty: as tb_reset, no sources. */
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_set_chain(self->fd, 0));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_SET_MODE, &mode));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_SET_CHKPT, &ck));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_CLEAR));
	self->unpredictable = model_stat("unpredictable");
	self->cut = model_stat("cut_passes");
	ASSERT_NE(~0ULL, self->unpredictable);
	mkdir(TMP, 0700);
}

FIXTURE_TEARDOWN(hw)
{
	ioctl(self->fd, TRACEBUF_IOC_DISABLE);
	close(self->fd);
	/* The manual's rule, for every test: no access while tracing. */
	if (!self->skip) {
		EXPECT_EQ(self->unpredictable, model_stat("unpredictable"));
		EXPECT_EQ(self->cut, model_stat("cut_passes"));
	}
}

/* The manual's message formats, by hand; read() gives them oldest first. */
TEST_F(hw, read_order_is_the_models)
{
	const uint8_t tail[] = {
		0x23,				/* run 3; exc 2 (SWI) */
		0xff,				/* 16 of run 20 */
		0x84,				/* b: the other 4 */
		0x12, 0x34, 0x56, 0x78, 0x90,	/* bx 0x12345678 */
		0x62,				/* run 2; exc 6 (IRQ) */
	};

	HW_ONLY();
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, model_exec("run 3\nexc 2\nrun 20\nb 0x8000\n"
				"bx 0x12345678\nrun 2\nexc 6\n"));
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->mrec + 8, self->exp, TB_SIZE));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->buf));
	EXPECT_EQ(-1, tb_memdiff(self->buf, self->exp, TB_SIZE));
	/* What the model held when the driver's reads began. */
	ASSERT_EQ(0, model_rec("last_drain", self->mrec));
	EXPECT_EQ(-1, tb_memdiff(self->mrec + 8, self->buf, TB_SIZE));
}

TEST_F(hw, read_clears)
{
	unsigned long long passes;
	int nb;

	HW_ONLY();
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, model_exec("run 1\nexc 7\n"));
	passes = model_stat("passes");
	ASSERT_EQ(0, tb_read_buf(self->fd, self->buf));
	EXPECT_EQ(0x71, self->buf[TB_SIZE - 1]);
	/* One pass of 256 TBREG reads, which leaves the model empty. */
	EXPECT_EQ(passes + 1, model_stat("passes"));
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	memset(self->exp, 0, TB_SIZE);
	EXPECT_EQ(-1, tb_memdiff(self->mrec + 8, self->exp, TB_SIZE));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->buf));
	EXPECT_EQ(-1, tb_memdiff(self->buf, self->exp, TB_SIZE));
	/* Nothing there: a non-blocking read says so. */
	nb = tb_open_dev(O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, nb);
	EXPECT_EQ(-1, read(nb, self->buf, TB_SIZE));
	EXPECT_EQ(EAGAIN, errno);
	close(nb);
}

TEST_F(hw, snapshot_and_checkpoints_are_the_models)
{
	const uint8_t tail[] = {
		0xc0,				/* b 0x1000 chk */
		0xc0, 0xff, 0xee, 0x00, 0xd5,	/* run 5; bx chk */
		0xff, 0xff,			/* 32 of run 40 */
		0x88,				/* b: the other 8 */
	};
	struct tracebuf_record *r = (struct tracebuf_record *)self->rec;

	HW_ONLY();
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, model_exec("b 0x1000 chk\nrun 5\nbx 0xc0ffee00 chk\n"
				"run 40\nb 0x2000\n"));
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	EXPECT_EQ(0xc0ffee00, le32(self->mrec));
	EXPECT_EQ(0x1000, le32(self->mrec + 4));
	/* The hardware cannot be read without clearing it. */
	EXPECT_EQ(-1, tb_snapshot(self->fd, self->rec, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(0, tb_snapshot(self->fd, self->rec, TRACEBUF_SNAP_CLEAR));
	EXPECT_EQ(TRACEBUF_RECORD_MAGIC, r->magic);
	EXPECT_EQ(TB_SIZE, r->buf_size);
	EXPECT_EQ(TRACEBUF_RECORD_COUNTS, r->flags);
	EXPECT_EQ(le32(self->mrec), r->chkpt0);
	EXPECT_EQ(le32(self->mrec + 4), r->chkpt1);
	tb_expect_tail(self->exp, tail, sizeof(tail));
	EXPECT_EQ(-1, tb_memdiff(self->rec + sizeof(*r), self->exp, TB_SIZE));
	EXPECT_EQ(-1, tb_memdiff(self->rec + sizeof(*r), self->mrec + 8, TB_SIZE));
	/* The checkpoints survive the read-through; the buffer does not. */
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	EXPECT_EQ(0xc0ffee00, le32(self->mrec));
	EXPECT_EQ(0, self->mrec[8 + TB_SIZE - 1]);
}

TEST_F(hw, checkpoint_registers)
{
	struct tracebuf_chkpt ck = { 0xa0008000, 0xa0004000 }, got;

	HW_ONLY();
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_SET_CHKPT, &ck));
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	EXPECT_EQ(0xa0008000, le32(self->mrec));
	EXPECT_EQ(0xa0004000, le32(self->mrec + 4));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	/* Written only while off; read while on by pausing (the teardown checks). */
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SET_CHKPT, &ck));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, model_exec("bx 0x00c0ffee chk\n"));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_CHKPT, &got));
	EXPECT_EQ(0x00c0ffee, got.chkpt0);
	EXPECT_EQ(0xa0008000, got.chkpt1);
	/* The pause did not stop tracing. */
	ASSERT_EQ(0, model_exec("exc 3\n"));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->buf));
	EXPECT_EQ(0xd0, self->buf[TB_SIZE - 2]);
	EXPECT_EQ(0x30, self->buf[TB_SIZE - 1]);
}

TEST_F(hw, modes_and_dcsr)
{
	struct tracebuf_status st;
	uint32_t mode = TRACEBUF_MODE_FILL_ONCE, got = 99;
	unsigned long long dcsr;

	HW_ONLY();
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_GET_MODE, &got));
	EXPECT_EQ(TRACEBUF_MODE_WRAP, got);
	/* Fill-once needs the buffer-full break, which 6.1 cannot route. */
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SET_MODE, &mode));
	EXPECT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	dcsr = model_stat("dcsr");
	EXPECT_EQ(DCSR_GE | DCSR_E, dcsr & (DCSR_GE | DCSR_H | DCSR_M | DCSR_E));
	mode = TRACEBUF_MODE_WRAP;
	EXPECT_EQ(-1, ioctl(self->fd, TRACEBUF_IOC_SET_MODE, &mode));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TRACEBUF_MODE_WRAP, st.mode);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	EXPECT_EQ(0, model_stat("dcsr") & DCSR_E);
}

TEST_F(hw, enable_and_status)
{
	struct tracebuf_status st;

	HW_ONLY();
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TRACEBUF_ABI_VERSION, st.abi_version);
	EXPECT_EQ(TRACEBUF_BACKEND_XSCALE, st.backend);
	EXPECT_EQ(TB_SIZE, st.buf_size);
	EXPECT_EQ(TRACEBUF_STATUS_COUNTS, st.flags);
	/* Off: the core's messages are not recorded. */
	ASSERT_EQ(0, model_exec("exc 2\n"));
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	EXPECT_EQ(0, self->mrec[8 + TB_SIZE - 1]);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TRACEBUF_STATUS_COUNTS | TRACEBUF_STATUS_ENABLED, st.flags);
	ASSERT_EQ(0, model_exec("exc 4\n"));
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_DISABLE));
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(TRACEBUF_STATUS_COUNTS, st.flags);
	ASSERT_EQ(0, model_exec("exc 6\n"));
	ASSERT_EQ(0, tb_read_buf(self->fd, self->buf));
	EXPECT_EQ(0x40, self->buf[TB_SIZE - 1]);
	EXPECT_EQ(0, self->buf[TB_SIZE - 2]);
}

TEST_F(hw, wrap_keeps_the_newest)
{
	char prog[4096];
	size_t len = 0;
	int i;

	HW_ONLY();
	/* 60 indirect branches: 300 bytes, the oldest 44 overwritten. */
	for (i = 0; i < 60; i++)
		len += snprintf(prog + len, sizeof(prog) - len,
				"run %d\nbx 0x%08x\n", i % 16, 0x10000000 + i);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, model_exec(prog));
	ASSERT_EQ(0, model_rec("buffer", self->mrec));
	ASSERT_EQ(0, tb_snapshot(self->fd, self->rec, TRACEBUF_SNAP_CLEAR));
	EXPECT_EQ(-1, tb_memdiff(self->rec + sizeof(struct tracebuf_record),
				 self->mrec + 8, TB_SIZE));
	/* The newest entry (59: run 11), and the oldest: entry 8's message. */
	EXPECT_EQ(0x10, self->rec[TB_REC_SIZE - 5]);
	EXPECT_EQ(0x3b, self->rec[TB_REC_SIZE - 2]);
	EXPECT_EQ(0x9b, self->rec[TB_REC_SIZE - 1]);
	EXPECT_EQ(0x98, self->rec[sizeof(struct tracebuf_record)]);
	EXPECT_EQ(0x10, self->rec[sizeof(struct tracebuf_record) + 1]);
	EXPECT_EQ(0x09, self->rec[sizeof(struct tracebuf_record) + 4]);
	EXPECT_EQ(0x99, self->rec[sizeof(struct tracebuf_record) + 5]);
}

TEST_F(hw, poll_and_write)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN | POLLOUT };
	struct tracebuf_event ev = { TRACEBUF_EV_EXCEPTION, TRACEBUF_VEC_SWI, 0, 0 };
	uint8_t b;

	HW_ONLY();
	/* No chained records, no read session: nothing to read yet. */
	EXPECT_EQ(0, poll(&p, 1, 0));
	/* The core writes the buffer; software cannot. */
	EXPECT_EQ(-1, write(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, model_exec("run 9\nexc 1\n"));
	ASSERT_EQ(1, read(self->fd, &b, 1));
	EXPECT_EQ(0, b);
	/* The rest of the session is there now. */
	ASSERT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN, p.revents);
	ASSERT_EQ(TB_SIZE - 1, read(self->fd, self->buf, TB_SIZE));
	EXPECT_EQ(0x19, self->buf[TB_SIZE - 2]);
}

TEST_F(hw, chained_capture_refused)
{
	struct tracebuf_status st;

	HW_ONLY();
	/* Chaining re-arms fill-once at each full break: refused with it. */
	EXPECT_EQ(-1, tb_set_chain(self->fd, 4));
	EXPECT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(0, tb_status(self->fd, &st));
	EXPECT_EQ(0, st.flags & TRACEBUF_STATUS_CHAINED);
	EXPECT_EQ(0, st.chain_depth);
	EXPECT_EQ(0, tb_set_chain(self->fd, 0));
}

/*
 * tracebuf ctl snapshot's file is the record the model held, byte for
 * byte (the header written out here by hand), and tracebuf decode and
 * convert read it as they read that record.
 */
TEST_F(hw, decode_and_convert_the_capture)
{
	static const char *const conv[] = { "xscale-text", "xscale-tfile",
					    "xscale-fdr" };
	uint8_t hdr[40] = {
		0x54, 0x42, 0x55, 0x52, 0x01, 0x00, 0x28, 0x00, /* TBUR v1 40 */
		0, 0, 0, 0, 0, 0, 0, 0,				/* CHKPT0, 1 */
		0x04, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,	/* COUNTS 256 */
	};
	uint8_t cap[TB_REC_SIZE + 1];
	char cmd[512];
	unsigned int i;
	FILE *f;

	HW_ONLY();
	ASSERT_EQ(0, ioctl(self->fd, TRACEBUF_IOC_ENABLE));
	ASSERT_EQ(0, model_exec("b 0x8000 chk\nrun 3\nexc 2\nrun 20\n"
				"bx 0x12345678\nexc 6\n"));
	ASSERT_EQ(0, run(TB " ctl snapshot --clear " TMP "/cap.rec"));
	ASSERT_EQ(TB_REC_SIZE, slurp(TMP "/cap.rec", cap, sizeof(cap)));
	ASSERT_EQ(0, model_rec("last_drain", self->mrec));
	memcpy(hdr + 8, self->mrec, 8);
	f = fopen(TMP "/model.rec", "wb");
	ASSERT_TRUE(f != NULL);
	ASSERT_EQ(1, fwrite(hdr, sizeof(hdr), 1, f));
	ASSERT_EQ(1, fwrite(self->mrec + 8, TB_SIZE, 1, f));
	fclose(f);
	EXPECT_EQ(0, run("cmp " TMP "/cap.rec " TMP "/model.rec"));
	EXPECT_EQ(0x00008000, le32(cap + 8));
	EXPECT_EQ(0x60, cap[TB_REC_SIZE - 1]);

	ASSERT_EQ(0, run(TB " decode " TMP "/cap.rec >" TMP "/cap.txt"));
	ASSERT_EQ(0, run(TB " decode " TMP "/model.rec >" TMP "/model.txt"));
	EXPECT_EQ(0, run("cmp " TMP "/cap.txt " TMP "/model.txt"));
	EXPECT_EQ(0, run("grep -q 'target=0x00008000 chkpt0' " TMP "/cap.txt"));
	EXPECT_EQ(0, run("grep -q 'target=0x12345678' " TMP "/cap.txt"));
	EXPECT_NE(0, run("grep -q suspect " TMP "/cap.txt"));
	for (i = 0; i < ARRAY_SIZE(conv); i++) {
		snprintf(cmd, sizeof(cmd), TB " convert %s " TMP "/cap.rec " TMP
			 "/cap.out && " TB " convert %s " TMP "/model.rec " TMP
			 "/model.out && cmp " TMP "/cap.out " TMP "/model.out",
			 conv[i], conv[i]);
		EXPECT_EQ(0, run(cmd)) TH_LOG("%s", conv[i]);
	}
}

#ifdef __arm__
static sigjmp_buf ill_jmp;

static void on_sigill(int sig)
{
	siglongjmp(ill_jmp, 1);
}

/* The manual: user-mode access is undefined; the model keeps it so. */
TEST_F(hw, user_mode_access_is_undefined)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	volatile int trapped = 0;
	uint32_t v = 0;

	HW_ONLY();
	ASSERT_EQ(0, sigaction(SIGILL, &sa, &old));
	if (sigsetjmp(ill_jmp, 1))
		trapped = 1;
	else
		asm volatile("mrc p14, 0, %0, c10, c0, 0" : "=r" (v));
	sigaction(SIGILL, &old, NULL);
	EXPECT_EQ(1, trapped);
}
#endif

TEST_HARNESS_MAIN
