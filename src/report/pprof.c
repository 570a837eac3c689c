/*
 * pprof.c - the allocations as pprof's heap profile (pprof.h): samples by
 * origin key, a function and a location per frame name, gzipped
 * profile.proto. Not here: choosing what to profile, or the file.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "allocinfo.h"
#include "callsite.h"
#include "text_parse.h"
#include "pprof.h"
#include "profile.pb-c.h"
#include "text_stacks.h"
#include "strtab.h"
#include "ziplib.h"

#define FRAMES_TEXT_MAX ((size_t)STACK_MAX_FRAMES * (FRAME_NAME_MAX + 1) + CALLSITE_NAME_MAX + 16)

enum { ALLOC_OBJECTS, ALLOC_SPACE, INUSE_OBJECTS, INUSE_SPACE, VALUES };

/* The profile being made: its strings, functions (one location each) and samples. */
struct profile_builder {
	struct strtab strings;		/* string_table; id 0 is "" */
	uint64_t *function_of;		/* string id -> function id, 0 = none yet */
	size_t function_of_cap;
	Perftools__Profiles__Function *functions;
	Perftools__Profiles__Location *locations;
	Perftools__Profiles__Line *lines;
	Perftools__Profiles__Line **line_ptrs;
	size_t nfunctions, functions_cap;
	Perftools__Profiles__Mapping *mappings;
	uint64_t *mapping_of_object;	/* object index -> mapping id, 0 = none yet */
	size_t nmappings;
	Perftools__Profiles__Sample *samples;
	size_t nsamples, samples_cap;
	const struct kernel_tree *tree;
};

static int64_t string_id(struct profile_builder *b, const char *s, size_t n)
{
	return (int64_t)strtab_intern(&b->strings, s, n);
}

/* The object defining name, if the tree has exactly one; -1 otherwise. */
static long object_of_function(const struct kernel_tree *t, const char *name, size_t n)
{
	const struct kfunc *f;
	size_t count;

	if (!t || !(f = ktree_find_function(t, name, n, &count)) || count != 1)
		return -1;
	return (long)f->object;
}

static uint64_t mapping_for(struct profile_builder *b, long object)
{
	Perftools__Profiles__Mapping *m;

	if (b->mapping_of_object[object])
		return b->mapping_of_object[object];
	m = &b->mappings[b->nmappings++];
	perftools__profiles__mapping__init(m);
	m->id = b->nmappings;
	m->filename = string_id(b, ktree_string(b->tree, b->tree->objects[object].path),
				strlen(ktree_string(b->tree, b->tree->objects[object].path)));
	m->has_functions = true;
	b->mapping_of_object[object] = m->id;
	return m->id;
}

/* The location (= function) id of a frame name, made on first sight. */
static uint64_t location_of(struct profile_builder *b, const char *name, size_t n)
{
	uint32_t s = (uint32_t)string_id(b, name, n);
	Perftools__Profiles__Function *f;
	Perftools__Profiles__Location *l;
	long object;

	if (s >= b->function_of_cap) {
		size_t cap = b->function_of_cap ? b->function_of_cap * 2 : 1024;

		while (cap <= s)
			cap *= 2;
		b->function_of = xrealloc(b->function_of, cap * sizeof(*b->function_of));
		memset(b->function_of + b->function_of_cap, 0,
		       (cap - b->function_of_cap) * sizeof(*b->function_of));
		b->function_of_cap = cap;
	}
	if (b->function_of[s])
		return b->function_of[s];
	if (b->nfunctions == b->functions_cap) {
		b->functions_cap = b->functions_cap ? b->functions_cap * 2 : 256;
		b->functions = xrealloc(b->functions, b->functions_cap * sizeof(*b->functions));
		b->locations = xrealloc(b->locations, b->functions_cap * sizeof(*b->locations));
		b->lines = xrealloc(b->lines, b->functions_cap * sizeof(*b->lines));
		b->line_ptrs = xrealloc(b->line_ptrs, b->functions_cap * sizeof(*b->line_ptrs));
	}
	f = &b->functions[b->nfunctions];
	l = &b->locations[b->nfunctions];
	perftools__profiles__function__init(f);
	perftools__profiles__location__init(l);
	perftools__profiles__line__init(&b->lines[b->nfunctions]);
	f->id = l->id = b->nfunctions + 1;
	f->name = f->system_name = s;
	object = object_of_function(b->tree, name, n);
	if (object >= 0) {
		l->mapping_id = mapping_for(b, object);
		f->filename = b->mappings[l->mapping_id - 1].filename;
	}
	b->lines[b->nfunctions].function_id = f->id;
	b->nfunctions++;
	b->function_of[s] = f->id;
	return f->id;
}

