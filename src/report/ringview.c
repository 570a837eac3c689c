/*
 * ringview.c - a directory tree (dirtree.h) as the rings a ringchart draws
 * (ringchart.h): every directory and object with a value, chains of single
 * directories joined into one label. No drawing here, no counting.
 */
#include <stdio.h>
#include <string.h>

#include "dirtree.h"
#include "ringchart.h"
#include "ringview.h"

static uint32_t only_child(const struct dirtree *d, uint32_t node, enum size_attr a)
{
	uint32_t c, found = DIR_NONE;

	for (c = d->nodes[node].first_child; c != DIR_NONE; c = d->nodes[c].next_sibling) {
		if (dir_node_value(&d->nodes[c], a) == 0)
			continue;
		if (found != DIR_NONE)
			return DIR_NONE;
		found = c;
	}
	return found;
}

/* node's label, with the names of the single-directory chain below it. */
static uint32_t merge_chain(const struct dirtree *d, uint32_t node, enum size_attr a,
			    char *label, size_t cap)
{
	uint32_t c;
	size_t len = strlen(label);

	while (dir_node_is_directory(d, node) && (c = only_child(d, node, a)) != DIR_NONE &&
	       dir_node_is_directory(d, c)) {
		if (len < cap)
			len += (size_t)snprintf(label + len, cap - len, "/%s", dir_node_name(d, c));
		node = c;
	}
	return node;
}

static void add_view(const struct dirtree *d, uint32_t node, uint32_t parent, enum size_attr a,
		     char *label, struct ring_tree *out)
{
	char child_label[1024];
	uint32_t c, me;

	node = merge_chain(d, node, a, label, 1024);
	me = ring_tree_add(out, parent, label, dir_node_value(&d->nodes[node], a),
			   !dir_node_is_directory(d, node));
	if (a == ATTR_CURRENT)	/* static + live: the static part drawn apart */
		out->nodes[me].part = dir_node_static(&d->nodes[node]);
	for (c = d->nodes[node].first_child; c != DIR_NONE; c = d->nodes[c].next_sibling) {
		if (dir_node_value(&d->nodes[c], a) == 0)
			continue;
		snprintf(child_label, sizeof(child_label), "%s", dir_node_name(d, c));
		add_view(d, c, me, a, child_label, out);
	}
}

/*
 * The root is labelled with the tree's name, or with the branch's path; a
 * chain of single directories below it joins its label, which moves the
 * centre down to the first branching, as trace_analyze.py's root did.
 */
void dirtree_ring_view(const struct dirtree *d, uint32_t top, enum size_attr a,
		       struct ring_tree *out)
{
	char label[1024];

	ring_tree_init(out);
	if (top == 0)
		snprintf(label, sizeof(label), "%s", dir_node_name(d, 0));
	else
		dirtree_path(d, top, label, sizeof(label));
	add_view(d, top, RING_NONE, a, label, out);
	if (a == ATTR_CURRENT) {
		out->two_parts = true;
		out->part_names[0] = "static footprint (the objects' text, data, bss)";
		out->part_names[1] = "live bytes";
	}
}
