/*
 * engine.c - one log (or DB) analysed: the kernel tree and System.map
 * loaded, the log streamed through the parser into the accounts (by call
 * site, by origin key, by slab cache), call sites placed in the tree. What
 * the bare command and diff both need; no report is written here.
 *
 * Owns the order of things and the wiring between modules; holds no
 * parsing or counting logic of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "utf8.h"
#include "formats.h"
#include "testhook.h"
#include "binread.h"
#include "allocgroups.h"
#include "capture.h"
#include "liveevents.h"
#include "callsite.h"
#include "kindex.h"
#include "text_reader.h"
#include "scratch.h"
#include "tickorder.h"
#include "regroup.h"
#include "text_stacks.h"

double analysis_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- kernel symbols --------------------------------------------------------- */

static bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether the file at path begins as a gzip, xz or zstd stream does. */
static bool file_is_compressed(const char *path)
{
	unsigned char head[COMPRESSION_MAGIC_MAX];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head));

	if (fd >= 0)
		close(fd);
	return n > 0 && compression_of(head, (size_t)n) != COMPRESSION_NONE;
}

/* A compressed symbol file's whole text, decompressed as a log is (the input module). */
static int read_compressed_text(const char *path, char **text, size_t *len, struct ta_error *err)
{
	struct input in;
	struct chunk c;
	size_t cap = 0;
	int rc;

	*text = NULL;
	*len = 0;
	if (input_open(&in, path, err) < 0)
		return -1;
	chunk_init(&c, 0);
	while ((rc = input_read_chunk(&in, &c, err)) > 0) {
		if (*len + c.len > cap) {
			cap = (*len + c.len) * 2;
			*text = xrealloc(*text, cap);
		}
		memcpy(*text + *len, c.data, c.len);
		*len += c.len;
	}
	chunk_release(&c);
	input_close(&in);
	if (rc < 0) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/*
 * A System.map or kallsyms file into t: plain, or compressed as the corpus
 * ships them (kallsyms.xz), known by its first bytes as a log is.
 */
static int load_symbol_file(struct symbol_table *t, const char *path, bool kallsyms,
			    struct ta_error *err)
{
	char *text;
	size_t len;
	int rc;

	if (!file_is_compressed(path))
		return kallsyms ? symbols_load_kallsyms(t, path, err)
				: symbols_load_system_map(t, path, err);
	if (read_compressed_text(path, &text, &len, err) < 0)
		return -1;
	rc = kallsyms ? symbols_parse_kallsyms(t, text, len, path, err)
		      : symbols_parse_system_map(t, text, len, path, err);
	free(text);
	return rc;
}

/* --system-map FILE, or the System.map of -k DIR (or of its index). */
static int load_symbols(struct analysis *r, struct ta_error *err)
{
	const struct analysis_request *o = r->req;

	if (o->system_map) {
		r->map_path = xstrdup(o->system_map);
	} else if (r->have_ktree) {
		size_t n;

		if (!r->ktree.system_map)
			return 0;
		n = strlen(o->kernel) + sizeof("/System.map");
		r->map_path = xmalloc(n);
		snprintf(r->map_path, n, "%s/System.map", o->kernel);
		return symbols_parse_system_map(&r->syms, r->ktree.system_map,
						r->ktree.system_map_len, r->map_path, err);
	} else if (o->kernel) {
		struct stat st;

		if (stat(o->kernel, &st) < 0)
			return error_set_errno(err, errno, "cannot open kernel tree '%s'", o->kernel);
		if (!S_ISDIR(st.st_mode))
			return error_set(err, "kernel tree '%s' is not a directory", o->kernel);
		size_t n = strlen(o->kernel) + sizeof("/System.map");

		r->map_path = xmalloc(n);
		snprintf(r->map_path, n, "%s/System.map", o->kernel);
		if (access(r->map_path, F_OK) < 0) {
			free(r->map_path);
			r->map_path = NULL;
			return 0;
		}
	} else {
		return 0;
	}
	if (is_directory(r->map_path))
		return error_set_errno(err, EISDIR, "cannot read '%s'", r->map_path);
	return load_symbol_file(&r->syms, r->map_path, false, err);
}


/* ---- the kernel tree ------------------------------------------------------------- */

/* The reports that need the tree's objects, not only its System.map. */
static bool needs_objects(const struct analysis_request *o)
{
	return (o->needs & NEED_OBJECTS) || o->branch || o->group_by == GROUP_DIR ||
	       o->strict_kernel ||
	       (!o->log_path && !o->db_path);
}

static bool tree_has_a_map_or_vmlinux(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/System.map", dir);
	if (access(path, F_OK) == 0)
		return true;
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	return access(path, F_OK) == 0;
}

/* -k DIR walks the tree (when a report needs it); -k FILE loads an index. */
static int load_kernel(struct analysis *r, struct ta_error *err)
{
	const struct analysis_request *o = r->req;
	struct stat st;

	if (!o->kernel)
		return 0;
	if (stat(o->kernel, &st) < 0)
		return error_set_errno(err, errno, "cannot open kernel tree '%s'", o->kernel);
	if (S_ISDIR(st.st_mode)) {
		if (ktree_check_top(o->kernel, err) < 0)
			return -1;
		if (!tree_has_a_map_or_vmlinux(o->kernel) && !needs_objects(o))
			return error_set(err, "kernel tree '%s' has neither System.map nor vmlinux: "
					 "is it a built kernel tree?", o->kernel);
		if (!needs_objects(o))
			return 0;
		if (ktree_walk(&r->ktree, o->kernel, err) < 0)
			return -1;
		if (r->ktree.counts.objects == 0)
			return error_set(err, "kernel tree '%s' has no objects: is it built? "
					 "(looked for .o files with a .c or .S source beside them)",
					 o->kernel);
	} else if (kindex_load(&r->ktree, o->kernel, err) < 0) {
		return -1;
	}
	r->have_ktree = true;
	return 0;
}

static int build_directories(struct analysis *r, struct ta_error *err)
{
	const struct analysis_request *o = r->req;

	if (!r->have_ktree)
		return 0;
	dirtree_build(&r->dirs, &r->ktree);
	r->have_dirs = true;
	if (o->branch) {
		r->branch = dirtree_find(&r->dirs, o->branch);
		if (r->branch == DIR_NONE)
			return error_set(err, "branch '%s' is not in kernel tree '%s'", o->branch,
					 o->kernel);
	}
	return 0;
}

static bool by_origin(const struct analysis *r)
{
	return r->req->group_by == GROUP_ORIGIN;
}

/* Where call site id's function is defined (or, by origin, key id's origin function). */
static uint32_t place_of_row_id(struct analysis *r, uint32_t id)
{
	const struct strtab *cs = &r->strings.call_sites;
	struct origin_namer on = { &r->keys, &r->chains };
	char name[CALLSITE_NAME_MAX], module[CALLSITE_NAME_MAX];
	enum place_kind kind;
	uint64_t size = 0;
	size_t n;

	module[0] = '\0';
	if (by_origin(r)) {
		n = origin_row_name(&on, id, name, sizeof(name));
	} else {
		n = callsite_function(strtab_get(cs, id), strtab_length(cs, id), &r->syms, name,
				      sizeof(name), &size);
		callsite_module(strtab_get(cs, id), strtab_length(cs, id), &r->syms, module,
				sizeof(module));
	}
	return dirtree_place_function(&r->dirs, name, n, size,
				      module[0] && module[0] != '(' ? module : NULL, &kind);
}

/*
 * A call site's place found as it is first seen (--group-by dir's peak
 * groups), kept so that it is placed (and counted) once.
 */
static uint32_t first_place_of(struct analysis *r, uint32_t id)
{
	r->first_place = xgrow_zeroed(r->first_place, &r->nfirst_place, id,
				      sizeof(*r->first_place));
	if (!r->first_place[id])
		r->first_place[id] = place_of_row_id(r, id) + 1;
	return r->first_place[id] - 1;
}

/*
 * Put every call site that allocated where its function is defined (or,
 * by origin, every origin key where its origin function is), and add its
 * bytes to that directory.
 */
static void place_call_sites(struct analysis *r)
{
	const struct account *a = by_origin(r) ? &r->by_key : &r->account;
	uint32_t id, *place;

	place = xcalloc(a->nsites ? a->nsites : 1, sizeof(*place));
	for (id = 0; id < a->nsites; id++) {
		const struct site_stats *s = account_site(a, id);

		place[id] = DIR_NONE;
		if (!s)
			continue;
		place[id] = !by_origin(r) && id < r->nfirst_place && r->first_place[id]
			    ? r->first_place[id] - 1 : place_of_row_id(r, id);
		dirtree_add_dynamic(&r->dirs, place[id], s->total_dynamic, s->current_dynamic,
				    s->current_req);
	}
	if (by_origin(r))
		r->key_place = place;
	else
		r->site_place = place;
}

static uint32_t join_places(const void *ctx, uint32_t a, uint32_t b)
{
	const struct dirtree *d = ctx;

	if (a == b || a == DIR_NONE || b == DIR_NONE)
		return a == DIR_NONE ? b : a;
	return dirtree_common_ancestor(d, a, b);
}

static bool row_is_in_branch(const struct account_row *row, const void *ctx)
{
	const struct analysis *r = ctx;

	return row->place != DIR_NONE && dirtree_is_within(&r->dirs, row->place, r->branch);
}

/* A directory as --group-by dir names it, at the level under -b (or the top level). */
static size_t dir_name_of_place(const struct analysis *r, uint32_t node, char *out, size_t cap)
{
	int n;

	if (node != DIR_NONE)
		node = dirtree_child_toward(&r->dirs, node, r->branch);
	if (node != DIR_NONE)
		return dirtree_path(&r->dirs, node, out, cap);
	n = snprintf(out, cap, "%s", r->req->branch ? "(not under -b)" : "(not in the tree)");
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/*
 * --group-by dir: a call site by the directory it is placed in, at the
 * level under -b (or the top level); "(not in the tree)" when unplaced.
 */
static size_t dir_row_name(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct analysis *r = ctx;

	return dir_name_of_place(r, r->site_place && id < r->account.nsites ? r->site_place[id]
								       : DIR_NONE, out, cap);
}

/*
 * Kernels before 4.20 name their kmalloc caches by bytes (kmalloc-1024,
 * not kmalloc-1k): so do the cache rows of a log that says it is of one
 * (record's header, a perf.data's release); a log that says nothing is
 * taken for a current kernel's.
 */
static bool kmalloc_named_in_bytes(const struct analysis *r)
{
	int major = r->read.header.kernel_major, minor = r->read.header.kernel_minor;

	if (!major && r->have_binary && r->binary.os_release[0])
		kernel_version_of(r->binary.os_release, strlen(r->binary.os_release), &major,
				  &minor);
	return major && (major < 4 || (major == 4 && minor < 20));
}

/* A cache row's name with kmalloc-Nk spelled kmalloc-N*1024 (kmalloc_named_in_bytes). */
static size_t cache_row_name_in_bytes(const void *ctx, uint32_t id, char *out, size_t cap)
{
	size_t n = strtab_row_name(ctx, id, out, cap);
	unsigned long k;
	char *num, *end;
	int w;

	if (strncmp(out, "kmalloc-", 8) != 0 || n < 10 || out[n - 1] != 'k')
		return n;
	num = out + n - 1;
	while (num > out && num[-1] >= '0' && num[-1] <= '9')
		num--;
	k = strtoul(num, &end, 10);
	if (end != out + n - 1 || num[-1] != '-')
		return n;
	w = snprintf(num, cap - (size_t)(num - out), "%lu", k * 1024);
	return w < 0 ? n : (size_t)(num - out) + (size_t)w < cap ? (size_t)(num - out) + (size_t)w
								 : cap - 1;
}

/* The rows' names: call sites, functions, origins (over the account by key), caches. */
const struct account *analysis_rows_account(const struct analysis *r, struct namers *n)
{
	n->cs.call_sites = &r->strings.call_sites;
	n->cs.syms = &r->syms;
	n->cs.by_function = r->req->group_by == GROUP_FUNCTION;
	n->on.keys = &r->keys;
	n->on.chains = &r->chains;
	n->caches.names = &r->cache_keys;
	if (by_origin(r)) {
		n->namer.name = origin_row_name;
		n->namer.ctx = &n->on;
		return &r->by_key;
	}
	if (group_is_by_event_field(r->req->group_by)) {
		n->namer.name = (r->req->group_by == GROUP_CACHE ||
				 r->req->group_by == GROUP_SIZE_CLASS) && kmalloc_named_in_bytes(r)
				? cache_row_name_in_bytes : strtab_row_name;
		n->namer.ctx = &n->caches;
		return &r->by_cache;
	}
	n->dirs = r;
	if (r->req->group_by == GROUP_DIR) {
		n->namer.name = dir_row_name;
		n->namer.ctx = r;
		return &r->account;
	}
	n->namer.name = callsite_row_name;
	n->namer.ctx = &n->cs;
	return &r->account;
}

static bool placed_in_branch(const struct analysis *r, const uint32_t *place, uint32_t id,
			     uint32_t nplaces)
{
	return place && id < nplaces && place[id] != DIR_NONE &&
	       dirtree_is_within(&r->dirs, place[id], r->branch);
}

/* Rows of the rows' account: call sites, or origin keys by their origin's place. */
static bool row_id_in_branch(const void *ctx, uint32_t id)
{
	const struct analysis *r = ctx;

	if (by_origin(r))
		return placed_in_branch(r, r->key_place, id, r->by_key.nsites);
	return placed_in_branch(r, r->site_place, id, r->account.nsites);
}

/* Origin keys (the stack tables): by their origin, or by their call site's place. */
static bool key_in_branch(const void *ctx, uint32_t key)
{
	const struct analysis *r = ctx;
	uint32_t call_site, stack;

	if (by_origin(r))
		return placed_in_branch(r, r->key_place, key, r->by_key.nsites);
	origin_key_parts(&r->keys, key, &call_site, &stack);
	return placed_in_branch(r, r->site_place, call_site, r->account.nsites);
}

void analysis_branch_filters(const struct analysis *a, struct row_filter *rows,
			     struct row_filter *keys)
{
	bool cut = a->req->branch && a->have_dirs;

	rows->keep = cut ? row_id_in_branch : NULL;
	rows->ctx = a;
	keys->keep = cut && a->have_keys ? key_in_branch : NULL;
	keys->ctx = a;
}

/* The account rows, placed in the tree and cut to -b when there is one. */
void analysis_rows(const struct analysis *r, struct account_rows *rows)
{
	const uint32_t *place = by_origin(r) ? r->key_place
			      : group_is_by_event_field(r->req->group_by) ? NULL : r->site_place;
	struct row_places places = { place, join_places, &r->dirs };
	struct namers n;
	const struct account *a = analysis_rows_account(r, &n);

	account_rows_build(rows, a, &n.namer, r->req->order, place ? &places : NULL);
	if (r->req->branch && r->have_dirs)
		account_rows_filter(rows, row_is_in_branch, r);
}

/* ---- reading the log ---------------------------------------------------------- */

/*
 * "reading 'x.log': 1204 of 2677 MB, 45%, 1050 MB/s, 1.4 s left": the
 * position in the file as given (compressed bytes for a compressed one),
 * the speed at which it is read; a stream shows what it has read so far.
 */
static void show_progress_line(const struct input *in, double elapsed)
{
	double done = (double)input_position(in), rate = elapsed > 0 ? done / elapsed : 0;
	const char *name = in->is_stdin ? "standard input" : in->name;

	if (in->size_hint && done <= (double)in->size_hint) {
		double left = rate > 0 ? ((double)in->size_hint - done) / rate : 0;

		fprintf(stderr, "\rtrace_analyze: reading '%s': %.0f of %.0f MB, %.0f%%, %.0f MB/s, "
			"%.0f s left\033[K", name, done / 1e6, (double)in->size_hint / 1e6,
			100.0 * done / (double)in->size_hint, rate / 1e6, left + 0.5);
	} else {
		fprintf(stderr, "\rtrace_analyze: reading '%s': %.0f MB, %.0f MB/s\033[K", name,
			done / 1e6, rate / 1e6);
	}
}

static void show_progress(void *ctx, const struct input *in)
{
	struct analysis *r = ctx;
	double t = analysis_clock();

	if (r->req->quiet || t - r->started < 1.0 || t - r->last_progress < 0.5 ||
	    !isatty(STDERR_FILENO))
		return;
	r->last_progress = t;
	r->progress_shown = true;
	show_progress_line(in, t - r->started);
}

static void end_progress(struct analysis *r)
{
	if (r->progress_shown)
		fputs("\r\033[K", stderr);
}

bool analysis_time_window_set(const struct analysis_request *o)
{
	return o->has_time_start || o->has_time_end;
}

/* --time: markers carry no timestamp and are always kept. */
static bool in_time_window(const struct analysis_request *o, const struct kmem_event *ev)
{
	if (!o->has_time_start && !o->has_time_end)
		return true;
	if (ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED)
		return true;
	return (!o->has_time_start || ev->ts_ns >= o->time_start_ns) &&
	       (!o->has_time_end || ev->ts_ns <= o->time_end_ns);
}

/* Every event, in log order, from the parser or from a DB's replay. */
/* The live table's bucket, then record, of an event about to come. */
static void prefetch_event(void *ctx, const struct kmem_event *ev, int far)
{
	struct analysis *r = ctx;

	if (!kmem_is_slab(ev->kind) || !ev->ptr)
		return;
	if (far)
		ptrmap_prefetch_bucket(&r->account.live, ev->ptr);
	else
		ptrmap_prefetch_record(&r->account.live, ev->ptr);
}

/* The log's own span, of every event read, kept or not (--time's warning, --peak-at's check). */
static void note_log_span(struct analysis *r, const struct kmem_event *ev)
{
	if (ev->ts_ns) {
		if (!r->log_first_ns || ev->ts_ns < r->log_first_ns)
			r->log_first_ns = ev->ts_ns;
		if (ev->ts_ns > r->log_last_ns)
			r->log_last_ns = ev->ts_ns;
	}
}

/*
 * A file's name as the reports show it (titles, Perfetto, pprof): valid
 * UTF-8, its other bytes as \xNN (utf8_clean), so no output is made
 * invalid by a name; the name itself when it is valid already.
 */
static const char *shown_name(struct analysis *r, const char *path)
{
	size_t n = path ? strlen(path) : 0;

	if (!path || utf8_is_clean(path, n))
		return path;
	free(r->shown_name);
	r->shown_name = xmalloc(4 * n + 1);
	utf8_clean(path, n, r->shown_name, 4 * n + 1);
	return r->shown_name;
}

/* --time: is ev in the window? */
static bool kept_by_window(struct analysis *r, const struct kmem_event *ev)
{
	note_log_span(r, ev);
	if (in_time_window(r->req, ev))
		return true;
	r->outside_window++;
	return false;
}

/* Does the allocation match --comm, --pid and --gfp (each given: any of its values)? */
static bool allocation_matches(const struct analysis *r, const struct kmem_event *ev)
{
	const struct task_filters *f = &r->req->filters;
	const char *comm = ev->comm != STR_NONE ? strtab_get(&r->strings.comms, ev->comm) : "";
	const char *gfp = ev->gfp != STR_NONE ? strtab_get(&r->strings.gfps, ev->gfp) : "";
	bool ok;
	size_t i;

	for (ok = !f->ncomm, i = 0; !ok && i < f->ncomm; i++)
		ok = strcmp(comm, f->comm[i]) == 0;
	if (!ok)
		return false;
	for (ok = !f->npid, i = 0; !ok && i < f->npid; i++)
		ok = ev->pid == f->pid[i];
	if (!ok)
		return false;
	for (ok = !f->ngfp, i = 0; !ok && i < f->ngfp; i++) {
		size_t n = strlen(f->gfp[i]);
		const char *p;

		for (p = gfp; !ok && (p = strstr(p, f->gfp[i])); p += n)
			ok = (p == gfp || p[-1] == '|') && (p[n] == '\0' || p[n] == '|');
	}
	if (ok && f->nmodule) {
		char module[64];

		if (ev->call_site == STR_NONE)
			snprintf(module, sizeof(module), "(no call site)");
		else
			callsite_module(strtab_get(&r->strings.call_sites, ev->call_site),
					strtab_length(&r->strings.call_sites, ev->call_site), &r->syms,
					module, sizeof(module));
		for (ok = false, i = 0; !ok && i < f->nmodule; i++)
			ok = strcmp(module, f->module[i]) == 0;
	}
	return ok;
}

/*
 * --comm, --pid, --gfp: an allocation that does not match is left out and
 * its pointer (a page's pfn) remembered, so that its free, by whatever
 * task, is left out too rather than counted as a lost free; the frees of
 * the kept allocations are never filtered (what a task allocates, others
 * free).
 */
static bool kept_by_filters(struct analysis *r, const struct kmem_event *ev)
{
	bool page = kmem_is_page(ev->kind);
	uint64_t key = page ? ev->pfn | 1ull << 63 : ev->ptr;
	struct live_alloc *gone;
	int existed;

	if (ev->kind == KMEM_PAGE_ALLOC || kmem_is_slab_alloc(ev->kind)) {
		if (!key || (page && ev->pfn == 0))
			return allocation_matches(r, ev);
		gone = ptrmap_find(&r->filtered_out, key);
		if (allocation_matches(r, ev)) {
			if (gone)	/* the pointer, freed unseen, is one of ours now */
				ptrmap_remove(&r->filtered_out, gone);
			return true;
		}
		ptrmap_insert(&r->filtered_out, key, &existed);
		r->filtered_allocs++;
		/* a kept object there was freed unseen: as the unfiltered account says */
		account_pointer_came_back(&r->account, ev);
		if (r->have_keys)
			account_pointer_came_back(&r->by_key, ev);
		if (r->have_caches)
			account_pointer_came_back(&r->by_cache, ev);
		return false;
	}
	if (ev->kind == KMEM_PAGE_FREE || kmem_is_slab_free(ev->kind)) {
		gone = key ? ptrmap_find(&r->filtered_out, key) : NULL;
		if (!gone)
			return true;
		ptrmap_remove(&r->filtered_out, gone);
		r->filtered_frees++;
		return false;
	}
	return true;	/* markers, batched page frees, per-CPU drains... */
}

/*
 * tickorder.h's question: is ev's pointer live? Every slab event's, whatever
 * the filters keep: the account's live map when it sees them all, else a
 * map of its own (so the order is the same with --malloc, --comm or --time).
 */
static int pointer_is_live(void *ctx, const struct kmem_event *ev)
{
	const struct analysis *r = ctx;
	const struct ptrmap *live = r->have_order_live ? &r->order_live : &r->account.live;

	return ptrmap_find(live, ev->ptr) != NULL;
}

/* The order's own live map: what every slab event does to it. */
static void track_order_liveness(struct analysis *r, const struct kmem_event *ev)
{
	struct live_alloc *slot;
	int existed;

	if (!ev->ptr || !kmem_is_slab(ev->kind))
		return;
	if (kmem_is_slab_alloc(ev->kind)) {
		ptrmap_insert(&r->order_live, ev->ptr, &existed)->call_site = 0;
	} else if ((slot = ptrmap_find(&r->order_live, ev->ptr)) != NULL) {
		ptrmap_remove(&r->order_live, slot);
	}
}

/* Every event, in the log's order, through the tick's ordering (tickorder.h). */
static void consume_event(void *ctx, const struct kmem_event *ev)
{
	tick_order_push(&((struct analysis *)ctx)->ticks, ev);
}

/*
 * Each event in pairing order: saved (--save-db: a DB holds them in that
 * order, its accounts of every family agree with the log's), then kept or
 * not by the filters and the time window, into the accounts.
 */
/* --perfetto: what the rows' watcher does not see: pages held, frees of untraced allocations. */
static void note_heap(struct analysis *r, const struct kmem_event *ev, uint64_t untraced_before)
{
	if (r->account.totals.lost_frees > untraced_before)
		heap_samples_untraced_free(&r->heap, ev->ts_ns);
	if (kmem_is_page(ev->kind) && r->have_timeline && r->timeline.page_events)
		heap_samples_pages(&r->heap, r->timeline.pages * 4096, ev->ts_ns);
}

static void consume_ordered(void *ctx, const struct kmem_event *ev)
{
	struct analysis *r = ctx;
	uint64_t untraced;

	if (r->saving && !r->save_failed &&
	    db_writer_add(r->saving, ev, &r->save_error) < 0)
		r->save_failed = true;
	if (r->have_order_live)
		track_order_liveness(r, ev);
	loss_windows_apply(&r->losses, ev);	/* a fact of the log, whatever is kept */

	if (analysis_time_window_set(r->req)) {
		if (!kept_by_window(r, ev))
			return;
	} else if (r->req->has_peak_at) {
		note_log_span(r, ev);
	}
	if (r->have_filters && !kept_by_filters(r, ev))
		return;
	r->in_window[ev->kind]++;
	if (ev->ts_ns) {
		if (!r->first_ns || ev->ts_ns < r->first_ns)
			r->first_ns = ev->ts_ns;
		if (ev->ts_ns > r->last_ns)
			r->last_ns = ev->ts_ns;
	}
	if (r->have_timeline)
		timeline_before_event(&r->timeline, ev);
	untraced = r->account.totals.lost_frees;
	account_apply(&r->account, ev);
	if (r->have_keys && kmem_is_slab(ev->kind))
		count_by_origin(&r->by_key, &r->keys, ev);
	if (r->have_caches && kmem_is_slab(ev->kind)) {
		count_by_event_key(&r->by_cache, &r->cache_keys, &r->strings, ev, r->cache_key,
				   &r->syms);
		if (r->cache_key == KEY_CACHE && ev->cache == STR_NONE &&
		    kmem_is_cache_family(ev->kind) && kmem_is_slab_alloc(ev->kind))
			r->unnamed_cache_allocs++;
	}
	if (r->have_findings)
		findings_apply(&r->findings, ev);
	if (r->have_pages && kmem_is_page(ev->kind))
		pages_apply(&r->pages, ev, r->have_keys && ev->kind == KMEM_PAGE_ALLOC
				   ? origin_key(&r->keys, STR_NONE, ev->stack) : STR_NONE);
	if (r->have_timeline) {
		timeline_after_event(&r->timeline, ev);
		reclaim_counts_apply(&r->reclaim, ev);
	}
	if (r->have_heap)
		note_heap(r, ev, untraced);
}

/* The summary's findings and caches: --summary, and --html, which shows them. */
bool analysis_needs_findings(const struct analysis_request *o)
{
	return o->needs & NEED_FINDINGS;
}

/* Do the reports asked for need stacks: origins, folded stacks, leaks by stack? */
bool analysis_needs_stacks(const struct analysis_request *o)
{
	return o->group_by == GROUP_ORIGIN || (o->needs & NEED_STACKS);
}

/* Does a report need every event, rather than the accounts a DB keeps? */
static bool needs_event_stream(const struct analysis_request *o)
{
	return analysis_needs_findings(o) || (o->needs & NEED_EVENTS) ||
	       o->has_time_start ||
	       o->has_time_end || analysis_needs_stacks(o) || group_is_by_event_field(o->group_by) ||
	       task_filters_set(&o->filters) ||
	       analysis_needs_timeline(o);
}

/* The optional fields the reports asked for need parsed. */
static unsigned fields_wanted(const struct analysis_request *o)
{
	unsigned want = o->user_frames ? WANT_USER_FRAMES : 0;

	if (o->save_db)
		return WANT_ALL | want;
	if (analysis_needs_stacks(o))	/* page events too: their stacks are theirs, not another's */
		want |= WANT_STACK | WANT_PAGE;
	if (o->needs & (NEED_PAGES | NEED_PAGE_ACCOUNT))
		want |= WANT_PAGE;
	if (o->group_by == GROUP_CACHE)
		want |= WANT_CACHE_NAME;
	if (o->group_by == GROUP_COMM || o->group_by == GROUP_PID || o->filters.ncomm ||
	    o->filters.npid)
		want |= WANT_COMM;
	if (o->filters.ngfp)
		want |= WANT_GFP;
	if (o->group_by == GROUP_GFP)
		want |= WANT_GFP;
	/* findings: caches, and page events for the timestamps' order; the timeline: its
	 * slices span every event, pages' too, and its reclaimable counts need the caches'
	 * names, whichever report reads it, alone or beside others */
	if (analysis_needs_findings(o) || analysis_needs_timeline(o))
		want |= WANT_CACHE_NAME | WANT_PAGE;
	if (o->has_time_start || o->has_time_end)
		want |= WANT_PAGE;	/* to count them in the window */
	if (o->needs & NEED_GFP)
		want |= WANT_GFP;
	return want;
}

/*
 * The analyses a DB keeps the results of (dbresults.h): every one whose
 * state a report reads after the last event, but the heap samples of
 * --perfetto (a series per row, as long as the log).
 */
#define RESULT_NEEDS (NEED_FINDINGS | NEED_STACKS | NEED_TIMELINE | NEED_PAGES | \
		      NEED_PAGE_ACCOUNT | NEED_GFP | NEED_PEAK | NEED_LIFETIMES)

/* A run over the whole log, every slab family, no task picked out, no moment asked for. */
static bool reads_the_whole_log(const struct analysis_request *o)
{
	return o->families == FAMILY_ALL && !task_filters_set(&o->filters) &&
	       !o->has_time_start && !o->has_time_end && !o->has_peak_at;
}

/*
 * Does this --save-db run keep the results too: one over a log (record's
 * live capture does only the work asked for, so as not to fall behind the
 * kernel) whose rows are call sites?
 */
static bool saves_results(const struct analysis_request *o)
{
	return o->save_db && !o->live && reads_the_whole_log(o) && o->group_by == GROUP_CALLSITE;
}

/*
 * May this run take a DB's results instead of replaying its events? Its
 * rows are call sites (or made of them, when it asks no row's peak: the
 * kept peaks are the call sites'), or origins when nothing it asks is kept
 * by row; its stacks are the DB's; it wants no heap samples.
 */
static bool takes_results(const struct analysis *r)
{
	const struct analysis_request *o = r->req;

	if (!reads_the_whole_log(o) || group_is_by_event_field(o->group_by) ||
	    (o->needs & NEED_HEAP_SAMPLES) || o->user_frames != r->db.user_frames)
		return false;
	if ((o->needs & NEED_PEAK) && o->group_by != GROUP_CALLSITE)
		return false;	/* the kept peaks are grouped by call site */
	return o->group_by != GROUP_ORIGIN ||
	       !(o->needs & (NEED_TIMELINE | NEED_PEAK | NEED_LIFETIMES));
}

static const char *input_name(const struct analysis *r)
{
	return r->input.is_stdin ? "standard input" : r->req->log_path;
}

/*
 * --save-db: the writer the events go to as they come. A windowed
 * account is not the log's: then the writer keeps all three families.
 */
static int start_saving(struct analysis *r, struct ta_error *err)
{
	if (!r->req->save_db)
		return 0;
	r->saving = db_writer_create(r->req->save_db,
				     analysis_time_window_set(r->req) ? 0 : r->req->families,
				     r->req->user_frames, err);
	return r->saving ? 0 : -1;
}

/* What the run holds, for the DB to keep or to fill: the parts it has. */
static const struct db_results *results_of(struct analysis *r, struct db_results *res)
{
	memset(res, 0, sizeof(*res));
	res->first_ns = &r->first_ns;
	res->last_ns = &r->last_ns;
	res->account = &r->account;
	res->findings = r->have_findings ? &r->findings : NULL;
	res->pages = r->have_pages ? &r->pages : NULL;
	res->timeline = r->have_timeline ? &r->timeline : NULL;
	res->reclaim = r->have_timeline ? &r->reclaim : NULL;
	res->peak = r->have_peak ? &r->peak : NULL;
	res->lifetimes = r->have_lifetimes ? &r->lifetimes : NULL;
	res->keys = r->have_keys ? &r->keys : NULL;
	res->by_key = r->have_keys ? &r->by_key : NULL;
	res->losses = &r->losses;
	return res;
}

/* All of them, or none (a part not made). */
static const struct db_results *results_to_keep(struct analysis *r, struct db_results *res)
{
	results_of(r, res);
	return res->findings && res->pages && res->timeline && res->peak && res->lifetimes &&
	       res->keys ? res : NULL;
}

/* --save-db: the events went to the writer as they came; now the rest. */
static int finish_saving(struct analysis *r, struct ta_error *err)
{
	struct db_writer *w = r->saving;
	struct db_capture_facts capture;
	struct db_results results;

	tick_order_flush(&r->ticks);	/* the last tick's events, before the account is saved */
	r->saving = NULL;
	if (r->save_failed) {
		db_writer_abort(w);
		*err = r->save_error;
		return -1;
	}
	memset(&capture, 0, sizeof(capture));
	if (r->have_binary) {
		capture.kind = (uint64_t)r->binary.kind;
		capture.version = (uint64_t)r->binary.version;
		capture.records = r->binary.records;
		capture.lost_records = r->binary.lost_records;
		snprintf(capture.os_release, sizeof(capture.os_release), "%s", r->binary.os_release);
	}
	return db_writer_finish(w, input_name(r), &r->strings, &r->read.stats, &r->read.header,
				&r->facts.input, &capture, r->ticks.reordered, &r->account,
				analysis_time_window_set(r->req) ? 0 : r->req->families,
				saves_results(r->req) ? results_to_keep(r, &results) : NULL, err);
}

/* "sched_switch (900), rss_stat (334) and 2 more" */
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
static int check_it_is_a_kmem_log(const struct analysis *r, struct ta_error *err)
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

/* The symbols a binary file's addresses may be named with, in the order they are tried. */
static void binary_symbols(const struct analysis *r, struct binread_config *cfg)
{
	cfg->syms = r->syms.count ? &r->syms : NULL;
	cfg->kallsyms = r->kallsyms.count ? &r->kallsyms : NULL;
	cfg->running_kallsyms = true;	/* only if it is the file's kernel */
	cfg->usec_timestamps = getenv("TA_TEST_TIMESTAMPS") &&
			       strcmp(getenv("TA_TEST_TIMESTAMPS"), "usec") == 0;
}

/*
 * A trace.dat or perf.data (known by its magic): decoded straight into
 * events, as a log is parsed. fd is the file, open.
 */
static int read_binary(struct analysis *r, int fd, enum binary_kind kind, struct ta_error *err)
{
	struct binread_config cfg = {
		.name = r->req->log_path,
		.strings = &r->strings,
		.want = fields_wanted(r->req),
		.threads = r->req->threads,
		.on_event = consume_event,
		.on_lookahead = prefetch_event,
		.ctx = r,
	};
	struct stat st;
	int rc;

	binary_symbols(r, &cfg);
	cfg.salvage = r->req->salvage;
	cfg.modules_text = r->modules_text;
	cfg.modules_len = r->modules_len;
	cfg.modules_path = r->req->modules_path;
	if (start_saving(r, err) < 0)
		return -1;
	rc = binread(fd, kind, &cfg, &r->read, &r->binary, err);
	r->have_binary = true;
	r->facts.source = r->facts.log_name = shown_name(r, r->req->log_path);
	r->facts.input.first_malformed_line = r->read.first_malformed_line;
	r->facts.input.bytes_read = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	r->facts.binary = &r->binary;
	if (rc == 0 && r->binary.salvaged)
		warn("'%s' was not finished by perf record: salvaged %llu records with the running "
		     "kernel's event formats; %llu bytes at its end were not a whole record",
		     r->req->log_path, (unsigned long long)r->binary.records,
		     (unsigned long long)r->binary.salvage_bytes_left);
	if (rc == 0 && parse_stats_kmem_lines(&r->read.stats) == 0)
		warn("'%s' (a %s) has no allocation event (kmalloc, kfree, kmem_cache_*, "
		     "mm_page_*) in its %llu records: were the kmem events recorded?",
		     r->req->log_path, binary_kind_name(kind),
		     (unsigned long long)r->binary.records);
	if (rc == 0 && r->saving)
		rc = finish_saving(r, err);
	return rc;
}

/* ---- record's and top's live capture ---- */

struct live_read {
	struct analysis *r;
	struct parser text;	/* the header's and trailer's lines, read as a log's */
	struct live_events events;
};

static void live_emit(void *ctx, const struct kmem_event *ev)
{
	struct analysis *r = ((struct live_read *)ctx)->r;
	const struct live_source *src = r->req->live;

	if (!src->admit || src->admit(src->ctx, ev))
		consume_event(r, ev);
}

/* One item of the capture into the accounts, under the source's lock if it has one. */
static void take_live_item(struct live_read *l, const struct capture_item *it)
{
	const struct live_source *src = l->r->req->live;
	size_t lines = src->on_item ? src->on_item(src->ctx, it) : 0;

	if (src->lock)
		pthread_mutex_lock(src->lock);
	live_events_take(&l->events, it, lines);
	if (src->lock)
		pthread_mutex_unlock(src->lock);
}

/* Lines of tracefs header text through the text parser: the header counts and facts. */
static void read_text_lines(struct live_read *l, const char *text)
{
	struct kmem_event ev;

	while (text && *text) {
		size_t n = strcspn(text, "\n");

		parse_line(&l->text, text, n, ++l->events.line, &ev);
		text += n + (text[n] == '\n');
	}
}

/*
 * record's or top's capture: each record decoded straight into the accounts (and
 * written to the log by the source, which says how many lines it made
 * there, so that line numbers are the log's); the log's header and
 * trailer read as a log's are.
 */
static int read_live(struct analysis *r, struct ta_error *err)
{
	const struct live_source *src = r->req->live;
	struct capture *c = src->capture;
	struct live_read l;
	struct capture_item it;
	const char *trailer = NULL;
	unsigned want = fields_wanted(r->req) | src->want;
	int rc;

	memset(&l, 0, sizeof(l));
	l.r = r;
	parser_init(&l.text, &r->strings, want);
	live_events_init(&l.events, c, &r->strings, want, (want & WANT_STACK) != 0,
			 &r->read.stats, live_emit, &l);
	l.events.k.round_to_usec = src->usec;	/* the microseconds a text log gives, -o or not */
	if (start_saving(r, err) < 0) {
		live_events_release(&l.events);
		parser_release(&l.text);
		return -1;
	}
	read_text_lines(&l, src->header);
	for (;;) {
		rc = capture_next(c, &it, err);
		if (rc <= 0)
			break;
		take_live_item(&l, &it);
	}
	if (src->lock)
		pthread_mutex_lock(src->lock);
	live_events_flush(&l.events);
	if (src->lock)
		pthread_mutex_unlock(src->lock);
	if (rc == 0 && src->on_end && src->on_end(src->ctx, &trailer, err) < 0)
		rc = -1;
	read_text_lines(&l, trailer);
	parse_stats_add(&r->read.stats, &l.text.stats);
	if (src->log_bytes)	/* the lines were the log's: so are its bytes */
		r->read.stats.bytes = src->log_bytes(src->ctx);
	trace_header_add(&r->read.header, &l.text.header);
	live_events_release(&l.events);
	parser_release(&l.text);
	r->facts.source = r->facts.log_name = shown_name(r, r->req->log_path);
	if (rc == 0 && r->saving)
		rc = finish_saving(r, err);
	return rc;
}

/*
 * A kmem log of this kind holds about one live object per 3 KB of text at
 * its peak (0.9 M in a 2.86 GB capture of a busy machine); sizing the live
 * tables for one per 2 KiB of a file before it is read saves their growth
 * on the way (6% of a one-thread account of that capture). A pipe gives no
 * size: the tables grow as they always did.
 */
#define LOG_BYTES_PER_LIVE_OBJECT 2048

static void expect_live_objects(struct analysis *r, uint64_t log_bytes)
{
	size_t live = (size_t)(log_bytes / LOG_BYTES_PER_LIVE_OBJECT);

	ptrmap_expect(&r->account.live, live);
	if (r->have_findings)
		ptrmap_expect(&r->findings.live, live);
}

/* A binary capture given as -f: its kind, and the file open on *fd; BINARY_NONE if text. */
static enum binary_kind binary_input(const struct analysis *r, int *fd)
{
	unsigned char head[16];
	struct stat st;
	ssize_t n;

	*fd = -1;
	if (strcmp(r->req->log_path, "-") == 0)
		return BINARY_NONE;
	*fd = open(r->req->log_path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return BINARY_NONE;	/* input_open says why */
	n = fstat(*fd, &st) == 0 && S_ISREG(st.st_mode) ? read(*fd, head, sizeof(head)) : -1;
	if (n > 0 && binary_kind_of(head, (size_t)n) != BINARY_NONE)
		return binary_kind_of(head, (size_t)n);
	close(*fd);
	*fd = -1;
	return BINARY_NONE;
}

/*
 * A capture tool's binary file that came compressed or on a pipe: its
 * content made an unnamed file in $TMPDIR (both formats are read at
 * random), then read as the file itself would be.
 */
static int read_spooled_binary(struct analysis *r, enum binary_kind kind, struct ta_error *err)
{
	const char *dir = scratch_dir();
	char where[4096];
	int fd, rc;

	snprintf(where, sizeof(where), "%s (a copy of '%s')", dir, input_name(r));
	fd = scratch_file_open(dir);
	if (fd < 0) {
		rc = error_set_errno(err, errno, "cannot make a file in '%s' to read the %s '%s' from",
				     dir, binary_kind_name(kind), input_name(r));
		input_close(&r->input);
		return rc;
	}
	rc = input_copy_to(&r->input, fd, where, err);
	input_close(&r->input);
	if (rc == 0 && lseek(fd, 0, SEEK_SET) < 0)
		rc = error_set_errno(err, errno, "cannot read back '%s'", where);
	if (rc == 0)
		rc = read_binary(r, fd, kind, err);
	close(fd);
	return rc;
}

/* The first bytes of the log's content (decompressed) name a binary capture, or none. */
static enum binary_kind binary_content(struct analysis *r, struct ta_error *err, int *rc)
{
	unsigned char head[16];
	size_t n = 0;

	*rc = input_peek(&r->input, head, sizeof(head), &n, err);
	return *rc == 0 ? binary_kind_of(head, n) : BINARY_NONE;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Without -k: a tree whose objects are the snapshot's source files, so that they have places. */
static int build_tree_of_source_files(struct analysis *r, struct ta_error *err)
{
	const struct alloc_series *s = &r->snapshots;
	const char **files = xcalloc(s->nsites ? s->nsites : 1, sizeof(*files));
	size_t n = 0, i;
	uint32_t k;

	for (k = 0; k < s->nsites; k++)
		if (s->listed_in[k] == s->snapshots)
			files[n++] = strtab_get(&s->names, s->sites[k].file);
	qsort(files, n, sizeof(*files), compare_strings);
	r->ktree.name = xstrdup("all sites");	/* not "kernel": kernel/ is a ring of its own */
	r->ktree.objects = xcalloc(n ? n : 1, sizeof(*r->ktree.objects));
	for (i = 0; i < n; i++)
		if (!i || strcmp(files[i], files[i - 1]))
			r->ktree.objects[r->ktree.nobjects++].path =
				strtab_intern(&r->ktree.strings, files[i], strlen(files[i]));
	free(files);
	r->have_ktree = true;
	dirtree_build(&r->dirs, &r->ktree);
	r->have_dirs = true;
	if (r->req->branch && (r->branch = dirtree_find(&r->dirs, r->req->branch)) == DIR_NONE)
		return error_set(err, "branch '%s' holds no allocation site of '%s'", r->req->branch,
				 r->facts.source);
	return 0;
}

/* -b: does any site of the last snapshot have its source under the branch? */
static bool branch_holds_a_site(const struct analysis *r)
{
	const struct alloc_series *s = &r->snapshots;
	uint32_t k;

	for (k = 0; k < s->nsites; k++)
		if (s->listed_in[k] == s->snapshots && alloc_site_in_branch(s, k, r->req->branch))
			return true;
	return false;
}

/* Each site of the last snapshot: its live bytes in the directory of its source file. */
static int place_snapshot_sites(struct analysis *r, struct ta_error *err)
{
	const struct alloc_series *s = &r->snapshots;
	uint32_t k;

	if (!r->have_dirs && build_tree_of_source_files(r, err) < 0)
		return -1;
	r->site_place = xcalloc(s->nsites ? s->nsites : 1, sizeof(*r->site_place));
	for (k = 0; k < s->nsites; k++) {
		r->site_place[k] = DIR_NONE;
		if (s->listed_in[k] != s->snapshots || !s->bytes[k])
			continue;
		r->site_place[k] = dirtree_place_path(&r->dirs,
						      strtab_get(&s->names, s->sites[k].file));
		dirtree_add_dynamic(&r->dirs, r->site_place[k], s->bytes[k], s->bytes[k],
				    s->bytes[k]);
	}
	return 0;
}

/* A snapshot read: a sample of the sites' live bytes (as a log's timeline samples its account). */
static void sample_snapshot(void *ctx, const struct alloc_series *s)
{
	struct analysis *r = ctx;

	r->snapshot_values.v = s->bytes;
	r->snapshot_values.n = s->nsites;
	timeline_add_sample(&r->timeline, s->last_ns);
}

/* The last part of a path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/*
 * A series as titles name it: "A ... C (3 snapshots)" from files, "A (3
 * snapshots)" from one; a single snapshot keeps its file's name.
 */
static void name_the_series(struct analysis *r)
{
	const struct alloc_series *s = &r->snapshots;
	char first[512], last[512];
	size_t cap;

	if (s->snapshots < 2)
		return;
	utf8_clean(base_name(s->first_source), strlen(base_name(s->first_source)), first,
		   sizeof(first));
	utf8_clean(base_name(s->last_source), strlen(base_name(s->last_source)), last,
		   sizeof(last));
	cap = strlen(first) + strlen(last) + 64;
	r->series_name = xmalloc(cap);
	if (s->files > 1 && strcmp(s->first_source, s->last_source) != 0)
		snprintf(r->series_name, cap, "%s ... %s (%llu snapshots)", first, last,
			 (unsigned long long)s->snapshots);
	else
		snprintf(r->series_name, cap, "%s (%llu snapshots)", first,
			 (unsigned long long)s->snapshots);
}

/*
 * -f of allocinfo snapshots: the series, from the input already open (its
 * first line said so) or from the path (a directory of them), then every
 * file after it.
 */
static int read_snapshots(struct analysis *r, bool opened, struct ta_error *err)
{
	const char *path = r->req->log_path;
	size_t i;
	int rc;

	alloc_series_init(&r->snapshots);
	r->have_snapshots = true;
	if (r->have_timeline) {	/* every snapshot a sample of the timeline */
		timeline_release(&r->timeline);
		reclaim_counts_release(&r->reclaim);
		r->have_timeline = false;
	}
	timeline_init(&r->timeline, NULL);
	r->timeline.values = &r->snapshot_values;
	r->have_timeline = true;
	reclaim_counts_init(&r->reclaim);
	r->snapshots.on_snapshot = sample_snapshot;
	r->snapshots.ctx = r;
	if (opened) {
		rc = alloc_series_read(&r->snapshots, &r->input, input_name(r), err);
		input_close(&r->input);
	} else {
		rc = alloc_series_read_path(&r->snapshots, path, err);
	}
	for (i = 0; rc == 0 && i < r->req->nmore_logs; i++)
		rc = alloc_series_read_path(&r->snapshots, r->req->more_logs[i], err);
	if (rc < 0)
		return -1;
	alloc_series_finish(&r->snapshots);
	r->facts.source = r->facts.log_name = strcmp(path, "-") ? shown_name(r, path)
								   : "standard input";
	name_the_series(r);
	if (r->req->branch && !branch_holds_a_site(r))
		return error_set(err, "branch '%s' holds no allocation site of '%s'", r->req->branch,
				 r->facts.source);
	/* the directories only for what draws or places them (-r, --html, -k) */
	return (r->req->needs & NEED_OBJECTS) || r->have_dirs ? place_snapshot_sites(r, err) : 0;
}

/* Does the open input begin as an allocinfo snapshot does? */
static bool input_is_snapshot(struct analysis *r, struct ta_error *err, int *rc)
{
	unsigned char head[256];
	size_t n = 0;

	*rc = input_peek(&r->input, head, sizeof(head), &n, err);
	return *rc == 0 && input_kind_of_head(head, n, false) == INPUT_ALLOCINFO;
}

/* --allocinfo: the snapshot put beside the log's account. */
static int read_beside(struct analysis *r, struct ta_error *err)
{
	alloc_series_init(&r->beside);
	r->have_beside = true;
	if (r->have_snapshots)
		return error_set(err, "'%s' is an allocinfo snapshot already: --allocinfo puts one "
				 "beside a kmem log", r->facts.source);
	if (alloc_series_read_path(&r->beside, r->req->allocinfo_path, err) < 0)
		return -1;
	alloc_series_finish(&r->beside);
	return 0;
}

static int read_log(struct analysis *r, struct ta_error *err)
{
	struct read_config cfg = {
		.input = &r->input,
		.strings = &r->strings,
		.want = fields_wanted(r->req),
		.threads = r->req->threads,
		.on_event = consume_event,
		.on_progress = show_progress,
		.on_lookahead = prefetch_event,
		.ctx = r,
	};
	int rc, bin_fd;
	enum binary_kind kind;

	if (r->req->live)
		return read_live(r, err);
	if (r->req->nmore_logs ||
	    (is_directory(r->req->log_path) &&
	     input_kind_of_path(r->req->log_path) == INPUT_ALLOCINFO))
		return read_snapshots(r, false, err);
	kind = binary_input(r, &bin_fd);

	if (kind != BINARY_NONE) {
		rc = read_binary(r, bin_fd, kind, err);
		close(bin_fd);
		return rc;
	}
	if (input_open(&r->input, r->req->log_path, err) < 0)
		return -1;
	kind = binary_content(r, err, &rc);
	if (rc < 0) {
		input_close(&r->input);
		return -1;
	}
	if (kind != BINARY_NONE)
		return read_spooled_binary(r, kind, err);
	if (input_is_snapshot(r, err, &rc) || rc < 0) {
		if (rc < 0) {
			input_close(&r->input);
			return -1;
		}
		return read_snapshots(r, true, err);
	}
	expect_live_objects(r, r->input.size_hint);
	if (start_saving(r, err) < 0)
		return -1;
	if (r->input.is_stream)
		input_end_streams_on_interrupt();
	rc = read_events(&cfg, &r->read, err);
	end_progress(r);
	r->facts.source = r->facts.log_name = shown_name(r, input_name(r));
	r->facts.input.overlong_lines = 0;	/* counted with the lines (parse_stats.overlong) */
	r->facts.input.truncated_last_line = r->input.truncated_last_line;
	r->facts.input.first_malformed_line = r->read.first_malformed_line;
	r->facts.input.interrupted = r->input.interrupted;
	r->facts.input.bytes_read = r->input.bytes_read;
	if (r->input.compression != COMPRESSION_NONE) {
		r->facts.compression = compression_name(r->input.compression);
		r->facts.compressed_bytes = input_position(&r->input);
	}
	if (rc == 0)
		rc = check_it_is_a_kmem_log(r, err);
	if (rc == 0 && r->saving)
		rc = finish_saving(r, err);
	return rc;
}

/*
 * A DB saved with --user-frames, read without: the stack as its kernel
 * frames alone, as parsing the log would have made it (made once a stack).
 */
static uint32_t kernel_part_of_stack(struct analysis *r, uint32_t stack)
{
	struct stack_table *t = &r->strings.stacks;
	uint32_t n, k, *frames;
	const uint32_t *f;

	if (stack >= r->kernel_part_cap) {
		uint32_t cap = t->count, i;

		r->kernel_part = xrealloc(r->kernel_part, cap * sizeof(*r->kernel_part));
		for (i = r->kernel_part_cap; i < cap; i++)
			r->kernel_part[i] = STACK_NONE - 1;	/* not made yet */
		r->kernel_part_cap = cap;
	}
	if (r->kernel_part[stack] != STACK_NONE - 1)
		return r->kernel_part[stack];
	f = stack_frames(t, stack, &n);
	for (k = 0; k < n; k++) {
		const char *name = strtab_get(&r->strings.frames, f[k]);

		if (strcmp(name, USER_FRAMES_MARK) == 0)
			break;
	}
	frames = xmalloc((k ? k : 1) * sizeof(*frames));
	memcpy(frames, f, k * sizeof(*frames));
	/* interning may grow the table: copy first, then look up */
	r->kernel_part[stack] = k == n ? stack : (k ? stack_intern(t, frames, k) : STACK_NONE);
	free(frames);
	return r->kernel_part[stack];
}

/*
 * A DB holds every field of every event; hand on only what parsing the
 * log with this run's wants would have given, so reports are identical.
 */
static void consume_replayed_event(void *ctx, const struct kmem_event *saved)
{
	struct analysis *r = ctx;
	unsigned want = fields_wanted(r->req);
	struct kmem_event ev = *saved;

	if (kmem_is_page(ev.kind) && !(want & WANT_PAGE))
		return;
	if (!(want & WANT_COMM)) {
		ev.comm = STR_NONE;
		ev.pid = -1;
	}
	if (!(want & WANT_GFP))
		ev.gfp = STR_NONE;
	if (!(want & WANT_CACHE_NAME))
		ev.cache = STR_NONE;
	if (!(want & WANT_STACK))
		ev.stack = STACK_NONE;
	else if (ev.stack != STACK_NONE && r->db.user_frames && !(want & WANT_USER_FRAMES))
		ev.stack = kernel_part_of_stack(r, ev.stack);
	consume_event(r, &ev);
}

/* --db-file: the saved account of the run's families, statistics and facts. */
static int read_db(struct analysis *r, struct ta_error *err)
{
	if (db_open(&r->db, r->req->db_path, &r->strings, err) < 0)
		return -1;
	r->have_db = true;
	if (r->req->user_frames && !r->db.user_frames)
		warn("'%s' was saved without --user-frames: its stacks have kernel frames only",
		     r->req->db_path);
	if (needs_event_stream(r->req)) {
		struct db_results into;
		int got = takes_results(r) ? db_load_results(&r->db, results_of(r, &into),
							     &r->strings, err) : 0;

		if (got < 0)
			return -1;
		if (!got && test_no_replay())
			return error_set(err, "'%s': its events were replayed (TA_TEST_NO_REPLAY)",
					 r->req->db_path);
		if (!got && db_replay(&r->db, &r->strings, consume_replayed_event, r, err) < 0)
			return -1;
	} else if (db_load_account(&r->db, r->req->families, r->strings.call_sites.count,
				   &r->account, err) < 0) {
		return -1;
	}
	r->read.stats = r->db.stats;
	r->read.header = r->db.header;
	r->read.first_malformed_line = r->db.facts.first_malformed_line;
	r->facts.source = r->req->db_path;
	r->facts.made_from = r->facts.log_name = r->db.source;
	r->facts.input = r->db.facts;
	r->ticks.reordered = r->db.reordered;	/* the reading's: its events are in that order */
	if (r->db.capture.kind == BINARY_TRACEDAT || r->db.capture.kind == BINARY_PERFDATA) {
		/* made from a binary capture: its reports use the capture's words */
		r->have_binary = true;
		r->binary.kind = (enum binary_kind)r->db.capture.kind;
		r->binary.version = (int)r->db.capture.version;
		r->binary.records = r->db.capture.records;
		r->binary.lost_records = r->db.capture.lost_records;
		snprintf(r->binary.os_release, sizeof(r->binary.os_release), "%s",
			 r->db.capture.os_release);
		r->facts.binary = &r->binary;
	}
	return 0;
}

/* ---- after reading ------------------------------------------------------------------- */

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

/* Say once when addresses stay hex: no System.map, or not in it. */
static void warn_about_unresolved_addresses(const struct analysis *r)
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

/* ---- the run ---------------------------------------------------------------------- */

void analysis_init(struct analysis *r, const struct analysis_request *opts)
{
	memset(r, 0, sizeof(*r));
	r->req = r->asked = opts;
	if (saves_results(opts)) {	/* every analysis the DB keeps, whatever is reported */
		r->saving_req = *opts;
		r->saving_req.needs |= RESULT_NEEDS;
		r->req = opts = &r->saving_req;
	}
	r->started = analysis_clock();
	trace_strings_init(&r->strings);
	account_init(&r->account, opts->families);
	tick_order_init(&r->ticks, pointer_is_live, consume_ordered, r);
	if (opts->families != FAMILY_ALL || task_filters_set(&opts->filters) ||
	    opts->has_time_start || opts->has_time_end) {	/* the account sees a part */
		ptrmap_init(&r->order_live);
		r->have_order_live = true;
	}
	loss_windows_init(&r->losses);
	symbols_init(&r->syms);
	symbols_init(&r->kallsyms);
	ktree_init(&r->ktree);
	r->input.fd = -1;
	if (analysis_needs_findings(opts)) {
		findings_init(&r->findings);
		r->have_findings = true;
	}
	if (opts->needs & NEED_PAGE_ACCOUNT) {
		pages_init(&r->pages);
		r->have_pages = true;
	}
	if (task_filters_set(&opts->filters)) {
		ptrmap_init(&r->filtered_out);
		r->have_filters = true;
	}
}

void analysis_release(struct analysis *r)
{
	if (r->have_snapshots)
		alloc_series_release(&r->snapshots);
	if (r->have_heap)
		heap_samples_release(&r->heap);
	if (r->have_beside)
		alloc_series_release(&r->beside);
	input_close(&r->input);
	tick_order_release(&r->ticks);
	if (r->have_order_live)
		ptrmap_release(&r->order_live);
	loss_windows_release(&r->losses);
	if (r->have_peak) {
		peak_watch_release(&r->peak);
		strtab_release(&r->peak_groups);
	}
	if (r->have_lifetimes)
		lifetimes_release(&r->lifetimes);
	if (r->saving)
		db_writer_abort(r->saving);
	if (r->have_db)
		db_close(&r->db);
	account_release(&r->account);
	if (r->have_filters)
		ptrmap_release(&r->filtered_out);
	symbols_release(&r->syms);
	symbols_release(&r->kallsyms);
	free(r->shown_name);
	free(r->series_name);
	free(r->modules_text);
	free(r->first_place);
	trace_strings_release(&r->strings);
	if (r->have_dirs)
		dirtree_release(&r->dirs);
	ktree_release(&r->ktree);
	if (r->have_findings)
		findings_release(&r->findings);
	if (r->have_pages)
		pages_release(&r->pages);
	free(r->site_place);
	free(r->key_place);
	free(r->kernel_part);
	free(r->map_path);
	if (r->have_caches) {
		strtab_release(&r->cache_keys);
		account_release(&r->by_cache);
	}
	if (r->have_keys) {
		callchains_release(&r->chains);
		origin_keys_release(&r->keys);
		account_release(&r->by_key);
	}
	if (r->have_timeline) {
		timeline_release(&r->timeline);
		reclaim_counts_release(&r->reclaim);
	}
}

/* Do the reports asked for need live bytes over time? */
bool analysis_needs_timeline(const struct analysis_request *o)
{
	return o->needs & NEED_TIMELINE;
}

/* The timeline samples the account rows come from. */
static void prepare_timeline(struct analysis *r)
{
	struct namers n;

	if (!analysis_needs_timeline(r->req))
		return;
	timeline_init(&r->timeline, analysis_rows_account(r, &n));
	reclaim_counts_init(&r->reclaim);
	r->have_timeline = true;
}

/*
 * The peak watcher's group of a row id: the name its row has, as the id
 * is first seen, so that a merged row's peak is its own (peak.h); by
 * directory, the call site is placed then (the places are made after the
 * log); by origin, the new stacks' origins are found then. Names that
 * come later (a binary capture's own symbols) may group otherwise: the
 * reports check (peak_watch_row_peaks).
 */
static uint32_t group_of_row_id(void *ctx, uint32_t id)
{
	struct analysis *r = ctx;
	char name[CALLSITE_NAME_MAX];
	struct namers n;
	size_t len;

	if (r->req->group_by == GROUP_DIR) {
		len = dir_name_of_place(r, r->have_dirs ? first_place_of(r, id) : DIR_NONE, name,
					sizeof(name));
	} else {
		if (by_origin(r))	/* the origins of the stacks seen so far */
			callchains_update(&r->chains);
		analysis_rows_account(r, &n);
		len = n.namer.name(n.namer.ctx, id, name, sizeof(name));
	}
	return strtab_intern(&r->peak_groups, name, len);
}

/* --peak, --lifetimes: the rows' account tells them every change of a row. */
static void prepare_peak(struct analysis *r)
{
	struct namers n;

	struct account *rows = (struct account *)analysis_rows_account(r, &n);

	if (r->req->needs & NEED_LIFETIMES) {
		lifetimes_init(&r->lifetimes);
		account_time_lifetimes(rows, &r->lifetimes);
		r->have_lifetimes = true;
	}
	if (!(r->req->needs & NEED_PEAK))
		return;
	peak_watch_init(&r->peak, r->req->has_peak_at, r->req->peak_at_ns);
	strtab_init(&r->peak_groups);
	r->peak.grouping.group_of = group_of_row_id;
	r->peak.grouping.ctx = r;
	account_watch(rows, &r->peak);
	r->have_peak = true;
	if (r->req->needs & NEED_HEAP_SAMPLES) {	/* told every change the peak is */
		heap_samples_init(&r->heap);
		r->peak.samples = &r->heap;
		r->have_heap = true;
	}
}

/* Origins and stacks: set up before the log is read, as System.map is loaded. */
static int prepare_origins(struct analysis *r, struct ta_error *err)
{
	if (group_is_by_event_field(r->req->group_by)) {
		static const enum event_key key_of[] = {
			[GROUP_CACHE] = KEY_CACHE, [GROUP_SIZE_CLASS] = KEY_SIZE_CLASS,
			[GROUP_COMM] = KEY_COMM, [GROUP_PID] = KEY_PID, [GROUP_GFP] = KEY_GFP,
			[GROUP_MODULE] = KEY_MODULE,
		};

		r->cache_key = key_of[r->req->group_by];
		strtab_init(&r->cache_keys);
		account_init(&r->by_cache, r->req->families);
		r->have_caches = true;
	}
	if (!analysis_needs_stacks(r->req))
		return 0;
	if (callchains_init(&r->chains, &r->strings, &r->syms, r->req->wrappers_path, err) < 0)
		return -1;
	origin_keys_init(&r->keys);
	account_init(&r->by_key, r->req->families);
	r->have_keys = true;
	return 0;
}


/*
 * --kallsyms: a kernel's /proc/kallsyms saved on it. Alone it names what
 * System.map would; after System.map, what System.map does not (modules).
 */
static int load_kallsyms(struct analysis *a, struct ta_error *err)
{
	const char *path = a->req->kallsyms_path;

	if (!path)
		return 0;
	if (is_directory(path))
		return error_set_errno(err, EISDIR, "cannot read '%s'", path);
	if (!a->syms.count) {
		free(a->map_path);
		a->map_path = xstrdup(path);
		return load_symbol_file(&a->syms, path, true, err);
	}
	return load_symbol_file(&a->kallsyms, path, true, err);
}

/*
 * --modules: a /proc/modules saved with the kallsyms, so that a module's
 * symbols name only addresses inside that module (plain or compressed).
 */
static int load_modules(struct analysis *a, struct ta_error *err)
{
	const char *path = a->req->modules_path;
	char *text;
	size_t len;
	int rc = 0;

	if (!path)
		return 0;
	if (is_directory(path))
		return error_set_errno(err, EISDIR, "cannot read '%s'", path);
	if (read_compressed_text(path, &text, &len, err) < 0)
		return -1;
	if (a->syms.count)
		rc = symbols_parse_modules(&a->syms, text, len, path, err);
	if (rc == 0 && a->kallsyms.count)
		rc = symbols_parse_modules(&a->kallsyms, text, len, path, err);
	if (rc == 0 && !a->syms.count && !a->kallsyms.count) {	/* a trace.dat's: checked now */
		struct symbol_table check;

		symbols_init(&check);
		rc = symbols_parse_modules(&check, text, len, path, err);
		symbols_release(&check);
	}
	if (rc < 0) {
		free(text);
		return -1;
	}
	a->modules_text = text;	/* a trace.dat's own kallsyms take it as they are read */
	a->modules_len = len;
	return 0;
}

/* -k, --system-map, --kallsyms: the tree (walked or from its index), its directories. */
int analysis_load_kernel(struct analysis *a, struct ta_error *err)
{
	if (load_kernel(a, err) < 0 || load_symbols(a, err) < 0 || load_kallsyms(a, err) < 0 ||
	    load_modules(a, err) < 0)
		return -1;
	return build_directories(a, err);
}

/* -f or --db-file: every event through the accounts; warnings on stderr. */
/* --time kept nothing: say where the log's events are, or every report is empty unexplained. */
static void warn_about_an_empty_window(const struct analysis *a)
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

/* What the call sites' printed sizes say of the tree (--strict-kernel). */
struct kernel_match {
	uint64_t checked;	/* call sites with a size or an address whose function the tree defines */
	uint64_t disagree;	/* of those, no definition of that size */
	char examples[2][256];
};

/* Is one of the tree's definitions of name[0..n) as printed: of that size, or holding that offset? */
static bool tree_agrees(const struct analysis *a, const char *name, size_t n, uint64_t size,
			uint64_t offset, const struct kfunc **first)
{
	size_t count, i;
	const struct kfunc *defs = ktree_find_function(&a->ktree, name, n, &count);

	*first = defs;
	for (i = 0; defs && i < count; i++)
		if (size ? defs[i].size == size : offset < defs[i].size)
			return true;
	return !defs;	/* not in the tree: nothing to compare */
}

/*
 * The log's call sites against the tree's function sizes: the size a
 * call site prints ("/0xSIZE"), or, for a bare address resolved through
 * System.map, its offset, which must fall inside the function.
 */
static void match_kernel(const struct analysis *a, struct kernel_match *m)
{
	const struct strtab *cs = &a->strings.call_sites;
	char name[CALLSITE_NAME_MAX];
	uint32_t id;

	memset(m, 0, sizeof(*m));
	for (id = 0; id < cs->count; id++) {
		const char *text = strtab_get(cs, id);
		size_t len = strtab_length(cs, id), n;
		const struct kfunc *def;
		uint64_t size = 0, offset = 0, addr;

		if (memchr(text, '/', len)) {
			n = callsite_function(text, len, &a->syms, name, sizeof(name), &size);
			if (!size)
				continue;
		} else if (callsite_is_address(text, len, &addr)) {
			const struct ksym *s = symbols_lookup(&a->syms, addr);

			if (!s)
				continue;
			n = (size_t)snprintf(name, sizeof(name), "%s", ksym_name(&a->syms, s));
			offset = addr - s->addr;
		} else {
			continue;	/* "sym+0xoff": no size to compare */
		}
		if (tree_agrees(a, name, n, size, offset, &def)) {
			m->checked += def != NULL;
			continue;
		}
		m->checked++;
		if (m->disagree < 2)
			snprintf(m->examples[m->disagree], sizeof(m->examples[0]),
				 "%.*s (0x%llx in %s)", (int)len, text,
				 (unsigned long long)def->size,
				 ktree_string(&a->ktree, a->ktree.objects[def->object].path));
		m->disagree++;
	}
}

/*
 * A log recorded on another build than the tree places its call sites in
 * the wrong functions: past 5% of the call sites checked (and 3), say so,
 * or fail with --strict-kernel.
 */
static int check_kernel_match(const struct analysis *a, struct ta_error *err)
{
	struct kernel_match m;
	char what[1024];

	if (!a->have_ktree || !a->ktree.nfuncs)
		return 0;
	match_kernel(a, &m);
	if (m.disagree < 3 || m.disagree * 20 <= m.checked)
		return 0;
	snprintf(what, sizeof(what), "'%s' does not look recorded on the kernel of '%s': %llu of "
		 "the %llu call sites checked (their printed /0xSIZE, or their offset) disagree with "
		 "the tree's function sizes, e.g. %s, %s", a->facts.log_name, a->req->kernel,
		 (unsigned long long)m.disagree, (unsigned long long)m.checked, m.examples[0],
		 m.examples[1]);
	if (a->req->strict_kernel)
		return error_set(err, "%s", what);
	warn("%s; its call sites are placed by name all the same (--strict-kernel makes this an "
	     "error)", what);
	return 0;
}

/*
 * --peak-at asks for a moment of the log: one outside its clock would give
 * the empty start or the end without a word, so it is refused, saying
 * where the clock runs (as --time's warning does).
 */
static int peak_at_outside_the_log(const struct analysis *a, struct ta_error *err)
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

int analysis_read(struct analysis *a, struct ta_error *err)
{
	const struct analysis_request *opts = a->req;

	if (prepare_origins(a, err) < 0)
		return -1;
	prepare_timeline(a);
	prepare_peak(a);
	if ((opts->db_path ? read_db(a, err) : read_log(a, err)) < 0)
		return -1;
	if (peak_at_outside_the_log(a, err) < 0)
		return -1;
	if (opts->allocinfo_path && read_beside(a, err) < 0)
		return -1;
	tick_order_flush(&a->ticks);
	loss_windows_finish(&a->losses, a->read.header.has_entries &&
			    a->read.header.entries_written > a->read.header.entries_in_buffer,
			    a->read.header.has_entries &&
			    a->read.header.entries_written == a->read.header.entries_in_buffer);
	if (a->have_peak)
		peak_watch_finish(&a->peak);
	if (a->have_heap)
		heap_samples_finish(&a->heap);
	if (a->have_timeline) {
		timeline_finish(&a->timeline);
		reclaim_counts_decide(&a->reclaim, &a->strings.caches, a->read.header.reclaimable);
	}
	if (a->have_keys) {
		callchains_update(&a->chains);
		if (opts->wrappers_path)
			callchains_warn_unmatched_wrappers(&a->chains, opts->wrappers_path);
	}
	if (a->facts.input.interrupted)
		warn("reading '%s' was interrupted: the reports cover the %llu bytes read",
		     a->facts.log_name, (unsigned long long)a->facts.input.bytes_read);
	if (a->facts.input.truncated_last_line)
		warn("the last line of '%s' has no newline (truncated log?): skipped",
		     a->facts.log_name);
	warn_about_unresolved_addresses(a);
	warn_about_an_empty_window(a);
	if (a->unnamed_cache_allocs && !opts->quiet)
		fprintf(stderr, "trace_analyze: note: %llu kmem_cache_alloc event%s name no cache "
			"(6.1 prints no name= there; 6.18 does): %s by object size, "
			"\"(unnamed, N bytes)\"\n", (unsigned long long)a->unnamed_cache_allocs,
			plural(a->unnamed_cache_allocs),
			a->unnamed_cache_allocs == 1 ? "it is shown" : "they are shown");
	if (check_kernel_match(a, err) < 0)
		return -1;
	if (a->have_dirs && !a->have_snapshots)	/* a snapshot's sites are placed as read */
		place_call_sites(a);
	return 0;
}

const char *analysis_log_name(const struct analysis *a)
{
	if (a->series_name)
		return a->series_name;
	if (!a->facts.log_name)
		return NULL;
	if (strcmp(a->facts.log_name, "standard input") == 0)
		return "standard input";
	return base_name(a->facts.log_name);
}
