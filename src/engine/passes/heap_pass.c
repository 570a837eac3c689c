/*
 * heap_pass.c - the heap over time for a trace viewer (heapsamples.h,
 * --perfetto): told every change by the peak watcher, and here what it
 * does not see: pages held, frees of allocations the trace never saw.
 * No part of a DB (a series per row, as long as the log): a run that
 * asks for it replays the events.
 */
#include "engine.h"

/* Its own state: the account's untraced frees before the event. */
struct heap_pass_state {
	uint64_t untraced_before;
};

static bool wants_heap(const struct analysis_request *q)
{
	return (q->needs & NEED_HEAP_SAMPLES) && (q->needs & NEED_PEAK);
}

static int start_heap(struct analysis *a, struct ta_error *err)
{
	(void)err;
	heap_samples_init(&a->heap);
	a->peak.samples = &a->heap;
	return 0;
}

static void before_event(struct analysis *a, const struct kmem_event *ev)
{
	struct heap_pass_state *s = analysis_pass_state(a, PASS_HEAP);

	(void)ev;
	s->untraced_before = a->account.totals.lost_frees;
}

static void note_heap(struct analysis *a, const struct kmem_event *ev)
{
	struct heap_pass_state *s = analysis_pass_state(a, PASS_HEAP);

	if (a->account.totals.lost_frees > s->untraced_before)
		heap_samples_untraced_free(&a->heap, ev->ts_ns);
	if (kmem_is_page(ev->kind) && analysis_runs(a, PASS_TIMELINE) && a->timeline.page_events)
		heap_samples_pages(&a->heap, a->timeline.pages * 4096, ev->ts_ns);
}

static void finish_heap(struct analysis *a)
{
	heap_samples_finish(&a->heap);
}

static void release_heap(struct analysis *a)
{
	heap_samples_release(&a->heap);
}

const struct analysis_pass heap_pass = {
	.name = "heap",
	.need = NEED_HEAP_SAMPLES,
	.wanted = wants_heap,
	.state_size = sizeof(struct heap_pass_state),
	.init = start_heap,
	.before = before_event,
	.event = note_heap,
	.finish = finish_heap,
	.release = release_heap,
};
