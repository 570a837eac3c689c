/*
 * test_dirtree.c - the directory tree of a hand-made kernel tree: paths,
 * placing functions (unique, by size, ambiguous, unknown), sizes summed up
 * the tree, and the cleaned view a ringchart draws; human-readable sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dirtree.h"
#include "ringview.h"
#include "ringchart.h"

static void add_object(struct kernel_tree *t, const char *path, uint64_t text, uint64_t data)
{
	struct kobject *o;

	t->objects = realloc(t->objects, (t->nobjects + 1) * sizeof(*t->objects));
	o = &t->objects[t->nobjects++];
	memset(o, 0, sizeof(*o));
	o->path = strtab_intern(&t->strings, path, strlen(path));
	o->size[KSEC_TEXT] = text;
	o->size[KSEC_DATA] = data;
}

static void add_function(struct kernel_tree *t, const char *name, uint32_t object, uint64_t size)
{
	t->funcs = realloc(t->funcs, (t->nfuncs + 1) * sizeof(*t->funcs));
	t->funcs[t->nfuncs].name = strtab_intern(&t->strings, name, strlen(name));
	t->funcs[t->nfuncs].object = object;
	t->funcs[t->nfuncs].size = size;
	t->nfuncs++;
}

/* arch/x86/kernel/setup.o, fs/ext2/inode.o, fs/ext2/dir.o, net/ipv4/tcp.o, net/ipv6/tcp.o */
static void make_tree(struct kernel_tree *t)
{
	ktree_init(t);
	t->name = strdup("linux");
	add_object(t, "arch/x86/kernel/setup.o", 1000, 24);
	add_object(t, "fs/ext2/inode.o", 300, 8);
	add_object(t, "fs/ext2/dir.o", 200, 0);
	add_object(t, "net/ipv4/tcp.o", 500, 16);
	add_object(t, "net/ipv6/tcp.o", 400, 0);
	add_function(t, "setup_arch", 0, 0x100);
	add_function(t, "ext2_iget", 1, 0x80);
	add_function(t, "reqsk_put", 3, 0x57);
	add_function(t, "reqsk_put", 4, 0x57);
	add_function(t, "tcp_free", 3, 0x20);
	add_function(t, "tcp_free", 4, 0x30);
	ktree_sort_functions(t);
}

static void paths_and_static_sizes_sum_up(void **state)
{
	struct kernel_tree t;
	struct dirtree d;
	char path[256];
	uint32_t fs;

	(void)state;
	make_tree(&t);
	dirtree_build(&d, &t);
	fs = dirtree_find(&d, "fs/");
	assert_int_not_equal(fs, DIR_NONE);
	assert_int_equal(dirtree_find(&d, "./fs"), fs);
	assert_int_equal(dirtree_find(&d, "fs/ext9"), DIR_NONE);
	assert_int_equal(dir_node_static(&d.nodes[fs]), 508);
	assert_int_equal(dir_node_static(&d.nodes[0]), 2448);
	dirtree_path(&d, dirtree_find(&d, "fs/ext2/dir.o"), path, sizeof(path));
	assert_string_equal(path, "fs/ext2/dir.o");
	dirtree_path(&d, 0, path, sizeof(path));
	assert_string_equal(path, ".");
	dirtree_release(&d);
	ktree_release(&t);
}

static void functions_are_placed_by_name_then_size(void **state)
{
	struct kernel_tree t;
	struct dirtree d;
	enum place_kind kind;
	char path[256];
	uint32_t n;

	(void)state;
	make_tree(&t);
	dirtree_build(&d, &t);
	n = dirtree_place_function(&d, "ext2_iget", 9, 0, NULL, &kind);
	assert_int_equal(kind, PLACE_UNIQUE);
	assert_int_equal(n, dirtree_find(&d, "fs/ext2/inode.o"));
	n = dirtree_place_function(&d, "tcp_free", 8, 0x30, NULL, &kind);
	assert_int_equal(kind, PLACE_BY_SIZE);
	assert_int_equal(n, dirtree_find(&d, "net/ipv6/tcp.o"));
	n = dirtree_place_function(&d, "reqsk_put", 9, 0x57, NULL, &kind);
	assert_int_equal(kind, PLACE_AMBIGUOUS);
	dirtree_path(&d, n, path, sizeof(path));
	assert_string_equal(path, "net/(ambiguous)");
	n = dirtree_place_function(&d, "setup", 5, 0, NULL, &kind);	/* a prefix is no match */
	assert_int_equal(kind, PLACE_UNKNOWN);
	dirtree_path(&d, n, path, sizeof(path));
	assert_string_equal(path, "(unknown)");
	assert_int_equal(d.placed[PLACE_UNIQUE], 1);
	assert_int_equal(d.placed[PLACE_BY_SIZE], 1);
	assert_int_equal(d.placed[PLACE_AMBIGUOUS], 1);
	assert_int_equal(d.placed[PLACE_UNKNOWN], 1);
	dirtree_release(&d);
	ktree_release(&t);
}

