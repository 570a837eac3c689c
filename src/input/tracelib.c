/*
 * tracelib.c - libtraceevent, libtracefs and libtracecmd, loaded when a
 * trace.dat or perf.data is first read or a capture first opened.
 *
 * A text log, a DB or a kernel tree needs none of them, and linked, the
 * three (with the libzstd behind libtracecmd) cost every start about
 * 0.9 ms on this VM (lazylib.c). The functions below have the libraries'
 * names and prototypes, which their headers make the compiler check, and
 * hand each call on; tep_print_event, variadic, is called through a
 * pointer instead (tracelib.h).
 *
 * tepoverrides.c defines tep_parse_event and tep_parse_kallsyms itself, so that
 * libtracecmd's calls come to it: the Makefile exports those two from the
 * executable (--export-dynamic-symbol), which puts them before the loaded
 * libraries' own in every lookup, and trace_library_function() finds the
 * library's own for them.
 *
 * Not here: reading or recording (tracedat.c, perfdata.c, capture/).
 * Every function of these libraries the program calls must be listed
 * below, or the link fails.
 */
#include <event-parse.h>
#include <kbuffer.h>
#include <trace-cmd/trace-cmd.h>
#include <tracefs.h>

#include "lazylib.h"
#include "tracelib.h"

/* V(name, parameters, arguments); R(type, name, parameters, arguments) */
#define TRACEEVENT_FUNCTIONS(V, R)						\
	R(struct kbuffer *, kbuffer_alloc,					\
	  (enum kbuffer_long_size size, enum kbuffer_endian endian), (size, endian))	\
	R(int, kbuffer_curr_offset, (struct kbuffer *kbuf), (kbuf))		\
	R(int, kbuffer_event_size, (struct kbuffer *kbuf), (kbuf))		\
	V(kbuffer_free, (struct kbuffer *kbuf), (kbuf))				\
	R(int, kbuffer_load_subbuffer, (struct kbuffer *kbuf, void *subbuffer), (kbuf, subbuffer))	\
	R(int, kbuffer_missed_events, (struct kbuffer *kbuf), (kbuf))		\
	R(void *, kbuffer_next_event, (struct kbuffer *kbuf, unsigned long long *ts), (kbuf, ts))	\
	R(void *, kbuffer_read_event, (struct kbuffer *kbuf, unsigned long long *ts), (kbuf, ts))	\
	R(struct tep_handle *, tep_alloc, (void), ())				\
	R(const char *, tep_data_comm_from_pid, (struct tep_handle *tep, int pid), (tep, pid))	\
	R(int, tep_data_pid, (struct tep_handle *tep, struct tep_record *rec), (tep, rec))	\
	R(int, tep_data_type, (struct tep_handle *tep, struct tep_record *rec), (tep, rec))	\
	R(struct tep_event *, tep_find_event, (struct tep_handle *tep, int id), (tep, id))	\
	R(struct tep_event *, tep_find_event_by_name,				\
	  (struct tep_handle *tep, const char *sys, const char *name), (tep, sys, name))	\
	R(struct tep_format_field *, tep_find_field,				\
	  (struct tep_event *event, const char *name), (event, name))		\
	R(struct tep_format_field *, tep_find_common_field,			\
	  (struct tep_event *event, const char *name), (event, name))		\
	V(tep_free, (struct tep_handle *tep), (tep))				\
	R(void *, tep_get_field_raw,						\
	  (struct trace_seq *s, struct tep_event *event, const char *name,	\
	   struct tep_record *record, int *len, int err), (s, event, name, record, len, err))	\
	R(int, tep_get_field_val,						\
	  (struct trace_seq *s, struct tep_event *event, const char *name,	\
	   struct tep_record *record, unsigned long long *val, int err),	\
	  (s, event, name, record, val, err))					\
	R(int, tep_get_cpus, (struct tep_handle *tep), (tep))			\
	R(int, tep_get_header_page_size, (struct tep_handle *tep), (tep))	\
	R(int, tep_get_header_timestamp_size, (struct tep_handle *tep), (tep))	\
	R(bool, tep_is_old_format, (struct tep_handle *tep), (tep))		\
	R(bool, tep_is_pid_registered, (struct tep_handle *tep, int pid), (tep, pid))	\
	R(struct tep_event **, tep_list_events,					\
	  (struct tep_handle *tep, enum tep_event_sort_type sort), (tep, sort))	\
	R(int, tep_override_comm, (struct tep_handle *tep, const char *comm, int pid),	\
	  (tep, comm, pid))							\
	R(int, tep_parse_header_page,						\
	  (struct tep_handle *tep, char *buf, unsigned long size, int long_size),	\
	  (tep, buf, size, long_size))						\
	R(int, tep_parse_saved_cmdlines, (struct tep_handle *tep, const char *buf), (tep, buf))	\
	V(tep_set_cpus, (struct tep_handle *tep, int cpus), (tep, cpus))	\
	V(tep_set_file_bigendian, (struct tep_handle *tep, enum tep_endian endian), (tep, endian))	\
	R(int, tep_set_function_resolver,					\
	  (struct tep_handle *tep, tep_func_resolver_t *func, void *priv), (tep, func, priv))	\
	V(tep_set_local_bigendian, (struct tep_handle *tep, enum tep_endian endian), (tep, endian))	\
	V(tep_set_loglevel, (enum tep_loglevel level), (level))			\
	V(tep_set_long_size, (struct tep_handle *tep, int long_size), (tep, long_size))	\
	V(tep_set_page_size, (struct tep_handle *tep, int page_size), (tep, page_size))	\
	V(trace_seq_destroy, (struct trace_seq *s), (s))			\
	V(trace_seq_init, (struct trace_seq *s), (s))				\
	V(trace_seq_reset, (struct trace_seq *s), (s))				\
	V(trace_seq_terminate, (struct trace_seq *s), (s))

