# divisible-lb.awk — the divisible-load lower bound (doc/schemes.md, "The bound to measure
# against") from measured
# per-unit times, for tests/bench/bench-examples.sh and bench-race.sh.
#
# usage: awk -f divisible-lb.awk RUN1.jsonl RUN2.jsonl ...
# Input: the libgrt event files (events.jsonl, doc/runtime.md, "Events") of runs of one
# program with one setting (same units, same workers) under different schemes.
#
# A star: the master sends worker i a unit in c_i, the worker computes it in w_i, and
# returns its result in d_i. With W units, T_LB = W / rho*, where rho* is the best total
# rate: max sum r_i subject to r_i <= 1/w_i (worker i computes at most that fast) and
# sum r_i (c_i + d_i) <= 1 (one-port master: it moves one unit's data at a time). The LP
# is a fractional knapsack, solved greedily by increasing c_i + d_i: give each worker
# min(1/w_i, what is left of the port / (c_i + d_i)).
#
# Where the per-unit times come from:
#  - w_i = f_i x B, worker i's time for the mean unit. f_i, its slowness relative to the
#    fastest worker, is the ratio of the workers' mean t_calc per unit in the pss runs
#    (found by their start event): pss hands out one unit at a time in order, so every
#    worker samples all regions of an irregular loop (mandelbrot's rows) and the ratio is
#    not biased by which rows a big chunk happened to hold. B, the fastest worker's time
#    for the mean unit, is the smallest over the runs of sum_i t_calc_i / f_i / W (the
#    whole run's work in fastest-worker seconds, per unit): it does not depend on who got
#    which units, and the smallest is the least disturbed run (with three ranks on two
#    cores a master busy with many small chunks, as under pss, takes CPU from the workers;
#    under the rounds schemes it sleeps). Taking the fastest keeps T_LB a lower bound.
#  - c_i + d_i = the slope of a least-squares line t_comm = a_i + b_i * count over worker
#    i's chunks in every run given (chunk sizes from 1 to N/P): the per-unit transfer time.
#    The intercept a_i is a per-chunk cost (message latency, the polling of master and
#    worker, matmul form a's block of B that rides with every chunk): real, but not part of
#    the divisible-load model, so it stays out of the bound (T_LB stays a lower bound).
#  - W = the units of one run (N x rounds; the same in every run).
#  - A master that computes too (GRT_MASTER_COMPUTES=1) has chunk events as rank 0: it is a
#    worker like the others, with c_0 + d_0 = 0, since its own units never cross the port.
#    Its t_comm is not a transfer but the time it spent serving the other workers between
#    slices of its chunk (0 when it computes a chunk whole), so it is not fitted.
# Output: "T_LB W rho T_1" where T_1 = W / sum 1/(c_i + w_i) is the single-round optimum
# with independent links and no overlap (hetcomm's fixed point), then one "#" line per
# worker with its w_i and c_i + d_i.

function num(key,    re, s) {
	re = "\"" key "\":-?[0-9.eE+-]+"
	if (!match($0, re))
		return ""
	s = substr($0, RSTART, RLENGTH)
	sub(/^[^:]*:/, "", s)
	return s + 0
}

/"ev":"start"/ {
	pss[FILENAME] = $0 ~ /"scheme":"pss"/
}

/"ev":"chunk"/ {
	r = num("rank")
	x = num("count")
	y = num("t_comm")
	n[r]++
	sx[r] += x
	sy[r] += y
	sxx[r] += x * x
	sxy[r] += x * y
	ranks[r] = 1
	fu[FILENAME, r] += x
	fc[FILENAME, r] += num("t_calc")
	tot[FILENAME] += x
	files[FILENAME] = 1
	if (pss[FILENAME]) {
		pu[r] += x
		pc[r] += num("t_calc")
	}
}

END {
	W = 0
	for (f in files)
		if (tot[f] > W)
			W = tot[f]
	# f_i from the pss runs, relative to the fastest worker
	ref = -1
	for (r in ranks)
		if (pu[r] > 0 && (ref < 0 || pc[r] / pu[r] < ref))
			ref = pc[r] / pu[r]
	if (ref <= 0) {
		print "divisible-lb: no pss run to measure the workers' relative speeds" > "/dev/stderr"
		exit 1
	}
	# B: the least disturbed run's work per unit, in fastest-worker seconds
	B = -1
	for (f in files) {
		if (tot[f] != W)
			continue
		b = 0
		for (r in ranks)
			if (fu[f, r] > 0 && pu[r] <= 0)
				b = -1e30	# a worker pss never used: cannot scale it
			else if (fu[f, r] > 0)
				b += fc[f, r] / (pc[r] / pu[r] / ref)
		if (b > 0 && (B < 0 || b / W < B))
			B = b / W
	}
	nw = 0
	for (r in ranks) {
		if (pu[r] <= 0)
			continue
		w[r] = pc[r] / pu[r] / ref * B
		den = n[r] * sxx[r] - sx[r] * sx[r]
		c[r] = den > 0 ? (n[r] * sxy[r] - sx[r] * sy[r]) / den : 0
		if (c[r] < 0 || r == 0)
			c[r] = 0
		order[++nw] = r
	}
	if (nw == 0 || W <= 0 || B <= 0) {
		print "divisible-lb: no chunk events to measure" > "/dev/stderr"
		exit 1
	}
	# sort the workers by increasing c_i + d_i (insertion sort: a handful of workers)
	for (i = 2; i <= nw; i++)
		for (j = i; j > 1 && c[order[j]] < c[order[j - 1]]; j--) {
			t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
		}
	port = 1
	rho = 0
	inv1 = 0
	for (i = 1; i <= nw; i++) {
		r = order[i]
		ri = 1 / w[r]
		if (c[r] > 0 && ri * c[r] > port)
			ri = port / c[r]
		if (c[r] > 0)
			port -= ri * c[r]
		rho += ri
		inv1 += 1 / (c[r] + w[r])
	}
	printf "%.6f %d %.3f %.6f\n", W / rho, W, rho, W / inv1
	for (i = 1; i <= nw; i++) {
		r = order[i]
		printf "# rank %d: w %.3g s/unit, c+d %.3g s/unit over %d chunks\n", r, w[r], c[r], n[r]
	}
}
