/*
 * pipeline.h - one run of trace_analyze: input -> parser -> accounting ->
 * reports, as DESIGN.md section 3 draws it.
 */
#ifndef TA_PIPELINE_H
#define TA_PIPELINE_H

#include "error.h"
#include "options.h"

/* Run what opts asks for; 0 on success, -1 with err filled. */
int pipeline_run(const struct options *opts, struct ta_error *err);

#endif
