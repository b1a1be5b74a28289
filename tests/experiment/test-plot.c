/*
 * test-plot.c — plot_write() with the real gnuplot (Debian gnuplot-nox) in a temp dir: a
 * numeric plot with error bars (the four files, their content, the script rerun by hand),
 * categorical and linear axes, names that try to run commands, a missing dir, no gnuplot
 * in PATH, and a fake gnuplot that fails (its error line, its stdin and working dir).
 * A gnuplot that never ends is killed (after the 30 s limit: this test takes that long).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"
#include "experiment/plot.h"
#include "tests/tap.h"

static char dir[] = "/tmp/gs-test-plot.XXXXXX";

/* dir/name, in a static buffer (one at a time). */
static const char *
at(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

/* The whole of dir/name, or NULL. */
static char *
slurp(const char *name)
{
	char *buf;
	size_t len;

	if (file_read(at(name), 64 << 20, &buf, &len) == -1)
		return NULL;
	return buf;
}

static int
exists(const char *name)
{
	return access(at(name), F_OK) == 0;
}

static int
is_png(const char *name)
{
	static const unsigned char magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char buf[8];
	int fd, n;

	if ((fd = open(at(name), O_RDONLY)) == -1)
		return 0;
	n = (int)read(fd, buf, sizeof buf);
	close(fd);
	return n == 8 && memcmp(buf, magic, 8) == 0;
}

static int
is_svg(const char *name)
{
	char *s = slurp(name);
	int ok = s != NULL && strstr(s, "<svg") != NULL && strstr(s, "</svg>") != NULL;

	free(s);
	return ok;
}

/* How many files in dir end in ".tmp". */
static int
count_tmp(void)
{
	struct dirent *de;
	DIR *d;
	size_t len;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len > 4 && strcmp(de->d_name + len - 4, ".tmp") == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* How many files in dir have a name that starts with word. */
static int
count_named(const char *word)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, word, strlen(word)) == 0) {
			printf("# found %s\n", de->d_name);
			n++;
		}
	closedir(d);
	return n;
}

static int
has_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy, *p, *d, file[4096];
	int found = 0;

	copy = xstrdup(path != NULL ? path : "/usr/bin:/bin");
	for (p = copy; (d = strsep(&p, ":")) != NULL && !found; ) {
		snprintf(file, sizeof file, "%s/gnuplot", *d != '\0' ? d : ".");
		found = access(file, X_OK) == 0;
	}
	free(copy);
	return found;
}

