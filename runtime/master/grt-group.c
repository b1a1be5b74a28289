/*
 * grt-group.c — the master under a hierarchy (doc/runtime.md, "The hierarchy"): the groups
 * made from the rank map (cfg->hierarchy: a site each, or N workers each, in the rank map's
 * order of sites), each led by its first rank, a sub-master (runtime/sub/) that the master
 * schedules as one worker whose PR and clock are its workers' sums; a group of one rank is
 * a plain worker. The sub-master's result of a chunk carries every part its workers
 * computed: each is merged, journaled and recorded as a chunk of its real rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/master/grt-master.h"

/* The site of rank r, "" without a rank map. */
static const char *
group_site(const struct master *m, int r)
{
	return r < m->nri ? m->ri[r].site : "";
}

/*
 * order: ranks 1..size-1, those of a site together, the sites in the order the rank map
 * first names them. Returns the number of sites.
 */
static int
group_order(const struct master *m, int *order, int *site)
{
	int r, i, n = 0, nsites = 0, s;

	for (r = 1; r < m->size; r++) {
		site[r] = -1;
		for (i = 1; i < r && site[r] < 0; i++)
			if (strcmp(group_site(m, i), group_site(m, r)) == 0)
				site[r] = site[i];
		if (site[r] < 0)
			site[r] = nsites++;
	}
	for (s = 0; s < nsites; s++)
		for (r = 1; r < m->size; r++)
			if (site[r] == s)
				order[n++] = r;
	return nsites;
}

/* The groups' first ranks and sizes, by the kind of hierarchy; their number. */
static int
group_cut(const struct master *m, int per, const int *order, const int *site, int *first,
    int *len)
{
	int i, n = 0;

	for (i = 0; i < m->size - 1; i++) {
		int same = n > 0 && (per >= 2 ? len[n - 1] < per + 1 :
		    site[order[i]] == site[order[first[n - 1]]]);

		if (same) {
			len[n - 1]++;
			continue;
		}
		first[n] = i;
		len[n++] = 1;
	}
	return n;
}

/* Worker index w leads (or is) the group of order[first .. first+len). */
static void
group_place(struct master *m, int w, const int *order, int first, int len)
{
	int i, lead = order[first];

	m->grp.wrank[w] = lead;
	m->grp.rankw[lead] = w;
	m->grp.first[w] = first;
	m->w[w].group = len - 1;
	for (i = 0; i < len; i++)
		m->grp.group_of[order[first + i]] = w;
}

/* Group w's PR and clock: its workers' sums (its own when it is a plain worker). */
static void
group_speed(struct master *m, int w, int have_pr, int have_cpu)
{
	int i, n = m->w[w].group, from = n > 0 ? 1 : 0;

	if (have_pr)
		m->pr[w] = 0;
	if (have_cpu)
		m->cpu[w] = 0;
	for (i = from; i <= n; i++) {
		int r = m->grp.order[m->grp.first[w] + i];

		if (have_pr)
			m->pr[w] += m->ri[r].pr;
		if (have_cpu)
			m->cpu[w] += m->ri[r].cpu_mhz;
	}
}

/*
 * pss and css deal a worker a fixed k units (1 for pss): a group's chunk is then k units
 * per worker of the mean group, so that a sub-master has a piece for each of its workers
 * (seed 002's skeleton at each level: a group's chunk is its workers' chunks together).
 * The schemes whose chunks follow R/P deal groups as they are.
 */
static void
group_grain(struct master *m, int ng)
{
	int64_t k, per = ((int64_t)m->size - 1 + ng - 1) / ng;

	if (m->conf.scheme != GRT_SCHEME_PSS && m->conf.scheme != GRT_SCHEME_CSS)
		return;
	k = m->conf.scheme == GRT_SCHEME_PSS ? 1 : m->conf.k;
	m->conf.scheme = GRT_SCHEME_CSS;
	m->conf.k = k * (per > 1 ? per - 1 : 1);
}

