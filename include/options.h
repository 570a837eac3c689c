/*
 * options.h - everything the bare command's line says, in one struct: the
 * engine's request (request.h), the reports asked for (by the report
 * table's ids, reports.h) and how they are written. Filled by the
 * commands, read by the report pipeline; the engine never sees it.
 */
#ifndef TA_OPTIONS_H
#define TA_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"	/* enum out_format */
#include "reports.h"	/* enum report_id */
#include "request.h"

/* What a folded stack or a flame graph box weighs (--weight). */
enum stack_weight {
	WEIGHT_BYTES,		/* bytes_alloc of the allocations */
	WEIGHT_LIVE,		/* bytes still held at the end (current_dynamic) */
	WEIGHT_WASTE,		/* current_dynamic - current_req, as the account's waste */
	WEIGHT_COUNT,		/* allocations */
};

struct options {
	struct analysis_request req;	/* what the engine computes, from what */
	const char *report_path[REPORT_COUNT];	/* each report asked for: its file, '-' */
	const char *save_index;		/* --save-index */
	enum stack_weight weight;	/* --weight */
	uint64_t page_size;		/* --page-size, bytes (default 4096) */
	enum out_format format;		/* --format */
	int rings_attr;			/* -a: enum size_attr, -1 = the default */
	bool rings_show;		/* -i */
	uint64_t min_age_ns;		/* --min-age */
	size_t top;			/* --top: 0 = every row */
	bool log_is_argument;		/* the log was given without -f (allocinfo series too) */
	char cgroup_map_beside[2][4096];	/* LOG.snapshot-end/pids, -start/pids by default */
	char ksnap_beside[2][4096];	/* --ledger of a log: LOG.snapshot-start, -end */
	bool record_brief;		/* record with no report asked: the top callers and
					   the slab bytes on standard output */
	struct out_tags tags;		/* --tag: the columns, their values when given */
	uint64_t min_bytes;		/* --min-bytes: --openmetrics' smaller series go to other */
	bool tag_from_input[OUT_TAGS_MAX];	/* --tag host: the input's own host (pipeline.c) */
};

/* Was any report, or a DB or an index, asked for? (The run's summary aside.) */
bool options_ask_for_an_output(const struct options *o);

#endif