/* A sample's labels: its module, then the tags (host, kernel...); one block, freed whole. */
static void label_sample(struct profile_builder *b, Perftools__Profiles__Sample *s,
			 const char *module, const struct out_tags *tags)
{
	size_t n = 1 + (tags ? tags->n : 0), i;
	Perftools__Profiles__Label *l = xcalloc(n, sizeof(*l));

	s->label = xcalloc(n, sizeof(*s->label));
	s->n_label = n;
	for (i = 0; i < n; i++) {
		const char *key = i ? tags->key[i - 1] : "module";
		const char *value = i ? tags->value[i - 1] : module;

		perftools__profiles__label__init(&l[i]);
		l[i].key = string_id(b, key, strlen(key));
		l[i].str = string_id(b, value, strlen(value));
		s->label[i] = &l[i];
	}
}

static void unlabel_sample(Perftools__Profiles__Sample *s)
{
	if (s->n_label)
		free(s->label[0]);
	free(s->label);
}

/*
 * The module of an origin key's sample: its call site's, as the event
 * printed it ("[ext4]") and --group-by module has it; a page's (no call
 * site) its origin frame's (callchains_frame_module_name).
 */
static void module_of_key(const struct pprof_source *src, uint32_t call_site, uint32_t stack,
			  char *out, size_t cap)
{
	const struct strtab *sites = &src->chains->strings->call_sites;
	uint32_t frame = callchains_origin_frame(src->chains, stack);

	if (call_site != STR_NONE)
		callsite_module(strtab_get(sites, call_site), strtab_length(sites, call_site),
				src->syms, out, cap);
	else if (frame != STR_NONE)
		callchains_frame_module_name(src->chains, frame, src->pages != NULL, out, cap);
	else
		snprintf(out, cap, "%s", "(unknown)");
}

/* One sample: the frames of a folded line (root first), its four values. */
static Perftools__Profiles__Sample *add_sample(struct profile_builder *b, char *folded, size_t len,
					       const int64_t *values)
{
	Perftools__Profiles__Sample *s;
	uint64_t *ids = xmalloc((len / 2 + 2) * sizeof(*ids));
	size_t n = 0, i, start = 0;

	if (len >= 11 && strncmp(folded, "[no_stack];", 11) == 0)
		start = 11;	/* no stack: the call site's function alone */
	for (i = start; i <= len; i++)
		if (i == len || folded[i] == ';') {
			if (i > start)
				ids[n++] = location_of(b, folded + start, i - start);
			start = i + 1;
		}
	for (i = 0; i < n / 2; i++) {	/* pprof: the leaf first */
		uint64_t t = ids[i];

		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = t;
	}
	if (b->nsamples == b->samples_cap) {
		b->samples_cap = b->samples_cap ? b->samples_cap * 2 : 256;
		b->samples = xrealloc(b->samples, b->samples_cap * sizeof(*b->samples));
	}
	s = &b->samples[b->nsamples++];
	perftools__profiles__sample__init(s);
	s->n_location_id = n;
	s->location_id = ids;
	s->n_value = VALUES;
	s->value = xmalloc(VALUES * sizeof(*s->value));
	memcpy(s->value, values, VALUES * sizeof(*s->value));
	return s;
}

