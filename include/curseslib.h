/*
 * curseslib.h - loading ncurses when top first draws on a terminal
 * (curseslib.c says why). top.c includes <curses.h> and calls ncurses as
 * usual, on the WINDOW initscr() returns (the stdscr, LINES and COLS
 * variables are not reached: they are the library's data).
 */
#ifndef TA_CURSESLIB_H
#define TA_CURSESLIB_H

#include "error.h"

/* Load ncurses once per process; 0, or -1 with err naming the reason. */
int curses_library_load(struct ta_error *err);

#endif
