/* view.c — the rank table's rows: filtered, sorted within their site, folded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "tui/view.h"

static const char *const screen_names[SCREEN_N] = { "Ranks", "Timeline", "Events" };

const char *const col_names[COL_N] = {
	"RANK", "NODE", "SITE", "PF", "PR", "UNITS", "LAST", "T_CALC", "T_COMM", "IDLE",
	"PERF_F", "STATE", "BAR", "RATE", "TASKS", "MIG I/O"
};

void
view_init(struct view *v, const struct model *m)
{
	memset(v, 0, sizeof *v);
	v->m = m;
	v->interval = 1.0;
	v->speed = 1.0;
	v->sort = COL_RANK;
	v->sel_row.kind = ROW_SITE;
	v->sel_row.id = -1;
}

void
view_free(struct view *v)
{
	free(v->rows);
	free(v->folded);
	free(v->gfolded);
	free(v->pos);
	v->rows = NULL;
	v->folded = NULL;
	v->gfolded = NULL;
	v->pos = NULL;
}

int
view_site_folded(const struct view *v, int site)
{
	return site >= 0 && site < v->nfolded && v->folded[site];
}

void
view_toggle_fold(struct view *v, int site)
{
	if (site < 0)
		return;
	if (site >= v->nfolded) {
		v->folded = xreallocarray(v->folded, site + 1, 1);
		memset(v->folded + v->nfolded, 0, site + 1 - v->nfolded);
		v->nfolded = site + 1;
	}
	v->folded[site] = !v->folded[site];
}

int
view_rank_matches(const struct view *v, const struct mrank *r, const char *text)
{
	char id[16];

	if (*text == '\0')
		return 1;
	snprintf(id, sizeof id, "%d", r->rank);
	return strcmp(id, text) == 0 || strcasestr(r->node, text) != NULL ||
	    strcasestr(r->site, text) != NULL ||
	    strcasestr(model_state_name(model_rank_state(v->m, r)), text) != NULL;
}

static int
view_cmp_dbl(double a, double b)
{
	/* Unknown values (NaN) sort after every number. */
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return a < b ? -1 : a > b;
}

static int
view_cmp(const void *pa, const void *pb, void *arg)
{
	const struct view *v = arg;
	const struct model *m = v->m;
	const struct mrank *a = &m->ranks[*(const int *)pa];
	const struct mrank *b = &m->ranks[*(const int *)pb];
	int c = 0;

	/* Sites keep the order they were declared in; sorting is within a site. */
	if (a->site_idx != b->site_idx)
		return a->site_idx - b->site_idx;
	switch (v->sort) {
	case COL_NODE:
		c = strcmp(a->node, b->node);
		break;
	case COL_SITE:
		c = strcmp(a->site, b->site);
		break;
	case COL_PF:
		c = view_cmp_dbl(a->pf, b->pf);
		break;
	case COL_PR:
		c = view_cmp_dbl(a->pr, b->pr);
		break;
	case COL_UNITS:
		c = (a->units > b->units) - (a->units < b->units);
		break;
	case COL_LAST:
		c = (a->last_units > b->last_units) - (a->last_units < b->last_units);
		break;
	case COL_CALC:
		c = view_cmp_dbl(a->t_calc, b->t_calc);
		break;
	case COL_COMM:
		c = view_cmp_dbl(a->t_comm, b->t_comm);
		break;
	case COL_IDLE:
		c = view_cmp_dbl(model_rank_idle(m, a), model_rank_idle(m, b));
		break;
	case COL_PERF:
		c = view_cmp_dbl(a->perf_f, b->perf_f);
		break;
	case COL_STATE:
		c = strcmp(model_state_name(model_rank_state(m, a)),
		    model_state_name(model_rank_state(m, b)));
		break;
	default:
		break;
	}
	if (v->invert)
		c = -c;
	if (c == 0)
		c = a->rank - b->rank;
	return c;
}

void
view_add(struct view *v, enum row_kind kind, int id)
{
	if (v->nrows == v->rowcap) {
		v->rowcap = v->rowcap ? 2 * v->rowcap : 64;
		v->rows = xreallocarray(v->rows, v->rowcap, sizeof *v->rows);
	}
	v->rows[v->nrows].kind = kind;
	v->rows[v->nrows].id = id;
	v->nrows++;
}

