// SPDX-License-Identifier: GPL-2.0
/* /dev/tracebuf_fdr helpers for the tools; see device/fdr_dev.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cli/cli.h"
#include "cli/optval.h"
#include "device/fdr_dev.h"
#include "format/fdr_classes.h"

int tb_fdr_dev_config_opt(struct tracebuf_fdr_config *cfg, int id,
			  const char *arg, char *msg, size_t len)
{
	uint64_t v;

	switch (id) {
	case 'e':
		if (!tb_fdr_classes_parse(arg, TRACEBUF_FDR_ALL, &cfg->classes,
					  NULL, 0))
			return 1;
		snprintf(msg, len, "--events '%s': classes from %s expected, comma separated",
			 arg, TB_OPT_CLASS_WORDS);
		return -EINVAL;
	case TB_FDR_ID_MODE:
		if (!strcmp(arg, "stream")) {
			cfg->mode = TRACEBUF_FDR_MODE_STREAM;
		} else if (!strcmp(arg, "flight")) {
			cfg->mode = TRACEBUF_FDR_MODE_FLIGHT;
		} else {
			snprintf(msg, len, "--mode '%s': stream or flight expected",
				 arg);
			return -EINVAL;
		}
		return 1;
	case 's':
		if (tb_optval_size("--size", arg, TRACEBUF_FDR_BUF_MIN,
				   TRACEBUF_FDR_BUF_MAX, true, &v, msg, len))
			return -EINVAL;
		cfg->buf_size = v;
		return 1;
	case 'a':
		if (tb_optval_number("--args", arg, 0, TRACEBUF_FDR_ARGS_MAX,
				     &v, msg, len))
			return -EINVAL;
		cfg->nr_args = v;
		return 1;
	case 'w':
		/* The kernel checks it against the buffer size it ends up with. */
		if (tb_optval_size("--wakeup", arg, 0,
				   TRACEBUF_FDR_WAKEUP_MAX(TRACEBUF_FDR_BUF_MAX),
				   false, &v, msg, len))
			return -EINVAL;
		cfg->wakeup = v;
		return 1;
	}
	return 0;
}

const char *tb_fdr_dev_mode_name(__u32 mode)
{
	switch (mode) {
	case TRACEBUF_FDR_MODE_STREAM:
		return "stream";
	case TRACEBUF_FDR_MODE_FLIGHT:
		return "flight";
	}
	return "?";
}

char *tb_fdr_dev_names_text(int fd)
{
	struct tracebuf_fdr_names n;
	char *text;

	memset(&n, 0, sizeof(n));
	if (ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n))
		return NULL;
	text = calloc(1, n.size + 1);
	if (!text)
		return NULL;	/* errno ENOMEM */
	n.buf = (uintptr_t)text;
	n.len = n.size;
	if (ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n)) {
		free(text);
		return NULL;
	}
	text[n.len < n.size ? n.len : n.size] = 0;
	return text;
}

int tb_fdr_dev_stats(int fd, struct tracebuf_fdr_stats *st,
		     struct tracebuf_fdr_cpu_stats **cpus)
{
	memset(st, 0, sizeof(*st));
	if (ioctl(fd, TRACEBUF_FDR_IOC_STATS, st))
		return -1;
	if (!cpus)
		return 0;
	/* The first call counted the CPUs; the second fills them in. */
	*cpus = calloc(st->nr_cpus ? st->nr_cpus : 1, sizeof(**cpus));
	if (!*cpus)
		return -1;	/* errno ENOMEM */
	st->cpus = (uintptr_t)*cpus;
	st->cpu_size = sizeof(**cpus);
	if (ioctl(fd, TRACEBUF_FDR_IOC_STATS, st)) {
		free(*cpus);
		*cpus = NULL;
		return -1;
	}
	return 0;
}

void tb_fdr_dev_print_totals(FILE *f, const struct tracebuf_fdr_stats *st)
{
	fprintf(f, "recorder: written %llu, dropped %llu, overwritten %llu, %llu bytes committed\n",
		(unsigned long long)st->written, (unsigned long long)st->dropped,
		(unsigned long long)st->overwritten, (unsigned long long)st->bytes);
}

/* The capture tb_fdr_dev_start_owned() started, or -1. */
static int fdr_owned_fd = -1;

static void fdr_stop_at_exit(void)
{
	if (fdr_owned_fd >= 0)
		ioctl(fdr_owned_fd, TRACEBUF_FDR_IOC_STOP);
}

/* Is @now what the caller configured (@want; buf_size 0: any)? */
static bool fdr_config_is(const struct tracebuf_fdr_config *now,
			  const struct tracebuf_fdr_config *want)
{
	return now->classes == want->classes && now->mode == want->mode &&
	       (!want->buf_size || now->buf_size == want->buf_size) &&
	       now->nr_args == want->nr_args && now->wakeup == want->wakeup;
}

int tb_fdr_dev_start_owned(int fd, const struct tracebuf_fdr_config *cfg,
			   uint64_t *gen)
{
	struct tracebuf_fdr_stats before, after;
	struct tracebuf_fdr_config now;
	static bool registered;

	if (!registered) {
		if (atexit(fdr_stop_at_exit)) {
			errno = ENOMEM;
			return -1;
		}
		registered = true;
	}
	if (tb_fdr_dev_stats(fd, &before, NULL))
		return -1;
	/*
	 * Another process's CONFIG since the caller's replaced its settings
	 * without a word: what START would record is not what it asked for.
	 * Read after the number, so that one more CONFIG shows in it.
	 */
	if (cfg) {
		if (ioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, &now))
			return -1;
		if (!fdr_config_is(&now, cfg))
			return 1;
	}
	if (ioctl(fd, TRACEBUF_FDR_IOC_START))
		return -1;
	/* Started: ours to stop, whatever the number says below. */
	fdr_owned_fd = fd;
	if (tb_fdr_dev_stats(fd, &after, NULL))
		return -1;
	/*
	 * START counts one capture.  More: another process's CONFIG came
	 * between the look and START (its settings, not the caller's, are
	 * recording), or its STOP and START came after ours (what runs is
	 * its capture).  Nothing tells which, so the capture is stopped, not
	 * left recording with nobody to stop it.
	 */
	if (before.gen && after.gen != before.gen + 1) {
		tb_fdr_dev_stop_owned(fd);
		return 1;
	}
	*gen = after.gen;
	return 0;
}

const char *tb_fdr_dev_capture_gone(int fd, uint64_t gen, bool running,
				    struct tracebuf_fdr_stats *st)
{
	struct tracebuf_fdr_stats now;

	if (tb_fdr_dev_stats(fd, &now, NULL))
		return "the device's statistics could not be read";
	if (gen && now.gen != gen)
		return "another process restarted or reconfigured the device (START or CONFIG), which discarded the rest of this capture";
	*st = now;
	if (running && !now.running)
		return "another process stopped the capture";
	return NULL;
}

void tb_fdr_dev_disown(void)
{
	fdr_owned_fd = -1;
}

int tb_fdr_dev_stop_owned(int fd)
{
	fdr_owned_fd = -1;
	return ioctl(fd, TRACEBUF_FDR_IOC_STOP);
}
