/*
 * output.c - documents of lists and tables, and their four renderings.
 * Each value is formatted once by format_value(); text, CSV, JSON and
 * JSON Lines differ only in how they lay the formatted values out and
 * quote them.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "error.h"
#include "numfmt.h"
#include "output.h"
#include "utf8.h"
#include "outfile.h"

const char *const out_format_names[] = {
	[FORMAT_TEXT] = "text", [FORMAT_CSV] = "csv", [FORMAT_JSON] = "json",
	[FORMAT_NDJSON] = "ndjson", NULL,
};

void out_doc_init(struct out_doc *d, const char *report)
{
	memset(d, 0, sizeof(*d));
	d->report = report;
	strtab_init(&d->strings);
}

void out_doc_release(struct out_doc *d)
{
	size_t i;

	for (i = 0; i < d->nblocks; i++) {
		free(d->blocks[i].values);
		free(d->blocks[i].labels);
		free(d->blocks[i].keys);
	}
	free(d->blocks);
	for (i = 0; i < d->nkept; i++)
		free(d->kept[i]);
	free(d->kept);
	strtab_release(&d->strings);
	memset(d, 0, sizeof(*d));
}

void out_doc_keep(struct out_doc *d, void *p)
{
	d->kept = xrealloc(d->kept, (d->nkept + 1) * sizeof(*d->kept));
	d->kept[d->nkept++] = p;
}

/* ---- building -------------------------------------------------------------- */

static struct out_block *new_block(struct out_doc *d, enum out_block_type type, const char *key,
				   const char *title)
{
	struct out_block *b;

	if (d->nblocks == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 8;
		d->blocks = xrealloc(d->blocks, d->cap * sizeof(*d->blocks));
	}
	b = &d->blocks[d->nblocks++];
	memset(b, 0, sizeof(*b));
	b->type = type;
	b->key = key;
	b->title = title;
	return b;
}

struct out_block *out_list(struct out_doc *d, const char *key, const char *title)
{
	return new_block(d, BLOCK_LIST, key, title);
}

struct out_block *out_table(struct out_doc *d, const char *key, const char *title,
			    const struct out_column *columns, size_t ncolumns)
{
	struct out_block *b = new_block(d, BLOCK_TABLE, key, title);

	b->columns = columns;
	b->ncolumns = ncolumns;
	return b;
}

static struct out_value *append_value(struct out_block *b, enum out_kind kind)
{
	struct out_value *v;