/* net/ipv6/tcp.o linked into module ipv6: the call site's "[ipv6]" picks its definition */
static void a_module_named_picks_the_definition_in_its_objects(void **state)
{
	struct kernel_tree t;
	struct dirtree d;
	enum place_kind kind;
	uint32_t n, i;

	(void)state;
	make_tree(&t);
	t.object_module = malloc(t.nobjects * sizeof(*t.object_module));
	for (i = 0; i < t.nobjects; i++)
		t.object_module[i] = KMODULE_NONE;
	t.object_module[4] = strtab_intern(&t.strings, "ipv6", 4);
	dirtree_build(&d, &t);
	n = dirtree_place_function(&d, "reqsk_put", 9, 0x57, "ipv6", &kind);
	assert_int_equal(kind, PLACE_BY_MODULE);
	assert_int_equal(n, dirtree_find(&d, "net/ipv6/tcp.o"));
	n = dirtree_place_function(&d, "reqsk_put", 9, 0x57, "vmlinux", &kind);
	assert_int_equal(kind, PLACE_BY_MODULE);
	assert_int_equal(n, dirtree_find(&d, "net/ipv4/tcp.o"));
	/* a module none of whose objects defines it: all the definitions count */
	n = dirtree_place_function(&d, "tcp_free", 8, 0x30, "ext4", &kind);
	assert_int_equal(kind, PLACE_BY_SIZE);
	assert_int_equal(n, dirtree_find(&d, "net/ipv6/tcp.o"));
	n = dirtree_place_function(&d, "ext2_iget", 9, 0, "ipv6", &kind);
	assert_int_equal(kind, PLACE_UNIQUE);
	assert_int_equal(d.placed[PLACE_BY_MODULE], 2);
	dirtree_release(&d);
	ktree_release(&t);
}

static void the_ring_view_drops_zeros_and_merges_chains(void **state)
{
	struct kernel_tree t;
	struct dirtree d;
	struct ring_tree v;
	enum place_kind kind;
	uint32_t n, c;

	(void)state;
	make_tree(&t);
	dirtree_build(&d, &t);
	n = dirtree_place_function(&d, "ext2_iget", 9, 0, NULL, &kind);
	dirtree_add_dynamic(&d, n, 4096, 1024, 1000);
	n = dirtree_place_function(&d, "setup_arch", 10, 0, NULL, &kind);
	dirtree_add_dynamic(&d, n, 512, 512, 500);
	dirtree_ring_view(&d, 0, ATTR_CURRENT_DYNAMIC, &v);
	assert_string_equal(v.nodes[0].label, "linux");
	assert_int_equal(v.nodes[0].value, 1536);
	/* root's children: "arch/x86/kernel" (one chain) and "fs/ext2"; no net */
	c = v.nodes[0].first_child;
	assert_string_equal(v.nodes[c].label, "arch/x86/kernel");
	assert_int_equal(v.nodes[c].value, 512);
	c = v.nodes[c].next_sibling;
	assert_string_equal(v.nodes[c].label, "fs/ext2");
	assert_int_equal(v.nodes[c].next_sibling, RING_NONE);
	assert_string_equal(v.nodes[v.nodes[c].first_child].label, "inode.o");
	ring_tree_release(&v);
	dirtree_ring_view(&d, dirtree_find(&d, "fs"), ATTR_WASTE, &v);
	assert_string_equal(v.nodes[0].label, "fs/ext2");
	assert_int_equal(v.nodes[0].value, 24);
	ring_tree_release(&v);
	dirtree_release(&d);
	ktree_release(&t);
}

static void sizes_read_as_trace_analyze_py_printed_them(void **state)
{
	char s[32];

	(void)state;
	human_size(1, s, sizeof(s));
	assert_string_equal(s, "1 byte");
	human_size(1023, s, sizeof(s));
	assert_string_equal(s, "1023 bytes");
	human_size(1024 * 123, s, sizeof(s));
	assert_string_equal(s, "123.0 KiB");
	human_size(1024 * 12342, s, sizeof(s));
	assert_string_equal(s, "12.1 MiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paths_and_static_sizes_sum_up),
		cmocka_unit_test(functions_are_placed_by_name_then_size),
		cmocka_unit_test(a_module_named_picks_the_definition_in_its_objects),
		cmocka_unit_test(the_ring_view_drops_zeros_and_merges_chains),
		cmocka_unit_test(sizes_read_as_trace_analyze_py_printed_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
