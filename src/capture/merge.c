/*
 * merge.c - the pages the reader queued, from every CPU of every buffer,
 * handed on one record at a time in timestamp order, and the task filter's
 * second half: with a task filter, the frees buffer holds the frees of
 * every task, and only those of objects the chosen tasks allocated (and
 * still hold) are kept.
 *
 * Ordering: each CPU's pages are in time order; a record may be handed on
 * once every other queue either has a later record decoded or was read
 * empty after the record's time (its read_to_ns, with a margin for records
 * being committed while the buffer is read). The instances' clock is
 * "mono", so those times compare with CLOCK_MONOTONIC, and the two
 * buffers' times with each other. At the end nothing bounds.
 *
 * The filter's live set: the keys (slab pointer, page frame number) the
 * chosen tasks allocated, removed when freed. A page is reported freed
 * twice (mm_page_free, then mm_page_free_batched when freed in a batch):
 * both are kept. A free dropped takes its stack record with it: each
 * queue of the frees buffer remembers, latest first, whether its events
 * still waiting for a stack were kept (the pairing rule of text_stacks.h).
 *
 * Not here: reading the pages (stream.c), what a record means beyond its
 * key, text.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <traceevent/event-parse.h>

#include "capture_local.h"
#include "rbpage.h"

#define WAIT_DEPTH 16		/* events of a CPU that may still get a stack */

struct cursor {
	struct raw_page *pages;	/* taken from the queue, the current one first */
	struct raw_page *last;
	struct rb_page page;	/* the current page, read as kbuffer reads it (rbpage.h) */
	const void *event;	/* the next record to hand on, or NULL */
	uint64_t ts;
	bool loaded;		/* pages is loaded into page */
	int missed;		/* the loaded page says records were lost before it: not said yet */
	uint8_t nwait;		/* frees buffer: its events waiting for a stack, oldest first */
	bool kept[WAIT_DEPTH];
};

/* The live set: open addressing, keys with their state. */
enum key_state { KEY_EMPTY, KEY_LIVE, KEY_PAGE_FREED, KEY_GONE };

struct live_set {
	uint64_t *keys;
	uint8_t *state;
	size_t cap, used;	/* used: slots not KEY_EMPTY */
};

struct merge {
	struct capture *c;
	int nqueues;
	struct cursor *cur;
	uint64_t *read_to;
	struct tep_record rec;
	int handed;		/* the queue whose record was handed on last: advanced next time */
	struct live_set live;
};

/* ---- the live set ---- */

static size_t slot_of(const struct live_set *s, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20) & (s->cap - 1);
}

static uint8_t *find_key(struct live_set *s, uint64_t key)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = slot_of(s, key); s->state[i] != KEY_EMPTY; i = (i + 1) & (s->cap - 1))
		if (s->keys[i] == key)
			return s->state[i] == KEY_GONE ? NULL : &s->state[i];
	return NULL;
}

static void grow(struct live_set *s)
{
	struct live_set bigger;
	size_t i, j;

	bigger.cap = s->cap ? s->cap * 2 : 4096;
	bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.state = xcalloc(bigger.cap, 1);
	bigger.used = 0;
	for (i = 0; i < s->cap; i++) {
		if (s->state[i] != KEY_LIVE && s->state[i] != KEY_PAGE_FREED)
			continue;	/* gone ones are dropped here */
		for (j = slot_of(&bigger, s->keys[i]); bigger.state[j] != KEY_EMPTY;
		     j = (j + 1) & (bigger.cap - 1))
			;
		bigger.keys[j] = s->keys[i];
		bigger.state[j] = s->state[i];
		bigger.used++;
	}
	free(s->keys);
	free(s->state);
	*s = bigger;
}

static void set_live(struct live_set *s, uint64_t key)
{
	uint8_t *st = find_key(s, key);
	size_t i;

	if (st) {
		*st = KEY_LIVE;
		return;
	}
	if ((s->used + 1) * 4 > s->cap * 3)
		grow(s);
	for (i = slot_of(s, key); s->state[i] != KEY_EMPTY; i = (i + 1) & (s->cap - 1))
		if (s->state[i] == KEY_GONE && s->keys[i] == key)
			break;
	if (s->state[i] == KEY_EMPTY)
		s->used++;
	s->keys[i] = key;
	s->state[i] = KEY_LIVE;
}