	if (b->nvalues == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->values = xrealloc(b->values, b->cap * sizeof(*b->values));
		if (b->type == BLOCK_LIST) {
			b->labels = xrealloc(b->labels, b->cap * sizeof(*b->labels));
			b->keys = xrealloc(b->keys, b->cap * sizeof(*b->keys));
		}
	}
	if (b->type == BLOCK_TABLE) {
		enum out_kind want = b->columns[b->nvalues % b->ncolumns].kind;

		if (kind != want && kind != OUT_NONE) {
			fprintf(stderr, "trace_analyze: internal error: column '%s' of '%s' "
				"is not of the kind given\n", b->columns[b->nvalues % b->ncolumns].key,
				b->key);
			abort();
		}
	}
	v = &b->values[b->nvalues++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	return v;
}

static struct out_value *append_item(struct out_block *b, enum out_kind kind, const char *key,
				     const char *label)
{
	struct out_value *v = append_value(b, kind);

	b->keys[b->nvalues - 1] = key;
	b->labels[b->nvalues - 1] = label;
	return v;
}

void out_item_u64(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  uint64_t v)
{
	(void)d;
	append_item(b, OUT_U64, key, label)->u = v;
}

void out_item_i64(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  int64_t v)
{
	(void)d;
	append_item(b, OUT_I64, key, label)->i = v;
}

void out_item_pct(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  double v)
{
	(void)d;
	append_item(b, OUT_PCT, key, label)->d = v;
}

void out_item_f64(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  double v)
{
	(void)d;
	append_item(b, OUT_F64, key, label)->d = v;
}

void out_item_str(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  const char *v)
{
	append_item(b, OUT_STR, key, label)->s = strtab_intern(&d->strings, v, strlen(v));
}

void out_item_real(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		   double v)
{
	(void)d;
	append_item(b, OUT_REAL, key, label)->d = v;
}

void out_item_bool(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		   bool v)
{
	(void)d;
	append_item(b, OUT_BOOL, key, label)->b = v;
}

void out_row_u64(struct out_doc *d, struct out_block *t, uint64_t v)
{
	(void)d;
	append_value(t, OUT_U64)->u = v;
}

void out_row_i64(struct out_doc *d, struct out_block *t, int64_t v)
{
	(void)d;
	append_value(t, OUT_I64)->i = v;
}

void out_row_pct(struct out_doc *d, struct out_block *t, double v)
{
	(void)d;
	append_value(t, OUT_PCT)->d = v;
}

void out_row_f64(struct out_doc *d, struct out_block *t, double v)
{
	(void)d;
	append_value(t, OUT_F64)->d = v;
}

void out_row_f64_ns(struct out_doc *d, struct out_block *t, double v)
{
	(void)d;
	append_value(t, OUT_F64_NS)->d = v;
}

void out_row_str(struct out_doc *d, struct out_block *t, const char *v)
{
	append_value(t, OUT_STR)->s = strtab_intern(&d->strings, v, strlen(v));
}

void out_row_bool(struct out_doc *d, struct out_block *t, bool v)
{
	(void)d;
	append_value(t, OUT_BOOL)->b = v;
}

void out_row_i64_change(struct out_doc *d, struct out_block *t, int64_t v)
{
	struct out_value *x = append_value(t, OUT_I64);

	(void)d;
	x->i = v;
	x->plus = true;
}

void out_row_pct_change(struct out_doc *d, struct out_block *t, double v)
{
	struct out_value *x = append_value(t, OUT_PCT);

	(void)d;
	x->d = v;
	x->plus = true;
}

void out_row_real(struct out_doc *d, struct out_block *t, double v)
{
	(void)d;
	append_value(t, OUT_REAL)->d = v;
}

void out_row_real_change(struct out_doc *d, struct out_block *t, double v)
{
	struct out_value *x = append_value(t, OUT_REAL);

	(void)d;
	x->d = v;
	x->plus = true;
}

void out_row_lines(struct out_doc *d, struct out_block *t, const char *lines)
{
	append_value(t, OUT_LINES)->s = strtab_intern(&d->strings, lines, strlen(lines));
}

void out_row_none(struct out_doc *d, struct out_block *t)
{
	(void)d;
	append_value(t, OUT_NONE);
}

/* ---- formatting one value ---------------------------------------------------- */

#define VALUE_MAX 64

/* sign, v as "%.<prec>f", suffix: what snprintf of them into buf would write, faster. */
static const char *fixed_value(char buf[VALUE_MAX], const char *sign, double v, int prec,
			       const char *suffix)
{
	char num[NUMFMT_MAX];
	size_t n = fmt_fixed(num, sizeof(num), v, prec);

	/* cut at VALUE_MAX, as snprintf of the number itself was */
	snprintf(buf, VALUE_MAX, "%s%.*s%s", sign, (int)(n < VALUE_MAX ? n : VALUE_MAX), num,
		 suffix);
	return buf;
}

/*
 * The value as text; strings are returned in place (not copied). The
 * percent sign is added only for text: CSV and JSON carry the number.
 */
static const char *format_value(const struct out_doc *d, const struct out_value *v,
				enum out_format format, char buf[VALUE_MAX])
{
	enum out_kind kind = v->kind;

	const char *plus = v->plus && format != FORMAT_JSON ? "+" : "";

