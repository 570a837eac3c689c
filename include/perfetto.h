/*
 * perfetto.h - the kernel heap over time as a Perfetto trace (--perfetto),
 * TrackEvent protobuf that the Perfetto UI opens beside the rest of the
 * trace: under one track of its own, counter tracks in bytes (live slab
 * bytes, pages held, the top rows' live bytes and "other", sharing one
 * y axis) and in bytes per second (allocated, freed), and a track of
 * marks: double frees, frees of untraced allocations per window, the
 * windows of lost events (slices), the peak, the leak suspects at their
 * oldest held object. Timestamps are the log's own, in nanoseconds, on
 * one packet sequence; every track is described before its first value.
 *
 * Not here: sampling (heapsamples.h), choosing what is a finding.
 */
#ifndef TA_PERFETTO_H
#define TA_PERFETTO_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "findings.h"
#include "heapsamples.h"
#include "peak.h"
#include "losses.h"
#include "rows.h"
#include "suspects.h"

#define PERFETTO_SEQUENCE 1		/* the trusted_packet_sequence_id of every packet */
#define PERFETTO_DEFAULT_ROWS 8		/* row tracks without --top */

struct perfetto_source {
	const char *log_name;
	const char *rows_noun;			/* "call site", "slab cache", ... */
	const struct heap_samples *heap;
	const struct row_namer *namer;		/* the rows' names, by the sampler's row id */
	const struct row_filter *kept;		/* -b, or NULL */
	size_t top;				/* row tracks; the rest is "other" */
	const struct findings *findings;	/* or NULL */
	const struct loss_windows *losses;	/* or NULL */
	uint64_t peak_ns, peak_bytes;		/* the peak of live slab bytes (peak.h) */
	const struct peak_watch *watch;		/* the rows' exact peaks, or NULL */
	const struct suspect_mark *suspects;
	size_t nsuspects;
};

/* The trace, into f. -1 with err set when the log gives nothing to place in time. */
int perfetto_write(FILE *f, const struct perfetto_source *src, struct ta_error *err);

#endif
