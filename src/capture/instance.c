/*
 * instance.c - the tracefs instances a capture records into: found or
 * mounted tracefs, instances/trace_analyze-PID made and set up, its
 * per-CPU statistics read, and removed again. With a task filter a second
 * instance, trace_analyze-PID-frees, records the frees of every task (the
 * first, the chosen tasks' allocations). Instances that killed runs of
 * ours left behind are removed on the way in.
 *
 * Only files inside the instance are written (and tracefs mounted when
 * nothing is): the global buffer and its settings are never touched.
 * Not here: reading the events (stream.c).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture_local.h"
#include "event.h"
#include "text_parse.h"
#include "testhook.h"

#define INSTANCE_PREFIX "trace_analyze-"
#define FREES_SUFFIX "-frees"
#define FORKS_SUFFIX "-forks"


int capture_events_of_name(const char *name)
{
	if (strcmp(name, "slab") == 0)
		return CAPTURE_SLAB;
	if (strcmp(name, "page") == 0)
		return CAPTURE_PAGE;
	if (strcmp(name, "all") == 0)
		return CAPTURE_ALL;
	return -1;
}

/* An instance named trace_analyze-PID whose process is gone: left by a kill -9. */
static int remove_if_orphaned(const char *name, void *ctx)
{
	struct tracefs_instance *inst;
	char *end;
	long pid;

	(void)ctx;
	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) != 0)
		return 0;
	pid = strtol(name + strlen(INSTANCE_PREFIX), &end, 10);
	if ((*end && strcmp(end, FREES_SUFFIX) != 0 && strcmp(end, FORKS_SUFFIX) != 0) || pid <= 0 || kill((pid_t)pid, 0) == 0 ||
	    errno != ESRCH)
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (inst) {
		tracefs_instance_file_write(inst, "tracing_on", "0");
		if (tracefs_instance_destroy(inst) == 0)
			warn("removed the tracefs instance '%s' a killed run left behind", name);
		tracefs_instance_free(inst);
	}
	return 0;
}

static int find_tracefs(struct capture *c, struct ta_error *err)
{
	const char *dir = NULL;

	/* mounts tracefs on /sys/kernel/tracing when nothing is mounted */
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !dir) {
		if (geteuid() != 0)
			return error_set(err, "cannot find or mount tracefs: recording needs root "
					 "or CAP_PERFMON/CAP_SYS_ADMIN (try sudo)");
		return error_set(err, "cannot find or mount tracefs: is the kernel built with "
				 "CONFIG_FTRACE (mount -t tracefs nodev /sys/kernel/tracing)?");
	}
	c->tracing_dir = xstrdup(dir);
	if (access(c->tracing_dir, W_OK | X_OK) < 0) {
		int e = errno;

		return error_set_errno(err, e, "cannot use '%s': recording needs root or "
				       "CAP_PERFMON/CAP_SYS_ADMIN (try sudo)", c->tracing_dir);
	}
	return 0;
}

static int make_instance(struct capture *c, struct capture_buffer *b, struct ta_error *err)
{
	char name[sizeof(b->name)];

	snprintf(name, sizeof(name), INSTANCE_PREFIX "%ld%s", (long)getpid(),
		 b->frees_only ? FREES_SUFFIX : "");
	memcpy(b->name, name, sizeof(name));
	snprintf(b->dir, sizeof(b->dir), "%s/instances/%s", c->tracing_dir, name);
	if (mkdir(b->dir, 0750) < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			return error_set_errno(err, e, "cannot make the tracefs instance '%s': "
					       "recording needs root or CAP_PERFMON/CAP_SYS_ADMIN "
					       "(try sudo)", b->dir);
		if (e == ENOENT)
			return error_set_errno(err, e, "cannot make the tracefs instance '%s': "
					       "this kernel's tracefs has no instances (4.1 or "
					       "later is needed)", b->dir);
		return error_set_errno(err, e, "cannot make the tracefs instance '%s'", b->dir);
	}
	b->made_dir = true;
	test_note_instance(name);
	b->inst = tracefs_instance_alloc(c->tracing_dir, b->name);
	if (!b->inst)
		return error_set_errno(err, errno, "cannot open the tracefs instance '%s'", b->dir);
	return 0;
}

