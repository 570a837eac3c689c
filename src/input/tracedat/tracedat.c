/*
 * tracedat.c - trace-cmd's trace.dat read into kmem events (binread.h),
 * with libtraceevent (the event formats and kallsyms inside it) and its
 * per-CPU pages merged in timestamp order, as trace-cmd report merges
 * them: walked in place, the tep made of the file's parts
 * (tracedat_pages.h, tracedat_tep.h), when the layout allows; else
 * through libtracecmd (compressed sections, timestamps it changes).
 *
 * Each record is decoded by tepkmem.h, kernel_stack records paired with
 * their events by binread_stacks.h; lost events (a page that says events were
 * dropped before it) become lost-event markers, as trace-cmd report's
 * "CPU:N [M EVENTS DROPPED]" lines. Line numbers are those of trace-cmd
 * report's text: "cpus=N" first, a line per record, one more per frame of
 * a stack and per marker. Not here: what the events mean.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "binread.h"
#include "tracedat_layout.h"
#include "tracedat_tep.h"
#include "tracedat_pages.h"
#include "binread_stacks.h"
#include "forkgate.h"
#include "tepguard.h"
#include "tepkmem.h"
#include "tepoverrides.h"
#include "tracelib.h"

#define DAMAGED_LAYOUT "'%s' is a damaged or cut trace.dat: its sections or CPU data are " \
	"not where its header says or are damaged"

struct tracedat_read {
	const struct binread_config *cfg;
	struct read_result *out;
	struct binread_facts *facts;
	struct tepkmem k;
	struct recpair pair;
	uint64_t line;
	uint64_t by_kallsyms, by_map;	/* addresses named by the file's kallsyms, by the user's */
	struct symbol_table file_syms;	/* the file's kallsyms (tepoverrides.h) */
	/* each CPU's last record's offset: a record at or before it means libtracecmd
	 * is going round a damaged page (it can, for ever) */
	unsigned long long *last_offset;
	int ncpus;
	bool going_round;
};

/* Functions from the file's kallsyms first, then the symbols the user gave. */
static const char *resolve(void *ctx, uint64_t addr, uint64_t *start, const char **module)
{
	struct tracedat_read *r = ctx;
	const struct ksym *s;

	if (r->file_syms.count && (s = symbols_lookup(&r->file_syms, addr))) {
		*start = s->addr;
		*module = ksym_module(&r->file_syms, s);
		r->by_kallsyms++;
		return ksym_name(&r->file_syms, s);
	}
	if (r->cfg->syms && r->cfg->syms->count && (s = symbols_lookup(r->cfg->syms, addr))) {
		*start = s->addr;
		*module = ksym_module(r->cfg->syms, s);
		r->by_map++;
		return ksym_name(r->cfg->syms, s);
	}
	if (r->cfg->kallsyms && (s = symbols_lookup(r->cfg->kallsyms, addr))) {
		*start = s->addr;
		*module = ksym_module(r->cfg->kallsyms, s);
		r->by_map++;
		return ksym_name(r->cfg->kallsyms, s);
	}
	return NULL;
}

static void emit(void *ctx, const struct kmem_event *ev)
{
	struct tracedat_read *r = ctx;

	r->cfg->on_event(r->cfg->ctx, ev);
}

static void lost_marker(struct tracedat_read *r, int cpu, long long missed)
{
	struct kmem_event ev;

	kmem_event_init(&ev, KMEM_LOST_EVENTS);
	ev.line = ++r->line;
	ev.cpu = cpu;
	ev.pfn = missed > 0 ? (uint64_t)missed : 0;
	r->out->stats.events[KMEM_LOST_EVENTS]++;
	r->out->stats.lost_events += ev.pfn;
	recpair_event(&r->pair, &ev);
}

