/*
 * test-job-load.c — job files: every field, the defaults, program paths, the runtime
 * parameters, the corpus of bad inputs in tests/data/bad/ (job-*.yaml) with the exact
 * message in each .expect file, and a file on disk whose program and stage_in items are
 * checked at load, each located. Run from the top of the tree.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/broker/errs-text.h"
#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/job.h"
#include "broker/yaml-doc.h"

/* A file's text without its last newline (an .expect file: one error a line). */
static char *
read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (f == NULL)
		return NULL;
	buf = calloc(1, 8192);
	n = fread(buf, 1, 8191, f);
	fclose(f);
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* Load len bytes of buf named name; err gets the first error only (errlist_first). */
static int
load_buffer(const char *name, const char *buf, size_t len, struct gs_job *job,
    struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	memset(err, 0, sizeof *err);
	if ((rc = job_load_buffer_errs(name, buf, len, job, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

static int
load(const char *name, const char *text, struct gs_job *job, struct gs_error *err)
{
	return load_buffer(name, text, strlen(text), job, err);
}

static void
test_full(void)
{
	static const char y[] =
	    "name: mandel-pwd\n"
	    "program: ../../build/examples/mandelbrot\n"
	    "args: [\"--size\", 1024, -v]\n"
	    "ranks: {min: 2, max: 8}\n"
	    "sites: [THU, LZ]\n"
	    "requirements: 'mem_mb >= 256 && arch == \"x86_64\"'\n"
	    "rank_weights: {cpu: 0.9, bandwidth: 0.1}\n"
	    "runtime: {scheme: PWD, k: +4, alpha: 30, swr: auto, deadline: 5.5, rounds: 3,\n"
	    "          events_chunks: false, master_computes: true, prefetch: auto}\n"
	    "env: {OMP_NUM_THREADS: \"1\", _X9: plain text, N: 3}\n"
	    "stage_in: [input.dat, data/more.dat]\n"
	    "stage_out: [image.pgm]\n"
	    "restarts: 5\n"
	    "keep_journal: true\n";
	struct gs_job job;
	struct gs_error err;
	char cwd[PATH_MAX], want[PATH_MAX + 64];

	if (!is_int(load("examples/mandel/job.yaml", y, &job, &err), 0, "full job loads")) {
		printf("#   %s\n", err.msg);
		return;
	}
	is_str(job.path, "examples/mandel/job.yaml", "path");
	is_str(job.name, "mandel-pwd", "name");
	if (getcwd(cwd, sizeof cwd) == NULL)
		strcpy(cwd, "/");
	snprintf(want, sizeof want, "%s/build/examples/mandelbrot", cwd);
	is_str(job.program, want, "program relative to the job file, made absolute");
	ok(job.program[0] == '/', "program is absolute");
	is_int(job.nargs, 3, "3 args");
	is_str(job.args[0], "--size", "arg 0");
	is_str(job.args[1], "1024", "arg 1: a number kept as text");
	is_str(job.args[2], "-v", "arg 2");
	is_int(job.ranks, 8, "ranks max");
	is_int(job.min_ranks, 2, "ranks min");
	is_int(job.nsites, 2, "2 sites");
	is_str(job.sites[1], "LZ", "site 1");
	is_str(job.requirements, "mem_mb >= 256 && arch == \"x86_64\"", "requirements text");
	is_int(job.requirements_loc.line, 6, "requirements line");
	is_int(job.requirements_loc.col, 16, "requirements column: after the quote");
	ok(job.requirements_loc.file == job.path, "requirements loc file");
	is_dbl(job.w1, 0.9, 1e-12, "w1");
	is_dbl(job.w2, 0.1, 1e-12, "w2");
	is_int(job.nruntime, 9, "9 runtime parameters");
	is_str(job_runtime_get(&job, "scheme"), "pwd", "scheme normalised to its name");
	is_str(job_runtime_get(&job, "k"), "4", "k as a whole number");
	is_str(job_runtime_get(&job, "alpha"), "30", "alpha");
	is_str(job_runtime_get(&job, "swr"), "auto", "swr auto");
	is_str(job_runtime_get(&job, "deadline"), "5.5", "deadline");
	is_str(job_runtime_get(&job, "rounds"), "3", "rounds");
	is_str(job_runtime_get(&job, "events_chunks"), "0", "events_chunks false -> 0");
	is_str(job_runtime_get(&job, "master_computes"), "1", "master_computes true -> 1");
	is_str(job_runtime_get(&job, "prefetch"), "auto", "prefetch auto -> auto");
	ok(job_runtime_get(&job, "nope") == NULL, "unknown runtime key: NULL");
	is_int(job.nenv, 3, "3 env");
	is_str(job.env[0].key, "OMP_NUM_THREADS", "env 0 key");
	is_str(job.env[0].value, "1", "env 0 value");
	is_str(job.env[1].value, "plain text", "env 1 value");
	is_str(job.env[2].value, "3", "env 2: number as text");
	is_int(job.nstage_in, 2, "2 stage_in");
	is_str(job.stage_in[1], "data/more.dat", "stage_in 1");
	is_int(job.nstage_out, 1, "1 stage_out");
	is_str(job.stage_out[0], "image.pgm", "stage_out 0");
	is_int(job.restarts, 5, "restarts 5");
	is_int(job.keep_journal, 1, "keep_journal true");
	is_int(job.loc.line, 1, "job loc line");

	job_runtime_set(&job, "scheme", "gss");
	is_str(job_runtime_get(&job, "scheme"), "gss", "runtime_set replaces");
	job_runtime_set(&job, "new", "x");
	is_str(job_runtime_get(&job, "new"), "x", "runtime_set adds");
	is_int(job.nruntime, 10, "runtime_set: one more");
	job_free(&job);
	ok(job.name == NULL && job.nargs == 0, "job_free clears");
	job_free(&job);
}

static void
test_defaults(void)
{
	struct gs_job job;
	struct gs_error err;

	if (!is_int(load("/srv/jobs/mandel.yaml", "program: /usr//bin/./env\n", &job, &err), 0,
	    "minimal job loads"))
		return;
	is_str(job.name, "mandel", "default name: file name without .yaml");
	is_str(job.program, "/usr/bin/env", "absolute program cleaned");
	is_int(job.ranks, 2, "default ranks 2");
	is_int(job.min_ranks, 2, "default min_ranks = ranks");
	is_dbl(job.w1, 1, 0, "default w1 1");
	is_dbl(job.w2, 0, 0, "default w2 0");
	ok(job.requirements == NULL, "no requirements");
	is_int(job.requirements_loc.line, 0, "no requirements: loc line 0");
	is_int(job.nargs + job.nsites + job.nruntime + job.nenv + job.nstage_in +
	    job.nstage_out, 0, "no lists");
	ok(job_runtime_get(&job, "scheme") == NULL, "no scheme");
	is_int(job.restarts, 3, "default restarts 3");
	is_int(job.keep_journal, 0, "default keep_journal false");
	job_free(&job);

	if (is_int(load("/j.yaml", "program: p\nrestarts: 0\nkeep_journal: false\n", &job,
	    &err), 0, "restarts 0")) {
		is_int(job.restarts, 0, "restarts 0: no relaunch");
		is_int(job.keep_journal, 0, "keep_journal false");
		job_free(&job);
	}

	if (is_int(load("/srv/jobs/x.yml", "program: a/../../bin/p\nranks: 5\n", &job, &err), 0,
	    "job with ranks")) {
		is_str(job.name, "x", "default name: .yml dropped");
		is_str(job.program, "/srv/bin/p", "relative program with '..' resolved");
		is_int(job.ranks, 5, "ranks 5");
		is_int(job.min_ranks, 5, "min_ranks = ranks");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nrank_weights: {bandwidth: 0.25}\n", &job, &err),
	    0, "one weight given")) {
		is_dbl(job.w1, 0.75, 1e-12, "w1 = 1 - bandwidth");
		is_dbl(job.w2, 0.25, 1e-12, "w2 given");
		is_str(job.program, "/p", "program beside a job file at /");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nrank_weights: {cpu: 0.6}\n", &job, &err), 0,
	    "only cpu given")) {
		is_dbl(job.w2, 0.4, 1e-12, "w2 = 1 - cpu");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nrank_weights: {cpu: 0.7, bandwidth: 0.3}\n",
	    &job, &err), 0, "weights summing to 1 within 1e-9")) {
		is_dbl(job.w1 + job.w2, 1, 1e-9, "w1 + w2 = 1");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nruntime: {swr: 0.5, scheme: hetcomm}\n"
	    "requirements: cores >= 2\n", &job, &err), 0, "swr as a number")) {
		is_str(job_runtime_get(&job, "swr"), "0.5", "swr 0.5");
		is_str(job_runtime_get(&job, "scheme"), "hetcomm", "scheme hetcomm");
		is_int(job.requirements_loc.col, 15, "plain requirements: column of its text");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nrequirements: |\n  cores >= 2\n", &job, &err), 0,
	    "block requirements")) {
		is_str(job.requirements, "cores >= 2\n", "block requirements text");
		is_int(job.requirements_loc.line, 0, "block requirements: no column mapping");
		job_free(&job);
	}
}