/* Objects still live at the end, by origin key. */
static uint64_t *live_objects_by_key(const struct account *a)
{
	uint64_t *n = xcalloc(a->nsites ? a->nsites : 1, sizeof(*n));
	size_t i;

	const struct ptrmap *m = account_live(a);

	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].ptr && account_live_row(a, &m->recs[i]) < a->nsites)
			n[account_live_row(a, &m->recs[i])]++;
	return n;
}

/* page_owner: each chain's pages, all held (objects: base pages) */
static void collect_page_samples(struct profile_builder *b, const struct pprof_source *src)
{
	const struct page_stats *p = src->pages;
	char *buf = xmalloc(FRAMES_TEXT_MAX), module[CALLSITE_NAME_MAX];
	uint32_t id, call_site, stack;

	for (id = 0; id < p->nkeys; id++) {
		const struct page_origin *o = &p->by_key[id];
		int64_t v[VALUES];
		size_t len;

		if (!o->pages)
			continue;
		v[ALLOC_OBJECTS] = (int64_t)o->pages;
		v[ALLOC_SPACE] = (int64_t)(o->pages * src->page_size);
		v[INUSE_OBJECTS] = (int64_t)o->live_pages;
		v[INUSE_SPACE] = (int64_t)(o->live_pages * src->page_size);
		origin_key_parts(src->keys, id, &call_site, &stack);
		len = callchains_folded(src->chains, call_site, stack, buf, FRAMES_TEXT_MAX);
		module_of_key(src, call_site, stack, module, sizeof(module));
		label_sample(b, add_sample(b, buf, len, v), module, src->tags);
	}
	free(buf);
}

static void collect_samples(struct profile_builder *b, const struct pprof_source *src)
{
	uint64_t *live = live_objects_by_key(src->by_key);
	char *buf = xmalloc(FRAMES_TEXT_MAX), module[CALLSITE_NAME_MAX];
	uint32_t id, call_site, stack;

	for (id = 0; id < src->by_key->nsites; id++) {
		const struct site_stats *s = account_site(src->by_key, id);
		int64_t v[VALUES];
		size_t len;

		if (!s || (!s->alloc_count && !s->current_dynamic))
			continue;
		v[ALLOC_OBJECTS] = (int64_t)s->alloc_count;
		v[ALLOC_SPACE] = (int64_t)s->total_dynamic;
		v[INUSE_OBJECTS] = (int64_t)live[id];
		v[INUSE_SPACE] = (int64_t)s->current_dynamic;
		origin_key_parts(src->keys, id, &call_site, &stack);
		len = callchains_folded(src->chains, call_site, stack, buf, FRAMES_TEXT_MAX);
		module_of_key(src, call_site, stack, module, sizeof(module));
		label_sample(b, add_sample(b, buf, len, v), module, src->tags);
	}
	free(buf);
	free(live);
}

/* pack, gzip, write. */
static int write_gzipped(FILE *f, const Perftools__Profiles__Profile *p, struct ta_error *err)
{
	size_t n = perftools__profiles__profile__get_packed_size(p);
	uint8_t *packed = xmalloc(n ? n : 1), out[65536];
	z_stream z;
	int rc = Z_OK;

	if (zlib_library_load("to compress the profile", err) < 0) {
		free(packed);
		return -1;
	}
	perftools__profiles__profile__pack(p, packed);
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(packed);
		return error_set(err, "cannot compress the profile: zlib refused to start");
	}
	z.next_in = packed;
	z.avail_in = (uInt)n;
	while (rc != Z_STREAM_END) {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = deflate(&z, Z_FINISH);
		if (rc == Z_STREAM_ERROR)
			break;
		fwrite(out, 1, sizeof(out) - z.avail_out, f);
	}
	deflateEnd(&z);
	free(packed);
	return rc == Z_STREAM_END ? 0 : error_set(err, "cannot compress the profile");
}

