/*
 * tui.c — the console's main loop: read new events, fold them into the model, redraw at
 * the refresh interval, and answer keys at once. It sleeps in poll() on the keyboard and
 * the signal pipe between redraws: no busy loop, and a refresh costs only the new events
 * plus one screen (ncurses sends only what changed).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/events-read.h"
#include "common/log.h"
#include "tui/crt.h"
#include "tui/model.h"
#include "tui/screen.h"
#include "tui/snapshot.h"
#include "tui/tui-cancel.h"
#include "tui/tui.h"
#include "tui/view.h"

#define TUI_BUDGET	200000	/* events folded in before looking at the keyboard again */

struct tui {
	const char *path;
	const struct tui_opts *opts;
	struct evreader *r;
	struct model m;
	struct view v;
	struct event ev;	/* read ahead: a replayed event not due yet */
	int have;
	int eof;		/* the last read found no complete line */
	double rbase_t;		/* replay: the recording's time at wall time rbase_mono */
	double rbase_mono;
	double wall_last;	/* live: when the newest event was read */
	int was_paused;
	struct tui_cancel cancel;	/* F9's command while it runs */
};

static double
tui_replay_clock(const struct tui *t, double now)
{
	if (t->v.paused)
		return t->rbase_t;
	return t->rbase_t + (now - t->rbase_mono) * t->v.speed;
}

/*
 * Fold in what is due: in live mode every new event, in replay mode those whose "t" the
 * replay clock has passed; one event when the user steps. Returns 1 when the budget ran
 * out with more to do, 0 otherwise, -1 on a read error.
 */
static int
tui_ingest(struct tui *t, double now)
{
	double rt = tui_replay_clock(t, now);
	int budget = TUI_BUDGET, k;

	/* after an end, a relaunch (restart, start) may follow: keep reading */
	if (t->r == NULL)
		return 0;
	if (t->v.paused && !t->v.step)
		return 0;
	for (;;) {
		if (!t->have) {
			k = evreader_next(t->r, &t->ev);
			if (k < 0)
				return -1;
			t->eof = k == 0;
			if (k == 0)
				break;
			t->have = 1;
			/* A recording that starts late starts at once. */
			if (t->opts->replay && t->m.events == 0 && t->ev.t > rt) {
				t->rbase_t = rt = t->ev.t;
				t->rbase_mono = now;
			}
		}
		if (t->opts->replay && !t->v.step && t->ev.t > rt)
			break;
		model_apply(&t->m, &t->ev);
		t->have = 0;
		t->wall_last = now;
		if (t->v.step) {
			t->v.step = 0;
			if (t->opts->replay && t->ev.t > t->rbase_t)
				t->rbase_t = t->ev.t;
			break;
		}
		if (t->m.ended)
			break;
		if (--budget == 0)
			return 1;
	}
	t->v.step = 0;
	return 0;
}

/* Move the model clock: replay time (not past the last event at the end of the file). */
static void
tui_clock(struct tui *t, double now)
{
	double c;

	if (t->v.paused)
		return;
	if (t->opts->replay) {
		c = tui_replay_clock(t, now);
		if (t->eof && !t->have && c > t->m.t_last)
			c = t->m.t_last;
	} else
		c = t->m.events > 0 ? t->m.t_last + (now - t->wall_last) : 0;
	model_set_clock(&t->m, c);
}

static void
tui_pause_changed(struct tui *t, double now)
{
	if (t->v.paused == t->was_paused)
		return;
	if (t->v.paused)
		t->rbase_t = t->rbase_t + (now - t->rbase_mono) * t->v.speed;
	t->rbase_mono = now;
	t->was_paused = t->v.paused;
	if (!t->opts->replay && !t->v.paused)
		t->wall_last = now - (t->m.now - t->m.t_last);
}

/*
 * The job's own record, once every event written is folded in: a job that ended without
 * an end event (cancelled, failed) stops the clock at its end instead of counting on
 * while the console stays open.
 */
