// SPDX-License-Identifier: GPL-2.0
/*
 * The merge of an XRay FDR trace's runs into time order: see
 * convert/fdr_merge.h for the two passes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "convert/fdr_merge.h"
#include "format/fdr_marks.h"
#include "format/fdr_meta.h"
#include "util/bytes.h"
#include "util/muldiv.h"

struct tb_fdr_merge_task *tb_fdr_merge_task(struct tb_fdr_merge *m,
					    int32_t tid)
{
	uint32_t i = tb_hash_get(&m->by_tid, (uint32_t)tid);
	struct tb_fdr_merge_task *t;

	if (i)
		return &m->tasks[i - 1];
	if (tb_buf_array_grow(&m->tasks, &m->taskcap, m->ntasks + 1,
			      sizeof(*m->tasks)))
		return NULL;
	t = &m->tasks[m->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = -1;
	if (tb_hash_put(&m->by_tid, (uint32_t)tid, (uint32_t)m->ntasks + 1))
		return NULL;
	m->ntasks++;
	return t;
}

const struct tb_fdr_merge_task *tb_fdr_merge_find(const struct tb_fdr_merge *m,
						  int32_t tid)
{
	uint32_t i = tb_hash_get(&m->by_tid, (uint32_t)tid);

	return i ? &m->tasks[i - 1] : NULL;
}

/*
 * @tid's own name: from its comm record, else @tasks (swapper/N for an
 * idle task, in @buf), else NULL.
 */
static const char *mg_own_comm(const struct tb_fdr_merge *m,
			       const struct tb_task_map *tasks, int32_t tid,
			       char buf[TB_TASK_COMM_LEN])
{
	const struct tb_fdr_merge_task *t = tb_fdr_merge_find(m, tid);

	if (t && t->comm[0])
		return t->comm;
	return tb_task_map_comm(tasks, tid, buf);
}

const char *tb_fdr_merge_comm(const struct tb_fdr_merge *m,
			      const struct tb_task_map *tasks, int32_t tid,
			      char buf[TB_TASK_COMM_LEN])
{
	char own[TB_TASK_COMM_LEN];
	const char *s = mg_own_comm(m, tasks, tid, own);
	int32_t pid;

	if (!s) {
		pid = tb_fdr_merge_pid(m, tasks, tid);
		if (pid != tid)
			s = mg_own_comm(m, tasks, pid, own);
	}
	snprintf(buf, TB_TASK_COMM_LEN, "%s", s ? s : "");
	return buf;
}

int32_t tb_fdr_merge_pid(const struct tb_fdr_merge *m,
			 const struct tb_task_map *tasks, int32_t tid)
{
	const struct tb_fdr_merge_task *mt = tb_fdr_merge_find(m, tid);
	const struct tb_task *t;

	if (mt && mt->pid >= 0)
		return mt->pid;
	t = tasks ? tb_task_map_find(tasks, tid) : NULL;
	return t ? t->pid : tid;
}

enum tb_fdr_event_kind tb_fdr_merge_event(const struct tb_fdr_merge_cursor *k,
					  struct tb_fdr_event *ev)
{
	struct tb_fdr_record r = {
		.kind = k->it.kind == TB_MERGE_TYPED ? TB_FDR_TYPED : TB_FDR_CUSTOM,
		.event_type = (uint16_t)k->it.id,
		.size = (int32_t)k->it.len,
		.data = k->data.data,
		.tid = k->it.tid,
		.cpu = k->it.cpu,
		.tsc = k->it.tsc,
	};

	return tb_fdr_event_decode(&r, ev);
}

/*
 * sched_switch's prev_state as the kernel writes it for ftrace and
 * lttng-modules for LTTng (__trace_sched_switch_state()): a preempted task
 * TASK_REPORT_MAX (0x100), else 1 << (task_state_index() - 1), the
 * kernel's TASK_* bit of the state: S 0x1, D 0x2, T 0x4, X 0x10, I 0x80
 * (TASK_REPORT_IDLE).  The recorder's "running" is a preemption or a yield
 * while runnable, which it does not tell apart: TASK_RUNNING, 0, never
 * claiming the preemption.  "Other" is 0 too: no bit says it.
 */
