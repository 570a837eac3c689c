/*
 * symbols.h - a kernel's text symbols from System.map, to turn the bare
 * call_site addresses of old logs (2.6 - 5.3) into "function+0xoffset".
 *
 * An address resolves to the nearest symbol at or below it, as
 * trace_analyze.py did, but only if that symbol is code (types t, T, w, W):
 * an address in data or past the last symbol stays unresolved. Of several
 * symbols at one address a text one wins, a global one before a local one,
 * then the first in the file. Not here: ELF objects (see ktree).
 */
#ifndef TA_SYMBOLS_H
#define TA_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset into symbol_table.names */
	uint32_t module;	/* kallsyms' "[module]": offset into names, or KSYM_BUILT_IN */
	char type;
};

#define KSYM_BUILT_IN UINT32_MAX

/*
 * Where a loadable module's code lies: from /proc/modules (its address and
 * size), or bounded by its symbols. An address is named after a module's
 * symbol only inside that module's extent.
 */
struct kmodule_extent {
	uint64_t start, end;	/* [start, end) */
	uint32_t name;		/* offset into symbol_table.names */
};

/* Why an address is named after no symbol (symbols_why_not). */
enum symbol_miss {
	SYMMISS_NONE,		/* it resolves */
	SYMMISS_NO_SYMBOL,	/* below every symbol, or past the last, or in data */
	SYMMISS_PAST_MODULE,	/* past the end of its nearest symbol's module */
	SYMMISS_OTHER_LOAD,	/* its nearest symbol's module is not in the modules file */
};

/* Whose choice among aliases, and of what an address may resolve to. */
enum symbol_rule {
	SYMRULE_MAP,	/* trace_analyze.py's: code only, text then global first */
	SYMRULE_PERF,	/* perf's kallsyms: code only, the last text alias */
	SYMRULE_TEP,	/* libtraceevent's: any kind, the first alias */
};

struct symbol_table {
	struct ksym *syms;	/* sorted by address, one per address */
	size_t count;
	char *names;
	size_t names_len, names_cap;
	const char *path;	/* where it was read from, for messages */
	enum symbol_rule rule;
	struct kmodule_extent *modules;	/* by start; set by symbols_parse_modules */
	size_t nmodules;
	bool modules_given;		/* a modules file was read (it may list none) */
	bool have_module_symbols;	/* some symbol carries "[module]" */
};

void symbols_init(struct symbol_table *t);
void symbols_release(struct symbol_table *t);

/* Read System.map ("<hex addr> <type> <name>" lines). */
int symbols_load_system_map(struct symbol_table *t, const char *path, struct ta_error *err);

/*
 * A kernel's /proc/kallsyms (saved, or the running one's): the same lines
 * (modules' symbols carry "[module]" after the name), and of several
 * symbols at one address the one perf names, the last text one.
 */
int symbols_load_kallsyms(struct symbol_table *t, const char *path, struct ta_error *err);

/* The same from System.map text already in memory, named name in messages. */
int symbols_parse_system_map(struct symbol_table *t, const char *text, size_t len,
			     const char *name, struct ta_error *err);

/*
 * A trace.dat's kallsyms as libtraceevent reads it (tep_parse_kallsyms), so
 * that names match trace-cmd report's.
 */
/* The same as symbols_load_kallsyms, of text already read. */
int symbols_parse_kallsyms(struct symbol_table *t, const char *text, size_t len,
			   const char *name, struct ta_error *err);
int symbols_parse_tep_kallsyms(struct symbol_table *t, const char *text, size_t len,
			       const char *name, struct ta_error *err);

/* Distance from s to the next symbol (what %pS prints as "/0xsize"); 0 for the last. */
uint64_t symbols_size(const struct symbol_table *t, const struct ksym *s);

/*
 * The symbol holding addr (nearest at or below), or NULL. A module's symbol
 * holds an address only inside that module: within its /proc/modules extent
 * when one was given (symbols_parse_modules), and up to the page after the
 * module's last symbol (perf's bound), never past the next module's start.
 */
const struct ksym *symbols_lookup(const struct symbol_table *t, uint64_t addr);

/* Why symbols_lookup names no symbol for addr (SYMMISS_NONE if it does). */
enum symbol_miss symbols_why_not(const struct symbol_table *t, uint64_t addr);

/*
 * A /proc/modules ("name size refs deps state 0xaddr") as the modules'
 * extents of t; each ends at its address + size, or at the next module's
 * start. An empty file is a kernel without modules. Fails on a line that is
 * no module's, or on addresses that are all zero (read without root).
 */
int symbols_parse_modules(struct symbol_table *t, const char *text, size_t len,
			  const char *name, struct ta_error *err);
/* The same of a file, /proc/modules itself beside the running /proc/kallsyms. */
int symbols_load_modules(struct symbol_table *t, const char *path, struct ta_error *err);

static inline const char *ksym_name(const struct symbol_table *t, const struct ksym *s)
{
	return t->names + s->name;
}

/* The module kallsyms names for s ("ext4"), or NULL for built-in code (and a System.map's). */
static inline const char *ksym_module(const struct symbol_table *t, const struct ksym *s)
{
	return s->module == KSYM_BUILT_IN ? NULL : t->names + s->module;
}

#endif
