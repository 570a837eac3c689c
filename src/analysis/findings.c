/*
 * findings.c - consistency findings and the slab-cache table (what each
 * is, in findings.h). The live objects are the account's when it sees
 * every slab event the findings see (findings_share_live), with a row
 * apiece beside its records; a table of their own otherwise (--malloc,
 * --cache, task filters).
 */
#include <string.h>

#include "error.h"
#include "findings.h"
#include "regroup.h"

void findings_init(struct findings *f)
{
	memset(f, 0, sizeof(*f));
	ptrmap_init(&f->live);
	ptrmap_init(&f->freed);
	strtab_init(&f->classes);
}

void findings_release(struct findings *f)
{
	ptrmap_release(&f->live);
	ptrmap_release(&f->freed);
	ptrmap_rows_release(&f->shared);
	free(f->last_ts);
	free(f->last_line);
	free(f->caches);
	strtab_release(&f->classes);
	free(f->class_stats);
	memset(f, 0, sizeof(*f));
}

/* A finding at event ev, relating to the line (and time) of another event, or 0. */
static void note(struct findings *f, enum finding_kind k, const struct kmem_event *ev,
		 uint64_t related, uint64_t related_ts)
{
	struct finding *x = &f->found[k];

	if (x->count < FINDING_EXAMPLES) {
		x->lines[x->count] = ev->line;
		x->related[x->count] = related;
		x->ts[x->count] = ev->ts_ns;
		x->related_ts[x->count] = related_ts;
		x->cpu[x->count] = ev->cpu;
	}
	x->count++;
}

static struct cache_stats *cache_of(struct findings *f, uint32_t id)
{
	if (id == STR_NONE)
		return NULL;
	if (id >= f->ncaches) {
		uint32_t n = id + 1;

		f->caches = xrealloc(f->caches, n * sizeof(*f->caches));
		memset(f->caches + f->ncaches, 0, (n - f->ncaches) * sizeof(*f->caches));
		f->ncaches = n;
	}
	return &f->caches[id];
}

/*
 * A row of the table rides in a live object's call_site: a cache-name id,
 * or the id of a kmalloc size class with CLASS_ROW set (STR_NONE: none).
 */
#define CLASS_ROW 0x80000000u

/* The row a kmalloc event (no name=) is counted in: its size class's. */
static uint32_t class_row_of(struct findings *f, const struct kmem_event *ev)
{
	unsigned key = kmalloc_size_class_index(ev->bytes_alloc) * 3 + (unsigned)ev->accounted;
	char name[64];
	size_t len;
	uint32_t id, n;

	if (key >= FINDINGS_CLASS_KEYS)
		key = FINDINGS_CLASS_KEYS - 1;	/* not reached: 14 classes x 3 */
	if (f->class_ids[key])
		return (f->class_ids[key] - 1) | CLASS_ROW;
	len = kmalloc_cache_name(ev, name, sizeof(name));
	n = f->classes.count;
	id = strtab_intern(&f->classes, name, len);
	if (f->classes.count > n) {	/* a new row: "kmalloc-large" is one for every key */
		f->class_stats = xrealloc(f->class_stats, f->classes.count * sizeof(*f->class_stats));
		memset(&f->class_stats[id], 0, sizeof(*f->class_stats));
	}
	f->class_ids[key] = id + 1;
	return id | CLASS_ROW;
}

/* The row of an allocation: its cache's, its size class's, or none. */
static uint32_t row_of(struct findings *f, const struct kmem_event *ev)
{
	if (ev->cache != STR_NONE)
		return ev->cache;
	if (kmem_is_malloc_family(ev->kind))
		return class_row_of(f, ev);
	f->unnamed_allocs++;
	return STR_NONE;
}

static struct cache_stats *stats_of_row(struct findings *f, uint32_t row)
{
	if (row == STR_NONE)
		return NULL;
	if (row & CLASS_ROW)
		return &f->class_stats[row & ~CLASS_ROW];
	return cache_of(f, row);
}

