// SPDX-License-Identifier: GPL-2.0
/* The BPF collector's records into the kernel FDR file (collect/fdr_bpf.h). */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "collect/fdr_bpf.h"
#include "util/bytes.h"

static_assert(TB_FDR_BPF_CLASSES == (1U << TB_FDR_BPF_NR_CLASSES) - 1,
	      "marker is not the last class");

static const char *const kfunc_deny_globs[] = {
	"bpf_*", "__bpf_*", "*ringbuf*",		/* helpers, trampoline */
	"migrate_disable", "migrate_enable", "*rcu_read_*",
	"_raw_spin_*", "do_raw_spin_*", "*queued_spin_*",	/* its lock */
	"lock_acquire*", "lock_release", "lock_contended", "*lockdep*",
	"ktime_get*",					/* the clock */
	"*irq_work*", "*send_IPI*",			/* the wake-up */
	NULL
};

const struct tb_kfunc_deny tb_fdr_bpf_kfunc_deny = {
	.globs = kfunc_deny_globs,
	.why = "is on tracebuf bpf's own recording path (its programs, ring buffer, clock or wake-up): tracing it could deadlock",
};

int tb_fdr_bpf_init(struct tb_fdr_bpf *c, unsigned int nr_cpus,
		    uint32_t classes, uint64_t buffer_size)
{
	/* The blocks' stream: FDR v5 with CLOCK_MONOTONIC nanoseconds. */
	struct tb_fdr_header h = {
		.version = 5,
		.type = TB_FDR_TYPE_FDR,
		/* bpf_ktime_get_ns() is CLOCK_MONOTONIC: constant, non-stop. */
		.flags = TB_FDR_FLAG_CONSTANT_TSC | TB_FDR_FLAG_NONSTOP_TSC,
		.cycle_frequency = 1000000000ULL,
		.buffer_size = buffer_size,
	};

	memset(c, 0, sizeof(*c));
	c->nr_cpus = nr_cpus;
	c->classes = classes;
	return tb_fdr_blocks_init(&c->blk, nr_cpus, &h);
}

void tb_fdr_bpf_free(struct tb_fdr_bpf *c)
{
	tb_fdr_blocks_free(&c->blk);
	tb_buf_free(&c->workfns);
}

/*
 * Keys in order of first appearance, as the module's are per capture.
 * Without memory for a new one the capture fails at its end (blk.err).
 */
static uint32_t work_key(struct tb_fdr_bpf *c, uint64_t fn)
{
	const uint64_t *v = c->workfns.data;
	size_t i, nr = tb_buf_nr(&c->workfns, sizeof(*v));

	for (i = 0; i < nr; i++)
		if (v[i] == fn)
			return i;
	if (tb_buf_append(&c->workfns, &fn, sizeof(fn)))
		c->blk.err = -ENOMEM;
	return nr;
}

/*
 * The kernel's task state bits (include/linux/sched.h), which no UAPI
 * header exports; stable since 5.14 except for the flag bits above
 * TASK_NOLOAD, which only qualify a sleep and are ignored here.
 */
#define K_TASK_INTERRUPTIBLE	0x0001
#define K_TASK_UNINTERRUPTIBLE	0x0002
#define K_TASK_STOPPED		0x0004
#define K_TASK_TRACED		0x0008
#define K_EXIT_DEAD		0x0010
#define K_EXIT_ZOMBIE		0x0020
#define K_TASK_DEAD		0x0080
#define K_TASK_NOLOAD		0x0400
#define K_TASK_RTLOCK_WAIT	0x1000
#define K_TASK_IDLE		(K_TASK_UNINTERRUPTIBLE | K_TASK_NOLOAD)

