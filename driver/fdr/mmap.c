// SPDX-License-Identifier: GPL-2.0
/*
 * Zero-copy reading of /dev/tracebuf_fdr: mmap() of one CPU's ring.
 *
 * A mapping is one control page (struct tracebuf_fdr_mmap_page) followed
 * by the CPU's whole buffer, read-only.  The data pages are the ring's
 * own: TRACEBUF_FDR_IOC_MMAP_GET lends the file the CPU's closed pages
 * (fdr_stream_lend() in stream.c keeps writers and other readers off
 * them) and describes them in the file's control page; the reader writes
 * them out from the mapping and the next MMAP_GET gives them back.
 * Documentation/fdr.rst, "Zero-copy reading", is the protocol.
 *
 * Lifetime.  Every mapped page holds a reference, so a page pinned by
 * get_user_pages() (an O_DIRECT write in flight, a vmsplice()d pipe)
 * stays allocated after the ring or the file lets it go.  The mapping
 * still shows the live ring only while the ring lives: fdr_mmap_hold_off()
 * keeps a ring from being reallocated while a mapping exists, and the module
 * cannot go while one does (the mapping holds the file, the file the
 * module).  A control page belongs to its file and goes with it, after
 * the last mapping.
 *
 * Locking.  mmap() runs under the caller's mmap_lock, which the holders
 * of the capture lock take when they copy to user memory, so mmap()
 * never takes the capture lock: fdr_mmap_lock (inside the capture lock,
 * inside mmap_lock) orders it against ring reallocation and guards the
 * files' control page arrays.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/personality.h>
#include <linux/stddef.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <linux/tracebuf.h>

#include "mmap.h"
#include "ring/frontend.h"

static DEFINE_MUTEX(fdr_mmap_lock);
/* Mappings alive (vm_area_structs), any file, any CPU. */
static atomic_t fdr_mmap_count = ATOMIC_INIT(0);

static_assert(sizeof(struct tracebuf_fdr_mmap_page) <= PAGE_SIZE);
/* The same layout for 32- and 64-bit readers: no implicit padding. */
static_assert(sizeof(struct tracebuf_fdr_mmap_page) == 184);
static_assert(offsetof(struct tracebuf_fdr_mmap_page, reserved) == 152);
static_assert(sizeof(struct tracebuf_fdr_mmap_get) == 16);

/* Split, mremap and unmap keep the count of areas exact. */
static void fdr_vm_open(struct vm_area_struct *vma)
{
	atomic_inc(&fdr_mmap_count);
}

static void fdr_vm_close(struct vm_area_struct *vma)
{
	atomic_dec(&fdr_mmap_count);
}

static const struct vm_operations_struct fdr_vm_ops = {
	.open	= fdr_vm_open,
	.close	= fdr_vm_close,
};

bool fdr_mmap_hold_off(void)
{
	mutex_lock(&fdr_mmap_lock);
	if (!atomic_read(&fdr_mmap_count))
		return true;
	mutex_unlock(&fdr_mmap_lock);
	return false;
}

void fdr_mmap_allow(void)
{
	mutex_unlock(&fdr_mmap_lock);
}

/*
 * Map @len bytes of kernel memory at @kaddr (page aligned) to @addr, page
 * by page, with a reference on each.  Not as PFNs (remap_pfn_range(),
 * VM_PFNMAP): get_user_pages() refuses those, and a reader that writes
 * the lent pages with O_DIRECT, vmsplice() or io_uring must be able to
 * pin them.  The ring comes from kvmalloc(): vmalloc's order-0 pages or,
 * at TRACEBUF_FDR_BUF_MIN and above, a compound page of the page
 * allocator (kmalloc_large), never a slab page; vm_insert_page() refuses
 * slab pages, so a ring that was one would fail here, not map garbage.
 */
static int fdr_mmap_range(struct vm_area_struct *vma, unsigned long addr,
			  const void *kaddr, unsigned long len)
{
	bool vmalloced = is_vmalloc_addr(kaddr);
	unsigned long off;
	struct page *page;
	int ret;

	for (off = 0; off < len; off += PAGE_SIZE) {
		page = vmalloced ? vmalloc_to_page(kaddr + off) :
				   virt_to_page(kaddr + off);
		ret = vm_insert_page(vma, addr + off, page);
		if (ret)
			return ret;
	}
	return 0;
}

