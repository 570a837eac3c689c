/*
 * losses_pass.c - the windows in which the capture lost events
 * (losses.h): a fact of the log, so it sees every event read, whatever
 * the time window and filters keep. Its part of a DB: the windows.
 */
#include <stdlib.h>

#include "engine.h"

static int start_losses(struct analysis *a, struct ta_error *err)
{
	(void)err;
	loss_windows_init(&a->losses);
	return 0;
}

static void note_losses(struct analysis *a, const struct kmem_event *ev)
{
	loss_windows_apply(&a->losses, ev);
}

/* The buffer's header says whether it overwrote events before the first read. */
static void finish_losses(struct analysis *a)
{
	const struct trace_header *h = &a->read.header;

	loss_windows_finish(&a->losses, h->has_entries && h->entries_written > h->entries_in_buffer,
			    h->has_entries && h->entries_written == h->entries_in_buffer);
}

static void release_losses(struct analysis *a)
{
	loss_windows_release(&a->losses);
}

static void losses_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct loss_window);
}

static void put_losses(struct db_blob *b, const struct analysis *a)
{
	const struct loss_windows *l = &a->losses;
	uint64_t scalars[] = { l->last_ts, l->first_ts, l->open };

	db_put(b, scalars, sizeof(scalars));
	db_put_array(b, l->w, l->n, sizeof(*l->w));
	db_put_array(b, l->cpu_first, l->ncpus, sizeof(*l->cpu_first));
}

static bool take_losses(struct db_cursor *c, struct analysis *a)
{
	struct loss_windows *l = &a->losses;
	uint64_t v[3];

	if (!db_take_into(c, v, sizeof(v)))
		return false;
	l->last_ts = v[0];
	l->first_ts = v[1];
	l->open = v[2] != 0;
	free(l->w);
	l->w = db_take_array(c, sizeof(*l->w), UINT32_MAX, &l->n);
	l->cap = l->n;
	free(l->cpu_first);
	l->cpu_first = db_take_array(c, sizeof(*l->cpu_first), UINT32_MAX, &l->ncpus);
	if (!c->problem && l->open && !l->n)
		return db_fail(c, "its saved loss windows wait for the end of none");
	return !c->problem;
}

static const struct pass_store losses_store = {
	.version = 1, .sizes = losses_sizes, .put = put_losses, .take = take_losses,
};

const struct analysis_pass losses_pass = {
	.name = "losses",
	.wanted = pass_always,
	.init = start_losses,
	.every = note_losses,
	.finish = finish_losses,
	.release = release_losses,
	.store = &losses_store,
};
