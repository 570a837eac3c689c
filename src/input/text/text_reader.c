/*
 * text_reader.c - chunks -> parsers on worker threads -> ordered events.
 *
 * A ring of slots, each holding the events parsed from one chunk. Workers
 * take the next chunk number under the input lock (reads are sequential),
 * read it into a text buffer of their own (the text is dead once parsed,
 * and a buffer that stays with one thread stays in its core's cache),
 * parse it into the slot of that number, and mark it ready; the calling
 * thread consumes slots strictly in chunk order, and while the next one
 * is not ready it parses one itself, as one more worker: N threads are
 * N - 1 workers and the consumer, so none of them sleeps while another
 * waits for a core. Strings first seen in a chunk travel with its slot as
 * copies (freshids.h), so the consumer can make ids global without
 * touching a worker's tables.
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "freshids.h"
#include "text_reader.h"
#include "text_stacks.h"

_Static_assert(INPUT_READ_SLACK >= LINESCAN_SLACK, "a chunk's slack covers a line scan");

#define SLOTS_PER_WORKER 2
#define MAX_WORKERS 4
#define WRITE_AHEAD 4		/* events ahead whose cache lines are asked for to write */

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_READY };

struct slot {
	enum slot_state state;
	int worker;
	struct kmem_event *events;
	size_t nevents, cap;
	uint64_t lines;
	uint64_t first_malformed;	/* relative line, 0 if none */
	struct fresh_ids fresh;
	bool mapped;			/* its fresh strings have global ids */
	/* what the next chunk settles (WANT_STACK) */
	struct stack_tail *tails;
	uint32_t ntails, tails_cap;
	struct stack_lead *leads;
	uint32_t nleads, leads_cap;
};

struct worker {
	struct shared *sh;
	int index;
	pthread_t thread;
	struct chunk chunk;		/* the text it reads and parses */
	struct trace_strings local;
	struct parser parser;
	struct stack_pairer pairer;	/* WANT_STACK */
	struct id_map ids;		/* its local ids -> global ones */
};

struct shared {
	const struct read_config *cfg;
	pthread_mutex_t input_lock;	/* the input and next_seq */
	pthread_mutex_t state_lock;	/* slot states, end_seq, failed */
	pthread_cond_t slot_freed, slot_ready;
	struct slot *slots;
	int nslots;
	uint64_t next_seq;		/* next chunk number to read */
	uint64_t end_seq;		/* chunk count, once the input ended */
	uint64_t progress;		/* counts post_progress calls (state_lock) */
	bool ended;
	bool failed;
	struct ta_error err;
	struct worker workers[MAX_WORKERS];
	int nworkers;
	bool stacks;			/* WANT_STACK: a chunk waits for the next one */
	bool prefetch_write;		/* the CPU has PREFETCHW */
	struct stack_counts joined;	/* pairs and orphans across chunks */
};

/* ---- worker side ----------------------------------------------------------------- */

/*
 * Does this CPU take PREFETCHW (cpuid 0x80000001 ECX bit 8, "3dnowprefetch"
 * in /proc/cpuinfo)? Without -march the compiler only emits read prefetches.
 */
static bool cpu_has_prefetch_write(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_PRFCHW);
#else
	return true;	/* __builtin_prefetch(p, 1) is a write prefetch there */
#endif
}

static struct kmem_event *next_event_slot(struct slot *s)
{
	if (s->nevents == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16384;
		s->events = xrealloc(s->events, s->cap * sizeof(*s->events));
	}
	return &s->events[s->nevents];
}

/* Keep what the next chunk must settle: the pairer's tails and leads. */
static void keep_loose_ends(struct worker *w, struct slot *s)
{
	const struct stack_pairer *sp = &w->pairer;

	if (sp->ntails > s->tails_cap) {
		s->tails_cap = sp->ntails;
		s->tails = xrealloc(s->tails, s->tails_cap * sizeof(*s->tails));
	}
	if (sp->nleads > s->leads_cap) {
		s->leads_cap = sp->nleads;
		s->leads = xrealloc(s->leads, s->leads_cap * sizeof(*s->leads));
	}
	if (sp->ntails)
		memcpy(s->tails, sp->tails, sp->ntails * sizeof(*s->tails));
	if (sp->nleads)
		memcpy(s->leads, sp->leads, sp->nleads * sizeof(*s->leads));
	s->ntails = sp->ntails;
	s->nleads = sp->nleads;
}

