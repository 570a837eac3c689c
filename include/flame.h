/*
 * flame.h - a flame graph of folded stacks (folded.h), drawn as
 * flamegraph.pl draws one: the outermost frame at the bottom, each frame a
 * box as wide as its share of the weight, callees stacked above their
 * caller, siblings in name order, warm colours chosen from the name (so a
 * function keeps its colour from graph to graph), labels where they fit.
 *
 * PNG and PDF are drawn with cairo; SVG is written directly so that every
 * box carries a <title> (its full name, weight and share) that a browser
 * shows on hover, which cairo's SVG surface cannot emit. The format is
 * chosen by the file name, as for -r. Not here: what the weight means.
 */
#ifndef TA_FLAME_H
#define TA_FLAME_H

#include <stdio.h>

#include "error.h"
#include "folded.h"

#define FLAME_WIDTH 1200
#define FLAME_FRAME_HEIGHT 17

/*
 * Draw the graph of fo into f, as PNG, SVG or PDF by path's name, under
 * title; unit names the weight ("bytes", "allocations") in box titles.
 */
int flame_write(const struct folded *fo, const char *title, const char *unit, const char *path,
		FILE *f, struct ta_error *err);

#endif
