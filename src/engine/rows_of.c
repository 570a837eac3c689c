/*
 * rows_of.c - what the rows are: the account a request's grouping reads
 * (by call site, origin key or a field of the event) and how its ids are
 * named, where a call site (or an origin) is placed in the kernel tree,
 * and the peak watcher's group of an id (its row's name as first seen).
 * The passes and the reports both read these; nothing here counts.
 * Not here: the rows sorted, placed and cut to -b for a report
 * (report/rowview.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_local.h"
#include "callsite.h"


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
	if (analysis_by_origin(r)) {
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
void analysis_place_call_sites(struct analysis *r)
{
	const struct account *a = analysis_by_origin(r) ? &r->by_key : &r->account;
	uint32_t id, *place;

	place = xcalloc(a->nsites ? a->nsites : 1, sizeof(*place));
	for (id = 0; id < a->nsites; id++) {
		const struct site_stats *s = account_site(a, id);

		place[id] = DIR_NONE;
		if (!s)
			continue;
		place[id] = !analysis_by_origin(r) && id < r->nfirst_place && r->first_place[id]
			    ? r->first_place[id] - 1 : place_of_row_id(r, id);
		dirtree_add_dynamic(&r->dirs, place[id], s->total_dynamic, s->current_dynamic,
				    s->current_req);
	}
	if (analysis_by_origin(r))
		r->key_place = place;
	else
		r->site_place = place;
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
 * The directory function name[0..n) is defined in, as --group-by dir
 * names it (module: the one its frame named, or NULL). A page's origin is
 * placed so; the tree's count of placed call sites stays theirs.
 */
size_t analysis_dir_of_function(struct analysis *r, const char *name, size_t n,
				const char *module, char *out, size_t cap)
{
	uint64_t placed[PLACE_KIND_COUNT];
	enum place_kind kind;
	uint32_t node = DIR_NONE;

	if (r->have_dirs) {
		memcpy(placed, r->dirs.placed, sizeof(placed));
		node = dirtree_place_function(&r->dirs, name, n, 0, module, &kind);
		memcpy(r->dirs.placed, placed, sizeof(placed));
	}
	return dir_name_of_place(r, node, out, cap);
}

/*
 * The row of a stack by its origin, as --group-by asks: its origin frame's
 * module (callchains_frame_module_name: page_owner's stacks name every
 * module's function); the directory (-k) that defines the origin's
 * function; or the origin itself.
 */
size_t analysis_stack_row_name(struct analysis *r, uint32_t stack, char *out, size_t cap)
{
	char function[CALLSITE_NAME_MAX], module[CALLSITE_NAME_MAX];
	uint32_t frame;
	size_t n;

	callchains_update(&r->chains);
	if (r->req->group_by != GROUP_MODULE && r->req->group_by != GROUP_DIR)
		return callchains_origin(&r->chains, STR_NONE, stack, out, cap);
	frame = callchains_origin_frame(&r->chains, stack);
	if (frame == STR_NONE)
		return (size_t)snprintf(out, cap, "%s", ORIGIN_NO_STACK);
	callchains_frame_module_name(&r->chains, frame, r->from_page_owner, module, sizeof(module));
	if (r->req->group_by == GROUP_MODULE)
		return (size_t)snprintf(out, cap, "%s", module);
	/* by its name as printed, clone suffix and all: the tree's objects define it so */
	n = (size_t)snprintf(function, sizeof(function), "%s",
			     callchains_frame_name(&r->chains, frame));
	return analysis_dir_of_function(r, function, n < sizeof(function) ? n : sizeof(function) - 1,
					module[0] != '(' ? module : NULL, out, cap);
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
	if (analysis_by_origin(r)) {
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

/*
 * The peak watcher's group of a row id: the name its row has, as the id
 * is first seen, so that a merged row's peak is its own (peak.h); by
 * directory, the call site is placed then (the places are made after the
 * log); by origin, the new stacks' origins are found then. Names that
 * come later (a binary capture's own symbols) may group otherwise: the
 * reports check (peak_watch_row_peaks).
 */
uint32_t analysis_peak_group(void *ctx, uint32_t id)
{
	struct analysis *r = ctx;
	char name[CALLSITE_NAME_MAX];
	struct namers n;
	size_t len;

	if (r->req->group_by == GROUP_DIR) {
		len = dir_name_of_place(r, r->have_dirs ? first_place_of(r, id) : DIR_NONE, name,
					sizeof(name));
	} else {
		if (analysis_by_origin(r))	/* the origins of the stacks seen so far */
			callchains_update(&r->chains);
		analysis_rows_account(r, &n);
		len = n.namer.name(n.namer.ctx, id, name, sizeof(name));
	}
	return strtab_intern(&r->peak_groups, name, len);
}
