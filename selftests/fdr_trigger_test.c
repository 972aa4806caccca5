// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf_fdr triggers: every condition fires and freezes the rings
 * with its reason in the stream, the post-trigger window is kept, poll()
 * reports EPOLLPRI, STATS reports the trigger, arming again resumes; every
 * bad parameter and state is refused with its errno; arming, disarming,
 * stopping and closing race without harm.
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "fdr_util.h"
#include "fdr_trig_util.h"

/* ------------------------------------------------------------ bad input */

TEST(every_bad_parameter_is_einval)
{
	struct tracebuf_fdr_trig_cond dur = {
		.type = TRACEBUF_FDR_TRIG_DURATION,
		.ev_class = TRACEBUF_FDR_SYSCALL, .threshold_us = 1000,
	};
	struct tracebuf_fdr_trig_cond err = {
		.type = TRACEBUF_FDR_TRIG_ERRNO, .error = ENOMEM,
	};
	struct tracebuf_fdr_trig_cond c;
	struct tracebuf_fdr_trigger t;
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);

	ASSERT_LE(0, fd);
#define BAD(expr) do { t = one(dur, 0, 0); expr; \
		EXPECT_EQ(-EINVAL, arm(fd, &t)) TH_LOG("%s", #expr); } while (0)
#define BADC(expr) do { c = dur; expr; t = one(c, 0, 0); \
		EXPECT_EQ(-EINVAL, arm(fd, &t)) TH_LOG("%s", #expr); } while (0)
	/* The trigger itself. */
	BAD(t.flags = 1);
	BAD(t.flags = 1U << 31);
	BAD(t.nr_conds = TRACEBUF_FDR_TRIG_MAX + 1);
	BAD(t.nr_conds = ~0U);
	BAD(t.post_events = TRACEBUF_FDR_TRIG_EVENTS_MAX + 1);
	BAD(t.post_usecs = TRACEBUF_FDR_TRIG_USECS_MAX + 1);
	BAD(t.conds[1].type = TRACEBUF_FDR_TRIG_OOPS);	/* past nr_conds */
	BAD(t.conds[TRACEBUF_FDR_TRIG_MAX - 1].prefix[47] = 1);
	/* Unknown conditions and flags. */
	BADC(c.type = 0);
	BADC(c.type = TRACEBUF_FDR_TRIG_WARN + 1);
	BADC(c.type = ~0U);
	BADC(c.flags = 2);
	BADC(c.flags = 1U << 31);
	BADC(c.reserved = 1);
	/* Durations: one class of the four, a threshold in range. */
	BADC(c.ev_class = 0);
	BADC(c.ev_class = TRACEBUF_FDR_FAULT);
	BADC(c.ev_class = TRACEBUF_FDR_SCHED);
	BADC(c.ev_class = TRACEBUF_FDR_MARKER);
	BADC(c.ev_class = TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ);
	BADC(c.ev_class = 1U << 7);
	BADC(c.threshold_us = 0);
	BADC(c.threshold_us = TRACEBUF_FDR_TRIG_THRESHOLD_MAX + 1);
	BADC(c.threshold_us = ~0U);
	BADC(c.error = ENOMEM);
	BADC(c.prefix_len = 1);
	BADC(c.prefix[0] = 'x');
	BADC(c.id = SYS_ID(1));		/* an id without F_ID */
	BADC((c.flags = TRACEBUF_FDR_TRIG_F_ID,
	      c.id = TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_IRQ, 4)));
	BADC((c.flags = TRACEBUF_FDR_TRIG_F_ID, c.id = 1U << 28 | SYS_ID(1)));
	BADC((c.ev_class = TRACEBUF_FDR_IRQ, c.flags = TRACEBUF_FDR_TRIG_F_ID,
	      c.id = SYS_ID(4)));
	/* Errors: 1..4095, an id of the syscall space. */
	BADC((c = err, c.error = 0));
	BADC((c = err, c.error = 4096));
	BADC((c = err, c.error = -ENOMEM));
	BADC((c = err, c.threshold_us = 1));
	BADC((c = err, c.ev_class = TRACEBUF_FDR_SYSCALL));
	BADC((c = err, c.flags = TRACEBUF_FDR_TRIG_F_ID,
	      c.id = TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_WORK, 1)));
	/* Markers: a prefix of 1..48 bytes, nothing after it. */
	BADC((c = marker_cond("x"), c.prefix_len = 0));
	BADC((c = marker_cond("x"), c.prefix_len = 49));
	BADC((c = marker_cond("x"), c.prefix[1] = 'y'));
	BADC((c = marker_cond("x"), c.flags = TRACEBUF_FDR_TRIG_F_ID));
	BADC((c = marker_cond("x"), c.error = 1));
	/* Oops, warn and snapshot take nothing. */
	BADC((c = (struct tracebuf_fdr_trig_cond){ .type = TRACEBUF_FDR_TRIG_OOPS },
	      c.threshold_us = 1));
	BADC((c = (struct tracebuf_fdr_trig_cond){ .type = TRACEBUF_FDR_TRIG_WARN },
	      c.flags = TRACEBUF_FDR_TRIG_F_ID, c.id = SYS_ID(1)));
	BADC((c = (struct tracebuf_fdr_trig_cond){ .type = TRACEBUF_FDR_TRIG_WARN },
	      c.prefix_len = 1));
	BADC((c = (struct tracebuf_fdr_trig_cond){ .type = TRACEBUF_FDR_TRIG_SNAPSHOT },
	      c.flags = TRACEBUF_FDR_TRIG_F_ID));
