/*
 * plot.c — see plot.h. An experiment's figure is three files a user keeps: BASE.dat (the
 * numbers), BASE.gp (a script to edit and rerun by hand from that directory) and the
 * images gnuplot draws from them, BASE.png and BASE.svg.
 *
 * The script names every file relative to the current directory and gnuplot is run with
 * its working directory set to dir, so that `gnuplot BASE.gp` typed there later does what
 * gridsubmit did. The images are written under temporary names as follows: the script
 * writes to gp_png and gp_svg, which it sets to BASE.png and BASE.svg only when they are
 * not set yet; gridsubmit sets them first (gnuplot -e) to BASE.png.tmp and BASE.svg.tmp
 * and renames both once gnuplot has succeeded. The script gnuplot runs is thus the very
 * file the user gets, and a failed or killed gnuplot never leaves a half-written image
 * under a final name.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "experiment/exp.h"
#include "experiment/plot.h"

#define PLOT_TIMEOUT	30	/* seconds */

struct plot_axis {
	int numeric;		/* every x is a finite number */
	int logscale;		/* numeric, all > 0, max / min > 16 */
	int base2;		/* logscale over powers of two only: tics at 1, 2, 4, ... */
	const char **cats;	/* otherwise the x texts in order of first appearance */
	size_t ncats;
	size_t catlen;		/* their total length, to decide whether to turn the labels */
};

/* s as a whole is a finite number (strtod; leading blanks allowed, nothing after it). */
static int
plot_number(const char *s, double *v)
{
	char *end;

	if (s == NULL || *s == '\0')
		return 0;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && *end == '\0' && isfinite(*v);
}

/*
 * The text of an outside string as it may appear in the files: control characters
 * (newlines above all, which would end a script line or a data row) removed or made
 * spaces, bytes that are not UTF-8 as '?' (text_clean). Allocated.
 */
static char *
plot_clean(const char *s)
{
	size_t len;
	char *c;

	if (s == NULL)
		s = "";
	len = strlen(s);
	c = xmalloc(len + 1);
	text_clean(c, len + 1, s, len);
	return c;
}

/*
 * s as a gnuplot single-quoted string. Inside single quotes gnuplot knows no escapes and
 * does no backquote (command) or @macro substitution, as it does inside double quotes;
 * the one special sequence is '', a literal quote. So doubling every quote of the
 * cleaned text is all it takes for nothing in it to be read as a command.
 */
static void
plot_quote(FILE *f, const char *s)
{
	char *c, *p;

	c = plot_clean(s);
	fputc('\'', f);
	for (p = c; *p != '\0'; p++) {
		if (*p == '\'')
			fputc('\'', f);
		fputc(*p, f);
	}
	fputc('\'', f);
	free(c);
}

/*
 * A file name for the script: "./" in front so that no base is taken for one of gnuplot's
 * special names ('<cmd' and '|cmd' run a shell command, '-' is stdin, '' the last file,
 * '+' a pseudo-file), then quoted.
 */
static void
plot_quote_file(FILE *f, const char *base, const char *ext)
{
	char *name;

	xasprintf(&name, "./%s%s", base, ext);
	plot_quote(f, name);
	free(name);
}

/*
 * The x text as the last column of a data row: gnuplot reads a double-quoted field as
 * one column but has no escape inside it, so a double quote becomes a single one.
 */
static void
plot_data_text(FILE *f, const char *s)
{
	char *c, *p;

	c = plot_clean(s);
	for (p = c; *p != '\0'; p++)
		if (*p == '"')
			*p = '\'';
	fprintf(f, "\"%s\"", c);
	free(c);
}

static void
plot_data_num(FILE *f, double v)
{
	/* gnuplot skips a point with a NaN in a column it uses; it cannot draw an infinity */
	if (isfinite(v))
		fprintf(f, "%.12g", v);
	else
		fputs("NaN", f);
}

