/*
 * beside.c - a trace's account and an allocinfo snapshot side by side
 * (beside.h). Not here: either side's reading or grouping.
 */
#include <stdlib.h>
#include <string.h>

#include "allocgroups.h"
#include "beside.h"
#include "callchain.h"
#include "callsite.h"
#include "error.h"
#include "strtab.h"

/* A key of the comparison, with both sides' figures. */
struct beside_key {
	uint64_t trace_bytes, trace_objects;
	uint64_t alloc_bytes, alloc_calls;
	uint32_t sites;		/* allocinfo sites summed */
	bool in_trace, in_allocinfo;
};

struct beside {
	struct strtab names;
	struct beside_key *keys;
	uint32_t cap;
};

static struct beside_key *key_of(struct beside *b, const char *name, size_t len)
{
	uint32_t id = strtab_intern(&b->names, name, len);

	if (id >= b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 256;

		while (cap <= id)
			cap *= 2;
		b->keys = xrealloc(b->keys, cap * sizeof(*b->keys));
		memset(b->keys + b->cap, 0, (cap - b->cap) * sizeof(*b->keys));
		b->cap = cap;
	}
	return &b->keys[id];
}

static enum alloc_key compared_by(enum group_by g)
{
	return g == GROUP_MODULE ? ALLOC_BY_MODULE : g == GROUP_DIR ? ALLOC_BY_DIR
								     : ALLOC_BY_FUNCTION;
}

/*
 * A trace row's key: by function, "func" or "func [module]" from
 * "func+0x1f/0x80 [module]" (a compiler's suffix, ".constprop.0", ".isra.0",
 * ".part.0", left out: a tag names the source's function); by directory, an object's source ("fs/buffer.o"
 * as "fs/buffer.c", as the tags name it); by module, the row's name.
 */
static size_t trace_key(const char *name, enum alloc_key by, char *out, size_t cap)
{
	char func[1024], module[256];
	size_t n = callsite_put(out, cap, 0, name, strlen(name)), f;
	uint64_t size;

	if (by == ALLOC_BY_MODULE)
		return n;
	if (by == ALLOC_BY_DIR) {
		if (n > 2 && out[n - 2] == '.' && out[n - 1] == 'o')
			out[n - 1] = 'c';
		return n;
	}
	f = callsite_function(name, strlen(name), NULL, func, sizeof(func), &size);
	f = without_clone_suffixes(func, f);	/* "fn.constprop.0": the source's "fn" */
	callsite_module(name, strlen(name), NULL, module, sizeof(module));
	n = callsite_put(out, cap, 0, func, f);
	if (strcmp(module, "vmlinux") != 0 && module[0] != '(') {
		n = callsite_put(out, cap, n, " [", 2);
		n = callsite_put(out, cap, n, module, strlen(module));
		n = callsite_put(out, cap, n, "]", 1);
	}
	return n;
}

/* Functions whose tags are in more than one source file: how many. */
static uint64_t ambiguous_functions(const struct alloc_series *s)
{
	struct strtab funcs;
	uint32_t *file_of, i, *files = NULL;
	uint64_t n = 0;
	uint8_t *counted;
	char key[1024];

	strtab_init(&funcs);
	file_of = xcalloc(s->nsites + 1, sizeof(*file_of));
	counted = xcalloc(s->nsites + 1, 1);
	files = file_of;
	for (i = 0; i < s->nsites; i++) {
		size_t len = alloc_site_row_name(s, i, ALLOC_BY_FUNCTION, NULL, key, sizeof(key));
		uint32_t id = strtab_intern(&funcs, key, len);

		if (s->listed_in[i] != s->snapshots)
			continue;
		if (!files[id]) {
			files[id] = s->sites[i].file + 1;
		} else if (files[id] != s->sites[i].file + 1 && !counted[id]) {
			counted[id] = 1;
			n++;
		}
	}
	free(file_of);
	free(counted);
	strtab_release(&funcs);
	return n;
}

static const struct out_column match_columns[] = {
	{ "key", "row", OUT_STR, true },
	{ "trace_live_bytes", "trace live", OUT_U64, false },
	{ "trace_live_objects", "objects", OUT_U64, false },
	{ "allocinfo_bytes", "allocinfo live", OUT_U64, false },
	{ "allocinfo_allocs", "allocs", OUT_U64, false },
	{ "not_in_trace_bytes", "allocinfo - trace", OUT_I64, false },
	{ "sites", NULL, OUT_U64, false },
};

static const struct out_column only_columns[] = {
	{ "key", "row", OUT_STR, true },
	{ "allocinfo_bytes", "allocinfo live", OUT_U64, false },
	{ "allocinfo_allocs", "allocs", OUT_U64, false },
	{ "sites", NULL, OUT_U64, false },
};

struct ranked {
	uint32_t id;
	uint64_t bytes;
};

static int by_bytes(const void *pa, const void *pb, void *ctx)
{
	const struct ranked *a = pa, *b = pb;
	const struct strtab *names = ctx;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return strcmp(strtab_get(names, a->id), strtab_get(names, b->id));
}

