/*
 * dirtree.h - the kernel tree as a tree of directories and objects, each
 * node carrying the static size and the dynamic sizes of its subtree; and
 * where in it each call site's function is defined.
 *
 * Placing a function (by exact name, never by prefix):
 *   - defined in one object: that object (PLACE_UNIQUE);
 *   - defined in several (static functions of the same name): the one in
 *     the module the call site names ("[ext4]"; none: built-in code) when
 *     only one is (PLACE_BY_MODULE, ktree.h knows each object's module);
 *     else, of those in that module (all without), the one whose
 *     st_size equals the size the call site printed ("/0xsize", or the
 *     System.map distance of a resolved hex address) if exactly one does
 *     (PLACE_BY_SIZE); otherwise a pseudo node "(ambiguous)" under the
 *     deepest directory holding all the candidates (PLACE_AMBIGUOUS);
 *   - defined in none (modules not in the tree, symbols the tree lacks): a
 *     pseudo node "(unknown)" under the root (PLACE_UNKNOWN).
 * So every byte of the account lands in exactly one node, and a parent's
 * size is the sum of its children's.
 *
 * Not here: reading ELF (ktree.h), charts (ringview.h), call site names.
 */
#ifndef TA_DIRTREE_H
#define TA_DIRTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktree.h"
#include "strtab.h"

#define DIR_NONE UINT32_MAX

enum place_kind {
	PLACE_UNIQUE, PLACE_BY_SIZE, PLACE_AMBIGUOUS, PLACE_UNKNOWN, PLACE_BY_MODULE,
	PLACE_KIND_COUNT
};

/* What a ringchart (-a) measures. */
enum size_attr {
	ATTR_STATIC,		/* text + data + rodata + bss */
	ATTR_CURRENT,		/* static + current_dynamic */
	ATTR_CURRENT_DYNAMIC,	/* bytes still allocated at the end of the log */
	ATTR_TOTAL_DYNAMIC,	/* bytes ever allocated */
	ATTR_WASTE,		/* current_dynamic - current_req */
	ATTR_COUNT
};

/* "static" ... "waste", NULL: by enum size_attr. */
extern const char *const size_attr_names[];
const char *size_attr_name(enum size_attr a);

struct dir_node {
	uint32_t name;			/* id in dirtree.names */
	uint32_t parent;		/* DIR_NONE for the root */
	uint32_t first_child, next_sibling;
	uint32_t object;		/* index in the kernel tree's objects, or DIR_NONE */
	bool pseudo;			/* "(ambiguous)" or "(unknown)" */
	uint64_t size[KSEC_COUNT];	/* static bytes of the subtree */
	uint64_t total_dynamic;		/* of the call sites placed in the subtree */
	uint64_t current_dynamic;
	uint64_t current_req;
};

struct dirtree {
	struct dir_node *nodes;		/* node 0 is the root */
	uint32_t count, cap;
	struct strtab names;
	const struct kernel_tree *kt;
	uint32_t *object_node;		/* object index -> node */
	uint64_t placed[PLACE_KIND_COUNT];	/* functions placed, by how */
};

/* The tree of kt's object paths, root named after the tree. */
void dirtree_build(struct dirtree *d, const struct kernel_tree *kt);
void dirtree_release(struct dirtree *d);

/* The node of "fs/ext2" ("fs/ext2/", "./fs/ext2" too); DIR_NONE if none. */
uint32_t dirtree_find(const struct dirtree *d, const char *path);

/*
 * The node where function name[0..len) belongs; size is the size the call
 * site printed, 0 if unknown; module the one it named ("ext4" for
 * "[ext4]", "vmlinux" for built-in code), NULL if it did not say. Of
 * several definitions, those in the objects of that module (ktree.h) are
 * taken when there are any. Counts the placement in d->placed.
 */
uint32_t dirtree_place_function(struct dirtree *d, const char *name, size_t len,
				uint64_t size, const char *module, enum place_kind *kind);

/* Add a call site's bytes to node and its ancestors. */
/*
 * The node of a source file ("fs/ext4/super.c", an allocinfo site's): the
 * node of that path, else of its object ("fs/ext4/super.o"), else of its
 * deepest directory in the tree; a pseudo node "(not in the tree)" under
 * the root when the tree has none of them (a header's include/linux).
 */
uint32_t dirtree_place_path(struct dirtree *d, const char *path);

void dirtree_add_dynamic(struct dirtree *d, uint32_t node, uint64_t total_dynamic,
			 uint64_t current_dynamic, uint64_t current_req);

bool dirtree_is_within(const struct dirtree *d, uint32_t node, uint32_t ancestor);
uint32_t dirtree_common_ancestor(const struct dirtree *d, uint32_t a, uint32_t b);
/* The child of top on the way to node (node itself if top is its parent); DIR_NONE if none. */
uint32_t dirtree_child_toward(const struct dirtree *d, uint32_t node, uint32_t top);

/* "fs/ext2/inode.o"; the root is "." . Returns the length (truncated to cap). */
size_t dirtree_path(const struct dirtree *d, uint32_t node, char *out, size_t cap);

uint64_t dir_node_static(const struct dir_node *n);
uint64_t dir_node_value(const struct dir_node *n, enum size_attr a);

static inline const char *dir_node_name(const struct dirtree *d, uint32_t node)
{
	return strtab_get(&d->names, d->nodes[node].name);
}

static inline bool dir_node_is_directory(const struct dirtree *d, uint32_t node)
{
	return d->nodes[node].object == DIR_NONE && !d->nodes[node].pseudo;
}

#endif
