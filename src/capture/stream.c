/*
 * stream.c - a capture's reader thread, which copies the trace_pipe_raw
 * pages of every CPU of every buffer into memory, and capture_next, which
 * hands the records on in timestamp order from the merge (merge.c), on the
 * caller's thread; the event formats, and opening and closing it all.
 *
 * Not here: the instances' files (instance.c), the order of records and
 * the task filter (merge.c), text (text.c), what a record means.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture_local.h"
#include "event.h"
#include "tracelib.h"

#define COMMIT_MARGIN_NS 20000000ull	/* an event may show up this late in its buffer */
#define READ_BURST 64			/* pages read from one CPU before the next */
#define IDLE_SLEEP_NS 5000000l		/* nothing to read: look again after this */

static void fail(struct capture *c, const struct ta_error *err)
{
	pthread_mutex_lock(&c->lock);
	if (!atomic_load(&c->failed)) {
		c->error = *err;
		atomic_store(&c->failed, 1);
	}
	pthread_cond_broadcast(&c->data_ready);
	pthread_cond_broadcast(&c->space_free);
	pthread_mutex_unlock(&c->lock);
}

static bool should_end_now(struct capture *c)
{
	return atomic_load(&c->aborting) || atomic_load(&c->failed);
}

/* ---- the reader ---- */

static void queue_page(struct capture *c, int qi, const void *data, int len)
{
	struct raw_page *p = xmalloc(sizeof(*p) + (size_t)len);
	struct cpu_queue *q = &c->queue[qi];

	p->next = NULL;
	p->len = len;
	memcpy(p->data, data, (size_t)len);
	pthread_mutex_lock(&c->lock);
	while (c->queued_bytes > c->cfg.memory_cap && !should_end_now(c)) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000l;
		if (until.tv_nsec >= 1000000000l) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000l;
		}
		pthread_cond_timedwait(&c->space_free, &c->lock, &until);
	}
	if (q->tail)
		q->tail->next = p;
	else
		q->head = p;
	q->tail = p;
	c->queued_bytes += (size_t)len;
	pthread_cond_signal(&c->data_ready);
	pthread_mutex_unlock(&c->lock);
}

static void mark_read_to(struct capture *c, int q, uint64_t ns)
{
	pthread_mutex_lock(&c->lock);
	c->queue[q].read_to_ns = ns;
	pthread_cond_signal(&c->data_ready);
	pthread_mutex_unlock(&c->lock);
}

/* Read what one queue's CPU holds (a burst at most); true when it gave pages. */
static bool read_cpu(struct capture *c, int q, unsigned char *page)
{
	struct capture_buffer *b = &c->buf[q / c->ncpus];
	int cpu = q % c->ncpus, i, n;

	for (i = 0; i < READ_BURST; i++) {
		uint64_t before = capture_now_ns();

		n = tracefs_cpu_read(b->cpu[cpu], page, true);
		if (n > 0) {
			queue_page(c, q, page, n);
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR && errno != 0) {
			struct ta_error err;

			error_set_errno(&err, errno, "cannot read the trace buffer of CPU %d of '%s'",
					cpu, b->dir);
			fail(c, &err);
			return false;
		}
		mark_read_to(c, q, before > COMMIT_MARGIN_NS ? before - COMMIT_MARGIN_NS : 0);
		break;
	}
	return i > 0;
}

