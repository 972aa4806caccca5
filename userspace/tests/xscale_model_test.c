// SPDX-License-Identifier: GPL-2.0
/*
 * The XScale decoder against the driver's own model of the buffer
 * (driver/tracebuf/model.c, compiled here as it is): every buffer the model can
 * produce decodes without a suspect warning, to exactly the messages that
 * survive in it, with the checkpoint registers assigned as the model set
 * them.  100,000 random buffers: wrap-around and fill-once, sizes 256
 * bytes to 64 KiB, wrapped, partly written, full, with dropped events and
 * chained capture.  Plus the layouts the checkpoint rule cannot produce,
 * which must be reported.  And the model against a reference written
 * here from the rules alone, one byte at a time: the model's fast path
 * (a whole entry stored at once) and its slow path must both give the
 * reference's bytes, positions, checkpoints and flags.
 */
#include <stdlib.h>
#include <string.h>

#include "../../driver/tracebuf/model.c"

#include "tb_harness.h"
#include "format/xs.h"

#define BUFFERS		100000

/* A fast generator: the test makes tens of millions of events. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (uint32_t)((rng_state >> 11) % n) : 0;
}

/* What the model wrote, in stream order: one message or a roll-over run. */
struct exp {
	uint64_t first;		/* stream position of the first byte */
	uint32_t count;		/* roll-overs in a run; 1 for a message */
	uint8_t len;		/* bytes per message: 1 or 5 */
	uint8_t raw;		/* the message byte as the model wrote it */
	uint32_t target;	/* indirect or branch target (the event's) */
};

struct log {
	struct exp *e;
	size_t n;
	size_t cap;
};

static void log_add(struct log *l, const struct exp *e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->e = realloc(l->e, l->cap * sizeof(*l->e));
		if (!l->e)
			exit(1);
	}
	l->e[l->n++] = *e;
}

static void random_event(struct tracebuf_event *ev, uint32_t size)
{
	static const uint32_t vec[] = { 1, 2, 3, 4, 6, 7 };
	uint32_t r = rnd(100);

	memset(ev, 0, sizeof(*ev));
	if (r < 25) {
		ev->kind = TRACEBUF_EV_EXCEPTION;
		ev->arg = vec[rnd(6)];
	} else if (r < 65) {
		ev->kind = TRACEBUF_EV_BRANCH;
		ev->arg = 0x8000 + 4 * rnd(1 << 20);
	} else {
		ev->kind = TRACEBUF_EV_INDIRECT;
		ev->arg = (uint32_t)rng_state;
	}
	r = rnd(1000);
	if (r < 600)
		ev->icount = rnd(16);
	else if (r < 950)
		ev->icount = rnd(80);
	else if (r < 998)
		ev->icount = rnd(16 * 64);
	else	/* longer than the buffer: the model's skip path */
		ev->icount = 16 * (size + rnd(2 * size));
}

/*
 * Put @ev into @m and log what it wrote.  Returns the model's answer.
 * The driver records an event in holds of bounded work; here every call
 * gets a small random budget, so the buffers checked are the ones that
 * cutting an event anywhere produces (they must be the same).
 */
static enum tb_put put(struct tb_model *m, struct tracebuf_event *ev,
		       struct log *l)
{
	uint64_t before = m->bytes_written;
	uint32_t rolls = ev->icount / TB_ROLLOVER_INSNS;
	uint32_t len = ev->kind == TRACEBUF_EV_INDIRECT ? 5 : 1;
	uint32_t arg = ev->arg;
	enum tb_put r;
	s64 work;

	do {
		work = 1 + rnd(3 * m->size);
		r = tb_model_put(m, ev, &work);
	} while (r == TB_PUT_MORE);
	uint64_t wrote = m->bytes_written - before;
	struct exp e = { 0 };

	if (r == TB_PUT_FULL)
		rolls = (uint32_t)wrote;
	if (rolls) {
		e.first = before;
		e.count = rolls;
		e.len = 1;
		e.raw = TB_MSG_ROLLOVER;
		log_add(l, &e);
	}
	if (r == TB_PUT_DONE) {
		e.first = before + rolls;
		e.count = 1;
		e.len = (uint8_t)len;
		e.raw = m->buf[(m->bytes_written - 1) & (m->size - 1)];
		e.target = arg;
		log_add(l, &e);
	}
	return r;
}

