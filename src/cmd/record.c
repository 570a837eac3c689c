/*
 * record.c - trace_analyze record: kmem events captured from the running
 * kernel (capture.h) and, while they come, written as a tracefs text log
 * (-o) and passed through the same analysis as `trace_analyze -f`: every
 * report option of the bare command is taken and written at the end.
 *
 * Threads: the capture's reader and formatter; a controller that ends the
 * capture when CMD exits, --duration passes, or a signal comes (the first
 * SIGINT, SIGTERM or SIGHUP drains, a second SIGINT aborts); the main
 * thread runs the analysis on a pipe the formatter feeds.
 * The tracefs instance is removed on every way out but SIGKILL (and the
 * next run removes what a SIGKILL left).
 *
 * Not here: tracefs (capture), parsing or reports (pipeline).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "allocinfo.h"
#include "allocsnap.h"
#include "capture.h"
#include "commands.h"
#include "datout.h"
#include "forkgate.h"
#include "error.h"
#include "options.h"
#include "outfile.h"
#include "pipeline.h"
#include "snapshot_take.h"
#include "testhook.h"

static const char usage_line[] =
	"usage: trace_analyze record [-o LOG] [--stacks] [--buffer-kb N]\n"
	"                            [--events slab|page|all] [--duration S] [--linger S] [--pid P,...]\n"
	"                            [--allocinfo [--interval S]]\n"
	"                            [analysis options: --save-db DB, -c FILE, --summary FILE,\n"
	"                            --order-by KEY, -k DIR, ...] [-- CMD [ARGS...]]\n";

static const struct po_command record_command = {
	.name = "record",
	.usage = usage_line,
	.about = "Record kmem events from the running kernel through a tracefs instance of\n"
		 "its own (instances/trace_analyze-PID; the global trace buffer and its\n"
		 "settings are never touched), write them as a tracefs text log, and run\n"
		 "the analysis on them as they come. Needs root (or CAP_PERFMON/\n"
		 "CAP_SYS_ADMIN). Ends when CMD exits, after --duration, or on Ctrl-C (CMD,\n"
		 "if it still runs, is sent SIGTERM; the buffer is drained; a second Ctrl-C\n"
		 "abandons the recording at once, writing nothing). With CMD or --pid, the\n"
		 "tasks' allocations are recorded, and the frees of them by every task.\n",
	.epilog = "Every option of the analysis but -f and --db-file is taken and applies to\n"
		  "the events recorded; -o is the log here, so the sort key is --order-by KEY.\n"
		  "The summary is printed at the end unless -q. See 'trace_analyze --help'.\n",
	.arguments = true,
	.stop_at_argument = true,
};

#define CHILD_GRACE_S 3.0	/* CMD's time to end after SIGTERM, then SIGKILL */
#define LINGER_DEFAULT_NS 1000000000ull	/* --linger: see the option's help and the man page */

struct record_args {
	struct capture_config cfg;
	struct po_pids pids;
	const char *log_path;	/* -o */
	uint64_t duration_ns;	/* 0: none */
	uint64_t linger_ns;	/* --linger: frees recorded this long after CMD exits */
	bool allocinfo;		/* --allocinfo: /proc/allocinfo snapshots beside the log */
	uint64_t interval_ns;	/* --interval: and one every so often; 0: start and end */
	char allocinfo_path[4096];	/* LOG.allocinfo */
	char **cmd;		/* after "--": NULL when none */
	struct analysis_args analysis;
	struct po_option *table;	/* record's options, then the analysis' */
	int events;		/* --events: po_events_names' index, -1: all */
};

struct recording {
	struct record_args *args;
	struct capture *capture;
	struct outfile log;
	bool have_log;
	struct capture_text text;	/* the log's text not written yet */
	struct dat_writer *dat;		/* -o FILE.dat: the log is a trace.dat */
	bool dat_log;			/* (kept when dat is freed) */
	off_t log_bytes;	/* written to it, in whole pieces of lines */
	off_t log_warned_at;	/* the size the last "passed N GB" warning was at */
	uint64_t dat_items;	/* records into a trace.dat: its size looked at every 64 k */
	bool log_full;		/* its file system filled: cut back to log_bytes */
	bool dat_full;		/* a trace.dat's file system filled: nothing kept */
	atomic_int log_stopped;	/* it cannot be written: the recording stops */
	char header[1024 + RECLAIMABLE_LIST_MAX * 2];	/* capture_header: lines and list */
	size_t header_bytes;
	char trailer[512];
	pid_t child;		/* CMD, or 0 */
	int child_status;
	bool child_done;
	bool child_terminated;	/* sent SIGTERM when the recording stopped */
	bool child_killed;	/* and SIGKILL after CHILD_GRACE_S */
	sig_atomic_t signals_at_stop;	/* any signal after these abandons the recording */
	struct capture_stats stats;
	struct ta_error error;
	bool failed;
	bool stopped_by_signal;
	atomic_int analysis_ended;	/* pipeline_run returned */
	struct allocinfo_saver snapshots;	/* --allocinfo, used by the controller */
	/* the kernel snapshots at the start and the end, beside a log file: where, taken */
	char ksnap_final[2][4096], ksnap_tmp[2][4096];
	bool ksnap_taken[2];
	/* LOG.forks: every task's sched_process_fork, for --group-by cgroup */
	bool log_is_a_file;		/* a regular file: LOG.forks, LOG.snapshot-* beside it */
	struct outfile forks;
	bool have_forks;
	bool forks_failed;		/* the capture could not write it */
	struct ta_error forks_error;
	char forks_path[4096];
	bool snapshot_failed;
	struct ta_error snapshot_error;
	pthread_t controller;
	bool controller_started;
};