uint32_t tb_fdr_merge_prev_state(unsigned int state)
{
	static const uint16_t value[TRACEBUF_FDR_STATES] = {
		[TRACEBUF_FDR_STATE_RUNNING] = 0,
		[TRACEBUF_FDR_STATE_SLEEPING] = 0x1,
		[TRACEBUF_FDR_STATE_UNINTERRUPTIBLE] = 0x2,
		[TRACEBUF_FDR_STATE_IDLE] = 0x80,
		[TRACEBUF_FDR_STATE_STOPPED] = 0x4,
		[TRACEBUF_FDR_STATE_DEAD] = 0x10,
		[TRACEBUF_FDR_STATE_OTHER] = 0,
	};

	return state < TRACEBUF_FDR_STATES ? value[state] : 0;
}

int64_t tb_fdr_merge_ret(const struct tb_fdr_merge_cursor *k)
{
	if (!(k->it.flags & TB_MERGE_F_RET) || k->it.len < 8)
		return 0;
	return (int64_t)tb_bytes_get64(k->data.data);
}

uint32_t tb_fdr_merge_kid(const struct tb_fdr_merge *m, uint32_t id)
{
	return m->names ? tb_name_map_kernel_id(m->names, id) : id;
}

static int mg_put(struct tb_fdr_merge *c, const struct tb_fdr_merge_item *it,
		  const uint64_t *args, const void *data)
{
	struct tb_fdr_merge_run *r;

	if (c->new_run || it->tsc < c->last_tsc || !c->nruns) {
		if (tb_buf_array_grow(&c->runs, &c->runcap, c->nruns + 1,
				      sizeof(*c->runs)))
			return -ENOMEM;
		c->runs[c->nruns++] = (struct tb_fdr_merge_run){ c->tmp_len, c->tmp_len };
		c->new_run = false;
	}
	c->last_tsc = it->tsc;
	if (!c->has_first || it->tsc < c->first)
		c->first = it->tsc;
	if (!c->has_first || it->tsc > c->last)
		c->last = it->tsc;
	c->has_first = true;
	if (it->cpu >= c->ncpus)
		c->ncpus = it->cpu + 1U;
	if (fwrite(it, sizeof(*it), 1, c->tmp) != 1 ||
	    (it->nargs && fwrite(args, 8, it->nargs, c->tmp) != it->nargs) ||
	    (it->len && fwrite(data, 1, it->len, c->tmp) != it->len))
		return errno ? -errno : -EIO;
	c->tmp_len += sizeof(*it) + 8ULL * it->nargs + it->len;
	r = &c->runs[c->nruns - 1];
	r->end = c->tmp_len;
	return 0;
}

static void mg_item_of(struct tb_fdr_merge_item *it,
		       const struct tb_fdr_record *r,
		       unsigned int kind)
{
	memset(it, 0, sizeof(*it));
	it->tsc = r->tsc;
	it->tid = r->tid;
	it->pid = r->pid;
	it->cpu = r->cpu;
	it->kind = (uint8_t)kind;
}



/* Write the exit held back, if any. */
static void mg_flush_pend(struct tb_fdr_merge *c)
{
	int ret;

	if (!c->has_pend)
		return;
	c->has_pend = false;
	if (c->err)
		return;
	ret = mg_put(c, &c->pend, c->pend_args, c->pend_data);
	if (ret)
		c->err = ret;
}

/*
 * A RET record: the value of the exit just before it in its task's
 * records, if that exit has the RET's id (the recorder repeats it so that
 * a value is never pinned on the wrong call); else it is left out.
 */
static void mg_ret(struct tb_fdr_merge *c, const struct tb_fdr_record *r)
{
	struct tb_fdr_event ev;

	if (tb_fdr_event_decode(r, &ev) != TB_FDR_EV_RET || !c->has_pend || c->pend.tid != r->tid ||
	    c->pend.id != ev.ret.func_id || c->pend.flags & TB_MERGE_F_RET) {
		c->rets_unmatched++;
		return;
	}
	tb_bytes_put64(c->pend_data, (uint64_t)ev.ret.value);
	c->pend.len = 8;
	c->pend.flags |= TB_MERGE_F_RET;
	c->rets++;
}

