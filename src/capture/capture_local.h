/*
 * capture_local.h - what instance.c, stream.c and merge.c share of a
 * capture; not an interface for the rest of the program (that is
 * include/capture.h).
 */
#ifndef TA_CAPTURE_LOCAL_H
#define TA_CAPTURE_LOCAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include <traceevent/event-parse.h>

#include "capture.h"
#include "symbols.h"

struct tracefs_instance;
struct tracefs_cpu;

/* A pid whose task name text.c read lately, and when. */
struct comm_check {
	int pid;
	uint64_t at_ns;
};

/* One trace_pipe_raw page, copied out of the kernel. */
struct raw_page {
	struct raw_page *next;
	int len;
	unsigned char data[];
};

/* Pages of one CPU of one buffer waiting to be merged, and how far it was read. */
struct cpu_queue {
	struct raw_page *head, *tail;
	uint64_t read_to_ns;	/* every event stamped before this is queued */
};

/*
 * One tracefs instance. With a task filter there are two: the tasks'
 * allocations (pid-filtered, the events follow forks), and the frees of
 * every task (frees_only), since the kernel frees much of what a task
 * allocated elsewhere: RCU callbacks, kworkers, softirqs, other processes.
 */
struct capture_buffer {
	char name[64];		/* trace_analyze-PID, trace_analyze-PID-frees */
	char dir[4096];
	struct tracefs_instance *inst;
	bool made_dir;
	bool frees_only;
	bool pid_filter;	/* set_event_pid holds the chosen tasks */
	struct tracefs_cpu **cpu;	/* per CPU, NULL when it cannot be read */
	int *fd;		/* their trace_pipe_raw descriptors (O_CLOEXEC), or -1 */
};

#define CAPTURE_BUFFERS 2

/* cfg.forks: the fork events' instance and the thread copying its trace_pipe (forks.c). */
struct capture_forks {
	char dir[4096];
	struct tracefs_instance *inst;
	bool made_dir, enabled, started;
	int pipe_fd, out_fd;
	pthread_t thread;
	atomic_int stopping, joined;
	bool write_failed;
	int write_errno;
};

/* What the merge must know of an event id: its kind of free or allocation. */
enum record_role { ROLE_OTHER, ROLE_SLAB_ALLOC, ROLE_SLAB_FREE, ROLE_PAGE_ALLOC,
		   ROLE_PAGE_FREE, ROLE_PAGE_FREE_BATCHED, ROLE_STACK };

struct event_role {
	uint8_t role;		/* enum record_role */
	uint16_t key_offset;	/* of ptr (slab) or pfn (page) */
	uint8_t key_size;
};

struct capture {
	struct capture_config cfg;
	char *tracing_dir;
	struct capture_buffer buf[CAPTURE_BUFFERS];
	struct capture_forks forks;
	int nbufs;
	bool by_task;		/* allocations of chosen tasks, frees of all: two buffers */
	int ncpus;
	int page_size;
	struct tep_handle *tep;
	struct symbol_table syms;	/* /proc/kallsyms: call sites and frames named */
	bool have_syms;
	int stack_type;		/* ftrace:kernel_stack's id, or -1 */
	int stack_size_offset, stack_caller_offset;
	struct event_role *roles;	/* by event id */
	int nroles;

	pthread_t reader;
	bool threads_started;
	atomic_int joining, joined;	/* the reader: being joined, joined */
	atomic_int released;		/* the instances removed */
	struct merge *merge;	/* capture_next's, made at capture_start */
	bool more;		/* the reader may still queue pages */
	struct comm_check *comm_checked;	/* text.c: pids whose name was read lately */
	uint64_t cmdlines_reloaded_ns;
	struct trace_seq seq;	/* text.c */
	bool seq_ready;

	pthread_mutex_t lock;	/* guards what follows */
	pthread_cond_t data_ready;	/* pages queued, or the reader ended */
	pthread_cond_t space_free;	/* capture_next took pages */
	struct cpu_queue *queue;	/* nbufs * ncpus: buffer b's CPU c at b * ncpus + c */
	size_t queued_bytes;
	bool reader_done;

	atomic_int stopping;	/* capture_stop: drain and end */
	atomic_int aborting;	/* capture_abort: end now */
	atomic_int failed;
	struct ta_error error;	/* what failed, set once */
	double started;
	struct capture_stats stats;	/* counted by the threads */
};

/* forks.c: the fork events' instance, made, started, stopped, joined and removed */
int capture_forks_open(struct capture *c, const char *name, struct ta_error *err);
int capture_forks_start(struct capture *c, struct ta_error *err);
void capture_forks_stop(struct capture *c);
void capture_forks_join(struct capture *c);
void capture_forks_close(struct capture *c);

/* CLOCK_MONOTONIC's now */
static inline uint64_t capture_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* text.c: refresh the tep's name of pid (exec renames; /proc first, saved_cmdlines). */
void capture_learn_comm(struct capture *c, int pid);

int capture_instance_open(struct capture *c, struct ta_error *err);
void capture_instance_read_stats(struct capture *c, struct capture_stats *st);
void capture_instance_close(struct capture *c);

/* ---- merge.c: the buffers' pages in timestamp order ---- */

struct merge;

enum merge_item { MERGE_NONE, MERGE_RECORD, MERGE_LOST };

struct merged {
	struct tep_record *rec;	/* MERGE_RECORD: ts, cpu, data, size (the merge's own) */
	int cpu;
	int lost;		/* MERGE_LOST: events the CPU's buffer lost, or -1: some */
	bool is_stack;		/* a kernel_stack record: the stack of an event before it */
};

struct merge *merge_new(struct capture *c);
void merge_free(struct merge *m);

/*
 * Take the pages the reader queued (waiting for some when wait is set and
 * none is there); false when nothing more will come.
 */
bool merge_take_pages(struct merge *m, bool wait);

/*
 * The next record no buffer can still precede, kept by the task filter:
 * with two buffers, frees of objects the chosen tasks did not allocate
 * are dropped, with their stacks. Lost pages come as MERGE_LOST before
 * the page's first record. MERGE_NONE when nothing is ready yet (or, once
 * merge_take_pages said so, at the end).
 */
enum merge_item merge_next(struct merge *m, struct merged *out);

#endif
