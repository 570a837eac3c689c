/*
 * top.c - trace_analyze top: who allocates kernel memory right now, a
 * full-screen view refreshed every interval as top(1) and slabtop(1) are.
 *
 * The capture (capture.h, a tracefs instance of our own) is read by the
 * engine (engine.h) on a thread of its own, as record's is: each record an
 * event with its stack, into the accounts by call site, by slab cache and,
 * with --stacks, by origin, under a lock the engine holds per item. Every
 * interval the main thread takes the counters of the grouping shown, turns
 * them into rates and draws them with ncurses (a terminal) or prints one
 * plain table (a pipe or a file). ncurses is used rather than hand-written
 * escape sequences: it knows every terminal's codes from terminfo, keeps
 * the screen right when the window is resized, and decodes keys.
 *
 * Not here: files, reports (record.c writes those).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "allocgroups.h"
#include "allocinfo.h"
#include "allocreport.h"
#include "callchain.h"
#include "capture.h"
#include "commands.h"
#include "curseslib.h"
#include "engine.h"
#include "error.h"
#include "event.h"
#include "origins.h"
#include "parseopt.h"
#include "strtab.h"
#include "testhook.h"

static const char usage_line[] =
	"usage: trace_analyze top [-o allocs|bytes|live|growth] [--interval S] [-n ROWS]\n"
	"                         [--group-by callsite|function|origin|cache] [--stacks]\n"
	"                         [--iterations N] [--events slab|page|all] [--pid P,...]\n"
	"                         [--buffer-kb N] [--function] [--format text|csv|json] [-q]\n"
	"       trace_analyze top --allocinfo [--group-by callsite|function|file|dir|module]\n"
	"                         [-o ...] [--interval S] [-n ROWS] [--iterations N] [--format ...]\n";

static const struct po_command top_command = {
	.name = "top",
	.usage = usage_line,
	.about = "Who allocates kernel memory right now: per call site (or function, origin,\n"
		 "slab cache), allocations and bytes per second and the bytes still held of\n"
		 "what was allocated since top began, with the change over the last interval.\n"
		 "Records through a tracefs instance of its own (the global trace buffer is\n"
		 "never touched); needs root.\n",
	.epilog = "Keys: a b l g sort by allocs/s, bytes/s, live, growth; s f o c rows per\n"
		  "call site, function, origin (with --stacks), cache; p pause; q quit. Off a\n"
		  "terminal (or with --format csv or json) one table is printed per interval.\n"
		  "--allocinfo reads /proc/allocinfo each interval instead (no tracing, no\n"
		  "tracefs instance, no root needed where the file is readable): per site, its\n"
		  "live allocations and bytes and their change, most changed first.\n",
};

/* What rows can be: of the trace, and of /proc/allocinfo (--allocinfo). */
#define TRACE_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_ORIGIN | \
		      1u << GROUP_CACHE)
#define ALLOCINFO_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_FILE | \
			  1u << GROUP_DIR | 1u << GROUP_MODULE)
#define TOP_GROUPS (TRACE_GROUPS | ALLOCINFO_GROUPS)

#define top_usage(...) po_usage_error(&top_command, __VA_ARGS__)

enum sort_key { SORT_ALLOCS, SORT_BYTES, SORT_LIVE, SORT_GROWTH };
static const char *const sort_names[] = { "allocs", "bytes", "live", "growth", NULL };
static const char *const sort_titles[] = { "allocs/s", "bytes/s", "live", "live change" };
static const char *const snapshot_sort_titles[] = { "allocations live", "size of the change",
						     "live", "live change" };
/* by enum group_by */
static const char *const group_titles[] = {
	[GROUP_CALLSITE] = "call site", [GROUP_FUNCTION] = "function", [GROUP_ORIGIN] = "origin",
	[GROUP_CACHE] = "slab cache", [GROUP_DIR] = "directory", [GROUP_MODULE] = "module",
	[GROUP_FILE] = "file", [GROUP_SIZE_CLASS] = "", [GROUP_COMM] = "", [GROUP_PID] = "",
	[GROUP_GFP] = "", [GROUP_CGROUP] = "",
};
static const char *const group_headings[] = {
	[GROUP_CALLSITE] = "CALL SITE", [GROUP_FUNCTION] = "FUNCTION", [GROUP_ORIGIN] = "ORIGIN",
	[GROUP_CACHE] = "CACHE", [GROUP_DIR] = "DIRECTORY", [GROUP_MODULE] = "MODULE",
	[GROUP_FILE] = "FILE", [GROUP_SIZE_CLASS] = "", [GROUP_COMM] = "", [GROUP_PID] = "",
	[GROUP_GFP] = "", [GROUP_CGROUP] = "",
};

struct top_args {
	struct capture_config cfg;
	struct po_pids pids;
	enum sort_key sort;
	uint64_t interval_ns;
	uint64_t rows;		/* 0: as many as fit (20 off a terminal) */
	uint64_t iterations;	/* 0: until q */
	int group;		/* enum group_by; -1 until an option says */
	enum out_format format;
	bool quiet;
	int events;		/* --events: po_events_names' index, -1: slab */
	bool allocinfo;		/* --allocinfo: /proc/allocinfo read each interval, no tracing */
};

/* The accounts rows come from: the engine's by call site, by cache and by origin. */
enum { BY_SITE, BY_CACHE, BY_ORIGIN, NACCOUNTS };

/* What the engine feeds on the capture's thread and the display reads, under lock. */
#define OWN_THREADS_MAX 16

