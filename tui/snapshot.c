/* snapshot.c — --once (plain text) and --json (gridsubmit-json(5), through jsonout). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/clock.h"
#include "common/jsonout.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "tui/columns.h"
#include "tui/meter.h"
#include "tui/snapshot.h"

/* Print a line without its trailing blanks. */
void
snapshot_line(FILE *f, char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	fprintf(f, "%s\n", s);
}

void
snapshot_rank(const struct model *m, const struct mrank *r, const struct col_layout *l,
    double full, double rmax, FILE *f)
{
	char line[2048], cell[512];
	size_t o = 0;
	int i;

	for (i = 0; i < l->n && o < sizeof line - 1; i++) {
		enum col c = l->cols[i];

		if (c == COL_BAR || c == COL_RATE) {
			if (r->master)
				snprintf(cell, sizeof cell, "%*s", l->w[i], "");
			else if (c == COL_BAR)
				meter_bar(cell, l->w[i], r->t_calc, r->t_comm, model_rank_idle(m, r),
				    full, NULL);
			else
				meter_spark(cell, sizeof cell, r->hist, model_hist_len(m),
				    1.0 / m->hist_w, rmax, l->w[i], 0);
		} else
			columns_cell(cell, sizeof cell, m, r, c, l->w[i], 0);
		o += snprintf(line + o, sizeof line - o, "%s%s", i ? " " : "", cell);
	}
	snapshot_line(f, line);
}

/* Is r on a node that a lower rank of its site is on (whose row came already)? */
static int
snapshot_node_seen(const struct model *m, const struct mrank *r)
{
	int i;

	for (i = 0; i < r->rank; i++)
		if (m->ranks[i].known && m->ranks[i].site_idx == r->site_idx &&
		    strcmp(m->ranks[i].node, r->node) == 0)
			return 1;
	return 0;
}

/* A node that holds several ranks: the row of their sums, as on the screen. */
void
snapshot_node(const struct model *m, const struct mrank *r, const struct col_layout *l,
    double rmax, FILE *f)
{
	struct mnode_sum s;
	char line[2048], cell[512];
	size_t o = 0;
	int i;

	model_group_node_sum(m, r, &s);
	for (i = 0; i < l->n && o < sizeof line - 1; i++) {
		enum col c = l->cols[i];

		if (c == COL_BAR)
			snprintf(cell, sizeof cell, "%*s", l->w[i], "");
		else if (c == COL_RATE)
			meter_spark(cell, sizeof cell, s.hist, model_hist_len(m), 1.0 / m->hist_w,
			    rmax, l->w[i], 0);
		else
			columns_node_cell(cell, sizeof cell, r, &s, c, l->w[i], 0);
		o += snprintf(line + o, sizeof line - o, "%s%s", i ? " " : "", cell);
	}
	snapshot_line(f, line);
}

/* The header of a job on libgrt: its scheme, size, units, rounds, times and counts. */
static void
snapshot_header(const struct model *m, const struct model_stats *st,
    const struct evreader_stats *rs, FILE *f)
{
	char a[64], b[64], c[64];

	fprintf(f, "Job %s  Scheme %s  N %lld x %d  Workers %d on %s  %s%s\n",
	    *m->job ? m->job : "?", *m->scheme ? m->scheme : "?", m->n, m->rounds,
	    st->nworkers, text_plural(a, sizeof a, st->nsites, "site", NULL),
	    m->ended ? "ended: " : "running", m->ended ? m->status : "");
	fprintf(f, "Units %s/%s %.1f%%  rate ", text_count(b, sizeof b, st->done),
	    text_count(c, sizeof c, st->total), isfinite(st->pct) ? st->pct : 0.0);
	fprintf(f, "%s/s  ETA %s\n", text_num(a, sizeof a, st->rate, 1, 9),
	    text_clock(b, sizeof b, st->eta));
	fprintf(f, "Elapsed %s  Round %d/%d  sd(t_exe) ", text_clock(a, sizeof a, st->elapsed),
	    st->round, st->rounds);
	if (isfinite(st->sd_exe))
		fprintf(f, "%.2f s", st->sd_exe);
	else
		fprintf(f, "-");
	fprintf(f, "  Imbalance %.1f%%  Calc:Comm ", st->imbalance);
	if (isinf(st->ratio))
		fprintf(f, "all calc\n");
	else if (isfinite(st->ratio))
		fprintf(f, "%s:1\n", text_num(a, sizeof a, st->ratio, 1, 7));
	else
		fprintf(f, "-\n");
	fprintf(f, "Migrations %lld (%.1f/min)  Failed %d  Dropped %d  Restarts %d  Working %d/%d",
	    st->migrations, st->mig_per_min, st->nfailed, st->ndropped, st->restarts,
	    st->nworking, st->nworkers);
	if (rs != NULL)
		fprintf(f, "  Records %lld (%lld bad, %lld unknown)", rs->events, rs->bad,
		    rs->unknown);
	fprintf(f, "\n");
}

