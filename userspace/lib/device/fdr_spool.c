// SPDX-License-Identifier: GPL-2.0
/* The mapped reader's spool file; see device/fdr_spool.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "device/fdr_spool.h"
#include "util/buf.h"

static int set_direct(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_DIRECT : fl & ~O_DIRECT;
	return fcntl(fd, F_SETFL, fl) ? -errno : 0;
}

void tb_fdr_spool_init(struct tb_fdr_spool *s, int fd, size_t page_size,
		       bool direct)
{
	long ps = sysconf(_SC_PAGESIZE);

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->page_size = page_size;
	/* tmpfs has no O_DIRECT: EINVAL here, and plain writes. */
	s->direct = direct && ps > 0 && page_size &&
		    page_size % (size_t)ps == 0 && !set_direct(fd, true);
}

void tb_fdr_spool_init_mem(struct tb_fdr_spool *s, struct tb_buf *mem,
			   size_t page_size)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->mem = mem;
	s->page_size = page_size;
}

void tb_fdr_spool_header(struct tb_fdr_spool *s, const void *header)
{
	memcpy(s->header, header, sizeof(s->header));
	if (!s->has_header)
		s->bytes += sizeof(s->header);
	s->has_header = true;
}

/* Write @iov whole, appending (@off < 0) or at @off. */
static int write_iov(int fd, struct iovec *iov, int n, off_t off)
{
	ssize_t w;

	for (;;) {
		/* Empty pages write nothing: no call, and 0 means an error. */
		while (n && !iov->iov_len) {
			iov++;
			n--;
		}
		if (!n)
			break;
		w = off < 0 ? writev(fd, iov, n) : pwritev(fd, iov, n, off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* Nothing written, no error: never spin on it. */
		if (!w)
			return -EIO;
		if (off >= 0)
			off += w;
		while (n && (size_t)w >= iov->iov_len) {
			w -= iov->iov_len;
			iov++;
			n--;
		}
		if (n) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= w;
		}
	}
	return 0;
}

/* Whole pages at (nr + 1) * page_size; their lengths kept. */
static int write_direct(struct tb_fdr_spool *s, const void *const *pages,
			const uint32_t *lens, unsigned int n)
{
	struct iovec iov[TB_FDR_SPOOL_WRITE_PAGES];
	unsigned int i;
	int ret;

	if (tb_buf_array_grow(&s->lens, &s->cap, s->nr + n, sizeof(*s->lens)))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		iov[i].iov_base = (void *)pages[i];
		iov[i].iov_len = s->page_size;
	}
	ret = write_iov(s->fd, iov, n, (off_t)((s->nr + 1) * s->page_size));
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		s->lens[s->nr++] = lens[i];
		s->bytes += lens[i];
	}
	return 0;
}

/* write_appended() to memory: all or nothing. */
static int append_mem(struct tb_fdr_spool *s, const struct iovec *iov,
		      int n)
{
	size_t len = 0, at = s->mem->len;
	int i;

	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	if (tb_buf_reserve(s->mem, len))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		memcpy((char *)s->mem->data + at, iov[i].iov_base,
		       iov[i].iov_len);
		at += iov[i].iov_len;
	}
	s->mem->len = at;
	return 0;
}

/* The stream as it is: the header once, then the pages' bytes. */
static int write_appended(struct tb_fdr_spool *s, const void *const *pages,
			  const uint32_t *lens, unsigned int n)
{
	struct iovec iov[TB_FDR_SPOOL_WRITE_PAGES + 1];
	unsigned int i;
	int k = 0, ret;

	if (s->has_header && !s->header_written) {
		iov[k].iov_base = s->header;
		iov[k++].iov_len = sizeof(s->header);
	}
	for (i = 0; i < n; i++) {
		iov[k].iov_base = (void *)pages[i];
		iov[k++].iov_len = lens[i];
	}
	if (s->mem)
		ret = append_mem(s, iov, k);
	else
		ret = k ? write_iov(s->fd, iov, k, -1) : 0;
	if (ret)
		return ret;
	s->header_written = s->has_header;
	for (i = 0; i < n; i++)
		s->bytes += lens[i];
	return 0;
}

/* At most TB_FDR_SPOOL_WRITE_PAGES pages: one write. */
static int write_pages(struct tb_fdr_spool *s, const void *const *pages,
		       const uint32_t *lens, unsigned int n)
{
	int ret;

	if (s->direct) {
		ret = write_direct(s, pages, lens, n);
		/*
		 * A file system may take O_DIRECT at fcntl() and refuse the
		 * write (alignment it needs beyond the page): with nothing
		 * written yet, fall back to plain writes.
		 */
		if (ret != -EINVAL || s->nr)
			return ret;
		ret = set_direct(s->fd, false);
		if (ret)
			return ret;
		s->direct = false;
	}
	return write_appended(s, pages, lens, n);
}

int tb_fdr_spool_pages(struct tb_fdr_spool *s, const void *const *pages,
		       const uint32_t *lens, unsigned int n)
{
	unsigned int i, k;
	int ret;

	for (i = 0; i < n; i++)
		if (lens[i] > s->page_size)
			return -EPROTO;
	if (s->direct && !s->has_header)
		return -EINVAL;
	/* Appended, nothing to write but a header still to write: write it. */
	if (!n) {
		ret = s->direct ? 0 : write_appended(s, pages, lens, 0);
		goto out;
	}
	for (i = 0; i < n; i += k) {
		k = n - i < TB_FDR_SPOOL_WRITE_PAGES ? n - i :
						       TB_FDR_SPOOL_WRITE_PAGES;
		ret = write_pages(s, pages + i, lens + i, k);
		if (ret)
			break;
	}
out:
	if (ret && ret != -ENOMEM)
		s->write_errno = -ret;
	return ret;
}

/*
 * Move the pages' bytes together behind the header.  Page k's bytes go to
 * header + the lengths before it, never past (k + 1) * page_size + 32 <=
 * (k + 2) * page_size, so nothing is overwritten before it is read.
 */
static int compact(struct tb_fdr_spool *s)
{
	uint64_t at = sizeof(s->header);
	uint8_t *buf;
	size_t k;
	ssize_t n;
	int ret = 0;

	buf = malloc(s->page_size);
	if (!buf)
		return -ENOMEM;
	for (k = 0; k < s->nr && !ret; k++) {
		n = pread(s->fd, buf, s->lens[k],
			  (off_t)((k + 1) * s->page_size));
		if (n == (ssize_t)s->lens[k])
			n = pwrite(s->fd, buf, s->lens[k], (off_t)at);
		if (n != (ssize_t)s->lens[k])
			ret = n < 0 ? -errno : -EIO;
		at += s->lens[k];
	}
	free(buf);
	if (!ret) {
		n = pwrite(s->fd, s->header, sizeof(s->header), 0);
		if (n != (ssize_t)sizeof(s->header))
			ret = n < 0 ? -errno : -EIO;
	}
	return ret;
}

int tb_fdr_spool_finish(struct tb_fdr_spool *s, uint64_t *len)
{
	int ret = 0;

	if (s->direct) {
		ret = set_direct(s->fd, false);
		if (!ret && s->has_header)
			ret = compact(s);
		if (!ret && ftruncate(s->fd, (off_t)s->bytes))
			ret = -errno;
	}
	free(s->lens);
	s->lens = NULL;
	s->nr = s->cap = 0;
	*len = s->bytes;
	return ret;
}
