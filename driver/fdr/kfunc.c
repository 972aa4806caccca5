// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions as XRay functions: an entry record when a chosen
 * function is called and an exit record when it returns, with the ids
 * TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, index in the list), written by
 * the ring's ordinary write path, so they share its per-CPU blocks, clock
 * and loss accounting with every other record.
 *
 * Mechanism: one kretprobe with an entry handler per function
 * (Documentation/fdr.rst says why not ftrace_ops or fprobes).  The entry
 * handler writes the entry record and keeps the return hook only if the
 * record went in, so a dropped entry never leaves an exit without its
 * entry; the exit handler writes the exit if the call began in the
 * current capture.  What nests inside a call (other traced calls,
 * syscalls' inner events, interrupts) is written between the two and so
 * appears inside it.  Calls the kprobe layer does not follow (more than
 * maxactive in progress, or a traced function called from a probe handler
 * -- the recorder's own write path -- which kprobes refuse to re-enter)
 * are counted in nmissed: neither record exists, and fdr_kfunc_stop()
 * reports their number in the stream.
 *
 * Lifetime: the probes are registered, disabled, when the list is set
 * (while stopped), so every error is reported there; START enables them
 * and STOP disables them, before the ring goes off.  A call still in
 * progress then (a task asleep in a traced function) returns through the
 * kretprobe trampoline later: its exit handler sees another capture and
 * writes nothing, and after unregister_kretprobes() (which waits for
 * running handlers) the kernel no longer calls us at all, so the list can
 * be freed and the module unloaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <linux/tracebuf.h>

#include "kfunc.h"
#include "ring/frontend_api.h"

/* The list, its names and the probes: set, names and exit. */
static DEFINE_MUTEX(fdr_kfunc_lock);

/*
 * Both or nothing: kretprobes make the records, and dynamic ftrace says
 * which functions may be probed (fdr_kfunc_traceable()).  A kernel
 * without either (the PXA270 guest's could be built so) still gets the
 * recorder, and a list is refused with EOPNOTSUPP, which the tools
 * explain (userspace/lib/device/kfunc.c).
 */
#if defined(CONFIG_KRETPROBES) && defined(CONFIG_DYNAMIC_FTRACE)

/**
 * struct fdr_kfunc - one traced kernel function
 * @rp:		its return probe (disabled while stopped)
 * @enter:	fdr_func_word() of its entry record
 * @exit:	fdr_func_word() of its exit record
 * @name:	its name, for the NAMES text
 */
struct fdr_kfunc {
	struct kretprobe rp;
	u32 enter;
	u32 exit;
	char name[TRACEBUF_FDR_KFUNC_NAME_MAX];
};

static struct fdr_kfunc *fdr_kfuncs;
static u32 fdr_nr_kfuncs;
/*
 * Capture number, kept by each call in progress: exits of older ones are not
 * ours.
 */
static u64 fdr_kfunc_gen;
/* nmissed of every probe at START. */
static u64 fdr_kfunc_missed_base;
/* Of the calls missed since, those already reported in the stream. */
static u64 fdr_kfunc_missed_reported;
/*
 * The stopped capture's count, taken at STOP: it is the capture's, like
 * the ring's counters, so a new list or a START that fails leaves it.
 */
static u64 fdr_kfunc_missed_stopped;
static bool fdr_kfunc_on;

static int fdr_kfunc_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fdr_kfunc *f = container_of(get_kretprobe(ri), struct fdr_kfunc,
					   rp);

	*(u64 *)ri->data = READ_ONCE(fdr_kfunc_gen);
	/* Not recorded (stopping, nested writer, full ring): no exit either. */
	return fdr_write_func_ok(f->enter) ? 0 : 1;
}

static int fdr_kfunc_return(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct fdr_kfunc *f;

	if (unlikely(!rp) || *(u64 *)ri->data != READ_ONCE(fdr_kfunc_gen))
		return 0;
	f = container_of(rp, struct fdr_kfunc, rp);
	fdr_write_func(f->exit);
	return 0;
}

/* Symbol names as the kernel spells them, without module prefixes. */
static bool fdr_kfunc_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= TRACEBUF_FDR_KFUNC_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

static void fdr_kfunc_free(struct fdr_kfunc *list, u32 n)
{
	struct kretprobe **rps;
	u32 i;

	if (!n)
		goto out;
	rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);
	if (rps) {
		for (i = 0; i < n; i++)
			rps[i] = &list[i].rp;
		/* One grace period for the whole list. */
		unregister_kretprobes(rps, n);
		kvfree(rps);
	} else {
		for (i = 0; i < n; i++)
			unregister_kretprobe(&list[i].rp);
	}
out:
	kvfree(list);
}

