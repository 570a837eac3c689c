/*
 * ringchart.c - drawing a sunburst of a tree of sizes with cairo (the
 * rules of the picture are in ringchart.h).
 *
 * Two passes: wedges first, then labels, so no wedge paints over a label.
 * Knows nothing of kernels; the caller gives labels, values and a title.
 */
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartfile.h"
#include "ringchart.h"

#define WIDTH 1400.0
#define HEIGHT 1480.0
#define TITLE_SPACE 70.0
#define FOOT_SPACE 40.0
#define FONT_MAX 15
#define FONT_MIN 8

/* ---- the tree --------------------------------------------------------------- */

void ring_tree_init(struct ring_tree *t)
{
	memset(t, 0, sizeof(*t));
}

void ring_tree_release(struct ring_tree *t)
{
	uint32_t i;

	for (i = 0; i < t->count; i++)
		free(t->nodes[i].label);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

uint32_t ring_tree_add(struct ring_tree *t, uint32_t parent, const char *label, uint64_t value,
		       bool leaf)
{
	struct ring_node *n;
	uint32_t id = t->count;

	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
	}
	n = &t->nodes[t->count++];
	n->label = xstrdup(label);
	n->value = value;
	n->delta = 0;
	n->parent = parent;
	n->first_child = n->next_sibling = RING_NONE;
	n->leaf = leaf;
	n->part = 0;
	if (parent != RING_NONE) {
		uint32_t *link = &t->nodes[parent].first_child;

		while (*link != RING_NONE)
			link = &t->nodes[*link].next_sibling;
		*link = id;
	}
	return id;
}

/* "+12.3 KiB", "-4.0 KiB", "0 bytes": a change. */
static void human_change(int64_t delta, char *out, size_t cap)
{
	char size[24];

	human_size((uint64_t)(delta < 0 ? -delta : delta), size, sizeof(size));
	snprintf(out, cap, "%s%s", delta > 0 ? "+" : delta < 0 ? "\xe2\x88\x92" : "", size);
}

void human_size(uint64_t bytes, char *out, size_t cap)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = -1;

	if (bytes == 1) {
		snprintf(out, cap, "1 byte");
		return;
	}
	if (bytes < 1024) {
		snprintf(out, cap, "%llu bytes", (unsigned long long)bytes);
		return;
	}
	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	snprintf(out, cap, "%.1f %s", v, units[u]);
}

/* ---- geometry and colour --------------------------------------------------------- */

struct chart {
	cairo_t *cr;
	const struct ring_tree *t;
	double cx, cy;
	double r0;		/* radius of the centre disc */
	double ring;		/* width of one ring */
	uint64_t total;		/* the root's value */
	uint64_t hidden;	/* nodes too narrow to draw (merged into "more") */
	uint64_t thin;		/* thin wedges drawn grey, without their subtree */
	struct label_job *jobs;
	size_t njobs, jobs_cap;
	char **owned;		/* labels made for the chart ("ext4/inode.o") */
	size_t nowned, owned_cap;
};

struct label_job {
	const char *name;	/* NULL: "N more" */
	uint32_t more;
	uint64_t value;
	int64_t delta;		/* signed_values: what the label says */
	double a0, a1, r_in, r_out;
	double rgb[3];
};

static unsigned tree_depth(const struct ring_tree *t, uint32_t node)
{
	unsigned best = 0;
	uint32_t c;

	for (c = t->nodes[node].first_child; c != RING_NONE; c = t->nodes[c].next_sibling) {
		unsigned d = 1 + tree_depth(t, c);

		if (d > best)
			best = d;
	}
	return best;
}

static double hue_to_channel(double p, double q, double h)
{
	if (h < 0)
		h += 1;
	if (h > 1)
		h -= 1;
	if (h < 1.0 / 6)
		return p + (q - p) * 6 * h;
	if (h < 0.5)
		return q;
	if (h < 2.0 / 3)
		return p + (q - p) * (2.0 / 3 - h) * 6;
	return p;
}

static void hsl_to_rgb(double h, double s, double l, double rgb[3])
{
	double q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;

	rgb[0] = hue_to_channel(p, q, h + 1.0 / 3);
	rgb[1] = hue_to_channel(p, q, h);
	rgb[2] = hue_to_channel(p, q, h - 1.0 / 3);
}

