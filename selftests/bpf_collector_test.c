// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf-bpf in the guest: trace a workload that makes exactly N
 * getppid() calls and find exactly N entries and N exits of syscall 110 (by
 * its dense id from the names file) in the workload's blocks, with nothing lost; check the file's framing; and
 * check the command-line and privilege errors.  With -e sched,syscall,
 * read the switch, wake-up and error typed events with the library's
 * reader around a pinned ping-pong and N failed open() calls
 * (sched_and_errors_exact).  The files are left in
 * /out/bpf for scripts/check/check-bpf-xray.sh, which runs llvm-xray on them on
 * the host.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/fdr_event.h"
#include "format/fdr_marks.h"
#include "format/fdr_reader.h"
#include "tb_harness.h"
#include "tb_selftest.h"
#include "kfunc_nest.h"

#define COLLECTOR	"/usr/bin/tracebuf-bpf"
#define OUTDIR		"/out/bpf"
#define NR_GETPPID	10000
#define FN_SYSCALL(nr)	((1U << 24) | (nr))
#define FN_GETPPID	FN_SYSCALL(SYS_getppid)

/* The workload writes its pid where TB_GETPPID_PIDFILE says, if set. */
static void write_pidfile(void)
{
	const char *pidfile = getenv("TB_GETPPID_PIDFILE");
	FILE *f;

	if (!pidfile)
		return;
	f = fopen(pidfile, "w");
	if (!f)
		_exit(10);
	fprintf(f, "%d\n", getpid());
	if (fclose(f))
		_exit(11);
}

/*
 * The workload: this binary re-executed with TB_GETPPID_LOOP=N, so that
 * the collector can start it itself after attaching.  It writes its pid
 * (the tid of its only thread) where TB_GETPPID_PIDFILE says.
 */
__attribute__((constructor)) static void getppid_workload(void)
{
	const char *n = getenv("TB_GETPPID_LOOP");
	long i, count;

	if (!n)
		return;
	count = atol(n);
	write_pidfile();
	/* The raw syscall: no libc caching can hide a call. */
	for (i = 0; i < count; i++)
		syscall(SYS_getppid);
	_exit(0);
}

/*
 * The kernel function workload (-f): TB_ZERO_READS=1 makes KF_READS
 * 1-byte reads and KF_BIG big ones of /dev/zero, as fdr_kfunc_test's
 * nesting_exact does with the module: each read() calls vfs_read, which
 * calls rw_verify_area and read_zero.
 */
#define KF_READS	400
#define KF_BIG		40

__attribute__((constructor)) static void zero_read_workload(void)
{
	static char buf[4 << 20];
	int i, fd;

	if (!getenv("TB_ZERO_READS"))
		return;
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		_exit(12);
	write_pidfile();
	/* Where the workload's reads begin (struct nest.start_id). */
	syscall(SYS_getppid);
	for (i = 0; i < KF_READS; i++)
		if (read(fd, buf, 1) != 1)
			_exit(13);
	for (i = 0; i < KF_BIG; i++)
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			_exit(14);
	_exit(0);
}

/* Run the collector; its stderr goes to @err (may be NULL). */
static int run(char *const argv[], char *const envp[], char *err, size_t len,
	       int (*drop)(void))
{
	int pfd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 2);
		if (drop && drop())
			_exit(99);
		execve(argv[0], argv, envp);
		_exit(98);
	}
	close(pfd[1]);
	while (err && got < (ssize_t)len - 1 &&
	       (n = read(pfd[0], err + got, len - 1 - got)) > 0)
		got += n;
	if (err)
		err[got] = '\0';
	close(pfd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		close(fd);
		return NULL;
	}
	if (read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		close(fd);
		return NULL;
	}
	buf[st.st_size] = '\0';
	close(fd);
	*len = st.st_size;
	return buf;
}