#undef BAD
#undef BADC
	/* None of that armed anything. */
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_OFF, trig_state(fd));
	/* The limits themselves are accepted. */
	c = dur;
	c.threshold_us = TRACEBUF_FDR_TRIG_THRESHOLD_MAX;
	t = one(c, TRACEBUF_FDR_TRIG_EVENTS_MAX, TRACEBUF_FDR_TRIG_USECS_MAX);
	EXPECT_EQ(0, arm(fd, &t));
	c = marker_cond("x");
	c.prefix_len = TRACEBUF_FDR_TRIG_PREFIX_MAX;
	memset(c.prefix, 'y', c.prefix_len);
	t = one(c, 0, 0);
	EXPECT_EQ(0, arm(fd, &t));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_ARMED, trig_state(fd));
	EXPECT_EQ(0, disarm(fd));
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* The command number of TRIGGER, with other sizes and directions. */
#define TRIG_NR	_IOC_NR(TRACEBUF_FDR_IOC_TRIGGER)

TEST(struct_sizes)
{
	struct tracebuf_fdr_trigger t = { 0 };
	uint8_t big[sizeof(t) + 8] = { 0 };
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	/* Shorter than version 1. */
	EXPECT_EQ(-1, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, TRIG_NR, uint32_t), &t));
	EXPECT_EQ(EINVAL, errno);
	/* Longer: zeros are fine, anything else is E2BIG. */
	EXPECT_EQ(0, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, TRIG_NR, big), big));
	big[sizeof(t)] = 1;
	EXPECT_EQ(-1, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, TRIG_NR, big), big));
	EXPECT_EQ(E2BIG, errno);
	/* Wrong direction. */
	EXPECT_EQ(-1, ioctl(fd, _IOR(TRACEBUF_IOC_MAGIC, TRIG_NR,
				     struct tracebuf_fdr_trigger), &t));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, NULL));
	EXPECT_EQ(EFAULT, errno);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* STATS of version 1 (56 bytes) still works, and says nothing of triggers. */
