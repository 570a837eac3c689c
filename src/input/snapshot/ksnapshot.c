/*
 * ksnapshot.c - a kernel's memory files at one moment (ksnapshot.h): a
 * folder laid out as /proc and /sys/fs/cgroup name them, or one file,
 * each parsed line by line into numbers. Every line is checked: a line
 * that is not of its file's form is an error naming the file and the line
 * (a cut last line included), never a number guessed.
 * Not here: the ledger's arithmetic (ledger.c), allocinfo (allocinfo.c).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "ksnapshot.h"
#include "numfmt.h"

#define FILE_MAX ((size_t)256 << 20)	/* no /proc file of these is near it */
#define CGROUPS_MAX 100000		/* a host with more is refused, not read halfway */
#define FIELDS_MAX 4096			/* meminfo has some 60 lines, memory.stat some 50 */
#define BYTES_MAX (1ull << 53)		/* 8 PiB: no machine's counter; sums of them never wrap */
#define COUNT_MAX (1ull << 33)		/* objects, slabs x pages, an area's pages */

void ksnapshot_init(struct kernel_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

static void fields_release(struct ksnap_fields *f)
{
	free(f->f);
	memset(f, 0, sizeof(*f));
}

void ksnapshot_release(struct kernel_snapshot *s)
{
	uint32_t i;

	fields_release(&s->meminfo);
	free(s->slabs);
	free(s->vmallocs);
	for (i = 0; i < s->ncgroups; i++) {
		fields_release(&s->cgroups[i].stat);
		free(s->cgroups[i].path);
	}
	free(s->cgroups);
	fields_release(&s->vmstat);
	free(s->shown);
	free(s->modules);
	free(s->zones);
	if (s->allocinfo) {
		alloc_series_release(s->allocinfo);
		free(s->allocinfo);
	}
	memset(s, 0, sizeof(*s));
}

bool ksnap_field(const struct ksnap_fields *f, const char *name, uint64_t *value)
{
	uint32_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->f[i].name, name) == 0) {
			*value = f->f[i].value;
			return true;
		}
	*value = 0;
	return false;
}

static bool add_field(struct ksnap_fields *f, const char *name, size_t len, uint64_t value)
{
	if (f->n == FIELDS_MAX || value > BYTES_MAX)
		return false;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->f = xrealloc(f->f, f->cap * sizeof(*f->f));
	}
	snprintf(f->f[f->n].name, sizeof(f->f[f->n].name), "%.*s", (int)len, name);
	f->f[f->n++].value = value;
	return true;
}

/* ---- probes: the first line ---- */

static bool head_starts(const unsigned char *head, size_t n, const char *text)
{
	size_t len = strlen(text);

	return n >= len && memcmp(head, text, len) == 0;
}

bool ksnapshot_is_meminfo(const unsigned char *head, size_t n)
{
	return head_starts(head, n, "MemTotal:");
}

bool ksnapshot_is_slabinfo(const unsigned char *head, size_t n)
{
	return head_starts(head, n, "slabinfo - version: ");
}

/* "0x0000000012345678-0x000000009abcdef0   8192 " */
bool ksnapshot_is_vmallocinfo(const unsigned char *head, size_t n)
{
	size_t i = 2;

	if (!head_starts(head, n, "0x"))
		return false;
	while (i < n && ((head[i] >= '0' && head[i] <= '9') || (head[i] >= 'a' && head[i] <= 'f')))
		i++;
	return i + 3 < n && head[i] == '-' && head[i + 1] == '0' && head[i + 2] == 'x';
}

bool ksnapshot_is_memory_stat(const unsigned char *head, size_t n)
{
	size_t i = 5;

	if (!head_starts(head, n, "anon "))
		return false;
	while (i < n && head[i] >= '0' && head[i] <= '9')
		i++;
	return i > 5 && i < n && head[i] == '\n';
}

bool ksnapshot_is_vmstat(const unsigned char *head, size_t n)
{
	size_t i = 14;

	if (!head_starts(head, n, "nr_free_pages "))
		return false;
	while (i < n && head[i] >= '0' && head[i] <= '9')
		i++;
	return i > 14 && i < n && head[i] == '\n';
}

/* "Node 0, zone    DMA32": where the zone's name ends, or 0 */
static size_t zone_header_end(const unsigned char *head, size_t n)
{
	size_t i = 5;

	if (!head_starts(head, n, "Node "))
		return 0;
	while (i < n && head[i] >= '0' && head[i] <= '9')
		i++;
	if (i == 5 || !head_starts(head + i, n - i, ", zone "))
		return 0;
	i += 7;
	while (i < n && head[i] == ' ')
		i++;
	if (i == n || head[i] == '\n')
		return 0;
	while (i < n && head[i] != ' ' && head[i] != '\n')
		i++;
	return i;
}

