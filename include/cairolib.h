/*
 * cairolib.h - loading cairo when a picture is first drawn (cairolib.c
 * says why). Drawing code includes <cairo.h> and calls cairo as usual,
 * once cairo_library_load() has succeeded.
 */
#ifndef TA_CAIROLIB_H
#define TA_CAIROLIB_H

#include "error.h"

/* Load cairo once per process; 0, or -1 with err naming dlerror()'s reason. */
int cairo_library_load(struct ta_error *err);

#endif