TEST(stats_version_1)
{
	uint8_t v1[TRACEBUF_FDR_STATS_SIZE_VER1 + 8];
	uint32_t head[2];
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	memset(v1, 0xee, sizeof(v1));
	memset(v1, 0, TRACEBUF_FDR_STATS_SIZE_VER1);
	ASSERT_EQ(0, ioctl(fd, _IOWR(TRACEBUF_IOC_MAGIC, 0x45,
				     uint8_t[TRACEBUF_FDR_STATS_SIZE_VER1]), v1));
	memcpy(head, v1, sizeof(head));	/* abi_version, running */
	EXPECT_EQ(TRACEBUF_ABI_VERSION, head[0]);
	EXPECT_EQ(1, head[1]);
	EXPECT_EQ(0xee, v1[TRACEBUF_FDR_STATS_SIZE_VER1]);
	EXPECT_EQ(-1, ioctl(fd, _IOWR(TRACEBUF_IOC_MAGIC, 0x45, uint8_t[48]), v1));
	EXPECT_EQ(EINVAL, errno);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* STATS of version 2 (88 bytes, before trig_frozen): nothing past it written. */
TEST(stats_version_2)
{
	uint8_t v2[TRACEBUF_FDR_STATS_SIZE_VER2 + 8];
	uint32_t head[2];
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	memset(v2, 0xee, sizeof(v2));
	memset(v2, 0, TRACEBUF_FDR_STATS_SIZE_VER2);
	ASSERT_EQ(0, ioctl(fd, _IOWR(TRACEBUF_IOC_MAGIC, 0x45,
				     uint8_t[TRACEBUF_FDR_STATS_SIZE_VER2]), v2));
	memcpy(head, v2, sizeof(head));
	EXPECT_EQ(TRACEBUF_ABI_VERSION, head[0]);
	EXPECT_EQ(1, head[1]);
	EXPECT_EQ(0xee, v2[TRACEBUF_FDR_STATS_SIZE_VER2]);
	/* Version 3 added trig_frozen, version 4 gen. */
	EXPECT_EQ(TRACEBUF_FDR_STATS_SIZE_VER3,
		  TRACEBUF_FDR_STATS_SIZE_VER2 + sizeof(uint64_t));
	EXPECT_EQ(sizeof(struct tracebuf_fdr_stats),
		  TRACEBUF_FDR_STATS_SIZE_VER3 + sizeof(uint64_t));
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* STATS of version 3 (96 bytes, before gen): nothing past it written. */
TEST(stats_version_3)
{
	uint8_t v3[TRACEBUF_FDR_STATS_SIZE_VER3 + 8];
	uint32_t head[2];
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	memset(v3, 0xee, sizeof(v3));
	memset(v3, 0, TRACEBUF_FDR_STATS_SIZE_VER3);
	ASSERT_EQ(0, ioctl(fd, _IOWR(TRACEBUF_IOC_MAGIC, 0x45,
				     uint8_t[TRACEBUF_FDR_STATS_SIZE_VER3]), v3));
	memcpy(head, v3, sizeof(head));
	EXPECT_EQ(TRACEBUF_ABI_VERSION, head[0]);
	EXPECT_EQ(1, head[1]);
	EXPECT_EQ(0xee, v3[TRACEBUF_FDR_STATS_SIZE_VER3]);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/*
 * STATS' gen is the capture's number: never 0, one more at each START
 * and each CONFIG, the same across STOP and SNAPSHOT.
 */
TEST(stats_gen_counts_captures)
{
	struct tracebuf_fdr_stats st;
	uint64_t g;
	int fd = fdr_open_stopped();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	g = st.gen;
	EXPECT_NE(0ULL, g);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(g + 1, st.gen);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(g + 1, st.gen);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(g + 2, st.gen);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(g + 3, st.gen);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

TEST(refused_states)
{
	struct tracebuf_fdr_trigger t = one(marker_cond("x"), 0, 0);
	struct tracebuf_fdr_trig_cond d = {
		.type = TRACEBUF_FDR_TRIG_DURATION,
		.ev_class = TRACEBUF_FDR_SYSCALL, .threshold_us = 1000,
	};
	int fd = fdr_open_stopped();

	ASSERT_LE(0, fd);
	/* Stopped: nothing to freeze; disarming is always fine. */
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	EXPECT_EQ(-ESRCH, arm(fd, &t));
	EXPECT_EQ(0, disarm(fd));
	/* Streaming: a trigger cannot freeze what readers consume. */
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(-EOPNOTSUPP, arm(fd, &t));
	/* A bad trigger is EINVAL in any state. */
	t.flags = 1;
	EXPECT_EQ(-EINVAL, arm(fd, &t));
	EXPECT_EQ(0, disarm(fd));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_OFF, trig_state(fd));
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	/* A marker condition without the marker class could never fire. */
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	t = one(marker_cond("x"), 0, 0);
	EXPECT_EQ(-EINVAL, arm(fd, &t));
	/* A duration needs no class recorded: it has its own probes. */
	t = one(d, 0, 0);
	EXPECT_EQ(0, arm(fd, &t));
	/* STOP disarms. */
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_OFF, trig_state(fd));
	close(fd);
}

/* ------------------------------------------------------------ conditions */

TEST(marker_fires_and_freezes)
{
	struct tracebuf_fdr_trigger t = one(marker_cond("BOOM"), 0, 0);
	struct tracebuf_fdr_stats st;
	uint64_t frozen, written;
	struct seen s;
	char err[160];
	int i, fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	EXPECT_EQ(0, wait_pri(fd, 0));
	ASSERT_EQ(5, write(fd, "hello", 5));
	ASSERT_EQ(3, write(fd, "BOO", 3));	/* shorter than the prefix */
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_ARMED, trig_state(fd));
	ASSERT_EQ(9, write(fd, "BOOM here", 9));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
	EXPECT_EQ(0, st.trig_cond);
	EXPECT_EQ(1, st.trig_fires);
	EXPECT_EQ(0, st.trig_after);	/* no window: frozen at once */
	EXPECT_EQ(1, st.running);
	written = st.written;
	EXPECT_EQ(1, wait_pri(fd, 0));
	/* Frozen: nothing more is recorded, markers included... */
	EXPECT_EQ(-1, write(fd, "late", 4));
	EXPECT_EQ(EINVAL, errno);
	/* ... but what was turned away is counted, not silently lost. */
	ASSERT_EQ(0, fdr_stats(fd, &st));
	frozen = st.trig_frozen;
	EXPECT_LE(1, frozen);	/* "late" at least */
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_LE(frozen + 100, st.trig_frozen);
	EXPECT_EQ(written, st.written);
	EXPECT_EQ(0, st.dropped);
	ASSERT_LE(1, read_frozen(&s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, s.reasons);
	EXPECT_STREQ(PFX "marker \"BOOM\"", s.reason);
	EXPECT_STREQ("BOOM here", s.last_marker);
	EXPECT_EQ(0, s.after_reason);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	EXPECT_EQ(0, wait_pri(fd, 0));
	close(fd);
}

/* The window: N events after the reason, then frozen. */
TEST(event_window)
{
	const uint32_t n = 200;
	struct tracebuf_fdr_trigger t = one(marker_cond("go"), n, 0);
	struct tracebuf_fdr_stats st;
	struct seen s;
	char err[160];
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	ASSERT_EQ(2, write(fd, "go", 2));
	/* Still recording: the window is open. */
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FIRED, trig_state(fd));
	for (i = 0; i < 4 * n && trig_state(fd) != TRACEBUF_FDR_TRIG_STATE_FROZEN; i++)
		syscall(SYS_getppid);
	EXPECT_EQ(1, wait_pri(fd, 10000));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
	/* Writes already under way on other CPUs may add one each. */
	EXPECT_LE(n, st.trig_after);
	EXPECT_GE(n + sysconf(_SC_NPROCESSORS_ONLN) - 1, st.trig_after);
	TH_LOG("window %u events: %llu recorded after the reason", n,
	       (unsigned long long)st.trig_after);
	ASSERT_LE(1, read_frozen(&s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, s.reasons);
	/* The trace shows after as well as before. */
	EXPECT_LT(0, s.after_reason);
	EXPECT_GE(st.trig_after, s.after_reason);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* The window: T microseconds, then frozen, and EPOLLPRI wakes a poller. */
TEST(time_window_wakes_poll)
{
	struct tracebuf_fdr_trigger t = one(marker_cond("tick"), 0, 30000);
	struct tracebuf_fdr_stats st;
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	ASSERT_EQ(4, write(fd, "tick", 4));
	EXPECT_EQ(1, wait_pri(fd, 10000));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* A blocked poll() wakes when another process's marker fires. */
TEST(blocked_poll_wakes)
{
	struct tracebuf_fdr_trigger t = one(marker_cond("wake"), 0, 0);
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);
	pid_t pid;
	int st;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		usleep(200000);
		_exit(write(fd, "wake up", 7) != 7);
	}
	EXPECT_EQ(1, wait_pri(fd, 20000));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

TEST(syscall_duration)
{
	struct tracebuf_fdr_trig_cond c = {
		.type = TRACEBUF_FDR_TRIG_DURATION,
		.ev_class = TRACEBUF_FDR_SYSCALL, .threshold_us = 20000,
		.flags = TRACEBUF_FDR_TRIG_F_ID, .id = SYS_ID(SYS_nanosleep),
	};
	struct tracebuf_fdr_trigger t = one(c, 0, 0);
	struct timespec ts = { 0, 1000000 };
	char want[80], err[160];
	struct seen s;
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	/* Short, or long but another syscall: nothing. */
	syscall(SYS_nanosleep, &ts, NULL);
	ts.tv_nsec = 60000000;
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_ARMED, trig_state(fd));
	syscall(SYS_nanosleep, &ts, NULL);
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, trig_state(fd));
	ASSERT_LE(1, read_frozen(&s, err, sizeof(err))) TH_LOG("%s", err);
	snprintf(want, sizeof(want), PFX "syscall %#x ran ", SYS_ID(SYS_nanosleep));
	EXPECT_EQ(0, strncmp(s.reason, want, strlen(want))) TH_LOG("%s", s.reason);
	EXPECT_NE(NULL, strstr(s.reason, "(> 20000 us)"));
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

TEST(syscall_error)
{
	struct tracebuf_fdr_trig_cond c = {
		.type = TRACEBUF_FDR_TRIG_ERRNO, .error = ENOENT,
		.flags = TRACEBUF_FDR_TRIG_F_ID, .id = SYS_ID(SYS_openat),
	};
	struct tracebuf_fdr_trig_cond any = {
		.type = TRACEBUF_FDR_TRIG_ERRNO, .error = EBADF,
	};
	struct tracebuf_fdr_trigger t = one(c, 0, 0);
	struct tracebuf_fdr_stats st;
	char want[80], err[160];
	struct seen s;
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	/* ENOENT from another syscall, another error from openat: nothing. */
	EXPECT_EQ(-1, access("/no/such/file", F_OK));
	EXPECT_EQ(-1, openat(AT_FDCWD, "/", O_WRONLY));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_ARMED, trig_state(fd));
	EXPECT_EQ(-1, openat(AT_FDCWD, "/no/such/file", O_RDONLY));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, trig_state(fd));
	ASSERT_LE(1, read_frozen(&s, err, sizeof(err))) TH_LOG("%s", err);
	snprintf(want, sizeof(want), PFX "syscall %#x returned -%d",
		 SYS_ID(SYS_openat), ENOENT);
	EXPECT_STREQ(want, s.reason);
	/* Any syscall: the second condition of two. */
	t.nr_conds = 2;
	t.conds[0].error = ENOSPC;
	t.conds[1] = any;
	ASSERT_EQ(0, arm(fd, &t));
	EXPECT_EQ(-1, close(-1));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
	EXPECT_EQ(1, st.trig_cond);
	EXPECT_EQ(2, st.trig_fires);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* The VM's PCI UART (tb_irq_tty(), to a null sink) interrupts as it sends. */
static atomic_int noise_stop;

static void *uart_noise(void *arg)
{
	struct termios tio;
	char buf[256], path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", tb_irq_tty());
	/* Never blocks: a guest without its IRQ would never drain it. */
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	memset(buf, 'n', sizeof(buf));
	while (!atomic_load(&noise_stop)) {
		if (write(fd, buf, sizeof(buf)) < 0 && errno != EAGAIN)
			break;
		usleep(1000);
	}
	close(fd);
	return NULL;
}

/*
 * IRQ handlers, softirqs and work functions: a 1 us threshold is passed
 * soon enough under emulation, while the UART and timers keep them busy.
 */
static void class_fires(struct __test_metadata *_metadata, uint32_t class,
			const char *name)
{
	struct tracebuf_fdr_trig_cond c = {
		.type = TRACEBUF_FDR_TRIG_DURATION, .ev_class = class,
		.threshold_us = 1,
	};
	struct tracebuf_fdr_trigger t = one(c, 0, 0);
	char want[40], err[160];
	pthread_t th;
	struct seen s;
	int fired;
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | class);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	atomic_store(&noise_stop, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, uart_noise, NULL));
	/* The debug kernel (KASAN, lockdep) takes its time. */
	fired = wait_pri(fd, 150000);
	atomic_store(&noise_stop, 1);
	pthread_join(th, NULL);
	/*
	 * The debug kernel finds no IRQ routing for the PCI UART ("PCI INT
	 * A: no GSI"): without device interrupts there is nothing to time.
	 */
	if (!fired && class == TRACEBUF_FDR_IRQ &&
	    read_frozen(&s, err, sizeof(err)) >= 0 && !s.irqs) {
		ioctl(fd, TRACEBUF_FDR_IOC_STOP);
		close(fd);
		SKIP(return, "no device interrupt recorded in this guest");
	}
	EXPECT_EQ(1, fired);
	ASSERT_LE(1, read_frozen(&s, err, sizeof(err))) TH_LOG("%s", err);
	snprintf(want, sizeof(want), PFX "%s ", name);
	EXPECT_EQ(0, strncmp(s.reason, want, strlen(want))) TH_LOG("%s", s.reason);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

