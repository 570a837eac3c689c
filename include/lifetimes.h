/*
 * lifetimes.h - how long each row's objects lived: the time from each
 * allocation to the free that matched it, counted per row in buckets of
 * one eighth of a power of two of microseconds (under 1 us, then 1 us to
 * 71.6 min in 32 octaves of 8, then the rest): small and fixed per row,
 * whatever the log's size, and its median and percentiles within an
 * eighth of an octave (9%). Objects whose free was not seen (implicit
 * frees) have no lifetime; those still live at the end are counted by
 * the report from the account.
 *
 * Not here: naming rows, the report.
 */
#ifndef TA_LIFETIMES_H
#define TA_LIFETIMES_H

#include <stdint.h>

#define LIFETIME_OCTAVES 32
#define LIFETIME_SUBS 8
/* bucket 0: under 1 us; 1 + octave * 8 + sub; the last: 2^32 us and more */
#define LIFETIME_BUCKETS (2 + LIFETIME_OCTAVES * LIFETIME_SUBS)

struct lifetime_row {
	uint32_t count[LIFETIME_BUCKETS];
	uint64_t freed;
};

struct lifetimes {
	struct lifetime_row *rows;
	uint32_t nrows;
};

void lifetimes_init(struct lifetimes *l);
void lifetimes_release(struct lifetimes *l);

/* Row id's object lived ns nanoseconds. */
void lifetimes_add(struct lifetimes *l, uint32_t id, uint64_t ns);

/* The bucket of a lifetime of ns nanoseconds. */
unsigned lifetime_bucket(uint64_t ns);

/* A bucket's bounds in seconds: [low, high); high of the last is its low. */
double lifetime_bucket_low_s(unsigned b);
double lifetime_bucket_high_s(unsigned b);

/*
 * The pct-th percentile of counts (n buckets): the upper bound (seconds)
 * of the bucket of the k-th shortest lifetime, k = ceil(pct / 100 * total);
 * the last bucket gives its lower bound. 0 for no lifetime.
 */
double lifetime_percentile_s(const uint64_t *counts, uint64_t total, unsigned pct);

#endif