/*
 * The hue of a top-level directory, from its name: the same directory has
 * the same colour in every chart (FNV-1a, spread over the circle).
 */
static double hue_of_name(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return (double)(h % 3600) / 3600.0;
}

/* The top-level directory's hue; lightness falls with depth. */
static void wedge_colour(double hue, unsigned depth, bool grey, double rgb[3])
{
	double l = 0.82 - 0.085 * (depth - 1);

	if (l < 0.38)
		l = 0.38;
	if (grey) {
		rgb[0] = rgb[1] = rgb[2] = l + 0.05;
		return;
	}
	hsl_to_rgb(hue, 0.62, l, rgb);
}

/* A change: warm when it grew, cool when it shrank, grey when it did neither. */
static void change_colour(int64_t delta, unsigned depth, double rgb[3])
{
	double l = 0.80 - 0.08 * (depth - 1);

	if (l < 0.40)
		l = 0.40;
	if (delta > 0)
		hsl_to_rgb(0.02, 0.70, l, rgb);
	else if (delta < 0)
		hsl_to_rgb(0.58, 0.60, l, rgb);
	else
		rgb[0] = rgb[1] = rgb[2] = l + 0.05;
}

static bool is_dark(const double rgb[3])
{
	return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 0.45;
}

/* Angles run clockwise from twelve o'clock; cairo's from three o'clock. */
static void wedge_path(struct chart *c, double a0, double a1, double r_in, double r_out)
{
	cairo_new_path(c->cr);
	cairo_arc(c->cr, c->cx, c->cy, r_out, a0 - M_PI / 2, a1 - M_PI / 2);
	cairo_arc_negative(c->cr, c->cx, c->cy, r_in, a1 - M_PI / 2, a0 - M_PI / 2);
	cairo_close_path(c->cr);
}

static void draw_wedge(struct chart *c, double a0, double a1, double r_in, double r_out,
		       const double rgb[3])
{
	wedge_path(c, a0, a1, r_in, r_out);
	cairo_set_source_rgb(c->cr, rgb[0], rgb[1], rgb[2]);
	cairo_fill_preserve(c->cr);
	cairo_set_source_rgb(c->cr, 1, 1, 1);
	cairo_set_line_width(c->cr, 0.8);
	cairo_stroke(c->cr);
}

/* The colour of a wedge's first part (two_parts): the wedge's, darker. */
static void first_part_colour(const double rgb[3], double out[3])
{
	int i;

	for (i = 0; i < 3; i++)
		out[i] = rgb[i] * 0.62;
}

/* two_parts: the first part of wedge k, from its start, darker over it. */
static void draw_first_part(struct chart *c, const struct ring_node *k, double a, double span,
			    double r_in, double r_out, const double rgb[3])
{
	double dark[3], part = span * (double)(k->part < k->value ? k->part : k->value) /
			       (double)k->value;

	first_part_colour(rgb, dark);
	draw_wedge(c, a, a + part, r_in, r_out, dark);
}

static void queue_label(struct chart *c, const struct label_job *job)
{
	if (c->njobs == c->jobs_cap) {
		c->jobs_cap = c->jobs_cap ? c->jobs_cap * 2 : 256;
		c->jobs = xrealloc(c->jobs, c->jobs_cap * sizeof(*c->jobs));
	}
	c->jobs[c->njobs++] = *job;
}

/* ---- wedges ------------------------------------------------------------------------ */

static int compare_children(const void *pa, const void *pb, void *ctx)
{
	const struct ring_tree *t = ctx;
	const struct ring_node *a = &t->nodes[*(const uint32_t *)pa];
	const struct ring_node *b = &t->nodes[*(const uint32_t *)pb];

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return strcmp(a->label, b->label);
}

static uint32_t *sorted_children(const struct ring_tree *t, uint32_t node, size_t *n)
{
	uint32_t c, *kids = NULL;
	size_t cap = 0;

	*n = 0;
	for (c = t->nodes[node].first_child; c != RING_NONE; c = t->nodes[c].next_sibling) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			kids = xrealloc(kids, cap * sizeof(*kids));
		}
		kids[(*n)++] = c;
	}
	if (*n)
		qsort_r(kids, *n, sizeof(*kids), compare_children, (void *)t);
	return kids;
}

