/*
 * tepkmem.c - binary trace records into kmem events (tepkmem.h): each
 * event id's fields looked up once in its libtraceevent format, then read
 * by offset from every record. No text is made per event: call sites are
 * named once per address, gfp flags once per value, task names once per
 * pid change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "error.h"
#include "text_parse.h"
#include "tepkmem.h"
#include "tracelib.h"

/* A field of a record: where it is and how to read it. */
struct field {
	uint16_t offset, size;
	bool is_signed, present, dynamic, relative;
};

enum {
	F_CALL_SITE, F_PTR, F_BYTES_REQ, F_BYTES_ALLOC, F_GFP, F_NODE, F_ACCOUNTED, F_NAME,
	F_PFN, F_ORDER, F_MIGRATETYPE, F_PERCPU_REFILL, F_FALLBACK_ORDER,
	F_FALLBACK_MIGRATETYPE, F_FRAGMENTING, F_CHANGE_OWNERSHIP, F_ALLOC_ORDER,
	F_ALLOC_MIGRATETYPE, F_PAGE, F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"call_site", "ptr", "bytes_req", "bytes_alloc", "gfp_flags", "node", "accounted", "name",
	"pfn", "order", "migratetype", "percpu_refill", "fallback_order",
	"fallback_migratetype", "fragmenting", "change_ownership", "alloc_order",
	"alloc_migratetype", "page",
};

struct tepkmem_format {
	bool known;		/* looked up */
	uint8_t kind;		/* enum kmem_kind, KMEM_NONE: another event */
	struct tep_event *event;
	struct field f[F_COUNT];
	bool accounted_from_gfp;	/* prints "accounted=" from gfp_flags (6.x), no field */
};

struct addr_name {
	uint64_t addr;
	uint32_t id;		/* STR_NONE + 1: empty slot would be 0: ids are stored + 1 */
};

struct gfp_name {
	int type;
	uint64_t value;
	uint32_t id;
	bool accounted;		/* holds __GFP_ACCOUNT */
};

/*
 * common_type and common_pid: the same offsets in every event of a format
 * set (the header of each record). Learned once from any event, so that a
 * record's type and pid are read where they are, as its fields are; sizes
 * other than 1, 2, 4 are left to libtraceevent.
 */
static void learn_common_fields(struct tepkmem *k)
{
	struct tep_event **events = tep_list_events(k->tep, TEP_EVENT_SORT_ID);
	struct tep_format_field *type, *pid;

	if (!events || !events[0])
		return;
	type = tep_find_common_field(events[0], "common_type");
	pid = tep_find_common_field(events[0], "common_pid");
	if (type && type->offset >= 0 && type->offset < 64 &&
	    (type->size == 1 || type->size == 2 || type->size == 4)) {
		k->type_offset = (uint16_t)type->offset;
		k->type_size = (uint16_t)type->size;
	}
	if (pid && pid->offset >= 0 && pid->offset < 64 && pid->size == 4) {
		k->pid_offset = (uint16_t)pid->offset;
		k->pid_size = 4;
	}
}

/* The record's event id, read at common_type's offset; -1 if it is too short. */
static int record_type(const struct tepkmem *k, struct tep_record *rec)
{
	const unsigned char *p = rec->data;
	uint32_t v = 0;

	if (!k->type_size)
		return tep_data_type(k->tep, rec);
	if (rec->size < (int)(k->type_offset + k->type_size))
		return -1;
	if (k->type_size == 1) {
		v = p[k->type_offset];
	} else if (k->type_size == 2) {
		uint16_t x;

		memcpy(&x, p + k->type_offset, 2);
		v = x;
	} else {
		memcpy(&v, p + k->type_offset, 4);
	}
	return (int)v;
}

static int record_pid(const struct tepkmem *k, struct tep_record *rec)
{
	int32_t v;

	if (!k->pid_size)
		return tep_data_pid(k->tep, rec);
	if (rec->size < (int)(k->pid_offset + 4))
		return -1;
	memcpy(&v, (const unsigned char *)rec->data + k->pid_offset, 4);
	return v;
}

