// SPDX-License-Identifier: GPL-2.0
/* Bounded-memory latency statistics; see convert/latency.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "convert/latency.h"
#include "util/buf.h"

/*
 * Log-linear buckets: values below 256 each have their own; above, a
 * power of two 2^e (e >= 8) is cut into 128 buckets of 2^(e-7).
 */
#define LAT_FINE_LOW	256
#define LAT_FINE_SUB	128
#define LAT_FINE_NR	(LAT_FINE_LOW + (64 - 8) * LAT_FINE_SUB)

unsigned int tb_latency_log2(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static unsigned int lat_fine(uint64_t v)
{
	unsigned int e;

	if (v < LAT_FINE_LOW)
		return (unsigned int)v;
	e = 63 - __builtin_clzll(v);
	return LAT_FINE_LOW + (e - 8) * LAT_FINE_SUB +
	       (unsigned int)((v >> (e - 7)) & (LAT_FINE_SUB - 1));
}

/* The value a fine bucket stands for: its middle. */
static uint64_t lat_fine_value(unsigned int i)
{
	unsigned int e, sub;
	uint64_t lo, width;

	if (i < LAT_FINE_LOW)
		return i;
	e = (i - LAT_FINE_LOW) / LAT_FINE_SUB + 8;
	sub = (i - LAT_FINE_LOW) % LAT_FINE_SUB;
	width = 1ULL << (e - 7);
	lo = (1ULL << e) + sub * width;
	return lo + width / 2;
}

/* Leave exact mode: the samples go into the fine histogram. */
static int lat_go_fine(struct tb_latency *l)
{
	uint32_t i;

	l->fine = calloc(LAT_FINE_NR, sizeof(*l->fine));
	if (!l->fine)
		return -ENOMEM;
	for (i = 0; i < l->nsamples; i++)
		l->fine[lat_fine(l->samples[i])]++;
	free(l->samples);
	l->samples = NULL;
	l->nsamples = 0;
	l->cap = 0;
	return 0;
}

int tb_latency_add(struct tb_latency *l, uint64_t v)
{
	if (!l->count || v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	l->count++;
	l->total += v;
	l->log2[tb_latency_log2(v)]++;
	l->sorted = false;
	if (!l->fine && l->count > TB_LATENCY_EXACT && lat_go_fine(l))
		return -ENOMEM;
	if (l->fine) {
		l->fine[lat_fine(v)]++;
		return 0;
	}
	if (tb_buf_array_grow(&l->samples, &l->cap, l->nsamples + 1,
			      sizeof(*l->samples)))
		return -ENOMEM;
	l->samples[l->nsamples++] = v;
	return 0;
}

static int lat_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sort @n samples in place.  The report sorts every name's samples once
 * for its percentiles, and qsort() with a comparison called through a
 * pointer was 45% of tracebuf report's time on a scheduler trace (perf,
 * 2026-11-29), and more of tracebuf top's, which sorts every interval.
 * A radix sort, 8 bits a pass, least significant first, skips the bytes
 * on which all samples agree (durations in ns leave the top three or
 * four alike): a handful of passes without a call.  Short arrays, and a
 * failed allocation, take insertion sort or qsort().
 */
static void lat_sort(uint64_t *v, size_t n)
{
	uint64_t diff = 0, *tmp, *src = v, *dst, *t;
	size_t count[256], i, j;
	unsigned int shift;

	if (n < 64) {
		for (i = 1; i < n; i++) {
			uint64_t x = v[i];

			for (j = i; j && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp) {
		qsort(v, n, sizeof(*v), lat_cmp);
		return;
	}
	dst = tmp;
	for (i = 1; i < n; i++)
		diff |= v[i] ^ v[0];
	for (shift = 0; shift < 64; shift += 8) {
		size_t sum = 0, c;

		if (!((diff >> shift) & 0xff))
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(src[i] >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
}

uint64_t tb_latency_percentile(struct tb_latency *l, double p, bool *exact)
{
	uint64_t rank, seen = 0;
	double r;
	unsigned int i;

	*exact = true;
	if (!l->count)
		return 0;
	/*
	 * Nearest rank: ceil(p * count / 100), at least 1; multiplied
	 * first, so that a whole p gives the whole rank (p / 100 * count
	 * made p7 of 200 samples 14.000000000000002, rank 15).
	 */
	r = p * (double)l->count / 100.0;
	rank = (uint64_t)r;
	if ((double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > l->count)
		rank = l->count;
	if (rank == l->count)
		return l->max;
	if (rank == 1)
		return l->min;
	if (!l->fine) {
		if (l->nsamples != l->count) {
			/* Samples were lost to memory: fall back to max. */
			*exact = false;
			return l->max;
		}
		if (!l->sorted) {
			lat_sort(l->samples, l->nsamples);
			l->sorted = true;
		}
		return l->samples[rank - 1];
	}
	for (i = 0; i < LAT_FINE_NR; i++) {
		seen += l->fine[i];
		if (seen >= rank) {
			uint64_t v = lat_fine_value(i);

			*exact = i < LAT_FINE_LOW;
			return v < l->min ? l->min : v > l->max ? l->max : v;
		}
	}
	return l->max;
}

void tb_latency_free(struct tb_latency *l)
{
	free(l->samples);
	free(l->fine);
	memset(l, 0, sizeof(*l));
}

const char *tb_latency_dur(uint64_t ns, char *buf, size_t size)
{
	static const char *const unit[] = { "us", "ms", "s" };
	double v = (double)ns;
	unsigned int u = 0;

	if (ns < 1000) {
		snprintf(buf, size, "%" PRIu64 " ns", ns);
		return buf;
	}
	v /= 1000;
	while (v >= 999.5 && u < 2) {
		v /= 1000;
		u++;
	}
	snprintf(buf, size, v < 9.995 ? "%.2f %s" : v < 99.95 ? "%.1f %s" :
		 "%.0f %s", v, unit[u]);
	return buf;
}

void tb_latency_print_log2(const uint64_t ns[TB_LATENCY_LOG2], FILE *out)
{
	unsigned int k, lo = TB_LATENCY_LOG2, hi = 0, bars;
	uint64_t top = 0;

	for (k = 0; k < TB_LATENCY_LOG2; k++) {
		if (!ns[k])
			continue;
		lo = k < lo ? k : lo;
		hi = k;
		top = ns[k] > top ? ns[k] : top;
	}
	fprintf(out, "%22s : %-9s %s\n", "ns", "count", "distribution");
	for (k = lo; k <= hi && top; k++) {
		uint64_t from = k ? 1ULL << (k - 1) : 0;
		uint64_t to = k ? (k < 64 ? (1ULL << k) - 1 : UINT64_MAX) : 0;

		bars = (unsigned int)((ns[k] * 40 + top - 1) / top);
		fprintf(out, "%10" PRIu64 " -> %-8" PRIu64 " : %-9" PRIu64
			" |%-40.*s|\n", from, to, ns[k], bars,
			"****************************************");
	}
}
