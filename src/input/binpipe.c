/*
 * binpipe.c - a trace.dat or perf.data read on two threads: a reader
 * thread decodes records (binread_here) into batches of events, with
 * string tables of its own, while the calling thread makes the batches'
 * ids global (freshids.h) and hands their events on. One reader, batches
 * taken in order, strings numbered in its order of first sight: what is
 * handed on is what one thread hands on, byte for byte.
 * Not here: the formats (tracedat.c, perfdata.c), what the events are for.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "binread.h"
#include "freshids.h"

#define BATCH_EVENTS 1024
#define BATCHES 8
#define WRITE_AHEAD 4
#define WAKE_AFTER (BATCHES / 2)	/* batches ready (or free) before a sleeper is woken */

struct batch {
	struct kmem_event *events;
	size_t n;
	struct fresh_ids fresh;	/* strings and stacks first seen up to its last event */
	bool ready;		/* filled: the consumer's until it clears this */
};

struct binpipe {
	const struct binread_config *cfg;	/* the caller's: global tables, on_event */
	struct binread_config reader_cfg;	/* the reader thread's: local tables, batch_event */
	struct trace_strings local;
	struct fresh_ids pending;	/* what the local tables gained since the last batch */
	struct batch batches[BATCHES];
	struct batch *filling;		/* the reader's, or NULL */
	uint64_t produced;		/* batches handed over */
	uint64_t consumed;		/* batches given back */
	uint64_t wake_at;		/* the consumer sleeps until produced reaches it */
	uint64_t free_at;		/* the reader sleeps until consumed reaches it */
	bool consumer_sleeps, reader_sleeps;
	bool done;			/* the reader returned */
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	/* the reader's call and what it returned */
	int fd;
	enum binary_kind kind;
	struct read_result out;
	struct binread_facts facts;
	struct ta_error err;
	int rc;
	struct id_map ids;		/* the consumer's: local ids -> global */
};

/* ---- the reader thread ---- */

static struct batch *take_empty_batch(struct binpipe *p)
{
	struct batch *b = &p->batches[p->produced % BATCHES];

