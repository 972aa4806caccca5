/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zero-copy reading (mmap.c): a CPU's ring mapped read-only, its closed
 * pages lent by TRACEBUF_FDR_IOC_MMAP_GET.
 */
#ifndef _FDR_MMAP_H
#define _FDR_MMAP_H

#include <linux/types.h>

#include "ring/frontend.h"

struct tracebuf_fdr_mmap_get;
struct tracebuf_fdr_mmap_page;

struct vm_area_struct;

/**
 * struct fdr_mmap - a file's mappings of the rings
 * @ctrl:	per possible CPU, the control page of the file's mapping of
 *		that CPU, allocated at its first mmap() and kept until the
 *		file is released (every mapping is gone by then)
 */
struct fdr_mmap {
	struct tracebuf_fdr_mmap_page **ctrl;
};

/* Any context that may sleep: map one CPU's ring for the file of @m. */
int fdr_mmap(struct fdr_mmap *m, struct vm_area_struct *vma);
/* Release of the file. */
void fdr_mmap_file_exit(struct fdr_mmap *m);
/*
 * The capture lock, stopped, before the rings are reallocated: false if a file
 * maps them (the caller refuses with EBUSY); true if none does, and then
 * no file can map them until fdr_mmap_allow().
 */
bool fdr_mmap_hold_off(void);
void fdr_mmap_allow(void);
/*
 * The capture lock, streaming mode: TRACEBUF_FDR_IOC_MMAP_GET for the file of
 * @m and @rd, in capture @gen with file header @hdr.
 */
long fdr_mmap_get(struct fdr_mmap *m, struct fdr_reader *rd,
		  const struct tracebuf_fdr_mmap_get *g, bool running,
		  u64 gen, const u8 *hdr);

#endif /* _FDR_MMAP_H */