static void
test_bad_corpus(void)
{
	static const char *const files[] = {
		"job-args-map", "job-bool", "job-env-name", "job-hierarchy", "job-k", "job-no-program",
		"job-oversubscribe",
		"job-ranks-minmax", "job-ranks-zero", "job-sites-twice", "job-six-mistakes",
		"job-stage-absolute",
		"job-stage-dotdot", "job-stage-dot", "job-stage-reserved", "job-stage-same-name", "job-swr", "job-unknown-key", "job-unknown-scheme",
		"job-unknown-scheme-far", "job-weight-range", "job-weights-sum",
	};
	struct gs_job job;
	struct gs_errlist errs;
	struct gs_error err;
	char path[256], expect[256], *want, *got;
	size_t i;
	int rc;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "tests/data/bad/%s.yaml", files[i]);
		snprintf(expect, sizeof expect, "tests/data/bad/%s.expect", files[i]);
		if ((want = read_text(expect)) == NULL) {
			ok(0, "%s: cannot read %s", files[i], expect);
			continue;
		}
		rc = job_load_file_errs(path, &job, &errs);
		is_int(rc, -1, "%s rejected", files[i]);
		if (rc == 0)
			job_free(&job);
		got = errs_text(&errs);
		is_str(got, want, "%s: messages", files[i]);
		ok(job.name == NULL && job.path == NULL, "%s: nothing left allocated", files[i]);
		/* what a caller that says one error says: the first of them in the file */
		memset(&err, 0, sizeof err);
		errlist_first(&errs, &err);
		ok(err.msg[0] != '\0' && strncmp(want, err.msg, strlen(err.msg)) == 0 &&
		    strchr("\n", want[strlen(err.msg)]) != NULL, "%s: the first error", files[i]);
		free(got);
		free(want);
	}
}

