// SPDX-License-Identifier: GPL-2.0
/*
 * The events of a trace.dat and the mapping of tracebuf's records to
 * them: see Documentation/formats.rst ("trace.dat, as fdr-tracedat
 * writes it").  The kernel's tracepoints keep the kernel's field names,
 * types and print formats, so that trace-cmd's filters (-F) and
 * KernelShark read them as they read a recording; what has none is a
 * tracebuf:* event.  The scheduler's typed events (format/fdr_event.h)
 * are sched_switch, sched_wakeup and sched_wakeup_new; a syscall's RET is
 * its sys_exit's ret.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "convert/fdr_tracedat_event.h"
#include "format/task_map.h"
#include "util/muldiv.h"

enum td_ev {
	TD_PRINT,		/* ftrace: the only event of ftrace's own */
	TD_SYS_ENTER, TD_SYS_EXIT,
	TD_IRQ_ENTRY, TD_IRQ_EXIT, TD_SOFT_ENTRY, TD_SOFT_EXIT,
	TD_FAULT_USER, TD_FAULT_KERNEL,
	TD_FORK, TD_EXIT, TD_SWITCH, TD_WAKEUP, TD_WAKEUP_NEW,
	TD_FUNC_ENTRY, TD_FUNC_EXIT, TD_TYPED,
	TD_NR_EVENTS
};

struct td_field {
	const char *type, *name;	/* as the format says them */
	uint8_t size;			/* 0: the record's rest (char buf[]) */
	uint8_t is_signed;
};

struct td_event {
	const char *system, *name;
	uint16_t id;			/* common_type */
	const struct td_field *fields;	/* ending in a NULL type */
	const char *fmt;		/* print fmt */
};

/* ftrace's print is type 5 in every kernel; ours follow TD_ID_BASE. */
#define TD_ID_PRINT	5
#define TD_ID_BASE	1000
#define TD_COMMON	8		/* common_type, _flags, _preempt_count, _pid */

static const struct td_field f_print[] = {
	{ "unsigned long", "ip", 8, 0 }, { "char", "buf[]", 0, 1 }, { NULL },
};
static const struct td_field f_sys_enter[] = {
	{ "long", "id", 8, 1 }, { "unsigned long", "args[6]", 48, 0 }, { NULL },
};
static const struct td_field f_sys_exit[] = {
	{ "long", "id", 8, 1 }, { "long", "ret", 8, 1 }, { NULL },
};
static const struct td_field f_irq_entry[] = {
	{ "int", "irq", 4, 1 }, { "__data_loc char[]", "name", 4, 1 }, { NULL },
};
static const struct td_field f_irq_exit[] = {
	{ "int", "irq", 4, 1 }, { "int", "ret", 4, 1 }, { NULL },
};
static const struct td_field f_softirq[] = {
	{ "unsigned int", "vec", 4, 0 }, { NULL },
};
static const struct td_field f_fault[] = {
	{ "unsigned long", "address", 8, 0 }, { "unsigned long", "ip", 8, 0 },
	{ "unsigned long", "error_code", 8, 0 }, { NULL },
};
static const struct td_field f_fork[] = {
	{ "char", "parent_comm[16]", 16, 1 }, { "pid_t", "parent_pid", 4, 1 },
	{ "char", "child_comm[16]", 16, 1 }, { "pid_t", "child_pid", 4, 1 },
	{ NULL },
};
static const struct td_field f_exit[] = {
	{ "char", "comm[16]", 16, 1 }, { "pid_t", "pid", 4, 1 },
	{ "int", "prio", 4, 1 }, { NULL },
};
static const struct td_field f_switch[] = {
	{ "char", "prev_comm[16]", 16, 1 }, { "pid_t", "prev_pid", 4, 1 },
	{ "int", "prev_prio", 4, 1 }, { "long", "prev_state", 8, 1 },
	{ "char", "next_comm[16]", 16, 1 }, { "pid_t", "next_pid", 4, 1 },
	{ "int", "next_prio", 4, 1 }, { NULL },
};
static const struct td_field f_wakeup[] = {
	{ "char", "comm[16]", 16, 1 }, { "pid_t", "pid", 4, 1 },
	{ "int", "prio", 4, 1 }, { "int", "target_cpu", 4, 1 }, { NULL },
};
static const struct td_field f_func[] = {
	{ "unsigned int", "id", 4, 0 }, { "__data_loc char[]", "name", 4, 1 },
	{ NULL },
};
static const struct td_field f_typed[] = {
	{ "unsigned int", "type", 4, 0 },
	{ "__data_loc unsigned char[]", "data", 4, 0 }, { NULL },
};

