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
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "fdr_util.h"

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

TEST_TIMEOUT(intervals_add_up_to_the_report, 300)
{
	const int iterations = 4;
	struct tracebuf_fdr_stats st;
	uint64_t sum_top = 0, sum_report = 0, calls = 0;
	struct top_name *getppid_seen;
	unsigned int i, lines = 0;
	int fd, status, e;
	char *s, *line, *save;
	double t0;
	pid_t pid;

	unlink(TOP_FDR);
	unlink(TOP_ERR);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		e = open(TOP_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(e, 1);
		e = open(TOP_ERR, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(e, 2);
		execlp("tracebuf", "tracebuf", "top", "--json", "-i", "0.5",
		       "--iterations", "4", "-e", "syscall,irq,softirq", "--save",
		       TOP_FDR, (char *)NULL);
		_exit(98);
	}
	fd = open(TB_FDR_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(TB_WAIT_FOR(!fdr_stats(fd, &st) && st.running, 20));
	/* The workload: getppid() in bursts until top is done. */
	t0 = tb_now();
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (tb_now() - t0 > tb_bound(60)) {
			kill(pid, SIGINT);
			waitpid(pid, &status, 0);
			top_show(_metadata, TOP_ERR);
			ASSERT_TRUE(0) TH_LOG("top did not end in %.0f s",
					     tb_bound(60));
		}
		for (i = 0; i < tb_scaled(200, 20); i++, calls++)
			syscall(SYS_getppid);
		usleep(20000);
	}
	close(fd);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		top_show(_metadata, TOP_ERR);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, top_run(TOP_REPORT, (char *const[]){ "tracebuf",
		  "report", "--json", TOP_FDR, NULL }));

	s = top_slurp(TOP_OUT);
	ASSERT_NE(NULL, s);
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lines++;
		EXPECT_EQ(lines, (unsigned int)top_field(line, line + strlen(line),
							 "interval"));
		EXPECT_LE(0, top_scan(line, "], \"tasks\"", false))
			TH_LOG("line %u: %.300s", lines, line);
	}
	free(s);
	EXPECT_EQ(iterations, lines);
	s = top_slurp(TOP_REPORT);
	ASSERT_NE(NULL, s);
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
	TH_LOG("%u names, %llu events in %d intervals, %llu getppid() made",
	       nnames, (unsigned long long)sum_top, iterations,
	       (unsigned long long)calls);
	EXPECT_EQ(sum_report, sum_top);
	/* The workload's calls were seen. */
	getppid_seen = top_find("syscall sys_getppid");
	ASSERT_NE(NULL, getppid_seen);
	EXPECT_LT(0, getppid_seen->top);
}

/* --attach cannot read a capture without taking it from its reader. */
TEST(attach_is_refused)
{
	char err[1024] = "";
	int fd;

	unlink(TOP_ERR);
	EXPECT_EQ(1, top_run("/dev/null", (char *const[]){ "tracebuf", "top",
		  "--attach", NULL }));
	fd = open(TOP_ERR, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_LT(0, read(fd, err, sizeof(err) - 1));
	close(fd);
	EXPECT_NE(NULL, strstr(err, "second reader")) TH_LOG("%s", err);
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
