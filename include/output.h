/*
 * output.h - a report as a document of blocks (lists of named values, and
 * tables), written as aligned text, CSV or JSON (--format).
 *
 * A report module fills a struct out_doc with what it has to say; this
 * module alone knows how each format looks: column alignment for text,
 * RFC 4180 quoting for CSV, escaping and a "schema_version" for JSON. So
 * every table of every report can be had in every format, carrying the
 * same numbers. Not here: what any report contains, or any sorting.
 *
 * Formats:
 *   text  blocks in order; a list as "label:  value" lines, a table as a
 *         heading line, a rule and aligned rows; blocks separated by a blank
 *         line, each table under its title when it has one.
 *   csv   one table a file (out_emit): the document's main table in the
 *         report's file (out_doc.main: its first table unless it names one,
 *         "" for its lists), every other table in FILE.<block>.csv beside
 *         it, its lists as one table "block,key,value" (FILE.<list>.csv,
 *         "values" for several), but for the lists of totals ("totals",
 *         "<table>_totals"), always FILE.totals.csv. Tables have a header row of column keys,
 *         "group_by,key,..." for a keyed one. (out_write puts every block
 *         in one stream, each under a "# <key>" line.)
 *   json  one object: {"schema_version": N, "report": "...", <block key>:
 *         {...} for a list, [ {...}, ... ] for a table }.
 */
#ifndef TA_OUTPUT_H
#define TA_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "strtab.h"

#define OUTPUT_SCHEMA_VERSION 2


/* --format: how every report is written. */
enum out_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_NDJSON };

/* "text", "csv", "json", "ndjson", NULL: by enum out_format. */
extern const char *const out_format_names[];

enum out_kind {
	OUT_NONE,	/* no value: empty in text/CSV, null in JSON */
	OUT_STR,
	OUT_U64,
	OUT_I64,
	OUT_PCT,	/* a percentage, two decimals */
	OUT_F64,	/* a real number, six decimals (seconds) */
	OUT_BOOL,
	OUT_LINES,	/* several strings (frames): text lines under the row, ';'-joined
			   in CSV, an array in JSON */
	OUT_REAL,	/* a real number, two decimals (scaled figures) */
	OUT_F64_NS,	/* a real number, nine decimals (seconds to the ns) */
};

struct out_value {
	enum out_kind kind;
	bool plus;	/* a change: "+12" in text and CSV when positive */
	union {
		uint64_t u;
		int64_t i;
		double d;
		uint32_t s;	/* id in the document's string table */
		bool b;
	};
};

struct out_column {
	const char *key;	/* CSV header and JSON member name */
	const char *heading;	/* text heading; NULL = key */
	enum out_kind kind;
	bool left;		/* text: left-aligned (default: strings left, numbers right) */
};

enum out_block_type { BLOCK_LIST, BLOCK_TABLE };

struct out_block {
	enum out_block_type type;
	const char *key;	/* JSON member / CSV block name */
	const char *title;	/* text: a heading line, or NULL */
	/* BLOCK_LIST: labels and values, one per item */
	const char **labels;	/* text labels */
	const char **keys;	/* JSON/CSV keys */
	/* BLOCK_TABLE: columns; values row-major */
	const struct out_column *columns;
	size_t ncolumns;
	bool keyed;		/* the first column is what a row is for (a call site,
				   a cache...): CSV names it "key", after a "group_by"
				   column of group_by, else the report's grouping
				   (out_dest.group_by), else the column's key */
	const char *group_by;
	size_t key_column;	/* keyed: the column CSV writes first as "key" (0: the first) */
	size_t cut_column;	/* text: with cut_max, a list "a, b, c" in this column */
	size_t cut_max;		/* longer than cut_max is cut after the items that
				   fit (at least one), then ", ..."; 0: never cut.
				   JSON and CSV keep the whole list */
	struct out_value *values;
	size_t nvalues, cap;	/* a list holds one value per item */
};

struct out_doc {
	const char *report;	/* "summary", "stats", "account", ... */
	const char *main;	/* CSV: the table in the report's own file; NULL: the
				   first table, or the lists when it has none */
	struct out_block *blocks;
	size_t nblocks, cap;
	struct strtab strings;	/* the text of OUT_STR values */
	void **kept;		/* memory the document owns: freed with it */
	size_t nkept;
};

