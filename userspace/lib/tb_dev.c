// SPDX-License-Identifier: GPL-2.0
/* Device helpers shared by the tracebuf tools; see tb_dev.h. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tb_cli.h"
#include "tb_dev.h"

int tb_dev_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	switch (errno) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		tb_die_errno(TB_EXIT_FAIL, "cannot open %s (is the tracebuf module loaded?)",
			     path);
	case EPERM:
	case EACCES:
		tb_die_errno(TB_EXIT_FAIL,
			     "cannot open %s (needs CAP_PERFMON or CAP_SYS_ADMIN, and no perf lockdown)",
			     path);
	default:
		tb_die_errno(TB_EXIT_FAIL, "cannot open %s", path);
	}
}

int tb_record_write(FILE *f, const struct tracebuf_record *hdr,
		    const void *data)
{
	struct tracebuf_record le;

	memset(&le, 0, sizeof(le));
	le.magic = htole32(hdr->magic);
	le.version = htole16(hdr->version);
	le.hdr_size = htole16(sizeof(le));
	le.chkpt0 = htole32(hdr->chkpt0);
	le.chkpt1 = htole32(hdr->chkpt1);
	le.flags = htole32(hdr->flags);
	le.buf_size = htole32(hdr->buf_size);
	le.seq = htole64(hdr->seq);
	le.lost_before = htole64(hdr->lost_before);
	if (fwrite(&le, sizeof(le), 1, f) != 1 ||
	    fwrite(data, 1, hdr->buf_size, f) != hdr->buf_size)
		return -1;
	return 0;
}