unsigned int tb_fdr_bpf_state(uint32_t prev_state, bool preempt)
{
	/* Preempted: still runnable whatever state it was about to sleep in. */
	if (preempt || !prev_state)
		return TRACEBUF_FDR_STATE_RUNNING;
	/* The most final state wins, as the kernel's task_state_index(). */
	if (prev_state & (K_TASK_DEAD | K_EXIT_DEAD | K_EXIT_ZOMBIE))
		return TRACEBUF_FDR_STATE_DEAD;
	if (prev_state & (K_TASK_STOPPED | K_TASK_TRACED))
		return TRACEBUF_FDR_STATE_STOPPED;
	if ((prev_state & K_TASK_IDLE) == K_TASK_IDLE)
		return TRACEBUF_FDR_STATE_IDLE;
	/* A sleeping lock of PREEMPT_RT: D, as the kernel reports it. */
	if (prev_state & (K_TASK_UNINTERRUPTIBLE | K_TASK_RTLOCK_WAIT))
		return TRACEBUF_FDR_STATE_UNINTERRUPTIBLE;
	if (prev_state & K_TASK_INTERRUPTIBLE)
		return TRACEBUF_FDR_STATE_SLEEPING;
	return TRACEBUF_FDR_STATE_OTHER;	/* parked, frozen, ... */
}

/* Idle tasks all have pid 0 but each runs on one CPU only. */
static uint32_t task_tid(uint32_t pid, unsigned int cpu)
{
	return pid ? pid : (uint32_t)TRACEBUF_FDR_IDLE_TID(cpu);
}

/* The SWITCH typed event of a sched-class switch record, in next's block. */
static void put_switch(struct tb_fdr_bpf *c, const struct tb_bpf_event *e,
		       uint32_t tid)
{
	uint8_t p[TRACEBUF_FDR_SWITCH_SIZE];
	uint64_t tasks = e->args[0], state = e->args[1];

	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_PREV_TID,
		       task_tid((uint32_t)tasks, e->cpu));
	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_NEXT_TID, tid);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_PREV_PRIO, tasks >> 32);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_NEXT_PRIO, tasks >> 48);
	p[TRACEBUF_FDR_SWITCH_PREV_STATE] =
		tb_fdr_bpf_state((uint32_t)state, state >> 32);
	tb_fdr_blocks_typed(&c->blk, e->cpu, tid, e->tgid, e->ts,
			    TRACEBUF_FDR_TYPED_SWITCH, p, sizeof(p));
}

/* A wake-up's typed event, in the waker's block. */
static void put_wakeup(struct tb_fdr_bpf *c, const struct tb_bpf_event *e,
		       uint32_t tid)
{
	uint8_t p[TRACEBUF_FDR_WAKEUP_SIZE];
	uint64_t a = e->args[0];
	uint16_t cpu = a >> 32;

	/* A woken idle task (never seen) would be on its own CPU. */
	tb_bytes_put32(p + TRACEBUF_FDR_WAKEUP_TID, task_tid((uint32_t)a, cpu));
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_CPU, cpu);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_PRIO, a >> 48);
	p[TRACEBUF_FDR_WAKEUP_FLAGS] = e->id & TRACEBUF_FDR_WAKEUP_NEW;
	tb_fdr_blocks_typed(&c->blk, e->cpu, tid, e->tgid, e->ts,
			    TRACEBUF_FDR_TYPED_WAKEUP, p, sizeof(p));
}

/* A system call's error after its exit, with the exit's (kernel) id. */
static void put_ret(struct tb_fdr_bpf *c, const struct tb_bpf_event *e,
		    uint32_t tid)
{
	uint8_t p[TRACEBUF_FDR_RET_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_RET_ID, e->id);
	tb_bytes_put64(p + TRACEBUF_FDR_RET_VALUE, e->args[0]);
	tb_fdr_blocks_typed(&c->blk, e->cpu, tid, e->tgid, e->ts,
			    TRACEBUF_FDR_TYPED_RET, p, sizeof(p));
}

