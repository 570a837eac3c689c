/*
 * ktree.c - walking a built kernel tree with libelf: which objects it has,
 * what functions each defines, and how big each one's static footprint is.
 *
 * Reads symbol tables only (no DWARF, no relocations) and never runs a
 * subprocess. A file that is not ELF, is truncated, or has no symbol table
 * is counted and skipped; only an unreadable top directory is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elflib.h"
#include "ktree.h"

#define MAX_WARNINGS 3		/* skipped objects named one by one */

static const char *const section_names[KSEC_COUNT] = {
	[KSEC_TEXT] = "text",
	[KSEC_DATA] = "data",
	[KSEC_RODATA] = "rodata",
	[KSEC_BSS] = "bss",
};

const char *ksection_name(enum ksection s)
{
	return section_names[s];
}

void ktree_init(struct kernel_tree *t)
{
	memset(t, 0, sizeof(*t));
	strtab_init(&t->strings);
}

void ktree_release(struct kernel_tree *t)
{
	free(t->name);
	strtab_release(&t->strings);
	free(t->objects);
	free(t->object_module);
	free(t->funcs);
	free(t->vars);
	free(t->nmsyms);
	free(t->system_map);
	memset(t, 0, sizeof(*t));
}

/* ---- lookups ---------------------------------------------------------------- */

static int compare_functions(const void *pa, const void *pb)
{
	const struct kfunc *a = pa, *b = pb;

	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return a->object < b->object ? -1 : a->object > b->object;
}

void ktree_sort_functions(struct kernel_tree *t)
{
	if (t->nfuncs)
		qsort(t->funcs, t->nfuncs, sizeof(*t->funcs), compare_functions);
}

