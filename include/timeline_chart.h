/*
 * timeline_chart.h - the timeline (timeline.h) as reports show it: its
 * keys merged into named rows (as the account's rows are named), each
 * row's series and growth fit; the growth table of --summary and
 * --outstanding; the stacked-area chart of --timeline (cairo: PNG, SVG or
 * PDF by name).
 *
 * Not here: sampling (timeline.c), the HTML page (html.c).
 */
#ifndef TA_TIMELINE_CHART_H
#define TA_TIMELINE_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "output.h"
#include "report.h"
#include "losses.h"
#include "peak.h"
#include "timeline.h"

#define TIMELINE_DEFAULT_ROWS 8

struct timeline_rows {
	const struct timeline *timeline;
	uint32_t nsamples;
	uint64_t *ts;			/* sample times, ns */
	double *total;			/* live bytes of every row, per sample */
	uint32_t nrows;			/* named rows, largest peak first */
	char **names;
	double *values;			/* nrows x nsamples, a row's at slot[row] */
	uint32_t *slot;			/* row (peak order) -> its series' place in values */
	double *peak;			/* a row's own highest live bytes, exact with a watcher */
	uint64_t *peak_ns;		/* and when, first */
	uint32_t peaks_sampled;		/* rows whose peak is the highest sample: not exact */
	uint32_t peak_sample;		/* the sample that is the state at the peak, or UINT32_MAX */
	struct growth_fit *fit;
	double span_s;
	const struct loss_windows *losses;	/* shaded on the chart when set (losses.h) */
	const char *measure;		/* what the values are: NULL, "live slab bytes" */
	const char *clock;		/* whose time: NULL, "the log's clock" */
	bool untimed;			/* snapshots without times, numbered 1 s apart: no rates */
};

/*
 * Rows of the timeline's keys as namer names them; with kept (-b), only
 * the keys it keeps, and the total is theirs. With the watcher of the
 * keys' account (peak.h), each row's peak is its exact own (the highest
 * sample without one: samples taken whole are the data), and with
 * peak_sample the state at the peak is a sample too, so that what is
 * drawn or written out reaches the peak.
 */
void timeline_rows_build(struct timeline_rows *rows, const struct timeline *t,
			 const struct row_namer *namer, const struct row_filter *kept,
			 const struct peak_watch *watch, bool peak_sample);
void timeline_rows_release(struct timeline_rows *rows);

static inline const double *timeline_row_values(const struct timeline_rows *r, uint32_t row)
{
	return r->values + (size_t)r->slot[row] * r->nsamples;
}


/*
 * The samples as JSON for the --html page: {"t0_s", "ts_s" (seconds since
 * t0), "total", "pages" (null without page events; null at the peak's
 * sample), "untimed" (snapshots without times: numbered, no span), "lost_s", "rows":
 * [{"name", "values"}] of the top rows by peak}.
 */
void timeline_rows_write_json(FILE *f, const struct timeline_rows *rows, size_t top);

/*
 * The samples as a report (--timeline FILE.csv or FILE.json, or '-'): a
 * table "series", a row per sample and row shown (time_s of the log's
 * clock, the row's key, its live bytes), "(other)" for the rest; a table
 * "pages" (time_s, pages held) when the log had page events; a table
 * "lost" (time_s of each lost-event mark) when it has any.
 */
void timeline_rows_report(struct out_doc *d, const struct timeline_rows *rows, size_t top);

/*
 * Whether --timeline PATH asks for the samples as data, and in which
 * format: FILE.csv or '-' (CSV), FILE.json; false for a chart's name.
 */
bool timeline_data_format(const char *path, enum out_format *format);

/*
 * The stacked-area chart: the top rows by peak and "other", pages held on
 * a second panel when the log had page events, lost events marked.
 */
int timeline_chart_write(const struct timeline_rows *rows, size_t top, const char *title,
			 const char *path, FILE *f, struct ta_error *err);

#endif
