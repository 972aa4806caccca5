// SPDX-License-Identifier: GPL-2.0
/*
 * Who may use the devices, and what an open file carries:
 *
 *  - nobody without CAP_PERFMON or CAP_SYS_ADMIN opens either device, in
 *    any mode; root with only one of the two may;
 *  - with tracing_gid=G, members of group G open both devices without
 *    any capability, and still nobody else does; with tracing_gid=-1 (the
 *    default) membership gives nothing; the parameter refuses values that
 *    are not a group;
 *  - a file opened by root and passed (SCM_RIGHTS) to a process that has
 *    dropped every privilege (uid/gid 65534, no groups, no capabilities,
 *    no_new_privs) does what its open mode allows: read() needs a
 *    readable file, write() a writable one (EBADF otherwise), it cannot
 *    be reopened through /proc/self/fd; every ioctl works on any open
 *    mode (the driver checks privilege at open only, like perf) -- the
 *    test prints what each mode could do;
 *  - kernel probes are more: a kernel-function list (KFUNCS) or a WARN
 *    trigger needs a file opened with CAP_PERFMON or CAP_SYS_ADMIN, or,
 *    with group_kprobes=Y, by the tracing group; the opener counts, not
 *    the caller (a member's file stays refused in root's hands), and
 *    turning the switch off holds back files already open; everything
 *    else (clearing the list, OOPS triggers, start and stop) is the
 *    group's without it;
 *  - nothing such a process can read from the files (trace data, NAMES,
 *    STATS, STATUS, snapshots) holds a kernel address, and the work
 *    function ids it sees must not give away where the kernel is.
 */
#include <ctype.h>
#include <linux/capability.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>

#include "tb_harness.h"
#include "fdr_strict.h"
#include "fdr_util.h"
#include "tb_dev_util.h"
#include "tb_stress.h"

/* Keep exactly the capabilities in @mask (bits of the first word). */
static int caps_only(uint32_t mask0, uint32_t mask1)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {
		{ mask0, mask0, 0 }, { mask1, mask1, 0 },
	};

	return syscall(SYS_capset, &hdr, d) ? -errno : 0;
}

static int no_caps_left(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &hdr, d))
		return 0;
	return !(d[0].effective | d[0].permitted | d[0].inheritable |
		 d[1].effective | d[1].permitted | d[1].inheritable);
}