/*
 * A free of key: kept when the chosen tasks allocated it. A slab object
 * goes at its free; a page at the second of its two reports, or at its
 * first when that is the batch's (pages freed one by one have no second).
 */
static bool keep_free(struct live_set *s, uint64_t key, int role)
{
	uint8_t *st = key ? find_key(s, key) : NULL;

	if (!st)
		return false;
	if (role == ROLE_PAGE_FREE) {
		if (*st != KEY_LIVE)
			return false;	/* freed already: a later user's page */
		*st = KEY_PAGE_FREED;
		return true;
	}
	if (role == ROLE_SLAB_FREE && *st != KEY_LIVE)
		return false;
	*st = KEY_GONE;
	return true;
}

/* ---- pages and cursors ---- */

/* Load the cursor's next page; false when it has none. */
static bool load_next_page(struct merge *m, int q)
{
	struct cursor *k = &m->cur[q];

	for (;;) {
		if (k->loaded) {
			struct raw_page *done = k->pages;

			k->pages = done->next;
			if (!k->pages)
				k->last = NULL;
			free(done);
			k->loaded = false;
		}
		if (!k->pages)
			return false;
		k->loaded = true;
		rb_page_load(&k->page, k->pages->data, k->pages->len > 0 ? (size_t)k->pages->len : 0,
			     sizeof(long) == 8);
		k->missed = rb_page_missed(&k->page);
		if (k->missed)
			k->nwait = 0;	/* a gap: earlier events' stacks are lost too */
		k->event = rb_page_read(&k->page, &k->ts);
		if (k->event)
			return true;
	}
}

static void advance(struct merge *m, int q)
{
	struct cursor *k = &m->cur[q];

	rb_page_next(&k->page);
	k->event = rb_page_read(&k->page, &k->ts);
	if (!k->event)
		load_next_page(m, q);
}

struct merge *merge_new(struct capture *c)
{
	struct merge *m = xcalloc(1, sizeof(*m));

	m->c = c;
	m->handed = -1;
	m->nqueues = c->nbufs * c->ncpus;
	m->cur = xcalloc((size_t)m->nqueues, sizeof(*m->cur));
	m->read_to = xcalloc((size_t)m->nqueues, sizeof(*m->read_to));
	return m;
}

void merge_free(struct merge *m)
{
	int q;

	if (!m)
		return;
	for (q = 0; q < m->nqueues; q++) {
		struct raw_page *p = m->cur[q].pages, *next;

		for (; p; p = next) {
			next = p->next;
			free(p);
		}
	}
	free(m->live.keys);
	free(m->live.state);
	free(m->cur);
	free(m->read_to);
	free(m);
}

static bool should_end_now(struct capture *c)
{
	return atomic_load(&c->aborting) || atomic_load(&c->failed);
}

bool merge_take_pages(struct merge *m, bool wait)
{
	struct capture *c = m->c;
	bool more, got = false;
	int q;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		for (q = 0; q < m->nqueues; q++) {
			struct cpu_queue *cq = &c->queue[q];
			struct cursor *k = &m->cur[q];
			struct raw_page *p;

			for (p = cq->head; p; p = p->next)
				c->queued_bytes -= (size_t)p->len;
			if (cq->head) {
				if (k->last)
					k->last->next = cq->head;
				else
					k->pages = cq->head;
				k->last = cq->tail;
				cq->head = cq->tail = NULL;
				got = true;
			}
			m->read_to[q] = c->reader_done ? UINT64_MAX : cq->read_to_ns;
		}
		more = !c->reader_done && !should_end_now(c);
		if (got || !more || !wait)
			break;
		pthread_cond_wait(&c->data_ready, &c->lock);
		wait = false;	/* once: read_to may have moved without pages */
	}
	pthread_cond_broadcast(&c->space_free);
	pthread_mutex_unlock(&c->lock);
	for (q = 0; q < m->nqueues; q++)
		if (!m->cur[q].event)
			load_next_page(m, q);
	return more;
}