static void parse_slot(struct worker *w, struct slot *s)
{
	const char *p = w->chunk.data, *end = p + w->chunk.len;
	bool stacks = w->sh->stacks, prefetch_write = w->sh->prefetch_write;
	uint64_t line = w->chunk.dropped_lines;	/* overlong lines dropped just before */

	fresh_ids_begin(&s->fresh, &w->local);
	s->nevents = 0;
	s->mapped = false;
	w->parser.first_malformed_line = 0;
	if (stacks)
		stack_pairer_begin(&w->pairer);
	while (p < end) {
		enum line_kind kind;
		size_t len;

		line++;
		len = parse_next_line(&w->parser, p, (size_t)(end - p), line, next_event_slot(s),
				      &kind);
		if (kind == LINE_EVENT) {
			s->nevents++;
			/* once an event, not once a line: a stack log is mostly frames */
			if (prefetch_write && s->nevents + WRITE_AHEAD < s->cap)
				event_prefetch_for_write(&s->events[s->nevents + WRITE_AHEAD]);
		}
		if (stacks)
			stack_pairer_line(&w->pairer, &w->parser, kind, s->events, (uint32_t)s->nevents);
		p += len + 1;
	}
	if (stacks) {
		stack_pairer_end(&w->pairer, s->events);
		keep_loose_ends(w, s);
	}
	s->lines = line;
	s->first_malformed = w->parser.first_malformed_line;
	w->parser.stats.lines += line;
	w->parser.stats.bytes += w->chunk.len + w->chunk.dropped_bytes;
	w->parser.stats.overlong += w->chunk.dropped_lines;
	fresh_ids_collect(&s->fresh, &w->local, stacks);
}

/* Tell the consumer that something changed: a chunk is ready, the input free or at its end. */
static void post_progress(struct shared *sh)
{
	sh->progress++;
	pthread_cond_broadcast(&sh->slot_ready);
}

/* A claimed chunk could not be read: the run fails with the reason, and every thread stops. */
static void fail_claimed_chunk(struct shared *sh, struct slot *s, const struct ta_error *err)
{
	pthread_mutex_lock(&sh->state_lock);
	s->state = SLOT_FREE;
	if (!sh->failed) {
		sh->failed = true;
		sh->err = *err;
	}
	post_progress(sh);
	pthread_cond_broadcast(&sh->slot_freed);
	pthread_mutex_unlock(&sh->state_lock);
}

/*
 * Claim the next chunk number and read it into its slot; NULL at the end.
 * The input lock is held for the claim only: the chunk's bytes are read
 * after it (input_fill_chunk), so threads copy their chunks at once.
 * A worker waits for the slot to come free; the consumer, the one that
 * frees slots, never waits (may_wait false): NULL too when the input is
 * busy or the slot taken.
 */
static struct slot *claim_next_chunk(struct worker *w, bool may_wait)
{
	struct shared *sh = w->sh;
	struct slot *s = NULL;
	struct ta_error err;
	int got;

	if (may_wait)
		pthread_mutex_lock(&sh->input_lock);
	else if (pthread_mutex_trylock(&sh->input_lock) != 0)
		return NULL;	/* a worker reads, or waits for the consumer */
	if (sh->ended)
		goto out;
	s = &sh->slots[sh->next_seq % (uint64_t)sh->nslots];
	pthread_mutex_lock(&sh->state_lock);
	while (may_wait && s->state != SLOT_FREE && !sh->failed)
		pthread_cond_wait(&sh->slot_freed, &sh->state_lock);
	bool failed = sh->failed, taken = s->state != SLOT_FREE;

