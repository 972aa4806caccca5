// SPDX-License-Identifier: GPL-2.0
/* The report's errors section; see convert/fdr_report_errors.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_report_errors.h"
#include "util/buf.h"

int tb_fdr_report_errors_ret(struct tb_fdr_report_errors *e,
			     const struct tb_fdr_ret *ret)
{
	struct tb_fdr_report_errno *v;
	uint64_t key;
	uint32_t at;
	int err;

	e->returns++;
	if (!e->exit_valid || e->exit_id != ret->func_id) {
		e->unmatched++;
		e->exit_valid = false;
		return 0;
	}
	/* One value per exit: a second RET after it is not pinned. */
	e->exit_valid = false;
	e->pinned++;
	err = tb_fdr_event_errno(ret->value);
	if (!err || !e->exit_counted)
		return 0;
	key = (uint64_t)ret->func_id << 16 | (uint32_t)err;
	at = tb_hash_get(&e->index, key);
	if (at) {
		e->v[at - 1].count++;
		return 0;
	}
	if (tb_buf_array_grow(&e->v, &e->cap, e->n + 1, sizeof(*v)))
		return -ENOMEM;
	v = &e->v[e->n];
	v->id = ret->func_id;
	v->err = err;
	v->count = 1;
	if (tb_hash_put(&e->index, key, (uint32_t)e->n + 1))
		return -ENOMEM;
	e->n++;
	return 0;
}

static int er_by_id(const void *a, const void *b)
{
	const struct tb_fdr_report_errno *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

void tb_fdr_report_errors_sort(struct tb_fdr_report_errors *e)
{
	if (e->n)	/* qsort() of NULL is undefined, even of none */
		qsort(e->v, e->n, sizeof(*e->v), er_by_id);
	/* The index points into the order of the pass: no longer valid. */
	tb_hash_free(&e->index);
}

void tb_fdr_report_errors_free(struct tb_fdr_report_errors *e)
{
	free(e->v);
	tb_hash_free(&e->index);
	memset(e, 0, sizeof(*e));
}
