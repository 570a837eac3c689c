/*
 * ringview.h - the rings of a ringchart made from the kernel's directory
 * tree.
 */
#ifndef TA_RINGVIEW_H
#define TA_RINGVIEW_H

#include <stdint.h>

#include "dirtree.h"
#include "ringchart.h"

/*
 * The subtree under top as a chart wants it, cleaned as trace_analyze.py
 * cleaned its tree: nodes of zero value dropped, a directory whose only
 * child is a directory merged with it ("arch/x86"), and the root moved
 * down to the first node with more than one child.
 */
void dirtree_ring_view(const struct dirtree *d, uint32_t top, enum size_attr a,
		       struct ring_tree *out);

#endif
