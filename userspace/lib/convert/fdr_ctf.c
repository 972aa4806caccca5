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
#include "convert/fdr_ctf_class.h"
#include "convert/fdr_ctf_meta.h"
#include "convert/fdr_ctf_stream.h"
#include "format/fdr_marks.h"
#include "format/fdr_reader.h"
#include "util/buf.h"
#include "util/hash.h"

/* ---- items: the temporary file between the passes ---- */

enum { IT_ENTER, IT_EXIT, IT_MARKER, IT_TYPED, IT_LOST };

struct cv_item {
	uint64_t tsc;
	int32_t tid, pid;
	uint32_t id;		/* function id of the file, or typed type */
	uint32_t len;		/* payload bytes after the arguments */
	uint16_t cpu;
	uint8_t kind;
	uint8_t nargs;
	uint32_t pad;
};

struct cv_task {
	int32_t tid, pid;
	char comm[TB_CTF_COMM_LEN];
	bool forked;		/* a fork in the trace made it */
};

struct cv_run {
	uint64_t start, end;	/* item bytes in the temporary file */
};

#define CV_WINDOW	4096

struct cv_cursor {
	uint64_t off, end;
	uint8_t win[CV_WINDOW];
	uint64_t win_off;
	size_t win_len;
	struct cv_item it;
	uint64_t args[TB_FDR_CALL_MAX_ARGS];
	struct tb_buf data;
};

struct cv_ctx {
	const struct tb_fdr_ctf_opts *o;
	struct tb_fdr_ctf_stats *st;
	FILE *tmp;
	uint64_t tmp_len;
	struct tb_fdr_call call;
	int err;
	/* runs */
	struct cv_run *runs;
	size_t nruns, runcap;
	bool new_run;
	uint64_t last_tsc;
	uint64_t first, last;	/* the trace's span */
	bool has_first;
	/* tasks: tid -> index + 1 */
	struct cv_task *tasks;
	size_t ntasks, taskcap;
	struct tb_hash by_tid;
	/* clock */
	uint64_t freq;
	bool wall_pending, has_wall;
	uint64_t wall_s;
	uint32_t wall_us;
	uint64_t wall_tsc;
	/* second pass */
	struct tb_ctf_classes classes;
	struct tb_ctf_meta meta;
	struct tb_ctf_stream *streams;	/* by CPU, f NULL when unused */
	int32_t *current;		/* tid on each CPU, -1 none */
	size_t ncpus;
	const char *dir;
	struct tb_buf ev;
	bool dumped;
};

static struct cv_task *cv_task(struct cv_ctx *c, int32_t tid)
{
	uint32_t i = tb_hash_get(&c->by_tid, (uint32_t)tid);
	struct cv_task *t;

