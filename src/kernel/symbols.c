/*
 * symbols.c - System.map and kallsyms loading and address lookup (binary
 * search), each with the choice among aliases of the tool whose output the
 * reports must match: trace_analyze.py's, perf's, libtraceevent's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbols.h"
#include "utf8.h"

void symbols_init(struct symbol_table *t)
{
	memset(t, 0, sizeof(*t));
}

void symbols_release(struct symbol_table *t)
{
	free(t->syms);
	free(t->names);
	free(t->modules);
	memset(t, 0, sizeof(*t));
}

static int is_text_type(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int is_global_type(char type)
{
	return type == 'T' || type == 'W';
}

/* Among aliases: text before other kinds, global before local. */
static int alias_rank(char type)
{
	return (is_text_type(type) ? 0 : 2) + (is_global_type(type) ? 0 : 1);
}

static int compare_by_address(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (alias_rank(x->type) != alias_rank(y->type))
		return alias_rank(x->type) - alias_rank(y->type);
	return x->name < y->name ? -1 : x->name > y->name;	/* then file order */
}

/*
 * perf's choice among a kallsyms' aliases: a text one, then the last one in
 * the file (perf gives each symbol the length up to the next, so only the
 * last of an address has one, and prefers it).
 */
static int compare_as_perf(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (is_text_type(x->type) != is_text_type(y->type))
		return is_text_type(x->type) ? -1 : 1;
	return x->name > y->name ? -1 : x->name < y->name;	/* the later first */
}

/* Keep the first (preferred) symbol of each address. */
static void drop_aliases(struct symbol_table *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->count; i++)
		if (n == 0 || t->syms[n - 1].addr != t->syms[i].addr)
			t->syms[n++] = t->syms[i];
	t->count = n;
}

