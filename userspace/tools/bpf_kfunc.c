// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf bpf's kernel functions (bpf_kfunc.h): the functions -f
 * chooses, less those fentry cannot take, and their fentry and fexit
 * programs, one verified copy of the skeleton's templates per function,
 * loaded, attached, counted and closed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <linux/types.h>
#include <linux/tracebuf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_kbtf.h"
#include "bpf_kfunc.h"
#include "cli/cli.h"
#include "collect/fdr_bpf.h"
#include "device/kfunc.h"
#include "tool.h"

/*
 * Drop k->names[i], which fentry cannot take, saying why; the rest keep
 * their order (a function's id is its index, assigned once this is done).
 */
static void bpf_kfunc_skip(struct tb_kfuncs *k, size_t i, const char *why)
{
	tb_cli_warn("kernel function '%s' skipped: %s", k->names[i], why);
	free(k->names[i]);
	memmove(&k->names[i], &k->names[i + 1],
		(k->n - i - 1) * sizeof(*k->names));
	k->n--;
}

/* After bpf_kfunc_skip(): the count, or the end when nothing is left. */
static void bpf_kfunc_skipped(const struct tb_kfuncs *k, size_t chosen)
{
	if (k->n == chosen)
		return;
	if (!k->n)
		tool_die(TB_EXIT_FAIL, "none of the %zu kernel functions -f chose can be traced with fentry",
			 chosen);
	tb_cli_warn("%zu of %zu kernel functions skipped; tracing %zu", chosen - k->n,
		    chosen, k->n);
}

void bpf_kfunc_choose(const char *pats, bool verbose, struct tb_kfuncs *k)
{
	struct tb_kbtf kbtf = { 0 };
	struct tb_error err;
	size_t i, chosen;
	int obj_fd;

	if (!pats)
		return;
	if (tb_kfunc_select_kernel(pats, &tb_fdr_bpf_kfunc_deny,
				   TRACEBUF_FDR_KFUNC_MAX, k, &err))
		tool_die(TB_EXIT_USAGE, "%s", err.msg);
	chosen = k->n;
	for (i = 0; i < k->n;) {
		if (bpf_kbtf_find_func(&kbtf, k->names[i], &obj_fd) >= 0)
			i++;
		else
			bpf_kfunc_skip(k, i,
				       "no BTF type for it in vmlinux or a loaded module (a compiler clone, or inlined): fentry cannot attach to it");
	}
	bpf_kbtf_free(&kbtf);
	bpf_kfunc_skipped(k, chosen);
	if (verbose)
		tb_kfunc_print(k);
}

/* The kernel's ENOTSUPP (not in the uapi), what a trampoline refuses with. */
#define ENOTSUPP_ERRNO	524
/*
 * Why: on x86 a function with more register arguments than a trampoline
 * passes; on arm64 every kernel function, as 6.1 cannot attach a
 * trampoline through ftrace there (direct calls came in 6.4).
 */
#ifdef __aarch64__
#define ENOTSUPP_WHY	" (arm64 kernels before 6.4 cannot attach BPF trampolines to kernel functions; tracebuf record -f can)"
#else
#define ENOTSUPP_WHY	" (BPF trampolines take at most 6 register arguments)"
#endif

static const enum bpf_attach_type bpf_kfunc_types[2] = {
	BPF_TRACE_FENTRY, BPF_TRACE_FEXIT
};

static void bpf_kfunc_die_no_btf(const char *name, int err)
{
	tool_die(TB_EXIT_FAIL,
		 "kernel function '%s': no BTF type for it in vmlinux or a loaded module (%s): fentry cannot attach to it",
		 name, strerror(-err));
}

