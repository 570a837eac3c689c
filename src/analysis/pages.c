/*
 * pages.c - page-allocator statistics (what is counted how: pages.h).
 */
#include <string.h>

#include "error.h"
#include "pages.h"
#include "callsite.h"

void pages_init(struct page_stats *p)
{
	memset(p, 0, sizeof(*p));
	pagemap_init(&p->live);
}

void pages_release(struct page_stats *p)
{
	pagemap_release(&p->live);
	free(p->by_key);
	free(p->by_gfp);
	free(p->cpus);
	memset(p, 0, sizeof(*p));
}

static void count_n(struct page_count *c, int order, uint64_t n)
{
	c->requests += n;
	c->pages += n * pages_of(order);
}

static void count(struct page_count *c, int order)
{
	count_n(c, order, 1);
}

static uint64_t key_of(const struct kmem_event *ev)
{
	return ev->pfn ? ev->pfn : ev->ptr;
}

/* How many allocations ev stands for (pages_allocations_in). */
static uint64_t allocations_in(const struct kmem_event *ev)
{
	return pages_allocations_in(key_of(ev), ev->order);
}

static struct page_cpu *cpu_of(struct page_stats *p, int32_t cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if ((uint32_t)cpu >= p->ncpus) {
		uint32_t n = (uint32_t)cpu + 1;

		p->cpus = xrealloc(p->cpus, n * sizeof(*p->cpus));
		memset(p->cpus + p->ncpus, 0, (n - p->ncpus) * sizeof(*p->cpus));
		p->ncpus = n;
	}
	return &p->cpus[cpu];
}

static void count_gfp(struct page_stats *p, uint32_t gfp, int order, uint64_t allocations)
{
	if (gfp == STR_NONE)
		return;
	if (gfp >= p->ngfp) {
		uint32_t n = gfp + 1;

		p->by_gfp = xrealloc(p->by_gfp, n * sizeof(*p->by_gfp));
		memset(p->by_gfp + p->ngfp, 0, (n - p->ngfp) * sizeof(*p->by_gfp));
		p->ngfp = n;
	}
	count_n(&p->by_gfp[gfp], order, allocations);
}

static struct page_origin *origin_of(struct page_stats *p, uint32_t key)
{
	if (key == STR_NONE)
		return NULL;
	if (key >= p->nkeys) {
		uint32_t n = p->nkeys ? p->nkeys : 64;

		while (n <= key)
			n *= 2;
		p->by_key = xrealloc(p->by_key, n * sizeof(*p->by_key));
		memset(p->by_key + p->nkeys, 0, (n - p->nkeys) * sizeof(*p->by_key));
		p->nkeys = n;
	}
	return &p->by_key[key];
}

/* A live page leaves: its origin holds it no longer. */
static void release_page(struct page_stats *p, const struct live_page *page)
{
	if (page->id != STR_NONE && page->id < p->nkeys)
		p->by_key[page->id].live_pages -= pages_of((int)page->order);
}

static void on_alloc(struct page_stats *p, const struct kmem_event *ev, uint32_t key)
{
	struct page_origin *o;
	int order = ev->order < 0 ? 0 : ev->order;
	uint64_t n = allocations_in(ev);
	int each = n > 1 ? 0 : order;	/* the order of each allocation counted */
	struct live_page was;

	if (ev->ptr == 0 && ev->pfn == 0) {
		count(&p->failed, order);
		return;
	}
	count_n(&p->alloc, each, n);
	if (ev->migratetype >= 0 && ev->migratetype < PAGE_MIGRATETYPES)
		count_n(&p->by_order_type[each < PAGE_ORDERS ? each : PAGE_ORDERS - 1]
					 [ev->migratetype], each, n);
	else
		p->unknown_type += n;
	count_gfp(p, ev->gfp, each, n);
	if (pagemap_put(&p->live, key_of(ev), order, key, &was))
		release_page(p, &was);	/* allocated again: its free was not seen */
	o = origin_of(p, key);
	if (o) {
		o->allocs += n;
		o->pages += pages_of(order);
		o->live_pages += pages_of(order);
		p->allocs_with_stack += n * (ev->stack != STACK_NONE);
	}
}

static void on_free(struct page_stats *p, const struct kmem_event *ev, bool batched)
{
	int order = ev->order < 0 ? 0 : ev->order;
	struct live_page was;

	count(batched ? &p->free_batched : &p->free, order);
	if (pagemap_take(&p->live, key_of(ev), &was)) {
		if (!batched)
			count(&p->alloc_freed, (int)was.order);
		release_page(p, &was);
	} else if (!batched) {
		count(&p->free_only, order);
	}
}

void pages_apply(struct page_stats *p, const struct kmem_event *ev, uint32_t key)
{
	struct page_cpu *c;

	switch (ev->kind) {
	case KMEM_PAGE_ALLOC:
		on_alloc(p, ev, key);
		break;
	case KMEM_PAGE_FREE:
		on_free(p, ev, false);
		break;
	case KMEM_PAGE_FREE_BATCHED:
		on_free(p, ev, true);
		break;
	case KMEM_PAGE_ALLOC_ZONE_LOCKED:
		p->zone_locked++;
		c = cpu_of(p, ev->cpu);
		if (c && ev->percpu_refill == 1) {
			c->refills++;
			c->refill_pages += pages_of(ev->order);
		}
		break;
	case KMEM_PAGE_PCPU_DRAIN:
		c = cpu_of(p, ev->cpu);
		if (c) {
			c->drains++;
			c->drain_pages += pages_of(ev->order);
		}
		break;
	case KMEM_PAGE_ALLOC_EXTFRAG:
		p->extfrag++;
		p->extfrag_fragmenting += ev->percpu_refill == 1;	/* fragmenting= */
		p->extfrag_change_ownership += ev->change_ownership == 1;
		break;
	default:
		break;
	}
}