	if ((kind == OUT_PCT || kind == OUT_F64 || kind == OUT_F64_NS || kind == OUT_REAL) && !isfinite(v->d))
		kind = OUT_NONE;	/* NaN: no value (0 of 0 is no percentage); no infinity */
	switch (kind) {
	case OUT_STR:
	case OUT_LINES:
		return strtab_get(&d->strings, v->s);
	case OUT_U64:
		snprintf(buf, VALUE_MAX, "%" PRIu64, v->u);
		return buf;
	case OUT_I64:
		snprintf(buf, VALUE_MAX, "%s%" PRId64, v->i > 0 ? plus : "", v->i);
		return buf;
	case OUT_PCT:
		return fixed_value(buf, v->d > 0 ? plus : "", v->d, 2,
				   format == FORMAT_TEXT ? "%" : "");
	case OUT_REAL:
		return fixed_value(buf, v->d > 0 ? plus : "", v->d, 2, "");
	case OUT_F64:
		return fixed_value(buf, "", v->d, 6, "");
	case OUT_F64_NS:
		return fixed_value(buf, "", v->d, 9, "");
	case OUT_BOOL:
		return v->b ? "true" : "false";
	case OUT_NONE:
	default:
		return format == FORMAT_JSON ? "null" : (format == FORMAT_TEXT ? "-" : "");
	}
}

/* ---- text ------------------------------------------------------------------------ */

static const char *heading_of(const struct out_column *c)
{
	return c->heading ? c->heading : c->key;
}

static bool column_is_left(const struct out_column *c)
{
	return c->left || c->kind == OUT_STR;
}

static void write_text_list(FILE *f, const struct out_doc *d, const struct out_block *b)
{
	char buf[VALUE_MAX];
	size_t i, label_w = 0, value_w = 0;

	for (i = 0; i < b->nvalues; i++) {
		size_t l = strlen(b->labels[i]) + 1, w = strlen(format_value(d, &b->values[i],
									     FORMAT_TEXT, buf));

		label_w = l > label_w ? l : label_w;
		if (b->values[i].kind != OUT_STR)
			value_w = w > value_w ? w : value_w;
	}
	for (i = 0; i < b->nvalues; i++) {
		const char *v = format_value(d, &b->values[i], FORMAT_TEXT, buf);

		fprintf(f, "%s:%*s", b->labels[i], (int)(label_w - 1 - strlen(b->labels[i])), "");
		if (b->values[i].kind == OUT_STR)
			fprintf(f, " %s\n", v);
		else
			fprintf(f, " %*s\n", (int)value_w, v);
	}
}

/*
 * A cell's text: a comma-separated list longer than the block's cut_max
 * (in its cut_column) cut after the last item that fits, or after the
 * first if none does, then ", ..." (JSON and CSV keep the whole list).
 */
static const char *text_of_cell(const struct out_doc *d, const struct out_block *t, size_t c,
				const struct out_value *v, char *buf)
{
	const char *s = format_value(d, v, FORMAT_TEXT, buf), *comma;
	size_t max = t->cut_max < VALUE_MAX - 1 ? t->cut_max : VALUE_MAX - 1, cut;

	if (!max || c != t->cut_column || strlen(s) <= max)
		return s;
	for (cut = max > 5 ? max - 5 : 0; cut > 0; cut--)
		if (s[cut] == ',' && s[cut + 1] == ' ')
			break;
	if (cut == 0) {	/* the first item alone is longer */
		comma = strstr(s, ", ");
		if (!comma || (size_t)(comma - s) > VALUE_MAX - 7)
			return s;
		cut = (size_t)(comma - s);
	}
	if (s != buf)
		memmove(buf, s, cut);
	memcpy(buf + cut, ", ...", 6);
	return buf;
}

/* One cell padded to its column; the last column's left-aligned text is not padded. */
static void write_cell(FILE *f, const char *text, size_t width, bool left, bool first, bool last)
{
	if (!first)
		fputs("  ", f);
	if (left && last)
		fputs(text, f);
	else
		fprintf(f, left ? "%-*s" : "%*s", (int)width, text);
}

/* A row's OUT_LINES cells, one line each, indented under the row. */
static void write_text_lines(FILE *f, const struct out_doc *d, const struct out_block *t,
			     size_t r)
{
	size_t c;

	for (c = 0; c < t->ncolumns; c++) {
		const struct out_value *v = &t->values[r * t->ncolumns + c];
		const char *s, *nl;

		if (v->kind != OUT_LINES)
			continue;
		for (s = strtab_get(&d->strings, v->s); *s; s = nl + 1) {
			nl = strchr(s, '\n');
			if (!nl)
				nl = s + strlen(s);
			fprintf(f, "    %.*s\n", (int)(nl - s), s);
			if (!*nl)
				break;
		}
	}
}

static void write_text_table(FILE *f, const struct out_doc *d, const struct out_block *t)
{
	size_t nrows = out_rows(t), r, c, total = 0, last = 0;
	size_t *width = xcalloc(t->ncolumns, sizeof(*width));
	char buf[VALUE_MAX];

	for (c = 0; c < t->ncolumns; c++)	/* the last column on the row's line */
		if (t->columns[c].kind != OUT_LINES)
			last = c;
	for (c = 0; c < t->ncolumns; c++)
		width[c] = strlen(heading_of(&t->columns[c]));
	for (r = 0; r < nrows; r++)
		for (c = 0; c < t->ncolumns; c++) {
			size_t w = strlen(text_of_cell(d, t, c, &t->values[r * t->ncolumns + c],
						       buf));

			width[c] = w > width[c] ? w : width[c];
		}
	for (c = 0; c < t->ncolumns; c++) {
		if (t->columns[c].kind == OUT_LINES)
			continue;
		total += width[c] + (c ? 2 : 0);
		write_cell(f, heading_of(&t->columns[c]), width[c], column_is_left(&t->columns[c]),
			   c == 0, c == last);
	}
	fputc('\n', f);
	for (c = 0; c < total; c++)
		fputc('-', f);
	fputc('\n', f);
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < t->ncolumns; c++)
			if (t->columns[c].kind != OUT_LINES)
				write_cell(f, text_of_cell(d, t, c,
							   &t->values[r * t->ncolumns + c], buf),
					   width[c], column_is_left(&t->columns[c]), c == 0, c == last);
		fputc('\n', f);
		write_text_lines(f, d, t, r);
	}
	free(width);
}

