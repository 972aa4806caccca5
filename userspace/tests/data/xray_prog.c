// SPDX-License-Identifier: GPL-2.0
/*
 * A small threaded program instrumented with XRay (FDR mode) whose trace
 * the host tests and scripts/bench/bench-convert.sh read.  Built with
 *   clang -O1 -fxray-instrument -fxray-modes=xray-fdr
 *         -fxray-instruction-threshold=1 -pthread
 * Usage: xray_prog [ITERATIONS [THREADS [FDR-CONFIG]]]
 */
#include <pthread.h>
#include <stdlib.h>

/*
 * The XRay runtime's C interface, declared here (no header needed).
 * Custom events are left out: __xray_customevent() crashes inside the
 * LLVM 14 FDR runtime (FDRController::customEvent); our own writer covers
 * custom events in the tests.
 */
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

static int iters = 100;

__attribute__((noinline)) int leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, xray_log_args(1))) int with_arg(int x)
{
	return leaf(x) ^ x;
}

__attribute__((noinline)) int mid(int x)
{
	int s = 0, i;

	for (i = 0; i < 3; i++)
		s += leaf(x + i);
	return s + with_arg(x);
}

__attribute__((noinline, xray_always_instrument)) int note(int i)
{
	return leaf(i) + 1;
}

static void *worker(void *arg)
{
	long s = 0;
	int i;

	for (i = 0; i < iters; i++) {
		s += mid(i);
		if (!(i % 64))
			s += note(i);
	}
	return (void *)s;
}

int main(int argc, char **argv)
{
	int nthreads = 3, i;
	pthread_t t[16];

	if (argc > 1)
		iters = atoi(argv[1]);
	if (argc > 2)
		nthreads = atoi(argv[2]);
	if (nthreads < 1 || nthreads > 16)
		nthreads = 3;
	__xray_log_init_mode("xray-fdr", argc > 3 ? argv[3] :
			     "buffer_size=16384:buffer_max=64:func_duration_threshold_us=0");
	__xray_patch();
	for (i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	__xray_log_finalize();
	__xray_log_flushLog();
	return 0;
}