int tb_fdr_bpf_record(void *ctx, void *data, size_t size)
{
	struct tb_fdr_bpf *c = ctx;
	const struct tb_bpf_event *e = data;
	uint32_t space, id, tid;
	unsigned int nargs, i;
	enum tb_fdr_ev type;

	c->records++;
	if (size < sizeof(*e) || e->cpu >= c->nr_cpus ||
	    e->nargs > TB_BPF_MAX_ARGS ||
	    size < sizeof(*e) + e->nargs * sizeof(__u64)) {
		c->bad++;
		return 0;
	}
	tid = task_tid(e->tid, e->cpu);
	id = e->id;
	space = id >> TRACEBUF_FDR_ID_SPACE_SHIFT;
	nargs = e->nargs;

	switch (e->kind) {
	case TB_BPF_SWITCH:
		c->switches++;
		/* With the sched class, the block shows when the task came in. */
		tb_fdr_blocks_switch(&c->blk, e->cpu, tid, e->tgid, e->ts,
				     c->classes & TRACEBUF_FDR_SCHED);
		if (nargs == TB_BPF_SWITCH_ARGS &&
		    (c->classes & TRACEBUF_FDR_SCHED))
			put_switch(c, e, tid);
		else if (nargs)
			c->bad++;
		return 0;
	case TB_BPF_WAKEUP:
		if (nargs != 1 || !(c->classes & TRACEBUF_FDR_SCHED)) {
			c->bad++;
			return 0;
		}
		c->wakeups++;
		put_wakeup(c, e, tid);
		return 0;
	case TB_BPF_LOST:
		type = TB_FDR_EV_LOST;
		c->gap_reports++;
		c->gap_events += nargs ? e->args[0] : 0;
		break;
	case TB_BPF_COMM:
		if (nargs != TB_BPF_COMM_ARGS) {
			c->bad++;
			return 0;
		}
		type = TB_FDR_EV_COMM;
		break;
	case TB_BPF_ENTER:
	case TB_BPF_EXIT:
	case TB_BPF_POINT:
		type = e->kind == TB_BPF_ENTER ? TB_FDR_EV_ENTER :
		       e->kind == TB_BPF_EXIT ? TB_FDR_EV_EXIT : TB_FDR_EV_POINT;
		/* A syscall exit's one argument: its error (tracebuf.bpf.c). */
		if (space == TRACEBUF_FDR_SPACE_SYSCALL &&
		    e->kind == TB_BPF_EXIT && nargs &&
		    (nargs != 1 || (int64_t)e->args[0] >= 0 ||
		     (int64_t)e->args[0] < -TRACEBUF_FDR_RET_ERRNO_MAX)) {
			c->bad++;
			return 0;
		}
		/* Per class a call counts once, as tracebuf record counts. */
		for (i = 0; i < TB_FDR_BPF_NR_CLASSES; i++)
			if (tb_fdr_classes[i].space == space &&
			    e->kind != TB_BPF_EXIT)
				c->per_class[i]++;
		c->events++;
		if (space == TRACEBUF_FDR_SPACE_WORK && nargs) {
			id = TRACEBUF_FDR_ID(space, work_key(c, e->args[0]));
			nargs = 0;
		}
		if (space == TRACEBUF_FDR_SPACE_SYSCALL &&
		    e->kind == TB_BPF_EXIT && nargs) {
			c->errors++;
			tb_fdr_blocks_event(&c->blk, e->cpu, tid, e->tgid,
					    e->ts, TB_FDR_EV_EXIT, id, NULL, 0);
			put_ret(c, e, tid);
			return 0;
		}
		if (space == TRACEBUF_FDR_SPACE_IRQ &&
		    (id & TRACEBUF_FDR_ID_KEY_MASK) < TB_FDR_KNAMES_IRQS) {
			uint32_t irq = id & TRACEBUF_FDR_ID_KEY_MASK;

			c->irq_seen[irq / 64] |= 1ULL << (irq % 64);
		}
		break;
	default:
		c->bad++;
		return 0;
	}

	tb_fdr_blocks_event(&c->blk, e->cpu, tid, e->tgid, e->ts, type, id,
			    (const uint64_t *)e->args, nargs);
	return 0;
}