struct live_account {
	pthread_mutex_t lock;
	struct analysis_request req;	/* the accounts top shows, from its capture */
	struct live_source source;
	struct analysis a;
	bool stacks;
	uint64_t with_stack, without_stack;	/* slab events counted */
	/* the engine's side, on a thread of its own */
	pthread_t reader;
	bool reading;
	struct ta_error error;
	atomic_int failed;
	/* top's own threads: what they allocate is top's, not the system's */
	pid_t own[OWN_THREADS_MAX];
	size_t nown;
};

/* One row of the view: a call site, function, origin or cache, with this interval's figures. */
struct top_row {
	const char *name;
	size_t name_len;
	uint64_t allocs, bytes;	/* during the interval (--allocinfo: allocations live now) */
	int64_t live, growth;	/* held now; change during the interval */
	int64_t allocs_change;	/* --allocinfo: of the allocations live, during the interval */
};

/* The counters of the previous refresh, per key of each account, for rates. */
struct top_view {
	struct top_args *args;
	struct live_account *live;
	struct capture *capture;
	struct site_stats *before[NACCOUNTS];
	uint32_t nbefore[NACCOUNTS];
	struct top_row *rows;
	size_t nrows, rows_cap;
	struct strtab names;	/* the rows' names, row index by name */
	double last_refresh, started;
	double last_seconds;	/* the length of the interval shown */
	uint64_t events_before;
	struct account_totals totals_now;
	uint64_t lost;
	uint64_t with_stack, without_stack;
	WINDOW *screen;		/* curses' on a terminal, else NULL */
	bool curses, paused;
	bool header_printed;	/* --format csv */
	/* --allocinfo: the last snapshot's rows, by name, for the changes */
	struct strtab before_names;
	int64_t *before_bytes, *before_calls;
	size_t before_cap;
	uint64_t snapshot_bytes, snapshot_calls;	/* the last snapshot's totals */
	struct ta_error error;
	bool failed;		/* --allocinfo: the file could not be read */
};

static volatile sig_atomic_t quit_requested;


static void request_quit(int sig)
{
	(void)sig;
	quit_requested = 1;
}

/* --allocinfo reads a file: nothing of the tracing applies; rows of sites. */
static int check_allocinfo_options(struct top_args *a)
{
	if (a->cfg.stacks || a->events >= 0 || a->pids.count || a->cfg.buffer_kb)
		return top_usage("%s", "--allocinfo reads /proc/allocinfo, no trace: --stacks, "
				 "--events, --pid and --buffer-kb do not apply");
	if (a->group < 0)
		a->group = GROUP_CALLSITE;
	if (!(ALLOCINFO_GROUPS & (1u << a->group)))
		return top_usage("--allocinfo's rows are per callsite, function, file, dir or "
				 "module, not %s", po_group_names[a->group]);
	if ((int)a->sort < 0)	/* the size of the change first, unless -o said */
		a->sort = SORT_BYTES;
	return -1;
}

static int parse_top_options(int argc, char **argv, struct top_args *a)
{
	const struct po_option table[] = {
		OPT_GROUP("Rows"),
		OPT_CHOICE('o', "order-by", &a->sort, "KEY", sort_names, 0, "key",
			   "sort rows by KEY (default bytes)"),
		OPT_GROUP_BY(&a->group, TOP_GROUPS),
		OPT_SET(0, "function", &a->group, GROUP_FUNCTION,
			"the same as --group-by function"),
		OPT_UINT('n', "rows", &a->rows, "N", 1, 100000, "a number of rows",
			 "rows shown (default: what fits; 20 off a terminal)"),
		OPT_GROUP("Refreshes"),
		OPT_SECONDS(0, "interval", &a->interval_ns, "S", 100000000ull,
			    "seconds, 0.1 or more", "seconds between refreshes (default 1)"),
		OPT_UINT(0, "iterations", &a->iterations, "N", 1, UINT32_MAX,
			 "a number of refreshes", "stop after N refreshes (default: at q)"),
		OPT_FORMAT(&a->format),
		OPT_GROUP("Recording"),
		OPT_FLAG(0, "allocinfo", &a->allocinfo,
			 "no tracing: read /proc/allocinfo each interval (the kernel's allocation "
			 "profile) and show the sites whose live bytes changed most"),
		OPT_STACKS(&a->cfg.stacks),
		OPT_EVENTS(&a->events),
		OPT_PID(&a->pids),
		OPT_BUFFER_KB(&a->cfg.buffer_kb),
		OPT_GROUP("Other"),
		OPT_QUIET(&a->quiet),
		OPT_HELP(),
		OPT_END(),
	};
	int status, rest;

	memset(a, 0, sizeof(*a));
	a->events = -1;
	a->sort = (enum sort_key)-1;	/* chosen once --allocinfo is known */
	a->interval_ns = 1000000000ull;
	a->group = -1;
	status = po_parse(&top_command, table, argc, argv, &rest);
	if (status >= 0)
		return status;
	if (a->allocinfo)
		return check_allocinfo_options(a);
	if ((int)a->sort < 0)
		a->sort = SORT_BYTES;
	if (a->group >= 0 && !(TRACE_GROUPS & (1u << a->group)))
		return top_usage("--group-by %s is of /proc/allocinfo's sites: give --allocinfo "
				 "(a trace's rows are per callsite, function, origin or cache)",
				 po_group_names[a->group]);
	a->cfg.pids = a->pids.pid;
	a->cfg.npids = a->pids.count;
	a->cfg.events = po_events_of_choice(a->events, CAPTURE_SLAB);
	if (a->group == GROUP_ORIGIN)
		a->cfg.stacks = true;	/* an origin is read from the stack */
	else if (a->group < 0)
		a->group = a->cfg.stacks ? GROUP_ORIGIN : GROUP_CALLSITE;
	return -1;
}