/* the zone's header alone on its line (buddyinfo's has counts after it) */
bool ksnapshot_is_zoneinfo(const unsigned char *head, size_t n)
{
	size_t end = zone_header_end(head, n);

	return end && end < n && head[end] == '\n';
}

bool ksnapshot_is_buddyinfo(const unsigned char *head, size_t n)
{
	size_t end = zone_header_end(head, n);

	while (end && end < n && head[end] == ' ')
		end++;
	return end && end < n && head[end] >= '0' && head[end] <= '9';
}

/* "name size refcount deps state 0xaddress": "ext4 692224 1 - Live 0x..." */
bool ksnapshot_is_modules(const unsigned char *head, size_t n)
{
	char line[256], name[KSNAP_NAME_MAX], refs[24], deps[160], state[16], addr[24];
	size_t len = 0;
	unsigned long long size;

	while (len < n && len < sizeof(line) - 1 && head[len] != '\n' && head[len])
		len++;
	if (len == n || (head[len] != '\n' && head[len]))
		return false;
	memcpy(line, head, len);
	line[len] = '\0';
	return sscanf(line, "%63s %llu %23s %159s %15s %23s", name, &size, refs, deps, state,
		      addr) == 6 && strncmp(addr, "0x", 2) == 0 &&
	       (strcmp(state, "Live") == 0 || strcmp(state, "Loading") == 0 ||
		strcmp(state, "Unloading") == 0);
}

bool ksnapshot_is_file(const unsigned char *head, size_t n)
{
	return ksnapshot_is_meminfo(head, n) || ksnapshot_is_slabinfo(head, n) ||
	       ksnapshot_is_vmallocinfo(head, n) || ksnapshot_is_vmstat(head, n) ||
	       ksnapshot_is_zoneinfo(head, n) || ksnapshot_is_buddyinfo(head, n) ||
	       ksnapshot_is_modules(head, n) || ksnapshot_is_memory_stat(head, n);
}

/* ---- lines ---- */

struct lines {
	const char *path;
	char *text, *at;
	size_t len;
	unsigned long lineno;
};

/* The next line, NUL-terminated in place; NULL at the end. A last line without '\n': cut. */
static char *next_line(struct lines *l, struct ta_error *err, int *rc)
{
	char *line = l->at, *nl;

	*rc = 0;
	if (l->at >= l->text + l->len)
		return NULL;
	l->lineno++;
	nl = memchr(l->at, '\n', (size_t)(l->text + l->len - l->at));
	if (!nl) {
		*rc = error_set(err, "'%s' line %lu has no newline: the file is cut", l->path,
				l->lineno);
		return NULL;
	}
	*nl = '\0';
	l->at = nl + 1;
	return line;
}

static int bad_line(const struct lines *l, const char *what, struct ta_error *err)
{
	return error_set(err, "'%s' line %lu is not %s", l->path, l->lineno, what);
}

static int open_lines(struct lines *l, const char *path, struct ta_error *err)
{
	memset(l, 0, sizeof(*l));
	l->path = path;
	if (input_read_whole(path, FILE_MAX, &l->text, &l->len, err) < 0)
		return -1;
	l->at = l->text;
	return 0;
}


/* "Name:   1234 kB" (bytes) or "HugePages_Total:       0" (a count) */
static int parse_meminfo(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	char *line, *colon, *num, *unit;
	uint64_t v;
	int rc;

	while ((line = next_line(l, err, &rc))) {
		colon = strchr(line, ':');
		if (!colon || colon == line || colon - line >= KSNAP_NAME_MAX)
			return bad_line(l, "a /proc/meminfo line (Name: value [kB])", err);
		num = colon + 1;
		while (*num == ' ')
			num++;
		unit = num;
		while (*unit >= '0' && *unit <= '9')
			unit++;
		if (*unit == ' ' && strcmp(unit, " kB") == 0) {
			*unit = '\0';
			if (!read_count(num, BYTES_MAX / 1024, &v))
				return bad_line(l, "a /proc/meminfo line (Name: value [kB])", err);
			v *= 1024;
		} else if (!read_count(num, BYTES_MAX, &v)) {
			return bad_line(l, "a /proc/meminfo line (Name: value [kB])", err);
		}
		if (!add_field(&s->meminfo, line, (size_t)(colon - line), v))
			return bad_line(l, "a /proc/meminfo line of a machine (more than 4096 lines, or a "
					"value past 8 PiB)", err);
	}
	if (rc < 0)
		return -1;
	s->has_meminfo = true;
	return 0;
}