/* "ext4/inode.o": an object's label with its directory, so that it is not ambiguous. */
static const char *object_label(struct chart *c, uint32_t node)
{
	const struct ring_node *k = &c->t->nodes[node];
	size_t n;
	char *s;

	if (!k->leaf || k->parent == 0 || k->parent == RING_NONE)
		return k->label;
	n = strlen(c->t->nodes[k->parent].label) + strlen(k->label) + 2;
	s = xmalloc(n);
	snprintf(s, n, "%s/%s", c->t->nodes[k->parent].label, k->label);
	if (c->nowned == c->owned_cap) {
		c->owned_cap = c->owned_cap ? c->owned_cap * 2 : 64;
		c->owned = xrealloc(c->owned, c->owned_cap * sizeof(*c->owned));
	}
	c->owned[c->nowned++] = s;
	return s;
}

static void draw_children(struct chart *c, uint32_t node, unsigned depth, double a0,
			  double hue)
{
	const double thin_angle = RING_THIN_DEGREES * M_PI / 180;
	const double min_angle = RING_MIN_DEGREES * M_PI / 180;
	double r_in = c->r0 + (depth - 1) * c->ring, r_out = r_in + c->ring;
	uint64_t more_value = 0;
	int64_t more_delta = 0;
	uint32_t more = 0, *kids;
	size_t n, i;
	double a = a0;

	kids = sorted_children(c->t, node, &n);
	for (i = 0; i < n; i++) {
		const struct ring_node *k = &c->t->nodes[kids[i]];
		double span = 2 * M_PI * (double)k->value / (double)c->total;
		struct label_job job = { object_label(c, kids[i]), 0, k->value, k->delta, a, a + span,
					 r_in, r_out, { 0 } };
		double kid_hue = depth == 1 ? hue_of_name(k->label) : hue;
		bool thin = span < thin_angle && k->first_child != RING_NONE;

		if (span < min_angle) {
			more++;
			more_value += k->value;
			more_delta += k->delta;
			continue;
		}
		if (c->t->signed_values)
			change_colour(k->delta, depth, job.rgb);
		else
			wedge_colour(kid_hue, depth, thin, job.rgb);
		draw_wedge(c, a, a + span, r_in, r_out, job.rgb);
		if (c->t->two_parts && k->part && !thin)
			draw_first_part(c, k, a, span, r_in, r_out, job.rgb);
		queue_label(c, &job);
		if (thin)
			c->thin++;	/* its subtree would be a spike: one grey wedge */
		else
			draw_children(c, kids[i], depth + 1, a, kid_hue);
		a += span;
	}
	if (more) {
		double span = 2 * M_PI * (double)more_value / (double)c->total;
		struct label_job job = { NULL, more, more_value, more_delta, a, a + span, r_in, r_out,
					 { 0 } };

		if (span >= min_angle / 4) {
			wedge_colour(hue, depth, true, job.rgb);
			draw_wedge(c, a, a + span, r_in, r_out, job.rgb);
			queue_label(c, &job);
		}
		c->hidden += more;
	}
	free(kids);
}

/* ---- labels ------------------------------------------------------------------------- */

enum layout {
	LEVEL_TWO_LINES,	/* horizontal, name over size */
	ALONG_RING_TWO_LINES,
	ALONG_RADIUS,		/* "name size" on one line */
	LEVEL,
	ALONG_RING,
	ALONG_RADIUS_TWO_LINES,
};

static bool one_line(enum layout l)
{
	return l == ALONG_RADIUS || l == LEVEL || l == ALONG_RING;
}

struct text_box {
	double width, height, line;
};

static double text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

static struct text_box measure(cairo_t *cr, const char *name, const char *size, enum layout l,
			       double font)
{
	struct text_box b;
	char one[1100];

	b.line = font * 1.2;
	if (one_line(l)) {
		snprintf(one, sizeof(one), "%s %s", name, size);
		b.width = text_width(cr, one);
		b.height = b.line;
	} else {
		double wn = text_width(cr, name), ws = text_width(cr, size);

		b.width = wn > ws ? wn : ws;
		b.height = 2 * b.line;
	}
	return b;
}

