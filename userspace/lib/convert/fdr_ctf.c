// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR -> CTF: convert/fdr_merge.c puts the trace's events in time
 * order, convert/fdr_ctf_event.c writes each as CTF events.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "convert/fdr_ctf.h"
#include "convert/fdr_ctf_event.h"
#include "format/fdr_marks.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/hash.h"

/* The clock's zero from the Epoch, as the metadata's clock offset. */
static void cv_clock(struct cv_ctx *c)
{
	c->meta.freq = c->m.freq;
	c->meta.has_wall = tb_fdr_merge_wall_zero(&c->m, &c->meta.offset_s,
						  &c->meta.offset);
}

static int cv_write(void *ctx, const struct tb_fdr_merge_cursor *k)
{
	return tb_fdr_ctf_event_write(ctx, k);
}

/* A random uuid, as every LTTng session has its own. */
static void cv_uuid(uint8_t u[16])
{
	FILE *f = fopen("/dev/urandom", "rb");
	size_t i;

	if (!f || fread(u, 1, 16, f) != 16)
		for (i = 0; i < 16; i++)
			u[i] = (uint8_t)(rand() >> 3);
	if (f)
		fclose(f);
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

/* DIR/kernel; -EEXIST when it holds a trace: never mix two. */
static int cv_kdir(const char *dir, char *kdir, size_t size)
{
	char meta[4200];
	struct stat sb;

	if ((size_t)snprintf(kdir, size, "%s/kernel", dir) >= size)
		return -ENAMETOOLONG;
	snprintf(meta, sizeof(meta), "%s/metadata", kdir);
	if (!stat(meta, &sb))
		return -EEXIST;
	return 0;
}

/* Create DIR and DIR/kernel; @made says which, for cv_undo(). */
static int cv_mkdirs(const char *dir, const char *kdir, unsigned int *made)
{
	*made = 0;
	if (!mkdir(dir, 0777))
		*made |= 1;
	else if (errno != EEXIST)
		return -errno;
	if (!mkdir(kdir, 0777))
		*made |= 2;
	else if (errno != EEXIST)
		return -errno;
	return 0;
}

/* After a failure: no half trace left behind. */
static void cv_undo(struct cv_ctx *c, const char *dir, unsigned int made)
{
	char path[4200];
	size_t i;

	for (i = 0; i < c->ncpus; i++) {
		if (!c->streams[i].created)
			continue;
		snprintf(path, sizeof(path), "%s/channel0_%zu", c->dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/metadata", c->dir);
	unlink(path);
	if (made & 2)
		rmdir(c->dir);
	if (made & 1)
		rmdir(dir);
}

int tb_fdr_ctf_write(FILE *in, const char *dir,
		     const struct tb_fdr_ctf_opts *o,
		     struct tb_fdr_ctf_stats *st, struct tb_error *err)
{
	struct tb_fdr_ctf_stats local;
	struct cv_ctx c = { .o = o };
	char kdir[4096], path[4200];
	unsigned int made = 0;
	FILE *meta;
	size_t i;
	int ret;

	c.st = st ? st : &local;
	memset(c.st, 0, sizeof(*c.st));
	ret = cv_kdir(dir, kdir, sizeof(kdir));
	if (ret)
		return ret;
	c.dir = kdir;
	ret = tb_fdr_merge_scan(&c.m, in, o->names, err);
	if (ret)
		goto out;
	c.st->runs = c.m.nruns;
	c.st->rets_unmatched = c.m.rets_unmatched;
	c.st->malformed = c.m.malformed;
	ret = cv_mkdirs(dir, kdir, &made);
	if (ret)
		goto out;
	cv_uuid(c.meta.uuid);
	cv_clock(&c);
	c.meta.hostname = o->hostname;
	c.meta.kernel_release = o->kernel_release;
	c.meta.source = o->source;
	ret = tb_fdr_merge_run(&c.m, cv_write, &c);
	for (i = 0; i < c.ncpus; i++) {
		if (!c.streams[i].f)
			continue;
		if (!ret)
			ret = tb_ctf_stream_close(&c.streams[i], c.meta.uuid);
		else
			tb_ctf_stream_free(&c.streams[i]);
	}
	if (ret)
		goto out;
	snprintf(path, sizeof(path), "%s/metadata", kdir);
	meta = fopen(path, "w");
	if (!meta) {
		ret = -errno;
		goto out;
	}
	ret = tb_ctf_meta_write(meta, &c.meta, &c.classes);
	if (fclose(meta) && !ret)
		ret = -EIO;
out:
	if (ret)
		cv_undo(&c, dir, made);
	for (i = 0; i < c.ncpus; i++)
		tb_ctf_stream_free(&c.streams[i]);
	free(c.streams);
	free(c.current);
	tb_fdr_merge_free(&c.m);
	tb_ctf_class_free(&c.classes);
	tb_buf_free(&c.ev);
	return ret;
}
