/*
 * reader.c - chunks -> parsers on worker threads -> ordered events.
 *
 * A ring of slots, each holding one chunk and the events parsed from it.
 * Workers take the next chunk number under the input lock (reads are
 * sequential), fill the slot of that number, parse it, and mark it ready;
 * the calling thread consumes slots strictly in chunk order. Strings first
 * seen in a chunk travel with its slot as copies, so the consumer can make
 * ids global without touching a worker's tables.
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"

#define SLOTS_PER_WORKER 2
#define MAX_WORKERS 4
#define STRING_TABLES 4

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_READY };

/* Strings a worker interned for the first time while parsing one chunk. */
struct new_strings {
	char *bytes;
	size_t len, cap;
	uint32_t first_id[STRING_TABLES];	/* local id of the first new one */
	uint32_t count[STRING_TABLES];
};

struct slot {
	enum slot_state state;
	int worker;
	struct chunk chunk;
	struct kmem_event *events;
	size_t nevents, cap;
	uint64_t lines;
	uint64_t first_malformed;	/* relative line, 0 if none */
	struct new_strings fresh;
};

struct worker {
	struct shared *sh;
	int index;
	pthread_t thread;
	struct trace_strings local;
	struct parser parser;
	uint32_t *to_global[STRING_TABLES];	/* local id -> global id */
	uint32_t map_cap[STRING_TABLES];
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
	bool ended;
	bool failed;
	struct ta_error err;
	struct worker workers[MAX_WORKERS];
	int nworkers;
};

static struct strtab *table_of(struct trace_strings *s, int t)
{
	switch (t) {
	case 0:
		return &s->call_sites;
	case 1:
		return &s->caches;
	case 2:
		return &s->comms;
	default:
		return &s->gfps;
	}
}

/* ---- worker side ----------------------------------------------------------------- */

static void remember_fresh_start(struct worker *w, struct slot *s)
{
	int t;

	s->fresh.len = 0;
	for (t = 0; t < STRING_TABLES; t++) {
		s->fresh.first_id[t] = table_of(&w->local, t)->count;
		s->fresh.count[t] = 0;
	}
}

static void copy_fresh_strings(struct worker *w, struct slot *s)
{
	int t;

	for (t = 0; t < STRING_TABLES; t++) {
		const struct strtab *tab = table_of(&w->local, t);
		uint32_t id;

		for (id = s->fresh.first_id[t]; id < tab->count; id++) {
			uint32_t n = strtab_length(tab, id);

			while (s->fresh.len + n + 1 > s->fresh.cap) {
				s->fresh.cap = s->fresh.cap ? s->fresh.cap * 2 : 4096;
				s->fresh.bytes = xrealloc(s->fresh.bytes, s->fresh.cap);
			}
			memcpy(s->fresh.bytes + s->fresh.len, strtab_get(tab, id), n + 1);
			s->fresh.len += n + 1;
			s->fresh.count[t]++;
		}
	}
}

static struct kmem_event *next_event_slot(struct slot *s)
{
	if (s->nevents == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16384;
		s->events = xrealloc(s->events, s->cap * sizeof(*s->events));
	}
	return &s->events[s->nevents];
}

static void parse_slot(struct worker *w, struct slot *s)
{
	const char *p = s->chunk.data, *end = p + s->chunk.len;
	uint64_t line = 0;

	remember_fresh_start(w, s);
	s->nevents = 0;
	w->parser.first_malformed_line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		line++;
		if (parse_line(&w->parser, p, (size_t)(nl - p), line, next_event_slot(s)))
			s->nevents++;
		p = nl + 1;
	}
	s->lines = line;
	s->first_malformed = w->parser.first_malformed_line;
	w->parser.stats.lines += line;
	w->parser.stats.bytes += s->chunk.len;
	copy_fresh_strings(w, s);
}

/* Claim the next chunk number and read it into its slot; NULL at the end. */
static struct slot *read_next_chunk(struct worker *w)
{
	struct shared *sh = w->sh;
	struct slot *s = NULL;
	struct ta_error err;
	int got;

	pthread_mutex_lock(&sh->input_lock);
	if (sh->ended)
		goto out;
	s = &sh->slots[sh->next_seq % (uint64_t)sh->nslots];
	pthread_mutex_lock(&sh->state_lock);
	while (s->state != SLOT_FREE && !sh->failed)
		pthread_cond_wait(&sh->slot_freed, &sh->state_lock);
	bool failed = sh->failed;

	if (!failed)
		s->state = SLOT_FILLING;
	pthread_mutex_unlock(&sh->state_lock);
	if (failed) {
		s = NULL;
		goto out;
	}
	got = input_read_chunk(sh->cfg->input, &s->chunk, &err);
	if (got <= 0) {
		pthread_mutex_lock(&sh->state_lock);
		s->state = SLOT_FREE;
		sh->ended = true;
		sh->end_seq = sh->next_seq;
		if (got < 0) {
			sh->failed = true;
			sh->err = err;
		}
		pthread_cond_broadcast(&sh->slot_ready);
		pthread_cond_broadcast(&sh->slot_freed);
		pthread_mutex_unlock(&sh->state_lock);
		s = NULL;
		goto out;
	}
	sh->next_seq++;
out:
	pthread_mutex_unlock(&sh->input_lock);
	return s;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	struct slot *s;

	while ((s = read_next_chunk(w)) != NULL) {
		parse_slot(w, s);
		s->worker = w->index;
		pthread_mutex_lock(&sh->state_lock);
		s->state = SLOT_READY;
		pthread_cond_broadcast(&sh->slot_ready);
		pthread_mutex_unlock(&sh->state_lock);
	}
	return NULL;
}

