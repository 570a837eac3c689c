/*
 * chartfile.h - writing a cairo drawing to a file in the format its name
 * says: .png, .svg or .pdf. One place for the three surfaces, the stream
 * that turns a short write into an error, and the check of a chart's name
 * that the command line makes before anything is read.
 * What is drawn is the caller's (ringchart.c, flame.c).
 */
#ifndef TA_CHARTFILE_H
#define TA_CHARTFILE_H

#include <cairo.h>
#include <stdio.h>

#include "error.h"

enum chart_format { CHART_UNKNOWN, CHART_PNG, CHART_SVG, CHART_PDF };

/* The charts' typeface (fonts-dejavu-core). */
#define CHART_FONT "DejaVu Sans"

/* The format a path's name ends with (any case); /dev/null takes PNG. */
enum chart_format chart_format_of_path(const char *path);

/*
 * Draw width x height into f as fmt (CHART_UNKNOWN draws PNG): draw(cr,
 * ctx) paints, then the surface is finished and written. Errors name path.
 */
int chart_render(enum chart_format fmt, double width, double height,
		 void (*draw)(cairo_t *cr, void *ctx), void *ctx, const char *path, FILE *f,
		 struct ta_error *err);

/*
 * A run that will draw: load cairo and find CHART_FONT (fontconfig reads
 * its configuration then) on a thread of their own, beside the run's
 * reading, so that the first chart_render finds both done; it waits for
 * them. chart_warm_up_end() waits too: call it before the process ends,
 * drawn or not. A failure is chart_render's to report, as without this.
 */
void chart_warm_up(void);
void chart_warm_up_end(void);

#endif
