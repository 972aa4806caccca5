// SPDX-License-Identifier: GPL-2.0
/*
 * The WARN and OOPS triggers fired for real: selftests/kmod/tb_provoke.ko
 * makes the kernel print a WARNING (WARN() and WARN_ON_ONCE(), the two
 * paths of x86's __WARN_FLAGS) and oops in process context on request.
 * Each time the trigger fires, its reason ("tracebuf trigger: WARN at
 * ...", "tracebuf trigger: oops: ...") is in the frozen recording after
 * the events before it, and EPOLLPRI wakes the poller.
 *
 * Not a *_test: run.sh must not run it, since the reports it provokes fail
 * any other run's kernel log check.  scripts/check/crash-check.sh runs it in a
 * guest of its own, with tb_provoke.ko loaded, panic_on_oops 0, and the
 * kernel log check expecting exactly these three reports (vm-run -R).
 */
#include <signal.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "fdr_util.h"
#include "fdr_trig_util.h"

#define PROVOKE_DEV	"/dev/tb_provoke"

/* Write @what to tb_provoke.ko: 0, or -errno. */
static int provoke(const char *what)
{
	int fd = open(PROVOKE_DEV, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, what, strlen(what)) != (ssize_t)strlen(what))
		ret = -errno;
	close(fd);
	return ret;
}

static struct tracebuf_fdr_trigger armed(uint32_t type)
{
	struct tracebuf_fdr_trig_cond c = { .type = type };

	/* A window, so the trace shows after too; time-bound, in case it is quiet. */
	return one(c, 20, 200000);
}

/*
 * The marker written before, and the reason.  A stream holds one CPU's
 * blocks after another, so "before" is by time (one clock on all CPUs),
 * not by stream order.
 */
struct moment {
	const char *mark;
	int marks;
	uint64_t mark_t;
};

static void moment_cb(const struct fdr_rec *r, void *arg)
{
	struct moment *m = arg;

	if (r->kind == FDR_R_CUSTOM && r->size == strlen(m->mark) &&
	    !memcmp(r->data, m->mark, r->size)) {
		m->marks++;
		m->mark_t = r->t;
	}
}

/* The recording froze with one reason that begins with @want, after @mark. */
static void check_frozen(struct __test_metadata *_metadata, int fd,
			 const char *want, const char *mark)
{
	struct tracebuf_fdr_stats st;
	struct moment m = { .mark = mark };
	struct seen s;
	char err[160];
	uint8_t *buf;
	size_t len;
	int rfd;

	ASSERT_EQ(1, wait_pri(fd, 10000));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
	EXPECT_EQ(0, st.trig_cond);
	EXPECT_EQ(1, st.trig_fires);
	ASSERT_LE(1, read_frozen(&s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, s.reasons);
	EXPECT_EQ(0, strncmp(s.reason, want, strlen(want)))
		TH_LOG("reason '%s', want '%s...'", s.reason, want);
	TH_LOG("reason: %s", s.reason);
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	buf = fdr_read_all(rfd, &len);
	close(rfd);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, moment_cb, &m, err, sizeof(err)))
		TH_LOG("%s", err);
	free(buf);
	EXPECT_EQ(1, m.marks);
	EXPECT_LT(m.mark_t, s.reason_t);
}

FIXTURE(provoke) {
	int fd;
};

FIXTURE_SETUP(provoke)
{
	if (access(PROVOKE_DEV, W_OK))
		SKIP(return, "%s: tb_provoke.ko not loaded", PROVOKE_DEV);
	self->fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(provoke)
{
	if (self->fd > 0) {
		ioctl(self->fd, TRACEBUF_FDR_IOC_STOP);
		close(self->fd);
	}
}

/* WARN(): the message is printed before the trap, __warn() after it. */
TEST_F(provoke, warn_fires)
{
	struct tracebuf_fdr_trigger t = armed(TRACEBUF_FDR_TRIG_WARN);

	ASSERT_EQ(0, arm(self->fd, &t));
	ASSERT_EQ(6, write(self->fd, "before", 6));
	ASSERT_EQ(0, provoke("warn"));
	check_frozen(_metadata, self->fd, PFX "WARN at ", "before");
}

/*
 * WARN_ON_ONCE(): fires the first time; the second prints nothing and
 * fires nothing (report_bug() returns before __warn()).
 */
TEST_F(provoke, warn_on_once_fires_once)
{
	struct tracebuf_fdr_trigger t = armed(TRACEBUF_FDR_TRIG_WARN);

	ASSERT_EQ(0, arm(self->fd, &t));
	ASSERT_EQ(5, write(self->fd, "once1", 5));
	ASSERT_EQ(0, provoke("warn_once"));
	check_frozen(_metadata, self->fd, PFX "WARN at ", "once1");
	ASSERT_EQ(0, arm(self->fd, &t));
	ASSERT_EQ(0, provoke("warn_once"));
	EXPECT_EQ(0, wait_pri(self->fd, 500));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_ARMED, trig_state(self->fd));
}

/* An oops in a process: it is killed, the kernel (panic_on_oops 0) goes on. */
TEST_F(provoke, oops_fires)
{
	struct tracebuf_fdr_trigger t = armed(TRACEBUF_FDR_TRIG_OOPS);
	int status;
	pid_t pid;

	ASSERT_EQ(0, arm(self->fd, &t));
	ASSERT_EQ(9, write(self->fd, "oops next", 9));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		provoke("oops");
		_exit(0);	/* not reached: the oops kills this process */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status)) TH_LOG("status %#x", status);
	check_frozen(_metadata, self->fd, PFX "oops: ", "oops next");
}

TEST_HARNESS_MAIN
