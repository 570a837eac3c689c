/*
 * top.c - trace_analyze top: who allocates kernel memory right now, a
 * full-screen view refreshed every interval as top(1) and slabtop(1) are.
 *
 * The capture (capture.h, a tracefs instance of our own) hands its text to
 * the same parser and account as the analysis, line by line under a lock;
 * every interval the main thread takes the call sites' counters, turns
 * them into rates and draws them with ncurses (a terminal) or prints one
 * plain table (a pipe or a file). ncurses is used rather than hand-written
 * escape sequences: it knows every terminal's codes from terminfo, keeps
 * the screen right when the window is resized, and decodes keys.
 *
 * Not here: files, reports (record.c writes those).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "account.h"
#include "analysis.h"
#include "capture.h"
#include "cmdline.h"
#include "commands.h"
#include "error.h"
#include "event.h"
#include "parse.h"
#include "strtab.h"

static const char usage_line[] =
	"usage: trace_analyze top [-o allocs|bytes|live|growth] [--interval S] [-n ROWS]\n"
	"                         [--iterations N] [--events slab|page|all] [--pid P,...]\n"
	"                         [--buffer-kb N] [--function]\n";

#define top_usage(...) usage_error(usage_line, "top ", __VA_ARGS__)

enum sort_key { SORT_ALLOCS, SORT_BYTES, SORT_LIVE, SORT_GROWTH };
static const char *const sort_names[] = { "allocs", "bytes", "live", "growth" };
static const char *const sort_titles[] = { "allocs/s", "bytes/s", "live", "live change" };

enum {
	OPT_INTERVAL = 1000,
	OPT_ITERATIONS,
	OPT_EVENTS,
	OPT_PID,
	OPT_BUFFER_KB,
	OPT_FUNCTION,
};

static const struct option top_options[] = {
	{ "order-by", required_argument, NULL, 'o' },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "rows", required_argument, NULL, 'n' },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "buffer-kb", required_argument, NULL, OPT_BUFFER_KB },
	{ "function", no_argument, NULL, OPT_FUNCTION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_PIDS 64

struct top_args {
	struct capture_config cfg;
	int pids[MAX_PIDS];
	enum sort_key sort;
	uint64_t interval_ns;
	uint64_t rows;		/* 0: as many as fit (20 off a terminal) */
	uint64_t iterations;	/* 0: until q */
	bool by_function;
};

/* What the capture thread feeds and the display reads, under lock. */
struct live_account {
	pthread_mutex_t lock;
	struct trace_strings strings;
	struct parser parser;
	struct account account;
	uint64_t lines;
};

/* One row of the view: a call site or a function, with this interval's figures. */
struct top_row {
	const char *name;
	size_t name_len;
	uint64_t allocs, bytes;	/* during the interval */
	int64_t live, growth;	/* held now; change during the interval */
};

/* The counters of the previous refresh, per call site, for rates. */
struct top_view {
	struct top_args *args;
	struct live_account *live;
	struct capture *capture;
	struct site_stats *before;
	uint32_t nbefore;
	struct top_row *rows;
	size_t nrows, rows_cap;
	struct strtab functions;	/* --function: row index by name */
	uint32_t *function_row;
	double last_refresh, started;
	double last_seconds;	/* the length of the interval shown */
	uint64_t events_before;
	struct account_totals totals_now;
	uint64_t lost;
	bool curses, paused;
};

static volatile sig_atomic_t quit_requested;


static void request_quit(int sig)
{
	(void)sig;
	quit_requested = 1;
}

