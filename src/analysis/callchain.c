/*
 * callchain.c - frame classes, origins and folded stacks, computed once per
 * distinct frame and stack, never per event. The allocators' functions and
 * the wrappers are lists of names and globs (data/allocators.txt,
 * data/wrappers.txt, --wrappers FILE).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "callchain.h"
#include "callsite.h"
#include "text_stacks.h"

/* data/wrappers.txt, made into C strings at build time */
static const char *const builtin_wrappers[] = {
#include "wrappers.inc"
};

/* ---- names --------------------------------------------------------------------- */

size_t without_clone_suffixes(const char *name, size_t len)
{
	size_t i;

	for (i = 1; i < len; i++) {
		const char *dot = name + i;
		size_t rest = len - i;

		if (*dot != '.')
			continue;
		if ((rest >= 5 && memcmp(dot, ".cold", 5) == 0) ||
		    (rest > 11 && memcmp(dot, ".constprop.", 11) == 0) ||
		    (rest > 6 && memcmp(dot, ".isra.", 6) == 0) ||
		    (rest > 6 && memcmp(dot, ".part.", 6) == 0) ||
		    (rest > 1 && dot[1] >= '0' && dot[1] <= '9'))
			return i;
	}
	return len;
}

size_t function_key(const char *name, size_t len, char *out, size_t cap)
{
	static const char noprof[] = "_noprof";
	size_t n = without_clone_suffixes(name, len);

	if (n > sizeof(noprof) - 1 && memcmp(name + n - (sizeof(noprof) - 1), noprof,
					     sizeof(noprof) - 1) == 0)
		n -= sizeof(noprof) - 1;
	if (cap == 0)
		return 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, name, n);
	out[n] = '\0';
	return n;
}

/* ---- names and globs ---------------------------------------------------------------- */

/* data/allocators.txt, made into C strings at build time */
static const char *const builtin_allocators[] = {
#include "allocators.inc"
};

static char *copy_of(const char *text, size_t len)
{
	char *s = xmalloc(len + 1);

	memcpy(s, text, len);
	s[len] = '\0';
	return s;
}

static bool has_glob_characters(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] == '*' || text[i] == '?' || text[i] == '[')
			return true;
	return false;
}

/*
 * One line of a list: an exact name goes to names; a glob to globs (a
 * trailing '*' alone, the common case, is compared as a prefix).
 */
static void add_name_or_glob(struct strtab *names, struct name_globs *globs, const char *text,
			     size_t len)
{
	char key[FRAME_NAME_MAX + 1];
	struct name_glob *g;
	size_t n;

	if (!has_glob_characters(text, len)) {
		n = function_key(text, len, key, sizeof(key));
		if (n)
			strtab_intern(names, key, n);
		return;
	}
	if (globs->count == globs->cap) {
		globs->cap = globs->cap ? 2 * globs->cap : 16;
		globs->g = xrealloc(globs->g, globs->cap * sizeof(*globs->g));
	}
	g = &globs->g[globs->count++];
	g->text = copy_of(text, len);
	g->len = len;
	g->prefix = len > 1 && text[len - 1] == '*' && !has_glob_characters(text, len - 1);
	if (g->prefix)
		g->len = len - 1;
}

static void release_globs(struct name_globs *globs)
{
	size_t i;

	for (i = 0; i < globs->count; i++)
		free(globs->g[i].text);
	free(globs->g);
	memset(globs, 0, sizeof(*globs));
}

/* Whether the normalized name key (NUL-terminated, n bytes) matches one of globs. */
static bool matches_a_glob(const struct name_globs *globs, const char *key, size_t n)
{
	size_t i;

	for (i = 0; i < globs->count; i++) {
		const struct name_glob *g = &globs->g[i];

		if (g->prefix ? n >= g->len && memcmp(key, g->text, g->len) == 0
			      : fnmatch(g->text, key, 0) == 0)
			return true;
	}
	return false;
}

static bool is_allocator(const struct callchains *c, const char *key, size_t n)
{
	return strtab_find(&c->allocators, key, n) != STR_NONE ||
	       matches_a_glob(&c->allocator_globs, key, n);
}

static bool is_wrapper(const struct callchains *c, const char *key, size_t n)
{
	return strtab_find(&c->wrappers, key, n) != STR_NONE ||
	       matches_a_glob(&c->wrapper_globs, key, n);
}