/* Split @names into @list; the index of the first bad name on error. */
static int fdr_kfunc_parse(const char *names, size_t len,
			   struct fdr_kfunc *list, u32 max, u32 *nr, u32 *bad)
{
	const char *p = names, *end = names + len, *nl;
	u32 n = 0, i;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		*bad = n;
		if (!nl || !fdr_kfunc_name_ok(p, nl - p))
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		memcpy(list[n].name, p, nl - p);
		list[n].name[nl - p] = '\0';
		for (i = 0; i < n; i++)
			if (!strcmp(list[i].name, list[n].name))
				return -EINVAL;
		n++;
		p = nl + 1;
	}
	*nr = n;
	*bad = TRACEBUF_FDR_KFUNC_NONE;
	return 0;
}

/*
 * Never registered: only asked whether an address is an ftrace location.
 * The kernel's kprobe events (trace_kprobe.c, without
 * CONFIG_KPROBE_EVENTS_ON_NOTRACE) probe only functions that have one, the
 * set available_filter_functions lists and the userspace selector
 * (userspace/lib/device/kfunc.c) chooses from.  The others are notrace: the
 * clocks, irq_work, rcu_is_watching, lockdep, code the probe machinery
 * itself runs.  A probe there recurses into itself, or freezes the
 * machine (rcu_is_watching on a lockdep kernel).
 */
static struct ftrace_ops fdr_kfunc_ftrace_query;

/* 0 if @addr, a function's entry, may be probed; -EINVAL if notrace. */
static int fdr_kfunc_traceable(unsigned long addr)
{
	int ret;

	/*
	 * Removing @addr from the empty filter fails either way and keeps
	 * nothing: ENOENT (not in the filter) past ftrace_location(),
	 * EINVAL when @addr has no ftrace location.
	 */
	ret = ftrace_set_filter_ip(&fdr_kfunc_ftrace_query, addr, 1, 0);
	if (ret == -ENOENT)
		return 0;
	return ret ? ret : -EINVAL;
}

/*
 * Without rethook (6.1's arm64, unlike x86), the kretprobe trampoline
 * calls kprobe_busy_begin() before it marks the CPU busy, and kprobes does
 * not blacklist it: a return probe there returns through the trampoline,
 * which calls it again, until the stack overflows (seen on arm64 under
 * qemu).  kprobe_busy_end() is its pair.
 */
static bool fdr_kfunc_trampoline_path(const char *name)
{
#ifndef CONFIG_KRETPROBE_ON_RETHOOK
	return !strcmp(name, "kprobe_busy_begin") ||
	       !strcmp(name, "kprobe_busy_end");
#else
	return false;
#endif
}

static int fdr_kfunc_register(struct fdr_kfunc *f, u32 key, u32 maxactive)
{
	u32 id = TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, key);
	int ret;

	f->enter = fdr_func_word(id, TRACEBUF_FDR_ENTER);
	f->exit = fdr_func_word(id, TRACEBUF_FDR_EXIT);
	f->rp.kp.symbol_name = f->name;
	f->rp.kp.flags = KPROBE_FLAG_DISABLED;
	f->rp.entry_handler = fdr_kfunc_entry;
	f->rp.handler = fdr_kfunc_return;
	f->rp.data_size = sizeof(u64);
	f->rp.maxactive = maxactive;
	if (fdr_kfunc_trampoline_path(f->name))
		return -EINVAL;
	/* Registered disabled: nothing is armed before the checks below. */
	ret = register_kretprobe(&f->rp);
	if (ret)
		return ret;
	/*
	 * Our own functions: a probe would pin the module (no unload) and
	 * record the recorder.  The rest of the recording path is notrace.
	 */
	if (within_module((unsigned long)f->rp.kp.addr, THIS_MODULE))
		ret = -EINVAL;
	else
		ret = fdr_kfunc_traceable((unsigned long)f->rp.kp.addr);
	if (ret)
		unregister_kretprobe(&f->rp);
	return ret;
}