/* The text's rotation: upright, centred on the wedge's middle. */
static double rotation_of(const struct label_job *j, enum layout l)
{
	double mid = (j->a0 + j->a1) / 2, deg = fmod(mid * 180 / M_PI, 360);

	switch (l) {
	case LEVEL:
	case LEVEL_TWO_LINES:
		return 0;
	case ALONG_RING:
	case ALONG_RING_TWO_LINES:
		return (deg > 90 && deg < 270) ? mid - M_PI : mid;
	default:
		return deg < 180 ? mid - M_PI / 2 : mid + M_PI / 2;
	}
}

/* Is point (x, y), relative to the centre, inside the wedge (with margins)? */
static bool inside_wedge(const struct label_job *j, double x, double y)
{
	double r = hypot(x, y), a = atan2(x, -y);	/* clockwise from twelve o'clock */
	double margin = 3 / (r > 1 ? r : 1);

	if (r < j->r_in + 2 || r > j->r_out - 2)
		return false;
	if (j->a1 - j->a0 >= 2 * M_PI - 1e-9)
		return true;
	if (a < 0)
		a += 2 * M_PI;
	while (a < j->a0)
		a += 2 * M_PI;
	return a >= j->a0 + margin && a <= j->a1 - margin;
}

/* The text box fits if points all around its edge are inside the wedge. */
static bool box_fits(const struct label_job *j, enum layout l, const struct text_box *b)
{
	double mid = (j->a0 + j->a1) / 2, r = (j->r_in + j->r_out) / 2;
	double ox = r * sin(mid), oy = -r * cos(mid), rot = rotation_of(j, l);
	double c = cos(rot), s = sin(rot), hw = b->width / 2 + 2, hh = b->height / 2 + 1;
	int i;

	for (i = 0; i <= 8; i++) {
		double t = -1 + i / 4.0;
		double px[4] = { t * hw, t * hw, -hw, hw }, py[4] = { -hh, hh, t * hh, t * hh };
		int k;

		for (k = 0; k < 4; k++)
			if (!inside_wedge(j, ox + px[k] * c - py[k] * s, oy + px[k] * s + py[k] * c))
				return false;
	}
	return true;
}

static void place_text(struct chart *c, const struct label_job *j, enum layout l)
{
	double mid = (j->a0 + j->a1) / 2, r = (j->r_in + j->r_out) / 2;

	cairo_translate(c->cr, c->cx + r * sin(mid), c->cy - r * cos(mid));
	cairo_rotate(c->cr, rotation_of(j, l));
}

static void show_line(cairo_t *cr, const char *s, double y, double font)
{
	double w = text_width(cr, s);

	cairo_move_to(cr, -w / 2, y + font * 0.35);
	cairo_show_text(cr, s);
}

static void draw_label(struct chart *c, const struct label_job *j)
{
	static const enum layout order[] = { LEVEL_TWO_LINES, ALONG_RING_TWO_LINES, ALONG_RADIUS,
					     LEVEL, ALONG_RING, ALONG_RADIUS_TWO_LINES };
	char name[1024], size[32];
	int font;
	size_t k;

	if (j->name)
		snprintf(name, sizeof(name), "%s", j->name);
	else
		snprintf(name, sizeof(name), "%u more", j->more);
	if (c->t->signed_values)
		human_change(j->delta, size, sizeof(size));
	else
		human_size(j->value, size, sizeof(size));
	for (font = FONT_MAX; font >= FONT_MIN; font--) {
		cairo_set_font_size(c->cr, font);
		for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
			struct text_box b = measure(c->cr, name, size, order[k], font);
			char one[1100];

			if (!box_fits(j, order[k], &b))
				continue;
			cairo_save(c->cr);
			place_text(c, j, order[k]);
			if (is_dark(j->rgb))
				cairo_set_source_rgb(c->cr, 1, 1, 1);
			else
				cairo_set_source_rgb(c->cr, 0.08, 0.08, 0.08);
			if (one_line(order[k])) {
				snprintf(one, sizeof(one), "%s %s", name, size);
				show_line(c->cr, one, 0, font);
			} else {
				show_line(c->cr, name, -b.line / 2, font);
				show_line(c->cr, size, b.line / 2, font);
			}
			cairo_restore(c->cr);
			return;
		}
	}
}

/* ---- the page ------------------------------------------------------------------------ */