/* ---- wrappers ---------------------------------------------------------------------- */

/* A line of --wrappers FILE: added, and kept for the matched-nothing check. */
static void add_user_wrapper(struct callchains *c, const char *text, size_t len,
			     unsigned long line)
{
	struct user_wrapper *u;

	add_name_or_glob(&c->wrappers, &c->wrapper_globs, text, len);
	if (c->nuser == c->user_cap) {
		c->user_cap = c->user_cap ? 2 * c->user_cap : 16;
		c->user = xrealloc(c->user, c->user_cap * sizeof(*c->user));
	}
	u = &c->user[c->nuser++];
	u->text = copy_of(text, len);
	u->line = line;
}

/* One name or glob a line, '#' comments, blank lines; spaces around a name ignored. */
static int read_wrappers_file(struct callchains *c, const char *path, struct ta_error *err)
{
	FILE *f = fopen(path, "re");
	char line[4096];
	unsigned long no = 0;

	if (!f)
		return error_set_errno(err, errno, "cannot open wrappers file '%s'", path);
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e, *hash = strchr(line, '#');

		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			return error_set(err, "'%s' line %lu: a line longer than %zu bytes", path, no,
					 sizeof(line) - 1);
		}
		if (hash)
			*hash = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strcspn(s, " \t\r\n");
		if (*e && e[strspn(e, " \t\r\n")]) {
			fclose(f);
			return error_set(err, "'%s' line %lu: one function name a line, not '%.*s'",
					 path, no, (int)strcspn(s, "\r\n"), s);
		}
		if (e > s)
			add_user_wrapper(c, s, (size_t)(e - s), no);
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return error_set_errno(err, e, "cannot read wrappers file '%s'", path);
	}
	fclose(f);
	return 0;
}

/* Whether a line of --wrappers FILE names (or matches) a frame of the log. */
static bool user_wrapper_matches(const struct callchains *c, const struct user_wrapper *u)
{
	char key[FRAME_NAME_MAX + 1];
	size_t n = 0;
	uint32_t i;

	if (!has_glob_characters(u->text, strlen(u->text)))
		n = function_key(u->text, strlen(u->text), key, sizeof(key));
	for (i = 0; i < c->nframes; i++) {
		const char *name = strtab_get(&c->names, c->frame_key[i]);

		if (n ? strcmp(name, key) == 0 : fnmatch(u->text, name, 0) == 0)
			return true;
	}
	return false;
}

void callchains_warn_unmatched_wrappers(const struct callchains *c, const char *path)
{
	size_t i;

	if (!c->nframes)
		return;	/* no stacks: nothing for any wrapper to match */
	for (i = 0; i < c->nuser; i++)
		if (!user_wrapper_matches(c, &c->user[i]))
			warn("--wrappers '%s' line %lu: '%s' matches no frame of the log's stacks",
			     path, c->user[i].line, c->user[i].text);
}

int callchains_init(struct callchains *c, const struct trace_strings *strings,
		    const struct symbol_table *syms, const char *wrappers_file,
		    struct ta_error *err)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->strings = strings;
	c->syms = syms;
	strtab_init(&c->wrappers);
	strtab_init(&c->allocators);
	strtab_init(&c->names);
	for (i = 0; i < sizeof(builtin_wrappers) / sizeof(builtin_wrappers[0]); i++)
		add_name_or_glob(&c->wrappers, &c->wrapper_globs, builtin_wrappers[i],
				 strlen(builtin_wrappers[i]));
	for (i = 0; i < sizeof(builtin_allocators) / sizeof(builtin_allocators[0]); i++)
		add_name_or_glob(&c->allocators, &c->allocator_globs, builtin_allocators[i],
				 strlen(builtin_allocators[i]));
	if (wrappers_file && read_wrappers_file(c, wrappers_file, err) < 0) {
		callchains_release(c);
		return -1;
	}
	callchains_update(c);
	return 0;
}

void callchains_release(struct callchains *c)
{
	size_t i;

	strtab_release(&c->wrappers);
	strtab_release(&c->allocators);
	release_globs(&c->wrapper_globs);
	release_globs(&c->allocator_globs);
	for (i = 0; i < c->nuser; i++)
		free(c->user[i].text);
	free(c->user);
	strtab_release(&c->names);
	free(c->frame_name);
	free(c->frame_key);
	free(c->frame_class);
	free(c->frame_module);
	free(c->origin);
	memset(c, 0, sizeof(*c));
}