int fdr_kfunc_set(const char *names, size_t len,
		  struct tracebuf_fdr_kfuncs *kf)
{
	u32 maxactive = kf->maxactive ? kf->maxactive :
			TRACEBUF_FDR_KFUNC_ACTIVE_DEFAULT;
	struct fdr_kfunc *list = NULL;
	u32 n = 0, i, max;
	int ret;

	kf->failed = TRACEBUF_FDR_KFUNC_NONE;
	if (maxactive > TRACEBUF_FDR_KFUNC_ACTIVE_MAX)
		return -E2BIG;
	max = min_t(u32, TRACEBUF_FDR_KFUNC_MAX,
		    TRACEBUF_FDR_KFUNC_INSTANCES_MAX / maxactive);
	if (len) {
		list = kvcalloc(max, sizeof(*list), GFP_KERNEL_ACCOUNT);
		if (!list)
			return -ENOMEM;
		ret = fdr_kfunc_parse(names, len, list, max, &n, &kf->failed);
		if (ret)
			goto fail;
	}
	for (i = 0; i < n; i++) {
		ret = fdr_kfunc_register(&list[i], i, maxactive);
		if (ret) {
			kf->failed = i;
			goto fail_probes;
		}
	}
	mutex_lock(&fdr_kfunc_lock);
	swap(list, fdr_kfuncs);
	swap(n, fdr_nr_kfuncs);
	mutex_unlock(&fdr_kfunc_lock);
	/* The old list, disabled since STOP. */
	fdr_kfunc_free(list, n);
	kf->count = fdr_nr_kfuncs;
	return 0;

fail_probes:
	n = i;
fail:
	fdr_kfunc_free(list, n);
	/* On error no list at all: half of one would trace the wrong set. */
	mutex_lock(&fdr_kfunc_lock);
	list = fdr_kfuncs;
	n = fdr_nr_kfuncs;
	fdr_kfuncs = NULL;
	fdr_nr_kfuncs = 0;
	mutex_unlock(&fdr_kfunc_lock);
	fdr_kfunc_free(list, n);
	kf->count = 0;
	return ret;
}

static u64 fdr_kfunc_nmissed(void)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < fdr_nr_kfuncs; i++)
		sum += READ_ONCE(fdr_kfuncs[i].rp.nmissed) +
		       READ_ONCE(fdr_kfuncs[i].rp.kp.nmissed);
	return sum;
}

/* Missed since START and not yet reported in the stream. */
static u64 fdr_kfunc_unreported(void)
{
	return fdr_kfunc_nmissed() - fdr_kfunc_missed_base -
	       fdr_kfunc_missed_reported;
}

int fdr_kfunc_start(void)
{
	u64 base;
	u32 i;
	int ret;

	WRITE_ONCE(fdr_kfunc_gen, fdr_kfunc_gen + 1);
	/* Before the probes are on: every miss after it is this capture's. */
	base = fdr_kfunc_nmissed();
	for (i = 0; i < fdr_nr_kfuncs; i++) {
		/* Fails when the function's module went away since. */
		ret = enable_kretprobe(&fdr_kfuncs[i].rp);
		if (ret) {
			pr_warn("cannot trace %s any more (%d)\n",
				fdr_kfuncs[i].name, ret);
			while (i--)
				disable_kretprobe(&fdr_kfuncs[i].rp);
			return ret;
		}
	}
	/* The ring is off until START succeeds: nothing is missed yet. */
	mutex_lock(&fdr_kfunc_lock);
	fdr_kfunc_missed_base = base;
	fdr_kfunc_missed_reported = 0;
	fdr_kfunc_missed_stopped = 0;
	WRITE_ONCE(fdr_kfunc_on, true);
	mutex_unlock(&fdr_kfunc_lock);
	return 0;
}

