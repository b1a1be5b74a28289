#!/bin/sh
# bench-experiment.sh — what `gridsubmit experiment` costs per run (issue "make bench: the
# experiment runner's own time per run"): an experiment of one point repeated N times,
# sequential, no plots, timed whole (its final reports included), against N bare
# `gridsubmit run` of the same job one after the other, in one run. The job is mandelbrot
# (3 ranks, gss) on the embedded localhost site file, about 0.35 s a run. Goal: per run,
# experiment / bare < 1.05. This machine's speed jumps between modes, so the two batches
# are interleaved in trials (bare then experiment, the next trial experiment then bare) and
# the ratio is the median of the trials' own ratios, with their range. Also: the time of
# each batch outside its jobs (the batch's time minus the sum of its jobs' submitted..ended
# in state.json), per run: the store's transactions (synchronous=FULL), the fork of the
# child, the reports, against what a bare run spends outside its job (exec, load, exit).
# The store is on a real disk (GRIDSUBMIT_HOME in a 0700 directory made by bench_disk_dir).
# BENCH_EXPERIMENT_RUNS (N, default 20), BENCH_EXPERIMENT_TRIALS (default 5) and
# BENCH_EXPERIMENT_SIZE (the image's side, default 768) override.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
N=${BENCH_EXPERIMENT_RUNS:-20}
TRIALS=${BENCH_EXPERIMENT_TRIALS:-5}
SIZE=${BENCH_EXPERIMENT_SIZE:-768}
SRC=$(pwd)
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

MANDEL=$SRC/$BUILD/examples/mandelbrot
if [ ! -x "$MANDEL" ] || [ ! -x "$GS" ]; then
	echo "bench-experiment: $GS or $MANDEL is not built (run make)" >&2
	exit 1
fi
D=$(bench_disk_dir gs-bench-exp) || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
export GRIDSUBMIT_HOME="$D/home"
export NO_COLOR=1
J=$GRIDSUBMIT_HOME/jobs

now() { date +%s.%N; }

cat > "$D/job.yaml" <<EOF
name: bench-experiment
program: $MANDEL
args: ["--size", "$SIZE", "--out", "m.pgm"]
ranks: 3
# the master and two workers whatever this host's cores, as the numbers before were taken
oversubscribe: true
runtime: {scheme: gss}
EOF

# expfile NAME RUNS: an experiment NAME of one point (a free parameter giving the same args
# as the job's), RUNS runs, sequential, no plots
expfile() {
	cat > "$D/$1.yaml" <<EOF
name: $1
job: job.yaml
matrix:
  size: [$SIZE]
args: ["--size", "{size}", "--out", "m.pgm"]
repeat: $2
order: sequential
EOF
}

# bare: N runs of `gridsubmit run JOB`, one after the other
bare() {
	for _ in $(seq 1 "$N"); do
		"$GS" run "$D/job.yaml" > "$D/bare.out" 2>&1 || {
			echo "bench-experiment: gridsubmit run failed:" >&2
			cat "$D/bare.out" >&2
			return 1
		}
	done
}

# experiment NAME: `gridsubmit experiment` of the file NAME.yaml
experiment() {
	"$GS" experiment "$D/$1.yaml" > "$D/exp.out" 2>&1 || {
		echo "bench-experiment: gridsubmit experiment $1 failed:" >&2
		cat "$D/exp.out" >&2
		return 1
	}
}

# batch_times KIND TRIAL T0 T1 FIRST LAST: one line "KIND TRIAL total walls lead gap tail"
# of a batch from T0 to T1 whose jobs are FIRST..LAST: its time, the sum of its jobs'
# submitted..ended, from T0 to the first submitted, the mean time from a job's end to the
# next one's submitted, from the last end to T1 (seconds)
batch_times() {
	for id in $(seq "$5" "$6"); do
		jq -r '"\(.submitted) \(.ended)"' "$J/$id/state.json"
	done | awk -v kind="$1" -v trial="$2" -v t0="$3" -v t1="$4" '
	# ISO 8601 UTC with milliseconds to seconds since the epoch
	function epoch(s,   y, m, d, era, yoe, doy) {
		y = substr(s, 1, 4) + 0; m = substr(s, 6, 2) + 0; d = substr(s, 9, 2) + 0
		# days since 1970-01-01 (civil calendar: H. Hinnant, days_from_civil)
		y -= m <= 2
		era = int(y / 400); yoe = y - era * 400
		doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
		d = era * 146097 + yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy - 719468
		return d * 86400 + substr(s, 12, 2) * 3600 + substr(s, 15, 2) * 60 + \
		    substr(s, 18, 6)
	}
	{
		s = epoch($1); e = epoch($2)
		walls += e - s
		if (NR == 1) first = s
		else gaps += s - last
		last = e
	}
	END {
		printf "%s %s %.6f %.6f %.6f %.6f %.6f\n", kind, trial, t1 - t0, walls,
		    first - t0, (NR > 1 ? gaps / (NR - 1) : 0), t1 - last
	}'
}

