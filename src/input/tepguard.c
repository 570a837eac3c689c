/*
 * tepguard.c - event formats tried on libtraceevent in a forked child (see
 * tepguard.h). The child parses them as the read will, then leaves with
 * _exit(0); a signal, or a sanitizer's exit, says the formats are damaged.
 * Not here: what the formats mean.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <xxhash.h>

#include "error.h"
#include "forkgate.h"
#include "tepguard.h"

void tepguard_init(struct tepguard *g, int long_size)
{
	memset(g, 0, sizeof(*g));
	g->long_size = long_size;
}

void tepguard_release(struct tepguard *g)
{
	size_t i;

	for (i = 0; i < g->nowned; i++)
		free(g->owned[i]);
	free(g->owned);
	free(g->formats);
	memset(g, 0, sizeof(*g));
}

void tepguard_add(struct tepguard *g, const char *text, size_t len, const char *system)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 64;
		g->formats = xrealloc(g->formats, g->cap * sizeof(*g->formats));
	}
	g->formats[g->n].text = text;
	g->formats[g->n].len = len;
	g->formats[g->n].system = system;
	g->n++;
}

void tepguard_header_page(struct tepguard *g, const char *text, size_t len)
{
	g->header_page = text;
	g->header_page_len = len;
}

void tepguard_own(struct tepguard *g, void *p)
{
	g->owned = xrealloc(g->owned, (g->nowned + 1) * sizeof(*g->owned));
	g->owned[g->nowned++] = p;
}

/* Set by a sanitizer runtime (and a fuzzer's): its report's last step. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/*
 * The child dies as a plain process: by the signal, or by a sanitizer's
 * exit with nothing of the parent's (a fuzzer writing a crash file).
 */
void tepguard_die_plainly(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
	size_t i;

	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
}

/* The child: parse everything, as the read will, and say it lived. */
static void try_formats(const struct tepguard *g)
{
	struct tep_handle *tep = tep_alloc();
	int null = open("/dev/null", O_WRONLY);
	size_t i;

	tepguard_die_plainly();
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	if (!tep)
		_exit(0);
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_long_size(tep, g->long_size);
	if (g->header_page)
		tep_parse_header_page(tep, (char *)g->header_page, (unsigned long)g->header_page_len,
				      g->long_size);
	for (i = 0; i < g->n; i++)
		tep_parse_event(tep, g->formats[i].text, (unsigned long)g->formats[i].len,
				g->formats[i].system);
	_exit(0);
}

bool tepguard_header_page_agrees(const struct tepguard *g)
{
	struct tep_handle *tep;
	int size;

	if (!g->header_page)
		return true;
	tep = tep_alloc();
	if (!tep)
		return true;
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_long_size(tep, g->long_size);
	if (tep_parse_header_page(tep, (char *)g->header_page, (unsigned long)g->header_page_len,
				  g->long_size) < 0)
		size = -1;
	else
		size = tep_get_header_page_size(tep);
	tep_free(tep);
	return size == g->long_size;
}

/*
 * The formats a child has parsed, by hash: the same formats are not tried
 * again in this process (a fuzzer reads thousands of files that share
 * them; parsing is deterministic). A hash of everything the child parses.
 */
#define SURVIVORS 1024	/* a fuzzer's corpus holds hundreds of format sets */
static struct {
	pthread_mutex_t lock;
	uint64_t hash[SURVIVORS];
	unsigned n, next;
} survivors = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t hash_of_formats(const struct tepguard *g)
{
	XXH3_state_t *st = XXH3_createState();
	uint64_t h;
	size_t i;

	if (!st)
		return 0;
	XXH3_64bits_reset(st);
	XXH3_64bits_update(st, &g->long_size, sizeof(g->long_size));
	XXH3_64bits_update(st, &g->header_page_len, sizeof(g->header_page_len));
	if (g->header_page)
		XXH3_64bits_update(st, g->header_page, g->header_page_len);
	for (i = 0; i < g->n; i++) {
		const char *sys = g->formats[i].system ? g->formats[i].system : "";

		XXH3_64bits_update(st, &g->formats[i].len, sizeof(g->formats[i].len));
		XXH3_64bits_update(st, g->formats[i].text, g->formats[i].len);
		XXH3_64bits_update(st, sys, strlen(sys) + 1);
	}
	h = XXH3_64bits_digest(st);
	XXH3_freeState(st);
	return h;
}

static bool survived_before(uint64_t h)
{
	bool found = false;
	unsigned i;

	pthread_mutex_lock(&survivors.lock);
	for (i = 0; i < survivors.n && !found; i++)
		found = survivors.hash[i] == h;
	pthread_mutex_unlock(&survivors.lock);
	return found;
}

static void note_survivor(uint64_t h)
{
	pthread_mutex_lock(&survivors.lock);
	survivors.hash[survivors.next] = h;
	survivors.next = (survivors.next + 1) % SURVIVORS;
	if (survivors.n < SURVIVORS)
		survivors.n++;
	pthread_mutex_unlock(&survivors.lock);
}

bool tepguard_formats_survive(const struct tepguard *g)
{
	pid_t child;
	int status;
	uint64_t h;

	if (g->n == 0 && !g->header_page)
		return true;
	h = hash_of_formats(g);
	if (survived_before(h))
		return true;
	child = fork_when_quiet();
	if (child < 0)
		return true;
	if (child == 0)
		try_formats(g);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return false;
	note_survivor(h);
	return true;
}
