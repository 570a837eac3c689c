/*
 * timeline_chart.c - the timeline's rows and the stacked-area chart of
 * live bytes over time (timeline_chart.h); their growth is judged in
 * suspects.c.
 *
 * Rows are the timeline's keys merged by the name the account's rows have
 * (a function's call sites, an origin's keys); a row's peak ranks it. The
 * chart stacks the largest rows and "other" (every other row), so the top
 * edge is the total live bytes; sizes in KiB/MiB (1024-based).
 *
 * Not here: sampling, which account is sampled, HTML.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chartfile.h"
#include "ringchart.h"
#include "strtab.h"
#include "numfmt.h"
#include "timeline_chart.h"

#define WIDTH 1200.0
#define PANEL_HEIGHT 440.0
#define PAGES_HEIGHT 180.0
#define LEFT 90.0
#define RIGHT 330.0
#define TOP 70.0
#define GAP 70.0
#define BOTTOM 55.0

/* ---- rows ---- */

struct peak_order {
	double peak;
	uint32_t row;
	const char *name;
};

static int by_peak(const void *pa, const void *pb)
{
	const struct peak_order *a = pa, *b = pb;

	if (a->peak != b->peak)
		return a->peak > b->peak ? -1 : 1;
	return strcmp(a->name, b->name);
}

#define NOT_KEPT UINT32_MAX

/*
 * n doubles of 0, written rather than calloc'd: the sums read each value
 * before writing it, and a fresh calloc'd page read first is the shared
 * zero page, so every page faulted twice, the second time with a TLB
 * flush on the other CPU while the chart's thread runs (a third of the
 * rows' building from a DB).
 */
static double *zeroed_by_writing(size_t n)
{
	double *v = xmalloc(n * sizeof(*v));

	memset(v, 0, n * sizeof(*v));
	return v;
}

/*
 * The state at the peak, from the watcher: every key's bytes then, as a
 * sample (its live is the caller's to free); false without a peak.
 */
static bool sample_at_peak(const struct peak_watch *w, uint32_t nkeys,
			   struct timeline_sample *s)
{
	uint32_t k;

	if (!w || !w->peak_ns)
		return false;
	s->ts_ns = w->peak_ns;
	s->nkeys = nkeys;
	s->live = xcalloc(nkeys ? nkeys : 1, sizeof(*s->live));
	s->total = 0;
	for (k = 0; k < nkeys; k++) {
		s->live[k] = peak_watch_row_at_peak(w, k);
		s->total += s->live[k];
	}
	s->pages = 0;
	return true;
}

/*
 * The samples in time order, the peak's among them. A sample closing a
 * slice at time T is the state before the events of T, so the peak at T
 * comes after it; the last sample is the state after the log's last
 * event, so a peak of its very time comes before it.
 */
static const struct timeline_sample **samples_with_peak(const struct timeline *t,
							 const struct timeline_sample *peak,
							 uint32_t *n, uint32_t *at)
{
	const struct timeline_sample **s = xcalloc(t->nsamples + 2, sizeof(*s));
	uint32_t i, m = 0;
	bool placed = !peak || !t->nsamples;

	*at = UINT32_MAX;
	for (i = 0; i < t->nsamples; i++) {
		const struct timeline_sample *x = &t->samples[i];
		bool last = i + 1 == t->nsamples;

		if (!placed && (x->ts_ns > peak->ts_ns || (x->ts_ns == peak->ts_ns && last))) {
			placed = true;
			*at = m;
			s[m++] = peak;
		}
		s[m++] = x;
		if (!placed && x->ts_ns == peak->ts_ns) {
			placed = true;
			*at = m;
			s[m++] = peak;
		}
	}
	*n = m;
	return s;
}

/* Each row's own peak: the watcher's, exact, or the highest sample when it has none. */
static void take_row_peaks(struct timeline_rows *rows, const struct peak_watch *w,
			   const uint32_t *row_of, uint32_t nkeys, uint32_t nnames,
			   const double *values, const uint64_t *ts, uint32_t n, double *peak,
			   uint64_t *peak_ns)
{
	struct row_peak *exact = NULL;
	uint32_t r, i;

	if (w) {
		exact = xcalloc(nnames + 1, sizeof(*exact));
		peak_watch_row_peaks(w, row_of, nkeys, nnames, exact);
	}
	for (r = 0; r < nnames; r++) {
		if (exact && exact[r].exact) {	/* one that held nothing: at the first sample */
			peak[r] = (double)exact[r].bytes;
			peak_ns[r] = exact[r].bytes || !n ? exact[r].ns : ts[0];
			continue;
		}
		if (exact)
			rows->peaks_sampled++;
		peak_ns[r] = n ? ts[0] : 0;
		for (i = 0; i < n; i++)
			if (values[(size_t)r * n + i] > peak[r]) {
				peak[r] = values[(size_t)r * n + i];
				peak_ns[r] = ts[i];
			}
	}
	free(exact);
}

