// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR -> CTF: see convert/fdr_ctf.h for the two passes.  The first
 * (cv_scan) writes items, the second (cv_merge) writes CTF events.
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

static int cv_put(struct cv_ctx *c, const struct cv_item *it,
		  const uint64_t *args, const void *data)
{
	struct cv_run *r;

	if (c->new_run || it->tsc < c->last_tsc || !c->nruns) {
		if (tb_buf_array_grow(&c->runs, &c->runcap, c->nruns + 1,
				      sizeof(*c->runs)))
			return -ENOMEM;
		c->runs[c->nruns++] = (struct cv_run){ c->tmp_len, c->tmp_len };
		c->new_run = false;
	}
	c->last_tsc = it->tsc;
	if (!c->has_first || it->tsc < c->first)
		c->first = it->tsc;
	if (!c->has_first || it->tsc > c->last)
		c->last = it->tsc;
	c->has_first = true;
	if (fwrite(it, sizeof(*it), 1, c->tmp) != 1 ||
	    (it->nargs && fwrite(args, 8, it->nargs, c->tmp) != it->nargs) ||
	    (it->len && fwrite(data, 1, it->len, c->tmp) != it->len))
		return errno ? -errno : -EIO;
	c->tmp_len += sizeof(*it) + 8ULL * it->nargs + it->len;
	r = &c->runs[c->nruns - 1];
	r->end = c->tmp_len;
	return 0;
}

static void cv_item_of(struct cv_item *it, const struct tb_fdr_record *r,
		       unsigned int kind)
{
	memset(it, 0, sizeof(*it));
	it->tsc = r->tsc;
	it->tid = r->tid;
	it->pid = r->pid;
	it->cpu = r->cpu;
	it->kind = (uint8_t)kind;
}



static void cv_call(void *ctx, const struct tb_fdr_call *call)
{
	struct cv_ctx *c = ctx;
	const struct tb_fdr_record *r = &call->rec;
	uint32_t space = TRACEBUF_FDR_ID_SPACE(tb_fdr_ctf_event_kid(c, r->func_id));
	bool exit = r->func_type == TB_FDR_EXIT || r->func_type == TB_FDR_TAIL_EXIT;
	struct cv_task *t;
	struct cv_item it;
	int ret;

	if (c->err)
		return;
	/* A point event is its entry; its exit, at the same time, says nothing. */
	if (exit && (space == TRACEBUF_FDR_SPACE_FAULT ||
		     space == TRACEBUF_FDR_SPACE_TASK))
		return;
	cv_item_of(&it, r, exit ? IT_EXIT : IT_ENTER);
	it.id = r->func_id;
	it.nargs = (uint8_t)call->nargs;
	if (!exit && space == TRACEBUF_FDR_SPACE_TASK && call->nargs &&
	    TRACEBUF_FDR_ID_KEY(tb_fdr_ctf_event_kid(c, r->func_id)) == 0) {
		t = tb_fdr_ctf_event_task(c, (int32_t)call->args[0]);
		if (!t) {
			c->err = -ENOMEM;
			return;
		}
		t->forked = true;
	}
	ret = cv_put(c, &it, call->args, NULL);
	if (ret)
		c->err = ret;
}

/* "tracebuf: lost N events": N, or 0 for any other text. */
static uint64_t cv_lost(const struct tb_fdr_record *r)
{
	size_t plen = strlen(TRACEBUF_FDR_LOST_PREFIX);
	unsigned long long n = 0;
	char text[64];
	size_t len = r->size > 0 ? (size_t)r->size : 0;
	int k = 0;

	if (len <= plen || len >= sizeof(text) ||
	    memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX, plen))
		return 0;
	memcpy(text, r->data, len);
	text[len] = 0;
	if (sscanf(text + plen, "%llu events%n", &n, &k) != 1 ||
	    (size_t)k != len - plen)
		return 0;
	return n;
}