static void print_help(void)
{
	fputs(usage_line, stdout);
	fputs("\n"
	      "Who allocates kernel memory right now: per call site, allocations and bytes\n"
	      "per second and the bytes still held of what was allocated since top began,\n"
	      "with the change over the last interval. Records through a tracefs instance\n"
	      "of its own (the global trace buffer is never touched); needs root.\n"
	      "\n"
	      "  -o, --order-by KEY    allocs, bytes (default), live or growth\n"
	      "      --interval S      seconds between refreshes (default 1)\n"
	      "  -n, --rows N          rows shown (default: what fits; 20 off a terminal)\n"
	      "      --iterations N    stop after N refreshes (default: at q)\n"
	      "      --function        one row per function, not per call site\n"
	      "      --events SET      slab (default), page or all\n"
	      "      --pid P[,P...]    only these tasks and their children\n"
	      "      --buffer-kb N     trace buffer per CPU in kB (default 8192)\n"
	      "\n"
	      "Keys: a b l g sort by allocs/s, bytes/s, live, growth; f call sites or\n"
	      "functions; p pause; q quit. Off a terminal one plain table is printed per\n"
	      "interval.\n",
	      stdout);
}

static int sort_of_name(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(s, sort_names[i]) == 0)
			return i;
	return -1;
}

static int parse_top_options(int argc, char **argv, struct top_args *a)
{
	uint64_t n;
	int c, key;

	memset(a, 0, sizeof(*a));
	a->cfg.events = CAPTURE_SLAB;
	a->cfg.pids = a->pids;
	a->sort = SORT_BYTES;
	a->interval_ns = 1000000000ull;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":o:n:h", top_options, NULL)) != -1) {
		switch (c) {
		case 'o':
			key = sort_of_name(optarg);
			if (key < 0)
				return top_usage("unknown --order-by key '%s' (allocs, bytes, live, "
						 "growth)", optarg);
			a->sort = (enum sort_key)key;
			break;
		case OPT_INTERVAL:
			if (!read_seconds(optarg, &a->interval_ns) || a->interval_ns < 100000000ull)
				return top_usage("--interval wants seconds, 0.1 or more, not '%s'",
						 optarg);
			break;
		case 'n':
			if (!read_count(optarg, 100000, &a->rows) || !a->rows)
				return top_usage("--rows wants a number of rows, not '%s'", optarg);
			break;
		case OPT_ITERATIONS:
			if (!read_count(optarg, UINT32_MAX, &a->iterations) || !a->iterations)
				return top_usage("--iterations wants a number of refreshes, not '%s'",
						 optarg);
			break;
		case OPT_EVENTS:
			if (capture_events_of_name(optarg) < 0)
				return top_usage("unknown --events '%s' (slab, page, all)", optarg);
			a->cfg.events = (unsigned)capture_events_of_name(optarg);
			break;
		case OPT_PID:
			if (!read_pid_list(optarg, a->pids, &a->cfg.npids, MAX_PIDS))
				return top_usage("--pid wants process ids (P or P,P,...), not '%s'",
						 optarg);
			break;
		case OPT_BUFFER_KB:
			if (!read_count(optarg, 1u << 22, &n) || n < 4)
				return top_usage("--buffer-kb wants kB per CPU from 4 to 4194304, not "
						 "'%s'", optarg);
			a->cfg.buffer_kb = (unsigned)n;
			break;
		case OPT_FUNCTION:
			a->by_function = true;
			break;
		case 'h':
			print_help();
			return 0;
		case ':':
			return top_usage("option '%s' needs a value", argv[optind - 1]);
		default:
			return unknown_option(usage_line, "top ", top_options, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return top_usage("unexpected argument '%s'", argv[optind]);
	return -1;
}

/* ---- the capture's side: lines into the account ---- */

static int feed_account(void *ctx, const char *text, size_t len, struct ta_error *err)
{
	struct live_account *l = ctx;
	const char *end = text + len;
	struct kmem_event ev;

	(void)err;
	pthread_mutex_lock(&l->lock);
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);

		if (parse_line(&l->parser, text, n, ++l->lines, &ev) == LINE_EVENT)
			account_apply(&l->account, &ev);
		text += n + 1;
	}
	pthread_mutex_unlock(&l->lock);
	return 0;
}

/* ---- the view ---- */

static struct top_row *row_for(struct top_view *v, const char *name, size_t len)
{
	uint32_t id;

