/*
 * ringchart.h - a sunburst of a tree of sizes, drawn with cairo.
 *
 * The root is the disc in the centre (its label and size); each ring below
 * is one level of the tree, each wedge a node, its angle proportional to
 * its value, children sorted largest first clockwise from twelve o'clock.
 * A wedge gets a label (name and size) when the text fits inside it, at
 * the largest size from 13 to 8 px that fits, along the ring or along the
 * radius; wedges narrower than RING_MIN_DEGREES are merged into one grey
 * "N more" wedge per parent. Colour follows the angle, darker with depth.
 * PNG, or SVG / PDF when the file name ends so. Not here: what the values
 * mean (dirtree.h) or where they come from.
 */
#ifndef TA_RINGCHART_H
#define TA_RINGCHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

#define RING_NONE UINT32_MAX
#define RING_MIN_DEGREES 0.4
#define RING_THIN_DEGREES 1.5	/* a narrower wedge is drawn grey, its subtree not at all */

struct ring_node {
	char *label;
	uint64_t value;			/* at least the sum of the children's */
	int64_t delta;			/* signed_values: the net change its wedge stands for */
	uint32_t parent, first_child, next_sibling;
	bool leaf;			/* an object file or a pseudo node */
	uint64_t part;			/* two_parts: the first part of value (static bytes) */
};

struct ring_tree {
	struct ring_node *nodes;	/* node 0 is the root */
	uint32_t count, cap;
	/*
	 * A chart of changes: a wedge's size is the gross change below it
	 * (value), its colour says whether it grew (warm) or shrank (cool) on
	 * balance (delta), its label is "+12.3 KiB" or "-4.0 KiB"; a legend.
	 */
	bool signed_values;
	/*
	 * A chart of two parts (the static footprint and the live bytes): each
	 * wedge's first part (part) is drawn darker from its start, the rest
	 * lighter, and a legend names them.
	 */
	bool two_parts;
	const char *part_names[2];
};

void ring_tree_init(struct ring_tree *t);
void ring_tree_release(struct ring_tree *t);
uint32_t ring_tree_add(struct ring_tree *t, uint32_t parent, const char *label, uint64_t value,
		       bool leaf);

/* "1 byte", "512 bytes", "12.3 KiB", "4.0 MiB" (powers of 1024). */
void human_size(uint64_t bytes, char *out, size_t cap);

/* Draw t under a title line into f, as PNG, SVG or PDF by path's name. */
int ringchart_write(const struct ring_tree *t, const char *title, const char *path, FILE *f,
		    struct ta_error *err);

#endif