static void value_type(struct profile_builder *b, Perftools__Profiles__ValueType *v,
		       const char *type, const char *unit)
{
	perftools__profiles__value_type__init(v);
	v->type = string_id(b, type, strlen(type));
	v->unit = string_id(b, unit, strlen(unit));
}

int pprof_write(FILE *f, const struct pprof_source *src, struct ta_error *err)
{
	static const char *const types[VALUES][2] = {
		{ "alloc_objects", "count" }, { "alloc_space", "bytes" },
		{ "inuse_objects", "count" }, { "inuse_space", "bytes" },
	};
	Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType vt[VALUES], *vtp[VALUES], period;
	Perftools__Profiles__Function **fp;
	Perftools__Profiles__Location **lp;
	Perftools__Profiles__Mapping **mp;
	Perftools__Profiles__Sample **sp;
	struct profile_builder b;
	char **strings;
	size_t i;
	int rc;

	memset(&b, 0, sizeof(b));
	strtab_init(&b.strings);
	b.tree = src->tree;
	if (b.tree) {
		b.mappings = xcalloc(b.tree->nobjects ? b.tree->nobjects : 1, sizeof(*b.mappings));
		b.mapping_of_object = xcalloc(b.tree->nobjects ? b.tree->nobjects : 1,
					      sizeof(*b.mapping_of_object));
	}
	string_id(&b, "", 0);
	for (i = 0; i < VALUES; i++) {
		value_type(&b, &vt[i], types[i][0], types[i][1]);
		vtp[i] = &vt[i];
	}
	value_type(&b, &period, "space", "bytes");
	if (src->pages)
		collect_page_samples(&b, src);
	else
		collect_samples(&b, src);

	p.n_sample_type = VALUES;
	p.sample_type = vtp;
	p.period_type = &period;
	p.period = 1;
	p.duration_nanos = (int64_t)src->duration_ns;
	sp = xmalloc((b.nsamples + 1) * sizeof(*sp));
	for (i = 0; i < b.nsamples; i++)
		sp[i] = &b.samples[i];
	fp = xmalloc((b.nfunctions + 1) * sizeof(*fp));
	lp = xmalloc((b.nfunctions + 1) * sizeof(*lp));
	for (i = 0; i < b.nfunctions; i++) {
		fp[i] = &b.functions[i];
		lp[i] = &b.locations[i];
		b.line_ptrs[i] = &b.lines[i];
		lp[i]->n_line = 1;
		lp[i]->line = &b.line_ptrs[i];
	}
	mp = xmalloc((b.nmappings + 1) * sizeof(*mp));
	for (i = 0; i < b.nmappings; i++)
		mp[i] = &b.mappings[i];
	strings = xmalloc((b.strings.count + 1) * sizeof(*strings));
	for (i = 0; i < b.strings.count; i++)
		strings[i] = (char *)strtab_get(&b.strings, (uint32_t)i);
	p.n_sample = b.nsamples;
	p.sample = sp;
	p.n_function = p.n_location = b.nfunctions;
	p.function = fp;
	p.location = lp;
	p.n_mapping = b.nmappings;
	p.mapping = mp;
	p.n_string_table = b.strings.count;
	p.string_table = strings;

	rc = write_gzipped(f, &p, err);

	for (i = 0; i < b.nsamples; i++) {
		free(b.samples[i].location_id);
		free(b.samples[i].value);
		unlabel_sample(&b.samples[i]);
	}
	free(strings);
	free(mp);
	free(lp);
	free(fp);
	free(sp);
	free(b.samples);
	free(b.functions);
	free(b.locations);
	free(b.lines);
	free(b.line_ptrs);
	free(b.function_of);
	free(b.mappings);
	free(b.mapping_of_object);
	strtab_release(&b.strings);
	return rc;
}