/* Signals: counted by the handler, acted on by the controller. */
static volatile sig_atomic_t signals_seen, interrupts_seen, last_signal;

static void note_signal(int sig)
{
	signals_seen++;
	last_signal = sig;
	if (sig == SIGINT)
		interrupts_seen++;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a write to a closed pipe is an error returned */
}

/* record's options, then the bare command's (record_args.table). */
static struct po_option *record_option_table(struct record_args *a)
{
	const struct po_option own[] = {
		OPT_GROUP("Recording"),
		OPT_OUTPUT('o', "output", &a->log_path, "LOG",
			   "write the events as a tracefs text log ('-' = standard output), "
			   "readable by trace_analyze -f and other ftrace tools, or as a trace.dat "
			   "when LOG ends in .dat (-o is the sort key in the bare command; here it "
			   "is the log, as in perf record)"),
		OPT_STACKS(&a->cfg.stacks),
		OPT_BUFFER_KB(&a->cfg.buffer_kb),
		OPT_EVENTS(&a->events),
		OPT_SECONDS(0, "duration", &a->duration_ns, "S", 1, "seconds (e.g. 2.5)",
			    "stop after S seconds"),
		OPT_SECONDS(0, "linger", &a->linger_ns, "S", 0, "seconds (e.g. 0.5; 0: none)",
			    "after CMD exits, record S seconds more of the frees of what it "
			    "allocated (RCU callbacks, kworkers), no allocations (default 1)"),
		OPT_PID(&a->pids),
		OPT_FLAG(0, "allocinfo", &a->allocinfo,
			 "save /proc/allocinfo snapshots at the start and the end (and every "
			 "--interval) into LOG.allocinfo, beside the log (-o LOG)"),
		OPT_SECONDS(0, "interval", &a->interval_ns, "S", 1, "seconds (e.g. 10)",
			    "with --allocinfo: a snapshot every S seconds too"),
		OPT_HELP(),
		OPT_END(),
	};
	struct po_option *analysis = analysis_option_table(&a->analysis, true), *t;

	t = po_concat(own, analysis);
	free(analysis);
	return t;
}

static int parse_record_options(int argc, char **argv, struct record_args *a)
{
	struct options *opts = &a->analysis.opts;
	int status, rest;

	memset(a, 0, sizeof(*a));
	a->events = -1;
	a->linger_ns = LINGER_DEFAULT_NS;
	analysis_args_init(&a->analysis);
	a->table = record_option_table(a);
	status = po_parse(&record_command, a->table, argc, argv, &rest);
	if (status < 0)
		status = analysis_args_finish(&record_command, &a->analysis);
	if (status >= 0)
		return status;
	if (rest < argc)
		a->cmd = argv + rest;
	if (a->interval_ns && !a->allocinfo)
		return po_usage_error(&record_command, "%s", "--interval spaces --allocinfo's "
				      "snapshots: give that too");
	if (a->allocinfo && (!a->log_path || strcmp(a->log_path, "-") == 0))
		return po_usage_error(&record_command, "%s", "--allocinfo saves its snapshots "
				      "beside the log, as LOG.allocinfo: give -o LOG (a file)");
	if (a->allocinfo)
		snprintf(a->allocinfo_path, sizeof(a->allocinfo_path), "%s.allocinfo", a->log_path);
	a->cfg.events = po_events_of_choice(a->events, CAPTURE_ALL);
	a->cfg.pids = a->pids.pid;
	a->cfg.npids = a->pids.count;
	opts->req.log_path = a->log_path && strcmp(a->log_path, "-") != 0 ? a->log_path : "capture";
	if (!opts->req.threads)
		opts->req.threads = 1;	/* the other core is the traced workload's and the capture's */
	/* no report asked for, the log not on standard output: perf kmem stat's answer */
	opts->record_brief = !options_ask_for_an_output(opts) && !opts->req.quiet &&
			     opts->format == FORMAT_TEXT &&
			     !(a->log_path && strcmp(a->log_path, "-") == 0);
	return analysis_args_check(&record_command, a->table, &a->analysis);
}

static void release_args(struct record_args *a)
{
	free(a->table);
	a->table = NULL;
}

/* ---- the sink: text to the log and to the analysis ---- */

