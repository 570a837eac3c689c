/*
 * kreport.c - callers file, static footprint table and kernel summary
 * lines (what each holds is in kreport.h).
 */
#include <inttypes.h>
#include <string.h>

#include "kreport.h"

/* ---- callers file ------------------------------------------------------------ */

static const struct out_column callers_columns[] = {
	{ "caller", NULL, OUT_STR, false },
	{ "current_dynamic", NULL, OUT_U64, false },
	{ "waste", NULL, OUT_I64, false },
	{ "place", NULL, OUT_STR, false },
};

static void place_of_row(const struct account_row *row, const struct dirtree *d, char *out,
			 size_t cap)
{
	if (row->place == UINT32_MAX || row->place >= d->count)
		snprintf(out, cap, "(unknown)");
	else
		dirtree_path(d, row->place, out, cap);
}

void write_callers(struct out_dest *o, const struct account_rows *rows, const struct dirtree *d)
{
	FILE *f = o->f;
	char place[1024];
	struct out_doc doc;
	struct out_block *t;
	size_t i;

	if (o->format == FORMAT_TEXT) {
		for (i = 0; i < rows->count; i++) {
			const struct account_row *r = &rows->rows[i];

			place_of_row(r, d, place, sizeof(place));
			fprintf(f, "%-60s %-8" PRIu64 " %-8" PRId64 " %-8s\n", r->caller,
				r->s.current_dynamic, site_waste(&r->s), place);
		}
		return;
	}
	out_doc_init(&doc, "callers");
	t = out_table(&doc, "callers", NULL, callers_columns,
		      sizeof(callers_columns) / sizeof(callers_columns[0]));
	t->keyed = true;
	for (i = 0; i < rows->count; i++) {
		const struct account_row *r = &rows->rows[i];

		place_of_row(r, d, place, sizeof(place));
		out_row_str(&doc, t, r->caller);
		out_row_u64(&doc, t, r->s.current_dynamic);
		out_row_i64(&doc, t, site_waste(&r->s));
		out_row_str(&doc, t, place);
	}
	out_emit(o, &doc);
	out_doc_release(&doc);
}

/* ---- static footprint ----------------------------------------------------------- */

static const struct out_column static_columns[] = {
	{ "directory", NULL, OUT_STR, false },
	{ "objects", NULL, OUT_U64, false },
	{ "text", NULL, OUT_U64, false },
	{ "data", NULL, OUT_U64, false },
	{ "rodata", NULL, OUT_U64, false },
	{ "bss", NULL, OUT_U64, false },
	{ "static", NULL, OUT_U64, false },
};

static uint64_t count_objects(const struct dirtree *d, uint32_t node)
{
	uint64_t n = d->nodes[node].object != DIR_NONE;
	uint32_t c;

	for (c = d->nodes[node].first_child; c != DIR_NONE; c = d->nodes[c].next_sibling)
		n += count_objects(d, c);
	return n;
}

static void add_directory_rows(struct out_doc *doc, struct out_block *t, const struct dirtree *d,
			       uint32_t node)
{
	const struct dir_node *n = &d->nodes[node];
	char path[1024];
	uint32_t c;
	int k;

	dirtree_path(d, node, path, sizeof(path));
	out_row_str(doc, t, path);
	out_row_u64(doc, t, count_objects(d, node));
	for (k = 0; k < KSEC_COUNT; k++)
		out_row_u64(doc, t, n->size[k]);
	out_row_u64(doc, t, dir_node_static(n));
	for (c = n->first_child; c != DIR_NONE; c = d->nodes[c].next_sibling)
		if (dir_node_is_directory(d, c))
			add_directory_rows(doc, t, d, c);
}

void write_static_table(struct out_dest *o, const struct dirtree *d, uint32_t top)
{
	const struct dir_node *n = &d->nodes[top];
	struct out_doc doc;
	struct out_block *totals, *t;
	char path[1024];

	dirtree_path(d, top, path, sizeof(path));
	out_doc_init(&doc, "static");
	totals = out_list(&doc, "totals", NULL);
	out_item_str(&doc, totals, "directory", "directory", path);
	out_item_u64(&doc, totals, "objects", "objects", count_objects(d, top));
	out_item_u64(&doc, totals, "text", "text bytes", n->size[KSEC_TEXT]);
	out_item_u64(&doc, totals, "data", "data bytes", n->size[KSEC_DATA]);
	out_item_u64(&doc, totals, "rodata", "rodata bytes", n->size[KSEC_RODATA]);
	out_item_u64(&doc, totals, "bss", "bss bytes", n->size[KSEC_BSS]);
	out_item_u64(&doc, totals, "static", "static bytes", dir_node_static(n));
	t = out_table(&doc, "directories", NULL, static_columns,
		      sizeof(static_columns) / sizeof(static_columns[0]));
	t->keyed = true;
	t->group_by = "dir";
	add_directory_rows(&doc, t, d, top);
	out_emit(o, &doc);
	out_doc_release(&doc);
}

/* ---- summary ----------------------------------------------------------------------- */

/* The loadable modules' objects (ktree.h): how many modules, objects and sized bytes. */
struct module_part {
	uint64_t modules, objects, bytes;
};

