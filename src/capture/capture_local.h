/*
 * capture_local.h - what instance.c and stream.c share of a capture; not
 * an interface for the rest of the program (that is include/capture.h).
 */
#ifndef TA_CAPTURE_LOCAL_H
#define TA_CAPTURE_LOCAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "capture.h"
#include "symbols.h"

struct tracefs_instance;
struct tracefs_cpu;
struct tep_handle;

/* One trace_pipe_raw page, copied out of the kernel. */
struct raw_page {
	struct raw_page *next;
	int len;
	unsigned char data[];
};

/* Pages of one CPU waiting for the formatter, and how far that CPU was read. */
struct cpu_queue {
	struct raw_page *head, *tail;
	uint64_t read_to_ns;	/* every event stamped before this is queued */
};

struct capture {
	struct capture_config cfg;
	char *tracing_dir;
	char name[64];		/* trace_analyze-PID */
	char inst_dir[4096];
	struct tracefs_instance *inst;
	bool made_dir;
	bool pid_filter;
	int ncpus;
	struct tracefs_cpu **cpu;	/* per CPU, NULL when it cannot be read */
	int *cpu_fd;		/* their trace_pipe_raw descriptors (O_CLOEXEC) */
	int page_size;
	struct tep_handle *tep;
	struct symbol_table syms;	/* /proc/kallsyms: call sites and frames named */
	bool have_syms;
	int stack_type;		/* ftrace:kernel_stack's id, or -1 */
	int stack_size_offset, stack_caller_offset;

	capture_sink_fn sink;
	void *sink_ctx;
	pthread_t reader, formatter;
	bool threads_started;

	pthread_mutex_t lock;	/* guards what follows */
	pthread_cond_t data_ready;	/* pages queued, or the reader ended */
	pthread_cond_t space_free;	/* the formatter took pages */
	struct cpu_queue *queue;
	size_t queued_bytes;
	bool reader_done;

	atomic_int stopping;	/* capture_stop: drain and end */
	atomic_int aborting;	/* capture_abort: end now */
	atomic_int failed;
	struct ta_error error;	/* what failed, set once */
	double started;
	struct capture_stats stats;	/* counted by the threads */
};

int capture_instance_open(struct capture *c, struct ta_error *err);
void capture_instance_read_stats(struct capture *c, struct capture_stats *st);
void capture_instance_close(struct capture *c);

#endif
