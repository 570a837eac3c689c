/*
 * test_output.c - one document in the three formats, byte for byte:
 * alignment in text, quoting in CSV, escaping and null in JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output.h"

static const struct out_column columns[] = {
	{ "caller", NULL, OUT_STR, false },
	{ "hits", NULL, OUT_U64, false },
	{ "frag_pct", "frag", OUT_PCT, false },
};

static void build(struct out_doc *d)
{
	struct out_block *l, *t;

	out_doc_init(d, "stats");
	l = out_list(d, "totals", "Totals");
	out_item_u64(d, l, "bytes_alloc", "bytes allocated", 20121168);
	out_item_pct(d, l, "fragmentation_pct", "fragmentation", 9.7365);
	out_item_str(d, l, "source", "source", "boot-kmem.log");
	t = out_table(d, "callsites", NULL, columns, 3);
	out_row_str(d, t, "alloc_inode+0x30");
	out_row_u64(d, t, 2666);
	out_row_pct(d, t, 1.3884);
	out_row_str(d, t, "odd \"name\", with comma");
	out_row_u64(d, t, 1);
	out_row_pct(d, t, 0.0 / 0.0);	/* undefined: no value */
}

static char *render(enum out_format format)
{
	struct out_doc d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	build(&d);
	out_write(f, &d, format);
	fclose(f);
	out_doc_release(&d);
	return buf;
}

static void text_aligns(void **state)
{
	char *s = render(FORMAT_TEXT);

	(void)state;
	assert_string_equal(s,
		"Totals\n"
		"bytes allocated: 20121168\n"
		"fragmentation:      9.74%\n"
		"source:          boot-kmem.log\n"
		"\n"
		"caller                  hits   frag\n"
		"-----------------------------------\n"
		"alloc_inode+0x30        2666  1.39%\n"
		"odd \"name\", with comma     1      -\n");
	free(s);
}

static void csv_quotes(void **state)
{
	char *s = render(FORMAT_CSV);

	(void)state;
	assert_string_equal(s,
		"# totals\n"
		"key,value\n"
		"bytes_alloc,20121168\n"
		"fragmentation_pct,9.74\n"
		"source,boot-kmem.log\n"
		"\n"
		"# callsites\n"
		"caller,hits,frag_pct\n"
		"alloc_inode+0x30,2666,1.39\n"
		"\"odd \"\"name\"\", with comma\",1,\n");
	free(s);
}

static void json_escapes(void **state)
{
	char *s = render(FORMAT_JSON);

	(void)state;
	assert_string_equal(s,
		"{\n"
		"  \"schema_version\": 2,\n"
		"  \"report\": \"stats\",\n"
		"  \"totals\": {\n"
		"    \"bytes_alloc\": 20121168,\n"
		"    \"fragmentation_pct\": 9.74,\n"
		"    \"source\": \"boot-kmem.log\"\n"
		"  },\n"
		"  \"callsites\": [\n"
		"    {\"caller\": \"alloc_inode+0x30\", \"hits\": 2666, \"frag_pct\": 1.39},\n"
		"    {\"caller\": \"odd \\\"name\\\", with comma\", \"hits\": 1, \"frag_pct\": null}\n"
		"  ]\n"
		"}\n");
	free(s);
}

static void format_names(void **state)
{
	(void)state;
	assert_string_equal(out_format_names[FORMAT_TEXT], "text");
	assert_string_equal(out_format_names[FORMAT_CSV], "csv");
	assert_string_equal(out_format_names[FORMAT_JSON], "json");
	assert_string_equal(out_format_names[FORMAT_NDJSON], "ndjson");
	assert_null(out_format_names[FORMAT_NDJSON + 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_aligns),
		cmocka_unit_test(csv_quotes),
		cmocka_unit_test(json_escapes),
		cmocka_unit_test(format_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