static void *reader_main(void *arg)
{
	struct capture *c = arg;
	unsigned char *page = xmalloc((size_t)c->page_size);
	struct timespec idle = { 0, IDLE_SLEEP_NS };
	int q, nqueues = c->nbufs * c->ncpus;

	while (!should_end_now(c)) {
		/* tracing is off once stopping is seen: a round that finds nothing is the end */
		bool last_round = atomic_load(&c->stopping), got = false;

		for (q = 0; q < nqueues && !should_end_now(c); q++)
			if (c->buf[q / c->ncpus].cpu[q % c->ncpus] && read_cpu(c, q, page))
				got = true;
		if (!got && last_round)
			break;
		if (!got)
			nanosleep(&idle, NULL);
	}
	free(page);
	pthread_mutex_lock(&c->lock);
	c->reader_done = true;
	pthread_cond_broadcast(&c->data_ready);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* ---- the capture ---- */

/* libtraceevent's question for %pS: which function holds *addrp. */
static char *name_function(void *priv, unsigned long long *addrp, char **modp)
{
	struct capture *c = priv;
	const struct ksym *s = symbols_lookup(&c->syms, *addrp);

	*modp = NULL;
	if (!s)
		return NULL;
	*addrp = s->addr;
	return (char *)ksym_name(&c->syms, s);
}

/*
 * The formats of the events this capture can meet: the kmem events and
 * ftrace's kernel_stack, and the ring buffer's page header. Read one by one
 * (tracefs_local_events would also read every other system, /proc/kallsyms
 * and printk formats, which we do not need).
 */
static int add_format(struct tep_handle *tep, const char *system, const char *event)
{
	char path[256], *text;
	int size = 0, rc = -1;

	snprintf(path, sizeof(path), "events/%s/%s/format", system, event);
	text = tracefs_instance_file_read(NULL, path, &size);
	if (text && size > 0)
		rc = tep_parse_event(tep, text, (unsigned long)size, system) == 0 ? 0 : -1;
	free(text);
	return rc;
}

static struct tep_handle *event_formats(struct capture *c, struct ta_error *err)
{
	struct tep_handle *tep = tep_alloc();
	unsigned k;
	char *header;
	int size = 0, parsed = 0;

	header = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!header || size <= 0 ||
	    tep_parse_header_page(tep, header, (unsigned long)size, (int)sizeof(long)) != 0) {
		free(header);
		tep_free(tep);
		error_set(err, "cannot read the ring buffer's page format '%s/events/header_page'",
			  c->tracing_dir);
		return NULL;
	}
	free(header);
	tep_set_long_size(tep, (int)sizeof(long));
	tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
	for (k = KMEM_KMALLOC; k <= KMEM_LAST_EVENT; k++)
		if (kmem_is_recorded(k))
			parsed += add_format(tep, "kmem", kmem_kind_name((enum kmem_kind)k)) == 0;
	add_format(tep, "ftrace", "kernel_stack");
	if (!parsed) {
		tep_free(tep);
		error_set(err, "cannot read the kmem event formats under '%s/events/kmem'",
			  c->tracing_dir);
		return NULL;
	}
	return tep;
}

/* The task filter's role of a recorded kind: an allocation or a free, of slab or pages. */
static enum record_role role_of(unsigned kind)
{
	if (kmem_is_slab_alloc(kind))
		return ROLE_SLAB_ALLOC;
	if (kmem_is_slab_free(kind))
		return ROLE_SLAB_FREE;
	if (kind == KMEM_PAGE_ALLOC)
		return ROLE_PAGE_ALLOC;
	return kind == KMEM_PAGE_FREE_BATCHED ? ROLE_PAGE_FREE_BATCHED : ROLE_PAGE_FREE;
}

/* The task filter's view of each event id: an allocation or a free, and where its key is. */
static void learn_roles(struct capture *c)
{
	unsigned k;

	c->nroles = c->stack_type + 1;
	for (k = KMEM_KMALLOC; k <= KMEM_LAST_EVENT; k++) {
		struct tep_event *e = kmem_is_recorded(k)
			? tep_find_event_by_name(c->tep, "kmem", kmem_kind_name((enum kmem_kind)k))
			: NULL;

		if (e && e->id >= c->nroles)
			c->nroles = e->id + 1;
	}
	c->roles = xcalloc((size_t)(c->nroles > 0 ? c->nroles : 1), sizeof(*c->roles));
	if (c->stack_type >= 0)
		c->roles[c->stack_type].role = ROLE_STACK;
	for (k = KMEM_KMALLOC; k <= KMEM_LAST_EVENT; k++) {
		struct tep_event *e = kmem_is_recorded(k)
			? tep_find_event_by_name(c->tep, "kmem", kmem_kind_name((enum kmem_kind)k))
			: NULL;
		/* the key a free is matched by: the object, or the page frame */
		struct tep_format_field *f = e ? tep_find_field(e, kmem_is_slab(k) ? "ptr" : "pfn")
					       : NULL;

		if (!f || (f->size != 4 && f->size != 8))
			continue;
		c->roles[e->id].role = (uint8_t)role_of(k);
		c->roles[e->id].key_offset = (uint16_t)f->offset;
		c->roles[e->id].key_size = (uint8_t)f->size;
	}
}