static void write_text(FILE *f, const struct out_doc *d)
{
	size_t i;

	for (i = 0; i < d->nblocks; i++) {
		const struct out_block *b = &d->blocks[i];

		if (i)
			fputc('\n', f);
		if (b->title)
			fprintf(f, "%s\n", b->title);
		if (b->type == BLOCK_LIST)
			write_text_list(f, d, b);
		else
			write_text_table(f, d, b);
	}
}

/* ---- CSV --------------------------------------------------------------------------- */

static void write_csv_field(FILE *f, const char *s);

/* OUT_LINES in CSV: the lines joined by ';', as folded stacks are */
static void write_csv_lines(FILE *f, const char *s)
{
	char *copy = xstrdup(s), *p;

	for (p = copy; *p; p++)
		if (*p == '\n')
			*p = ';';
	write_csv_field(f, copy);
	free(copy);
}

static void write_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The column a keyed table's CSV writes as "key". */
static size_t key_column(const struct out_block *b)
{
	return b->key_column < b->ncolumns ? b->key_column : 0;
}

/* Table b's columns in CSV order: the key first, then the rest as declared. */
static size_t csv_column(const struct out_block *b, size_t i)
{
	size_t k = key_column(b);

	if (!b->keyed || k == 0)
		return i;
	return i == 0 ? k : i <= k ? i - 1 : i;
}

/* A table block as CSV: a header row, then a row per record; a keyed table's key column
 * (the call site, function, cache... a row is for; its first unless it names another)
 * comes first as "key", after a "group_by" column naming what it is, so every keyed
 * CSV reads alike. */
/* What a keyed table's rows are: the table's own word, the report's grouping, or its first column's name. */
static const char *table_grouping(const struct out_block *b, const char *grouping)
{
	return b->group_by ? b->group_by : grouping ? grouping : b->columns[0].key;
}

