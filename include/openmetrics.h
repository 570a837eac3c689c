/*
 * openmetrics.h - metric families in the OpenMetrics text format (and the
 * Prometheus text format node_exporter's textfile collector reads, which
 * takes # UNIT and # EOF for comments): names with their unit
 * ("..._bytes", "..._allocations"), # HELP, # TYPE, # UNIT, # EOF; label
 * values escaped (backslash, quote, newline; a byte that is no UTF-8 as
 * the text \xNN); rows of one label set summed, never two series alike;
 * at most top series a family by value, the rest summed into one whose
 * first label is "other", as are those below min_value.
 * Not here: where the rows come from (reports.c), the file (outfile.h).
 */
#ifndef TA_OPENMETRICS_H
#define TA_OPENMETRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"
#include "strtab.h"

#define OM_LABELS_MAX 6

/* A family being gathered: its rows by label set, summed. */
struct om_family {
	const char *name;		/* "trace_analyze_allocinfo_bytes" */
	const char *help;
	const char *unit;		/* "bytes", "allocations": the name's last word */
	const char *labels[OM_LABELS_MAX];	/* the rows' label names */
	size_t nlabels;
	struct strtab sets;		/* label values joined by \x1f: the row's id */
	int64_t *values;		/* by row id (the ledger's unexplained may be below zero) */
	uint32_t cap;
};

/* The limits every family is written under: --top, --min-bytes. */
struct om_limits {
	size_t top;			/* 0: every series */
	int64_t min_value;		/* series below it go to "other" (0: none) */
};

void om_family_init(struct om_family *f, const char *name, const char *unit, const char *help,
		    const char *const *labels, size_t nlabels);
void om_family_release(struct om_family *f);

/* Add value to the row of these label values (nlabels of them), summed with its equals. */
void om_family_add(struct om_family *f, const char *const *values, int64_t value);

/*
 * The family into out: its # HELP, # TYPE gauge and # UNIT lines, then its
 * series, most first, each with the source labels (host, kernel, boot_id:
 * tags, or NULL) after its own. Nothing but the comments when it is empty.
 */
void om_family_write(FILE *out, const struct om_family *f, const struct out_tags *tags,
		     const struct om_limits *lim);

/* The end of the exposition: "# EOF". */
void om_write_eof(FILE *out);

/* A label value as the format escapes it, into out (a byte that is no UTF-8 as \xNN). */
void om_write_label_value(FILE *out, const char *s);

#endif
