/*
 * curseslib.c - ncurses, loaded when top first draws on a terminal.
 *
 * Only top's full-screen view uses ncurses (with the libtinfo behind it);
 * linked, the two are mapped at every start for about 0.45 ms on this VM
 * (lazylib.c). The functions below have ncurses' names and prototypes,
 * which <curses.h> makes the compiler check, and hand each call on; top.c
 * uses the w-forms of the macros on the window initscr() returns, so that
 * no variable of the library (stdscr, LINES, COLS) is needed.
 *
 * Not here: drawing (top.c). Every ncurses function the program calls
 * must be in CURSES_FUNCTIONS, or the link fails.
 */
#include <curses.h>

#include "curseslib.h"
#include "lazylib.h"

/* V(name, parameters, arguments); R(type, name, parameters, arguments) */
#define CURSES_FUNCTIONS(V, R)							\
	R(int, cbreak, (void), ())						\
	R(int, curs_set, (int visibility), (visibility))			\
	R(int, endwin, (void), ())						\
	R(WINDOW *, initscr, (void), ())					\
	R(int, keypad, (WINDOW *win, bool on), (win, on))			\
	R(int, noecho, (void), ())						\
	R(int, waddnstr, (WINDOW *win, const char *str, int n), (win, str, n))	\
	R(int, wattr_off, (WINDOW *win, attr_t attrs, void *opts), (win, attrs, opts))	\
	R(int, wattr_on, (WINDOW *win, attr_t attrs, void *opts), (win, attrs, opts))	\
	R(int, wclrtoeol, (WINDOW *win), (win))					\
	R(int, werase, (WINDOW *win), (win))					\
	R(int, wgetch, (WINDOW *win), (win))					\
	R(int, wmove, (WINDOW *win, int y, int x), (win, y, x))			\
	R(int, wrefresh, (WINDOW *win), (win))					\
	V(wtimeout, (WINDOW *win, int delay), (win, delay))

/* ncursesw's name as its -dev package links it; libtinfo comes behind it. */
#define LAZYLIB_TABLE curses_calls
#define LAZYLIB_LIBRARY curses_library
LAZYLIB_DEFINE(CURSES_FUNCTIONS, .what = "ncurses", .sonames = { "libncursesw.so.6" })

int curses_library_load(struct ta_error *err)
{
	return lazylib_load(&curses_library, "to draw on the terminal", err);
}