int tb_fdr_bpf_write(struct tb_fdr_bpf *c, FILE *out,
		     struct tb_fdr_post *post, struct tb_error *err)
{
	/* The blocks as they ended, put in order by the post-processing. */
	if (tb_fdr_blocks_finish(&c->blk)) {
		tb_error_set(err, 0, "out of memory");
		return -1;
	}
	return tb_fdr_post_run(post, c->blk.fdr, c->blk.fdr_len, out, err);
}

int tb_fdr_bpf_names(const struct tb_fdr_bpf *c, FILE *interrupts,
		     FILE *kallsyms, struct tb_name_map *known)
{
	struct tb_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *t = open_memstream(&text, &len);
	int ret = 0;

	if (!t)
		return -1;
	tb_fdr_knames_fixed(t);
	if (interrupts)
		tb_fdr_knames_irqs(interrupts, c->irq_seen, t);
	if (tb_fdr_knames_work(kallsyms, c->workfns.data,
			       tb_buf_nr(&c->workfns, sizeof(uint64_t)), t) < 0)
		ret = -1;
	if (c->kfuncs)
		tb_kfunc_write_names(c->kfuncs, t);
	if (fclose(t) || ret || tb_fdr_post_kernel_names(known, text) ||
	    tb_name_map_finish(known, &err))
		ret = -1;
	free(text);
	return ret;
}

void tb_fdr_bpf_stats(const struct tb_fdr_bpf *c,
		      const struct tb_fdr_post *post,
		      const struct tb_fdr_bpf_losses *lost, uint64_t *lost_cls,
		      struct tb_collect_stats *s, struct tb_fdr_bpf_lost *tot)
{
	uint64_t kf_lost;
	size_t i;

	memset(tot, 0, sizeof(*tot));
	memset(lost_cls, 0, TB_FDR_NR_CLASSES * sizeof(*lost_cls));
	s->lost = 0;
	for (i = 0; i < TB_FDR_BPF_NR_CLASSES; i++) {
		uint32_t sp = tb_fdr_classes[i].space;

		lost_cls[i] = lost->ringbuf[sp] + lost->recursion[sp];
		s->lost += lost_cls[i];
		tot->ringbuf += lost->ringbuf[sp];
		tot->recursion += lost->recursion[sp];
		s->per_class[i] = c->per_class[i];
	}
	/* Kernel functions: no class of their own, but lost all the same. */
	kf_lost = lost->ringbuf[TRACEBUF_FDR_SPACE_KFUNC] +
		  lost->recursion[TRACEBUF_FDR_SPACE_KFUNC];
	s->lost += kf_lost;
	tot->ringbuf += lost->ringbuf[TRACEBUF_FDR_SPACE_KFUNC];
	tot->recursion += lost->recursion[TRACEBUF_FDR_SPACE_KFUNC];
	tot->switches = lost->ringbuf[0] + lost->recursion[0];
	s->lost_per_class = lost_cls;
	s->events = c->events;
	s->bytes = post->bytes;
	s->blocks = post->out_blocks;
	s->unmatched = post->removed;
	s->raw = post->raw;
	s->switches = post->switches;
	s->wakeups = post->wakeups;
	s->errors = post->rets;
	if (c->kfuncs) {
		/* record -f's keys */
		tb_collect_count(s, "kfunc_calls",
				 post->enters[TRACEBUF_FDR_SPACE_KFUNC]);
		tb_collect_count(s, "kfunc_missed", kf_lost);
	}
	if (post->closed)
		tb_collect_count(s, "lost_exits_closed", post->closed);
	tb_collect_count(s, "records", c->records);
	tb_collect_count(s, "switches", c->switches);
	tb_collect_count(s, "wakeup_events", c->wakeups);
	tb_collect_count(s, "syscall_errors", c->errors);
	tb_collect_count(s, "lost_ringbuf", tot->ringbuf);
	tb_collect_count(s, "lost_recursion", tot->recursion);
	tb_collect_count(s, "lost_switches", tot->switches);
	tb_collect_count(s, "clamped", c->blk.clamped);
	tb_collect_count(s, "malformed", c->bad);
	tb_collect_count(s, "loss_markers", c->gap_reports);
	tb_collect_count(s, "loss_marked", c->gap_events);
}