/* ",host,kernel": the tags' names after a header, or their values after a row. */
static void write_csv_tags(FILE *f, const struct out_tags *tags, bool names)
{
	size_t i;

	for (i = 0; tags && i < tags->n; i++) {
		fputc(',', f);
		write_csv_field(f, names ? tags->key[i] : tags->value[i]);
	}
}

static void write_csv_table(FILE *f, const struct out_doc *d, const struct out_block *b,
			    const char *grouping, const struct out_tags *tags)
{
	const char *group = table_grouping(b, grouping);
	char buf[VALUE_MAX];
	size_t r, i;

	if (b->keyed)
		fputs("group_by,", f);
	for (i = 0; i < b->ncolumns; i++) {
		fputs(i ? "," : "", f);
		write_csv_field(f, i == 0 && b->keyed ? "key" : b->columns[csv_column(b, i)].key);
	}
	write_csv_tags(f, tags, true);
	fputc('\n', f);
	for (r = 0; r < out_rows(b); r++) {
		if (b->keyed) {
			write_csv_field(f, group);
			fputc(',', f);
		}
		for (i = 0; i < b->ncolumns; i++) {
			const struct out_value *v = &b->values[r * b->ncolumns + csv_column(b, i)];

			fputs(i ? "," : "", f);
			if (v->kind == OUT_LINES)
				write_csv_lines(f, strtab_get(&d->strings, v->s));
			else
				write_csv_field(f, format_value(d, v, FORMAT_CSV, buf));
		}
		write_csv_tags(f, tags, false);
		fputc('\n', f);
	}
}

/*
 * A list that holds a report's totals ("totals", or "<table>_totals" where
 * a report has several tables): CSV gives them a file of their own,
 * FILE.totals.csv.
 */
static bool is_totals(const struct out_block *b)
{
	size_t n = strlen(b->key);

	return b->type == BLOCK_LIST &&
	       (strcmp(b->key, "totals") == 0 || (n > 7 && strcmp(b->key + n - 7, "_totals") == 0));
}

/* The document's lists as one long table "block,key,value": its totals, or the others. */
static void write_csv_lists(FILE *f, const struct out_doc *d, bool totals,
			    const struct out_tags *tags)
{
	char buf[VALUE_MAX];
	size_t i, r;

	fputs("block,key,value", f);
	write_csv_tags(f, tags, true);
	fputc('\n', f);
	for (i = 0; i < d->nblocks; i++) {
		const struct out_block *b = &d->blocks[i];

		if (b->type != BLOCK_LIST || is_totals(b) != totals)
			continue;
		for (r = 0; r < b->nvalues; r++) {
			write_csv_field(f, b->key);
			fputc(',', f);
			write_csv_field(f, b->keys[r]);
			fputc(',', f);
			write_csv_field(f, format_value(d, &b->values[r], FORMAT_CSV, buf));
			write_csv_tags(f, tags, false);
			fputc('\n', f);
		}
	}
}

/* Every block, one after another, each under a "# <key>" line (out_write's CSV). */
static void write_csv(FILE *f, const struct out_doc *d)
{
	char buf[VALUE_MAX];
	size_t i, r;

	for (i = 0; i < d->nblocks; i++) {
		const struct out_block *b = &d->blocks[i];

		if (i)
			fputc('\n', f);
		fprintf(f, "# %s\n", b->key);
		if (b->type == BLOCK_TABLE) {
			write_csv_table(f, d, b, NULL, NULL);
			continue;
		}
		fputs("key,value\n", f);
		for (r = 0; r < b->nvalues; r++) {
			write_csv_field(f, b->keys[r]);
			fputc(',', f);
			write_csv_field(f, format_value(d, &b->values[r], FORMAT_CSV, buf));
			fputc('\n', f);
		}
	}
}

/* ---- JSON -------------------------------------------------------------------------- */

/*
 * Text in XML (an SVG's labels, the HTML page): the markup characters as
 * entities; a control or a byte that is no UTF-8 (neither allowed in XML)
 * as the text \xNN, as utf8_clean writes it.
 */
