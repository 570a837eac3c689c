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
	size_t names_len;
	const char *path;	/* where it was read from, for messages */
	enum symbol_rule rule;
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

/* The symbol holding addr (nearest at or below), or NULL. */
const struct ksym *symbols_lookup(const struct symbol_table *t, uint64_t addr);

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