	if (i)
		return &c->tasks[i - 1];
	if (tb_buf_array_grow(&c->tasks, &c->taskcap, c->ntasks + 1,
			      sizeof(*c->tasks)))
		return NULL;
	t = &c->tasks[c->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = -1;
	if (tb_hash_put(&c->by_tid, (uint32_t)tid, (uint32_t)c->ntasks + 1))
		return NULL;
	c->ntasks++;
	return t;
}

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

static uint32_t cv_kid(const struct cv_ctx *c, uint32_t id)
{
	return c->o->names ? tb_name_map_kernel_id(c->o->names, id) : id;
}

static void cv_call(void *ctx, const struct tb_fdr_call *call)
{
	struct cv_ctx *c = ctx;
	const struct tb_fdr_record *r = &call->rec;
	uint32_t space = TRACEBUF_FDR_ID_SPACE(cv_kid(c, r->func_id));
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
	    TRACEBUF_FDR_ID_KEY(cv_kid(c, r->func_id)) == 0) {
		t = cv_task(c, (int32_t)call->args[0]);
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
	t = cv_task(c, r->tid);
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
		t = cv_task(c, r->tid);
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

	if (want > CV_WINDOW)
		want = CV_WINDOW;
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
	if (n > CV_WINDOW) {
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

/* ---- the second pass: CTF events ---- */

/* Our tid of the idle task of CPU n is LTTng's 0 (swapper/n). */
static int32_t cv_tid(int32_t tid)
{
	return tid >= TRACEBUF_FDR_IDLE_TID(0) ? 0 : tid;
}

/* @tid's own name: from its comm record, else .tasks, else NULL. */
static const char *cv_own_comm(struct cv_ctx *c, int32_t tid)
{
	uint32_t i = tb_hash_get(&c->by_tid, (uint32_t)tid);

	if (i && c->tasks[i - 1].comm[0])
		return c->tasks[i - 1].comm;
	return c->o->tasks ? tb_task_map_comm(c->o->tasks, tid) : NULL;
}

static int32_t cv_pid_of(struct cv_ctx *c, int32_t tid);

/*
 * What to call @tid: its own name, else its process's (a thread is
 * named as the thread that made it until it names itself: the best
 * guess for a thread that began after .tasks was written and did not
 * exit), else "swapper" for idle, else "".
 */
static const char *cv_comm_of(struct cv_ctx *c, int32_t tid, char *buf)
{
	const char *s = cv_own_comm(c, tid);
	int32_t pid;

	if (!s && tid >= TRACEBUF_FDR_IDLE_TID(0))
		s = "swapper";
	if (!s) {
		pid = cv_pid_of(c, tid);
		if (pid != tid)
			s = cv_own_comm(c, pid);
	}
	snprintf(buf, TB_CTF_COMM_LEN, "%s", s ? s : "");
	return buf;
}

static int32_t cv_pid_of(struct cv_ctx *c, int32_t tid)
{
	uint32_t i = tb_hash_get(&c->by_tid, (uint32_t)tid);
	const struct tb_task *t;

	if (i && c->tasks[i - 1].pid >= 0)
		return c->tasks[i - 1].pid;
	t = c->o->tasks ? tb_task_map_find(c->o->tasks, tid) : NULL;
	return t ? t->pid : tid;
}

static struct tb_ctf_stream *cv_stream(struct cv_ctx *c, uint16_t cpu)
{
	size_t n = (size_t)cpu + 1, i;
	int ret;

	if (n > c->ncpus) {
		void *p = realloc(c->streams, n * sizeof(*c->streams));

		if (!p)
			return NULL;
		c->streams = p;
		p = realloc(c->current, n * sizeof(*c->current));
		if (!p)
			return NULL;
		c->current = p;
		for (i = c->ncpus; i < n; i++) {
			memset(&c->streams[i], 0, sizeof(c->streams[i]));
			c->current[i] = -1;
		}
		c->ncpus = n;
	}
	if (!c->streams[cpu].f) {
		ret = tb_ctf_stream_open(&c->streams[cpu], c->dir, cpu);
		if (ret) {
			c->err = ret;
			return NULL;
		}
		c->streams[cpu].start = c->first;
		c->streams[cpu].stop = c->last;
		c->st->cpus++;
	}
	return &c->streams[cpu];
}

/* Key of each fixed class in the class table (syscalls: the kernel id). */
enum {
	K_FIXED = 1ULL << 40,
	K_SWITCH = K_FIXED, K_SD_START, K_SD_PROC, K_SD_END, K_IRQ_ENTRY,
	K_IRQ_EXIT, K_SOFT_ENTRY, K_SOFT_EXIT, K_FAULT_USER, K_FAULT_KERNEL,
	K_FORK, K_EXIT, K_LOGGER, K_TYPED, K_FUNC_ENTRY, K_FUNC_EXIT,
	K_SYS_EXIT = 1ULL << 33,	/* | kernel id: a syscall's exit */
};

struct cv_field {
	enum tb_ctf_type type;
	const char *name;
};

/* The id of the class @key, made with @name and @f (ending in a NULL name). */
static int64_t cv_class(struct cv_ctx *c, uint64_t key, const char *name,
			const struct cv_field *f)
{
	int64_t id = tb_ctf_class_find(&c->classes, key);

	if (id >= 0)
		return id;
	id = tb_ctf_class_new(&c->classes, key, name);
	for (; id >= 0 && f && f->name; f++)
		if (tb_ctf_class_field(&c->classes, (uint32_t)id, f->type, f->name))
			return -ENOMEM;
	return id;
}

static int cv_emit(struct cv_ctx *c, uint16_t cpu, uint64_t tsc)
{
	struct tb_ctf_stream *s = cv_stream(c, cpu);

	if (!s)
		return c->err ? c->err : -ENOMEM;
	c->st->events++;
	return tb_ctf_stream_add(s, c->ev.data, c->ev.len, tsc, c->meta.uuid);
}

static const struct cv_field f_switch[] = {
	{ TB_CTF_COMM, "prev_comm" }, { TB_CTF_I32, "prev_tid" },
	{ TB_CTF_I32, "prev_prio" }, { TB_CTF_I64, "prev_state" },
	{ TB_CTF_COMM, "next_comm" }, { TB_CTF_I32, "next_tid" },
	{ TB_CTF_I32, "next_prio" }, { 0, NULL },
};

/* The nice-0 priority as LTTng writes it (prio - MAX_RT_PRIO). */
#define CV_PRIO		20

/*
 * The task on @cpu is now @tid: a sched_switch, as the recorder starts a
 * task's block where the kernel switched to it.  prev_state and the
 * priorities are not recorded: 0 (running) and CV_PRIO.
 */
static int cv_switch(struct cv_ctx *c, uint16_t cpu, int32_t tid, uint64_t tsc)
{
	int32_t prev;
	char b1[TB_CTF_COMM_LEN], b2[TB_CTF_COMM_LEN];
	int64_t id;

	if (!cv_stream(c, cpu))
		return c->err ? c->err : -ENOMEM;
	prev = c->current[cpu];
	if (prev == tid)
		return 0;
	c->current[cpu] = tid;
	id = cv_class(c, K_SWITCH, "sched_switch", f_switch);
	if (id < 0)
		return (int)id;
	if (tb_ctf_ev_begin(&c->ev, (uint32_t)id, tsc) ||
	    tb_ctf_ev_comm(&c->ev, prev < 0 ? "" : cv_comm_of(c, prev, b1)) ||
	    tb_ctf_ev_i32(&c->ev, prev < 0 ? 0 : cv_tid(prev)) ||
	    tb_ctf_ev_i32(&c->ev, CV_PRIO) || tb_ctf_ev_64(&c->ev, 0) ||
	    tb_ctf_ev_comm(&c->ev, cv_comm_of(c, tid, b2)) ||
	    tb_ctf_ev_i32(&c->ev, cv_tid(tid)) || tb_ctf_ev_i32(&c->ev, CV_PRIO))
		return -ENOMEM;
	c->st->switches++;
	return cv_emit(c, cpu, tsc);
}

static const struct cv_field f_proc[] = {
	{ TB_CTF_I32, "tid" }, { TB_CTF_I32, "vtid" }, { TB_CTF_I32, "pid" },
	{ TB_CTF_I32, "vpid" }, { TB_CTF_COMM, "name" }, { 0, NULL },
};

static bool cv_dumped_tid(const struct cv_ctx *c, int32_t tid)
{
	uint32_t i = tb_hash_get(&c->by_tid, (uint32_t)tid);

	return i && !c->tasks[i - 1].forked;
}

static int cv_dump_one(struct cv_ctx *c, int64_t id, int32_t tid, uint16_t cpu,
		       uint64_t tsc)
{
	char b[TB_CTF_COMM_LEN];
	int32_t pid = cv_pid_of(c, tid);

	if (tb_ctf_ev_begin(&c->ev, (uint32_t)id, tsc) ||
	    tb_ctf_ev_i32(&c->ev, tid) || tb_ctf_ev_i32(&c->ev, tid) ||
	    tb_ctf_ev_i32(&c->ev, pid) || tb_ctf_ev_i32(&c->ev, pid) ||
	    tb_ctf_ev_comm(&c->ev, cv_comm_of(c, tid, b)))
		return -ENOMEM;
	c->st->statedump++;
	return cv_emit(c, cpu, tsc);
}

/*
 * The tasks known when the trace starts, as LTTng's state dump names
 * them: every task of the trace but those a fork in it made, and every
 * task of the .tasks companion.  On the first event's CPU, at its time.
 */
static int cv_statedump(struct cv_ctx *c, uint16_t cpu, uint64_t tsc)
{
	int64_t id;
	size_t i;
	int ret = 0;

	c->dumped = true;
	id = cv_class(c, K_SD_START, "lttng_statedump_start", NULL);
	if (id < 0 || tb_ctf_ev_begin(&c->ev, (uint32_t)id, tsc))
		return -ENOMEM;
	ret = cv_emit(c, cpu, tsc);
	id = cv_class(c, K_SD_PROC, "lttng_statedump_process_state", f_proc);
	if (id < 0)
		return -ENOMEM;
	for (i = 0; !ret && i < c->ntasks; i++)
		if (!c->tasks[i].forked && c->tasks[i].tid < TRACEBUF_FDR_IDLE_TID(0))
			ret = cv_dump_one(c, id, c->tasks[i].tid, cpu, tsc);
	for (i = 0; !ret && c->o->tasks && i < c->o->tasks->n; i++)
		if (!cv_dumped_tid(c, c->o->tasks->v[i].tid) &&
		    !tb_hash_get(&c->by_tid, (uint32_t)c->o->tasks->v[i].tid))
			ret = cv_dump_one(c, id, c->o->tasks->v[i].tid, cpu, tsc);
	if (ret)
		return ret;
	id = cv_class(c, K_SD_END, "lttng_statedump_end", NULL);
	if (id < 0 || tb_ctf_ev_begin(&c->ev, (uint32_t)id, tsc))
		return -ENOMEM;
	return cv_emit(c, cpu, tsc);
}

/*
 * The arguments of the syscalls whose fields lttng-analyses' I/O state
 * reads by name (it fails on a missing one), as lttng-modules names
 * them; '$' marks a string, of which we have only the user address.
 */
static const struct {
	const char *name, *args;
} cv_io_args[] = {
	{ "read", "fd,buf,count" }, { "write", "fd,buf,count" },
	{ "pread64", "fd,buf,count,pos" }, { "pwrite64", "fd,buf,count,pos" },
	{ "readv", "fd,vec,vlen" }, { "writev", "fd,vec,vlen" },
	{ "preadv", "fd,vec,vlen,pos_l,pos_h" },
	{ "pwritev", "fd,vec,vlen,pos_l,pos_h" },
	{ "recvfrom", "fd,ubuf,size,flags,addr,addr_len" },
	{ "sendto", "fd,buff,len,flags,addr,addr_len" },
	{ "recvmsg", "fd,msg,flags" }, { "sendmsg", "fd,msg,flags" },
	{ "close", "fd" }, { "open", "$filename,flags,mode" },
	{ "openat", "dfd,$filename,flags,mode" }, { "fcntl", "fd,cmd,arg" },
	{ "dup", "fildes" }, { "dup2", "oldfd,newfd" },
	{ "dup3", "oldfd,newfd,flags" }, { "socket", "family,type,protocol" },
	{ "accept", "fd,upeer_sockaddr,upeer_addrlen" },
	{ "accept4", "fd,upeer_sockaddr,upeer_addrlen,flags" },
	{ "connect", "fd,uservaddr,addrlen" },
	{ "splice", "fd_in,off_in,fd_out,off_out,len,flags" },
	{ "sendfile64", "out_fd,in_fd,offset,count" },
	{ "fsync", "fd" }, { "fdatasync", "fd" },
	{ "sync_file_range", "fd,offset,nbytes,flags" },
};

#define CV_MAX_FIELDS	8

/* A syscall entry's fields: its names, whether each is a string, how many. */
struct cv_sysargs {
	char names[CV_MAX_FIELDS][24];
	bool str[CV_MAX_FIELDS];
	unsigned int n;
};

static void cv_sysargs(const char *sys, unsigned int nargs, struct cv_sysargs *a)
{
	const char *p = NULL, *e;
	size_t i, len;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < sizeof(cv_io_args) / sizeof(cv_io_args[0]); i++)
		if (!strcmp(sys, cv_io_args[i].name))
			p = cv_io_args[i].args;
	if (!p) {
		/* Others: the arguments recorded, by position. */
		for (a->n = 0; a->n < nargs && a->n < CV_MAX_FIELDS; a->n++)
			snprintf(a->names[a->n], sizeof(a->names[0]), "arg%u", a->n);
		return;
	}
	while (*p && a->n < CV_MAX_FIELDS) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (*p == '$') {
			a->str[a->n] = true;
			p++;
			len--;
		}
		snprintf(a->names[a->n], sizeof(a->names[0]), "%.*s", (int)len, p);
		a->n++;
		p += len + (e ? 1 : 0);
	}
}

/* The syscall's name for LTTng: "read" from "sys_read". */
static const char *cv_sysname(struct cv_ctx *c, uint32_t id, char *buf,
			      size_t size, uint32_t key)
{
	const char *n = c->o->names ? tb_name_map_find(c->o->names, id) : NULL;

	if (n && !strncmp(n, "sys_", 4))
		return n + 4;
	if (n)
		return n;
	snprintf(buf, size, "%u", key & ~TRACEBUF_FDR_KEY_COMPAT);
	return buf;
}

static int cv_syscall(struct cv_ctx *c, const struct cv_cursor *k, uint32_t kid)
{
	const struct cv_item *it = &k->it;
	bool exit = it->kind == IT_EXIT;
	bool compat = TRACEBUF_FDR_ID_KEY(kid) & TRACEBUF_FDR_KEY_COMPAT;
	uint64_t key = kid | (exit ? K_SYS_EXIT : 0);
	char name[256], nb[32], hex[24];
	const char *sys;
	struct cv_sysargs a;
	unsigned int i;
	int64_t id;

	sys = cv_sysname(c, it->id, nb, sizeof(nb), TRACEBUF_FDR_ID_KEY(kid));
	cv_sysargs(sys, it->nargs, &a);
	id = tb_ctf_class_find(&c->classes, key);
	if (id < 0) {
		snprintf(name, sizeof(name), "%ssyscall_%s_%s",
			 compat ? "compat_" : "", exit ? "exit" : "entry", sys);
		id = tb_ctf_class_new(&c->classes, key, name);
		if (id < 0)
			return (int)id;
		if (exit) {
			if (tb_ctf_class_field(&c->classes, (uint32_t)id,
					       TB_CTF_I64, "ret"))
				return -ENOMEM;
		}
		for (i = 0; !exit && i < a.n; i++)
			if (tb_ctf_class_field(&c->classes, (uint32_t)id,
					       a.str[i] ? TB_CTF_STR : TB_CTF_I64,
					       a.names[i]))
				return -ENOMEM;
	}
	if (tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc))
		return -ENOMEM;
	if (exit) {
		/* Not recorded yet: 0, which the analyses count as success. */
		if (tb_ctf_ev_64(&c->ev, 0))
			return -ENOMEM;
		return cv_emit(c, it->cpu, it->tsc);
	}
	if (!it->nargs && a.n)
		c->st->args_unrecorded++;
	if (it->nargs > a.n)
		c->st->args_dropped += it->nargs - a.n;
	for (i = 0; i < a.n; i++) {
		/* -1 or "": not recorded (tracebuf record without arguments). */
		if (a.str[i]) {
			if (i < it->nargs)
				snprintf(hex, sizeof(hex), "0x%" PRIx64, k->args[i]);
			if (tb_ctf_ev_str(&c->ev, i < it->nargs ? hex : ""))
				return -ENOMEM;
		} else if (tb_ctf_ev_64(&c->ev, i < it->nargs ? k->args[i] :
					(uint64_t)-1)) {
			return -ENOMEM;
		}
	}
	return cv_emit(c, it->cpu, it->tsc);
}

