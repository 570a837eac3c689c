/*
 * kindex.c - saving a struct kernel_tree into a kernel index file and
 * loading it back (layout in kindex.h).
 *
 * binfile_open has checked magic, version, byte order, sizes, truncation
 * and every checksum; this module checks that the sections agree with each
 * other (counts, indexes in range, order), so a well-checksummed but
 * inconsistent file is refused too. Not here: the container itself.
 */
#include <string.h>

#include "binfile.h"
#include "kindex.h"

enum kindex_section {
	SEC_META = 1,
	SEC_NAME = 2,
	SEC_STRINGS = 3,
	SEC_OBJECTS = 4,
	SEC_FUNCS = 5,
	SEC_SYSMAP = 6,
	SEC_VARS = 7,
	SEC_NMSYMS = 8,		/* optional: indexes made before it have none */
	SEC_MODULES = 9,	/* optional: each object's module (ktree.h), or none */
};

struct kindex_meta {
	uint64_t nstrings;
	uint64_t nobjects;
	uint64_t nfuncs;
	uint64_t has_system_map;
	uint64_t nvars;
	struct ktree_counts counts;
};

/* ---- saving ---------------------------------------------------------------- */

static int write_strings(struct binfile_writer *w, const struct kernel_tree *t,
			 struct ta_error *err)
{
	uint32_t id;

	if (binfile_begin_section(w, SEC_STRINGS, err) < 0)
		return -1;
	for (id = 0; id < t->strings.count; id++)
		if (binfile_write(w, strtab_get(&t->strings, id),
				  strtab_length(&t->strings, id) + 1, err) < 0)
			return -1;
	return binfile_end_section(w, err);
}

static int write_index(struct binfile_writer *w, const struct kernel_tree *t,
		       struct ta_error *err)
{
	struct kindex_meta meta;
	const char *name = t->name ? t->name : "";

	memset(&meta, 0, sizeof(meta));
	meta.nstrings = t->strings.count;
	meta.nobjects = t->nobjects;
	meta.nfuncs = t->nfuncs;
	meta.has_system_map = t->system_map != NULL;
	meta.nvars = t->nvars;
	meta.counts = t->counts;
	if (binfile_add_section(w, SEC_META, &meta, sizeof(meta), err) < 0 ||
	    binfile_add_section(w, SEC_NAME, name, strlen(name), err) < 0 ||
	    write_strings(w, t, err) < 0 ||
	    binfile_add_section(w, SEC_OBJECTS, t->objects, t->nobjects * sizeof(*t->objects),
				err) < 0 ||
	    binfile_add_section(w, SEC_FUNCS, t->funcs, t->nfuncs * sizeof(*t->funcs), err) < 0 ||
	    binfile_add_section(w, SEC_VARS, t->vars, t->nvars * sizeof(*t->vars), err) < 0)
		return -1;
	if (t->has_nmsyms &&
	    binfile_add_section(w, SEC_NMSYMS, t->nmsyms, t->nnmsyms * sizeof(*t->nmsyms), err) < 0)
		return -1;
	if (t->object_module &&
	    binfile_add_section(w, SEC_MODULES, t->object_module,
				t->nobjects * sizeof(*t->object_module), err) < 0)
		return -1;
	if (t->system_map &&
	    binfile_add_section(w, SEC_SYSMAP, t->system_map, t->system_map_len, err) < 0)
		return -1;
	return 0;
}

int kindex_save(const struct kernel_tree *t, const char *path, struct ta_error *err)
{
	struct binfile_writer w;

	if (binfile_create(&w, path, KINDEX_MAGIC, KINDEX_MAJOR, KINDEX_MINOR, err) < 0)
		return -1;
	if (write_index(&w, t, err) < 0 || binfile_commit(&w, err) < 0) {
		binfile_abort(&w);
		return -1;
	}
	return 0;
}

/* ---- loading ----------------------------------------------------------------- */

static int corrupt(struct ta_error *err, const char *path, const char *what)
{
	return error_set(err, "'%s' is not a usable kernel index: %s", path, what);
}

static int load_strings(struct kernel_tree *t, const struct binfile *f, uint64_t n,
			struct ta_error *err)
{
	size_t len;
	const char *s = binfile_section(f, SEC_STRINGS, &len);
	const char *problem = strtab_load_packed(&t->strings, s, len, n);

	return problem ? corrupt(err, f->path, problem) : 0;
}

static int load_objects(struct kernel_tree *t, const struct binfile *f, uint64_t n,
			struct ta_error *err)
{
	size_t len, i;
	const void *p = binfile_section(f, SEC_OBJECTS, &len);

	if (len != n * sizeof(*t->objects))
		return corrupt(err, f->path, "its object table has the wrong size");
	t->objects = xmalloc(len ? len : 1);
	if (len)
		memcpy(t->objects, p, len);
	t->nobjects = n;
	for (i = 0; i < n; i++)
		if (t->objects[i].path >= t->strings.count)
			return corrupt(err, f->path, "an object's path is out of range");
	return 0;
}

static int load_functions(struct kernel_tree *t, const struct binfile *f, uint64_t n,
			  struct ta_error *err)
{
	size_t len, i;
	const void *p = binfile_section(f, SEC_FUNCS, &len);