void out_xml_text(FILE *f, const char *s)
{
	size_t n = strlen(s), i = 0, len, k;
	const char *piece;
	char esc[5];

	while (i < n) {
		if (s[i] == '\t' || s[i] == '\n') {
			fputc(s[i++], f);
			continue;
		}
		i += utf8_next_piece(s + i, n - i, esc, &piece, &len);
		for (k = 0; k < len; k++) {
			switch (piece[k]) {
			case '&':
				fputs("&amp;", f);
				break;
			case '<':
				fputs("&lt;", f);
				break;
			case '>':
				fputs("&gt;", f);
				break;
			case '"':
				fputs("&quot;", f);
				break;
			default:
				fputc(piece[k], f);
			}
		}
	}
}

/*
 * A JSON string: controls as \u00NN, UTF-8 as it is (a name is valid UTF-8
 * from where it came in; a byte that is not shows as the text \xNN, as
 * utf8_clean writes it).
 */
void out_json_string(FILE *f, const char *s)
{
	size_t n = strlen(s), i = 0, len, k;
	const char *piece;
	char esc[5];

	fputc('"', f);
	while (i < n) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			fprintf(f, "\\u%04x", (unsigned char)s[i++]);
			continue;
		}
		i += utf8_next_piece(s + i, n - i, esc, &piece, &len);
		for (k = 0; k < len; k++) {
			if (piece[k] == '"' || piece[k] == '\\')
				fputc('\\', f);
			fputc(piece[k], f);
		}
	}
	fputc('"', f);
}

static void write_json_value(FILE *f, const struct out_doc *d, const struct out_value *v)
{
	char buf[VALUE_MAX];

	if (v->kind == OUT_STR) {
		out_json_string(f, strtab_get(&d->strings, v->s));
	} else if (v->kind == OUT_LINES) {
		char *copy = xstrdup(strtab_get(&d->strings, v->s)), *line, *save = NULL;
		bool first = true;

		fputc('[', f);
		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			fputs(first ? "" : ", ", f);
			out_json_string(f, line);
			first = false;
		}
		fputc(']', f);
		free(copy);
	} else
		fputs(format_value(d, v, FORMAT_JSON, buf), f);
}

/* ", "host": "web1"...: the tags as members of the object being written. */
static void write_json_tags(FILE *f, const struct out_tags *tags)
{
	size_t i;

	for (i = 0; tags && i < tags->n; i++) {
		fputs(", ", f);
		out_json_string(f, tags->key[i]);
		fputs(": ", f);
		out_json_string(f, tags->value[i]);
	}
}

static void write_json(FILE *f, const struct out_doc *d, const char *grouping,
		       const struct out_tags *tags)
{
	size_t i, r, c;

	fprintf(f, "{\n  \"schema_version\": %d,\n  \"report\": ", OUTPUT_SCHEMA_VERSION);
	out_json_string(f, d->report);
	if (tags && tags->n) {
		fputs(",\n  \"tags\": {", f);
		for (i = 0; i < tags->n; i++) {
			fputs(i ? ", " : "", f);
			out_json_string(f, tags->key[i]);
			fputs(": ", f);
			out_json_string(f, tags->value[i]);
		}
		fputc('}', f);
	}
	for (i = 0; i < d->nblocks; i++) {
		const struct out_block *b = &d->blocks[i];

		fputs(",\n  ", f);
		out_json_string(f, b->key);
		if (b->type == BLOCK_LIST) {
			fputs(": {", f);
			for (r = 0; r < b->nvalues; r++) {
				fputs(r ? ",\n    " : "\n    ", f);
				out_json_string(f, b->keys[r]);
				fputs(": ", f);
				write_json_value(f, d, &b->values[r]);
			}
			fputs(b->nvalues ? "\n  }" : "}", f);
			continue;
		}
		fputs(": [", f);
		for (r = 0; r < out_rows(b); r++) {
			fputs(r ? ",\n    {" : "\n    {", f);
			if (b->keyed) {
				fputs("\"group_by\": ", f);
				out_json_string(f, table_grouping(b, grouping));
				fputs(", ", f);
			}
			for (c = 0; c < b->ncolumns; c++) {
				fputs(c ? ", " : "", f);
				out_json_string(f, b->keyed && c == key_column(b) ? "key"
									    : b->columns[c].key);
				fputs(": ", f);
				write_json_value(f, d, &b->values[r * b->ncolumns + c]);
			}
			fputc('}', f);
		}
		fputs(out_rows(b) ? "\n  ]" : "]", f);
	}
	fputs("\n}\n", f);
}