const struct kfunc *ktree_find_function(const struct kernel_tree *t, const char *name,
					size_t len, size_t *count)
{
	uint32_t id = strtab_find(&t->strings, name, len);
	size_t lo = 0, hi = t->nfuncs, end;

	*count = 0;
	if (id == STR_NONE)
		return NULL;
	while (lo < hi) {	/* first entry with name >= id */
		size_t mid = lo + (hi - lo) / 2;

		if (t->funcs[mid].name < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < t->nfuncs && t->funcs[end].name == id; end++)
		;
	*count = end - lo;
	return end > lo ? &t->funcs[lo] : NULL;
}

/* ---- one object ------------------------------------------------------------ */

struct sized_symbol {
	size_t shndx;		/* section, or SIZE_MAX - i for a COMMON symbol */
	uint64_t value;
	uint64_t size;
	enum ksection kind;
};

struct walk {
	struct kernel_tree *t;
	size_t objects_cap, funcs_cap, vars_cap, nmsyms_cap;
	struct sized_symbol *syms;	/* scratch, reused per object */
	size_t syms_cap;
	enum ksection *section_kind;	/* scratch: kind of each section */
	char *section_nm;		/* scratch: nm's letter of each section, 0: none */
	size_t section_cap;
	unsigned warnings;
	char **mod_lists;		/* the .mod files of modules built (a .ko beside) */
	size_t nmod_lists;
	char path[PATH_MAX];
	size_t root_len;		/* path[0..root_len) is the tree, with its '/' */
};

enum skip_reason { SKIP_NONE, SKIP_NOT_ELF, SKIP_BAD_ELF, SKIP_NO_SYMTAB };

static enum ksection kind_of_section(const GElf_Shdr *sh)
{
	if (sh->sh_type == SHT_NOBITS)
		return KSEC_BSS;
	if (sh->sh_flags & SHF_WRITE)
		return KSEC_DATA;
	if (sh->sh_flags & SHF_EXECINSTR)
		return KSEC_TEXT;
	return KSEC_RODATA;
}

/*
 * nm's letter for a symbol of a section (binutils' choice, for the sections
 * a kernel object has): code 't', no bits 'b', writable 'd', other
 * allocated 'r'; a section not loaded (debug, comments) has none.
 */
static char nm_letter_of_section(const GElf_Shdr *sh)
{
	if (!(sh->sh_flags & SHF_ALLOC))
		return 0;
	if (sh->sh_flags & SHF_EXECINSTR)
		return 't';
	if (sh->sh_type == SHT_NOBITS)
		return 'b';
	if (sh->sh_flags & SHF_WRITE)
		return 'd';
	return 'r';
}

/* A symbol's nm letter, or 0 for those bloat-o-meter leaves out (W, V, C, A, u, U, n). */
static char nm_letter(const struct walk *w, const GElf_Sym *sym, size_t shnum)
{
	int bind = GELF_ST_BIND(sym->st_info), type = GELF_ST_TYPE(sym->st_info);
	char c;

	if (type == STT_SECTION || type == STT_FILE || sym->st_size == 0 ||
	    sym->st_shndx == SHN_UNDEF || sym->st_shndx >= shnum ||
	    (bind != STB_LOCAL && bind != STB_GLOBAL))
		return 0;
	c = w->section_nm[sym->st_shndx];
	return c && bind == STB_GLOBAL ? (char)(c - 'a' + 'A') : c;
}

static void add_nmsym(struct walk *w, const char *name, uint32_t object, uint64_t size, char c)
{
	struct kernel_tree *t = w->t;

	if (!name || !*name)
		return;
	if (t->nnmsyms == w->nmsyms_cap) {
		w->nmsyms_cap = w->nmsyms_cap ? w->nmsyms_cap * 2 : 16384;
		t->nmsyms = xrealloc(t->nmsyms, w->nmsyms_cap * sizeof(*t->nmsyms));
	}
	t->nmsyms[t->nnmsyms].name = strtab_intern(&t->strings, name, strlen(name));
	t->nmsyms[t->nnmsyms].object = object;
	t->nmsyms[t->nnmsyms].size = size;
	t->nmsyms[t->nnmsyms].type = (uint32_t)(unsigned char)c;
	t->nmsyms[t->nnmsyms].reserved = 0;
	t->nnmsyms++;
}

static void add_function(struct walk *w, const char *name, uint32_t object, uint64_t size)
{
	struct kernel_tree *t = w->t;

	if (t->nfuncs == w->funcs_cap) {
		w->funcs_cap = w->funcs_cap ? w->funcs_cap * 2 : 16384;
		t->funcs = xrealloc(t->funcs, w->funcs_cap * sizeof(*t->funcs));
	}
	t->funcs[t->nfuncs].name = strtab_intern(&t->strings, name, strlen(name));
	t->funcs[t->nfuncs].object = object;
	t->funcs[t->nfuncs].size = size;
	t->nfuncs++;
}

static void add_var(struct walk *w, const char *name, uint32_t object, uint64_t size,
		    enum ksection kind)
{
	struct kernel_tree *t = w->t;

	if (!name || !*name)
		return;
	if (t->nvars == w->vars_cap) {
		w->vars_cap = w->vars_cap ? w->vars_cap * 2 : 16384;
		t->vars = xrealloc(t->vars, w->vars_cap * sizeof(*t->vars));
	}
	t->vars[t->nvars].name = strtab_intern(&t->strings, name, strlen(name));
	t->vars[t->nvars].object = object;
	t->vars[t->nvars].size = size;
	t->vars[t->nvars].section = kind;
	t->vars[t->nvars].reserved = 0;
	t->nvars++;
}

static void add_sized_symbol(struct walk *w, size_t *n, size_t shndx, uint64_t value,
			     uint64_t size, enum ksection kind)
{
	if (*n == w->syms_cap) {
		w->syms_cap = w->syms_cap ? w->syms_cap * 2 : 1024;
		w->syms = xrealloc(w->syms, w->syms_cap * sizeof(*w->syms));
	}
	w->syms[*n] = (struct sized_symbol){ shndx, value, size, kind };
	(*n)++;
}

static int compare_sized(const void *pa, const void *pb)
{
	const struct sized_symbol *a = pa, *b = pb;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->size > b->size ? -1 : a->size < b->size;	/* largest first */
}

/* Sum the sized symbols into o, counting each address once. */
static void sum_static_sizes(struct walk *w, size_t n, struct kobject *o)
{
	size_t i;

	if (n == 0)
		return;
	qsort(w->syms, n, sizeof(*w->syms), compare_sized);
	for (i = 0; i < n; i++) {
		if (i > 0 && w->syms[i].shndx == w->syms[i - 1].shndx &&
		    w->syms[i].value == w->syms[i - 1].value)
			continue;	/* an alias of the one before */
		o->size[w->syms[i].kind] += w->syms[i].size;
	}
}

/* Remember each section's kind; return the symbol table's section. */
static Elf_Scn *classify_sections(struct walk *w, Elf *e, size_t shnum)
{
	Elf_Scn *scn = NULL, *symtab = NULL;

	if (shnum > w->section_cap) {
		w->section_cap = shnum;
		w->section_kind = xrealloc(w->section_kind, shnum * sizeof(*w->section_kind));
		w->section_nm = xrealloc(w->section_nm, shnum);
	}
	memset(w->section_kind, 0, shnum * sizeof(*w->section_kind));
	memset(w->section_nm, 0, shnum);
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh) || idx >= shnum)
			continue;
		w->section_kind[idx] = kind_of_section(&sh);
		w->section_nm[idx] = nm_letter_of_section(&sh);
		if (sh.sh_type == SHT_SYMTAB && !symtab)
			symtab = scn;
	}
	return symtab;
}