static int parse_slabinfo(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	uint64_t slab_pages = 0;	/* all told: times a page size, it stays below 2^63 */
	uint32_t cap = 0;
	char *line;
	int rc;

	line = next_line(l, err, &rc);
	if (!line)
		return rc < 0 ? -1 : bad_line(l, "a slabinfo header", err);
	if (strcmp(line, "slabinfo - version: 2.1") != 0)
		return error_set(err, "'%s' is %s: this build reads slabinfo version 2.1", l->path,
				 line);
	while ((line = next_line(l, err, &rc))) {
		struct ksnap_slab c;
		int used = 0;

		if (line[0] == '#')
			continue;
		memset(&c, 0, sizeof(c));
		if (sscanf(line, "%63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " : tunables %*u %*u %*u : slabdata %" SCNu64 " %" SCNu64 " %*u%n", c.name, &c.active_objs, &c.num_objs, &c.objsize,
			   &c.objperslab, &c.pagesperslab, &c.active_slabs, &c.num_slabs,
			   &used) != 8 || line[used] != '\0')
			return bad_line(l, "a slabinfo 2.1 row", err);
		if (strchr(line + strlen(c.name), '-') || c.active_objs > COUNT_MAX ||
		    c.num_objs > COUNT_MAX || c.objsize > (1u << 30) || c.pagesperslab > 4096 ||
		    (c.pagesperslab && c.num_slabs > COUNT_MAX / c.pagesperslab))
			return bad_line(l, "a slabinfo 2.1 row of a machine (a count below zero or past "
					"2^33)", err);
		if (!c.pagesperslab)
			return bad_line(l, "a slabinfo 2.1 row of a machine (a slab of no page)", err);
		slab_pages += c.num_slabs * c.pagesperslab;
		if (slab_pages > COUNT_MAX)
			return bad_line(l, "a slabinfo row of a machine (the caches' slabs past 2^33 "
					"pages)", err);
		if (s->nslabs == cap) {
			cap = cap ? cap * 2 : 256;
			s->slabs = xrealloc(s->slabs, cap * sizeof(*s->slabs));
		}
		s->slabs[s->nslabs++] = c;
	}
	if (rc < 0)
		return -1;
	s->has_slabinfo = true;
	return 0;
}

/* The area's kind as the kernel prints it (mm/vmalloc.c); "user" and "vpages" are flags after it. */
static bool is_vmalloc_kind(const char *w)
{
	static const char *const kinds[] = { "vmalloc", "vmap", "ioremap", "sparse", "vm_map_ram",
					      "unpurged", "dma-coherent", NULL };
	size_t i;

	for (i = 0; kinds[i]; i++)
		if (strcmp(w, kinds[i]) == 0)
			return true;
	return false;
}

/* "0x...-0x...   SIZE caller+0x9b/0xd1 [pages=N] [phys=...] [N0=...] KIND..." */
static int parse_vmallocinfo(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	uint64_t pages = 0, sizes = 0;	/* all told: bounded, so that no sum of them wraps */
	uint32_t cap = 0;
	char *line;
	int rc;

	while ((line = next_line(l, err, &rc))) {
		struct ksnap_vmalloc a;
		char *w, *save = NULL;
		int words = 0;

		memset(&a, 0, sizeof(a));
		for (w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save), words++) {
			if (words == 0) {
				if (!ksnapshot_is_vmallocinfo((const unsigned char *)w, strlen(w)))
					return bad_line(l, "a /proc/vmallocinfo area", err);
			} else if (words == 1) {
				if (!read_count(w, BYTES_MAX, &a.size))
					return bad_line(l, "a /proc/vmallocinfo area", err);
			} else if (strncmp(w, "pages=", 6) == 0) {
				if (!read_count(w + 6, COUNT_MAX, &a.pages))
					return bad_line(l, "a /proc/vmallocinfo area", err);
			} else if (is_vmalloc_kind(w) && !a.kind[0]) {
				snprintf(a.kind, sizeof(a.kind), "%s", w);
			} else if (!a.caller[0] && strchr(w, '+')) {
				snprintf(a.caller, sizeof(a.caller), "%.*s", (int)strcspn(w, "+"), w);
			}
		}
		if (words < 2)
			return bad_line(l, "a /proc/vmallocinfo area", err);
		if (!a.caller[0])
			snprintf(a.caller, sizeof(a.caller), "(%s)", a.kind[0] ? a.kind : "no caller");
		pages += a.pages;
		sizes += a.size;
		if (pages > COUNT_MAX || sizes > BYTES_MAX)
			return bad_line(l, "a /proc/vmallocinfo area of a machine (the areas past 2^33 "
					"pages or 8 PiB)", err);
		if (s->nvmallocs == cap) {
			cap = cap ? cap * 2 : 256;
			s->vmallocs = xrealloc(s->vmallocs, cap * sizeof(*s->vmallocs));
		}
		s->vmallocs[s->nvmallocs++] = a;
	}
	if (rc < 0)
		return -1;
	s->has_vmallocinfo = true;
	return 0;
}

const char *const ksnap_cgroup_keys[] = {
	"kernel", "slab", "slab_reclaimable", "slab_unreclaimable", "sock", "vmalloc",
	"percpu", "kernel_stack", "pagetables", NULL,
};