static void count_module_part(const struct kernel_tree *kt, struct module_part *m)
{
	uint8_t *seen = kt->object_module ? xcalloc(kt->strings.count, 1) : NULL;
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; seen && i < kt->nobjects; i++) {
		uint32_t id = kt->object_module[i];

		if (id == KMODULE_NONE)
			continue;
		m->objects++;
		m->bytes += kobject_static(&kt->objects[i]);
		m->modules += !seen[id];
		seen[id] = 1;
	}
	free(seen);
}

void write_tree_summary(FILE *f, const char *source, const struct kernel_tree *kt,
			  const struct dirtree *d, bool placed)
{
	const struct ktree_counts *c = &kt->counts;
	uint64_t skipped = c->not_elf + c->bad_elf + c->no_symtab;
	struct module_part m;

	fprintf(f, "kernel '%s': %" PRIu64 " objects, %zu functions, %" PRIu64
		" sized symbols%s\n", source, c->objects, kt->nfuncs, c->symbols,
		kt->system_map ? ", System.map" : ", no System.map");
	if (skipped)
		fprintf(f, "  objects skipped:   %" PRIu64 " (not ELF %" PRIu64 ", truncated or "
			"unreadable %" PRIu64 ", no symbol table %" PRIu64 ")\n",
			skipped, c->not_elf, c->bad_elf, c->no_symtab);
	if (kt->boot_objects)
		fprintf(f, "  left out:          %" PRIu64 " objects under arch/*/boot (the boot "
			"decompressor and setup code: not linked into vmlinux)\n", kt->boot_objects);
	if (kt->vmlinux.present && d && d->count) {
		uint64_t sum = kt->vmlinux.text + kt->vmlinux.data + kt->vmlinux.bss;
		uint64_t sized = dir_node_static(&d->nodes[0]);

		count_module_part(kt, &m);
		sized -= m.bytes;
		fprintf(f, "  vmlinux:           text %" PRIu64 ", data %" PRIu64 ", bss %" PRIu64
			" = %" PRIu64 " bytes (its sections, as size(1) adds them)\n",
			kt->vmlinux.text, kt->vmlinux.data, kt->vmlinux.bss, sum);
		fprintf(f, "  static footprint:  %" PRIu64 " bytes of sized symbols in the %sobjects, "
			"%.1f%% of vmlinux; the rest has no symbol size: string literals and merged "
			"constants, alignment padding, linker tables (__ksymtab, __param, ...), "
			"per-CPU and init sections\n", sized, m.modules ? "built-in " : "",
			sum ? 100.0 * (double)sized / (double)sum : 0);
	}
	count_module_part(kt, &m);
	if (m.modules)
		fprintf(f, "  modules:           %" PRIu64 " built as .ko (their .mod lists): %"
			PRIu64 " objects, %" PRIu64 " bytes of sized symbols, not in vmlinux "
			"(the static table counts them in their directories)\n",
			m.modules, m.objects, m.bytes);
	if (placed && d) {
		fprintf(f, "  call sites placed: %" PRIu64 " defined once, ", d->placed[PLACE_UNIQUE]);
		if (d->placed[PLACE_BY_MODULE])
			fprintf(f, "%" PRIu64 " by the module named, ", d->placed[PLACE_BY_MODULE]);
		fprintf(f, "%" PRIu64 " by function size, %" PRIu64 " ambiguous (in the common "
			"directory), %" PRIu64 " not in the tree\n", d->placed[PLACE_BY_SIZE],
			d->placed[PLACE_AMBIGUOUS], d->placed[PLACE_UNKNOWN]);
	}
}

static bool node_has_bytes(const struct dir_node *n)
{
	int a;

	for (a = 0; a < ATTR_COUNT; a++)
		if (dir_node_value(n, (enum size_attr)a))
			return true;
	return false;
}

static void write_node_json(FILE *f, const struct dirtree *d, uint32_t node)
{
	const struct dir_node *n = &d->nodes[node];
	uint32_t c;
	int a;
	bool first = true;

	fputs("{\"name\":", f);
	out_json_string(f, node ? dir_node_name(d, node) : "(tree)");
	fputs(",\"v\":[", f);
	for (a = 0; a < ATTR_COUNT; a++)
		fprintf(f, "%s%llu", a ? "," : "",
			(unsigned long long)dir_node_value(n, (enum size_attr)a));
	fputc(']', f);
	for (c = n->first_child; c != DIR_NONE; c = d->nodes[c].next_sibling) {
		if (!node_has_bytes(&d->nodes[c]))
			continue;
		fputs(first ? ",\"c\":[\n" : ",\n", f);
		first = false;
		write_node_json(f, d, c);
	}
	if (!first)
		fputc(']', f);
	fputc('}', f);
}

void write_dirtree_json(FILE *f, const struct dirtree *d, uint32_t top)
{
	int a;

	fputs("{\"attrs\":[", f);
	for (a = 0; a < ATTR_COUNT; a++) {
		if (a)
			fputc(',', f);
		out_json_string(f, size_attr_name((enum size_attr)a));
	}
	fputs("],\"root\":", f);
	write_node_json(f, d, top);
	fputs("}\n", f);
}