/* Everything a process can give up. */
static int drop_everything(void)
{
	if (tb_drop_privileges() || caps_only(0, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return getuid() == 65534 && geteuid() == 65534 && getgid() == 65534 &&
	       no_caps_left() ? 0 : -1;
}

/* Keep exactly capability @c. */
static int cap_only(unsigned int c)
{
	return caps_only(c < 32 ? 1U << c : 0, c >= 32 ? 1U << (c - 32) : 0);
}

/* open() of @path with @flags in a child after @how; its errno or 0. */
static int open_as(int how, const char *path, int flags)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd, ret = 0;

		switch (how) {
		case 0:
			ret = drop_everything();
			break;
		case 1:		/* root, no capability at all */
			ret = caps_only(0, 0);
			break;
		case 2:
			ret = cap_only(CAP_PERFMON);
			break;
		case 3:
			ret = cap_only(CAP_SYS_ADMIN);
			break;
		case 4:		/* root with every file capability */
			ret = caps_only(1U << CAP_DAC_OVERRIDE |
					1U << CAP_DAC_READ_SEARCH |
					1U << CAP_FOWNER | 1U << CAP_CHOWN, 0);
			break;
		}
		if (ret)
			_exit(254);
		fd = open(path, flags);
		_exit(fd < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(open_needs_perfmon_or_sys_admin)
{
	static const char *const devs[] = { TB_DEV, TB_FDR_DEV };
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR,
				     O_RDONLY | O_NONBLOCK };
	unsigned int d, m;
	int e;

	for (d = 0; d < 2; d++) {
		for (m = 0; m < 4; m++) {
			e = open_as(0, devs[d], modes[m]);
			EXPECT_TRUE(e == EACCES || e == EPERM) {
				TH_LOG("%s mode %#x as nobody: %d", devs[d], modes[m], e);
			}
			EXPECT_EQ(EPERM, open_as(1, devs[d], modes[m])) {
				TH_LOG("%s mode %#x as root without capabilities",
				       devs[d], modes[m]);
			}
			EXPECT_EQ(EPERM, open_as(4, devs[d], modes[m])) {
				TH_LOG("%s mode %#x with only file capabilities",
				       devs[d], modes[m]);
			}
			EXPECT_EQ(0, open_as(2, devs[d], modes[m])) {
				TH_LOG("%s mode %#x with CAP_PERFMON", devs[d], modes[m]);
			}
			EXPECT_EQ(0, open_as(3, devs[d], modes[m])) {
				TH_LOG("%s mode %#x with CAP_SYS_ADMIN", devs[d], modes[m]);
			}
		}
	}
}

/* ------------------------------------------------------ tracing group */

#define GID_PARAM	"/sys/module/tracebuf/parameters/tracing_gid"
#define KPROBES_PARAM	"/sys/module/tracebuf/parameters/group_kprobes"
#define TRACING_GID	4242

/*
 * Become uid 65534 without capabilities whose only supplementary group
 * is @group (none if negative); 0 or -1.
 */
static int become_member(int group)
{
	gid_t g = group;

	if (setgroups(group < 0 ? 0 : 1, &g) ||
	    setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534) || caps_only(0, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || !no_caps_left())
		return -1;
	return 0;
}

/*
 * open() of @path with @flags by uid 65534 without capabilities, whose
 * only supplementary group is @group (none if negative); errno or 0.
 */
static int open_in_group(const char *path, int flags, int group)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd;

		if (become_member(group))
			_exit(254);
		fd = open(path, flags);
		_exit(fd < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The nodes as the package's udev rule leaves them, but readable and
 * writable by everyone: only the driver's check stands between a user and
 * the device, which is what these tests are about.
 */
FIXTURE(grp) {
	struct stat st[2];
};

static const char *const grp_dev[2] = { TB_DEV, TB_FDR_DEV };

FIXTURE_SETUP(grp)
{
	int d;

	ASSERT_EQ(0, access(GID_PARAM, W_OK)) TH_LOG("no %s", GID_PARAM);
	for (d = 0; d < 2; d++) {
		ASSERT_EQ(0, stat(grp_dev[d], &self->st[d]));
		ASSERT_EQ(0, chown(grp_dev[d], 0, TRACING_GID));
		ASSERT_EQ(0, chmod(grp_dev[d], 0666));
	}
}

FIXTURE_TEARDOWN(grp)
{
	int d;

	int fd = open(TB_FDR_DEV, O_RDWR);
	struct tracebuf_fdr_kfuncs none = { 0 };
	struct tracebuf_fdr_trigger off = { 0 };

	tb_write_str(KPROBES_PARAM, "N\n");
	tb_write_str(GID_PARAM, "-1\n");
	if (fd >= 0) {
		ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, &off);
		ioctl(fd, TRACEBUF_FDR_IOC_STOP);
		ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &none);
		close(fd);
	}
	for (d = 0; d < 2; d++) {
		chown(grp_dev[d], self->st[d].st_uid, self->st[d].st_gid);
		chmod(grp_dev[d], self->st[d].st_mode & 07777);
	}
}

TEST_F(grp, default_gives_the_group_nothing)
{
	char buf[32] = "";
	int d, fd = open(GID_PARAM, O_RDONLY);

	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_STREQ("-1\n", buf);
	for (d = 0; d < 2; d++) {
		EXPECT_EQ(EPERM, open_in_group(grp_dev[d], O_RDWR, TRACING_GID))
			TH_LOG("%s as a group member, tracing_gid=-1", grp_dev[d]);
		EXPECT_EQ(EPERM, open_in_group(grp_dev[d], O_RDONLY, -1))
			TH_LOG("%s without groups", grp_dev[d]);
	}
}

TEST_F(grp, members_open_without_capabilities)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	char val[16];
	int d, m;

	snprintf(val, sizeof(val), "%d\n", TRACING_GID);
	ASSERT_EQ(0, tb_write_str(GID_PARAM, val));
	for (d = 0; d < 2; d++) {
		for (m = 0; m < 3; m++) {
			EXPECT_EQ(0, open_in_group(grp_dev[d], modes[m], TRACING_GID))
				TH_LOG("%s mode %d as a member", grp_dev[d], m);
			EXPECT_EQ(EPERM, open_in_group(grp_dev[d], modes[m], -1))
				TH_LOG("%s mode %d without groups", grp_dev[d], m);
			EXPECT_EQ(EPERM, open_in_group(grp_dev[d], modes[m],
						       TRACING_GID + 1))
				TH_LOG("%s mode %d in another group", grp_dev[d], m);
		}
	}
	/* Back to the default: the next open is refused again. */
	ASSERT_EQ(0, tb_write_str(GID_PARAM, "-1\n"));
	for (d = 0; d < 2; d++)
		EXPECT_EQ(EPERM, open_in_group(grp_dev[d], O_RDONLY, TRACING_GID));
}