static int load_event_formats(struct capture *c, struct ta_error *err)
{
	struct tep_event *stack;
	struct tep_format_field *size, *caller;
	struct ta_error ignored;

	c->tep = event_formats(c, err);
	if (!c->tep)
		return -1;
	c->stack_type = -1;
	stack = tep_find_event_by_name(c->tep, "ftrace", "kernel_stack");
	size = stack ? tep_find_field(stack, "size") : NULL;
	caller = stack ? tep_find_field(stack, "caller") : NULL;
	if (size && caller) {
		c->stack_type = stack->id;
		c->stack_size_offset = size->offset;
		c->stack_caller_offset = caller->offset;
	} else if (c->cfg.stacks) {
		return error_set(err, "this kernel's tracefs has no ftrace/kernel_stack event "
				 "format: stack traces cannot be decoded");
	}
	learn_roles(c);
	/* function names for call_site=%pS and stack frames, as the kernel prints them */
	symbols_init(&c->syms);
	if (symbols_load_system_map(&c->syms, "/proc/kallsyms", &ignored) == 0 &&
	    c->syms.count > 1 && c->syms.syms[c->syms.count - 1].addr != 0) {
		/* (all zero when kptr_restrict hides them: call sites then stay addresses) */
		c->have_syms = true;
		(void)symbols_load_modules(&c->syms, "/proc/modules", &ignored);
		tep_set_function_resolver(c->tep, name_function, c);
	} else {
		symbols_release(&c->syms);
	}
	tracefs_load_cmdlines(c->tracing_dir, c->tep);
	return 0;
}

static int open_cpu_buffers(struct capture *c, struct capture_buffer *b, struct ta_error *err)
{
	int cpu, opened = 0;

	b->cpu = xcalloc((size_t)c->ncpus, sizeof(*b->cpu));
	b->fd = xcalloc((size_t)c->ncpus, sizeof(*b->fd));
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		char path[4200];

		/* opened here, close-on-exec: a recorded command must hold none of them */
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", b->dir, cpu);
		b->fd[cpu] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (b->fd[cpu] < 0)
			continue;	/* an offline CPU */
		b->cpu[cpu] = tracefs_cpu_alloc_fd(b->fd[cpu], c->page_size, true);
		if (!b->cpu[cpu]) {
			close(b->fd[cpu]);
			b->fd[cpu] = -1;
			continue;
		}
		opened++;
	}
	if (!opened)
		return error_set_errno(err, errno ? errno : EIO, "cannot open the per-CPU "
				       "trace_pipe_raw files of '%s'", b->dir);
	return 0;
}

static void close_cpu_buffers(struct capture *c, struct capture_buffer *b)
{
	int cpu;

	for (cpu = 0; b->cpu && cpu < c->ncpus; cpu++)
		if (b->cpu[cpu]) {
			tracefs_cpu_free_fd(b->cpu[cpu]);
			close(b->fd[cpu]);
		}
	free(b->cpu);
	free(b->fd);
	b->cpu = NULL;
	b->fd = NULL;
}