/* ---- the capture's side: the engine's, on a thread of its own ---- */

/*
 * The threads of this process (/proc/self/task), once they have all been
 * started: the main thread from the first, the capture's and the reader
 * after. The lock is held.
 */
static void note_own_threads(struct live_account *l)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	l->own[0] = getpid();
	l->nown = 1;
	if (!d)
		return;
	while ((e = readdir(d)) && l->nown < OWN_THREADS_MAX) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid > 0 && tid != l->own[0])
			l->own[l->nown++] = tid;
	}
	closedir(d);
}

/* An allocation by one of top's threads (its frees are kept: they free what others see). */
static bool is_own_allocation(const struct live_account *l, const struct kmem_event *ev)
{
	size_t i;

	if (!kmem_is_slab_alloc(ev->kind) && ev->kind != KMEM_PAGE_ALLOC)
		return false;
	for (i = 0; i < l->nown; i++)
		if (ev->pid == l->own[i])
			return true;
	return false;
}

/* The engine's admit: an event of the system's, not top's own; the lock is held. */
static bool admit_event(void *ctx, const struct kmem_event *ev)
{
	struct live_account *l = ctx;

	if (is_own_allocation(l, ev))
		return false;
	if (l->stacks && kmem_is_slab(ev->kind)) {
		if (ev->stack == STACK_NONE)
			l->without_stack++;
		else
			l->with_stack++;
	}
	return true;
}

/* The capture's thread: the engine reads every record into the accounts as it comes. */
static void *read_capture(void *arg)
{
	struct live_account *l = arg;
	struct ta_error err;

	/*
	 * Before the first event is taken, so that this thread's own first
	 * allocations are known as top's (noted after pthread_create, this
	 * thread could take events before the main thread had noted it)
	 */
	pthread_mutex_lock(&l->lock);
	note_own_threads(l);
	pthread_mutex_unlock(&l->lock);
	if (analysis_read(&l->a, &err) < 0) {
		l->error = err;
		atomic_store(&l->failed, 1);
	}
	return NULL;
}

/*
 * The engine asked for what top shows: the account by call site (rows by
 * call site or function), by slab cache, and with stacks by origin; the
 * pid of each event, for top's own threads.
 */
static void live_account_init(struct live_account *l, bool stacks)
{
	memset(l, 0, sizeof(*l));
	l->own[0] = getpid();	/* the main thread's setup, before the others start */
	l->nown = 1;
	pthread_mutex_init(&l->lock, NULL);
	l->stacks = stacks;
	l->req.families = FAMILY_ALL;
	l->req.group_by = GROUP_CACHE;
	l->req.needs = stacks ? NEED_STACKS : 0;
	l->req.quiet = true;
	l->req.live = &l->source;
	l->source.want = WANT_PID;
	l->source.admit = admit_event;
	l->source.ctx = l;
	l->source.lock = &l->lock;
	analysis_init(&l->a, &l->req);
}

static int start_reading(struct live_account *l, struct capture *c, struct ta_error *err)
{
	l->source.capture = c;
	if (pthread_create(&l->reader, NULL, read_capture, l) != 0)
		return error_set(err, "cannot start top's capture thread");
	l->reading = true;
	return 0;
}

static void live_account_release(struct live_account *l)
{
	analysis_release(&l->a);
	pthread_mutex_destroy(&l->lock);
}

/* ---- the view ---- */

/* The row named name[0..len), made on first sight in this refresh. */
static struct top_row *row_for(struct top_view *v, const char *name, size_t len)
{
	uint32_t id = strtab_intern(&v->names, name, len);

	if (id < v->nrows)
		return &v->rows[id];
	if (v->nrows == v->rows_cap) {
		v->rows_cap = v->rows_cap ? v->rows_cap * 2 : 256;
		v->rows = xrealloc(v->rows, v->rows_cap * sizeof(*v->rows));
	}
	memset(&v->rows[v->nrows], 0, sizeof(v->rows[0]));
	return &v->rows[v->nrows++];
}

/* The name of key id of account which, as the rows of the grouping shown are named. */
static size_t row_key_name(const struct top_view *v, int which, uint32_t id, char *out, size_t cap)
{
	const struct analysis *a = &v->live->a;
	const struct strtab *t = which == BY_CACHE ? &a->cache_keys : &a->strings.call_sites;
	uint32_t site, stack;
	size_t n;

	if (which == BY_ORIGIN) {
		origin_key_parts(&a->keys, id, &site, &stack);
		return callchains_origin(&a->chains, site, stack, out, cap);
	}
	n = strtab_length(t, id);
	if (which == BY_SITE && v->args->group == GROUP_FUNCTION)
		n = strcspn(strtab_get(t, id), "+");	/* function+0xoff/0xsize */
	if (n >= cap)
		n = cap - 1;
	memcpy(out, strtab_get(t, id), n);
	out[n] = '\0';
	return n;
}

/* The engine's account of rows by call site, cache or origin. */
static const struct account *account_of(const struct analysis *a, int which)
{
	return which == BY_CACHE ? &a->by_cache : which == BY_ORIGIN ? &a->by_key : &a->account;
}

