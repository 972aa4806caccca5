// SPDX-License-Identifier: GPL-2.0
/* GDB trace file writer; see format/tfile.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/tfile.h"
#include "util/buf.h"
#include "util/bytes.h"

struct tp_def {
	unsigned int num;
	uint64_t addr;
	char *name;
	const char *const *cmds;
	unsigned int ncmds;
};

struct tsv_def {
	unsigned int num;
	int64_t initial;
	char *name;
};

struct tb_tfile_writer {
	FILE *out;
	FILE *spool;		/* frames, copied behind the definitions */
	bool direct;		/* frames go straight to out */
	uint64_t declared;	/* frame count given to start_frames */
	char *arch;
	unsigned int reg_size;
	struct tp_def *tps;
	unsigned int ntp;
	size_t tp_cap;
	struct tsv_def *tsvs;
	unsigned int ntsv;
	uint64_t frames;
	uint8_t *frame;		/* the frame being built */
	size_t flen;
	size_t fcap;
	int error;
};

static int fail(struct tb_tfile_writer *w, int err)
{
	if (!w->error)
		w->error = err;
	return -w->error;
}

struct tb_tfile_writer *tb_tfile_create(FILE *out, const char *arch,
					unsigned int reg_size)
{
	struct tb_tfile_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->out = out;
	w->reg_size = reg_size ? reg_size : 1;
	w->arch = strdup(arch);
	if (!w->arch) {
		tb_tfile_abort(w);
		return NULL;
	}
	return w;
}

void tb_tfile_abort(struct tb_tfile_writer *w)
{
	unsigned int i;

	if (!w)
		return;
	if (w->spool)
		fclose(w->spool);
	for (i = 0; i < w->ntp; i++)
		free(w->tps[i].name);
	for (i = 0; i < w->ntsv; i++)
		free(w->tsvs[i].name);
	free(w->tps);
	free(w->tsvs);
	free(w->frame);
	free(w->arch);
	free(w);
}

int tb_tfile_tsv(struct tb_tfile_writer *w, unsigned int num,
		 const char *name, int64_t initial)
{
	struct tsv_def *t;

	t = realloc(w->tsvs, (w->ntsv + 1) * sizeof(*t));
	if (!t)
		return fail(w, ENOMEM);
	w->tsvs = t;
	t += w->ntsv;
	t->num = num;
	t->initial = initial;
	t->name = strdup(name);
	if (!t->name)
		return fail(w, ENOMEM);
	w->ntsv++;
	return 0;
}

int tb_tfile_tracepoint(struct tb_tfile_writer *w, unsigned int num,
			uint64_t addr, const char *name,
			const char *const *cmds, unsigned int ncmds)
{
	struct tp_def *t;

	if (!num || num > TB_TFILE_MAX_TP)
		return fail(w, ERANGE);
	if (num != w->ntp + 1)
		return fail(w, EINVAL);
	if (tb_buf_array_grow(&w->tps, &w->tp_cap, w->ntp + 1, sizeof(*w->tps)))
		return fail(w, ENOMEM);
	t = &w->tps[w->ntp];
	t->num = num;
	t->addr = addr;
	t->cmds = cmds;
	t->ncmds = cmds ? ncmds : 0;
	t->name = name ? strdup(name) : NULL;
	if (name && !t->name)
		return fail(w, ENOMEM);
	w->ntp++;
	return 0;
}

static uint8_t *fgrow(struct tb_tfile_writer *w, size_t n)
{
	if (tb_buf_array_grow(&w->frame, &w->fcap, w->flen + n, 1)) {
		fail(w, ENOMEM);
		return NULL;
	}
	w->flen += n;
	return w->frame + w->flen - n;
}

/* Room for @n bytes in the frame being built; hot, hence inline. */
static inline uint8_t *fspace(struct tb_tfile_writer *w, size_t n)
{
	if (__builtin_expect(w->flen + n > w->fcap, 0))
		return fgrow(w, n);
	w->flen += n;
	return w->frame + w->flen - n;
}