/*
 * JSON Lines: an object a line, for every row of every table and for each
 * list: "report", "table", then the row's members as --format json writes
 * them ("group_by" and "key" for a keyed table's), then the tags.
 */
static void write_ndjson(FILE *f, const struct out_doc *d, const char *grouping,
			 const struct out_tags *tags)
{
	size_t i, r, c;

	for (i = 0; i < d->nblocks; i++) {
		const struct out_block *b = &d->blocks[i];
		size_t rows = b->type == BLOCK_LIST ? 1 : out_rows(b);

		for (r = 0; r < rows; r++) {
			fputs("{\"report\": ", f);
			out_json_string(f, d->report);
			fputs(", \"table\": ", f);
			out_json_string(f, b->key);
			if (b->type == BLOCK_LIST) {
				for (c = 0; c < b->nvalues; c++) {
					fputs(", ", f);
					out_json_string(f, b->keys[c]);
					fputs(": ", f);
					write_json_value(f, d, &b->values[c]);
				}
			} else {
				if (b->keyed) {
					fputs(", \"group_by\": ", f);
					out_json_string(f, table_grouping(b, grouping));
				}
				for (c = 0; c < b->ncolumns; c++) {
					fputs(", ", f);
					out_json_string(f, b->keyed && c == key_column(b) ? "key"
											: b->columns[c].key);
					fputs(": ", f);
					write_json_value(f, d, &b->values[r * b->ncolumns + c]);
				}
			}
			write_json_tags(f, tags);
			fputs("}\n", f);
		}
	}
}

/* ---- a report into its file (and CSV's other tables into theirs) ---- */

void out_dest_init(struct out_dest *o, FILE *f, const char *path, enum out_format format,
		   bool quiet, struct ta_error *err)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->path = path && strcmp(path, "-") != 0 ? path : NULL;
	o->format = format;
	o->quiet = quiet;
	o->err = err;
}

char *out_side_path(const char *path, const char *block)
{
	size_t n = strlen(path);
	bool csv = n > 4 && strcmp(path + n - 4, ".csv") == 0;
	char *side = xmalloc(n + strlen(block) + 6);

	sprintf(side, "%.*s.%s.csv", (int)(csv ? n - 4 : n), path, block);
	return side;
}

/*
 * A CSV report's parts, a table a file: its totals list (TOTALS_PART, in
 * FILE.totals.csv, as every report with totals has them), its other lists
 * as one table (LISTS_PART), and each table block. Which part is the
 * report's own file: the one the document names (out_doc.main), else its
 * first table.
 */
#define LISTS_PART ((size_t)-1)
#define TOTALS_PART ((size_t)-2)

static bool has_part(const struct out_doc *d, size_t part)
{
	size_t i;

	for (i = 0; i < d->nblocks; i++)
		if (d->blocks[i].type == BLOCK_LIST && is_totals(&d->blocks[i]) == (part == TOTALS_PART))
			return true;
	return false;
}

static size_t csv_main_part(const struct out_doc *d)
{
	size_t i;

	for (i = 0; i < d->nblocks; i++)
		if (d->blocks[i].type == BLOCK_TABLE &&
		    (d->main ? strcmp(d->blocks[i].key, d->main) == 0 : true))
			return i;
	return has_part(d, LISTS_PART) || !has_part(d, TOTALS_PART) ? LISTS_PART : TOTALS_PART;
}