FIXTURE(dur) {};
FIXTURE_SETUP(dur) {}
FIXTURE_TEARDOWN(dur) {}

TEST_F_TIMEOUT(dur, irq, 180)
{
	class_fires(_metadata, TRACEBUF_FDR_IRQ, "irq");
}

TEST_F_TIMEOUT(dur, softirq, 180)
{
	class_fires(_metadata, TRACEBUF_FDR_SOFTIRQ, "softirq");
}

TEST_F_TIMEOUT(dur, work, 180)
{
	class_fires(_metadata, TRACEBUF_FDR_WORKQUEUE, "work");
}

TEST(snapshot_ioctl_fires)
{
	struct tracebuf_fdr_trig_cond c = { .type = TRACEBUF_FDR_TRIG_SNAPSHOT };
	struct tracebuf_fdr_trigger t = one(c, 50, 0);
	struct tracebuf_fdr_stats st;
	char err[160];
	uint8_t *buf;
	size_t len;
	struct seen s = { 0 };
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arm(fd, &t));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	for (i = 0; i < 1000 && !wait_pri(fd, 0); i++)
		syscall(SYS_getppid);
	EXPECT_EQ(1, wait_pri(fd, 10000));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_LE(50, st.trig_after);
	/* This file's snapshot is of the frozen rings. */
	buf = fdr_read_all(fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, seen_cb, &s, err, sizeof(err)))
		TH_LOG("%s", err);
	free(buf);
	EXPECT_STREQ(PFX "snapshot ioctl", s.reason);
	EXPECT_LT(0, s.after_reason);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* Arming again resumes recording; disarming too; each firing counts. */
