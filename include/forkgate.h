/*
 * forkgate.h - fork() for a child that goes on running this program (the
 * guards that try libtraceevent or libtracecmd on a capture's data in a
 * child that may die in the parent's place) while other threads work.
 *
 * A child starts with the forking thread alone: a lock another thread held
 * at that instant (a sanitizer's allocator, a library's own) stays held in
 * the child for ever, and the child hangs at its first malloc. glibc's
 * malloc is made safe across fork; AddressSanitizer's allocator (GCC 12's)
 * is not, and a guard's child hung so under CI while the chart thread
 * loaded cairo. So a thread that works in libraries beside the reading
 * holds the gate while it works, and a guard forks through the gate,
 * waiting for such work to end.
 *
 * record's command goes through the gate too: its child lists its file
 * descriptors (opendir, malloc) before its exec.
 * Not here: the chart viewer's fork, which execs at once.
 */
#ifndef TA_FORKGATE_H
#define TA_FORKGATE_H

#include <sys/types.h>

/* A thread's library work begins, and ends: forks wait for it. */
void fork_gate_hold(void);
void fork_gate_release(void);

/* fork(), once no thread holds the gate; as fork() returns. */
pid_t fork_when_quiet(void);

#endif