struct totals {
	unsigned long buffers, wrapped, partial, full, dropped_in;
	unsigned long chained, suspect, mismatch, checkpoints3;
	unsigned long by_size[9];
};

/*
 * Decode the model's buffer and compare with the log.  Returns the number
 * of differences (0 when the decoder and the model agree).
 */
static int check(struct __test_metadata *_metadata, const struct tb_model *m,
		 const struct log *l, struct totals *t)
{
	uint32_t size = m->size, zeros, off;
	uint64_t total = m->bytes_written, oldest, p;
	struct tb_xs_chkpt_regs regs = { true, m->chkpt[0], m->chkpt[1] };
	static struct tb_xs_msg msgs[65536];
	static uint8_t out[65536];
	/* Checkpointed messages: index in msgs and the event's target. */
	static size_t chk[65536];
	static uint32_t chk_target[65536];
	struct tb_xs_result res;
	size_t i, k = 0, nchk = 0;
	int bad = 0;

	tb_model_copy(m, out);
	tb_xs_decode(out, size, &regs, msgs, &res);
	/* Read order starts at the oldest byte, stream position @oldest. */
	oldest = total > size ? total - size : 0;
	zeros = total < size ? (uint32_t)(size - total) : 0;
	t->wrapped += total > size;
	t->partial += zeros != 0;
	if (res.warn_mask) {
		t->suspect++;
		bad++;
		TH_LOG("size %u: suspect, mask %#x (first offset %#x)", size,
		       res.warn_mask,
		       res.warn_offset[__builtin_ctz(res.warn_mask)]);
	}
	if (res.zeros != zeros || res.wrapped != !zeros) {
		bad++;
		TH_LOG("size %u: zeros %u, expected %u", size, res.zeros,
		       zeros);
	}
	/* The log's surviving messages against the decoded ones. */
	for (i = 0; i < l->n && !bad; i++) {
		const struct exp *e = &l->e[i];
		uint64_t last = e->first + (uint64_t)e->count * e->len - 1;

		if (last < oldest)
			continue;
		for (p = e->first; p <= last && !bad; p += e->len) {
			const struct tb_xs_msg *d = &msgs[k];

			if (p < oldest) {
				/* Partly overwritten: dropped as a fragment. */
				if (p + e->len > oldest &&
				    res.fragment != p + e->len - oldest) {
					bad++;
					TH_LOG("size %u: fragment %u, expected %llu",
					       size, res.fragment,
					       (unsigned long long)(p + e->len -
								    oldest));
				}
				continue;
			}
			off = (uint32_t)(p + e->len - 1 + size - total);
			if (k >= res.nr || d->raw != e->raw ||
			    d->offset != off ||
			    (e->len == 5 && d->target != e->target)) {
				bad++;
				TH_LOG("size %u: message %zu differs: raw %#x/%#x offset %#x/%#x",
				       size, k, k < res.nr ? d->raw : 0, e->raw,
				       k < res.nr ? d->offset : 0, off);
				break;
			}
			if ((e->raw & 0xe0) == 0xc0) {
				chk[nchk] = k;
				chk_target[nchk++] = e->target;
			}
			k++;
		}
	}
	if (!bad && k != res.nr) {
		bad++;
		TH_LOG("size %u: %zu messages decoded, %zu survive", size,
		       res.nr, k);
	}
	/*
	 * The newest checkpointed entry is CHKPT0, the one before CHKPT1,
	 * with the target the model put in the register; older ones lost.
	 */
	for (i = 0; i < nchk && !bad; i++) {
		const struct tb_xs_msg *d = &msgs[chk[nchk - 1 - i]];
		uint32_t want_target = chk_target[nchk - 1 - i];
		unsigned int want = i == 0 ? TB_XS_CHK0 :
				    i == 1 ? TB_XS_CHK1 : TB_XS_CHK_LOST;

		if (d->checkpointed != want ||
		    (i < 2 && (!d->target_known ||
			       d->target != want_target))) {
			bad++;
			TH_LOG("size %u: checkpoint %zu: %u, target %#x, expected %#x",
			       size, i, d->checkpointed, d->target,
			       want_target);
		}
	}
	t->checkpoints3 += nchk >= 3;
	t->mismatch += bad != 0;
	return bad;
}