static bool is_listed(const char *const *names, const char *name, size_t len)
{
	for (; *names; names++)
		if (strlen(*names) == len && memcmp(*names, name, len) == 0)
			return true;
	return false;
}

/*
 * "key value" lines (memory.stat, vmstat), what: the file's kind; each line
 * checked, the keys of keep kept (NULL: every key).
 */
static int parse_key_values(struct ksnap_fields *f, struct lines *l, const char *what,
			    const char *const *keep, struct ta_error *err)
{
	char bad[96], *line, *sp;
	uint64_t v;
	int rc;

	while ((line = next_line(l, err, &rc))) {
		sp = strchr(line, ' ');
		if (!sp || sp == line || sp - line >= KSNAP_NAME_MAX ||
		    !read_count(sp + 1, BYTES_MAX, &v)) {
			snprintf(bad, sizeof(bad), "a %s line (key value)", what);
			return bad_line(l, bad, err);
		}
		if (keep && !is_listed(keep, line, (size_t)(sp - line)))
			continue;
		if (!add_field(f, line, (size_t)(sp - line), v)) {
			snprintf(bad, sizeof(bad), "a %s line of a machine (more than 4096 lines, or "
				 "a value past 8 PiB)", what);
			return bad_line(l, bad, err);
		}
	}
	return rc;
}

/* a cgroup's kernel keys alone: 100,000 groups stay some 70 MB, not 400 */
static int parse_memory_stat(struct ksnap_fields *f, struct lines *l, struct ta_error *err)
{
	int rc = parse_key_values(f, l, "memory.stat", ksnap_cgroup_keys, err);

	if (rc == 0 && f->n && f->n < f->cap) {	/* no room for keys that will not come */
		f->f = xrealloc(f->f, f->n * sizeof(*f->f));
		f->cap = f->n;
	}
	return rc;
}

static int parse_vmstat(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	if (parse_key_values(&s->vmstat, l, "/proc/vmstat", NULL, err) < 0)
		return -1;
	s->has_vmstat = true;
	return 0;
}

/* The zone named by a "Node N, zone NAME" header (added when new). */
static struct ksnap_zone *zone_of(struct kernel_snapshot *s, const char *header,
				  const char **rest)
{
	struct ksnap_zone z;
	int used = 0;
	uint32_t i;

	memset(&z, 0, sizeof(z));
	if (sscanf(header, "Node %u, zone %23s%n", &z.node, z.zone, &used) != 2)
		return NULL;
	*rest = header + used;
	for (i = 0; i < s->nzones; i++)
		if (s->zones[i].node == z.node && strcmp(s->zones[i].zone, z.zone) == 0)
			return &s->zones[i];
	if (s->nzones == 4096)
		return NULL;
	s->zones = xrealloc(s->zones, (s->nzones + 1) * sizeof(*s->zones));
	s->zones[s->nzones] = z;
	return &s->zones[s->nzones++];
}

/*
 * a zone's "  pages free N", "        spanned  N", "present", "managed"
 * lines, and each CPU's pageset "count: N" (free pages on its per-CPU
 * list: MemFree leaves them out); the rest passed over
 */
static int parse_zoneinfo(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	static const char *const keys[] = { "spanned", "present", "managed", "count:",
					    "start_pfn:", NULL };
	struct ksnap_zone *z = NULL;
	char *line, word[32];
	const char *rest;
	uint64_t v;
	int rc, used;
	size_t k;

	while ((line = next_line(l, err, &rc))) {
		if (strncmp(line, "Node ", 5) == 0) {
			z = zone_of(s, line, &rest);
			if (!z || *rest)
				return bad_line(l, "a zoneinfo zone (Node N, zone NAME)", err);
			z->in_zoneinfo = true;
			continue;
		}
		if (!z)
			return bad_line(l, "a zoneinfo zone (Node N, zone NAME)", err);
		used = 0;
		if (sscanf(line, " pages free %n", &used) == 0 && used) {
			if (!read_count(line + used, COUNT_MAX, &z->free))
				return bad_line(l, "a zoneinfo line (pages free N)", err);
			continue;
		}
		if (sscanf(line, " %31s %n", word, &used) != 1 || !used)
			continue;
		for (k = 0; keys[k] && strcmp(word, keys[k]); k++)
			;
		if (!keys[k])
			continue;
		if (k == 4) {	/* its value a pfn, past 2^33 on a machine of 32 TiB */
			z->has_start = true;
			continue;
		}
		if (!read_count(line + used, COUNT_MAX, &v))
			return bad_line(l, "a zoneinfo line (spanned, present, managed or count: N)",
					err);
		if (k == 3) {
			if (v > COUNT_MAX - z->pcp)
				return bad_line(l, "a zoneinfo pageset count within a machine's pages",
						err);
			z->pcp += v;
			z->has_pcp = true;
			continue;
		}
		*(k == 0 ? &z->spanned : k == 1 ? &z->present : &z->managed) = v;
		z->has_pages |= k == 2;	/* managed comes last of the three */
	}
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < s->nzones; i++) {
		const struct ksnap_zone *zi = &s->zones[i];

		if (zi->in_zoneinfo && !zi->has_pages)
			return error_set(err, "'%s': zone %s of node %u has no present and managed "
					 "lines: the file is cut", l->path, zi->zone, zi->node);
		/* a zone with pages prints start_pfn after its pagesets (2.6.28 and later) */
		if (zi->in_zoneinfo && zi->present && !zi->has_start)
			return error_set(err, "'%s': zone %s of node %u has no start_pfn line, which "
					 "follows its pagesets: the file is cut", l->path, zi->zone,
					 zi->node);
	}
	s->has_zoneinfo = true;
	return 0;
}

