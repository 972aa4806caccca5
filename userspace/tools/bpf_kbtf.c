// SPDX-License-Identifier: GPL-2.0
/*
 * Where a kernel function's BTF type lives (bpf_kbtf.h).  vmlinux first;
 * then every kernel BTF object the kernel lists that is not vmlinux's,
 * that is one per loaded module with BTF, each loaded as split BTF on top
 * of vmlinux's so that its type ids are the ones the kernel expects with
 * the object's descriptor (attach_btf_obj_fd).  The modules are loaded
 * once, on the first function vmlinux lacks: most selections never need
 * them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "bpf_kbtf.h"

static int kbtf_add_mod(struct tb_kbtf *kb, __u32 id)
{
	struct bpf_btf_info info;
	__u32 len = sizeof(info);
	struct tb_kbtf_mod *m;
	struct btf *btf;
	char name[64];
	int fd, err;

	fd = bpf_btf_get_fd_by_id(id);
	if (fd < 0)
		/* unloaded since it was listed: not an error */
		return errno == ENOENT ? 0 : -errno;
	memset(&info, 0, sizeof(info));
	info.name = (unsigned long)name;
	info.name_len = sizeof(name);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out_close;
	}
	/* programs' own BTF, and vmlinux's, searched already */
	if (!info.kernel_btf || !strcmp(name, "vmlinux")) {
		err = 0;
		goto out_close;
	}
	btf = btf__load_from_kernel_by_id_split(id, kb->vmlinux);
	if (!btf) {
		err = errno == ENOENT ? 0 : -errno;
		goto out_close;
	}
	m = realloc(kb->mods, (kb->nr_mods + 1) * sizeof(*m));
	if (!m) {
		btf__free(btf);
		err = -ENOMEM;
		goto out_close;
	}
	kb->mods = m;
	m[kb->nr_mods].fd = fd;
	m[kb->nr_mods].btf = btf;
	kb->nr_mods++;
	return 0;
out_close:
	close(fd);
	return err;
}

static int kbtf_load_mods(struct tb_kbtf *kb)
{
	__u32 id = 0;
	int err;

	/* Once, even if it fails: the caller gives up on an error. */
	kb->mods_loaded = 1;
	while (!bpf_btf_get_next_id(id, &id)) {
		err = kbtf_add_mod(kb, id);
		if (err)
			return err;
	}
	return errno == ENOENT ? 0 : -errno;
}

int bpf_kbtf_find_func(struct tb_kbtf *kb, const char *name, int *obj_fd)
{
	unsigned int i;
	int id, err;

	*obj_fd = 0;
	if (!kb->vmlinux) {
		kb->vmlinux = btf__load_vmlinux_btf();
		if (!kb->vmlinux)
			return -errno;
	}
	id = btf__find_by_name_kind(kb->vmlinux, name, BTF_KIND_FUNC);
	if (id != -ENOENT)
		return id;
	if (!kb->mods_loaded) {
		err = kbtf_load_mods(kb);
		if (err)
			return err;
	}
	for (i = 0; i < kb->nr_mods; i++) {
		id = btf__find_by_name_kind(kb->mods[i].btf, name, BTF_KIND_FUNC);
		if (id != -ENOENT) {
			if (id > 0)
				*obj_fd = kb->mods[i].fd;
			return id;
		}
	}
	return -ENOENT;
}

void bpf_kbtf_free(struct tb_kbtf *kb)
{
	unsigned int i;

	for (i = 0; i < kb->nr_mods; i++) {
		btf__free(kb->mods[i].btf);
		close(kb->mods[i].fd);
	}
	free(kb->mods);
	btf__free(kb->vmlinux);
	memset(kb, 0, sizeof(*kb));
}