/* A command name record: names its task, no event of its own. */
static bool cv_comm(struct cv_ctx *c, const struct tb_fdr_record *r)
{
	const size_t pre = strlen(TRACEBUF_FDR_COMM_PREFIX);
	struct cv_task *t;
	size_t n, i;

	if (r->size <= (int32_t)pre || memcmp(r->data, TRACEBUF_FDR_COMM_PREFIX, pre))
		return false;
	t = tb_fdr_ctf_event_task(c, r->tid);
	if (!t) {
		c->err = -ENOMEM;
		return true;
	}
	n = (size_t)r->size - pre;
	if (n > TB_CTF_COMM_LEN - 1)
		n = TB_CTF_COMM_LEN - 1;
	for (i = 0; i < n; i++) {
		uint8_t ch = r->data[pre + i];

		t->comm[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '.';
	}
	t->comm[n] = 0;
	return true;
}

static int cv_header(void *ctx, const struct tb_fdr_header *h)
{
	struct cv_ctx *c = ctx;

	c->freq = h->cycle_frequency ? h->cycle_frequency : 1000000000ULL;
	return 0;
}

static int cv_scan(void *ctx, const struct tb_fdr_record *r)
{
	struct cv_ctx *c = ctx;
	struct cv_item it;
	struct cv_task *t;
	uint64_t n;

	if (r->ignored)
		return 0;
	switch (r->kind) {
	case TB_FDR_NEW_BUFFER:
		c->new_run = true;
		break;
	case TB_FDR_WALLCLOCK:
		if (!c->has_wall) {
			c->wall_s = r->value;
			c->wall_us = r->micros;
			c->wall_pending = true;
		}
		break;
	case TB_FDR_NEW_CPU:
		if (c->wall_pending) {
			c->wall_tsc = r->tsc;
			c->wall_pending = false;
			c->has_wall = true;
		}
		break;
	}
	if (r->kind == TB_FDR_FUNCTION || r->kind == TB_FDR_CUSTOM ||
	    r->kind == TB_FDR_TYPED) {
		t = tb_fdr_ctf_event_task(c, r->tid);
		if (!t)
			return -ENOMEM;
		t->pid = r->pid;
	}
	if (tb_fdr_reader_call_feed(&c->call, r, cv_call, c))
		return c->err;
	if (r->kind == TB_FDR_CUSTOM && !tb_fdr_marks_is_start(r) &&
	    !cv_comm(c, r)) {
		n = cv_lost(r);
		cv_item_of(&it, r, n ? IT_LOST : IT_MARKER);
		if (n) {
			it.nargs = 1;
			c->err = cv_put(c, &it, &n, NULL);
			return c->err;
		}
		it.len = (uint32_t)r->size;
		c->err = cv_put(c, &it, NULL, r->data);
	} else if (r->kind == TB_FDR_TYPED) {
		cv_item_of(&it, r, IT_TYPED);
		it.id = r->event_type;
		it.len = (uint32_t)r->size;
		c->err = cv_put(c, &it, NULL, r->data);
	}
	return c->err;
}

/* ---- cursors over the runs ---- */

static int cur_fill(struct cv_ctx *c, struct cv_cursor *k, uint64_t off)
{
	uint64_t want = k->end - off;
	ssize_t n;

	if (want > k->win_cap)
		want = k->win_cap;
	n = pread(fileno(c->tmp), k->win, want, (off_t)off);
	if (n < 0)
		return -errno;
	if ((uint64_t)n != want)
		return -EIO;
	k->win_off = off;
	k->win_len = (size_t)n;
	return 0;
}

/* Copy @n bytes at k->off to @dst, advancing. */
static int cur_read(struct cv_ctx *c, struct cv_cursor *k, void *dst, size_t n)
{
	ssize_t got;
	int ret;

	if (k->off + n > k->end)
		return -EIO;
	if (n > k->win_cap) {
		got = pread(fileno(c->tmp), dst, n, (off_t)k->off);
		if (got < 0 || (size_t)got != n)
			return got < 0 ? -errno : -EIO;
		k->off += n;
		return 0;
	}
	if (k->off < k->win_off || k->off + n > k->win_off + k->win_len) {
		ret = cur_fill(c, k, k->off);
		if (ret)
			return ret;
	}
	memcpy(dst, k->win + (k->off - k->win_off), n);
	k->off += n;
	return 0;
}

/* The cursor's next item, or 1 at the run's end. */
static int cur_next(struct cv_ctx *c, struct cv_cursor *k)
{
	int ret;

	if (k->off >= k->end)
		return 1;
	ret = cur_read(c, k, &k->it, sizeof(k->it));
	if (!ret && k->it.nargs > TB_FDR_CALL_MAX_ARGS)
		ret = -EIO;
	if (!ret && k->it.nargs)
		ret = cur_read(c, k, k->args, 8U * k->it.nargs);
	if (ret)
		return ret;
	k->data.len = 0;
	if (k->it.len && !tb_buf_add(&k->data, k->it.len))
		return -ENOMEM;
	if (k->it.len)
		ret = cur_read(c, k, k->data.data, k->it.len);
	return ret;
}

/* ---- the heap of cursors: earliest item first, ties in run order ---- */

static bool heap_less(struct cv_cursor **h, size_t a, size_t b)
{
	if (h[a]->it.tsc != h[b]->it.tsc)
		return h[a]->it.tsc < h[b]->it.tsc;
	return h[a] < h[b];
}

static void heap_down(struct cv_cursor **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct cv_cursor *t;

		if (l < n && heap_less(h, l, m))
			m = l;
		if (l + 1 < n && heap_less(h, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}


static int cv_merge(struct cv_ctx *c)
{
	size_t runs = c->nruns ? c->nruns : 1, win = CV_WINDOW;
	struct cv_cursor *cur, **heap;
	uint8_t *wins = NULL;
	size_t i, n = 0;
	int ret = 0;

	if (runs * win > CV_WINDOWS_MAX)
		win = CV_WINDOWS_MAX / runs > CV_WINDOW_MIN ?
		      CV_WINDOWS_MAX / runs : CV_WINDOW_MIN;
	cur = calloc(runs, sizeof(*cur));
	heap = calloc(runs, sizeof(*heap));
	wins = malloc(runs * win);
	if (!cur || !heap || !wins) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c->nruns && !ret; i++) {
		cur[i].win = wins + i * win;
		cur[i].win_cap = win;
		cur[i].off = c->runs[i].start;
		cur[i].end = c->runs[i].end;
		ret = cur_next(c, &cur[i]);
		if (ret == 1)
			ret = 0;
		else if (!ret)
			heap[n++] = &cur[i];
	}
	for (i = n / 2; i-- > 0;)
		heap_down(heap, n, i);
	while (!ret && n) {
		ret = tb_fdr_ctf_event_write(c, heap[0]);
		if (ret)
			break;
		ret = cur_next(c, heap[0]);
		if (ret == 1) {
			heap[0] = heap[--n];
			ret = 0;
		}
		heap_down(heap, n, 0);
	}
out:
	for (i = 0; cur && i < c->nruns; i++)
		tb_buf_free(&cur[i].data);
	free(cur);
	free(heap);
	free(wins);
	return ret;
}

/* The clock's zero from the Epoch: the first WallClockTime less its TSC. */
static void cv_clock(struct cv_ctx *c)
{
	unsigned __int128 wall_ns, tsc_ns, zero;

	c->meta.freq = c->freq;
	if (!c->has_wall)
		return;
	wall_ns = (unsigned __int128)c->wall_s * 1000000000U +
		  (unsigned __int128)c->wall_us * 1000U;
	tsc_ns = (unsigned __int128)c->wall_tsc * 1000000000U / c->freq;
	if (tsc_ns > wall_ns)
		return;
	zero = wall_ns - tsc_ns;
	c->meta.has_wall = true;
	c->meta.offset_s = (int64_t)(zero / 1000000000U);
	c->meta.offset = (uint64_t)((zero % 1000000000U) * c->freq / 1000000000U);
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
	struct cv_ctx c = { .o = o, .freq = 1000000000ULL };
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
	c.tmp = tmpfile();
	if (!c.tmp)
		return errno ? -errno : -EIO;
	ret = tb_fdr_reader_read(in, cv_header, cv_scan, &c, NULL, err);
	if (!ret) {
		tb_fdr_reader_call_flush(&c.call, cv_call, &c);
		ret = c.err;
	}
	if (!ret && fflush(c.tmp))
		ret = errno ? -errno : -EIO;
	if (ret)
		goto out;
	c.st->runs = c.nruns;
	ret = cv_mkdirs(dir, kdir, &made);
	if (ret)
		goto out;
	cv_uuid(c.meta.uuid);
	cv_clock(&c);
	c.meta.hostname = o->hostname;
	c.meta.kernel_release = o->kernel_release;
	c.meta.source = o->source;
	ret = cv_merge(&c);
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
	fclose(c.tmp);
	free(c.runs);
	free(c.tasks);
	tb_hash_free(&c.by_tid);
	tb_ctf_class_free(&c.classes);
	tb_buf_free(&c.ev);
	return ret;
}