/* "Node 0, zone   DMA32   1   2 ...": free blocks of each order */
static int parse_buddyinfo(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	struct ksnap_zone *z;
	const char *rest;
	char *line, *end;
	int rc;

	while ((line = next_line(l, err, &rc))) {
		uint64_t pages = 0;

		z = zone_of(s, line, &rest);
		if (!z)
			return bad_line(l, "a buddyinfo row (Node N, zone NAME counts)", err);
		z->in_buddyinfo = true;
		z->orders = 0;
		for (;;) {
			unsigned long long v;

			while (*rest == ' ')
				rest++;
			if (!*rest)
				break;
			if (*rest < '0' || *rest > '9' || z->orders == KSNAP_ORDERS)
				return bad_line(l, "a buddyinfo row (Node N, zone NAME, at most 16 "
						"counts)", err);
			errno = 0;
			v = strtoull(rest, &end, 10);
			if (errno || (*end && *end != ' ') || v > COUNT_MAX)
				return bad_line(l, "a buddyinfo row (a count past 2^33)", err);
			pages += (uint64_t)v << z->orders;
			if (pages > (COUNT_MAX << 1))
				return bad_line(l, "a buddyinfo row (its free pages past 2^34)", err);
			z->blocks[z->orders++] = v;
			rest = end;
		}
		if (!z->orders)
			return bad_line(l, "a buddyinfo row (Node N, zone NAME counts)", err);
	}
	if (rc < 0)
		return -1;
	s->has_buddyinfo = true;
	return 0;
}

/* "name size refcount deps state address [taints]" */
static int parse_modules(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	uint64_t sum = 0;
	uint32_t cap = 0;
	char *line;
	int rc;

	while ((line = next_line(l, err, &rc))) {
		struct ksnap_module m;
		char refs[24], deps[4096], addr[24];
		unsigned long long size;

		memset(&m, 0, sizeof(m));
		if (strlen(line) >= sizeof(deps) ||
		    !ksnapshot_is_modules((const unsigned char *)line, strlen(line) + 1) ||
		    sscanf(line, "%63s %llu %23s %4095s %15s %23s", m.name, &size, refs, deps,
			   m.state, addr) != 6)
			return bad_line(l, "a /proc/modules row (name size refs deps state address)",
					err);
		sum += size;
		if (size > BYTES_MAX || sum > BYTES_MAX || s->nmodules == 1000000)
			return bad_line(l, "a /proc/modules row of a machine (sizes past 8 PiB)", err);
		m.size = size;
		if (s->nmodules == cap) {
			cap = cap ? cap * 2 : 64;
			s->modules = xrealloc(s->modules, cap * sizeof(*s->modules));
		}
		s->modules[s->nmodules++] = m;
	}
	if (rc < 0)
		return -1;
	s->has_modules = true;
	return 0;
}

static int parse_one_number(uint64_t *v, struct lines *l, struct ta_error *err)
{
	char *line;
	int rc;

	line = next_line(l, err, &rc);
	if (!line)
		return rc < 0 ? -1 : error_set(err, "'%s' is empty: no number of bytes", l->path);
	if (!read_count(line, BYTES_MAX, v) || next_line(l, err, &rc))
		return bad_line(l, "a number of bytes", err);
	return rc;
}

/* ---- the snapshot file: "key: value" lines of trace_analyze snapshot ---- */

static int parse_stamp(struct kernel_snapshot *s, struct lines *l, struct ta_error *err)
{
	char *line, *v;
	int rc;

	while ((line = next_line(l, err, &rc))) {
		v = strstr(line, ": ");
		if (!v)
			continue;	/* what could not be read, said in words */
		*v = '\0';
		v += 2;
		if (strcmp(line, "monotonic") == 0)
			s->monotonic_s = strtod(v, NULL);
		else if (strcmp(line, "realtime") == 0)
			s->realtime_s = strtod(v, NULL);
		else if (strcmp(line, "host") == 0)
			snprintf(s->host, sizeof(s->host), "%s", v);
		else if (strcmp(line, "release") == 0)
			snprintf(s->release, sizeof(s->release), "%s", v);
		else if (strcmp(line, "boot_id") == 0)
			snprintf(s->boot_id, sizeof(s->boot_id), "%s", v);
	}
	if (rc < 0)
		return -1;
	s->has_stamp = true;
	return 0;
}