static void
plot_axis_make(const struct plot_spec *p, struct plot_axis *a)
{
	const struct plot_point *pt;
	double v, min = INFINITY, max = -INFINITY;
	int pow2 = 1, e2;
	size_t i, j, k, n = 0;

	memset(a, 0, sizeof *a);
	a->numeric = 1;
	for (i = 0; i < p->nseries; i++) {
		for (j = 0; j < p->series[i].npoints; j++) {
			pt = &p->series[i].points[j];
			n++;
			if (!plot_number(pt->x, &v)) {
				a->numeric = 0;
				continue;
			}
			min = fmin(min, v);
			max = fmax(max, v);
			if (frexp(v, &e2) != 0.5)
				pow2 = 0;
		}
	}
	if (n == 0)
		a->numeric = 0;
	if (a->numeric) {
		a->logscale = min > 0 && max / min > 16;
		a->base2 = a->logscale && pow2;
		return;
	}

	a->cats = xcalloc(n, sizeof *a->cats);
	for (i = 0; i < p->nseries; i++) {
		for (j = 0; j < p->series[i].npoints; j++) {
			pt = &p->series[i].points[j];
			for (k = 0; k < a->ncats; k++)
				if (strcmp(a->cats[k], pt->x != NULL ? pt->x : "") == 0)
					break;
			if (k == a->ncats) {
				a->cats[a->ncats++] = pt->x != NULL ? pt->x : "";
				a->catlen += strlen(pt->x != NULL ? pt->x : "");
			}
		}
	}
}

/* The position of x on a categorical axis: 1 for the first category. */
static size_t
plot_axis_pos(const struct plot_axis *a, const char *x)
{
	size_t k;

	for (k = 0; k < a->ncats; k++)
		if (strcmp(a->cats[k], x != NULL ? x : "") == 0)
			break;
	return k + 1;
}

/* A row of the data file: the point's x on the axis, its index in the series. */
struct plot_row {
	double x;
	size_t i;
};