void tepkmem_init(struct tepkmem *k, struct tep_handle *tep, struct trace_strings *strings,
		  unsigned want, tepkmem_resolve_fn resolve, void *resolve_ctx)
{
	struct tep_event *stack;
	struct tep_format_field *size, *caller;
	struct trace_seq *seq = xmalloc(sizeof(*seq));

	memset(k, 0, sizeof(*k));
	k->tep = tep;
	k->strings = strings;
	k->want = want;
	k->resolve = resolve;
	k->resolve_ctx = resolve_ctx;
	k->stack_type = -1;
	stack = tep_find_event_by_name(tep, "ftrace", "kernel_stack");
	size = stack ? tep_find_field(stack, "size") : NULL;
	caller = stack ? tep_find_field(stack, "caller") : NULL;
	if (size && caller) {
		k->stack_type = stack->id;
		k->stack_size_offset = size->offset;
		k->stack_caller_offset = caller->offset;
	}
	learn_common_fields(k);
	trace_seq_init(seq);
	k->seq = seq;
}

void tepkmem_release(struct tepkmem *k)
{
	if (k->seq) {
		trace_seq_destroy(k->seq);
		free(k->seq);
	}
	free(k->formats);
	free(k->sites.slots);
	free(k->frame_names.slots);
	free(k->gfps);
	free(k->frames);
	memset(k, 0, sizeof(*k));
}

/* ---- formats ---- */

static void learn_field(struct field *f, struct tep_event *e, const char *name)
{
	struct tep_format_field *tf = tep_find_field(e, name);

	memset(f, 0, sizeof(*f));
	if (!tf || tf->offset < 0 || tf->size <= 0 || tf->offset > 65535 || tf->size > 65535)
		return;
	f->offset = (uint16_t)tf->offset;
	f->size = (uint16_t)tf->size;
	f->is_signed = (tf->flags & TEP_FIELD_IS_SIGNED) != 0;
	f->dynamic = (tf->flags & TEP_FIELD_IS_DYNAMIC) != 0;
#ifdef TEP_FIELD_IS_RELATIVE
	f->relative = (tf->flags & TEP_FIELD_IS_RELATIVE) != 0;
#endif
	f->present = f->dynamic ? f->size == 4 : (f->size == 1 || f->size == 2 || f->size == 4 ||
						   f->size == 8);
}

static struct tepkmem_format *format_of(struct tepkmem *k, int type)
{
	struct tepkmem_format *fm;
	int i;

	if (type < 0 || type > 65535)
		return NULL;
	if (type >= k->nformats) {
		int n = k->nformats ? k->nformats : 64;

		while (n <= type)
			n *= 2;
		k->formats = xrealloc(k->formats, (size_t)n * sizeof(*k->formats));
		memset(k->formats + k->nformats, 0, (size_t)(n - k->nformats) * sizeof(*k->formats));
		k->nformats = n;
	}
	fm = &k->formats[type];
	if (fm->known)
		return fm;
	fm->known = true;
	fm->event = tep_find_event(k->tep, type);
	if (!fm->event || !fm->event->name)
		return fm;
	fm->kind = (uint8_t)kmem_kind_of_name(fm->event->name, strlen(fm->event->name));
	if (fm->kind != KMEM_NONE && fm->event->system && strcmp(fm->event->system, "kmem") != 0)
		fm->kind = KMEM_NONE;	/* a kmalloc of another system is not ours */
	for (i = 0; i < F_COUNT; i++)
		learn_field(&fm->f[i], fm->event, field_names[i]);
	fm->accounted_from_gfp = !fm->f[F_ACCOUNTED].present && fm->f[F_GFP].present &&
				 fm->event->print_fmt.format &&
				 strstr(fm->event->print_fmt.format, "accounted=");
	return fm;
}

enum kmem_kind tepkmem_kind(struct tepkmem *k, int type)
{
	const struct tepkmem_format *fm = format_of(k, type);

	return fm ? (enum kmem_kind)fm->kind : KMEM_NONE;
}

/* ---- reading fields ---- */

