/*
 * tracedat_tep.c - the tep handle of a walkable trace.dat made from its
 * parts (tracedat_tep.h), as libtracecmd would make it.
 * Not here: finding the parts (tracedat_layout.c), reading the pages.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "bigmem.h"
#include "error.h"
#include "tracedat_tep.h"

static bool host_is_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* n bytes of the file at t, NUL-terminated, as libtracecmd reads a part to parse. */
static char *text_copy(const unsigned char *map, const struct dat_text *t)
{
	char *s = xmalloc(t->len + 1);

	memcpy(s, map + t->off, t->len);
	s[t->len] = '\0';
	return s;
}

struct tep_handle *dat_tep_of_parts(const unsigned char *map, const struct dat_flyrecord *fly,
				    struct symbol_table *kallsyms)
{
	const struct dat_meta *m = &fly->meta;
	struct tep_handle *tep = tep_alloc();
	struct ta_error ignored;
	char *text;
	size_t i;

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_is_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)fly->long_size);
	text = text_copy(map, &m->header_page);
	tep_parse_header_page(tep, text, (unsigned long)m->header_page.len, (int)fly->long_size);
	free(text);
	for (i = 0; i < m->nformats; i++)
		tep_parse_event(tep, (const char *)map + m->formats[i].text.off,
				(unsigned long)m->formats[i].text.len, m->formats[i].system);
	if (m->has_kallsyms && m->kallsyms.len) {
		const char *k = (const char *)map + m->kallsyms.off;

		if (symbols_parse_tep_kallsyms(kallsyms, k, strnlen(k, m->kallsyms.len),
					       "kallsyms", &ignored) < 0)
			symbols_release(kallsyms);
	}
	if (m->has_cmdlines) {
		text = text_copy(map, &m->cmdlines);
		tep_parse_saved_cmdlines(tep, text);
		free(text);
	}
	/* read once: the page cache keeps them, this process need not (5 MB of kallsyms) */
	pages_give_back(map + m->kallsyms.off, (size_t)m->kallsyms.len);
	pages_give_back(map + m->cmdlines.off, (size_t)m->cmdlines.len);
	if (m->cpus)
		tep_set_cpus(tep, (int)m->cpus);
	return tep;
}

