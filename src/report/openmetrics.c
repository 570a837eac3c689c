/*
 * openmetrics.c - metric families written as OpenMetrics text
 * (openmetrics.h): gathered by label set, summed, cut to the largest
 * series and an "other", escaped. Not here: which rows make a family.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "openmetrics.h"
#include "utf8.h"

#define SET_SEPARATOR '\x1f'

void om_family_init(struct om_family *f, const char *name, const char *unit, const char *help,
		    const char *const *labels, size_t nlabels)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->unit = unit;
	f->help = help;
	f->nlabels = nlabels < OM_LABELS_MAX ? nlabels : OM_LABELS_MAX;
	for (i = 0; i < f->nlabels; i++)
		f->labels[i] = labels[i];
	strtab_init(&f->sets);
}

void om_family_release(struct om_family *f)
{
	strtab_release(&f->sets);
	free(f->values);
	memset(f, 0, sizeof(*f));
}

/* Sums never wrap: one past INT64_MAX (or below INT64_MIN) stays there. */
static int64_t saturating_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

void om_family_add(struct om_family *f, const char *const *values, int64_t value)
{
	char *set;
	size_t i, n = 0, at = 0;
	uint32_t id;

	for (i = 0; i < f->nlabels; i++)
		n += strlen(values[i]) + 1;
	set = xmalloc(n + 1);
	for (i = 0; i < f->nlabels; i++) {
		size_t len = strlen(values[i]);

		memcpy(set + at, values[i], len);
		for (size_t k = at; k < at + len; k++)	/* the separator is no value's */
			if (set[k] == SET_SEPARATOR)
				set[k] = '_';
		at += len;
		set[at++] = SET_SEPARATOR;
	}
	id = strtab_intern(&f->sets, set, at);
	free(set);
	if (id >= f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 64;

		while (cap <= id)
			cap *= 2;
		f->values = xrealloc(f->values, cap * sizeof(*f->values));
		memset(f->values + f->cap, 0, (cap - f->cap) * sizeof(*f->values));
		f->cap = cap;
	}
	f->values[id] = saturating_add(f->values[id], value);
}

void om_write_label_value(FILE *out, const char *s)
{
	size_t n = strlen(s), i = 0, len, k;
	const char *piece;
	char esc[5];

	while (i < n) {
		if (s[i] == '\n') {
			fputs("\\n", out);
			i++;
			continue;
		}
		i += utf8_next_piece(s + i, n - i, esc, &piece, &len);
		for (k = 0; k < len; k++) {
			if (piece[k] == '\\' || piece[k] == '"')
				fputc('\\', out);
			fputc(piece[k], out);
		}
	}
}

/* HELP text: backslash and newline escaped. */
static void write_help(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* One series: name{labels...,tags...} value. */
static void write_series(FILE *out, const struct om_family *f, const char *set,
			 const struct out_tags *tags, int64_t value)
{
	bool first = true;
	size_t i;

	fputs(f->name, out);
	for (i = 0; i < f->nlabels; i++) {
		const char *end = strchr(set, SET_SEPARATOR);
		char *v = xmalloc((size_t)(end - set) + 1);

		memcpy(v, set, (size_t)(end - set));
		v[end - set] = '\0';
		set = end + 1;
		if (!*v) {	/* an empty value is no label at all */
			free(v);
			continue;
		}
		fprintf(out, "%s%s=\"", first ? "{" : ",", f->labels[i]);
		om_write_label_value(out, v);
		fputc('"', out);
		first = false;
		free(v);
	}
	for (i = 0; tags && i < tags->n; i++) {
		fprintf(out, "%s%s=\"", first ? "{" : ",", tags->key[i]);
		om_write_label_value(out, tags->value[i]);
		fputc('"', out);
		first = false;
	}
	fprintf(out, "%s %lld\n", first ? "" : "}", (long long)value);
}

struct ranked {
	uint32_t id;
	int64_t value;
	const char *set;
};

static int most_first(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return strcmp(a->set, b->set);
}

void om_family_write(FILE *out, const struct om_family *f, const struct out_tags *tags,
		     const struct om_limits *lim)
{
	uint32_t n = f->sets.count, i, kept = 0;
	struct ranked *r = xcalloc(n ? n : 1, sizeof(*r));
	char *other_set = xmalloc(f->nlabels + 8);
	int64_t other = 0;
	bool has_other = false;
	size_t k;

	/* "other" in the first label, the rest empty: one series, a row so named in it */
	strcpy(other_set, f->nlabels ? "other" : "");
	for (k = 0; k < f->nlabels; k++)
		strcat(other_set, "\x1f");
	fprintf(out, "# HELP %s ", f->name);
	write_help(out, f->help);
	fprintf(out, "\n# TYPE %s gauge\n# UNIT %s %s\n", f->name, f->name, f->unit);
	for (i = 0; i < n; i++) {
		r[i].id = i;
		r[i].value = f->values[i];
		r[i].set = strtab_get(&f->sets, i);
	}
	qsort(r, n, sizeof(*r), most_first);
	for (i = 0; i < n; i++) {
		if ((lim->top && kept >= lim->top) || (lim->min_value && r[i].value < lim->min_value) ||
		    (f->nlabels && strcmp(r[i].set, other_set) == 0)) {
			other = saturating_add(other, r[i].value);
			has_other = true;
			continue;
		}
		write_series(out, f, r[i].set, tags, r[i].value);
		kept++;
	}
	if (has_other)
		write_series(out, f, other_set, tags, other);
	free(other_set);
	free(r);
}

void om_write_eof(FILE *out)
{
	fputs("# EOF\n", out);
}