static int write_setting(struct capture_buffer *b, const char *file, const char *value,
			 struct ta_error *err)
{
	if (tracefs_instance_file_write(b->inst, file, value) < 0)
		return error_set_errno(err, errno ? errno : EIO, "cannot write '%s' into '%s/%s'",
				       value, b->dir, file);
	return 0;
}

/* The recorded kmem events (event.h) of buffer b that want(kind) picks, enabled; how many. */
static int enable_events(struct capture_buffer *b, bool (*want)(unsigned kind),
			 struct ta_error *err)
{
	int enabled = 0;
	unsigned k;

	for (k = KMEM_KMALLOC; k <= KMEM_LAST_EVENT; k++) {
		const char *name = kmem_kind_name((enum kmem_kind)k);

		if (!kmem_is_recorded(k) || !want(k) ||
		    !tracefs_event_file_exists(b->inst, "kmem", name, "enable"))
			continue;
		if (tracefs_event_enable(b->inst, "kmem", name) < 0)
			return error_set_errno(err, errno ? errno : EIO, "cannot enable the event "
					       "kmem:%s in '%s'", name, b->dir);
		enabled++;
	}
	return enabled;
}

static bool kmem_is_slab_alloc_kind(unsigned kind)
{
	return kmem_is_slab_alloc(kind);
}

static bool kmem_is_slab_free_kind(unsigned kind)
{
	return kmem_is_slab_free(kind);
}

static bool is_page_alloc(unsigned kind)
{
	return kind == KMEM_PAGE_ALLOC;
}

static bool is_page_free(unsigned kind)
{
	return kmem_is_page(kind) && kind != KMEM_PAGE_ALLOC;
}

/* The events of buffer b: all chosen, or with a task filter its half of them. */
static int enable_buffer_events(struct capture *c, struct capture_buffer *b,
				struct ta_error *err)
{
	bool allocs = !c->by_task || !b->frees_only, frees = !c->by_task || b->frees_only;
	bool (*lists[4])(unsigned kind) = { NULL, NULL, NULL, NULL };
	int n = 0, r, i = 0;

	if ((c->cfg.events & CAPTURE_SLAB) && allocs)
		lists[i++] = kmem_is_slab_alloc_kind;
	if ((c->cfg.events & CAPTURE_SLAB) && frees)
		lists[i++] = kmem_is_slab_free_kind;
	if ((c->cfg.events & CAPTURE_PAGE) && allocs)
		lists[i++] = is_page_alloc;
	if ((c->cfg.events & CAPTURE_PAGE) && frees)
		lists[i++] = is_page_free;
	for (i = 0; i < 4 && lists[i]; i++) {
		if ((r = enable_events(b, lists[i], err)) < 0)
			return -1;
		n += r;
	}
	return n;
}

static int set_up_instance(struct capture *c, struct capture_buffer *b, struct ta_error *err)
{
	char value[32];
	int n;

	if (write_setting(b, "tracing_on", "0", err) < 0)
		return -1;
	snprintf(value, sizeof(value), "%u", c->cfg.buffer_kb);
	if (write_setting(b, "buffer_size_kb", value, err) < 0)
		return -1;
	/* CLOCK_MONOTONIC's: the CPUs' (and buffers') streams are merged against one clock */
	if (write_setting(b, "trace_clock", "mono", err) < 0)
		return -1;
	if ((n = enable_buffer_events(c, b, err)) < 0)
		return -1;
	if (n == 0)
		return error_set(err, "this kernel has no kmem events to record in '%s/events/kmem' "
				 "(CONFIG_TRACEPOINTS and the kmem trace events are needed)", b->dir);
	if (c->cfg.stacks && tracefs_option_enable(b->inst, TRACEFS_OPTION_STACKTRACE) < 0)
		return error_set_errno(err, errno ? errno : EIO, "cannot turn on stack traces in "
				       "'%s/options/stacktrace'", b->dir);
	return 0;
}

