/*
 * parseopt.c - the option module (parseopt.h): a command's table turned
 * into getopt_long's, values read and checked by their kind, --help laid
 * out from the table, the did-you-mean, the files for the collision check,
 * and the completion helper. No command's own rules here.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "chartfile.h"
#include "output.h"
#include "parseopt.h"

const char *const po_group_help[] = {
	"a call site (function+0xoffset)", "a function (its offsets merged)",
	"an origin (who is behind the allocator and its wrappers, from stack traces)",
	"a slab cache", "a directory of the tree (with -k)", "a kmalloc size class of bytes_alloc",
	"the allocating task's name (comm)", "the task as comm-pid (pid)", "its gfp_flags (gfp)",
	"the loadable module of the call site, vmlinux when built in (module)",
	"an allocinfo snapshot's source file (file)", NULL };
const char *const po_group_names[] = { "callsite", "function", "origin", "cache", "dir",
				       "size-class", "comm", "pid", "gfp", "module", "file",
				       "cgroup", NULL };

#ifndef TA_VERSION
#define TA_VERSION "0.1"
#endif

#define HELP_INDENT 28		/* where help text starts */
#define HELP_WIDTH 79		/* where it wraps */
#define FIRST_LONG_VAL 256	/* getopt values of options with no short name */

/* ---- values ---- */

bool read_seconds(const char *s, uint64_t *ns)
{
	const uint64_t max_s = 10000000000ull;
	uint64_t secs = 0, frac = 0, scale = 1000000000ull;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		secs = secs * 10 + (uint64_t)(*p - '0');
		if (secs > max_s)
			return false;
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
		}
	}
	if (*p)
		return false;
	*ns = secs * 1000000000ull + frac;
	return true;
}

bool chart_path_ok(const char *path)
{
	return chart_format_of_path(path) != CHART_UNKNOWN;
}

const char *group_by_name(int group)
{
	return group >= 0 && (size_t)group < sizeof(po_group_names) / sizeof(po_group_names[0]) - 1
	       ? po_group_names[group] : "?";
}

const char *po_name_list(const char *const *names, unsigned allowed, char *buf, size_t size)
{
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; names[i] && n < size; i++)
		if (!allowed || (allowed & 1u << i))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", names[i]);
	return buf;
}

const char *const po_events_names[] = { "slab", "page", "all", NULL };

unsigned po_events_of_choice(int choice, unsigned dflt)
{
	static const unsigned sets[] = { CAPTURE_SLAB, CAPTURE_PAGE, CAPTURE_ALL };

	return choice >= 0 && choice < 3 ? sets[choice] : dflt;
}

/* "12,34 56": process ids added to the list; refused whole on a bad one. */
int po_read_pids(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct po_pids *list = o->value, copy = *list;
	const char *p = arg;

	while (*p) {
		uint64_t pid = 0;
		size_t n = 0;

		while (*p >= '0' && *p <= '9' && pid <= 4194304) {
			pid = pid * 10 + (uint64_t)(*p++ - '0');
			n++;
		}
		if (!n || !pid || pid > 4194304 || copy.count == PO_PIDS_MAX)
			goto bad;
		copy.pid[copy.count++] = (int)pid;
		if (*p == ',' || *p == ' ')
			p++;
		else if (*p)
			goto bad;
	}
	if (copy.count == list->count)
		goto bad;
	*list = copy;
	return 0;
bad:
	return error_set(why, "--pid wants process ids (P or P,P,...; %d at most), not '%s'",
			 PO_PIDS_MAX, arg);
}

/* ---- the table ---- */

static bool is_option(const struct po_option *o)
{
	return o->kind != PO_GROUP && o->kind != PO_END;
}

static bool takes_value(const struct po_option *o)
{
	return o->kind != PO_FLAG && o->kind != PO_SET && o->kind != PO_HELP &&
	       o->kind != PO_VERSION && o->kind != PO_REFUSED;
}

const char *po_option_label(const struct po_option *o, char *buf, size_t size)
{
	if (o->short_name)
		snprintf(buf, size, "-%c", o->short_name);
	else
		snprintf(buf, size, "--%s", o->long_name);
	return buf;
}

struct po_option *po_concat(const struct po_option *a, const struct po_option *b)
{
	size_t na = 0, nb = 0;
	struct po_option *t;