	if (!failed && !taken)
		s->state = SLOT_FILLING;
	pthread_mutex_unlock(&sh->state_lock);
	if (failed || taken) {
		s = NULL;
		goto out;
	}
	got = input_claim_chunk(sh->cfg->input, &w->chunk, &err);
	if (got <= 0) {
		pthread_mutex_lock(&sh->state_lock);
		s->state = SLOT_FREE;
		sh->ended = true;
		sh->end_seq = sh->next_seq;
		if (got < 0 && !sh->failed) {
			sh->failed = true;
			sh->err = err;
		}
		post_progress(sh);
		pthread_cond_broadcast(&sh->slot_freed);
		pthread_mutex_unlock(&sh->state_lock);
		s = NULL;
		goto out;
	}
	sh->next_seq++;
out:
	pthread_mutex_unlock(&sh->input_lock);
	if (s && may_wait) {	/* the input is free: a waiting consumer may read the next */
		pthread_mutex_lock(&sh->state_lock);
		post_progress(sh);
		pthread_mutex_unlock(&sh->state_lock);
	}
	if (s && input_fill_chunk(sh->cfg->input, &w->chunk, &err) < 0) {
		fail_claimed_chunk(sh, s, &err);
		s = NULL;
	}
	return s;
}

/* Parse a claimed slot and make it ready for the consumer. */
static void parse_and_post(struct worker *w, struct slot *s)
{
	struct shared *sh = w->sh;

	parse_slot(w, s);
	s->worker = w->index;
	pthread_mutex_lock(&sh->state_lock);
	s->state = SLOT_READY;
	post_progress(sh);
	pthread_mutex_unlock(&sh->state_lock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct slot *s;

	while ((s = claim_next_chunk(w, true)) != NULL)
		parse_and_post(w, s);
	return NULL;
}

/* ---- consumer side ----------------------------------------------------------------- */

/* Give the strings and stacks first seen in this chunk their global ids. */
static void map_fresh_strings(struct shared *sh, struct slot *s)
{
	if (s->mapped)
		return;
	s->mapped = true;
	id_map_learn(&sh->workers[s->worker].ids, &s->fresh, sh->cfg->strings);
}

/* An event's line counted from the log's start, its string and stack ids global. */
static inline void make_event_global(const struct id_map *m, struct kmem_event *ev,
				     uint64_t line_base)
{
	ev->line += line_base;
	id_map_event(m, ev);
}

static void make_ids_global(struct shared *sh, struct slot *s, uint64_t line_base)
{
	const struct id_map *m = &sh->workers[s->worker].ids;
	size_t i;

	for (i = 0; i < s->nevents; i++)
		make_event_global(m, &s->events[i], line_base);
}

/*
 * The events of s still waiting for a stack at its end get the stack
 * entries that came in the next chunk while their CPU had none waiting,
 * latest event first; leads with no such event belong to nobody.
 */
static void join_chunks(struct shared *sh, struct slot *s, struct slot *next)
{
	const struct worker *nw = next ? &sh->workers[next->worker] : NULL;
	uint32_t i, j;

	for (j = 0; next && j < next->nleads; j++) {
		const struct stack_lead *lead = &next->leads[j];
		struct stack_tail *tail = NULL;

		for (i = s->ntails; i > 0; i--)
			if (s->tails[i - 1].cpu == lead->cpu && !s->tails[i - 1].taken) {
				tail = &s->tails[i - 1];
				break;
			}
		if (!tail) {
			sh->joined.orphans += lead->stack != STACK_NONE;
			continue;
		}
		tail->taken = true;
		if (lead->stack == STACK_NONE)
			continue;	/* dropped, and counted so */
		if (tail->event == UINT32_MAX) {
			sh->joined.other_paired++;
		} else {
			s->events[tail->event].stack = id_map_stack(&nw->ids, lead->stack);
			sh->joined.kmem_paired++;
		}
	}
}

static void hand_on_events(struct shared *sh, struct slot *s, const struct id_map *ids,
			   uint64_t line_base)
{
	const struct read_config *cfg = sh->cfg;
	size_t i;

	for (i = 0; i < s->nevents; i++) {
		struct kmem_event *ev = &s->events[i];

		if (ids)	/* made global here, in the one pass over the events */
			make_event_global(ids, ev, line_base);
		/* live tables are far bigger than the caches */
		look_ahead(cfg->on_lookahead, cfg->ctx, s->events, i, s->nevents);
		if (sh->stacks && ev->kind != KMEM_LOST_EVENTS && ev->kind != KMEM_BUFFER_STARTED) {
			if (ev->stack == STACK_NONE)
				sh->joined.events_without++;
			else
				sh->joined.events_with++;
		}
		cfg->on_event(cfg->ctx, ev);
	}
}

/* Hand on the events of s; with stacks, next (the following chunk, or NULL) is parsed. */
static void deliver_slot(struct shared *sh, struct slot *s, struct slot *next, uint64_t line_base,
			 struct read_result *out)
{
	const struct read_config *cfg = sh->cfg;

	map_fresh_strings(sh, s);
	if (sh->stacks) {	/* the next chunk's stacks join these events' global ids */
		make_ids_global(sh, s, line_base);
		if (next)
			map_fresh_strings(sh, next);
		join_chunks(sh, s, next);
		hand_on_events(sh, s, NULL, 0);
	} else {
		hand_on_events(sh, s, &sh->workers[s->worker].ids, line_base);
	}
	if (s->first_malformed && !out->first_malformed_line)
		out->first_malformed_line = line_base + s->first_malformed;
	if (cfg->on_progress)
		cfg->on_progress(cfg->ctx, cfg->input);
}

static bool chunk_settled(const struct shared *sh, const struct slot *s, uint64_t seq)
{
	return sh->failed || (sh->ended && seq >= sh->end_seq) || s->state == SLOT_READY;
}

/*
 * Wait for chunk seq; NULL once the input ended before it. While it is
 * not parsed, the consumer (self) parses the next chunk itself if it can
 * claim one without waiting: beside one worker thread, both cores stay
 * busy, and no thread sleeps while there is work to do.
 */
static struct slot *wait_for_chunk(struct shared *sh, struct worker *self, uint64_t seq)
{
	struct slot *s = &sh->slots[seq % (uint64_t)sh->nslots], *claimed;
	uint64_t seen;

	pthread_mutex_lock(&sh->state_lock);
	while (!chunk_settled(sh, s, seq)) {
		seen = sh->progress;
		pthread_mutex_unlock(&sh->state_lock);
		claimed = claim_next_chunk(self, false);
		if (claimed)
			parse_and_post(self, claimed);
		pthread_mutex_lock(&sh->state_lock);
		if (!claimed && !chunk_settled(sh, s, seq) && sh->progress == seen)
			pthread_cond_wait(&sh->slot_ready, &sh->state_lock);
	}
	if (s->state != SLOT_READY || sh->failed)
		s = NULL;
	pthread_mutex_unlock(&sh->state_lock);
	return s;
}

static void free_slot(struct shared *sh, struct slot *s)
{
	pthread_mutex_lock(&sh->state_lock);
	s->state = SLOT_FREE;
	pthread_cond_broadcast(&sh->slot_freed);
	pthread_mutex_unlock(&sh->state_lock);
}

/* ---- setup --------------------------------------------------------------------------- */

static int worker_count(int asked)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (asked <= 0)
		asked = cpus > 0 ? (int)cpus : 1;
	return asked > MAX_WORKERS ? MAX_WORKERS : asked;
}

