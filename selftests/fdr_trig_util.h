/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the trigger selftests (fdr_trigger_test, and fdr_provoke, which
 * fires the WARN and OOPS conditions for real): arm a trigger, wait
 * for EPOLLPRI, read the frozen recording and find its reason event.
 */
#ifndef FDR_TRIG_UTIL_H
#define FDR_TRIG_UTIL_H

#include <poll.h>

#include "fdr_util.h"

#define PFX		TRACEBUF_FDR_TRIG_PREFIX
#define PFX_LEN		(sizeof(PFX) - 1)
#define SYS_ID(nr)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_SYSCALL, nr)

static inline int arm(int fd, const struct tracebuf_fdr_trigger *t)
{
	return ioctl(fd, TRACEBUF_FDR_IOC_TRIGGER, t) ? -errno : 0;
}

static inline int disarm(int fd)
{
	struct tracebuf_fdr_trigger t = { 0 };

	return arm(fd, &t);
}

/* A trigger of one condition. */
static inline struct tracebuf_fdr_trigger one(struct tracebuf_fdr_trig_cond c,
					      uint32_t events, uint32_t usecs)
{
	struct tracebuf_fdr_trigger t = {
		.nr_conds = 1, .post_events = events, .post_usecs = usecs,
	};

	t.conds[0] = c;
	return t;
}

static inline struct tracebuf_fdr_trig_cond marker_cond(const char *prefix)
{
	struct tracebuf_fdr_trig_cond c = { .type = TRACEBUF_FDR_TRIG_MARKER };

	c.prefix_len = strlen(prefix);
	memcpy(c.prefix, prefix, c.prefix_len);
	return c;
}

/* A running flight-mode capture of @classes. */
static inline int start_flight(uint32_t classes)
{
	int fd = fdr_open_stopped();

	if (fd < 0)
		return -1;
	if (fdr_config(fd, classes, TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0) ||
	    ioctl(fd, TRACEBUF_FDR_IOC_START)) {
		close(fd);
		return -1;
	}
	return fd;
}

static inline uint32_t trig_state(int fd)
{
	struct tracebuf_fdr_stats s;

	if (fdr_stats(fd, &s))
		return ~0U;
	return s.trig_state;
}

/* Wait (at most @ms) for EPOLLPRI: 1 when it came. */
static inline int wait_pri(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLPRI };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLPRI);
}

/* What a frozen stream holds. */
struct seen {
	int reasons;
	char reason[160];
	int reason_cpu;
	uint64_t reason_t;
	int after_reason;	/* events on the reason's CPU after it */
	int markers;
	char last_marker[64];	/* the last marker before the reason */
	int irqs;		/* IRQ handler records */
};

static inline void seen_cb(const struct fdr_rec *r, void *arg)
{
	struct seen *s = arg;
	size_t n;

	if (r->kind == FDR_R_FUNC &&
	    TRACEBUF_FDR_ID_SPACE(r->id) == TRACEBUF_FDR_SPACE_IRQ)
		s->irqs++;
	if (r->kind == FDR_R_CUSTOM && r->size >= PFX_LEN &&
	    !memcmp(r->data, PFX, PFX_LEN)) {
		s->reasons++;
		n = r->size < sizeof(s->reason) - 1 ? r->size : sizeof(s->reason) - 1;
		memcpy(s->reason, r->data, n);
		s->reason[n] = 0;
		s->reason_cpu = r->cpu;
		s->reason_t = r->t;
		return;
	}
	if (s->reasons && r->cpu == s->reason_cpu)
		s->after_reason++;
	if (r->kind == FDR_R_CUSTOM && !s->reasons &&
	    !(r->size > 15 && !memcmp(r->data, "tracebuf: lost ", 15))) {
		n = r->size < sizeof(s->last_marker) - 1 ? r->size :
			sizeof(s->last_marker) - 1;
		memcpy(s->last_marker, r->data, n);
		s->last_marker[n] = 0;
		s->markers++;
	}
}

/* Read the frozen recording through a new file and check it. */
static inline int read_frozen(struct seen *s, char *err, size_t errlen)
{
	int rfd = open(TB_FDR_DEV, O_RDONLY);
	uint8_t *buf;
	size_t len;
	int ret;

	memset(s, 0, sizeof(*s));
	if (rfd < 0)
		return -1;
	buf = fdr_read_all(rfd, &len);
	close(rfd);
	if (!buf)
		return -1;
	ret = fdr_check(buf, len, seen_cb, s, err, errlen);
	free(buf);
	return ret;
}

#endif /* FDR_TRIG_UTIL_H */
