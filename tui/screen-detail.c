/*
 * screen-detail.c — Enter on a rank: all it is known to have done (in a task run, the
 * tasks it holds and its migrations), its rate history, and its events (chunks, drops,
 * failures, migrations with their reasons), newest last, scrolled with PgUp/PgDn.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "tui/meter.h"
#include "tui/screen.h"
#include "tui/track.h"

/* One event of the rank as a line of text. */
static void
detail_event(char *buf, size_t sz, const struct model *m, const struct track *t,
    const struct track_ev *e)
{
	const char *why;

	switch (e->kind) {
	case EV_CHUNK:
		/* a step of a task: start = task * steps + step (doc/runtime.md, "Events") */
		if (m->task_run && m->steps > 0 && e->count == 1) {
			snprintf(buf, sz, "%9.2f chunk    task %lld step %lld, calc %.3f s, comm "
			    "%.3f s, exe %.3f s", e->t, e->start / m->steps, e->start % m->steps,
			    e->t_calc, e->t_comm, e->t_exe);
			break;
		}
		/* what matters first, for a narrow terminal */
		snprintf(buf, sz, "%9.2f chunk    %lld units, calc %.3f s, comm %.3f s, exe %.3f s, "
		    "units %lld-%lld, round %d", e->t, e->count, e->t_calc, e->t_comm, e->t_exe,
		    e->start, e->start + e->count - 1, e->round);
		break;
	case EV_DROP:
		snprintf(buf, sz, "%9.2f drop     dropped: %s", e->t, *t->drop_why ? t->drop_why :
		    "no reason given");
		break;
	case EV_FAIL:
		snprintf(buf, sz, "%9.2f fail     failed, %lld units requeued: %s", e->t, e->count,
		    *t->fail_why ? t->fail_why : "no reason given");
		break;
	case EV_MIGRATE:
		why = track_why(t, e);
		snprintf(buf, sz, "%9.2f migrate  task %lld %s rank %d, %.1f KiB in %.3f s%s%s%s",
		    e->t, e->start, e->out ? "to" : "from", e->other, e->count / 1024.0, e->t_exe,
		    why ? " (" : "", why ? why : "", why ? ")" : "");
		break;
	default:
		snprintf(buf, sz, "%9.2f %s", e->t, event_kind_name(e->kind));
		break;
	}
}

/*
 * The rank's events in lines y0..y1 (exclusive), the newest on the last line unless
 * scrolled back (v->detail_back, clamped here); a line above and below says how many more
 * there are that way.
 */
static void
detail_events(struct view *v, const struct mrank *r, int y0, int y1, int w)
{
	const struct track *t = r->track;
	int n = track_kept(t), lines = y1 - y0 - 1, first, i, y;
	long long older = t != NULL ? t->nev - n : 0;
	char buf[512];

	if (lines < 1)
		return;
	if (n == 0) {
		screen_text(y0, 0, w, crt_attr(C_LABEL), "Events of this rank: none yet");
		return;
	}
	/* one line each for "earlier" and "later" when the list does not fit */
	if (n > lines)
		lines = lines > 2 ? lines - 1 : 1;
	if (v->detail_back > n - lines)
		v->detail_back = n > lines ? n - lines : 0;
	v->detail_page = lines;
	first = n - lines - v->detail_back;
	if (first < 0)
		first = 0;
	snprintf(buf, sizeof buf, "%d earlier: PgUp Home", first);
	screen_textf(y0, 0, w, crt_attr(C_LABEL), "Events of this rank (%d%s), newest last%s%s",
	    n, older > 0 ? ", older ones not kept" : "", first > 0 ? "; " : "",
	    first > 0 ? buf : "");
	for (i = 0, y = y0 + 1; i < lines && first + i < n; i++, y++) {
		detail_event(buf, sizeof buf, v->m, t, track_get(t, first + i));
		screen_text(y, 0, w, track_get(t, first + i)->kind == EV_CHUNK ? A_NORMAL :
		    crt_attr(C_WARN), buf);
	}
	if (v->detail_back > 0)
		screen_textf(y, 0, w, crt_attr(C_LABEL), "%d later: PgDn End", v->detail_back);
}

