/*
 * chartfile.c - cairo surfaces for PNG, SVG and PDF files, written through
 * a stream that keeps the OS's reason for a failed write. Not here: any
 * drawing.
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "cairolib.h"
#include "chartfile.h"

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

int chart_render(enum chart_format fmt, double width, double height,
		 void (*draw)(cairo_t *cr, void *ctx), void *ctx, const char *path, FILE *f,
		 struct ta_error *err)
{
	struct sink sink = { f, 0 };
	cairo_surface_t *surface;
	cairo_t *cr;
	cairo_status_t status;

	if (cairo_library_load(err))
		return -1;
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
	if (sink.error)
		return error_set_errno(err, sink.error, "cannot write '%s'", path);
	if (status != CAIRO_STATUS_SUCCESS)
		return error_set(err, "cannot draw '%s': %s", path, cairo_status_to_string(status));
	return 0;
}