/*
 * One random buffer of @size: wrap-around up to a random number of bytes
 * (partly written or wrapped), or fill-once (partly written, or full with
 * events dropped after it), or fill-once chained (full buffers taken and
 * the buffer cleared, as the driver's chained capture does).
 */
static int one_buffer(struct __test_metadata *_metadata, uint32_t size,
		      struct totals *t)
{
	static uint8_t ring[65536];
	struct tb_model m;
	struct log l = { 0 };
	bool fill = rnd(2), chain = fill && !rnd(3);
	unsigned int pushes = 0, want = chain ? 1 + rnd(3) : 0, i;
	uint64_t stop = rnd(4) ? size / 4 + rnd(3 * size) : rnd(size);
	int bad = 0;

	tb_model_init(&m, ring, size);
	m.mode = fill ? TRACEBUF_MODE_FILL_ONCE : TRACEBUF_MODE_WRAP;
	/* The registers keep what an earlier capture left in them. */
	m.chkpt[0] = 0x1000 + rnd(1 << 16);
	m.chkpt[1] = 0x2000 + rnd(1 << 16);
	for (;;) {
		struct tracebuf_event ev;

		if (pushes == want && (m.bytes_written >= stop || m.full))
			break;
		random_event(&ev, size);
		while (put(&m, &ev, &l) == TB_PUT_FULL && pushes < want) {
			bad += check(_metadata, &m, &l, t);
			t->chained++;
			t->buffers++;
			t->full++;
			tb_model_clear(&m);
			l.n = 0;
			pushes++;
		}
	}
	if (fill && m.full && !chain) {
		/* More events: the model drops them, the buffer stays. */
		for (i = 0; i < 1 + rnd(3); i++) {
			struct tracebuf_event ev;

			random_event(&ev, size);
			put(&m, &ev, &l);
		}
		t->dropped_in++;
	}
	t->full += m.full;
	bad += check(_metadata, &m, &l, t);
	t->buffers++;
	free(l.e);
	return bad;
}

TEST(model_buffers_are_never_suspect)
{
	/* Mostly 256 bytes (the hardware's size), every size up to 64 KiB. */
	static const unsigned int weight[9] = {
		900, 50, 25, 12, 6, 3, 2, 1, 1,
	};
	struct totals t = { 0 };
	unsigned int k, bad = 0;

	while (t.buffers < BUFFERS && bad < 10) {
		unsigned int r = rnd(1000), sum = 0;

		for (k = 0; k < 8; k++) {
			sum += weight[k];
			if (r < sum)
				break;
		}
		t.by_size[k]++;
		bad += one_buffer(_metadata, 256U << k, &t) != 0;
	}
	fprintf(stderr, "# %lu buffers: %lu wrapped, %lu partly written, %lu full, %lu chained, %lu with dropped events\n",
		t.buffers, t.wrapped, t.partial, t.full, t.chained,
		t.dropped_in);
	fprintf(stderr, "# %lu with 3 checkpointed entries; %lu suspect, %lu differ from the model\n",
		t.checkpoints3, t.suspect, t.mismatch);
	for (k = 0; k < 9; k++)
		fprintf(stderr, "#   %6u bytes: %lu\n", 256U << k, t.by_size[k]);
	for (k = 0; k < 9; k++)
		EXPECT_LT(0, t.by_size[k]);
	EXPECT_LE(BUFFERS, t.buffers);
	EXPECT_EQ(0, t.suspect);
	EXPECT_EQ(0, t.mismatch);
	EXPECT_LT(0, t.checkpoints3);
	EXPECT_LT(0, t.dropped_in);
	EXPECT_LT(0, t.chained);
}

/*
 * The reference: the rules of model.h/model.c's comment, one byte at a
 * time and nothing else (no budget, no skipping, no fast path).
 */
struct ref {
	uint8_t buf[65536];
	uint32_t size, wpos, mode, chkpt[2];
	bool armed, full;
	uint64_t bytes_written;
};

/* Entering a half of the buffer arms it. */
static void ref_arm(struct ref *r)
{
	uint32_t idx = r->wpos % r->size;

	if (idx == 0 || idx == r->size / 2)
		r->armed = true;
}

/* A byte at the write position, armed first unless @msg (done already). */
static bool ref_byte(struct ref *r, uint8_t b, bool msg)
{
	uint32_t idx = r->wpos % r->size;

	if (r->mode == TRACEBUF_MODE_FILL_ONCE && r->wpos == r->size)
		return false;
	if (!msg)
		ref_arm(r);
	r->buf[idx] = b;
	r->wpos = r->mode == TRACEBUF_MODE_WRAP ? (idx + 1) % r->size :
						    r->wpos + 1;
	r->bytes_written++;
	return true;
}

