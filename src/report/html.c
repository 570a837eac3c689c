/*
 * html.c - the --html page's frame (html.h): the head with the built-in
 * style, the sections the script fills, the data islands and the script.
 * Text inside <script> cannot hold "</": it is written as "<\/", which
 * JSON reads as the same string.
 *
 * Not here: any report's content, the page's behaviour (data/report.js).
 */
#include <stdbool.h>
#include <string.h>

#include "html.h"
#include "output.h"

static const char report_css[] =
#include "report_css.inc"
	;

static const char report_js[] =
#include "report_js.inc"
	;

/* text for a <script> element: "</" never closes it early */
static void write_script_text(FILE *f, const char *s, size_t len)
{
	size_t i, from = 0;

	for (i = 0; i + 1 < len; i++)
		if (s[i] == '<' && s[i + 1] == '/') {
			fwrite(s + from, 1, i - from, f);
			fputs("<\\/", f);
			from = i + 2;
			i++;
		}
	fwrite(s + from, 1, len - from, f);
}

static bool has_piece(const struct html_piece *pieces, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pieces[i].text && strcmp(pieces[i].id, id) == 0)
			return true;
	return false;
}

void html_write_page(FILE *f, const char *title, const struct html_piece *pieces, size_t n)
{
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>trace_analyze: ", f);
	out_xml_text(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(report_css, f);
	fputs("</style>\n</head>\n<body>\n<header><h1>trace_analyze: <span id=\"log-name\">", f);
	out_xml_text(f, title);
	fputs("</span></h1>\n<nav id=\"nav\"></nav></header>\n"
	      "<main>\n", f);
	if (has_piece(pieces, n, "ledger"))	/* a kernel snapshot's page: its ledger first */
		fputs("<section id=\"ledger\" hidden><h2>Where the memory went</h2>"
		      "<div class=\"body\"></div></section>\n", f);
	fputs("<section id=\"answer\"><h2>At a glance</h2><div class=\"body\"></div></section>\n"
	      "<section id=\"table\"><h2>Account</h2><div class=\"body\"></div></section>\n", f);
	if (has_piece(pieces, n, "timeline"))	/* drawn by the script from its samples */
		fputs("<section id=\"timeline\"><h2>Timeline</h2><div class=\"body\"></div>"
		      "</section>\n", f);
	fputs("<section id=\"summary\"><h2>Summary</h2><div class=\"body\"></div></section>\n"
	      "<section id=\"sunburst\" hidden><h2>Directories</h2><div class=\"body\"></div>"
	      "</section>\n"
	      "<section id=\"flame\" hidden><h2>Flame graph</h2><div class=\"body\"></div></section>\n"
	      "</main>\n", f);
	for (i = 0; i < n; i++) {
		if (!pieces[i].text)
			continue;
		fprintf(f, "<script type=\"application/json\" id=\"data-%s\">", pieces[i].id);
		write_script_text(f, pieces[i].text, pieces[i].len);
		fputs("</script>\n", f);
	}
	fputs("<script>\n", f);
	fputs(report_js, f);
	fputs("</script>\n</body>\n</html>\n", f);
}