/* Load text named j.yaml; errs gets every error, printed as text (allocated). */
static char *
load_all(const char *text)
{
	struct gs_errlist errs;
	struct gs_job job;

	if (job_load_buffer_errs("j.yaml", text, strlen(text), &job, &errs) == 0) {
		job_free(&job);
		return strdup("(loaded)");
	}
	return errs_text(&errs);
}

static void
expect_all(const char *what, const char *text, const char *want)
{
	char *got = load_all(text);

	is_str(got, want, "%s", what);
	free(got);
}

/* Every error of a job file, in order, with no second error caused by a first. */
static void
test_all_errors(void)
{
	static const char over[] = "ranks: lots\nrestarts: -1\n";
	struct gs_errlist errs;
	struct gs_error err;
	struct ydoc_node *o;
	struct gs_job job;
	char *got;

	expect_all("a wrong max: min still checked, on its own",
	    "program: p\nranks: {min: 0, max: x}\n",
	    "j.yaml:2:14: 'min' must be a whole number >= 1, not '0'\n"
	    "j.yaml:2:22: 'max' must be a whole number >= 1, not 'x'");
	expect_all("a misspelt max: one error", "program: p\nranks: {min: 2, mxa: 4}\n",
	    "j.yaml:2:17: unknown key 'mxa' (did you mean 'max'?)");
	expect_all("a wrong weight: no sum checked as well",
	    "program: p\nrank_weights: {cpu: 2, bandwidth: 0.5}\n",
	    "j.yaml:2:21: 'cpu' must be a number in [0, 1], not '2'");
	expect_all("each wrong list item, each wrong env entry",
	    "program: p\nargs: [a, [b], c, {d: 1}]\nenv: {1A: x, B: [y], C: z}\n",
	    "j.yaml:2:11: 'args' must be a string, not a list\n"
	    "j.yaml:2:19: 'args' must be a string, not a mapping\n"
	    "j.yaml:3:7: '1A' is not an environment name (letters, digits and '_', not "
	    "starting with a digit)\n"
	    "j.yaml:3:17: 'B' must be a string, not a list");
	expect_all("stage_in: a wrong item does not hide the names of the others",
	    "program: p\nstage_in: [/abs, a/x.dat, b/x.dat, c/journal]\n",
	    "j.yaml:2:12: 'stage_in' must be a relative path without '..' (files and "
	    "directories are staged from the job file's directory), not '/abs'\n"
	    "j.yaml:2:27: 'stage_in' items 'b/x.dat' and 'a/x.dat' (line 2) would both be "
	    "staged as 'x.dat'; rename one\n"
	    "j.yaml:2:36: 'stage_in' item 'c/journal' would replace gridsubmit's own "
	    "'journal' in the job directory; rename it");
	expect_all("stage_in: 'loads' would be overwritten by the node loads of migration",
	    "program: p\nstage_in: [in/loads]\n",
	    "j.yaml:2:12: 'stage_in' item 'in/loads' would replace gridsubmit's own "
	    "'loads' in the job directory; rename it");
	expect_all("a syntax error stops the reading: one error",
	    "progam: p\nrestarts: x\nargs: [a\n", "j.yaml:4:1: did not find expected ',' "
	    "or ']' (while parsing a flow sequence at line 3, col 7)");

	/* an overlay's errors (an experiment's parameters) come after the file's own */
	if ((o = ydoc_parse("exp.yaml", over, sizeof over - 1, &err)) == NULL) {
		ok(0, "overlay parses: %s", err.msg);
		return;
	}
	is_int(job_load_file_overlay_errs("tests/data/bad/job-k.yaml", o, "exp.yaml", &job,
	    &errs), -1, "overlay: rejected");
	got = errs_text(&errs);
	is_str(got, "tests/data/bad/job-k.yaml:2:27: 'k' must be a whole number >= 1, not "
	    "'0x10'\nexp.yaml:1:8: 'ranks' must be a whole number >= 1 or {min: N, max: M}, "
	    "not 'lots'\nexp.yaml:2:11: 'restarts' must be a whole number from 0 to 1000 "
	    "(relaunches after a failure), not '-1'",
	    "overlay: the file's errors, then the overlay's, each located");
	free(got);
	ydoc_free(o);
}