/* The ranks of one node together (site, then node name), each node's in the view's order. */
static int
view_cmp_node(const void *pa, const void *pb, void *arg)
{
	const struct view *v = arg;
	const struct mrank *a = &v->m->ranks[*(const int *)pa];
	const struct mrank *b = &v->m->ranks[*(const int *)pb];
	int c;

	if (a->site_idx != b->site_idx)
		return a->site_idx - b->site_idx;
	if ((c = strcmp(a->node, b->node)) != 0)
		return c;
	return v->pos[a->rank] - v->pos[b->rank];
}

/* Same site and node name: a (site, node) order of ranks, for view_any_shared. */
static int
view_cmp_place(const void *pa, const void *pb, void *arg)
{
	const struct model *m = arg;
	const struct mrank *a = &m->ranks[*(const int *)pa];
	const struct mrank *b = &m->ranks[*(const int *)pb];

	if (a->site_idx != b->site_idx)
		return a->site_idx - b->site_idx;
	return strcmp(a->node, b->node);
}

/*
 * Does a node hold several known ranks? Found again only when the placement changes
 * (model.placed): without shared nodes there are no node rows to find, and a frame of
 * 10,000 ranks no longer sorts them all by node name to learn it.
 */
static int
view_any_shared(const struct model *m)
{
	int *idx, n = 0, i, shared = 0;

	idx = xreallocarray(NULL, m->nranks ? m->nranks : 1, sizeof *idx);
	for (i = 0; i < m->nranks; i++)
		if (m->ranks[i].known)
			idx[n++] = i;
	qsort_r(idx, n, sizeof *idx, view_cmp_place, (void *)m);
	for (i = 1; i < n && !shared; i++)
		shared = view_cmp_place(&idx[i - 1], &idx[i], (void *)m) == 0;
	free(idx);
	return shared;
}

/*
 * The rank rows of idx (n ranks of one site or one group, in the view's order): a node
 * that holds several of the ranks as a node row with its ranks after it, where the first
 * of them comes (as htop puts children under their parent).
 */
void
view_node_rows(struct view *v, const int *idx, int n)
{
	const struct model *m = v->m;
	int *grp, *first, *len, i, j, k, low;

	if (!v->shared) {
		for (i = 0; i < n; i++)
			view_add(v, ROW_RANK, idx[i]);
		return;
	}
	grp = xreallocarray(NULL, n ? n : 1, sizeof *grp);
	first = xreallocarray(NULL, m->nranks ? m->nranks : 1, sizeof *first);
	len = xreallocarray(NULL, m->nranks ? m->nranks : 1, sizeof *len);
	memcpy(grp, idx, n * sizeof *grp);
	qsort_r(grp, n, sizeof *grp, view_cmp_node, v);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && m->ranks[grp[i]].site_idx == m->ranks[grp[j]].site_idx &&
		    strcmp(m->ranks[grp[i]].node, m->ranks[grp[j]].node) == 0; j++)
			;
		for (k = i; k < j; k++) {
			first[grp[k]] = i;
			len[grp[k]] = j - i;
		}
	}
	for (i = 0; i < n; i++) {
		if (len[idx[i]] == 1) {
			view_add(v, ROW_RANK, idx[i]);
			continue;
		}
		/* a node's first rank in the view's order brings the node row and the others */
		if (grp[first[idx[i]]] != idx[i])
			continue;
		for (k = 0, low = idx[i]; k < len[idx[i]]; k++)
			if (grp[first[idx[i]] + k] < low)
				low = grp[first[idx[i]] + k];
		view_add(v, ROW_NODE, low);
		for (k = 0; k < len[idx[i]]; k++)
			view_add(v, ROW_RANK, grp[first[idx[i]] + k]);
	}
	free(len);
	free(first);
	free(grp);
}

/* The rows from idx (n ranks in the view's order): a site row before each site's ranks. */
static void
view_rows(struct view *v, const int *idx, int n)
{
	const struct model *m = v->m;
	int i, j, site;

	v->nrows = 0;
	for (i = 0; i < n; i = j) {
		site = m->ranks[idx[i]].site_idx;
		for (j = i + 1; j < n && m->ranks[idx[j]].site_idx == site; j++)
			;
		view_add(v, ROW_SITE, site);
		if (view_site_folded(v, site))
			continue;
		if (m->ngroups > 0)
			view_group_rows(v, idx + i, j - i);
		else
			view_node_rows(v, idx + i, j - i);
	}
}

