/*
 * page_rows_pass.c - --page's allocations by the row --group-by asks for
 * when that is not the origin: the task (comm, pid), its cgroup, or the
 * module or directory of each stack's origin (pages.h: struct page_rows).
 * Its state is its own; no part of a DB: a run from one replays the
 * events. Not here: the origin table (pages_pass.c), the report.
 */
#include <string.h>

#include "callsite.h"
#include "engine.h"
#include "regroup.h"

static bool rows_other_than_origins(const struct analysis_request *q)
{
	enum group_by g = q->group_by;

	return (q->needs & NEED_PAGE_ACCOUNT) &&
	       (g == GROUP_COMM || g == GROUP_PID || g == GROUP_CGROUP || g == GROUP_MODULE ||
		g == GROUP_DIR);
}

static int start_page_rows(struct analysis *a, struct ta_error *err)
{
	struct page_rows *p = analysis_pass_state(a, PASS_PAGE_ROWS);

	(void)err;
	pages_init(&p->rows);
	strtab_init(&p->names);
	return 0;
}

/* The row of a page allocation: its task's, or its stack's origin's (found once a stack). */
static uint32_t row_of(struct analysis *a, struct page_rows *p, const struct kmem_event *ev)
{
	static const enum event_key by_task[] = {
		[GROUP_COMM] = KEY_COMM, [GROUP_PID] = KEY_PID, [GROUP_CGROUP] = KEY_CGROUP,
	};
	struct event_key_context ctx = { &a->syms, &a->tasks, NULL };
	enum group_by g = a->req->group_by;
	char name[CALLSITE_NAME_MAX];
	uint32_t slot;
	size_t n;

	if (g == GROUP_COMM || g == GROUP_PID || g == GROUP_CGROUP) {
		n = event_key_name(&a->strings, ev, by_task[g], &ctx, name, sizeof(name));
		return strtab_intern(&p->names, name, n);
	}
	slot = ev->stack == STACK_NONE ? 0 : ev->stack + 1;
	p->stack_row = xgrow_zeroed(p->stack_row, &p->nstack_row, slot, sizeof(*p->stack_row));
	if (!p->stack_row[slot]) {
		n = analysis_stack_row_name(a, ev->stack, name, sizeof(name));
		p->stack_row[slot] = strtab_intern(&p->names, name, n) + 1;
	}
	return p->stack_row[slot] - 1;
}

static void count_page_row(struct analysis *a, const struct kmem_event *ev)
{
	struct page_rows *p = analysis_pass_state(a, PASS_PAGE_ROWS);

	if (!kmem_is_page(ev->kind))
		return;
	pages_apply(&p->rows, ev, ev->kind == KMEM_PAGE_ALLOC ? row_of(a, p, ev) : STR_NONE);
}

static void release_page_rows(struct analysis *a)
{
	struct page_rows *p = analysis_pass_state(a, PASS_PAGE_ROWS);

	pages_release(&p->rows);
	strtab_release(&p->names);
	free(p->stack_row);
}

const struct analysis_pass page_rows_pass = {
	.name = "page-rows",
	.wanted = rows_other_than_origins,
	.state_size = sizeof(struct page_rows),
	.init = start_page_rows,
	.event = count_page_row,
	.release = release_page_rows,
};