/* Write p[0..n) whole; -1 on failure with *done (if given) the bytes written before. */
static int write_all(int fd, const char *p, size_t n, size_t *done)
{
	size_t total = n;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			if (done)
				*done = total - n;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The length of text[0..len)'s whole lines. */
static size_t whole_lines(const char *text, size_t len)
{
	while (len && text[len - 1] != '\n')
		len--;
	return len;
}

static bool is_no_space(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EFBIG;
}

#define LOG_FLUSH (256u << 10)	/* the log is written in pieces of this size */
#define FREE_WARN_PCT 10		/* ... and when its file system has less free */

/* A warning when the log's file system has less than FREE_WARN_PCT % free. */
static void warn_if_the_disk_is_nearly_full(const struct recording *r)
{
	struct statvfs v;
	double free_pct;

	if (fstatvfs(r->log.fd, &v) < 0 || !v.f_blocks)
		return;
	free_pct = 100.0 * (double)v.f_bavail / (double)v.f_blocks;
	if (free_pct < FREE_WARN_PCT)
		warn("the file system of '%s' has %.1f%% free (%.1f MB): the recording stops "
		     "when it fills", r->args->log_path, free_pct,
		     (double)v.f_bavail * (double)v.f_frsize / 1e6);
}

/* Each time the log passes another GB: say so, and look at the free space again. */
static void watch_the_log_size(struct recording *r, off_t size)
{
	long long gb = test_gigabyte();

	if (size / gb <= r->log_warned_at / gb)
		return;
	r->log_warned_at = size;
	warn("'%s' has passed %lld GB (%.2f GB; -q stops these warnings)", r->args->log_path,
	     (long long)(size / gb), (double)size / (double)gb);
	warn_if_the_disk_is_nearly_full(r);
}

/*
 * The log's text so far, to its file. A full file system: the log is cut
 * back to the last whole line written (a valid log), and the recording
 * stops there.
 */
static int flush_log(struct recording *r, struct ta_error *err)
{
	size_t done = 0, len = r->text.len;

	r->text.len = 0;
	if (!len)
		return 0;
	if (write_all(r->log.fd, r->text.text, len, &done) < 0) {
		int e = errno ? errno : EIO;

		done = whole_lines(r->text.text, done);
		if (is_no_space(e) && r->log.tmp_path &&
		    ftruncate(r->log.fd, r->log_bytes + (off_t)done) == 0) {
			r->log_full = true;
			r->log_bytes += (off_t)done;
		}
		return error_set_errno(err, e, "cannot write '%s'", outfile_display_name(&r->log));
	}
	r->log_bytes += (off_t)len;
	if (!r->args->analysis.opts.req.quiet)
		watch_the_log_size(r, r->log_bytes);
	return 0;
}

/*
 * A trace.dat could not be written (errno e): a full file system is said
 * as for a text log, naming the file; the trace.dat is not kept (it is
 * valid only once finished, and finishing it writes more).
 */
static void dat_failed(struct recording *r, int e, struct ta_error *err)
{
	if (is_no_space(e)) {
		r->dat_full = true;
		error_set_errno(err, e, "cannot write '%s'", outfile_display_name(&r->log));
	}
}

/* The log cannot be written: the recording stops (the controller sees it). */
static void log_failed(struct recording *r, const struct ta_error *err)
{
	if (!r->failed) {
		r->error = *err;
		r->failed = true;
	}
	atomic_store(&r->log_stopped, 1);
	capture_stop(r->capture);
}

/* The engine's on_item: the record into the log; the lines it made there (0: no log). */
static size_t log_item(void *ctx, const struct capture_item *it)
{
	struct recording *r = ctx;
	struct ta_error err;
	size_t lines;

	if (!r->have_log)
		return 0;
	if (r->dat) {	/* a trace.dat: lines as trace-cmd report prints it, counted by the engine */
		struct stat st;

		if (!atomic_load(&r->log_stopped) && dat_writer_add(r->dat, it, &err) < 0) {
			dat_failed(r, errno, &err);
			log_failed(r, &err);
		}
		if (++r->dat_items % 65536 == 0 && !r->args->analysis.opts.req.quiet &&
		    fstat(r->log.fd, &st) == 0)
			watch_the_log_size(r, st.st_size);
		return 0;
	}
	lines = capture_format(r->capture, it, &r->text);
	if (!atomic_load(&r->log_stopped) && r->text.len >= LOG_FLUSH && flush_log(r, &err) < 0)
		log_failed(r, &err);
	if (atomic_load(&r->log_stopped))
		r->text.len = 0;	/* not written any more; counted all the same */
	return lines;
}

/*
 * A trace.dat's kallsyms name module symbols; LOG.modules beside it, a
 * copy of /proc/modules taken as they are, says where each module lay, so
 * that reading it with --modules names an address after a module only
 * inside it. None when no module is loaded. A failure is said, not fatal:
 * the trace.dat is whole without it.
 */
static void save_modules_beside(struct recording *r)
{
	char path[4096 + 16], buf[1 << 16];
	struct ta_error err;
	struct outfile out;
	int fd = open(test_modules_path(), O_RDONLY | O_CLOEXEC), rc = 0;
	size_t total = 0;
	ssize_t n;

	if (fd < 0)
		return;
	snprintf(path, sizeof(path), "%s.modules", r->args->log_path);
	if (outfile_open(&out, path, &err) < 0) {
		close(fd);
		warn("%s", err.msg);
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = error_set_errno(&err, errno, "cannot read '%s'", test_modules_path());
			break;
		}
		fwrite(buf, 1, (size_t)n, outfile_stream(&out));
		total += (size_t)n;
	}
	close(fd);
	if (rc == 0 && !total) {	/* no module loaded: nothing to place */
		outfile_abort(&out);
		return;
	}
	if (outfile_finish(&out, rc, &err) < 0)
		warn("%s", err.msg);
}

/*
 * The engine's on_end, once the capture is drained: the log's last text
 * and its trailer written, the per-CPU stats read, the instances removed
 * (before any report is written).
 */
