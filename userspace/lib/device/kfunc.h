/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing the kernel functions to record as XRay functions (record -f,
 * bpf -f): patterns as ftrace's set_ftrace_filter takes them (names and
 * shell globs, comma separated) over the functions the kernel lets us
 * trace: available_filter_functions (which already leaves out notrace
 * code), minus the kprobe blacklist, minus names that several functions
 * share (a probe by name would pick one of them silently).
 */
#ifndef TB_FDR_KFUNC_H
#define TB_FDR_KFUNC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* Where the kernel lists them (tracefs, or tracefs under debugfs). */
#define TB_KFUNC_AVAIL_PATHS \
	{ "/sys/kernel/tracing/available_filter_functions", \
	  "/sys/kernel/debug/tracing/available_filter_functions" }
#define TB_KFUNC_BLACKLIST_PATH	"/sys/kernel/debug/kprobes/blacklist"

/* The chosen functions, in the order of the kernel's list. */
struct tb_kfuncs {
	char **names;
	size_t n;
};

/*
 * Functions a collector refuses besides the kernel's own rules (its
 * recording path: tracing it could deadlock): shell globs, NULL
 * terminated, and the reason given for a name that matches one.
 */
struct tb_kfunc_deny {
	const char *const *globs;
	const char *why;
};

/*
 * Select from @avail (available_filter_functions text: "name" or
 * "name [module]" lines) less @blacklist (the kprobe blacklist text:
 * "0xSTART-0xEND name" lines; NULL if unknown) less @deny (NULL: none)
 * the functions matching @patterns, at most @limit of them.  Every
 * pattern must match something; a name refused says why, a glob skips
 * what is refused.  0, or -1 with a message in @err.
 */
int tb_kfunc_select(const char *patterns, const char *avail,
		    const char *blacklist, const struct tb_kfunc_deny *deny,
		    size_t limit, struct tb_kfuncs *out, struct tb_error *err);

/* The same with the running kernel's lists. */
int tb_kfunc_select_kernel(const char *patterns,
			   const struct tb_kfunc_deny *deny, size_t limit,
			   struct tb_kfuncs *out, struct tb_error *err);

/* The most functions the module takes with @maxactive (0: default). */
size_t tb_kfunc_limit(uint32_t maxactive);

/* -v: the chosen list on stdout. */
void tb_kfunc_print(const struct tb_kfuncs *k);

/* "ID kfunc NAME" lines, the NAMES ioctl's, for a collector without it. */
void tb_kfunc_write_names(const struct tb_kfuncs *k, FILE *out);

/* FILE.kfuncs beside the trace FILE (tb_kfunc_write_list()). */
int tb_kfunc_write_beside(const struct tb_kfuncs *k, const char *trace,
			  struct tb_error *err);

/*
 * TRACEBUF_FDR_IOC_KFUNCS with @k (n == 0 clears the list).  0, or -1
 * with a message naming the refused function in @err.
 */
int tb_kfunc_set(int fd, const struct tb_kfuncs *k, uint32_t maxactive,
		 struct tb_error *err);

/* "ID NAME" lines, ID the kernel's, for the file beside the trace. */
int tb_kfunc_write_list(const struct tb_kfuncs *k, const char *path,
			struct tb_error *err);

void tb_kfunc_free(struct tb_kfuncs *k);

#endif /* TB_FDR_KFUNC_H */