#define TD_SOFTIRQ_FMT \
	"\"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, " \
	"{ 0, \"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, " \
	"{ 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, " \
	"{ 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, " \
	"{ 9, \"RCU\" })"
#define TD_FAULT_FMT \
	"\"address=%ps ip=%ps error_code=0x%lx\", (void *)REC->address, " \
	"(void *)REC->ip, REC->error_code"
#define TD_FUNC_FMT	"\"%s (id 0x%x)\", __get_str(name), REC->id"
/*
 * The kernel's (include/trace/events/sched.h), TASK_REPORT_MAX - 1 and
 * TASK_REPORT_MAX written as the numbers they are, 0xff and 0x100.
 */
#define TD_SWITCH_FMT \
	"\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> " \
	"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, " \
	"REC->prev_pid, REC->prev_prio, (REC->prev_state & 0xff) ? " \
	"__print_flags(REC->prev_state & 0xff, \"|\", { 0x01, \"S\" }, " \
	"{ 0x02, \"D\" }, { 0x04, \"T\" }, { 0x08, \"t\" }, { 0x10, \"X\" }, " \
	"{ 0x20, \"Z\" }, { 0x40, \"P\" }, { 0x80, \"I\" }) : \"R\", " \
	"REC->prev_state & 0x100 ? \"+\" : \"\", REC->next_comm, " \
	"REC->next_pid, REC->next_prio"
#define TD_WAKEUP_FMT \
	"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu"

