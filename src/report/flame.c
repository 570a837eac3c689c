/*
 * flame.c - folded stacks merged into a tree of frames, laid out once,
 * then drawn by cairo (PNG, PDF) or written as SVG.
 */
#include <cairo.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "chartfile.h"
#include "flame.h"
#include "utf8.h"
#include "output.h"

#define FONT_SIZE 12.0
#define CHAR_WIDTH (FONT_SIZE * 0.59)	/* flamegraph.pl's estimate, for SVG and cairo alike */
#define PAD 10.0
#define TOP 56.0			/* title and subtitle */
#define BOTTOM 28.0			/* the footer */
#define MIN_BOX 0.1			/* narrower boxes (px) are not drawn */
#define NO_NODE UINT32_MAX
#define FLAME_MAX_DEPTH 1800		/* keeps a picture under cairo's 32767 px */

struct fnode {
	uint32_t name;			/* id in the graph's names */
	uint32_t parent, first_child, last_child, next;
	uint32_t depth;
	uint64_t weight;
	double x;			/* in weight units, from the left */
};

struct graph {
	struct fnode *nodes;
	uint32_t count, cap;
	uint32_t max_depth;
	struct strtab names;
	double scale;			/* px per weight unit */
	double height;
};

static uint32_t new_node(struct graph *g, uint32_t parent, const char *name, size_t len)
{
	struct fnode *n;

	if (g->count == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 256;
		g->nodes = xrealloc(g->nodes, g->cap * sizeof(*g->nodes));
	}
	n = &g->nodes[g->count];
	memset(n, 0, sizeof(*n));
	n->name = strtab_intern(&g->names, name, len);
	n->parent = parent;
	n->first_child = n->last_child = n->next = NO_NODE;
	if (parent != NO_NODE) {
		struct fnode *p = &g->nodes[parent];

		n->depth = p->depth + 1;
		if (p->last_child != NO_NODE)
			g->nodes[p->last_child].next = g->count;
		else
			p->first_child = g->count;
		p->last_child = g->count;
		if (n->depth > g->max_depth)
			g->max_depth = n->depth;
	}
	return g->count++;
}

/*
 * Lines come sorted, so the frames a line shares with the one before are
 * the last children along its path: only those need comparing.
 */
static void add_stack(struct graph *g, const char *line, uint64_t weight)
{
	uint32_t cur = 0;
	const char *p = line;

	g->nodes[0].weight += weight;
	while (*p) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		uint32_t child = g->nodes[cur].last_child;

		if (child == NO_NODE || strtab_length(&g->names, g->nodes[child].name) != len ||
		    memcmp(strtab_get(&g->names, g->nodes[child].name), p, len) != 0)
			child = new_node(g, cur, p, len);
		g->nodes[child].weight += weight;
		cur = child;
		p += len + (semi ? 1 : 0);
	}
}

/* Nodes were made parents first: each gives its children their x in turn. */
static void lay_out(struct graph *g)
{
	uint32_t i, c;

	for (i = 0; i < g->count; i++) {
		double x = g->nodes[i].x;

		for (c = g->nodes[i].first_child; c != NO_NODE; c = g->nodes[c].next) {
			g->nodes[c].x = x;
			x += (double)g->nodes[c].weight;
		}
	}
	g->scale = g->nodes[0].weight ? (FLAME_WIDTH - 2 * PAD) / (double)g->nodes[0].weight : 0;
	if (g->max_depth > FLAME_MAX_DEPTH)
		g->max_depth = FLAME_MAX_DEPTH;	/* deeper frames are not drawn */
	g->height = TOP + (g->max_depth + 1) * FLAME_FRAME_HEIGHT + BOTTOM;
}

static void build_graph(struct graph *g, const struct folded *fo)
{
	uint32_t n, i, *ids = folded_sorted(fo, &n);

	memset(g, 0, sizeof(*g));
	strtab_init(&g->names);
	new_node(g, NO_NODE, "all", 3);
	for (i = 0; i < n; i++)
		add_stack(g, strtab_get(&fo->lines, ids[i]), fo->weight[ids[i]]);
	free(ids);
	lay_out(g);
}

static void release_graph(struct graph *g)
{
	free(g->nodes);
	strtab_release(&g->names);
}

/* ---- what each box looks like ---------------------------------------------------------- */

struct box {
	double x, y, w;
	const char *name;
	double r, g, b;
};

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void box_of(const struct graph *g, uint32_t i, struct box *b)
{
	const struct fnode *n = &g->nodes[i];
	uint32_t h;

	b->name = strtab_get(&g->names, n->name);
	b->x = PAD + n->x * g->scale;
	b->w = (double)n->weight * g->scale;
	b->y = g->height - BOTTOM - (n->depth + 1) * FLAME_FRAME_HEIGHT;
	if (strncmp(b->name, "[no_stack]", 10) == 0) {
		b->r = b->g = b->b = 0.75;
		return;
	}
	h = hash_name(b->name);	/* flamegraph.pl's "hot" palette */
	b->r = (205 + 50.0 * (h & 0xff) / 255) / 255;
	b->g = (230.0 * ((h >> 8) & 0xff) / 255) / 255;
	b->b = (55.0 * ((h >> 16) & 0xff) / 255) / 255;
}

/* The label that fits the box ("name", "nam.."), or "" for none. */
static const char *label_of(const struct box *b, char *out, size_t cap)
{
	size_t fit = b->w > 6 ? (size_t)((b->w - 6) / CHAR_WIDTH) : 0, len = strlen(b->name);

	if (fit < 3) {
		out[0] = '\0';
		return out;
	}
	if (len <= fit)
		return b->name;
	if (fit - 2 >= cap)
		fit = cap - 1;
	snprintf(out, cap, "%.*s..", (int)utf8_cut(b->name, len, fit - 2), b->name);
	return out;
}