	if (v->args->by_function) {
		size_t flen = strcspn(name, "+");

		len = flen < len ? flen : len;
		id = strtab_intern(&v->functions, name, len);
		if (id < v->nrows)
			return &v->rows[id];
	}
	if (v->nrows == v->rows_cap) {
		v->rows_cap = v->rows_cap ? v->rows_cap * 2 : 256;
		v->rows = xrealloc(v->rows, v->rows_cap * sizeof(*v->rows));
	}
	memset(&v->rows[v->nrows], 0, sizeof(v->rows[0]));
	v->rows[v->nrows].name = name;
	v->rows[v->nrows].name_len = len;
	return &v->rows[v->nrows++];
}

/* This interval's rows, from the account and the counters of the last refresh. */
static void take_rows(struct top_view *v)
{
	struct live_account *l = v->live;
	uint32_t id;

	v->nrows = 0;
	strtab_release(&v->functions);
	strtab_init(&v->functions);
	pthread_mutex_lock(&l->lock);
	if (l->account.nsites > v->nbefore) {
		v->before = xrealloc(v->before, l->account.nsites * sizeof(*v->before));
		memset(v->before + v->nbefore, 0,
		       (l->account.nsites - v->nbefore) * sizeof(*v->before));
		v->nbefore = l->account.nsites;
	}
	for (id = 0; id < l->account.nsites; id++) {
		const struct site_stats *s = &l->account.sites[id];
		struct site_stats *b = &v->before[id];
		struct top_row *row;

		if (!s->alloc_count)
			continue;
		row = row_for(v, strtab_get(&l->strings.call_sites, id),
			      strtab_length(&l->strings.call_sites, id));
		row->allocs += s->alloc_count - b->alloc_count;
		row->bytes += s->total_dynamic - b->total_dynamic;
		row->live += (int64_t)s->current_dynamic;
		row->growth += (int64_t)s->current_dynamic - (int64_t)b->current_dynamic;
		*b = *s;
	}
	v->totals_now = l->account.totals;
	v->lost = l->parser.stats.lost_events;
	pthread_mutex_unlock(&l->lock);
}

