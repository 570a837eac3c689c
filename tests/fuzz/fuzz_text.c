/*
 * fuzz_text.c - a libFuzzer target for the text path: any bytes given as a
 * log, through the very entry `trace_analyze -f LOG` takes (pipeline_run),
 * with every report on. Whatever the bytes, the run either refuses them
 * with a message or writes its reports, without a crash, a leak or
 * undefined behaviour.
 *
 * The first three bytes of an input choose the run, the rest is the log:
 *   byte 0: bit 0 two parser threads (else one), bit 1 --group-by function,
 *           bits 2-3 families (all, --malloc, --cache), bits 4-5 --format
 *           (text, csv, json), bit 6 the log through a pipe as standard
 *           input (else a regular file, which is mapped), bit 7 -k with the
 *           shipped kernel index and -l (when TA_FUZZ_KIDX names it)
 *   byte 1: bit 0 --time from 0.5 s on, bit 1 --min-age 0.001, bit 2 --top 3,
 *           bits 3-5 the -o key, bit 6 -b fs (with bit 7 of byte 0),
 *           bit 7 --save-db as well
 *   byte 2: bit 0 --group-by origin, bit 1 --folded, bit 2 --folded-pages,
 *           bit 3 --flame (SVG), bit 4 --user-frames, bits 5-6 --weight,
 *           bit 7 --wrappers with a file of two names
 * Each input runs twice, as bit 6 of byte 0 and bit 0 say, then with the
 * other input (pipe or file) and the other thread count, and the reports
 * of the two runs (account, --stats, --outstanding, --summary but its
 * line naming the log, --page, --folded, -l) must be byte-identical: the
 * same log gives the same numbers however it is read (a differential
 * check; any difference aborts, so libFuzzer keeps the input). The DB and
 * the flame graph go to files of the fuzzer's own.
 * `make fuzz-text` runs it with libFuzzer; `make check` runs its seed corpus
 * (tests/fuzz/corpus/text) through the same function with run_seeds.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirtree.h"
#include "options.h"
#include "pipeline.h"
#include "reports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct feed {
	int fd;
	const uint8_t *data;
	size_t size;
};

static void *feed_pipe(void *arg)
{
	struct feed *f = arg;
	size_t done = 0;

	while (done < f->size) {
		ssize_t n = write(f->fd, f->data + done, f->size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(f->fd);
	return NULL;
}

/* A file of the fuzzer's own, one per name ("log", "db", "a.account", ...). */
static const char *scratch_path(const char *what)
{
	static char paths[64][64];
	static char names[64][24];
	int i;

	for (i = 0; i < 64 && names[i][0]; i++)
		if (strcmp(names[i], what) == 0)
			return paths[i];
	if (i == 64)
		abort();
	snprintf(names[i], sizeof(names[i]), "%s", what);
	snprintf(paths[i], sizeof(paths[i]), "/tmp/ta-fuzz-text-%ld.%s", (long)getpid(), what);
	return paths[i];
}

/* A report's file of run `run` ('a' or 'b'): named by its id. */
static const char *report_file(char run, int id)
{
	char name[24];

	snprintf(name, sizeof(name), "%c.report-%d", run, id);
	return scratch_path(name);
}

/* Point every report o asks for at the files of run `run` ('a' or 'b'). */
static void aim_reports(struct options *o, char run)
{
	int id;

	for (id = 0; id < REPORT_COUNT; id++) {
		if (!o->report_path[id])
			continue;
		o->report_path[id] = report_file(run, id);
		unlink(o->report_path[id]);
	}
}

/* The file's bytes, without the lines naming the log (which differ by input). */
static char *report_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, line[1 << 16];
	size_t n = 0, cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);

		if (strstr(line, "ta-fuzz-text-") || strstr(line, "standard input"))
			continue;
		if (n + l + 1 > cap) {
			cap = (n + l + 1) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		memcpy(buf + n, line, l);
		n += l;
	}
	fclose(f);
	*len = n;
	return buf ? buf : calloc(1, 1);
}

/* Every report but the pictures: the same whichever way the log was read. */
static void compare_runs(void)
{
	size_t la, lb;
	int id;

	for (id = 0; id < REPORT_COUNT; id++) {
		char *x, *y;

		if (report_table[id].shape == SHAPE_CHART)
			continue;
		x = report_text(report_file('a', id), &la);
		y = report_text(report_file('b', id), &lb);
		if ((x == NULL) != (y == NULL) || la != lb || (x && memcmp(x, y, la) != 0)) {
			fprintf(stderr, "fuzz_text: %s differs between a file or pipe read with one "
				"thread and the other read with two\n", report_table[id].name);
			abort();
		}
		free(x);
		free(y);
		unlink(report_file('a', id));
		unlink(report_file('b', id));
	}
}