static void mg_call(void *ctx, const struct tb_fdr_call *call)
{
	struct tb_fdr_merge *c = ctx;
	const struct tb_fdr_record *r = &call->rec;
	uint32_t space = TRACEBUF_FDR_ID_SPACE(tb_fdr_merge_kid(c, r->func_id));
	bool exit = r->func_type == TB_FDR_EXIT || r->func_type == TB_FDR_TAIL_EXIT;
	struct tb_fdr_merge_task *t;
	struct tb_fdr_merge_item it;
	int ret;

	if (c->err)
		return;
	/* A point event is its entry; its exit, at the same time, says nothing. */
	if (exit && (space == TRACEBUF_FDR_SPACE_FAULT ||
		     space == TRACEBUF_FDR_SPACE_TASK))
		return;
	mg_item_of(&it, r, exit ? TB_MERGE_EXIT : TB_MERGE_ENTER);
	it.id = r->func_id;
	it.nargs = (uint8_t)call->nargs;
	if (!exit && space == TRACEBUF_FDR_SPACE_TASK && call->nargs &&
	    TRACEBUF_FDR_ID_KEY(tb_fdr_merge_kid(c, r->func_id)) == 0) {
		t = tb_fdr_merge_task(c, (int32_t)call->args[0]);
		if (!t) {
			c->err = -ENOMEM;
			return;
		}
		t->forked = true;
	}
	mg_flush_pend(c);
	if (exit) {
		/* Held until the next record: a RET may follow it. */
		c->pend = it;
		memcpy(c->pend_args, call->args, 8U * it.nargs);
		c->has_pend = true;
		return;
	}
	ret = mg_put(c, &it, call->args, NULL);
	if (ret)
		c->err = ret;
}

/* "tracebuf: lost N events": N, or 0 for any other text. */
static uint64_t mg_lost(const struct tb_fdr_record *r)
{
	size_t plen = strlen(TRACEBUF_FDR_LOST_PREFIX);
	unsigned long long n = 0;
	char text[64];
	size_t len = r->size > 0 ? (size_t)r->size : 0;
	int k = 0;

	if (len <= plen || len >= sizeof(text) ||
	    memcmp(r->data, TRACEBUF_FDR_LOST_PREFIX, plen))
		return 0;
	memcpy(text, r->data, len);
	text[len] = 0;
	if (sscanf(text + plen, "%llu events%n", &n, &k) != 1 ||
	    (size_t)k != len - plen)
		return 0;
	return n;
}

