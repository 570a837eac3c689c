/*
 * callchain.h - what the frames of a stack mean (DESIGN.md section 9):
 * allocator frames, wrappers, the origin of an allocation, the folded
 * form flame graphs read.
 *
 * Frames are compared by their function name without a "_noprof" suffix
 * and without gcc's ".constprop.N", ".isra.N", ".part.N", ".cold"; hex
 * frames are resolved through System.map first. Allocator frames are the
 * tracing frames (trace_event_raw_event_*, perf_trace_*, __traceiter_*,
 * and trace_<event> of the kmem events) and the slab and page allocators'
 * own functions; wrappers are data/wrappers.txt (built in) plus the lines
 * of --wrappers FILE. The origin is the first frame from the leaf that is
 * neither; without a stack, or when every frame is one, the call site's
 * function. Reads the tables; never the log. Not here: counting.
 */
#ifndef TA_CALLCHAIN_H
#define TA_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "event.h"
#include "symbols.h"

#define ORIGIN_NO_STACK "(no stack)"	/* the origin of a page event without one */

enum frame_class { FRAME_OTHER, FRAME_ALLOCATOR, FRAME_WRAPPER, FRAME_USER_MARK };

/* The globs of a list of names (data/wrappers.txt, data/allocators.txt). */
struct name_glob {
	char *text;
	size_t len;		/* of the prefix, when prefix */
	bool prefix;		/* "name*": compared as a prefix */
};

struct name_globs {
	struct name_glob *g;
	size_t count, cap;
};

/* A line of --wrappers FILE, for the check that it matched a frame. */
struct user_wrapper {
	char *text;
	unsigned long line;
};

struct callchains {
	const struct trace_strings *strings;
	const struct symbol_table *syms;	/* may be empty */
	struct strtab wrappers;		/* normalized names */
	struct name_globs wrapper_globs;
	struct strtab allocators;	/* normalized names */
	struct name_globs allocator_globs;
	struct user_wrapper *user;	/* the lines of --wrappers FILE */
	size_t nuser, user_cap;
	struct strtab names;		/* frames' names as reports print them */
	uint32_t *frame_name;		/* frame id -> id in names */
	uint32_t *frame_key;		/* frame id -> id in names of its normalized name */
	uint8_t *frame_class;		/* frame id -> enum frame_class */
	uint32_t *frame_module;		/* frame id -> id in names of its " [module]", or STR_NONE */
	bool names_modules;		/* some frame named its module: the stacks print them */
	uint32_t nframes;
	uint32_t *origin;		/* stack id -> frame id of its origin, or STR_NONE */
	uint32_t nstacks;
};

/*
 * Set up c over the tables of strings (which may still grow: call
 * callchains_update before reading new ids). wrappers_file, if not NULL,
 * adds its names to the built-in list; a file that cannot be read is an
 * error.
 */
int callchains_init(struct callchains *c, const struct trace_strings *strings,
		    const struct symbol_table *syms, const char *wrappers_file,
		    struct ta_error *err);
void callchains_release(struct callchains *c);

/*
 * Warn about each line of --wrappers FILE (path) that matches no frame of
 * the stacks classified so far; nothing when there were no stacks.
 */
void callchains_warn_unmatched_wrappers(const struct callchains *c, const char *path);

/* Classify the frames and stacks interned since the last call. */
void callchains_update(struct callchains *c);

/* The normalized form of a function name into out: "foo.part.0" -> "foo". */
size_t function_key(const char *name, size_t len, char *out, size_t cap);

/*
 * Length of name without gcc's clone suffixes: from the first ".cold",
 * ".constprop.", ".isra.", ".part." or "." and a digit on
 * ("foo.constprop.0.isra.0" -> "foo"; "foo.123" -> "foo").
 */
size_t without_clone_suffixes(const char *name, size_t len);

static inline enum frame_class callchains_class(const struct callchains *c, uint32_t frame)
{
	return (enum frame_class)c->frame_class[frame];
}

/*
 * The module a frame named ("func [ext4]", as page_owner and tracefs print
 * a module's function), or NULL when it named none.
 */
static inline const char *callchains_frame_module(const struct callchains *c, uint32_t frame)
{
	return c->frame_module[frame] != STR_NONE ? strtab_get(&c->names, c->frame_module[frame])
						  : NULL;
}

/*
 * The module of frame into out: the one it names ("func [ext4]"), the one
 * its address is in (syms), else vmlinux when the stacks name modules
 * (names_modules: page_owner's do, as does a log some frame of which
 * names one), else "(unknown)": a log printing bare function names says
 * nothing of their modules. Returns the length.
 */
size_t callchains_frame_module_name(const struct callchains *c, uint32_t frame, bool names_modules,
				    char *out, size_t cap);

/* A frame's name as reports print it (hex resolved through System.map). */
static inline const char *callchains_frame_name(const struct callchains *c, uint32_t frame)
{
	return strtab_get(&c->names, c->frame_name[frame]);
}

/*
 * The origin of an event with call site call_site (STR_NONE for a page
 * event) and stack (STACK_NONE if none): its normalized function name
 * into out. Returns the length.
 */
size_t callchains_origin(const struct callchains *c, uint32_t call_site, uint32_t stack,
			 char *out, size_t cap);

/* The frame id (in strings->frames) of stack's origin, or STR_NONE (no stack, or none found). */
static inline uint32_t callchains_origin_frame(const struct callchains *c, uint32_t stack)
{
	return stack != STACK_NONE && stack < c->nstacks ? c->origin[stack] : STR_NONE;
}

/*
 * The folded form of a stack: its frames outermost first, allocator
 * frames dropped, wrappers kept, joined by ';' into out (user frames, when
 * kept, before the kernel's). Without a stack, or with nothing left:
 * "[no stack];<call site function>" or "[no stack]". Returns the length.
 */
size_t callchains_folded(const struct callchains *c, uint32_t call_site, uint32_t stack,
			 char *out, size_t cap);

#endif