/* ---- an allocinfo snapshot's sites ---- */

struct site_profile {
	struct profile_builder b;	/* its strings; the arrays below are the profile's */
	Perftools__Profiles__Function *functions;
	Perftools__Profiles__Location *locations;
	Perftools__Profiles__Line *lines, **line_ptrs;
	Perftools__Profiles__Mapping *mappings;
	Perftools__Profiles__Sample *samples;
	uint64_t *function_of;		/* (function + file) key id -> function id */
	uint64_t *mapping_of;		/* module id (names) + 1, 0 for vmlinux -> mapping id */
	size_t nfunctions, nlocations, nmappings, nsamples;
};

static uint64_t site_mapping(struct site_profile *p, const struct alloc_series *s, uint32_t module)
{
	size_t slot = module == STR_NONE ? 0 : (size_t)module + 1;
	Perftools__Profiles__Mapping *m;
	const char *name = alloc_name(s, module);

	if (p->mapping_of[slot])
		return p->mapping_of[slot];
	m = &p->mappings[p->nmappings++];
	perftools__profiles__mapping__init(m);
	m->id = p->nmappings;
	m->filename = string_id(&p->b, name, strlen(name));
	m->has_functions = m->has_filenames = m->has_line_numbers = true;
	p->mapping_of[slot] = m->id;
	return m->id;
}

static uint64_t site_function(struct site_profile *p, const struct alloc_series *s,
			      struct strtab *keys, const struct alloc_site *site)
{
	const char *func = strtab_get(&s->names, site->func);
	const char *file = strtab_get(&s->names, site->file);
	char key[1024];
	int n = snprintf(key, sizeof(key), "%s\t%s", func, file);
	uint32_t id = strtab_intern(keys, key, (size_t)n < sizeof(key) ? (size_t)n : sizeof(key) - 1);
	Perftools__Profiles__Function *f;

	if (p->function_of[id])
		return p->function_of[id];
	f = &p->functions[p->nfunctions++];
	perftools__profiles__function__init(f);
	f->id = p->nfunctions;
	f->name = f->system_name = string_id(&p->b, func, strlen(func));
	f->filename = string_id(&p->b, file, strlen(file));
	p->function_of[id] = f->id;
	return f->id;
}

