/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel functions' BTF for fentry/fexit: a function of vmlinux has its
 * type in vmlinux's BTF, a function of a loaded module in that module's
 * BTF object, which a program attaching to it must name by descriptor.
 */
#ifndef TB_BPF_KBTF_H
#define TB_BPF_KBTF_H

struct btf;

/**
 * struct tb_kbtf - the kernel's BTF objects, loaded as they are needed
 * @vmlinux: vmlinux's BTF, the base of every module's
 * @mods: the modules' BTF objects, loaded on the first function that is
 *	not in vmlinux
 * @nr_mods: entries of @mods
 * @mods_loaded: @mods was filled
 */
struct tb_kbtf {
	struct btf *vmlinux;
	struct tb_kbtf_mod {
		int fd;
		struct btf *btf;
	} *mods;
	unsigned int nr_mods;
	int mods_loaded;
};

/**
 * bpf_kbtf_find_func() - the BTF type a program attaches to for a function
 * @kb: the cache, zeroed before the first call
 * @name: the kernel function
 * @obj_fd: set to the module's BTF object descriptor (owned by @kb), or to
 *	0 for a function of vmlinux
 *
 * Return: the BTF type id of the function, or a negative errno: -ENOENT
 * if neither vmlinux nor a loaded module has BTF for it.
 */
int bpf_kbtf_find_func(struct tb_kbtf *kb, const char *name, int *obj_fd);

/** bpf_kbtf_free() - close what @kb loaded; @kb may be used again. */
void bpf_kbtf_free(struct tb_kbtf *kb);

#endif /* TB_BPF_KBTF_H */
