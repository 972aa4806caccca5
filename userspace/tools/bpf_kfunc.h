/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf bpf's kernel functions (-f): which ones are traced, and their
 * fentry and fexit programs.  A function fentry cannot take is skipped
 * with a line and the rest keep their order (a function's id is its
 * index); none left is fatal.  Where these fail, the tool exits.
 */
#ifndef TB_BPF_KFUNC_H
#define TB_BPF_KFUNC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct bpf_program;
struct tb_kfuncs;

/*
 * Kernel functions: an fentry and an fexit program per function, each a
 * copy of the template libbpf loaded (tb_kfunc_entry/exit, verified for
 * the first function) loaded again for its own function, attached with
 * the function's index as cookie (tracebuf.bpf.c).
 */
struct bpf_kfunc_progs {
	size_t n;
	int (*prog)[2];		/* [i][0] fentry, [i][1] fexit; -1 none */
	int (*link)[2];
};

/*
 * -f's @pats (NULL: none) into @k: the same choice as record -f, less
 * our own recording path, less what fentry cannot attach to: a function
 * with no BTF type (a compiler clone such as .part.0 or .isra.0, a copy
 * the compiler inlined) is skipped with a line, as a glob skips what the
 * kernel refuses.  @verbose prints the functions chosen.
 */
void bpf_kfunc_choose(const char *pats, bool verbose, struct tb_kfuncs *k);

/*
 * Before the skeleton loads: the templates @t (entry, exit) aimed at the
 * first function of @k, or not loaded at all when @k is empty.
 */
void bpf_kfunc_prepare(struct bpf_program *const t[2],
		       const struct tb_kfuncs *k);

/*
 * After it loaded: one verified copy of @t per function and kind into
 * @kp.  A function the kernel refuses programs on is dropped from @k.
 */
void bpf_kfunc_load(struct bpf_program *const t[2], struct tb_kfuncs *k,
		    struct bpf_kfunc_progs *kp, bool verbose);

/* Once the other programs run: each copy to its function, key as cookie. */
void bpf_kfunc_attach(const struct tb_kfuncs *k, struct bpf_kfunc_progs *kp);
void bpf_kfunc_detach(struct bpf_kfunc_progs *kp);

/* Calls the trampolines skipped: a program already running on the CPU. */
__u64 bpf_kfunc_misses(const struct bpf_kfunc_progs *kp);

/* Detached and closed. */
void bpf_kfunc_free(struct bpf_kfunc_progs *kp);

#endif /* TB_BPF_KFUNC_H */
