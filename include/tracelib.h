/*
 * tracelib.h - loading libtraceevent, libtracefs and libtracecmd when a
 * trace.dat or perf.data is first read or a capture first opened
 * (tracelib.c says why). Their users include the libraries' headers and
 * call them as usual, after trace_library_load().
 */
#ifndef TA_TRACELIB_H
#define TA_TRACELIB_H

#include "error.h"

struct tep_handle;
struct trace_seq;
struct tep_record;

/*
 * Load the three libraries once per process; 0, or -1 with err naming the
 * reason, "cannot load the trace libraries <purpose>: ...".
 */
int trace_library_load(const char *purpose, struct ta_error *err);

/*
 * libtraceevent's own function name, whatever the program defines under
 * that name (tracedat.c's tep_parse_event hands on to it); NULL if absent.
 */
void *trace_library_function(const char *name);

/*
 * tep_print_event is variadic, so no function of ours can hand its
 * arguments on: its callers include this header after <event-parse.h> and
 * call the library's through a pointer, under the same name.
 */
typedef void tep_print_event_fn(struct tep_handle *tep, struct trace_seq *s,
				struct tep_record *record, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
tep_print_event_fn *trace_library_print_event(void);
#define tep_print_event(...) (trace_library_print_event()(__VA_ARGS__))

#endif
