/*
 * chartfile.c - cairo surfaces for PNG, SVG and PDF files, written through
 * a stream that keeps the OS's reason for a failed write, and cairo made
 * ready beside a run's reading. Not here: any drawing.
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cairolib.h"
#include "chartfile.h"
#include "forkgate.h"
#include "testhook.h"

enum chart_format chart_format_of_path(const char *path)
{
	static const struct { const char *ext; enum chart_format fmt; } known[] = {
		{ ".png", CHART_PNG }, { ".svg", CHART_SVG }, { ".pdf", CHART_PDF },
	};
	size_t n = strlen(path), i;

	if (strcmp(path, "/dev/null") == 0)
		return CHART_PNG;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (n > 4 && strcasecmp(path + n - 4, known[i].ext) == 0)
			return known[i].fmt;
	return CHART_UNKNOWN;
}

struct sink {
	FILE *f;
	int error;
};

static cairo_status_t write_to_sink(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *s = closure;

	if (fwrite(data, 1, len, s->f) != len) {
		s->error = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *create_surface(enum chart_format fmt, double width, double height,
				       struct sink *sink)
{
	cairo_surface_t *s;

	switch (fmt) {
	case CHART_SVG:
		return cairo_svg_surface_create_for_stream(write_to_sink, sink, width, height);
	case CHART_PDF:
		s = cairo_pdf_surface_create_for_stream(write_to_sink, sink, width, height);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "trace_analyze");
		return s;
	case CHART_PNG:
	case CHART_UNKNOWN:
	default:
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)width, (int)height);
	}
}

/* ---- cairo and the font, made ready on a thread of their own ---- */

/*
 * Loading cairo's 17 libraries and fontconfig's first look for a font
 * take 5-6 ms, a quarter of an --html page from a DB. One warm-up a
 * process, as the library it loads is one a process (lazylib.c).
 */
static struct {
	pthread_mutex_t lock;
	pthread_t thread;
	bool running;
} warm_up = { .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * Measured with a font of its own, not drawn on a surface: cairo numbers
 * its surfaces in the order they are made, and an SVG says its number.
 */
static void measure_with(const char *family, cairo_font_weight_t weight)
{
	cairo_matrix_t size = { 12, 0, 0, 12, 0, 0 }, unit = { 1, 0, 0, 1, 0, 0 };
	cairo_font_face_t *face = cairo_toy_font_face_create(family, CAIRO_FONT_SLANT_NORMAL, weight);
	cairo_font_options_t *options = cairo_font_options_create();
	cairo_scaled_font_t *font = cairo_scaled_font_create(face, &size, &unit, options);
	cairo_text_extents_t e;

	cairo_scaled_font_text_extents(font, "0", &e);
	cairo_scaled_font_destroy(font);
	cairo_font_options_destroy(options);
	cairo_font_face_destroy(face);
}

static void *find_the_font(void *unused)
{
	struct ta_error ignored;	/* chart_render meets it again and says it */
	sigset_t all;

	(void)unused;
	sigfillset(&all);	/* signals are the main thread's */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	fork_gate_hold();	/* a guard's child must not inherit cairo's or malloc's locks */
	if (cairo_library_load(&ignored) == 0) {
		measure_with(CHART_FONT, CAIRO_FONT_WEIGHT_NORMAL);
		measure_with(CHART_FONT, CAIRO_FONT_WEIGHT_BOLD);
	}
	fork_gate_release();
	return NULL;
}

void chart_warm_up(void)
{
	if (test_draw_inline())
		return;
	pthread_mutex_lock(&warm_up.lock);
	if (!warm_up.running)
		warm_up.running = pthread_create(&warm_up.thread, NULL, find_the_font, NULL) == 0;
	pthread_mutex_unlock(&warm_up.lock);
}

void chart_warm_up_end(void)
{
	pthread_mutex_lock(&warm_up.lock);
	if (warm_up.running)
		pthread_join(warm_up.thread, NULL);
	warm_up.running = false;
	pthread_mutex_unlock(&warm_up.lock);
}

/*
 * An SVG's surface ids ("surface71") as cairo numbers them: by every
 * surface the process made before, so one chart's bytes depended on what
 * else the run drew (a flame graph before the --html page's timeline).
 * Numbered again by first appearance, 1, 2..., they are the chart's own.
 */
static void write_svg_numbered(FILE *f, const char *svg, size_t len)
{
	static const char word[] = "surface";
	unsigned long seen[64];
	size_t nseen = 0, i = 0;

	while (i < len) {
		const char *at = memmem(svg + i, len - i, word, sizeof(word) - 1);
		size_t from, digits = 0, k;
		unsigned long n = 0;

		if (!at) {
			fwrite(svg + i, 1, len - i, f);
			return;
		}
		from = (size_t)(at - svg) + sizeof(word) - 1;
		while (from + digits < len && svg[from + digits] >= '0' && svg[from + digits] <= '9' &&
		       digits < 9)
			n = n * 10 + (unsigned long)(svg[from + digits++] - '0');
		fwrite(svg + i, 1, from - i, f);
		i = from + digits;
		if (!digits)
			continue;
		for (k = 0; k < nseen && seen[k] != n; k++)
			;
		if (k == nseen && nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = n;
		if (k < nseen)
			fprintf(f, "%zu", k + 1);
		else	/* more surfaces than a chart of ours makes: as cairo said */
			fprintf(f, "%lu", n);
	}
}

int chart_render(enum chart_format fmt, double width, double height,
		 void (*draw)(cairo_t *cr, void *ctx), void *ctx, const char *path, FILE *f,
		 struct ta_error *err)
{
	struct sink sink = { f, 0 };
	cairo_surface_t *surface;
	cairo_t *cr;
	cairo_status_t status;
	char *svg = NULL;
	size_t svg_len = 0;

	chart_warm_up_end();
	if (cairo_library_load(err))
		return -1;
	if (fmt == CHART_SVG)	/* into memory first: its ids numbered again (write_svg_numbered) */
		sink.f = xopen_memstream(&svg, &svg_len);
	surface = create_surface(fmt, width, height, &sink);
	cr = cairo_create(surface);
	draw(cr, ctx);
	status = cairo_status(cr);
	cairo_destroy(cr);
	if (status == CAIRO_STATUS_SUCCESS && fmt != CHART_SVG && fmt != CHART_PDF)
		status = cairo_surface_write_to_png_stream(surface, write_to_sink, &sink);
	cairo_surface_finish(surface);
	if (status == CAIRO_STATUS_SUCCESS)
		status = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	if (fmt == CHART_SVG) {
		fclose(sink.f);
		if (status == CAIRO_STATUS_SUCCESS && !sink.error) {
			errno = 0;
			write_svg_numbered(f, svg, svg_len);
			if (ferror(f))
				sink.error = errno ? errno : EIO;
		}
		free(svg);
	}
	if (sink.error)
		return error_set_errno(err, sink.error, "cannot write '%s'", path);
	if (status != CAIRO_STATUS_SUCCESS)
		return error_set(err, "cannot draw '%s': %s", path, cairo_status_to_string(status));
	return 0;
}