/* ---- consumer side ----------------------------------------------------------------- */

/* Give the strings first seen in this chunk their global ids. */
static void map_fresh_strings(struct shared *sh, const struct slot *s)
{
	struct worker *w = &sh->workers[s->worker];
	const char *q = s->fresh.bytes;
	int t;

	for (t = 0; t < STRING_TABLES; t++) {
		uint32_t need = s->fresh.first_id[t] + s->fresh.count[t], i;

		if (need > w->map_cap[t]) {
			w->map_cap[t] = need * 2;
			w->to_global[t] = xrealloc(w->to_global[t], w->map_cap[t] * sizeof(uint32_t));
		}
		for (i = 0; i < s->fresh.count[t]; i++) {
			size_t n = strlen(q);

			w->to_global[t][s->fresh.first_id[t] + i] =
				strtab_intern(table_of(sh->cfg->strings, t), q, n);
			q += n + 1;
		}
	}
}

static inline uint32_t global_id(const struct worker *w, int t, uint32_t id)
{
	return id == STR_NONE ? STR_NONE : w->to_global[t][id];
}

static void deliver_slot(struct shared *sh, struct slot *s, uint64_t line_base,
			 struct read_result *out)
{
	const struct worker *w = &sh->workers[s->worker];
	const struct read_config *cfg = sh->cfg;
	size_t i;

	map_fresh_strings(sh, s);
	for (i = 0; i < s->nevents; i++) {
		struct kmem_event *ev = &s->events[i];

		ev->line += line_base;
		ev->call_site = global_id(w, 0, ev->call_site);
		ev->cache = global_id(w, 1, ev->cache);
		ev->comm = global_id(w, 2, ev->comm);
		ev->gfp = global_id(w, 3, ev->gfp);
		cfg->on_event(cfg->ctx, ev);
	}
	if (s->first_malformed && !out->first_malformed_line)
		out->first_malformed_line = line_base + s->first_malformed;
	input_release_chunk(cfg->input, &s->chunk);
	if (cfg->on_progress)
		cfg->on_progress(cfg->ctx, cfg->input);
}

/* Wait for chunk seq; NULL once the input ended before it. */
static struct slot *wait_for_chunk(struct shared *sh, uint64_t seq)
{
	struct slot *s = &sh->slots[seq % (uint64_t)sh->nslots];

	pthread_mutex_lock(&sh->state_lock);
	while (s->state != SLOT_READY && !(sh->ended && seq >= sh->end_seq) && !sh->failed)
		pthread_cond_wait(&sh->slot_ready, &sh->state_lock);
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
	sh->slots = xcalloc((size_t)sh->nslots, sizeof(*sh->slots));
	for (i = 0; i < sh->nslots; i++)
		chunk_init(&sh->slots[i].chunk, INPUT_CHUNK_SIZE);
	for (i = 0; i < nworkers; i++) {
		struct worker *w = &sh->workers[i];

		w->sh = sh;
		w->index = i;
		trace_strings_init(&w->local);
		parser_init(&w->parser, &w->local, cfg->want);
	}
	pthread_mutex_init(&sh->input_lock, NULL);
	pthread_mutex_init(&sh->state_lock, NULL);
	pthread_cond_init(&sh->slot_freed, NULL);
	pthread_cond_init(&sh->slot_ready, NULL);
}

static void shared_release(struct shared *sh, struct read_result *out)
{
	int i, t;

	for (i = 0; i < sh->nworkers; i++) {
		struct worker *w = &sh->workers[i];

		parse_stats_add(&out->stats, &w->parser.stats);
		trace_header_add(&out->header, &w->parser.header);
		event_names_merge(&out->other_events, &w->parser.others);
		trace_strings_release(&w->local);
		for (t = 0; t < STRING_TABLES; t++)
			free(w->to_global[t]);
	}
	for (i = 0; i < sh->nslots; i++) {
		chunk_release(&sh->slots[i].chunk);
		free(sh->slots[i].events);
		free(sh->slots[i].fresh.bytes);
	}
	free(sh->slots);
	pthread_mutex_destroy(&sh->input_lock);
	pthread_mutex_destroy(&sh->state_lock);
	pthread_cond_destroy(&sh->slot_freed);
	pthread_cond_destroy(&sh->slot_ready);
}

/* One thread: read, parse and deliver inline, chunk by chunk. */
static void read_inline(struct shared *sh, struct read_result *out)
{
	struct slot *s;
	uint64_t line_base = 0;

	while ((s = read_next_chunk(&sh->workers[0])) != NULL) {
		parse_slot(&sh->workers[0], s);
		s->worker = 0;
		deliver_slot(sh, s, line_base, out);
		line_base += s->lines;
		s->state = SLOT_FREE;
	}
}

static void read_threaded(struct shared *sh, struct read_result *out)
{
	uint64_t seq, line_base = 0;
	struct slot *s;
	int i, started = 0;

	for (i = 0; i < sh->nworkers; i++)
		if (pthread_create(&sh->workers[i].thread, NULL, worker_main, &sh->workers[i]) == 0)
			started++;
		else
			break;
	if (started == 0) {	/* no threads to be had: do it here */
		read_inline(sh, out);
		return;
	}
	for (seq = 0; (s = wait_for_chunk(sh, seq)) != NULL; seq++) {
		deliver_slot(sh, s, line_base, out);
		line_base += s->lines;
		free_slot(sh, s);
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
	free(sh);
	return rc;
}
