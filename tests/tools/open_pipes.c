/*
 * open_pipes.c - a known kernel workload for `trace_analyze record` tests:
 * makes N pipes (each one kmalloc from alloc_pipe_info) and closes them.
 * Usage: open_pipes N [SECONDS]: with SECONDS, makes N pipes every 0.1 s
 * for that long (a steady allocator to record with --pid).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int make_pipes(long n)
{
	long i;
	int fds[2];

	for (i = 0; i < n; i++) {
		if (pipe(fds) < 0) {
			perror("open_pipes: pipe");
			return 1;
		}
		close(fds[0]);
		close(fds[1]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	double seconds = argc > 2 ? atof(argv[2]) : 0;
	struct timespec tick = { 0, 100000000l };
	int rounds = (int)(seconds * 10);

	if (n <= 0) {
		fprintf(stderr, "usage: open_pipes N [SECONDS]\n");
		return 2;
	}
	if (!rounds)
		return make_pipes(n);
	while (rounds--) {
		if (make_pipes(n))
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}