void out_doc_init(struct out_doc *d, const char *report);
void out_doc_release(struct out_doc *d);

/* The document owns p (from malloc) from now on: columns or titles made on the fly. */
void out_doc_keep(struct out_doc *d, void *p);

/* A list of named values: add items with out_item_*. */
struct out_block *out_list(struct out_doc *d, const char *key, const char *title);
void out_item_u64(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  uint64_t v);
void out_item_i64(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  int64_t v);
void out_item_pct(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  double v);
void out_item_f64(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  double v);
void out_item_str(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		  const char *v);
void out_item_real(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		   double v);
void out_item_bool(struct out_doc *d, struct out_block *b, const char *key, const char *label,
		   bool v);

/* A table with the given columns (which must outlive the document). */
struct out_block *out_table(struct out_doc *d, const char *key, const char *title,
			    const struct out_column *columns, size_t ncolumns);
/* Append one row's values, in column order; kinds must match the columns. */
void out_row_u64(struct out_doc *d, struct out_block *t, uint64_t v);
void out_row_i64(struct out_doc *d, struct out_block *t, int64_t v);
void out_row_pct(struct out_doc *d, struct out_block *t, double v);
void out_row_f64(struct out_doc *d, struct out_block *t, double v);
void out_row_f64_ns(struct out_doc *d, struct out_block *t, double v);
void out_row_str(struct out_doc *d, struct out_block *t, const char *v);
void out_row_bool(struct out_doc *d, struct out_block *t, bool v);
void out_row_none(struct out_doc *d, struct out_block *t);
/* Changes: positive values get a '+' in text and CSV (OUT_I64, OUT_PCT, OUT_REAL). */
void out_row_i64_change(struct out_doc *d, struct out_block *t, int64_t v);
void out_row_pct_change(struct out_doc *d, struct out_block *t, double v);
void out_row_real(struct out_doc *d, struct out_block *t, double v);
void out_row_real_change(struct out_doc *d, struct out_block *t, double v);
/* OUT_LINES: the strings joined by '\n' */
void out_row_lines(struct out_doc *d, struct out_block *t, const char *lines);

static inline size_t out_rows(const struct out_block *t)
{
	return t->ncolumns ? t->nvalues / t->ncolumns : 0;
}

void out_write(FILE *f, const struct out_doc *d, enum out_format format);

/*
 * Where a report goes: the stream of its file, the name the file has (for
 * CSV's other tables, written beside it; NULL or "-" for a stream with no
 * name: they are then left out, with a note), the format. rc turns -1 when
 * a side file cannot be written, err saying why.
 */
/*
 * --tag: columns every row of a CSV or NDJSON report carries (and a JSON
 * document's "tags"), so that many hosts' files are one table: host,
 * kernel, boot_id, time, in that order, those set.
 */
#define OUT_TAGS_MAX 4
struct out_tags {
	size_t n;
	const char *key[OUT_TAGS_MAX];
	char value[OUT_TAGS_MAX][256];
};

struct out_dest {
	FILE *f;
	const char *path;
	enum out_format format;
	bool quiet;		/* no note on stderr of the side files */
	const char *group_by;	/* what the report's rows are (--group-by), or NULL */
	const struct out_tags *tags;	/* --tag, or NULL */
	int rc;
	struct ta_error *err;
};

void out_dest_init(struct out_dest *o, FILE *f, const char *path, enum out_format format,
		   bool quiet, struct ta_error *err);

/* d into o: text and JSON whole; CSV a table a file. */
void out_emit(struct out_dest *o, const struct out_doc *d);

/* FILE.csv's side file for a block: FILE.<block>.csv (FILE<.block>.csv without ".csv"). */
char *out_side_path(const char *path, const char *block);

/* s as XML/HTML text or attribute value: & < > " escaped. */
void out_xml_text(FILE *f, const char *s);

/* s as a JSON string, quoted and escaped (bytes past ASCII as \u00XX). */
void out_json_string(FILE *f, const char *s);

#endif
