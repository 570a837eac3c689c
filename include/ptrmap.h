/*
 * ptrmap.h - the live allocations: an open-addressing hash table keyed by
 * object pointer (linear probing, backward-shift deletion, no tombstones).
 *
 * Memory grows with the number of live objects, never with the log.
 * Pointer 0 is reserved as the empty-slot key: callers never insert NULL
 * (a NULL allocation is a failed one). Knows nothing of call sites' meaning.
 */
#ifndef TA_PTRMAP_H
#define TA_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

struct live_alloc {
	uint64_t ptr;		/* key; 0 = empty slot */
	uint64_t ts_ns;		/* when it was allocated */
	uint64_t line;		/* line of the allocation */
	uint32_t call_site;	/* call-site id */
	uint32_t bytes_req;
	uint32_t bytes_alloc;
	int16_t cpu;
	uint16_t kind;		/* enum kmem_kind of the allocation */
};

struct ptrmap {
	struct live_alloc *slots;
	size_t mask;		/* capacity - 1; capacity is a power of two */
	size_t count;
};

void ptrmap_init(struct ptrmap *m);
void ptrmap_release(struct ptrmap *m);

/* The record for ptr, or NULL. */
struct live_alloc *ptrmap_find(const struct ptrmap *m, uint64_t ptr);

/*
 * The slot for ptr: an existing record (*existed = 1) or a new one with
 * only ->ptr set (*existed = 0). The pointer is valid until the next insert.
 */
struct live_alloc *ptrmap_insert(struct ptrmap *m, uint64_t ptr, int *existed);

/* Remove the record at slot (as returned by find/insert). */
void ptrmap_remove(struct ptrmap *m, struct live_alloc *slot);

/* Iterate: for (i = 0; i <= m->mask; i++) if (m->slots[i].ptr) ... */

#endif
