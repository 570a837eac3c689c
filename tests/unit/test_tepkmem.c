/*
 * test_tepkmem.c - every record of the trace.dat captures read two ways
 * and compared, field by field: ours (pages walked in place,
 * tracedat_pages.h; fields read at offsets learned once, tepkmem.h) and
 * the libraries' own reading, the reference (tracecmd_iterate_events'
 * records; tep_get_field_val, tep_data_pid, tep_print_event for the gfp
 * flags). Where the pages are walked, the tep handle made of the file's
 * parts (tracedat_tep.h) is held to the one libtracecmd's open makes as
 * the reader made it before (kmem and ftrace formats, kallsyms into a
 * table: tepoverrides.h): the same kallsyms table, CPU count and header
 * page, and every record decoded with each the same event, strings and
 * task names included. The captures: the fixtures', a version 6 copy of
 * one when trace-cmd is there, and the corpus's when it is beside the tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <event-parse.h>
#include <trace-cmd/trace-cmd.h>

#include "symbols.h"
#include "tepkmem.h"
#include "tepoverrides.h"
#include "text_parse.h"
#include "tracedat_layout.h"
#include "tracedat_pages.h"
#include "tracedat_tep.h"
#include "tracelib.h"

/* A record as the page walk handed it on. */
struct walked {
	uint64_t ts, offset;
	int cpu, size, missed;
	const void *data;
};

struct check {
	struct tepkmem k;
	struct trace_strings strings;
	struct tep_handle *tep;
	struct trace_seq seq;
	struct walked *walked;
	size_t nwalked, cap, at;
	uint64_t records, kmem, stacks, fields;
	const char *file;
	/* the tep made of the file's parts, and libtracecmd's as the reader opened it */
	struct tep_handle *own;
	struct tepkmem own_k, lib_k;
	struct trace_strings own_strings, lib_strings;
	uint64_t own_events;
};

static int keep_walked(struct tep_record *rec, int cpu, void *ctx)
{
	struct check *c = ctx;

	if (c->nwalked == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 4096;
		c->walked = realloc(c->walked, c->cap * sizeof(*c->walked));
	}
	c->walked[c->nwalked++] = (struct walked){ rec->ts, rec->offset, cpu, rec->size,
						   rec->missed_events, rec->data };
	return 0;
}

static uint64_t field(struct check *c, struct tep_event *e, struct tep_record *rec,
		      const char *name)
{
	unsigned long long v = 0;

	assert_int_equal(tep_get_field_val(NULL, e, name, rec, &v, 0), 0);
	c->fields++;
	return v;
}

static bool has_field(struct tep_event *e, const char *name)
{
	return tep_find_field(e, name) != NULL;
}

/* The "gfp_flags=" word of the record printed whole, as trace-cmd report prints it. */
static void printed_gfp(struct check *c, struct tep_record *rec, char *out, size_t cap)
{
	const char *p, *end;

	trace_seq_reset(&c->seq);
	tep_print_event(c->tep, &c->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&c->seq);
	p = strstr(c->seq.buffer, "gfp_flags=");
	assert_non_null(p);
	p += strlen("gfp_flags=");
	end = p + strcspn(p, " ");
	snprintf(out, cap, "%.*s", (int)(end - p), p);
}

static void compare_slab(struct check *c, struct tep_event *e, struct tep_record *rec,
			 const struct kmem_event *ev)
{
	char hex[32], gfp[256];

	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)field(c, e, rec, "call_site"));
	assert_string_equal(strtab_get(&c->strings.call_sites, ev->call_site), hex);
	assert_true(field(c, e, rec, "ptr") == ev->ptr);
	if (kmem_is_slab_alloc(ev->kind)) {
		assert_true(field(c, e, rec, "bytes_req") == ev->bytes_req);
		assert_true(field(c, e, rec, "bytes_alloc") == ev->bytes_alloc);
		printed_gfp(c, rec, gfp, sizeof(gfp));
		assert_string_equal(strtab_get(&c->strings.gfps, ev->gfp), gfp);
	}
	if (has_field(e, "node"))
		assert_int_equal((int32_t)field(c, e, rec, "node"), ev->node);
	if (has_field(e, "accounted"))
		assert_int_equal(field(c, e, rec, "accounted") ? ACCOUNTED_TRUE : ACCOUNTED_FALSE,
				 ev->accounted);
	if (has_field(e, "name")) {
		int len = 0;
		const char *name = tep_get_field_raw(NULL, e, "name", rec, &len, 0);

		assert_non_null(name);
		assert_string_equal(strtab_get(&c->strings.caches, ev->cache), name);
	}
}