void
screen_detail_draw(struct view *v, const struct model_stats *st, int h, int w)
{
	const struct model *m = v->m;
	const struct mrank *r;
	char buf[1024], a[32], chunks[48];
	double max = 0, idle;
	enum rank_state s;
	int y = 0, i, hlen, x, roomy = h >= 30;

	if (v->detail_rank < 0 || v->detail_rank >= m->nranks) {
		v->mode = MODE_MAIN;
		return;
	}
	r = &m->ranks[v->detail_rank];
	s = model_rank_state(m, r);
	idle = model_rank_idle(m, r);
	screen_fill(y, 0, w, crt_attr(C_TITLE));
	screen_textf(y++, 0, w, crt_attr(C_TITLE), "Rank %d  %s  site %s  %s", r->rank,
	    r->node, r->site, r->master ? "master" : r->submaster ? "sub-master" : "worker");
	y += roomy;
	x = screen_put(y, 0, w, crt_attr(C_LABEL), "State   ");
	x += screen_put(y, x, w - x, crt_attr(screen_state_color(s)), model_state_name(s));
	if (*r->reason != '\0')
		screen_textf(y, x, w - x, A_NORMAL, "  (%s)", r->reason);
	y++;
	screen_textf(y++, 0, w, A_NORMAL, "PF %.3f   PR %.3f", r->pf, r->pr);
	if (m->ngroups > 0)
		screen_textf(y++, 0, w, A_NORMAL, "Group   %s",
		    model_group_text(m, r, buf, sizeof buf));
	screen_textf(y++, 0, w, A_NORMAL, "Units   %lld done in %s, last %lld", r->units,
	    text_plural(chunks, sizeof chunks, r->chunks, "chunk", NULL), r->last_units);
	screen_textf(y++, 0, w, A_NORMAL, "Times   t_calc %.3f s   t_comm %.3f s   idle %s s",
	    r->t_calc, r->t_comm, isfinite(idle) ? text_num(a, sizeof a, idle, 3, 10) : "-");
	screen_textf(y++, 0, w, A_NORMAL, "perf_f  %s units/s   last t_exe %.3f s",
	    isfinite(r->perf_f) ? text_num(a, sizeof a, r->perf_f, 2, 12) : "-", r->last_exe);
	if (m->task_run) {
		model_tasks_text(m, r, buf, sizeof buf, w - 40 > 8 ? w - 40 : 8);
		screen_textf(y++, 0, w, A_NORMAL, "Tasks   %s   migrations %lld in, %lld out", buf,
		    r->mig_in, r->mig_out);
	}
	y += roomy;
	meter_bar(buf, w - 2 > 60 ? 60 : w - 2, r->t_calc, r->t_comm, idle, st->elapsed, NULL);
	screen_putf(y++, 0, w, A_NORMAL, "[%s]", buf);
	y += roomy;
	/* the rate history where there is room for it and a few events */
	if (h - y >= 9) {
		hlen = model_hist_len(m);
		for (i = 0; i < hlen; i++)
			if (r->hist[i] > max)
				max = r->hist[i];
		screen_textf(y++, 0, w, crt_attr(C_LABEL),
		    "Unit rate, %g s per column, peak %.1f units/s:", m->hist_w, max / m->hist_w);
		meter_spark(buf, sizeof buf, r->hist, hlen, 1.0 / m->hist_w, max / m->hist_w,
		    w - 2 < MODEL_HIST ? w - 2 : MODEL_HIST, crt_utf8);
		screen_putf(y++, 0, w, crt_attr(C_SPARK), "|%s|", buf);
		y += roomy;
	}
	detail_events(v, r, y, h - 1, w);
	screen_text(h - 1, 0, w, crt_attr(C_LABEL),
	    "Esc back  Up/Down other ranks  PgUp/PgDn events  q quit");
}