static int end_of_capture(void *ctx, const char **trailer, struct ta_error *err)
{
	struct recording *r = ctx;
	struct ta_error e;
	size_t n;

	(void)err;
	if (capture_finish(r->capture, &r->stats, &e) < 0 && !r->failed) {
		r->error = e;
		r->failed = true;
	}
	capture_release_instances(r->capture);
	n = capture_trailer(&r->stats, r->trailer, sizeof(r->trailer));
	*trailer = r->trailer;	/* the engine reads it: the ring buffer's counts */
	if (r->dat) {	/* not written: trace-cmd report prints none */
		if (!atomic_load(&r->log_stopped) && dat_writer_finish(r->dat, r->log.fd, &e) < 0) {
			dat_failed(r, errno, &e);
			log_failed(r, &e);
		} else if (!atomic_load(&r->log_stopped)) {
			save_modules_beside(r);
		}
		return 0;
	}
	if (r->have_log && !atomic_load(&r->log_stopped)) {
		if (r->text.len + n > r->text.cap) {
			r->text.cap = r->text.len + n;
			r->text.text = xrealloc(r->text.text, r->text.cap);
		}
		memcpy(r->text.text + r->text.len, r->trailer, n);
		r->text.len += n;
		if (flush_log(r, &e) < 0)
			log_failed(r, &e);
	}
	return 0;
}

/* The engine's log_bytes: the text written, or the trace.dat's size. */
static uint64_t bytes_of_the_log(void *ctx)
{
	struct recording *r = ctx;
	struct stat st;

	if (!r->have_log)
		return 0;
	if (r->dat)
		return fstat(r->log.fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	return (uint64_t)r->log_bytes;
}

/* ---- CMD ---- */

/*
 * Fork CMD stopped on a pipe until the capture runs, so that its first
 * allocation is recorded; an exec failure comes back through a second pipe.
 */
/*
 * Descriptors open when record started are the user's, and CMD inherits
 * them as a shell would give them; every one opened since is ours (tracefs,
 * outputs, pipes), and CMD must hold none, or the instance cannot be
 * removed while CMD lives. Ours are opened O_CLOEXEC; this catches any a
 * library opened without it.
 */
#define FD_SEEN_MAX 1024
static unsigned char inherited_fd[FD_SEEN_MAX];

/*
 * The same for signals: record catches SIGINT, SIGTERM and SIGHUP, ignores
 * SIGPIPE and (through outfile.c) SIGXFSZ, and may block some while it
 * writes. CMD gets every disposition and the mask as record was given
 * them, as a shell would: under nohup CMD ignores SIGHUP, in a background
 * job SIGINT. (Caught ones were none: a new process catches nothing.)
 */
#define SIGNALS_NOTED 32
static struct sigaction inherited_action[SIGNALS_NOTED];
static sigset_t inherited_mask;

static void note_inherited_signals(void)
{
	int sig;

	for (sig = 1; sig < SIGNALS_NOTED; sig++)
		sigaction(sig, NULL, &inherited_action[sig]);	/* SIGKILL, SIGSTOP: unchanged */
	sigprocmask(SIG_SETMASK, NULL, &inherited_mask);
}

/* In the child, before exec. */
static void give_back_inherited_signals(void)
{
	int sig;

	for (sig = 1; sig < SIGNALS_NOTED; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &inherited_action[sig], NULL);
	sigprocmask(SIG_SETMASK, &inherited_mask, NULL);
}

static void note_inherited_descriptors(void)
{
	int fd;

	for (fd = 0; fd < FD_SEEN_MAX; fd++)
		inherited_fd[fd] = fcntl(fd, F_GETFD) >= 0;
}

/* In the child, before exec: what record opened does not cross it. */
static void keep_ours_from_the_command(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] == '.' || fd == dirfd(d) || (fd < FD_SEEN_MAX && inherited_fd[fd]))
			continue;
		fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
	}
	closedir(d);
}

static int start_child(struct recording *r, int *go_fd, int *exec_fd, struct ta_error *err)
{
	int go[2], ex[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0)
		return error_set_errno(err, errno, "cannot make a pipe for '%s'", r->args->cmd[0]);
	pid = fork_when_quiet();	/* its child reads /proc/self/fd (malloc) before the exec */
	if (pid < 0)
		return error_set_errno(err, errno, "cannot start '%s'", r->args->cmd[0]);
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(ex[0]);
		keep_ours_from_the_command();
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the recording failed before it started */
		give_back_inherited_signals();
		execvp(r->args->cmd[0], r->args->cmd);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	r->child = pid;
	*go_fd = go[1];
	*exec_fd = ex[0];
	return 0;
}