TEST_F(grp, parameter_refuses_what_is_not_a_group)
{
	static const char *const bad[] = {
		"-2\n", "4294967295\n", "tracing\n", "\n", "12x\n",
	};
	char buf[32] = "";
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		fd = open(GID_PARAM, O_WRONLY);
		ASSERT_LE(0, fd);
		errno = 0;
		EXPECT_GT(0, write(fd, bad[i], strlen(bad[i]))) TH_LOG("%s", bad[i]);
		EXPECT_TRUE(errno == EINVAL || errno == ERANGE)
			TH_LOG("%s: errno %d", bad[i], errno);
		close(fd);
	}
	fd = open(GID_PARAM, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_STREQ("-1\n", buf);
}

/* ------------------------------------------------------ passed files */

#define NFILES	6

static const char *const file_name[NFILES] = {
	"tracebuf O_RDONLY", "tracebuf O_WRONLY", "tracebuf O_RDWR",
	"tracebuf_fdr O_RDONLY", "tracebuf_fdr O_WRONLY", "tracebuf_fdr O_RDWR",
};

static int send_fds(int sock, const int *fds, int n)
{
	char cbuf[CMSG_SPACE(NFILES * sizeof(int))];
	char byte = 'f';
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *c;

	memset(cbuf, 0, sizeof(cbuf));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fds(int sock, int *fds, int n)
{
	char cbuf[CMSG_SPACE(NFILES * sizeof(int))];
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(n * sizeof(int)))
		return -1;
	memcpy(fds, CMSG_DATA(c), n * sizeof(int));
	return 0;
}

/* What the unprivileged child reports back. */
struct report {
	int privileged;			/* 0 if it really had nothing */
	int reopen_errno[NFILES];
	int read_errno[NFILES];		/* 0: read worked */
	int write_errno[NFILES];
	char ioctls[NFILES][300];	/* "NAME=ok|ERR ..." */
	/* Leak scan. */
	int kernel_words;		/* 64-bit values in kernel space */
	char first_leak[160];
	char names[16384];		/* NAMES text, for the KASLR check */
	uint64_t bytes_read;
};

static const char *errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EBADF: return "EBADF";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case ENOTTY: return "ENOTTY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "other";
	}
}

static void note(char *s, size_t len, const char *what, int ret)
{
	size_t n = strlen(s);

	snprintf(s + n, len - n, "%s%s=%s", n ? " " : "", what,
		 errname(ret < 0 ? errno : 0));
}

static int is_kernel_word(uint64_t v)
{
	/* The kernel half, but not small negative numbers like -1..-4096. */
	return v >= 0xffff800000000000ULL && v < 0xfffffffffffff000ULL;
}

static void leak(struct report *r, const char *fmt, uint64_t v)
{
	if (!r->kernel_words++)
		snprintf(r->first_leak, sizeof(r->first_leak), fmt,
			 (unsigned long long)v);
}

static void leak_cb(const struct fs_rec *rec, void *arg)
{
	struct report *r = arg;
	int i;

	if (rec->kind == FS_FUNC_REC)
		for (i = 0; i < rec->nargs; i++)
			if (is_kernel_word(rec->args[i]))
				leak(r, "FDR record argument %#llx", rec->args[i]);
}

/* Any 8 aligned bytes of @p that look like a kernel address. */
static void scan_words(struct report *r, const char *what, const void *p,
		       size_t len)
{
	const uint8_t *b = p;
	size_t i;

	char fmt[96];

	snprintf(fmt, sizeof(fmt), "a kernel address in %s at byte %%zu: %%#llx", what);
	for (i = 0; i + 8 <= len; i += 8)
		if (is_kernel_word(fs_le64(b + i)) && !r->kernel_words++)
			snprintf(r->first_leak, sizeof(r->first_leak), fmt, i,
				 (unsigned long long)fs_le64(b + i));
}