void timeline_rows_build(struct timeline_rows *rows, const struct timeline *t,
			 const struct row_namer *namer, const struct row_filter *kept,
			 const struct peak_watch *watch, bool peak_sample)
{
	bool cut = kept && kept->keep;
	uint32_t nkeys = t->nsamples ? t->samples[t->nsamples - 1].nkeys : 0;
	uint32_t *row_of = xcalloc(nkeys ? nkeys : 1, sizeof(*row_of));
	const struct timeline_sample **samples;
	struct timeline_sample at_peak = { 0 };
	struct peak_order *order;
	struct strtab names;
	double *values, *peak;
	uint64_t *peak_ns;
	uint32_t k, i, r, n;
	char name[1024];

	memset(rows, 0, sizeof(*rows));
	samples = samples_with_peak(t, peak_sample && sample_at_peak(watch, nkeys, &at_peak)
				       ? &at_peak : NULL, &n, &rows->peak_sample);
	rows->timeline = t;
	rows->nsamples = n;
	rows->ts = xcalloc(n ? n : 1, sizeof(*rows->ts));
	rows->total = xcalloc(n ? n : 1, sizeof(*rows->total));
	for (i = 0; i < n; i++) {
		rows->ts[i] = samples[i]->ts_ns;
		rows->total[i] = cut ? 0 : (double)samples[i]->total;
	}
	rows->span_s = n > 1 ? (double)(rows->ts[n - 1] - rows->ts[0]) / 1e9 : 0;
	strtab_init(&names);
	for (k = 0; k < nkeys; k++) {
		size_t len;

		row_of[k] = NOT_KEPT;
		if (!row_kept(kept, k))
			continue;
		len = namer->name(namer->ctx, k, name, sizeof(name));
		row_of[k] = strtab_intern(&names, name, len);
	}
	values = zeroed_by_writing((size_t)names.count * (n ? n : 1) + 1);
	for (i = 0; i < n; i++) {
		const struct timeline_sample *s = samples[i];

		for (k = 0; k < s->nkeys; k++) {
			if (row_of[k] == NOT_KEPT)
				continue;
			values[(size_t)row_of[k] * n + i] += (double)s->live[k];
			if (cut)
				rows->total[i] += (double)s->live[k];
		}
	}
	peak = xcalloc(names.count + 1, sizeof(*peak));
	peak_ns = xcalloc(names.count + 1, sizeof(*peak_ns));
	take_row_peaks(rows, watch, row_of, nkeys, names.count, values, rows->ts, n, peak,
		       peak_ns);
	order = xcalloc(names.count + 1, sizeof(*order));
	for (r = 0; r < names.count; r++) {
		order[r].peak = peak[r];
		order[r].row = r;
		order[r].name = strtab_get(&names, r);
	}
	qsort(order, names.count, sizeof(*order), by_peak);
	rows->nrows = names.count;
	rows->names = xcalloc(names.count + 1, sizeof(*rows->names));
	rows->values = values;	/* in the names' order: slot says where each row's series is */
	rows->slot = xcalloc(names.count + 1, sizeof(*rows->slot));
	rows->peak = xcalloc(names.count + 1, sizeof(*rows->peak));
	rows->peak_ns = xcalloc(names.count + 1, sizeof(*rows->peak_ns));
	rows->fit = xcalloc(names.count + 1, sizeof(*rows->fit));
	for (r = 0; r < names.count; r++) {
		uint32_t from = order[r].row;

		rows->names[r] = xstrdup(order[r].name);
		rows->peak[r] = peak[from];
		rows->peak_ns[r] = peak_ns[from];
		rows->slot[r] = from;
		growth_fit_series(rows->ts, timeline_row_values(rows, r), n, &rows->fit[r]);
	}
	free(order);
	free(peak);
	free(peak_ns);
	free(row_of);
	free(samples);
	free(at_peak.live);
	strtab_release(&names);
}

