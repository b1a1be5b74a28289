/* screen-help.c — F1: what the keys do and what the meters mean. */
#include "screen.h"

static const char *const help_lines[] = {
	"gridsubmit top - the live console of a job (doc/console.md has the formulas)",
	"",
	"  F1 ? h      this help                 Up Down PgUp PgDn Home End  move",
	"  F3 /        search (F3 again: next)   Enter   details of a rank, fold a site",
	"  F4 \\        filter (Esc clears)       F5 f    fold or unfold a site",
	"  F6 > <      sort column               I       invert the sort",
	"  Space p     pause                     n .     step one event (pauses)",
	"  + -         refresh interval          Ctrl-L  redraw",
	"  q F10       quit",
	"",
	"Bar: # compute (t_calc)  ~ communication (t_comm)  . idle, on the elapsed time",
	"Imbalance: (max - mean) / max of t_calc + t_comm over the live workers",
	"Calc:Comm: sum t_calc / sum t_comm    PERF_F: units / t_exe, last round or chunk",
	"RATE: units per second over the job, one scale for all ranks",
	"State: working = a result came within 3 chunk times; waiting otherwise",
	"",
	"Press any key to return.",
};

void
screen_help_draw(struct view *v, int h, int w)
{
	int i, n = (int)(sizeof help_lines / sizeof help_lines[0]);

	(void)v;
	for (i = 0; i < n && i < h; i++)
		screen_put(i, 0, w, i == 0 ? crt_attr(C_VALUE) : A_NORMAL, help_lines[i]);
}
