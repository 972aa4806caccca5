// SPDX-License-Identifier: GPL-2.0
/*
 * Target for the gdbserver tracepoint test: tfile_test traces f() and
 * collects g, then saves gdb's own trace file with tsave.
 */
#include <stdio.h>

int g = 5;

__attribute__((noinline)) int f(int x)
{
	g += x;
	return g;
}

int main(void)
{
	int s = 0, i;

	for (i = 0; i < 3; i++)
		s += f(i);
	printf("%d\n", s);	/* tfile_test stops here */
	return 0;
}