/* Hex numbers of 12 digits or more in text: kernel pointers. */
static void scan_text(struct report *r, const char *s)
{
	const char *p;
	int run = 0;

	for (p = s; *p; p++) {
		run = isxdigit((unsigned char)*p) ? run + 1 : 0;
		if (run == 12 && !r->kernel_words++)
			snprintf(r->first_leak, sizeof(r->first_leak),
				 "a long hex number in NAMES: ...%.40s", p - 11);
	}
}

/* The child: no privileges, the passed files only. */
static void unprivileged(int sock, struct report *r)
{
	struct tracebuf_fdr_config c = {
		.classes = fdr_all(), .mode = TRACEBUF_FDR_MODE_FLIGHT,
		.buf_size = 1 << 20, .nr_args = 6,
	};
	struct tracebuf_event ev = EXC(TRACEBUF_VEC_SWI, 3);
	struct tracebuf_fdr_names nm = { 0 };
	struct tracebuf_fdr_stats st;
	struct tracebuf_fdr_cpu_stats cs[FS_MAX_CPUS];
	struct tracebuf_status ts;
	struct tracebuf_chkpt ck;
	struct tracebuf_sources src;
	uint8_t rec[TB_REC_SIZE], *buf;
	char path[64];
	int fds[NFILES], i, ret;
	size_t len;

	if (drop_everything()) {
		r->privileged = 1;
		return;
	}
	if (write(sock, "r", 1) != 1 || recv_fds(sock, fds, NFILES)) {
		r->privileged = 2;
		return;
	}
	for (i = 0; i < NFILES; i++) {
		char *s = r->ioctls[i];
		size_t sl = sizeof(r->ioctls[i]);
		uint8_t b[64];
		struct pollfd p = { .fd = fds[i], .events = POLLIN | POLLOUT };

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[i]);
		ret = open(path, O_RDONLY);
		r->reopen_errno[i] = ret < 0 ? errno : 0;
		if (ret >= 0)
			close(ret);
		poll(&p, 1, 0);
		if (i < 3) {
			/* The trace buffer, feed on, as far as this file lets. */
			ret = read(fds[i], b, sizeof(b));
			r->read_errno[i] = ret < 0 ? errno : 0;
			ret = ioctl(fds[i], TRACEBUF_IOC_ENABLE);
			note(s, sl, "ENABLE", ret);
			ret = write(fds[i], &ev, sizeof(ev));
			r->write_errno[i] = ret < 0 ? errno : 0;
			ret = ioctl(fds[i], TRACEBUF_IOC_STATUS, &ts);
			note(s, sl, "STATUS", ret);
			if (!ret)
				scan_words(r, "STATUS", &ts, sizeof(ts));
			note(s, sl, "GET_CHKPT", ioctl(fds[i], TRACEBUF_IOC_GET_CHKPT, &ck));
			note(s, sl, "CLEAR", ioctl(fds[i], TRACEBUF_IOC_CLEAR));
			src.mask = tb_src_all();
			src.cpu = TRACEBUF_CPU_ALL;
			note(s, sl, "SET_SOURCES", ioctl(fds[i], TRACEBUF_IOC_SET_SOURCES, &src));
			ret = tb_snapshot(fds[i], rec, 0);
			note(s, sl, "SNAPSHOT", ret);
			if (!ret)
				scan_words(r, "snapshot", rec, sizeof(struct tracebuf_record));
			note(s, sl, "DISABLE", ioctl(fds[i], TRACEBUF_IOC_DISABLE));
			note(s, sl, "SET_MODE", tb_set_mode(fds[i], TRACEBUF_MODE_WRAP));
			src.mask = 0;
			ret = ioctl(fds[i], TRACEBUF_IOC_SET_SOURCES, &src);
			note(s, sl, "SET_SOURCES(0)", ret);
			continue;
		}
		/* The recorder: configure, record, read, as this file lets. */
		ioctl(fds[i], TRACEBUF_FDR_IOC_STOP);
		note(s, sl, "CONFIG", ioctl(fds[i], TRACEBUF_FDR_IOC_CONFIG, &c));
		note(s, sl, "START", ioctl(fds[i], TRACEBUF_FDR_IOC_START));
		ret = write(fds[i], "unprivileged", 12);
		r->write_errno[i] = ret < 0 ? errno : 0;
		/* Work the parent's side of the pipe: it makes work items. */
		if (write(sock, "w", 1) != 1 || read(sock, b, 1) != 1)
			break;
		for (ret = 0; ret < 100; ret++)
			syscall(SYS_getppid);
		note(s, sl, "SNAPSHOT", ioctl(fds[i], TRACEBUF_FDR_IOC_SNAPSHOT));
		memset(&st, 0, sizeof(st));
		/* Only the possible CPUs' entries are filled (ioctl-fdr.rst). */
		memset(cs, 0, sizeof(cs));
		st.cpus = (uintptr_t)cs;
		st.nr_cpus = FS_MAX_CPUS;
		st.cpu_size = sizeof(cs[0]);
		ret = ioctl(fds[i], TRACEBUF_FDR_IOC_STATS, &st);
		note(s, sl, "STATS", ret);
		if (!ret) {
			st.cpus = 0;	/* our own pointer */
			scan_words(r, "STATS", &st, sizeof(st));
			scan_words(r, "STATS per CPU", cs, sizeof(cs));
		}
		nm.buf = (uintptr_t)r->names;
		nm.len = sizeof(r->names) - 1;
		ret = ioctl(fds[i], TRACEBUF_FDR_IOC_NAMES, &nm);
		note(s, sl, "NAMES", ret);
		if (!ret)
			scan_text(r, r->names);
		note(s, sl, "STOP", ioctl(fds[i], TRACEBUF_FDR_IOC_STOP));
		buf = NULL;
		len = 0;
		if (i == 4) {
			ret = read(fds[i], b, 1);
			r->read_errno[i] = ret < 0 ? errno : 0;
		} else {
			buf = fdr_read_all(fds[i], &len);
			r->read_errno[i] = buf ? 0 : errno;
		}
		if (buf) {
			struct fs_scan sc = { .cb = leak_cb, .arg = r };

			r->bytes_read += len;
			if (fs_scan_stream(buf, len, &sc) < 0)
				leak(r, "an unparsable capture (%llu bytes)", len);
			fs_scan_free(&sc);
			free(buf);
		}
	}
}