/* Run argv with cwd dir and stdin /dev/null; its exit status, or -1. */
static int
run_in_dir(char *const argv[])
{
	pid_t pid;
	int st, fd;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		if (chdir(dir) == -1 || (fd = open("/dev/null", O_RDONLY)) == -1)
			_exit(126);
		dup2(fd, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void
write_exec(const char *name, const char *text)
{
	if (file_write(at(name), text, strlen(text)) == -1 || chmod(at(name), 0755) == -1)
		printf("# cannot write %s: %s\n", at(name), strerror(errno));
}

static const struct plot_point s0[] = {
	{ "1", 10, 9, 11 }, { "2", 19, 18, 20 }, { "4", 37, 35, 39 }, { "8", 70, 66, 74 },
	{ "16", 130, 120, 140 }, { "32", 240, 220, 260 }, { "64", 420, 400, 440 },
};
static const struct plot_point s1[] = {
	{ "1", 10, NAN, NAN }, { "2", 18, 17, 19 }, { "4", NAN, NAN, NAN },
	{ "8", 60, 55, 65 }, { "64", 300, 250, 350 },
};
static const struct plot_point s2[] = {
	{ "1", 10, 10, 10 }, { "4", 30, 28, 32.5 }, { "16", 90, 80, 100 },
};
static const struct plot_series numeric[] = {
	{ "static", s0, 7 }, { "gss", s1, 5 }, { "awf", s2, 3 },
};

static void
test_numeric(void)
{
	struct plot_spec p = {
		.dir = dir, .base = "fig6", .title = "speedup on 2 sites",
		.xlabel = "processes", .ylabel = "speedup", .errorbars = 1,
		.series = numeric, .nseries = 3,
	};
	char why[512] = "", *dat, *gp, *blk2;
	char *const argv[] = { "gnuplot", "fig6.gp", NULL };
	struct stat sb;

	is_int(plot_write(&p, why, sizeof why), 0, "numeric: plot_write returns 0");
	if (*why != '\0')
		printf("# why: %s\n", why);
	ok(is_png("fig6.png"), "numeric: fig6.png starts with the PNG signature");
	ok(stat(at("fig6.png"), &sb) == 0 && sb.st_size > 1000, "numeric: fig6.png not empty");
	ok(is_svg("fig6.svg"), "numeric: fig6.svg is an svg document");
	is_int(count_tmp(), 0, "numeric: no .tmp file left");

	dat = slurp("fig6.dat");
	ok(dat != NULL, "numeric: fig6.dat written");
	if (dat == NULL)
		dat = xstrdup("");
	ok(strstr(dat, "\n1 10 9 11 \"1\"\n") != NULL, "numeric: first row x y lo hi \"x\"");
	ok(strstr(dat, "\n64 420 400 440 \"64\"\n") != NULL, "numeric: last row of series 0");
	ok(strstr(dat, "\n1 10 NaN NaN \"1\"\n") != NULL, "numeric: a missing bar is NaN");
	ok(strstr(dat, "\n4 NaN NaN NaN \"4\"\n") != NULL, "numeric: a missing value is NaN");
	ok((blk2 = strstr(dat, "\n\n\n# series 2: awf\n")) != NULL &&
	    strstr(dat, "\n\n\n# series 1: gss\n") != NULL &&
	    strstr(dat, "\n\n\n# series 0") == NULL,
	    "numeric: three blocks separated by two blank lines");
	ok(blk2 != NULL && strstr(blk2, "\n4 30 28 32.5 \"4\"\n") != NULL,
	    "numeric: series 2 in the third block");
	free(dat);

	gp = slurp("fig6.gp");
	ok(gp != NULL, "numeric: fig6.gp written");
	if (gp == NULL)
		gp = xstrdup("");
	ok(strstr(gp, "set logscale x 2\n") != NULL, "numeric: 1..64 on a log2 axis");
	ok(strstr(gp, "plot './fig6.dat' index 0 using 1:2:") != NULL &&
	    strstr(gp, "'' index 2 using") != NULL, "numeric: one index per series");
	ok(strstr(gp, "with yerrorlines title 'gss'") != NULL, "numeric: error bars, titles");
	ok(strstr(gp, "xticlabels") == NULL, "numeric: no tic labels from the data");
	ok(strstr(gp, "set title 'speedup on 2 sites'\n") != NULL, "numeric: title quoted");
	ok(strstr(gp, "set output gp_png\n") != NULL && strstr(gp, "set output gp_svg\n") != NULL &&
	    strstr(gp, "gp_png = './fig6.png'") != NULL, "numeric: png then svg, final names");
	free(gp);

	/* what a user does: remove the images, run the script by hand in the directory */
	unlink(at("fig6.png"));
	unlink(at("fig6.svg"));
	is_int(run_in_dir(argv), 0, "rerun: gnuplot fig6.gp in the directory exits 0");
	ok(is_png("fig6.png"), "rerun: fig6.png made again");
	ok(is_svg("fig6.svg"), "rerun: fig6.svg made again");
	ok(!exists("fig6.png.tmp") && !exists("fig6.svg.tmp"), "rerun: final names only");
}

static void
test_categorical(void)
{
	static const struct plot_point a[] = {
		{ "static", 100, 95, 105 }, { "gss", 80, 78, 82 }, { "awf", 70, NAN, NAN },
	};
	static const struct plot_point b[] = {
		{ "gss", 90, 85, 95 }, { "fac2", 60, 55, 65 }, { "static", 120, 110, 130 },
	};
	static const struct plot_series cat[] = { { "2 sites", a, 3 }, { NULL, b, 3 } };
	static const struct plot_point lin[] = { { "1", 1, 0, 2 }, { "8", 5, 4, 6 } };
	static const struct plot_point neg[] = { { "-1", 1, 0, 2 }, { "100", 5, 4, 6 } };
	static const struct plot_point mixed[] = { { "1", 1, 0, 2 }, { "8x", 5, 4, 6 } };
	static const struct plot_series one_lin[] = { { "lin", lin, 2 } };
	static const struct plot_series one_neg[] = { { "neg", neg, 2 } };
	static const struct plot_series one_mixed[] = { { "mixed", mixed, 2 } };
	struct plot_spec p = {
		.dir = dir, .base = "schemes", .title = "makespan", .xlabel = "scheme",
		.ylabel = "s", .errorbars = 0, .series = cat, .nseries = 2,
	};
	char why[512] = "", *dat, *gp, *svg;

	is_int(plot_write(&p, why, sizeof why), 0, "categorical: plot_write returns 0");
	if (*why != '\0')
		printf("# why: %s\n", why);
	ok(is_png("schemes.png") && is_svg("schemes.svg"), "categorical: png and svg");
	dat = slurp("schemes.dat");
	gp = slurp("schemes.gp");
	svg = slurp("schemes.svg");
	ok(dat != NULL && strstr(dat, "\n1 100 95 105 \"static\"\n") != NULL &&
	    strstr(dat, "\n3 70 NaN NaN \"awf\"\n") != NULL,
	    "categorical: positions in order of first appearance");
	ok(dat != NULL && strstr(dat, "\n2 90 85 95 \"gss\"\n") != NULL &&
	    strstr(dat, "\n4 60 55 65 \"fac2\"\n") != NULL &&
	    strstr(dat, "\n1 120 110 130 \"static\"\n") != NULL,
	    "categorical: a category keeps its position in every series");
	ok(dat != NULL && strstr(dat, "\n1 120 110 130 \"static\"\n2 90 85 95 \"gss\"\n"
	    "4 60 55 65 \"fac2\"\n") != NULL, "categorical: rows in x order, the line goes right");
	ok(gp != NULL && strstr(gp, "set xrange [0.5:4.5]\n") != NULL &&
	    strstr(gp, "logscale") == NULL, "categorical: 4 positions, no log scale");
	ok(gp != NULL && strstr(gp, "index 1 using 1:2:xticlabels(5) with linespoints notitle") !=
	    NULL, "categorical: tic labels, lines and points, no name: no title");
	ok(svg != NULL && strstr(svg, ">fac2<") != NULL && strstr(svg, ">static<") != NULL,
	    "categorical: scheme names drawn on the x axis");
	free(dat);
	free(gp);
	free(svg);

	p.base = "lin";
	p.series = one_lin;
	p.nseries = 1;
	is_int(plot_write(&p, why, sizeof why), 0, "linear: plot_write returns 0");
	gp = slurp("lin.gp");
	ok(gp != NULL && strstr(gp, "logscale") == NULL && strstr(gp, "xticlabels") == NULL,
	    "linear: 1..8 is numeric without log scale");
	free(gp);
	p.base = "neg";
	p.series = one_neg;
	is_int(plot_write(&p, why, sizeof why), 0, "negative: plot_write returns 0");
	gp = slurp("neg.gp");
	ok(gp != NULL && strstr(gp, "logscale") == NULL && strstr(gp, "xticlabels") == NULL,
	    "negative: -1..100 is numeric without log scale");
	free(gp);
	p.base = "mixed";
	p.series = one_mixed;
	is_int(plot_write(&p, why, sizeof why), 0, "mixed: plot_write returns 0");
	gp = slurp("mixed.gp");
	ok(gp != NULL && strstr(gp, "xticlabels(5)") != NULL,
	    "mixed: one x that is not a number makes the axis categorical");
	free(gp);
}

static void
test_injection(void)
{
	static const struct plot_point pts[] = {
		{ "a'; system(\"touch pwned-x\"); '", 1, 0, 2 }, { "`touch pwned-x2`", 2, 1, 3 },
		{ "x\"y", 3, 2, 4 },
	};
	static const struct plot_series s[] = {
		{ "a'; system(\"touch pwned-name\"); '", pts, 3 },
		{ "b`touch pwned-bq`@gp_png\nsystem(\"touch pwned-nl\")", pts, 2 },
	};
	struct plot_spec p = {
		.dir = dir, .base = "inject", .title = "t'.system(\"touch pwned-title\").'",
		.xlabel = "\"`touch pwned-xlabel`\"", .ylabel = "y\rsystem('touch pwned-cr')",
		.errorbars = 1, .series = s, .nseries = 2,
	};
	char why[512] = "", *gp;
	const char *bases[] = { "|touch pwned-pipe", "<touch pwned-lt", "-e" };
	size_t i;

	is_int(plot_write(&p, why, sizeof why), 0, "inject: plot_write returns 0");
	if (*why != '\0')
		printf("# why: %s\n", why);
	is_int(count_named("pwned"), 0, "inject: no command ran");
	ok(is_png("inject.png"), "inject: the plot is drawn");
	gp = slurp("inject.gp");
	ok(gp != NULL && strstr(gp, "title 'a''; system(\"touch pwned-name\"); '''") != NULL,
	    "inject: the quote is doubled inside single quotes");
	ok(gp != NULL && strstr(gp, "@gp_png system(") != NULL && strstr(gp, "\rsystem") == NULL,
	    "inject: newline and CR in a name become spaces");
	free(gp);

	/* a base is a file name, never one of gnuplot's pipes or an option */
	for (i = 0; i < sizeof bases / sizeof bases[0]; i++) {
		char png[64];

		p.base = bases[i];
		is_int(plot_write(&p, why, sizeof why), 0, "inject: base \"%s\" plotted", bases[i]);
		snprintf(png, sizeof png, "%s.png", bases[i]);
		ok(is_png(png), "inject: base \"%s\" is a file name", bases[i]);
	}
	is_int(count_named("pwned"), 0, "inject: no command ran through the base");

	p.base = "a/b";
	is_int(plot_write(&p, why, sizeof why), -1, "base: a slash is refused");
	ok(strstr(why, "a/b") != NULL, "base: the name in why (%s)", why);
	p.base = "";
	is_int(plot_write(&p, why, sizeof why), -1, "base: empty is refused");
}

static void
test_errors(void)
{
	static const struct plot_point pts[] = { { "1", 1, 0, 2 }, { "2", 2, 1, 3 } };
	static const struct plot_series s[] = { { "s", pts, 2 } };
	struct plot_spec p = {
		.dir = NULL, .base = "err", .title = "t", .xlabel = "x", .ylabel = "y",
		.errorbars = 1, .series = s, .nseries = 1,
	};
	char why[512] = "", nodir[512], bin[512], *saved;
	const char *path;
	struct timespec t0, t1;

	snprintf(nodir, sizeof nodir, "%s/no-such-dir", dir);
	p.dir = nodir;
	is_int(plot_write(&p, why, sizeof why), -1, "no dir: -1");
	ok(strstr(why, nodir) != NULL, "no dir: the path in why (%s)", why);

	p.dir = dir;
	p.nseries = 0;
	is_int(plot_write(&p, why, sizeof why), -1, "no series: -1");
	p.nseries = 1;

	path = getenv("PATH");
	saved = xstrdup(path != NULL ? path : "");
	snprintf(bin, sizeof bin, "%s/emptybin", dir);
	mkdir(bin, 0755);
	setenv("PATH", bin, 1);
	p.base = "nognuplot";
	is_int(plot_write(&p, why, sizeof why), -1, "no gnuplot in PATH: -1");
	ok(strstr(why, "gnuplot") != NULL, "no gnuplot in PATH: says gnuplot (%s)", why);
	ok(exists("nognuplot.gp") && !exists("nognuplot.png") && count_tmp() == 0,
	    "no gnuplot in PATH: the script is there to run, no image");

	/* a gnuplot that fails the way gnuplot does, and checks how it was started */
	snprintf(bin, sizeof bin, "%s/fakebin", dir);
	mkdir(bin, 0755);
	write_exec("fakebin/gnuplot",
	    "#!/bin/sh\n"
	    "PATH=/usr/bin:/bin\n"
	    "for a; do last=$a; done\n"
	    "[ -f \"$last\" ] || { echo \"no $last in $(pwd)\" >&2; exit 2; }\n"
	    "[ \"$(readlink /proc/$$/fd/0)\" = /dev/null ] ||\n"
	    "    { echo 'stdin not /dev/null' >&2; exit 2; }\n"
	    ": > fake.png.tmp\n"
	    "echo '\"./fake.gp\" line 2: warning: Cannot find or open file \"x\"' >&2\n"
	    "echo 'plot foo(x)' >&2\n"
	    "echo '     ^' >&2\n"
	    "echo '\"./fake.gp\" line 3: undefined function: foo' >&2\n"
	    "echo '' >&2\n"
	    "exit 1\n");
	setenv("PATH", bin, 1);
	p.base = "fake";
	is_int(plot_write(&p, why, sizeof why), -1, "failing gnuplot: -1");
	is_str(why, "gnuplot: \"./fake.gp\" line 3: undefined function: foo",
	    "failing gnuplot: its first error line in why");
	ok(!exists("fake.png") && !exists("fake.png.tmp"), "failing gnuplot: no image left");

	write_exec("fakebin/gnuplot",
	    "#!/bin/sh\nPATH=/usr/bin:/bin\n: > slow.png.tmp\nexec sleep 120\n");
	p.base = "slow";
	clock_gettime(CLOCK_MONOTONIC, &t0);
	is_int(plot_write(&p, why, sizeof why), -1, "timeout: -1");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* not a timing test: only that the call came back long before the fake's 120 s */
	ok(t1.tv_sec - t0.tv_sec < 100, "timeout: gnuplot killed, no hang (%lds)",
	    (long)(t1.tv_sec - t0.tv_sec));
	ok(strstr(why, "30 s") != NULL, "timeout: says so (%s)", why);
	ok(!exists("slow.png.tmp") && !exists("slow.png"), "timeout: no image left");
	setenv("PATH", saved, 1);
	free(saved);
}

/* Remove dir and what the tests put in it (one level of subdirectories). */
static void
cleanup(void)
{
	char *const argv[] = { "rm", "-rf", dir, NULL };
	pid_t pid;
	int st;

	if (getenv("TEST_KEEP") != NULL) {
		printf("# kept %s\n", dir);
		return;
	}
	if ((pid = fork()) == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
}

int
main(void)
{
	if (!has_gnuplot()) {
		printf("skip - plot: gnuplot not installed\n");
		return 0;
	}
	if (mkdtemp(dir) == NULL) {
		printf("not ok - mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_numeric();
	test_categorical();
	test_injection();
	test_errors();
	cleanup();
	return tap_done();
}
