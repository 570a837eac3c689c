/*
 * ksnapshot.h - the kernel's own memory totals at one moment, as a folder
 * of the files /proc and /sys/fs/cgroup print (named as there: meminfo,
 * slabinfo, vmallocinfo, cgroup/<path>/memory.stat and memory.current),
 * or one such file: parsed into numbers, each file known by its first
 * line, plain or compressed. A slabinfo of another version, a cut or
 * garbled line, a file of the wrong kind under a name: an error naming
 * the file and the line; counts past what a machine has (8 PiB, 2^33
 * objects or pages) too, so that the ledger's sums never wrap. Also read:
 * vmstat, zoneinfo, buddyinfo, modules, and a folder's allocinfo (with
 * allocinfo.c's reader). No arithmetic across files here (the ledger,
 * ledger.h).
 */
#ifndef TA_KSNAPSHOT_H
#define TA_KSNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "allocinfo.h"
#include "error.h"

#define KSNAP_NAME_MAX 64
#define KSNAP_ORDERS 16		/* buddyinfo's columns: MAX_PAGE_ORDER + 1 is 11 on most */

/* "Key: value" files (meminfo in bytes, memory.stat as printed). */
struct ksnap_field {
	char name[KSNAP_NAME_MAX];
	uint64_t value;
};

struct ksnap_fields {
	struct ksnap_field *f;
	uint32_t n, cap;
};

/* A /proc/slabinfo 2.1 row. */
struct ksnap_slab {
	char name[KSNAP_NAME_MAX];
	uint64_t active_objs, num_objs, objsize, objperslab, pagesperslab;
	uint64_t active_slabs, num_slabs;
};

/* A /proc/vmallocinfo area. */
struct ksnap_vmalloc {
	char caller[KSNAP_NAME_MAX];	/* the function, without +off/len */
	uint64_t size;			/* the area's bytes, its guard page included */
	uint64_t pages;			/* pages=N, or 0 when none is printed */
	char kind[16];			/* vmalloc, vmap, ioremap, user, vpages, unpurged... */
};

/* The keys of memory.stat a snapshot keeps: the kernel memory a cgroup is charged. */
extern const char *const ksnap_cgroup_keys[];	/* NULL-terminated */

/* A cgroup v2 group's memory files. */
struct ksnap_cgroup {
	char *path;			/* "/" for the root, "/a/b" below it */
	struct ksnap_fields stat;	/* memory.stat's ksnap_cgroup_keys */
	uint64_t current;		/* memory.current, bytes */
	bool has_stat, has_current;
};

/* A /proc/modules row: a loaded module's size (its sections in memory). */
struct ksnap_module {
	char name[KSNAP_NAME_MAX];
	uint64_t size;
	char state[16];			/* Live, Loading, Unloading */
};

/* A node's zone, as zoneinfo and buddyinfo print it. */
struct ksnap_zone {
	unsigned node;
	char zone[24];			/* "DMA32" */
	bool in_zoneinfo, in_buddyinfo;
	bool has_pages;			/* zoneinfo gave its present and managed lines */
	uint64_t spanned, present, managed, free;	/* zoneinfo, pages */
	uint64_t pcp;			/* zoneinfo: its CPUs' pagesets' counts summed, pages */
	bool has_pcp;			/* zoneinfo printed a pageset count */
	bool has_start;			/* zoneinfo's start_pfn line, after the pagesets */
	uint64_t blocks[KSNAP_ORDERS];	/* buddyinfo: free blocks of each order */
	unsigned orders;		/* buddyinfo's columns */
};

/*
 * The boot's "Memory: 982040K/1048056K available (8192K kernel code, 1285K
 * rwdata, 1820K rodata, 924K init, 4520K bss, 41552K reserved, 0K
 * cma-reserved)" line of a folder's dmesg, in bytes.
 */
struct ksnap_boot_memory {
	uint64_t available, total;
	uint64_t code, rwdata, rodata, init, bss, reserved, cma_reserved;
};