FIXTURE(pf) {
	int fds[NFILES];
	struct report *r;
};

FIXTURE_SETUP(pf)
{
	static const int modes[3] = { O_RDONLY, O_WRONLY, O_RDWR };
	int i;

	for (i = 0; i < NFILES; i++) {
		self->fds[i] = open(i < 3 ? TB_DEV : TB_FDR_DEV, modes[i % 3]);
		ASSERT_LE(0, self->fds[i]);
	}
	ASSERT_EQ(0, tb_reset(self->fds[2], TRACEBUF_MODE_WRAP, 1));
	self->r = mmap(NULL, sizeof(*self->r), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->r);
}

FIXTURE_TEARDOWN(pf)
{
	int i;

	tb_reset(self->fds[2], TRACEBUF_MODE_WRAP, 0);
	ioctl(self->fds[5], TRACEBUF_FDR_IOC_STOP);
	for (i = 0; i < NFILES; i++)
		close(self->fds[i]);
	munmap(self->r, sizeof(*self->r));
}

/* Work items on every CPU (needs root: the parent does it). */
static void make_work(void)
{
	tb_write_str("/proc/sys/vm/stat_refresh", "1\n");
}

/* Run the unprivileged child with our files; its report in self->r. */
static int run_child(struct __test_metadata *_metadata, int *fds,
		     struct report *r)
{
	int sv[2], status;
	char c;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		unprivileged(sv[1], r);
		_exit(0);
	}
	close(sv[1]);
	/* Pass the files once it has given everything up. */
	if (read(sv[0], &c, 1) == 1 && c == 'r')
		send_fds(sv[0], fds, NFILES);
	while (read(sv[0], &c, 1) == 1)
		if (c == 'w') {
			make_work();
			if (write(sv[0], "k", 1) != 1)
				break;
		}
	close(sv[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? 0 : -1;
}

TEST_F(pf, passed_files_do_what_their_mode_allows)
{
	struct report *r = self->r;
	int i;

	ASSERT_EQ(0, run_child(_metadata, self->fds, r));
	ASSERT_EQ(0, r->privileged) TH_LOG("could not drop everything");
	for (i = 0; i < NFILES; i++) {
		int mode = i % 3;

		TH_LOG("%-22s reopen=%s read=%s write=%s %s", file_name[i],
		       errname(r->reopen_errno[i]), errname(r->read_errno[i]),
		       errname(r->write_errno[i]), r->ioctls[i]);
		EXPECT_TRUE(r->reopen_errno[i] == EACCES ||
			    r->reopen_errno[i] == EPERM) {
			TH_LOG("%s: reopened through /proc/self/fd", file_name[i]);
		}
		if (mode == 1) {
			EXPECT_EQ(EBADF, r->read_errno[i]) TH_LOG("%s", file_name[i]);
		} else {
			EXPECT_NE(EBADF, r->read_errno[i]) TH_LOG("%s", file_name[i]);
		}
		if (mode == 0) {
			EXPECT_EQ(EBADF, r->write_errno[i]) TH_LOG("%s", file_name[i]);
		} else {
			EXPECT_NE(EBADF, r->write_errno[i]) TH_LOG("%s", file_name[i]);
		}
	}
	EXPECT_LT(0ULL, r->bytes_read);
}

TEST_F(pf, nothing_a_file_holder_reads_is_a_kernel_address)
{
	struct report *r = self->r;

	ASSERT_EQ(0, run_child(_metadata, self->fds, r));
	ASSERT_EQ(0, r->privileged);
	EXPECT_EQ(0, r->kernel_words) {
		TH_LOG("%d found, the first: %s", r->kernel_words, r->first_leak);
	}
	EXPECT_NE(NULL, strstr(r->names, " work ")) {
		TH_LOG("no work function in NAMES: the KASLR check below had nothing");
	}
}

/* ---------------------------------------------- work ids and KASLR */

/* The kernel's hash_ptr() for 64-bit pointers (include/linux/hash.h). */
static unsigned int kernel_hash_ptr(uint64_t p, unsigned int bits)
{
	return (unsigned int)((p * 0x61C8864680B583EBULL) >> (64 - bits));
}

/* Address of symbol @name in /proc/kallsyms (root), or 0. */
static uint64_t ksym(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long a;
	uint64_t ret = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 &&
		    !strcmp(sym, name) && !strchr(line, '[')) {
			ret = a;
			break;
		}
	fclose(f);
	return ret;
}