/* Do the ELF header's section table and every section lie inside the file? */
static bool is_whole(Elf *e, uint64_t file_size)
{
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;

	if (!gelf_getehdr(e, &eh) || eh.e_shoff > file_size ||
	    (uint64_t)eh.e_shnum * eh.e_shentsize > file_size - eh.e_shoff)
		return false;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return false;
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > file_size || sh.sh_size > file_size - sh.sh_offset))
			return false;
	}
	return true;
}

static enum skip_reason read_symbols(struct walk *w, Elf *e, uint64_t file_size,
				     uint32_t object, struct kobject *o)
{
	size_t shnum, nsyms, i, nsized = 0;
	Elf_Scn *symtab;
	Elf_Data *data;
	GElf_Shdr sh;

	if (elf_getshdrnum(e, &shnum) != 0 || !is_whole(e, file_size))
		return SKIP_BAD_ELF;
	symtab = classify_sections(w, e, shnum);
	if (!symtab)
		return SKIP_NO_SYMTAB;
	if (!gelf_getshdr(symtab, &sh) || sh.sh_entsize == 0)
		return SKIP_BAD_ELF;
	data = elf_getdata(symtab, NULL);
	if (!data)
		return SKIP_BAD_ELF;
	nsyms = data->d_size / sh.sh_entsize;
	for (i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		int type;
		const char *name;

		char letter;

		if (!gelf_getsym(data, (int)i, &sym))
			return SKIP_BAD_ELF;
		if ((letter = nm_letter(w, &sym, shnum)) != 0)
			add_nmsym(w, elf_strptr(e, sh.sh_link, sym.st_name), object, sym.st_size,
				  letter);
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_OBJECT && type != STT_TLS)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS)
			continue;
		if (sym.st_shndx == SHN_COMMON) {
			if (type != STT_FUNC && sym.st_size) {
				add_sized_symbol(w, &nsized, SIZE_MAX - i, 0, sym.st_size, KSEC_BSS);
				add_var(w, elf_strptr(e, sh.sh_link, sym.st_name), object,
					sym.st_size, KSEC_BSS);
			}
			continue;
		}
		if (sym.st_shndx >= shnum)
			continue;	/* reserved indexes: not a section of ours */
		if (type == STT_FUNC) {
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (name && *name)
				add_function(w, name, object, sym.st_size);
		}
		if (sym.st_size == 0)
			continue;
		add_sized_symbol(w, &nsized, sym.st_shndx, sym.st_value, sym.st_size,
				 type == STT_FUNC ? KSEC_TEXT : w->section_kind[sym.st_shndx]);
		if (type != STT_FUNC)
			add_var(w, elf_strptr(e, sh.sh_link, sym.st_name), object, sym.st_size,
				w->section_kind[sym.st_shndx]);
	}
	o->nsymbols = (uint32_t)nsized;
	w->t->counts.symbols += nsized;
	sum_static_sizes(w, nsized, o);
	return SKIP_NONE;
}

static void count_skipped(struct walk *w, enum skip_reason why, const char *rel)
{
	static const char *const what[] = {
		[SKIP_NOT_ELF] = "not an ELF file",
		[SKIP_BAD_ELF] = "truncated or unreadable ELF",
		[SKIP_NO_SYMTAB] = "no symbol table",
	};

	if (why == SKIP_NOT_ELF)
		w->t->counts.not_elf++;
	else if (why == SKIP_BAD_ELF)
		w->t->counts.bad_elf++;
	else
		w->t->counts.no_symtab++;
	if (why != SKIP_NO_SYMTAB && w->warnings++ < MAX_WARNINGS)
		warn("object '%s' skipped: %s", rel, what[why]);
}

