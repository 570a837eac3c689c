/*
 * elflib.h - loading libelf when a kernel tree or object is first read
 * (lazylib.c says why). ktree.c includes <libelf.h> and <gelf.h> and calls
 * libelf as usual, after elf_library_load().
 */
#ifndef TA_ELFLIB_H
#define TA_ELFLIB_H

#include "error.h"

/* Load libelf once per process; 0, or -1 with err naming the reason. */
int elf_library_load(struct ta_error *err);

#endif