/*
 * What the unprivileged file holder saw: "<id> work <function>" lines,
 * collected into @off (the function's offset from _text, which anyone
 * with the distribution's System.map knows) and @key.  Returns the new
 * count; @hashed counts keys equal to hash_ptr(address).
 */
static int work_keys(char *names, uint64_t text, uint64_t *off,
		     unsigned int *key, int n, int max, int *hashed)
{
	char *line, *save = NULL;

	for (line = strtok_r(names, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int id;
		char fn[200];
		uint64_t a;

		if (sscanf(line, "%x work %199s", &id, fn) != 2 ||
		    TRACEBUF_FDR_ID_KEY(id) == TRACEBUF_FDR_KEY_OTHER)
			continue;
		a = ksym(fn);
		if (!a)
			continue;
		off[n] = a - text;
		key[n] = TRACEBUF_FDR_ID_KEY(id);
		*hashed += kernel_hash_ptr(a, 10) == key[n];
		n++;
	}
	return n;
}

/*
 * If the key of a work function is a hash of its address alone, the
 * offsets and keys together leave few places the kernel can be (KASLR
 * puts _text at one of ~500 2 MiB slots), the true one among them.
 *
 * Keys that are not such a hash leave places too, by chance: hash_ptr()
 * is multiplicative, so moving _text by 2 MiB moves every function's hash
 * by about the same step, and two random keys whose difference happens to
 * match two functions' hash difference leave a few places (about 1 run
 * in 200 with two work functions, seen on the debug kernel).  What gives
 * the address away is the true place among fewer than 16 (4 bits), so
 * that is the check; and the keys of two captures, each with a secret of
 * its own, go into it together, so that a single work function cannot
 * leave the true place by chance either (4 in 1024).
 */
TEST_F(pf, work_ids_do_not_reveal_kaslr_base)
{
	struct report *r = self->r;
	uint64_t text = ksym("_text"), base;
	uint64_t off[128];
	unsigned int key[128];
	int n = 0, i, run, candidates = 0, hashed = 0, runs_with_keys = 0;
	bool true_place = false;

	if (!text)
		SKIP(return, "no /proc/kallsyms addresses");
	for (run = 0; run < 2; run++) {
		int before = n;

		memset(r->names, 0, sizeof(r->names));
		ASSERT_EQ(0, run_child(_metadata, self->fds, r));
		ASSERT_EQ(0, r->privileged);
		n = work_keys(r->names, text, off, key, n, 64 * (run + 1),
			      &hashed);
		runs_with_keys += n > before;
	}
	if (!n)
		SKIP(return, "no work function with a symbol in the capture");
	/*
	 * x86-64 KASLR: _text 2 MiB aligned in the top 1 GiB past 16 MiB.
	 * A key is its hash slot or, after collisions, one of the next.
	 */
	for (base = 0xffffffff81000000ULL; base < 0xffffffffc0000000ULL;
	     base += 2 << 20) {
		for (i = 0; i < n; i++)
			if (((key[i] - kernel_hash_ptr(base + off[i], 10)) & 1023) > 3)
				break;
		if (i == n) {
			candidates++;
			true_place |= base == text;
		}
	}
	TH_LOG("%d work functions named in %d captures, %d keys equal to hash_ptr(address), %d possible _text places%s",
	       n, runs_with_keys, hashed, candidates,
	       true_place ? ", the true one among them" : "");
	EXPECT_FALSE(true_place && candidates < 16) {
		TH_LOG("the work ids give away the kernel's address (_text %#llx)",
		       (unsigned long long)text);
	}
}

/* ------------------------------------------------------ kernel probes */

enum { BY_MEMBER, BY_PERFMON };

/*
 * /dev/tracebuf_fdr opened O_RDWR in a child, @how: by a tracing-group
 * member without capabilities, or by root with CAP_PERFMON alone; handed
 * back to us, so the file's opener is the child whatever we are.
 */
static int fdr_opened_by(int how)
{
	int sv[2], fd = -1, status;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	pid = fork();
	if (pid == 0) {
		int f;

		close(sv[0]);
		if (how == BY_MEMBER ? become_member(TRACING_GID) :
				       cap_only(CAP_PERFMON))
			_exit(254);
		f = open(TB_FDR_DEV, O_RDWR);
		if (f < 0)
			_exit(errno);
		_exit(send_fds(sv[1], &f, 1) ? 253 : 0);
	}
	close(sv[1]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0 && recv_fds(sv[0], &fd, 1))
		fd = -1;
	close(sv[0]);
	return fd;
}

static int kfuncs_of(int fd, const char *names)
{
	struct tracebuf_fdr_kfuncs kf = {
		.names = (uintptr_t)names, .len = strlen(names),
	};

	return ioctl(fd, TRACEBUF_FDR_IOC_KFUNCS, &kf) ? errno : 0;
}

static int trigger_of(int fd, uint32_t type1, uint32_t type2)
{
	struct tracebuf_fdr_trigger t = {
		.nr_conds = type2 ? 2 : 1, .post_events = 16,
	};

	t.conds[0].type = type1;
	t.conds[1].type = type2;
	return ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, &t) ? errno : 0;
}