/* Timestamps per CPU must not go back. */
static void check_time(struct findings *f, const struct kmem_event *ev)
{
	uint32_t cpu;

	if (ev->cpu < 0 || ev->cpu > 65535 || ev->ts_ns == 0)
		return;
	cpu = (uint32_t)ev->cpu;
	if (cpu >= f->ncpus) {
		uint32_t n = cpu + 1;

		f->last_ts = xrealloc(f->last_ts, n * sizeof(*f->last_ts));
		f->last_line = xrealloc(f->last_line, n * sizeof(*f->last_line));
		memset(f->last_ts + f->ncpus, 0, (n - f->ncpus) * sizeof(*f->last_ts));
		memset(f->last_line + f->ncpus, 0, (n - f->ncpus) * sizeof(*f->last_line));
		f->ncpus = n;
	}
	if (ev->ts_ns < f->last_ts[cpu])
		note(f, FIND_TIME_BACKWARDS, ev, f->last_line[cpu], f->last_ts[cpu]);
	f->last_ts[cpu] = ev->ts_ns;
	f->last_line[cpu] = ev->line;
	if (f->last_event_ts && ev->ts_ns > f->last_event_ts + FINDINGS_SILENCE_NS)
		f->missing_line = ev->line;	/* tracing paused, or the log cut */
	if (ev->ts_ns > f->last_event_ts)
		f->last_event_ts = ev->ts_ns;
}

/*
 * A pointer freed again with no allocation seen between: the log explains
 * it when the object is a slab cache's (kmem_cache_alloc_bulk, which the
 * maple tree and networking use, emits no event per object) or when
 * events are missing between the two frees.
 */
static bool untraced_allocation_explains(const struct findings *f, const struct live_alloc *gone,
					 const struct kmem_event *ev)
{
	return ev->kind == KMEM_CACHE_FREE || gone->kind == KMEM_CACHE_FREE ||
	       f->missing_line > gone->line;
}

static void forget_freed(struct findings *f, uint64_t ptr)
{
	struct live_alloc *old = ptrmap_find(&f->freed, ptr);

	if (old)
		ptrmap_remove(&f->freed, old);
}

/* The live record of ptr: the findings' own, or the account's (shared); NULL if not live. */
static struct live_alloc *live_record(const struct findings *f, uint64_t ptr)
{
	return ptrmap_find(f->shared.of ? f->shared.of : &f->live, ptr);
}

/* The table's row of a live record. */
static uint32_t row_at(const struct findings *f, const struct live_alloc *slot)
{
	return f->shared.of ? ptrmap_row(&f->shared, slot) : slot->call_site;
}

/* A live object leaves its row: freed, or its pointer allocated again. */
static void leave_row(struct findings *f, const struct live_alloc *slot, bool freed)
{
	struct cache_stats *c = stats_of_row(f, row_at(f, slot));

	if (!c)
		return;
	c->frees += freed;
	c->live--;
	c->live_bytes -= slot->bytes_alloc;
	c->live_req -= slot->bytes_req;
}

/* An allocation, before the object is recorded: an object still live at its pointer leaves. */
static void alloc_replaces(struct findings *f, const struct kmem_event *ev)
{
	struct live_alloc *slot;

	if (ev->bytes_alloc < ev->bytes_req)
		note(f, FIND_ALLOC_BELOW_REQ, ev, 0, 0);
	if (ev->ptr == 0)
		return;
	forget_freed(f, ev->ptr);
	slot = live_record(f, ev->ptr);
	if (slot)	/* implicitly freed */
		leave_row(f, slot, false);
}