# batch KIND TRIAL: one measured batch of KIND (bare or exp), its line to $D/batches
batch() {
	first=$(cat "$J/next-id")
	if [ "$1" = exp ]; then
		expfile "bench-exp-$2" "$N"
		t0=$(now)
		experiment "bench-exp-$2" || return 1
	else
		t0=$(now)
		bare || return 1
	fi
	t1=$(now)
	last=$(($(cat "$J/next-id") - 1))
	[ $((last - first + 1)) -eq "$N" ] ||
		{ echo "bench-experiment: $1 made jobs $first..$last, not $N" >&2; return 1; }
	batch_times "$1" "$2" "$t0" "$t1" "$first" "$last" >> "$D/batches"
}

echo "# bench-experiment: mandelbrot --size $SIZE, 3 ranks, gss, localhost; $N runs a batch," \
	"$TRIALS trials; store in $D, on $(bench_fs "$D")"
# unmeasured: page cache, the first job directory and store
"$GS" run "$D/job.yaml" > "$D/bare.out" 2>&1 ||
	{ echo "bench-experiment: gridsubmit run failed:" >&2; cat "$D/bare.out" >&2; exit 1; }
expfile bench-exp-warm 1
experiment bench-exp-warm || exit 1

: > "$D/batches"
for t in $(seq 1 "$TRIALS"); do
	if [ $((t % 2)) -eq 1 ]; then
		batch bare "$t" && batch exp "$t"
	else
		batch exp "$t" && batch bare "$t"
	fi || exit 1
	awk -v t="$t" -v n="$N" '$2 == t { v[$1] = $3; o[$1] = $3 - $4 } END {
		printf "#   trial %d: per run bare %.3f s, experiment %.3f s, ratio %.3f; " \
		    "outside jobs %.1f ms, %.1f ms\n", t, v["bare"] / n, v["exp"] / n,
		    v["exp"] / v["bare"], o["bare"] / n * 1e3, o["exp"] / n * 1e3
	}' "$D/batches"
done

# the medians over the trials of each kind and of the trials' ratios; the ratios' range
awk -v n="$N" -v size="$SIZE" -v trials="$TRIALS" '
function median(a, k,   i, j, x) {
	for (i = 2; i <= k; i++)	# insertion sort: a few values
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function med(kind, col,   i, a) {
	for (i = 1; i <= trials; i++) a[i] = b[kind, i, col]
	return median(a, trials)
}
{ for (c = 3; c <= 7; c++) b[$1, $2, c] = $c }
END {
	lo = 1e9; hi = 0
	for (i = 1; i <= trials; i++) {
		r[i] = b["exp", i, 3] / b["bare", i, 3]
		ro[i] = (b["exp", i, 3] - b["exp", i, 4]) - (b["bare", i, 3] - b["bare", i, 4])
		if (r[i] < lo) lo = r[i]
		if (r[i] > hi) hi = r[i]
	}
	ratio = median(r, trials)
	extra = median(ro, trials) / n * 1e3
	eb = med("bare", 3) / n; ee = med("exp", 3) / n
	ob = (med("bare", 3) - med("bare", 4)) / n * 1e3
	oe = (med("exp", 3) - med("exp", 4)) / n * 1e3
	printf "| experiment | time per run, 1 point x %d runs, mandelbrot %d, 3 ranks " \
	    "(localhost) | %.3f s | %.3f s (bare gridsubmit run x %d) | %.3f (%.3f-%.3f) | " \
	    "< 1.05 |\n", n, size, ee, eb, n, ratio, lo, hi
	printf "| experiment | time per run outside its job (store, fork, reports) | %.1f ms | " \
	    "%.1f ms (bare run: exec, load, exit) | %.2f | - |\n", oe, ob, oe / ob
	printf "# experiment: median of the trials: the runner adds %.1f ms a run outside " \
	    "jobs to what a bare run spends there (%.1f%% of a bare run)\n", extra,
	    extra / 1e3 / eb * 100
	printf "# experiment: the jobs themselves (submitted..ended) %.3f s a run (bare %.3f s)\n",
	    med("exp", 4) / n, med("bare", 4) / n
	printf "# experiment: from the batch start to the first job %.1f ms (bare %.1f ms), " \
	    "between jobs %.1f ms (bare %.1f ms), from the last job to the end %.1f ms " \
	    "(bare %.1f ms; the experiment writes its reports there)\n",
	    med("exp", 5) * 1e3, med("bare", 5) * 1e3, med("exp", 6) * 1e3,
	    med("bare", 6) * 1e3, med("exp", 7) * 1e3, med("bare", 7) * 1e3
	if (ratio >= 1.05)
		printf "# experiment: time per run, ratio %.3f misses the goal 1.05\n", ratio
}' "$D/batches"
