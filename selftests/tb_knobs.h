/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The selftests' knobs, from the environment (scripts/check.sh passes
 * them into the guest on the kernel command line):
 *
 *   TB_SCALE  multiplies iteration counts (default 1; e.g. 0.2 on a slow
 *             debug kernel, 10 for a soak run): tb_scaled()
 *   TB_SLOW   multiplies the harness timeouts (tb_harness.h) and the
 *             tests' own time bounds: tb_bound() (default 1;
 *             scripts/check.sh passes 3 to Debian's kernel and 10 to
 *             the debug kernel)
 *
 * Counts never depend on measured time; only the bounds that turn a hang
 * into a failure do.
 */
#ifndef TB_KNOBS_H
#define TB_KNOBS_H

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static inline double tb_env_factor(const char *name)
{
	const char *v = getenv(name);
	double f = v ? strtod(v, NULL) : 1.0;

	return f > 0 ? f : 1.0;
}

/* @n scaled by TB_SCALE, at least @min. */
static inline long tb_scaled(long n, long min)
{
	double v = n * tb_env_factor("TB_SCALE");

	return v < min ? min : (long)v;
}

/*
 * The guest's UART whose interrupts the tests make: TB_IRQ_TTY, or ttyS4
 * (the x86 guest's PCI UART; arm64's kernel has four 8250 lines, and its
 * guest passes ttyS3: scripts/vm/vm-run).
 */
static inline const char *tb_irq_tty(void)
{
	const char *v = getenv("TB_IRQ_TTY");

	return v && *v ? v : "ttyS4";
}

/* A time bound in seconds, stretched by TB_SLOW. */
static inline double tb_bound(double secs)
{
	return secs * tb_env_factor("TB_SLOW");
}

/* Seconds on the monotonic clock. */
static inline double tb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Wait for @cond, looked at every 10 ms, for at most @secs stretched by
 * TB_SLOW; true if it held.  For what another thread or the kernel does
 * in its own time (a reader reaching read(), a device node appearing): a
 * count of fixed sleeps instead waits as long on every machine, and a
 * machine slow enough fails the test.
 */
#define TB_WAIT_FOR(cond, secs) ({					\
	double __end = tb_now() + tb_bound(secs);			\
	bool __held;							\
									\
	while (!(__held = (cond)) && tb_now() < __end)			\
		usleep(10000);						\
	__held;								\
})

#endif /* TB_KNOBS_H */
