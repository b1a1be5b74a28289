/*
 * test-metrics-papers.c — the papers' metrics (exp-metrics-rounds.c, exp-metrics-moves.c)
 * on events files recorded from real runs: tests/data/events/seed000-hetcomm.jsonl is
 * `gridsubmit simulate` of examples/matmul/job-lanwlan.yaml (--form a --n 400 --bcols 50,
 * hetcomm, 8 rounds) on sites/lanwlan.yaml, where the master drops pc4 (rank 4, the
 * 200 MHz node behind 10 Mbit/s) after round 3; tests/data/events/ep-rotate.jsonl is
 * `gridsubmit run` of examples/ep (one task of 1 MiB of state, 20 steps, 3 ranks, a
 * spare, GRT_MIGRATION=rotate) on this host, 6 moves. The expected values are the
 * records' own numbers, read off the files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/exp-metrics.h"
#include "tests/tap.h"

#define EPS	1e-12

static void
fresh(double *v)
{
	size_t i;

	for (i = 0; i < EXP_NBUILTIN; i++)
		v[i] = 42;
}

static void
check_rounds(void)
{
	double v[EXP_NBUILTIN];

	fresh(v);
	exp_metrics_rounds("tests/data/events/seed000-hetcomm.jsonl", v);
	/* round j=1: sd_exe 0.179943952; j=8: 0.000150267 */
	is_dbl(v[EXP_M_SD_EXE_FIRST], 0.179943952, EPS, "sd of t_exe in the first round");
	is_dbl(v[EXP_M_SD_EXE_LAST], 0.000150267, EPS, "sd of t_exe in the last round");
	is_dbl(v[EXP_M_SD_EXE_FALL], 0.000150267 / 0.179943952, EPS, "their ratio");
	/* the drop record follows round 3's: round 4 is the first without rank 4 */
	is_dbl(v[EXP_M_DROP_ROUND], 4, 0, "pc4 dropped from round 4");
	ok(v[EXP_M_MOVE_S] == 42 && v[EXP_M_MOVE_MBPS] == 42, "other slots untouched");

	/* a run of tasks has no rounds and no drop */
	fresh(v);
	exp_metrics_rounds("tests/data/events/ep-rotate.jsonl", v);
	ok(isnan(v[EXP_M_SD_EXE_FIRST]) && isnan(v[EXP_M_SD_EXE_LAST]) &&
	    isnan(v[EXP_M_SD_EXE_FALL]) && isnan(v[EXP_M_DROP_ROUND]),
	    "no round records: every round metric NaN");

	fresh(v);
	exp_metrics_rounds("tests/data/events/no-such-file.jsonl", v);
	ok(isnan(v[EXP_M_SD_EXE_FIRST]) && isnan(v[EXP_M_DROP_ROUND]), "no file: NaN");
}

static void
check_moves(void)
{
	double v[EXP_NBUILTIN];

	fresh(v);
	exp_metrics_moves("tests/data/events/ep-rotate.jsonl", v);
	/* seconds sorted: .002033392 .002428971 .002527065 .004249154 .006841589 .006993334 */
	is_dbl(v[EXP_M_MOVE_S], (0.002527065 + 0.004249154) / 2, EPS,
	    "median move time of 6 moves");
	/* 6 x 1048720 bytes over the seconds' sum, 0.025073505 s */
	is_dbl(v[EXP_M_MOVE_MBPS], 6 * 1048720 / 0.025073505 / 1e6, 1e-9, "MB/s of the moves");
	ok(v[EXP_M_SD_EXE_FIRST] == 42, "other slots untouched");

	fresh(v);
	exp_metrics_moves("tests/data/events/seed000-hetcomm.jsonl", v);
	ok(isnan(v[EXP_M_MOVE_S]) && isnan(v[EXP_M_MOVE_MBPS]), "no migrate record: NaN");
}

/* A relaunch: only what follows the last start or restart record counts. */
static void
check_last_launch(void)
{
	char path[] = "/tmp/gs-test-metrics-XXXXXX";
	const char *parts[] = { "tests/data/events/seed000-hetcomm.jsonl", NULL,
	    "tests/data/events/ep-rotate.jsonl" };
	const char *restart = "{\"v\":1,\"t\":2.5,\"ev\":\"restart\",\"n\":1,"
	    "\"reason\":\"a node did not answer\",\"excluded\":[\"pc4\"]}\n";
	double v[EXP_NBUILTIN];
	char buf[4096];
	size_t i, n;
	FILE *out, *in;
	int fd;

	if ((fd = mkstemp(path)) < 0 || (out = fdopen(fd, "w")) == NULL) {
		ok(0, "temporary file");
		return;
	}
	for (i = 0; i < 3; i++) {
		if (parts[i] == NULL) {
			fputs(restart, out);
			continue;
		}
		if ((in = fopen(parts[i], "r")) == NULL)
			break;
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			fwrite(buf, 1, n, out);
		fclose(in);
	}
	fclose(out);
	fresh(v);
	exp_metrics_rounds(path, v);
	exp_metrics_moves(path, v);
	ok(isnan(v[EXP_M_SD_EXE_FIRST]) && isnan(v[EXP_M_DROP_ROUND]),
	    "rounds of the launch before the restart not counted");
	is_dbl(v[EXP_M_MOVE_S], (0.002527065 + 0.004249154) / 2, EPS,
	    "the last launch's moves counted");
	unlink(path);
}

int
main(void)
{
	check_rounds();
	check_moves();
	check_last_launch();
	return tap_done();
}
