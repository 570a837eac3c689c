/*
 * engine.c - one log (or DB) analysed: the kernel tree and System.map
 * loaded, the log streamed through the parser into the accounts (by call
 * site, by origin key, by slab cache), call sites placed in the tree. What
 * the bare command and diff both need; no report is written here.
 *
 * Owns the order of things and the wiring between modules; holds no
 * parsing or counting logic of its own.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "engine_local.h"

/* ---- the run ---------------------------------------------------------------------- */

void analysis_init(struct analysis *r, const struct analysis_request *opts)
{
	memset(r, 0, sizeof(*r));
	r->req = r->asked = opts;
	if (run_saves_parts(opts)) {	/* every analysis the DB keeps, whatever is reported */
		r->saving_req = *opts;
		r->saving_req.needs |= run_saving_needs();
		r->req = opts = &r->saving_req;
	}
	r->started = analysis_clock();
	trace_strings_init(&r->strings);
	account_init(&r->account, opts->families);
	tick_order_init(&r->ticks, run_pointer_is_live, run_consume_ordered, r);
	if (opts->families != FAMILY_ALL || task_filters_set(&opts->filters) ||
	    opts->has_time_start || opts->has_time_end) {	/* the account sees a part */
		ptrmap_init(&r->order_live);
		r->have_order_live = true;
	}
	symbols_init(&r->syms);
	symbols_init(&r->kallsyms);
	ktree_init(&r->ktree);
	r->input.fd = -1;
	if (task_filters_set(&opts->filters)) {
		ptrmap_init(&r->filtered_out);
		r->have_filters = true;
	}
}

void analysis_release(struct analysis *r)
{
	size_t i;

	if (r->have_snapshots)
		alloc_series_release(&r->snapshots);
	if (r->have_beside)
		alloc_series_release(&r->beside);
	if (r->have_tasks)
		task_cgroups_release(&r->tasks);
	if (r->have_kmemleak)
		kmemleak_report_release(&r->kmemleak);
	free(r->po_blocks);
	page_owner_handles_release(&r->po_handles);
	for (i = 0; i < r->po_series.nfiles; i++)
		free(r->po_series.pages[i]);
	free(r->po_series.pages);
	free(r->po_series.nstacks);
	free(r->po_series.names);
	if (r->po_series.row_of_stack)	/* named once every file was read */
		strtab_release(&r->po_series.rows);
	free(r->po_series.row_of_stack);
	for (i = 0; i < r->nksnaps; i++)
		ksnapshot_release(&r->ksnaps[i]);
	free(r->ksnaps);
	input_close(&r->input);
	tick_order_release(&r->ticks);
	if (r->have_order_live)
		ptrmap_release(&r->order_live);
	passes_release(r);
	if (r->saving)
		db_writer_abort(r->saving);
	if (r->have_db)
		db_close(&r->db);
	account_release(&r->account);
	if (r->have_filters)
		ptrmap_release(&r->filtered_out);
	symbols_release(&r->syms);
	symbols_release(&r->kallsyms);
	free(r->shown_name);
	free(r->series_name);
	free(r->modules_text);
	free(r->first_place);
	trace_strings_release(&r->strings);
	if (r->have_dirs)
		dirtree_release(&r->dirs);
	ktree_release(&r->ktree);
	free(r->site_place);
	free(r->key_place);
	free(r->kernel_part);
	free(r->map_path);
}

int analysis_read(struct analysis *a, struct ta_error *err)
{
	const struct analysis_request *opts = a->req;

	if (run_read_task_cgroups(a, err) < 0 || passes_start(a, err) < 0)
		return -1;
	if ((opts->db_path ? run_read_db(a, err) : run_read_log(a, err)) < 0)
		return -1;
	if (run_check_peak_at(a, err) < 0)
		return -1;
	if (opts->allocinfo_path && run_read_beside(a, err) < 0)
		return -1;
	if (opts->nksnap_beside && run_read_snapshots_beside(a, err) < 0)
		return -1;
	if (opts->kmemleak_path && run_read_kmemleak_beside(a, err) < 0)
		return -1;
	if (opts->page_owner_path && run_read_page_owner_beside(a, err) < 0)
		return -1;
	tick_order_flush(&a->ticks);
	passes_finish(a);
	if (a->facts.input.interrupted)
		warn("reading '%s' was interrupted: the reports cover the %llu bytes read",
		     a->facts.log_name, (unsigned long long)a->facts.input.bytes_read);
	if (a->facts.input.truncated_last_line)
		warn("the last line of '%s' has no newline (truncated log?): skipped",
		     a->facts.log_name);
	run_warn_about_unresolved_addresses(a);
	run_say_how_cgroups_were_found(a);
	run_warn_about_an_empty_window(a);
	if (a->unnamed_cache_allocs && !opts->quiet)
		fprintf(stderr, "trace_analyze: note: %llu kmem_cache_alloc event%s name no cache "
			"(6.1 prints no name= there; 6.18 does): %s by object size, "
			"\"(unnamed, N bytes)\"\n", (unsigned long long)a->unnamed_cache_allocs,
			plural(a->unnamed_cache_allocs),
			a->unnamed_cache_allocs == 1 ? "it is shown" : "they are shown");
	if (run_check_kernel_match(a, err) < 0)
		return -1;
	if (a->have_dirs && !a->have_snapshots)	/* a snapshot's sites are placed as read */
		analysis_place_call_sites(a);
	return 0;
}

int analysis_check_db_parts(const char *db_path, struct ta_error *err)
{
	struct analysis_request q;
	struct analysis a;
	char why[160];
	int rc;

	memset(&q, 0, sizeof(q));
	q.db_path = db_path;
	q.families = FAMILY_ALL;
	q.group_by = GROUP_CALLSITE;
	q.needs = run_saving_needs();	/* every pass that keeps a part, as the saving run */
	q.quiet = true;
	analysis_init(&a, &q);
	rc = db_open(&a.db, db_path, &a.strings, err);
	if (rc == 0) {
		a.have_db = true;
		rc = passes_start(&a, err);
	}
	if (rc == 0 && passes_take_parts(&a, &a.db, why, sizeof(why), err) < 0)
		rc = -1;
	analysis_release(&a);
	return rc;
}

const char *analysis_log_name(const struct analysis *a)
{
	if (a->series_name)
		return a->series_name;
	if (!a->facts.log_name)
		return NULL;
	if (strcmp(a->facts.log_name, "standard input") == 0)
		return "standard input";
	return run_base_name(a->facts.log_name);
}
