// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf-bpf: the kernel FDR recorder's tracepoints as BPF programs.
 *
 * Every program is tp_btf (a BTF-enabled raw tracepoint): it runs from the
 * tracepoint's probe with the raw arguments, like the module's probes, with
 * no perf buffer or trace_event formatting in between, and reads the typed
 * arguments directly.  Each event becomes one struct tb_bpf_event in the
 * ring buffer; the collector builds the FDR file from them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "tracebuf_bpf.h"

/* The id layout: uapi/linux/tracebuf_fdr.h, by shorter names. */
#define ID(space, key)	TRACEBUF_FDR_ID(space, (__u32)(key))
#define SPACE_SYSCALL	TRACEBUF_FDR_SPACE_SYSCALL
#define SPACE_IRQ	TRACEBUF_FDR_SPACE_IRQ
#define SPACE_SOFTIRQ	TRACEBUF_FDR_SPACE_SOFTIRQ
#define SPACE_WORK	TRACEBUF_FDR_SPACE_WORK
#define SPACE_FAULT	TRACEBUF_FDR_SPACE_FAULT
#define SPACE_TASK	TRACEBUF_FDR_SPACE_TASK
#define SPACE_KFUNC	TRACEBUF_FDR_SPACE_KFUNC
#define KEY_OTHER	TRACEBUF_FDR_KEY_OTHER
#define KEY_COMPAT	TRACEBUF_FDR_KEY_COMPAT
#define X86_TS_COMPAT	0x0002		/* thread_info.status, x86 */
#define ARM64_TIF_32BIT	22		/* thread_info.flags, arm64 */

#if defined(__TARGET_ARCH_arm)
/*
 * 32-bit ARM, built against another architecture's vmlinux.h: a CO-RE
 * flavour of its pt_regs, matched by name on the running kernel.  The
 * arguments are r0..r5 and, with the EABI, the number is in r7.
 */
struct pt_regs___arm {
	unsigned long uregs[18];
} __attribute__((preserve_access_index));
#endif

char LICENSE[] SEC("license") = "GPL";

/*
 * Set by the collector before loading.  const volatile is libbpf's idiom
 * for .rodata: the verifier sees the loaded values as constants (dead
 * branches pruned), and the compiler must not fold the zero defaults.
 */
const volatile __u32 nr_args;		/* syscall arguments, 0..6 */
const volatile __u32 self_tgid;		/* the collector: not traced */
const volatile __u64 wakeup_bytes;	/* wake the reader above this */
/* The sched class: switches carry their tasks and state, wake-ups count. */
const volatile bool sched_events;

/*
 * Set by the collector once every program is attached, cleared before
 * detaching.  Programs attach one by one (milliseconds apart under TCG):
 * without the gate an entry program would record calls whose exit
 * program is not attached yet, leaving entries that never close.
 */
int enabled;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);	/* resized by the collector */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TB_BPF_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} drops SEC(".maps");

/* Events lost on this CPU and not yet reported in the stream. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} gap SEC(".maps");

static __always_inline void count_drop(__u32 idx)
{
	__u64 *d = bpf_map_lookup_elem(&drops, &idx);
	__u32 zero = 0;

	/*
	 * Atomic even though the counter is per CPU: another program can
	 * interrupt this one on the same CPU (an IRQ during sys_enter).
	 */
	if (d)
		__sync_fetch_and_add(d, 1);
	if (!idx)
		return;		/* a switch is no event */
	d = bpf_map_lookup_elem(&gap, &zero);
	if (d)
		__sync_fetch_and_add(d, 1);
}

/*
 * Wake the reader only when enough data is waiting: a wakeup per record
 * would cost an irq_work and a reader round trip per event.  The reader
 * also polls with a timeout, so a quiet system is still drained.
 */
static __always_inline void submit(struct tb_bpf_event *e)
{
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes)
		flags = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(e, flags);
}

static __always_inline void fill(struct tb_bpf_event *e, __u64 pid_tgid,
				 __u32 id, __u8 kind, __u8 nargs)
{
	e->ts = bpf_ktime_get_ns();
	e->id = id;
	e->kind = kind;
	e->nargs = nargs;
	e->cpu = bpf_get_smp_processor_id();
	e->tid = (__u32)pid_tgid;
	e->tgid = pid_tgid >> 32;
}