/* Every sub-master hears its workers (their rank, PR and clock) in one ROLE. */
static int
group_tell(struct master *m)
{
	grt_buf b = { NULL, 0, 0 };
	MPI_Request req;
	int w, i, rc = GRT_OK;

	for (w = 0; w < m->nw && rc == GRT_OK; w++) {
		struct grt_msg_role role;

		if (m->w[w].group == 0)
			continue;
		role.boss = 0;
		role.nworkers = m->w[w].group;
		b.len = 0;
		rc = grt_buf_append(&b, &role, sizeof role);
		for (i = 1; i <= role.nworkers && rc == GRT_OK; i++) {
			struct grt_msg_member mb = { 0 };

			mb.rank = m->grp.order[m->grp.first[w] + i];
			mb.pr = mb.rank < m->nri ? m->ri[mb.rank].pr : 0;
			mb.cpu_mhz = mb.rank < m->nri ? m->ri[mb.rank].cpu_mhz : 0;
			rc = grt_buf_append(&b, &mb, sizeof mb);
		}
		if (rc == GRT_OK && (rc = grt_comm_isend(b.data, b.len, w_rank(m, w),
		    GRT_TAG_ROLE, m->comm, &req)) == GRT_OK &&
		    MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			rc = GRT_EMPI;
	}
	grt_buf_free(&b);
	return rc;
}

static int
group_alloc(struct master *m)
{
	int n = m->size;

	if ((m->grp.order = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.site = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.wrank = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.rankw = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.first = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.len = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.group_of = malloc((size_t)n * sizeof(int))) == NULL ||
	    (m->grp.rs = calloc((size_t)n, sizeof *m->grp.rs)) == NULL)
		return GRT_ENOMEM;
	return GRT_OK;
}

/*
 * The groups, when cfg->hierarchy makes more than one of them and at least one sub-master;
 * else nothing changes (m->grp.on stays 0). Called once the rank map is read, before the
 * scheme is made: m->nw becomes the master's own slot (master computes) and the groups.
 */
int
master_group_setup(struct master *m)
{
	int hier = m->cfg->hierarchy, nsites, ng, g, w, i, rc, have_pr, have_cpu;
	int *first, *len;

	if (hier == GRT_HIER_NONE || m->size < 3)
		return GRT_OK;
	/*
	 * A sub-master packs its workers' inputs without the master's merged state: after
	 * round 1 an input may depend on it (grt.h, cfg.hierarchy)
	 */
	if (m->app->pack != NULL && m->app->rounds > 1) {
		if (hier == GRT_HIER_AUTO)
			return GRT_OK;
		snprintf(m->rep->why, sizeof m->rep->why, "hierarchy: a program that packs "
		    "inputs (pack) runs its %d rounds without sub-masters: set hierarchy: "
		    "none", m->app->rounds);
		return GRT_EINVAL;
	}
	if ((rc = group_alloc(m)) != GRT_OK)
		return rc;
	nsites = group_order(m, m->grp.order, m->grp.site);
	if (hier == GRT_HIER_AUTO)
		hier = nsites >= 2 && m->size >= GRT_HIER_AUTO_RANKS ? GRT_HIER_SITE :
		    GRT_HIER_NONE;
	if (hier == GRT_HIER_NONE)
		return GRT_OK;
	if ((first = malloc((size_t)m->size * sizeof *first)) == NULL)
		return GRT_ENOMEM;
	len = m->grp.len;
	ng = group_cut(m, hier, m->grp.order, m->grp.site, first, len);
	for (g = 0, i = 0; g < ng; g++)
		i += len[g] > 1;
	if (ng < 2 || i == 0) {
		free(first);
		return GRT_OK;
	}
	if ((m->pr = malloc((size_t)m->size * sizeof *m->pr)) == NULL ||
	    (m->cpu = malloc((size_t)m->size * sizeof *m->cpu)) == NULL) {
		free(first);
		return GRT_ENOMEM;
	}
	m->grp.on = 1;
	for (i = 0; i < m->size; i++)
		m->grp.rankw[i] = m->grp.group_of[i] = -1;
	w = 0;
	if (m->off == 0) {
		m->grp.wrank[0] = 0;
		m->grp.rankw[0] = 0;
		m->grp.first[0] = 0;
		m->w[0].group = 0;
		w = 1;
	}
	for (g = 0; g < ng; g++)
		group_place(m, w + g, m->grp.order, first[g], len[g]);
	free(first);
	m->nw = w + ng;
	have_pr = have_cpu = m->nri >= m->size;
	for (i = m->off; i < m->size && have_pr + have_cpu > 0; i++) {
		have_pr &= m->ri[i].pr > 0;
		have_cpu &= m->ri[i].cpu_mhz > 0;
	}
	for (g = w; g < m->nw; g++)
		group_speed(m, g, have_pr, have_cpu);
	if (w == 1) {
		m->pr[0] = have_pr ? m->ri[0].pr : 0;
		m->cpu[0] = have_cpu ? m->ri[0].cpu_mhz : 0;
	}
	/* the application's own arrays are by flat worker index: not the groups' */
	m->conf.pr = have_pr ? m->pr : NULL;
	m->conf.cpu = have_cpu ? m->cpu : NULL;
	group_grain(m, ng);
	return group_tell(m);
}

/* The worker index of a message's source, or -1: a rank that does not answer the master. */
int
master_group_worker(const struct master *m, int rank)
{
	return rank >= 0 && rank < m->size ? m->grp.rankw[rank] : -1;
}

/*
 * Walk a sub-master's parts: each checked to fit; fn (when not NULL) called for each.
 * GRT_OK, GRT_EPROTO for a malformed list, or fn's error.
 */
static int
group_parts(struct master *m, const void *res, size_t reslen,
    int (*fn)(struct master *, const struct grt_msg_part *, const void *, void *), void *arg)
{
	const unsigned char *p = res, *end = p + reslen;
	struct grt_msg_part part;
	int rc;

	while (p < end) {
		if ((size_t)(end - p) < sizeof part)
			return GRT_EPROTO;
		memcpy(&part, p, sizeof part);
		p += sizeof part;
		if (part.len > (uint64_t)(end - p) || part.rank <= 0 || part.rank >= m->size ||
		    part.count < 0)
			return GRT_EPROTO;
		if (fn != NULL && (rc = fn(m, &part, p, arg)) != GRT_OK)
			return rc;
		p += part.len;
	}
	return GRT_OK;
}

/* A worker its sub-master failed: a fail event, counted in the report */
static int
group_note(struct master *m, const struct grt_msg_part *part, const void *bytes, void *arg)
{
	double now = *(const double *)arg;

	(void)bytes;
	if (part->kind != GRT_PART_FAILED)
		return GRT_OK;
	m->grp.rs[part->rank].failed = 1;
	m->rep->failed_ranks++;
	m->rep->requeued += part->count;
	master_fail_event(m, part->rank, part->count, "no result within its sub-master's "
	    "deadline, requeued in its group", now);
	return GRT_OK;
}

/* The failure notices of a sub-master's message, whatever becomes of its parts. */
int
master_group_notes(struct master *m, const void *res, size_t reslen, double now)
{
	return group_parts(m, res, reslen, group_note, &now);
}

struct group_check {
	const struct grt_chunk *c;
	int64_t units;
	double now;
};

/* A part within the chunk, counted */
static int
group_check(struct master *m, const struct grt_msg_part *part, const void *bytes, void *arg)
{
	struct group_check *gc = arg;

	(void)m;
	(void)bytes;
	if (part->kind != GRT_PART_RESULT)
		return GRT_OK;
	if (part->start < gc->c->start || part->count > gc->c->start + gc->c->count - part->start)
		return GRT_EPROTO;
	gc->units += part->count;
	return GRT_OK;
}

/* A part merged, journaled, and recorded for its real rank */
static int
group_merge(struct master *m, const struct grt_msg_part *part, const void *bytes, void *arg)
{
	struct group_check *gc = arg;
	struct grt_rankstat *rs = &m->grp.rs[part->rank];
	struct grt_chunk c;
	int rc;

	if (part->kind != GRT_PART_RESULT)
		return GRT_OK;
	c.start = part->start;
	c.count = part->count;
	if ((rc = master_merge(m, &c, bytes, part->len)) != GRT_OK)
		return rc;
	rs->units += c.count;
	rs->t_calc += part->t_calc;
	rs->t_exe += part->t_exe;
	rs->r_units += c.count;
	rs->r_exe += part->t_exe;
	master_chunk_event(m, part->rank, &c, part->t_calc, part->t_exe, gc->now);
	return GRT_OK;
}

/*
 * Sub-master w's result of chunk o (master_settle, not merged before): its parts must
 * cover the chunk's units; each is merged. The group's totals take the whole chunk.
 */
int
master_group_settle(struct master *m, int w, const struct outchunk *o, double t_calc,
    double t_exe, const void *res, size_t reslen, double now)
{
	struct group_check gc = { &o->c, 0, now };
	int rc;

	if ((rc = group_parts(m, res, reslen, group_check, &gc)) != GRT_OK)
		return rc;
	if (gc.units != o->c.count)
		return GRT_EPROTO;
	if ((rc = group_parts(m, res, reslen, group_merge, &gc)) != GRT_OK)
		return rc;
	master_account(m, w, &o->c, t_calc, t_exe, now);
	return GRT_OK;
}

/* STOP to the workers of a failed sub-master: nothing else will reach them. */
void
master_group_stop_orphans(struct master *m, int reason)
{
	static struct grt_msg_stop stop;
	MPI_Request req;
	int w, i;

	stop.reason = reason;
	stop.failure_seen = 1;
	for (w = 0; m->grp.on && w < m->nw; w++) {
		if (m->w[w].group == 0 || m->w[w].state != W_FAILED)
			continue;
		for (i = 1; i <= m->w[w].group; i++)
			if (grt_comm_isend(&stop, sizeof stop,
			    m->grp.order[m->grp.first[w] + i], GRT_TAG_STOP, m->comm,
			    &req) == GRT_OK)
				MPI_Request_free(&req);
	}
}

void
master_group_free(struct master *m)
{
	free(m->grp.order);
	free(m->grp.site);
	free(m->grp.wrank);
	free(m->grp.rankw);
	free(m->grp.first);
	free(m->grp.len);
	free(m->grp.group_of);
	free(m->grp.rs);
}