static const struct cv_field f_irq_entry[] = {
	{ TB_CTF_I32, "irq" }, { TB_CTF_STR, "name" }, { 0, NULL },
};
static const struct cv_field f_irq_exit[] = {
	{ TB_CTF_I32, "irq" }, { TB_CTF_I32, "ret" }, { 0, NULL },
};
static const struct cv_field f_vec[] = { { TB_CTF_U32, "vec" }, { 0, NULL } };
static const struct cv_field f_fault[] = {
	{ TB_CTF_X64, "address" }, { 0, NULL },
};
static const struct cv_field f_fork[] = {
	{ TB_CTF_COMM, "parent_comm" }, { TB_CTF_I32, "parent_tid" },
	{ TB_CTF_I32, "parent_pid" }, { TB_CTF_COMM, "child_comm" },
	{ TB_CTF_I32, "child_tid" }, { TB_CTF_I32, "child_pid" }, { 0, NULL },
};
static const struct cv_field f_exit[] = {
	{ TB_CTF_COMM, "comm" }, { TB_CTF_I32, "tid" }, { 0, NULL },
};
static const struct cv_field f_func[] = {
	{ TB_CTF_U32, "id" }, { TB_CTF_STR, "name" }, { 0, NULL },
};
static const struct cv_field f_logger[] = { { TB_CTF_SEQ, "msg" }, { 0, NULL } };
static const struct cv_field f_typed[] = {
	{ TB_CTF_U32, "type" }, { TB_CTF_SEQ, "data" }, { 0, NULL },
};