static const char *wrappers_file(void)
{
	const char *path = scratch_path("wrappers");
	FILE *f = fopen(path, "w");

	if (!f || fputs("# two more\nalloc_pipe_info\n  kvasprintf_const.part.0  \n", f) < 0 ||
	    fclose(f) != 0)
		abort();
	return path;
}

static void choose_run(struct options *o, uint8_t a, uint8_t b, uint8_t c)
{
	static const enum order_key orders[8] = {
		ORDER_CURRENT_DYNAMIC, ORDER_TOTAL_DYNAMIC, ORDER_ALLOC_COUNT, ORDER_FREE_COUNT,
		ORDER_WASTE, ORDER_FRAG, ORDER_PINGPONG, ORDER_PEAK,
	};
	static const unsigned families[4] = { FAMILY_ALL, FAMILY_MALLOC, FAMILY_CACHE, FAMILY_ALL };
	const char *kidx = getenv("TA_FUZZ_KIDX");
	int id;

	memset(o, 0, sizeof(*o));
	o->req.threads = (a & 1) ? 2 : 1;
	o->req.group_by = (a & 2) ? GROUP_FUNCTION : GROUP_CALLSITE;
	o->req.families = families[(a >> 2) & 3];
	o->format = (enum out_format)(((a >> 4) & 3) % 3);
	o->req.order = orders[(b >> 3) & 7];
	for (id = 0; id < REPORT_COUNT; id++)	/* every report of tables a log gives */
		if (report_table[id].shape == SHAPE_TABLES &&
		    !(report_table[id].requires & (REQUIRES_TREE | REQUIRES_KSNAPSHOT)))
			o->report_path[id] = "/dev/null";
	o->rings_attr = ATTR_CURRENT_DYNAMIC;
	o->req.quiet = true;
	if ((a & 0x80) && kidx && *kidx) {
		o->req.kernel = kidx;
		o->report_path[REPORT_CALLERS] = "/dev/null";
		if (b & 0x40)
			o->req.branch = "fs";
	}
	if (b & 1) {
		o->req.has_time_start = true;
		o->req.time_start_ns = 500000000;
	}
	if (b & 2)
		o->min_age_ns = 1000000;
	if (b & 4)
		o->top = 3;
	if (b & 0x80)
		o->req.save_db = scratch_path("db");
	if (c & 1)
		o->req.group_by = GROUP_ORIGIN;
	if (c & 2)
		o->report_path[REPORT_FOLDED] = "/dev/null";
	if (c & 4)
		o->report_path[REPORT_FOLDED_PAGES] = "/dev/null";
	if (c & 8)
		o->report_path[REPORT_FLAME] = scratch_path("flame.svg");
	o->req.user_frames = (c & 0x10) != 0;
	if (o->report_path[REPORT_FOLDED] || o->report_path[REPORT_FLAME])
		o->weight = (enum stack_weight)((c >> 5) & 3);
	if (c & 0x80)
		o->req.wrappers_path = wrappers_file();
	o->page_size = 4096;
}

static void run_from_file(struct options *o, const uint8_t *log, size_t n)
{
	const char *path = scratch_path("log");
	struct ta_error err;
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(log, 1, n, f) != n) || fclose(f) != 0)
		abort();
	o->req.log_path = path;
	(void)pipeline_run(o, &err);
}

static void run_from_pipe(struct options *o, const uint8_t *log, size_t n)
{
	struct feed feed = { -1, log, n };
	struct ta_error err;
	pthread_t writer;
	int fds[2], saved_stdin = dup(STDIN_FILENO);

	if (saved_stdin < 0 || pipe(fds) < 0)
		abort();
	feed.fd = fds[1];
	if (dup2(fds[0], STDIN_FILENO) < 0)
		abort();
	close(fds[0]);
	if (pthread_create(&writer, NULL, feed_pipe, &feed) != 0)
		abort();
	o->req.log_path = "-";
	(void)pipeline_run(o, &err);
	/* a run that stopped early leaves bytes in the pipe: drain them */
	dup2(saved_stdin, STDIN_FILENO);
	close(saved_stdin);
	pthread_join(writer, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	struct options o;

	if (!once) {
		once = 1;
		signal(SIGPIPE, SIG_IGN);	/* the feeder of a run that stopped early */
	}
	if (size < 3)
		return 0;
	choose_run(&o, data[0], data[1], data[2]);
	aim_reports(&o, 'a');
	if (data[0] & 0x40)
		run_from_pipe(&o, data + 3, size - 3);
	else
		run_from_file(&o, data + 3, size - 3);
	choose_run(&o, data[0], data[1], data[2]);
	o.req.threads = o.req.threads == 1 ? 2 : 1;
	aim_reports(&o, 'b');
	if (data[0] & 0x40)
		run_from_file(&o, data + 3, size - 3);
	else
		run_from_pipe(&o, data + 3, size - 3);
	compare_runs();
	unlink(scratch_path("db"));
	unlink(scratch_path("flame.svg"));
	return 0;
}
