/*
 * testhook.h - named points where a test can stop the program: with
 * TA_TEST_PAUSE=POINT in the environment (or A,B: each of them), reaching
 * POINT raises SIGSTOP on the whole process, so that a signal test sends
 * its signals while the program is known to be there (then SIGCONT),
 * instead of sleeping and hoping. Unset, a point costs one getenv the
 * first time and nothing after.
 *
 * The points (tests/cli name them): "commit" (an output complete in its
 * temporary file, not yet renamed), "record-running" (record: tracing on,
 * CMD started), "record-stopping" (record: told to stop, about to stop
 * the command and drain the buffer), "record-child-grace" (record: CMD sent
 * SIGTERM, its grace time not begun), "top-refreshed" (top: a refresh
 * shown), "stream-idle" (a log read from a pipe: all it holds read, about
 * to wait for more), "chunk-claimed" (a file's chunk claimed at its offset,
 * its bytes not yet read).
 */
#ifndef TA_TESTHOOK_H
#define TA_TESTHOOK_H

#include <stdbool.h>

void test_pause_point(const char *point);

/*
 * A gigabyte, for record's "the log has passed N GB" warning: 10^9 bytes,
 * or TA_TEST_GB bytes when a test sets it (so that a test need not write
 * a gigabyte).
 */
long long test_gigabyte(void);

/*
 * TA_TEST_LINESCAN=scalar|sse2|avx2|avx512: the way the parser finds its lines' ends and
 * separators (text_linescan.h), so that a test can compare the reports each way
 * gives; -1 when unset (the fastest the machine runs).
 */
int test_linescan(void);

/*
 * TA_TEST_NO_REPLAY=1: reading a DB's events one by one is an error
 * ("replayed"), so that a test shows which runs take the report data the
 * DB keeps (dbparts.h) rather than timing them. Unset: false.
 */
bool test_no_replay(void);

/*
 * TA_TEST_LATER_PART=NAME: --save-db writes the part of the pass named
 * NAME as a later build would, one version up (dbparts.h), so that a test
 * shows a run from that DB passing it over. Unset: false for every name.
 */
bool test_later_part(const char *name);

/*
 * TA_TEST_SNAPSHOT_ROOT=DIR: trace_analyze snapshot reads DIR/proc/... and
 * DIR/sys/fs/cgroup/... instead of the running kernel's, so that a test
 * takes a snapshot of a corpus's files. Unset: "" (the running kernel).
 */
const char *test_snapshot_root(void);

/*
 * TA_TEST_DRAW_INLINE=1: cairo is not made ready beside the reading
 * (chartfile.h) but when the first picture is drawn, so that a test
 * compares the pictures each way gives. Unset: false.
 */
bool test_draw_inline(void);

/*
 * TA_TEST_INSTANCES=FILE: the name of each tracefs instance record or top
 * makes is appended to FILE, a line each, so that a test checks that the
 * instances its own runs made are gone, and not those of another run on
 * the machine. Unset: nothing.
 */
void test_note_instance(const char *name);

/*
 * The folder record reads the slab caches' reclaim_account from:
 * /sys/kernel/slab, or TA_TEST_SLAB_DIR when a test sets it (a folder of
 * made-up caches, so that a test knows which ones are reclaimable).
 */
const char *test_slab_dir(void);

/*
 * The file record --allocinfo and top --allocinfo read: /proc/allocinfo,
 * or TA_TEST_ALLOCINFO when a test sets it (a saved snapshot, so that a
 * kernel without the profiler can be tested).
 */
/* The /proc/modules record saves beside a trace.dat (TA_TEST_MODULES). */
const char *test_modules_path(void);

const char *test_allocinfo_path(void);

#endif