static int account_shown(enum group_by g)
{
	return g == GROUP_CACHE ? BY_CACHE : g == GROUP_ORIGIN ? BY_ORIGIN : BY_SITE;
}

/*
 * This interval's rows from the account shown, and the counters of every
 * account kept for the next refresh (so that another grouping, chosen by a
 * key, shows the rates of one interval too). Under the lock.
 */
static void take_account(struct top_view *v, int which, bool remember)
{
	const struct account *acc = account_of(&v->live->a, which);
	bool shown = which == account_shown(v->args->group);
	char name[1024];
	uint32_t id;

	if (acc->nsites > v->nbefore[which]) {
		v->before[which] = xrealloc(v->before[which], acc->nsites * sizeof(**v->before));
		memset(v->before[which] + v->nbefore[which], 0,
		       (acc->nsites - v->nbefore[which]) * sizeof(**v->before));
		v->nbefore[which] = acc->nsites;
	}
	for (id = 0; id < acc->nsites; id++) {
		const struct site_stats *s = &acc->sites[id];
		struct site_stats *b = &v->before[which][id];

		if (shown && s->alloc_count) {
			size_t n = row_key_name(v, which, id, name, sizeof(name));
			struct top_row *row = row_for(v, name, n);

			row->allocs += s->alloc_count - b->alloc_count;
			row->bytes += s->total_dynamic - b->total_dynamic;
			row->live += (int64_t)s->current_dynamic;
			row->growth += (int64_t)s->current_dynamic - (int64_t)b->current_dynamic;
		}
		if (remember)
			*b = *s;
	}
}

/*
 * This interval's rows, from the accounts and the counters of the last
 * refresh; remember: the counters now are the next interval's start.
 */
static void take_snapshot_rows(struct top_view *v, bool remember);

static void take_rows(struct top_view *v, bool remember)
{
	struct live_account *l = v->live;
	size_t i;
	int which;

	if (v->args->allocinfo) {
		take_snapshot_rows(v, remember);
		return;
	}
	v->nrows = 0;
	strtab_release(&v->names);
	strtab_init(&v->names);
	pthread_mutex_lock(&l->lock);
	if (l->stacks)
		callchains_update(&l->a.chains);
	for (which = 0; which < NACCOUNTS; which++)
		if (which != BY_ORIGIN || l->stacks)
			take_account(v, which, remember);
	v->totals_now = l->a.account.totals;
	v->lost = l->a.read.stats.lost_events;
	v->with_stack = l->with_stack;
	v->without_stack = l->without_stack;
	pthread_mutex_unlock(&l->lock);
	for (i = 0; i < v->nrows; i++) {
		v->rows[i].name = strtab_get(&v->names, (uint32_t)i);
		v->rows[i].name_len = strtab_length(&v->names, (uint32_t)i);
	}
}

/* ---- --allocinfo: the rows of /proc/allocinfo, read each interval ---- */

/* The last snapshot's figure of row name[0..len), 0 if it had none. */
static uint32_t before_slot(struct top_view *v, const char *name, size_t len)
{
	uint32_t id = strtab_intern(&v->before_names, name, len);

	if (id >= v->before_cap) {
		size_t cap = v->before_cap ? v->before_cap * 2 : 1024;

		while (cap <= id)
			cap *= 2;
		v->before_bytes = xrealloc(v->before_bytes, cap * sizeof(*v->before_bytes));
		v->before_calls = xrealloc(v->before_calls, cap * sizeof(*v->before_calls));
		memset(v->before_bytes + v->before_cap, 0, (cap - v->before_cap) * sizeof(int64_t));
		memset(v->before_calls + v->before_cap, 0, (cap - v->before_cap) * sizeof(int64_t));
		v->before_cap = cap;
	}
	return id;
}

/*
 * A snapshot read now, its rows as --group-by says, each with its change
 * since the last one; remember: this one is the next interval's start.
 * A row gone since (a module unloaded) shows with nothing live.
 */
static void take_snapshot_rows(struct top_view *v, bool remember)
{
	struct alloc_series s;
	struct alloc_rows rows;
	uint32_t i, id;
	uint8_t *seen;
	size_t k;

	v->nrows = 0;
	strtab_release(&v->names);
	strtab_init(&v->names);
	if (access(test_allocinfo_path(), F_OK) < 0 && errno == ENOENT) {
		error_set(&v->error, "'%s' does not exist (%s): top --allocinfo has nothing to read",
			  test_allocinfo_path(), ALLOCINFO_MISSING_WHY);
		v->failed = true;
		return;
	}
	alloc_series_init(&s);
	if (alloc_series_read_path(&s, test_allocinfo_path(), &v->error) < 0) {
		alloc_series_release(&s);
		v->failed = true;
		return;
	}
	alloc_series_finish(&s);
	alloc_rows_build(&rows, &s, alloc_key_for((enum group_by)v->args->group), NULL);
	seen = xcalloc(v->before_names.count + rows.n + 1, 1);
	for (i = 0; i < rows.n; i++) {
		const struct alloc_row_sum *r = &rows.rows[i];
		const char *name = strtab_get(&rows.names, r->name);
		size_t len = strtab_length(&rows.names, r->name);
		struct top_row *row = row_for(v, name, len);

		id = before_slot(v, name, len);
		row->live = (int64_t)r->bytes;
		row->allocs = r->calls;
		row->growth = (int64_t)r->bytes - v->before_bytes[id];
		row->allocs_change = (int64_t)r->calls - v->before_calls[id];
		if (id < v->before_names.count)
			seen[id] = 1;
		if (remember) {
			v->before_bytes[id] = (int64_t)r->bytes;
			v->before_calls[id] = (int64_t)r->calls;
		}
	}
	for (k = 0; k < v->before_names.count; k++) {	/* gone since the last snapshot */
		struct top_row *row;

		if (seen[k] || (!v->before_bytes[k] && !v->before_calls[k]))
			continue;
		row = row_for(v, strtab_get(&v->before_names, (uint32_t)k),
			      strtab_length(&v->before_names, (uint32_t)k));
		row->growth = -v->before_bytes[k];
		row->allocs_change = -v->before_calls[k];
		if (remember)
			v->before_bytes[k] = v->before_calls[k] = 0;
	}
	free(seen);
	v->snapshot_bytes = rows.bytes;
	v->snapshot_calls = rows.calls;
	alloc_rows_release(&rows);
	alloc_series_release(&s);
	for (k = 0; k < v->nrows; k++) {
		v->rows[k].name = strtab_get(&v->names, (uint32_t)k);
		v->rows[k].name_len = strtab_length(&v->names, (uint32_t)k);
	}
}