int tb_tfile_frame_begin(struct tb_tfile_writer *w, unsigned int tp)
{
	uint8_t *p;

	if (!tp || tp > TB_TFILE_MAX_TP)
		return fail(w, ERANGE);
	w->flen = 0;
	p = fspace(w, 6);
	if (!p)
		return -w->error;
	tb_bytes_put16(p, (uint16_t)tp);
	return 0;
}

int tb_tfile_frame_regs(struct tb_tfile_writer *w, const void *regs)
{
	uint8_t *p = fspace(w, 1 + w->reg_size);

	if (!p)
		return -w->error;
	p[0] = 'R';
	memcpy(p + 1, regs, w->reg_size);
	return 0;
}

int tb_tfile_frame_mem(struct tb_tfile_writer *w, uint64_t addr,
		       const void *data, uint16_t len)
{
	uint8_t *p = fspace(w, 11 + (size_t)len);

	if (!p)
		return -w->error;
	p[0] = 'M';
	tb_bytes_put64(p + 1, addr);
	tb_bytes_put16(p + 9, len);
	memcpy(p + 11, data, len);
	return 0;
}

int tb_tfile_frame_tsv(struct tb_tfile_writer *w, unsigned int num,
		       int64_t value)
{
	uint8_t *p = fspace(w, 13);

	if (!p)
		return -w->error;
	p[0] = 'V';
	tb_bytes_put32(p + 1, num);
	tb_bytes_put64(p + 5, (uint64_t)value);
	return 0;
}

int tb_tfile_frame_tsvs(struct tb_tfile_writer *w, unsigned int first,
			const int64_t *values, unsigned int n)
{
	uint8_t *p = fspace(w, 13 * (size_t)n);
	unsigned int i;

	if (!p)
		return -w->error;
	for (i = 0; i < n; i++, p += 13) {
		p[0] = 'V';
		tb_bytes_put32(p + 1, first + i);
		tb_bytes_put64(p + 5, (uint64_t)values[i]);
	}
	return 0;
}

int tb_tfile_frame_end(struct tb_tfile_writer *w)
{
	if (w->error)
		return -w->error;
	if (w->flen - 6 > UINT32_MAX)
		return fail(w, EFBIG);
	tb_bytes_put32(w->frame + 2, (uint32_t)(w->flen - 6));
	if (!w->direct && !w->spool) {
		w->spool = tmpfile();
		if (!w->spool)
			return fail(w, errno ? errno : EIO);
	}
	if (fwrite_unlocked(w->frame, 1, w->flen,
			    w->direct ? w->out : w->spool) != w->flen)
		return fail(w, errno ? errno : EIO);
	w->frames++;
	return 0;
}

static void hex(FILE *f, const char *s)
{
	while (*s)
		fprintf(f, "%02x", (unsigned char)*s++);
}

/*
 * @name as the C string constant gdb shows: quote and backslash escaped,
 * bytes outside printable ASCII in octal (gdb parses the condition, and
 * raw bytes would go through its character sets), cut to fit in
 * TB_TFILE_NAME_MAX characters with "..." at the end.
 */
static void quote_name(char buf[TB_TFILE_NAME_MAX + 1], const char *name)
{
	size_t n = 1, all = 0, room = TB_TFILE_NAME_MAX - 2;
	const unsigned char *p;
	char esc[5];
	int len;

	for (p = (const unsigned char *)name; *p; p++)
		all += *p == '"' || *p == '\\' ? 2 : *p < 0x20 || *p > 0x7e ?
		       4 : 1;
	if (all > room)
		room -= 3;
	buf[0] = '"';
	for (p = (const unsigned char *)name; *p; p++) {
		if (*p == '"' || *p == '\\')
			len = snprintf(esc, sizeof(esc), "\\%c", *p);
		else if (*p < 0x20 || *p > 0x7e)
			len = snprintf(esc, sizeof(esc), "\\%03o", *p);
		else
			len = snprintf(esc, sizeof(esc), "%c", *p);
		if (n - 1 + len > room)
			break;
		memcpy(buf + n, esc, len);
		n += len;
	}
	if (*p) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n++] = '"';
	buf[n] = 0;
}