static void
expect_error(const char *what, const char *text, const char *want)
{
	struct gs_job job;
	struct gs_error err;

	is_int(load("j.yaml", text, &job, &err), -1, "%s: rejected", what);
	is_str(err.msg, want, "%s: message", what);
}

static void
test_bad_inline(void)
{
	struct gs_errlist errs;
	struct gs_job job;
	struct gs_error err;
	char *buf;
	size_t n = 100000;
	clock_t t0;

	expect_error("weights 0.5 + 0.5000001", "program: p\nrank_weights: {cpu: 0.5, "
	    "bandwidth: 0.5000001}\n", "j.yaml:2:15: 'rank_weights' cpu + bandwidth must be 1, "
	    "not 0.5 + 0.5000001 = 1.0000001");
	expect_error("ranks as text", "program: p\nranks: eight\n",
	    "j.yaml:2:8: 'ranks' must be a whole number >= 1 or {min: N, max: M}, not 'eight'");
	expect_error("ranks without max", "program: p\nranks: {min: 2}\n",
	    "j.yaml:2:8: 'ranks' needs both 'min' and 'max'");
	expect_error("ranks unknown key", "program: p\nranks: {min: 2, mxa: 4}\n",
	    "j.yaml:2:17: unknown key 'mxa' (did you mean 'max'?)");
	expect_error("runtime key typo", "program: p\nruntime: {schem: gss}\n",
	    "j.yaml:2:11: unknown key 'schem' (did you mean 'scheme'?)");
	expect_error("runtime key far", "program: p\nruntime: {colour: red}\n",
	    "j.yaml:2:11: unknown key 'colour' (expected one of: scheme, k, alpha, swr, "
	    "deadline, rounds, events_chunks, master_computes, prefetch, migration, threshold, "
	    "spare, checkpoint_every, move_gap, hierarchy)");
	expect_error("lease_timeout 2", "program: p\nlease_timeout: 2\n",
	    "j.yaml:2:16: 'lease_timeout' must be a whole number of seconds from 3 to 3600 (a "
	    "node's silence on the lease), not '2'");
	expect_error("lease_timeout as text", "program: p\nlease_timeout: ten\n",
	    "j.yaml:2:16: 'lease_timeout' must be a whole number of seconds from 3 to 3600 (a "
	    "node's silence on the lease), not 'ten'");
	expect_error("deadline 0", "program: p\nruntime: {deadline: 0}\n",
	    "j.yaml:2:21: 'deadline' must be a number of seconds > 0, not '0'");
	expect_error("alpha 101", "program: p\nruntime: {alpha: 101}\n",
	    "j.yaml:2:18: 'alpha' must be a number in [0, 100], not '101'");
	expect_error("alpha nan", "program: p\nruntime: {alpha: .nan}\n",
	    "j.yaml:2:18: 'alpha' must be a number in [0, 100], not '.nan'");
	expect_error("program empty", "program:\n",
	    "j.yaml:1:9: 'program' must be a string, not empty");
	expect_error("program a list", "program: [a, b]\n",
	    "j.yaml:1:10: 'program' must be a string, not a list");
	expect_error("env null", "program: p\nenv: {A: ~}\n",
	    "j.yaml:2:10: 'A' must be a string, not empty");
	expect_error("stage_in empty string", "program: p\nstage_in: [\"\"]\n",
	    "j.yaml:2:12: 'stage_in' must be a relative path without '..' (files and "
	    "directories are staged from the job file's directory), not ''");
	expect_error("stage_out inner ..", "program: p\nstage_out: [a/../../b]\n",
	    "j.yaml:2:13: 'stage_out' must be a relative path without '..' (files are staged "
	    "into the job's directory), not 'a/../../b'");
	expect_error("sites empty", "program: p\nsites: []\n",
	    "j.yaml:2:8: 'sites' is an empty list: leave it out to use every site");
	expect_error("site name hostile", "program: p\nsites: [\"a b\"]\n",
	    "j.yaml:2:9: 'sites' must be a site name (letters, digits, '.', '_' or '-'), "
	    "not 'a b'");
	expect_error("name with slash", "name: ../x\nprogram: p\n",
	    "j.yaml:1:7: 'name' must be a job name (at most 128 bytes, no '/' or control "
	    "characters), not '../x'");
	expect_error("anchor", "program: &p x\n",
	    "j.yaml:1:10: anchors are not allowed ('&p'): write the value out");
	expect_error("duplicate key", "program: a\nranks: 2\nprogram: b\n",
	    "j.yaml:3:1: duplicate key 'program' (first at line 1, col 1)");
	expect_error("flow key that is a list", "{[a]: 1}\n",
	    "j.yaml:1:2: a key must be plain text, not a list");
	expect_error("two documents", "program: a\n---\nprogram: b\n",
	    "j.yaml:2:1: a second document: a file holds one document");
	expect_error("scalar document", "just text\n",
	    "j.yaml:1:1: the top level must be a mapping of keys, not 'just text'");
	expect_error("bool yes", "program: p\nruntime: {events_chunks: True}\n",
	    "j.yaml:2:26: 'events_chunks' must be true or false, not 'True'");
	expect_error("restarts negative", "program: p\nrestarts: -1\n",
	    "j.yaml:2:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after "
	    "a failure), not '-1'");
	expect_error("restarts a fraction", "program: p\nrestarts: 2.5\n",
	    "j.yaml:2:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after "
	    "a failure), not '2.5'");
	expect_error("restarts huge", "program: p\nrestarts: 99999999999999999999\n",
	    "j.yaml:2:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after "
	    "a failure), not '99999999999999999999'");
	expect_error("restarts a list", "program: p\nrestarts: [1]\n",
	    "j.yaml:2:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after "
	    "a failure), not a list");
	expect_error("keep_journal yes", "program: p\nkeep_journal: yes\n",
	    "j.yaml:2:15: 'keep_journal' must be true or false, not 'yes'");
	expect_error("keep_journal a map", "program: p\nkeep_journal: {a: 1}\n",
	    "j.yaml:2:15: 'keep_journal' must be true or false, not a mapping");
	expect_error("restarts typo", "program: p\nrestart: 2\n",
	    "j.yaml:2:1: unknown key 'restart' (did you mean 'restarts'?)");
	expect_error("stage_in journal", "program: p\nstage_in: [data/journal]\n",
	    "j.yaml:2:12: 'stage_in' item 'data/journal' would replace gridsubmit's own "
	    "'journal' in the job directory; rename it");
	expect_error("prefetch maybe", "program: p\nruntime: {prefetch: maybe}\n",
	    "j.yaml:2:21: 'prefetch' must be auto, true or false, not 'maybe'");

	/* deep nesting, refused at level 65 and fast */
	buf = malloc(2 * n + 16);
	memcpy(buf, "args: ", 6);
	memset(buf + 6, '[', n);
	memset(buf + 6 + n, ']', n);
	buf[6 + 2 * n] = '\0';
	t0 = clock();
	expect_error("depth 100000", buf, "j.yaml:1:70: nesting deeper than 64 levels");
	ok((double)(clock() - t0) / CLOCKS_PER_SEC < 0.5, "depth 100000: refused fast");
	free(buf);

	/* over 1 MiB */
	n = 1024 * 1024 + 10;
	buf = malloc(n + 1);
	memset(buf, ' ', n);
	memcpy(buf, "program: p\n#", 12);
	buf[n] = '\0';
	expect_error("over 1 MiB", buf,
	    "j.yaml: larger than 1 MiB (1048586 bytes): not a site or job file");
	free(buf);

	/* binary */
	is_int(load_buffer("j.yaml", "program: \x7f" "ELF\x02\x01\x01\0\0", 17, &job, &err),
	    -1, "binary: rejected");
	is_str(err.msg, "j.yaml:1:17: binary data (a NUL byte): the file must be UTF-8 text",
	    "binary: message");
	is_int(job_load_file_errs("tests/data/bad/no-such-file.yaml", &job, &errs), -1,
	    "missing file: rejected");
	errlist_first(&errs, &err);
	is_str(err.msg, "tests/data/bad/no-such-file.yaml: cannot open: No such file or directory",
	    "missing file: message");
}