int capture_add_pid(struct capture *c, pid_t pid, struct ta_error *err)
{
	struct capture_buffer *b = &c->buf[0];	/* the allocations' */
	char value[32];

	if (!c->by_task)
		return error_set(err, "a task filter was not asked for when the capture was opened");
	if (!b->pid_filter) {
		/* only the tasks chosen now: the recorder (and the CMD it forked) is not left out */
		tracefs_instance_file_clear(b->inst, "set_event_notrace_pid");
		if (tracefs_option_enable(b->inst, TRACEFS_OPTION_EVENT_FORK) < 0)
			return error_set_errno(err, errno ? errno : EIO, "cannot turn on "
					       "'%s/options/event-fork'", b->dir);
		b->pid_filter = true;
	}
	snprintf(value, sizeof(value), "%ld", (long)pid);
	if (tracefs_instance_file_append(b->inst, "set_event_pid", value) < 0)
		return error_set_errno(err, errno ? errno : EIO, "cannot add pid %ld to '%s/"
				       "set_event_pid'", (long)pid, b->dir);
	return 0;
}

/*
 * The recorder's own events are not the workload's: in a buffer with no
 * pid filter, this thread is left out (set_event_notrace_pid, 5.8+; older
 * kernels record it) with event-fork on, so that the threads it starts
 * are left out from their first event.
 */
static void leave_out_this_process(struct capture_buffer *b)
{
	char value[32];

	if (b->pid_filter)
		return;
	snprintf(value, sizeof(value), "%ld", (long)gettid());
	if (tracefs_instance_file_write(b->inst, "set_event_notrace_pid", value) > 0)
		tracefs_option_enable(b->inst, TRACEFS_OPTION_EVENT_FORK);
}

int capture_instance_open(struct capture *c, struct ta_error *err)
{
	size_t i;
	int k;

	if (find_tracefs(c, err) < 0)
		return -1;
	tracefs_instances_walk(remove_if_orphaned, NULL);
	c->by_task = c->cfg.by_task || c->cfg.npids;
	c->nbufs = c->by_task ? 2 : 1;
	c->buf[1].frees_only = c->by_task;
	for (k = 0; k < c->nbufs; k++)
		if (make_instance(c, &c->buf[k], err) < 0 || set_up_instance(c, &c->buf[k], err) < 0)
			return -1;
	for (i = 0; i < c->cfg.npids; i++) {
		if (kill(c->cfg.pids[i], 0) < 0 && errno == ESRCH)
			return error_set(err, "there is no process %ld to record",
					 (long)c->cfg.pids[i]);
		if (capture_add_pid(c, c->cfg.pids[i], err) < 0)
			return -1;
	}
	/*
	 * The frees buffer takes record's frees too (dropped: it allocated
	 * nothing recorded): left out, CMD, which record forks, would be too.
	 */
	if (!c->by_task)
		leave_out_this_process(&c->buf[0]);
	if (c->cfg.forks) {
		char name[64];

		snprintf(name, sizeof(name), INSTANCE_PREFIX "%ld" FORKS_SUFFIX, (long)getpid());
		if (capture_forks_open(c, name, err) < 0)
			return -1;
	}
	return 0;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

void capture_instance_read_stats(struct capture *c, struct capture_stats *st)
{
	char file[64], *text;
	int cpu, k;

	for (k = 0; k < c->nbufs; k++)
		for (cpu = 0; cpu < c->ncpus; cpu++) {
			if (!c->buf[k].inst)
				continue;
			snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
			text = tracefs_instance_file_read(c->buf[k].inst, file, NULL);
			if (!text)
				continue;
			st->overrun += stat_value(text, "\noverrun:");	/* not "commit overrun:" */
			st->dropped += stat_value(text, "dropped events:");
			free(text);
		}
}

/*
 * Remove an instance. Its per-CPU files are closed by now, but the kernel
 * may drop their last reference a moment later (a splice still in flight
 * on a busy machine): rmdir then fails with EBUSY, so it is tried again
 * for up to a second before the instance is said to be left behind.
 */
static int destroy_instance(struct tracefs_instance *inst)
{
	struct timespec tick = { 0, 10000000l };
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (tracefs_instance_destroy(inst) == 0)
			return 0;
		if (errno != EBUSY)
			return -1;
		nanosleep(&tick, NULL);
	}
	return -1;
}