void timeline_rows_release(struct timeline_rows *rows)
{
	uint32_t r;

	for (r = 0; r < rows->nrows; r++)
		free(rows->names[r]);
	free(rows->names);
	free(rows->values);
	free(rows->slot);
	free(rows->peak);
	free(rows->peak_ns);
	free(rows->fit);
	free(rows->ts);
	free(rows->total);
	memset(rows, 0, sizeof(*rows));
}

/* v as "%.<prec>f" (numfmt.h), after a comma unless it is the first */
static void write_fixed(FILE *f, bool first, double v, int prec)
{
	char num[NUMFMT_MAX];
	size_t n = fmt_fixed(num, sizeof(num), v, prec);

	if (!first)
		fputc(',', f);
	fwrite(num, 1, n, f);
}

static void write_number_array(FILE *f, const double *v, uint32_t n)
{
	uint32_t i;

	fputc('[', f);
	for (i = 0; i < n; i++)
		write_fixed(f, i == 0, v[i], 0);
	fputc(']', f);
}

void timeline_rows_write_json(FILE *f, const struct timeline_rows *rows, size_t top)
{
	const struct timeline *t = rows->timeline;
	size_t shown = top < rows->nrows ? top : rows->nrows, r;
	uint32_t i;

	fprintf(f, "{\"t0_s\":%.6f,\"ts_s\":[", (double)t->t0 / 1e9);
	for (i = 0; i < rows->nsamples; i++)
		write_fixed(f, i == 0, (double)(rows->ts[i] - t->t0) / 1e9, 6);
	fputs("],\n\"total\":", f);
	write_number_array(f, rows->total, rows->nsamples);
	fputs(",\n\"pages\":", f);
	if (t->page_events) {	/* by the rows' samples: the peak's pages are not known */
		fputc('[', f);
		for (i = 0; i < rows->nsamples; i++) {
			uint32_t from = i > rows->peak_sample ? i - 1 : i;

			if (i == rows->peak_sample)
				fprintf(f, "%snull", i ? "," : "");
			else
				fprintf(f, "%s%lld", i ? "," : "", (long long)t->samples[from].pages);
		}
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\n\"untimed\":%s", rows->untimed ? "true" : "false");
	fputs(",\n\"lost_s\":[", f);
	for (i = 0; i < t->nlost; i++)
		write_fixed(f, i == 0, (double)(t->lost_at[i] - t->t0) / 1e9, 6);
	fputs("],\n\"rows\":[", f);
	for (r = 0; r < shown; r++) {
		fputs(r ? ",\n{\"name\":" : "\n{\"name\":", f);
		out_json_string(f, rows->names[r]);
		fputs(",\"values\":", f);
		write_number_array(f, timeline_row_values(rows, (uint32_t)r), rows->nsamples);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static const struct out_column series_columns[] = {
	{ "time_s", NULL, OUT_F64, false },
	{ "row", NULL, OUT_STR, true },
	{ "live_bytes", NULL, OUT_U64, false },
};

static const struct out_column pages_columns[] = {
	{ "time_s", NULL, OUT_F64, false },
	{ "pages_held", NULL, OUT_I64, false },
};

static const struct out_column lost_columns[] = {
	{ "time_s", NULL, OUT_F64, false },
};

/* A shown row's own peak, as a line of its own between the samples. */
struct peak_point {
	uint64_t ts;
	uint32_t row;
};

static int by_point_time(const void *pa, const void *pb)
{
	const struct peak_point *a = pa, *b = pb;

	if (a->ts != b->ts)
		return (a->ts > b->ts) - (a->ts < b->ts);
	return (a->row > b->row) - (a->row < b->row);
}

/* Does a sample of time ts show row r at v already (ts[] rises)? */
static bool a_sample_shows(const struct timeline_rows *rows, uint32_t r, uint64_t ts, double v)
{
	const double *values = timeline_row_values(rows, r);
	uint32_t lo = 0, hi = rows->nsamples;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (rows->ts[mid] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < rows->nsamples && rows->ts[lo] == ts; lo++)
		if (values[lo] == v)
			return true;
	return false;
}

/*
 * The shown rows' exact peaks that no sample shows, in time order: how
 * many. (A sample at a peak's very time is the state before or after its
 * events: the peak is a line of its own after it.)
 */
static size_t peak_points(const struct timeline_rows *rows, size_t shown, struct peak_point *p)
{
	size_t n = 0, r;

	for (r = 0; rows->peak_ns && r < shown; r++)
		if (rows->peak[r] > 0 &&
		    !a_sample_shows(rows, (uint32_t)r, rows->peak_ns[r], rows->peak[r])) {
			p[n].ts = rows->peak_ns[r];
			p[n].row = (uint32_t)r;
			n++;
		}
	qsort(p, n, sizeof(*p), by_point_time);
	return n;
}

static void write_series_line(struct out_doc *d, struct out_block *b, uint64_t ts,
			      const char *name, double v)
{
	out_row_f64(d, b, (double)ts / 1e9);
	out_row_str(d, b, name);
	out_row_u64(d, b, v > 0 ? (uint64_t)llround(v) : 0);
}

void timeline_rows_report(struct out_doc *d, const struct timeline_rows *rows, size_t top)
{
	const struct timeline *t = rows->timeline;
	size_t shown = top < rows->nrows ? top : rows->nrows, r, npoints, next = 0;
	struct peak_point *points = xcalloc(shown + 1, sizeof(*points));
	struct out_block *b;
	uint32_t i;

	b = out_table(d, "series", "live bytes over time, a row per sample and row; a shown "
		      "row's own peak between samples, a line of its own",
		      series_columns, sizeof(series_columns) / sizeof(series_columns[0]));
	b->keyed = true;
	b->key_column = 1;	/* CSV: group_by,key,time_s,live_bytes */
	npoints = peak_points(rows, shown, points);
	for (i = 0; i < rows->nsamples; i++) {
		double rest = rows->total[i];

		for (; next < npoints && points[next].ts < rows->ts[i]; next++)
			write_series_line(d, b, points[next].ts, rows->names[points[next].row],
					  rows->peak[points[next].row]);
		for (r = 0; r <= shown; r++) {
			double v = r < shown ? timeline_row_values(rows, (uint32_t)r)[i] : rest;

			if (r < shown)
				rest -= v;
			write_series_line(d, b, rows->ts[i], r < shown ? rows->names[r] : "(other)", v);
		}
	}
	for (; next < npoints; next++)	/* at the last sample's time */
		write_series_line(d, b, points[next].ts, rows->names[points[next].row],
				  rows->peak[points[next].row]);
	free(points);
	if (t->page_events) {
		b = out_table(d, "pages", "pages held over time", pages_columns,
			      sizeof(pages_columns) / sizeof(pages_columns[0]));
		/* a series in time, not rows of a grouping: no group_by,key columns */
		for (i = 0; i < t->nsamples; i++) {
			out_row_f64(d, b, (double)t->samples[i].ts_ns / 1e9);
			out_row_i64(d, b, (int64_t)t->samples[i].pages);
		}
	}
	if (t->nlost) {
		b = out_table(d, "lost", "where the log says events were lost", lost_columns,
			      sizeof(lost_columns) / sizeof(lost_columns[0]));
		for (i = 0; i < t->nlost; i++)
			out_row_f64(d, b, (double)t->lost_at[i] / 1e9);
	}
}

bool timeline_data_format(const char *path, enum out_format *format)
{
	size_t n = strlen(path);

	if (strcmp(path, "-") == 0 || (n > 4 && strcmp(path + n - 4, ".csv") == 0))
		*format = FORMAT_CSV;
	else if (n > 5 && strcmp(path + n - 5, ".json") == 0)
		*format = FORMAT_JSON;
	else
		return false;
	return true;
}

/* ---- the chart ---- */

/* The rows after the first shown that allocated in the log (a peak above 0). */
static size_t allocating_rows_after(const struct timeline_rows *rows, size_t shown)
{
	size_t n = 0, r;

	for (r = shown; r < rows->nrows; r++)
		if (rows->peak[r] > 0)
			n++;
	return n;
}

/*
 * Tableau 20, its two greys left out (grey is "other"): the dark ten,
 * then their light pairs; rows beyond those are hatched.
 */
static const double palette[][3] = {
	{ 0.122, 0.467, 0.706 }, { 1.000, 0.498, 0.055 }, { 0.173, 0.627, 0.173 },
	{ 0.839, 0.153, 0.157 }, { 0.580, 0.404, 0.741 }, { 0.549, 0.337, 0.294 },
	{ 0.890, 0.467, 0.761 }, { 0.737, 0.741, 0.133 }, { 0.090, 0.745, 0.812 },
	{ 0.682, 0.780, 0.910 }, { 1.000, 0.733, 0.471 }, { 0.596, 0.875, 0.541 },
	{ 1.000, 0.596, 0.588 }, { 0.773, 0.690, 0.835 }, { 0.769, 0.612, 0.580 },
	{ 0.969, 0.714, 0.824 }, { 0.859, 0.859, 0.553 }, { 0.620, 0.855, 0.898 },
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

struct chart {
	cairo_t *cr;
	const struct timeline_rows *rows;
	size_t shown;		/* rows drawn apart; the rest is "other" */
	const char *title;
	bool pages;
	double x0, x1;		/* plot area, x */
	double span;		/* seconds on the x axis */
	double t0_s;		/* the first time on it, in s of the clock */
	double height;		/* of the image */
};

/* A step of 1, 2 or 5 times a power of ten giving about n ticks over range. */
static double nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static void size_unit(double max, double *div, const char **unit)
{
	if (max >= 4.0 * 1024 * 1024) {
		*div = 1024.0 * 1024;
		*unit = "MiB";
	} else if (max >= 4.0 * 1024) {
		*div = 1024.0;
		*unit = "KiB";
	} else {
		*div = 1;
		*unit = "bytes";
	}
}

static double x_of(const struct chart *c, uint64_t ts)
{
	const struct timeline_rows *r = c->rows;
	double s = (double)(ts - r->timeline->t0) / 1e9;

	return c->x0 + (c->span > 0 ? s / c->span : 0) * (c->x1 - c->x0);
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double align)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.x_advance * align, y);
	cairo_show_text(cr, s);
}

static void draw_time_axis(struct chart *c, double y0, double y1)
{
	cairo_t *cr = c->cr;
	double step, v;
	char label[64];

	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, c->x0, y1 + 0.5);
	cairo_line_to(cr, c->x1, y1 + 0.5);
	cairo_stroke(cr);
	if (c->span <= 0)
		return;
	step = nice_step(c->span, 8);
	if (c->rows->untimed && step < 1)	/* numbered snapshots: whole numbers */
		step = 1;
	cairo_set_font_size(cr, 11);
	for (v = 0; v <= c->span * 1.0001; v += step) {
		double x = c->x0 + v / c->span * (c->x1 - c->x0);

		cairo_set_source_rgba(cr, 0, 0, 0, 0.08);
		cairo_move_to(cr, floor(x) + 0.5, y0);
		cairo_line_to(cr, floor(x) + 0.5, y1);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		snprintf(label, sizeof(label), step < 0.01 ? "%.3f" : step < 0.1 ? "%.2f" :
			 step < 1 ? "%.1f" : "%.0f", c->rows->untimed ? v + c->t0_s : v);
		text_at(cr, x, y1 + 16, label, 0.5);
	}
}

