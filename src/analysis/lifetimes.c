/*
 * lifetimes.c - objects' lifetimes counted per row in eighth-octave
 * buckets (lifetimes.h). Not here: which frees match, or the report.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lifetimes.h"

void lifetimes_init(struct lifetimes *l)
{
	memset(l, 0, sizeof(*l));
}

void lifetimes_release(struct lifetimes *l)
{
	free(l->rows);
	memset(l, 0, sizeof(*l));
}

unsigned lifetime_bucket(uint64_t ns)
{
	uint64_t s, base;	/* in 1/1024 ns */
	unsigned octave, sub;

	if (ns > UINT64_MAX >> LIFETIME_SUB_OCTAVES)
		return LIFETIME_BUCKETS - 1;	/* over 208 days: the rest */
	s = ns << LIFETIME_SUB_OCTAVES;
	if (s < 1000)
		return 0;
	octave = 63u - (unsigned)__builtin_clzll(s / 1000);
	if (octave >= LIFETIME_OCTAVES)
		return LIFETIME_BUCKETS - 1;
	base = (uint64_t)1000 << octave;
	sub = (unsigned)((s - base) * LIFETIME_SUBS / base);
	return 1 + octave * LIFETIME_SUBS + (sub < LIFETIME_SUBS ? sub : LIFETIME_SUBS - 1);
}

double lifetime_bucket_low_s(unsigned b)
{
	unsigned octave, sub;

	if (b == 0)
		return 0;
	if (b >= LIFETIME_BUCKETS - 1)
		return ldexp(1e-6, LIFETIME_OCTAVES - LIFETIME_SUB_OCTAVES);
	octave = (b - 1) / LIFETIME_SUBS;
	sub = (b - 1) % LIFETIME_SUBS;
	return ldexp(1e-6, (int)octave - LIFETIME_SUB_OCTAVES) * (1.0 + (double)sub / LIFETIME_SUBS);
}

double lifetime_bucket_high_s(unsigned b)
{
	unsigned octave, sub;

	if (b == 0)
		return ldexp(1e-6, -LIFETIME_SUB_OCTAVES);
	if (b >= LIFETIME_BUCKETS - 1)
		return lifetime_bucket_low_s(b);
	octave = (b - 1) / LIFETIME_SUBS;
	sub = (b - 1) % LIFETIME_SUBS;
	return ldexp(1e-6, (int)octave - LIFETIME_SUB_OCTAVES) * (1.0 + (double)(sub + 1) / LIFETIME_SUBS);
}

void lifetimes_add(struct lifetimes *l, uint32_t id, uint64_t ns)
{
	l->rows = xgrow_zeroed(l->rows, &l->nrows, id, sizeof(*l->rows));
	l->rows[id].count[lifetime_bucket(ns)]++;
	l->rows[id].freed++;
}

double lifetime_percentile_s(const uint64_t *counts, uint64_t total, unsigned pct)
{
	uint64_t k = (pct * total + 99) / 100, seen = 0;	/* ceil, in integers */
	unsigned b;

	if (!total)
		return 0;
	if (k < 1)
		k = 1;
	for (b = 0; b < LIFETIME_BUCKETS; b++) {
		seen += counts[b];
		if (seen >= k)
			return b == 0 ? 0 : b == LIFETIME_BUCKETS - 1 ? lifetime_bucket_low_s(b)
				: (lifetime_bucket_low_s(b) + lifetime_bucket_high_s(b)) / 2;
	}
	return lifetime_bucket_high_s(LIFETIME_BUCKETS - 1);
}