/* A number from the collector's flat JSON, or -1. */
static long long json_num(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(json, pat);
	return p ? atoll(p + strlen(pat)) : -1;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

struct fdr_count {
	long blocks;
	long enters, exits;	/* of @fn in @tid's blocks */
	long markers;		/* "tracebuf: lost N events" custom events */
	long typed;		/* TypedEventMarkers (their payloads skipped) */
	long long marked;	/* sum of their N */
};

/*
 * Not a reader: only what this test needs to count, checking the framing
 * the collector promises (header, BufferExtents covering each block,
 * NewBuffer first).  Returns 0 or the offset of the first bad byte.
 */
static long fdr_walk(const unsigned char *b, size_t len, uint32_t tid,
		     uint32_t fn, struct fdr_count *cnt)
{
	size_t off = 32, end;
	uint32_t cur;

	if (len < 32 || b[0] != 5 || b[1] || b[2] != 1 || b[3] ||
	    le64(b + 8) != 1000000000ULL)
		return 1;
	while (off < len) {
		/* A block: BufferExtents, then NewBuffer. */
		if (len - off < 32 || b[off] != ((7 << 1) | 1))
			return off;
		end = off + 16 + le64(b + off + 1);
		off += 16;
		if (end > len || b[off] != ((0 << 1) | 1))
			return off;
		cur = le32(b + off + 1);
		cnt->blocks++;
		while (off < end) {
			if (b[off] == ((TRACEBUF_FDR_TYPED << 1) | 1)) {
				/* TypedEventMarker: size, delta, type, payload */
				uint32_t size = le32(b + off + 1);

				if (off + 16 + size > end)
					return off;
				cnt->typed++;
				off += 16 + size;
				continue;
			}
			if (b[off] == ((5 << 1) | 1)) {
				/* v5 CustomEventMarker: size, delta, payload */
				uint32_t size = le32(b + off + 1);
				char text[64] = "";

				if (off + 16 + size > end)
					return off;
				if (size < sizeof(text))
					memcpy(text, b + off + 16, size);
				if (!strncmp(text, "tracebuf: lost ", 15)) {
					cnt->markers++;
					cnt->marked += atoll(text + 15);
				}
				off += 16 + size;
				continue;
			}
			if (b[off] & 1) {
				off += 16;
				continue;
			}
			if (off + 8 > end)
				return off;
			if (cur == tid && le32(b + off) >> 4 == fn) {
				int type = (le32(b + off) >> 1) & 7;

				if (type == 0 || type == 3)
					cnt->enters++;
				else if (type == 1)
					cnt->exits++;
			}
			off += 8;
		}
		if (off != end)
			return off;
	}
	return 0;
}

/*
 * The id the trace uses for kernel id @kid, from a names file ("ID NAME"
 * lines, each followed by "# kernel id 0x..."), or 0.
 */
static uint32_t names_id(const char *names, uint32_t kid)
{
	char key[40];
	const char *at, *line;

	snprintf(key, sizeof(key), "\n# kernel id %#x\n", kid);
	at = strstr(names, key);
	if (!at)
		return 0;
	for (line = at; line > names && line[-1] != '\n'; line--)
		;
	return strtoul(line, NULL, 10);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

FIXTURE(bpf)
{
	char self[PATH_MAX];
	char err[4096];
};

FIXTURE_SETUP(bpf)
{
	ssize_t n = readlink("/proc/self/exe", self->self, sizeof(self->self) - 1);

	ASSERT_LT(0, n);
	self->self[n] = '\0';
	mkdir("/out", 0755);
	mkdir(OUTDIR, 0755);
	if (access(COLLECTOR, X_OK))
		SKIP(return, COLLECTOR " not installed");
}

FIXTURE_TEARDOWN(bpf)
{
}

/* Exactly N getppid() entries and exits in the workload's blocks. */
TEST_F_TIMEOUT(bpf, getppid_exact, 300)
{
	char loop[32], nbuf[32];
	char *envp[] = { loop, "TB_GETPPID_PIDFILE=" OUTDIR "/getppid.pid", NULL };
	char *argv[] = { COLLECTOR, "-e", "syscall", "-o", OUTDIR "/getppid.fdr",
			 "-j", OUTDIR "/getppid.json", "--", self->self, NULL };
	struct fdr_count cnt = { 0 };
	char *json, *fdr, *pidtxt, *names;
	size_t len, fdr_len;
	uint32_t fn;
	long bad;
	int rc;

	snprintf(loop, sizeof(loop), "TB_GETPPID_LOOP=%d", NR_GETPPID);
	snprintf(nbuf, sizeof(nbuf), "%d\n", NR_GETPPID);
	write_file(OUTDIR "/getppid.n", nbuf);
	rc = run(argv, envp, self->err, sizeof(self->err), NULL);
	TH_LOG("%s", self->err);
	ASSERT_EQ(0, rc);

	json = slurp(OUTDIR "/getppid.json", &len);
	ASSERT_NE(NULL, json);
	/* One line: benchmark scripts append it to a JSON Lines file. */
	ASSERT_LT(0, len);
	EXPECT_EQ('\n', json[len - 1]);
	EXPECT_EQ(NULL, memchr(json, '\n', len - 1));
	EXPECT_EQ(0, json_num(json, "lost"));
	EXPECT_EQ(0, json_num(json, "malformed"));
	EXPECT_EQ(0, json_num(json, "command_status"));
	/* Two events per call; the class counts each call once. */
	EXPECT_LE(2 * NR_GETPPID, json_num(json, "events"));
	EXPECT_LE(NR_GETPPID, json_num(json, "syscall"));
	EXPECT_GT(2 * NR_GETPPID, json_num(json, "syscall"));

	pidtxt = slurp(OUTDIR "/getppid.pid", &len);
	ASSERT_NE(NULL, pidtxt);
	fdr = slurp(OUTDIR "/getppid.fdr", &fdr_len);
	ASSERT_NE(NULL, fdr);
	EXPECT_EQ(json_num(json, "bytes"), (long long)fdr_len);
	/* Ids are dense: the names file says which is getppid. */
	names = slurp(OUTDIR "/getppid.fdr.names", &len);
	ASSERT_NE(NULL, names);
	fn = names_id(names, FN_GETPPID);
	EXPECT_NE(0, fn);
	EXPECT_LT(fn, FN_GETPPID);
	free(names);
	bad = fdr_walk((unsigned char *)fdr, fdr_len, atoi(pidtxt), fn, &cnt);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(json_num(json, "blocks"), cnt.blocks);
	EXPECT_EQ(NR_GETPPID, cnt.enters);
	EXPECT_EQ(NR_GETPPID, cnt.exits);
	free(fdr);
	free(pidtxt);
	free(json);
}

/*
 * Drops are counted exactly: with a 4 KiB ring buffer that wakes the
 * reader only when full, most events are lost, and recorded + lost equals
 * what a lossless run of the same workload records.  Nothing else in the
 * guest makes syscalls meanwhile.
 */
TEST_F_TIMEOUT(bpf, drops_exact, 300)
{
	/* Long enough for several 100 ms reader polls: gaps inside the run. */
	char *envp[] = { "TB_GETPPID_LOOP=200000", NULL };
	char *big[] = { COLLECTOR, "-q", "-e", "syscall", "-o", "/tmp/big.fdr",
			"-j", "/tmp/big.json", "--", self->self, NULL };
	char *small[] = { COLLECTOR, "-q", "-e", "syscall", "-b", "4K",
			  "-w", "4K", "-o", OUTDIR "/lossy.fdr",
			  "-j", "/tmp/small.json", "--", self->self, NULL };
	struct fdr_count cnt = { 0 };
	long long all, got, lost;
	char *json, *fdr;
	size_t len;

	ASSERT_EQ(0, run(big, envp, self->err, sizeof(self->err), NULL));
	json = slurp("/tmp/big.json", &len);
	ASSERT_NE(NULL, json);
	ASSERT_EQ(0, json_num(json, "lost"));
	all = json_num(json, "events");
	free(json);

	ASSERT_EQ(0, run(small, envp, self->err, sizeof(self->err), NULL));
	json = slurp("/tmp/small.json", &len);
	ASSERT_NE(NULL, json);
	got = json_num(json, "events");
	lost = json_num(json, "lost");
	TH_LOG("lossless %lld, small buffer %lld recorded + %lld lost",
	       all, got, lost);
	EXPECT_LT(0, lost);
	EXPECT_EQ(0, json_num(json, "lost_recursion"));
	EXPECT_EQ(all, got + lost);

	/*
	 * The gaps are marked in the stream; losses after the last event
	 * of a CPU have no later record to carry them.
	 */
	fdr = slurp(OUTDIR "/lossy.fdr", &len);
	ASSERT_NE(NULL, fdr);
	EXPECT_EQ(0, fdr_walk((unsigned char *)fdr, len, 0, 0, &cnt));
	EXPECT_LT(0, cnt.markers);
	EXPECT_EQ(json_num(json, "loss_markers"), cnt.markers);
	EXPECT_EQ(json_num(json, "loss_marked"), cnt.marked);
	EXPECT_GE(lost, cnt.marked);
	free(fdr);
	free(json);
}

/* Every class with arguments, around a small workload: a valid file. */
/*
 * Every class the kernel has: 6.1's page-fault tracepoints are x86's, and
 * elsewhere tracebuf bpf refuses 'fault' (and so 'all': no_fault_class).
 */
#if defined(__x86_64__) || defined(__i386__)
#define ALL_CLASSES	"all"
#define HAS_FAULTS	1
#else
#define ALL_CLASSES	"syscall,irq,softirq,workqueue,sched"
#define HAS_FAULTS	0
#endif

TEST_F_TIMEOUT(bpf, all_classes, 300)
{
	char *envp[] = { "TB_GETPPID_LOOP=100", NULL };
	char *argv[] = { COLLECTOR, "-e", ALL_CLASSES, "-a", "6", "-o", OUTDIR "/all.fdr",
			 "-j", OUTDIR "/all.json", "--", self->self, NULL };
	struct fdr_count cnt = { 0 };
	size_t len, fdr_len;
	char *json, *fdr, *names, want[64];
	int rc;

	rc = run(argv, envp, self->err, sizeof(self->err), NULL);
	TH_LOG("%s", self->err);
	ASSERT_EQ(0, rc);
	json = slurp(OUTDIR "/all.json", &len);
	ASSERT_NE(NULL, json);
	EXPECT_EQ(0, json_num(json, "lost"));
	EXPECT_LT(0, json_num(json, "sched"));	/* at least fork and exit */
	if (HAS_FAULTS)
		EXPECT_LT(0, json_num(json, "fault"));	/* exec faults pages in */
	fdr = slurp(OUTDIR "/all.fdr", &fdr_len);
	ASSERT_NE(NULL, fdr);
	EXPECT_EQ(0, fdr_walk((unsigned char *)fdr, fdr_len, 0, 0, &cnt));
	EXPECT_LT(0, cnt.blocks);
	/*
	 * The workload's exit names it, as the module's traces do: its
	 * command name is this program's, cut to the kernel's 15 bytes.
	 */
	snprintf(want, sizeof(want), "%s%.15s", TRACEBUF_FDR_COMM_PREFIX,
		 strrchr(self->self, '/') ? strrchr(self->self, '/') + 1 : self->self);
	EXPECT_NE(NULL, memmem(fdr, fdr_len, want, strlen(want)))
		TH_LOG("no '%s' custom event in the trace", want);
	free(fdr);
	free(json);

	/*
	 * The names file names every id of the trace (getppid, the
	 * workload's exit), every work function symbolized;
	 * the ELF map is next to it.
	 */
	names = slurp(OUTDIR "/all.fdr.names", &len);
	ASSERT_NE(NULL, names);
	snprintf(want, sizeof(want), " sys_getppid\n# kernel id %#x\n", FN_GETPPID);
	EXPECT_NE(NULL, strstr(names, want));
	EXPECT_NE(NULL, strstr(names, " task_exit\n# kernel id 0x6000001\n"));
	/* Softirqs, faults and tasks have fixed names. */
	EXPECT_EQ(NULL, strstr(names, " fdr_0x3"));
	EXPECT_EQ(NULL, strstr(names, " fdr_0x5"));
	EXPECT_EQ(NULL, strstr(names, " fdr_0x6"));
	EXPECT_EQ(NULL, strstr(names, " work_0x"));
	EXPECT_EQ(0, access(OUTDIR "/all.fdr.map", R_OK));
	TH_LOG("names:\n%s", names);
	free(names);
}

/* Where the kernel has no page-fault tracepoints, -e fault says so. */
TEST_F_TIMEOUT(bpf, no_fault_class, 120)
{
	char *envp[] = { NULL };
	char *argv[] = { COLLECTOR, "-e", "all", "-o", OUTDIR "/nofault.fdr",
			 "--", "true", NULL };

	if (HAS_FAULTS)
		SKIP(return, "this kernel has the page-fault tracepoints");
	EXPECT_EQ(1, run(argv, envp, self->err, sizeof(self->err), NULL));
	EXPECT_NE(NULL, strstr(self->err, "this kernel has no page-fault tracepoints"))
		TH_LOG("%s", self->err);
}

/*
 * A duration run with no command stops by itself.  The guest's kworkers
 * run a few work items per second: their functions must be named from
 * /proc/kallsyms in the names file.
 */
TEST_F_TIMEOUT(bpf, duration, 120)
{
	char *envp[] = { NULL };
	char *argv[] = { COLLECTOR, "-q", "-e", "irq,softirq,workqueue,sched",
			 "-d", "2", "-o", OUTDIR "/duration.fdr",
			 "-j", "/tmp/duration.json", NULL };
	struct fdr_count cnt = { 0 };
	size_t fdr_len, len;
	char *fdr, *json, *names;

	ASSERT_EQ(0, run(argv, envp, self->err, sizeof(self->err), NULL));
	EXPECT_STREQ("", self->err);
	fdr = slurp(OUTDIR "/duration.fdr", &fdr_len);
	ASSERT_NE(NULL, fdr);
	EXPECT_EQ(0, fdr_walk((unsigned char *)fdr, fdr_len, 0, 0, &cnt));
	free(fdr);
	json = slurp("/tmp/duration.json", &len);
	ASSERT_NE(NULL, json);
	names = slurp(OUTDIR "/duration.fdr.names", &len);
	ASSERT_NE(NULL, names);
	TH_LOG("%lld work items; names:\n%s", json_num(json, "workqueue"),
	       names);
	if (json_num(json, "workqueue") > 0)
		EXPECT_NE(NULL, strstr(names, "\n# kernel id 0x4000000\n"));
	EXPECT_EQ(NULL, strstr(names, " work_0x"));
	EXPECT_EQ(NULL, strstr(names, " fdr_0x3"));
	free(names);
	free(json);
}

/* Whether directory @dir holds a file whose name starts with @prefix. */
static bool has_temp_output(const char *dir, const char *prefix)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	bool found = false;

	while (d && !found && (e = readdir(d)))
		found = !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return found;
}

/*
 * SIGTERM (how scripts stop it) ends the trace cleanly, and so does
 * SIGHUP (its terminal closed).
 */
TEST_F_TIMEOUT(bpf, sigterm, 120)
{
	static const int sigs[] = { SIGTERM, SIGHUP };

	for (unsigned int i = 0; i < 2; i++) {
		struct fdr_count cnt = { 0 };
		size_t fdr_len;
		int status;
		char *fdr;
		pid_t pid;

		unlink("/tmp/sigterm.fdr");
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			execl(COLLECTOR, COLLECTOR, "-q", "-e", "syscall,sched",
			      "-o", "/tmp/sigterm.fdr", (char *)NULL);
			_exit(98);
		}
		/*
		 * Its handlers are set before it creates its output (as
		 * .sigterm.fdr.XXXXXX, renamed at the end): until then the
		 * signal would kill it, however long a slow machine takes
		 * to get there.  Then the 3 s in which it loads, attaches
		 * and records, as before; a signal at any point after the
		 * handlers must give a valid file.
		 */
		ASSERT_TRUE(TB_WAIT_FOR(has_temp_output("/tmp", ".sigterm.fdr."), 30))
			TH_LOG("signal %d: the collector made no output file", sigs[i]);
		sleep(3);
		ASSERT_EQ(0, kill(pid, sigs[i]));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status)) TH_LOG("signal %d: status %#x",
						      sigs[i], status);
		EXPECT_EQ(0, WEXITSTATUS(status));
		fdr = slurp("/tmp/sigterm.fdr", &fdr_len);
		ASSERT_NE(NULL, fdr);
		EXPECT_EQ(0, fdr_walk((unsigned char *)fdr, fdr_len, 0, 0, &cnt));
		free(fdr);
	}
}

