/*
 * lazylib.h - a shared library opened when the program first needs it, not
 * when the program starts (lazylib.c says why).
 *
 * A module that loads a library lists the library's functions once, as an
 * X-macro of V(name, (parameters), (arguments)) for a function returning
 * nothing and R(type, name, (parameters), (arguments)) for the others, and
 * names its table of pointers LAZYLIB_TABLE and its struct lazy_library
 * LAZYLIB_LIBRARY. LAZYLIB_DEFINE then makes the table, the look-up that
 * fills it, and functions with the library's own names and prototypes that
 * hand each call on, so that callers and the library's header stay as they
 * are (the header makes the compiler check every prototype).
 *
 * Not here: which libraries are loaded so (cairolib.c, elflib.c,
 * curseslib.c, tracelib.c, ziplib.c) or data symbols (a module that needs
 * one looks it up with lazylib_symbol).
 */
#ifndef TA_LAZYLIB_H
#define TA_LAZYLIB_H

#include "error.h"

#define LAZYLIB_MAX_SONAMES 3

enum lazylib_state { LAZYLIB_UNTRIED, LAZYLIB_LOADED, LAZYLIB_FAILED };

struct lazy_library {
	const char *what;	/* "cairo": the name messages give */
	/* opened in this order; a symbol is looked up in each in turn */
	const char *sonames[LAZYLIB_MAX_SONAMES];
	void (*look_up)(struct lazy_library *lib);	/* fills the module's table */
	/* anything else to look up, once the table is filled (may be NULL) */
	void (*also_look_up)(struct lazy_library *lib);
	/* set by lazylib.c */
	int state;		/* enum lazylib_state, read with acquire */
	void *handles[LAZYLIB_MAX_SONAMES];
	char why[256];		/* dlerror()'s text when the load failed */
};

/*
 * Open the library and fill its table, once per process (thread-safe);
 * 0, or -1 with err "cannot load <what> <purpose>: <loader's reason>"
 * (purpose may be NULL).
 */
int lazylib_load(struct lazy_library *lib, const char *purpose, struct ta_error *err);

/* Same for a call that comes before any lazylib_load: on failure, exit 1. */
void lazylib_load_or_die(struct lazy_library *lib);

/* The address of name in the opened library, or NULL after recording why. */
void *lazylib_symbol(struct lazy_library *lib, const char *name);

static inline void lazylib_ensure(struct lazy_library *lib)
{
	if (__atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) != LAZYLIB_LOADED)
		lazylib_load_or_die(lib);
}

/*
 * LAZYLIB_DEFINE(FUNCTIONS, initialisers of the struct lazy_library...):
 * with LAZYLIB_TABLE and LAZYLIB_LIBRARY defined first as the names to
 * give them, the table of FUNCTIONS' pointers, the look-up that fills it,
 * the struct lazy_library (.look_up set, the rest from the initialisers:
 * .what, .sonames, maybe .also_look_up) and FUNCTIONS under their names.
 */
#define LAZYLIB_DEFINE(FUNCTIONS, ...)						\
	static struct {								\
		FUNCTIONS(LAZYLIB_POINTER_V, LAZYLIB_POINTER_R)			\
	} LAZYLIB_TABLE;							\
	static void LAZYLIB_NAME(look_up_)(struct lazy_library *lib)		\
	{									\
		FUNCTIONS(LAZYLIB_LOOK_UP_V, LAZYLIB_LOOK_UP_R)			\
	}									\
	static struct lazy_library LAZYLIB_LIBRARY = {				\
		.look_up = LAZYLIB_NAME(look_up_), __VA_ARGS__			\
	};									\
	FUNCTIONS(LAZYLIB_FORWARD_V, LAZYLIB_FORWARD_R)

/* look_up_<table>: a name of this library's own */
#define LAZYLIB_NAME(prefix) LAZYLIB_PASTE(prefix, LAZYLIB_TABLE)
#define LAZYLIB_PASTE(a, b) LAZYLIB_PASTE_EXPANDED(a, b)
#define LAZYLIB_PASTE_EXPANDED(a, b) a##b

/* One pointer per function, named as the function. */
#define LAZYLIB_POINTER_V(name, params, args) void (*name) params;
#define LAZYLIB_POINTER_R(type, name, params, args) type (*name) params;

/* Inside look_up(lib): fill the pointer, or stop at the first one missing. */
#define LAZYLIB_LOOK_UP_V(name, params, args)					\
	if (!(*(void **)&LAZYLIB_TABLE.name = lazylib_symbol(lib, #name)))	\
		return;
#define LAZYLIB_LOOK_UP_R(type, name, params, args) LAZYLIB_LOOK_UP_V(name, params, args)

/* The library's function, under its own name: load if need be, hand on. */
#define LAZYLIB_FORWARD_V(name, params, args)					\
	void name params							\
	{									\
		lazylib_ensure(&LAZYLIB_LIBRARY);				\
		LAZYLIB_TABLE.name args;					\
	}
#define LAZYLIB_FORWARD_R(type, name, params, args)				\
	type name params							\
	{									\
		lazylib_ensure(&LAZYLIB_LIBRARY);				\
		return LAZYLIB_TABLE.name args;					\
	}

#endif
