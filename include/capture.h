/*
 * capture.h - kmem events recorded live from the running kernel, through
 * tracefs instances of our own (DESIGN.md section 11), as binary records.
 *
 * capture_open finds (or mounts) tracefs, removes instances left by
 * trace_analyze runs that were killed, and makes instances/trace_analyze-PID
 * with its buffer size, the "mono" clock (so that CPUs, and instances, can
 * be merged against one clock), the kmem events, the stacktrace option and
 * the pid filter (set_event_pid + event-fork). With a task filter only the
 * allocations are filtered: a second instance, trace_analyze-PID-frees,
 * records the frees of every task, of which those of objects the chosen
 * tasks allocated are kept. It never writes a global tracefs file; a
 * user's own trace is not disturbed.
 *
 * capture_start turns tracing on and starts a reader thread that copies
 * the per-CPU trace_pipe_raw pages into memory as fast as they come (the
 * kernel formats nothing, and a slow consumer cannot make the kernel drop
 * events until the memory cap is reached). capture_next, on the caller's
 * thread, hands the records on in timestamp order, one at a time, lost
 * pages as lost-event items; capture_format writes one as tracefs `trace`
 * text (stack traces as "<stack trace>" and " => func" lines, lost pages
 * as "CPU:N [LOST M EVENTS]"), for a log. capture_stop turns tracing off;
 * capture_next then drains what the buffers still hold and says the end.
 * capture_close removes the instances, whatever happened before.
 *
 * Not here: what the records mean (tepkmem.h), files, signals, processes.
 */
#ifndef TA_CAPTURE_H
#define TA_CAPTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

struct kmem_event;

struct tep_record;
struct tep_handle;

enum capture_events {
	CAPTURE_SLAB = 1 << 0,	/* kmalloc(_node), kfree, kmem_cache_alloc(_node), kmem_cache_free */
	CAPTURE_PAGE = 1 << 1,	/* mm_page_alloc, mm_page_free, mm_page_free_batched */
	CAPTURE_ALL = CAPTURE_SLAB | CAPTURE_PAGE,
};

/* "slab", "page", "all": enum capture_events, or -1. */
int capture_events_of_name(const char *name);

struct capture_config {
	unsigned events;	/* enum capture_events */
	bool stacks;		/* options/stacktrace in the instance */
	unsigned buffer_kb;	/* per CPU */
	const int *pids;	/* the allocations of these tasks and their children only */
	size_t npids;
	bool by_task;		/* allocations filtered by task (pids now, or capture_add_pid) */
	size_t memory_cap;	/* bytes of pages held for the formatter at most */
	bool forks;		/* sched_process_fork of every task as text into forks_fd */
	int forks_fd;
};

/* One item of the capture, in timestamp order. */
struct capture_item {
	struct tep_record *rec;	/* NULL for lost events; valid until the next capture_next */
	int cpu;
	int lost;		/* lost events before rec's page: their number, -1 unknown */
	bool is_stack;		/* an ftrace kernel_stack record */
};

/* Text made by capture_format, grown as needed. */
struct capture_text {
	char *text;
	size_t len, cap;
};

/* What the capture saw, read at its end. */
struct capture_stats {
	int cpus;
	uint64_t events;	/* records read (stack traces included) */
	uint64_t overrun;	/* per-CPU stats: overwritten before they were read */
	uint64_t dropped;	/* per-CPU stats: dropped (buffer full) */
	uint64_t bytes;		/* of text made by capture_format */
	uint64_t frees_kept;	/* by_task: frees of objects the chosen tasks allocated */
	uint64_t frees_dropped;	/* by_task: frees of other objects, dropped at once */
	double seconds;		/* from capture_start to the end of the drain */
};

struct capture;

int capture_open(struct capture **out, const struct capture_config *cfg, struct ta_error *err);

/* Add a task to the pid filter (before capture_start: a child about to exec). */
int capture_add_pid(struct capture *c, pid_t pid, struct ta_error *err);

/* Tracing on; the reader thread starts copying pages. */
int capture_start(struct capture *c, struct ta_error *err);

/*
 * The next item in timestamp order, waiting for one: 1; 0 at the end
 * (capture_stop was called and the buffers are drained, or capture_abort);
 * -1 with err when a read failed.
 */
int capture_next(struct capture *c, struct capture_item *it, struct ta_error *err);

/* it as tracefs text, appended to out; the number of lines it made. */
size_t capture_format(struct capture *c, const struct capture_item *it, struct capture_text *out);

/* The event formats the records are read with. */
struct tep_handle *capture_tep(const struct capture *c);

/* The function holding a kernel address (the running kernel's kallsyms), or NULL. */
const char *capture_resolve(void *capture, uint64_t addr, uint64_t *start, const char **module);

/* Tracing off; capture_next drains the buffers and ends (async-signal-safe: no). */
void capture_stop(struct capture *c);

/*
 * With a task filter: the allocations' buffer off, the frees' buffer (the
 * frees of every task) still on, so that what the tasks allocated is seen
 * freed after they end (RCU callbacks, kworkers). 0, or -1 without one.
 */
int capture_stop_allocations(struct capture *c);

/* Stop at once: what is still in the buffers or queued is not handed on. */
void capture_abort(struct capture *c);

/* Has the capture failed (a read failed)? */
bool capture_failed(struct capture *c);

/*
 * Wait for the reader, read the per-CPU stats: 0, or -1 with err when a
 * read failed.
 */
int capture_finish(struct capture *c, struct capture_stats *st, struct ta_error *err);

/*
 * Stop, wait for the reader, remove the instances (once, from any thread:
 * c stays usable for capture_failed and capture_close).
 */
void capture_release_instances(struct capture *c);

/* Remove the instances and free c (any time after capture_open; NULL is fine). */
void capture_close(struct capture *c);

/* With cfg.forks: 0, or -1 with err when the fork log could not be written. */
int capture_forks_result(const struct capture *c, struct ta_error *err);

/* The instance's directory, for messages and tests. */
const char *capture_instance_dir(const struct capture *c);

/* The text header written before the events, in tracefs `trace` form. */
size_t capture_header(const struct capture *c, char *buf, size_t size);

/* The trailer: entries read and written as the ftrace header counts them. */
size_t capture_trailer(const struct capture_stats *st, char *buf, size_t size);

/*
 * A capture as the engine reads it (record, top): the items go through
 * on_item first (record writes them into its log; the number of lines
 * they make there), the header and trailer text are read as a log's; at
 * the end (capture_next said so) on_end finishes the capture (stats,
 * the instances removed) and gives the trailer. admit sees each event
 * before the accounts and may leave it out (top: its own threads'). With
 * a lock, the engine holds it while an item goes into the accounts, so
 * that another thread may read them between items (top's view). The
 * callbacks run on the engine's thread; each may be NULL.
 */
struct live_source {
	struct capture *capture;
	const char *header;	/* the log's first lines, tracefs `trace` header form */
	bool usec;		/* its text gives microseconds: so do the events' times */
	unsigned want;		/* fields decoded beyond the request's (text_parse.h WANT_*) */
	size_t (*on_item)(void *ctx, const struct capture_item *it);
	bool (*admit)(void *ctx, const struct kmem_event *ev);
	int (*on_end)(void *ctx, const char **trailer, struct ta_error *err);
	uint64_t (*log_bytes)(void *ctx);	/* after on_end: the bytes of the log written, or NULL */
	void *ctx;
	pthread_mutex_t *lock;
};

#endif
