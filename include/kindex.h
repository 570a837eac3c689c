/*
 * kindex.h - the kernel index: what the analysis needs from a built tree
 * (its name, objects, their static sizes, the functions each defines, and
 * its data symbols, and its System.map) in one binary file, so a log can be analysed on a
 * machine without the tree (a kmemtrace design goal).
 *
 * A binfile (binfile.h: magic "TAKINDEX", version, endianness, integer
 * sizes, checksummed sections) with sections:
 *   1 META     struct kindex_meta: counts and the walk's skip counters
 *   2 NAME     the tree's name (no NUL)
 *   3 STRINGS  object paths and function names, NUL-terminated, in id order
 *   4 OBJECTS  struct kobject[nobjects] (ktree.h), sorted by path
 *   5 FUNCS    struct kfunc[nfuncs], sorted by name id, then object
 *   6 SYSMAP   the tree's System.map, verbatim (absent if it had none)
 *   7 VARS     struct kvar[nvars]: sized data symbols, in object order
 * Loading gives the same struct kernel_tree a walk gives, so a tree and its
 * index give identical reports. Not here: walking trees (ktree.h).
 */
#ifndef TA_KINDEX_H
#define TA_KINDEX_H

#include <stdbool.h>

#include "error.h"
#include "ktree.h"

#define KINDEX_MAGIC "TAKINDEX"
#define KINDEX_MAJOR 2
#define KINDEX_MINOR 1

int kindex_save(const struct kernel_tree *t, const char *path, struct ta_error *err);
int kindex_load(struct kernel_tree *t, const char *path, struct ta_error *err);

/* True if path starts with the index magic (so -k can take either). */
bool kindex_is_index(const char *path);

#endif