/* The IRQ's name from "irq_N_NAME" (the collectors' names). */
static const char *cv_irq_name(struct cv_ctx *c, uint32_t id)
{
	const char *n = c->o->names ? tb_name_map_find(c->o->names, id) : NULL;
	const char *p;

	if (!n || strncmp(n, "irq_", 4))
		return n ? n : "";
	p = strchr(n + 4, '_');
	return p ? p + 1 : "";
}

static int cv_func(struct cv_ctx *c, const struct cv_cursor *k, uint32_t kid)
{
	const struct cv_item *it = &k->it;
	bool exit = it->kind == IT_EXIT;
	uint32_t space = TRACEBUF_FDR_ID_SPACE(kid), key = TRACEBUF_FDR_ID_KEY(kid);
	char b1[TB_CTF_COMM_LEN], b2[TB_CTF_COMM_LEN], fname[32];
	const char *n;
	int64_t id;
	int ret = -ENOMEM;

	switch (space) {
	case TRACEBUF_FDR_SPACE_SYSCALL:
		return cv_syscall(c, k, kid);
	case TRACEBUF_FDR_SPACE_IRQ:
		id = exit ? cv_class(c, K_IRQ_EXIT, "irq_handler_exit", f_irq_exit) :
		     cv_class(c, K_IRQ_ENTRY, "irq_handler_entry", f_irq_entry);
		if (id < 0 || tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc) ||
		    tb_ctf_ev_i32(&c->ev, (int32_t)key))
			break;
		/* The handler's return is not recorded: 1, IRQ_HANDLED. */
		ret = exit ? tb_ctf_ev_i32(&c->ev, 1) :
		      tb_ctf_ev_str(&c->ev, cv_irq_name(c, it->id));
		break;
	case TRACEBUF_FDR_SPACE_SOFTIRQ:
		id = exit ? cv_class(c, K_SOFT_EXIT, "softirq_exit", f_vec) :
		     cv_class(c, K_SOFT_ENTRY, "softirq_entry", f_vec);
		if (id >= 0 && !tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc))
			ret = tb_ctf_ev_u32(&c->ev, key);
		break;
	case TRACEBUF_FDR_SPACE_FAULT:
		id = key ? cv_class(c, K_FAULT_KERNEL,
				    "x86_exceptions_page_fault_kernel", f_fault) :
		     cv_class(c, K_FAULT_USER, "x86_exceptions_page_fault_user",
			      f_fault);
		if (id >= 0 && !tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc))
			ret = tb_ctf_ev_64(&c->ev, it->nargs ? k->args[0] : 0);
		break;
	case TRACEBUF_FDR_SPACE_TASK:
		if (key == 0) {
			int32_t child = it->nargs ? (int32_t)k->args[0] : -1;

			id = cv_class(c, K_FORK, "sched_process_fork", f_fork);
			if (id < 0 || tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc))
				break;
			/* The child's name is its parent's until it execs. */
			n = cv_comm_of(c, it->tid, b1);
			ret = tb_ctf_ev_comm(&c->ev, n) ||
			      tb_ctf_ev_i32(&c->ev, cv_tid(it->tid)) ||
			      tb_ctf_ev_i32(&c->ev, it->pid) ||
			      tb_ctf_ev_comm(&c->ev, n) ||
			      tb_ctf_ev_i32(&c->ev, child) ||
			      tb_ctf_ev_i32(&c->ev, cv_pid_of(c, child)) ? -ENOMEM : 0;
		} else {
			int32_t tid = it->nargs ? (int32_t)k->args[0] : it->tid;

			id = cv_class(c, K_EXIT, "sched_process_exit", f_exit);
			if (id >= 0 && !tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc))
				ret = tb_ctf_ev_comm(&c->ev, cv_comm_of(c, tid, b2)) ||
				      tb_ctf_ev_i32(&c->ev, tid) ? -ENOMEM : 0;
		}
		break;
	default:
		/* Kernel functions, work items, other ids: our own event. */
		id = exit ? cv_class(c, K_FUNC_EXIT, "tracebuf_func_exit", f_func) :
		     cv_class(c, K_FUNC_ENTRY, "tracebuf_func_entry", f_func);
		n = c->o->names ? tb_name_map_find(c->o->names, it->id) : NULL;
		if (!n) {
			/* As tracebuf report names an id it has no name for. */
			snprintf(fname, sizeof(fname), "function_%u", it->id);
			n = fname;
		}
		/* The kernel's id when known, else the file's. */
		if (id >= 0 && !tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc) &&
		    !tb_ctf_ev_u32(&c->ev, kid ? kid : it->id))
			ret = tb_ctf_ev_str(&c->ev, n);
		c->st->own++;
		break;
	}
	if (ret)
		return ret;
	return cv_emit(c, it->cpu, it->tsc);
}