/* An allocation recorded: in the findings' own table, or (shared) the account's row noted. */
static void alloc_enters(struct findings *f, const struct kmem_event *ev)
{
	uint32_t row = row_of(f, ev);
	struct cache_stats *c = stats_of_row(f, row);
	struct live_alloc *slot;
	int existed;

	if (ev->ptr == 0)
		return;
	if (f->shared.of) {	/* the account recorded it just now */
		slot = ptrmap_find(f->shared.of, ev->ptr);
		if (!slot)
			return;
		ptrmap_set_row(&f->shared, slot, row);
	} else {
		slot = ptrmap_insert(&f->live, ev->ptr, &existed);
		slot->kind = ev->kind;
		slot->line = ev->line;
		slot->ts_ns = ev->ts_ns;
		slot->call_site = row;	/* the table's row rides here */
		slot->bytes_alloc = ev->bytes_alloc;
		slot->bytes_req = ev->bytes_req;
	}
	if (c) {
		c->allocs++;
		c->bytes_alloc += ev->bytes_alloc;
		c->bytes_req += ev->bytes_req;
		c->live++;
		c->live_bytes += ev->bytes_alloc;
		c->live_req += ev->bytes_req;
	}
}

static void on_free(struct findings *f, const struct kmem_event *ev)
{
	struct live_alloc *slot, *gone;
	int existed;

	if (ev->ptr == 0)
		return;
	slot = live_record(f, ev->ptr);
	if (!slot) {
		gone = ptrmap_find(&f->freed, ev->ptr);
		if (gone) {
			note(f, untraced_allocation_explains(f, gone, ev) ? FIND_UNTRACED_ALLOC_FREE
									 : FIND_DOUBLE_FREE,
			     ev, gone->line, gone->ts_ns);
			gone->line = ev->line;
			gone->ts_ns = ev->ts_ns;
			gone->kind = ev->kind;
		}
		return;
	}
	if (kmem_is_cache_family(slot->kind) && ev->kind == KMEM_KFREE)
		note(f, FIND_CACHE_OBJECT_KFREED, ev, slot->line, slot->ts_ns);
	else if (kmem_is_malloc_family(slot->kind) && ev->kind == KMEM_CACHE_FREE)
		note(f, FIND_KMALLOC_CACHE_FREED, ev, slot->line, slot->ts_ns);
	leave_row(f, slot, true);
	if (!f->shared.of)	/* the account lets its own record go */
		ptrmap_remove(&f->live, slot);
	gone = ptrmap_insert(&f->freed, ev->ptr, &existed);
	gone->line = ev->line;
	gone->ts_ns = ev->ts_ns;
	gone->kind = ev->kind;
}

void findings_share_live(struct findings *f, const struct ptrmap *live)
{
	f->shared.of = live;
}

/* Everything an event does but record an allocation: before the account sees it, when shared. */
static void apply_before_record(struct findings *f, const struct kmem_event *ev)
{
	if (ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED) {
		note(f, FIND_LOST_MARKER, ev, 0, 0);
		f->missing_line = ev->line;
		return;
	}
	check_time(f, ev);
	if (kmem_is_slab_alloc(ev->kind))
		alloc_replaces(f, ev);
	else if (kmem_is_slab_free(ev->kind))
		on_free(f, ev);
}

void findings_before(struct findings *f, const struct kmem_event *ev)
{
	if (f->shared.of)
		apply_before_record(f, ev);
}

void findings_apply(struct findings *f, const struct kmem_event *ev)
{
	if (!f->shared.of)
		apply_before_record(f, ev);
	if (kmem_is_slab_alloc(ev->kind))
		alloc_enters(f, ev);
}

/* ---- report ----------------------------------------------------------------------- */

static const struct {
	const char *key, *what, *related;
} finding_text[FIND_KIND_COUNT] = {
	[FIND_CACHE_OBJECT_KFREED] = { "cache_object_kfreed",
		"cache object kfree'd (SLUB allows it)", "allocated at line" },
	[FIND_KMALLOC_CACHE_FREED] = { "kmalloc_object_cache_freed",
		"kmalloc object freed by kmem_cache_free", "allocated at line" },
	[FIND_ALLOC_BELOW_REQ] = { "alloc_below_request", "bytes_alloc < bytes_req", NULL },
	[FIND_UNTRACED_ALLOC_FREE] = { "free_of_untraced_alloc",
		"freed again: allocated in bulk or events missing",
		"freed at line" },
	[FIND_DOUBLE_FREE] = { "double_free",
		"freed again: nothing in the log explains it", "freed at line" },
	[FIND_TIME_BACKWARDS] = { "time_backwards",
		"timestamp before the previous one on its CPU", "previous at line" },
	[FIND_LOST_MARKER] = { "lost_marker",
		"lost-event or buffer-started marker", NULL },
};