/* Each placed node's load and CPU from its monitor (model-nodes.c), one line each. */
static void
snapshot_nodes(const struct model *m, FILE *f)
{
	double now = clock_wall();
	char a[160];
	size_t i;

	for (i = 0; i < m->nnodes; i++) {
		node_stat_text(&m->nodes[i], now, a, sizeof a);
		fprintf(f, "Node %s: %s\n", m->nodes[i].node, a);
	}
}

/*
 * The ranks of site s by rank id; a node that holds several of them as its row of sums,
 * where its first rank comes, with its ranks after it (the screen's order by RANK).
 */
static void
snapshot_site_ranks(const struct model *m, int s, const struct col_layout *l, double full,
    double rmax, FILE *f)
{
	const struct mrank *r, *o;
	int i, k;

	for (i = 0; i < m->nranks; i++) {
		r = &m->ranks[i];
		if (!r->known || r->site_idx != s || snapshot_node_seen(m, r))
			continue;
		if (!model_node_shared(m, r)) {
			snapshot_rank(m, r, l, full, rmax, f);
			continue;
		}
		snapshot_node(m, r, l, rmax, f);
		for (k = i; k < m->nranks; k++) {
			o = &m->ranks[k];
			if (o->known && o->site_idx == s && strcmp(o->node, r->node) == 0)
				snapshot_rank(m, o, l, full, rmax, f);
		}
	}
}

int
snapshot_site(const struct model *m, int site, FILE *f)
{
	long long units = 0;
	char a[64], b[64];
	int i, n = 0;

	for (i = 0; i < m->nranks; i++)
		if (m->ranks[i].known && m->ranks[i].site_idx == site) {
			n++;
			units += m->ranks[i].master ? 0 : m->ranks[i].units;
		}
	if (n == 0)
		return 0;
	fprintf(f, "[-] %s  %s  %s unit%s\n", m->sites[site].name, text_plural(a, sizeof a, n,
	    "rank", NULL), text_count(b, sizeof b, units), units == 1 ? "" : "s");
	return 1;
}

int
snapshot_text(const struct model *m, const struct evreader_stats *rs, FILE *f)
{
	struct model_stats st;
	struct col_layout l;
	const struct mlog *lg;
	char line[2048], a[64], b[64];
	double rmax;
	size_t o = 0;
	int i, s, n;

	model_stats(m, &st);
	if (m->plain)
		fprintf(f, "Without libgrt: %s on %s, %d ended, %d failed  %s%s\n",
		    text_plural(a, sizeof a, m->nranks, "rank", NULL), text_plural(b, sizeof b,
		    st.nsites, "site", NULL), m->nends, m->nfailed, m->ended ? "ended: " :
		    "running", m->ended ? m->status : "");
	else
		snapshot_header(m, &st, rs, f);
	snapshot_nodes(m, f);
	fprintf(f, "\n");

	columns_layout(&l, SNAPSHOT_WIDTH, m->task_run);
	for (i = 0; i < l.n; i++)
		o += snprintf(line + o, sizeof line - o, "%s%s", i ? " " : "",
		    text_fit(a, sizeof a, col_defs[l.cols[i]].name, l.w[i],
		    col_defs[l.cols[i]].right, 1));
	snapshot_line(f, line);
	rmax = model_rate_peak(m);
	if (m->ngroups > 0)
		snapshot_groups(m, &l, st.elapsed, rmax, f);
	else
		for (s = 0; s < m->nsites; s++)
			if (snapshot_site(m, s, f))
				snapshot_site_ranks(m, s, &l, st.elapsed, rmax, f);
	fprintf(f, "\nLog (newest last):\n");
	n = m->nlog < SNAPSHOT_EVENTS ? (int)m->nlog : SNAPSHOT_EVENTS;
	for (i = n - 1; i >= 0; i--) {
		lg = model_log_get(m, i);
		fprintf(f, "%9.2f %-8s %s\n", lg->t, event_kind_name(lg->kind), lg->text);
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* node_values: as status --json has them (gridsubmit-json(5)). */
static json_t *
snapshot_nodes_json(const struct model *m)
{
	const struct node_stat *s;
	json_t *a = json_array();
	double now = clock_wall();
	size_t i;

	for (i = 0; i < m->nnodes; i++) {
		s = &m->nodes[i];
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o}", "node", s->node,
		    "load1", jsonout_num(s->load1), "cpu_busy_pct", s->cpu_busy >= 0 ?
		    jsonout_num(100 * s->cpu_busy) : json_null(), "age",
		    jsonout_num(now > s->time ? now - s->time : 0)));
	}
	return a;
}

