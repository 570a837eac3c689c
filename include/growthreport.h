/*
 * growthreport.h - --growth: per row of any grouping (per slab cache with
 * --group-by cache), how its live bytes grew over the log, from the
 * timeline's samples (timeline_chart.h): at the start, at the end, the
 * highest sample and when, the growth, its least-squares rate and how well
 * a line fits (r squared), and the eighth of the log in which it grew most.
 * One document of output.h; never the log.
 */
#ifndef TA_GROWTHREPORT_H
#define TA_GROWTHREPORT_H

#include <stddef.h>

#include "output.h"
#include "timeline_chart.h"

/* The log's samples are cut into this many windows for "where it grew most". */
#define GROWTH_WINDOWS 8

void write_growth(struct out_dest *o, const struct timeline_rows *rows, const char *group_by,
		  size_t top);

#endif