static void read_object(struct walk *w)
{
	struct kernel_tree *t = w->t;
	const char *rel = w->path + w->root_len;
	size_t nfuncs_before = t->nfuncs, nvars_before = t->nvars, nnm_before = t->nnmsyms;
	uint32_t object = (uint32_t)t->nobjects;
	struct kobject o = { 0 };
	enum skip_reason why = SKIP_BAD_ELF;
	int fd = open(w->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	Elf *e;

	if (fd >= 0 && fstat(fd, &st) == 0) {
		e = elf_begin(fd, ELF_C_READ, NULL);
		if (!e || elf_kind(e) != ELF_K_ELF)
			why = SKIP_NOT_ELF;
		else
			why = read_symbols(w, e, (uint64_t)st.st_size, object, &o);
		if (e)
			elf_end(e);
	}
	if (fd >= 0)
		close(fd);
	if (why != SKIP_NONE) {
		t->nfuncs = nfuncs_before;	/* nothing of it is kept */
		t->nvars = nvars_before;
		t->nnmsyms = nnm_before;
		count_skipped(w, why, rel);
		return;
	}
	if (t->nobjects == w->objects_cap) {
		w->objects_cap = w->objects_cap ? w->objects_cap * 2 : 1024;
		t->objects = xrealloc(t->objects, w->objects_cap * sizeof(*t->objects));
	}
	o.path = strtab_intern(&t->strings, rel, strlen(rel));
	t->objects[t->nobjects++] = o;
	t->counts.objects++;
}

/* ---- the walk -------------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static bool is_kernel_object_name(const char *name)
{
	return ends_with(name, ".o") && strncmp(name, "built-in.", 9) != 0 &&
	       strcmp(name, "vmlinux.o") != 0 && !ends_with(name, ".mod.o");
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_name(char **names, size_t n, const char *name)
{
	return bsearch(&name, names, n, sizeof(*names), compare_names) != NULL;
}

/* "x.o" has "x.c" or "x.S" among names. */
static bool has_source(char **names, size_t n, const char *object)
{
	size_t len = strlen(object);
	char src[NAME_MAX + 1];

	if (len > NAME_MAX)
		return false;
	memcpy(src, object, len + 1);
	src[len - 1] = 'c';
	if (has_name(names, n, src))
		return true;
	src[len - 1] = 'S';
	return has_name(names, n, src);
}

/* "x.mod" with "x.ko" among names: the object list of a module built. */
static bool is_module_list(char **names, size_t n, const char *name)
{
	size_t len = strlen(name);
	char ko[NAME_MAX + 1];

	if (!ends_with(name, ".mod") || len > NAME_MAX - 1)
		return false;
	memcpy(ko, name, len - 3);
	memcpy(ko + len - 3, "ko", 3);
	return has_name(names, n, ko);
}

/* The sorted entries of directory w->path, or -1 with errno. */
static int list_directory(const char *path, char ***out, size_t *count)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), compare_names);
	*out = names;
	*count = n;
	return 0;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool is_build_tool_directory(const char *name)
{
	return strcmp(name, "scripts") == 0 || strcmp(name, "tools") == 0;
}

/* arch/<arch>/boot: the boot decompressor and real-mode setup, not part of vmlinux. */
static bool is_boot_directory(const struct walk *w, int depth, const char *name)
{
	return depth == 3 && strcmp(name, "boot") == 0 &&
	       strncmp(w->path + w->root_len, "arch/", 5) == 0;
}