/* False: full (the rest of the event is not recorded). */
static bool ref_put(struct ref *r, const struct tracebuf_event *ev)
{
	uint32_t i, room = r->size - r->wpos;
	uint8_t msg;

	if (r->full)
		return false;
	for (i = 0; i < ev->icount / 16; i++) {
		if (!ref_byte(r, 0xff, false)) {
			r->full = true;
			return false;
		}
	}
	room = r->size - r->wpos;
	if (r->mode == TRACEBUF_MODE_FILL_ONCE &&
	    room < (ev->kind == TRACEBUF_EV_INDIRECT ? 5u : 1u)) {
		r->full = true;
		return false;
	}
	if (ev->kind == TRACEBUF_EV_EXCEPTION) {
		msg = (uint8_t)(ev->arg << 4 | ev->icount % 16);
		ref_arm(r);
	} else {
		if (ev->kind == TRACEBUF_EV_INDIRECT)
			for (i = 0; i < 4; i++)
				ref_byte(r, (uint8_t)(ev->arg >> (24 - 8 * i)),
					 false);
		msg = (ev->kind == TRACEBUF_EV_INDIRECT ? 0x90 : 0x80) |
		      ev->icount % 16;
		ref_arm(r);
		if (r->armed) {
			msg |= 0x40;
			r->chkpt[1] = r->chkpt[0];
			r->chkpt[0] = ev->arg;
			r->armed = false;
		}
	}
	ref_byte(r, msg, true);
	if (r->mode == TRACEBUF_MODE_FILL_ONCE && r->wpos == r->size)
		r->full = true;
	return true;
}

/* What clearing does (reading the buffer, a mode change, a new chain). */
static void ref_clear(struct ref *r, uint32_t mode)
{
	memset(r->buf, 0, r->size);
	r->mode = mode;
	r->wpos = 0;
	r->armed = true;
	r->full = false;
	r->bytes_written = 0;
}

static void both_clear(struct tb_model *m, struct ref *r, uint32_t mode)
{
	m->mode = mode;
	tb_model_clear(m);
	ref_clear(r, mode);
}

/* Which paths the model took, to show that the test reached them. */
struct paths {
	unsigned long fast, slow_at_boundary, armed, full;
};

/*
 * @ev into both, in holds of random work; true if they then differ (and
 * says how).  Counts in @p whether the fast path could take it.
 */
static bool model_step(struct __test_metadata *_metadata, struct tb_model *m,
		       struct ref *r, struct tracebuf_event ev,
		       struct paths *p)
{
	uint32_t need = ev.kind == TRACEBUF_EV_INDIRECT ? 5 : 1;
	uint32_t half = m->size / 2, idx = m->wpos % half;
	struct tracebuf_event in = ev;
	bool done, bad;
	enum tb_put res;
	s64 work;

	if (ev.icount < 16 && m->wpos + need < m->fast_end)
		p->fast++;
	else if (ev.icount < 16 && !m->full && (!idx || idx + need >= half))
		p->slow_at_boundary++;
	p->armed += m->armed;
	done = ref_put(r, &ev);
	do {
		work = 1 + rnd(3 * m->size);
		res = tb_model_put(m, &ev, &work);
	} while (res == TB_PUT_MORE);
	p->full += m->full;
	bad = done != (res == TB_PUT_DONE) ||
	      m->wpos != r->wpos || m->full != r->full ||
	      m->armed != r->armed ||
	      m->bytes_written != r->bytes_written ||
	      m->chkpt[0] != r->chkpt[0] || m->chkpt[1] != r->chkpt[1] ||
	      memcmp(m->buf, r->buf, m->size);
	if (bad)
		TH_LOG("size %u, mode %u, event kind %u icount %u: model and reference differ: done %d/%d wpos %u/%u full %d/%d armed %d/%d written %llu/%llu",
		       m->size, m->mode, in.kind, in.icount,
		       res == TB_PUT_DONE, done, m->wpos, r->wpos, m->full,
		       r->full, m->armed, r->armed,
		       (unsigned long long)m->bytes_written,
		       (unsigned long long)r->bytes_written);
	return bad;
}

