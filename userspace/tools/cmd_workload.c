// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf workload: generate a known kernel workload and say how long it took.
 *
 * Benchmarks and tests need workloads whose event counts are known exactly
 * (N getppid() calls make N syscall entries) and whose cost per operation
 * can be compared across tracing configurations.  Each workload prints one
 * JSON object on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "cli_opt.h"
#include "cmds.h"
#include "tool.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] WORKLOAD COUNT\n"
"\n"
"Run a kernel workload COUNT times and print one JSON line:\n"
"{\"workload\", \"ops\", \"ns\", \"ns_per_op\", \"user_ns\", \"sys_ns\", ...}.\n"
"\n"
"Workloads:\n"
"  getppid    COUNT getppid() system calls (2 syscall events each)\n"
"  pingpong   COUNT round trips of one byte between two processes over\n"
"             pipes, both on one CPU: 2 context switches and 4 syscalls\n"
"             per round trip, and 2 wake-ups where a wake-up does not\n"
"             preempt (SCHED_FIFO); with --spin, a third process on their\n"
"             CPU spins meanwhile and preempts them\n"
"  rtc        wait for COUNT periodic RTC interrupts (/dev/rtc0): one hard\n"
"             IRQ, a wake-up and a context switch each\n"
"  faults     touch COUNT fresh anonymous pages: one user page fault each\n"
"  yield      COUNT sched_yield() calls in each of two processes on one\n"
"             CPU (-C): a context switch each, and no wake-up\n"
"  enoent     COUNT open() calls of a path that does not exist: exactly\n"
"             COUNT system calls that fail with ENOENT\n"
"  serial     write COUNT KiB to a serial port (--tty): device IRQs; the VM\n"
"             has a PCI UART on /dev/ttyS4 wired to a null sink for this\n"
"\n"
"Options:\n",
		tb_cli_prog());
	tb_opt_help(f, &cmd_workload_spec, NULL);
	fputs("\n"
	      "Examples:\n"
	      "  tracebuf workload -C 1 getppid 100000\n"
	      "  tracebuf record -e syscall -- tracebuf workload getppid 1000\n"
	      "  tracebuf record -e sched -- tracebuf workload -C 0 --spin pingpong 1000\n"
	      "\n"
	      "Exit status: 0 ok, 1 failure, 2 usage, 3 malformed input.\n", f);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + tv->tv_usec * 1000ULL;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		tool_die_errno(TB_EXIT_FAIL, "cannot pin to CPU %d", cpu);
}

/*
 * The measured interval's marks for scripts/bench/insn-reader: instructions that
 * do nothing on any x86 CPU, which its qemu plugin counts between
 * (scripts/bench/insn-mark-plugin.c).
 */
static void insn_mark_start(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("xchg %%bx, %%bx" ::: "memory");
#endif
}

static void insn_mark_end(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("xchg %%cx, %%cx" ::: "memory");
#endif
}

