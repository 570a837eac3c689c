/*
 * text_parse.h - one line of kmem trace text into a struct kmem_event.
 *
 * Every text form is recognised per line, with no format flag: tracefs
 * `trace` snapshots (with '#' header) and `trace_pipe` streams (with
 * "CPU:N [LOST M EVENTS]" markers), the old layout without the flags
 * column and with hex call sites, `trace-cmd report` and `perf script`.
 * Lines that are not kmem events are classified and counted, never fatal.
 * The parser allocates nothing per line: strings are interned once.
 * It does not match allocations with frees and does not resolve symbols.
 */
#ifndef TA_TEXT_PARSE_H
#define TA_TEXT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "text_linescan.h"

/* Optional fields, parsed only when some consumer wants them. */
enum parse_want {
	WANT_COMM = 1 << 0,	/* task name and pid */
	WANT_GFP = 1 << 1,	/* gfp_flags string */
	WANT_CACHE_NAME = 1 << 2,	/* slab cache name= */
	WANT_PAGE = 1 << 3,	/* fields of mm_page_* events */
	WANT_STACK = 1 << 4,	/* stack entries and frames, other events' CPUs */
	WANT_USER_FRAMES = 1 << 5,	/* perf's user-space frames too (--user-frames) */
	WANT_PID = 1 << 6,	/* the pid alone (binary records; text: WANT_COMM) */
	WANT_ALL = 0xff & ~WANT_USER_FRAMES,
};

/* What parse_line made of a line. */
enum line_kind {
	LINE_SKIPPED = 0,	/* counted in the statistics; nothing to hand on */
	LINE_EVENT,		/* ev was filled: a kmem event or a lost-events marker */
	/* with WANT_STACK only: */
	LINE_OTHER_EVENT,	/* an event not handed on (other kind, malformed), on p->line_cpu */
	LINE_STACK_ENTRY,	/* "<stack trace>" (tracefs) or kernel_stack (trace-cmd) on p->line_cpu */
	LINE_USER_STACK_ENTRY,	/* "<user stack trace>": its frames are not kept */
	LINE_FRAME,		/* a kernel frame: p->frame[0..frame_len) */
	LINE_USER_FRAME,	/* a perf user-space frame: p->frame[0..frame_len) */
	LINE_BAD_FRAME,		/* a frame line that cannot be one (too long, not text) */
};

#define FRAME_NAME_MAX 1024	/* longer frame names are not names: the stack is dropped */

/* What pairing stacks with events counted (text_stacks.h, text_reader.h). */
struct stack_counts {
	uint64_t blocks;	/* stack entries and callchains read */
	uint64_t kmem_paired;	/* given to a kmem event */
	uint64_t other_paired;	/* belonged to another event (rss_stat, ...): dropped */
	uint64_t orphans;	/* entries with no event of their CPU waiting for one */
	uint64_t dropped;	/* blocks with a bad frame, or over STACK_MAX_FRAMES */
	uint64_t stray_frames;	/* frame lines outside any block */
	uint64_t user_blocks;	/* "<user stack trace>" entries: not kept */
	uint64_t events_with;	/* kmem events (not markers) handed on with a stack */
	uint64_t events_without;	/* and without one */
};

void stack_counts_add(struct stack_counts *a, const struct stack_counts *b);

struct parse_stats {
	uint64_t lines;
	uint64_t bytes;
	uint64_t events[KMEM_KIND_COUNT];	/* kmem events and markers read */
	uint64_t header_lines;	/* '#' comment lines, "cpus=N" */
	uint64_t trace_headers;	/* of those, ftrace's own: "# tracer:", "# entries-in-buffer", "cpus=" */
	uint64_t blank_lines;
	uint64_t stack_lines;	/* "<stack trace>" entries and " => func" frames */
	uint64_t other_events;	/* events of other kinds: rss_stat, sched_*, ... */
	uint64_t malformed;	/* kmem events with a missing or bad field */
	uint64_t garbage;	/* lines that are no trace line at all */
	uint64_t overlong;	/* lines longer than INPUT_MAX_LINE */
	uint64_t lost_events;	/* sum of M over "[LOST M EVENTS]" markers */
	struct stack_counts stacks;	/* with WANT_STACK */
};

/* Room for the reclaimable caches a log's header names (about 80 on a 6.18 desktop). */
#define RECLAIMABLE_LIST_MAX 4096

/* The header line record writes them on, before the names. */
#define RECLAIMABLE_HEADER "# trace_analyze record: reclaimable slab caches (reclaim_account):"

