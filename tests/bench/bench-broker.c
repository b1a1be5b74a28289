/*
 * bench-broker.c — timings for tests/bench/bench-broker.sh:
 *
 *   bench-broker rank FILE REPS     REPS trials, each a bare libyaml parse (event loop) of
 *                                   FILE and a sites_load_file_errs + broker_rank (with
 *                                   requirements) of it, back to back (which goes first
 *                                   alternates; each timed run follows an untimed one of
 *                                   its kind, so that it finds the heap as it leaves it);
 *                                   prints the median seconds of each, the
 *                                   median of the trials' own ratios rank/parse (this VM's
 *                                   speed jumps between modes: a trial's two runs share
 *                                   one), passing nodes, best load and best rank seconds
 *   bench-broker fetch N URL...     metrics_fetch of N nodes whose monitors are the URLs in
 *                                   turn with "?n=i" (all distinct); prints the seconds of
 *                                   the concurrent fetch, then the slowest of 16 single
 *                                   fetches made one after the other
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <yaml.h>

#include "broker/broker.h"
#include "broker/errlist.h"
#include "broker/metrics.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
bench_yaml(const char *path)
{
	yaml_parser_t p;
	yaml_event_t ev;
	FILE *f;
	int done = 0, events = 0;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "bench-broker: %s: yaml error\n", path);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		events++;
	}
	yaml_parser_delete(&p);
	fclose(f);
	return events;
}

/* the parts of the last bench_rank(), to show where the time goes */
static double rank_load_s, rank_rank_s;

static int
bench_rank(const char *path)
{
	struct gs_sites s;
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_errlist errs;
	struct gs_error err;
	size_t n;
	double t0 = now(), t1;

	if (sites_load_file_errs(path, &s, &errs) == -1) {
		errlist_print(&errs, stderr);
		return -1;
	}
	memset(&job, 0, sizeof job);
	job.path = "bench.yaml";
	job.ranks = 1;
	job.w1 = 0.9;
	job.w2 = 0.1;
	job.requirements = "mem_mb >= 1024 && arch == \"x86_64\" && cores >= 1";
	t1 = now();
	rank_load_s = t1 - t0;
	if (broker_rank(&s, &job, &rk, &err) == -1) {
		fprintf(stderr, "%s\n", err.msg);
		sites_free(&s);
		return -1;
	}
	rank_rank_s = now() - t1;
	n = rk.npassing;
	broker_ranking_free(&rk);
	sites_free(&s);
	return (int)n;
}

static int
bench_fetch(int n, char **urls, int nurls)
{
	struct gs_sites s;
	struct metrics_opts opt;
	double t0, total, slowest = 0;
	int i, good;

	memset(&s, 0, sizeof s);
	s.nodes = calloc((size_t)n, sizeof *s.nodes);
	s.nnodes = (size_t)n;
	for (i = 0; i < n; i++) {
		char *u;

		if (asprintf(&u, "%s?n=%d", urls[i % nurls], i) == -1)
			return -1;
		s.nodes[i].host = "h";
		s.nodes[i].cores = 1;
		s.nodes[i].monitor = u;
	}
	memset(&opt, 0, sizeof opt);
	opt.timeout = 30;
	opt.max_parallel = n;
	t0 = now();
	good = metrics_fetch(&s, &opt);
	total = now() - t0;
	if (good != n) {
		for (i = 0; i < n; i++)
			if (s.nodes[i].stale != NULL) {
				fprintf(stderr, "bench-broker: %s\n", s.nodes[i].stale);
				break;
			}
		fprintf(stderr, "bench-broker: %d of %d fetched\n", good, n);
		return -1;
	}
	/* the single fetches, one at a time: what one node costs alone */
	for (i = 0; i < 16 && i < n; i++) {
		struct gs_sites one = s;
		double t;

		one.nodes = &s.nodes[i * (n / 16 > 0 ? n / 16 : 1) % n];
		one.nnodes = 1;
		t0 = now();
		if (metrics_fetch(&one, &opt) != 1)
			return -1;
		t = now() - t0;
		if (t > slowest)
			slowest = t;
	}
	printf("%.6f %.6f\n", total, slowest);
	for (i = 0; i < n; i++) {
		free(s.nodes[i].monitor);
		free(s.nodes[i].stale);
	}
	free(s.nodes);
	return 0;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_dbl);
	return v[n / 2];
}

int
main(int argc, char **argv)
{
	double best_load = 1e9, best_rank = 1e9, *ty, *tr, *ratio, t0;
	int reps, i, k, rc, nodes = 0;

	if (argc >= 4 && strcmp(argv[1], "fetch") == 0)
		return bench_fetch(atoi(argv[2]), argv + 3, argc - 3) == 0 ? 0 : 1;
	if (argc != 4 || strcmp(argv[1], "rank") != 0 || (reps = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: bench-broker rank FILE REPS | fetch N URL...\n");
		return 2;
	}
	ty = calloc((size_t)reps, sizeof *ty);
	tr = calloc((size_t)reps, sizeof *tr);
	ratio = calloc((size_t)reps, sizeof *ratio);
	if (ty == NULL || tr == NULL || ratio == NULL)
		return 1;
	for (i = 0; i < reps; i++) {
		for (k = 0; k < 2; k++) {
			int yaml = (k == 0) == (i % 2 == 0);

			/* once untimed: the other kind's frees must not cost this one */
			if ((yaml ? bench_yaml(argv[2]) : bench_rank(argv[2])) < 0)
				return 1;
			t0 = now();
			rc = yaml ? bench_yaml(argv[2]) : bench_rank(argv[2]);
			if (rc < 0)
				return 1;
			*(yaml ? &ty[i] : &tr[i]) = now() - t0;
			if (!yaml) {
				nodes = rc;
				if (rank_load_s < best_load)
					best_load = rank_load_s;
				if (rank_rank_s < best_rank)
					best_rank = rank_rank_s;
			}
		}
		ratio[i] = tr[i] / ty[i];
	}
	printf("%.6f %.6f %.4f %d %.6f %.6f\n", median(tr, reps), median(ty, reps),
	    median(ratio, reps), nodes, best_load, best_rank);
	free(ty);
	free(tr);
	free(ratio);
	return 0;
}