int capture_open(struct capture **out, const struct capture_config *cfg, struct ta_error *err)
{
	struct capture *c = xcalloc(1, sizeof(*c));
	int k;

	*out = c;
	c->cfg = *cfg;
	c->forks.pipe_fd = -1;
	if (!c->cfg.buffer_kb)
		c->cfg.buffer_kb = 8192;
	if (!c->cfg.memory_cap)
		c->cfg.memory_cap = (size_t)1 << 30;
	c->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (c->ncpus < 1)
		c->ncpus = 1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->data_ready, NULL);
	pthread_cond_init(&c->space_free, NULL);
	c->page_size = (int)sysconf(_SC_PAGESIZE);
	if (trace_library_load("to capture", err) < 0 || capture_instance_open(c, err) < 0 ||
	    load_event_formats(c, err) < 0)
		return -1;
	c->queue = xcalloc((size_t)(c->nbufs * c->ncpus), sizeof(*c->queue));
	for (k = 0; k < c->nbufs; k++)
		if (open_cpu_buffers(c, &c->buf[k], err) < 0)
			return -1;
	return 0;
}

int capture_start(struct capture *c, struct ta_error *err)
{
	struct timespec now;
	int k;

	clock_gettime(CLOCK_MONOTONIC, &now);
	c->started = (double)now.tv_sec + now.tv_nsec / 1e9;
	for (k = c->nbufs - 1; k >= 0; k--)	/* the frees' first: none of an allocation missed */
		if (tracefs_instance_file_write(c->buf[k].inst, "tracing_on", "1") < 0)
			return error_set_errno(err, errno ? errno : EIO, "cannot turn tracing on in "
					       "'%s'", c->buf[k].dir);
	if (capture_forks_start(c, err) < 0)
		return -1;
	if (pthread_create(&c->reader, NULL, reader_main, c) != 0)
		return error_set(err, "cannot start the capture's reader thread");
	c->threads_started = true;
	c->merge = merge_new(c);
	c->more = true;
	return 0;
}

int capture_next(struct capture *c, struct capture_item *it, struct ta_error *err)
{
	struct merged m;

	for (;;) {
		enum merge_item item = c->merge ? merge_next(c->merge, &m) : MERGE_NONE;

		if (item == MERGE_LOST) {
			it->rec = NULL;
			it->cpu = m.cpu;
			it->lost = m.lost;
			it->is_stack = false;
			return 1;
		}
		if (item == MERGE_RECORD) {
			it->rec = m.rec;
			it->cpu = m.cpu;
			it->lost = 0;
			it->is_stack = m.is_stack;
			capture_learn_comm(c, tep_data_pid(c->tep, m.rec));
			return 1;
		}
		if (atomic_load(&c->failed)) {
			*err = c->error;
			return -1;
		}
		if (!c->merge || !c->more || atomic_load(&c->aborting))
			return 0;
		/* nothing ready: wait for pages (or a reader's mark), then try again */
		c->more = merge_take_pages(c->merge, true);
		if (!c->more)
			merge_take_pages(c->merge, false);	/* all taken: the last records */
	}
}

struct tep_handle *capture_tep(const struct capture *c)
{
	return c->tep;
}

const char *capture_resolve(void *capture, uint64_t addr, uint64_t *start, const char **module)
{
	struct capture *c = capture;
	const struct ksym *s = c->have_syms ? symbols_lookup(&c->syms, addr) : NULL;

	if (!s)
		return NULL;
	*start = s->addr;
	*module = ksym_module(&c->syms, s);
	return ksym_name(&c->syms, s);
}

void capture_stop(struct capture *c)
{
	int k;

	pthread_mutex_lock(&c->lock);	/* the instances may be going on another thread */
	for (k = 0; k < c->nbufs && !atomic_load(&c->released); k++)
		if (c->buf[k].inst)	/* the allocations' first: every free of theirs is seen */
			tracefs_instance_file_write(c->buf[k].inst, "tracing_on", "0");
	if (!atomic_load(&c->released))
		capture_forks_stop(c);
	atomic_store(&c->stopping, 1);
	pthread_mutex_unlock(&c->lock);
}