/* One "tp Z" line: gdb keeps these as the tracepoint's source strings. */
static void zline(FILE *f, const struct tp_def *t, const char *type,
		  const char *text)
{
	fprintf(f, "tp Z%x:%" PRIx64 ":%s:0:%zx:", t->num, t->addr, type,
		strlen(text));
	hex(f, text);
	fputc('\n', f);
}

static void definitions(struct tb_tfile_writer *w)
{
	FILE *f = w->out;
	unsigned int i, j;
	char buf[512];

	fputs("\x7fTRACE0\n", f);
	fprintf(f, "R %x\n", w->reg_size);
	/* No executable needed: the description names the architecture. */
	fputs("tdesc <?xml version=\"1.0\"?>\n", f);
	fputs("tdesc <!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n", f);
	fputs("tdesc <target>\n", f);
	fprintf(f, "tdesc   <architecture>%s</architecture>\n", w->arch);
	fputs("tdesc </target>\n", f);
	fprintf(f, "status 0;tstop::0;tframes:%" PRIx64 ";tcreated:%" PRIx64
		";tfree:0;tsize:0;circular:0;disconn:0\n",
		w->direct ? w->declared : w->frames,
		w->direct ? w->declared : w->frames);
	for (i = 0; i < w->ntsv; i++) {
		const struct tsv_def *t = &w->tsvs[i];

		fprintf(f, "tsv %x:%" PRIx64 ":0:", t->num,
			(uint64_t)t->initial);
		hex(f, t->name);
		fputc('\n', f);
	}
	/*
	 * gdb creates its tracepoints from the last defined to the first
	 * and numbers them as it goes, so they are written from the last to
	 * the first: gdb's tracepoint N is then ours.  `tfind tracepoint N`
	 * needs that, as gdb 13 turns N into the file's number twice.
	 */
	for (i = w->ntp; i-- > 0;) {
		const struct tp_def *t = &w->tps[i];

		fprintf(f, "tp T%x:%" PRIx64 ":E:0:0\n", t->num, t->addr);
		/* "*ADDR" resolves without symbols, a name would not. */
		snprintf(buf, sizeof(buf), "*0x%" PRIx64, t->addr);
		zline(f, t, "at", buf);
		if (t->name) {
			quote_name(buf, t->name);
			zline(f, t, "cond", buf);
		}
		for (j = 0; j < t->ncmds; j++)
			zline(f, t, "cmd", t->cmds[j]);
	}
	fputc('\n', f);
}

int tb_tfile_start_frames(struct tb_tfile_writer *w, uint64_t frames)
{
	if (w->frames || w->direct)
		return fail(w, EINVAL);
	w->direct = true;
	w->declared = frames;
	definitions(w);
	return -w->error;
}

int tb_tfile_finish(struct tb_tfile_writer *w)
{
	static const uint8_t end[4];
	char buf[65536];
	size_t n;
	int ret;

	if (w->direct && w->frames != w->declared)
		fail(w, EINVAL);
	if (!w->error && !w->direct) {
		definitions(w);
		if (!w->spool)
			w->spool = tmpfile();
		if (!w->spool)
			fail(w, errno ? errno : EIO);
	}
	if (!w->error && !w->direct) {
		rewind(w->spool);
		while ((n = fread(buf, 1, sizeof(buf), w->spool)) > 0) {
			if (fwrite(buf, 1, n, w->out) != n) {
				fail(w, errno ? errno : EIO);
				break;
			}
		}
		if (ferror(w->spool))
			fail(w, EIO);
	}
	if (!w->error) {
		/* Tracepoint number 0 ends the frames. */
		if (fwrite(end, 1, sizeof(end), w->out) != sizeof(end) ||
		    fflush(w->out))
			fail(w, errno ? errno : EIO);
	}
	ret = -w->error;
	tb_tfile_abort(w);
	return ret;
}
