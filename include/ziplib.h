/*
 * ziplib.h - loading zlib, liblzma and libzstd when a compressed log, a
 * compressed trace.dat section or a pprof profile first needs one
 * (ziplib.c says why). Their users include <zlib.h>, <lzma.h> or <zstd.h>
 * and call them as usual.
 */
#ifndef TA_ZIPLIB_H
#define TA_ZIPLIB_H

#include "error.h"

/*
 * Load one library once per process; 0, or -1 with err "cannot load
 * <library> <purpose>: <reason>". A call made without loading first loads
 * then, and a failure there ends the program with that message.
 */
int zlib_library_load(const char *purpose, struct ta_error *err);
int lzma_library_load(const char *purpose, struct ta_error *err);
int zstd_library_load(const char *purpose, struct ta_error *err);

#endif