/* runtime: {hierarchy} (doc/runtime.md, "The hierarchy"): words and N kept, mistakes located */
static void
test_hierarchy(void)
{
	struct gs_job job;
	struct gs_error err;
	static const char *const ok[][2] = {
		{ "none", "none" }, { "site", "site" }, { "auto", "auto" }, { "2", "2" },
		{ "100", "100" },
	};
	char text[128];
	size_t i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		snprintf(text, sizeof text, "program: p\nruntime: {hierarchy: %s}\n", ok[i][0]);
		if (is_int(load("/j.yaml", text, &job, &err), 0, "hierarchy loads")) {
			is_str(job_runtime_get(&job, "hierarchy"), ok[i][1], "hierarchy kept");
			job_free(&job);
		}
	}
	expect_error("hierarchy 1", "program: p\nruntime: {hierarchy: 1}\n",
	    "j.yaml:2:22: 'hierarchy' must be none, site, auto or a whole number of workers per "
	    "sub-master >= 2, not '1'");
	expect_error("hierarchy a word", "program: p\nruntime: {hierarchy: sites}\n",
	    "j.yaml:2:22: 'hierarchy' must be none, site, auto or a whole number of workers per "
	    "sub-master >= 2, not 'sites'");
	expect_error("hierarchy a list", "program: p\nruntime: {hierarchy: [site]}\n",
	    "j.yaml:2:22: 'hierarchy' must be none, site, auto or a whole number of workers per "
	    "sub-master >= 2, not a list");
	expect_error("hierarchy with migration",
	    "program: p\nruntime: {migration: load-diff, hierarchy: site}\n",
	    "j.yaml:2:44: hierarchy 'site' has no sub-masters for migratable tasks (migration: "
	    "load-diff): set hierarchy: none");
	if (is_int(load("/j.yaml", "program: p\nruntime: {migration: load-abs, hierarchy: none}\n",
	    &job, &err), 0, "hierarchy none with migration loads"))
		job_free(&job);
}