/* The row's figure for the sort key: with --allocinfo, "bytes" is the size of the change. */
static int64_t sort_value(const struct top_row *r, const struct top_args *args)
{
	switch (args->sort) {
	case SORT_ALLOCS:
		return (int64_t)r->allocs;
	case SORT_BYTES:
		if (args->allocinfo)
			return r->growth < 0 ? -r->growth : r->growth;
		return (int64_t)r->bytes;
	case SORT_LIVE:
		return r->live;
	case SORT_GROWTH:
		return r->growth;
	}
	return 0;
}

static int by_sort_key(const void *pa, const void *pb, void *key)
{
	const struct top_row *a = pa, *b = pb;
	int64_t x = sort_value(a, key), y = sort_value(b, key);
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c;

	if (x != y)
		return x > y ? -1 : 1;
	c = memcmp(a->name, b->name, n);
	return c ? c : (a->name_len > b->name_len) - (a->name_len < b->name_len);
}

static void human_bytes(char *buf, size_t size, double bytes)
{
	double a = bytes < 0 ? -bytes : bytes;

	if (a >= 10.0 * (1 << 20))
		snprintf(buf, size, "%.1fM", bytes / (1 << 20));
	else if (a >= 10.0 * 1024)
		snprintf(buf, size, "%.1fK", bytes / 1024);
	else
		snprintf(buf, size, "%.0f", bytes);
}

/* --allocinfo's lines: the totals, then per row live bytes and allocations and their change. */
static void draw_snapshot(struct top_view *v, int rows_room,
			  void (*put_line)(void *ctx, int y, const char *line, bool bold), void *ctx)
{
	char line[512], b[32], c[32], d[32];
	size_t i, shown;
	int y = 0;
	int64_t change = 0;

	for (i = 0; i < v->nrows; i++)
		change += v->rows[i].growth;
	human_bytes(b, sizeof(b), (double)v->snapshot_bytes);
	human_bytes(c + 1, sizeof(c) - 1, (double)change);
	c[0] = '+';
	snprintf(line, sizeof(line), "trace_analyze top --allocinfo - %.0f s, every %.1f s - live "
		 "%sB in %" PRIu64 " allocations, %sB since the last%s",
		 analysis_clock() - v->started, (double)v->args->interval_ns / 1e9, b,
		 v->snapshot_calls, change > 0 ? c : c + 1, v->paused ? " - PAUSED" : "");
	put_line(ctx, y++, line, false);
	snprintf(line, sizeof(line), "read from %s; rows by %s, per %s", test_allocinfo_path(),
		 snapshot_sort_titles[v->args->sort], group_titles[v->args->group]);
	put_line(ctx, y++, line, false);
	put_line(ctx, y++, "", false);
	snprintf(line, sizeof(line), "%10s %10s %10s %11s  %s", "ALLOCS", "CHANGE", "LIVE",
		 "LIVE CHANGE", group_headings[v->args->group]);
	put_line(ctx, y++, line, true);
	for (i = shown = 0; i < v->nrows && shown < (size_t)rows_room; i++) {
		const struct top_row *r = &v->rows[i];

		if (!r->allocs && !r->live && !r->growth && !r->allocs_change)
			continue;
		shown++;
		human_bytes(c, sizeof(c), (double)r->live);
		human_bytes(d + 1, sizeof(d) - 1, (double)r->growth);
		d[0] = '+';
		snprintf(b, sizeof(b), "%+" PRId64, r->allocs_change);
		snprintf(line, sizeof(line), "%10" PRIu64 " %10s %10s %11s  %.*s", r->allocs,
			 r->allocs_change ? b : "0", c, r->growth > 0 ? d : d + 1, (int)r->name_len,
			 r->name);
		put_line(ctx, y++, line, false);
	}
}

