/*
 * text.c - a capture's records as tracefs `trace` text, for record's log:
 * the event line as tracefs prints it ("comm-pid [cpu] flags ts: event:
 * fields", through libtraceevent), a stack as "<stack trace>" and " =>
 * func" lines, lost pages as "CPU:N [LOST M EVENTS]"; and the task names
 * those lines give (capture_learn_comm).
 *
 * Not here: reading the pages, their order (stream.c, merge.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "capture_local.h"
#include "tracelib.h"

#define COMM_SLOTS 65536		/* pids whose task name was read lately, by pid % slots */
#define COMM_RECHECK_NS 1000000000ull	/* a name is read again after this: exec renames */

static void text_append(struct capture_text *t, const char *s, size_t n)
{
	if (t->len + n > t->cap) {
		while (t->len + n > t->cap)
			t->cap = t->cap ? t->cap * 2 : 1 << 16;
		t->text = xrealloc(t->text, t->cap);
	}
	memcpy(t->text + t->len, s, n);
	t->len += n;
}

/*
 * The task name of pid for the log's lines: /proc/PID/comm while the task
 * lives (read again each second, since exec renames it), else the kernel's
 * saved_cmdlines (reloaded twice a second at most), which may still hold a
 * name an earlier task of that pid had.
 */
void capture_learn_comm(struct capture *c, int pid)
{
	struct tep_handle *tep = c->tep;
	struct comm_check *slot;
	char path[64], comm[64];
	uint64_t now;
	FILE *in;

	if (pid <= 0)
		return;
	if (!c->comm_checked)
		c->comm_checked = xcalloc(COMM_SLOTS, sizeof(*c->comm_checked));
	slot = &c->comm_checked[(unsigned)pid % COMM_SLOTS];
	now = capture_now_ns();
	if (slot->pid == pid && now - slot->at_ns < COMM_RECHECK_NS)
		return;
	slot->pid = pid;
	slot->at_ns = now;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	in = fopen(path, "re");
	if (in) {
		if (fgets(comm, sizeof(comm), in)) {
			comm[strcspn(comm, "\n")] = '\0';
			tep_override_comm(tep, comm, pid);
		}
		fclose(in);
		return;
	}
	if (!tep_is_pid_registered(tep, pid) && now - c->cmdlines_reloaded_ns > 500000000ull) {
		c->cmdlines_reloaded_ns = now;
		tracefs_load_cmdlines(c->tracing_dir, tep);
	}
}

/* The frames of a kernel_stack record, one " => func" line each; their number. */
static size_t format_stack(struct capture *c, const struct tep_record *rec,
			   struct capture_text *out)
{
	const unsigned char *data = rec->data;
	int entries = 0, i;
	size_t lines = 0;
	char frame[64];

	if (c->stack_size_offset + 4 <= rec->size)
		memcpy(&entries, data + c->stack_size_offset, sizeof(entries));
	if (rec->size > c->stack_caller_offset) {
		int room = (rec->size - c->stack_caller_offset) / (int)sizeof(unsigned long);

		if (entries < 0 || entries > room)
			entries = room;
	} else {
		entries = 0;
	}
	text_append(out, "<stack trace>\n", 14);
	for (i = 0; i < entries; i++) {
		unsigned long addr;
		const struct ksym *sym;
		const char *name;

		memcpy(&addr, data + c->stack_caller_offset + i * (int)sizeof(addr), sizeof(addr));
		if (addr == 0 || addr == ULONG_MAX)
			break;
		sym = c->have_syms ? symbols_lookup(&c->syms, addr) : NULL;
		text_append(out, " => ", 4);
		if (sym) {
			name = ksym_name(&c->syms, sym);
			text_append(out, name, strlen(name));
		} else {
			int n = snprintf(frame, sizeof(frame), "%lx", addr);

			text_append(out, frame, (size_t)n);
		}
		text_append(out, "\n", 1);
		lines++;
	}
	return lines;
}

size_t capture_format(struct capture *c, const struct capture_item *it, struct capture_text *out)
{
	struct trace_seq *s = &c->seq;
	size_t before = out->len, lines = 1;

	if (!it->rec) {
		char line[64];
		int n = it->lost > 0 ? snprintf(line, sizeof(line), "CPU:%d [LOST %d EVENTS]\n",
						it->cpu, it->lost)
				     : snprintf(line, sizeof(line), "CPU:%d [LOST EVENTS]\n", it->cpu);

		text_append(out, line, (size_t)n);
		c->stats.bytes += (uint64_t)n;
		return 1;
	}
	if (!c->seq_ready) {
		trace_seq_init(s);
		c->seq_ready = true;
	}
	trace_seq_reset(s);
	if (it->is_stack)
		tep_print_event(c->tep, s, it->rec, "%16s-%-7d [%03d] %s %6.1000d: ",
				TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_LATENCY,
				TEP_PRINT_TIME);
	else
		tep_print_event(c->tep, s, it->rec, "%16s-%-7d [%03d] %s %6.1000d: %s: %s\n",
				TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_LATENCY,
				TEP_PRINT_TIME, TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(s);
	text_append(out, s->buffer, s->len);
	if (it->is_stack)
		lines += format_stack(c, it->rec, out);
	c->stats.bytes += out->len - before;
	return lines;
}
