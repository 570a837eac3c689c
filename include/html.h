/*
 * html.h - the --html page: ONE self-contained file (inline CSS and
 * JavaScript, no network) that shows the reports the text formats give,
 * from the same documents: each report's JSON (output.h) is embedded as a
 * data island and drawn by the page's script (data/report.js): summary and
 * findings, the account as a sortable, filterable table, the timeline
 * (drawn from its samples: values under the pointer, a zoom to a window,
 * rows hidden from the legend), with -k a zoomable sunburst of the
 * directory tree, with stacks a zoomable flame graph.
 *
 * Not here: making the documents (pipeline.c), the drawing (the script).
 */
#ifndef TA_HTML_H
#define TA_HTML_H

#include <stddef.h>
#include <stdio.h>

/* One data island: <script type="application/json" id="data-ID">. */
struct html_piece {
	const char *id;		/* "summary", "account", ... */
	const char *text;	/* JSON; NULL: left out */
	size_t len;
};

/*
 * The page: title (the log's name) in the heading, the pieces as data
 * islands; a timeline section when there is a "timeline" piece.
 */
void html_write_page(FILE *f, const char *title, const struct html_piece *pieces, size_t n);

#endif