/* Let CMD go; -1 with err when it could not be run. */
static int release_child(struct recording *r, int go_fd, int exec_fd, struct ta_error *err)
{
	int e = 0;
	ssize_t n;

	n = write(go_fd, "g", 1);
	close(go_fd);
	if (n != 1)
		return error_set_errno(err, errno, "cannot start '%s'", r->args->cmd[0]);
	do
		n = read(exec_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(exec_fd);
	if (n == sizeof(e)) {
		waitpid(r->child, NULL, 0);
		r->child = 0;
		return error_set_errno(err, e, "cannot run '%s'", r->args->cmd[0]);
	}
	return 0;
}

static bool child_has_ended(struct recording *r)
{
	if (!r->child || r->child_done)
		return r->child_done;
	if (waitpid(r->child, &r->child_status, WNOHANG) == r->child)
		r->child_done = true;
	return r->child_done;
}

static void say_how_child_ended(const struct recording *r)
{
	if (!r->child_done)
		return;
	if (r->child_killed) {
		warn("'%s' did not end within %.0f s of SIGTERM when the recording stopped: killed",
		     r->args->cmd[0], CHILD_GRACE_S);
	} else if (r->child_terminated) {
		if (!r->args->analysis.opts.req.quiet)
			fprintf(stderr, "trace_analyze: '%s' was still running when the recording "
				"stopped: sent SIGTERM\n", r->args->cmd[0]);
	} else if (WIFSIGNALED(r->child_status))
		warn("'%s' was killed by signal %d (%s)", r->args->cmd[0],
		     WTERMSIG(r->child_status), strsignal(WTERMSIG(r->child_status)));
	else if (WIFEXITED(r->child_status) && WEXITSTATUS(r->child_status))
		warn("'%s' exited with status %d", r->args->cmd[0], WEXITSTATUS(r->child_status));
}

/* ---- the kernel snapshots beside the log (LOG.snapshot-start, LOG.snapshot-end) ---- */

enum { AT_START, AT_END };

/*
 * Is the log a file things can lie beside (not standard output, a device
 * or a FIFO: record -o /dev/null makes no /dev/null.forks)?
 */
static bool log_is_a_file(const char *log)
{
	struct stat st;

	if (!log || strcmp(log, "-") == 0)
		return false;
	return stat(log, &st) < 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

#define SNAPSHOT_ROOM_MB 64	/* a snapshot is some 1 MB; the log comes first */

/* Has the log's file system room for a snapshot beside it, the log not short of any? */
static bool room_for_a_snapshot(const struct recording *r)
{
	struct statvfs v;

	if (!r->have_log || fstatvfs(r->log.fd, &v) < 0 || !v.f_blocks)
		return true;
	return 100.0 * (double)v.f_bavail / (double)v.f_blocks >= FREE_WARN_PCT &&
	       (double)v.f_bavail * (double)v.f_frsize >= SNAPSHOT_ROOM_MB * 1e6;
}

/* One, at the start or the end; none when the log is no file. Failing is a warning. */
static void take_kernel_snapshot(struct recording *r, int at)
{
	const char *log = r->args->log_path;
	struct ta_error err;

	if (!r->log_is_a_file)
		return;
	if (!room_for_a_snapshot(r)) {	/* a snapshot must not cost the trace */
		if (!r->args->analysis.opts.req.quiet)
			warn("no kernel snapshot at the %s: the file system of '%s' is nearly full "
			     "(under %d%% or %d MB free): the log comes first",
			     at == AT_START ? "start" : "end", log, FREE_WARN_PCT, SNAPSHOT_ROOM_MB);
		return;
	}
	snprintf(r->ksnap_final[at], sizeof(r->ksnap_final[at]), "%s.snapshot-%s", log,
		 at == AT_START ? "start" : "end");
	if (snapshot_take_beside(r->ksnap_final[at], test_snapshot_root(), r->ksnap_tmp[at],
				 sizeof(r->ksnap_tmp[at]), &err) < 0)
		warn("no kernel snapshot at the %s: %s", at == AT_START ? "start" : "end", err.msg);
	else
		r->ksnap_taken[at] = true;
}

/* LOG.forks beside a log file: the capture writes its fork events there. */
static int open_fork_log(struct recording *r, struct ta_error *err)
{
	struct record_args *a = r->args;

	if (!r->log_is_a_file)
		return 0;
	snprintf(r->forks_path, sizeof(r->forks_path), "%s.forks", a->log_path);
	if (outfile_open(&r->forks, r->forks_path, err) < 0)
		return -1;
	r->have_forks = true;
	a->cfg.forks = true;
	a->cfg.forks_fd = r->forks.fd;
	return 0;
}

/* The log was kept: the fork log too (an error writing it is a warning). */
static void keep_fork_log(struct recording *r)
{
	struct ta_error err;

	if (!r->have_forks)
		return;
	r->have_forks = false;
	if (r->forks_failed)
		err = r->forks_error;
	if (r->forks_failed || outfile_commit(&r->forks, false, &err) < 0) {
		warn("%s: no fork log '%s' (--group-by cgroup places fewer tasks)", err.msg,
		     r->forks_path);
		outfile_abort(&r->forks);
	}
}

static void drop_fork_log(struct recording *r)
{
	if (r->have_forks)
		outfile_abort(&r->forks);
	r->have_forks = false;
}

/* The log was kept: the snapshots beside it too; a failure is said and the log stays. */
static void keep_kernel_snapshots(struct recording *r)
{
	bool kept[2] = { false, false };
	struct ta_error err;
	int at;

	for (at = AT_START; at <= AT_END; at++)
		if (r->ksnap_taken[at]) {
			if (snapshot_commit(r->ksnap_tmp[at], r->ksnap_final[at], &err) < 0)
				warn("%s", err.msg);
			else
				kept[at] = true;
			r->ksnap_taken[at] = false;
		}
	if (kept[AT_START] && kept[AT_END] && !r->args->analysis.opts.req.quiet)
		fprintf(stderr, "trace_analyze: kernel snapshots at the start and the end in '%s' "
			"and '%s' (their ledger: trace_analyze -f %s %s --ledger -)\n",
			r->ksnap_final[AT_START], r->ksnap_final[AT_END], r->ksnap_final[AT_START],
			r->ksnap_final[AT_END]);
}

/* Nothing kept: the snapshots taken go too. */
static void drop_kernel_snapshots(struct recording *r)
{
	int at;

	for (at = AT_START; at <= AT_END; at++)
		if (r->ksnap_taken[at]) {
			snapshot_remove(r->ksnap_tmp[at]);
			r->ksnap_taken[at] = false;
		}
}

/* ---- the controller ---- */

/* A second Ctrl-C: nothing is written, the instances go, the exit is 128 + the signal. */
static void abort_recording(struct recording *r)
{
	capture_release_instances(r->capture);
	outfile_remove_temporaries();
	drop_kernel_snapshots(r);
	if (r->child && !r->child_done)	/* SIGKILL if it had its SIGTERM already */
		kill(r->child, r->child_terminated ? SIGKILL : SIGTERM);
	fputs("\ntrace_analyze: interrupted: the recording was abandoned, nothing written\n",
	      stderr);
	_exit(128 + (last_signal ? last_signal : SIGINT));
}

/* Signals that come while record ends: a second Ctrl-C, or any once it writes. */
static void abort_if_told_again(struct recording *r, sig_atomic_t seen)
{
	if (interrupts_seen >= 2 || (seen >= 0 && signals_seen != seen))
		abort_recording(r);
}

/*
 * CMD has ended: with --linger, its allocations are no longer recorded but
 * the frees of every task are, for that long (a signal or --duration ends
 * it sooner), so that what CMD's RCU callbacks and kworkers free is seen.
 */
static void linger_after_the_command(struct recording *r, double until)
{
	struct timespec tick = { 0, 20000000l };
	double end = analysis_clock() + r->args->linger_ns / 1e9;

	if (!r->args->linger_ns || capture_stop_allocations(r->capture) < 0)
		return;
	while (analysis_clock() < end && (!until || analysis_clock() < until)) {
		abort_if_told_again(r, -1);
		if (signals_seen) {
			r->stopped_by_signal = true;
			return;
		}
		if (capture_failed(r->capture) || atomic_load(&r->analysis_ended) ||
		    atomic_load(&r->log_stopped))
			return;
		nanosleep(&tick, NULL);
	}
}

/* --allocinfo: a snapshot now; a failure ends the snapshots, not the recording. */
static void take_snapshot(struct recording *r)
{
	if (r->snapshot_failed || !r->snapshots.open)
		return;
	if (allocinfo_saver_take(&r->snapshots, &r->snapshot_error) < 0)
		r->snapshot_failed = true;
}

/* --interval: when the next snapshot is due (0: none). */
static double next_snapshot_after(const struct recording *r, double now)
{
	return r->args->interval_ns && r->snapshots.open ? now + r->args->interval_ns / 1e9 : 0;
}

static void wait_for_the_end(struct recording *r)
{
	struct timespec tick = { 0, 20000000l };
	double until = r->args->duration_ns ? analysis_clock() + r->args->duration_ns / 1e9 : 0;
	double snapshot_at = next_snapshot_after(r, analysis_clock());

	test_pause_point("record-running");
	for (;;) {
		abort_if_told_again(r, -1);
		if (signals_seen) {
			r->stopped_by_signal = true;
			break;
		}
		if (child_has_ended(r)) {
			linger_after_the_command(r, until);
			break;
		}
		if (capture_failed(r->capture) || atomic_load(&r->analysis_ended) ||
		    atomic_load(&r->log_stopped))
			break;
		if (until && analysis_clock() >= until)
			break;
		if (snapshot_at && analysis_clock() >= snapshot_at) {
			take_snapshot(r);
			snapshot_at = next_snapshot_after(r, analysis_clock());
		}
		nanosleep(&tick, NULL);
	}
	r->signals_at_stop = signals_seen;
	test_pause_point("record-stopping");
}

/*
 * CMD still running when the recording stops (a signal, --duration, a
 * failure) is sent SIGTERM, as perf record does, and given CHILD_GRACE_S
 * to end; then SIGKILL. A second signal meanwhile abandons the recording.
 */
static void end_the_command(struct recording *r)
{
	struct timespec tick = { 0, 10000000l };
	double deadline;

	if (!r->child || child_has_ended(r))
		return;
	kill(r->child, SIGTERM);
	r->child_terminated = true;
	test_pause_point("record-child-grace");
	deadline = analysis_clock() + CHILD_GRACE_S;
	while (!child_has_ended(r)) {
		abort_if_told_again(r, r->signals_at_stop);
		if (analysis_clock() >= deadline) {
			kill(r->child, SIGKILL);
			if (waitpid(r->child, &r->child_status, 0) == r->child)
				r->child_done = true;
			r->child_killed = true;
			break;
		}
		nanosleep(&tick, NULL);
	}
}

static void *controller_main(void *arg)
{
	struct recording *r = arg;
	struct timespec tick = { 0, 20000000l };
	sig_atomic_t seen;

	wait_for_the_end(r);
	capture_stop(r->capture);	/* tracing off first: nothing CMD does now is recorded */
	take_snapshot(r);		/* --allocinfo: the end's */
	take_kernel_snapshot(r, AT_END);
	end_the_command(r);
	/*
	 * The engine drains the buffers, then removes the instances. A signal
	 * meanwhile, or while the reports are written, abandons everything, the
	 * log too (it is committed last): a second Ctrl-C writes nothing.
	 */
	seen = r->signals_at_stop;
	while (!atomic_load(&r->analysis_ended)) {
		if (signals_seen != seen || interrupts_seen >= 2)
			abort_recording(r);
		nanosleep(&tick, NULL);
	}
	return NULL;
}

/* ---- the command ---- */

static void report_capture(const struct recording *r)
{
	const struct capture_stats *st = &r->stats;
	uint64_t lost = st->overrun + st->dropped;

	if (r->args->analysis.opts.req.quiet && !lost)
		return;
	if (r->dat_log)
		fprintf(stderr, "trace_analyze: recorded %llu event%s on %d CPUs in %.1f s into the "
			"trace.dat '%s'; %llu lost\n", (unsigned long long)st->events,
			plural(st->events), st->cpus, st->seconds, r->args->log_path,
			(unsigned long long)lost);
	else if (r->have_log)
		fprintf(stderr, "trace_analyze: recorded %llu event%s (%.1f MB of text) on %d CPUs "
			"in %.1f s into '%s'; %llu lost\n", (unsigned long long)st->events,
			plural(st->events), (double)r->log_bytes / 1e6, st->cpus, st->seconds,
			r->args->log_path, (unsigned long long)lost);
	else
		fprintf(stderr, "trace_analyze: recorded %llu event%s on %d CPUs in %.1f s; %llu "
			"lost\n", (unsigned long long)st->events, plural(st->events), st->cpus,
			st->seconds, (unsigned long long)lost);
	if (r->args->cfg.by_task && !r->args->analysis.opts.req.quiet)
		fprintf(stderr, "trace_analyze: the chosen tasks' allocations, and the frees of them "
			"by any task: %llu kept, %llu frees of other objects dropped\n",
			(unsigned long long)st->frees_kept, (unsigned long long)st->frees_dropped);
	if (lost)
		warn("%llu events were lost (%llu overwritten before they were read, %llu dropped): "
		     "give a bigger --buffer-kb (it was %u) or record fewer events (--events slab, "
		     "--pid)", (unsigned long long)lost, (unsigned long long)st->overrun,
		     (unsigned long long)st->dropped, r->args->cfg.buffer_kb ? r->args->cfg.buffer_kb
									     : 8192);
}

/* -o FILE.dat: the log is written as a trace.dat, any other name as text. */
static bool is_dat_name(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && strcasecmp(path + n - 4, ".dat") == 0;
}

/* --allocinfo: the file made and the start's snapshot taken, or said why there is none. */
static int start_snapshots(struct recording *r, struct ta_error *err)
{
	int rc = allocinfo_saver_open(&r->snapshots, r->args->allocinfo_path, err);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		fprintf(stderr, "trace_analyze: warning: --allocinfo: '%s' does not exist (%s): no "
			"snapshot saved\n", r->snapshots.source, ALLOCINFO_MISSING_WHY);
		return 0;
	}
	return allocinfo_saver_take(&r->snapshots, err);
}

static int start_recording(struct recording *r, struct ta_error *err)
{
	struct record_args *a = r->args;
	int go = -1, ex = -1;
	size_t n;

	if (a->log_path) {
		r->log_is_a_file = log_is_a_file(a->log_path);	/* before it is made */
		if (outfile_open(&r->log, a->log_path, err) < 0)
			return -1;
		r->have_log = true;
		if (open_fork_log(r, err) < 0)
			return -1;
		if (!a->analysis.opts.req.quiet)
			warn_if_the_disk_is_nearly_full(r);
	}
	a->cfg.by_task = a->cmd || a->cfg.npids;	/* its allocations; every task's frees */
	if (capture_open(&r->capture, &a->cfg, err) < 0)
		return -1;
	if (a->cmd && (start_child(r, &go, &ex, err) < 0 ||
		       capture_add_pid(r->capture, r->child, err) < 0))
		return -1;
	n = capture_header(r->capture, r->header, sizeof(r->header));	/* after the pid filter */
	r->header_bytes = n;
	if (r->have_log && is_dat_name(a->log_path)) {
		/* a trace.dat: the lines trace-cmd report gives it begin with "cpus=N" */
		snprintf(r->header, sizeof(r->header), "cpus=%ld\n", sysconf(_SC_NPROCESSORS_CONF));
		r->dat_log = true;
		if (dat_writer_open(&r->dat, r->capture, a->log_path, err) < 0)
			return -1;
	} else if (r->have_log) {
		r->text.text = xmalloc(LOG_FLUSH * 2);
		r->text.cap = LOG_FLUSH * 2;
		memcpy(r->text.text, r->header, n);
		r->text.len = n;
		if (flush_log(r, err) < 0)
			return -1;
	}
	if (a->allocinfo && start_snapshots(r, err) < 0)
		return -1;
	take_kernel_snapshot(r, AT_START);
	if (capture_start(r->capture, err) < 0)
		return -1;
	if (a->cmd && release_child(r, go, ex, err) < 0)
		return -1;
	if (pthread_create(&r->controller, NULL, controller_main, r) != 0)
		return error_set(err, "cannot start the recording's controller thread");
	r->controller_started = true;
	return 0;
}

static int fail_to_start(struct recording *r, const struct ta_error *err)
{
	dat_writer_free(r->dat);
	if (r->child && !r->child_done) {
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
	}
	capture_close(r->capture);
	if (r->have_log)
		outfile_abort(&r->log);
	drop_kernel_snapshots(r);
	drop_fork_log(r);
	free(r->text.text);
	fprintf(stderr, "trace_analyze: error: %s\n", err->msg);
	return EXIT_RUNTIME;
}

static int run_record(struct record_args *args);

/* Event and stack records in a text log: its lines but headers, frames and markers. */
static uint64_t records_in(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[256];
	bool at_start = true;
	uint64_t n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (at_start && line[0] != '#' && strncmp(line, " => ", 4) != 0 &&
		    strncmp(line, "CPU:", 4) != 0)
			n++;
		at_start = strchr(line, '\n') != NULL;
	}
	fclose(f);
	return n;
}