/* per_node: each node with ranks, its ranks and their sums (model_node_sum). */
static json_t *
snapshot_nodes_sum_json(const struct model *m, const struct model_stats *st)
{
	struct mnode_sum s;
	const struct mrank *r;
	json_t *a = json_array(), *nd, *ids;
	int i, k;

	for (i = 0; i < m->nranks; i++) {
		r = &m->ranks[i];
		if (!r->known || snapshot_node_seen(m, r))
			continue;
		model_node_sum(m, r, &s);
		ids = json_array();
		for (k = i; k < m->nranks; k++)
			if (m->ranks[k].known && m->ranks[k].site_idx == r->site_idx &&
			    strcmp(m->ranks[k].node, r->node) == 0)
				json_array_append_new(ids, json_integer(k));
		nd = json_object();
		json_object_set_new(nd, "node", json_string(r->node));
		json_object_set_new(nd, "site", json_string(r->site));
		json_object_set_new(nd, "placed_ranks", ids);
		json_object_set_new(nd, "units", json_integer(s.units));
		json_object_set_new(nd, "pr", jsonout_num(s.pr));
		json_object_set_new(nd, "t_calc", jsonout_num(s.t_calc));
		json_object_set_new(nd, "t_comm", jsonout_num(s.t_comm));
		json_object_set_new(nd, "perf_f", jsonout_num(s.perf_f));
		json_object_set_new(nd, "rate", jsonout_num(st->elapsed > 0 ?
		    s.units / st->elapsed : NAN));
		json_array_append_new(a, nd);
	}
	return a;
}

