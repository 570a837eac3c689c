/*
 * fuzz_tepkmem.c - a libFuzzer target for the binary record decoder
 * (tepkmem.h) that trace.dat, perf.data and record share: any bytes read
 * as a run of raw ring-buffer records of the kmem events and ftrace's
 * kernel_stack, with formats parsed once (tests/fuzz/formats, a 6.18
 * kernel's, or TA_FUZZ_FORMATS), every decoded event through an account.
 * No file, no child: thousands of runs a second, where the whole-file
 * targets (fuzz_tracedat, fuzz_perfdata) open files and try formats.
 *
 * Input: records, each [which event][cpu][length, 2 bytes LE] then that
 * many bytes of the record after its 2-byte type (the type is the chosen
 * event's id, written here).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "account.h"
#include "error.h"
#include "text_parse.h"
#include "tepkmem.h"
#include "tracelib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 32

static struct tep_handle *tep;
static int ids[MAX_EVENTS];
static int nids;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		text = malloc((size_t)n + 1);
		if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
			free(text);
			text = NULL;
		}
		if (text)
			*len = (size_t)n;
	}
	fclose(f);
	return text;
}

/* Every SYSTEM-EVENT.format of dir parsed into tep, once. */
static void load_formats(void)
{
	const char *dir = getenv("TA_FUZZ_FORMATS");
	struct ta_error err;
	struct dirent *d;
	char path[4096];
	DIR *dh;

	if (!dir)
		dir = "tests/fuzz/formats";
	if (trace_library_load("to fuzz the record decoder", &err) < 0) {
		fprintf(stderr, "fuzz_tepkmem: %s\n", err.msg);
		abort();
	}
	tep = tep_alloc();
	dh = opendir(dir);
	if (!tep || !dh) {
		fprintf(stderr, "fuzz_tepkmem: no formats in '%s' (TA_FUZZ_FORMATS)\n", dir);
		abort();
	}
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	while ((d = readdir(dh)) && nids < MAX_EVENTS) {
		const char *dash = strchr(d->d_name, '-'), *dot = strstr(d->d_name, ".format");
		char system[64], name[128];
		struct tep_event *e;
		size_t len = 0;
		char *text;

		if (!dash || !dot || dot < dash || (size_t)(dash - d->d_name) >= sizeof(system) ||
		    (size_t)(dot - dash) >= sizeof(name))
			continue;
		memcpy(system, d->d_name, (size_t)(dash - d->d_name));
		system[dash - d->d_name] = '\0';
		memcpy(name, dash + 1, (size_t)(dot - dash - 1));
		name[dot - dash - 1] = '\0';
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		text = slurp(path, &len);
		if (text && tep_parse_event(tep, text, len, system) == 0) {
			e = tep_find_event_by_name(tep, system, name);
			if (e)
				ids[nids++] = e->id;
		}
		free(text);
	}
	closedir(dh);
	if (!nids) {
		fprintf(stderr, "fuzz_tepkmem: no format parsed in '%s'\n", dir);
		abort();
	}
}

/* A kernel text of one function every 4 KiB, so that call sites get names. */
static const char *resolve(void *ctx, uint64_t addr, uint64_t *start, const char **module)
{
	(void)ctx;
	*module = addr & 0x800 ? "fuzz_module" : NULL;
	if (addr < 0xffffffff81000000ull || addr >= 0xffffffff81100000ull)
		return NULL;
	*start = addr & ~0xfffull;
	return "fuzz_function";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_strings strings;
	struct tepkmem k;
	struct account a;
	size_t at = 0;

	if (!tep)
		load_formats();
	trace_strings_init(&strings);
	account_init(&a, FAMILY_ALL);
	tepkmem_init(&k, tep, &strings, WANT_ALL | WANT_USER_FRAMES, resolve, NULL);
	while (at + 4 <= size) {
		int id = ids[data[at] % nids];
		size_t len = (size_t)data[at + 2] | (size_t)data[at + 3] << 8;
		struct tep_record rec;
		struct kmem_event ev;
		unsigned char *record;
		uint32_t n;

		memset(&rec, 0, sizeof(rec));
		rec.cpu = data[at + 1];
		rec.ts = (unsigned long long)at * 1000;
		at += 4;
		if (len > size - at)
			len = size - at;
		record = malloc(len + 2);	/* exactly the record: a read past it is caught */
		if (!record)
			abort();
		record[0] = (unsigned char)id;
		record[1] = (unsigned char)(id >> 8);
		memcpy(record + 2, data + at, len);
		at += len;
		rec.data = record;
		rec.size = (int)len + 2;
		switch (tepkmem_decode(&k, &rec, &ev)) {
		case TEPKMEM_EVENT:
			ev.line = at;
			account_apply(&a, &ev);
			break;
		case TEPKMEM_STACK:
			(void)tepkmem_stack(&k, &n);
			break;
		default:
			break;
		}
		free(record);
	}
	tepkmem_release(&k);
	account_release(&a);
	trace_strings_release(&strings);
	return 0;
}
