/*
 * losses.h - the windows of the log's time in which events were lost: a
 * lost-events or buffer-started marker (from the last event before it to
 * the first after), FINDINGS_SILENCE_NS without any event (unless the
 * header says no entry was dropped), and, when the
 * header says the ring buffer dropped entries (per-CPU overrun), the start
 * of the log until every CPU has shown its first event. An object
 * allocated before the end of a window and not seen freed may have been
 * freed inside it: it is uncertain, not held.
 *
 * Not here: what is live, or the reports.
 */
#ifndef TA_LOSSES_H
#define TA_LOSSES_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "ptrmap.h"

enum loss_kind { LOSS_MARKER, LOSS_SILENCE, LOSS_OVERRUN };

struct loss_window {
	uint64_t start_ns, end_ns;	/* end 0: still open (no event after it yet) */
	enum loss_kind kind;		/* a marker, a silence, the ring buffer's overrun */
};

struct loss_windows {
	struct loss_window *w;
	uint32_t n, cap;
	uint64_t last_ts;		/* the latest event's time */
	uint64_t first_ts;		/* the first event's */
	uint64_t *cpu_first;		/* each CPU's first event's time */
	uint32_t ncpus;
	bool open;			/* the last window waits for its end */
	uint64_t *end_max;		/* once finished: the latest end of windows 0..i */
};

void loss_windows_init(struct loss_windows *l);
void loss_windows_release(struct loss_windows *l);
void loss_windows_apply(struct loss_windows *l, const struct kmem_event *ev);

/*
 * The log is over. overrun: the header says the ring buffer dropped
 * entries; complete: it says none were (entries written = in buffer): then
 * a silence is the system's, not a loss, and is no window.
 */
void loss_windows_finish(struct loss_windows *l, bool overrun, bool complete);

/* Once finished: the first window that ends after an allocation at alloc_ns, or NULL: it is held. */
const struct loss_window *loss_window_after(const struct loss_windows *l, uint64_t alloc_ns);

/*
 * Once finished: whether some window ends after an allocation at alloc_ns
 * (loss_window_after() would find one): the latest end is past it. One
 * comparison, for the questions asked once a live object.
 */
static inline bool loss_window_ends_after(const struct loss_windows *l, uint64_t alloc_ns)
{
	return l->n && l->end_max[l->n - 1] > alloc_ns;
}

/* The live objects of live (ptrmap.h) allocated before a window end: count and bytes. */
void loss_uncertain_of(const struct loss_windows *l, const struct ptrmap *live,
		       uint64_t *objects, uint64_t *bytes);

#endif