static int untrigger(int fd)
{
	struct tracebuf_fdr_trigger off = { 0 };

	return ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, &off) ? errno : 0;
}

/* A running flight-mode capture through @fd, as triggers need. */
static int start_flight_on(int fd)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_SYSCALL, .mode = TRACEBUF_FDR_MODE_FLIGHT,
		.buf_size = 1 << 20,
	};

	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	if (ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c) ||
	    ioctl(fd, TRACEBUF_FDR_IOC_START))
		return errno;
	return 0;
}

/* Kretprobes built in?  Asked as root, which may. */
static int kprobes_built(void)
{
	int fd = open(TB_FDR_DEV, O_RDWR), e;

	if (fd < 0)
		return 0;
	e = kfuncs_of(fd, "vfs_read\n");
	kfuncs_of(fd, "");
	close(fd);
	return e != EOPNOTSUPP;
}

static void param_is(struct __test_metadata *_metadata, const char *want)
{
	char buf[8] = "";
	int fd = open(KPROBES_PARAM, O_RDONLY);

	ASSERT_LE(0, fd) TH_LOG("no %s", KPROBES_PARAM);
	ASSERT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_STREQ(want, buf);
}

TEST_F(grp, kernel_probes_need_perfmon_by_default)
{
	char val[16];
	int m, p;

	if (!kprobes_built())
		SKIP(return, "the module has no kretprobes");
	snprintf(val, sizeof(val), "%d\n", TRACING_GID);
	ASSERT_EQ(0, tb_write_str(GID_PARAM, val));
	m = fdr_opened_by(BY_MEMBER);
	ASSERT_LE(0, m) TH_LOG("a member could not open " TB_FDR_DEV);
	p = fdr_opened_by(BY_PERFMON);
	ASSERT_LE(0, p) TH_LOG("CAP_PERFMON could not open " TB_FDR_DEV);

	/* We are root with every capability: the member's file still is not. */
	EXPECT_EQ(EPERM, kfuncs_of(m, "vfs_read\n"));
	EXPECT_EQ(EPERM, kfuncs_of(m, "vfs_read\nvfs_write\n"));
	EXPECT_EQ(0, kfuncs_of(m, "")) TH_LOG("clearing the list arms nothing");
	EXPECT_EQ(0, kfuncs_of(p, "vfs_read\n"));
	EXPECT_EQ(0, kfuncs_of(m, "")) TH_LOG("clearing CAP_PERFMON's list");

	/* Capture control is the group's. */
	ASSERT_EQ(0, start_flight_on(m));
	EXPECT_EQ(EPERM, trigger_of(m, TRACEBUF_FDR_TRIG_WARN, 0));
	EXPECT_EQ(EPERM, trigger_of(m, TRACEBUF_FDR_TRIG_OOPS,
				    TRACEBUF_FDR_TRIG_WARN));
	EXPECT_EQ(0, trigger_of(m, TRACEBUF_FDR_TRIG_OOPS, 0))
		TH_LOG("an OOPS trigger uses the die notifier, no kprobe");
	EXPECT_EQ(0, untrigger(m));
	EXPECT_EQ(0, trigger_of(p, TRACEBUF_FDR_TRIG_WARN, 0));
	EXPECT_EQ(0, untrigger(m)) TH_LOG("disarming arms nothing");
	EXPECT_EQ(0, ioctl(m, TRACEBUF_FDR_IOC_STOP) ? errno : 0);
	close(m);
	close(p);
	param_is(_metadata, "N\n");
}