/* -o - puts the trace on stdout and the command's output on stderr. */
TEST_F_TIMEOUT(bpf, stdout_trace, 120)
{
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	char *argv[] = { "/bin/sh", "-c",
			 COLLECTOR " -q -e syscall -o - -- echo tb-hello"
			 " >/tmp/stdout.fdr 2>/tmp/stderr.txt", NULL };
	struct fdr_count cnt = { 0 };
	char *fdr, *err;
	size_t len, err_len;

	ASSERT_EQ(0, run(argv, envp, self->err, sizeof(self->err), NULL));
	fdr = slurp("/tmp/stdout.fdr", &len);
	ASSERT_NE(NULL, fdr);
	EXPECT_EQ(0, fdr_walk((unsigned char *)fdr, len, 0, 0, &cnt));
	EXPECT_LT(0, cnt.blocks);
	err = slurp("/tmp/stderr.txt", &err_len);
	ASSERT_NE(NULL, err);
	EXPECT_STREQ("tb-hello\n", err);
	free(err);
	free(fdr);
}

TEST_F(bpf, bad_command_line)
{
	char *envp[] = { NULL };
	char *bad_class[] = { COLLECTOR, "-e", "syscall,nope", NULL };
	char *bad_args[] = { COLLECTOR, "-a", "7", NULL };
	char *bad_size[] = { COLLECTOR, "-b", "12345", NULL };
	char *marker[] = { COLLECTOR, "-e", "marker", NULL };

	EXPECT_EQ(2, run(bad_class, envp, self->err, sizeof(self->err), NULL));
	EXPECT_NE(NULL, strstr(self->err, "unknown event class 'nope'"));
	EXPECT_EQ(2, run(bad_args, envp, self->err, sizeof(self->err), NULL));
	EXPECT_EQ(2, run(bad_size, envp, self->err, sizeof(self->err), NULL));
	EXPECT_EQ(2, run(marker, envp, self->err, sizeof(self->err), NULL));
}