static void
tui_over(struct tui *t)
{
	const struct tui_job *j = t->opts->job;
	char status[EV_TEXT_MAX];
	double end;

	/* every event in: read to the end, or no file at all (the job ended before any) */
	if (j == NULL || j->over == NULL || t->opts->replay || t->m.ended ||
	    (t->r != NULL && !t->eof) || t->have)
		return;
	if (j->over(j->dir, &end, status, sizeof status) == 1)
		model_over(&t->m, end, status);
}

/*
 * F9: start the cancel the user confirmed; say what it said once it has finished.
 * Returns 1 when there is something new to show.
 */
static int
tui_cancel(struct tui *t)
{
	const struct tui_job *j = t->opts->job;

	if (t->v.cancel == CANCEL_WANTED) {
		if (j == NULL || j->cancel_argv == NULL ||
		    tui_cancel_start(&t->cancel, j->cancel_argv) == -1) {
			snprintf(t->v.message, sizeof t->v.message, "cannot run the cancel: %s",
			    j == NULL || j->cancel_argv == NULL ? "no command" : strerror(errno));
			t->v.cancel = CANCEL_NONE;
			return 1;
		}
		t->v.cancel = CANCEL_RUNNING;
		return 1;
	}
	if (t->v.cancel == CANCEL_RUNNING &&
	    tui_cancel_poll(&t->cancel, t->v.message, sizeof t->v.message) == 1) {
		t->v.cancel = CANCEL_DONE;
		tui_over(t);
		return 1;
	}
	return 0;
}

/* Keys waiting in curses; returns 1 when any was handled. */
static int
tui_keys(struct tui *t)
{
	int ch, any = 0;

	while ((ch = getch()) != ERR) {
		view_key(&t->v, ch);
		any = 1;
		if (t->v.quit)
			break;
	}
	return any;
}

int
tui_follow(const char *events_path, const struct tui_opts *opts)
{
	struct tui t;
	struct pollfd pfd[2];
	double now, next_draw = 0, wait;
	int more = 0, rc, shown_end = 0, ret;
	char why[256];

	memset(&t, 0, sizeof t);
	t.path = events_path;
	t.opts = opts;
	model_init(&t.m);
	view_init(&t.v, &t.m);
	t.v.source = events_path;
	t.v.replay = opts->replay;
	t.v.speed = opts->speed > 0 ? opts->speed : 1;
	t.v.interval = opts->interval > 0 ? opts->interval : 1;
	t.v.job_id = !opts->replay && opts->job != NULL ? opts->job->id : NULL;
	if (opts->replay && (rc = tui_replay_check(events_path)) != 1)
		return rc == 0 ? TUI_NO_EVENTS : -1;

	t.r = evreader_open(events_path);
	if (t.r == NULL && (opts->replay || errno != ENOENT)) {
		log_warn("%s", events_path);
		return -1;
	}
	if (crt_init(!opts->no_color, why, sizeof why) == -1) {
		evreader_free(t.r);
		log_warnx("%s", why);
		return -1;
	}
	t.v.color = crt_color_on;
	t.v.utf8 = crt_utf8;
	t.rbase_mono = t.wall_last = clock_mono();

	for (;;) {
		now = clock_mono();
		if (t.r == NULL && (t.r = evreader_open(events_path)) == NULL && errno != ENOENT) {
			crt_done();
			log_warn("%s", events_path);
			ret = -1;
			goto out;
		}
		if (t.r != NULL)
			t.v.rs = evreader_stats(t.r);
		if ((rc = tui_ingest(&t, now)) < 0) {
			crt_done();
			log_warn("%s: read", events_path);
			ret = -1;
			goto out;
		}
		more = rc == 1;
		/* a relaunch took the end back: the next end is shown (and left at) again */
		if (!t.m.ended)
			shown_end = 0;
		tui_clock(&t, now);
		if (tui_cancel(&t))
			next_draw = now;
		if (now >= next_draw) {
			if (!opts->replay && opts->job != NULL) {
				model_plain(&t.m, opts->job->dir);
				model_nodes(&t.m, opts->job->dir);
			}
			tui_over(&t);
		}
		if (now >= next_draw || (t.m.ended && !shown_end)) {
			screen_draw(&t.v);
			next_draw = now + t.v.interval;
			if (t.m.ended && !shown_end) {
				shown_end = 1;
				if (opts->exit_at_end) {
					ret = TUI_ENDED;
					break;
				}
			}
		}
		wait = more ? 0 : next_draw - now;
		/* a running cancel is looked at often: its answer is what the user waits for */
		if (t.v.cancel == CANCEL_RUNNING && wait > 0.1)
			wait = 0.1;
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = crt_signal_fd();
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, wait > 0 ? (int)(wait * 1000) + 1 : 0) == -1 && errno != EINTR) {
			crt_done();
			log_warn("poll");
			ret = -1;
			goto out;
		}
		if (crt_signal() != 0) {
			ret = TUI_SIGNAL + crt_signal();
			break;
		}
		/* Also after EINTR: a SIGWINCH is read from curses as KEY_RESIZE. */
		if (tui_keys(&t)) {
			if (t.v.quit) {
				ret = t.m.ended ? TUI_ENDED : TUI_QUIT;
				break;
			}
			now = clock_mono();
			tui_pause_changed(&t, now);
			if (t.v.step)
				tui_ingest(&t, now);
			tui_clock(&t, now);
			tui_cancel(&t);
			screen_draw(&t.v);
		}
	}
	crt_done();
