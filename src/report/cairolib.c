/*
 * cairolib.c - cairo, loaded when the first picture is drawn.
 *
 * cairo pulls 17 more libraries behind it (pixman, fontconfig, freetype,
 * libpng, X11 and xcb): mapping them costs every run about 4 ms, more than
 * an account read back from a DB takes. So the binary does not link cairo;
 * chart_render() calls cairo_library_load() first, which dlopen()s it and
 * looks up every function the charts use (lazylib.c), and the functions
 * below (with cairo's own names and prototypes, which <cairo.h> makes the
 * compiler check) hand each call on.
 *
 * Not here: drawing (ringchart.c, flame.c, timeline_chart.c) or the choice
 * of surface (chartfile.c). Every cairo function the program calls must be
 * in CAIRO_FUNCTIONS, or the link fails.
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include "cairolib.h"
#include "lazylib.h"

/* The library's name as its -dev package links it (cairo has kept .2). */
#define CAIRO_SONAME "libcairo.so.2"

/*
 * V(name, parameters, arguments): a function that returns nothing;
 * R(type, name, parameters, arguments): one that returns type.
 */
#define CAIRO_FUNCTIONS(V, R)							\
	V(cairo_arc, (cairo_t *cr, double xc, double yc, double r, double a1, double a2),	\
	  (cr, xc, yc, r, a1, a2))						\
	V(cairo_arc_negative, (cairo_t *cr, double xc, double yc, double r, double a1,	\
			       double a2), (cr, xc, yc, r, a1, a2))		\
	V(cairo_clip, (cairo_t *cr), (cr))					\
	V(cairo_clip_preserve, (cairo_t *cr), (cr))				\
	V(cairo_close_path, (cairo_t *cr), (cr))				\
	R(cairo_t *, cairo_create, (cairo_surface_t *target), (target))	\
	V(cairo_destroy, (cairo_t *cr), (cr))					\
	V(cairo_fill, (cairo_t *cr), (cr))					\
	V(cairo_fill_extents, (cairo_t *cr, double *x1, double *y1, double *x2, double *y2),	\
	  (cr, x1, y1, x2, y2))							\
	V(cairo_fill_preserve, (cairo_t *cr), (cr))				\
	V(cairo_font_face_destroy, (cairo_font_face_t *face), (face))		\
	R(cairo_font_options_t *, cairo_font_options_create, (void), ())	\
	V(cairo_font_options_destroy, (cairo_font_options_t *options), (options))	\
	R(cairo_surface_t *, cairo_image_surface_create,			\
	  (cairo_format_t format, int width, int height), (format, width, height))	\
	V(cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y))		\
	V(cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y))		\
	V(cairo_new_path, (cairo_t *cr), (cr))					\
	V(cairo_paint, (cairo_t *cr), (cr))					\
	R(cairo_surface_t *, cairo_pdf_surface_create_for_stream,		\
	  (cairo_write_func_t write_func, void *closure, double w, double h),	\
	  (write_func, closure, w, h))						\
	V(cairo_pdf_surface_set_metadata,					\
	  (cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *utf8),	\
	  (surface, metadata, utf8))						\
	V(cairo_rectangle, (cairo_t *cr, double x, double y, double w, double h),	\
	  (cr, x, y, w, h))							\
	V(cairo_restore, (cairo_t *cr), (cr))					\
	V(cairo_rotate, (cairo_t *cr, double angle), (cr, angle))		\
	V(cairo_save, (cairo_t *cr), (cr))					\
	R(cairo_scaled_font_t *, cairo_scaled_font_create,			\
	  (cairo_font_face_t *face, const cairo_matrix_t *font_matrix, const cairo_matrix_t *ctm,	\
	   const cairo_font_options_t *options), (face, font_matrix, ctm, options))	\
	V(cairo_scaled_font_destroy, (cairo_scaled_font_t *font), (font))	\
	V(cairo_scaled_font_text_extents,					\
	  (cairo_scaled_font_t *font, const char *utf8, cairo_text_extents_t *extents),	\
	  (font, utf8, extents))						\
	V(cairo_select_font_face, (cairo_t *cr, const char *family,		\
				   cairo_font_slant_t slant, cairo_font_weight_t weight),	\
	  (cr, family, slant, weight))						\
	V(cairo_set_dash, (cairo_t *cr, const double *dashes, int num_dashes, double offset),	\
	  (cr, dashes, num_dashes, offset))					\
	V(cairo_set_font_size, (cairo_t *cr, double size), (cr, size))		\
	V(cairo_set_line_width, (cairo_t *cr, double width), (cr, width))	\
	V(cairo_set_source_rgb, (cairo_t *cr, double r, double g, double b), (cr, r, g, b))	\
	V(cairo_set_source_rgba, (cairo_t *cr, double r, double g, double b, double a),	\
	  (cr, r, g, b, a))							\
	V(cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8))	\
	R(cairo_status_t, cairo_status, (cairo_t *cr), (cr))			\
	R(const char *, cairo_status_to_string, (cairo_status_t status), (status))	\
	V(cairo_stroke, (cairo_t *cr), (cr))					\
	V(cairo_surface_destroy, (cairo_surface_t *surface), (surface))		\
	V(cairo_surface_finish, (cairo_surface_t *surface), (surface))		\
	R(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface))	\
	R(cairo_status_t, cairo_surface_write_to_png_stream,			\
	  (cairo_surface_t *surface, cairo_write_func_t write_func, void *closure),	\
	  (surface, write_func, closure))					\
	R(cairo_surface_t *, cairo_svg_surface_create_for_stream,		\
	  (cairo_write_func_t write_func, void *closure, double w, double h),	\
	  (write_func, closure, w, h))						\
	V(cairo_text_extents, (cairo_t *cr, const char *utf8, cairo_text_extents_t *extents),	\
	  (cr, utf8, extents))							\
	R(cairo_font_face_t *, cairo_toy_font_face_create,			\
	  (const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight),	\
	  (family, slant, weight))						\
	V(cairo_translate, (cairo_t *cr, double tx, double ty), (cr, tx, ty))

#define LAZYLIB_TABLE cairo_calls
#define LAZYLIB_LIBRARY cairo_library
LAZYLIB_DEFINE(CAIRO_FUNCTIONS, .what = "cairo", .sonames = { CAIRO_SONAME })

int cairo_library_load(struct ta_error *err)
{
	return lazylib_load(&cairo_library, "to draw", err);
}
