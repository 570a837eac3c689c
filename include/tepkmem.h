/*
 * tepkmem.h - kmem events decoded from binary trace records (the ring
 * buffer's, as trace.dat, perf.data's PERF_SAMPLE_RAW and record's raw
 * pages hold them) straight into struct kmem_event, with libtraceevent's
 * event formats: no text in between.
 *
 * Every field the text parser reads is read from the record by its format
 * (offset, size, sign; __data_loc strings), once per event id looked up.
 * Strings are what the tools' text forms print, so that a binary file and
 * its text form (trace-cmd report, perf script) give the same reports:
 * call sites "sym+0xoff" (or "0xaddr" when no symbol holds them), the
 * gfp_flags as the event's print format spells them (made once per value
 * through libtraceevent), page= as the page frame number. A kernel_stack
 * record becomes a stack of frame names (hex when unresolved).
 * Not here: which stack belongs to which event (binread_stacks.h), files.
 */
#ifndef TA_TEPKMEM_H
#define TA_TEPKMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

struct tep_handle;
struct tep_record;

/*
 * The function holding addr and its start, or NULL: the file's kallsyms,
 * System.map, --kallsyms, whichever the caller has; *module the loadable
 * module it is in, as kallsyms' "[module]" column says, NULL if built in
 * (or not known: System.map names built-in code only).
 */
typedef const char *(*tepkmem_resolve_fn)(void *ctx, uint64_t addr, uint64_t *start,
					  const char **module);

enum tepkmem_record {
	TEPKMEM_OTHER,		/* an event that is no kmem event */
	TEPKMEM_EVENT,		/* a kmem event: ev filled */
	TEPKMEM_STACK,		/* ftrace's kernel_stack: the frames in tepkmem_stack() */
	TEPKMEM_MALFORMED,	/* a kmem event missing a field or with a bad one (ev->kind set) */
};

struct tepkmem_format;

/* Addresses already named: address -> string id + 1, open addressing. */
struct addr_table {
	struct addr_name *slots;
	uint32_t nslots, used;
};

struct tepkmem {
	struct tep_handle *tep;
	struct trace_strings *strings;
	unsigned want;			/* enum parse_want */
	tepkmem_resolve_fn resolve;
	void *resolve_ctx;
	struct tepkmem_format *formats;	/* by event id, made on first sight */
	int nformats;
	int stack_type;			/* ftrace:kernel_stack's id, or -1 */
	/* common_type and common_pid, read at their offsets (else through libtraceevent) */
	uint16_t type_offset, type_size, pid_offset, pid_size;
	int stack_size_offset, stack_caller_offset;
	struct addr_table sites;	/* call-site address -> id in call_sites */
	struct addr_table frame_names;	/* frame address -> id in frames */
	struct gfp_name *gfps;		/* (event, value) -> id, a few dozen */
	uint32_t ngfps, gfps_cap;
	bool round_to_usec;		/* timestamps as tracefs text prints them (rounded) */
	bool has_last_pid;		/* none yet: any pid, -1 too, may be a record's */
	int last_pid;			/* the comm of the last pid, to skip the lookup */
	uint32_t last_comm;
	uint32_t *frames;		/* the last stack record's frame ids */
	uint32_t nframes, frames_cap;
	void *seq;			/* a struct trace_seq, for gfp strings */
};

void tepkmem_init(struct tepkmem *k, struct tep_handle *tep, struct trace_strings *strings,
		  unsigned want, tepkmem_resolve_fn resolve, void *resolve_ctx);
void tepkmem_release(struct tepkmem *k);

/*
 * Decode rec (its cpu and ts set). TEPKMEM_EVENT fills ev (line 0: the
 * caller numbers it); TEPKMEM_STACK leaves its frames for tepkmem_stack.
 * A kmem event whose format lacks a required field, or whose value is out
 * of range, is TEPKMEM_MALFORMED.
 */
enum tepkmem_record tepkmem_decode(struct tepkmem *k, struct tep_record *rec,
				   struct kmem_event *ev);

/* The frames of the last TEPKMEM_STACK record, leaf first; *n their number. */
const uint32_t *tepkmem_stack(const struct tepkmem *k, uint32_t *n);

/* The kind of kmem event an id is, KMEM_NONE if none (for counts of other events). */
enum kmem_kind tepkmem_kind(struct tepkmem *k, int type);

/* A frame name as the text forms give it: the function, or the address in hex. */
uint32_t tepkmem_frame(struct tepkmem *k, uint64_t addr);

/* The task name of pid as the tep knows it (saved cmdlines, COMM records), interned. */
uint32_t tepkmem_comm(struct tepkmem *k, int pid);

#endif