static void draw_centre(struct chart *c)
{
	const struct ring_node *root = &c->t->nodes[0];
	char size[32];
	double font;

	cairo_new_path(c->cr);
	cairo_arc(c->cr, c->cx, c->cy, c->r0 - 2, 0, 2 * M_PI);
	cairo_set_source_rgb(c->cr, 0.97, 0.97, 0.97);
	cairo_fill_preserve(c->cr);
	cairo_set_source_rgb(c->cr, 0.6, 0.6, 0.6);
	cairo_set_line_width(c->cr, 1);
	cairo_stroke(c->cr);
	if (c->t->signed_values)
		human_change(root->delta, size, sizeof(size));
	else
		human_size(root->value, size, sizeof(size));
	cairo_set_source_rgb(c->cr, 0.1, 0.1, 0.1);
	cairo_select_font_face(c->cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	for (font = 22; font > 8; font--) {
		cairo_set_font_size(c->cr, font);
		if (text_width(c->cr, root->label) <= 1.7 * c->r0)
			break;
	}
	cairo_save(c->cr);
	cairo_translate(c->cr, c->cx, c->cy);
	show_line(c->cr, root->label, -font * 0.7, font);
	cairo_select_font_face(c->cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(c->cr, font * 0.9);
	show_line(c->cr, size, font * 0.7, font * 0.9);
	cairo_restore(c->cr);
}

/* Which colour is which, under the title: a wedge's size is the change. */
static void draw_legend(struct chart *c)
{
	static const char *const text[] = { "grew", "shrank", "no net change" };
	static const int64_t sign[] = { 1, -1, 0 };
	double x = WIDTH / 2 - 230, y = 64, rgb[3];
	int i;

	cairo_set_font_size(c->cr, 13);
	for (i = 0; i < 3; i++) {
		change_colour(sign[i], 2, rgb);
		cairo_rectangle(c->cr, x, y - 10, 14, 14);
		cairo_set_source_rgb(c->cr, rgb[0], rgb[1], rgb[2]);
		cairo_fill(c->cr);
		cairo_set_source_rgb(c->cr, 0.1, 0.1, 0.1);
		cairo_move_to(c->cr, x + 20, y + 1);
		cairo_show_text(c->cr, text[i]);
		x += 40 + text_width(c->cr, text[i]);
	}
	cairo_move_to(c->cr, x + 10, y + 1);
	cairo_show_text(c->cr, "(wedge size: the change, grown plus shrunk)");
}

/* two_parts: which shade is which part, under the title. */
static void draw_parts_legend(struct chart *c)
{
	static const double grey[3] = { 0.72, 0.72, 0.72 };
	double x = WIDTH / 2 - 300, y = 64, rgb[3];
	char text[160];
	int i;

	cairo_set_font_size(c->cr, 13);
	for (i = 0; i < 2; i++) {
		if (i == 0)
			first_part_colour(grey, rgb);
		else
			memcpy(rgb, grey, sizeof(rgb));
		cairo_rectangle(c->cr, x, y - 10, 14, 14);
		cairo_set_source_rgb(c->cr, rgb[0], rgb[1], rgb[2]);
		cairo_fill(c->cr);
		cairo_set_source_rgb(c->cr, 0.1, 0.1, 0.1);
		snprintf(text, sizeof(text), "%s: %s", i ? "lighter" : "darker",
			 c->t->part_names[i] ? c->t->part_names[i] : "");
		cairo_move_to(c->cr, x + 20, y + 1);
		cairo_show_text(c->cr, text);
		x += 50 + text_width(c->cr, text);
	}
}

#define LEGEND_ROWS 14

/* The top-level directories, their colour, size and share: which wedge is which. */
static void draw_share_legend(struct chart *c)
{
	double x = 24, y = TITLE_SPACE + 16, rgb[3];
	char line[160], size[32];
	uint32_t *kids;
	size_t n, i;

	kids = sorted_children(c->t, 0, &n);
	cairo_set_font_size(c->cr, 13);
	for (i = 0; i < n && i < LEGEND_ROWS; i++) {
		const struct ring_node *k = &c->t->nodes[kids[i]];

		if (!k->value)
			break;
		wedge_colour(hue_of_name(k->label), 1, false, rgb);
		cairo_rectangle(c->cr, x, y - 11, 14, 14);
		cairo_set_source_rgb(c->cr, rgb[0], rgb[1], rgb[2]);
		cairo_fill(c->cr);
		human_size(k->value, size, sizeof(size));
		snprintf(line, sizeof(line), "%s  %s  %.1f%%", k->label, size,
			 100.0 * (double)k->value / (double)(c->total ? c->total : 1));
		cairo_set_source_rgb(c->cr, 0.1, 0.1, 0.1);
		cairo_move_to(c->cr, x + 20, y);
		cairo_show_text(c->cr, line);
		y += 20;
	}
	if (n > LEGEND_ROWS) {
		snprintf(line, sizeof(line), "and %zu more", n - LEGEND_ROWS);
		cairo_move_to(c->cr, x + 20, y);
		cairo_show_text(c->cr, line);
	}
	free(kids);
}

static void draw_title(struct chart *c, const char *title)
{
	char foot[512];
	int n;

	cairo_set_source_rgb(c->cr, 0.1, 0.1, 0.1);
	cairo_select_font_face(c->cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(c->cr, 20);
	cairo_save(c->cr);
	cairo_translate(c->cr, WIDTH / 2, 38);
	show_line(c->cr, title, 0, 20);
	cairo_restore(c->cr);
	cairo_select_font_face(c->cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(c->cr, 12);
	n = snprintf(foot, sizeof(foot), "One ring per directory level, object files outermost; "
		     "a colour per top-level directory.");
	if (c->hidden && n < (int)sizeof(foot))
		n += snprintf(foot + n, sizeof(foot) - (size_t)n, " %llu wedge%s under %.1f\xc2\xb0 "
			      "%s merged into grey \"more\" wedges.", (unsigned long long)c->hidden,
			      plural(c->hidden), RING_MIN_DEGREES, c->hidden == 1 ? "is" : "are");
	if (c->thin && n < (int)sizeof(foot))
		snprintf(foot + n, sizeof(foot) - (size_t)n, " %llu wedge%s under %.1f\xc2\xb0 %s "
			 "grey, %s subdirectories not drawn.", (unsigned long long)c->thin,
			 plural(c->thin), RING_THIN_DEGREES, c->thin == 1 ? "is" : "are",
			 c->thin == 1 ? "its" : "their");
	cairo_save(c->cr);
	cairo_translate(c->cr, WIDTH / 2, HEIGHT - FOOT_SPACE / 2);
	show_line(c->cr, foot, 0, 12);
	cairo_restore(c->cr);
	if (c->t->signed_values)
		draw_legend(c);
	else
		draw_share_legend(c);
	if (c->t->two_parts)
		draw_parts_legend(c);
}

static void draw_chart(struct chart *c, const char *title)
{
	unsigned depth = tree_depth(c->t, 0);
	double radius = (HEIGHT - TITLE_SPACE - FOOT_SPACE) / 2 - 10;
	size_t i;

	if (radius > WIDTH / 2 - 20)
		radius = WIDTH / 2 - 20;
	c->cx = WIDTH / 2;
	c->cy = TITLE_SPACE + (HEIGHT - TITLE_SPACE - FOOT_SPACE) / 2;
	c->r0 = depth ? radius * 0.16 : radius * 0.4;
	c->ring = depth ? (radius - c->r0) / depth : 0;
	if (c->ring > radius * 0.3)
		c->ring = radius * 0.3;
	c->total = c->t->nodes[0].value;
	cairo_set_source_rgb(c->cr, 1, 1, 1);
	cairo_paint(c->cr);
	if (c->total && depth)
		draw_children(c, 0, 1, 0, 0);
	cairo_select_font_face(c->cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	for (i = 0; i < c->njobs; i++)
		draw_label(c, &c->jobs[i]);
	draw_centre(c);
	draw_title(c, title);
}

/* ---- files ------------------------------------------------------------------------------ */

struct chart_job {
	struct chart *c;
	const char *title;
};

static void draw_ring_chart(cairo_t *cr, void *ctx)
{
	struct chart_job *job = ctx;

	job->c->cr = cr;
	draw_chart(job->c, job->title);
}

int ringchart_write(const struct ring_tree *t, const char *title, const char *path, FILE *f,
		    struct ta_error *err)
{
	struct chart c = { .t = t };
	struct chart_job job = { &c, title };
	int rc = chart_render(chart_format_of_path(path), WIDTH, HEIGHT, draw_ring_chart, &job,
			      path, f, err);

	free(c.jobs);
	while (c.nowned)
		free(c.owned[--c.nowned]);
	free(c.owned);
	return rc;
}