static inline bool is_name_end(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * One "<hex> <type> <name>" line of n bytes (the name ends at a blank:
 * kallsyms puts "\t[module]" after it); false if it is not one.
 */
static bool parse_map_line(const char *line, size_t n, uint64_t *addr, char *type,
			   const char **name, size_t *name_len, const char **module,
			   size_t *module_len)
{
	size_t i = 0, end;
	uint64_t v = 0;

	for (; i < n && i < 17; i++) {
		unsigned c = (unsigned char)line[i], d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	if (i == 0 || i > 16 || i + 3 >= n || line[i] != ' ' || line[i + 2] != ' ')
		return false;
	*addr = v;
	*type = line[i + 1];
	*name = line + i + 3;
	for (end = i + 3; end < n && !is_name_end(line[end]); end++)
		;
	*name_len = end - (i + 3);
	*module = NULL;
	*module_len = 0;
	while (end < n && (line[end] == '\t' || line[end] == ' '))
		end++;
	if (end + 2 < n && line[end] == '[' && memchr(line + end, ']', n - end)) {
		*module = line + end + 1;	/* kallsyms: "\t[ext4]" */
		*module_len = (size_t)((const char *)memchr(line + end, ']', n - end) - *module);
	}
	return *name_len > 0;
}

/*
 * A name appended to t->names, made valid UTF-8 (utf8_clean: a kallsyms
 * may hold any bytes): its offset there.
 */
static uint32_t append_name(struct symbol_table *t, const char *name, size_t len)
{
	char clean[4 * 4096 + 1];	/* lines are under 4096 bytes; a byte cleans to 4 */
	uint32_t at = (uint32_t)t->names_len;

	if (!utf8_is_clean(name, len)) {
		len = utf8_clean(name, len < 4096 ? len : 4095, clean, sizeof(clean));
		name = clean;
	}
	while (t->names_len + len + 1 > t->names_cap) {
		t->names_cap = t->names_cap ? t->names_cap * 2 : 65536;
		t->names = xrealloc(t->names, t->names_cap);
	}
	memcpy(t->names + at, name, len);
	t->names[at + len] = '\0';
	t->names_len += len + 1;
	return at;
}

static void add_symbol(struct symbol_table *t, size_t *cap, uint64_t addr, char type,
		       const char *name, size_t name_len, const char *module, size_t module_len)
{
	if (t->count == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		t->syms = xrealloc(t->syms, *cap * sizeof(*t->syms));
	}
	t->syms[t->count].addr = addr;
	t->syms[t->count].type = type;
	t->syms[t->count].name = append_name(t, name, name_len);
	t->syms[t->count].module = KSYM_BUILT_IN;
	if (module && module_len) {
		t->syms[t->count].module = append_name(t, module, module_len);
		t->have_module_symbols = true;
	}
	t->count++;
}

static int parse_symbols(struct symbol_table *t, const char *text, size_t len,
			 const char *name, enum symbol_rule rule, struct ta_error *err);

/* Parse System.map text (not NUL-terminated necessarily) named `name`. */
int symbols_parse_system_map(struct symbol_table *t, const char *text, size_t len,
			     const char *name, struct ta_error *err)
{
	return parse_symbols(t, text, len, name, SYMRULE_MAP, err);
}

int symbols_parse_kallsyms(struct symbol_table *t, const char *text, size_t len,
			   const char *name, struct ta_error *err)
{
	return parse_symbols(t, text, len, name, SYMRULE_PERF, err);
}

int symbols_parse_tep_kallsyms(struct symbol_table *t, const char *text, size_t len,
			       const char *name, struct ta_error *err)
{
	return parse_symbols(t, text, len, name, SYMRULE_TEP, err);
}

/*
 * libtraceevent's view of a kallsyms (tep_parse_kallsyms): symbols of every
 * kind but absolute ones and ARM's "$" mapping symbols; of several at one
 * address the first in the file, the one its search finds for an address
 * inside the function.
 */
static bool tep_keeps(char type, const char *name)
{
	return type != 'A' && type != 'a' && name[0] != '$';
}

static int compare_in_file_order(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * Symbols by address, aliases in the rule's order. System.map and
 * /proc/kallsyms come sorted by address: then only each run of aliases is
 * sorted (122 k kallsyms lines: 1 ms instead of 12).
 */
static void sort_symbols(struct symbol_table *t, int (*compare)(const void *, const void *))
{
	size_t i, start;

	for (i = 1; i < t->count; i++)
		if (t->syms[i].addr < t->syms[i - 1].addr) {
			qsort(t->syms, t->count, sizeof(*t->syms), compare);
			return;
		}
	for (start = 0; start < t->count; start = i) {
		for (i = start + 1; i < t->count && t->syms[i].addr == t->syms[start].addr; i++)
			;
		if (i - start > 1)
			qsort(t->syms + start, i - start, sizeof(*t->syms), compare);
	}
}

static int parse_symbols(struct symbol_table *t, const char *text, size_t len,
			 const char *name, enum symbol_rule rule, struct ta_error *err)
{
	static int (*const compare[])(const void *, const void *) = {
		[SYMRULE_MAP] = compare_by_address,
		[SYMRULE_PERF] = compare_as_perf,
		[SYMRULE_TEP] = compare_in_file_order,
	};
	size_t cap = len / 40 + 16, lines = 0, bad = 0, texts = 0, at = 0;

	t->syms = xrealloc(t->syms, cap * sizeof(*t->syms));	/* lines are ~40 bytes */
	t->names_cap = t->names_len + len + 1;			/* names fit in the text */
	t->names = xrealloc(t->names, t->names_cap);
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at, sym_len;
		uint64_t addr;
		const char *sym, *module;
		size_t module_len;
		char type;

		lines++;
		if (n < 4096 && parse_map_line(text + at, n, &addr, &type, &sym, &sym_len, &module,
					       &module_len)) {
			if (rule != SYMRULE_TEP || tep_keeps(type, sym))
				add_symbol(t, &cap, addr, type, sym, sym_len, module,
					   module_len);
			texts += is_text_type(type);
		} else {
			bad++;
		}
		at += n + 1;
	}
	if (texts == 0)
		return error_set(err, "'%s' is not a System.map: no text symbols in %zu lines",
				 name, lines);
	sort_symbols(t, compare[rule]);
	drop_aliases(t);
	t->path = name;
	t->rule = rule;
	if (bad)
		warn("%zu of %zu lines of '%s' are not '<address> <type> <name>': ignored",
		     bad, lines, name);
	return 0;
}

static int load_symbols(struct symbol_table *t, const char *path, enum symbol_rule rule,
			struct ta_error *err);

int symbols_load_system_map(struct symbol_table *t, const char *path, struct ta_error *err)
{
	return load_symbols(t, path, SYMRULE_MAP, err);
}

int symbols_load_kallsyms(struct symbol_table *t, const char *path, struct ta_error *err)
{
	return load_symbols(t, path, SYMRULE_PERF, err);
}

/* A whole file (/proc's say size 0) into *text, malloc'd. */
static int read_whole_file(const char *path, char **text, size_t *len, struct ta_error *err)
{
	FILE *f = fopen(path, "re");
	size_t cap = 0, n;
	struct stat st;

	*text = NULL;
	*len = 0;
	if (!f)
		return error_set_errno(err, errno, "cannot open '%s'", path);
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return error_set_errno(err, EISDIR, "cannot read '%s'", path);
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {	/* /proc/kallsyms says 0 */
		cap = (size_t)st.st_size + 1;
		*text = xmalloc(cap);
	}
	do {
		if (*len == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			*text = xrealloc(*text, cap);
		}
		n = fread(*text + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(*text);
		*text = NULL;
		return error_set_errno(err, e, "cannot read '%s'", path);
	}
	fclose(f);
	return 0;
}

static int load_symbols(struct symbol_table *t, const char *path, enum symbol_rule rule,
			struct ta_error *err)
{
	char *text;
	size_t len;
	int rc;

	if (read_whole_file(path, &text, &len, err) < 0)
		return -1;
	rc = parse_symbols(t, text, len, path, rule, err);
	free(text);
	return rc;
}

int symbols_load_modules(struct symbol_table *t, const char *path, struct ta_error *err)
{
	char *text;
	size_t len;
	int rc;

	if (read_whole_file(path, &text, &len, err) < 0)
		return -1;
	rc = symbols_parse_modules(t, text, len, path, err);
	free(text);
	return rc;
}

uint64_t symbols_size(const struct symbol_table *t, const struct ksym *s)
{
	size_t i = (size_t)(s - t->syms);

	return i + 1 < t->count ? t->syms[i + 1].addr - s->addr : 0;
}

/* The nearest symbol at or below addr, whatever its kind; its index or -1. */
static ptrdiff_t nearest_symbol(const struct symbol_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->count;

	if (!t->count || addr < t->syms[0].addr)
		return -1;
	while (hi - lo > 1) {	/* invariant: syms[lo].addr <= addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo;
}

/* The module extent holding addr, or NULL. */
static const struct kmodule_extent *extent_holding(const struct symbol_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nmodules;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < t->modules[mid].start)
			hi = mid;
		else if (addr >= t->modules[mid].end)
			lo = mid + 1;
		else
			return &t->modules[mid];
	}
	return NULL;
}

static bool same_module(const struct symbol_table *t, const struct ksym *a, const struct ksym *b)
{
	return a->module != KSYM_BUILT_IN && b->module != KSYM_BUILT_IN &&
	       strcmp(t->names + a->module, t->names + b->module) == 0;
}

/*
 * Whether the module symbol syms[i] reaches addr (above it): inside the
 * module's /proc/modules extent when one was given (address + size, whose
 * size counts the module's data too, so it alone lets a freed init text
 * just past the code pass), and by its symbols as perf bounds them: up to
 * its next symbol of the same module, or past the module's last symbol to
 * the end of the page after it, never to the next symbol of another module.
 */
static enum symbol_miss module_reaches(const struct symbol_table *t, size_t i, uint64_t addr)
{
	const struct ksym *s = &t->syms[i];

	if (t->modules_given) {
		const struct kmodule_extent *e = extent_holding(t, s->addr);

		if (!e || strcmp(t->names + e->name, t->names + s->module) != 0)
			return SYMMISS_OTHER_LOAD;
		if (addr >= e->end)
			return SYMMISS_PAST_MODULE;
	}
	if (i + 1 < t->count && same_module(t, s, &t->syms[i + 1]))
		return SYMMISS_NONE;	/* addr lies below that next symbol */
	return addr < ((s->addr + 4096 + 4095) & ~(uint64_t)4095) ? SYMMISS_NONE
								   : SYMMISS_PAST_MODULE;
}

/*
 * Whether addr is named after the symbol nearest at or below it (*at, its
 * index), or why not: below or past every symbol, in data (the nearest one
 * is no code), or past its module. Symbols of every kind are kept so that
 * an address past a function's end (in data, or past _end) is not passed
 * off as an offset into it. libtraceevent's rule: a symbol of any kind,
 * none past the last one.
 */
static enum symbol_miss resolve(const struct symbol_table *t, uint64_t addr, ptrdiff_t *at)
{
	ptrdiff_t i = *at = nearest_symbol(t, addr);
	const struct ksym *s;

	if (i < 0)
		return SYMMISS_NO_SYMBOL;
	s = &t->syms[i];
	if (t->rule == SYMRULE_TEP) {
		if ((size_t)i + 1 == t->count && s->addr != addr)
			return SYMMISS_NO_SYMBOL;
	} else if (!is_text_type(s->type)) {
		return SYMMISS_NO_SYMBOL;
	}
	if (s->module != KSYM_BUILT_IN)
		return module_reaches(t, (size_t)i, addr);
	if (t->modules_given && extent_holding(t, addr))
		return SYMMISS_OTHER_LOAD;	/* a module's code with none of its symbols */
	return SYMMISS_NONE;
}

enum symbol_miss symbols_why_not(const struct symbol_table *t, uint64_t addr)
{
	ptrdiff_t i;

	return resolve(t, addr, &i);
}

const struct ksym *symbols_lookup(const struct symbol_table *t, uint64_t addr)
{
	ptrdiff_t i;

	return resolve(t, addr, &i) == SYMMISS_NONE ? &t->syms[i] : NULL;
}

static int compare_extents(const void *a, const void *b)
{
	const struct kmodule_extent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The next blank-separated field of line[*at..n): false at the line's end. */
static bool next_field(const char *line, size_t n, size_t *at, const char **f, size_t *len)
{
	size_t i = *at;

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	*f = line + i;
	while (i < n && line[i] != ' ' && line[i] != '\t')
		i++;
	*len = (size_t)(line + i - *f);
	*at = i;
	return *len > 0;
}

/* f[0..len) as a whole number of that base, with no overflow. */
static bool whole_number(const char *f, size_t len, unsigned base, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < len; i++) {
		unsigned c = (unsigned char)f[i], d;

		if (c - '0' < 10)
			d = c - '0';
		else if (base == 16 && (c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			return false;
		if (*v > (UINT64_MAX - d) / base)
			return false;
		*v = *v * base + d;
	}
	return len > 0;
}

/*
 * One /proc/modules line: "ext4 692224 1 - Live 0xffffffffa0054000 (E)":
 * its name, size and address (the used-by list, however long, is one field).
 */
static bool parse_modules_line(const char *line, size_t n, const char **name, size_t *name_len,
			       uint64_t *size, uint64_t *addr)
{
	const char *f;
	size_t at = 0, len, k;

	if (!next_field(line, n, &at, name, name_len) || !next_field(line, n, &at, &f, &len) ||
	    !whole_number(f, len, 10, size))
		return false;
	for (k = 0; k < 3; k++)	/* refs, used by, state */
		if (!next_field(line, n, &at, &f, &len))
			return false;
	return next_field(line, n, &at, &f, &len) && len > 2 && f[0] == '0' && f[1] == 'x' &&
	       whole_number(f + 2, len - 2, 16, addr);
}

int symbols_parse_modules(struct symbol_table *t, const char *text, size_t len,
			  const char *name, struct ta_error *err)
{
	size_t at = 0, line = 0, cap = 0, i;
	bool any_address = false;

	t->nmodules = 0;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at, mlen;
		const char *mname;
		uint64_t size, addr;

		line++;
		if (!parse_modules_line(text + at, n, &mname, &mlen, &size, &addr))
			return error_set(err, "%s:%zu: not a /proc/modules line "
					 "('name size refs deps state 0xaddress')", name, line);
		if (t->nmodules == cap) {
			cap = cap ? cap * 2 : 64;
			t->modules = xrealloc(t->modules, cap * sizeof(*t->modules));
		}
		t->modules[t->nmodules].start = addr;
		t->modules[t->nmodules].end = addr + size < addr ? UINT64_MAX : addr + size;
		t->modules[t->nmodules].name = append_name(t, mname, mlen);
		t->nmodules++;
		any_address |= addr != 0;
		at += n + 1;
	}
	if (t->nmodules && !any_address)
		return error_set(err, "'%s' gives every module the address 0: it was read without "
				 "root (kptr_restrict); save /proc/modules as root", name);
	qsort(t->modules, t->nmodules, sizeof(*t->modules), compare_extents);
	for (i = 0; i + 1 < t->nmodules; i++)	/* never past the next module's start */
		if (t->modules[i].end > t->modules[i + 1].start)
			t->modules[i].end = t->modules[i + 1].start;
	t->modules_given = true;
	return 0;
}