/*
 * After a loss, the next event on the CPU is preceded by a TB_BPF_LOST
 * record with the count, which becomes a "tracebuf: lost N events"
 * custom event at the place of the gap, as the module writes it.  Only
 * what was reported is subtracted: a nested loss meanwhile stays.
 */
static __always_inline void report_gap(__u64 pid_tgid)
{
	struct tb_bpf_event *e;
	__u32 zero = 0;
	__u64 *g, n;

	g = bpf_map_lookup_elem(&gap, &zero);
	if (!g || !*g)
		return;
	n = *g;
	e = bpf_ringbuf_reserve(&events, sizeof(*e) + sizeof(__u64), 0);
	if (!e)
		return;
	fill(e, pid_tgid, 0, TB_BPF_LOST, 1);
	e->args[0] = n;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	__sync_fetch_and_sub(g, n);
}

/* An event of the current task with no arguments. */
static __always_inline int emit(__u32 space, __u32 key, __u8 kind)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tb_bpf_event *e;

	if (!enabled || (pid_tgid >> 32) == self_tgid)
		return 0;
	report_gap(pid_tgid);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop(space);
		return 0;
	}
	fill(e, pid_tgid, ID(space, key), kind, 0);
	submit(e);
	return 0;
}

/* An event of the current task with one argument. */
static __always_inline int emit_arg(__u32 space, __u32 key, __u8 kind,
				    __u64 arg)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tb_bpf_event *e;

	if (!enabled || (pid_tgid >> 32) == self_tgid)
		return 0;
	report_gap(pid_tgid);
	e = bpf_ringbuf_reserve(&events, sizeof(*e) + sizeof(__u64), 0);
	if (!e) {
		count_drop(space);
		return 0;
	}
	fill(e, pid_tgid, ID(space, key), kind, 1);
	e->args[0] = arg;
	submit(e);
	return 0;
}

