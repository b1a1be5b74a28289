/* screen-detail.c — Enter on a rank: all it is known to have done, and its rate history. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "meter.h"
#include "screen.h"
#include "text.h"

void
screen_detail_draw(struct view *v, const struct model_stats *st, int h, int w)
{
	const struct model *m = v->m;
	const struct mrank *r;
	const struct mlog *l;
	char buf[1024], a[32];
	double max = 0, idle;
	enum rank_state s;
	int y = 0, i, hlen, x;

	if (v->detail_rank < 0 || v->detail_rank >= m->nranks) {
		v->mode = MODE_MAIN;
		return;
	}
	r = &m->ranks[v->detail_rank];
	s = model_rank_state(m, r);
	idle = model_rank_idle(m, r);
	screen_fill(y, 0, w, crt_attr(C_TITLE));
	screen_putf(y++, 0, w, crt_attr(C_TITLE), "Rank %d  %s  site %s  %s", r->rank, r->node,
	    r->site, r->master ? "master" : "worker");
	y++;
	x = screen_put(y, 0, w, crt_attr(C_LABEL), "State   ");
	x += screen_put(y, x, w - x, crt_attr(screen_state_color(s)), model_state_name(s));
	if (*r->reason != '\0')
		screen_putf(y, x, w - x, A_NORMAL, "  (%s)", r->reason);
	y++;
	screen_putf(y++, 0, w, A_NORMAL, "PF %.3f   PR %.3f", r->pf, r->pr);
	screen_putf(y++, 0, w, A_NORMAL, "Units   %lld done in %lld chunks, last %lld",
	    r->units, r->chunks, r->last_units);
	screen_putf(y++, 0, w, A_NORMAL, "Times   t_calc %.3f s   t_comm %.3f s   idle %s s",
	    r->t_calc, r->t_comm, isfinite(idle) ? text_num(a, sizeof a, idle, 3, 10) : "-");
	screen_putf(y++, 0, w, A_NORMAL, "perf_f  %s units/s   last t_exe %.3f s",
	    isfinite(r->perf_f) ? text_num(a, sizeof a, r->perf_f, 2, 12) : "-", r->last_exe);
	y++;
	meter_bar(buf, w - 2 > 60 ? 60 : w - 2, r->t_calc, r->t_comm, idle, st->elapsed, NULL);
	screen_putf(y++, 0, w, A_NORMAL, "[%s]", buf);
	y++;
	hlen = model_hist_len(m);
	for (i = 0; i < hlen; i++)
		if (r->hist[i] > max)
			max = r->hist[i];
	screen_putf(y++, 0, w, crt_attr(C_LABEL),
	    "Unit rate, %g s per column, peak %.1f units/s:", m->hist_w, max / m->hist_w);
	meter_spark(buf, sizeof buf, r->hist, hlen, 1.0 / m->hist_w, max / m->hist_w,
	    w - 2 < MODEL_HIST ? w - 2 : MODEL_HIST, crt_utf8);
	screen_putf(y++, 0, w, crt_attr(C_SPARK), "|%s|", buf);
	y++;
	screen_put(y++, 0, w, crt_attr(C_LABEL), "Events of this rank:");
	for (i = 0; y < h - 1 && model_log_get(m, i) != NULL; i++) {
		l = model_log_get(m, i);
		if (l->rank != r->rank && l->other != r->rank)
			continue;
		screen_putf(y++, 0, w, A_NORMAL, "%9.2f %-8s %s", l->t, event_kind_name(l->kind),
		    l->text);
	}
	screen_put(h - 1, 0, w, crt_attr(C_LABEL), "Esc/Enter back   Up/Down other ranks   q quit");
}