#define TRACEFS_FUNCTIONS(V, R)							\
	R(struct tracefs_cpu *, tracefs_cpu_alloc_fd, (int fd, int subbuf_size, bool nonblock),	\
	  (fd, subbuf_size, nonblock))						\
	V(tracefs_cpu_free_fd, (struct tracefs_cpu *tcpu), (tcpu))		\
	R(int, tracefs_cpu_read, (struct tracefs_cpu *tcpu, void *buffer, bool nonblock),	\
	  (tcpu, buffer, nonblock))						\
	R(int, tracefs_event_enable,						\
	  (struct tracefs_instance *instance, const char *system, const char *event),	\
	  (instance, system, event))						\
	R(bool, tracefs_event_file_exists,					\
	  (struct tracefs_instance *instance, const char *system, const char *event,	\
	   const char *file), (instance, system, event, file))		\
	R(struct tracefs_instance *, tracefs_instance_alloc,			\
	  (const char *tracing_dir, const char *name), (tracing_dir, name))	\
	R(int, tracefs_instance_destroy, (struct tracefs_instance *instance), (instance))	\
	R(int, tracefs_instance_file_append,					\
	  (struct tracefs_instance *instance, const char *file, const char *str),	\
	  (instance, file, str))						\
	R(int, tracefs_instance_file_clear, (struct tracefs_instance *instance, const char *file),	\
	  (instance, file))							\
	R(char *, tracefs_instance_file_read,					\
	  (struct tracefs_instance *instance, const char *file, int *psize),	\
	  (instance, file, psize))						\
	R(int, tracefs_instance_file_write,					\
	  (struct tracefs_instance *instance, const char *file, const char *str),	\
	  (instance, file, str))						\
	V(tracefs_instance_free, (struct tracefs_instance *instance), (instance))	\
	R(int, tracefs_instances_walk, (int (*callback)(const char *, void *), void *context),	\
	  (callback, context))							\
	R(int, tracefs_load_cmdlines, (const char *tracing_dir, struct tep_handle *tep),	\
	  (tracing_dir, tep))							\
	R(int, tracefs_option_enable,						\
	  (struct tracefs_instance *instance, enum tracefs_option_id id), (instance, id))	\
	R(int, tracefs_tracing_dir_is_mounted, (bool mount, const char **path), (mount, path))

#define TRACECMD_FUNCTIONS(V, R)						\
	V(tracecmd_close, (struct tracecmd_input *handle), (handle))		\
	R(struct tep_handle *, tracecmd_get_tep, (struct tracecmd_input *handle), (handle))	\
	R(int, tracecmd_iterate_events,						\
	  (struct tracecmd_input *handle, cpu_set_t *cpus, int cpu_size,	\
	   int (*callback)(struct tracecmd_input *, struct tep_record *, int, void *),	\
	   void *callback_data), (handle, cpus, cpu_size, callback, callback_data))	\
	R(struct tracecmd_input *, tracecmd_open_fd, (int fd, int flags), (fd, flags))	\
	V(tracecmd_set_loglevel, (enum tep_loglevel level), (level))

#define TRACE_FUNCTIONS(V, R) TRACEEVENT_FUNCTIONS(V, R) TRACEFS_FUNCTIONS(V, R)	\
	TRACECMD_FUNCTIONS(V, R)

/* tep_print_event, variadic, is not in the table: it has no forwarder */
static tep_print_event_fn *print_event;

static void look_up_print_event(struct lazy_library *lib)
{
	*(void **)&print_event = lazylib_symbol(lib, "tep_print_event");
}

/* In this order, each one's dependencies first (as the Debian packages link them). */
#define LAZYLIB_TABLE trace_calls
#define LAZYLIB_LIBRARY trace_library
LAZYLIB_DEFINE(TRACE_FUNCTIONS, .what = "the trace libraries",
	       .sonames = { "libtraceevent.so.1", "libtracefs.so.1", "libtracecmd.so.1" },
	       .also_look_up = look_up_print_event)

int trace_library_load(const char *purpose, struct ta_error *err)
{
	return lazylib_load(&trace_library, purpose, err);
}

void *trace_library_function(const char *name)
{
	lazylib_ensure(&trace_library);
	return lazylib_symbol(&trace_library, name);
}

tep_print_event_fn *trace_library_print_event(void)
{
	lazylib_ensure(&trace_library);
	return print_event;
}
