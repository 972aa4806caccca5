// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf top against the real module: `tracebuf top --json -i 0.5 --iterations N
 * --save FILE` under a known workload (getppid() calls in bursts), then
 * `tracebuf report --json FILE` of the capture top itself read and saved.
 * Every exit and point event is counted in exactly one interval
 * (convert/fdr_top.h), so for every class and name the counts of the N
 * JSON lines add up exactly to the report's count + exit_no_entry +
 * points.  Nothing is timed: the bounds only wait for top to end.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "fdr_util.h"
#include "tb_stress.h"

#define TOP_OUT		"/tmp/top.jsonl"
#define TOP_ERR		"/tmp/top.err"
#define TOP_FDR		"/tmp/top.fdr"
#define TOP_REPORT	"/tmp/top-report.json"
#define TOP_NAMES_MAX	4096

struct top_name {
	char key[128];		/* "class name" */
	uint64_t top, report;
};

static struct top_name names[TOP_NAMES_MAX];
static unsigned int nnames;

static struct top_name *top_find(const char *key)
{
	unsigned int i;

	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i].key, key))
			return &names[i];
	if (nnames == TOP_NAMES_MAX)
		return NULL;
	snprintf(names[nnames].key, sizeof(names[nnames].key), "%s", key);
	return &names[nnames++];
}

/* The number after "@field": " in the object at @obj, or 0. */
static uint64_t top_field(const char *obj, const char *end, const char *field)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", field);
	p = strstr(obj, pat);
	if (!p || p > end)
		return 0;
	return strtoull(p + strlen(pat), NULL, 10);
}

/*
 * Each {"class": ..., "name": ...} object of the "names" array in @s (up
 * to @stop): its counts added to the top (@report false) or report side.
 */
static int top_scan(char *s, const char *stop, bool report)
{
	char *p = strstr(s, "\"names\": [");
	char *end = p ? strstr(p, stop) : NULL;
	int objs = 0;

	if (!p || !end)
		return -1;
	while ((p = strstr(p, "{\"class\": \"")) && p < end) {
		char cls[32] = "", nm[96] = "", key[128];
		const char *close = strchr(p, '}');
		struct top_name *n;

		if (sscanf(p, "{\"class\": \"%31[^\"]\", \"name\": \"%95[^\"]\"",
			   cls, nm) != 2 || !close)
			return -1;
		p++;
		/* Top leaves markers out: the report's are not compared. */
		if (!strcmp(cls, "marker"))
			continue;
		snprintf(key, sizeof(key), "%s %s", cls, nm);
		n = top_find(key);
		if (!n)
			return -1;
		if (report)
			n->report += top_field(p, close, "count") +
				     top_field(p, close, "exit_no_entry") +
				     top_field(p, close, "points");
		else
			n->top += top_field(p, close, "count");
		objs++;
	}
	return objs;
}

static char *top_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		char *b = realloc(buf, len + 65537);

		if (!b)
			break;
		buf = b;
		n = fread(buf + len, 1, 65536, f);
		len += n;
		buf[len] = 0;
		if (!n)
			break;
	}
	fclose(f);
	return buf;
}

static void top_show(struct __test_metadata *_metadata, const char *path)
{
	char *s = top_slurp(path);

	TH_LOG("%s: %.2000s", path, s ? s : "(none)");
	free(s);
}

/* Run a command line, stdout to @out: its exit status, or -1. */
static int top_run(const char *out, char *const argv[])
{
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		fd = open(TOP_ERR, O_WRONLY | O_CREAT | O_APPEND, 0644);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(98);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Add up the JSON lines of TOP_OUT and `tracebuf report --json TOP_FDR`
 * per class and name, and expect them equal; the lines are numbered
 * from 1.  Returns the lines, and the getppid() calls top saw in *@seen.
 */
static unsigned int top_compare(struct __test_metadata *_metadata,
				uint64_t *seen, uint64_t *missed)
{
	uint64_t sum_top = 0, sum_report = 0;
	struct top_name *getppid_seen;
	char *s, *line, *save;
	unsigned int i, lines = 0;

	nnames = 0;
	*missed = 0;
	EXPECT_EQ(0, top_run(TOP_REPORT, (char *const[]){ "tracebuf",
		  "report", "--json", TOP_FDR, NULL }));
	s = top_slurp(TOP_OUT);
	if (!s)
		return 0;
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lines++;
		EXPECT_EQ(lines, (unsigned int)top_field(line, line + strlen(line),
							 "interval"));
		EXPECT_LE(0, top_scan(line, "], \"tasks\"", false))
			TH_LOG("line %u: %.300s", lines, line);
		*missed += top_field(line, line + strlen(line), "missed_pages");
	}
	free(s);
	s = top_slurp(TOP_REPORT);
	EXPECT_NE(NULL, s);
	if (s)
		EXPECT_LT(0, top_scan(s, "\"markers_other\"", true));
	free(s);
	for (i = 0; i < nnames; i++) {
		EXPECT_EQ(names[i].report, names[i].top)
			TH_LOG("%s: report %llu, the intervals' sum %llu",
			       names[i].key,
			       (unsigned long long)names[i].report,
			       (unsigned long long)names[i].top);
		sum_top += names[i].top;
		sum_report += names[i].report;
	}
	EXPECT_EQ(sum_report, sum_top);
	getppid_seen = top_find("syscall sys_getppid");
	*seen = getppid_seen ? getppid_seen->top : 0;
	TH_LOG("%u names, %llu events in %u intervals, %llu getppid() seen",
	       nnames, (unsigned long long)sum_top, lines,
	       (unsigned long long)*seen);
	return lines;
}

/* Start tracebuf top with @args (NULL-terminated), stdout to TOP_OUT. */
static pid_t top_spawn(const char *const *args)
{
	char *argv[24] = { "tracebuf", "top" };
	pid_t pid;
	int i, e;

	for (i = 0; args[i] && i < 20; i++)
		argv[i + 2] = (char *)args[i];
	unlink(TOP_FDR);
	unlink(TOP_ERR);
	pid = fork();
	if (!pid) {
		e = open(TOP_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(e, 1);
		e = open(TOP_ERR, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(e, 2);
		execvp(argv[0], argv);
		_exit(98);
	}
	return pid;
}

/* getppid() in bursts while @pid runs, @stop_fd's capture stopped once
 * TOP_OUT has @lines lines (-1: never); top's exit status, or -1. */
static int top_load(struct __test_metadata *_metadata, pid_t pid,
		    int stop_fd, int lines, uint64_t *calls)
{
	int status;
	double t0 = tb_now();

	while (waitpid(pid, &status, WNOHANG) == 0) {
		unsigned int i;
		char *s;

		if (tb_now() - t0 > tb_bound(60)) {
			kill(pid, SIGINT);
			waitpid(pid, &status, 0);
			top_show(_metadata, TOP_ERR);
			TH_LOG("top did not end in %.0f s", tb_bound(60));
			return -1;
		}
		for (i = 0; i < tb_scaled(200, 20); i++, (*calls)++)
			syscall(SYS_getppid);
		usleep(20000);
		s = lines > 0 ? top_slurp(TOP_OUT) : NULL;
		if (s) {
			int n = 0;
			char *p;

			for (p = s; (p = strchr(p, '\n')); p++)
				n++;
			if (n >= lines)
				ioctl(stop_fd, TRACEBUF_FDR_IOC_STOP);
			free(s);
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		top_show(_metadata, TOP_ERR);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_TIMEOUT(intervals_add_up_to_the_report, 300)
{
	const char *const args[] = { "--json", "-i", "0.5", "--iterations",
		"4", "-e", "syscall,irq,softirq", "--save", TOP_FDR, NULL };
	struct tracebuf_fdr_stats st;
	uint64_t calls = 0, seen, missed;
	pid_t pid;
	int fd;

	pid = top_spawn(args);
	ASSERT_LE(0, pid);
	fd = open(TB_FDR_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(TB_WAIT_FOR(!fdr_stats(fd, &st) && st.running, 20));
	/* The workload: getppid() in bursts until top is done. */
	ASSERT_EQ(0, top_load(_metadata, pid, fd, -1, &calls));
	close(fd);
	EXPECT_EQ(4, top_compare(_metadata, &seen, &missed));
	/* The workload's calls were seen. */
	EXPECT_LT(0, seen);
}

/*
 * --attach follows a capture this test started (a flight recorder that
 * nobody reads): it changes nothing of it (no CONFIG, START or STOP, no
 * page held: nothing dropped), ends by itself when the capture stops,
 * misses nothing, and its intervals add up to the report of what it saved.
 */
TEST_TIMEOUT(attach_follows_a_capture_it_did_not_start, 300)
{
	const char *const args[] = { "--attach", "--json", "-i", "0.3",
		"--save", TOP_FDR, NULL };
	struct tracebuf_fdr_stats st;
	uint64_t calls = 0, seen, missed, gen;
	char *err;
	int fd;

	/*
	 * Pages of 16 KiB, which the workload closes every few bursts: a
	 * look copies closed pages only.
	 */
	fd = fdr_open_started0(TRACEBUF_FDR_SYSCALL, TRACEBUF_FDR_MODE_FLIGHT,
			       256 << 10);
	ASSERT_LE(0, fd);
	tb_unpin();
	ASSERT_EQ(0, fdr_stats(fd, &st));
	gen = st.gen;
	ASSERT_EQ(0, top_load(_metadata, top_spawn(args), fd, 3, &calls));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(gen, st.gen) TH_LOG("top restarted the capture");
	EXPECT_EQ(0, st.running);
	EXPECT_EQ(0ULL, st.dropped) TH_LOG("the look held pages back");
	EXPECT_LE(3, top_compare(_metadata, &seen, &missed));
	EXPECT_LT(0, seen);
	EXPECT_GE(calls, seen);
	EXPECT_EQ(0, missed);
	err = top_slurp(TOP_ERR);
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "its owner stopped it")) TH_LOG("%s", err);
	free(err);
	close(fd);
}

/*
 * A streaming capture read by its own reader: top --attach takes none of
 * its pages (the reader's stream holds every byte written), and what it
 * saw still adds up; the pages the reader took first are counted.
 */
TEST_TIMEOUT(attach_takes_nothing_from_the_reader, 300)
{
	const char *const args[] = { "--attach", "--json", "-i", "0.3",
		"--save", TOP_FDR, NULL };
	struct tracebuf_fdr_stats st;
	uint64_t calls = 0, seen, missed;
	uint8_t *out;
	size_t len = 0;
	pid_t rd;
	int fd, rfd, status;

	fd = fdr_open_started0(TRACEBUF_FDR_SYSCALL, TRACEBUF_FDR_MODE_STREAM,
			       1 << 20);
	ASSERT_LE(0, fd);
	tb_unpin();
	/* The capture's own reader, to EOF, its byte count as exit code. */
	rd = fork();
	ASSERT_LE(0, rd);
	if (!rd) {
		rfd = open(TB_FDR_DEV, O_RDONLY);
		out = fdr_read_all(rfd, &len);
		if (out && write(open("/tmp/top-owner.fdr", O_WRONLY | O_CREAT |
				      O_TRUNC, 0644), out, len) == (ssize_t)len)
			_exit(0);
		_exit(1);
	}
	ASSERT_EQ(0, top_load(_metadata, top_spawn(args), fd, 3, &calls));
	ASSERT_EQ(rd, waitpid(rd, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(0ULL, st.dropped);
	rfd = open("/tmp/top-owner.fdr", O_RDONLY);
	ASSERT_LE(0, rfd);
	out = fdr_read_all(rfd, &len);
	ASSERT_NE(NULL, out);
	/* Every byte written went to the owner: header and whole stream. */
	EXPECT_EQ(st.bytes + 32, len);
	free(out);
	close(rfd);
	EXPECT_LE(3, top_compare(_metadata, &seen, &missed));
	TH_LOG("the owner read %zu bytes; top saw %llu getppid() of %llu, missed %llu pages",
	       len, (unsigned long long)seen, (unsigned long long)calls,
	       (unsigned long long)missed);
	EXPECT_GE(calls, seen);
	close(fd);
}

/*
 * The first field of /proc/@pid/task/@pid/syscall: the system call the
 * main thread of @pid sleeps in, -1 for none (running), -2 unreadable.
 */
static long top_main_syscall(pid_t pid)
{
	char path[64], buf[64] = "";
	long nr = -2;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, pid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f))
		nr = strncmp(buf, "running", 7) ? strtol(buf, NULL, 10) : -1;
	if (f)
		fclose(f);
	return nr;
}

/* Copy the pipe's read end to TOP_OUT until its end (a thread). */
static void *top_pipe_copy(void *p)
{
	int in = *(int *)p, out;
	char buf[4096];
	ssize_t n;

	out = open(TOP_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (out < 0 || write(out, buf, n) != n)
			break;
	if (out >= 0)
		close(out);
	return NULL;
}

/*
 * While top's main thread cannot go on, as in a summary that does not
 * end (here its output is a pipe of one page that nobody reads, full, so
 * it waits in write()), its reader thread still drains the rings: four
 * rings' worth of getppid() written meanwhile, paced so that the drains'
 * own pace keeps up on any machine, is neither dropped nor missing from
 * its intervals once the pipe is read again, after a ^C.  When top
 * drained between its summaries, all but the first ring's worth were
 * dropped; and a ^C while it waited in write() made it fail.
 */
TEST_TIMEOUT(a_stalled_summary_loses_nothing, 300)
{
	char *argv[] = { "tracebuf", "top", "--json", "--rows", "0", "-i",
		"0.2", "-s", "1M", "-e", "syscall", "--save", TOP_FDR, NULL };
	/* a getppid() is two records of 8 bytes or more */
	const uint64_t want = 4ULL * (1 << 20) / 16;
	struct tracebuf_fdr_stats st;
	uint64_t calls = 0, seen, missed;
	int fd, status, pfd[2], cap, queued = 0;
	pthread_t copier;
	pid_t pid;

	ASSERT_EQ(0, pipe(pfd));
	cap = fcntl(pfd[1], F_SETPIPE_SZ, 4096);
	ASSERT_LT(0, cap);
	unlink(TOP_FDR);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		fd = open(TOP_ERR, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(98);
	}
	close(pfd[1]);
	fd = open(TB_FDR_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	/*
	 * Full (a write that does not fit in the pipe's one page waits for
	 * room): top's main thread sleeps in write(), however long it takes.
	 */
	ASSERT_TRUE(TB_WAIT_FOR(!ioctl(pfd[0], FIONREAD, &queued) &&
				queued > 0 &&
				top_main_syscall(pid) == SYS_write, 60)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		top_show(_metadata, TOP_ERR);
	}
	/* 1,000 calls each 10 ms at most: a ring in 650 ms or more */
	while (calls < want) {
		unsigned int i;

		for (i = 0; i < 1000; i++, calls++)
			syscall(SYS_getppid);
		usleep(10000);
	}
	ASSERT_EQ(0, fdr_stats(fd, &st));
	EXPECT_EQ(1, st.running);
	EXPECT_EQ(0ULL, st.dropped) TH_LOG("%llu dropped of %llu written while top's output waited",
					    (unsigned long long)st.dropped,
					    (unsigned long long)st.written);
	/*
	 * ^C while top waits in write(): it must still print its last
	 * interval once the pipe is read, not give up the write.
	 */
	kill(pid, SIGINT);
	ASSERT_EQ(0, pthread_create(&copier, NULL, top_pipe_copy, &pfd[0]));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	pthread_join(copier, NULL);
	close(pfd[0]);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) top_show(_metadata, TOP_ERR);
	close(fd);
	EXPECT_LE(1, top_compare(_metadata, &seen, &missed));
	EXPECT_LE(calls, seen);
}

/*
 * A reader that goes away (tracebuf top | head -c 1): top must stop the
 * capture it started, not die of SIGPIPE with the tracepoints armed and
 * the rings filling with nobody to drain them.
 */
TEST_TIMEOUT(reader_gone_stops_the_capture, 120)
{
	struct tracebuf_fdr_stats st;
	int fd, status;

	status = top_run("/dev/null", (char *const[]){ "sh", "-c",
			 "tracebuf top -i 0.2 | head -c 1", NULL });
	EXPECT_EQ(0, status);
	fd = open(TB_FDR_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	/* top ends when its write fails: at most an interval after head's */
	EXPECT_TRUE(TB_WAIT_FOR(!fdr_stats(fd, &st) && !st.running, 10))
		TH_LOG("the capture still runs after its reader is gone");
	if (st.running)
		ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

TEST_HARNESS_MAIN
