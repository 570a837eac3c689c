/*
 * event.c - the kmem events by name (the one table of them: parsing,
 * decoding, capture and the instance set-up all read it) and the string
 * tables events point into.
 */
#include <string.h>

#include "event.h"

/* Each kind's name, and its length (the parser looks a name up in every event line). */
#define KIND(name) { name, sizeof(name) - 1 }
static const struct {
	const char *name;
	uint8_t len;
} kinds[KMEM_KIND_COUNT] = {
	[KMEM_NONE] = KIND("none"),
	[KMEM_KMALLOC] = KIND("kmalloc"),
	[KMEM_KMALLOC_NODE] = KIND("kmalloc_node"),
	[KMEM_CACHE_ALLOC] = KIND("kmem_cache_alloc"),
	[KMEM_CACHE_ALLOC_NODE] = KIND("kmem_cache_alloc_node"),
	[KMEM_KFREE] = KIND("kfree"),
	[KMEM_CACHE_FREE] = KIND("kmem_cache_free"),
	[KMEM_PAGE_ALLOC] = KIND("mm_page_alloc"),
	[KMEM_PAGE_FREE] = KIND("mm_page_free"),
	[KMEM_PAGE_FREE_BATCHED] = KIND("mm_page_free_batched"),
	[KMEM_PAGE_ALLOC_ZONE_LOCKED] = KIND("mm_page_alloc_zone_locked"),
	[KMEM_PAGE_PCPU_DRAIN] = KIND("mm_page_pcpu_drain"),
	[KMEM_PAGE_ALLOC_EXTFRAG] = KIND("mm_page_alloc_extfrag"),
	[KMEM_LOST_EVENTS] = KIND("lost events marker"),
	[KMEM_BUFFER_STARTED] = KIND("buffer started marker"),
};

/* Names older kernels gave the same events (2.6.3x's page allocator). */
static const struct {
	const char *name;
	uint8_t len;
	enum kmem_kind kind;
} old_names[] = {
	{ "mm_page_free_direct", sizeof("mm_page_free_direct") - 1, KMEM_PAGE_FREE },
	{ "mm_pagevec_free", sizeof("mm_pagevec_free") - 1, KMEM_PAGE_FREE_BATCHED },
};

const char *kmem_kind_name(enum kmem_kind kind)
{
	return (unsigned)kind < KMEM_KIND_COUNT ? kinds[kind].name : "unknown";
}

static inline uint64_t load8(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

static inline uint64_t load4(const char *s)
{
	uint32_t w;

	memcpy(&w, s, 4);
	return w;
}

/*
 * a and b (len bytes each, 4 <= len < 32) the same, without a branch or a
 * libc call (every event line's name is looked up): four words that cover
 * the name, each read within it.
 */
static inline bool same_name(const char *a, const char *b, size_t len)
{
	if (len >= 8) {
		size_t last = len - 8, m1 = last < 8 ? last : 8, m2 = last < 16 ? last : 16;

		return !((load8(a) ^ load8(b)) | (load8(a + m1) ^ load8(b + m1)) |
			 (load8(a + m2) ^ load8(b + m2)) | (load8(a + last) ^ load8(b + last)));
	}
	return !((load4(a) ^ load4(b)) | (load4(a + len - 4) ^ load4(b + len - 4)));
}

/*
 * The one kind a name of len bytes whose first letter is first can be:
 * bit 1 of the letter tells the slab's names ('k') from the page
 * allocator's ('m'), and no two of one family have one length. Looked up
 * with one compare instead of a walk over the table (a test asks every
 * name in kinds[] and gets its kind back, so a wrong slot fails it).
 */
#define NAME_SLOT(len, first) ((len) * 2 + (((first) >> 1) & 1))
static const uint8_t kind_at_slot[64] = {
	[NAME_SLOT(7, 'k')] = KMEM_KMALLOC,
	[NAME_SLOT(12, 'k')] = KMEM_KMALLOC_NODE,
	[NAME_SLOT(16, 'k')] = KMEM_CACHE_ALLOC,
	[NAME_SLOT(21, 'k')] = KMEM_CACHE_ALLOC_NODE,
	[NAME_SLOT(5, 'k')] = KMEM_KFREE,
	[NAME_SLOT(15, 'k')] = KMEM_CACHE_FREE,
	[NAME_SLOT(13, 'm')] = KMEM_PAGE_ALLOC,
	[NAME_SLOT(12, 'm')] = KMEM_PAGE_FREE,
	[NAME_SLOT(20, 'm')] = KMEM_PAGE_FREE_BATCHED,
	[NAME_SLOT(25, 'm')] = KMEM_PAGE_ALLOC_ZONE_LOCKED,
	[NAME_SLOT(18, 'm')] = KMEM_PAGE_PCPU_DRAIN,
	[NAME_SLOT(21, 'm')] = KMEM_PAGE_ALLOC_EXTFRAG,
};

enum kmem_kind kmem_kind_of_name(const char *name, size_t len)
{
	unsigned k;
	size_t i;

	if (len >= 4 && len < 32) {
		k = kind_at_slot[NAME_SLOT(len, (unsigned char)name[0])];
		if (k && kinds[k].len == len && same_name(name, kinds[k].name, len))
			return (enum kmem_kind)k;
	}
	for (i = 0; i < sizeof(old_names) / sizeof(old_names[0]); i++)
		if (old_names[i].len == len && same_name(name, old_names[i].name, len))
			return old_names[i].kind;
	return KMEM_NONE;
}

void trace_strings_init(struct trace_strings *s)
{
	strtab_init(&s->call_sites);
	strtab_init(&s->caches);
	strtab_init(&s->comms);
	strtab_init(&s->gfps);
	strtab_init(&s->frames);
	stack_table_init(&s->stacks);
}

void trace_strings_release(struct trace_strings *s)
{
	strtab_release(&s->call_sites);
	strtab_release(&s->caches);
	strtab_release(&s->comms);
	strtab_release(&s->gfps);
	strtab_release(&s->frames);
	stack_table_release(&s->stacks);
}