/* The lines of one refresh, drawn by put_line (curses or stdout). */
static void draw(struct top_view *v, double seconds, int rows_room,
		 void (*put_line)(void *ctx, int y, const char *line, bool bold), void *ctx)
{
	const struct account_totals *t = &v->totals_now;
	char line[512], a[32], b[32], c[32], d[32], with[48] = "";
	size_t i, shown;
	int y = 0;
	double per = seconds > 0 ? 1.0 / seconds : 0;
	uint64_t allocs = 0, bytes = 0;
	int64_t live = 0;

	if (v->args->allocinfo) {
		draw_snapshot(v, rows_room, put_line, ctx);
		return;
	}
	for (i = 0; i < v->nrows; i++) {
		allocs += v->rows[i].allocs;
		bytes += v->rows[i].bytes;
		live += v->rows[i].live;
	}
	human_bytes(a, sizeof(a), (double)bytes * per);
	human_bytes(b, sizeof(b), (double)live);
	if (v->with_stack + v->without_stack)
		snprintf(with, sizeof(with), ", %.1f%% with a stack",
			 100.0 * (double)v->with_stack / (double)(v->with_stack + v->without_stack));
	snprintf(line, sizeof(line), "trace_analyze top - %.0f s, every %.1f s - %.0f allocs/s, "
		 "%sB/s, live %sB, %" PRIu64 " lost%s%s", analysis_clock() - v->started,
		 (double)v->args->interval_ns / 1e9, (double)allocs * per, a, b, v->lost, with,
		 v->paused ? " - PAUSED" : "");
	put_line(ctx, y++, line, false);
	snprintf(line, sizeof(line), "allocations %" PRIu64 ", frees %" PRIu64 ", lost frees %"
		 PRIu64 ", implicit frees %" PRIu64 "; rows by %s, per %s", t->allocs, t->frees,
		 t->lost_frees, t->implicit_frees, sort_titles[v->args->sort],
		 group_titles[v->args->group]);
	put_line(ctx, y++, line, false);
	put_line(ctx, y++, "", false);
	snprintf(line, sizeof(line), "%10s %10s %10s %11s  %s", "ALLOCS/S", "BYTES/S", "LIVE",
		 "LIVE CHANGE", group_headings[v->args->group]);
	put_line(ctx, y++, line, true);
	for (i = shown = 0; i < v->nrows && shown < (size_t)rows_room; i++) {
		const struct top_row *r = &v->rows[i];

		if (!r->allocs && !r->live && !r->growth)
			continue;	/* a call site of the past, idle now and holding nothing */
		shown++;

		human_bytes(b, sizeof(b), (double)r->bytes * per);
		human_bytes(c, sizeof(c), (double)r->live);
		human_bytes(d + 1, sizeof(d) - 1, (double)r->growth);
		d[0] = '+';
		snprintf(line, sizeof(line), "%10.0f %10s %10s %11s  %.*s", (double)r->allocs * per,
			 b, c, r->growth > 0 ? d : d + 1, (int)r->name_len, r->name);
		put_line(ctx, y++, line, false);
	}
}

/* ctx: the screen. The last line is the keys'. */
static void put_curses_line(void *ctx, int y, const char *line, bool bold)
{
	WINDOW *screen = ctx;

	if (y >= getmaxy(screen) - 1)
		return;
	if (bold)
		wattron(screen, A_REVERSE);
	mvwaddnstr(screen, y, 0, line, getmaxx(screen));
	wclrtoeol(screen);
	if (bold)
		wattroff(screen, A_REVERSE);
}

static void put_plain_line(void *ctx, int y, const char *line, bool bold)
{
	(void)ctx;
	(void)y;
	(void)bold;
	puts(line);
}

/* The rows in the chosen order (none: nothing to sort, and no NULL to qsort). */
static void sort_rows(struct top_view *v)
{
	if (v->nrows)
		qsort_r(v->rows, v->nrows, sizeof(*v->rows), by_sort_key, v->args);
}

/* The rows sorted and drawn on the terminal, with the keys' line. */
static void paint_screen(struct top_view *v, double seconds)
{
	int lines = getmaxy(v->screen);

	sort_rows(v);
	werase(v->screen);
	draw(v, seconds, v->args->rows ? (int)v->args->rows : lines - 6, put_curses_line,
	     v->screen);
	mvwaddstr(v->screen, lines - 1, 0, v->args->allocinfo
		  ? "a b l g: sort  s f m d: sites, functions, modules, directories  p: pause  q: quit"
		  : v->live->stacks
		  ? "a b l g: sort  s f o c: call sites, functions, origins, caches  p: pause  q: quit"
		  : "a b l g: sort  s f c: call sites, functions, caches  p: pause  q: quit");
	wrefresh(v->screen);
}

/* A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break. */
static void put_csv_field(const char *s, size_t n)
{
	size_t i;

	if (strcspn(s, ",\"\r\n") >= n) {
		fwrite(s, 1, n, stdout);
		return;
	}
	putchar('"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			putchar('"');
		putchar(s[i]);
	}
	putchar('"');
}

/*
 * --format csv: one row per row shown per interval, under one header
 * line; --format json: one JSON object a line per interval (JSON Lines);
 * --format ndjson: one JSON object a line per row shown, each whole.
 */