/* The kernel objects under w->path: read, or only counted; returns how many. */
static uint64_t walk_directory(struct walk *w, size_t len, int depth, bool count_only)
{
	char **names;
	size_t n, i;
	uint64_t found = 0;

	if (list_directory(w->path, &names, &n) < 0) {
		if (!count_only)
			warn("cannot read directory '%s': %s: skipped", w->path, strerror(errno));
		return 0;
	}
	for (i = 0; i < n; i++) {
		size_t nlen = strlen(names[i]);
		struct stat st;

		if (len + 1 + nlen >= sizeof(w->path))
			continue;
		w->path[len] = '/';
		memcpy(w->path + len + 1, names[i], nlen + 1);
		if (lstat(w->path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (count_only)
				found += walk_directory(w, len + 1 + nlen, depth + 1, true);
			else if (is_boot_directory(w, depth + 1, names[i]))
				w->t->boot_objects += walk_directory(w, len + 1 + nlen, depth + 1, true);
			else if (!(depth == 0 && is_build_tool_directory(names[i])))
				found += walk_directory(w, len + 1 + nlen, depth + 1, false);
		} else if (S_ISREG(st.st_mode) && is_kernel_object_name(names[i]) &&
			   has_source(names, n, names[i])) {
			found++;
			if (!count_only)
				read_object(w);
		} else if (!count_only && S_ISREG(st.st_mode) && is_module_list(names, n, names[i])) {
			w->mod_lists = xrealloc(w->mod_lists,
						(w->nmod_lists + 1) * sizeof(*w->mod_lists));
			w->mod_lists[w->nmod_lists++] = xstrdup(w->path);
		}
	}
	w->path[len] = '\0';
	free_names(names, n);
	return found;
}

static char *tree_name_of(const char *dir)
{
	char *copy = xstrdup(dir), *real, *slash;
	size_t n = strlen(copy);

	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	slash = strrchr(copy, '/');
	if (strcmp(slash ? slash + 1 : copy, ".") && strcmp(slash ? slash + 1 : copy, "..") &&
	    *(slash ? slash + 1 : copy)) {
		char *name = xstrdup(slash ? slash + 1 : copy);

		free(copy);
		return name;
	}
	free(copy);
	real = realpath(dir, NULL);
	if (real && (slash = strrchr(real, '/')) && slash[1]) {
		char *name = xstrdup(slash + 1);

		free(real);
		return name;
	}
	free(real);
	return xstrdup("/");
}

static int read_system_map(struct kernel_tree *t, const char *dir, struct ta_error *err)
{
	size_t n = strlen(dir) + sizeof("/System.map");
	char *path = xmalloc(n);
	struct stat st;
	FILE *f;
	int rc = 0;

	snprintf(path, n, "%s/System.map", dir);
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(path);
		return 0;	/* a tree without one: hex call sites stay hex */
	}
	f = fopen(path, "re");
	if (!f) {
		rc = error_set_errno(err, errno, "cannot open '%s'", path);
		free(path);
		return rc;
	}
	t->system_map = xmalloc((size_t)st.st_size + 1);
	t->system_map_len = fread(t->system_map, 1, (size_t)st.st_size, f);
	t->system_map[t->system_map_len] = '\0';
	if (ferror(f))
		rc = error_set_errno(err, errno ? errno : EIO, "cannot read '%s'", path);
	fclose(f);
	free(path);
	return rc;
}