/* By x, then as given (qsort is not stable). */
static int
plot_row_cmp(const void *va, const void *vb)
{
	const struct plot_row *a = va, *b = vb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static char *
plot_data(const struct plot_spec *p, const struct plot_axis *a, size_t *len)
{
	const struct plot_series *s;
	const struct plot_point *pt;
	struct plot_row *rows = NULL;
	FILE *f;
	char *buf, *name;
	size_t i, j;

	if ((f = open_memstream(&buf, len)) == NULL)
		return NULL;
	fprintf(f, "# %s.dat, written by gridsubmit for %s.gp: one block per series (gnuplot's\n"
	    "# index 0, 1, ...), blocks separated by two blank lines; NaN: no value.\n",
	    p->base, p->base);
	for (i = 0; i < p->nseries; i++) {
		s = &p->series[i];
		if (i > 0)
			fputs("\n\n", f);
		name = plot_clean(s->name);
		fprintf(f, "# series %zu: %s\n", i, name);
		free(name);
		fprintf(f, "# %s y lo hi \"x\"\n", a->numeric ? "x" : "position");
		/* in x order: the line of a series goes left to right, never back */
		rows = xreallocarray(rows, s->npoints + 1, sizeof *rows);
		for (j = 0; j < s->npoints; j++) {
			rows[j].i = j;
			if (a->numeric)
				plot_number(s->points[j].x, &rows[j].x);
			else
				rows[j].x = (double)plot_axis_pos(a, s->points[j].x);
		}
		qsort(rows, s->npoints, sizeof *rows, plot_row_cmp);
		for (j = 0; j < s->npoints; j++) {
			pt = &s->points[rows[j].i];
			plot_data_num(f, rows[j].x);
			fputc(' ', f);
			plot_data_num(f, pt->y);
			fputc(' ', f);
			plot_data_num(f, pt->lo);
			fputc(' ', f);
			plot_data_num(f, pt->hi);
			fputc(' ', f);
			plot_data_text(f, pt->x);
			fputc('\n', f);
		}
		/* a block with no row would not be a block: gnuplot's index would shift */
		if (s->npoints == 0)
			fputs("NaN NaN NaN NaN \"\"\n", f);
	}
	free(rows);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *
plot_script(const struct plot_spec *p, const struct plot_axis *a, size_t *len)
{
	FILE *f;
	char *buf;
	size_t i;

	if ((f = open_memstream(&buf, len)) == NULL)
		return NULL;
	fprintf(f,
	    "# %s.gp, written by gridsubmit: edit it and rerun it from this directory with\n"
	    "#\tgnuplot %s.gp\n"
	    "# File names are relative to the current directory (gridsubmit runs gnuplot in this\n"
	    "# directory): it reads ./%s.dat and writes ./%s.png and ./%s.svg.\n"
	    "# gridsubmit sets gp_png and gp_svg before (gnuplot -e) to write temporary files it\n"
	    "# renames once gnuplot has succeeded.\n",
	    p->base, p->base, p->base, p->base, p->base);
	fputs("if (!exists(\"gp_png\")) gp_png = ", f);
	plot_quote_file(f, p->base, ".png");
	fputs("\nif (!exists(\"gp_svg\")) gp_svg = ", f);
	plot_quote_file(f, p->base, ".svg");
	fputs("\n\nset encoding utf8\n", f);
	if (p->title != NULL) {
		fputs("set title ", f);
		plot_quote(f, p->title);
		fputc('\n', f);
	}
	if (p->xlabel != NULL) {
		fputs("set xlabel ", f);
		plot_quote(f, p->xlabel);
		fputc('\n', f);
	}
	if (p->ylabel != NULL) {
		fputs("set ylabel ", f);
		plot_quote(f, p->ylabel);
		fputc('\n', f);
	}
	/* the key below the graph covers no point, however long the names */
	fputs("set key below\nset grid\n", f);
	if (a->numeric) {
		if (a->logscale)
			fprintf(f, "# x spans more than a factor 16: log scale\n"
			    "set logscale x %d\n", a->base2 ? 2 : 10);
		/* the first, last and highest points off the border, their bars visible */
		fputs("set offsets graph 0.05, graph 0.05, graph 0.05, 0\n", f);
	} else {
		fprintf(f, "# categorical x: positions 1 to %zu, labelled from the data's last column\n"
		    "set xrange [0.5:%zu.5]\n"
		    "set offsets 0, 0, graph 0.05, 0\n", a->ncats, a->ncats);
		if (a->catlen > 60)
			fputs("set xtics rotate by 30 right\n", f);
	}

	/* pngcairo draws better; the libgd png terminal is there when cairo is not */
	fputs("\nif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	    "\tset terminal pngcairo size 800,600 noenhanced\n"
	    "} else {\n"
	    "\tset terminal png size 800,600 noenhanced\n"
	    "}\n"
	    "set output gp_png\n", f);
	for (i = 0; i < p->nseries; i++) {
		fputs(i == 0 ? "plot " : ", \\\n     ", f);
		if (i == 0)
			plot_quote_file(f, p->base, ".dat");
		else
			fputs("''", f);
		/* a point without a bar is drawn with a bar of length 0 rather than skipped */
		fprintf(f, " index %zu using 1:2%s%s with %s ", i,
		    p->errorbars ? ":($3 == $3 ? $3 : $2):($4 == $4 ? $4 : $2)" : "",
		    a->numeric ? "" : ":xticlabels(5)",
		    p->errorbars ? "yerrorlines" : "linespoints");
		if (p->series[i].name != NULL) {
			fputs("title ", f);
			plot_quote(f, p->series[i].name);
		} else
			fputs("notitle", f);
	}
	fputs("\n\nset terminal svg size 800,600 noenhanced background rgb 'white'\n"
	    "set output gp_svg\n"
	    "replot\n"
	    "unset output\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Rename dir/name.tmp to dir/name, or remove it when ok is 0. */
static int
plot_keep(const char *dir, const char *name, int ok, char *why, size_t whylen)
{
	char *path, *tmp;
	int rc = 0;

	xasprintf(&path, "%s/%s", dir, name);
	xasprintf(&tmp, "%s.tmp", path);
	if (!ok)
		unlink(tmp);
	else if (rename(tmp, path) == -1) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	free(path);
	return rc;
}

/*
 * The line of gnuplot's stderr that says what went wrong: its errors read
 * '"./fig6.gp" line 12: undefined variable: foo', after an echo of the command and a
 * caret, and may follow warnings; failing that, the first line that is not blank.
 */
static void
plot_error_line(char *err, char *why, size_t whylen)
{
	char *line, *next, *first = NULL, *found = NULL, *c;

	for (line = err; line != NULL && found == NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (line[strspn(line, " \t\r^")] == '\0')
			continue;
		if (first == NULL)
			first = line;
		if (line[0] == '"' && strstr(line, "\" line ") != NULL &&
		    strstr(line, ": warning:") == NULL)
			found = line;
	}
	if (found == NULL)
		found = first;
	if (found == NULL) {
		snprintf(why, whylen, "gnuplot failed and said nothing");
		return;
	}
	c = plot_clean(found);
	snprintf(why, whylen, "gnuplot: %s", c);
	free(c);
}

/*
 * Run gnuplot on dir/BASE.gp with dir as its working directory, stdin and stdout
 * /dev/null, stderr read here (common/proc.h); killed after PLOT_TIMEOUT seconds. Returns
 * 0 when it exited 0.
 */
static int
plot_run(const struct plot_spec *p, char *why, size_t whylen)
{
	struct proc_task t;
	char *argv[6], *set, *script;
	size_t setlen;
	FILE *f;
	int rc = -1;

	if ((f = open_memstream(&set, &setlen)) == NULL) {
		snprintf(why, whylen, "gnuplot: %s", strerror(errno));
		return -1;
	}
	fputs("gp_png = ", f);
	plot_quote_file(f, p->base, ".png.tmp");
	fputs("; gp_svg = ", f);
	plot_quote_file(f, p->base, ".svg.tmp");
	if (fclose(f) != 0) {
		free(set);
		snprintf(why, whylen, "gnuplot: %s", strerror(errno));
		return -1;
	}
	/* "./": a base that starts with '-' is not an option */
	xasprintf(&script, "./%s.gp", p->base);
	argv[0] = "gnuplot";
	/* no ~/.gnuplot: the figures of an experiment do not depend on who made them */
	argv[1] = "--default-settings";
	argv[2] = "-e";
	argv[3] = set;
	argv[4] = script;
	argv[5] = NULL;

	memset(&t, 0, sizeof t);
	t.argv = argv;
	t.dir = p->dir;
	t.flags = PROC_OUT_NULL;
	proc_run_all(&t, 1, clock_mono() + PLOT_TIMEOUT, NULL);
	free(set);
	free(script);
	if (t.status == 0)
		rc = 0;
	else if (t.error == ENOENT && access(p->dir, F_OK) == 0)
		snprintf(why, whylen, "gnuplot not found: install gnuplot-nox");
	else if (t.error != 0)
		proc_last_line(t.err, why, whylen);
	else if (t.status == PROC_DEADLINE)
		snprintf(why, whylen, "gnuplot took more than %d s on %s/%s.gp: killed",
		    PLOT_TIMEOUT, p->dir, p->base);
	else if (*t.err != '\0')
		plot_error_line(t.err, why, whylen);
	else if (t.status < 128)
		snprintf(why, whylen, "gnuplot exited with status %d on %s/%s.gp", t.status,
		    p->dir, p->base);
	else
		snprintf(why, whylen, "gnuplot killed by signal %d on %s/%s.gp", t.status - 128,
		    p->dir, p->base);
	t.argv = NULL;		/* ours, on the stack */
	proc_free(&t, 1);
	return rc;
}

/*
 * The base names a file in dir: not empty, no '/', not "." or "..", no control
 * characters (which the script could not name).
 */
static int
plot_base_ok(const char *base)
{
	const unsigned char *u;

	if (base == NULL || *base == '\0' || strchr(base, '/') != NULL ||
	    strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return 0;
	for (u = (const unsigned char *)base; *u != '\0'; u++)
		if (*u < 0x20 || *u == 0x7f)
			return 0;
	return 1;
}

int
plot_write(const struct plot_spec *p, char *why, size_t whylen)
{
	struct plot_axis a;
	char *dat = NULL, *gp = NULL, *name;
	size_t datlen, gplen;
	int rc = -1, ran, kept;

	if (p->dir == NULL || *p->dir == '\0') {
		snprintf(why, whylen, "plot: no directory");
		return -1;
	}
	if (!plot_base_ok(p->base)) {
		name = plot_clean(p->base);
		snprintf(why, whylen, "plot: bad figure name '%s' (a file name in %s)", name,
		    p->dir);
		free(name);
		return -1;
	}
	if (p->nseries == 0) {
		snprintf(why, whylen, "%s/%s: no series to plot", p->dir, p->base);
		return -1;
	}

	plot_axis_make(p, &a);
	if ((dat = plot_data(p, &a, &datlen)) == NULL ||
	    (gp = plot_script(p, &a, &gplen)) == NULL) {
		snprintf(why, whylen, "%s/%s: %s", p->dir, p->base, strerror(errno));
		goto out;
	}
	xasprintf(&name, "%s.dat", p->base);
	kept = exp_write_file(p->dir, name, dat, datlen, why, whylen);
	free(name);
	if (kept == -1)
		goto out;
	xasprintf(&name, "%s.gp", p->base);
	kept = exp_write_file(p->dir, name, gp, gplen, why, whylen);
	free(name);
	if (kept == -1)
		goto out;

	/*
	 * The images take their final names only when gnuplot succeeded; a failed run leaves
	 * BASE.dat and BASE.gp for the user to look at and the images of an earlier run as
	 * they were.
	 */
	ran = plot_run(p, why, whylen) == 0;
	xasprintf(&name, "%s.png", p->base);
	kept = plot_keep(p->dir, name, ran, why, whylen);
	free(name);
	if (kept == -1)
		ran = 0;
	xasprintf(&name, "%s.svg", p->base);
	if (plot_keep(p->dir, name, ran, why, whylen) == 0 && ran)
		rc = 0;
	free(name);
out:
	free(a.cats);
	free(dat);
	free(gp);
	return rc;
}
