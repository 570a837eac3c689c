/*
 * lazylib.c - opening a shared library on first use (lazylib.h).
 *
 * Most runs use few of the libraries the program can call: an account read
 * back from a DB needs none of libtracecmd, libelf, ncurses, cairo or the
 * decompressors. Linked, each of them is mapped, relocated and
 * initialised at every start: on this VM about 0.2 ms a library in page
 * faults alone, which is more than the DB's own work. So they are opened
 * with dlopen() when a module first needs one (RTLD_LOCAL: their symbols do
 * not join the program's) and every symbol the module calls is looked up
 * then, so that a library too old or broken fails at once with the
 * loader's reason, not at the first call that happens to need a function.
 *
 * Not here: the lists of functions (one module per library) or any
 * library-specific error handling. Handles are never closed: a loaded
 * library stays for the life of the process, as a linked one would.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lazylib.h"

/* Loads are rare and short: one lock for every library. */
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

static void remember_why(struct lazy_library *lib, const char *what)
{
	const char *reason = dlerror();

	if (lib->why[0])
		return;		/* the first reason is the one that matters */
	snprintf(lib->why, sizeof(lib->why), "%s", reason ? reason : what);
}

void *lazylib_symbol(struct lazy_library *lib, const char *name)
{
	for (int i = 0; i < LAZYLIB_MAX_SONAMES && lib->handles[i]; i++) {
		void *p;

		dlerror();
		p = dlsym(lib->handles[i], name);
		if (p)
			return p;
	}
	remember_why(lib, name);
	return NULL;
}

static int open_every_soname(struct lazy_library *lib)
{
	for (int i = 0; i < LAZYLIB_MAX_SONAMES && lib->sonames[i]; i++) {
		lib->handles[i] = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (!lib->handles[i]) {
			remember_why(lib, lib->sonames[i]);
			return -1;
		}
	}
	return 0;
}

static void open_once(struct lazy_library *lib)
{
	int state = LAZYLIB_FAILED;

	pthread_mutex_lock(&loading);
	if (lib->state == LAZYLIB_UNTRIED) {
		if (open_every_soname(lib) == 0) {
			lib->look_up(lib);
			if (!lib->why[0] && lib->also_look_up)
				lib->also_look_up(lib);
			if (!lib->why[0])
				state = LAZYLIB_LOADED;
		}
		__atomic_store_n(&lib->state, state, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&loading);
}

int lazylib_load(struct lazy_library *lib, const char *purpose, struct ta_error *err)
{
	if (__atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == LAZYLIB_UNTRIED)
		open_once(lib);
	if (__atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == LAZYLIB_LOADED)
		return 0;
	return error_set(err, "cannot load %s%s%s: %s", lib->what, purpose ? " " : "",
			 purpose ? purpose : "", lib->why);
}

void lazylib_load_or_die(struct lazy_library *lib)
{
	struct ta_error err;

	if (lazylib_load(lib, NULL, &err) == 0)
		return;
	fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
	exit(1);
}