static void run_getppid(uint64_t n)
{
	uint64_t i;

	/* The raw syscall: glibc must not cache or skip it. */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/*
 * --spin: a process that runs until killed, on the CPU it inherits (the
 * pinned one): the ping-pong pair then waits for the CPU, and the tick
 * preempts whichever of the three runs, so that the trace has
 * preemptions and run-queue delays besides the pair's sleeps.
 */
static pid_t spin_start(void)
{
	pid_t pid = fork();

	if (pid < 0)
		tool_die_errno(TB_EXIT_FAIL, "fork");
	if (pid == 0) {
		for (;;)
			__asm__ volatile("" ::: "memory");
	}
	return pid;
}

static void spin_stop(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

/*
 * --batch: SCHED_BATCH, inherited by the partner (and --spin's spinner,
 * which then yields only at ticks).  CFS lets no wake-up of a batch task
 * preempt (check_preempt_wakeup()), so each write wakes the other, asleep
 * in read(), and returns; no privilege needed.
 */
static void set_batch(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (sched_setscheduler(0, SCHED_BATCH, &sp))
		tool_die_errno(TB_EXIT_FAIL, "cannot switch to SCHED_BATCH");
}

/* The pids a workload's JSON names besides its own (pingpong's partner). */
static pid_t partner_pid, spinner_pid;

static void run_pingpong(uint64_t n, bool spin)
{
	int to_child[2], to_parent[2];
	uint64_t i;
	char c = 0;
	pid_t pid;
	int status;

	if (pipe(to_child) || pipe(to_parent))
		tool_die_errno(TB_EXIT_FAIL, "pipe");
	pid = fork();
	if (pid < 0)
		tool_die_errno(TB_EXIT_FAIL, "fork");
	if (pid == 0) {
		for (i = 0; i < n; i++) {
			if (read(to_child[0], &c, 1) != 1 ||
			    write(to_parent[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	partner_pid = pid;
	if (spin)
		spinner_pid = spin_start();
	for (i = 0; i < n; i++) {
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			tool_die_errno(TB_EXIT_FAIL, "ping-pong round trip %llu",
				       (unsigned long long)i);
	}
	if (spinner_pid)
		spin_stop(spinner_pid);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		tool_die(TB_EXIT_FAIL, "ping-pong partner failed");
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static void run_rtc(uint64_t n, unsigned long freq)
{
	unsigned long data;
	uint64_t seen = 0;
	int fd;

	fd = open("/dev/rtc0", O_RDONLY);
	if (fd < 0)
		tool_die_errno(TB_EXIT_FAIL, "cannot open /dev/rtc0");
	if (ioctl(fd, RTC_IRQP_SET, freq))
		tool_die_errno(TB_EXIT_FAIL, "cannot set the RTC rate to %lu Hz", freq);
	if (ioctl(fd, RTC_PIE_ON, 0))
		tool_die_errno(TB_EXIT_FAIL, "cannot enable RTC periodic interrupts");
	/* Each read returns the number of interrupts since the last one. */
	while (seen < n) {
		if (read(fd, &data, sizeof(data)) != sizeof(data))
			tool_die_errno(TB_EXIT_FAIL, "reading /dev/rtc0");
		seen += data >> 8;
	}
	ioctl(fd, RTC_PIE_OFF, 0);
	close(fd);
}

static void run_faults(uint64_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t done = 0;

	/* In chunks, so huge counts need no huge mapping. */
	while (done < n) {
		uint64_t chunk = n - done > 4096 ? 4096 : n - done;
		volatile char *p = mmap(NULL, chunk * page, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t i;

		if (p == MAP_FAILED)
			tool_die_errno(TB_EXIT_FAIL, "mmap");
		for (i = 0; i < chunk; i++)
			p[i * page] = 1;
		munmap((void *)p, chunk * page);
		done += chunk;
	}
}

/*
 * Two processes yielding to each other on one CPU: every sched_yield()
 * switches to the other (CFS picks the other runnable task), a switch
 * without a wake-up, for scripts/bench/insn-profile's cost per switch.
 */
static void run_yield(uint64_t n)
{
	uint64_t i;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		tool_die_errno(TB_EXIT_FAIL, "fork");
	for (i = 0; i < n; i++)
		sched_yield();
	if (pid == 0)
		_exit(0);
	partner_pid = pid;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		tool_die(TB_EXIT_FAIL, "yield partner failed");
}

/*
 * open() of a path that cannot exist (a missing directory's entry): each
 * call fails with ENOENT, so a trace of it holds exactly @n such errors of
 * open or openat (glibc's open() is openat).
 */
static void run_enoent(uint64_t n)
{
	static const char path[] = "/nonexistent-tracebuf-workload/enoent";
	uint64_t i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = open(path, O_RDONLY);
		if (fd >= 0 || errno != ENOENT)
			tool_die_errno(TB_EXIT_FAIL, "open %s: ENOENT expected", path);
	}
}

static void run_serial(uint64_t kib, const char *tty)
{
	static char block[1024];
	struct termios tio;
	uint64_t i;
	int fd;

	fd = open(tty, O_WRONLY | O_NOCTTY);
	if (fd < 0)
		tool_die_errno(TB_EXIT_FAIL, "cannot open %s", tty);
	/* Raw, so the line discipline neither expands nor echoes. */
	if (tcgetattr(fd, &tio))
		tool_die_errno(TB_EXIT_FAIL, "%s is not a terminal", tty);
	cfmakeraw(&tio);
	cfsetospeed(&tio, B115200);
	if (tcsetattr(fd, TCSANOW, &tio))
		tool_die_errno(TB_EXIT_FAIL, "cannot configure %s", tty);
	for (i = 0; i < kib; i++)
		if (write(fd, block, sizeof(block)) != sizeof(block))
			tool_die_errno(TB_EXIT_FAIL, "writing %s", tty);
	if (tcdrain(fd))
		tool_die_errno(TB_EXIT_FAIL, "draining %s", tty);
	close(fd);
}

enum { OPT_FREQ = TB_OPT_ID_FIRST_FREE, OPT_SPIN, OPT_BATCH };

static const struct tb_opt workload_opts[] = {
	{ TB_OPT_CPU,
	  .arg_name = "N", .help = "pin the workload (all its processes) to CPU N" },
	{ .id = 'C', .letter = 'c', .arg = TB_OPT_REQUIRED, .val = TB_VAL_CPU,
	  .instead = "-C" },
	{ .id = OPT_FREQ, .name = "freq", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER,
	  .arg_name = "HZ", .help = "RTC periodic rate, a power of two from 2 to 8192 (default 1024)" },
	{ .id = OPT_FREQ, .letter = 'f', .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_NUMBER, .instead = "--freq" },
	{ .id = 't', .letter = 't', .name = "tty", .arg = TB_OPT_REQUIRED,
	  .val = TB_VAL_DEVICE,
	  .help = "serial port for 'serial' (default /dev/ttyS4)" },
	{ .id = OPT_SPIN, .name = "spin",
	  .help = "pingpong: also a process that spins on their CPU (needs -C, so that all three share one CPU)" },
	{ .id = OPT_BATCH, .name = "batch",
	  .help = "pingpong: the pair run SCHED_BATCH, which a wake-up never preempts: every round trip 2 wake-ups" },
	{ TB_OPT_HELP },
	{ TB_OPT_VERSION },
	{ 0 }
};

static const struct tb_opt_word workload_words[] = {
	{ .name = "getppid", .val = TB_VAL_NUMBER },
	{ .name = "pingpong", .val = TB_VAL_NUMBER },
	{ .name = "rtc", .val = TB_VAL_NUMBER },
	{ .name = "faults", .val = TB_VAL_NUMBER },
	{ .name = "enoent", .val = TB_VAL_NUMBER },
	{ .name = "yield", .val = TB_VAL_NUMBER },
	{ .name = "serial", .val = TB_VAL_NUMBER },
	{ NULL }
};

const struct tb_opt_spec cmd_workload_spec = {
	.name = "workload", .opts = workload_opts, .words = workload_words,
	.operands = TB_VAL_NUMBER,
};

int cmd_workload(int argc, char **argv)
{
	struct rusage ru0, ru1;
	uint32_t cpu = UINT32_MAX, freq = 1024;
	const char *what, *tty = "/dev/ttyS4";
	struct tb_opt_parser p;
	bool spin = false, batch = false;
	char msg[256];
	uint64_t n, t0, t1, v;
	int c;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, &cmd_workload_spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, usage))) {
		switch (c) {
		case 'C':
			if (tb_optval_number("--cpu", p.arg, 0, CPU_SETSIZE - 1,
					     &v, msg, sizeof(msg)))
				cli_opt_bad_value(msg);
			cpu = v;
			break;
		case OPT_FREQ:
			if (tb_parse_u32(p.arg, 2, 8192, &freq) || (freq & (freq - 1)))
				tool_die(TB_EXIT_USAGE,
					 "--freq '%s': a power of two from 2 to 8192 expected",
					 p.arg);
			break;
		case 't':
			tty = p.arg;
			break;
		case OPT_SPIN:
			spin = true;
			break;
		case OPT_BATCH:
			batch = true;
			break;
		}
	}
	if (p.nr_operands != 2)
		cli_opt_usage("WORKLOAD and COUNT expected (getppid, pingpong, rtc, faults, enoent, yield, serial)");
	what = p.operands[0];
	if (tb_parse_u64(p.operands[1], 1, UINT64_MAX, &n))
		tool_die(TB_EXIT_USAGE, "COUNT '%s': a number from 1 to 2^64-1 expected",
			 p.operands[1]);
	if (strcmp(what, "getppid") && strcmp(what, "pingpong") &&
	    strcmp(what, "rtc") && strcmp(what, "faults") &&
	    strcmp(what, "enoent") && strcmp(what, "yield") &&
	    strcmp(what, "serial"))
		cli_opt_usage("unknown workload '%s'", what);
	if ((spin || batch) && strcmp(what, "pingpong"))
		cli_opt_usage("--spin and --batch are for pingpong only");
	/* Unpinned, the spinner would just take another CPU. */
	if (spin && cpu == UINT32_MAX)
		cli_opt_usage("--spin needs -C: the spinner shares the pair's CPU");
	pin(cpu == UINT32_MAX ? -1 : (int)cpu);
	if (batch)
		set_batch();
	getrusage(RUSAGE_SELF, &ru0);
	insn_mark_start();
	t0 = now_ns();
	if (!strcmp(what, "getppid"))
		run_getppid(n);
	else if (!strcmp(what, "pingpong"))
		run_pingpong(n, spin);
	else if (!strcmp(what, "rtc"))
		run_rtc(n, freq);
	else if (!strcmp(what, "faults"))
		run_faults(n);
	else if (!strcmp(what, "enoent"))
		run_enoent(n);
	else if (!strcmp(what, "yield"))
		run_yield(n);
	else
		run_serial(n, tty);
	t1 = now_ns();
	insn_mark_end();
	getrusage(RUSAGE_SELF, &ru1);

	printf("{\"workload\": \"%s\", \"ops\": %llu, \"ns\": %llu, "
	       "\"ns_per_op\": %.1f, \"user_ns\": %llu, \"sys_ns\": %llu, "
	       "\"pid\": %d",
	       what, (unsigned long long)n, (unsigned long long)(t1 - t0),
	       (double)(t1 - t0) / n,
	       (unsigned long long)(tv_ns(&ru1.ru_utime) - tv_ns(&ru0.ru_utime)),
	       (unsigned long long)(tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime)),
	       (int)getpid());
	if (partner_pid)
		printf(", \"partner_pid\": %d", (int)partner_pid);
	if (spinner_pid)
		printf(", \"spinner_pid\": %d", (int)spinner_pid);
	printf("}\n");
	return TB_EXIT_OK;
}