static void shared_init(struct shared *sh, const struct read_config *cfg, int nworkers)
{
	int i;

	memset(sh, 0, sizeof(*sh));
	sh->cfg = cfg;
	sh->nworkers = nworkers;
	sh->nslots = nworkers * SLOTS_PER_WORKER;
	sh->stacks = (cfg->want & WANT_STACK) != 0;
	sh->prefetch_write = cpu_has_prefetch_write();
	sh->slots = xcalloc((size_t)sh->nslots, sizeof(*sh->slots));
	for (i = 0; i < nworkers; i++) {
		struct worker *w = &sh->workers[i];

		w->sh = sh;
		w->index = i;
		chunk_init(&w->chunk, INPUT_CHUNK_SIZE);
		trace_strings_init(&w->local);
		parser_init(&w->parser, &w->local, cfg->want);
		stack_pairer_init(&w->pairer, &w->local, &w->parser.stats.stacks);
	}
	pthread_mutex_init(&sh->input_lock, NULL);
	pthread_mutex_init(&sh->state_lock, NULL);
	pthread_cond_init(&sh->slot_freed, NULL);
	pthread_cond_init(&sh->slot_ready, NULL);
}

static void shared_release(struct shared *sh, struct read_result *out)
{
	int i;

	for (i = 0; i < sh->nworkers; i++) {
		struct worker *w = &sh->workers[i];

		parse_stats_add(&out->stats, &w->parser.stats);
		trace_header_add(&out->header, &w->parser.header);
		event_names_merge(&out->other_events, &w->parser.others);
		stack_pairer_release(&w->pairer);
		parser_release(&w->parser);
		trace_strings_release(&w->local);
		chunk_release(&w->chunk);
		id_map_release(&w->ids);
	}
	stack_counts_add(&out->stats.stacks, &sh->joined);
	for (i = 0; i < sh->nslots; i++) {
		free(sh->slots[i].events);
		fresh_ids_release(&sh->slots[i].fresh);
		free(sh->slots[i].tails);
		free(sh->slots[i].leads);
	}
	free(sh->slots);
	pthread_mutex_destroy(&sh->input_lock);
	pthread_mutex_destroy(&sh->state_lock);
	pthread_cond_destroy(&sh->slot_freed);
	pthread_cond_destroy(&sh->slot_ready);
}