/* The task-migration keys of runtime: (doc/tasks.md): values kept, and every mistake located. */
static void
test_migration(void)
{
	struct gs_job job;
	struct gs_error err;

	if (is_int(load("/j.yaml", "program: p\nruntime: {migration: Load-Diff, threshold: 0.5, "
	    "spare: 1, checkpoint_every: 20, move_gap: 5}\n", &job, &err), 0,
	    "migration keys load")) {
		is_str(job_runtime_get(&job, "migration"), "load-diff", "migration: its name, lower case");
		is_str(job_runtime_get(&job, "threshold"), "0.5", "threshold");
		is_str(job_runtime_get(&job, "spare"), "1", "spare");
		is_str(job_runtime_get(&job, "checkpoint_every"), "20", "checkpoint_every");
		is_str(job_runtime_get(&job, "move_gap"), "5", "move_gap");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nruntime: {migration: NONE, spare: 0, "
	    "checkpoint_every: 0, move_gap: 0}\n", &job, &err), 0, "zeros and none load")) {
		is_str(job_runtime_get(&job, "migration"), "none", "migration none");
		is_str(job_runtime_get(&job, "spare"), "0", "spare 0");
		is_str(job_runtime_get(&job, "move_gap"), "0", "move_gap 0");
		job_free(&job);
	}
	if (is_int(load("/j.yaml", "program: p\nruntime: {migration: load-abs}\n", &job, &err), 0,
	    "load-abs loads")) {
		is_str(job_runtime_get(&job, "migration"), "load-abs", "migration load-abs");
		job_free(&job);
	}
	expect_error("migration typo", "program: p\nruntime: {migration: load-dif}\n",
	    "j.yaml:2:22: unknown migration policy 'load-dif' (did you mean 'load-diff'?)");
	expect_error("migration far", "program: p\nruntime: {migration: sched1}\n",
	    "j.yaml:2:22: unknown migration policy 'sched1' (one of: none, load-diff, load-abs)");
	expect_error("migration rotate", "program: p\nruntime: {migration: rotate}\n",
	    "j.yaml:2:22: migration policy 'rotate' is for the tests only (GRT_MIGRATION), not a "
	    "job file's (one of: none, load-diff, load-abs)");
	expect_error("migration a list", "program: p\nruntime: {migration: [a]}\n",
	    "j.yaml:2:22: 'migration' must be a string, not a list");
	expect_error("threshold 0", "program: p\nruntime: {threshold: 0}\n",
	    "j.yaml:2:22: 'threshold' must be a load figure > 0, not '0'");
	expect_error("threshold text", "program: p\nruntime: {threshold: high}\n",
	    "j.yaml:2:22: 'threshold' must be a load figure > 0, not 'high'");
	expect_error("spare negative", "program: p\nruntime: {spare: -1}\n",
	    "j.yaml:2:18: 'spare' must be a whole number >= 0, not '-1'");
	expect_error("spare a fraction", "program: p\nruntime: {spare: 1.5}\n",
	    "j.yaml:2:18: 'spare' must be a whole number >= 0, not '1.5'");
	expect_error("checkpoint_every negative", "program: p\nruntime: {checkpoint_every: -2}\n",
	    "j.yaml:2:29: 'checkpoint_every' must be a whole number >= 0, not '-2'");
	expect_error("move_gap negative", "program: p\nruntime: {move_gap: -0.5}\n",
	    "j.yaml:2:21: 'move_gap' must be a number of seconds >= 0, not '-0.5'");
	expect_error("move_gap nan", "program: p\nruntime: {move_gap: .nan}\n",
	    "j.yaml:2:21: 'move_gap' must be a number of seconds >= 0, not '.nan'");
}