/* What the log says about itself. */
struct trace_header {
	bool has_entries;	/* "# entries-in-buffer/entries-written: A/B" seen */
	uint64_t entries_in_buffer, entries_written;
	int cpus;		/* "#P:N" or trace-cmd's "cpus=N"; 0 if unknown */
	int kernel_major, kernel_minor;	/* "... of Linux X.Y" (record's header); 0: unknown */
	/* record's "reclaimable slab caches:" lines: names, one space apart; "": none given */
	char reclaimable[RECLAIMABLE_LIST_MAX];
};

/*
 * The names of the other events a log holds, gathered only while it has
 * shown no kmem event: enough to tell a user whose log has none which
 * events were enabled instead.
 */
#define EVENT_NAMES_MAX 8
#define EVENT_NAME_LEN 40

struct event_names {
	uint32_t count;
	char name[EVENT_NAMES_MAX][EVENT_NAME_LEN];
	uint64_t lines[EVENT_NAMES_MAX];
	uint64_t other_lines;	/* of events beyond the first EVENT_NAMES_MAX names */
};

void event_names_add(struct event_names *e, const char *name, size_t len, uint64_t lines);
void event_names_merge(struct event_names *a, const struct event_names *b);

/* The last string interned in one table, to skip the hash when it repeats. */
struct recent_string {
	uint32_t id;		/* STR_NONE: none yet */
	uint32_t len;
	char text[48];
};

/* Call sites recently interned, by a hash of their two ends (text_parse.c). */
#define SITE_CACHE_BITS 10

struct parser {
	struct trace_strings *strings;
	struct recent_string comm_seen, gfp_seen, cache_seen;
	unsigned want;		/* enum parse_want bits */
	struct parse_stats stats;
	struct trace_header header;
	uint64_t first_malformed_line;	/* line_no given for the first one, 0 if none */
	bool seen_kmem;		/* a kmem event line (good or malformed) was read */
	int32_t line_cpu;	/* LINE_OTHER_EVENT, LINE_STACK_ENTRY: the line's CPU */
	const char *frame;	/* LINE_FRAME, LINE_USER_FRAME: the function or address */
	size_t frame_len;
	bool frame_in_chain;	/* a perf callchain frame (tab-indented), not "=> func" */
	bool chain_in_user;	/* the perf callchain being read has reached its user part */
	char frame_buf[FRAME_NAME_MAX + 3];	/* a frame name made up: "[dso]" */
	struct event_names others;	/* while !seen_kmem */
	enum linescan_impl scan;	/* how lines are scanned */
	linescan_line_fn scan_line;	/* linescan_line of that way */
	struct line_masks masks;	/* of the line being parsed */
	uint32_t site_cache[1u << SITE_CACHE_BITS];	/* call-site ids, or STR_NONE */
};

/* Lines that show the input is an ftrace text log at all (not garbage). */
uint64_t parse_stats_trace_lines(const struct parse_stats *st);

/* kmem event lines read, good or malformed (markers not counted). */
uint64_t parse_stats_kmem_lines(const struct parse_stats *st);

void parser_init(struct parser *p, struct trace_strings *strings, unsigned want);
void parser_release(struct parser *p);

/*
 * Parse line[0..len) (no '\n'), numbered line_no. Returns LINE_EVENT and
 * fills ev when the line is a kmem event or a lost-events marker; otherwise
 * counts the line in p->stats by what it is and says what it was (the
 * stack kinds only when p->want has WANT_STACK; LINE_SKIPPED otherwise).
 */
enum line_kind parse_line(struct parser *p, const char *line, size_t len, uint64_t line_no,
			  struct kmem_event *ev);

/*
 * The same for the line at s, which ends at the first '\n' of s[0..avail)
 * (there must be one): the line's end and its separators are found in the
 * same pass. s must be readable LINESCAN_SLACK bytes past s + avail.
 * Returns the line's length, without the '\n'; *kind is what parse_line
 * would return.
 */
size_t parse_next_line(struct parser *p, const char *s, size_t avail, uint64_t line_no,
		       struct kmem_event *ev, enum line_kind *kind);

/*
 * Whether line[0..len) continues a stack block: a tracefs or trace-cmd
 * frame ("=> func", " => func") or a perf callchain frame (a tab first).
 * Used to keep a block within one chunk.
 */
bool is_frame_line(const char *line, size_t len);

/* Add the counters of b into a (for parsers run on separate chunks). */
void parse_stats_add(struct parse_stats *a, const struct parse_stats *b);

/* Merge what another parser learnt of the header into a. */
void trace_header_add(struct trace_header *a, const struct trace_header *b);

/* "6.18.44-..." -> 6, 18; false when s does not begin with MAJOR.MINOR. */
bool kernel_version_of(const char *s, size_t len, int *major, int *minor);

#endif
