/*
 * scheme-het.c — hetcalc and hetcomm, the iterative distribution of seed 000 (section 3),
 * and the folding of fed-back times into per-unit estimates that angss reuses.
 *
 * Rounds: one chunk per worker per round. Round 1 has no history: N split equally
 * (floor(N/P), the remainder one each to the first workers) or by PR when one is given
 * (largest remainder). Round j+1 (seed 000, 3.2):
 *   n_{j+1}(p_i) = mean(t_exe_j) / (t_calc_unit_j(p_i) + t_comm_unit_j(p_i))
 * with t_calc_unit = t_calc / n and t_comm_unit = (t_exe - t_calc) / n (hetcalc: t_calc_unit
 * only, the paper's "old" mechanism), normalised so the n_i sum to N and rounded by largest
 * remainder, ties to the lowest index. A measured worker whose n_i rounds to 0 cannot be
 * balanced: the scheme drops it for good (the master sends it the finish signal, 3.3).
 * The chunks are sent, and laid out from unit 0, in decreasing perf_f = n_j / t_exe_j of the
 * previous round (3.3), ties to the lower index.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

/* Round j's feedback into per-unit estimates, at the start of round j+1. */
void
sched_fold_feedback(struct grt_sched *s)
{
	double sum = 0, u;
	int i, m = 0;

	for (i = 0; i < s->nw; i++) {
		s->measured_now[i] = 0;
		/* a worker with no units this round keeps its previous per-unit times */
		if (s->fb_units[i] <= 0)
			continue;
		s->calc_unit[i] = s->fb_calc[i] / (double)s->fb_units[i];
		u = (s->fb_exe[i] - s->fb_calc[i]) / (double)s->fb_units[i];
		s->comm_unit[i] = u > 0 ? u : 0;
		s->perf_f[i] = s->fb_exe[i] > 0 ? (double)s->fb_units[i] / s->fb_exe[i] : HUGE_VAL;
		s->measured[i] = 1;
		s->measured_now[i] = 1;
		sum += s->fb_exe[i];
		m++;
	}
	s->mean_exe = m > 0 ? sum / m : 0;
}

/* Per-unit time of worker i as the rule sees it: t_calc, plus t_comm for hetcomm (comm). */
static double
sched_het_unit(const struct grt_sched *s, int i, int comm)
{
	double u = s->calc_unit[i];

	if (comm)
		u += s->comm_unit[i];
	return u;
}

/*
 * raw n_i = mean(t_exe) / u_i into s->speed. A worker never measured (it got no units so
 * far, e.g. N < P) is given the mean per-unit time of the measured ones; a measured time of
 * 0 (too fast to time) counts as the fastest positive one. Returns 0 when no worker has a
 * usable measurement, so the round is planned like the first one.
 */
static int
sched_het_raw(struct grt_sched *s)
{
	double u, umin = 0, usum = 0, mean;
	int i, npos = 0, comm = (s->ops->flags & SCHED_T_EXE) != 0;

	for (i = 0; i < s->nw; i++) {
		if (!sched_is_active(s, i) || !s->measured[i])
			continue;
		u = sched_het_unit(s, i, comm);
		if (u > 0 && isfinite(u)) {
			if (npos == 0 || u < umin)
				umin = u;
			usum += u;
			npos++;
		}
	}
	if (npos == 0)
		return 0;
	mean = s->mean_exe > 0 ? s->mean_exe : 1.0;	/* it cancels in the normalisation */
	for (i = 0; i < s->nw; i++) {
		s->speed[i] = 0;
		if (!sched_is_active(s, i))
			continue;
		if (!s->measured[i])
			u = usum / npos;
		else {
			u = sched_het_unit(s, i, comm);
			if (!(u > 0 && isfinite(u)))
				u = umin;
		}
		s->speed[i] = mean / u;
	}
	return 1;
}

/* Send order: measured last round by decreasing perf_f, then the other active, then the rest. */
static void
sched_het_order(struct grt_sched *s)
{
	int i, nk = 0, at = 0;

	for (i = 0; i < s->nw; i++)
		if (sched_is_active(s, i) && s->round > 1 && s->measured_now[i]) {
			s->keys[nk].key = s->perf_f[i];
			s->keys[nk].idx = i;
			nk++;
		}
	sched_sort_keys(s->keys, nk);
	for (i = 0; i < nk; i++)
		s->order[at++] = s->keys[i].idx;
	for (i = 0; i < s->nw; i++)
		if (sched_is_active(s, i) && !(s->round > 1 && s->measured_now[i]))
			s->order[at++] = i;
	for (i = 0; i < s->nw; i++)
		if (!sched_is_active(s, i))
			s->order[at++] = i;
}

static int
sched_het_check(const struct grt_sched_conf *conf, int nworkers)
{
	return sched_positive(conf->pr, nworkers);
}

static void
sched_het_begin(struct grt_sched *s)
{
	int i;

	if (s->round == 1 || !sched_het_raw(s))
		sched_split_largest(s, s->n, s->conf.pr, s->units, NULL);
	else {
		sched_split_largest(s, s->n, s->speed, s->units, s->share);
		for (i = 0; i < s->nw && s->n > 0; i++)
			if (sched_is_active(s, i) && s->measured[i] && s->units[i] == 0) {
				s->drop_round[i] = s->round;
				s->drop_share[i] = s->share[i];
				s->nactive--;
			}
	}
	sched_het_order(s);
	sched_layout(s, s->order, s->units);
}

const struct sched_ops sched_ops_hetcalc = {
	.name = "hetcalc",
	.flags = SCHED_ROUNDS,
	.check = sched_het_check,
	.begin_round = sched_het_begin,
};

const struct sched_ops sched_ops_hetcomm = {
	.name = "hetcomm",
	.flags = SCHED_ROUNDS | SCHED_T_EXE,
	.check = sched_het_check,
	.begin_round = sched_het_begin,
};