/*
 * The log's file system filled: what was written is whole lines, a valid
 * log; keep it (when it holds more than the header) and say what was lost.
 */
static void keep_what_fitted(struct recording *r)
{
	const char *name = r->args->log_path;
	struct ta_error err;
	uint64_t kept, read = r->stats.events;

	if (r->log_bytes <= (off_t)r->header_bytes) {
		outfile_abort(&r->log);
		fprintf(stderr, "trace_analyze: the file system of '%s' was full before any event "
			"was written: nothing kept\n", name);
		return;
	}
	if (outfile_commit(&r->log, false, &err) < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return;
	}
	kept = records_in(name);
	fprintf(stderr, "trace_analyze: the file system of '%s' filled: the recording stopped; "
		"'%s' keeps the first %llu events (%.*f %s), a valid log; %llu of the %llu events "
		"recorded are not in it (the reports count them all)\n", name, name,
		(unsigned long long)kept, r->log_bytes < 1000000 ? 0 : 1,
		(double)r->log_bytes / (r->log_bytes < 1000000 ? 1e3 : 1e6),
		r->log_bytes < 1000000 ? "kB" : "MB",
		(unsigned long long)(read > kept ? read - kept : 0), (unsigned long long)read);
}

int cmd_record(int argc, char **argv)
{
	struct record_args args;
	int status;

	note_inherited_descriptors();
	note_inherited_signals();
	status = parse_record_options(argc, argv, &args);
	if (status < 0)
		status = run_record(&args);
	release_args(&args);
	return status;
}