/* print_machine's for --allocinfo: live allocations and bytes, and their changes. */
static void print_snapshot_machine(struct top_view *v)
{
	double at = analysis_clock() - v->started;
	size_t i, shown = 0, room = v->args->rows ? v->args->rows : 20;
	const char *group = group_by_name(v->args->group);

	if (v->args->format == FORMAT_CSV && !v->header_printed) {
		puts("time_s,group_by,key,allocs,allocs_change,live_bytes,live_change_bytes");
		v->header_printed = true;
	}
	if (v->args->format == FORMAT_JSON)
		printf("{\"schema_version\":%d,\"report\":\"top-allocinfo\",\"time_s\":%.3f,"
		       "\"group_by\":\"%s\",\"bytes\":%" PRIu64 ",\"allocs\":%" PRIu64 ",\"rows\":[",
		       OUTPUT_SCHEMA_VERSION, at, group, v->snapshot_bytes, v->snapshot_calls);
	for (i = 0; i < v->nrows && shown < room; i++) {
		const struct top_row *r = &v->rows[i];
		char *key;

		if (!r->allocs && !r->live && !r->growth && !r->allocs_change)
			continue;
		if (v->args->format == FORMAT_CSV) {
			printf("%.3f,%s,", at, group);
			put_csv_field(r->name, r->name_len);
			printf(",%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", r->allocs,
			       r->allocs_change, r->live, r->growth);
		} else {
			key = xmalloc(r->name_len + 1);
			memcpy(key, r->name, r->name_len);
			key[r->name_len] = '\0';
			if (v->args->format == FORMAT_NDJSON)	/* an object a row, whole */
				printf("{\"report\":\"top-allocinfo\",\"time_s\":%.3f,"
				       "\"group_by\":\"%s\",\"key\":", at, group);
			else
				printf("%s{\"key\":", shown ? "," : "");
			out_json_string(stdout, key);
			printf(",\"allocs\":%" PRIu64 ",\"allocs_change\":%" PRId64 ",\"live_bytes\":%"
			       PRId64 ",\"live_change_bytes\":%" PRId64 "}%s", r->allocs, r->allocs_change,
			       r->live, r->growth, v->args->format == FORMAT_NDJSON ? "\n" : "");
			free(key);
		}
		shown++;
	}
	if (v->args->format == FORMAT_JSON)
		puts("]}");
	fflush(stdout);
}

static void print_machine(struct top_view *v, double seconds)
{
	const struct account_totals *t = &v->totals_now;
	double per = seconds > 0 ? 1.0 / seconds : 0, at = analysis_clock() - v->started;
	size_t i, shown = 0, room = v->args->rows ? v->args->rows : 20;
	const char *group = group_by_name(v->args->group);

	if (v->args->format == FORMAT_CSV && !v->header_printed) {
		puts("time_s,interval_s,group_by,key,allocs_per_s,bytes_per_s,live_bytes,"
		     "live_change_bytes");
		v->header_printed = true;
	}
	if (v->args->format == FORMAT_JSON)
		printf("{\"schema_version\":%d,\"report\":\"top\",\"time_s\":%.3f,"
		       "\"interval_s\":%.3f,\"group_by\":\"%s\",\"allocations\":%" PRIu64
		       ",\"frees\":%" PRIu64 ",\"lost_frees\":%" PRIu64 ",\"implicit_frees\":%"
		       PRIu64 ",\"lost_events\":%" PRIu64 ",\"rows\":[", OUTPUT_SCHEMA_VERSION, at,
		       seconds, group, t->allocs, t->frees, t->lost_frees, t->implicit_frees, v->lost);
	for (i = 0; i < v->nrows && shown < room; i++) {
		const struct top_row *r = &v->rows[i];

		if (!r->allocs && !r->live && !r->growth)
			continue;
		if (v->args->format == FORMAT_CSV) {
			printf("%.3f,%.3f,%s,", at, seconds, group);
			put_csv_field(r->name, r->name_len);
			printf(",%.1f,%.1f,%" PRId64 ",%" PRId64 "\n", (double)r->allocs * per,
			       (double)r->bytes * per, r->live, r->growth);
		} else {
			char *key = xmalloc(r->name_len + 1);

			memcpy(key, r->name, r->name_len);
			key[r->name_len] = '\0';
			if (v->args->format == FORMAT_NDJSON)	/* an object a row, whole */
				printf("{\"report\":\"top\",\"time_s\":%.3f,\"interval_s\":%.3f,"
				       "\"group_by\":\"%s\",\"key\":", at, seconds, group);
			else
				printf("%s{\"key\":", shown ? "," : "");
			out_json_string(stdout, key);
			printf(",\"allocs_per_s\":%.1f,\"bytes_per_s\":%.1f,\"live_bytes\":%" PRId64
			       ",\"live_change_bytes\":%" PRId64 "}%s", (double)r->allocs * per,
			       (double)r->bytes * per, r->live, r->growth,
			       v->args->format == FORMAT_NDJSON ? "\n" : "");
			free(key);
		}
		shown++;
	}
	if (v->args->format == FORMAT_JSON)
		puts("]}");
	fflush(stdout);
}

static void refresh_view(struct top_view *v, double now)
{
	double seconds = now - v->last_refresh;

	v->last_refresh = now;
	if (v->paused)
		return;
	v->last_seconds = seconds;
	take_rows(v, true);
	if (v->failed)
		return;
	if (v->curses) {
		paint_screen(v, seconds);
	} else if (v->args->format != FORMAT_TEXT) {
		sort_rows(v);
		if (v->args->allocinfo)
			print_snapshot_machine(v);
		else
			print_machine(v, seconds);
	} else {
		sort_rows(v);
		draw(v, seconds, v->args->rows ? (int)v->args->rows : 20, put_plain_line, NULL);
		putchar('\n');
		fflush(stdout);
	}
	test_pause_point("top-refreshed");
}

