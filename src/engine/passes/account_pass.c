/*
 * account_pass.c - the account by call site (account.h), every run's, and
 * its part of a DB: the span of the events counted and the account with
 * every record of its live map, so that reports that walk it see the same
 * order. The account is set up with the run (analysis_init): a DB's own
 * account sections are read into it without any pass.
 */
#include "engine.h"

static void count_event(struct analysis *a, const struct kmem_event *ev)
{
	account_apply(&a->account, ev);
}

static void account_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct live_alloc);
	sizes[1] = sizeof(struct site_stats);
	sizes[2] = sizeof(struct account_totals);
	sizes[3] = KMEM_KIND_COUNT;
}

static void put_account(struct db_blob *b, const struct analysis *a)
{
	db_put_u64(b, a->first_ns);
	db_put_u64(b, a->last_ns);
	db_put_account(b, &a->account);
}

static bool take_account(struct db_cursor *c, struct analysis *a)
{
	a->first_ns = db_take_u64(c);
	a->last_ns = db_take_u64(c);
	return !c->problem && db_take_account(c, &a->account, a->strings.call_sites.count);
}

static const struct pass_store account_store = {
	.version = 1, .sizes = account_sizes, .put = put_account, .take = take_account,
};

const struct analysis_pass account_pass = {
	.name = "account",
	.wanted = pass_always,
	.event = count_event,
	.store = &account_store,
};
