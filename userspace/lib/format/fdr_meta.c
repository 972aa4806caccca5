// SPDX-License-Identifier: GPL-2.0
/* The META block's writer and reader; see format/fdr_meta.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf_fdr.h>

#include "format/fdr_event.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"

int tb_fdr_meta_write(struct tb_fdr_writer *w, uint64_t tsc, uint16_t type,
		      const char *text, size_t len)
{
	size_t n;
	int ret;

	while (len) {
		n = len < TRACEBUF_FDR_META_CHUNK ? len : TRACEBUF_FDR_META_CHUNK;
		/* Cut after the chunk's last line end, if it has one. */
		if (n < len) {
			size_t k = n;

			while (k && text[k - 1] != '\n')
				k--;
			if (k)
				n = k;
		}
		ret = tb_fdr_writer_typed(w, tsc, type, text, (int32_t)n);
		if (ret)
			return ret;
		text += n;
		len -= n;
	}
	return 0;
}

/* ------------------------------------------------------------ reader */

struct meta_read {
	struct tb_fdr_meta_block *m;
	unsigned int extents;	/* BufferExtents records seen */
	bool in_meta;		/* the first block is the META block */
	bool complete;		/* the next block began: it ended whole */
	bool oom;
};

static int append(char **text, size_t *len, const char *data, size_t n)
{
	char *p = realloc(*text, *len + n + 1);

	if (!p)
		return -1;
	memcpy(p + *len, data, n);
	*len += n;
	p[*len] = 0;
	*text = p;
	return 0;
}

/*
 * A capture id as the texts carry it: 16 hex digits, then the end of @s
 * or of its line.  Written in lower case; read as the number it is, so
 * that a text whose case was changed is still checked by its id.
 */
static bool id_parse(const char *s, uint64_t *id)
{
	if (strspn(s, "0123456789abcdefABCDEF") != 16 ||
	    (s[16] && s[16] != '\n'))
		return false;
	*id = strtoull(s, NULL, 16);
	return true;
}

static int meta_record(void *ctx, const struct tb_fdr_record *r)
{
	struct meta_read *s = ctx;
	struct tb_fdr_meta_block *m = s->m;
	struct tb_fdr_event ev;
	char **text;
	size_t *len;

	if (r->ignored)
		return 0;
	switch (r->kind) {
	case TB_FDR_BUFFER_EXTENTS:
		if (++s->extents == 1)
			return 0;
		s->complete = true;
		return 1;
	case TB_FDR_NEW_BUFFER:
		if (s->in_meta) {
			/* A second block without extents (versions 1, 2). */
			s->complete = true;
			return 1;
		}
		if (r->tid != TRACEBUF_FDR_META_TID)
			return 1;
		s->in_meta = true;
		return 0;
	case TB_FDR_TYPED:
		break;
	default:
		return 0;
	}
	if (!s->in_meta)
		return 1;
	if (tb_fdr_event_decode(r, &ev) != TB_FDR_EV_META) {
		if (tb_fdr_event_malformed(r))
			m->malformed++;
		return 0;
	}
	switch (ev.meta.type) {
	case TRACEBUF_FDR_TYPED_META_CAPTURE:
		text = &m->capture;
		len = &m->capture_len;
		break;
	case TRACEBUF_FDR_TYPED_META_NAMES:
		text = &m->names;
		len = &m->names_len;
		break;
	default:
		text = &m->tasks;
		len = &m->tasks_len;
		break;
	}
	if (append(text, len, ev.meta.text, ev.meta.len)) {
		s->oom = true;
		return -1;
	}
	return 0;
}

static int meta_finish(struct meta_read *s, int ret,
		       const struct tb_fdr_stats *st)
{
	struct tb_fdr_meta_block *m = s->m;
	char v[64];

	if (s->oom) {
		tb_fdr_meta_free(m);
		return -ENOMEM;
	}
	/*
	 * Whole when the next block began, or the file ended cleanly after
	 * it (a capture of nothing); cut or malformed, it is not read: a
	 * names text cut in the middle would name half the functions.
	 */
	if (!s->in_meta || ret == -1 ||
	    (!s->complete && (ret || st->cut_bytes))) {
		tb_fdr_meta_free(m);
		return 0;
	}
	m->present = true;
	if (tb_fdr_meta_value(m, TB_FDR_META_KEY_ID, v, sizeof(v)) &&
	    id_parse(v, &m->id))
		m->has_id = true;
	return 0;
}

int tb_fdr_meta_read(FILE *f, struct tb_fdr_meta_block *m)
{
	struct meta_read s = { .m = m };
	struct tb_fdr_stats st = { 0 };
	struct tb_error err;
	int ret;

	memset(m, 0, sizeof(*m));
	if (fseeko(f, 0, SEEK_SET))
		return -errno;
	ret = tb_fdr_reader_read(f, NULL, meta_record, &s, &st, &err);
	clearerr(f);
	if (fseeko(f, 0, SEEK_SET)) {
		tb_fdr_meta_free(m);
		return -errno;
	}
	return meta_finish(&s, ret, &st);
}

int tb_fdr_meta_read_mem(const void *buf, size_t len, struct tb_fdr_meta_block *m)
{
	struct meta_read s = { .m = m };
	struct tb_fdr_stats st = { 0 };
	struct tb_error err;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = tb_fdr_reader_read_mem(buf, len, NULL, meta_record, &s, &st,
				     &err);
	return meta_finish(&s, ret, &st);
}

const char *tb_fdr_meta_value(const struct tb_fdr_meta_block *m, const char *key,
			      char *buf, size_t size)
{
	size_t k = strlen(key), n;
	const char *l, *nl;

	for (l = m->capture; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		n = nl ? (size_t)(nl - l) : strlen(l);
		if (n <= k || strncmp(l, key, k) || l[k] != ' ')
			continue;
		n -= k + 1;
		if (n >= size)
			n = size - 1;
		memcpy(buf, l + k + 1, n);
		buf[n] = 0;
		return buf;
	}
	return NULL;
}

void tb_fdr_meta_id_text(uint64_t id, char buf[17])
{
	snprintf(buf, 17, "%016" PRIx64, id);
}

int tb_fdr_meta_id_line(const char *line, const char *prefix, uint64_t *id)
{
	size_t k = strlen(prefix), n = strcspn(line, "\n");
	/* The kind's words before " capture ": "# tracebuf names". */
	size_t words = k - strlen(TB_FDR_META_KEY_ID) - 2;

	if (n < words || strncmp(line, prefix, n < k ? n : k))
		return 0;
	/* Cut inside " capture ", or an id cut, longer or not hex. */
	if (n < k || !id_parse(line + k, id))
		return -1;
	return 1;
}

void tb_fdr_meta_free(struct tb_fdr_meta_block *m)
{
	free(m->capture);
	free(m->names);
	free(m->tasks);
	memset(m, 0, sizeof(*m));
}