static int take_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *ctx)
{
	struct tracedat_read *r = ctx;
	struct parse_stats *st = &r->out->stats;
	struct kmem_event ev;
	const uint32_t *frames;
	uint32_t n;

	(void)handle;
	if (cpu >= 0 && cpu < 4096) {
		if (cpu >= r->ncpus) {
			int grown = cpu + 1;

			r->last_offset = xrealloc(r->last_offset,
						  (size_t)grown * sizeof(*r->last_offset));
			memset(r->last_offset + r->ncpus, 0, (size_t)(grown - r->ncpus) *
			       sizeof(*r->last_offset));
			r->ncpus = grown;
		}
		if (r->last_offset[cpu] && rec->offset <= r->last_offset[cpu]) {
			r->going_round = true;
			return -1;	/* tracecmd_iterate_events stops */
		}
		r->last_offset[cpu] = rec->offset;
	}
	rec->cpu = cpu;
	if (r->cfg->usec_timestamps)
		rec->ts = (rec->ts + 500) / 1000 * 1000;	/* trace-cmd report rounds */
	if (rec->missed_events)
		lost_marker(r, cpu, rec->missed_events);
	r->facts->records++;
	r->line++;
	st->lines++;
	switch (tepkmem_decode(&r->k, rec, &ev)) {
	case TEPKMEM_EVENT:
		ev.line = r->line;
		st->events[ev.kind]++;
		if (kmem_is_page(ev.kind) && !(r->cfg->want & WANT_PAGE))
			recpair_other(&r->pair, cpu);	/* as the text parser passes them over */
		else
			recpair_event(&r->pair, &ev);
		break;
	case TEPKMEM_STACK:
		frames = tepkmem_stack(&r->k, &n);
		st->stack_lines += 1 + n;
		st->lines += n;
		r->line += n;
		recpair_stack(&r->pair, cpu, frames, n);
		break;
	case TEPKMEM_MALFORMED:
		st->malformed++;
		if (!r->out->first_malformed_line)
			r->out->first_malformed_line = r->line;
		recpair_other(&r->pair, cpu);
		break;
	default:
		st->other_events++;
		recpair_other(&r->pair, cpu);
		break;
	}
	return 0;
}

/* A record of the pages walked in place (tracedat_pages.h), as libtracecmd's. */
static int take_page_record(struct tep_record *rec, int cpu, void *ctx)
{
	return take_record(NULL, rec, cpu, ctx);
}

/*
 * The records in timestamp order: walked in place in the mapped file when
 * its layout allows (uncompressed, timestamps as recorded), else by
 * libtracecmd.
 */
static int iterate_records(struct tracecmd_input *handle, const unsigned char *map,
			   uint64_t size, const struct dat_flyrecord *fly, struct tracedat_read *r)
{
	if (!map)
		return tracecmd_iterate_events(handle, NULL, 0, take_record, r);
	return datpages_iterate(map, size, fly, take_page_record, r);
}

/*
 * libtracecmd 3.1 crashes in its own clean-up whenever tracecmd_open_fd
 * fails half-way (it frees per-CPU data it has not made yet), and the
 * ways a damaged file makes it fail there are many (the fuzzer found one
 * after another). So the open is first tried in a child, which may die or
 * hang in our place: formats parsed as above, kallsyms skipped. About
 * 9 ms on the corpus captures (0.061 s instead of 0.050 s for 17.9 MB).
 */
#define OPEN_PATIENCE_S 30
enum open_probe { OPEN_FINE, OPEN_DIES, OPEN_HANGS };

/* The child's exit when libtracecmd refused the file cleanly (any other failure is a death). */
#define OPEN_REFUSED_EXIT 3

static enum open_probe libtracecmd_opens_it(int fd)
{
	struct tracecmd_input *handle;
	pid_t child;
	int status, in;

	child = fork_when_quiet();
	if (child < 0)
		return OPEN_FINE;	/* no child: the read goes on unguarded */
	if (child == 0) {
		int null = open("/dev/null", O_WRONLY);

		tepguard_die_plainly();
		if (null >= 0) {	/* what it says (the library's, a sanitizer's) the parent says */
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		signal(SIGALRM, SIG_DFL);
		alarm(OPEN_PATIENCE_S);
		in = dup(fd);
		if (in < 0 || lseek(in, 0, SEEK_SET) < 0)
			_exit(0);
		tep_overrides_probe();
		handle = tracecmd_open_fd(in, TRACECMD_FL_LOAD_NO_PLUGINS);
		_exit(handle ? 0 : OPEN_REFUSED_EXIT);	/* a clean refusal: the parent says it */
	}
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return OPEN_FINE;
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGALRM ? OPEN_HANGS : OPEN_DIES;
	/* 0 opened, OPEN_REFUSED_EXIT refused; another exit is a sanitizer's or the library's own */
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != OPEN_REFUSED_EXIT)
		return OPEN_DIES;
	return OPEN_FINE;
}

/*
 * A walkable file mapped and its tep made of its parts (tracedat_tep.h),
 * the kallsyms into r->file_syms; NULL (nothing mapped) when libtracecmd
 * is to read it after all: the old page format, or pages with no 8-byte
 * timestamp, which libtracecmd refuses (crashing, as its probing child says).
 */