TEST_F(bpf, missing_command)
{
	char *envp[] = { NULL };
	char *argv[] = { COLLECTOR, "-q", "-o", "/tmp/missing.fdr", "--",
			 "/nonexistent/cmd", NULL };

	EXPECT_EQ(1, run(argv, envp, self->err, sizeof(self->err), NULL));
	EXPECT_NE(NULL, strstr(self->err,
			       "cannot run '/nonexistent/cmd': No such file or directory"));
}

/* Without privileges: a clear message, not a libbpf dump. */
TEST_F(bpf, unprivileged)
{
	char *envp[] = { NULL };
	char *argv[] = { COLLECTOR, "-o", "/tmp/unpriv.fdr", "-d", "1", NULL };

	chmod("/tmp", 01777);
	EXPECT_EQ(1, run(argv, envp, self->err, sizeof(self->err),
			 tb_drop_privileges));
	EXPECT_NE(NULL, strstr(self->err,
			       "cannot load BPF programs: Operation not permitted (need CAP_BPF+CAP_PERFMON or root)"));
}

/* The selection reads tracefs and the kprobe blacklist (debugfs). */
/*
 * 6.1 on arm64 cannot attach a BPF trampoline to a kernel function (no
 * ftrace direct calls before 6.4): tracebuf bpf -f says so and stops.
 */
#define SKIP_WITHOUT_TRAMPOLINES(err)						\
	do {									\
		if (strstr(err, "cannot attach BPF trampolines to kernel functions")) \
			SKIP(return, "this kernel cannot attach BPF trampolines to kernel functions"); \
	} while (0)

static void kfunc_mounts(void)
{
	if (access("/sys/kernel/tracing/available_filter_functions", R_OK))
		system("mount -t tracefs none /sys/kernel/tracing 2>/dev/null");
	if (access("/sys/kernel/debug/kprobes", R_OK))
		system("mount -t debugfs none /sys/kernel/debug 2>/dev/null");
}