	while (a[na].kind != PO_END)
		na++;
	while (b[nb].kind != PO_END)
		nb++;
	t = xcalloc(na + nb + 1, sizeof(*t));
	memcpy(t, a, na * sizeof(*t));
	memcpy(t + na, b, nb * sizeof(*t));
	return t;
}

static size_t count_options(const struct po_option *table)
{
	size_t n = 0;

	for (; table->kind != PO_END; table++)
		n += is_option(table);
	return n;
}

/* The getopt value of table[i]: its short name, or FIRST_LONG_VAL + i. */
static int getopt_value(const struct po_option *table, size_t i)
{
	return table[i].short_name ? table[i].short_name : FIRST_LONG_VAL + (int)i;
}

/* getopt_long's table, and the short options into shorts (cap bytes). */
static struct option *getopt_table(const struct po_option *table, char *shorts, size_t cap)
{
	struct option *t = xcalloc(count_options(table) + 1, sizeof(*t));
	size_t i, n = 0, s = 0;

	for (i = 0; table[i].kind != PO_END; i++) {
		const struct po_option *o = &table[i];

		if (!is_option(o))
			continue;
		if (o->long_name) {
			t[n].name = o->long_name;
			t[n].has_arg = takes_value(o) ? required_argument : no_argument;
			t[n].val = getopt_value(table, i);
			n++;
		}
		if (o->short_name && s + 3 < cap) {
			shorts[s++] = (char)o->short_name;
			if (takes_value(o))
				shorts[s++] = ':';
		}
	}
	shorts[s] = '\0';
	return t;
}

static const struct po_option *option_of_value(const struct po_option *table, int val)
{
	size_t i;

	for (i = 0; table[i].kind != PO_END; i++)
		if (is_option(&table[i]) && getopt_value(table, i) == val)
			return &table[i];
	return NULL;
}

/* ---- messages ---- */