/* fdr_mmap_lock: the file's control page of @cpu, allocated if needed. */
static struct tracebuf_fdr_mmap_page *fdr_mmap_ctrl(struct fdr_mmap *m,
						    unsigned int cpu)
{
	if (!m->ctrl) {
		m->ctrl = kcalloc(nr_cpu_ids, sizeof(*m->ctrl),
				  GFP_KERNEL_ACCOUNT);
		if (!m->ctrl)
			return NULL;
	}
	if (!m->ctrl[cpu])
		m->ctrl[cpu] = (void *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
	return m->ctrl[cpu];
}

int fdr_mmap(struct fdr_mmap *m, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;
	/* mmap() offsets are below 2^64: the shift cannot overflow. */
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT, stride, cpu;
	struct tracebuf_fdr_mmap_page *ctrl;
	u32 buf;
	int ret;

	/*
	 * Writers own the ring: no way to write it, now or by mprotect(),
	 * nor to execute it -- but where 32-bit ARM makes every readable
	 * mapping executable: without an execute-never bit (ARMv5, XScale)
	 * the kernel gives processes READ_IMPLIES_EXEC, and a PROT_READ
	 * mmap() arrives with VM_EXEC that nobody asked for.
	 */
	if ((vma->vm_flags & VM_WRITE) ||
	    ((vma->vm_flags & VM_EXEC) &&
	     !(IS_ENABLED(CONFIG_ARM) &&
	       (current->personality & READ_IMPLIES_EXEC))))
		return -EPERM;
	mutex_lock(&fdr_mmap_lock);
	buf = fdr_ring_size();
	ret = -ENODEV;		/* no ring yet: CONFIG or START first */
	if (!buf)
		goto out;
	stride = TRACEBUF_FDR_MMAP_SIZE(PAGE_SIZE, buf);
	ret = -EINVAL;
	if (size != stride)
		goto out;
	cpu = div64_u64_rem(off, stride, &off);
	if (off || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		goto out;
	ret = -ENOMEM;
	ctrl = fdr_mmap_ctrl(m, cpu);
	if (!ctrl)
		goto out;
	ctrl->version = TRACEBUF_FDR_MMAP_VERSION;
	ctrl->size = sizeof(*ctrl);
	ctrl->cpu = cpu;
	ctrl->nr_pages = TRACEBUF_FDR_PAGES;
	ctrl->page_size = buf / TRACEBUF_FDR_PAGES;
	ctrl->data_offset = PAGE_SIZE;
	ctrl->data_size = buf;

	vma->vm_flags &= ~(VM_MAYWRITE | VM_MAYEXEC);
	/* A child gets no mapping: the lent pages are its parent's file's. */
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	ret = fdr_mmap_range(vma, vma->vm_start, ctrl, PAGE_SIZE);
	if (!ret)
		ret = fdr_mmap_range(vma, vma->vm_start + PAGE_SIZE,
				     fdr_ring_data(cpu), buf);
	/* On error the caller unmaps whatever was mapped. */
	if (!ret) {
		vma->vm_ops = &fdr_vm_ops;
		atomic_inc(&fdr_mmap_count);
	}
out:
	mutex_unlock(&fdr_mmap_lock);
	return ret;
}

void fdr_mmap_file_exit(struct fdr_mmap *m)
{
	unsigned int cpu;

	if (!m->ctrl)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		free_page((unsigned long)m->ctrl[cpu]);
	kfree(m->ctrl);
	m->ctrl = NULL;
}

long fdr_mmap_get(struct fdr_mmap *m, struct fdr_reader *rd,
		  const struct tracebuf_fdr_mmap_get *g, bool running,
		  u64 gen, const u8 *hdr)
{
	struct tracebuf_fdr_mmap_page *ctrl = NULL;
	bool lend = !(g->flags & TRACEBUF_FDR_MMAP_RELEASE);
	struct fdr_lend l;
	unsigned int cpu;
	u32 i;
	int n;

	mutex_lock(&fdr_mmap_lock);
	if (g->cpu < nr_cpu_ids && m->ctrl) {
		cpu = array_index_nospec(g->cpu, nr_cpu_ids);
		ctrl = m->ctrl[cpu];
	}
	mutex_unlock(&fdr_mmap_lock);
	/* Only a CPU this file mapped has a control page to describe it. */
	if (!ctrl)
		return -EINVAL;
	n = fdr_stream_lend(rd, cpu, lend, running, &l);
	ctrl->first = l.first;
	ctrl->count = l.count;
	ctrl->flags = l.eof ? TRACEBUF_FDR_MMAP_EOF : 0;
	ctrl->gen = gen;
	memcpy(ctrl->header, hdr, sizeof(ctrl->header));
	for (i = 0; i < TRACEBUF_FDR_PAGES; i++)
		ctrl->page_len[i] = 0;
	for (i = 0; i < l.count; i++) {
		u32 slot = (l.first + i) % TRACEBUF_FDR_PAGES;

		ctrl->page_len[slot] = l.len[slot];
	}
	return n;
}
