/*
 * model-plain.c — a job without events (a program that never starts libgrt): what is known
 * of it without them, from its directory. Its ranks as DIR/rankmap places them (node, site,
 * PF, PR), and each rank's end as its wrapper recorded it in DIR/rank-ends
 * (common/rank-end.h), logged as it comes, so the console shows ranks, nodes, states and
 * exit statuses instead of an empty screen waiting for events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/rank-end.h"
#include "common/rankmap.h"
#include "common/xmalloc.h"
#include "tui/model.h"


/* DIR/rankmap's "rank node site pf pr cpu_mhz" lines into the rank table (once). */
static void
plain_rankmap(struct model *m, const char *dir)
{
	struct rankmap_row *rows;
	struct mrank *r;
	size_t n, i;

	if (rankmap_read(dir, &rows, &n) == -1)
		return;
	for (i = 0; i < n; i++) {
		if (rows[i].rank >= EV_RANK_MAX)
			continue;
		/* model_rank puts a new rank in site "-": the rankmap's site instead */
		r = model_rank(m, rows[i].rank);
		m->sites[r->site_idx].nranks--;
		snprintf(r->node, sizeof r->node, "%.*s", (int)sizeof r->node - 1,
		    rows[i].node);
		snprintf(r->site, sizeof r->site, "%.*s", (int)sizeof r->site - 1,
		    rows[i].site);
		r->site_idx = model_site_index(m, r->site);
		m->placed++;
		m->sites[r->site_idx].nranks++;
		r->pf = rows[i].pf;
		r->pr = rows[i].pr;
	}
	free(rows);
	m->plain = 1;
	m->gen++;
}

void
model_plain(struct model *m, const char *dir)
{
	struct rank_end *v;
	struct event ev;
	struct mrank *r;
	size_t n, i;

	if (m->started || dir == NULL)
		return;
	if (!m->plain)
		plain_rankmap(m, dir);
	if (!m->plain || rank_ends_read(dir, &v, &n) != 0 || n <= (size_t)m->nends)
		return;
	memset(&ev, 0, sizeof ev);
	ev.t = m->now;
	for (i = (size_t)m->nends; i < n; i++) {
		r = model_rank(m, v[i].rank);
		ev.kind = rank_end_failed(&v[i]) ? EV_FAIL : EV_END;
		if (v[i].signal != 0)
			snprintf(r->reason, sizeof r->reason, "signal %d", v[i].signal);
		else
			snprintf(r->reason, sizeof r->reason, "exit %d", v[i].exit);
		r->fixed = rank_end_failed(&v[i]) ? RS_FAILED : RS_DONE;
		r->t_stop = m->now;
		m->nfailed += r->fixed == RS_FAILED;
		model_log(m, &ev, v[i].rank, -1, "rank %d on %s: %s", v[i].rank, r->node,
		    r->reason);
	}
	m->nends = (int)n;
	m->gen++;
	free(v);
}