/* By system, ftrace first: the header lists each system's events together. */
static const struct td_event td_events[TD_NR_EVENTS] = {
	[TD_PRINT] = { "ftrace", "print", TD_ID_PRINT, f_print,
		"\"%ps: %s\", (void *)REC->ip, REC->buf" },
	[TD_SYS_ENTER] = { "raw_syscalls", "sys_enter", 0, f_sys_enter,
		"\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, "
		"REC->args[0], REC->args[1], REC->args[2], REC->args[3], "
		"REC->args[4], REC->args[5]" },
	[TD_SYS_EXIT] = { "raw_syscalls", "sys_exit", 0, f_sys_exit,
		"\"NR %ld = %ld\", REC->id, REC->ret" },
	[TD_IRQ_ENTRY] = { "irq", "irq_handler_entry", 0, f_irq_entry,
		"\"irq=%d name=%s\", REC->irq, __get_str(name)" },
	[TD_IRQ_EXIT] = { "irq", "irq_handler_exit", 0, f_irq_exit,
		"\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"" },
	[TD_SOFT_ENTRY] = { "irq", "softirq_entry", 0, f_softirq, TD_SOFTIRQ_FMT },
	[TD_SOFT_EXIT] = { "irq", "softirq_exit", 0, f_softirq, TD_SOFTIRQ_FMT },
	[TD_FAULT_USER] = { "exceptions", "page_fault_user", 0, f_fault,
		TD_FAULT_FMT },
	[TD_FAULT_KERNEL] = { "exceptions", "page_fault_kernel", 0, f_fault,
		TD_FAULT_FMT },
	[TD_FORK] = { "sched", "sched_process_fork", 0, f_fork,
		"\"comm=%s pid=%d child_comm=%s child_pid=%d\", "
		"REC->parent_comm, REC->parent_pid, REC->child_comm, "
		"REC->child_pid" },
	[TD_EXIT] = { "sched", "sched_process_exit", 0, f_exit,
		"\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio" },
	[TD_SWITCH] = { "sched", "sched_switch", 0, f_switch, TD_SWITCH_FMT },
	[TD_WAKEUP] = { "sched", "sched_wakeup", 0, f_wakeup, TD_WAKEUP_FMT },
	[TD_WAKEUP_NEW] = { "sched", "sched_wakeup_new", 0, f_wakeup,
		TD_WAKEUP_FMT },
	[TD_FUNC_ENTRY] = { "tracebuf", "func_entry", 0, f_func, TD_FUNC_FMT },
	[TD_FUNC_EXIT] = { "tracebuf", "func_exit", 0, f_func, TD_FUNC_FMT },
	[TD_TYPED] = { "tracebuf", "typed_event", 0, f_typed,
		"\"type=%u len=%d\", REC->type, __get_dynamic_array_len(data)" },
};

static uint16_t td_id(enum td_ev e)
{
	return td_events[e].id ? td_events[e].id : (uint16_t)(TD_ID_BASE + e);
}

static int td_printf(struct tb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int td_printf(struct tb_buf *b, const char *fmt, ...)
{
	va_list ap;
	char line[1024];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -EINVAL;
	return tb_buf_append(b, line, (size_t)n);
}

/* The text of events/SYSTEM/NAME/format. */
static int td_format(struct tb_buf *b, enum td_ev e)
{
	const struct td_event *ev = &td_events[e];
	const struct td_field *f;
	unsigned int off = TD_COMMON;
	int ret;

	ret = td_printf(b, "name: %s\nID: %u\nformat:\n"
			"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n",
			ev->name, td_id(e));
	for (f = ev->fields; !ret && f->type; f++) {
		ret = td_printf(b, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
				f->type, f->name, off, f->size, f->is_signed);
		off += f->size;
	}
	if (!ret)
		ret = td_printf(b, "\nprint fmt: %s\n", ev->fmt);
	return ret;
}

static int td_put(struct tb_buf *b, const void *p, size_t n)
{
	return tb_buf_append(b, p, n);
}

/* One format as the header holds it: its size (u64), its text. */
static int td_format_entry(struct tb_buf *out, enum td_ev e)
{
	size_t at = out->len;
	uint64_t size;
	int ret;

	if (!tb_buf_add(out, 8))
		return -ENOMEM;
	ret = td_format(out, e);
	if (ret)
		return ret;
	size = out->len - at - 8;
	memcpy(out->data + at, &size, 8);
	return 0;
}

int tb_fdr_tracedat_event_formats(struct tb_buf *out)
{
	uint32_t n, systems = 0;
	size_t e, i;
	int ret;

	/* ftrace's formats: print. */
	n = 1;
	ret = td_put(out, &n, 4);
	if (!ret)
		ret = td_format_entry(out, TD_PRINT);
	for (e = TD_PRINT + 1; e < TD_NR_EVENTS; e++)
		if (strcmp(td_events[e].system, td_events[e - 1].system))
			systems++;
	if (!ret)
		ret = td_put(out, &systems, 4);
	for (e = TD_PRINT + 1; !ret && e < TD_NR_EVENTS; e = i) {
		for (i = e; i < TD_NR_EVENTS &&
		     !strcmp(td_events[i].system, td_events[e].system); i++)
			;
		n = (uint32_t)(i - e);
		ret = td_put(out, td_events[e].system,
			     strlen(td_events[e].system) + 1);
		if (!ret)
			ret = td_put(out, &n, 4);
		for (; !ret && e < i; e++)
			ret = td_format_entry(out, (enum td_ev)e);
	}
	return ret;
}

/* ---- records ---- */

static int td_begin(struct td_ctx *c, enum td_ev e, int32_t tid)
{
	uint8_t *p;
	uint16_t type = td_id(e);
	int32_t pid = tb_task_map_shown_tid(tid);

	c->rec.len = 0;
	p = tb_buf_add(&c->rec, TD_COMMON);
	if (!p)
		return -ENOMEM;
	memcpy(p, &type, 2);
	p[2] = 0;		/* flags: not recorded */
	p[3] = 0;		/* preempt count: not recorded */
	memcpy(p + 4, &pid, 4);
	return 0;
}

static int td_u32(struct td_ctx *c, uint32_t v)
{
	return td_put(&c->rec, &v, 4);
}

static int td_u64(struct td_ctx *c, uint64_t v)
{
	return td_put(&c->rec, &v, 8);
}

static int td_comm(struct td_ctx *c, const char *s)
{
	uint8_t *p = tb_buf_add(&c->rec, TB_TASK_COMM_LEN);

	if (!p)
		return -ENOMEM;
	memset(p, 0, TB_TASK_COMM_LEN);
	memcpy(p, s, strnlen(s, TB_TASK_COMM_LEN - 1));
	return 0;
}

/*
 * A __data_loc field, last of the fixed ones: its word says where the
 * @n bytes at @s are, after the fixed fields ((length << 16) | offset).
 */
static int td_dyn(struct td_ctx *c, const void *s, size_t n)
{
	uint32_t loc = (uint32_t)(n << 16) | (uint32_t)(c->rec.len + 4);

	if (n > 0xffff)
		return -EINVAL;
	return td_u32(c, loc) || td_put(&c->rec, s, n) ? -ENOMEM : 0;
}

static int td_emit(struct td_ctx *c, const struct tb_fdr_merge_item *it)
{
	struct tb_td_page *p = &c->cpus[it->cpu];
	uint64_t ns = tb_muldiv64(it->tsc, 1000000000U, c->m.freq);

	c->st->events++;
	return tb_fdr_tracedat_page_add(p, ns, c->rec.data, c->rec.len);
}

static const char *td_name(struct td_ctx *c, uint32_t id)
{
	return c->o->names ? tb_name_map_find(c->o->names, id) : NULL;
}

/* The IRQ's name from "irq_N_NAME" (the collectors' names). */
static const char *td_irq_name(struct td_ctx *c, uint32_t id)
{
	const char *n = td_name(c, id), *p;

	if (!n || strncmp(n, "irq_", 4))
		return n ? n : "";
	p = strchr(n + 4, '_');
	return p ? p + 1 : "";
}

static int td_syscall(struct td_ctx *c, const struct tb_fdr_merge_cursor *k,
		      uint32_t key)
{
	const struct tb_fdr_merge_item *it = &k->it;
	bool exit = it->kind == TB_MERGE_EXIT;
	int64_t nr = key & ~TRACEBUF_FDR_KEY_COMPAT;
	unsigned int i;
	int ret;

	c->st->compat += !!(key & TRACEBUF_FDR_KEY_COMPAT);
	ret = td_begin(c, exit ? TD_SYS_EXIT : TD_SYS_ENTER, it->tid) ||
	      td_u64(c, (uint64_t)nr) ? -ENOMEM : 0;
	if (exit) {
		/* The recorder writes errors only (RET): else 0, a success. */
		if (it->flags & TB_MERGE_F_RET)
			c->st->rets++;
		else
			c->st->sys_exits++;
		return ret ? ret : td_u64(c, (uint64_t)tb_fdr_merge_ret(k));
	}
	if (!it->nargs)
		c->st->args_unrecorded++;
	/* -1: not recorded (tracebuf record without arguments). */
	for (i = 0; !ret && i < 6; i++)
		ret = td_u64(c, i < it->nargs ? k->args[i] : (uint64_t)-1);
	return ret;
}

static int td_task(struct td_ctx *c, const struct tb_fdr_merge_cursor *k,
		   uint32_t key)
{
	const struct tb_fdr_merge_item *it = &k->it;
	char b[TB_TASK_COMM_LEN];
	int32_t tid;

	if (key == 0) {
		tid = it->nargs ? (int32_t)k->args[0] : -1;
		/* The child's name is its parent's until it execs. */
		tb_fdr_merge_comm(&c->m, c->o->tasks, it->tid, b);
		return td_begin(c, TD_FORK, it->tid) || td_comm(c, b) ||
		       td_u32(c, (uint32_t)tb_task_map_shown_tid(it->tid)) ||
		       td_comm(c, b) || td_u32(c, (uint32_t)tid) ? -ENOMEM : 0;
	}
	tid = it->nargs ? (int32_t)k->args[0] : it->tid;
	/* The priority is not recorded: 120, nice 0's. */
	return td_begin(c, TD_EXIT, it->tid) ||
	       td_comm(c, tb_fdr_merge_comm(&c->m, c->o->tasks, tid, b)) ||
	       td_u32(c, (uint32_t)tb_task_map_shown_tid(tid)) ||
	       td_u32(c, 120) ? -ENOMEM : 0;
}

static int td_func(struct td_ctx *c, const struct tb_fdr_merge_cursor *k)
{
	const struct tb_fdr_merge_item *it = &k->it;
	uint32_t kid = tb_fdr_merge_kid(&c->m, it->id);
	uint32_t space = TRACEBUF_FDR_ID_SPACE(kid), key = TRACEBUF_FDR_ID_KEY(kid);
	bool exit = it->kind == TB_MERGE_EXIT;
	char fname[32];
	const char *n;
	int ret = -ENOMEM;

	switch (space) {
	case TRACEBUF_FDR_SPACE_SYSCALL:
		ret = td_syscall(c, k, key);
		break;
	case TRACEBUF_FDR_SPACE_IRQ:
		if (td_begin(c, exit ? TD_IRQ_EXIT : TD_IRQ_ENTRY, it->tid) ||
		    td_u32(c, key))
			break;
		/* The handler's return is not recorded: 1, IRQ_HANDLED. */
		c->st->irq_exits += exit;
		n = td_irq_name(c, it->id);
		ret = exit ? td_u32(c, 1) : td_dyn(c, n, strlen(n) + 1);
		break;
	case TRACEBUF_FDR_SPACE_SOFTIRQ:
		if (!td_begin(c, exit ? TD_SOFT_EXIT : TD_SOFT_ENTRY, it->tid))
			ret = td_u32(c, key);
		break;
	case TRACEBUF_FDR_SPACE_FAULT:
		/* The faulting ip and error code are not recorded: 0. */
		c->st->faults++;
		ret = td_begin(c, key ? TD_FAULT_KERNEL : TD_FAULT_USER, it->tid) ||
		      td_u64(c, it->nargs ? k->args[0] : 0) || td_u64(c, 0) ||
		      td_u64(c, 0) ? -ENOMEM : 0;
		break;
	case TRACEBUF_FDR_SPACE_TASK:
		ret = td_task(c, k, key);
		break;
	default:
		/* Kernel functions, work items, other ids: our own event. */
		n = td_name(c, it->id);
		if (!n) {
			/* As tracebuf report names an id it has no name for. */
			snprintf(fname, sizeof(fname), "function_%u", it->id);
			n = fname;
		}
		c->st->own++;
		/* The kernel's id when known, else the file's. */
		if (!td_begin(c, exit ? TD_FUNC_EXIT : TD_FUNC_ENTRY, it->tid) &&
		    !td_u32(c, kid ? kid : it->id))
			ret = td_dyn(c, n, strlen(n) + 1);
		break;
	}
	if (ret)
		return ret;
	return td_emit(c, it);
}

/*
 * A recorded switch, as the kernel's sched_switch: prev is the task the
 * tracepoint runs in (common_pid), the priorities the kernel's.
 */
static int td_switch(struct td_ctx *c, const struct tb_fdr_switch *sw)
{
	char b[TB_TASK_COMM_LEN];
	int64_t state = tb_fdr_merge_prev_state(sw->prev_state);

	c->st->switches++;
	return td_begin(c, TD_SWITCH, sw->prev_tid) ||
	       td_comm(c, tb_fdr_merge_comm(&c->m, c->o->tasks, sw->prev_tid, b)) ||
	       td_u32(c, (uint32_t)tb_task_map_shown_tid(sw->prev_tid)) ||
	       td_u32(c, (uint32_t)(int32_t)sw->prev_prio) ||
	       td_u64(c, (uint64_t)state) ||
	       td_comm(c, tb_fdr_merge_comm(&c->m, c->o->tasks, sw->next_tid, b)) ||
	       td_u32(c, (uint32_t)tb_task_map_shown_tid(sw->next_tid)) ||
	       td_u32(c, (uint32_t)(int32_t)sw->next_prio) ? -ENOMEM : 0;
}

/* A recorded wake-up, in the waker (@tid): sched_wakeup or _new. */
static int td_wakeup(struct td_ctx *c, int32_t tid,
		     const struct tb_fdr_wakeup *w)
{
	char b[TB_TASK_COMM_LEN];

	c->st->wakeups++;
	return td_begin(c, w->new_task ? TD_WAKEUP_NEW : TD_WAKEUP, tid) ||
	       td_comm(c, tb_fdr_merge_comm(&c->m, c->o->tasks, w->tid, b)) ||
	       td_u32(c, (uint32_t)tb_task_map_shown_tid(w->tid)) ||
	       td_u32(c, (uint32_t)(int32_t)w->prio) ||
	       td_u32(c, w->cpu) ? -ENOMEM : 0;
}

/* Fit @n bytes of payload after a record's fixed part of @fixed bytes. */
static size_t td_fit(struct td_ctx *c, size_t fixed, size_t n)
{
	if (fixed + n <= TB_TD_RECORD_MAX)
		return n;
	c->st->cut_markers++;
	return TB_TD_RECORD_MAX - fixed;
}

int tb_fdr_tracedat_event_write(struct td_ctx *c,
				const struct tb_fdr_merge_cursor *k)
{
	const struct tb_fdr_merge_item *it = &k->it;
	struct tb_fdr_event ev;
	size_t n;
	int ret;

	switch (it->kind) {
	case TB_MERGE_LOST:
		c->st->lost += k->args[0];
		return tb_fdr_tracedat_page_lost(&c->cpus[it->cpu], k->args[0]);
	case TB_MERGE_ENTER:
	case TB_MERGE_EXIT:
		return td_func(c, k);
	case TB_MERGE_MARKER:
		/*
		 * buf[] is a C string: its NUL after the text.  A NUL in the
		 * text ends it for every reader (print fmt "%s"); the bytes
		 * after it stay in the record, unseen: counted, to be said.
		 */
		n = td_fit(c, TD_COMMON + 8 + 1, it->len);
		if (memchr(k->data.data, 0, n))
			c->st->nul_markers++;
		ret = td_begin(c, TD_PRINT, it->tid) || td_u64(c, 0) ||
		      td_put(&c->rec, k->data.data, n) ||
		      td_put(&c->rec, "", 1) ? -ENOMEM : 0;
		break;
	default:
		switch (tb_fdr_merge_event(k, &ev)) {
		case TB_FDR_EV_SWITCH:
			ret = td_switch(c, &ev.sw);
			goto emit;
		case TB_FDR_EV_WAKEUP:
			ret = td_wakeup(c, it->tid, &ev.wakeup);
			goto emit;
		default:
			break;
		}
		n = td_fit(c, TD_COMMON + 8, it->len);
		c->st->own++;
		ret = td_begin(c, TD_TYPED, it->tid) || td_u32(c, it->id) ||
		      td_dyn(c, k->data.data, n) ? -ENOMEM : 0;
		break;
	}
emit:
	if (ret)
		return ret;
	return td_emit(c, it);
}