void fdr_kfunc_stop(void)
{
	u32 i;

	if (!fdr_kfunc_on)
		return;
	for (i = 0; i < fdr_nr_kfuncs; i++)
		disable_kretprobe(&fdr_kfuncs[i].rp);
	mutex_lock(&fdr_kfunc_lock);
	fdr_kfunc_missed_stopped = fdr_kfunc_nmissed() - fdr_kfunc_missed_base;
	WRITE_ONCE(fdr_kfunc_on, false);
	mutex_unlock(&fdr_kfunc_lock);
	/* The ring is still on: the report goes in this CPU's stream. */
	fdr_write_lost(fdr_kfunc_missed_stopped - fdr_kfunc_missed_reported);
}

void fdr_kfunc_forget(void)
{
	mutex_lock(&fdr_kfunc_lock);
	fdr_kfunc_missed_stopped = 0;
	mutex_unlock(&fdr_kfunc_lock);
}

u64 fdr_kfunc_missed_unreported(void)
{
	/* Between captures the counts belong to none. */
	return READ_ONCE(fdr_kfunc_on) ? fdr_kfunc_unreported() : 0;
}

void fdr_kfunc_report_missed(void)
{
	u64 n;

	mutex_lock(&fdr_kfunc_lock);
	if (fdr_kfunc_on) {
		n = fdr_kfunc_unreported();
		fdr_kfunc_missed_reported += n;
		fdr_write_lost(n);
	}
	mutex_unlock(&fdr_kfunc_lock);
}

u64 fdr_kfunc_missed(void)
{
	u64 n;

	mutex_lock(&fdr_kfunc_lock);
	n = fdr_kfunc_on ? fdr_kfunc_nmissed() - fdr_kfunc_missed_base :
			   fdr_kfunc_missed_stopped;
	mutex_unlock(&fdr_kfunc_lock);
	return n;
}

size_t fdr_kfunc_names_size(void)
{
	return (size_t)TRACEBUF_FDR_KFUNC_MAX *
	       (16 + TRACEBUF_FDR_KFUNC_NAME_MAX);
}

void fdr_kfunc_names(struct fdr_text *t, bool panic)
{
	u32 i;

	/*
	 * A panic cannot sleep, and another CPU, stopped now, may hold the
	 * lock; but the list changes only while stopped, and the panic
	 * writes names only while recording.
	 */
	if (!panic)
		mutex_lock(&fdr_kfunc_lock);
	for (i = 0; i < fdr_nr_kfuncs; i++)
		fdr_text_line(t, "%x kfunc %s\n",
			      TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_KFUNC, i),
			      fdr_kfuncs[i].name);
	if (!panic)
		mutex_unlock(&fdr_kfunc_lock);
}

void fdr_kfunc_exit(void)
{
	fdr_kfunc_free(fdr_kfuncs, fdr_nr_kfuncs);
	fdr_kfuncs = NULL;
	fdr_nr_kfuncs = 0;
}

#else /* !(CONFIG_KRETPROBES && CONFIG_DYNAMIC_FTRACE) */

int fdr_kfunc_set(const char *names, size_t len,
		  struct tracebuf_fdr_kfuncs *kf)
{
	kf->failed = TRACEBUF_FDR_KFUNC_NONE;
	kf->count = 0;
	return len ? -EOPNOTSUPP : 0;
}

int fdr_kfunc_start(void)
{
	return 0;
}

void fdr_kfunc_stop(void)
{
}

void fdr_kfunc_forget(void)
{
}

u64 fdr_kfunc_missed(void)
{
	return 0;
}

void fdr_kfunc_report_missed(void)
{
}

u64 fdr_kfunc_missed_unreported(void)
{
	return 0;
}

size_t fdr_kfunc_names_size(void)
{
	return 0;
}

void fdr_kfunc_names(struct fdr_text *t, bool panic)
{
}

void fdr_kfunc_exit(void)
{
}

#endif /* CONFIG_KRETPROBES && CONFIG_DYNAMIC_FTRACE */
