/*
 * pprof.h - the allocations as a heap profile in pprof's format (a
 * gzipped profile.proto), for go tool pprof, speedscope and Pyroscope.
 *
 * Four values a sample, as a Go heap profile has them: alloc_objects and
 * alloc_space (every allocation of the log), inuse_objects and inuse_space
 * (those still held at its end). One sample per call chain (origin key):
 * its frames, root last, as the folded stacks name them; an allocation
 * without a stack is a sample of its call site's function alone. With a
 * kernel tree, a function defined in exactly one object has that object as
 * its file and mapping. Each sample is labelled with its module (the
 * origin frame's, or the call site's; "vmlinux" for built-in code) and
 * --tag's columns (host, kernel...), so that go tool pprof -proto merges
 * two hosts' profiles into one whose samples still say whose they are.
 * Encoding is libprotobuf-c's, compression zlib's.
 * Not here: what the values mean (DESIGN.md section 5), or file handling.
 */
#ifndef TA_PPROF_H
#define TA_PPROF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "account.h"
#include "callchain.h"
#include "error.h"
#include "ktree.h"
#include "origins.h"
#include "output.h"
#include "pages.h"

struct pprof_source {
	const struct account *by_key;		/* allocations by origin key */
	const struct origin_keys *keys;
	const struct callchains *chains;
	const struct kernel_tree *tree;		/* -k, or NULL */
	uint64_t duration_ns;			/* the log's span */
	/* page_owner: samples of pages (objects: base pages) by origin key instead */
	const struct page_stats *pages;
	uint64_t page_size;
	const struct symbol_table *syms;	/* a module's addresses, or NULL */
	const struct out_tags *tags;		/* --tag: every sample's labels, or NULL */
};

/* The profile, gzipped, into f. -1 with err set when it cannot be made. */
int pprof_write(FILE *f, const struct pprof_source *src, struct ta_error *err);

struct alloc_series;

/*
 * An allocinfo snapshot's sites (the last of the series) as a profile of
 * two values, inuse_objects and inuse_space: a sample per site with
 * something live, its location a line (the site's function, source file
 * and line number, so that go tool pprof -list and speedscope show the
 * source line) in the mapping of its module ("vmlinux" when built in),
 * labelled with that module and the tags.
 * keep(ctx, site): the sites kept (-b), NULL: all.
 */
int pprof_write_sites(FILE *f, const struct alloc_series *s,
		      bool (*keep)(const void *ctx, uint32_t site), const void *ctx,
		      const struct out_tags *tags, struct ta_error *err);

#endif