int capture_stop_allocations(struct capture *c)
{
	int rc = -1;

	pthread_mutex_lock(&c->lock);
	if (c->by_task && !atomic_load(&c->released) && c->buf[0].inst) {
		tracefs_instance_file_write(c->buf[0].inst, "tracing_on", "0");
		rc = 0;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void capture_abort(struct capture *c)
{
	capture_stop(c);
	atomic_store(&c->aborting, 1);
	pthread_mutex_lock(&c->lock);
	pthread_cond_broadcast(&c->data_ready);
	pthread_cond_broadcast(&c->space_free);
	pthread_mutex_unlock(&c->lock);
}

bool capture_failed(struct capture *c)
{
	return atomic_load(&c->failed);
}

/*
 * Wait for the reader to end (it ends once stopped and drained, or at
 * once when aborted). Two threads may ask (record's engine, and its
 * controller on a second Ctrl-C): one joins, the other waits for it.
 */
static void join_reader(struct capture *c)
{
	struct timespec tick = { 0, 1000000l };

	if (!c->threads_started)
		return;
	if (atomic_exchange(&c->joining, 1) == 0) {
		pthread_join(c->reader, NULL);
		atomic_store(&c->joined, 1);
		return;
	}
	while (!atomic_load(&c->joined))
		nanosleep(&tick, NULL);
}

int capture_finish(struct capture *c, struct capture_stats *st, struct ta_error *err)
{
	struct timespec now;

	capture_stop(c);
	join_reader(c);
	capture_forks_join(c);
	clock_gettime(CLOCK_MONOTONIC, &now);
	c->stats.seconds = (double)now.tv_sec + now.tv_nsec / 1e9 - c->started;
	c->stats.cpus = c->ncpus;
	/*
	 * Under the lock: record's controller may be removing the instances
	 * on a second Ctrl-C, and a stats file open here makes its rmdir fail
	 * with EBUSY, leaving the instance behind.
	 */
	pthread_mutex_lock(&c->lock);
	if (!atomic_load(&c->released))
		capture_instance_read_stats(c, &c->stats);
	pthread_mutex_unlock(&c->lock);
	*st = c->stats;
	if (atomic_load(&c->failed)) {
		*err = c->error;
		return -1;
	}
	return 0;
}

/*
 * Two threads may ask here at once (record's engine at the end of the
 * capture, its controller on a second Ctrl-C, which then _exit()s): the
 * one that comes second waits on the lock until the first has removed
 * the instances, so that no one exits with an instance half removed.
 */
void capture_release_instances(struct capture *c)
{
	int k;

	if (!c)
		return;
	if (!atomic_load(&c->released)) {
		capture_abort(c);
		join_reader(c);
	}
	capture_forks_join(c);	/* its pipe read to the end before its instance goes */
	pthread_mutex_lock(&c->lock);
	if (!atomic_exchange(&c->released, 1)) {
		for (k = 0; k < c->nbufs; k++)
			close_cpu_buffers(c, &c->buf[k]);
		capture_instance_close(c);	/* after the buffers are closed: else EBUSY */
	}
	pthread_mutex_unlock(&c->lock);
}

void capture_close(struct capture *c)
{
	int q;

	if (!c)
		return;
	capture_release_instances(c);
	merge_free(c->merge);
	if (c->queue)
		for (q = 0; q < c->nbufs * c->ncpus; q++) {
			struct raw_page *p = c->queue[q].head, *next;

			for (; p; p = next) {
				next = p->next;
				free(p);
			}
		}
	if (c->seq_ready)
		trace_seq_destroy(&c->seq);
	if (c->tep)
		tep_free(c->tep);
	if (c->have_syms)
		symbols_release(&c->syms);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->data_ready);
	pthread_cond_destroy(&c->space_free);
	free(c->queue);
	free(c->roles);
	free(c->comm_checked);
	free(c->tracing_dir);
	free(c);
}

const char *capture_instance_dir(const struct capture *c)
{
	return c->buf[0].dir;
}
