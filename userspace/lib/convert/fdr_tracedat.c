// SPDX-License-Identifier: GPL-2.0
/*
 * XRay FDR -> trace.dat version 6: convert/fdr_merge.c puts the trace's
 * events in time order, convert/fdr_tracedat_event.c maps each to an
 * ftrace event on its CPU's pages (convert/fdr_tracedat_page.c), and
 * this file writes the header and copies the pages after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_tracedat.h"
#include "convert/fdr_tracedat_event.h"

/* The texts of events/header_page and events/header_event, 64-bit. */
static const char td_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char td_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static int td_append(struct tb_buf *b, const void *p, size_t n)
{
	return tb_buf_append(b, p, n);
}

static int td_u32(struct tb_buf *b, uint32_t v)
{
	return td_append(b, &v, 4);
}

static int td_u64(struct tb_buf *b, uint64_t v)
{
	return td_append(b, &v, 8);
}

/* "NAME\0", its size as a u64, its text. */
static int td_section(struct tb_buf *b, const char *name, const char *text)
{
	return td_append(b, name, strlen(name) + 1) ||
	       td_u64(b, strlen(text)) ||
	       td_append(b, text, strlen(text)) ? -ENOMEM : 0;
}

static int td_cmdline(struct tb_buf *b, const struct td_ctx *c, int32_t tid)
{
	char comm[TB_TASK_COMM_LEN], line[64];
	int n;

	/* The idle tasks are pid 0, which readers call <idle>, as the kernel. */
	if (tb_task_map_shown_tid(tid) != tid || tid <= 0)
		return 0;
	tb_fdr_merge_comm(&c->m, c->o->tasks, tid, comm);
	if (!comm[0])
		return 0;
	n = snprintf(line, sizeof(line), "%d %s\n", tid, comm);
	c->st->tasks++;
	return td_append(b, line, (size_t)n);
}

/* saved_cmdlines: "PID COMM" for every task of the trace and of .tasks. */
static int td_cmdlines(struct tb_buf *b, const struct td_ctx *c)
{
	const struct tb_task_map *tasks = c->o->tasks;
	size_t at, i;
	uint64_t size;
	int ret = 0;

	at = b->len;
	if (td_u64(b, 0))
		return -ENOMEM;
	for (i = 0; !ret && i < c->m.ntasks; i++)
		ret = td_cmdline(b, c, c->m.tasks[i].tid);
	for (i = 0; !ret && tasks && i < tasks->n; i++)
		if (!tb_fdr_merge_find(&c->m, tasks->v[i].tid))
			ret = td_cmdline(b, c, tasks->v[i].tid);
	size = b->len - at - 8;
	memcpy(b->data + at, &size, 8);
	return ret;
}

/* Everything before the first page, offsets of the CPUs' pages included. */
static int td_header(struct tb_buf *b, const struct td_ctx *c, uint32_t cpus)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
					 'i', 'n', 'g', '6', 0,
					 0 /* little endian */, 8 /* long */ };
	uint64_t off;
	size_t at, i;

	if (td_append(b, magic, sizeof(magic)) ||
	    td_u32(b, TB_TD_PAGE_SIZE) ||
	    td_section(b, "header_page", td_header_page) ||
	    td_section(b, "header_event", td_header_event) ||
	    tb_fdr_tracedat_event_formats(b) ||
	    td_u32(b, 0) ||		/* kallsyms: no addresses recorded */
	    td_u32(b, 0) ||		/* trace_printk formats: none */
	    td_cmdlines(b, c) || td_u32(b, cpus) ||
	    td_append(b, "options  ", 10) ||
	    td_append(b, "\0\0", 2) ||	/* no options */
	    td_append(b, "flyrecord", 10))
		return -ENOMEM;
	at = b->len;
	if (!tb_buf_add(b, 16U * cpus))
		return -ENOMEM;
	/* The pages start on a page boundary of the file. */
	off = (b->len + TB_TD_PAGE_SIZE - 1) / TB_TD_PAGE_SIZE * TB_TD_PAGE_SIZE;
	for (i = 0; i < cpus; i++) {
		uint64_t size = i < c->m.ncpus ?
				c->cpus[i].pages * TB_TD_PAGE_SIZE : 0;

		memcpy(b->data + at + 16 * i, &off, 8);
		memcpy(b->data + at + 16 * i + 8, &size, 8);
		off += size;
	}
	i = b->len;
	if (!tb_buf_add(b, (TB_TD_PAGE_SIZE - i % TB_TD_PAGE_SIZE) %
			   TB_TD_PAGE_SIZE))
		return -ENOMEM;
	memset(b->data + i, 0, b->len - i);
	return 0;
}

static int td_copy(FILE *from, FILE *out)
{
	char buf[1 << 16];
	size_t n;

	if (fflush(from) || fseek(from, 0, SEEK_SET))
		return errno ? -errno : -EIO;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			return errno ? -errno : -EIO;
	return ferror(from) ? -EIO : 0;
}

static int td_write(void *ctx, const struct tb_fdr_merge_cursor *k)
{
	return tb_fdr_tracedat_event_write(ctx, k);
}

int tb_fdr_tracedat_write(FILE *in, FILE *out,
			  const struct tb_fdr_tracedat_opts *o,
			  struct tb_fdr_tracedat_stats *st,
			  struct tb_error *err)
{
	struct tb_fdr_tracedat_stats local;
	struct td_ctx c = { .o = o };
	struct tb_buf hdr = { 0 };
	uint32_t cpus;
	size_t i;
	int ret;

	c.st = st ? st : &local;
	memset(c.st, 0, sizeof(*c.st));
	ret = tb_fdr_merge_scan(&c.m, in, o->names, err);
	if (ret)
		goto out;
	c.st->rets_unmatched = c.m.rets_unmatched;
	c.st->malformed = c.m.malformed;
	/* A header-only trace is still a trace.dat: one CPU, no pages. */
	cpus = c.m.ncpus ? c.m.ncpus : 1;
	c.cpus = calloc(cpus, sizeof(*c.cpus));
	if (!c.cpus) {
		ret = -ENOMEM;
		goto out;
	}
	c.st->sub_ns = c.m.freq > 1000000000ULL;
	ret = tb_fdr_merge_run(&c.m, td_write, &c);
	for (i = 0; !ret && i < c.m.ncpus; i++) {
		ret = tb_fdr_tracedat_page_flush(&c.cpus[i]);
		c.st->pages += c.cpus[i].pages;
	}
	if (!ret)
		ret = td_header(&hdr, &c, cpus);
	if (ret)
		goto out;
	c.st->cpus = cpus;
	if (fwrite(hdr.data, 1, hdr.len, out) != hdr.len)
		ret = errno ? -errno : -EIO;
	for (i = 0; !ret && i < c.m.ncpus; i++)
		if (c.cpus[i].f)
			ret = td_copy(c.cpus[i].f, out);
out:
	for (i = 0; c.cpus && i < c.m.ncpus; i++)
		tb_fdr_tracedat_page_free(&c.cpus[i]);
	free(c.cpus);
	tb_buf_free(&hdr);
	tb_buf_free(&c.rec);
	tb_fdr_merge_free(&c.m);
	return ret;
}