void capture_instance_close(struct capture *c)
{
	int k;

	for (k = 0; k < CAPTURE_BUFFERS; k++) {
		struct capture_buffer *b = &c->buf[k];

		if (b->inst) {
			tracefs_instance_file_write(b->inst, "tracing_on", "0");
			if (b->made_dir && destroy_instance(b->inst) < 0)
				warn("cannot remove the tracefs instance '%s': %s (rmdir it by hand)",
				     b->dir, strerror(errno));
			tracefs_instance_free(b->inst);
			b->inst = NULL;
		} else if (b->made_dir) {
			rmdir(b->dir);
		}
		b->made_dir = false;
	}
	capture_forks_close(c);
}

/*
 * The slab caches this kernel reclaims (/sys/kernel/slab/NAME/reclaim_account
 * is 1), as header lines RECLAIMABLE_HEADER " name name ..." of at most
 * about 160 characters, appended to buf[0..at); the new length. Aliases
 * (":a-0000104") are left out: events name caches by their names.
 */
static size_t add_reclaimable_lines(char *buf, size_t at, size_t size)
{
	const char *slab = test_slab_dir();
	size_t line_start = at;
	struct dirent **names = NULL;
	bool open_line = false;
	int i, count = scandir(slab, &names, NULL, alphasort);

	for (i = 0; i < count; i++) {
		const char *name = names[i]->d_name;
		char path[512], value[8] = "";
		size_t n = strlen(name);
		FILE *f;

		if (name[0] == '.' || name[0] == ':' || at + sizeof(RECLAIMABLE_HEADER) + n + 3 >= size)
			continue;
		snprintf(path, sizeof(path), "%s/%s/reclaim_account", slab, name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(value, sizeof(value), f))
			value[0] = '\0';
		fclose(f);
		if (value[0] != '1')
			continue;
		if (open_line && at - line_start + n + 1 > 160) {
			buf[at++] = '\n';
			open_line = false;
		}
		if (!open_line) {
			line_start = at;
			memcpy(buf + at, RECLAIMABLE_HEADER, sizeof(RECLAIMABLE_HEADER) - 1);
			at += sizeof(RECLAIMABLE_HEADER) - 1;
			open_line = true;
		}
		buf[at++] = ' ';
		memcpy(buf + at, name, n);
		at += n;
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	if (open_line)
		buf[at++] = '\n';
	buf[at] = '\0';
	return at;
}

size_t capture_header(const struct capture *c, char *buf, size_t size)
{
	struct utsname u;
	const char *release = uname(&u) == 0 ? u.release : "unknown";
	size_t at;
	int n;

	n = snprintf(buf, size,
		     "# tracer: nop\n"
		     "#\n"
		     "# trace_analyze record: kmem events (%s%s%s) of Linux %s, %d CPUs, "
		     "clock mono, buffer %u kB per CPU%s%s\n"
		     "#P:%d\n",
		     (c->cfg.events & CAPTURE_SLAB) ? "slab" : "",
		     c->cfg.events == CAPTURE_ALL ? " and " : "",
		     (c->cfg.events & CAPTURE_PAGE) ? "page" : "", release, c->ncpus,
		     c->cfg.buffer_kb, c->cfg.stacks ? ", stack traces" : "",
		     c->by_task ? ", allocations of chosen tasks and their children, frees of every "
				  "task (of what they allocated)" : "", c->ncpus);
	if (n < 0 || (size_t)n >= size)
		return n < 0 ? 0 : size - 1;
	at = add_reclaimable_lines(buf, (size_t)n, size);
	n = snprintf(buf + at, size - at,
		     "#\n"
		     "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		     "#              | |         |   |||||     |         |\n");
	return n < 0 ? at : at + (size_t)n < size ? at + (size_t)n : size - 1;
}

size_t capture_trailer(const struct capture_stats *st, char *buf, size_t size)
{
	int n = snprintf(buf, size,
			 "# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n"
			 "# trace_analyze record: %llu events read, %llu overrun, %llu dropped "
			 "(per-CPU stats)\n",
			 (unsigned long long)st->events,
			 (unsigned long long)(st->events + st->overrun + st->dropped), st->cpus,
			 (unsigned long long)st->events, (unsigned long long)st->overrun,
			 (unsigned long long)st->dropped);

	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
