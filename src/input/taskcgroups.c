/*
 * taskcgroups.c - which cgroup a traced task was in (taskcgroups.h): a
 * pid-to-cgroup map and a log's fork events, read and asked. The map is
 * read whole (a line per process); a fork log is streamed in chunks of
 * whole lines, so that the kmem log itself (GBs) may be one. Not here:
 * what the analysis does with a task's cgroup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "lowerbound.h"
#include "numfmt.h"
#include "taskcgroups.h"

#define MAP_FILE_MAX ((size_t)256 << 20)
#define GENERATIONS_MAX 64
#define PID_MAX (1 << 22)	/* the kernel's PID_MAX_LIMIT */

void task_cgroups_init(struct task_cgroups *t)
{
	memset(t, 0, sizeof(*t));
	strtab_init(&t->paths);
}

void task_cgroups_release(struct task_cgroups *t)
{
	strtab_release(&t->paths);
	free(t->map);
	free(t->forks);
	memset(t, 0, sizeof(*t));
}

/* ---- the map ---- */

/*
 * The cgroup path of a /proc/PID/cgroup line: "0::/a" (v2), or the memory
 * controller's "4:memory:/a" (v1); NULL for another v1 controller's line.
 */
static const char *path_of_line(const char *line)
{
	const char *colon = strchr(line, ':'), *second, *c;
	size_t n;

	if (!colon || colon == line)
		return NULL;
	for (c = line; c < colon; c++)
		if (*c < '0' || *c > '9')
			return NULL;
	second = strchr(colon + 1, ':');
	if (!second || second[1] != '/')
		return NULL;
	if (second == colon + 1)
		return second + 1;	/* v2: no controller */
	for (c = colon + 1; c < second; c += n + (c[n] == ',')) {
		n = strcspn(c, ",:");
		if (n == 6 && strncmp(c, "memory", 6) == 0)
			return second + 1;
	}
	return NULL;
}

static void add_to_map(struct task_cgroups *t, int32_t pid, const char *path)
{
	if (t->nmap == t->map_cap) {
		t->map_cap = t->map_cap ? 2 * t->map_cap : 1024;
		t->map = xrealloc(t->map, t->map_cap * sizeof(*t->map));
	}
	t->map[t->nmap].pid = pid;
	t->map[t->nmap].map = t->maps;
	t->map[t->nmap++].path = strtab_intern(&t->paths, path, strlen(path));
}

/* "pid<TAB>comm<TAB>line": the pid, and the line after the last tab */
static int read_map_line(struct task_cgroups *t, char *line, const char *name,
			 unsigned long lineno, struct ta_error *err)
{
	char *tab = strchr(line, '\t'), *last = strrchr(line, '\t');
	const char *path;
	uint64_t pid;

	if (!tab || tab == last)
		return error_set(err, "'%s' line %lu is not pid, comm and cgroup line, tab "
				 "separated", name, lineno);
	*tab = '\0';
	if (!read_count(line, PID_MAX, &pid))
		return error_set(err, "'%s' line %lu: '%s' is no pid", name, lineno, line);
	path = path_of_line(last + 1);
	if (!path) {
		if (strchr(last + 1, ':') && (last[1] >= '0' && last[1] <= '9'))
			return 0;	/* a v1 controller other than memory's */
		return error_set(err, "'%s' line %lu: '%s' is no /proc/PID/cgroup line", name,
				 lineno, last + 1);
	}
	add_to_map(t, (int32_t)pid, path);
	return 0;
}