	if (len != n * sizeof(*t->funcs))
		return corrupt(err, f->path, "its function table has the wrong size");
	t->funcs = xmalloc(len ? len : 1);
	if (len)
		memcpy(t->funcs, p, len);
	t->nfuncs = n;
	for (i = 0; i < n; i++) {
		const struct kfunc *k = &t->funcs[i];

		if (k->name >= t->strings.count || k->object >= t->nobjects)
			return corrupt(err, f->path, "a function's name or object is out of range");
		if (i && (k->name < k[-1].name || (k->name == k[-1].name && k->object < k[-1].object)))
			return corrupt(err, f->path, "its function table is not in order");
	}
	return 0;
}

static int load_vars(struct kernel_tree *t, const struct binfile *f, uint64_t n,
		     struct ta_error *err)
{
	size_t len, i;
	const void *p = binfile_section(f, SEC_VARS, &len);

	if (len != n * sizeof(*t->vars))
		return corrupt(err, f->path, "its data symbol table has the wrong size");
	t->vars = xmalloc(len ? len : 1);
	if (len)
		memcpy(t->vars, p, len);
	t->nvars = n;
	for (i = 0; i < n; i++) {
		const struct kvar *v = &t->vars[i];

		if (v->name >= t->strings.count || v->object >= t->nobjects ||
		    v->section >= KSEC_COUNT)
			return corrupt(err, f->path, "a data symbol is out of range");
	}
	return 0;
}

/* The symbols as nm lists them, if the index has them (its length says how many). */
static int load_nmsyms(struct kernel_tree *t, const struct binfile *f, struct ta_error *err)
{
	size_t len, i;
	const void *p = binfile_section(f, SEC_NMSYMS, &len);

	if (!p)
		return 0;
	if (len % sizeof(*t->nmsyms))
		return corrupt(err, f->path, "its nm symbol table has the wrong size");
	t->nnmsyms = len / sizeof(*t->nmsyms);
	t->nmsyms = xmalloc(len ? len : 1);
	if (len)
		memcpy(t->nmsyms, p, len);
	for (i = 0; i < t->nnmsyms; i++) {
		const struct knmsym *s = &t->nmsyms[i];

		if (s->name >= t->strings.count || s->object >= t->nobjects ||
		    !strchr("tTdDbBrR", (int)s->type) || s->type == 0)
			return corrupt(err, f->path, "an nm symbol is out of range");
	}
	t->has_nmsyms = true;
	return 0;
}

/* Each object's module: optional (an index made before modules were kept has none). */
static int load_modules(struct kernel_tree *t, const struct binfile *f, struct ta_error *err)
{
	size_t len, i;
	const uint32_t *p = binfile_section(f, SEC_MODULES, &len);

	if (!p)
		return 0;
	if (len != t->nobjects * sizeof(*t->object_module))
		return corrupt(err, f->path, "its module table has the wrong size");
	t->object_module = xmalloc(len ? len : 1);
	if (len)
		memcpy(t->object_module, p, len);
	for (i = 0; i < t->nobjects; i++) {
		uint32_t m = t->object_module[i];

		if (m != KMODULE_NONE && m >= t->strings.count)
			return corrupt(err, f->path, "an object's module is out of range");
	}
	return 0;
}

static int load_sections(struct kernel_tree *t, const struct binfile *f, struct ta_error *err)
{
	struct kindex_meta meta;
	size_t len;
	const void *p = binfile_section(f, SEC_META, &len);

	if (!p || len != sizeof(meta))
		return corrupt(err, f->path, "it has no valid META section");
	memcpy(&meta, p, sizeof(meta));
	if (meta.nstrings > UINT32_MAX || meta.nobjects > UINT32_MAX || meta.nfuncs > UINT32_MAX ||
	    meta.nvars > UINT32_MAX)
		return corrupt(err, f->path, "its counts are out of range");
	p = binfile_section(f, SEC_NAME, &len);
	t->name = xmalloc(len + 1);
	if (len)
		memcpy(t->name, p, len);
	t->name[len] = '\0';
	if (strlen(t->name) != len)
		return corrupt(err, f->path, "its name holds a NUL byte");
	if (load_strings(t, f, meta.nstrings, err) < 0 ||
	    load_objects(t, f, meta.nobjects, err) < 0 ||
	    load_functions(t, f, meta.nfuncs, err) < 0 || load_vars(t, f, meta.nvars, err) < 0 ||
	    load_nmsyms(t, f, err) < 0 || load_modules(t, f, err) < 0)
		return -1;
	t->counts = meta.counts;
	p = binfile_section(f, SEC_SYSMAP, &len);
	if (meta.has_system_map != (p != NULL))
		return corrupt(err, f->path, "its System.map section is missing");
	if (p) {
		t->system_map = xmalloc(len + 1);
		memcpy(t->system_map, p, len);
		t->system_map[len] = '\0';
		t->system_map_len = len;
	}
	return 0;
}

int kindex_load(struct kernel_tree *t, const char *path, struct ta_error *err)
{
	struct binfile f;
	int rc;

	static const struct binfile_kind kind = {
		KINDEX_MAGIC, KINDEX_MAJOR, KINDEX_MAJOR, "kernel index",
		"--save-index from the tree", false	/* every section is read: all checked */
	};

	if (binfile_open(&f, path, &kind, err) < 0)
		return -1;
	rc = load_sections(t, &f, err);
	binfile_close(&f);
	return rc;
}

bool kindex_is_index(const char *path)
{
	return binfile_has_magic(path, KINDEX_MAGIC);
}
