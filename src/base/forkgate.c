/*
 * forkgate.c - the gate between threads' library work and a guard's fork
 * (forkgate.h): a reader-writer lock, the workers its readers, a fork its
 * writer. The child never touches it: it runs the guard and _exits.
 * Not here: which threads work or which children fork.
 */
#include <pthread.h>
#include <unistd.h>

#include "forkgate.h"

static pthread_rwlock_t gate = PTHREAD_RWLOCK_INITIALIZER;

void fork_gate_hold(void)
{
	pthread_rwlock_rdlock(&gate);
}

void fork_gate_release(void)
{
	pthread_rwlock_unlock(&gate);
}

pid_t fork_when_quiet(void)
{
	pid_t pid;

	pthread_rwlock_wrlock(&gate);
	pid = fork();
	if (pid != 0)	/* the parent; the child leaves the gate as it found it */
		pthread_rwlock_unlock(&gate);
	return pid;
}