static void compare_page(struct check *c, struct tep_event *e, struct tep_record *rec,
			 const struct kmem_event *ev)
{
	char gfp[256];

	if (has_field(e, "pfn")) {
		uint64_t pfn = field(c, e, rec, "pfn");

		assert_true((pfn == UINT64_MAX ? 0 : pfn) == ev->pfn);
		assert_true(ev->ptr == ev->pfn);
	}
	if (has_field(e, "order") && ev->kind != KMEM_PAGE_ALLOC_EXTFRAG)
		assert_int_equal((int8_t)field(c, e, rec, "order"), ev->order);
	if (has_field(e, "migratetype") && ev->kind != KMEM_PAGE_ALLOC_EXTFRAG)
		assert_int_equal((int8_t)field(c, e, rec, "migratetype"), ev->migratetype);
	if (ev->kind == KMEM_PAGE_ALLOC_ZONE_LOCKED)
		assert_int_equal((int8_t)field(c, e, rec, "percpu_refill"), ev->percpu_refill);
	if (has_field(e, "gfp_flags")) {
		printed_gfp(c, rec, gfp, sizeof(gfp));
		assert_string_equal(strtab_get(&c->strings.gfps, ev->gfp), gfp);
	}
}

static void compare_stack(struct check *c, struct tep_event *e, struct tep_record *rec)
{
	const struct tep_format_field *caller = tep_find_field(e, "caller");
	const unsigned char *data = rec->data;
	const uint32_t *frames;
	uint32_t n, i = 0;
	char hex[32];

	assert_non_null(caller);
	frames = tepkmem_stack(&c->k, &n);
	for (; caller->offset + (int)((i + 1) * 8) <= rec->size; i++) {
		uint64_t addr;

		memcpy(&addr, data + caller->offset + i * 8, 8);
		if (addr == 0 || addr == UINT64_MAX)
			break;
		assert_true(i < n);
		snprintf(hex, sizeof(hex), "%llx", (unsigned long long)addr);
		assert_string_equal(strtab_get(&c->strings.frames, frames[i]), hex);
	}
	if (has_field(e, "size") && field(c, e, rec, "size") < i)
		i = (uint32_t)field(c, e, rec, "size");
	assert_int_equal(n, i);
	c->stacks++;
}

/* The walk's record at the same place: the same record, as libtracecmd hands it. */
static void compare_walked(struct check *c, const struct tep_record *rec, int cpu)
{
	const struct walked *w;

	if (!c->walked)
		return;
	assert_true(c->at < c->nwalked);
	w = &c->walked[c->at++];
	assert_true(w->ts == rec->ts);
	assert_true(w->offset == rec->offset);
	assert_int_equal(w->cpu, cpu);
	assert_int_equal(w->size, rec->size);
	assert_int_equal(w->missed, rec->missed_events);
	assert_memory_equal(w->data, rec->data, (size_t)rec->size);
}

static const char *text_of(const struct strtab *t, uint32_t id)
{
	return id == STR_NONE ? "(none)" : strtab_get(t, id);
}

/* rec decoded with the tep made of the parts and with libtracecmd's: the same, strings too. */
static void compare_with_own_tep(struct check *c, struct tep_record *rec)
{
	struct kmem_event a, b;
	enum tepkmem_record ga = tepkmem_decode(&c->own_k, rec, &a);
	enum tepkmem_record gb = tepkmem_decode(&c->lib_k, rec, &b);

	assert_int_equal(ga, gb);
	if (ga != TEPKMEM_EVENT)
		return;
	assert_int_equal(a.kind, b.kind);
	assert_true(a.ts_ns == b.ts_ns && a.ptr == b.ptr && a.pfn == b.pfn);
	assert_int_equal(a.bytes_req, b.bytes_req);
	assert_int_equal(a.bytes_alloc, b.bytes_alloc);
	assert_int_equal(a.pid, b.pid);
	assert_int_equal(a.cpu, b.cpu);
	assert_int_equal(a.node, b.node);
	assert_int_equal(a.accounted, b.accounted);
	assert_int_equal(a.order, b.order);
	assert_int_equal(a.migratetype, b.migratetype);
	assert_int_equal(a.percpu_refill, b.percpu_refill);
	assert_string_equal(text_of(&c->own_strings.call_sites, a.call_site),
			    text_of(&c->lib_strings.call_sites, b.call_site));
	assert_string_equal(text_of(&c->own_strings.caches, a.cache),
			    text_of(&c->lib_strings.caches, b.cache));
	assert_string_equal(text_of(&c->own_strings.gfps, a.gfp), text_of(&c->lib_strings.gfps, b.gfp));
	assert_string_equal(text_of(&c->own_strings.comms, a.comm),
			    text_of(&c->lib_strings.comms, b.comm));
	c->own_events++;
}