/* A file of unknown size (tracefs, debugfs) as a string, "\n" first. */
static char *read_text(const char *path)
{
	size_t len = 1, cap = 1 << 20, n;
	char *buf = malloc(cap), *nb;
	FILE *f = fopen(path, "r");

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	buf[0] = '\n';
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/*
 * What a -f run leaves beside BASE.fdr: its function list holding @names,
 * and BASE.json with nothing lost and at least @calls calls traced.
 */
static void kfunc_expect_files(struct __test_metadata *_metadata,
			       const char *base, const char *names,
			       long long calls)
{
	char path[PATH_MAX];
	char *list, *json;
	size_t len;

	snprintf(path, sizeof(path), "%s.fdr.kfuncs", base);
	list = slurp(path, &len);
	ASSERT_NE(NULL, list) TH_LOG("%s", path);
	EXPECT_NE(NULL, strstr(list, names)) TH_LOG("%s: %s", path, list);
	free(list);
	snprintf(path, sizeof(path), "%s.json", base);
	json = slurp(path, &len);
	ASSERT_NE(NULL, json) TH_LOG("%s", path);
	EXPECT_EQ(0, json_num(json, "lost"));
	EXPECT_EQ(0, json_num(json, "kfunc_missed"));
	EXPECT_LE(calls, json_num(json, "kfunc_calls"));
	free(json);
}

/*
 * -f: the same exactness as the module's (fdr_kfunc_test.nesting_exact),
 * checked by the same nesting checker over the file tracebuf bpf wrote
 * with kernel ids (-r): exactly one entry and one exit per call of the
 * workload's thread, vfs_read inside its read syscall, rw_verify_area
 * and read_zero inside vfs_read, every exit closing the innermost call.
 * The chosen functions are in the kernel's list order: read_zero,
 * rw_verify_area, vfs_read.  Counted from the workload's getppid(): the
 * dynamic loader's read() and pread64() calls come before.
 */
TEST_F_TIMEOUT(bpf, kfunc_nesting_exact, 300)
{
	char *envp[] = { "TB_ZERO_READS=1",
			 "TB_GETPPID_PIDFILE=" OUTDIR "/kfunc.pid", NULL };
	char *argv[] = { COLLECTOR, "-r", "-e", "syscall,irq,softirq,sched",
			 "-f", "vfs_read,rw_verify_area,read_zero",
			 "-o", OUTDIR "/kfunc.fdr", "-j", OUTDIR "/kfunc.json",
			 "--", self->self, NULL };
	const unsigned int calls = KF_READS + KF_BIG;
	struct nest n = { .outer = KF(2), .start_id = FN_GETPPID };
	char err[256] = "", *fdr, *pidtxt;
	size_t len, fdr_len;
	int rc;

	kfunc_mounts();
	rc = run(argv, envp, self->err, sizeof(self->err), NULL);
	TH_LOG("%s", self->err);
	SKIP_WITHOUT_TRAMPOLINES(self->err);
	ASSERT_EQ(0, rc);
	kfunc_expect_files(_metadata, OUTDIR "/kfunc",
			   "\n7000000 read_zero\n7000001 rw_verify_area\n7000002 vfs_read\n",
			   2 * calls);
	pidtxt = slurp(OUTDIR "/kfunc.pid", &len);
	ASSERT_NE(NULL, pidtxt);
	fdr = slurp(OUTDIR "/kfunc.fdr", &fdr_len);
	ASSERT_NE(NULL, fdr);
	n.tid = atoi(pidtxt);
	fdr_check_by_task = 1;
	ASSERT_LT(0, fdr_check((uint8_t *)fdr, fdr_len, nest_cb, &n, err,
			       sizeof(err))) TH_LOG("%s", err);
	free(fdr);
	free(pidtxt);
	EXPECT_EQ(0, n.errors);
	EXPECT_EQ(calls, n.enter[2]);
	EXPECT_EQ(calls, n.exit[2]);
	/* rw_verify_area may be inlined into vfs_read (fdr_kfunc_test). */
	if (n.enter[1] || n.exit[1]) {
		EXPECT_EQ(calls, n.enter[1]);
		EXPECT_EQ(calls, n.exit[1]);
		EXPECT_EQ(calls, n.in_outer[1]);
	}
	EXPECT_EQ(calls, n.enter[0]);
	EXPECT_EQ(calls, n.exit[0]);
	EXPECT_EQ(calls, n.in_outer[0]);
	EXPECT_EQ(0U, n.sys_outside);
	EXPECT_EQ(0U, n.lost_reports);
	TH_LOG("%u interrupts inside vfs_read", n.irq_inside);
}

/*
 * -f on a function of a loaded module: its BTF is the module's
 * (/sys/kernel/btf/MODULE), not vmlinux's, and fentry attaches there.
 * ext4 is a module in Debian's kernel and the check VM mounts an ext4
 * disk; reading a file on it goes through ext4_file_read_iter.
 */
static int ext4_mount(char *dir, size_t len)
{
	char dev[256], mnt[256], type[64];
	int found = 0;
	FILE *f = fopen("/proc/mounts", "r");

	if (!f)
		return 0;
	while (!found && fscanf(f, "%255s %255s %63s %*[^\n]", dev, mnt, type) == 3)
		if (!strcmp(type, "ext4")) {
			snprintf(dir, len, "%s", mnt);
			found = 1;
		}
	fclose(f);
	return found;
}

TEST_F_TIMEOUT(bpf, kfunc_module_function, 120)
{
	char file[PATH_MAX], cmd[PATH_MAX + 32], mnt[256];
	char *envp[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL };
	char *argv[] = { COLLECTOR, "-e", "syscall",
			 "-f", "ext4_file_read_iter",
			 "-o", OUTDIR "/kmod.fdr", "-j", OUTDIR "/kmod.json",
			 "--", "/bin/sh", "-c", cmd, NULL };
	FILE *f;
	int rc;

	kfunc_mounts();
	if (access("/sys/kernel/btf/ext4", R_OK) || !ext4_mount(mnt, sizeof(mnt)))
		SKIP(return, "no ext4 module with BTF and an ext4 mount");
	snprintf(file, sizeof(file), "%s/bpf-kmod.txt", mnt);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	fputs("read through ext4_file_read_iter\n", f);
	ASSERT_EQ(0, fclose(f));
	snprintf(cmd, sizeof(cmd), "cat %s >/dev/null", file);
	rc = run(argv, envp, self->err, sizeof(self->err), NULL);
	TH_LOG("%s", self->err);
	SKIP_WITHOUT_TRAMPOLINES(self->err);
	unlink(file);
	ASSERT_EQ(0, rc);
	/* cat's reads of the file: the one with data and EOF's */
	kfunc_expect_files(_metadata, OUTDIR "/kmod", " ext4_file_read_iter\n", 2);
}

/*
 * A glob that takes in a compiler clone (vfs_kern_mount.part.0 on
 * Debian's kernel), which has no BTF type for fentry: skipped with a line
 * that names it and the count, and the run traces the rest.
 */
TEST_F_TIMEOUT(bpf, kfunc_glob_skips_clones, 300)
{
	char *envp[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL };
	char *argv[] = { COLLECTOR, "-e", "syscall", "-f", "vfs_*",
			 "-o", OUTDIR "/clone.fdr", "-j", OUTDIR "/clone.json",
			 "--", "/bin/true", NULL };
	char clone[160], want[200], *avail, *at, *list;
	size_t len;
	int rc;

	kfunc_mounts();
	avail = read_text("/sys/kernel/tracing/available_filter_functions");
	ASSERT_NE(NULL, avail);
	clone[0] = '\0';
	for (at = strstr(avail, "\nvfs_"); at; at = strstr(at + 1, "\nvfs_"))
		if (sscanf(at + 1, "%159[A-Za-z0-9_.]", clone) == 1 &&
		    strchr(clone, '.') && at[1 + strlen(clone)] == '\n')
			break;
	free(avail);
	if (!at)
		SKIP(return, "no clone of a vfs_ function in this kernel");
	rc = run(argv, envp, self->err, sizeof(self->err), NULL);
	TH_LOG("%s", self->err);
	SKIP_WITHOUT_TRAMPOLINES(self->err);
	ASSERT_EQ(0, rc);
	snprintf(want, sizeof(want), "kernel function '%s' skipped: no BTF type",
		 clone);
	EXPECT_NE(NULL, strstr(self->err, want));
	EXPECT_NE(NULL, strstr(self->err, "kernel functions skipped; tracing"));
	list = slurp(OUTDIR "/clone.fdr.kfuncs", &len);
	ASSERT_NE(NULL, list);
	snprintf(want, sizeof(want), " %s\n", clone);
	EXPECT_EQ(NULL, strstr(list, want)) TH_LOG("%s listed", clone);
	EXPECT_NE(NULL, strstr(list, " vfs_read\n"));
	free(list);
}

/* -f's refusals: each a usage error that says why, nothing traced. */
TEST_F(bpf, kfunc_bad_selections)
{
	static const struct {
		const char *pats, *msg;
	} bad[] = {
		{ "no_such_function_xyzzy", "not a function the kernel can trace" },
		{ "vfs_read,", "empty function pattern" },
		{ "vfs read", "bad character ' '" },
		{ "xyzzy_*", "matches no traceable kernel function" },
		{ "*", "at most 512 can be traced" },
		/* our own recording path: the ring buffer's lock */
		{ "_raw_spin_lock_irqsave", "tracebuf bpf's own recording path" },
		{ "bpf_ringbuf_reserve", "tracebuf bpf's own recording path" },
	};
	char *envp[] = { NULL };
	char *argv[] = { COLLECTOR, "-q", "-f", NULL, "-o", "/tmp/bad.fdr",
			 "-d", "1", NULL };
	char line[256], name[160], *avail;
	unsigned long a, b;
	unsigned int i;
	FILE *f;

	kfunc_mounts();
	avail = read_text("/sys/kernel/tracing/available_filter_functions");
	ASSERT_NE(NULL, avail);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *msg = bad[i].msg;
		char key[200];

		/*
		 * A function of the recording path that this kernel builds
		 * notrace (arm64's _raw_spin_lock_irqsave) is refused as
		 * untraceable before anything else.
		 */
		snprintf(key, sizeof(key), "\n%s\n", bad[i].pats);
		if (strstr(msg, "own recording path") && !strstr(avail, key))
			msg = "not a function the kernel can trace";
		argv[3] = (char *)bad[i].pats;
		EXPECT_EQ(2, run(argv, envp, self->err, sizeof(self->err), NULL))
			TH_LOG("%s", bad[i].pats);
		EXPECT_NE(NULL, strstr(self->err, msg))
			TH_LOG("%s: %s", bad[i].pats, self->err);
	}
	/*
	 * A function of the kprobe blacklist that ftrace could trace: refused
	 * by name, as record -f refuses it.
	 */
	f = fopen("/sys/kernel/debug/kprobes/blacklist", "r");
	if (!f)
		SKIP(return, "no /sys/kernel/debug/kprobes/blacklist");
	name[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char key[200];

		if (sscanf(line, "0x%lx-0x%lx %127[A-Za-z0-9_.]", &a, &b, name) != 3 ||
		    strchr(line, '['))
			continue;
		snprintf(key, sizeof(key), "\n%s\n", name);
		if (strstr(avail, key))
			break;
		name[0] = '\0';
	}
	fclose(f);
	free(avail);
	if (!name[0])
		SKIP(return, "no blacklisted function is in available_filter_functions");
	argv[3] = name;
	EXPECT_EQ(2, run(argv, envp, self->err, sizeof(self->err), NULL));
	EXPECT_NE(NULL, strstr(self->err, "kprobe blacklist")) TH_LOG("%s: %s", name, self->err);
}