static int run_record(struct record_args *args)
{
	struct recording r;
	struct live_source source;
	struct ta_error err;
	int rc;

	memset(&r, 0, sizeof(r));
	r.args = args;
	catch_signals();
	if (start_recording(&r, &err) < 0)
		return fail_to_start(&r, &err);
	source.capture = r.capture;
	source.header = r.header;
	source.usec = !r.dat;	/* a trace.dat keeps nanoseconds */
	source.on_item = log_item;
	source.on_end = end_of_capture;
	source.log_bytes = bytes_of_the_log;
	source.ctx = &r;
	args->analysis.opts.req.live = &source;
	rc = pipeline_run(&args->analysis.opts, &err);	/* reads the capture to its end */
	if (rc < 0) {
		capture_stop(r.capture);	/* the analysis failed: the recording ends too */
		capture_release_instances(r.capture);
	}
	atomic_store(&r.analysis_ended, 1);
	pthread_join(r.controller, NULL);
	if (r.have_forks && capture_forks_result(r.capture, &r.forks_error) < 0)
		r.forks_failed = true;
	capture_close(r.capture);
	r.capture = NULL;
	free(r.text.text);
	dat_writer_free(r.dat);
	r.dat = NULL;
	if (interrupts_seen >= 2)	/* the second Ctrl-C came while the first drained */
		abort_recording(&r);
	say_how_child_ended(&r);	/* ended by now: the controller saw to it */
	fflush(stdout);
	if (r.log_full) {
		allocinfo_saver_abort(&r.snapshots);
		fprintf(stderr, "trace_analyze: error: %s\n", r.error.msg);
		keep_what_fitted(&r);
		keep_kernel_snapshots(&r);	/* beside what was kept of the log */
		keep_fork_log(&r);
		return EXIT_RUNTIME;
	} else if (r.have_log) {	/* last, so that nothing is left if anything failed */
		if (rc == 0 && !r.failed && outfile_commit(&r.log, false, &r.error) < 0)
			r.failed = true;
		if (rc < 0 || r.failed)
			outfile_abort(&r.log);
	}
	if (rc == 0 && !r.failed && !r.log_full && !r.dat_full) {
		keep_kernel_snapshots(&r);
		keep_fork_log(&r);
	}
	drop_kernel_snapshots(&r);	/* those not kept */
	drop_fork_log(&r);
	if (rc == 0 && !r.failed && !r.log_full &&
	    allocinfo_saver_commit(&r.snapshots, &r.snapshot_error) < 0)
		r.snapshot_failed = true;
	allocinfo_saver_abort(&r.snapshots);	/* nothing left if not committed */
	if (r.snapshot_failed && rc == 0 && !r.failed) {
		fprintf(stderr, "trace_analyze: error: --allocinfo: %s\n", r.snapshot_error.msg);
		r.failed = true;
		r.error = r.snapshot_error;
	} else if (r.snapshots.taken && !args->analysis.opts.req.quiet)
		fprintf(stderr, "trace_analyze: saved %llu allocinfo snapshot%s into '%s'\n",
			(unsigned long long)r.snapshots.taken, plural(r.snapshots.taken),
			args->allocinfo_path);
	if (rc < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	if (r.dat_full) {
		fprintf(stderr, "trace_analyze: error: %s\n", r.error.msg);
		fprintf(stderr, "trace_analyze: the file system of '%s' filled: the recording "
			"stopped; a trace.dat is kept whole or not at all: nothing kept, the %llu "
			"events recorded are in no file (the reports count them all)\n",
			args->log_path, (unsigned long long)r.stats.events);
		return EXIT_RUNTIME;
	}
	if (r.failed) {
		fprintf(stderr, "trace_analyze: error: %s\n", r.error.msg);
		return EXIT_RUNTIME;
	}
	report_capture(&r);
	if (!args->analysis.opts.req.quiet)
		outfile_say_written(stderr);
	return r.stopped_by_signal && last_signal != SIGINT ? 128 + last_signal : EXIT_OK;
}