/* Is a kprobe on @sym registered (debugfs)?  -1 if the list is unreadable. */
static int kprobe_listed(const char *sym)
{
	FILE *f = fopen("/sys/kernel/debug/kprobes/list", "r");
	char line[256];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, sym))
			found = 1;
	fclose(f);
	return found;
}

/*
 * WARN arms on this kernel (its kprobe on __warn registers), and costs
 * nothing while not armed: the kprobe exists only while it is.  Firing it
 * needs a WARN; scripts/check/crash-check.sh provokes one (tb_provoke.ko).
 */
TEST(warn_arms_its_kprobe_only_while_armed)
{
	struct tracebuf_fdr_trig_cond c = { .type = TRACEBUF_FDR_TRIG_WARN };
	struct tracebuf_fdr_trigger t = one(c, 0, 0);
	int fd = start_flight(TRACEBUF_FDR_SYSCALL);

	ASSERT_LE(0, fd);
	if (kprobe_listed("__warn") < 0)
		SKIP(goto out, "no /sys/kernel/debug/kprobes/list");
	EXPECT_EQ(0, kprobe_listed("__warn"));
	ASSERT_EQ(0, arm(fd, &t));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_ARMED, trig_state(fd));
	EXPECT_EQ(1, kprobe_listed("__warn"));
	/* Arming again replaces it: still one. */
	ASSERT_EQ(0, arm(fd, &t));
	EXPECT_EQ(1, kprobe_listed("__warn"));
	EXPECT_EQ(0, disarm(fd));
	EXPECT_EQ(0, kprobe_listed("__warn"));
	ASSERT_EQ(0, arm(fd, &t));
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);	/* STOP disarms */
	EXPECT_EQ(0, kprobe_listed("__warn"));