/* ------------------------------------------------------------ typed events */

/*
 * The scheduler and error facts, read with the library's FDR reader and
 * typed event decoder (lib/format/fdr_reader.c, fdr_event.c, compiled
 * into this test): a pipe ping-pong of PP_TRIPS round trips between two
 * tasks pinned to CPU 0 (tracebuf workload -C 0 pingpong), then this
 * binary opening a missing file NR_ENOENT times between two getppid()
 * marks.  The collector runs on the last CPU, away from the ping-pong.
 */
#define PP_TRIPS	1000
#define NR_ENOENT	100
#define PP_COMM		"tracebuf"	/* tracebuf workload's command name */
#define MISSING		"/tb-no-such-file"
#define MAX_TASKS	4096

__attribute__((constructor)) static void enoent_workload(void)
{
	const char *n = getenv("TB_ENOENT_LOOP");
	long i, count;

	if (!n)
		return;
	count = atol(n);
	write_pidfile();
	syscall(SYS_getppid);		/* the loop's start */
	for (i = 0; i < count; i++)
		if (open(MISSING, O_RDONLY) >= 0 || errno != ENOENT)
			_exit(15);
	syscall(SYS_getppid);		/* its end */
	_exit(0);
}

struct sched_facts {
	/* what to look for */
	int32_t enoent_tid;
	uint32_t getppid_id, openat_id, open_id;	/* as the file has them */
	bool raw;
	/* the ping-pong's tasks, from their exits' command names */
	int32_t pp[2];
	int nr_pp;
	/* per block */
	int32_t tid;
	bool fresh;		/* nothing but the frame yet */
	uint32_t last_id;
	int last_type;		/* of the function record just before, or -1 */
	/*
	 * getppid() exits of the error workload's tid seen, and the counts
	 * between the last two (the shell it was exec'd from may call
	 * getppid() too, before the loop's first mark).
	 */
	int marks;
	long cur_open, cur_rets;
	/* counts */
	long switches, switch_not_first, switch_wrong_tid, malformed;
	long rets, rets_in_loop, rets_bad_place, rets_bad_id;
	long open_exits_in_loop;
	struct { int32_t prev, next; uint8_t state; } *sw;
	size_t nr_sw, max_sw;
	struct { int32_t waker, woken; } *wk;
	size_t nr_wk, max_wk;
	char err[256];
};