static void vusage_error(const struct po_command *cmd, const char *fmt, va_list ap)
{
	fputs("trace_analyze: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fputs(cmd->usage, stderr);
	fprintf(stderr, "Try 'trace_analyze %s%s--help' for more information.\n", cmd->name,
		*cmd->name ? " " : "");
}

int po_usage_error(const struct po_command *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage_error(cmd, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* Edits (insert, delete, replace, swap two neighbours) from a[0..n) to b[0..m), both < 64. */
static unsigned edit_distance(const char *a, size_t n, const char *b, size_t m)
{
	unsigned d[65][65];
	size_t i, j;

	for (i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= n; i++) {
		for (j = 1; j <= m; j++) {
			unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m];
}

/* The long option within two edits of arg ("--name" or "--name=value"), or NULL. */
static const char *nearest_long_option(const struct po_option *table, const char *arg)
{
	const char *best = NULL;
	unsigned best_d = 3;	/* two edits at most */
	size_t n;

	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	arg += 2;
	n = strcspn(arg, "=");
	if (n == 0 || n > 63)
		return NULL;
	for (; table->kind != PO_END; table++) {
		size_t m;
		unsigned d;

		if (!is_option(table) || !table->long_name || table->kind == PO_REFUSED)
			continue;
		m = strlen(table->long_name);
		if (m > 63)
			continue;
		d = edit_distance(arg, n, table->long_name, m);
		if (d < best_d && d < m / 2 + 1) {	/* not "--x" for "--o" */
			best_d = d;
			best = table->long_name;
		}
	}
	return best;
}

static int unknown_option(const struct po_command *cmd, const struct po_option *table,
			  const char *arg)
{
	const char *near = nearest_long_option(table, arg);

	if (near)
		return po_usage_error(cmd, "unknown option '%s' (did you mean '--%s'?)", arg, near);
	return po_usage_error(cmd, "unknown option '%s'", arg);
}

/* ---- reading one option ---- */

static void store_uint(const struct po_option *o, uint64_t v)
{
	switch (o->size) {
	case 1:
		*(uint8_t *)o->value = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)o->value = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)o->value = (uint32_t)v;
		break;
	default:
		*(uint64_t *)o->value = v;
		break;
	}
}

/* Apply o with arg; -1 to go on, else an exit status (a usage error printed). */
static int apply(const struct po_command *cmd, const struct po_option *table,
		 const struct po_option *o, const char *arg)
{
	struct ta_error why;
	char list[512];
	uint64_t v;
	int i;

	switch (o->kind) {
	case PO_FLAG:
		*(bool *)o->value = true;
		break;
	case PO_SET:
		*(int *)o->value = (int)o->min;
		break;
	case PO_TEXT:
	case PO_INPUT:
	case PO_OUTPUT:
		*(const char **)o->value = arg;
		break;
	case PO_UINT:
		if (!read_count(arg, o->max, &v) || v < o->min)
			return po_usage_error(cmd, "--%s wants %s, not '%s'", o->long_name, o->wants,
					      arg);
		store_uint(o, v);
		break;
	case PO_SECONDS:
		if (!read_seconds(arg, &v) || v < o->min)
			return po_usage_error(cmd, "--%s wants %s, not '%s'", o->long_name, o->wants,
					      arg);
		*(uint64_t *)o->value = v;
		break;
	case PO_CHOICE:
		for (i = 0; o->names[i]; i++)
			if ((!o->allowed || (o->allowed & 1u << i)) && strcmp(arg, o->names[i]) == 0)
				break;
		if (!o->names[i])
			return po_usage_error(cmd, "unknown --%s%s%s '%s' (%s)", o->long_name,
					      *o->noun ? " " : "", o->noun, arg,
					      po_name_list(o->names, o->allowed, list, sizeof(list)));
		*(int *)o->value = i;
		break;
	case PO_CALL:
		if (o->call(o, arg, &why) < 0)
			return po_usage_error(cmd, "%s", why.msg);
		break;
	case PO_REFUSED:
		return po_usage_error(cmd, "'%s': %s", arg, o->help);
	case PO_HELP:
		po_print_help(stdout, cmd, table);
		return EXIT_OK;
	case PO_VERSION:
		printf("trace_analyze %s\n", TA_VERSION);
		return EXIT_OK;
	default:
		break;
	}
	return -1;
}

/*
 * --completion-helper (as git's --git-completion-helper): the options, one
 * a line, for scripts/make-completion.sh: "-s --long KIND [VALUES]".
 */
static void print_completion(const struct po_option *table)
{
	static const char *const kinds[] = {
		[PO_FLAG] = "flag", [PO_SET] = "flag", [PO_TEXT] = "text", [PO_INPUT] = "file",
		[PO_OUTPUT] = "file", [PO_UINT] = "number", [PO_SECONDS] = "number",
		[PO_CHOICE] = "choice", [PO_CALL] = "text", [PO_HELP] = "flag",
		[PO_VERSION] = "flag",
	};
	char list[512];

	for (; table->kind != PO_END; table++) {
		if (!is_option(table) || table->kind == PO_REFUSED)
			continue;
		printf("%s%c %s%s %s", table->short_name ? "-" : "",
		       table->short_name ? table->short_name : '-', table->long_name ? "--" : "",
		       table->long_name ? table->long_name : "-", kinds[table->kind]);
		if (table->kind == PO_CHOICE) {
			char *p;

			po_name_list(table->names, table->allowed, list, sizeof(list));
			while ((p = strstr(list, ", ")))	/* "a,b,c": one field */
				memmove(p + 1, p + 2, strlen(p + 2) + 1);
			printf(" %s", list);
		}
		putchar('\n');
	}
}

int po_parse(const struct po_command *cmd, const struct po_option *table, int argc,
	     char **argv, int *rest)
{
	char shorts[128];
	struct option *longs;
	int c, status = -1;

	if (argc == 2 && strcmp(argv[1], "--completion-helper") == 0) {
		print_completion(table);
		return EXIT_OK;
	}
	/* '+': options end at the first argument; ':': a missing value is ':', not '?' */
	strcpy(shorts, cmd->stop_at_argument ? "+:" : ":");
	longs = getopt_table(table, shorts + strlen(shorts), sizeof(shorts) - strlen(shorts));
	opterr = 0;
	optind = 0;	/* a full reset: another table may have been read before */
	while (status < 0 && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct po_option *o = c == '?' || c == ':' ? NULL : option_of_value(table, c);

		if (c == ':')
			status = po_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		else if (!o)
			status = unknown_option(cmd, table, argv[optind - 1]);
		else
			status = apply(cmd, table, o,
				       o->kind == PO_REFUSED ? argv[optind - 1] : optarg);
	}
	free(longs);
	if (status >= 0)
		return status;
	if (optind < argc && !cmd->arguments)
		return po_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	*rest = optind;
	return -1;
}

/* ---- --help ---- */

/* Write text from column col on, wrapped at HELP_WIDTH, continuing at HELP_INDENT. */
static void write_wrapped(FILE *f, const char *text, size_t col)
{
	while (*text) {
		size_t room = HELP_WIDTH > col ? HELP_WIDTH - col : 20, n = strlen(text);

		if (n > room) {
			size_t cut = room;

			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = strcspn(text, " ");
			n = cut;
		}
		fwrite(text, 1, n, f);
		text += n;
		while (*text == ' ')
			text++;
		fputc('\n', f);
		if (*text)
			fprintf(f, "%*s", HELP_INDENT, "");
		col = HELP_INDENT;
	}
}

/* "what a row is: a call site (...), a function (...); WHAT: callsite, function": the allowed names only. */
static void choice_help(const struct po_option *o, char *text, size_t size)
{
	char list[512];
	size_t n = (size_t)snprintf(text, size, "%s", o->help);
	const char *sep = " ";
	int i;

	for (i = 0; o->names[i] && n < size; i++)
		if (!o->allowed || (o->allowed & 1u << i)) {
			n += (size_t)snprintf(text + n, size - n, "%s%s", sep, o->name_help[i]);
			sep = ", ";
		}
	if (n < size)
		snprintf(text + n, size - n, "; %s: %s", o->argh,
			 po_name_list(o->names, o->allowed, list, sizeof(list)));
}

static void print_option_help(FILE *f, const struct po_option *o)
{
	char head[128], list[512], text[2048];
	int n;

	n = snprintf(head, sizeof(head), "  %s%c%s%s%s%s%s", o->short_name ? "-" : " ",
		     o->short_name ? o->short_name : ' ', o->short_name && o->long_name ? ","
											: " ",
		     o->long_name ? " --" : "", o->long_name ? o->long_name : "",
		     o->argh ? " " : "", o->argh ? o->argh : "");
	fputs(head, f);
	if (o->kind == PO_CHOICE && o->name_help)
		choice_help(o, text, sizeof(text));
	else if (o->kind == PO_CHOICE && !o->hidden_value && o->argh)
		snprintf(text, sizeof(text), "%s; %s: %s", o->help, o->argh,
			 po_name_list(o->names, o->allowed, list, sizeof(list)));
	else
		snprintf(text, sizeof(text), "%s", o->help);
	if (n + 2 > HELP_INDENT) {
		fputc('\n', f);
		fprintf(f, "%*s", HELP_INDENT, "");
	} else {
		fprintf(f, "%*s", HELP_INDENT - n, "");
	}
	write_wrapped(f, text, HELP_INDENT);
}

void po_print_help(FILE *f, const struct po_command *cmd, const struct po_option *table)
{
	fputs(cmd->usage, f);
	if (cmd->about)
		fprintf(f, "\n%s", cmd->about);
	for (; table->kind != PO_END; table++) {
		if (table->kind == PO_GROUP)
			fprintf(f, "\n%s:\n", table->help);
		else if (table->kind != PO_REFUSED)
			print_option_help(f, table);
	}
	if (cmd->epilog)
		fprintf(f, "\n%s", cmd->epilog);
}

/* ---- files ---- */

void po_add_files(const struct po_option *table, struct file_roles *roles)
{
	static char labels[FILE_ROLES_MAX][64];
	static size_t used;

	for (; table->kind != PO_END; table++) {
		const char *path;
		char *label;

		if (table->kind != PO_INPUT && table->kind != PO_OUTPUT)
			continue;
		path = *(const char *const *)table->value;
		if (!path)
			continue;
		label = labels[used++ % FILE_ROLES_MAX];
		po_option_label(table, label, sizeof(labels[0]));
		if (table->kind == PO_INPUT)
			file_roles_add_input(roles, label, path);
		else
			file_roles_add_output(roles, label, path);
	}
}