/* The queue whose record comes next, or -1 when another queue may still precede it. */
static int next_queue(struct merge *m)
{
	uint64_t bound = UINT64_MAX;
	int q, best = -1;

	for (q = 0; q < m->nqueues; q++) {
		struct cursor *k = &m->cur[q];

		if (k->event) {
			if (best < 0 || k->ts < m->cur[best].ts)
				best = q;
		} else if (m->read_to[q] < bound) {
			bound = m->read_to[q];
		}
	}
	if (best < 0 || m->cur[best].ts > bound)
		return -1;
	return best;
}

static uint64_t read_key(const unsigned char *data, unsigned size, const struct event_role *r)
{
	uint64_t v = 0;

	if (r->key_offset + r->key_size > size)
		return 0;
	if (r->key_size == 8) {
		memcpy(&v, data + r->key_offset, 8);
	} else if (r->key_size == 4) {
		uint32_t w;

		memcpy(&w, data + r->key_offset, 4);
		v = w;
	}
	return v;
}

static const struct event_role *role_of(const struct capture *c, const struct tep_record *rec)
{
	static const struct event_role other = { ROLE_OTHER, 0, 0 };
	int type = tep_data_type(c->tep, (struct tep_record *)rec);

	return type >= 0 && type < c->nroles ? &c->roles[type] : &other;
}

/* The frees buffer's queue q: remember whether an event waiting for its stack was kept. */
static void note_waiting(struct cursor *k, bool kept)
{
	if (k->nwait == WAIT_DEPTH) {
		memmove(k->kept, k->kept + 1, WAIT_DEPTH - 1);
		k->nwait--;
	}
	k->kept[k->nwait++] = kept;
}

/* Is this record handed on? Allocations are noted in the live set. */
static bool keep_record(struct merge *m, int q, const struct tep_record *rec, bool *is_stack)
{
	struct capture *c = m->c;
	const struct event_role *r = role_of(c, rec);
	bool frees_buffer = c->by_task && c->buf[q / c->ncpus].frees_only;
	struct cursor *k = &m->cur[q];
	bool kept;

	*is_stack = r->role == ROLE_STACK;
	if (!c->by_task)
		return true;
	if (r->role == ROLE_STACK) {
		if (!frees_buffer || !k->nwait)
			return true;
		return k->kept[--k->nwait];
	}
	if (!frees_buffer) {
		if (r->role == ROLE_SLAB_ALLOC || r->role == ROLE_PAGE_ALLOC) {
			uint64_t key = read_key(rec->data, (unsigned)rec->size, r);

			if (key)
				set_live(&m->live, key);
		}
		return true;
	}
	kept = (r->role == ROLE_SLAB_FREE || r->role == ROLE_PAGE_FREE ||
		r->role == ROLE_PAGE_FREE_BATCHED) &&
	       keep_free(&m->live, read_key(rec->data, (unsigned)rec->size, r), r->role);
	if (c->cfg.stacks)
		note_waiting(k, kept);
	if (kept)
		c->stats.frees_kept++;
	else
		c->stats.frees_dropped++;
	return kept;
}

enum merge_item merge_next(struct merge *m, struct merged *out)
{
	int q;

	if (m->handed >= 0) {	/* its bytes were in use until now: its page may go */
		advance(m, m->handed);
		m->handed = -1;
	}
	while (!should_end_now(m->c) && (q = next_queue(m)) >= 0) {
		struct cursor *k = &m->cur[q];
		bool keep, is_stack;

		if (k->missed) {
			out->cpu = q % m->c->ncpus;
			out->lost = k->missed > 0 ? k->missed : -1;
			out->rec = NULL;
			k->missed = 0;
			return MERGE_LOST;
		}
		memset(&m->rec, 0, sizeof(m->rec));
		m->rec.ts = k->ts;
		m->rec.cpu = q % m->c->ncpus;
		m->rec.data = (void *)k->event;
		m->rec.size = rb_page_event_size(&k->page);
		keep = keep_record(m, q, &m->rec, &is_stack);
		if (!keep) {
			advance(m, q);
			continue;
		}
		m->handed = q;
		m->c->stats.events++;
		out->rec = &m->rec;
		out->cpu = m->rec.cpu;
		out->is_stack = is_stack;
		out->lost = 0;
		return MERGE_RECORD;
	}
	return MERGE_NONE;
}
