/*
 * datout.h - record's log as a trace.dat (trace-cmd.dat.v6(5)), for
 * `record -o FILE.dat`: the records the capture hands on, in ring-buffer
 * pages of our own, one stream per CPU, behind the formats, kallsyms and
 * task names trace-cmd report needs. Written whole at the end.
 */
#ifndef TA_DATOUT_H
#define TA_DATOUT_H

#include "capture.h"
#include "error.h"

struct dat_writer;

/* Start one for the capture c; its pages wait in temporary files beside path. */
int dat_writer_open(struct dat_writer **w, struct capture *c, const char *path,
		    struct ta_error *err);

/* One item of the capture (a record, or lost events before the next page). */
int dat_writer_add(struct dat_writer *w, const struct capture_item *it, struct ta_error *err);

/* The whole file to out_fd: the header, then every CPU's pages. */
int dat_writer_finish(struct dat_writer *w, int out_fd, struct ta_error *err);

void dat_writer_free(struct dat_writer *w);

#endif