/* ---- files and folders ---- */

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_folder(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool ksnapshot_is_folder(const char *path)
{
	char file[4096];
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	snprintf(file, sizeof(file), "%s/meminfo", path);
	return exists(file);
}

/* path's content, which must begin as probe says: the wrong kind of file is an error. */
static int open_kind(struct lines *l, const char *path, const char *what,
		     bool (*probe)(const unsigned char *head, size_t n), struct ta_error *err)
{
	if (open_lines(l, path, err) < 0)
		return -1;
	if (probe && !probe((const unsigned char *)l->text, l->len)) {
		free(l->text);
		return error_set(err, "'%s' is not %s (its first line is not)", path, what);
	}
	return 0;
}

static int read_kind(struct kernel_snapshot *s, const char *path, const char *what,
		     bool (*probe)(const unsigned char *, size_t),
		     int (*parse)(struct kernel_snapshot *, struct lines *, struct ta_error *),
		     struct ta_error *err)
{
	struct lines l;
	int rc;

	if (open_kind(&l, path, what, probe, err) < 0)
		return -1;
	rc = parse(s, &l, err);
	free(l.text);
	return rc;
}

static struct ksnap_cgroup *add_cgroup(struct kernel_snapshot *s, const char *rel)
{
	struct ksnap_cgroup *g;

	s->cgroups = xrealloc(s->cgroups, (s->ncgroups + 1) * sizeof(*s->cgroups));
	g = &s->cgroups[s->ncgroups++];
	memset(g, 0, sizeof(*g));
	g->path = xstrdup(rel[0] ? rel : "/");
	return g;
}

static int read_cgroup(struct kernel_snapshot *s, const char *dir, const char *rel,
		       struct ta_error *err)
{
	char file[4096];
	struct ksnap_cgroup *g;
	struct lines l;
	int rc = 0;

	snprintf(file, sizeof(file), "%s/memory.stat", dir);
	if (!exists(file)) {
		snprintf(file, sizeof(file), "%s/memory.current", dir);
		if (!exists(file))
			return 0;
	}
	if (s->ncgroups == CGROUPS_MAX)
		return error_set(err, "'%s' holds more than %d cgroups", s->source, CGROUPS_MAX);
	g = add_cgroup(s, rel);
	snprintf(file, sizeof(file), "%s/memory.stat", dir);
	if (exists(file)) {
		if (open_kind(&l, file, "a cgroup's memory.stat", ksnapshot_is_memory_stat,
			      err) < 0)
			return -1;
		rc = parse_memory_stat(&g->stat, &l, err);
		free(l.text);
		g->has_stat = rc == 0;
	}
	snprintf(file, sizeof(file), "%s/memory.current", dir);
	if (rc == 0 && exists(file)) {
		if (open_kind(&l, file, "a cgroup's memory.current", NULL, err) < 0)
			return -1;
		rc = parse_one_number(&g->current, &l, err);
		free(l.text);
		g->has_current = rc == 0;
	}
	return rc;
}

static int not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* The cgroup at dir (rel: its path below the root, "" for the root) and those below it. */
static int read_cgroup_tree(struct kernel_snapshot *s, const char *dir, const char *rel,
			    int depth, struct ta_error *err)
{
	struct dirent **names;
	int n, i, rc;

	if (depth > 64)
		return error_set(err, "'%s': cgroups nested deeper than 64", dir);
	rc = read_cgroup(s, dir, rel, err);
	n = rc < 0 ? -1 : scandir(dir, &names, not_hidden, alphasort);
	if (rc < 0)
		return -1;
	if (n < 0)
		return error_set_errno(err, errno, "cannot read '%s'", dir);
	for (i = 0; i < n; i++) {
		char sub[4096], subrel[4096];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]->d_name);
		snprintf(subrel, sizeof(subrel), "%s/%s", rel, names[i]->d_name);
		if (rc == 0 && lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			rc = read_cgroup_tree(s, sub, subrel, depth + 1, err);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The folder's allocinfo, with allocinfo.c's reader (its versions, its checks). */
static int read_allocinfo(struct kernel_snapshot *s, const char *file, struct ta_error *err)
{
	s->allocinfo = xcalloc(1, sizeof(*s->allocinfo));
	alloc_series_init(s->allocinfo);
	if (alloc_series_read_path(s->allocinfo, file, err) < 0)
		return -1;
	alloc_series_finish(s->allocinfo);
	if (s->allocinfo->snapshots != 1)
		return error_set(err, "'%s' holds %" PRIu64 " allocinfo snapshots: a kernel "
				 "snapshot's is one", file, s->allocinfo->snapshots);
	return 0;
}

/* "NK word" of the Memory: line's list, into *v: found? */
static bool memory_item(const char *line, const char *word, uint64_t *v)
{
	char key[40];
	const char *at;
	uint64_t kb;

	snprintf(key, sizeof(key), "K %s", word);
	at = strstr(line, key);
	if (!at)
		return false;
	while (at > line && at[-1] >= '0' && at[-1] <= '9')
		at--;
	if (sscanf(at, "%" SCNu64, &kb) != 1 || kb > BYTES_MAX / 1024)
		return false;
	*v = kb * 1024;
	return true;
}

/*
 * The folder's dmesg (record's text, or dmesg's with "[   0.000000] "
 * before it): the boot's Memory: line, when the ring still holds it. A
 * line that begins as it and is not of its form is an error.
 */
static int read_boot_memory(struct kernel_snapshot *s, const char *file, struct ta_error *err)
{
	struct ksnap_boot_memory *m = &s->boot_memory;
	char *text, *line, *nl;
	unsigned long lineno = 0;
	size_t len;
	int rc = 0;

	if (input_read_whole(file, FILE_MAX, &text, &len, err) < 0)
		return -1;
	for (line = text; line < text + len && !s->has_boot_memory; line = nl + 1) {
		char *at;
		uint64_t avail, total;

		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (!nl)
			nl = text + len;
		*nl = '\0';
		lineno++;
		at = strstr(line, "Memory: ");
		if (!at || !strstr(at, "K available ("))
			continue;
		if (sscanf(at, "Memory: %" SCNu64 "K/%" SCNu64 "K available", &avail, &total) != 2 ||
		    avail > BYTES_MAX / 1024 || total > BYTES_MAX / 1024 ||
		    !memory_item(at, "kernel code", &m->code) || !memory_item(at, "rwdata", &m->rwdata) ||
		    !memory_item(at, "rodata", &m->rodata) || !memory_item(at, "init", &m->init) ||
		    !memory_item(at, "bss", &m->bss) || !memory_item(at, "reserved", &m->reserved)) {
			rc = error_set(err, "'%s' line %lu is not the boot's Memory: line (NK/NK "
				       "available (NK kernel code, NK rwdata, NK rodata, NK init, NK "
				       "bss, NK reserved ...))", file, lineno);
			break;
		}
		memory_item(at, "cma-reserved", &m->cma_reserved);
		m->available = avail * 1024;
		m->total = total * 1024;
		s->has_boot_memory = true;
	}
	free(text);
	return rc;
}

/* /proc/modules is empty when no module is loaded: no first line to know it by */
static int read_modules(struct kernel_snapshot *s, const char *file, struct ta_error *err)
{
	struct stat st;

	if (stat(file, &st) == 0 && st.st_size == 0) {
		s->has_modules = true;
		return 0;
	}
	return read_kind(s, file, "/proc/modules", ksnapshot_is_modules, parse_modules, err);
}

/* The files a folder may hold besides meminfo, as /proc names them. */
static const struct folder_file {
	const char *name, *what;
	bool (*probe)(const unsigned char *head, size_t n);
	int (*parse)(struct kernel_snapshot *s, struct lines *l, struct ta_error *err);
} folder_files[] = {
	{ "meminfo", "/proc/meminfo", ksnapshot_is_meminfo, parse_meminfo },
	{ "slabinfo", "/proc/slabinfo", ksnapshot_is_slabinfo, parse_slabinfo },
	{ "vmallocinfo", "/proc/vmallocinfo", ksnapshot_is_vmallocinfo, parse_vmallocinfo },
	{ "vmstat", "/proc/vmstat", ksnapshot_is_vmstat, parse_vmstat },
	{ "zoneinfo", "/proc/zoneinfo", ksnapshot_is_zoneinfo, parse_zoneinfo },
	{ "buddyinfo", "/proc/buddyinfo", ksnapshot_is_buddyinfo, parse_buddyinfo },
	{ "snapshot", "a snapshot file", NULL, parse_stamp },
};

int ksnapshot_read_folder(struct kernel_snapshot *s, const char *path, struct ta_error *err)
{
	char file[4096];
	size_t i;

	s->source = path;
	for (i = 0; i < sizeof(folder_files) / sizeof(folder_files[0]); i++) {
		const struct folder_file *f = &folder_files[i];

		snprintf(file, sizeof(file), "%s/%s", path, f->name);
		if ((i == 0 || exists(file)) &&
		    read_kind(s, file, f->what, f->probe, f->parse, err) < 0)
			return -1;
	}
	snprintf(file, sizeof(file), "%s/modules", path);
	if (exists(file) && read_modules(s, file, err) < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/allocinfo", path);
	if (exists(file) && read_allocinfo(s, file, err) < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/dmesg", path);
	if (exists(file) && read_boot_memory(s, file, err) < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/cgroup", path);
	if (is_folder(file) && read_cgroup_tree(s, file, "", 0, err) < 0)
		return -1;
	return 0;
}

/* A file the running kernel may keep from us (not root: slabinfo, allocinfo): skipped, counted. */
static bool readable_live(struct kernel_snapshot *s, const char *file)
{
	if (!exists(file))
		return false;
	if (access(file, R_OK) == 0)
		return true;
	s->live_unreadable++;
	return false;
}

/* The first line of a /proc/sys file into out (cap bytes), "" when it cannot be read. */
static void read_sys_line(const char *root, const char *file, char *out, size_t cap)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, file);
	out[0] = '\0';
	f = fopen(path, "re");
	if (f && fgets(out, (int)cap, f))
		out[strcspn(out, "\n")] = '\0';
	if (f)
		fclose(f);
}

int ksnapshot_read_live(struct kernel_snapshot *s, const char *root, struct ta_error *err)
{
	char file[4096];
	struct timespec mono, real;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	snprintf(file, sizeof(file), "%s/proc", root);
	s->source = "/proc";
	for (i = 0; i < sizeof(folder_files) / sizeof(folder_files[0]); i++) {
		const struct folder_file *f = &folder_files[i];

		if (!f->probe)
			continue;	/* the stamp is made below */
		snprintf(file, sizeof(file), "%s/proc/%s", root, f->name);
		if ((i == 0 || readable_live(s, file)) &&
		    read_kind(s, file, f->what, f->probe, f->parse, err) < 0)
			return -1;
	}
	snprintf(file, sizeof(file), "%s/proc/modules", root);
	if (readable_live(s, file) && read_modules(s, file, err) < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/proc/allocinfo", root);
	if (readable_live(s, file) && read_allocinfo(s, file, err) < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/sys/fs/cgroup/cgroup.controllers", root);
	if (exists(file)) {	/* cgroup v2 */
		snprintf(file, sizeof(file), "%s/sys/fs/cgroup", root);
		if (read_cgroup_tree(s, file, "", 0, err) < 0)
			return -1;
	}
	s->has_stamp = true;
	s->monotonic_s = (double)mono.tv_sec + (double)mono.tv_nsec / 1e9;
	s->realtime_s = (double)real.tv_sec + (double)real.tv_nsec / 1e9;
	read_sys_line(root, "/proc/sys/kernel/hostname", s->host, sizeof(s->host));
	read_sys_line(root, "/proc/sys/kernel/osrelease", s->release, sizeof(s->release));
	read_sys_line(root, "/proc/sys/kernel/random/boot_id", s->boot_id, sizeof(s->boot_id));
	return 0;
}

int ksnapshot_parse_file(struct kernel_snapshot *s, const char *name, char *text, size_t len,
			 struct ta_error *err)
{
	struct lines l = { name, text, text, len, 0 };
	size_t i;

	s->source = name;
	for (i = 0; i < sizeof(folder_files) / sizeof(folder_files[0]); i++)
		if (folder_files[i].probe &&
		    folder_files[i].probe((const unsigned char *)text, len))
			return folder_files[i].parse(s, &l, err);
	if (ksnapshot_is_modules((const unsigned char *)text, len))
		return parse_modules(s, &l, err);
	if (ksnapshot_is_memory_stat((const unsigned char *)text, len)) {
		struct ksnap_cgroup *g = add_cgroup(s, name);	/* which group: the file's name says */

		g->has_stat = parse_memory_stat(&g->stat, &l, err) == 0;
		return g->has_stat ? 0 : -1;
	}
	return error_set(err, "'%s' is none of the kernel's memory files (meminfo, slabinfo, "
			 "vmallocinfo, vmstat, zoneinfo, buddyinfo, modules, memory.stat): its "
			 "first line is not", name);
}

/* a stamp's field, when both have it: the same? */
static bool differ(const char *a, const char *b)
{
	return a[0] && b[0] && strcmp(a, b) != 0;
}

int ksnapshot_same_boot(const struct kernel_snapshot *a, const struct kernel_snapshot *b,
			struct ta_error *err)
{
	if (differ(a->boot_id, b->boot_id))
		return error_set(err, "'%s' and '%s' are of two boots (boot id %s, then %s): a "
				 "series is one boot's", a->source, b->source, a->boot_id, b->boot_id);
	if (differ(a->release, b->release))
		return error_set(err, "'%s' and '%s' are of two kernels (%s, then %s): a series "
				 "is one boot's", a->source, b->source, a->release, b->release);
	if (differ(a->host, b->host))
		return error_set(err, "'%s' and '%s' are of two hosts (%s, then %s): a series is "
				 "one boot's", a->source, b->source, a->host, b->host);
	return 0;
}
