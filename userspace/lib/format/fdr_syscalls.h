/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system calls' names by number, as a collector's build knows them
 * (its <asm/unistd.h>): what names the syscall ids of a trace when the
 * trace does not, and what trigger conditions take by name.
 */
#ifndef TB_FDR_SYSCALLS_H
#define TB_FDR_SYSCALLS_H

#include <stddef.h>

struct tb_fdr_syscalls {
	const char *const *names;	/* by number, NULL for holes */
	size_t n;
};

#endif /* TB_FDR_SYSCALLS_H */
