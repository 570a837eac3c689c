/*
 * lifetimes.h - how long each row's objects lived: the time from each
 * allocation to the free that matched it, counted per row in log-linear
 * buckets as HdrHistogram's: 64 a power of two, of 1.024 ns up (42 octaves:
 * about 1 ns to 71.6 min, then the rest): fixed per row (10.5 KiB),
 * whatever the log's size, and its median and percentiles (a bucket's
 * midpoint) within 1/128 of the exact lifetime. Objects whose free was not seen (implicit
 * frees) have no lifetime; those still live at the end are counted by
 * the report from the account.
 *
 * Not here: naming rows, the report.
 */
#ifndef TA_LIFETIMES_H
#define TA_LIFETIMES_H

#include <stdint.h>

#define LIFETIME_SUB_OCTAVES 10	/* octaves below 1 us: 1000/1024 ns up */
#define LIFETIME_OCTAVES (LIFETIME_SUB_OCTAVES + 32)
#define LIFETIME_SUBS 64
#define LIFETIME_BUCKETS (2 + LIFETIME_OCTAVES * LIFETIME_SUBS)
#define LIFETIME_FIRST_US_BUCKET (1 + LIFETIME_SUB_OCTAVES * LIFETIME_SUBS)

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
