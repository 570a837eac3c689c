/*
 * rowdiff.h - two sets of named figures compared row by row, the way
 * bloat-o-meter compares two kernels (DESIGN.md section 10): one row per
 * name with old, new, delta and delta%, sorted by |delta| (ties by name),
 * names present on one side only marked added or removed, unchanged names
 * left out; above the table bloat-o-meter's line
 *
 *   add/remove: A/R grow/shrink: G/S up/down: U/-D (TOTAL)
 *
 * and under it "Total: Before=X, After=Y, chg +Z.ZZ%". In text the line
 * is the table's title; CSV and JSON carry the same numbers as a list.
 * Figures are doubles so that scaled ones (--per) fit; whole ones print
 * as integers. Not here: where the figures come from.
 */
#ifndef TA_ROWDIFF_H
#define TA_ROWDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"

struct diff_entry {
	const char *name;
	double value;
};

/* One side: its rows (any order, each name once) and its total. */
struct diff_side {
	const struct diff_entry *rows;
	size_t count;
	double total;
};

struct diff_row {
	const char *name;
	double old_value, new_value, delta;
	bool in_old, in_new;
};

struct diff_result {
	struct diff_row *rows;		/* changed names only, sorted */
	size_t count;
	size_t added, removed, grown, shrunk;
	double up, down;		/* sums of the growths and (positive) shrinks */
	double old_total, new_total;
};

void diff_compute(struct diff_result *r, const struct diff_side *old_side,
		  const struct diff_side *new_side);
void diff_result_release(struct diff_result *r);

/* The change of the totals in percent of the old one; NaN when it was 0. */
double diff_total_pct(const struct diff_result *r);

/* What the figures are, for the table's heading and the JSON keys. */
struct diff_labels {
	const char *block;		/* JSON/CSV key: "rows", "symbols", "objects", ... */
	const char *key;		/* the first column: "function", "cache", "symbol", ... */
	const char *group_by;		/* CSV/JSON's group_by, as --group-by spells it; NULL: key */
	bool whole;			/* print the figures as integers */
	bool named_totals;		/* a document of several diffs: its summary and totals
					   are "<block>_summary", "<block>_totals" */
};

/* Rows in bloat-o-meter's order: by delta, then name, both descending. */
void diff_sort_as_bloat_o_meter(struct diff_result *r);

/* Add r to d: its summary, its table, its totals. */
void diff_add_to_doc(struct out_doc *d, const struct diff_result *r,
		     const struct diff_labels *l, enum out_format format);

#endif