/* <tree>/vmlinux's allocated sections, as size(1) counts them; nothing without one. */
static void read_vmlinux_sizes(struct kernel_tree *t, const char *dir)
{
	size_t n = strlen(dir) + sizeof("/vmlinux");
	char *path = xmalloc(n);
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	snprintf(path, n, "%s/vmlinux", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
				continue;
			if (sh.sh_type == SHT_NOBITS)
				t->vmlinux.bss += sh.sh_size;
			else if (sh.sh_flags & SHF_WRITE)
				t->vmlinux.data += sh.sh_size;
			else
				t->vmlinux.text += sh.sh_size;
			t->vmlinux.present = true;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
}

/* ---- modules ---------------------------------------------------------------- */

/* The module name of list path ".../ext4.mod" as the kernel spells it: "ext4", '-' as '_'. */
static uint32_t module_name_of(struct kernel_tree *t, const char *path)
{
	const char *base = strrchr(path, '/');
	char name[NAME_MAX + 1];
	size_t n, i;

	base = base ? base + 1 : path;
	n = strlen(base) - 4;	/* ".mod" */
	memcpy(name, base, n);
	for (i = 0; i < n; i++)
		if (name[i] == '-')
			name[i] = '_';
	return strtab_intern(&t->strings, name, n);
}

/* The objects each module's list names, marked as that module's; a list unread is skipped. */
static void mark_module_objects(struct kernel_tree *t, char **lists, size_t nlists)
{
	uint32_t *object_of;	/* path string id -> object index + 1 */
	size_t i, count = t->strings.count;

	t->object_module = xmalloc((t->nobjects ? t->nobjects : 1) * sizeof(*t->object_module));
	for (i = 0; i < t->nobjects; i++)
		t->object_module[i] = KMODULE_NONE;
	object_of = xcalloc(count ? count : 1, sizeof(*object_of));
	for (i = 0; i < t->nobjects; i++)
		object_of[t->objects[i].path] = (uint32_t)i + 1;
	for (i = 0; i < nlists; i++) {
		FILE *f = fopen(lists[i], "re");
		char line[PATH_MAX];
		uint32_t module = module_name_of(t, lists[i]);

		while (f && fgets(line, sizeof(line), f)) {
			uint32_t id;

			line[strcspn(line, "\n")] = '\0';
			id = strtab_find(&t->strings, line, strlen(line));
			if (id < count && object_of[id])
				t->object_module[object_of[id] - 1] = module;
		}
		if (f)
			fclose(f);
	}
	free(object_of);
}

int ktree_walk(struct kernel_tree *t, const char *dir, struct ta_error *err)
{
	struct walk w = { .t = t };
	struct stat st;
	size_t len = strlen(dir);

	if (stat(dir, &st) < 0)
		return error_set_errno(err, errno, "cannot open kernel tree '%s'", dir);
	if (!S_ISDIR(st.st_mode))
		return error_set(err, "kernel tree '%s' is not a directory", dir);
	if (access(dir, R_OK | X_OK) < 0)
		return error_set_errno(err, errno, "cannot read kernel tree '%s'", dir);
	if (elf_library_load(err) < 0)
		return -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return error_set(err, "libelf is too old: %s", elf_errmsg(-1));
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len + 2 >= sizeof(w.path))
		return error_set(err, "kernel tree path '%s' is too long", dir);
	memcpy(w.path, dir, len);
	w.path[len] = '\0';
	w.root_len = len + 1;
	t->name = tree_name_of(dir);
	walk_directory(&w, len, 0, false);
	mark_module_objects(t, w.mod_lists, w.nmod_lists);
	for (size_t i = 0; i < w.nmod_lists; i++)
		free(w.mod_lists[i]);
	free(w.mod_lists);
	read_vmlinux_sizes(t, dir);
	t->has_nmsyms = true;
	free(w.syms);
	free(w.section_kind);
	free(w.section_nm);
	ktree_sort_functions(t);
	return read_system_map(t, dir, err);
}

int ktree_read_file(struct kernel_tree *t, const char *path, struct ta_error *err)
{
	struct walk w = { .t = t };
	const char *base = strrchr(path, '/');
	size_t len = strlen(path);

	if (elf_library_load(err) < 0)
		return -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return error_set(err, "libelf is too old: %s", elf_errmsg(-1));
	if (len + 1 >= sizeof(w.path))
		return error_set(err, "'%s': the path is too long", path);
	memcpy(w.path, path, len + 1);
	w.root_len = base ? (size_t)(base - path) + 1 : 0;	/* the object is named by its file */
	t->name = xstrdup(base ? base + 1 : path);
	w.warnings = MAX_WARNINGS;	/* the one message is the error below */
	read_object(&w);
	free(w.syms);
	free(w.section_kind);
	free(w.section_nm);
	ktree_sort_functions(t);
	if (t->counts.objects != 1)
		return error_set(err, "'%s' is neither a kernel tree, a kernel index nor a readable "
				 "ELF object with a symbol table", path);
	t->has_nmsyms = true;
	return 0;
}

static bool exists_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static bool has_linux_makefile(const char *dir)
{
	char path[4096], line[256];
	bool version = false, patchlevel = false;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	for (n = 0; n < 20 && fgets(line, sizeof(line), f); n++) {
		version |= strncmp(line, "VERSION =", 9) == 0;
		patchlevel |= strncmp(line, "PATCHLEVEL =", 12) == 0;
	}
	fclose(f);
	return version && patchlevel;
}

int ktree_check_top(const char *dir, struct ta_error *err)
{
	if (exists_in(dir, "System.map") || exists_in(dir, "vmlinux") || has_linux_makefile(dir))
		return 0;
	return error_set(err, "'%s' is not a kernel tree: its top has no System.map, vmlinux or "
			 "Linux Makefile (VERSION =, PATCHLEVEL =)", dir);
}