/* path gets text with mode; 0, or -1. */
static int
write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fputs(text, f);
	fclose(f);
	return chmod(path, mode);
}

/* dir/name.yaml gets text and is loaded from disk: every error, as printed (allocated). */
static char *
load_disk(const char *dir, const char *name, const char *text)
{
	struct gs_errlist errs;
	struct gs_job job;
	char path[512];

	snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
	if (write_file(path, text, 0644) != 0)
		return strdup("cannot write the job file");
	if (job_load_file_errs(path, &job, &errs) == 0) {
		job_free(&job);
		return strdup("");
	}
	return errs_text(&errs);
}

/*
 * A job file read from disk: its program (a directory, not executable, not a program,
 * missing) and stage_in items checked at load, each at its value; the same text as a
 * buffer looks for nothing on disk.
 */
static void
test_disk(void)
{
	char dir[] = "/tmp/test-job-load.XXXXXX", path[512], want[2048], *got;
	struct gs_job job;
	struct gs_error err;

	if (mkdtemp(dir) == NULL) {
		ok(0, "a temporary directory");
		return;
	}
	snprintf(path, sizeof path, "%s/script", dir);
	write_file(path, "#!/bin/sh\nexit 0\n", 0755);
	snprintf(path, sizeof path, "%s/text", dir);
	write_file(path, "exit 0\n", 0755);
	snprintf(path, sizeof path, "%s/plain", dir);
	write_file(path, "#!/bin/sh\n", 0644);
	snprintf(path, sizeof path, "%s/in.dat", dir);
	write_file(path, "1\n", 0644);

	got = load_disk(dir, "ok", "program: script\nstage_in: [in.dat]\n");
	is_str(got, "", "a script with '#!' and a stage_in file that is there: loaded");
	free(got);
	got = load_disk(dir, "elf", "program: /bin/sh\n");
	is_str(got, "", "an ELF program: loaded");
	free(got);
	got = load_disk(dir, "dir", "program: /tmp\n");
	snprintf(want, sizeof want, "%s/dir.yaml:1:10: 'program' cannot be started: /tmp: is a "
	    "directory, not a program", dir);
	is_str(got, want, "a directory: located at the value");
	free(got);
	got = load_disk(dir, "plain", "name: p\nprogram: plain\n");
	snprintf(want, sizeof want, "%s/plain.yaml:2:10: 'program' cannot be started: %s/plain: "
	    "cannot run it: Permission denied", dir, dir);
	is_str(got, want, "not executable: located at the value");
	free(got);
	got = load_disk(dir, "text", "program: text\n");
	snprintf(want, sizeof want, "%s/text.yaml:1:10: 'program' cannot be started: %s/text: "
	    "not a program (neither an ELF executable nor a script that starts with '#!')", dir,
	    dir);
	is_str(got, want, "executable text: not a program");
	free(got);
	got = load_disk(dir, "all", "program: none\nstage_in: [in.dat, a.dat, b/c.dat]\n"
	    "requirements: \"cores >> 2\"\n");
	snprintf(want, sizeof want,
	    "%s/all.yaml:1:10: 'program' cannot be started: %s/none: No such file or directory "
	    "(was it built? run make)\n"
	    "%s/all.yaml:2:20: 'stage_in' item 'a.dat' cannot be staged: %s/a.dat: No such file "
	    "or directory\n"
	    "%s/all.yaml:2:27: 'stage_in' item 'b/c.dat' cannot be staged: %s/b/c.dat: No such "
	    "file or directory\n"
	    "%s/all.yaml:3:23: requirements: expected a field, a number or a string, found '>'",
	    dir, dir, dir, dir, dir, dir, dir);
	is_str(got, want, "missing program, two stage_in items, requirements: all, in order");
	free(got);
	/* a buffer named as a file in that directory: nothing looked for there */
	snprintf(path, sizeof path, "%s/all.yaml", dir);
	is_int(load(path, "program: none\nstage_in: [a.dat]\n", &job, &err), 0,
	    "a buffer: the program and stage_in not looked for");
	if (err.msg[0] == '\0')
		job_free(&job);

	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	if (system(path) != 0)
		ok(0, "remove %s", dir);
}

int
main(void)
{
	test_full();
	test_defaults();
	test_bad_corpus();
	test_all_errors();
	test_bad_inline();
	test_migration();
	test_hierarchy();
	test_disk();
	return tap_done();
}