int pprof_write_sites(FILE *f, const struct alloc_series *s,
		      bool (*keep)(const void *ctx, uint32_t site), const void *ctx,
		      const struct out_tags *tags, struct ta_error *err)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType vt[2], *vtp[2], period;
	Perftools__Profiles__Function **fp;
	Perftools__Profiles__Location **lp;
	Perftools__Profiles__Mapping **mp;
	Perftools__Profiles__Sample **sp;
	struct site_profile p;
	struct strtab keys;
	uint64_t *loc_ids, *values;
	char **strings;
	size_t n = s->nsites ? s->nsites : 1, i;
	uint32_t k;
	int rc;

	memset(&p, 0, sizeof(p));
	strtab_init(&p.b.strings);
	strtab_init(&keys);
	p.functions = xcalloc(n, sizeof(*p.functions));
	p.locations = xcalloc(n, sizeof(*p.locations));
	p.lines = xcalloc(n, sizeof(*p.lines));
	p.line_ptrs = xcalloc(n, sizeof(*p.line_ptrs));
	p.samples = xcalloc(n, sizeof(*p.samples));
	p.function_of = xcalloc(n, sizeof(*p.function_of));
	p.mapping_of = xcalloc(s->names.count + 2, sizeof(*p.mapping_of));
	p.mappings = xcalloc(s->names.count + 2, sizeof(*p.mappings));
	loc_ids = xcalloc(n, sizeof(*loc_ids));
	values = xcalloc(2 * n, sizeof(*values));
	string_id(&p.b, "", 0);
	value_type(&p.b, &vt[0], "inuse_objects", "count");
	value_type(&p.b, &vt[1], "inuse_space", "bytes");
	value_type(&p.b, &period, "space", "bytes");
	vtp[0] = &vt[0];
	vtp[1] = &vt[1];
	for (k = 0; k < s->nsites; k++) {
		const struct alloc_site *site = &s->sites[k];
		Perftools__Profiles__Location *l;
		Perftools__Profiles__Sample *smp;

		if (s->listed_in[k] != s->snapshots || (!s->bytes[k] && !s->calls[k]) ||
		    (keep && !keep(ctx, k)))
			continue;
		l = &p.locations[p.nlocations];
		perftools__profiles__location__init(l);
		perftools__profiles__line__init(&p.lines[p.nlocations]);
		l->id = p.nlocations + 1;
		l->mapping_id = site_mapping(&p, s, site->module);
		p.lines[p.nlocations].function_id = site_function(&p, s, &keys, site);
		p.lines[p.nlocations].line = site->line;
		p.line_ptrs[p.nlocations] = &p.lines[p.nlocations];
		l->n_line = 1;
		l->line = &p.line_ptrs[p.nlocations];
		smp = &p.samples[p.nsamples];
		perftools__profiles__sample__init(smp);
		loc_ids[p.nsamples] = l->id;
		smp->n_location_id = 1;
		smp->location_id = &loc_ids[p.nsamples];
		values[2 * p.nsamples] = s->calls[k];
		values[2 * p.nsamples + 1] = s->bytes[k];
		smp->n_value = 2;
		smp->value = (int64_t *)&values[2 * p.nsamples];
		label_sample(&p.b, smp, alloc_name(s, site->module), tags);
		p.nlocations++;
		p.nsamples++;
	}
	sp = xmalloc((p.nsamples + 1) * sizeof(*sp));
	for (i = 0; i < p.nsamples; i++)
		sp[i] = &p.samples[i];
	fp = xmalloc((p.nfunctions + 1) * sizeof(*fp));
	for (i = 0; i < p.nfunctions; i++)
		fp[i] = &p.functions[i];
	lp = xmalloc((p.nlocations + 1) * sizeof(*lp));
	for (i = 0; i < p.nlocations; i++)
		lp[i] = &p.locations[i];
	mp = xmalloc((p.nmappings + 1) * sizeof(*mp));
	for (i = 0; i < p.nmappings; i++)
		mp[i] = &p.mappings[i];
	strings = xmalloc((p.b.strings.count + 1) * sizeof(*strings));
	for (i = 0; i < p.b.strings.count; i++)
		strings[i] = (char *)strtab_get(&p.b.strings, (uint32_t)i);
	prof.n_sample_type = 2;
	prof.sample_type = vtp;
	prof.period_type = &period;
	prof.period = 1;
	prof.n_sample = p.nsamples;
	prof.sample = sp;
	prof.n_function = p.nfunctions;
	prof.function = fp;
	prof.n_location = p.nlocations;
	prof.location = lp;
	prof.n_mapping = p.nmappings;
	prof.mapping = mp;
	prof.n_string_table = p.b.strings.count;
	prof.string_table = strings;
	if (s->snapshots > 1 && !s->untimed)	/* numbered snapshots have no duration */
		prof.duration_nanos = (int64_t)(s->last_ns - s->first_ns);
	rc = write_gzipped(f, &prof, err);
	for (i = 0; i < p.nsamples; i++)
		unlabel_sample(&p.samples[i]);
	free(strings);
	free(mp);
	free(lp);
	free(fp);
	free(sp);
	free(values);
	free(loc_ids);
	free(p.functions);
	free(p.locations);
	free(p.lines);
	free(p.line_ptrs);
	free(p.samples);
	free(p.function_of);
	free(p.mapping_of);
	free(p.mappings);
	strtab_release(&keys);
	strtab_release(&p.b.strings);
	return rc;
}
