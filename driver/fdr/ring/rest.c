// SPDX-License-Identifier: GPL-2.0
/*
 * The rest of a block a file had begun to read when CONFIG or START took
 * the capture away: copied out of the ring first, so that the file's
 * output still ends with whole blocks (read before its EOF:
 * fdr_rest_read()).  Serialised throughout.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ring_internal.h"

/*
 * Copy @n bytes at @off of page @seq of @c into @r, the FDR_META_SIZE
 * bytes at @patch_at from @patch, as fdr_ring_copy_out() does.  Only
 * while no writer can reach the page: it is closed and held by the file,
 * or the capture is stopped.
 */
int fdr_rest_save(struct fdr_rest *r, struct fdr_cpu *c, unsigned long seq,
		  u32 off, u32 n, u32 patch_at, const u8 *patch)
{
	const u8 *page = fdr_page_ptr(c, seq);
	u32 lo, hi;

	fdr_rest_free(r);
	if (!n)
		return 0;
	/* At most a page, charged to the caller, as the rings are. */
	r->buf = kvmalloc(n, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			  __GFP_NOWARN);
	if (!r->buf)
		return -ENOMEM;
	memcpy(r->buf, page + off, n);
	if (patch_at != FDR_NO_BLOCK) {
		lo = max(off, patch_at);
		hi = min(off + n, patch_at + FDR_META_SIZE);
		if (lo < hi)
			memcpy(r->buf + (lo - off), patch + (lo - patch_at),
			       hi - lo);
	}
	r->len = n;
	r->off = 0;
	return 0;
}

ssize_t fdr_rest_read(struct fdr_rest *r, char __user *buf, size_t count)
{
	size_t n = min_t(size_t, r->len - r->off, count);

	if (copy_to_user(buf, r->buf + r->off, n))
		return -EFAULT;
	r->off += n;
	if (r->off == r->len)
		fdr_rest_free(r);
	return n;
}

void fdr_rest_free(struct fdr_rest *r)
{
	kvfree(r->buf);
	/* poll() looks without the caller's lock (fdr_rest_pending()). */
	WRITE_ONCE(r->buf, NULL);
	r->len = 0;
	r->off = 0;
}