static void same_symbols(const struct symbol_table *a, const struct symbol_table *b)
{
	size_t i;

	assert_int_equal(a->count, b->count);
	for (i = 0; i < a->count; i++) {
		assert_true(a->syms[i].addr == b->syms[i].addr);
		assert_int_equal(a->syms[i].type, b->syms[i].type);
		assert_string_equal(ksym_name(a, &a->syms[i]), ksym_name(b, &b->syms[i]));
		assert_true((ksym_module(a, &a->syms[i]) == NULL) ==
			    (ksym_module(b, &b->syms[i]) == NULL));
		if (ksym_module(a, &a->syms[i]))
			assert_string_equal(ksym_module(a, &a->syms[i]), ksym_module(b, &b->syms[i]));
	}
}

static int compare_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	struct check *c = ctx;
	struct tep_event *e = tep_find_event(c->tep, tep_data_type(c->tep, rec));
	enum kmem_kind kind = KMEM_NONE;
	struct kmem_event ev;
	enum tepkmem_record got;

	(void)h;
	compare_walked(c, rec, cpu);
	rec->cpu = cpu;
	c->records++;
	if (c->own)
		compare_with_own_tep(c, rec);
	got = tepkmem_decode(&c->k, rec, &ev);
	assert_non_null(e);
	if (strcmp(e->system, "ftrace") == 0 && strcmp(e->name, "kernel_stack") == 0) {
		assert_int_equal(got, TEPKMEM_STACK);
		compare_stack(c, e, rec);
		return 0;
	}
	if (strcmp(e->system, "kmem") == 0)
		kind = kmem_kind_of_name(e->name, strlen(e->name));
	if (kind == KMEM_NONE) {
		assert_int_equal(got, TEPKMEM_OTHER);
		return 0;
	}
	assert_int_equal(got, TEPKMEM_EVENT);
	assert_int_equal(ev.kind, kind);
	assert_true(ev.ts_ns == rec->ts);
	assert_int_equal(ev.cpu, cpu);
	assert_int_equal(ev.pid, tep_data_pid(c->tep, rec));
	if (kmem_is_page(kind))
		compare_page(c, e, rec, &ev);
	else
		compare_slab(c, e, rec, &ev);
	c->kmem++;
	return 0;
}

static int file_version(int fd)
{
	char head[16] = { 0 };

	return pread(fd, head, sizeof(head) - 1, 0) > 10 ? atoi(head + 10) : 0;
}

