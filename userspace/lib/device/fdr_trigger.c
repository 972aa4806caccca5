// SPDX-License-Identifier: GPL-2.0
/* Trigger conditions as text: see device/fdr_trigger.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "device/fdr_trigger.h"
#include "format/fdr_classes.h"
#include "util/parse.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const softirq_names[] = TRACEBUF_FDR_SOFTIRQ_NAMES;

int tb_fdr_trigger_parse_us(const char *s, uint64_t *us)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "us", 1 }, { "ms", 1000 }, { "s", 1000000 },
	};
	size_t len = strlen(s), i, ulen;
	char num[32];
	uint64_t v;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		ulen = strlen(units[i].unit);
		if (len <= ulen || len - ulen >= sizeof(num) ||
		    strcmp(s + len - ulen, units[i].unit) ||
		    !isdigit((unsigned char)s[len - ulen - 1]))
			continue;
		memcpy(num, s, len - ulen);
		num[len - ulen] = 0;
		if (tb_parse_u64(num, 0, UINT64_MAX / units[i].mul, &v))
			return -1;
		*us = v * units[i].mul;
		return 0;
	}
	return -1;
}

/* An errno name (ENOMEM) or number, 1..4095. */
static int parse_error(const char *s, uint32_t *out)
{
	int e;

	if (!tb_parse_u32(s, 1, TRACEBUF_FDR_TRIG_ERROR_MAX, out))
		return 0;
	for (e = 1; e <= TRACEBUF_FDR_TRIG_ERROR_MAX; e++) {
		const char *name = strerrorname_np(e);

		if (name && !strcmp(name, s)) {
			*out = e;
			return 0;
		}
	}
	return -1;
}

/* WHICH of a class: the key of its function id. */
static int parse_key(const char *s, uint32_t space,
		     const struct tb_fdr_syscalls *sys, uint32_t *key)
{
	size_t i;

	if (!tb_parse_u32(s, 0, TRACEBUF_FDR_ID_KEY_MASK, key))
		return 0;
	if (space == TRACEBUF_FDR_SPACE_SYSCALL && sys) {
		for (i = 0; i < sys->n; i++) {
			if (sys->names[i] && !strcmp(sys->names[i], s)) {
				*key = i;
				return 0;
			}
		}
	}
	if (space == TRACEBUF_FDR_SPACE_SOFTIRQ) {
		for (i = 0; i < ARRAY_SIZE(softirq_names); i++) {
			if (!strcasecmp(softirq_names[i], s)) {
				*key = i;
				return 0;
			}
		}
	}
	return -1;
}

/* The classes a duration is measured in, by the names conditions use. */
static const struct {
	const char *name;
	uint32_t class;
} classes[] = {
	{ "syscall", TRACEBUF_FDR_SYSCALL },
	{ "irq", TRACEBUF_FDR_IRQ },
	{ "softirq", TRACEBUF_FDR_SOFTIRQ },
	{ "work", TRACEBUF_FDR_WORKQUEUE },
};

/* A class's id space: format/fdr_classes's, checked against the uapi. */
static uint32_t class_space(uint32_t class)
{
	return tb_fdr_classes[__builtin_ctz(class)].space;
}

int tb_fdr_trigger_parse(const char *s, const struct tb_fdr_syscalls *sys,
			 struct tracebuf_fdr_trig_cond *c, struct tb_error *err)
{
	char text[256], *op, *arg, *which;
	size_t i, len = strlen(s);
	uint32_t key;
	uint64_t us;

	memset(c, 0, sizeof(*c));
	err->msg[0] = 0;
	if (!strcmp(s, "oops")) {
		c->type = TRACEBUF_FDR_TRIG_OOPS;
		return 0;
	}
	if (!strcmp(s, "warn")) {
		c->type = TRACEBUF_FDR_TRIG_WARN;
		return 0;
	}
	if (!strcmp(s, "snapshot")) {
		c->type = TRACEBUF_FDR_TRIG_SNAPSHOT;
		return 0;
	}
	if (!strncmp(s, "marker:", 7)) {
		len -= 7;
		if (!len || len > TRACEBUF_FDR_TRIG_PREFIX_MAX) {
			tb_error_set(err, 7, "marker prefix '%s': 1 to %d bytes",
				     s + 7, TRACEBUF_FDR_TRIG_PREFIX_MAX);
			return -1;
		}
		c->type = TRACEBUF_FDR_TRIG_MARKER;
		c->prefix_len = len;
		memcpy(c->prefix, s + 7, len);
		return 0;
	}
	if (len >= sizeof(text)) {
		tb_error_set(err, 0, "condition too long");
		return -1;
	}
	memcpy(text, s, len + 1);
	op = strpbrk(text, ">=");
	if (!op) {
		tb_error_set(err, 0,
			     "unknown condition '%s' (CLASS>DURATION, syscall=ERROR, marker:PREFIX, oops, warn, snapshot)",
			     s);
		return -1;
	}
	arg = op + 1;
	which = strchr(arg, ':');
	if (which)
		*which++ = 0;
	for (i = 0; i < ARRAY_SIZE(classes); i++)
		if (strlen(classes[i].name) == (size_t)(op - text) &&
		    !strncmp(text, classes[i].name, op - text))
			break;
	if (i == ARRAY_SIZE(classes)) {
		*op = 0;
		tb_error_set(err, 0, "unknown class '%s' (syscall, irq, softirq, work)",
			     text);
		return -1;
	}
	if (*op == '>') {
		if (tb_fdr_trigger_parse_us(arg, &us) || !us ||
		    us > TRACEBUF_FDR_TRIG_THRESHOLD_MAX) {
			tb_error_set(err, arg - text, "duration '%s': 1us to 3600s, with us, ms or s",
				     arg);
			return -1;
		}
		c->type = TRACEBUF_FDR_TRIG_DURATION;
		c->ev_class = classes[i].class;
		c->threshold_us = us;
	} else {
		if (classes[i].class != TRACEBUF_FDR_SYSCALL) {
			tb_error_set(err, 0, "'%s=': only syscalls return errors",
				     classes[i].name);
			return -1;
		}
		if (parse_error(arg, &c->error)) {
			tb_error_set(err, arg - text, "error '%s': an errno name (ENOMEM) or 1..4095",
				     arg);
			return -1;
		}
		c->type = TRACEBUF_FDR_TRIG_ERRNO;
	}
	if (which) {
		if (parse_key(which, class_space(classes[i].class), sys, &key)) {
			tb_error_set(err, which - text, "unknown %s '%s'",
				     classes[i].name, which);
			return -1;
		}
		c->flags = TRACEBUF_FDR_TRIG_F_ID;
		c->id = TRACEBUF_FDR_ID(class_space(classes[i].class), key);
	}
	return 0;
}