static int cv_write(struct cv_ctx *c, struct cv_cursor *k)
{
	const struct cv_item *it = &k->it;
	size_t room = TB_CTF_PACKET_MAX - TB_CTF_EVENT_HDR - 8 - 4, n;
	struct tb_ctf_stream *s;
	int64_t id;
	int ret;

	if (!c->dumped) {
		ret = cv_statedump(c, it->cpu, it->tsc);
		if (ret)
			return ret;
	}
	if (it->kind == IT_LOST) {
		s = cv_stream(c, it->cpu);
		if (!s)
			return c->err ? c->err : -ENOMEM;
		c->st->lost += k->args[0];
		return tb_ctf_stream_lost(s, k->args[0], it->tsc, c->meta.uuid);
	}
	ret = cv_switch(c, it->cpu, it->tid, it->tsc);
	if (ret)
		return ret;
	if (it->kind == IT_ENTER || it->kind == IT_EXIT)
		return cv_func(c, k, cv_kid(c, it->id));
	n = it->len;
	if (n > room) {
		/* Longer than a packet holds: cut, and said so. */
		n = room;
		c->st->cut_markers++;
	}
	if (it->kind == IT_MARKER) {
		id = cv_class(c, K_LOGGER, "lttng_logger", f_logger);
		if (id < 0 || tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc) ||
		    tb_ctf_ev_seq(&c->ev, k->data.data, n))
			return -ENOMEM;
	} else {
		id = cv_class(c, K_TYPED, "tracebuf_typed_event", f_typed);
		if (id < 0 || tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc) ||
		    tb_ctf_ev_u32(&c->ev, it->id) ||
		    tb_ctf_ev_seq(&c->ev, k->data.data, n))
			return -ENOMEM;
		c->st->own++;
	}
	return cv_emit(c, it->cpu, it->tsc);
}

static int cv_merge(struct cv_ctx *c)
{
	struct cv_cursor *cur, **heap;
	size_t i, n = 0;
	int ret = 0;

	cur = calloc(c->nruns ? c->nruns : 1, sizeof(*cur));
	heap = calloc(c->nruns ? c->nruns : 1, sizeof(*heap));
	if (!cur || !heap) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c->nruns && !ret; i++) {
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
		ret = cv_write(c, heap[0]);
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
