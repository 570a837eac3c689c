/*
 * callsite.h - the name a call site is reported under.
 *
 * The log prints a call site as "sym+0xoff/0xsize" (%pS, 5.4+),
 * "sym+0xoff" (trace-cmd, perf), either with a " [module]" suffix, or a
 * bare hex address (2.6 - 5.3). Reports name it "sym+0xoff" exactly as
 * trace_analyze.py did, resolving addresses through System.map; with
 * --group-by function, just "sym". Not here: counting, directories.
 */
#ifndef TA_CALLSITE_H
#define TA_CALLSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "symbols.h"

/* True if text is a bare address ("ffffffff8112a3b4", "0xc10c1b62"). */
bool callsite_is_address(const char *text, size_t len, uint64_t *addr);

/*
 * The module of call site text[0..len) into out: the "[module]" the kernel
 * printed after it (%pS), or kallsyms' module column of its address
 * (syms); "vmlinux" for built-in code; "(unresolved)" for an address no
 * symbol names. Returns the length written.
 */
size_t callsite_module(const char *text, size_t len, const struct symbol_table *syms,
		       char *out, size_t cap);

/*
 * Write the report name of call site text[0..len) into out (NUL-terminated,
 * truncated to cap). syms may be NULL or empty: addresses then stay hex.
 * Returns the length written.
 */
size_t callsite_name(const char *text, size_t len, const struct symbol_table *syms,
		     bool by_function, char *out, size_t cap);

/*
 * The function of a call site, without offset or module, into out; *size
 * is the function's size the log printed ("/0xsize") or, for an address,
 * its System.map distance to the next symbol; 0 when unknown.
 */
size_t callsite_function(const char *text, size_t len, const struct symbol_table *syms,
			 char *out, size_t cap, uint64_t *size);

/* Append s[0..n) to out at at, cut to cap with a NUL: the new length. */
size_t callsite_put(char *out, size_t cap, size_t at, const char *s, size_t n);

/*
 * The longest call site a log may print: KSYM_NAME_LEN (512) for the
 * symbol, its offset and size, and a module's name. Longer ones are
 * malformed events, so that no two call sites ever share a cut name.
 */
#define CALLSITE_NAME_MAX (CALLSITE_TEXT_MAX + 24)

#endif
