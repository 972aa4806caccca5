// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping of tracebuf's records to LTTng's kernel events, and the
 * events derived from the trace (sched_switch, the state dump): see
 * Documentation/formats.rst ("CTF 1.8, as fdr-ctf writes it").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_ctf_event.h"

/* Our tid of the idle task of CPU n is LTTng's 0 (swapper/n). */
static int32_t cv_tid(int32_t tid)
{
	return tb_task_map_shown_tid(tid);
}

/* What to call @tid: see tb_fdr_merge_comm(). */
static const char *cv_comm_of(struct cv_ctx *c, int32_t tid,
			      char buf[TB_CTF_COMM_LEN])
{
	return tb_fdr_merge_comm(&c->m, c->o->tasks, tid, buf);
}

static int32_t cv_pid_of(struct cv_ctx *c, int32_t tid)
{
	return tb_fdr_merge_pid(&c->m, c->o->tasks, tid);
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
		c->streams[cpu].start = c->m.first;
		c->streams[cpu].stop = c->m.last;
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
	K_WAKEUP, K_WAKEUP_NEW,
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

/* LTTng writes a task's priority less MAX_RT_PRIO: nice 0 is 20. */
#define CV_MAX_RT_PRIO	100
#define CV_PRIO		20

/* The event of a switch from @prev to @next (-1: nobody known). */
static int cv_switch_event(struct cv_ctx *c, uint16_t cpu, uint64_t tsc,
			   int32_t prev, int32_t next, int32_t prev_prio,
			   int32_t next_prio, uint64_t state)
{
	char b1[TB_CTF_COMM_LEN], b2[TB_CTF_COMM_LEN];
	int64_t id;

	id = cv_class(c, K_SWITCH, "sched_switch", f_switch);
	if (id < 0)
		return (int)id;
	if (tb_ctf_ev_begin(&c->ev, (uint32_t)id, tsc) ||
	    tb_ctf_ev_comm(&c->ev, prev < 0 ? "" : cv_comm_of(c, prev, b1)) ||
	    tb_ctf_ev_i32(&c->ev, prev < 0 ? 0 : cv_tid(prev)) ||
	    tb_ctf_ev_i32(&c->ev, prev_prio) || tb_ctf_ev_64(&c->ev, state) ||
	    tb_ctf_ev_comm(&c->ev, cv_comm_of(c, next, b2)) ||
	    tb_ctf_ev_i32(&c->ev, cv_tid(next)) ||
	    tb_ctf_ev_i32(&c->ev, next_prio))
		return -ENOMEM;
	return cv_emit(c, cpu, tsc);
}

/*
 * A recorded switch (SWITCH typed event): the kernel's own, with the
 * state prev left the CPU in; the CPU's task is now next.
 */
static int cv_recorded_switch(struct cv_ctx *c, const struct tb_fdr_merge_item *it,
			      const struct tb_fdr_switch *sw)
{
	if (!cv_stream(c, it->cpu))
		return c->err ? c->err : -ENOMEM;
	c->current[it->cpu] = sw->next_tid;
	c->st->sched_switches++;
	return cv_switch_event(c, it->cpu, it->tsc, sw->prev_tid, sw->next_tid,
			       sw->prev_prio - CV_MAX_RT_PRIO,
			       sw->next_prio - CV_MAX_RT_PRIO,
			       tb_fdr_merge_prev_state(sw->prev_state));
}

/*
 * The task on @cpu is now @tid, and no recorded switch said so: a
 * derived sched_switch, as the recorder starts a task's block where the
 * kernel switched to it.  In a trace without SWITCH events that is every
 * change of task; with them, only a CPU's first task (running when the
 * capture began) or a switch lost with events.  prev_state and the
 * priorities are not known: 0 (running) and CV_PRIO.
 */
static int cv_switch(struct cv_ctx *c, uint16_t cpu, int32_t tid, uint64_t tsc)
{
	int32_t prev;

	if (!cv_stream(c, cpu))
		return c->err ? c->err : -ENOMEM;
	prev = c->current[cpu];
	if (prev == tid)
		return 0;
	c->current[cpu] = tid;
	c->st->switches++;
	return cv_switch_event(c, cpu, tsc, prev, tid, CV_PRIO, CV_PRIO, 0);
}

static const struct cv_field f_wakeup[] = {
	{ TB_CTF_COMM, "comm" }, { TB_CTF_I32, "tid" }, { TB_CTF_I32, "prio" },
	{ TB_CTF_I32, "target_cpu" }, { 0, NULL },
};

/* A WAKEUP typed event: sched_wakeup or sched_wakeup_new, on the waker's CPU. */
static int cv_wakeup(struct cv_ctx *c, const struct tb_fdr_merge_item *it,
		     const struct tb_fdr_wakeup *w)
{
	char b[TB_CTF_COMM_LEN];
	int64_t id;

	id = w->new_task ?
	     cv_class(c, K_WAKEUP_NEW, "sched_wakeup_new", f_wakeup) :
	     cv_class(c, K_WAKEUP, "sched_wakeup", f_wakeup);
	if (id < 0)
		return (int)id;
	if (tb_ctf_ev_begin(&c->ev, (uint32_t)id, it->tsc) ||
	    tb_ctf_ev_comm(&c->ev, cv_comm_of(c, w->tid, b)) ||
	    tb_ctf_ev_i32(&c->ev, cv_tid(w->tid)) ||
	    tb_ctf_ev_i32(&c->ev, w->prio - CV_MAX_RT_PRIO) ||
	    tb_ctf_ev_i32(&c->ev, w->cpu))
		return -ENOMEM;
	c->st->wakeups++;
	return cv_emit(c, it->cpu, it->tsc);
}

/*
 * Trace Compass's state dump handler requires ppid and status: neither is
 * recorded, so 0 (status 0 is LTTng's "unnamed", unknown).
 */
static const struct cv_field f_proc[] = {
	{ TB_CTF_I32, "tid" }, { TB_CTF_I32, "vtid" }, { TB_CTF_I32, "pid" },
	{ TB_CTF_I32, "vpid" }, { TB_CTF_I32, "ppid" }, { TB_CTF_I32, "vppid" },
	{ TB_CTF_COMM, "name" }, { TB_CTF_I32, "status" }, { 0, NULL },
};

static bool cv_dumped_tid(const struct cv_ctx *c, int32_t tid)
{
	uint32_t i = tb_hash_get(&c->m.by_tid, (uint32_t)tid);

	return i && !c->m.tasks[i - 1].forked;
}

static int cv_dump_one(struct cv_ctx *c, int64_t id, int32_t tid, uint16_t cpu,
		       uint64_t tsc)
{
	char b[TB_CTF_COMM_LEN];
	int32_t pid = cv_pid_of(c, tid);

	if (tb_ctf_ev_begin(&c->ev, (uint32_t)id, tsc) ||
	    tb_ctf_ev_i32(&c->ev, tid) || tb_ctf_ev_i32(&c->ev, tid) ||
	    tb_ctf_ev_i32(&c->ev, pid) || tb_ctf_ev_i32(&c->ev, pid) ||
	    tb_ctf_ev_i32(&c->ev, 0) || tb_ctf_ev_i32(&c->ev, 0) ||
	    tb_ctf_ev_comm(&c->ev, cv_comm_of(c, tid, b)) ||
	    tb_ctf_ev_i32(&c->ev, 0))
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
	for (i = 0; !ret && i < c->m.ntasks; i++)
		if (!c->m.tasks[i].forked && c->m.tasks[i].tid < TRACEBUF_FDR_IDLE_TID(0))
			ret = cv_dump_one(c, id, c->m.tasks[i].tid, cpu, tsc);
	for (i = 0; !ret && c->o->tasks && i < c->o->tasks->n; i++)
		if (!cv_dumped_tid(c, c->o->tasks->v[i].tid) &&
		    !tb_hash_get(&c->m.by_tid, (uint32_t)c->o->tasks->v[i].tid))
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

/*
 * The calls whose kernel function is not named as their __NR_ macro
 * (arch/x86/entry/syscalls/syscall_64.tbl's entry points, arm64's
 * include/uapi/asm-generic/unistd.h): lttng-modules names its events
 * after the function.  The trace names no architecture, so a call renamed
 * on one only is told by its number there too (nr, or -1 for any):
 * sendfile is sys_sendfile64 on x86-64 (40) and arm64 (71) but
 * sys_sendfile on 32-bit ARM (187); arm64's fadvise64 (223) is
 * sys_fadvise64_64, x86-64's (221) sys_fadvise64.
 */
static const struct {
	const char *nr, *lttng;
	int64_t num;
} cv_sys_renamed[] = {
	{ "stat", "newstat", -1 }, { "fstat", "newfstat", -1 },
	{ "lstat", "newlstat", -1 }, { "uname", "newuname", -1 },
	{ "umount2", "umount", -1 },
	{ "sendfile", "sendfile64", 40 }, { "sendfile", "sendfile64", 71 },
	{ "fadvise64", "fadvise64_64", 223 },
};

/* The syscall's name for LTTng: "read" from "sys_read". */
static const char *cv_sysname(struct cv_ctx *c, uint32_t id, char *buf,
			      size_t size, uint32_t key)
{
	const char *n = c->o->names ? tb_name_map_find(c->o->names, id) : NULL;
	size_t i;

	if (n && !strncmp(n, "sys_", 4)) {
		n += 4;
		for (i = 0; i < sizeof(cv_sys_renamed) / sizeof(cv_sys_renamed[0]); i++)
			if (!strcmp(n, cv_sys_renamed[i].nr) &&
			    (cv_sys_renamed[i].num < 0 || cv_sys_renamed[i].num ==
			     (int64_t)(key & ~TRACEBUF_FDR_KEY_COMPAT)))
				return cv_sys_renamed[i].lttng;
		return n;
	}
	if (n)
		return n;
	snprintf(buf, size, "%u", key & ~TRACEBUF_FDR_KEY_COMPAT);
	return buf;
}

static int cv_syscall(struct cv_ctx *c, const struct tb_fdr_merge_cursor *k, uint32_t kid)
{
	const struct tb_fdr_merge_item *it = &k->it;
	bool exit = it->kind == TB_MERGE_EXIT;
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
		/*
		 * The recorder writes a return value (RET) only when it is
		 * an error: without one, 0, which the analyses count as a
		 * success.
		 */
		if (it->flags & TB_MERGE_F_RET)
			c->st->rets++;
		else
			c->st->sys_exits++;
		if (tb_ctf_ev_64(&c->ev, (uint64_t)tb_fdr_merge_ret(k)))
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

static int cv_func(struct cv_ctx *c, const struct tb_fdr_merge_cursor *k, uint32_t kid)
{
	const struct tb_fdr_merge_item *it = &k->it;
	bool exit = it->kind == TB_MERGE_EXIT;
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
		c->st->irq_exits += exit;
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

int tb_fdr_ctf_event_write(struct cv_ctx *c, const struct tb_fdr_merge_cursor *k)
{
	const struct tb_fdr_merge_item *it = &k->it;
	size_t room = TB_CTF_PACKET_MAX - TB_CTF_EVENT_HDR - 8 - 4, n;
	struct tb_fdr_event ev;
	struct tb_ctf_stream *s;
	int64_t id;
	int ret;

	if (!c->dumped) {
		ret = cv_statedump(c, it->cpu, it->tsc);
		if (ret)
			return ret;
	}
	if (it->kind == TB_MERGE_LOST) {
		s = cv_stream(c, it->cpu);
		if (!s)
			return c->err ? c->err : -ENOMEM;
		c->st->lost += k->args[0];
		return tb_ctf_stream_lost(s, k->args[0], it->tsc, c->meta.uuid);
	}
	switch (it->kind == TB_MERGE_TYPED ? tb_fdr_merge_event(k, &ev) :
		TB_FDR_EV_NONE) {
	case TB_FDR_EV_SWITCH:
		return cv_recorded_switch(c, it, &ev.sw);
	case TB_FDR_EV_WAKEUP:
		ret = cv_switch(c, it->cpu, it->tid, it->tsc);
		return ret ? ret : cv_wakeup(c, it, &ev.wakeup);
	default:
		break;
	}
	ret = cv_switch(c, it->cpu, it->tid, it->tsc);
	if (ret)
		return ret;
	if (it->kind == TB_MERGE_ENTER || it->kind == TB_MERGE_EXIT)
		return cv_func(c, k, tb_fdr_merge_kid(&c->m, it->id));
	n = it->len;
	if (n > room) {
		/* Longer than a packet holds: cut, and said so. */
		n = room;
		c->st->cut_markers++;
	}
	if (it->kind == TB_MERGE_MARKER) {
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
