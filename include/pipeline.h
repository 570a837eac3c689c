/*
 * pipeline.h - one run of trace_analyze: input -> parser -> accounting ->
 * reports, as DESIGN.md section 3 draws it: the engine (engine.h) given
 * the request the options make, then every report of the report table
 * (reports.h) the options ask for.
 */
#ifndef TA_PIPELINE_H
#define TA_PIPELINE_H

#include "error.h"
#include "options.h"

struct analysis;

/* What a report is written from: the analysis, and the options that say how. */
struct report_run {
	const struct analysis *a;
	const struct options *o;
	const struct out_tags *tags;	/* --tag, the input's own values in (or NULL) */
};

/* Run what opts asks for; 0 on success, -1 with err filled. */
int pipeline_run(const struct options *opts, struct ta_error *err);

/* The needs (request.h) of the reports opts asks for, and of its other outputs. */
unsigned pipeline_needs(const struct options *opts);

/* record with no report asked: the top callers and the slab bytes, on standard output. */
int report_record_brief(const struct report_run *run, struct ta_error *err);

#endif