static struct tep_handle *open_from_parts(int fd, const struct dat_flyrecord *fly,
					  struct tracedat_read *r, unsigned char **map,
					  uint64_t *size)
{
	struct tep_handle *tep;
	struct stat st;
	void *m;

	if (fstat(fd, &st) < 0 ||
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return NULL;
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	tep = dat_tep_of_parts(m, fly, &r->file_syms);
	if (tep && !tep_is_old_format(tep) && tep_get_header_timestamp_size(tep) == 8) {
		*map = m;
		*size = (uint64_t)st.st_size;
		return tep;
	}
	if (tep)
		tep_free(tep);
	symbols_release(&r->file_syms);
	munmap(m, (size_t)st.st_size);
	return NULL;
}

/* libtracecmd's open of dup_fd (which it then owns), tried in a child first: 0, or -1 and err. */
static int open_with_libtracecmd(int fd, int dup_fd, const char *name, struct tracedat_read *r,
				 struct tracecmd_input **handle, struct ta_error *err)
{
	switch (libtracecmd_opens_it(fd)) {
	case OPEN_DIES:
		close(dup_fd);
		return error_set(err, "'%s' is a damaged trace.dat: libtracecmd crashes opening it",
				 name);
	case OPEN_HANGS:
		close(dup_fd);
		return error_set(err, "'%s' is a damaged trace.dat: libtracecmd does not finish "
				 "opening it (%d s)", name, OPEN_PATIENCE_S);
	default:
		break;
	}
	lseek(dup_fd, 0, SEEK_SET);
	tep_overrides_open(&r->file_syms);
	*handle = tracecmd_open_fd(dup_fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	tep_overrides_end();
	if (*handle)
		return 0;
	symbols_release(&r->file_syms);
	close(dup_fd);
	return error_set(err, "'%s' is a trace.dat that libtracecmd cannot open: damaged, cut "
			 "short, or of a version it does not read", name);
}

int tracedat_read(int fd, const struct binread_config *cfg, struct read_result *out,
		  struct binread_facts *facts, struct ta_error *err)
{
	struct tracedat_read r;
	struct dat_flyrecord fly;
	struct tracecmd_input *handle = NULL;
	struct tep_handle *tep = NULL;
	unsigned char *map = NULL;
	uint64_t map_size = 0;
	int dup_fd = dup(fd), rc;

	if (dup_fd < 0)
		return error_set_errno(err, errno, "cannot read '%s'", cfg->name);
	if (trace_library_load("to read a trace.dat", err) < 0) {
		close(dup_fd);
		return -1;
	}
	switch (datlayout_check(fd, facts->version, &fly)) {
	case DAT_LAYOUT_OK:
		break;
	case DAT_FORMATS_CRASH:
		close(dup_fd);
		return error_set(err, "'%s' is a damaged trace.dat: its event formats make "
				 "libtraceevent crash", cfg->name);
	case DAT_HEADER_PAGE_BAD:
		close(dup_fd);
		return error_set(err, "'%s' is a damaged trace.dat: its header_page format does not "
				 "describe its pages", cfg->name);
	default:
		close(dup_fd);
		return error_set(err, DAMAGED_LAYOUT, cfg->name);
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	memset(&r, 0, sizeof(r));
	symbols_init(&r.file_syms);
	if (fly.walkable)
		tep = open_from_parts(fd, &fly, &r, &map, &map_size);
	if (!tep) {
		if (open_with_libtracecmd(fd, dup_fd, cfg->name, &r, &handle, err) < 0) {
			dat_flyrecord_release(&fly);
			return -1;
		}
		tep = tracecmd_get_tep(handle);
	}
	if (cfg->modules_text && r.file_syms.count)	/* checked as it was loaded */
		(void)symbols_parse_modules(&r.file_syms, cfg->modules_text, cfg->modules_len,
					    cfg->modules_path, err);
	r.cfg = cfg;
	r.out = out;
	r.facts = facts;
	tepkmem_init(&r.k, tep, cfg->strings, cfg->want, resolve, &r);
	recpair_init(&r.pair, cfg->strings, &out->stats.stacks, (cfg->want & WANT_STACK) != 0,
		     emit, &r);
	out->header.cpus = tep_get_cpus(tep);
	r.line = 1;	/* trace-cmd report's "cpus=N" */
	out->stats.lines = 1;
	out->stats.header_lines = out->stats.trace_headers = 1;
	rc = iterate_records(handle, map, map_size, &fly, &r);
	dat_flyrecord_release(&fly);
	recpair_flush(&r.pair);
	facts->symbols_from = r.by_kallsyms ? "the file's kallsyms"
			      : r.by_map ? cfg->syms->path : NULL;
	recpair_release(&r.pair);
	tepkmem_release(&r.k);
	if (handle) {
		tracecmd_close(handle);
	} else {
		tep_free(tep);
		munmap(map, (size_t)map_size);
		close(dup_fd);
	}
	symbols_release(&r.file_syms);
	free(r.last_offset);
	if (r.going_round)
		return error_set(err, "'%s' is a damaged trace.dat: libtracecmd reads one of its "
				 "pages over and over", cfg->name);
	if (rc == DATPAGES_DAMAGED)
		return error_set(err, DAMAGED_LAYOUT, cfg->name);
	if (rc < 0)
		return error_set(err, "'%s': libtracecmd could not read its events to the end "
				 "(a damaged or cut trace.dat)", cfg->name);
	return 0;
}
