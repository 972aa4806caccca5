// SPDX-License-Identifier: GPL-2.0
/*
 * bench-rate: getppid() system calls at a chosen event rate, for
 * scripts/bench/bench-curves.sh (cost and loss against event rate).  Each 1 ms
 * period makes its share of the calls back to back, timing only them, and
 * then spins on the vDSO clock (no system call, so no event) until the
 * period ends.  A tb-workload getppid run makes its calls back to back:
 * the highest rate only.  Prints one JSON line; ns_per_op is the mean time
 * inside a call, which is what a tracer adds to.  Built static by
 * bench-curves.sh and run in its guest only.
 *
 * Usage: bench-rate CPU EVENTS_PER_S SECONDS   (EVENTS_PER_S 0: flat out)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long start, end, period = 1000000, t, in_calls = 0, ops = 0;
	double per_period, owed = 0;
	cpu_set_t set;

	if (argc != 4) {
		fprintf(stderr, "usage: bench-rate CPU EVENTS_PER_S SECONDS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	/* Two events (sys_enter, sys_exit) per call. */
	per_period = atof(argv[2]) / 2 * period / 1e9;
	start = now_ns();
	end = start + (unsigned long long)(atof(argv[3]) * 1e9);
	for (t = start; t < end; t += period) {
		unsigned long long t0, t1, k;

		owed += per_period > 0 ? per_period : 1000;
		k = (unsigned long long)owed;
		owed -= k;
		t0 = now_ns();
		for (unsigned long long i = 0; i < k; i++)
			syscall(SYS_getppid);
		t1 = now_ns();
		in_calls += t1 - t0;
		ops += k;
		/* Behind schedule (the calls took the whole period): no wait. */
		if (per_period > 0)
			while (now_ns() < t + period)
				;
		else
			t = t1 - period;
	}
	t = now_ns() - start;
	printf("{\"workload\": \"rate\", \"target_ev_per_s\": %s, \"ops\": %llu, "
	       "\"ns\": %llu, \"ns_per_op\": %.1f, \"ev_per_s\": %.0f}\n",
	       argv[2], ops, t, ops ? (double)in_calls / ops : 0.0,
	       2e9 * ops / t);
	return 0;
}
