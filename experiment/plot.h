/*
 * plot.h — an experiment's figures through gnuplot (Debian gnuplot-nox): for a figure
 * BASE (from report.plots[].file, e.g. "fig6.png" gives BASE "fig6") in dir it writes
 * BASE.dat (the data, one block per series), BASE.gp (the script, editable: it reads
 * BASE.dat and writes both images) and runs gnuplot once on it, giving BASE.png and
 * BASE.svg. Everything is written under a temporary name and renamed when complete.
 * gnuplot runs in dir (the script names its files relative to it), from an argument
 * vector, stdin /dev/null, killed after 30 s.
 */
#ifndef GS_PLOT_H
#define GS_PLOT_H

#include <stddef.h>

/* One point: x as text (numbers or names), y and its error bar (NaN: none). */
struct plot_point {
	const char *x;
	double y;
	double lo, hi;		/* the bar from lo to hi; NaN for no bar */
};

struct plot_series {
	const char *name;	/* the key's entry */
	const struct plot_point *points;
	size_t npoints;
};

struct plot_spec {
	const char *dir;	/* where the files go (exists) */
	const char *base;	/* file name without extension */
	const char *title;
	const char *xlabel, *ylabel;
	int errorbars;		/* 1: draw the lo..hi bars */
	/*
	 * x axis: when every x of every series is a number, a numeric axis (log scale when
	 * the values span more than a factor 16 and are all positive); otherwise the x texts
	 * are categories, in order of first appearance, evenly spaced, labelled.
	 */
	const struct plot_series *series;
	size_t nseries;
};

/*
 * Write BASE.dat and BASE.gp and run gnuplot. Returns 0, or -1 with why filled ("gnuplot
 * not found: install gnuplot-nox", gnuplot's own first error line, a write error with the
 * path). Names and labels are quoted for gnuplot (no command can be injected through them;
 * control characters are dropped, tab and newlines become spaces). base must be a plain
 * file name (no '/'). A series' points may come in any order: the data file has them in
 * x order. On failure BASE.dat and BASE.gp stay for the user to look at; images of an
 * earlier run are left alone.
 */
int plot_write(const struct plot_spec *p, char *why, size_t whylen);

#endif
