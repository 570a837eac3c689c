/*
 * ktree.h - a built kernel tree as the analysis needs it: the objects it
 * was built from, the functions each defines, their static sizes, and the
 * text of its System.map.
 *
 * ktree_walk() reads a tree with libelf; kindex.h saves and loads the same
 * struct as one binary file, so everything downstream is identical from a
 * tree and from its index. Not here: directories as a tree of sizes
 * (dirtree.h), call sites, System.map lookups (symbols.h).
 *
 * What is taken: every ".o" that has a ".c" or ".S" source beside it,
 * except under the top-level "scripts/" and "tools/" (build tools, not the
 * kernel image), "built-in.*", "vmlinux.o" and "*.mod.o". Per object, the
 * sized symbols of its symbol table: FUNC symbols count as text; OBJECT
 * (and TLS) symbols count as bss when their section holds no bytes
 * (SHT_NOBITS, or a COMMON symbol), as data when it is writable, as text
 * when it is executable, else as rodata. Several names at one address
 * (aliases) count once, with the largest size.
 *
 * Loadable modules: each "NAME.mod" beside a "NAME.ko" lists the objects
 * kbuild linked into that module; those objects are the module's (its
 * name as the kernel spells it, '-' made '_'), every other one is built
 * in (vmlinux).
 */
#ifndef TA_KTREE_H
#define TA_KTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "strtab.h"

enum ksection { KSEC_TEXT, KSEC_DATA, KSEC_RODATA, KSEC_BSS, KSEC_COUNT };

/* "text", "data", "rodata", "bss". */
const char *ksection_name(enum ksection s);

struct kobject {
	uint32_t path;			/* id in kernel_tree.strings: "fs/ext2/inode.o" */
	uint32_t nsymbols;		/* sized FUNC and OBJECT symbols read */
	uint64_t size[KSEC_COUNT];	/* static bytes by kind */
};

struct kfunc {
	uint32_t name;			/* id in kernel_tree.strings */
	uint32_t object;		/* index in kernel_tree.objects */
	uint64_t size;			/* st_size */
};

/* A sized data symbol (OBJECT, TLS or COMMON): the static diff's rows. */
struct kvar {
	uint32_t name;			/* id in kernel_tree.strings */
	uint32_t object;		/* index in kernel_tree.objects */
	uint64_t size;			/* st_size */
	uint32_t section;		/* enum ksection: data, rodata or bss */
	uint32_t reserved;
};

/*
 * A symbol as `nm --size-sort` lists it: defined, sized, with nm's type
 * letter (t/T code, d/D data, b/B bss, r/R read-only data; lower case
 * local), kept for those letters only: the static diff's symbol table,
 * by bloat-o-meter's rules (weak, common and absolute symbols it leaves
 * out are left out here).
 */
struct knmsym {
	uint32_t name;			/* id in kernel_tree.strings */
	uint32_t object;		/* index in kernel_tree.objects */
	uint64_t size;			/* st_size */
	uint32_t type;			/* nm's letter */
	uint32_t reserved;
};

struct ktree_counts {
	uint64_t objects;		/* objects taken */
	uint64_t symbols;		/* sized FUNC and OBJECT symbols read */
	uint64_t not_elf;		/* skipped: not an ELF file */
	uint64_t bad_elf;		/* skipped: truncated or unreadable ELF */
	uint64_t no_symtab;		/* skipped: no symbol table */
};

struct kernel_tree {
	char *name;			/* the tree's last path component, e.g. "linux" */
	struct strtab strings;		/* object paths and function names */
	struct kobject *objects;	/* sorted by path */
	size_t nobjects;
	struct kfunc *funcs;		/* sorted by name id, then object */
	size_t nfuncs;
	struct kvar *vars;		/* in the order read: by object */
	size_t nvars;
	struct knmsym *nmsyms;		/* in the order read: by object */
	size_t nnmsyms;
	bool has_nmsyms;		/* false: an index made before they were kept */
	uint32_t *object_module;	/* per object: the module's name id, or KMODULE_NONE */
	char *system_map;		/* its System.map, verbatim; NULL if none */
	size_t system_map_len;
	struct ktree_counts counts;
	/* of a walk only (an index does not keep them): */
	uint64_t boot_objects;		/* arch/<arch>/boot objects: not linked into vmlinux */
	struct vmlinux_sizes {
		bool present;
		uint64_t text, data, bss;	/* allocated sections, as size(1) adds them */
	} vmlinux;
};

/* object_module of built-in code */
#define KMODULE_NONE UINT32_MAX

void ktree_init(struct kernel_tree *t);
void ktree_release(struct kernel_tree *t);

/*
 * 0 when dir is the top of a kernel tree: its System.map or vmlinux, or
 * Linux's top Makefile (VERSION = and PATCHLEVEL = among its first
 * lines); else -1, err saying so, so that a directory of other objects
 * (-k /tmp) is refused before any report walks it.
 */
int ktree_check_top(const char *dir, struct ta_error *err);

/* Walk the built tree under dir. Unreadable objects are counted, not fatal. */
int ktree_walk(struct kernel_tree *t, const char *dir, struct ta_error *err);

/*
 * One ELF file (an object, or a vmlinux) read as a tree of that one
 * object, as bloat-o-meter takes them: its symbols, its static sizes.
 */
int ktree_read_file(struct kernel_tree *t, const char *path, struct ta_error *err);

/* Order funcs by name id, then object (after filling them by hand). */
void ktree_sort_functions(struct kernel_tree *t);

/* The definitions of function name[0..len): *count of them, or NULL. */
const struct kfunc *ktree_find_function(const struct kernel_tree *t, const char *name,
					size_t len, size_t *count);

static inline const char *ktree_string(const struct kernel_tree *t, uint32_t id)
{
	return strtab_get(&t->strings, id);
}

/* The module object i is linked into, or NULL if built in (or not known). */
static inline const char *ktree_object_module(const struct kernel_tree *t, uint32_t i)
{
	return t->object_module && t->object_module[i] != KMODULE_NONE ?
	       strtab_get(&t->strings, t->object_module[i]) : NULL;
}

static inline uint64_t kobject_static(const struct kobject *o)
{
	return o->size[KSEC_TEXT] + o->size[KSEC_DATA] + o->size[KSEC_RODATA] +
	       o->size[KSEC_BSS];
}

#endif