static void add_rows(struct out_doc *d, const struct beside *b, const struct beside_query *q,
		     const char *group_by)
{
	struct ranked *in_trace = xcalloc(b->names.count + 1, sizeof(*in_trace));
	struct ranked *only = xcalloc(b->names.count + 1, sizeof(*only));
	size_t nt = 0, no = 0, i, shown;
	struct out_block *t;

	for (i = 0; i < b->names.count; i++) {
		const struct beside_key *k = &b->keys[i];

		if (k->in_trace)
			in_trace[nt++] = (struct ranked){ (uint32_t)i, k->trace_bytes };
		else if (k->alloc_bytes)
			only[no++] = (struct ranked){ (uint32_t)i, k->alloc_bytes };
	}
	qsort_r(in_trace, nt, sizeof(*in_trace), by_bytes, (void *)&b->names);
	qsort_r(only, no, sizeof(*only), by_bytes, (void *)&b->names);
	t = out_table(d, "allocinfo", "the trace's rows beside allocinfo's (none: no tag of it)",
		      match_columns, sizeof(match_columns) / sizeof(match_columns[0]));
	t->keyed = true;
	t->group_by = group_by;
	shown = q->top && q->top < nt ? q->top : nt;
	for (i = 0; i < shown; i++) {
		const struct beside_key *k = &b->keys[in_trace[i].id];

		out_row_str(d, t, strtab_get(&b->names, in_trace[i].id));
		out_row_u64(d, t, k->trace_bytes);
		out_row_u64(d, t, k->trace_objects);
		if (k->in_allocinfo) {
			out_row_u64(d, t, k->alloc_bytes);
			out_row_u64(d, t, k->alloc_calls);
			out_row_i64(d, t, (int64_t)k->alloc_bytes - (int64_t)k->trace_bytes);
			out_row_u64(d, t, k->sites);
		} else {
			out_row_none(d, t);
			out_row_none(d, t);
			out_row_none(d, t);
			out_row_none(d, t);
		}
	}
	t = out_table(d, "allocinfo_only", "allocinfo's rows with bytes live the trace never saw",
		      only_columns, sizeof(only_columns) / sizeof(only_columns[0]));
	t->keyed = true;
	t->group_by = group_by;
	shown = q->top && q->top < no ? q->top : no;
	for (i = 0; i < shown; i++) {
		const struct beside_key *k = &b->keys[only[i].id];

		out_row_str(d, t, strtab_get(&b->names, only[i].id));
		out_row_u64(d, t, k->alloc_bytes);
		out_row_u64(d, t, k->alloc_calls);
		out_row_u64(d, t, k->sites);
	}
	free(in_trace);
	free(only);
}

void beside_add_tables(struct out_doc *d, const struct beside_query *q)
{
	enum alloc_key by = compared_by(q->group);
	const char *group_by = by == ALLOC_BY_MODULE ? "module" : by == ALLOC_BY_DIR ? "dir"
										   : "function";
	struct alloc_rows ar;
	struct beside b;
	struct out_block *l;
	uint64_t matched = 0, trace_only = 0, trace_only_bytes = 0, alloc_only = 0,
		 alloc_only_bytes = 0;
	char key[1024];
	size_t i;

	memset(&b, 0, sizeof(b));
	strtab_init(&b.names);
	alloc_rows_build_in(&ar, q->s, by, q->branch, (const char (*)[64])q->filters->module,
			    q->filters->nmodule);
	for (i = 0; i < ar.n; i++) {
		const struct alloc_row_sum *r = &ar.rows[i];
		struct beside_key *k = key_of(&b, strtab_get(&ar.names, r->name),
					      strtab_length(&ar.names, r->name));

		k->alloc_bytes = r->bytes;
		k->alloc_calls = r->calls;
		k->sites = r->sites;
		k->in_allocinfo = true;
	}
	for (i = 0; i < q->rows->count; i++) {
		const struct account_row *r = &q->rows->rows[i];
		size_t n = trace_key(r->caller, by, key, sizeof(key));
		struct beside_key *k = key_of(&b, key, n);

		k->trace_bytes += r->s.current_dynamic;
		k->trace_objects += r->s.alloc_count > r->s.free_count ?
				    r->s.alloc_count - r->s.free_count : 0;
		k->in_trace = true;
	}
	for (i = 0; i < b.names.count; i++) {
		const struct beside_key *k = &b.keys[i];

		if (k->in_trace && k->in_allocinfo) {
			matched++;
		} else if (k->in_trace) {
			trace_only++;
			trace_only_bytes += k->trace_bytes;
		} else if (k->in_allocinfo) {
			alloc_only++;
			alloc_only_bytes += k->alloc_bytes;
		}
	}
	l = out_list(d, "allocinfo_match", "beside allocinfo");
	out_item_str(d, l, "snapshot", "snapshot", q->source);
	out_item_str(d, l, "by", "compared by", group_by);
	out_item_u64(d, l, "matched", "rows in both", matched);
	out_item_u64(d, l, "trace_only", "trace rows with no allocinfo tag", trace_only);
	out_item_u64(d, l, "trace_only_bytes", "their live bytes", trace_only_bytes);
	out_item_u64(d, l, "allocinfo_only", "allocinfo rows live the trace never saw", alloc_only);
	out_item_u64(d, l, "allocinfo_only_bytes", "their live bytes", alloc_only_bytes);
	out_item_u64(d, l, "allocinfo_bytes", "allocinfo live bytes in all", ar.bytes);
	if (by == ALLOC_BY_FUNCTION)
		out_item_u64(d, l, "ambiguous_functions", "functions with tags in several files "
			     "(summed)", ambiguous_functions(q->s));
	add_rows(d, &b, q, group_by);
	alloc_rows_release(&ar);
	free(b.keys);
	strtab_release(&b.names);
}