static void draw_value_axis(struct chart *c, double y0, double y1, double lo, double hi,
			    double div, const char *unit, const char *what)
{
	cairo_t *cr = c->cr;
	double step = nice_step((hi - lo) / div, 5) * div, v;
	char label[64];

	cairo_set_font_size(cr, 11);
	for (v = ceil(lo / step) * step; v <= hi * 1.0001; v += step) {
		double y = y1 - (v - lo) / (hi - lo) * (y1 - y0);

		cairo_set_source_rgba(cr, 0, 0, 0, 0.08);
		cairo_move_to(cr, c->x0, floor(y) + 0.5);
		cairo_line_to(cr, c->x1, floor(y) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		snprintf(label, sizeof(label), "%g", v / div);
		text_at(cr, c->x0 - 6, y + 4, label, 1.0);
	}
	cairo_save(cr);
	cairo_translate(cr, 22, (y0 + y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	snprintf(label, sizeof(label), unit ? "%s (%s)" : "%s", what, unit);
	cairo_set_font_size(cr, 12);
	text_at(cr, 0, 0, label, 0.5);
	cairo_restore(cr);
}

/* The value stacked under row r (r == shown: "other") in sample i, and its top. */
static void stacked(const struct chart *c, size_t r, uint32_t i, double *below, double *top)
{
	const struct timeline_rows *rows = c->rows;
	double sum = 0;
	size_t k;

	for (k = 0; k < r; k++)
		sum += timeline_row_values(rows, (uint32_t)k)[i];
	*below = sum;
	if (r < c->shown)
		*top = sum + timeline_row_values(rows, (uint32_t)r)[i];
	else
		*top = fmax(rows->total[i], sum);
}

static void set_color(cairo_t *cr, size_t r, size_t shown, double alpha)
{
	if (r >= shown)
		cairo_set_source_rgba(cr, 0.62, 0.62, 0.62, alpha);
	else
		cairo_set_source_rgba(cr, palette[r % NCOLORS][0], palette[r % NCOLORS][1],
				      palette[r % NCOLORS][2], alpha);
}

/*
 * Fill the current path in row r's colour; rows past the palette get
 * hatching over it (one direction per round of the palette), so that no
 * two series look alike.
 */
static void fill_row(cairo_t *cr, size_t r, size_t shown, double alpha)
{
	double x0, y0, x1, y1, x, slope;
	size_t round = r / NCOLORS;

	set_color(cr, r, shown, alpha);
	if (r >= shown || round == 0) {
		cairo_fill(cr);
		return;
	}
	cairo_fill_preserve(cr);
	cairo_save(cr);
	cairo_clip_preserve(cr);
	cairo_fill_extents(cr, &x0, &y0, &x1, &y1);
	cairo_new_path(cr);
	slope = round % 2 ? 1.0 : -1.0;
	for (x = x0 - (y1 - y0); x < x1 + (y1 - y0); x += 6) {
		cairo_move_to(cr, x, slope > 0 ? y1 : y0);
		cairo_line_to(cr, x + (y1 - y0), slope > 0 ? y0 : y1);
	}
	cairo_set_source_rgba(cr, 1, 1, 1, 0.7);
	cairo_set_line_width(cr, round > 1 ? 2.0 : 1.2);
	cairo_stroke(cr);
	cairo_restore(cr);
	cairo_new_path(cr);
}

static void draw_areas(struct chart *c, double y0, double y1, double hi)
{
	const struct timeline_rows *rows = c->rows;
	cairo_t *cr = c->cr;
	size_t r;
	uint32_t i;

	for (r = 0; r <= c->shown; r++) {
		double below, top;

		cairo_new_path(cr);
		for (i = 0; i < rows->nsamples; i++) {
			stacked(c, r, i, &below, &top);
			cairo_line_to(cr, x_of(c, rows->ts[i]), y1 - top / hi * (y1 - y0));
		}
		for (i = rows->nsamples; i-- > 0;) {
			stacked(c, r, i, &below, &top);
			cairo_line_to(cr, x_of(c, rows->ts[i]), y1 - below / hi * (y1 - y0));
		}
		cairo_close_path(cr);
		fill_row(cr, r, c->shown, 0.85);
	}
	/* the total's edge */
	cairo_new_path(cr);
	for (i = 0; i < rows->nsamples; i++)
		cairo_line_to(cr, x_of(c, rows->ts[i]), y1 - rows->total[i] / hi * (y1 - y0));
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	cairo_set_line_width(cr, 1.2);
	cairo_stroke(cr);
}

/* Where the log says events were lost: one dashed line per place (marks closer than 6 px merged). */
static void draw_lost_marks(struct chart *c, double y0, double y1)
{
	const struct timeline *t = c->rows->timeline;
	cairo_t *cr = c->cr;
	double dash[] = { 4, 3 };
	uint32_t i = 0, places = 0;
	char label[48];

	cairo_save(cr);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_set_line_width(cr, 1.2);
	cairo_set_font_size(cr, 10);
	while (i < t->nlost) {
		double x = x_of(c, t->lost_at[i]);
		uint32_t n = 0;

		while (i < t->nlost && x_of(c, t->lost_at[i]) - x < 6) {
			i++;
			n++;
		}
		cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
		cairo_move_to(cr, floor(x) + 0.5, y0);
		cairo_line_to(cr, floor(x) + 0.5, y1);
		cairo_stroke(cr);
		if (places++ < 20) {
			if (n > 1)
				snprintf(label, sizeof(label), "lost (%u marks)", n);
			else
				snprintf(label, sizeof(label), "lost");
			text_at(cr, x + 3, y0 + 10 + (double)(places % 3) * 11, label, 0);
		}
	}
	cairo_restore(cr);
}

/* The windows in which events were lost (losses.h): shaded, objects before them uncertain. */
static void shade_loss_windows(struct chart *c, double y0, double y1)
{
	const struct loss_windows *l = c->rows->losses;
	uint32_t i;

	if (!l)
		return;
	cairo_save(c->cr);
	cairo_set_source_rgba(c->cr, 0.85, 0.1, 0.1, 0.12);
	for (i = 0; i < l->n; i++) {
		double a = x_of(c, l->w[i].start_ns), b = x_of(c, l->w[i].end_ns);

		if (b - a < 2)
			b = a + 2;
		cairo_rectangle(c->cr, a, y0, b - a, y1 - y0);
		cairo_fill(c->cr);
	}
	cairo_restore(c->cr);
}

/* The highest sample of live bytes: a dotted line and its figure. */
static void draw_peak_mark(struct chart *c, double y0, double y1, double hi)
{
	const struct timeline_rows *rows = c->rows;
	cairo_t *cr = c->cr;
	double dash[] = { 1, 2 }, x, y, div;
	const char *unit;
	uint32_t i, at = 0;
	char label[64];

	for (i = 1; i < rows->nsamples; i++)
		if (rows->total[i] > rows->total[at])
			at = i;
	if (!rows->nsamples || rows->total[at] <= 0)
		return;
	x = floor(x_of(c, rows->ts[at])) + 0.5;
	y = y1 - rows->total[at] / hi * (y1 - y0);
	size_unit(rows->total[at], &div, &unit);
	snprintf(label, sizeof(label), "peak %.1f %s", rows->total[at] / div, unit);
	cairo_save(cr);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_set_line_width(cr, 1);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_move_to(cr, x, y - 14);
	cairo_line_to(cr, x, y1);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 11);
	text_at(cr, x, y - 17, label, x > (c->x0 + c->x1) / 2 ? 1 : 0);
	cairo_restore(cr);
}

/* The "other" entry's last bytes, and how many rows it holds that allocated. */
static double other_at_end(const struct chart *c)
{
	const struct timeline_rows *rows = c->rows;
	double sum = 0;
	size_t k;

	for (k = 0; k < c->shown; k++)
		sum += timeline_row_values(rows, (uint32_t)k)[rows->nsamples - 1];
	return rows->total[rows->nsamples - 1] - sum;
}

/*
 * One entry per shown row, then "other": two lines each (32 px) when they
 * fit between y and bottom, else one line each (16 px); what does not fit
 * even so ends in a "+K more" line, so the legend stays inside the image.
 */
static void draw_legend(struct chart *c, double y, double bottom)
{
	const struct timeline_rows *rows = c->rows;
	size_t entries = c->shown + (c->shown < rows->nrows), r, fit;
	bool compact = (double)entries * 32 > bottom - y;
	double step = compact ? 16 : 32, x = c->x1 + 20;
	cairo_t *cr = c->cr;
	char line[160], peak[32], end[32];

	fit = (size_t)((bottom - y) / step);
	cairo_set_font_size(cr, compact ? 10 : 11);
	for (r = 0; r < entries; r++) {
		bool other = r >= c->shown;
		const char *name = other ? "other" : rows->names[r];
		double last;

		if (entries > fit && r + 1 == fit) {
			cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
			snprintf(line, sizeof(line), "+%zu more (--stats lists every row)",
				 entries - r);
			text_at(cr, x, y, line, 0);
			break;
		}
		if (other) {
			last = other_at_end(c);
			snprintf(peak, sizeof(peak), "%zu row%s", allocating_rows_after(rows, c->shown),
				 plural(allocating_rows_after(rows, c->shown)));
		} else {
			last = timeline_row_values(rows, (uint32_t)r)[rows->nsamples - 1];
			human_size((uint64_t)llround(rows->peak[r]), peak, sizeof(peak));
		}
		human_size((uint64_t)llround(fmax(last, 0)), end, sizeof(end));
		cairo_rectangle(cr, x, y - 9, 11, 11);
		fill_row(cr, r, c->shown, 0.85);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		if (compact) {
			snprintf(line, sizeof(line), "%.22s%s  %s%s, end %s", name,
				 strlen(name) > 22 ? "..." : "", other ? "" : "peak ", peak, end);
			text_at(cr, x + 17, y, line, 0);
		} else {
			snprintf(line, sizeof(line), "%.38s%s", name, strlen(name) > 38 ? "..." : "");
			text_at(cr, x + 17, y, line, 0);
			cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
			snprintf(line, sizeof(line), other ? "%s, end %s" : "peak %s, end %s", peak,
				 end);
			text_at(cr, x + 17, y + 13, line, 0);
		}
		y += step;
	}
}

static void draw_pages_panel(struct chart *c, double y0, double y1)
{
	const struct timeline_rows *rows = c->rows;
	const struct timeline *t = rows->timeline;
	cairo_t *cr = c->cr;
	double lo = 0, hi = 0;
	uint32_t i;

	for (i = 0; i < t->nsamples; i++) {
		lo = fmin(lo, (double)t->samples[i].pages);
		hi = fmax(hi, (double)t->samples[i].pages);
	}
	if (hi - lo < 4)
		hi = lo + 4;
	draw_value_axis(c, y0, y1, lo, hi, 1, NULL, "pages held");
	cairo_new_path(cr);
	for (i = 0; i < t->nsamples; i++)
		cairo_line_to(cr, x_of(c, t->samples[i].ts_ns),
			      y1 - ((double)t->samples[i].pages - lo) / (hi - lo) * (y1 - y0));
	cairo_set_source_rgb(cr, 0.2, 0.35, 0.6);
	cairo_set_line_width(cr, 1.5);
	cairo_stroke(cr);
	draw_time_axis(c, y0, y1);
	draw_lost_marks(c, y0, y1);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_font_size(cr, 12);
	text_at(cr, c->x0, y0 - 8, "pages held: pages allocated minus pages freed since the log "
		"began (mm_page_alloc, mm_page_free)", 0);
}

static void draw_timeline(cairo_t *cr, void *ctx)
{
	struct chart *c = ctx;
	const struct timeline_rows *rows = c->rows;
	double y0 = TOP, y1 = TOP + PANEL_HEIGHT, hi = 0, div;
	const char *unit;
	char sub[256];
	uint32_t i;

	c->cr = cr;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 16);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text_at(cr, LEFT, 28, c->title, 0);
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 12);
	if (rows->untimed)
		snprintf(sub, sizeof(sub), "%s, stacked: the %zu largest rows by peak and the "
			 "rest; by snapshot (%s)", rows->measure ? rows->measure : "live slab bytes",
			 c->shown, rows->clock);
	else
		snprintf(sub, sizeof(sub), "%s, stacked: the %zu largest rows by peak and the "
			 "rest; time in s since %.6f s (%s)", rows->measure ? rows->measure :
			 "live slab bytes", c->shown, (double)rows->timeline->t0 / 1e9,
			 rows->clock ? rows->clock : "the log's clock");
	text_at(cr, LEFT, 48, sub, 0);
	for (i = 0; i < rows->nsamples; i++)
		hi = fmax(hi, rows->total[i]);
	if (hi <= 0)
		hi = 1024;
	hi *= 1.05;
	size_unit(hi, &div, &unit);
	draw_value_axis(c, y0, y1, 0, hi, div, unit, "live");
	if (rows->nsamples)
		draw_areas(c, y0, y1, hi);
	draw_time_axis(c, y0, y1);
	shade_loss_windows(c, y0, y1);
	draw_lost_marks(c, y0, y1);
	draw_peak_mark(c, y0, y1, hi);
	draw_legend(c, y0 + 10, c->height - 12);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_font_size(cr, 12);
	text_at(cr, (c->x0 + c->x1) / 2, y1 + 36, c->rows->untimed ? "snapshot" : "time (s)", 0.5);
	if (rows->losses && rows->losses->n) {
		cairo_set_source_rgb(cr, 0.7, 0.1, 0.1);
		cairo_set_font_size(cr, 11);
		text_at(cr, c->x0, y1 + 36, "shaded: events lost (allocated before: uncertain)", 0);
	}
	if (c->pages)
		draw_pages_panel(c, y1 + GAP, y1 + GAP + PAGES_HEIGHT);
}

int timeline_chart_write(const struct timeline_rows *rows, size_t top, const char *title,
			 const char *path, FILE *f, struct ta_error *err)
{
	struct chart c;
	double height;

	memset(&c, 0, sizeof(c));
	c.rows = rows;
	c.title = title;
	c.shown = top < rows->nrows ? top : rows->nrows;
	c.pages = rows->timeline->page_events > 0;
	c.x0 = LEFT;
	c.x1 = WIDTH - RIGHT;
	c.t0_s = (double)rows->timeline->t0 / 1e9;
	c.span = rows->nsamples ? (double)(rows->ts[rows->nsamples - 1] - rows->timeline->t0) / 1e9
				: 0;
	height = TOP + PANEL_HEIGHT + BOTTOM + (c.pages ? GAP + PAGES_HEIGHT + BOTTOM - 10 : 0);
	c.height = height;
	return chart_render(chart_format_of_path(path), WIDTH, height, draw_timeline, &c, path, f,
			    err);
}