/*
 * idx (n ranks in id order) in the order view_cmp gives when sorting by RANK: by site,
 * then by id. A stable count by site does it in O(n): the default sort, at every draw,
 * took a sort of every rank (10,000 at a time) before.
 */
static void
view_by_site(const struct view *v, int *idx, int n)
{
	const struct model *m = v->m;
	int *at, *out, i, s;

	at = xcalloc(m->nsites + 1, sizeof *at);
	out = xreallocarray(NULL, n ? n : 1, sizeof *out);
	for (i = 0; i < n; i++)
		at[m->ranks[idx[i]].site_idx + 1]++;
	for (s = 1; s <= m->nsites; s++)
		at[s] += at[s - 1];
	for (i = 0; i < n; i++)
		out[at[m->ranks[idx[i]].site_idx]++] = idx[i];
	memcpy(idx, out, n * sizeof *idx);
	free(out);
	free(at);
}

void
view_build(struct view *v)
{
	const struct model *m = v->m;
	int *idx, n = 0, i;

	if (!v->shared_valid || v->placed_seen != m->placed) {
		v->shared = view_any_shared(m);
		v->placed_seen = m->placed;
		v->shared_valid = 1;
	}
	idx = xreallocarray(NULL, m->nranks ? m->nranks : 1, sizeof *idx);
	v->pos = xreallocarray(v->pos, m->nranks ? m->nranks : 1, sizeof *v->pos);
	for (i = 0; i < m->nranks; i++)
		if (m->ranks[i].known && view_rank_matches(v, &m->ranks[i], v->filter))
			idx[n++] = i;
	if (v->sort == COL_RANK && !v->invert)
		view_by_site(v, idx, n);
	else
		qsort_r(idx, n, sizeof *idx, view_cmp, v);
	for (i = 0; i < n; i++)
		v->pos[idx[i]] = i;
	view_rows(v, idx, n);
	free(idx);

	/* Keep the selection on the same site, node or rank if it is still there. */
	for (i = 0; i < v->nrows; i++)
		if (v->rows[i].kind == v->sel_row.kind && v->rows[i].id == v->sel_row.id) {
			v->sel = i;
			break;
		}
	if (v->sel >= v->nrows)
		v->sel = v->nrows - 1;
	if (v->sel < 0)
		v->sel = 0;
	if (v->nrows > 0)
		v->sel_row = v->rows[v->sel];
}

static int
view_row_matches(const struct view *v, const struct row *row, const char *text)
{
	if (row->kind == ROW_SITE)
		return strcasestr(v->m->sites[row->id].name, text) != NULL;
	if (row->kind == ROW_NODE)
		return strcasestr(v->m->ranks[row->id].node, text) != NULL;
	return view_rank_matches(v, &v->m->ranks[row->id], text);
}

int
view_search_next(struct view *v, const char *text, int from_next)
{
	int i, k;

	if (*text == '\0' || v->nrows == 0)
		return 0;
	for (k = from_next ? 1 : 0; k <= v->nrows; k++) {
		i = (v->sel + k) % v->nrows;
		if (view_row_matches(v, &v->rows[i], text)) {
			v->sel = i;
			v->sel_row = v->rows[i];
			return 1;
		}
	}
	return 0;
}

int
view_window(struct view *v, int lines, int *hidden)
{
	int shown = lines, i;

	if (v->nrows > lines)
		shown = lines - 1;
	if (shown < 1)
		shown = lines > 0 ? 1 : 0;
	v->table_h = shown;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + shown)
		v->top = v->sel - shown + 1;
	if (v->top > v->nrows - shown)
		v->top = v->nrows - shown;
	if (v->top < 0)
		v->top = 0;
	*hidden = 0;
	for (i = 0; i < v->nrows; i++)
		if (v->rows[i].kind == ROW_RANK && (i < v->top || i >= v->top + shown))
			(*hidden)++;
	return shown < v->nrows - v->top ? shown : v->nrows - v->top;
}

const char *
view_screen_name(enum view_screen s)
{
	return s >= 0 && s < SCREEN_N ? screen_names[s] : "?";
}
