/*
 * forks.c - the sched_process_fork events of a capture, as text (record's
 * LOG.forks): a tracefs instance of their own, trace_analyze-PID-forks,
 * with that one event on every task, on the capture's clock (mono), whose
 * trace_pipe a thread copies into a file as it comes, so that a task gone
 * before a pid map was taken is placed in its parent's cgroup
 * (taskcgroups.h). Its lifetime is the capture's: made with the others,
 * stopped, drained and removed with them on every way out.
 * Not here: parsing the lines (taskcgroups.c), the file's commit (record).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture_local.h"
#include "testhook.h"

int capture_forks_open(struct capture *c, const char *name, struct ta_error *err)
{
	struct capture_forks *f = &c->forks;

	snprintf(f->dir, sizeof(f->dir), "%s/instances/%s", c->tracing_dir, name);
	if (mkdir(f->dir, 0750) < 0)
		return error_set_errno(err, errno, "cannot make the tracefs instance '%s'", f->dir);
	f->made_dir = true;
	test_note_instance(name);
	f->inst = tracefs_instance_alloc(c->tracing_dir, name);
	if (!f->inst)
		return error_set_errno(err, errno, "cannot open the tracefs instance '%s'", f->dir);
	if (tracefs_instance_file_write(f->inst, "tracing_on", "0") < 0 ||
	    tracefs_instance_file_write(f->inst, "buffer_size_kb", "1024") < 0 ||
	    tracefs_instance_file_write(f->inst, "trace_clock", "mono") < 0)
		return error_set_errno(err, errno ? errno : EIO, "cannot set up '%s'", f->dir);
	if (!tracefs_event_file_exists(f->inst, "sched", "sched_process_fork", "enable")) {
		warn("this kernel has no sched:sched_process_fork event: no fork log");
		return 0;
	}
	if (tracefs_event_enable(f->inst, "sched", "sched_process_fork") < 0)
		return error_set_errno(err, errno ? errno : EIO, "cannot enable the event "
				       "sched:sched_process_fork in '%s'", f->dir);
	f->enabled = true;
	return 0;
}

/* every byte of buf[0..n) to fd; a failure is remembered, not fatal */
static void copy_out(struct capture_forks *f, const char *buf, size_t n)
{
	while (n && !f->write_failed) {
		ssize_t w = write(f->out_fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			f->write_errno = w < 0 ? errno : EIO;
			f->write_failed = true;
			return;
		}
		buf += w;
		n -= (size_t)w;
	}
}

/* Copy the pipe as it comes; once stopped, what is left in it, then end. */
static void *forks_main(void *arg)
{
	struct capture_forks *f = arg;
	char buf[65536];

	for (;;) {
		bool stopping = atomic_load(&f->stopping);
		struct pollfd p = { f->pipe_fd, POLLIN, 0 };
		ssize_t n;

		if (poll(&p, 1, stopping ? 0 : 100) < 0 && errno != EINTR)
			break;
		n = read(f->pipe_fd, buf, sizeof(buf));
		if (n > 0) {
			copy_out(f, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (stopping)
			break;	/* drained */
	}
	return NULL;
}

int capture_forks_start(struct capture *c, struct ta_error *err)
{
	struct capture_forks *f = &c->forks;
	char path[4200];

	if (!f->enabled)
		return 0;
	snprintf(path, sizeof(path), "%s/trace_pipe", f->dir);
	f->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->pipe_fd < 0)
		return error_set_errno(err, errno, "cannot open '%s'", path);
	f->out_fd = c->cfg.forks_fd;
	if (tracefs_instance_file_write(f->inst, "tracing_on", "1") < 0)
		return error_set_errno(err, errno ? errno : EIO, "cannot turn tracing on in '%s'",
				       f->dir);
	if (pthread_create(&f->thread, NULL, forks_main, f) != 0)
		return error_set(err, "cannot start the fork log's thread");
	f->started = true;
	return 0;
}

void capture_forks_stop(struct capture *c)
{
	struct capture_forks *f = &c->forks;

	if (f->inst && f->enabled)
		tracefs_instance_file_write(f->inst, "tracing_on", "0");
	atomic_store(&f->stopping, 1);
}

void capture_forks_join(struct capture *c)
{
	struct capture_forks *f = &c->forks;

	capture_forks_stop(c);
	if (f->started && !atomic_exchange(&f->joined, 1))
		pthread_join(f->thread, NULL);
}

void capture_forks_close(struct capture *c)
{
	struct capture_forks *f = &c->forks;
	struct timespec tick = { 0, 10000000l };
	int tries;

	if (f->pipe_fd >= 0)
		close(f->pipe_fd);
	f->pipe_fd = -1;
	if (f->inst) {
		for (tries = 0; tries < 100 && tracefs_instance_destroy(f->inst) < 0 &&
		     errno == EBUSY; tries++)
			nanosleep(&tick, NULL);
		if (tries == 100)
			warn("cannot remove the tracefs instance '%s' (rmdir it by hand)", f->dir);
		tracefs_instance_free(f->inst);
		f->inst = NULL;
	} else if (f->made_dir) {
		rmdir(f->dir);
	}
	f->made_dir = false;
}

int capture_forks_result(const struct capture *c, struct ta_error *err)
{
	if (c->forks.write_failed)
		return error_set_errno(err, c->forks.write_errno, "cannot write the fork log");
	return 0;
}