static bool open_id(const struct sched_facts *f, uint32_t id)
{
	return id && (id == f->openat_id || id == f->open_id);
}

static int sched_visit(void *ctx, const struct tb_fdr_record *r)
{
	struct sched_facts *f = ctx;
	struct tb_fdr_event ev;
	size_t plen = strlen(TRACEBUF_FDR_COMM_PREFIX);

	switch (r->kind) {
	case TB_FDR_NEW_BUFFER:
		f->fresh = true;
		f->last_type = -1;
		return 0;
	case TB_FDR_BUFFER_EXTENTS:
	case TB_FDR_WALLCLOCK:
	case TB_FDR_PID:
	case TB_FDR_NEW_CPU:
	case TB_FDR_TSC_WRAP:
		return 0;
	case TB_FDR_FUNCTION:
		f->fresh = false;
		f->last_id = r->func_id;
		f->last_type = r->func_type;
		if (r->tid == f->enoent_tid && r->func_type == TB_FDR_EXIT) {
			if (r->func_id == f->getppid_id) {
				f->marks++;
				f->open_exits_in_loop = f->cur_open;
				f->rets_in_loop = f->cur_rets;
				f->cur_open = f->cur_rets = 0;
			} else if (open_id(f, r->func_id)) {
				f->cur_open++;
			}
		}
		return 0;
	case TB_FDR_CUSTOM:
		/* The post-processing's "capture start" is frame too. */
		if (r->size == strlen(TB_FDR_MARKS_START) &&
		    !memcmp(r->data, TB_FDR_MARKS_START, r->size))
			return 0;
		if (r->size == (int32_t)(plen + strlen(PP_COMM)) &&
		    !memcmp(r->data, TRACEBUF_FDR_COMM_PREFIX, plen) &&
		    !memcmp(r->data + plen, PP_COMM, strlen(PP_COMM)) &&
		    f->nr_pp < 2 && (!f->nr_pp || f->pp[0] != r->tid))
			f->pp[f->nr_pp++] = r->tid;
		break;
	case TB_FDR_TYPED:
		if (tb_fdr_event_malformed(r))
			f->malformed++;
		switch (tb_fdr_event_decode(r, &ev)) {
		case TB_FDR_EV_SWITCH:
			f->switches++;
			if (!f->fresh)
				f->switch_not_first++;
			if (ev.sw.next_tid != r->tid)
				f->switch_wrong_tid++;
			if (f->nr_sw == f->max_sw) {
				f->max_sw = f->max_sw ? 2 * f->max_sw : 4096;
				f->sw = realloc(f->sw, f->max_sw * sizeof(*f->sw));
				if (!f->sw)
					return -1;
			}
			f->sw[f->nr_sw].prev = ev.sw.prev_tid;
			f->sw[f->nr_sw].next = ev.sw.next_tid;
			f->sw[f->nr_sw++].state = ev.sw.prev_state;
			break;
		case TB_FDR_EV_WAKEUP:
			if (f->nr_wk == f->max_wk) {
				f->max_wk = f->max_wk ? 2 * f->max_wk : 4096;
				f->wk = realloc(f->wk, f->max_wk * sizeof(*f->wk));
				if (!f->wk)
					return -1;
			}
			f->wk[f->nr_wk].waker = r->tid;
			f->wk[f->nr_wk++].woken = ev.wakeup.tid;
			break;
		case TB_FDR_EV_RET:
			f->rets++;
			/* Right after an exit, repeating its id (raw: always). */
			if (f->last_type != TB_FDR_EXIT)
				f->rets_bad_place++;
			else if (ev.ret.func_id != f->last_id)
				f->rets_bad_id++;
			if (r->tid == f->enoent_tid &&
			    f->last_type == TB_FDR_EXIT &&
			    open_id(f, f->last_id) && ev.ret.value == -ENOENT)
				f->cur_rets++;
			break;
		default:
			break;
		}
		break;
	}
	f->fresh = false;
	f->last_type = -1;
	return 0;
}

/* Pin the collector (and so the shell) away from the ping-pong's CPU 0. */
static int pin_last_cpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (n < 2)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(n - 1, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Record the two workloads with -e sched,syscall (@raw: -r, the kernel's
 * ids, blocks as cut) into OUTDIR/@name.fdr and read it into @f.
 */
static int sched_record(struct __test_metadata *_metadata, const char *self,
			char *err, size_t errlen, const char *name, bool raw,
			struct sched_facts *f)
{
	char out[PATH_MAX], cmd[PATH_MAX * 2], names[PATH_MAX + 8], loop[64];
	char *envp[] = { "PATH=/usr/bin:/bin", loop,
			 "TB_GETPPID_PIDFILE=" OUTDIR "/enoent.pid", NULL };
	char *argv[] = { COLLECTOR, "-q", "-e", "sched,syscall", "-o", out,
			 raw ? "-r" : "-q", "--", "/bin/sh", "-c", cmd, NULL };
	struct tb_fdr_stats st;
	struct tb_error e;
	char *pid, *text;
	size_t len;
	FILE *in;
	int rc;

	snprintf(loop, sizeof(loop), "TB_ENOENT_LOOP=%d", NR_ENOENT);
	snprintf(out, sizeof(out), OUTDIR "/%s.fdr", name);
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/tracebuf workload -C 0 pingpong %d >/dev/null && exec %s",
		 PP_TRIPS, self);
	rc = run(argv, envp, err, errlen, pin_last_cpu);
	if (rc) {
		TH_LOG("collector exit %d: %s", rc, err);
		return -1;
	}
	pid = slurp(OUTDIR "/enoent.pid", &len);
	if (!pid)
		return -1;
	f->enoent_tid = atoi(pid);
	free(pid);
	f->raw = raw;
	if (raw) {
		f->getppid_id = FN_GETPPID;
		f->openat_id = FN_SYSCALL(SYS_openat);
#ifdef SYS_open
		f->open_id = FN_SYSCALL(SYS_open);
#endif
	} else {
		snprintf(names, sizeof(names), "%s.names", out);
		text = slurp(names, &len);
		if (!text)
			return -1;
		f->getppid_id = names_id(text, FN_GETPPID);
		f->openat_id = names_id(text, FN_SYSCALL(SYS_openat));
#ifdef SYS_open
		f->open_id = names_id(text, FN_SYSCALL(SYS_open));
#endif
		free(text);
	}
	in = fopen(out, "r");
	if (!in)
		return -1;
	rc = tb_fdr_reader_read(in, NULL, sched_visit, f, &st, &e);
	fclose(in);
	if (rc)
		snprintf(f->err, sizeof(f->err), "%s", e.msg);
	return rc;
}