int
snapshot_json(const struct model *m, const struct evreader_stats *rs, FILE *f)
{
	struct model_stats st;
	const struct mrank *r;
	const struct mlog *lg;
	json_t *doc, *ranks, *rk, *log, *hist, *tasks;
	long long i, known = 0;
	int k, hlen = model_hist_len(m);

	model_stats(m, &st);
	for (i = 0; i < m->nranks; i++)
		known += m->ranks[i].known != 0;
	doc = json_object();
	/* the start record's job id (GRT_JOB): a number for a job of the store */
	json_object_set_new(doc, "id", jsonout_id(m->job));
	json_object_set_new(doc, "scheme", *m->scheme ? json_string(m->scheme) : json_null());
	json_object_set_new(doc, "N", json_integer(m->n));
	json_object_set_new(doc, "rounds", json_integer(m->rounds));
	json_object_set_new(doc, "ranks", json_integer(known));
	json_object_set_new(doc, "finished", json_boolean(m->ended));
	json_object_set_new(doc, "status", m->ended ? json_string(m->status) : json_null());
	json_object_set_new(doc, "elapsed", jsonout_num(st.elapsed));
	json_object_set_new(doc, "units_done", json_integer(st.done));
	json_object_set_new(doc, "units_total", json_integer(st.total));
	json_object_set_new(doc, "percent", jsonout_num(st.pct));
	json_object_set_new(doc, "rate", jsonout_num(st.rate));
	json_object_set_new(doc, "eta", jsonout_num(st.eta));
	json_object_set_new(doc, "round", json_integer(st.round));
	json_object_set_new(doc, "sd_exe", jsonout_num(st.sd_exe));
	json_object_set_new(doc, "imbalance_pct", jsonout_num(st.imbalance));
	json_object_set_new(doc, "t_calc", jsonout_num(st.calc));
	json_object_set_new(doc, "t_comm", jsonout_num(st.comm));
	json_object_set_new(doc, "calc_comm_ratio", jsonout_num(st.ratio));
	json_object_set_new(doc, "migrations", json_integer(st.migrations));
	json_object_set_new(doc, "migrations_per_min", jsonout_num(st.mig_per_min));
	json_object_set_new(doc, "workers", json_integer(st.nworkers));
	json_object_set_new(doc, "working", json_integer(st.nworking));
	json_object_set_new(doc, "failed", json_integer(st.nfailed));
	json_object_set_new(doc, "dropped", json_integer(st.ndropped));
	json_object_set_new(doc, "restarts", json_integer(st.restarts));
	if (rs != NULL)
		json_object_set_new(doc, "events", json_pack("{s:I,s:I,s:I,s:I}", "lines",
		    (json_int_t)rs->lines, "read", (json_int_t)rs->events, "bad",
		    (json_int_t)rs->bad, "unknown", (json_int_t)rs->unknown));
	json_object_set_new(doc, "hist_seconds", jsonout_num(m->hist_w));

	ranks = json_array();
	for (i = 0; i < m->nranks; i++) {
		r = &m->ranks[i];
		if (!r->known)
			continue;
		rk = json_object();
		json_object_set_new(rk, "rank", json_integer(r->rank));
		json_object_set_new(rk, "node", json_string(r->node));
		json_object_set_new(rk, "site", json_string(r->site));
		json_object_set_new(rk, "role", json_string(r->master ? "master" :
		    r->submaster ? "sub-master" : "worker"));
		/* as the start record has it: the master none, a lone worker its own */
		if (m->ngroups > 0)
			json_object_set_new(rk, "group", r->master ? json_null() :
			    json_integer(r->group >= 0 ? r->group : r->rank));
		json_object_set_new(rk, "pf", jsonout_num(r->pf));
		json_object_set_new(rk, "pr", jsonout_num(r->pr));
		json_object_set_new(rk, "units", json_integer(r->units));
		json_object_set_new(rk, "last_units", json_integer(r->last_units));
		json_object_set_new(rk, "chunks", json_integer(r->chunks));
		json_object_set_new(rk, "t_calc", jsonout_num(r->t_calc));
		json_object_set_new(rk, "t_comm", jsonout_num(r->t_comm));
		json_object_set_new(rk, "t_idle", jsonout_num(model_rank_idle(m, r)));
		json_object_set_new(rk, "perf_f", jsonout_num(r->perf_f));
		json_object_set_new(rk, "state",
		    json_string(model_state_name(model_rank_state(m, r))));
		if (*r->reason != '\0')
			json_object_set_new(rk, "reason", json_string(r->reason));
		if (m->task_run) {
			tasks = json_array();
			for (k = 0; k < r->ntasks; k++)
				json_array_append_new(tasks, json_integer(r->tasks[k]));
			json_object_set_new(rk, "tasks", tasks);
			json_object_set_new(rk, "migrations_in", json_integer(r->mig_in));
			json_object_set_new(rk, "migrations_out", json_integer(r->mig_out));
		}
		hist = json_array();
		for (k = 0; k < hlen; k++)
			json_array_append_new(hist, jsonout_num(r->hist[k] / m->hist_w));
		json_object_set_new(rk, "rate_history", hist);
		json_array_append_new(ranks, rk);
	}
	json_object_set_new(doc, "per_rank", ranks);
	json_object_set_new(doc, "per_node", snapshot_nodes_sum_json(m, &st));
	json_object_set_new(doc, "node_values", snapshot_nodes_json(m));

	log = json_array();
	for (i = (m->nlog < MODEL_LOG ? m->nlog : MODEL_LOG) - 1; i >= 0; i--) {
		lg = model_log_get(m, i);
		json_array_append_new(log, json_pack("{s:o,s:s,s:s}", "t", jsonout_num(lg->t), "kind",
		    event_kind_name(lg->kind), "text", lg->text));
	}
	json_object_set_new(doc, "log", log);
	return jsonout_write(doc, f);
}