/* Every record of path both ways; the counts on stdout for the log. */
static void check_capture(const char *path, bool expect_walk)
{
	struct check c = { .file = path };
	struct dat_flyrecord fly;
	struct ta_error err;
	struct tracecmd_input *h, *lib = NULL;
	struct symbol_table own_syms, lib_syms;
	struct stat st;
	void *map = NULL;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(trace_library_load("for the test", &err), 0);
	assert_int_equal(datlayout_check(fd, file_version(fd), &fly), DAT_LAYOUT_OK);
	assert_int_equal(fly.walkable, expect_walk);
	h = tracecmd_open_fd(dup(fd), TRACECMD_FL_LOAD_NO_PLUGINS);
	assert_non_null(h);
	c.tep = tracecmd_get_tep(h);
	trace_strings_init(&c.strings);
	trace_seq_init(&c.seq);
	tepkmem_init(&c.k, c.tep, &c.strings, WANT_ALL & ~WANT_COMM, NULL, NULL);
	if (fly.walkable) {
		assert_int_equal(fstat(fd, &st), 0);
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		assert_true(map != MAP_FAILED);
		assert_int_equal(datpages_iterate(map, (uint64_t)st.st_size, &fly,
						  keep_walked, &c), 0);
		assert_true(c.nwalked > 0);
		symbols_init(&own_syms);
		symbols_init(&lib_syms);
		c.own = dat_tep_of_parts(map, &fly, &own_syms);
		assert_non_null(c.own);
		assert_int_equal(lseek(fd, 0, SEEK_SET), 0);	/* the first open's dup moved it */
		tep_overrides_open(&lib_syms);
		lib = tracecmd_open_fd(dup(fd), TRACECMD_FL_LOAD_NO_PLUGINS);
		tep_overrides_end();
		assert_non_null(lib);
		same_symbols(&own_syms, &lib_syms);
		assert_int_equal(tep_get_cpus(c.own), tep_get_cpus(tracecmd_get_tep(lib)));
		assert_int_equal(tep_is_old_format(c.own), tep_is_old_format(tracecmd_get_tep(lib)));
		assert_int_equal(tep_get_header_page_size(c.own),
				 tep_get_header_page_size(tracecmd_get_tep(lib)));
		assert_int_equal(tep_get_header_timestamp_size(c.own),
				 tep_get_header_timestamp_size(tracecmd_get_tep(lib)));
		trace_strings_init(&c.own_strings);
		trace_strings_init(&c.lib_strings);
		tepkmem_init(&c.own_k, c.own, &c.own_strings, WANT_ALL, NULL, NULL);
		tepkmem_init(&c.lib_k, tracecmd_get_tep(lib), &c.lib_strings, WANT_ALL, NULL, NULL);
	}
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, compare_record, &c), 0);
	assert_true(c.at == c.nwalked);
	assert_true(c.kmem > 0);
	printf("# %s: %llu records (%llu kmem events, %llu stacks), %llu fields compared%s\n",
	       path, (unsigned long long)c.records, (unsigned long long)c.kmem,
	       (unsigned long long)c.stacks, (unsigned long long)c.fields,
	       fly.walkable ? ", pages walked in place" : "");
	if (c.own) {
		assert_true(c.own_events == c.kmem);
		printf("# %s: the tep of its parts: %zu kallsyms, %llu events as libtracecmd's\n",
		       path, own_syms.count, (unsigned long long)c.own_events);
		tepkmem_release(&c.own_k);
		tepkmem_release(&c.lib_k);
		trace_strings_release(&c.own_strings);
		trace_strings_release(&c.lib_strings);
		tep_free(c.own);
		tracecmd_close(lib);
		symbols_release(&own_syms);
		symbols_release(&lib_syms);
	}
	if (map)
		munmap(map, (size_t)st.st_size);
	free(c.walked);
	tepkmem_release(&c.k);
	trace_seq_destroy(&c.seq);
	trace_strings_release(&c.strings);
	tracecmd_close(h);
	dat_flyrecord_release(&fly);
	close(fd);
}

static void fixtures_with_stacks(void **state)
{
	(void)state;
	check_capture("tests/fixtures/small-stacks.dat", true);
}

static void fixture_with_sched_events_and_lost_pages(void **state)
{
	(void)state;
	check_capture("tests/fixtures/mixed-events.dat", true);
}

/* out: path made from the xz'd corpus file name, or skip */
static void unpacked_corpus(const char *name, char *out, size_t cap)
{
	char cmd[1024];
	const char *dir = "../shared/corpus/host-6.18/binary";

	snprintf(out, cap, "%s/ta-test-%ld-%s", P_tmpdir, (long)getpid(), name);
	snprintf(cmd, sizeof(cmd), "test -r %s/%s.xz && xz -dc %s/%s.xz > %s", dir, name, dir,
		 name, out);
	if (system(cmd) != 0) {
		unlink(out);
		print_message("# skip: no ../shared corpus (%s/%s.xz)\n", dir, name);
		skip();
	}
}

static void corpus_captures(void **state)
{
	const char *names[] = { "kmem.dat", "kmem-stacks.dat" };
	char path[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		unpacked_corpus(names[i], path, sizeof(path));
		check_capture(path, true);
		unlink(path);
	}
}

/* The same records in a version 6 file (trace-cmd convert), and in zstd chunks (libtracecmd's reading). */
static void other_versions(void **state)
{
	char v6[256], zstd[256], cmd[1024];

	(void)state;
	snprintf(v6, sizeof(v6), "%s/ta-test-%ld-v6.dat", P_tmpdir, (long)getpid());
	snprintf(zstd, sizeof(zstd), "%s/ta-test-%ld-zstd.dat", P_tmpdir, (long)getpid());
	snprintf(cmd, sizeof(cmd), "command -v trace-cmd > /dev/null && trace-cmd convert -i "
		 "tests/fixtures/small-stacks.dat --file-version 6 -o %s > /dev/null 2>&1", v6);
	if (system(cmd) != 0) {
		print_message("# skip: no trace-cmd that converts (scripts/deps.sh)\n");
		skip();
	}
	check_capture(v6, true);
	unlink(v6);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i tests/fixtures/small-stacks.dat "
		 "--file-version 7 --compression zstd -o %s > /dev/null 2>&1", zstd);
	if (system(cmd) == 0)
		check_capture(zstd, false);
	unlink(zstd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures_with_stacks),
		cmocka_unit_test(fixture_with_sched_events_and_lost_pages),
		cmocka_unit_test(corpus_captures),
		cmocka_unit_test(other_versions),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