/* The module's syscall keys: compat calls marked, odd numbers apart. */
static __always_inline __u32 syscall_key(long nr)
{
	if (nr < 0 || nr >= KEY_COMPAT)
		return KEY_OTHER;
#if defined(__TARGET_ARCH_arm64)
	if (bpf_get_current_task_btf()->thread_info.flags & (1UL << ARM64_TIF_32BIT))
		return (__u32)nr | KEY_COMPAT;
#elif !defined(__TARGET_ARCH_arm)
	/* 32-bit ARM has no other syscall ABI to tell apart. */
	if (bpf_get_current_task_btf()->thread_info.status & X86_TS_COMPAT)
		return (__u32)nr | KEY_COMPAT;
#endif
	return nr;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(tb_sys_enter, struct pt_regs *regs, long id)
{
	__u64 pid_tgid;
	struct tb_bpf_event *e;
	__u32 n = nr_args;

	if (!n)
		return emit(SPACE_SYSCALL, syscall_key(id), TB_BPF_ENTER);

	pid_tgid = bpf_get_current_pid_tgid();
	if (!enabled || (pid_tgid >> 32) == self_tgid)
		return 0;
	report_gap(pid_tgid);
	/* The reserve size must be a constant: room for all six. */
	e = bpf_ringbuf_reserve(&events, sizeof(*e) +
				TB_BPF_MAX_ARGS * sizeof(__u64), 0);
	if (!e) {
		count_drop(SPACE_SYSCALL);
		return 0;
	}
	if (n > TB_BPF_MAX_ARGS)
		n = TB_BPF_MAX_ARGS;
	fill(e, pid_tgid, ID(SPACE_SYSCALL, syscall_key(id)), TB_BPF_ENTER, n);
	/*
	 * All six are read: a constant-size copy is cheaper for the
	 * verifier than a loop, and the collector writes only @nargs.
	 */
#if defined(__TARGET_ARCH_arm64)
	/* x0 to x5; x0 is kept in orig_x0, as syscall_get_arguments() reads it. */
	e->args[0] = BPF_CORE_READ(regs, orig_x0);
	e->args[1] = BPF_CORE_READ(regs, regs[1]);
	e->args[2] = BPF_CORE_READ(regs, regs[2]);
	e->args[3] = BPF_CORE_READ(regs, regs[3]);
	e->args[4] = BPF_CORE_READ(regs, regs[4]);
	e->args[5] = BPF_CORE_READ(regs, regs[5]);
#elif defined(__TARGET_ARCH_arm)
	{
		struct pt_regs___arm *r = (void *)regs;

		e->args[0] = BPF_CORE_READ(r, uregs[0]);
		e->args[1] = BPF_CORE_READ(r, uregs[1]);
		e->args[2] = BPF_CORE_READ(r, uregs[2]);
		e->args[3] = BPF_CORE_READ(r, uregs[3]);
		e->args[4] = BPF_CORE_READ(r, uregs[4]);
		e->args[5] = BPF_CORE_READ(r, uregs[5]);
	}
#else
	/* x86-64 syscall ABI: the 4th argument travels in r10, not rcx. */
	e->args[0] = BPF_CORE_READ(regs, di);
	e->args[1] = BPF_CORE_READ(regs, si);
	e->args[2] = BPF_CORE_READ(regs, dx);
	e->args[3] = BPF_CORE_READ(regs, r10);
	e->args[4] = BPF_CORE_READ(regs, r8);
	e->args[5] = BPF_CORE_READ(regs, r9);
#endif
	submit(e);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(tb_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 key;

	/* sys_exit does not pass the number: it is in the saved registers. */
#if defined(__TARGET_ARCH_arm64)
	key = syscall_key(BPF_CORE_READ(regs, syscallno));
#elif defined(__TARGET_ARCH_arm)
	key = syscall_key(BPF_CORE_READ((struct pt_regs___arm *)regs, uregs[7]));
#else
	key = syscall_key(BPF_CORE_READ(regs, orig_ax));
#endif
	/*
	 * An error's value goes with the exit (a RET typed event after it);
	 * a success costs only the comparison, and no ring buffer bytes.
	 */
	if (ret < 0 && ret >= -TRACEBUF_FDR_RET_ERRNO_MAX)
		return emit_arg(SPACE_SYSCALL, key, TB_BPF_EXIT, ret);
	return emit(SPACE_SYSCALL, key, TB_BPF_EXIT);
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(tb_irq_entry, int irq, struct irqaction *action)
{
	return emit(SPACE_IRQ, irq, TB_BPF_ENTER);
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(tb_irq_exit, int irq, struct irqaction *action, int ret)
{
	return emit(SPACE_IRQ, irq, TB_BPF_EXIT);
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(tb_softirq_entry, unsigned int vec)
{
	return emit(SPACE_SOFTIRQ, vec, TB_BPF_ENTER);
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(tb_softirq_exit, unsigned int vec)
{
	return emit(SPACE_SOFTIRQ, vec, TB_BPF_EXIT);
}

/*
 * The WORK key is an index into a table of work functions that the
 * collector builds; the programs pass the function address.
 */
SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(tb_work_start, struct work_struct *work)
{
	return emit_arg(SPACE_WORK, 0, TB_BPF_ENTER,
			(__u64)BPF_CORE_READ(work, func));
}

/*
 * raw_tp, not tp_btf: the 6.1 verifier refuses tp_btf access to an argument
 * of function pointer type.  Same run-time cost, untyped arguments.
 */
SEC("raw_tp/workqueue_execute_end")
int BPF_PROG(tb_work_end, struct work_struct *work, work_func_t function)
{
	/* @work may already be freed here: use the function argument. */
	return emit_arg(SPACE_WORK, 0, TB_BPF_EXIT, (__u64)function);
}

/*
 * Faults, fork and exit have no exit tracepoint: instant events with one
 * argument (fault address, child pid, exiting pid), like the module's.
 */
SEC("tp_btf/page_fault_user")
int BPF_PROG(tb_fault_user, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return emit_arg(SPACE_FAULT, 0, TB_BPF_POINT, address);
}

SEC("tp_btf/page_fault_kernel")
int BPF_PROG(tb_fault_kernel, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return emit_arg(SPACE_FAULT, 1, TB_BPF_POINT, address);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(tb_fork, struct task_struct *parent, struct task_struct *child)
{
	return emit_arg(SPACE_TASK, 0, TB_BPF_POINT, child->pid);
}

/*
 * A task's exit, then its command name, as the module writes them: the
 * exiting task is current, so the name lands in its block, and readers
 * can name a task that no look at /proc saw.
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(tb_exit, struct task_struct *p)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tb_bpf_event *e;

	emit_arg(SPACE_TASK, 1, TB_BPF_POINT, p->pid);
	if (!enabled || (pid_tgid >> 32) == self_tgid)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e) + TB_BPF_COMM_LEN, 0);
	if (!e) {
		count_drop(SPACE_TASK);
		return 0;
	}
	fill(e, pid_tgid, 0, TB_BPF_COMM, TB_BPF_COMM_ARGS);
	if (bpf_get_current_comm(e->args, TB_BPF_COMM_LEN))
		__builtin_memset(e->args, 0, TB_BPF_COMM_LEN);
	submit(e);
	return 0;
}

/*
 * Kernel functions (tracebuf bpf -f): fentry and fexit through the
 * function's BPF trampoline, which runs the exit program when the call
 * returns, so whatever the call does meanwhile (other traced calls,
 * syscalls' inner events, interrupts) is recorded between the two.
 * One pair serves every function: libbpf loads it against the first one
 * and the collector loads copies of the loaded instructions against the
 * others (an fentry program is verified for one function), each attached
 * with its index in the list as the link's cookie.  A program already
 * running on this CPU is not re-entered (the trampoline counts that in
 * recursion_misses, summed into the losses).
 */
SEC("fentry")
int BPF_PROG(tb_kfunc_entry)
{
	return emit(SPACE_KFUNC, bpf_get_attach_cookie(ctx), TB_BPF_ENTER);
}

SEC("fexit")
int BPF_PROG(tb_kfunc_exit)
{
	return emit(SPACE_KFUNC, bpf_get_attach_cookie(ctx), TB_BPF_EXIT);
}

/*
 * Wake-ups (sched class): the woken task, the CPU it was queued on and
 * its prio, in the block of the task that woke it.  Like switches they are
 * recorded whoever runs, the collector included: a wake-up missing from
 * the trace would leave its task's run-queue delay unknown.
 */
static __always_inline int wakeup(struct task_struct *p, __u32 flags)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tb_bpf_event *e;
	__u32 cpu;

	if (!enabled)
		return 0;
	report_gap(pid_tgid);
	e = bpf_ringbuf_reserve(&events, sizeof(*e) + sizeof(__u64), 0);
	if (!e) {
		count_drop(SPACE_TASK);
		return 0;
	}
	/* task_cpu(): in thread_info where it is in the task, else wake_cpu. */
	if (bpf_core_field_exists(p->thread_info.cpu))
		cpu = BPF_CORE_READ(p, thread_info.cpu);
	else
		cpu = BPF_CORE_READ(p, wake_cpu);
	fill(e, pid_tgid, flags, TB_BPF_WAKEUP, 1);
	e->args[0] = TB_BPF_WAKEUP_ARG(p->pid, cpu, p->prio);
	submit(e);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tb_wakeup, struct task_struct *p)
{
	return wakeup(p, 0);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(tb_wakeup_new, struct task_struct *p)
{
	return wakeup(p, TRACEBUF_FDR_WAKEUP_NEW);
}

/*
 * Block boundaries: always attached, whatever the classes, because the
 * FDR file is one block per task run on a CPU.  Switches to and from the
 * collector are recorded too (only its own events are filtered), so a
 * block never spans a time when another task ran.  With the sched class
 * the record also carries what the SWITCH typed event needs; prev_state
 * is the tracepoint's argument (kernel 5.18 and later), the state
 * __schedule() saw, not one a concurrent wake-up has changed since.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(tb_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct tb_bpf_event *e;

	if (!enabled)
		return 0;
	/* Two reservations: the verifier wants a constant size each. */
	if (sched_events)
		e = bpf_ringbuf_reserve(&events, sizeof(*e) +
					TB_BPF_SWITCH_ARGS * sizeof(__u64), 0);
	else
		e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop(0);
		return 0;
	}
	e->ts = bpf_ktime_get_ns();
	e->id = 0;
	e->kind = TB_BPF_SWITCH;
	e->nargs = 0;
	e->cpu = bpf_get_smp_processor_id();
	e->tid = next->pid;
	e->tgid = next->tgid;
	if (sched_events) {
		e->nargs = TB_BPF_SWITCH_ARGS;
		e->args[0] = TB_BPF_SWITCH_TASKS(prev->pid, prev->prio,
						 next->prio);
		e->args[1] = TB_BPF_SWITCH_STATE(prev_state, preempt);
	}
	submit(e);
	return 0;
}