int task_cgroups_read_map(struct task_cgroups *t, const char *path, struct ta_error *err)
{
	unsigned long lineno = 0;
	uint32_t before = t->nmap;
	char *text, *line, *nl;
	size_t len;
	int rc = 0;

	if (input_read_whole(path, MAP_FILE_MAX, &text, &len, err) < 0)
		return -1;
	for (line = text; rc == 0 && line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(text + len - line));
		lineno++;
		if (!nl) {
			rc = error_set(err, "'%s' line %lu has no newline: the file is cut", path,
				       lineno);
			break;
		}
		*nl = '\0';
		if (*line)
			rc = read_map_line(t, line, path, lineno, err);
	}
	free(text);
	if (rc == 0 && t->nmap == before)
		rc = error_set(err, "'%s' has no pid: no map of tasks to cgroups", path);
	if (rc == 0) {
		size_t used = strlen(t->map_source);

		snprintf(t->map_source + used, sizeof(t->map_source) - used, "%s'%.250s'",
			 t->maps++ ? " then " : "", path);
	}
	if (rc == 0)
		t->have_map = true;
	return rc;
}

/* ---- fork events ---- */

/* The number after key= in text[0..n), into *v: found? */
static bool field_after(const char *text, size_t n, const char *key, uint64_t max, uint64_t *v)
{
	size_t klen = strlen(key), i;
	char digits[24];

	for (i = 0; i + klen < n; i++)
		if ((i == 0 || text[i - 1] == ' ') && memcmp(text + i, key, klen) == 0) {
			size_t d = 0;

			i += klen;
			while (i < n && d < sizeof(digits) - 1 && text[i] >= '0' && text[i] <= '9')
				digits[d++] = text[i++];
			digits[d] = '\0';
			return d && read_count(digits, max, v);
		}
	return false;
}

/* "... 123.456789: sched_process_fork: ": the time before the event's name, in ns */
static bool time_before(const char *line, const char *event, uint64_t *ts_ns)
{
	const char *end = event, *start;
	char text[40];
	double s;

	if (end - line >= 6 && memcmp(end - 6, "sched:", 6) == 0)
		end -= 6;	/* perf script: "sched:sched_process_fork:" */
	while (end > line && (end[-1] == ' ' || end[-1] == ':'))
		end--;
	start = end;
	while (start > line && ((start[-1] >= '0' && start[-1] <= '9') || start[-1] == '.'))
		start--;
	if (start == end || (size_t)(end - start) >= sizeof(text))
		return false;
	memcpy(text, start, (size_t)(end - start));
	text[end - start] = '\0';
	errno = 0;
	s = strtod(text, NULL);
	if (errno || s < 0 || s > 1e9)
		return false;
	*ts_ns = (uint64_t)(s * 1e9 + 0.5);
	return true;
}

static int read_fork_line(struct task_cgroups *t, const char *line, size_t n, const char *name,
			  struct ta_error *err)
{
	const char *event = memmem(line, n, "sched_process_fork: ", 20);
	const char *fields;
	uint64_t parent, child, ts;
	struct task_fork *f;

	if (!event)
		return 0;
	fields = event + 20;
	/* the parent's pid= comes before child_comm=, whose comm may hold anything */
	if (!field_after(fields, (size_t)(line + n - fields), "pid=", PID_MAX, &parent) ||
	    !field_after(fields, (size_t)(line + n - fields), "child_pid=", PID_MAX, &child) ||
	    !time_before(line, event, &ts))
		return error_set(err, "'%s': a sched_process_fork line without its pids or time: "
				 "%.*s", name, (int)(n < 160 ? n : 160), line);
	if (t->nforks == t->forks_cap) {
		t->forks_cap = t->forks_cap ? 2 * t->forks_cap : 1024;
		t->forks = xrealloc(t->forks, t->forks_cap * sizeof(*t->forks));
	}
	f = &t->forks[t->nforks++];
	f->child = (int32_t)child;
	f->parent = (int32_t)parent;
	f->ts_ns = ts;
	return 0;
}