void bpf_kfunc_prepare(struct bpf_program *const t[2],
		       const struct tb_kfuncs *k)
{
	struct rlimit rl;
	int i, err;

	for (i = 0; i < 2; i++) {
		/* Attached by bpf_kfunc_attach(), with a cookie. */
		bpf_program__set_autoattach(t[i], false);
		if (!k->n) {
			bpf_program__set_autoload(t[i], false);
			continue;
		}
		err = bpf_program__set_attach_target(t[i], 0, k->names[0]);
		if (err)
			bpf_kfunc_die_no_btf(k->names[0], err);
	}
	/* Four descriptors per function; 512 functions pass the usual 1024. */
	if (k->n && !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

void bpf_kfunc_load(struct bpf_program *const t[2], struct tb_kfuncs *k,
		    struct bpf_kfunc_progs *kp, bool verbose)
{
	static char log[1 << 16];
	struct tb_kbtf kbtf = { 0 };
	size_t i, chosen;
	char why[200];
	int j;

	kp->n = k->n;
	kp->prog = calloc(k->n ? k->n : 1, sizeof(*kp->prog));
	kp->link = calloc(k->n ? k->n : 1, sizeof(*kp->link));
	if (!kp->prog || !kp->link)
		tool_die(TB_EXIT_FAIL, "out of memory");
	memset(kp->prog, 0xff, k->n * sizeof(*kp->prog));
	memset(kp->link, 0xff, k->n * sizeof(*kp->link));
	chosen = k->n;
	for (i = 0; i < k->n;) {
		int obj_fd, id = bpf_kbtf_find_func(&kbtf, k->names[i], &obj_fd);

		if (id < 0)
			bpf_kfunc_die_no_btf(k->names[i], id);
		for (j = 0; j < 2; j++) {
			LIBBPF_OPTS(bpf_prog_load_opts, lo,
				    .expected_attach_type = bpf_kfunc_types[j],
				    .attach_btf_id = id,
				    .attach_btf_obj_fd = obj_fd,
				    .log_buf = verbose ? log : NULL,
				    .log_size = verbose ? sizeof(log) : 0,
				    .log_level = verbose ? 1 : 0);
			int fd;

			fd = bpf_prog_load(BPF_PROG_TYPE_TRACING,
					   j ? "tb_kfunc_exit" : "tb_kfunc_entry",
					   "GPL", bpf_program__insns(t[j]),
					   bpf_program__insn_cnt(t[j]), &lo);
			if (fd < 0) {
				if (verbose)
					fprintf(stderr, "%s", log);
				snprintf(why, sizeof(why),
					 "the kernel refuses %s programs on it: %s%s",
					 j ? "fexit" : "fentry", strerror(errno),
					 verbose ? "" : " (-v shows the verifier's log)");
				break;
			}
			kp->prog[i][j] = fd;
		}
		if (j == 2) {
			i++;
			continue;
		}
		if (kp->prog[i][0] >= 0)
			close(kp->prog[i][0]);
		memmove(&kp->prog[i], &kp->prog[i + 1],
			(k->n - i - 1) * sizeof(*kp->prog));
		bpf_kfunc_skip(k, i, why);
	}
	kp->n = k->n;
	bpf_kfunc_skipped(k, chosen);
	/* The programs hold the module BTF they attach to; ours can go. */
	bpf_kbtf_free(&kbtf);
}

void bpf_kfunc_attach(const struct tb_kfuncs *k, struct bpf_kfunc_progs *kp)
{
	size_t i;
	int j;

	for (i = 0; i < kp->n; i++)
		for (j = 0; j < 2; j++) {
			LIBBPF_OPTS(bpf_link_create_opts, lo,
				    .tracing.cookie = i);
			int fd = bpf_link_create(kp->prog[i][j], 0,
						 bpf_kfunc_types[j], &lo);

			if (fd < 0)
				tool_die(TB_EXIT_FAIL,
					 "kernel function '%s': cannot attach %s: %s%s",
					 k->names[i], j ? "fexit" : "fentry",
					 strerror(errno),
					 errno == ENOTSUPP_ERRNO ? ENOTSUPP_WHY : "");
			kp->link[i][j] = fd;
		}
}

void bpf_kfunc_detach(struct bpf_kfunc_progs *kp)
{
	size_t i;
	int j;

	for (i = 0; i < kp->n; i++)
		for (j = 0; j < 2; j++)
			if (kp->link[i][j] >= 0) {
				close(kp->link[i][j]);
				kp->link[i][j] = -1;
			}
}

__u64 bpf_kfunc_misses(const struct bpf_kfunc_progs *kp)
{
	__u64 n = 0;
	size_t i;
	int j;

	for (i = 0; i < kp->n; i++)
		for (j = 0; j < 2; j++) {
			struct bpf_prog_info info;
			__u32 len = sizeof(info);

			memset(&info, 0, sizeof(info));
			if (kp->prog[i][j] >= 0 &&
			    !bpf_obj_get_info_by_fd(kp->prog[i][j], &info, &len))
				n += info.recursion_misses;
		}
	return n;
}

void bpf_kfunc_free(struct bpf_kfunc_progs *kp)
{
	size_t i;
	int j;

	bpf_kfunc_detach(kp);
	for (i = 0; i < kp->n; i++)
		for (j = 0; j < 2; j++)
			if (kp->prog[i][j] >= 0)
				close(kp->prog[i][j]);
	free(kp->prog);
	free(kp->link);
}