out:
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

TEST(rearm_and_disarm_resume)
{
	struct tracebuf_fdr_trigger t = one(marker_cond("x"), 0, 0);
	struct tracebuf_fdr_stats st;
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);
	uint64_t frozen;
	int i;

	ASSERT_LE(0, fd);
	for (i = 1; i <= 5; i++) {
		ASSERT_EQ(0, arm(fd, &t));
		EXPECT_EQ(0, wait_pri(fd, 0));
		ASSERT_EQ(2, write(fd, "x1", 2));
		ASSERT_EQ(0, fdr_stats(fd, &st));
		EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, st.trig_state);
		EXPECT_EQ(i, st.trig_fires);
		EXPECT_EQ(1, wait_pri(fd, 0));
	}
	EXPECT_EQ(0, disarm(fd));
	EXPECT_EQ(0, wait_pri(fd, 0));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_OFF, trig_state(fd));
	EXPECT_EQ(2, write(fd, "x2", 2));	/* recording again */
	/* Not frozen any more: nothing is turned away. */
	ASSERT_EQ(0, fdr_stats(fd, &st));
	frozen = st.trig_frozen;
	EXPECT_LE(1, frozen);
	for (i = 0; i < 50; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(frozen, st.trig_frozen);
	/* START resets the counts. */
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(0, st.trig_fires);
	EXPECT_EQ(0, st.trig_frozen);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* ------------------------------------------------------------ races */

static atomic_int race_stop;

static void *race_arm(void *arg)
{
	struct tracebuf_fdr_trig_cond d = {
		.type = TRACEBUF_FDR_TRIG_DURATION,
		.ev_class = TRACEBUF_FDR_SYSCALL, .threshold_us = 1,
	};
	struct tracebuf_fdr_trigger t = one(marker_cond("r"), 20, 0);
	int fd = open(TB_FDR_DEV, O_RDWR);
	unsigned int i = 0;

	t.nr_conds = 2;
	t.conds[1] = d;
	while (!atomic_load(&race_stop)) {
		t.post_usecs = i % 3 ? 0 : 100;
		t.nr_conds = 1 + i % 2;
		if (i % 5 == 4)
			disarm(fd);
		else
			arm(fd, &t);
		i++;
	}
	close(fd);
	return NULL;
}

static void *race_mark(void *arg)
{
	int fd = open(TB_FDR_DEV, O_RDWR);

	while (!atomic_load(&race_stop)) {
		if (write(fd, "race", 4) < 0)
			syscall(SYS_getppid);
	}
	close(fd);
	return NULL;
}

static void *race_ctl(void *arg)
{
	unsigned int i = 0;

	while (!atomic_load(&race_stop)) {
		int fd = open(TB_FDR_DEV, O_RDWR);
		struct pollfd p = { .fd = fd, .events = POLLPRI };
		uint8_t *buf;
		size_t len;

		if (i % 4 == 0) {
			ioctl(fd, TRACEBUF_FDR_IOC_STOP);
			ioctl(fd, TRACEBUF_FDR_IOC_START);
		}
		poll(&p, 1, 1);
		ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT);
		buf = fdr_read_all(fd, &len);
		free(buf);
		close(fd);	/* with or without its snapshot read */
		i++;
	}
	return NULL;
}

