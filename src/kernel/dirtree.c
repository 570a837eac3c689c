/*
 * dirtree.c - directories and objects of a kernel tree with their sizes,
 * and the placing of call-site functions in it (rules in dirtree.h).
 *
 * Does not read files or draw: it is built from a struct kernel_tree and
 * hands charts a cleaned struct ring_tree.
 */
#include <stdio.h>
#include <string.h>

#include "dirtree.h"
#include "error.h"

const char *const size_attr_names[ATTR_COUNT + 1] = {
	[ATTR_STATIC] = "static",
	[ATTR_CURRENT] = "current",
	[ATTR_CURRENT_DYNAMIC] = "current_dynamic",
	[ATTR_TOTAL_DYNAMIC] = "total_dynamic",
	[ATTR_WASTE] = "waste",
};

const char *size_attr_name(enum size_attr a)
{
	return size_attr_names[a];
}

#define AMBIGUOUS_NAME "(ambiguous)"
#define UNKNOWN_NAME "(unknown)"
#define NOT_IN_TREE_NAME "(not in the tree)"

/* ---- building ---------------------------------------------------------------- */

static uint32_t add_node(struct dirtree *d, uint32_t parent, const char *name, size_t len)
{
	struct dir_node *n;
	uint32_t id = d->count;

	if (d->count == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 1024;
		d->nodes = xrealloc(d->nodes, d->cap * sizeof(*d->nodes));
	}
	n = &d->nodes[d->count++];
	memset(n, 0, sizeof(*n));
	n->name = strtab_intern(&d->names, name, len);
	n->parent = parent;
	n->first_child = n->next_sibling = DIR_NONE;
	n->object = DIR_NONE;
	if (parent != DIR_NONE) {	/* append, keeping the order of creation */
		uint32_t *link = &d->nodes[parent].first_child;

		while (*link != DIR_NONE)
			link = &d->nodes[*link].next_sibling;
		*link = id;
	}
	return id;
}

static uint32_t find_child(const struct dirtree *d, uint32_t parent, const char *name,
			   size_t len)
{
	uint32_t c;

	for (c = d->nodes[parent].first_child; c != DIR_NONE; c = d->nodes[c].next_sibling)
		if (strtab_length(&d->names, d->nodes[c].name) == len &&
		    memcmp(dir_node_name(d, c), name, len) == 0)
			return c;
	return DIR_NONE;
}

static uint32_t child_named(struct dirtree *d, uint32_t parent, const char *name, size_t len)
{
	uint32_t c = find_child(d, parent, name, len);

	return c != DIR_NONE ? c : add_node(d, parent, name, len);
}

static void add_static(struct dirtree *d, uint32_t node, const struct kobject *o)
{
	int k;

	for (; node != DIR_NONE; node = d->nodes[node].parent)
		for (k = 0; k < KSEC_COUNT; k++)
			d->nodes[node].size[k] += o->size[k];
}

static void add_object(struct dirtree *d, uint32_t index)
{
	const struct kobject *o = &d->kt->objects[index];
	const char *path = ktree_string(d->kt, o->path);
	uint32_t node = 0;

	for (;;) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		if (len)
			node = child_named(d, node, path, len);
		if (!slash)
			break;
		path = slash + 1;
	}
	d->nodes[node].object = index;
	d->object_node[index] = node;
	add_static(d, node, o);
}

void dirtree_build(struct dirtree *d, const struct kernel_tree *kt)
{
	const char *root = kt->name ? kt->name : ".";
	size_t i;

	memset(d, 0, sizeof(*d));
	strtab_init(&d->names);
	d->kt = kt;
	d->object_node = xcalloc(kt->nobjects ? kt->nobjects : 1, sizeof(*d->object_node));
	add_node(d, DIR_NONE, root, strlen(root));
	for (i = 0; i < kt->nobjects; i++)
		add_object(d, (uint32_t)i);
}

void dirtree_release(struct dirtree *d)
{
	free(d->nodes);
	free(d->object_node);
	strtab_release(&d->names);
	memset(d, 0, sizeof(*d));
}

/* ---- queries ------------------------------------------------------------------- */

uint32_t dirtree_find(const struct dirtree *d, const char *path)
{
	uint32_t node = 0;

	if (!d->count)
		return DIR_NONE;
	while (*path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		if (len && !(len == 1 && path[0] == '.')) {
			node = find_child(d, node, path, len);
			if (node == DIR_NONE)
				return DIR_NONE;
		}
		if (!slash)
			break;
		path = slash + 1;
	}
	return node;
}

bool dirtree_is_within(const struct dirtree *d, uint32_t node, uint32_t ancestor)
{
	for (; node != DIR_NONE; node = d->nodes[node].parent)
		if (node == ancestor)
			return true;
	return false;
}

static unsigned depth_of(const struct dirtree *d, uint32_t node)
{
	unsigned depth = 0;

	while ((node = d->nodes[node].parent) != DIR_NONE)
		depth++;
	return depth;
}

uint32_t dirtree_common_ancestor(const struct dirtree *d, uint32_t a, uint32_t b)
{
	unsigned da = depth_of(d, a), db = depth_of(d, b);

	for (; da > db; da--)
		a = d->nodes[a].parent;
	for (; db > da; db--)
		b = d->nodes[b].parent;
	while (a != b) {
		a = d->nodes[a].parent;
		b = d->nodes[b].parent;
	}
	return a;
}