static void handle_key(struct top_view *v, int key)
{
	double seconds = v->last_seconds;

	switch (key) {
	case 'q':
	case 'Q':
		quit_requested = 1;
		return;
	case 'a':
		v->args->sort = SORT_ALLOCS;
		break;
	case 'b':
		v->args->sort = SORT_BYTES;
		break;
	case 'l':
		v->args->sort = SORT_LIVE;
		break;
	case 'g':
		v->args->sort = SORT_GROWTH;
		break;
	case 'm':
	case 'd':
		if (!v->args->allocinfo)
			return;
		v->args->group = key == 'm' ? GROUP_MODULE : GROUP_DIR;
		take_rows(v, false);
		seconds = analysis_clock() - v->last_refresh;
		break;
	case 's':
	case 'f':
	case 'c':
	case 'o':
		if (v->args->allocinfo && (key == 'c' || key == 'o'))
			return;
		if (key == 'o' && !v->live->stacks) {	/* no stacks: no origins */
			int last = getmaxy(v->screen) - 1;

			wmove(v->screen, last, 0);
			wclrtoeol(v->screen);
			mvwaddstr(v->screen, last, 0, "o: origins are read from stack traces: "
				  "start top with --stacks");
			wrefresh(v->screen);
			return;
		}
		v->args->group = key == 's' ? GROUP_CALLSITE : key == 'f' ? GROUP_FUNCTION :
				 key == 'c' ? GROUP_CACHE : GROUP_ORIGIN;
		/* the new grouping at once, over the interval so far */
		take_rows(v, false);
		seconds = analysis_clock() - v->last_refresh;
		break;
	case 'p':
		v->paused = !v->paused;
		if (!v->paused)
			return;
		mvwaddstr(v->screen, 0, getmaxx(v->screen) > 10 ? getmaxx(v->screen) - 10 : 0,
			  " PAUSED ");
		wrefresh(v->screen);
		return;
	default:
		return;
	}
	paint_screen(v, seconds);	/* a new order shows at once */
}

static void run_view(struct top_view *v)
{
	uint64_t refreshes = 0;
	double next = v->started + (double)v->args->interval_ns / 1e9;

	v->last_refresh = v->started;
	while (!quit_requested && !v->failed &&
	       (v->args->allocinfo || (!capture_failed(v->capture) && !atomic_load(&v->live->failed)))) {
		double now = analysis_clock();

		if (now >= next) {
			refresh_view(v, now);
			next += (double)v->args->interval_ns / 1e9;
			if (next < now)
				next = now + (double)v->args->interval_ns / 1e9;
			if (v->args->iterations && ++refreshes >= v->args->iterations)
				break;
		}
		if (v->curses) {
			int key = wgetch(v->screen);	/* waits 100 ms at most (wtimeout) */

			if (key != ERR)
				handle_key(v, key);
		} else {
			struct timespec tick = { 0, 50000000l };

			nanosleep(&tick, NULL);
		}
	}
}

static WINDOW *start_curses(void)
{
	WINDOW *screen = initscr();

	cbreak();
	noecho();
	curs_set(0);
	keypad(screen, TRUE);
	wtimeout(screen, 100);
	return screen;
}

/*
 * --allocinfo: the first snapshot is the start (the changes are from it);
 * then the view refreshes from a new one each interval. No capture.
 */
static int top_of_allocinfo(struct top_view *v)
{
	int status = EXIT_OK;
	struct ta_error err;

	strtab_init(&v->before_names);
	take_snapshot_rows(v, true);
	if (!v->failed && v->curses && curses_library_load(&err) < 0) {
		v->error = err;
		v->failed = true;
	}
	if (!v->failed) {
		v->started = analysis_clock();
		if (v->curses)
			v->screen = start_curses();
		run_view(v);
		if (v->curses)
			endwin();
	}
	if (v->failed && !quit_requested) {
		fprintf(stderr, "trace_analyze: error: %s\n", v->error.msg);
		status = EXIT_RUNTIME;
	}
	free(v->rows);
	free(v->before_bytes);
	free(v->before_calls);
	strtab_release(&v->before_names);
	strtab_release(&v->names);
	return status;
}

int cmd_top(int argc, char **argv)
{
	struct top_args args;
	struct live_account live;
	struct top_view view;
	struct capture *capture = NULL;
	struct capture_stats st;
	struct ta_error err;
	struct sigaction sa;
	int status = parse_top_options(argc, argv, &args);

	if (status >= 0)
		return status;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = request_quit;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	memset(&view, 0, sizeof(view));
	view.args = &args;
	view.live = &live;
	strtab_init(&view.names);
	view.curses = args.format == FORMAT_TEXT && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (args.allocinfo)
		return top_of_allocinfo(&view);
	live_account_init(&live, args.cfg.stacks);
	if ((view.curses && curses_library_load(&err) < 0) ||
	    capture_open(&capture, &args.cfg, &err) < 0 ||
	    capture_start(capture, &err) < 0 || start_reading(&live, capture, &err) < 0) {
		capture_close(capture);
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		status = EXIT_RUNTIME;
		goto out;
	}
	view.capture = capture;
	view.started = analysis_clock();
	if (view.curses)
		view.screen = start_curses();
	run_view(&view);
	if (view.curses)
		endwin();
	capture_abort(capture);	/* what is still buffered is of no interest now */
	if (live.reading)
		pthread_join(live.reader, NULL);
	status = capture_finish(capture, &st, &err) < 0 && !quit_requested ? EXIT_RUNTIME : EXIT_OK;
	if (atomic_load(&live.failed) && !quit_requested) {
		err = live.error;
		status = EXIT_RUNTIME;
	}
	capture_close(capture);
	if (status != EXIT_OK)
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
out:
	free(view.rows);
	for (int i = 0; i < NACCOUNTS; i++)
		free(view.before[i]);
	strtab_release(&view.names);
	live_account_release(&live);
	return status;
}