int task_cgroups_read_forks(struct task_cgroups *t, const char *path, struct ta_error *err)
{
	struct input in;
	struct chunk c;
	int rc;

	if (input_open(&in, path, err) < 0)
		return -1;
	chunk_init(&c, INPUT_CHUNK_SIZE);
	while ((rc = input_read_chunk(&in, &c, err)) > 0) {
		const char *line = c.data, *end = c.data + c.len, *nl;

		for (; rc > 0 && line < end; line = nl + 1) {
			nl = memchr(line, '\n', (size_t)(end - line));
			if (!nl)
				nl = end;
			if (memmem(line, (size_t)(nl - line), "sched_process_fork: ", 20) &&
			    read_fork_line(t, line, (size_t)(nl - line), path, err) < 0)
				rc = -1;
		}
		if (rc < 0)
			break;
	}
	chunk_release(&c);
	input_close(&in);
	if (rc == 0)
		t->fork_files++;
	return rc < 0 ? -1 : 0;
}

/* ---- the questions ---- */

static int by_pid(const void *pa, const void *pb)
{
	const struct task_cgroup *a = pa, *b = pb;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int by_pid_then_map(const void *pa, const void *pb)
{
	const struct task_cgroup *a = pa, *b = pb;

	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	return (a->map > b->map) - (a->map < b->map);
}

static int by_child_then_time(const void *pa, const void *pb)
{
	const struct task_fork *a = pa, *b = pb;

	if (a->child != b->child)
		return (a->child > b->child) - (a->child < b->child);
	return (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
}

void task_cgroups_ready(struct task_cgroups *t)
{
	uint32_t i, n = 0;

	if (t->nmap)
		qsort(t->map, t->nmap, sizeof(*t->map), by_pid_then_map);
	for (i = 0; i < t->nmap; i++)	/* a pid of two maps: the first map's */
		if (!n || t->map[n - 1].pid != t->map[i].pid)
			t->map[n++] = t->map[i];
	t->nmap = n;
	if (t->nforks)
		qsort(t->forks, t->nforks, sizeof(*t->forks), by_child_then_time);
}

static const struct task_cgroup *mapped(const struct task_cgroups *t, int32_t pid)
{
	struct task_cgroup key = { pid, 0, 0 };

	return t->nmap ? bsearch(&key, t->map, t->nmap, sizeof(*t->map), by_pid) : NULL;
}

static int child_against(const void *key, const void *element)
{
	int32_t pid = *(const int32_t *)key, child = ((const struct task_fork *)element)->child;

	return (pid > child) - (pid < child);
}

/* The forks of pid: [*first, *first + *n), in time order. */
static void forks_of(const struct task_cgroups *t, int32_t pid, uint64_t *first, uint64_t *n)
{
	size_t lo = lower_bound(&pid, t->forks, t->nforks, sizeof(*t->forks), child_against), hi;

	for (hi = lo; hi < t->nforks && t->forks[hi].child == pid; hi++)
		;
	*first = lo;
	*n = hi - lo;
}

const char *task_cgroup_of(const struct task_cgroups *t, int32_t pid, uint64_t ts_ns,
			   enum cgroup_via *via)
{
	unsigned generation;

	*via = CGROUP_VIA_NONE;
	for (generation = 0; pid >= 0 && generation < GENERATIONS_MAX; generation++) {
		const struct task_fork *born = NULL;
		const struct task_cgroup *m;
		bool reused_later = false;
		uint64_t first, n, i;

		forks_of(t, pid, &first, &n);
		for (i = first; i < first + n; i++) {
			if (t->forks[i].ts_ns <= ts_ns)
				born = &t->forks[i];
			else
				reused_later = true;
		}
		m = reused_later ? NULL : mapped(t, pid);
		if (m) {
			*via = generation ? CGROUP_VIA_FORK : CGROUP_VIA_MAP;
			return strtab_get(&t->paths, m->path);
		}
		if (!born)
			return NULL;
		pid = born->parent;
		ts_ns = born->ts_ns;
	}
	return NULL;
}

bool cgroup_is_within(const char *path, const char *cgroup)
{
	size_t n = strlen(cgroup);

	if (strcmp(cgroup, "/") == 0)
		return path[0] == '/';
	while (n > 1 && cgroup[n - 1] == '/')
		n--;
	return strncmp(path, cgroup, n) == 0 && (path[n] == '\0' || path[n] == '/');
}
