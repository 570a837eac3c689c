/*
 * test_forkgate.c - a guard's fork waits for a thread's library work: the
 * child starts after the worker has finished (it sees the work done), never
 * in the middle of it; with no worker it forks at once, and the gate is
 * free again after each fork. The waiting is observed, not timed: the test
 * lets the worker finish only once the forking thread sleeps in the kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "forkgate.h"

struct scene {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int worker_holds, worker_may_finish, forker_tid;
	volatile int work_done;		/* what the child sees of the worker */
	int child_status;
};

static void wait_for(struct scene *s, int *flag)
{
	pthread_mutex_lock(&s->lock);
	while (!*flag)
		pthread_cond_wait(&s->changed, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static void raise_flag(struct scene *s, int *flag, int value)
{
	pthread_mutex_lock(&s->lock);
	*flag = value;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

static void *worker(void *arg)
{
	struct scene *s = arg;

	fork_gate_hold();
	raise_flag(s, &s->worker_holds, 1);
	wait_for(s, &s->worker_may_finish);
	s->work_done = 1;
	fork_gate_release();
	return NULL;
}

static void *forker(void *arg)
{
	struct scene *s = arg;
	pid_t child;

	raise_flag(s, &s->forker_tid, (int)syscall(SYS_gettid));
	child = fork_when_quiet();
	if (child == 0)
		_exit(s->work_done ? 0 : 1);
	waitpid(child, &s->child_status, 0);
	return NULL;
}

/* The thread's state letter in /proc: 'S' once it sleeps (in the gate, or in waitpid). */
static char task_state(int tid)
{
	char path[64], buf[512], *close_paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' ? close_paren[2] : '?';
}

static void a_fork_waits_for_the_work_to_end(void **state)
{
	struct scene s;
	pthread_t w, f;

	(void)state;
	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.changed, NULL);
	assert_int_equal(pthread_create(&w, NULL, worker, &s), 0);
	wait_for(&s, &s.worker_holds);
	assert_int_equal(pthread_create(&f, NULL, forker, &s), 0);
	wait_for(&s, &s.forker_tid);
	while (task_state(s.forker_tid) != 'S')	/* at the gate (or, with none, in waitpid) */
		sched_yield();
	raise_flag(&s, &s.worker_may_finish, 1);
	pthread_join(w, NULL);
	pthread_join(f, NULL);
	assert_true(WIFEXITED(s.child_status));
	assert_int_equal(WEXITSTATUS(s.child_status), 0);	/* 1: forked mid-work */
	pthread_cond_destroy(&s.changed);
	pthread_mutex_destroy(&s.lock);
}

static void with_no_work_it_forks_at_once_and_the_gate_stays_usable(void **state)
{
	int i, status;

	(void)state;
	for (i = 0; i < 2; i++) {
		pid_t child = fork_when_quiet();

		if (child == 0)
			_exit(7);
		assert_true(child > 0);
		assert_int_equal(waitpid(child, &status, 0), child);
		assert_int_equal(WEXITSTATUS(status), 7);
		fork_gate_hold();	/* not left closed by the fork */
		fork_gate_release();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_fork_waits_for_the_work_to_end),
		cmocka_unit_test(with_no_work_it_forks_at_once_and_the_gate_stays_usable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