out:
	tui_cancel_leave(&t.cancel);
	event_clear(&t.ev);
	evreader_free(t.r);
	view_free(&t.v);
	model_free(&t.m);
	return ret;
}

int
tui_replay_check(const char *events_path)
{
	const struct evreader_stats *rs;
	struct evreader *r;
	struct event ev;
	int k;

	if ((r = evreader_open(events_path)) == NULL) {
		log_warn("%s", events_path);
		return -1;
	}
	memset(&ev, 0, sizeof ev);
	k = evreader_next(r, &ev);
	event_clear(&ev);
	rs = evreader_stats(r);
	if (k < 0)
		log_warn("%s: read", events_path);
	else if (k == 0 && rs->lines == 0 && rs->pending == 0)
		log_warnx("%s: no valid event to replay: the file is empty", events_path);
	else if (k == 0)
		log_warnx("%s: no valid event to replay: %lld line%s, %lld not an event record, "
		    "%lld of a kind this version does not know%s", events_path, rs->lines,
		    rs->lines == 1 ? "" : "s", rs->bad, rs->unknown, rs->pending > 0 ?
		    ", and an unfinished last line" : "");
	evreader_free(r);
	return k < 0 ? -1 : k;
}

int
tui_snapshot(const char *events_path, const struct tui_job *job, int json, FILE *f)
{
	struct evreader *r;
	struct model m;
	struct event ev;
	char status[EV_TEXT_MAX];
	double end;
	int k = 0, rc;

	/* a job's program without libgrt writes no events: its directory tells the rest */
	if ((r = evreader_open(events_path)) == NULL && (job == NULL || errno != ENOENT)) {
		log_warn("%s", events_path);
		return -1;
	}
	memset(&ev, 0, sizeof ev);
	model_init(&m);
	while (r != NULL && (k = evreader_next(r, &ev)) == 1)
		model_apply(&m, &ev);
	event_clear(&ev);
	if (job != NULL) {
		model_plain(&m, job->dir);
		model_nodes(&m, job->dir);
		if (job->over != NULL && job->over(job->dir, &end, status, sizeof status) == 1)
			model_over(&m, end, status);
	}
	if (k < 0) {
		log_warn("%s: read", events_path);
		rc = -1;
	} else {
		rc = json ? snapshot_json(&m, r != NULL ? evreader_stats(r) : NULL, f) :
		    snapshot_text(&m, r != NULL ? evreader_stats(r) : NULL, f);
		if (rc < 0)
			log_warn("write");
	}
	model_free(&m);
	if (r != NULL)
		evreader_free(r);
	return rc;
}
