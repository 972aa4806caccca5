/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency statistics of one kind of event, in bounded memory: count,
 * total, min and max exactly; percentiles exactly from the samples while
 * there are at most TB_LATENCY_EXACT of them, then from a log-linear
 * histogram (128 sub-buckets per power of two) whose answer is within
 * TB_LATENCY_ERROR_PPM of the exact one; and a log2 histogram for the
 * terminal, as bcc and bpftrace print them.  Values are unit-less (the
 * report uses clock ticks).
 */
#ifndef TB_LATENCY_H
#define TB_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TB_LATENCY_EXACT	4096
/*
 * Half a sub-bucket over its lower bound: 1/256 = 3906.25 ppm, reached
 * when the exact value is a bucket's lower edge; rounded up.
 */
#define TB_LATENCY_ERROR_PPM	3907
/* log2[0] counts zeros, log2[k] the values in [2^(k-1), 2^k). */
#define TB_LATENCY_LOG2		65

struct tb_latency {
	uint64_t count, total, min, max;
	uint64_t log2[TB_LATENCY_LOG2];
	uint64_t *samples;	/* while count <= TB_LATENCY_EXACT */
	uint32_t nsamples;
	size_t cap;
	bool sorted;
	uint64_t *fine;		/* the log-linear histogram after that */
};

/* The index in log2[] of @v. */
unsigned int tb_latency_log2(uint64_t v);

/* Add one value: 0, or -ENOMEM (the value is then counted but not kept). */
int tb_latency_add(struct tb_latency *l, uint64_t v);

/*
 * The nearest-rank percentile @p (0 < p <= 100): the smallest value with
 * at least p% of the values at or below it.  *@exact says whether it is
 * exact or within TB_LATENCY_ERROR_PPM.  0 for no values.
 */
uint64_t tb_latency_percentile(struct tb_latency *l, double p, bool *exact);

void tb_latency_free(struct tb_latency *l);

/* @ns with a unit chosen for reading: "812 ns", "3.41 us", "12.0 ms". */
const char *tb_latency_dur(uint64_t ns, char *buf, size_t size);

/*
 * Log2 buckets of nanoseconds (@ns, indexed as log2[]) drawn as bcc's
 * print_log2_hist and libbpf-tools' runqlat draw them: the rows from the
 * lowest bucket used to the highest, bars of up to 40 stars.
 */
void tb_latency_print_log2(const uint64_t ns[TB_LATENCY_LOG2], FILE *out);

#endif /* TB_LATENCY_H */