static const struct out_column finding_columns[] = {
	{ "finding", NULL, OUT_STR, true },
	{ "count", NULL, OUT_U64, false },
	{ "example_lines", "first lines", OUT_STR, true },
	{ "what", NULL, OUT_STR, true },
};

/* The same, of a binary capture: its first events by time and CPU (the key is the same). */
static const struct out_column finding_columns_by_time[] = {
	{ "finding", NULL, OUT_STR, true },
	{ "count", NULL, OUT_U64, false },
	{ "example_lines", "first events", OUT_STR, true },
	{ "what", NULL, OUT_STR, true },
};

/* An event as a finding cites it: "12.345678 s CPU 1" where there is no text line. */
static size_t cite_time(char *out, size_t cap, uint64_t ts, int32_t cpu)
{
	int n;

	if (!ts)
		n = snprintf(out, cap, "a lost-events record (no time)");
	else if (cpu >= 0)
		n = snprintf(out, cap, "%.6f s CPU %d", (double)ts / 1e9, (int)cpu);
	else
		n = snprintf(out, cap, "%.6f s", (double)ts / 1e9);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void example_lines(bool by_time, const struct finding *x, const char *related, char *out,
			  size_t cap)
{
	size_t n = 0, i, shown = x->count < FINDING_EXAMPLES ? x->count : FINDING_EXAMPLES;

	out[0] = '\0';
	for (i = 0; i < shown && n + 1 < cap; i++) {
		if (i)
			n += (size_t)snprintf(out + n, cap - n, ", ");
		if (n + 1 >= cap)
			break;
		if (by_time)
			n += cite_time(out + n, cap - n, x->ts[i], x->cpu[i]);
		else
			n += (size_t)snprintf(out + n, cap - n, "%llu", (unsigned long long)x->lines[i]);
		if (n + 1 >= cap || !related || !x->related[i])
			continue;
		if (by_time)	/* "allocated at line" -> "allocated at" */
			n += (size_t)snprintf(out + n, cap - n, " (%.*s %.6f s)",
					      (int)(strlen(related) - strlen(" line")), related,
					      (double)x->related_ts[i] / 1e9);
		else
			n += (size_t)snprintf(out + n, cap - n, " (%s %llu)", related,
					      (unsigned long long)x->related[i]);
		if (n >= cap)
			n = cap - 1;
	}
}

static const struct out_column cache_columns[] = {
	{ "cache", NULL, OUT_STR, true },
	{ "named_by", "named by", OUT_STR, true },
	{ "allocs", NULL, OUT_U64, false },
	{ "frees", NULL, OUT_U64, false },
	{ "live", NULL, OUT_U64, false },
	{ "bytes_alloc", NULL, OUT_U64, false },
	{ "bytes_req", NULL, OUT_U64, false },
	{ "frag_pct", "frag%", OUT_PCT, false },
	{ "live_bytes", NULL, OUT_U64, false },
	{ "live_waste", NULL, OUT_U64, false },
};

struct cache_rows {
	const struct findings *f;
	const struct strtab *names;	/* the trace's cache names */
};

static const struct cache_stats *row_stats(const struct cache_rows *r, uint32_t row)
{
	return row & CLASS_ROW ? &r->f->class_stats[row & ~CLASS_ROW] : &r->f->caches[row];
}

static const char *row_name(const struct cache_rows *r, uint32_t row)
{
	return row & CLASS_ROW ? strtab_get(&r->f->classes, row & ~CLASS_ROW)
			       : strtab_get(r->names, row);
}

static int compare_caches(const void *pa, const void *pb, void *ctx)
{
	const struct cache_rows *r = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct cache_stats *x = row_stats(r, a), *y = row_stats(r, b);
	int by_name;

	if (x->bytes_alloc != y->bytes_alloc)
		return x->bytes_alloc > y->bytes_alloc ? -1 : 1;
	by_name = strcmp(row_name(r, a), row_name(r, b));
	return by_name ? by_name : (a & CLASS_ROW) ? 1 : (b & CLASS_ROW) ? -1 : 0;
}

static void cache_row(struct out_doc *d, struct out_block *t, const struct cache_rows *r,
		      uint32_t row)
{
	const struct cache_stats *c = row_stats(r, row);

	out_row_str(d, t, row_name(r, row));
	out_row_str(d, t, row & CLASS_ROW ? "size class" : "name=");
	out_row_u64(d, t, c->allocs);
	out_row_u64(d, t, c->frees);
	out_row_u64(d, t, c->live);
	out_row_u64(d, t, c->bytes_alloc);
	out_row_u64(d, t, c->bytes_req);
	out_row_pct(d, t, c->bytes_alloc ? 100.0 - 100.0 * (double)c->bytes_req /
					       (double)c->bytes_alloc : 0.0);
	out_row_u64(d, t, c->live_bytes);
	out_row_u64(d, t, c->live_bytes - c->live_req);
}

/*
 * The caches table: rows of the events' name=, and kmalloc's rows named by
 * size class (its events name no cache), by bytes allocated; then, when
 * there are any, how many kmem_cache allocations named no cache.
 */
static void caches_report(struct out_doc *d, const struct findings *f, const struct strtab *names)
{
	struct cache_rows r = { f, names };
	uint32_t nclasses = f->classes.count;
	uint32_t *order = xmalloc(((size_t)f->ncaches + nclasses + 1) * sizeof(*order)), n = 0, i;
	struct out_block *t;

	t = out_table(d, "caches", nclasses ? "slab caches (named by the events' name=, or for kmalloc "
					      "events, which name none, by their size class)"
					    : "slab caches (events with name=)",
		      cache_columns, sizeof(cache_columns) / sizeof(cache_columns[0]));
	t->keyed = true;
	t->group_by = "cache";
	for (i = 0; i < f->ncaches; i++)
		if (f->caches[i].allocs || f->caches[i].frees)
			order[n++] = i;
	for (i = 0; i < nclasses; i++)
		order[n++] = i | CLASS_ROW;
	qsort_r(order, n, sizeof(*order), compare_caches, &r);
	for (i = 0; i < n; i++)
		cache_row(d, t, &r, order[i]);
	free(order);
	if (f->unnamed_allocs) {
		struct out_block *l = out_list(d, "caches_unnamed", NULL);

		out_item_u64(d, l, "kmem_cache_allocs", "kmem_cache allocations without name= "
			     "(not in the table)", f->unnamed_allocs);
	}
}

void findings_report(struct out_doc *d, const struct findings *f, const struct strtab *caches,
		     bool by_time)
{
	struct out_block *t = out_table(d, "findings", "findings",
					by_time ? finding_columns_by_time : finding_columns,
					sizeof(finding_columns) / sizeof(finding_columns[0]));
	char lines[512];
	int k;

	t->keyed = true;
	t->group_by = "finding";
	t->cut_column = 2;	/* the first lines: the table fits in 120 columns */
	t->cut_max = 33;

	for (k = 0; k < FIND_KIND_COUNT; k++) {
		example_lines(by_time, &f->found[k], finding_text[k].related, lines, sizeof(lines));
		out_row_str(d, t, finding_text[k].key);
		out_row_u64(d, t, f->found[k].count);
		out_row_str(d, t, lines);
		out_row_str(d, t, finding_text[k].what);
	}
	caches_report(d, f, caches);
}