static void paths_check(struct __test_metadata *_metadata,
			const struct paths *p)
{
	fprintf(stderr, "# fast path %lu, slow at a half boundary %lu, armed %lu, full %lu\n",
		p->fast, p->slow_at_boundary, p->armed, p->full);
	EXPECT_LT(0, p->fast);
	EXPECT_LT(0, p->slow_at_boundary);
	EXPECT_LT(0, p->armed);
	EXPECT_LT(0, p->full);
}

TEST(model_is_the_reference)
{
	static uint8_t mbuf[65536];
	static struct ref r;
	unsigned long events = 0, fast = 0, bad = 0, clears = 0;
	struct paths p = { 0 };
	unsigned int run, k;

	for (run = 0; run < 3000 && !bad; run++) {
		uint32_t size = 16U << rnd(9);
		struct tb_model m;

		tb_model_init(&m, mbuf, size);
		memset(&r, 0, sizeof(r));
		r.size = size;
		both_clear(&m, &r,
			   rnd(2) ? TRACEBUF_MODE_WRAP : TRACEBUF_MODE_FILL_ONCE);
		for (k = rnd(3 * size); k && !bad; k--) {
			struct tracebuf_event ev;

			/* Clears and mode changes at any position. */
			if (!rnd(size)) {
				both_clear(&m, &r, rnd(2) ? m.mode :
					   m.mode ^ TRACEBUF_MODE_WRAP ^
					   TRACEBUF_MODE_FILL_ONCE);
				clears++;
			}
			random_event(&ev, size);
			if (rnd(4))	/* mostly the fast path's events */
				ev.icount %= 16;
			fast += ev.icount < 16;
			events++;
			bad += model_step(_metadata, &m, &r, ev, &p);
		}
	}
	fprintf(stderr, "# %lu events (%lu without roll-overs) in %u buffers, %lu clears\n",
		events, fast, run, clears);
	EXPECT_EQ(0, bad);
	EXPECT_LT(0, clears);
	paths_check(_metadata, &p);
}

/*
 * Every start position of a small buffer, in both modes, then a run of
 * events of every kind that walks the write position over each half
 * boundary, the end (wrap, fill-once full) and armed states: the cases
 * the fast path must leave to the slow one, at each offset.
 */
TEST(model_is_the_reference_at_every_position)
{
	static const uint32_t kinds[] = {
		TRACEBUF_EV_EXCEPTION, TRACEBUF_EV_BRANCH, TRACEBUF_EV_INDIRECT,
	};
	static uint8_t mbuf[64];
	static struct ref r;
	struct paths p = { 0 };
	uint32_t size, mode, start, pat, k;
	unsigned long bad = 0;

	for (size = 16; size <= 64; size *= 2)
	for (mode = 0; mode < 2; mode++)
	for (start = 0; start < 2 * size; start++)
	for (pat = 0; pat < 27 && !bad; pat++) {
		struct tb_model m;

		tb_model_init(&m, mbuf, size);
		memset(&r, 0, sizeof(r));
		r.size = size;
		both_clear(&m, &r, mode ? TRACEBUF_MODE_WRAP :
				   TRACEBUF_MODE_FILL_ONCE);
		/* To @start with one-byte entries, some of them branches. */
		for (k = 0; k < start && !bad; k++) {
			struct tracebuf_event ev = {
				.kind = k % 7 ? TRACEBUF_EV_EXCEPTION :
						TRACEBUF_EV_BRANCH,
				.arg = k % 7 ? 2 : 0x8000 + 4 * k,
				.icount = k % 16,
			};

			bad += model_step(_metadata, &m, &r, ev, &p);
		}
		/* Then a pattern of three kinds, repeated past the end. */
		for (k = 0; k < 3 * size && !bad; k++) {
			uint32_t d = k % 3 ? pat / 9 : k % 2 ? pat / 3 : pat;
			struct tracebuf_event ev = {
				.kind = kinds[d % 3],
				.arg = kinds[d % 3] == TRACEBUF_EV_EXCEPTION ?
				       2 : 0x10000000 + 4 * k,
				.icount = k % 23 ? k % 16 : 16 + k % 40,
			};

			bad += model_step(_metadata, &m, &r, ev, &p);
		}
	}
	EXPECT_EQ(0, bad);
	paths_check(_metadata, &p);
}

TEST_HARNESS_MAIN