static bool read_u64(const struct tep_record *rec, const struct field *f, uint64_t *v)
{
	const unsigned char *p = (const unsigned char *)rec->data + f->offset;

	if (!f->present || f->dynamic || (int)f->offset + f->size > rec->size)
		return false;
	switch (f->size) {
	case 1:
		*v = f->is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
		break;
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		*v = f->is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
		break;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		*v = f->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
		break;
	}
	default:
		memcpy(v, p, 8);
		break;
	}
	return true;
}

/* A __data_loc (or __rel_loc) string field, without its NUL. */
static bool read_string(const struct tep_record *rec, const struct field *f, const char **s,
			size_t *len)
{
	uint32_t loc, off, n;

	if (!f->present || !f->dynamic || (int)f->offset + 4 > rec->size)
		return false;
	memcpy(&loc, (const char *)rec->data + f->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (f->relative)
		off += (uint32_t)f->offset + 4;
	if (off + n > (uint32_t)rec->size)
		return false;
	*s = (const char *)rec->data + off;
	*len = strnlen(*s, n);
	return true;
}

/* A small signed field into an int8_t (order, migratetype ...), -1 when absent. */
static bool read_small(const struct tep_record *rec, const struct field *f, int8_t *out)
{
	uint64_t v;

	if (!f->present)
		return true;
	if (!read_u64(rec, f, &v))
		return false;
	if ((int64_t)v < -128 || (int64_t)v > 127)
		return false;
	*out = (int8_t)(int64_t)v;
	return true;
}

static bool read_u32_field(const struct tep_record *rec, const struct field *f, uint32_t *out)
{
	uint64_t v;

	if (!read_u64(rec, f, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* ---- names ---- */

static uint32_t intern_text(struct strtab *t, const char *s, size_t n)
{
	return n ? strtab_intern(t, s, n) : STR_NONE;
}

static uint64_t hash_addr(uint64_t a)
{
	return (a * 0x9e3779b97f4a7c15ull) >> 17;
}

/*
 * "sym+0xoff" as %pS prints it ("sym+0xoff [module]" for a module's code,
 * so that --group-by module reads it as a text log's), or "0xaddr" when no
 * function holds it.
 */
static uint32_t name_call_site(struct tepkmem *k, uint64_t addr)
{
	char text[CALLSITE_TEXT_MAX + 32];
	uint64_t start = 0;
	const char *module = NULL;
	const char *fn = k->resolve ? k->resolve(k->resolve_ctx, addr, &start, &module) : NULL;
	int n;

	if (fn && module)
		n = snprintf(text, sizeof(text), "%s+0x%llx [%s]", fn,
			     (unsigned long long)(addr - start), module);
	else if (fn)
		n = snprintf(text, sizeof(text), "%s+0x%llx", fn, (unsigned long long)(addr - start));
	else
		n = snprintf(text, sizeof(text), "0x%llx", (unsigned long long)addr);
	if (n <= 0 || (size_t)n > CALLSITE_TEXT_MAX)
		return STR_NONE;
	return strtab_intern(&k->strings->call_sites, text, (size_t)n);
}

/* The id an address was named with before, or namer's name for it, kept. */
static uint32_t named_address(struct tepkmem *k, struct addr_table *t, uint64_t addr,
			      uint32_t (*namer)(struct tepkmem *, uint64_t))
{
	uint32_t i, mask;

	if (t->used * 2 >= t->nslots) {
		uint32_t n = t->nslots ? t->nslots * 2 : 1024, j;
		struct addr_name *bigger = xcalloc(n, sizeof(*bigger));

		for (j = 0; j < t->nslots; j++) {
			if (!t->slots[j].id)
				continue;
			for (i = (uint32_t)hash_addr(t->slots[j].addr) & (n - 1); bigger[i].id;
			     i = (i + 1) & (n - 1))
				;
			bigger[i] = t->slots[j];
		}
		free(t->slots);
		t->slots = bigger;
		t->nslots = n;
	}
	mask = t->nslots - 1;
	for (i = (uint32_t)hash_addr(addr) & mask; t->slots[i].id; i = (i + 1) & mask)
		if (t->slots[i].addr == addr)
			return t->slots[i].id - 1;
	t->slots[i].addr = addr;
	t->slots[i].id = namer(k, addr) + 1;
	t->used++;
	return t->slots[i].id - 1;
}

static uint32_t call_site_id(struct tepkmem *k, uint64_t addr)
{
	return named_address(k, &k->sites, addr, name_call_site);
}

/* A frame's function name, or its address in hex when no function holds it. */
static uint32_t name_frame(struct tepkmem *k, uint64_t addr)
{
	uint64_t start = 0;
	const char *module = NULL;
	const char *fn = k->resolve ? k->resolve(k->resolve_ctx, addr, &start, &module) : NULL;
	char hex[24];
	int n;

	if (fn)
		return intern_text(&k->strings->frames, fn, strnlen(fn, FRAME_NAME_MAX + 1));
	n = snprintf(hex, sizeof(hex), "%llx", (unsigned long long)addr);
	return strtab_intern(&k->strings->frames, hex, (size_t)n);
}

uint32_t tepkmem_frame(struct tepkmem *k, uint64_t addr)
{
	return named_address(k, &k->frame_names, addr, name_frame);
}
/* The size of e's records without their dynamic data: past its last field. */
static size_t fixed_size(const struct tep_event *e)
{
	const struct tep_format_field *f;
	size_t size = 0;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (f = pass ? e->format.fields : e->format.common_fields; f; f = f->next)
			if (f->offset >= 0 && f->size > 0 && (size_t)f->offset + (size_t)f->size > size)
				size = (size_t)f->offset + (size_t)f->size;
	return size;
}

/*
 * A record of event e that holds value in its gfp_flags field and nothing
 * else: every number 0, every string empty (its __data_loc pointing at a
 * NUL past the fixed part). What libtraceevent prints of it reads no byte
 * of a record from the file, whose strings may be damaged.
 */
static unsigned char *gfp_only_record(const struct tep_event *e, const struct field *gfp,
				      uint64_t value, size_t *size)
{
	const struct tep_format_field *f;
	size_t fixed = fixed_size(e);
	unsigned char *data;
	uint16_t type = (uint16_t)e->id;

	if (fixed > 65536 || (size_t)gfp->offset + gfp->size > fixed)
		return NULL;
	data = xcalloc(fixed + 1, 1);
	memcpy(data, &type, sizeof(type));	/* common_type: the first field */
	memcpy(data + gfp->offset, &value, gfp->size);	/* little-endian: low bytes first */
	for (f = e->format.fields; f; f = f->next)
		if ((f->flags & TEP_FIELD_IS_DYNAMIC) && f->size == 4 && f->offset >= 0) {
			uint32_t loc = (uint32_t)fixed | 1u << 16;
#ifdef TEP_FIELD_IS_RELATIVE
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				loc = (uint32_t)(fixed - (size_t)f->offset - 4) | 1u << 16;
#endif
			memcpy(data + f->offset, &loc, sizeof(loc));
		}
	*size = fixed + 1;
	return data;
}

/*
 * The gfp_flags as the event's print format spells them: the text between
 * "gfp_flags=" and a space, printed from a record of that value alone.
 */
static uint32_t name_gfp(struct tepkmem *k, const struct tepkmem_format *fm, uint64_t value)
{
	struct trace_seq *s = k->seq;
	struct tep_record rec;
	const char *p, *end;
	unsigned char *data;
	size_t size;

	data = gfp_only_record(fm->event, &fm->f[F_GFP], value, &size);
	if (!data)
		return STR_NONE;
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = (int)size;
	trace_seq_reset(s);
	tep_print_event(k->tep, s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	free(data);
	p = s->buffer ? strstr(s->buffer, "gfp_flags=") : NULL;
	if (!p)
		return STR_NONE;
	p += strlen("gfp_flags=");
	end = p + strcspn(p, " ");
	return intern_text(&k->strings->gfps, p, (size_t)(end - p));
}

/*
 * The gfp_flags value of an event type, named once (libtraceevent prints
 * its flags) and found again by value: its name's id, and whether it holds
 * __GFP_ACCOUNT (alone or in GFP_KERNEL_ACCOUNT), which 6.x prints as
 * "accounted=".
 */
static const struct gfp_name *gfp_of(struct tepkmem *k, const struct tepkmem_format *fm,
				     uint64_t value)
{
	struct gfp_name *g;
	uint32_t i;

	for (i = 0; i < k->ngfps; i++)
		if (k->gfps[i].value == value && k->gfps[i].type == fm->event->id)
			return &k->gfps[i];
	if (k->ngfps == k->gfps_cap) {
		k->gfps_cap = k->gfps_cap ? k->gfps_cap * 2 : 32;
		k->gfps = xrealloc(k->gfps, k->gfps_cap * sizeof(*k->gfps));
	}
	g = &k->gfps[k->ngfps++];
	g->type = fm->event->id;
	g->value = value;
	g->id = name_gfp(k, fm, value);
	g->accounted = g->id != STR_NONE &&
		       strstr(strtab_get(&k->strings->gfps, g->id), "ACCOUNT") != NULL;
	return g;
}

uint32_t tepkmem_comm(struct tepkmem *k, int pid)
{
	const char *comm;

	if (k->has_last_pid && pid == k->last_pid)
		return k->last_comm;
	comm = tep_data_comm_from_pid(k->tep, pid);
	k->has_last_pid = true;
	k->last_pid = pid;
	k->last_comm = comm ? intern_text(&k->strings->comms, comm, strlen(comm)) : STR_NONE;
	return k->last_comm;
}

/* ---- events ---- */

static bool decode_slab(struct tepkmem *k, const struct tepkmem_format *fm,
			struct tep_record *rec, struct kmem_event *ev)
{
	const struct field *f = fm->f;
	uint64_t v;

	if (!read_u64(rec, &f[F_CALL_SITE], &v) || !read_u64(rec, &f[F_PTR], &ev->ptr))
		return false;
	ev->call_site = call_site_id(k, v);
	if (ev->call_site == STR_NONE)
		return false;
	if (kmem_is_slab_alloc(ev->kind) &&
	    (!read_u32_field(rec, &f[F_BYTES_REQ], &ev->bytes_req) ||
	     !read_u32_field(rec, &f[F_BYTES_ALLOC], &ev->bytes_alloc)))
		return false;
	if (f[F_NODE].present) {
		if (!read_u64(rec, &f[F_NODE], &v) || (int64_t)v < INT32_MIN + 1 ||
		    (int64_t)v > INT32_MAX)
			return false;
		ev->node = (int32_t)(int64_t)v;
	}
	if (f[F_ACCOUNTED].present) {
		if (!read_u64(rec, &f[F_ACCOUNTED], &v))
			return false;
		ev->accounted = v ? ACCOUNTED_TRUE : ACCOUNTED_FALSE;
	}
	if ((k->want & WANT_GFP || fm->accounted_from_gfp) && f[F_GFP].present &&
	    read_u64(rec, &f[F_GFP], &v)) {
		const struct gfp_name *g = gfp_of(k, fm, v);

		if (k->want & WANT_GFP)
			ev->gfp = g->id;
		if (fm->accounted_from_gfp)	/* as the kernel prints it */
			ev->accounted = g->accounted ? ACCOUNTED_TRUE : ACCOUNTED_FALSE;
	}
	if ((k->want & WANT_CACHE_NAME) && f[F_NAME].present) {
		const char *s;
		size_t n;

		if (read_string(rec, &f[F_NAME], &s, &n))
			ev->cache = intern_text(&k->strings->caches, s, n);
	}
	return true;
}

static bool decode_page(struct tepkmem *k, const struct tepkmem_format *fm,
			struct tep_record *rec, struct kmem_event *ev)
{
	const struct field *f = fm->f;
	uint64_t v;

	if (f[F_PFN].present) {
		if (!read_u64(rec, &f[F_PFN], &v))
			return false;
		/* page= is printed as the pfn by trace-cmd and perf (the vmemmap base is unknown) */
		if (v != UINT64_MAX && v >= KMEM_PFN_LIMIT)
			return false;	/* past any machine's pages */
		ev->pfn = v == UINT64_MAX ? 0 : v;
		ev->ptr = ev->pfn;
	} else if (!read_u64(rec, &f[F_PAGE], &ev->ptr) ||	/* 2.6's struct page pointer */
		   kmem_page_key_is_made_up(ev->ptr)) {
		return false;
	}
	if (!read_small(rec, &f[F_ORDER], &ev->order) ||
	    !read_small(rec, &f[F_MIGRATETYPE], &ev->migratetype))
		return false;
	if (ev->kind == KMEM_PAGE_FREE_BATCHED && !f[F_ORDER].present)
		ev->order = 0;	/* its print format says "order=0" */
	if (ev->kind == KMEM_PAGE_ALLOC_EXTFRAG &&
	    (!read_small(rec, &f[F_ALLOC_ORDER], &ev->order) ||
	     !read_small(rec, &f[F_ALLOC_MIGRATETYPE], &ev->migratetype) ||
	     !read_small(rec, &f[F_FALLBACK_ORDER], &ev->fallback_order) ||
	     !read_small(rec, &f[F_FALLBACK_MIGRATETYPE], &ev->fallback_migratetype) ||
	     !read_small(rec, &f[F_FRAGMENTING], &ev->percpu_refill) ||
	     !read_small(rec, &f[F_CHANGE_OWNERSHIP], &ev->change_ownership)))
		return false;
	if (ev->kind == KMEM_PAGE_ALLOC_ZONE_LOCKED &&
	    !read_small(rec, &f[F_PERCPU_REFILL], &ev->percpu_refill))
		return false;
	if ((k->want & WANT_GFP) && f[F_GFP].present && read_u64(rec, &f[F_GFP], &v))
		ev->gfp = gfp_of(k, fm, v)->id;
	return true;
}

static void read_stack(struct tepkmem *k, const struct tep_record *rec)
{
	const unsigned char *data = rec->data;
	int entries = 0, room, i;

	k->nframes = 0;
	if (k->stack_size_offset + 4 <= rec->size)
		memcpy(&entries, data + k->stack_size_offset, sizeof(entries));
	room = rec->size > k->stack_caller_offset
	       ? (rec->size - k->stack_caller_offset) / (int)sizeof(uint64_t) : 0;
	if (entries < 0 || entries > room)
		entries = room;
	if ((uint32_t)entries > k->frames_cap) {
		k->frames_cap = (uint32_t)entries;
		k->frames = xrealloc(k->frames, k->frames_cap * sizeof(*k->frames));
	}
	for (i = 0; i < entries; i++) {
		uint64_t addr;

		memcpy(&addr, data + k->stack_caller_offset + i * (int)sizeof(addr), sizeof(addr));
		if (addr == 0 || addr == UINT64_MAX)
			break;
		k->frames[k->nframes++] = tepkmem_frame(k, addr);
	}
}

enum tepkmem_record tepkmem_decode(struct tepkmem *k, struct tep_record *rec,
				   struct kmem_event *ev)
{
	int type = record_type(k, rec);
	const struct tepkmem_format *fm;
	bool ok;

	if (type == k->stack_type && type >= 0) {
		read_stack(k, rec);
		return TEPKMEM_STACK;
	}
	fm = format_of(k, type);
	if (!fm || fm->kind == KMEM_NONE)
		return TEPKMEM_OTHER;
	kmem_event_init(ev, (enum kmem_kind)fm->kind);
	ev->ts_ns = k->round_to_usec ? (rec->ts + 500) / 1000 * 1000 : rec->ts;
	ev->cpu = rec->cpu;
	if (k->want & (WANT_COMM | WANT_PID))
		ev->pid = record_pid(k, rec);
	if (k->want & WANT_COMM)
		ev->comm = tepkmem_comm(k, ev->pid);
	ok = kmem_is_page(fm->kind) ? decode_page(k, fm, rec, ev) : decode_slab(k, fm, rec, ev);
	return ok ? TEPKMEM_EVENT : TEPKMEM_MALFORMED;
}

const uint32_t *tepkmem_stack(const struct tepkmem *k, uint32_t *n)
{
	*n = k->nframes;
	return k->frames;
}
