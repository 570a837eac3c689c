/*
 * capture.h - kmem events recorded live from the running kernel, through
 * a tracefs instance of our own (DESIGN.md section 11), as ftrace text.
 *
 * capture_open finds (or mounts) tracefs, removes instances left by
 * trace_analyze runs that were killed, and makes instances/trace_analyze-PID
 * with its buffer size, the "mono" clock (so that CPUs can be merged
 * against the wall clock), the kmem events, the stacktrace option and the
 * pid filter (set_event_pid + event-fork). It never writes a global tracefs
 * file; a user's own trace is not disturbed.
 *
 * capture_start turns tracing on and starts two threads: a reader that
 * copies the per-CPU trace_pipe_raw pages into memory as fast as they
 * come (the kernel formats nothing, and a slow consumer cannot make the
 * kernel drop events until the memory cap is reached), and a formatter
 * that decodes them with libtraceevent, merges the CPUs in timestamp
 * order and hands whole lines in tracefs `trace` form to the sink, stack
 * traces as "<stack trace>" and " => func" lines, lost pages as
 * "CPU:N [LOST M EVENTS]". capture_stop turns tracing off; the threads
 * drain what the buffer still holds, then the sink is told the end.
 * capture_close removes the instance, whatever happened before.
 *
 * Not here: what the lines mean (parse.c), files, signals, child processes.
 */
#ifndef TA_CAPTURE_H
#define TA_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

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
};

/* Told the text, whole lines: 0 to go on, -1 (err filled) to stop the capture. */
typedef int (*capture_sink_fn)(void *ctx, const char *text, size_t len, struct ta_error *err);

/* What the capture saw, read at its end. */
struct capture_stats {
	int cpus;
	uint64_t events;	/* records read (stack traces included) */
	uint64_t overrun;	/* per-CPU stats: overwritten before they were read */
	uint64_t dropped;	/* per-CPU stats: dropped (buffer full) */
	uint64_t bytes;		/* of text handed to the sink */
	uint64_t frees_kept;	/* by_task: frees of objects the chosen tasks allocated */
	uint64_t frees_dropped;	/* by_task: frees of other objects, dropped at once */
	double seconds;		/* from capture_start to the end of the drain */
};

struct capture;

int capture_open(struct capture **out, const struct capture_config *cfg, struct ta_error *err);

/* Add a task to the pid filter (before capture_start: a child about to exec). */
int capture_add_pid(struct capture *c, pid_t pid, struct ta_error *err);

/* Tracing on; the reader and formatter threads start feeding sink. */
int capture_start(struct capture *c, capture_sink_fn sink, void *ctx, struct ta_error *err);

/* Tracing off; the threads drain the buffer and end (async-signal-safe: no). */
void capture_stop(struct capture *c);

/* Stop at once: what is still in the buffer or queued is not formatted. */
void capture_abort(struct capture *c);

/* Has the capture ended by itself (the sink failed, a read failed)? */
bool capture_failed(struct capture *c);

/*
 * Wait for the threads, read the per-CPU stats: 0, or -1 with err when the
 * sink or a read failed.
 */
int capture_finish(struct capture *c, struct capture_stats *st, struct ta_error *err);

/* Remove the instance and free c (any time after capture_open; NULL is fine). */
void capture_close(struct capture *c);

/* The instance's directory, for messages and tests. */
const char *capture_instance_dir(const struct capture *c);

/* The text header written before the events, in tracefs `trace` form. */
size_t capture_header(const struct capture *c, char *buf, size_t size);

/* The trailer: entries read and written as the ftrace header counts them. */
size_t capture_trailer(const struct capture_stats *st, char *buf, size_t size);

#endif