/* The lists' part is named by its only list, or "values" for several. */
static const char *part_name(const struct out_doc *d, size_t part)
{
	size_t i, n = 0;
	const char *name = "values";

	if (part == TOTALS_PART)
		return "totals";
	if (part != LISTS_PART)
		return d->blocks[part].key;
	for (i = 0; i < d->nblocks; i++)
		if (d->blocks[i].type == BLOCK_LIST && !is_totals(&d->blocks[i])) {
			name = d->blocks[i].key;
			n++;
		}
	return n == 1 ? name : "values";
}

static void write_csv_part(FILE *f, const struct out_doc *d, size_t part, const char *grouping,
			   const struct out_tags *tags)
{
	if (part == LISTS_PART || part == TOTALS_PART)
		write_csv_lists(f, d, part == TOTALS_PART, tags);
	else
		write_csv_table(f, d, &d->blocks[part], grouping, tags);
}

/* One part into FILE.<part>.csv beside o->path; false once it failed. */
static bool write_csv_side_file(struct out_dest *o, const struct out_doc *d, size_t part,
				char *said, size_t cap)
{
	char *side = out_side_path(o->path, part_name(d, part));
	struct outfile out;
	size_t at = strlen(said);

	if (outfile_open(&out, side, o->err) < 0) {
		o->rc = -1;
	} else {
		write_csv_part(outfile_stream(&out), d, part, o->group_by, o->tags);
		if (outfile_commit(&out, false, o->err) < 0)
			o->rc = -1;
	}
	if (o->rc == 0 && at < cap)
		snprintf(said + at, cap - at, "%s'%s'", at ? ", " : "", side);
	free(side);
	return o->rc == 0;
}

void out_emit(struct out_dest *o, const struct out_doc *d)
{
	static const size_t list_parts[] = { TOTALS_PART, LISTS_PART };
	char said[2048] = "";
	size_t main, i, parts;

	if (o->format == FORMAT_JSON) {
		write_json(o->f, d, o->group_by, o->tags);
		return;
	}
	if (o->format == FORMAT_NDJSON) {
		write_ndjson(o->f, d, o->group_by, o->tags);
		return;
	}
	if (o->format != FORMAT_CSV || d->nblocks == 0) {
		out_write(o->f, d, o->format);
		return;
	}
	main = csv_main_part(d);
	if ((main == LISTS_PART || main == TOTALS_PART) && !has_part(d, main))
		return;
	write_csv_part(o->f, d, main, o->group_by, o->tags);
	parts = (has_part(d, LISTS_PART) ? 1 : 0) + (has_part(d, TOTALS_PART) ? 1 : 0);
	for (i = 0; i < d->nblocks; i++)
		parts += d->blocks[i].type == BLOCK_TABLE;
	if (parts < 2)
		return;
	if (!o->path) {
		if (!o->quiet)
			fprintf(stderr, "trace_analyze: --format csv writes a table a file: standard "
				"output has the %s report's %s only; name a file to have its other "
				"tables beside it\n", d->report, part_name(d, main));
		return;
	}
	for (i = 0; i < 2; i++)
		if (main != list_parts[i] && has_part(d, list_parts[i]) &&
		    !write_csv_side_file(o, d, list_parts[i], said, sizeof(said)))
			return;
	for (i = 0; i < d->nblocks; i++)
		if (i != main && d->blocks[i].type == BLOCK_TABLE &&
		    !write_csv_side_file(o, d, i, said, sizeof(said)))
			return;
	if (!o->quiet)
		fprintf(stderr, "trace_analyze: --format csv writes a table a file: '%s' holds the %s "
			"report's %s, %s the rest\n", o->path, d->report, part_name(d, main), said);
}

void out_write(FILE *f, const struct out_doc *d, enum out_format format)
{
	switch (format) {
	case FORMAT_CSV:
		write_csv(f, d);
		break;
	case FORMAT_JSON:
		write_json(f, d, NULL, NULL);
		break;
	case FORMAT_NDJSON:
		write_ndjson(f, d, NULL, NULL);
		break;
	case FORMAT_TEXT:
	default:
		write_text(f, d);
		break;
	}
}
