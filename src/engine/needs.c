/*
 * needs.c - what a request needs of a run, read off its needs bits, its
 * grouping and its window: stacks, findings, the timeline, a time window.
 * Plain predicates, shared by the engine and the passes.
 */
#include "engine.h"

/* The summary's findings and caches: --summary, and --html, which shows them. */
bool analysis_needs_findings(const struct analysis_request *o)
{
	return o->needs & NEED_FINDINGS;
}

/* Do the reports asked for need stacks: origins, folded stacks, leaks by stack? */
bool analysis_needs_stacks(const struct analysis_request *o)
{
	return o->group_by == GROUP_ORIGIN || (o->needs & (NEED_STACKS | NEED_PAGE_ORIGINS));
}

/* Do they need the slab allocations by origin, or only the pages'? */
bool analysis_needs_slab_origins(const struct analysis_request *o)
{
	return o->group_by == GROUP_ORIGIN || (o->needs & NEED_STACKS);
}

/* Do the reports asked for need live bytes over time? */
bool analysis_needs_timeline(const struct analysis_request *o)
{
	return o->needs & NEED_TIMELINE;
}

/* A pass every run has (pass.h): the account, the losses. */
bool pass_always(const struct analysis_request *q)
{
	(void)q;
	return true;
}
