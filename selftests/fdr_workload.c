// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for the FDR acceptance run: one thread per CPU (0 and 1), each
 * making N getppid() calls with short sleeps (context switches) in
 * between; thread 0 also writes to /dev/ttyS0 (serial IRQs).  Prints the
 * total number of getppid() calls made.
 *
 *   fdr_workload [N]
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

static long per_thread = 2000;

static void *worker(void *arg)
{
	long cpu = (long)arg, i;
	cpu_set_t set;
	char line[256];
	int tty = -1;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (cpu == 0)
		tty = open("/dev/ttyS0", O_WRONLY | O_NOCTTY);
	memset(line, 'x', sizeof(line));
	for (i = 0; i < per_thread; i++) {
		syscall(SYS_getppid);
		if (i % 200 == 199) {
			if (tty >= 0) {
				write(tty, line, sizeof(line));
				tcdrain(tty);
			}
			usleep(1000);
		}
	}
	if (tty >= 0)
		close(tty);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	long i;

	if (argc > 1)
		per_thread = atol(argv[1]);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("getppid %ld\n", 2 * per_thread);
	return 0;
}