static int64_t sort_value(const struct top_row *r, enum sort_key sorting)
{
	switch (sorting) {
	case SORT_ALLOCS:
		return (int64_t)r->allocs;
	case SORT_BYTES:
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
	enum sort_key sorting = *(const enum sort_key *)key;
	int64_t x = sort_value(a, sorting), y = sort_value(b, sorting);
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

/* The lines of one refresh, drawn by put_line (curses or stdout). */
static void draw(struct top_view *v, double seconds, int rows_room,
		 void (*put_line)(void *ctx, int y, const char *line, bool bold), void *ctx)
{
	const struct account_totals *t = &v->totals_now;
	char line[512], a[32], b[32], c[32], d[32];
	size_t i, shown;
	int y = 0;
	double per = seconds > 0 ? 1.0 / seconds : 0;
	uint64_t allocs = 0, bytes = 0;
	int64_t live = 0;

	for (i = 0; i < v->nrows; i++) {
		allocs += v->rows[i].allocs;
		bytes += v->rows[i].bytes;
		live += v->rows[i].live;
	}
	human_bytes(a, sizeof(a), (double)bytes * per);
	human_bytes(b, sizeof(b), (double)live);
	snprintf(line, sizeof(line), "trace_analyze top - %.0f s, every %.1f s - %.0f allocs/s, "
		 "%sB/s, live %sB, %" PRIu64 " lost%s", analysis_clock() - v->started,
		 (double)v->args->interval_ns / 1e9, (double)allocs * per, a, b, v->lost,
		 v->paused ? " - PAUSED" : "");
	put_line(ctx, y++, line, false);
	snprintf(line, sizeof(line), "allocations %" PRIu64 ", frees %" PRIu64 ", lost frees %"
		 PRIu64 ", implicit frees %" PRIu64 "; rows by %s, %s", t->allocs, t->frees,
		 t->lost_frees, t->implicit_frees, sort_titles[v->args->sort],
		 v->args->by_function ? "per function" : "per call site");
	put_line(ctx, y++, line, false);
	put_line(ctx, y++, "", false);
	snprintf(line, sizeof(line), "%10s %10s %10s %11s  %s", "ALLOCS/S", "BYTES/S", "LIVE",
		 "LIVE CHANGE", v->args->by_function ? "FUNCTION" : "CALL SITE");
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

static void put_curses_line(void *ctx, int y, const char *line, bool bold)
{
	(void)ctx;
	if (y >= LINES - 1)
		return;
	if (bold)
		attron(A_REVERSE);
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
	if (bold)
		attroff(A_REVERSE);
}

static void put_plain_line(void *ctx, int y, const char *line, bool bold)
{
	(void)ctx;
	(void)y;
	(void)bold;
	puts(line);
}

static void refresh_view(struct top_view *v, double now)
{
	double seconds = now - v->last_refresh;
	int room;

	v->last_refresh = now;
	if (v->paused)
		return;
	v->last_seconds = seconds;
	take_rows(v);
	qsort_r(v->rows, v->nrows, sizeof(*v->rows), by_sort_key, &v->args->sort);
	if (v->curses) {
		room = v->args->rows ? (int)v->args->rows : LINES - 6;
		erase();
		draw(v, seconds, room, put_curses_line, NULL);
		mvaddstr(LINES - 1, 0, "a b l g: sort  f: functions/call sites  p: pause  q: quit");
		refresh();
	} else {
		room = v->args->rows ? (int)v->args->rows : 20;
		draw(v, seconds, room, put_plain_line, NULL);
		putchar('\n');
		fflush(stdout);
	}
}

static void handle_key(struct top_view *v, int key)
{
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
	case 'f':
		v->args->by_function = !v->args->by_function;
		break;
	case 'p':
		v->paused = !v->paused;
		if (!v->paused)
			return;
		mvaddstr(0, COLS > 10 ? COLS - 10 : 0, " PAUSED ");
		refresh();
		return;
	default:
		return;
	}
	/* a new order shows at once, with the counters of the interval so far */
	qsort_r(v->rows, v->nrows, sizeof(*v->rows), by_sort_key, &v->args->sort);
	erase();
	draw(v, v->last_seconds, v->args->rows ?
	     (int)v->args->rows : LINES - 6, put_curses_line, NULL);
	refresh();
}

static void run_view(struct top_view *v)
{
	uint64_t refreshes = 0;
	double next = v->started + (double)v->args->interval_ns / 1e9;

	v->last_refresh = v->started;
	while (!quit_requested && !capture_failed(v->capture)) {
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
			int key = getch();	/* waits 100 ms at most (timeout) */

			if (key != ERR)
				handle_key(v, key);
		} else {
			struct timespec tick = { 0, 50000000l };

			nanosleep(&tick, NULL);
		}
	}
}

static void start_curses(void)
{
	initscr();
	cbreak();
	noecho();
	curs_set(0);
	keypad(stdscr, TRUE);
	timeout(100);
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

	memset(&live, 0, sizeof(live));
	pthread_mutex_init(&live.lock, NULL);
	trace_strings_init(&live.strings);
	parser_init(&live.parser, &live.strings, 0);
	account_init(&live.account, FAMILY_ALL);
	memset(&view, 0, sizeof(view));
	view.args = &args;
	view.live = &live;
	strtab_init(&view.functions);

	if (capture_open(&capture, &args.cfg, &err) < 0 ||
	    capture_start(capture, feed_account, &live, &err) < 0) {
		capture_close(capture);
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		status = EXIT_RUNTIME;
		goto out;
	}
	view.capture = capture;
	view.started = analysis_clock();
	view.curses = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (view.curses)
		start_curses();
	run_view(&view);
	if (view.curses)
		endwin();
	capture_abort(capture);	/* what is still buffered is of no interest now */
	status = capture_finish(capture, &st, &err) < 0 && !quit_requested ? EXIT_RUNTIME : EXIT_OK;
	capture_close(capture);
	if (status != EXIT_OK)
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
out:
	free(view.rows);
	free(view.before);
	strtab_release(&view.functions);
	account_release(&live.account);
	trace_strings_release(&live.strings);
	pthread_mutex_destroy(&live.lock);
	return status;
}