/* A command name record: names its task, no event of its own. */
static bool mg_comm(struct tb_fdr_merge *c, const struct tb_fdr_record *r)
{
	const size_t pre = strlen(TRACEBUF_FDR_COMM_PREFIX);
	struct tb_fdr_merge_task *t;
	size_t n, i;

	if (r->size <= (int32_t)pre || memcmp(r->data, TRACEBUF_FDR_COMM_PREFIX, pre))
		return false;
	t = tb_fdr_merge_task(c, r->tid);
	if (!t) {
		c->err = -ENOMEM;
		return true;
	}
	n = (size_t)r->size - pre;
	if (n > TB_TASK_COMM_LEN - 1)
		n = TB_TASK_COMM_LEN - 1;
	for (i = 0; i < n; i++) {
		uint8_t ch = r->data[pre + i];

		t->comm[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '.';
	}
	t->comm[n] = 0;
	return true;
}

static int mg_header(void *ctx, const struct tb_fdr_header *h)
{
	struct tb_fdr_merge *c = ctx;

	c->freq = h->cycle_frequency ? h->cycle_frequency : 1000000000ULL;
	return 0;
}

static int mg_scan(void *ctx, const struct tb_fdr_record *r)
{
	struct tb_fdr_merge *c = ctx;
	struct tb_fdr_merge_item it;
	struct tb_fdr_merge_task *t;
	uint64_t n;

	if (r->ignored || tb_fdr_meta_record(r))
		return 0;
	switch (r->kind) {
	case TB_FDR_NEW_BUFFER:
		c->new_run = true;
		break;
	case TB_FDR_WALLCLOCK:
		if (!c->has_wall) {
			c->wall_s = r->value;
			c->wall_us = r->micros;
			c->wall_pending = true;
		}
		break;
	case TB_FDR_NEW_CPU:
		if (c->wall_pending) {
			c->wall_tsc = r->tsc;
			c->wall_pending = false;
			c->has_wall = true;
		}
		break;
	}
	if (r->kind == TB_FDR_FUNCTION || r->kind == TB_FDR_CUSTOM ||
	    r->kind == TB_FDR_TYPED) {
		t = tb_fdr_merge_task(c, r->tid);
		if (!t)
			return -ENOMEM;
		t->pid = r->pid;
	}
	if (tb_fdr_reader_call_feed(&c->call, r, mg_call, c))
		return c->err;
	/* A RET too short is a typed event as any other, said malformed. */
	if (r->kind == TB_FDR_TYPED && r->event_type == TRACEBUF_FDR_TYPED_RET &&
	    !tb_fdr_event_malformed(r)) {
		mg_ret(c, r);
		mg_flush_pend(c);
		return c->err;
	}
	mg_flush_pend(c);
	if (c->err)
		return c->err;
	if (r->kind == TB_FDR_CUSTOM && !tb_fdr_marks_is_start(r) &&
	    !mg_comm(c, r)) {
		n = mg_lost(r);
		mg_item_of(&it, r, n ? TB_MERGE_LOST : TB_MERGE_MARKER);
		if (n) {
			it.nargs = 1;
			c->err = mg_put(c, &it, &n, NULL);
			return c->err;
		}
		it.len = (uint32_t)r->size;
		c->err = mg_put(c, &it, NULL, r->data);
	} else if (r->kind == TB_FDR_TYPED) {
		if (r->event_type == TRACEBUF_FDR_TYPED_SWITCH)
			c->switches++;
		if (tb_fdr_event_malformed(r))
			c->malformed++;
		mg_item_of(&it, r, TB_MERGE_TYPED);
		it.id = r->event_type;
		it.len = (uint32_t)r->size;
		c->err = mg_put(c, &it, NULL, r->data);
	}
	return c->err;
}

/* ---- cursors over the runs ---- */

static int mg_cur_fill(struct tb_fdr_merge *c, struct tb_fdr_merge_cursor *k,
		       uint64_t off)
{
	uint64_t want = k->end - off;
	ssize_t n;

	if (want > k->win_cap)
		want = k->win_cap;
	n = pread(fileno(c->tmp), k->win, want, (off_t)off);
	if (n < 0)
		return -errno;
	if ((uint64_t)n != want)
		return -EIO;
	k->win_off = off;
	k->win_len = (size_t)n;
	return 0;
}

/* Copy @n bytes at k->off to @dst, advancing. */
static int mg_cur_read(struct tb_fdr_merge *c, struct tb_fdr_merge_cursor *k,
		       void *dst, size_t n)
{
	ssize_t got;
	int ret;

	if (k->off + n > k->end)
		return -EIO;
	if (n > k->win_cap) {
		got = pread(fileno(c->tmp), dst, n, (off_t)k->off);
		if (got < 0 || (size_t)got != n)
			return got < 0 ? -errno : -EIO;
		k->off += n;
		return 0;
	}
	if (k->off < k->win_off || k->off + n > k->win_off + k->win_len) {
		ret = mg_cur_fill(c, k, k->off);
		if (ret)
			return ret;
	}
	memcpy(dst, k->win + (k->off - k->win_off), n);
	k->off += n;
	return 0;
}

/* The cursor's next item, or 1 at the run's end. */
static int mg_cur_next(struct tb_fdr_merge *c, struct tb_fdr_merge_cursor *k)
{
	int ret;

	if (k->off >= k->end)
		return 1;
	ret = mg_cur_read(c, k, &k->it, sizeof(k->it));
	if (!ret && k->it.nargs > TB_FDR_CALL_MAX_ARGS)
		ret = -EIO;
	if (!ret && k->it.nargs)
		ret = mg_cur_read(c, k, k->args, 8U * k->it.nargs);
	if (ret)
		return ret;
	k->data.len = 0;
	if (k->it.len && !tb_buf_add(&k->data, k->it.len))
		return -ENOMEM;
	if (k->it.len)
		ret = mg_cur_read(c, k, k->data.data, k->it.len);
	return ret;
}

/* ---- the heap of cursors: earliest item first, ties in run order ---- */

static bool mg_heap_less(struct tb_fdr_merge_cursor **h, size_t a, size_t b)
{
	if (h[a]->it.tsc != h[b]->it.tsc)
		return h[a]->it.tsc < h[b]->it.tsc;
	return h[a] < h[b];
}

static void mg_heap_down(struct tb_fdr_merge_cursor **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct tb_fdr_merge_cursor *t;

		if (l < n && mg_heap_less(h, l, m))
			m = l;
		if (l + 1 < n && mg_heap_less(h, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}


int tb_fdr_merge_run(struct tb_fdr_merge *c, tb_fdr_merge_fn fn, void *ctx)
{
	size_t runs = c->nruns ? c->nruns : 1, win = TB_MERGE_WINDOW;
	struct tb_fdr_merge_cursor *cur, **heap;
	uint8_t *wins = NULL;
	size_t i, n = 0;
	int ret = 0;

	if (runs * win > TB_MERGE_WINDOWS_MAX)
		win = TB_MERGE_WINDOWS_MAX / runs > TB_MERGE_WINDOW_MIN ?
		      TB_MERGE_WINDOWS_MAX / runs : TB_MERGE_WINDOW_MIN;
	cur = calloc(runs, sizeof(*cur));
	heap = calloc(runs, sizeof(*heap));
	wins = malloc(runs * win);
	if (!cur || !heap || !wins) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c->nruns && !ret; i++) {
		cur[i].win = wins + i * win;
		cur[i].win_cap = win;
		cur[i].off = c->runs[i].start;
		cur[i].end = c->runs[i].end;
		ret = mg_cur_next(c, &cur[i]);
		if (ret == 1)
			ret = 0;
		else if (!ret)
			heap[n++] = &cur[i];
	}
	for (i = n / 2; i-- > 0;)
		mg_heap_down(heap, n, i);
	while (!ret && n) {
		ret = fn(ctx, heap[0]);
		if (ret)
			break;
		ret = mg_cur_next(c, heap[0]);
		if (ret == 1) {
			heap[0] = heap[--n];
			ret = 0;
		}
		mg_heap_down(heap, n, 0);
	}
out:
	for (i = 0; cur && i < c->nruns; i++)
		tb_buf_free(&cur[i].data);
	free(cur);
	free(heap);
	free(wins);
	return ret;
}

bool tb_fdr_merge_wall_zero(const struct tb_fdr_merge *m, int64_t *sec,
			    uint64_t *cycles)
{
	uint64_t tsc_ns, tsc_s, tsc_r, wall_s, wall_r;

	if (!m->has_wall)
		return false;
	/*
	 * The wall clock at tick 0: the WallClockTime less its block's
	 * ticks, in seconds and nanoseconds apart, so that nothing needs
	 * more than 64 bits (32-bit hosts have no 128-bit integer).
	 */
	tsc_ns = tb_muldiv64(m->wall_tsc, 1000000000U, m->freq);
	tsc_s = tsc_ns / 1000000000U;
	tsc_r = tsc_ns % 1000000000U;
	wall_s = m->wall_s + (uint64_t)m->wall_us / 1000000U;
	wall_r = (uint64_t)m->wall_us % 1000000U * 1000U;
	if (wall_s < m->wall_s || wall_s < tsc_s ||
	    (wall_s == tsc_s && wall_r < tsc_r))
		return false;
	if (wall_r < tsc_r) {
		wall_r += 1000000000U;
		wall_s--;
	}
	*sec = (int64_t)(wall_s - tsc_s);
	*cycles = tb_muldiv64(wall_r - tsc_r, m->freq, 1000000000U);
	return true;
}

int tb_fdr_merge_scan(struct tb_fdr_merge *m, FILE *in,
		      const struct tb_name_map *names, struct tb_error *err)
{
	int ret;

	m->names = names;
	m->freq = 1000000000ULL;
	m->tmp = tmpfile();
	if (!m->tmp)
		return errno ? -errno : -EIO;
	ret = tb_fdr_reader_read(in, mg_header, mg_scan, m, NULL, err);
	if (!ret) {
		tb_fdr_reader_call_flush(&m->call, mg_call, m);
		mg_flush_pend(m);
		ret = m->err;
	}
	if (!ret && fflush(m->tmp))
		ret = errno ? -errno : -EIO;
	return ret;
}

void tb_fdr_merge_free(struct tb_fdr_merge *m)
{
	if (m->tmp)
		fclose(m->tmp);
	m->tmp = NULL;
	free(m->runs);
	free(m->tasks);
	tb_hash_free(&m->by_tid);
}
