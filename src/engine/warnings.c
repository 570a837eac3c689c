/*
 * warnings.c - what a run says of its log once read: no kmem event in it
 * (and which events it has), addresses no symbol names, an empty time
 * window, --peak-at outside the log. Only messages; changes nothing.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "engine.h"
#include "engine_local.h"
#include "callsite.h"

/* Most lines first, then by name: the same whichever thread saw a name first. */
static bool event_name_goes_before(const struct event_names *e, uint32_t a, uint32_t b)
{
	if (e->lines[a] != e->lines[b])
		return e->lines[a] > e->lines[b];
	return strcmp(e->name[a], e->name[b]) < 0;
}

static void list_event_names(const struct event_names *e, char *out, size_t cap)
{
	uint32_t order[EVENT_NAMES_MAX], i, j;
	size_t n = 0;

	for (i = 0; i < e->count; i++) {	/* a few names: insertion sort */
		for (j = i; j > 0 && event_name_goes_before(e, i, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	out[0] = '\0';
	for (i = 0; i < e->count && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s (%llu)", i ? ", " : "",
				      e->name[order[i]], (unsigned long long)e->lines[order[i]]);
	if (e->other_lines && n < cap)
		snprintf(out + n, cap - n, " and %llu lines of other events",
			 (unsigned long long)e->other_lines);
}

/*
 * A file with no trace line at all is the wrong file (binary data, a
 * source file): an error before any report is written. A trace with no
 * kmem event is a log of the wrong events: a warning saying which.
 */
int run_check_it_is_a_kmem_log(const struct analysis *r, struct ta_error *err)
{
	const struct parse_stats *st = &r->read.stats;
	uint64_t lines = st->lines + (r->input.truncated_last_line ? 1 : 0);
	char name[1024], names[512];

	if (r->input.is_stdin)
		snprintf(name, sizeof(name), "standard input");
	else
		snprintf(name, sizeof(name), "'%s'", r->req->log_path);

	if (lines == 0 && r->input.interrupted)
		return error_set(err, "nothing was read from %s before it was interrupted", name);
	if (lines == 0)
		return error_set(err, "%s is empty: there is no trace line to read", name);
	if (parse_stats_trace_lines(st) == 0) {
		if (lines == 1)
			return error_set(err, "%s is not an ftrace text log: its only line is not "
					 "a trace line", name);
		return error_set(err, "%s is not an ftrace text log: none of its %llu lines is a "
				 "trace line", name, (unsigned long long)lines);
	}
	if (parse_stats_kmem_lines(st) > 0)
		return 0;
	if (st->other_events) {
		list_event_names(&r->read.other_events, names, sizeof(names));
		warn("%s has no allocation event (kmalloc, kfree, kmem_cache_*, mm_page_*), only "
		     "other events: %s; were those enabled? "
		     "(echo 1 > /sys/kernel/tracing/events/kmem/enable)", name, names);
	} else {
		warn("%s has no event at all, only ftrace headers, markers or stack lines: was "
		     "anything traced? (echo 1 > /sys/kernel/tracing/events/kmem/enable)", name);
	}
	return 0;
}

/*
 * Some addresses named no function of the symbols given: say how many and
 * why, a module's extent apart (freed init text, or another load cycle).
 */
static void warn_unresolved(uint64_t unresolved, uint64_t hex, uint64_t past_module,
			    uint64_t other_load, const char *map)
{
	char why[256] = "";

	if (past_module && other_load)
		snprintf(why, sizeof(why), " (%llu past the end of a module's code: freed init "
			 "text, or another load cycle; %llu in a module --modules does not place "
			 "there)", (unsigned long long)past_module, (unsigned long long)other_load);
	else if (past_module)
		snprintf(why, sizeof(why), " (%s past the end of a module's code: freed init text, "
			 "or another load cycle)", past_module == unresolved ? "all" : "some");
	else if (other_load)
		snprintf(why, sizeof(why), " (%s in a module that --modules does not place there: "
			 "another load cycle)", other_load == unresolved ? "all" : "some");
	warn("%llu of %llu call site addresses are in no function of '%s'%s: they stay hex "
	     "as (unresolved)", (unsigned long long)unresolved, (unsigned long long)hex, map, why);
}

void run_say_how_cgroups_were_found(const struct analysis *r)
{
	const uint64_t *via = r->cgroup_via;

	if (!r->have_tasks || r->req->quiet)
		return;
	if (r->req->filters.ncgroup && !r->account.totals.allocs)
		warn("--cgroup: no allocation's task is in %s%s (the map: %s)",
		     r->req->filters.cgroup[0], r->req->filters.ncgroup > 1 ? " nor the others" : "",
		     r->tasks.map_source);
	fprintf(stderr, "trace_analyze: cgroups: of %llu allocations, %llu by their task in %s, "
		"%llu by their task's parent at its fork (%llu fork events read), %llu of a task "
		"in neither (\"(unknown cgroup)\")\n",
		(unsigned long long)(via[CGROUP_VIA_MAP] + via[CGROUP_VIA_FORK] +
				     via[CGROUP_VIA_NONE]),
		(unsigned long long)via[CGROUP_VIA_MAP], r->tasks.map_source,
		(unsigned long long)via[CGROUP_VIA_FORK], (unsigned long long)r->tasks.nforks,
		(unsigned long long)via[CGROUP_VIA_NONE]);
}

/* Say once when addresses stay hex: no System.map, or not in it. */
void run_warn_about_unresolved_addresses(const struct analysis *r)
{
	const struct strtab *cs = &r->strings.call_sites;
	uint64_t addr, hex = 0, unresolved = 0, past_module = 0, other_load = 0;
	uint32_t id;

	for (id = 0; id < r->account.nsites; id++) {
		if (!account_site(&r->account, id) ||
		    !callsite_is_address(strtab_get(cs, id), strtab_length(cs, id), &addr))
			continue;
		hex++;
		if (r->syms.count && symbols_lookup(&r->syms, addr))
			continue;
		unresolved++;
		if (r->syms.count) {
			enum symbol_miss why = symbols_why_not(&r->syms, addr);

			past_module += why == SYMMISS_PAST_MODULE;
			other_load += why == SYMMISS_OTHER_LOAD;
		}
	}
	if (hex && r->have_binary && !r->have_db && r->binary.kind == BINARY_PERFDATA &&
	    !r->binary.symbols_from) {
		struct utsname u;

		if (r->binary.os_release[0] && uname(&u) == 0 &&
		    strcmp(r->binary.os_release, u.release) != 0)
			warn("'%s' was recorded on Linux %s, not this kernel (%s): its addresses stay "
			     "hex; give that kernel's symbols with --kallsyms FILE (its /proc/kallsyms) "
			     "or -k TREE", r->facts.log_name, r->binary.os_release, u.release);
		else
			warn("'%s' holds no symbols and none were given: its addresses stay hex; give "
			     "the kernel's symbols with --kallsyms FILE (its /proc/kallsyms) or -k TREE",
			     r->facts.log_name);
	} else if (hex && !r->syms.count)
		warn("%llu call sites are bare addresses and no symbols were given (-k DIR, "
		     "--system-map FILE, or --kallsyms FILE with --modules FILE): they stay hex",
		     (unsigned long long)hex);
	else if (unresolved)
		warn_unresolved(unresolved, hex, past_module, other_load, r->map_path);
}

/* --time kept nothing: say where the log's events are, or every report is empty unexplained. */
void run_warn_about_an_empty_window(const struct analysis *a)
{
	const struct analysis_request *o = a->req;
	char from[32] = "", to[32] = "";
	uint64_t kept = 0;
	int k;

	if (!analysis_time_window_set(o) || !a->log_last_ns)
		return;
	for (k = 0; k < KMEM_KIND_COUNT; k++)
		if (k != KMEM_LOST_EVENTS && k != KMEM_BUFFER_STARTED)
			kept += a->in_window[k];
	if (kept)
		return;
	if (o->has_time_start)
		snprintf(from, sizeof(from), "%.6f", (double)o->time_start_ns / 1e9);
	if (o->has_time_end)
		snprintf(to, sizeof(to), "%.6f", (double)o->time_end_ns / 1e9);
	warn("--time %s,%s kept none of the %llu events: the log runs from %.6f to %.6f s "
	     "(%.3f s)", from, to, (unsigned long long)a->outside_window,
	     (double)a->log_first_ns / 1e9, (double)a->log_last_ns / 1e9,
	     (double)(a->log_last_ns - a->log_first_ns) / 1e9);
}

/*
 * --peak-at asks for a moment of the log: one outside its clock would give
 * the empty start or the end without a word, so it is refused, saying
 * where the clock runs (as --time's warning does).
 */
int run_check_peak_at(const struct analysis *a, struct ta_error *err)
{
	const struct analysis_request *o = a->req;

	if (!o->has_peak_at || !a->log_last_ns ||
	    (o->peak_at_ns >= a->log_first_ns && o->peak_at_ns <= a->log_last_ns))
		return 0;
	return error_set(err, "--peak-at %.6f is outside '%s': its clock runs from %.6f to %.6f s "
			 "(%.3f s)", (double)o->peak_at_ns / 1e9, a->facts.log_name,
			 (double)a->log_first_ns / 1e9, (double)a->log_last_ns / 1e9,
			 (double)(a->log_last_ns - a->log_first_ns) / 1e9);
}