static void sched_check(struct __test_metadata *_metadata,
			struct sched_facts *f)
{
	long out[2] = { 0, 0 }, sleeps[2] = { 0, 0 }, woke[2] = { 0, 0 };
	long between = 0, odd_state = 0, dead = 0;
	unsigned int odd = 0;	/* the first odd state, for the log */
	size_t i;
	int j;

	TH_LOG("%s: %ld switches, %zu wake-ups, %ld error returns; ping-pong tids %d %d, error workload %d",
	       f->raw ? "raw" : "post-processed", f->switches, f->nr_wk,
	       f->rets, f->pp[0], f->pp[1], f->enoent_tid);
	EXPECT_EQ(0, f->malformed);
	EXPECT_LE(2, f->marks);
	ASSERT_EQ(2, f->nr_pp);
	/* Every switch names the block's task as next. */
	EXPECT_LT(2 * PP_TRIPS, f->switches);
	EXPECT_EQ(0, f->switch_wrong_tid);
	/* Raw blocks are cut at switches: each begins with its SWITCH. */
	if (f->raw) {
		EXPECT_EQ(0, f->switch_not_first);
	}
	for (i = 0; i < f->nr_sw; i++)
		for (j = 0; j < 2; j++) {
			if (f->sw[i].prev != f->pp[j])
				continue;
			out[j]++;
			if (f->sw[i].state == TRACEBUF_FDR_STATE_SLEEPING)
				sleeps[j]++;
			if (f->sw[i].next != f->pp[!j])
				continue;
			between++;
			if (f->sw[i].state == TRACEBUF_FDR_STATE_DEAD)
				dead++;
			/*
			 * D: the pipe's mutex, held by the other when the
			 * tick preempted it inside read() or write().
			 */
			else if (f->sw[i].state != TRACEBUF_FDR_STATE_SLEEPING &&
				 f->sw[i].state != TRACEBUF_FDR_STATE_UNINTERRUPTIBLE &&
				 f->sw[i].state != TRACEBUF_FDR_STATE_RUNNING &&
				 !odd_state++)
				odd = f->sw[i].state;
		}
	for (i = 0; i < f->nr_wk; i++)
		for (j = 0; j < 2; j++)
			if (f->wk[i].woken == f->pp[j])
				woke[j]++;
	TH_LOG("ping-pong: %ld switches between them; switched out %ld and %ld times, asleep %ld and %ld; woken %ld and %ld times",
	       between, out[0], out[1], sleeps[0], sleeps[1], woke[0],
	       woke[1]);
	/*
	 * On one CPU each round trip switches away from each side at least
	 * once.  A side that blocks in read() leaves the CPU sleeping and
	 * is woken again; at least one side blocks per round trip.  Not
	 * 2 sleeps and 2 wake-ups each: a woken reader may preempt the
	 * writer (CFS wake-up preemption), which then leaves running and
	 * finds the reply without sleeping.  Between the two tasks, no
	 * other state than sleeping or preempted, but for the child's last
	 * switch, dead, to its waiting parent.
	 */
	EXPECT_LE(PP_TRIPS, out[0]);
	EXPECT_LE(PP_TRIPS, out[1]);
	EXPECT_LE(PP_TRIPS, sleeps[0] + sleeps[1]);
	EXPECT_LE(sleeps[0], woke[0]);
	EXPECT_LE(sleeps[1], woke[1]);
	EXPECT_EQ(0, odd_state) TH_LOG("the first: state %u (%s)", odd,
					TRACEBUF_FDR_STATE_LETTERS);
	EXPECT_GE(1, dead);
	/* Exactly N ENOENT after the open exits, each right after its exit. */
	EXPECT_NE(0, f->openat_id);
	EXPECT_EQ(NR_ENOENT, f->open_exits_in_loop);
	EXPECT_EQ(NR_ENOENT, f->rets_in_loop);
	/*
	 * Raw, nothing is taken out; the post-processing removes exits
	 * whose entries it never saw (calls in flight at the start), and
	 * must take their RETs with them (fdr_post.c's work).
	 */
	if (f->raw) {
		EXPECT_EQ(0, f->rets_bad_place);
	} else if (f->rets_bad_place) {
		TH_LOG("%ld RETs not after an exit (fdr_post)",
		       f->rets_bad_place);
	}
	/*
	 * The RET's id is the exit's: raw, the kernel's id.  After the
	 * post-processing it must be renumbered as the exit's is, which is
	 * lib/convert/fdr_post.c's work, not the collector's.
	 */
	if (f->raw) {
		EXPECT_EQ(0, f->rets_bad_id);
	} else if (f->rets_bad_id) {
		TH_LOG("%ld RET ids not renumbered as their exits' (fdr_post)",
		       f->rets_bad_id);
	}
	free(f->sw);
	free(f->wk);
}

TEST_F_TIMEOUT(bpf, sched_and_errors_exact, 600)
{
	struct sched_facts f = { .enoent_tid = -1 };

	ASSERT_EQ(0, sched_record(_metadata, self->self, self->err,
				  sizeof(self->err), "sched-raw", true, &f))
		TH_LOG("%s", f.err);
	sched_check(_metadata, &f);
	memset(&f, 0, sizeof(f));
	f.enoent_tid = -1;
	/* This one is llvm-xray's too (scripts/check/check-bpf-xray.sh). */
	ASSERT_EQ(0, sched_record(_metadata, self->self, self->err,
				  sizeof(self->err), "sched", false, &f))
		TH_LOG("%s", f.err);
	sched_check(_metadata, &f);
}

TEST_HARNESS_MAIN
