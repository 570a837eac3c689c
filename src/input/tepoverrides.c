/*
 * tepoverrides.c - libtraceevent's tep_parse_event() and
 * tep_parse_kallsyms() defined by this program, for opening a trace.dat
 * (tepoverrides.h). Not here: the trace.dat itself (tracedat.c), or
 * guarding the formats (tepguard.c), which call through these.
 */
#include <string.h>

#include <traceevent/event-parse.h>

#include "error.h"
#include "symbols.h"
#include "tepoverrides.h"
#include "tracelib.h"

/*
 * Opening a trace.dat, libtracecmd hands libtraceevent the format of every
 * event the recording machine had (2,000 of 101 systems on a 6.18 host)
 * and its whole kallsyms (5 MB): parsing them is 80% of the time of
 * reading a 10 MB kmem capture, for a few formats and a few hundred
 * addresses. So this program defines tep_parse_event() and
 * tep_parse_kallsyms() itself (the executable exports them, and the dynamic
 * linker binds libtracecmd's calls to them: tracelib.c): while a trace.dat
 * is opened on this thread (tep_overrides_open), only the formats of the kmem and ftrace systems are parsed
 * (records of other events are passed over as the text's other lines are),
 * and the kallsyms text goes to symbols.c, read with libtraceevent's rule
 * among aliases so that names are trace-cmd report's. Any other caller, or
 * this one outside an open, gets the library's own functions.
 */
static __thread struct symbol_table *opening;	/* the file's kallsyms go here */
static __thread bool probing;	/* an open tried in a child: formats as above, no kallsyms */

void tep_overrides_open(struct symbol_table *kallsyms)
{
	opening = kallsyms;
	probing = false;
}

void tep_overrides_probe(void)
{
	opening = NULL;
	probing = true;
}

void tep_overrides_end(void)
{
	opening = NULL;
	probing = false;
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	enum tep_errno (*parse)(struct tep_handle *, const char *, unsigned long, const char *);

	if ((opening || probing) && sys && strcmp(sys, "kmem") != 0 && strcmp(sys, "ftrace") != 0)
		return TEP_ERRNO__SUCCESS;
	parse = (enum tep_errno (*)(struct tep_handle *, const char *, unsigned long,
				    const char *))trace_library_function("tep_parse_event");
	return parse ? parse(tep, buf, size, sys) : TEP_ERRNO__MEM_ALLOC_FAILED;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	int (*parse)(struct tep_handle *, const char *);
	struct ta_error ignored;

	if (probing)
		return 0;
	if (opening) {
		symbols_release(opening);
		if (symbols_parse_tep_kallsyms(opening, kallsyms, strlen(kallsyms), "kallsyms",
					       &ignored) < 0)
			symbols_release(opening);
		return 0;
	}
	parse = (int (*)(struct tep_handle *, const char *))trace_library_function("tep_parse_kallsyms");
	return parse ? parse(tep, kallsyms) : -1;
}