	pthread_mutex_lock(&p->lock);
	while (b->ready) {
		p->free_at = p->produced - BATCHES + WAKE_AFTER;
		p->reader_sleeps = true;
		pthread_cond_wait(&p->emptied, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	b->n = 0;
	return b;
}

static void hand_over(struct binpipe *p, struct batch *b)
{
	struct fresh_ids t;

	fresh_ids_collect(&p->pending, &p->local, true);
	t = b->fresh;		/* swapped: the buffers are used again */
	b->fresh = p->pending;
	p->pending = t;
	fresh_ids_begin(&p->pending, &p->local);
	pthread_mutex_lock(&p->lock);
	b->ready = true;
	p->produced++;
	if (p->consumer_sleeps && p->produced >= p->wake_at) {
		p->consumer_sleeps = false;
		pthread_cond_signal(&p->filled);
	}
	pthread_mutex_unlock(&p->lock);
}

static void batch_event(void *ctx, const struct kmem_event *ev)
{
	struct binpipe *p = ctx;
	struct batch *b = p->filling ? p->filling : (p->filling = take_empty_batch(p));

	if (b->n + WRITE_AHEAD < BATCH_EVENTS)	/* its lines were the consumer's: ask for them early */
		event_prefetch_for_write(&b->events[b->n + WRITE_AHEAD]);
	b->events[b->n++] = *ev;
	if (b->n == BATCH_EVENTS) {
		hand_over(p, b);
		p->filling = NULL;
	}
}

static void *reader_main(void *arg)
{
	struct binpipe *p = arg;
	sigset_t all;

	sigfillset(&all);	/* signals are the main thread's */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	p->rc = binread_here(p->fd, p->kind, &p->reader_cfg, &p->out, &p->facts, &p->err);
	/* the last events, and strings interned after them, go over too */
	hand_over(p, p->filling ? p->filling : take_empty_batch(p));
	p->filling = NULL;
	pthread_mutex_lock(&p->lock);
	p->done = true;
	pthread_cond_signal(&p->filled);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* ---- the calling thread ---- */

static struct batch *wait_for_batch(struct binpipe *p, uint64_t seq)
{
	struct batch *b = &p->batches[seq % BATCHES];

	pthread_mutex_lock(&p->lock);
	while (!b->ready && !(p->done && seq >= p->produced)) {
		p->wake_at = seq + WAKE_AFTER;
		p->consumer_sleeps = true;
		pthread_cond_wait(&p->filled, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return b->ready ? b : NULL;
}

static void give_back(struct binpipe *p, struct batch *b)
{
	pthread_mutex_lock(&p->lock);
	b->ready = false;
	p->consumed++;
	if (p->reader_sleeps && p->consumed >= p->free_at) {
		p->reader_sleeps = false;
		pthread_cond_signal(&p->emptied);
	}
	pthread_mutex_unlock(&p->lock);
}

static void hand_on_batch(struct binpipe *p, struct batch *b)
{
	const struct binread_config *cfg = p->cfg;
	size_t i;

	id_map_learn(&p->ids, &b->fresh, cfg->strings);
	for (i = 0; i < b->n; i++)
		id_map_event(&p->ids, &b->events[i]);
	for (i = 0; i < b->n; i++) {
		/* live tables are far bigger than the caches */
		look_ahead(cfg->on_lookahead, cfg->ctx, b->events, i, b->n);
		cfg->on_event(cfg->ctx, &b->events[i]);
	}
}

static void pipe_init(struct binpipe *p, int fd, enum binary_kind kind,
		      const struct binread_config *cfg)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->cfg = cfg;
	p->fd = fd;
	p->kind = kind;
	trace_strings_init(&p->local);
	p->reader_cfg = *cfg;
	p->reader_cfg.strings = &p->local;
	p->reader_cfg.on_event = batch_event;
	p->reader_cfg.on_lookahead = NULL;
	p->reader_cfg.ctx = p;
	fresh_ids_begin(&p->pending, &p->local);
	for (i = 0; i < BATCHES; i++)
		p->batches[i].events = xmalloc(BATCH_EVENTS * sizeof(struct kmem_event));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->filled, NULL);
	pthread_cond_init(&p->emptied, NULL);
}

static void pipe_release(struct binpipe *p)
{
	int i;

	for (i = 0; i < BATCHES; i++) {
		free(p->batches[i].events);
		fresh_ids_release(&p->batches[i].fresh);
	}
	fresh_ids_release(&p->pending);
	id_map_release(&p->ids);
	trace_strings_release(&p->local);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->filled);
	pthread_cond_destroy(&p->emptied);
}

/* One thread when asked for, or when the machine has one CPU. */
static bool two_threads_pay(int asked)
{
	return asked != 1 && (asked > 1 || sysconf(_SC_NPROCESSORS_ONLN) > 1);
}

int binread(int fd, enum binary_kind kind, const struct binread_config *cfg,
	    struct read_result *out, struct binread_facts *facts, struct ta_error *err)
{
	struct binpipe *p;
	struct batch *b;
	pthread_t reader;
	uint64_t seq;
	int rc;

	if (!two_threads_pay(cfg->threads))
		return binread_here(fd, kind, cfg, out, facts, err);
	p = xmalloc(sizeof(*p));
	pipe_init(p, fd, kind, cfg);
	if (pthread_create(&reader, NULL, reader_main, p) != 0) {
		pipe_release(p);
		free(p);
		return binread_here(fd, kind, cfg, out, facts, err);
	}
	for (seq = 0; (b = wait_for_batch(p, seq)) != NULL; seq++) {
		hand_on_batch(p, b);
		give_back(p, b);
	}
	pthread_join(reader, NULL);
	*out = p->out;
	*facts = p->facts;
	if (p->rc < 0)
		*err = p->err;
	rc = p->rc;
	pipe_release(p);
	free(p);
	return rc;
}
