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

static void add_symbol(struct symbol_table *t, size_t *cap, size_t *names_cap,
		       uint64_t addr, char type, const char *name, size_t name_len,
		       const char *module, size_t module_len)
{
	if (t->count == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		t->syms = xrealloc(t->syms, *cap * sizeof(*t->syms));
	}
	while (t->names_len + name_len + module_len + 2 > *names_cap) {
		*names_cap = *names_cap ? *names_cap * 2 : 65536;
		t->names = xrealloc(t->names, *names_cap);
	}
	char clean[4096 * 4 + 1];

	if (!utf8_is_clean(name, name_len)) {
		name_len = utf8_clean(name, name_len, clean, sizeof(clean));
		name = clean;
	}
	while (t->names_len + name_len + module_len + 2 > *names_cap) {
		*names_cap = *names_cap ? *names_cap * 2 : 65536;
		t->names = xrealloc(t->names, *names_cap);
	}
	memcpy(t->names + t->names_len, name, name_len);
	t->names[t->names_len + name_len] = '\0';
	t->syms[t->count].addr = addr;
	t->syms[t->count].type = type;
	t->syms[t->count].name = (uint32_t)t->names_len;
	t->names_len += name_len + 1;
	t->syms[t->count].module = KSYM_BUILT_IN;
	if (module && module_len) {
		memcpy(t->names + t->names_len, module, module_len);
		t->names[t->names_len + module_len] = '\0';
		t->syms[t->count].module = (uint32_t)t->names_len;
		t->names_len += module_len + 1;
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
	size_t cap = len / 40 + 16, names_cap = len + 1, lines = 0, bad = 0, texts = 0, at = 0;

	t->syms = xrealloc(t->syms, cap * sizeof(*t->syms));	/* lines are ~40 bytes */
	t->names = xrealloc(t->names, names_cap);		/* names fit in the text */
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
				add_symbol(t, &cap, &names_cap, addr, type, sym, sym_len, module,
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
 * Why addr names no symbol: below or past every symbol, in data (the
 * nearest one is no code), or past its module. Symbols of every kind are
 * kept so that an address past a function's end (in data, or past _end) is
 * not passed off as an offset into it. libtraceevent's rule: a symbol of any
 * kind, none past the last one.
 */
enum symbol_miss symbols_why_not(const struct symbol_table *t, uint64_t addr)
{
	ptrdiff_t i = nearest_symbol(t, addr);
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

/* The symbol holding addr, if symbols_why_not finds no reason against it. */
const struct ksym *symbols_lookup(const struct symbol_table *t, uint64_t addr)
{
	ptrdiff_t i;

	if (!t->count || addr < t->syms[0].addr)
		return NULL;
	if (!t->have_module_symbols && !t->modules_given) {	/* the common, quick case */
		i = nearest_symbol(t, addr);
		if (t->rule == SYMRULE_TEP)
			return (size_t)i + 1 < t->count || t->syms[i].addr == addr ? &t->syms[i]
										   : NULL;
		return is_text_type(t->syms[i].type) ? &t->syms[i] : NULL;
	}
	if (symbols_why_not(t, addr) != SYMMISS_NONE)
		return NULL;
	return &t->syms[nearest_symbol(t, addr)];
}

static int compare_extents(const void *a, const void *b)
{
	const struct kmodule_extent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* One /proc/modules line: "ext4 692224 1 - Live 0xffffffffa0054000 (E)". */
static bool parse_modules_line(const char *line, size_t n, const char **name, size_t *name_len,
			       uint64_t *size, uint64_t *addr)
{
	char buf[512], *fields[6], *save = NULL, *end;
	int k = 0;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, line, n);
	buf[n] = '\0';
	for (char *f = strtok_r(buf, " \t", &save); f && k < 6; f = strtok_r(NULL, " \t", &save))
		fields[k++] = f;
	if (k < 6 || strncmp(fields[5], "0x", 2) != 0)
		return false;
	errno = 0;
	*size = strtoull(fields[1], &end, 10);
	if (errno || *end || end == fields[1])
		return false;
	*addr = strtoull(fields[5] + 2, &end, 16);
	if (errno || *end || end == fields[5] + 2)
		return false;
	*name = line + (fields[0] - buf);
	*name_len = strlen(fields[0]);
	return true;
}

static uint32_t add_name(struct symbol_table *t, const char *name, size_t len)
{
	uint32_t at = (uint32_t)t->names_len;

	t->names = xrealloc(t->names, t->names_len + len + 1);
	memcpy(t->names + at, name, len);
	t->names[at + len] = '\0';
	t->names_len += len + 1;
	return at;
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
		t->modules[t->nmodules].name = add_name(t, mname, mlen);
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