TEST(races_of_arm_disarm_stop_close)
{
	struct tracebuf_fdr_trigger t;
	pthread_t th[4];
	int fd = start_flight(TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER);
	int i;

	ASSERT_LE(0, fd);
	atomic_store(&race_stop, 0);
	ASSERT_EQ(0, pthread_create(&th[0], NULL, race_arm, NULL));
	ASSERT_EQ(0, pthread_create(&th[1], NULL, race_mark, NULL));
	ASSERT_EQ(0, pthread_create(&th[2], NULL, race_ctl, NULL));
	ASSERT_EQ(0, pthread_create(&th[3], NULL, race_mark, NULL));
	sleep(4);
	atomic_store(&race_stop, 1);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	/* Still sound: a last trigger fires and freezes. */
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	/*
	 * Not a block after ASSERT_EQ(): the harness runs such a block only
	 * when the assertion fails.
	 */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	t = one(marker_cond("end"), 0, 0);
	ASSERT_EQ(0, arm(fd, &t));
	ASSERT_EQ(3, write(fd, "end", 3));
	EXPECT_EQ(TRACEBUF_FDR_TRIG_STATE_FROZEN, trig_state(fd));
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
	/* And the module unloads with nothing left behind. */
	EXPECT_EQ(0, tb_module_unload());
	EXPECT_EQ(0, tb_module_load());
}

TEST_HARNESS_MAIN