static struct slot *parse_next_inline(struct shared *sh)
{
	struct slot *s = claim_next_chunk(&sh->workers[0], true);

	if (s) {
		parse_slot(&sh->workers[0], s);
		s->worker = 0;
	}
	return s;
}

/* One thread: read, parse and deliver inline, chunk by chunk (one ahead with stacks). */
static void read_inline(struct shared *sh, struct read_result *out)
{
	uint64_t line_base = 0;
	struct slot *s = parse_next_inline(sh), *next;

	while (s) {
		next = sh->stacks ? parse_next_inline(sh) : NULL;
		deliver_slot(sh, s, next, line_base, out);
		line_base += s->lines;
		s->state = SLOT_FREE;
		s = sh->stacks ? next : parse_next_inline(sh);
	}
}

static void read_threaded(struct shared *sh, struct read_result *out)
{
	uint64_t seq, line_base = 0;
	struct slot *s, *next;
	int i, started = 0;

	struct worker *self = &sh->workers[sh->nworkers - 1];	/* this thread's parser */

	for (i = 0; i < sh->nworkers - 1; i++)
		if (pthread_create(&sh->workers[i].thread, NULL, worker_main, &sh->workers[i]) == 0)
			started++;
		else
			break;
	/* with no thread to be had, this one still does it all */
	s = wait_for_chunk(sh, self, 0);
	for (seq = 0; s != NULL; seq++) {
		next = sh->stacks ? wait_for_chunk(sh, self, seq + 1) : NULL;
		deliver_slot(sh, s, next, line_base, out);
		line_base += s->lines;
		free_slot(sh, s);
		s = sh->stacks ? next : wait_for_chunk(sh, self, seq + 1);
	}
	for (i = 0; i < started; i++)
		pthread_join(sh->workers[i].thread, NULL);
}

int read_events(const struct read_config *cfg, struct read_result *out, struct ta_error *err)
{
	struct shared *sh = xcalloc(1, sizeof(*sh));
	int nworkers = worker_count(cfg->threads);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	cfg->input->is_continuation = is_frame_line;	/* a stack block stays in one chunk */
	shared_init(sh, cfg, nworkers);
	if (nworkers == 1)
		read_inline(sh, out);
	else
		read_threaded(sh, out);
	if (sh->failed) {
		*err = sh->err;
		rc = -1;
	}
	shared_release(sh, out);
	/* lines dropped after the last chunk, and a cut last line, are bytes of the log too */
	out->stats.lines += cfg->input->pending_lines;
	out->stats.overlong += cfg->input->pending_lines;
	out->stats.bytes += cfg->input->pending_bytes + cfg->input->truncated_bytes;
	free(sh);
	return rc;
}