struct kernel_snapshot {
	const char *source;		/* the folder or file, as given */
	char *shown;			/* as reports show it (valid UTF-8), or NULL */
	bool has_meminfo, has_slabinfo, has_vmallocinfo;
	bool has_vmstat, has_zoneinfo, has_buddyinfo, has_modules;
	struct ksnap_fields vmstat;	/* as printed: pages and event counts */
	struct ksnap_module *modules;
	uint32_t nmodules;
	struct ksnap_zone *zones;	/* in the files' order */
	uint32_t nzones;
	struct alloc_series *allocinfo;	/* the folder's allocinfo, or NULL */
	bool has_boot_memory;		/* its dmesg holds the boot's Memory: line */
	struct ksnap_boot_memory boot_memory;
	struct ksnap_fields meminfo;	/* in bytes (kB x 1024) */
	struct ksnap_slab *slabs;
	uint32_t nslabs;
	struct ksnap_vmalloc *vmallocs;
	uint32_t nvmallocs;
	struct ksnap_cgroup *cgroups;	/* the root first, then by path */
	uint32_t ncgroups;
	/* the snapshot file that trace_analyze snapshot writes, when there is one */
	bool has_stamp;
	double monotonic_s, realtime_s;
	char host[128], release[128], boot_id[64];
	unsigned live_unreadable;	/* ksnapshot_read_live: files the kernel kept from us */
};

void ksnapshot_init(struct kernel_snapshot *s);
void ksnapshot_release(struct kernel_snapshot *s);

/* Does the folder at path hold a kernel snapshot (a meminfo file)? */
bool ksnapshot_is_folder(const char *path);

/*
 * The running kernel's files, read where they are: root's /proc (meminfo,
 * slabinfo, ..., allocinfo, modules) and its cgroup v2 tree
 * (/sys/fs/cgroup), stamped with the time, host, release and boot id as
 * snapshot writes them. root is "" (or a test's copy). A file it may not
 * read (not root) is left out and counted; no meminfo is an error.
 */
int ksnapshot_read_live(struct kernel_snapshot *s, const char *root, struct ta_error *err);

/* Do n first bytes begin as /proc/meminfo, slabinfo, ... or a memory.stat do? */
bool ksnapshot_is_meminfo(const unsigned char *head, size_t n);
bool ksnapshot_is_slabinfo(const unsigned char *head, size_t n);
bool ksnapshot_is_vmallocinfo(const unsigned char *head, size_t n);
bool ksnapshot_is_memory_stat(const unsigned char *head, size_t n);
bool ksnapshot_is_vmstat(const unsigned char *head, size_t n);
bool ksnapshot_is_zoneinfo(const unsigned char *head, size_t n);
bool ksnapshot_is_buddyinfo(const unsigned char *head, size_t n);
bool ksnapshot_is_modules(const unsigned char *head, size_t n);

/* Any one of the files above (the kernel snapshot input format's probe). */
bool ksnapshot_is_file(const unsigned char *head, size_t n);

/* Read the folder at path (what it holds of the files above): 0, or -1 with err. */
int ksnapshot_read_folder(struct kernel_snapshot *s, const char *path, struct ta_error *err);

/*
 * One of the files above, read whole (NUL after len; parsed in place),
 * named name: known by its first line, parsed into its part of s.
 */
int ksnapshot_parse_file(struct kernel_snapshot *s, const char *name, char *text, size_t len,
			 struct ta_error *err);

/*
 * Are a and b of one boot (their snapshot files' boot id and kernel
 * release, where both have them)? If not, why, in err.
 */
int ksnapshot_same_boot(const struct kernel_snapshot *a, const struct kernel_snapshot *b,
			struct ta_error *err);

/* A field's value, and whether the file has it. */
bool ksnap_field(const struct ksnap_fields *f, const char *name, uint64_t *value);

#endif