/* "1855184 bytes (1.8 MiB)", "3027 allocations": the whole graph's weight. */
static void total_text(const struct graph *g, const char *unit, char *out, size_t cap)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)g->nodes[0].weight;
	int u = -1;

	if (strcmp(unit, "bytes") != 0 || v < 1024) {
		snprintf(out, cap, "total: %" PRIu64 " %s", g->nodes[0].weight, unit);
		return;
	}
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(out, cap, "total: %" PRIu64 " bytes (%.1f %s)", g->nodes[0].weight, v, units[u]);
}

static void share_text(const struct graph *g, uint32_t i, const char *unit, char *out,
		       size_t cap)
{
	const struct fnode *n = &g->nodes[i];

	snprintf(out, cap, "%" PRIu64 " %s, %.2f%%", n->weight, unit,
		 g->nodes[0].weight ? 100.0 * (double)n->weight / (double)g->nodes[0].weight : 0.0);
}

/* ---- SVG --------------------------------------------------------------------------------- */

static void write_svg(FILE *f, const struct graph *g, const char *title, const char *unit)
{
	char label[512], share[128];
	struct box b;
	uint32_t i;

	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"%s, Verdana, sans-serif\" "
		"font-size=\"%.0f\">\n", FLAME_WIDTH, g->height, FLAME_WIDTH, g->height, CHART_FONT,
		FONT_SIZE);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"17\">",
		FLAME_WIDTH / 2);
	out_xml_text(f, title);
	total_text(g, unit, share, sizeof(share));
	fprintf(f, "</text>\n<text x=\"%d\" y=\"44\" text-anchor=\"middle\" fill=\"#555\">",
		FLAME_WIDTH / 2);
	out_xml_text(f, share);
	fputs("; outermost frames at the bottom; hover over a box for its name and share"
	      "</text>\n", f);
	for (i = 0; i < g->count; i++) {
		box_of(g, i, &b);
		if (b.w < MIN_BOX || g->nodes[i].depth > g->max_depth)
			continue;
		share_text(g, i, unit, share, sizeof(share));
		fputs("<g><title>", f);
		out_xml_text(f, b.name);
		fputs(" (", f);
		out_xml_text(f, share);
		fprintf(f, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>", b.x, b.y, b.w,
			FLAME_FRAME_HEIGHT - 1, (int)(b.r * 255), (int)(b.g * 255), (int)(b.b * 255));
		label_of(&b, label, sizeof(label));
		if (label[0] || strlen(b.name) * CHAR_WIDTH + 6 <= b.w) {
			fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", b.x + 3, b.y + 12.5);
			out_xml_text(f, label_of(&b, label, sizeof(label)));
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
}

/* ---- cairo: PNG and PDF --------------------------------------------------------------- */

static void centred_text(cairo_t *cr, double y, double size, const char *text)
{
	cairo_text_extents_t e;

	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, text, &e);
	cairo_move_to(cr, (FLAME_WIDTH - e.width) / 2 - e.x_bearing, y);
	cairo_show_text(cr, text);
}

static void draw(cairo_t *cr, const struct graph *g, const char *title, const char *unit)
{
	char label[512], share[128], line[256];
	struct box b;
	uint32_t i;

	cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
	cairo_paint(cr);
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0, 0, 0);
	centred_text(cr, 24, 17, title);
	total_text(g, unit, share, sizeof(share));
	snprintf(line, sizeof(line), "%s; outermost frames at the bottom", share);
	cairo_set_source_rgb(cr, 0.33, 0.33, 0.33);
	centred_text(cr, 44, FONT_SIZE, line);
	cairo_set_font_size(cr, FONT_SIZE);
	for (i = 0; i < g->count; i++) {
		box_of(g, i, &b);
		if (b.w < MIN_BOX || g->nodes[i].depth > g->max_depth)
			continue;
		cairo_rectangle(cr, b.x, b.y, b.w, FLAME_FRAME_HEIGHT - 1);
		cairo_set_source_rgb(cr, b.r, b.g, b.b);
		cairo_fill(cr);
		label_of(&b, label, sizeof(label));
		if (!label[0] && strlen(b.name) * CHAR_WIDTH + 6 > b.w)
			continue;
		cairo_save(cr);
		cairo_rectangle(cr, b.x, b.y, b.w, FLAME_FRAME_HEIGHT - 1);
		cairo_clip(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_move_to(cr, b.x + 3, b.y + 12.5);
		cairo_show_text(cr, label_of(&b, label, sizeof(label)));
		cairo_restore(cr);
	}
}

struct flame_job {
	const struct graph *g;
	const char *title, *unit;
};

static void draw_flame(cairo_t *cr, void *ctx)
{
	const struct flame_job *job = ctx;

	draw(cr, job->g, job->title, job->unit);
}

int flame_write(const struct folded *fo, const char *title, const char *unit, const char *path,
		FILE *f, struct ta_error *err)
{
	enum chart_format fmt = chart_format_of_path(path);
	struct graph g;
	struct flame_job job = { &g, title, unit };
	int rc = 0;

	build_graph(&g, fo);
	if (fmt == CHART_SVG) {	/* written by hand: each box gets a <title> */
		write_svg(f, &g, title, unit);
		if (ferror(f))
			rc = error_set_errno(err, errno ? errno : EIO, "cannot write '%s'", path);
	} else {
		rc = chart_render(fmt, FLAME_WIDTH, g.height, draw_flame, &job, path, f, err);
	}
	release_graph(&g);
	return rc;
}