TEST_F(grp, group_kprobes_lets_members_arm_them)
{
	char val[16];
	int m;

	if (!kprobes_built())
		SKIP(return, "the module has no kretprobes");
	snprintf(val, sizeof(val), "%d\n", TRACING_GID);
	ASSERT_EQ(0, tb_write_str(GID_PARAM, val));
	m = fdr_opened_by(BY_MEMBER);
	ASSERT_LE(0, m);
	ASSERT_EQ(0, tb_write_str(KPROBES_PARAM, "Y\n"));
	param_is(_metadata, "Y\n");
	EXPECT_EQ(0, kfuncs_of(m, "vfs_read\nvfs_write\n"));
	ASSERT_EQ(0, start_flight_on(m));
	EXPECT_EQ(0, trigger_of(m, TRACEBUF_FDR_TRIG_WARN, 0));
	EXPECT_EQ(0, untrigger(m));
	EXPECT_EQ(0, ioctl(m, TRACEBUF_FDR_IOC_STOP) ? errno : 0);

	/* Off again: read at each ioctl, so the open file is held back. */
	ASSERT_EQ(0, tb_write_str(KPROBES_PARAM, "N\n"));
	EXPECT_EQ(EPERM, kfuncs_of(m, "vfs_read\n"));
	ASSERT_EQ(0, start_flight_on(m));
	EXPECT_EQ(EPERM, trigger_of(m, TRACEBUF_FDR_TRIG_WARN, 0));
	EXPECT_EQ(0, ioctl(m, TRACEBUF_FDR_IOC_STOP) ? errno : 0);
	EXPECT_EQ(0, kfuncs_of(m, ""));
	close(m);
}

TEST_HARNESS_MAIN