/* ---- classifying ------------------------------------------------------------------ */

/* "func [ext4]": the module kept apart, the length of "func" returned. */
static size_t without_module(struct callchains *c, uint32_t id, const char *text, size_t len)
{
	const char *open;

	if (len < 4 || text[len - 1] != ']')
		return len;
	for (open = text + len - 2; open > text && *open != '['; open--)
		;
	if (open <= text + 1 || open[-1] != ' ' || open + 1 == text + len - 1)
		return len;
	c->frame_module[id] = strtab_intern(&c->names, open + 1, (size_t)(text + len - 1 - open - 1));
	c->names_modules = true;
	return (size_t)(open - 1 - text);
}

size_t callchains_frame_module_name(const struct callchains *c, uint32_t frame, bool names_modules,
				    char *out, size_t cap)
{
	const struct strtab *frames = &c->strings->frames;
	const char *named = callchains_frame_module(c, frame);
	uint64_t addr;
	int n;

	if (named)
		n = snprintf(out, cap, "%s", named);
	else if (callsite_is_address(strtab_get(frames, frame), strtab_length(frames, frame), &addr))
		return callsite_module(strtab_get(frames, frame), strtab_length(frames, frame),
				       c->syms, out, cap);
	else
		n = snprintf(out, cap, "%s", names_modules || c->names_modules ? "vmlinux"
										 : "(unknown)");
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void classify_frame(struct callchains *c, uint32_t id)
{
	const struct strtab *frames = &c->strings->frames;
	const char *text = strtab_get(frames, id);
	size_t len = strtab_length(frames, id);
	char name[FRAME_NAME_MAX + 1], key[FRAME_NAME_MAX + 1];
	uint64_t addr;
	size_t n, k;

	c->frame_module[id] = STR_NONE;
	if (len == sizeof(USER_FRAMES_MARK) - 1 && memcmp(text, USER_FRAMES_MARK, len) == 0) {
		c->frame_name[id] = strtab_intern(&c->names, text, len);
		c->frame_key[id] = c->frame_name[id];
		c->frame_class[id] = FRAME_USER_MARK;
		return;
	}
	len = without_module(c, id, text, len);
	n = len < sizeof(name) - 1 ? len : sizeof(name) - 1;
	memcpy(name, text, n);
	name[n] = '\0';
	if (callsite_is_address(text, len, &addr) && c->syms && c->syms->count) {
		const struct ksym *sym = symbols_lookup(c->syms, addr);

		if (sym)
			n = (size_t)snprintf(name, sizeof(name), "%s", ksym_name(c->syms, sym));
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
	}
	/* ';' separates frames in the folded form: never inside a name */
	for (k = 0; k < n; k++)
		if (name[k] == ';')
			name[k] = ':';
	c->frame_name[id] = strtab_intern(&c->names, name, n);
	k = function_key(name, n, key, sizeof(key));
	c->frame_key[id] = strtab_intern(&c->names, key, k);
	if (is_allocator(c, key, k))
		c->frame_class[id] = FRAME_ALLOCATOR;
	else if (is_wrapper(c, key, k))
		c->frame_class[id] = FRAME_WRAPPER;
	else
		c->frame_class[id] = FRAME_OTHER;
}

static uint32_t origin_of_stack(const struct callchains *c, uint32_t stack)
{
	uint32_t n, i;
	const uint32_t *f = stack_frames(&c->strings->stacks, stack, &n);

	for (i = 0; i < n; i++) {
		if (c->frame_class[f[i]] == FRAME_USER_MARK)
			break;	/* the kernel frames are all allocators or wrappers */
		if (c->frame_class[f[i]] == FRAME_OTHER)
			return f[i];
	}
	return STR_NONE;
}

void callchains_update(struct callchains *c)
{
	uint32_t nframes = c->strings->frames.count, nstacks = c->strings->stacks.count, i;

	if (nframes > c->nframes) {
		c->frame_name = xrealloc(c->frame_name, nframes * sizeof(*c->frame_name));
		c->frame_key = xrealloc(c->frame_key, nframes * sizeof(*c->frame_key));
		c->frame_class = xrealloc(c->frame_class, nframes);
		c->frame_module = xrealloc(c->frame_module, nframes * sizeof(*c->frame_module));
		for (i = c->nframes; i < nframes; i++)
			classify_frame(c, i);
		c->nframes = nframes;
	}
	if (nstacks > c->nstacks) {
		c->origin = xrealloc(c->origin, nstacks * sizeof(*c->origin));
		for (i = c->nstacks; i < nstacks; i++)
			c->origin[i] = origin_of_stack(c, i);
		c->nstacks = nstacks;
	}
}

/* ---- origins and folded stacks ------------------------------------------------------ */

static size_t call_site_function(const struct callchains *c, uint32_t call_site, char *out,
				 size_t cap)
{
	const struct strtab *cs = &c->strings->call_sites;
	char name[CALLSITE_NAME_MAX];
	uint64_t size;
	size_t n = callsite_function(strtab_get(cs, call_site), strtab_length(cs, call_site),
				     c->syms, name, sizeof(name), &size);

	return function_key(name, n, out, cap);
}

size_t callchains_origin(const struct callchains *c, uint32_t call_site, uint32_t stack,
			 char *out, size_t cap)
{
	uint32_t frame = stack != STACK_NONE && stack < c->nstacks ? c->origin[stack] : STR_NONE;
	const char *key;
	size_t n;

	if (frame != STR_NONE) {
		key = strtab_get(&c->names, c->frame_key[frame]);
		n = strtab_length(&c->names, c->frame_key[frame]);
		if (cap == 0)
			return 0;
		if (n >= cap)
			n = cap - 1;
		memcpy(out, key, n);
		out[n] = '\0';
		return n;
	}
	if (call_site != STR_NONE)
		return call_site_function(c, call_site, out, cap);
	return (size_t)snprintf(out, cap, "%s", ORIGIN_NO_STACK);
}

/*
 * One frame of a folded line: a space in its name becomes '_' and a ';'
 * a ':' (a demangled "operator new(unsigned long)"), so that every reader
 * of folded stacks splits the line alike: frames at ';', the count after
 * the last space.
 */
static size_t put_frame(const struct callchains *c, char *out, size_t cap, size_t at,
			uint32_t frame)
{
	const char *name = callchains_frame_name(c, frame);
	size_t start, i, n = strtab_length(&c->names, c->frame_name[frame]);

	if (at)
		at = callsite_put(out, cap, at, ";", 1);
	start = at;
	at = callsite_put(out, cap, at, name, n);
	for (i = start; i < at; i++)
		if (out[i] == ' ' || out[i] == '\t')
			out[i] = '_';
		else if (out[i] == ';')
			out[i] = ':';
	return at;
}

size_t callchains_folded(const struct callchains *c, uint32_t call_site, uint32_t stack,
			 char *out, size_t cap)
{
	const uint32_t *f;
	uint32_t n = 0, i, mark;
	size_t at = 0;

	if (cap)
		out[0] = '\0';
	if (stack != STACK_NONE && stack < c->nstacks) {
		f = stack_frames(&c->strings->stacks, stack, &n);
		for (mark = 0; mark < n && c->frame_class[f[mark]] != FRAME_USER_MARK; mark++)
			;
		for (i = n; i > mark + 1; i--)	/* user frames, outermost first */
			at = put_frame(c, out, cap, at, f[i - 1]);
		for (i = mark; i > 0; i--)
			if (c->frame_class[f[i - 1]] != FRAME_ALLOCATOR)
				at = put_frame(c, out, cap, at, f[i - 1]);
		if (at)
			return at;
	}
	at = callsite_put(out, cap, 0, "[no_stack]", 10);
	if (call_site != STR_NONE) {
		char name[CALLSITE_NAME_MAX];
		uint64_t size;
		const struct strtab *cs = &c->strings->call_sites;
		size_t len = callsite_function(strtab_get(cs, call_site),
					       strtab_length(cs, call_site), c->syms, name,
					       sizeof(name), &size);

		for (i = 0; i < len; i++)
			if (name[i] == ';')
				name[i] = ':';
			else if (name[i] == ' ' || name[i] == '\t')
				name[i] = '_';	/* "sym [module]" */
		at = callsite_put(out, cap, at, ";", 1);
		at = callsite_put(out, cap, at, name, len);
	}
	return at;
}
