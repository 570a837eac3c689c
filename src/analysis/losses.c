/*
 * losses.c - the log's windows of lost events (losses.h). Not here: what
 * they make uncertain, which the reports ask with loss_window_after().
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "findings.h"
#include "losses.h"

void loss_windows_init(struct loss_windows *l)
{
	memset(l, 0, sizeof(*l));
}

void loss_windows_release(struct loss_windows *l)
{
	free(l->w);
	free(l->cpu_first);
	free(l->end_max);
	memset(l, 0, sizeof(*l));
}

static void add_window(struct loss_windows *l, uint64_t start, uint64_t end,
		       enum loss_kind kind)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->w = xrealloc(l->w, l->cap * sizeof(*l->w));
	}
	l->w[l->n].start_ns = start;
	l->w[l->n].end_ns = end;
	l->w[l->n].kind = kind;
	l->n++;
}

void loss_windows_apply(struct loss_windows *l, const struct kmem_event *ev)
{
	if (ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED) {
		if (!l->open)	/* from the last event seen; it ends at the next one */
			add_window(l, l->last_ts, 0, LOSS_MARKER);
		l->open = true;
		return;
	}
	if (!ev->ts_ns)
		return;
	if (l->open) {
		l->w[l->n - 1].end_ns = ev->ts_ns > l->w[l->n - 1].start_ns ? ev->ts_ns
									  : l->w[l->n - 1].start_ns;
		l->open = false;
	} else if (l->last_ts && ev->ts_ns > l->last_ts + FINDINGS_SILENCE_NS) {
		add_window(l, l->last_ts, ev->ts_ns, LOSS_SILENCE);	/* tracing paused, or the log cut */
	}
	if (!l->first_ts)
		l->first_ts = ev->ts_ns;
	if (ev->ts_ns > l->last_ts)
		l->last_ts = ev->ts_ns;
	if (ev->cpu >= 0 && ev->cpu < 65536) {
		if ((uint32_t)ev->cpu >= l->ncpus) {
			uint32_t n = (uint32_t)ev->cpu + 1;

			l->cpu_first = xrealloc(l->cpu_first, n * sizeof(*l->cpu_first));
			memset(l->cpu_first + l->ncpus, 0, (n - l->ncpus) * sizeof(*l->cpu_first));
			l->ncpus = n;
		}
		if (!l->cpu_first[ev->cpu])
			l->cpu_first[ev->cpu] = ev->ts_ns;
	}
}

static int by_start(const void *pa, const void *pb)
{
	const struct loss_window *a = pa, *b = pb;

	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

void loss_windows_finish(struct loss_windows *l, bool overrun, bool complete)
{
	uint64_t last_first = 0;
	uint32_t i, kept = 0;

	if (l->open) {	/* lost at the very end: to the end of the log */
		l->w[l->n - 1].end_ns = l->last_ts;
		l->open = false;
	}
	for (i = 0; i < l->ncpus; i++)
		if (l->cpu_first[i] > last_first)
			last_first = l->cpu_first[i];
	if (overrun && last_first > l->first_ts)	/* the oldest events of some CPU are gone */
		add_window(l, l->first_ts, last_first, LOSS_OVERRUN);
	for (i = 0; i < l->n; i++)	/* a complete log's silences lost nothing */
		if (!complete || l->w[i].kind != LOSS_SILENCE)
			l->w[kept++] = l->w[i];
	l->n = kept;
	if (l->n > 1)
		qsort(l->w, l->n, sizeof(*l->w), by_start);
	free(l->end_max);
	l->end_max = xmalloc((l->n ? l->n : 1) * sizeof(*l->end_max));
	for (i = 0; i < l->n; i++)
		l->end_max[i] = i && l->end_max[i - 1] > l->w[i].end_ns ? l->end_max[i - 1]
								     : l->w[i].end_ns;
}

/*
 * The first window (by start) that ends after alloc_ns: the first whose
 * running maximum of ends passes it, found by halving (a live object
 * apiece, and thousands of windows in a long capture that fell behind).
 */
const struct loss_window *loss_window_after(const struct loss_windows *l, uint64_t alloc_ns)
{
	uint32_t lo = 0, hi = l->n;

	if (!loss_window_ends_after(l, alloc_ns))
		return NULL;	/* after every window's end: the usual case of a young object */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->end_max[mid] > alloc_ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < l->n ? &l->w[lo] : NULL;
}

void loss_uncertain_of(const struct loss_windows *l, const struct ptrmap *live,
		       uint64_t *objects, uint64_t *bytes)
{
	size_t i;

	*objects = *bytes = 0;
	for (i = 0; i < live->nrecs; i++)
		if (live->recs[i].ptr && loss_window_ends_after(l, live->recs[i].ts_ns)) {
			(*objects)++;
			*bytes += live->recs[i].bytes_alloc;
		}
}