size_t dirtree_path(const struct dirtree *d, uint32_t node, char *out, size_t cap)
{
	uint32_t chain[256];
	size_t n = 0, len = 0;

	if (cap == 0)
		return 0;
	for (; node != DIR_NONE && d->nodes[node].parent != DIR_NONE && n < 256;
	     node = d->nodes[node].parent)
		chain[n++] = node;
	out[0] = '\0';
	if (n == 0)
		return (size_t)snprintf(out, cap, ".") < cap ? 1 : 0;
	while (n-- > 0) {
		const char *name = dir_node_name(d, chain[n]);
		int w = snprintf(out + len, cap - len, "%s%s", len ? "/" : "", name);

		if (w < 0 || (size_t)w >= cap - len)
			return strlen(out);
		len += (size_t)w;
	}
	return len;
}

uint64_t dir_node_static(const struct dir_node *n)
{
	return n->size[KSEC_TEXT] + n->size[KSEC_DATA] + n->size[KSEC_RODATA] +
	       n->size[KSEC_BSS];
}

uint64_t dir_node_value(const struct dir_node *n, enum size_attr a)
{
	switch (a) {
	case ATTR_STATIC:
		return dir_node_static(n);
	case ATTR_CURRENT:
		return dir_node_static(n) + n->current_dynamic;
	case ATTR_CURRENT_DYNAMIC:
		return n->current_dynamic;
	case ATTR_TOTAL_DYNAMIC:
		return n->total_dynamic;
	case ATTR_WASTE:
	default:
		return n->current_dynamic - n->current_req;
	}
}

/* ---- placing call sites ------------------------------------------------------ */

static uint32_t pseudo_child(struct dirtree *d, uint32_t parent, const char *name)
{
	uint32_t c = find_child(d, parent, name, strlen(name));

	if (c == DIR_NONE) {
		c = add_node(d, parent, name, strlen(name));
		d->nodes[c].pseudo = true;
	}
	return c;
}

/* Is object o linked into module ("vmlinux": built in)? */
static bool object_is_in(const struct kernel_tree *kt, uint32_t o, const char *module)
{
	const char *in = ktree_object_module(kt, o);

	return in ? strcmp(in, module) == 0 : strcmp(module, "vmlinux") == 0;
}

/* Of a function's count definitions, how many are in module (all of them without one). */
static size_t definitions_in(const struct kernel_tree *kt, const struct kfunc *defs, size_t count,
			     const char *module)
{
	size_t i, n = 0;

	if (!module || !kt->object_module)
		return count;
	for (i = 0; i < count; i++)
		n += object_is_in(kt, defs[i].object, module);
	return n;
}

uint32_t dirtree_place_function(struct dirtree *d, const char *name, size_t len,
				uint64_t size, const char *module, enum place_kind *kind)
{
	size_t count, i, sized = 0, in_module;
	const struct kfunc *defs = ktree_find_function(d->kt, name, len, &count);
	uint32_t node = DIR_NONE, by_size = DIR_NONE;

	in_module = count > 1 ? definitions_in(d->kt, defs, count, module) : count;
	if (in_module == 0 || in_module == count)
		module = NULL;	/* the module's objects tell nothing: all of them count */
	if (count == 1 || in_module == 1) {
		*kind = count == 1 ? PLACE_UNIQUE : PLACE_BY_MODULE;
		for (i = 0; module && !object_is_in(d->kt, defs[i].object, module); i++)
			;
		node = d->object_node[defs[i].object];
	} else if (count > 1) {
		for (i = 0; i < count; i++) {
			uint32_t o = d->object_node[defs[i].object];

			if (module && !object_is_in(d->kt, defs[i].object, module))
				continue;

			node = node == DIR_NONE ? o : dirtree_common_ancestor(d, node, o);
			if (size && defs[i].size == size) {
				sized++;
				by_size = o;
			}
		}
		if (sized == 1) {
			*kind = PLACE_BY_SIZE;
			node = by_size;
		} else {
			*kind = PLACE_AMBIGUOUS;
			if (dir_node_is_directory(d, node))
				node = pseudo_child(d, node, AMBIGUOUS_NAME);
			else	/* several definitions in one object */
				*kind = PLACE_UNIQUE;
		}
	} else {
		*kind = PLACE_UNKNOWN;
		node = pseudo_child(d, 0, UNKNOWN_NAME);
	}
	d->placed[*kind]++;
	return node;
}

uint32_t dirtree_place_path(struct dirtree *d, const char *path)
{
	char p[4096];
	size_t n = strlen(path);
	uint32_t node = dirtree_find(d, path);
	char *slash;

	if (node != DIR_NONE || n + 1 >= sizeof(p))
		return node != DIR_NONE ? node : pseudo_child(d, 0, NOT_IN_TREE_NAME);
	memcpy(p, path, n + 1);
	if (n > 2 && p[n - 2] == '.' && (p[n - 1] == 'c' || p[n - 1] == 'S')) {
		p[n - 1] = 'o';
		if ((node = dirtree_find(d, p)) != DIR_NONE)
			return node;
	}
	while ((slash = strrchr(p, '/')) != NULL) {
		*slash = '\0';
		if ((node = dirtree_find(d, p)) != DIR_NONE && node != 0)
			return node;
	}
	return pseudo_child(d, 0, NOT_IN_TREE_NAME);
}

void dirtree_add_dynamic(struct dirtree *d, uint32_t node, uint64_t total_dynamic,
			 uint64_t current_dynamic, uint64_t current_req)
{
	for (; node != DIR_NONE; node = d->nodes[node].parent) {
		d->nodes[node].total_dynamic += total_dynamic;
		d->nodes[node].current_dynamic += current_dynamic;
		d->nodes[node].current_req += current_req;
	}
}

uint32_t dirtree_child_toward(const struct dirtree *d, uint32_t node, uint32_t top)
{
	while (node != DIR_NONE && d->nodes[node].parent != top)
		node = d->nodes[node].parent;
	return node;
}
