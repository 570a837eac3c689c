/*
 * callsite.c - from a call site as printed in the log to its report name.
 */
#include <stdio.h>
#include <string.h>

#include "callsite.h"
#include "utf8.h"

bool callsite_is_address(const char *s, size_t len, uint64_t *addr)
{
	uint64_t v = 0;
	size_t i;

	if (len > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
		s += 2;
		len -= 2;
	}
	if (len == 0 || len > 16)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return false;
		v = (v << 4) | (uint64_t)d;
	}
	*addr = v;
	return true;
}

size_t callsite_put(char *out, size_t cap, size_t at, const char *s, size_t n)
{
	if (at + 1 >= cap)
		return at;
	if (n > cap - 1 - at)
		n = utf8_cut(s, n, cap - 1 - at);
	memcpy(out + at, s, n);
	out[at + n] = '\0';
	return at + n;
}

/* "sym+0xoff/0xsize [mod]" -> sym, "+0xoff", " [mod]" pieces. */
static size_t name_symbolic(const char *s, size_t len, bool by_function,
			    char *out, size_t cap)
{
	const char *mod = memchr(s, ' ', len);
	size_t body = mod ? (size_t)(mod - s) : len;
	const char *plus = memchr(s, '+', body);
	const char *slash = memchr(s, '/', body);
	size_t keep, n;

	if (by_function)
		keep = plus ? (size_t)(plus - s) : body;
	else
		keep = slash ? (size_t)(slash - s) : body;
	n = callsite_put(out, cap, 0, s, keep);
	if (mod)
		n = callsite_put(out, cap, n, mod, len - body);
	return n;
}

/*
 * "sym+0xoff [module]" as %pS prints it (without "+0xoff" when off is
 * NULL): a name too long for out is cut between characters before the
 * offset and module, which always fit, so two offsets never merge.
 */
static size_t name_of_symbol(const struct symbol_table *syms, const struct ksym *sym,
			     const uint64_t *addr, char *out, size_t cap)
{
	const char *name = ksym_name(syms, sym), *module = ksym_module(syms, sym);
	char suffix[160];
	size_t n, keep;
	int m;

	m = addr ? snprintf(suffix, sizeof(suffix), "+0x%llx", (unsigned long long)(*addr - sym->addr))
		 : 0;
	if (module && m >= 0)
		m += snprintf(suffix + m, sizeof(suffix) - (size_t)m, " [%.64s]", module);
	suffix[m < 0 ? 0 : m] = '\0';
	n = m < 0 ? 0 : (size_t)m;
	if (n + 1 >= cap)
		return callsite_put(out, cap, 0, name, strlen(name));
	keep = utf8_cut(name, strlen(name), cap - 1 - n);
	memcpy(out, name, keep);
	memcpy(out + keep, suffix, n + 1);
	return keep + n;
}

size_t callsite_name(const char *text, size_t len, const struct symbol_table *syms,
		     bool by_function, char *out, size_t cap)
{
	uint64_t addr;
	const struct ksym *sym;

	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (!callsite_is_address(text, len, &addr))
		return name_symbolic(text, len, by_function, out, cap);
	sym = syms ? symbols_lookup(syms, addr) : NULL;
	if (!sym)
		return callsite_put(out, cap, 0, text, len);
	return name_of_symbol(syms, sym, by_function ? NULL : &addr, out, cap);
}

size_t callsite_module(const char *text, size_t len, const struct symbol_table *syms,
			char *out, size_t cap)
{
	const char *open = len ? memchr(text, '[', len) : NULL;
	const struct ksym *sym;
	const char *module = "vmlinux";
	uint64_t addr;
	int n;

	if (open && open > text && open[-1] == ' ' && text[len - 1] == ']')
		n = snprintf(out, cap, "%.*s", (int)(text + len - 1 - (open + 1)), open + 1);
	else {
		if (callsite_is_address(text, len, &addr)) {
			sym = syms ? symbols_lookup(syms, addr) : NULL;
			module = !sym ? "(unresolved)" : ksym_module(syms, sym) ? ksym_module(syms, sym)
										: "vmlinux";
		}
		n = snprintf(out, cap, "%s", module);
	}
	return n < 0 ? 0 : ((size_t)n < cap ? (size_t)n : cap - 1);
}

/* "0x90" -> 0x90; 0 if s[0..len) is not such a number. */
static uint64_t parse_hex_size(const char *s, size_t len)
{
	uint64_t v;

	return len > 2 && s[0] == '0' && s[1] == 'x' && callsite_is_address(s, len, &v) ? v : 0;
}

size_t callsite_function(const char *text, size_t len, const struct symbol_table *syms,
			 char *out, size_t cap, uint64_t *size)
{
	uint64_t addr;
	const struct ksym *sym;

	*size = 0;
	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (callsite_is_address(text, len, &addr)) {
		sym = syms ? symbols_lookup(syms, addr) : NULL;
		if (!sym)
			return callsite_put(out, cap, 0, text, len);
		*size = symbols_size(syms, sym);
		return callsite_put(out, cap, 0, ksym_name(syms, sym), strlen(ksym_name(syms, sym)));
	} else {
		const char *mod = memchr(text, ' ', len);
		size_t body = mod ? (size_t)(mod - text) : len;
		const char *plus = memchr(text, '+', body);
		const char *slash = memchr(text, '/', body);

		if (slash)
			*size = parse_hex_size(slash + 1, body - (size_t)(slash + 1 - text));
		return callsite_put(out, cap, 0, text, plus ? (size_t)(plus - text) : body);
	}
}
