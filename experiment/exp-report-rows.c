/*
 * exp-report-rows.c — results.csv and results.json: one row per run with its state, job,
 * times, every parameter and every metric. The CSV quotes as RFC 4180 does; the JSON has
 * numbers as numbers, null for a metric the run does not have, and schema_version
 * (gridsubmit-json(5)), written by jsonout as every document is.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/jsonout.h"
#include "common/xmalloc.h"
#include "experiment/exp-claim.h"
#include "experiment/exp-report.h"
#include "store/jobstore.h"

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void
err_csv_field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void
err_csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, "%.17g", v);
}

static int
err_csv(const struct exp_report *r, char *why, size_t whylen)
{
	const struct exp *e = r->e;
	char *buf = NULL, t[40];
	size_t len = 0, i, k;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	fputs("run,point,rep,seq,seed,state,job_id,started,ended,attempts,exit_code,reason", f);
	for (k = 0; k < e->nparams; k++)
		err_csv_field(f, e->params[k].name, 0);
	for (k = 0; k < r->nnames; k++)
		err_csv_field(f, r->names[k], 0);
	fputs("\r\n", f);
	for (i = 0; i < r->nruns; i++) {
		const struct exp_run *x = &r->runs[i];

		fprintf(f, "%lld,%zu,%d,%d,%llu,%s,", (long long)x->id, x->point + 1, x->rep,
		    x->seq, (unsigned long long)x->seed, exp_run_state_name(x->state));
		err_csv_field(f, x->job_id, 1);
		jobstore_format_time(x->started, t, sizeof t);
		err_csv_field(f, t, 0);
		jobstore_format_time(x->ended, t, sizeof t);
		err_csv_field(f, t, 0);
		fprintf(f, ",%d,", x->attempts);
		if (x->exit_code >= 0)
			fprintf(f, "%d", x->exit_code);
		err_csv_field(f, x->reason != NULL ? x->reason : "", 0);
		for (k = 0; k < e->nparams; k++)
			err_csv_field(f, exp_point_text(e, x->point, k), 0);
		for (k = 0; k < r->nnames; k++)
			err_csv_num(f, x->values[k]);
		fputs("\r\n", f);
	}
	fclose(f);
	rc = exp_write_file(r->dir, "results.csv", buf, len, why, whylen);
	free(buf);
	return rc;
}

static json_t *
err_run_json(const struct exp_report *r, const struct exp_run *x)
{
	const struct exp *e = r->e;
	json_t *o = json_object(), *p = json_object(), *m = json_object();
	size_t k;

	json_object_set_new(o, "run", json_integer(x->id));
	json_object_set_new(o, "point", json_integer((json_int_t)x->point + 1));
	json_object_set_new(o, "rep", json_integer(x->rep));
	json_object_set_new(o, "seq", json_integer(x->seq));
	json_object_set_new(o, "seed", json_integer((json_int_t)x->seed));
	json_object_set_new(o, "state", json_string(exp_run_state_name(x->state)));
	json_object_set_new(o, "id", jsonout_id(x->job_id));
	json_object_set_new(o, "started", jobstore_json_time(x->started));
	json_object_set_new(o, "ended", jobstore_json_time(x->ended));
	json_object_set_new(o, "attempts", json_integer(x->attempts));
	json_object_set_new(o, "exit_code", x->exit_code >= 0 ? json_integer(x->exit_code) :
	    json_null());
	json_object_set_new(o, "reason", jsonout_str(x->reason));
	for (k = 0; k < e->nparams; k++)
		json_object_set_new(p, e->params[k].name, exp_point_json(e, x->point, k));
	json_object_set_new(o, "params", p);
	for (k = 0; k < r->nnames; k++)
		json_object_set_new(m, r->names[k], jsonout_num(x->values[k]));
	json_object_set_new(o, "metrics", m);
	return o;
}

json_t *
exp_report_json(const struct exp_report *r)
{
	json_t *doc = json_object(), *runs = json_array();
	struct exp_claim_result *claims;
	size_t i, n;

	json_object_set_new(doc, "experiment", json_string(r->e->name));
	json_object_set_new(doc, "file", json_string(r->e->path));
	json_object_set_new(doc, "hash", json_string(r->e->hash));
	json_object_set_new(doc, "seed", json_integer((json_int_t)r->seed));
	for (i = 0; i < r->nruns; i++)
		json_array_append_new(runs, err_run_json(r, &r->runs[i]));
	json_object_set_new(doc, "runs", runs);
	claims = exp_claims_eval(r, &n);
	json_object_set_new(doc, "claims", exp_claims_json(claims, n));
	exp_claim_results_free(claims, n);
	return doc;
}

static int
err_json(const struct exp_report *r, char *why, size_t whylen)
{
	char *text;
	int rc;

	/* the one layout of every document, schema_version first (jsonout.h) */
	if ((text = jsonout_text(exp_report_json(r))) == NULL) {
		snprintf(why, whylen, "results.json: out of memory");
		return -1;
	}
	rc = exp_write_file(r->dir, "results.json", text, strlen(text), why, whylen);
	free(text);
	return rc;
}

int
exp_report_rows(const struct exp_report *r, char *why, size_t whylen)
{
	if (err_csv(r, why, whylen) != 0)
		return -1;
	return err_json(r, why, whylen);
}
