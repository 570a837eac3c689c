/*
 * kernel_load.c - the kernel a log is read against: System.map, a saved
 * /proc/kallsyms and /proc/modules, the built tree (walked or from its
 * index) and its directories; and whether the log is of that build (the
 * call sites' sizes against the tree's functions). Reads no event.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "engine_local.h"
#include "callsite.h"
#include "kindex.h"

/* What the call sites' printed sizes say of the tree (--strict-kernel). */
struct kernel_match {
	uint64_t checked;	/* call sites with a size or an address whose function the tree defines */
	uint64_t disagree;	/* of those, no definition of that size */
	char examples[2][256];
};

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
	if (input_read_whole(path, (size_t)1 << 30, &text, &len, err) < 0)
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
	if (input_read_whole(path, (size_t)1 << 30, &text, &len, err) < 0)
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
int run_check_kernel_match(const struct analysis *a, struct ta_error *err)
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
