#!/bin/sh
# bench-examples.sh — mandelbrot and matmul form a on localhost with a master and two
# workers slowed differently (--slow 1:1,2:3: rank 2 repeats every unit three times), under
# static, gss, fss, tss, pwd, hetcalc and hetcomm (and pss, whose one-unit chunks help the
# measurement): each scheme's makespan (the "end" event of its events.jsonl) and its
# efficiency T_LB / T against the divisible-load bound (doc/experiments.md, "The bound"),
# computed by bench-bound (the function simulate and experiments use) from the work and
# the ranks' speeds (the rank map's cpu_mhz) of these same runs: the smallest over them.
# The ranks get a rank map as gridsubmit's broker would write it for nodes whose CPU clocks
# differ as the slow factors say (PR and cpu_mhz proportional to 1/factor): without one,
# pwd, wstatic and ngss would place their static part equally. Each run is repeated
# BENCH_REPS times (default 2; the machine is shared) and the shortest makespan counts.
# Prints | area | what | value | baseline | ratio | goal | rows for tests/bench/run-bench.sh.
# BENCH_SLOW, BENCH_REPS, BENCH_MANDEL_ARGS and BENCH_MATMUL_ARGS override the setting.
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec}
SLOW=${BENCH_SLOW:-1:1,2:3}
MANDEL_ARGS=${BENCH_MANDEL_ARGS:-"--size 1000 --iter 1000 --check"}
MATMUL_ARGS=${BENCH_MATMUL_ARGS:-"--form a --n 1000 --bcols 100"}
REPS=${BENCH_REPS:-2}
SCHEMES="static gss fss tss pwd hetcalc hetcomm"
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

for p in examples/mandelbrot examples/matmul tests/bench/bench-bound; do
	if [ ! -x "$BUILD/$p" ]; then
		echo "bench-examples: $BUILD/$p is not built (run make bench)" >&2
		exit 1
	fi
done
D=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-ex.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT INT TERM
status=0

bench_rankmap 1 > "$D/rankmap"

# run PROG SCHEME REP ARGS...: one run, its events in $D/PROG-SCHEME-REP.jsonl; the result
# must match the sequential computation
run() {
	prog=$1 s=$2 rep=$3
	shift 3
	if ! bench_mpirun "$D/$prog-$s-$rep.jsonl" "$D/rankmap" "$prog" "$@" --scheme "$s"; then
		echo "bench-examples: $prog $s failed:" >&2
		cat "$D/out" "$D/err" >&2
		status=1
		return 1
	fi
	sed -e 's/^/# /' "$D/out"
}

# the shortest makespan of the "end" events of the runs of PROG under SCHEME
makespan() {
	bench_makespans "$D/$1-$2"-*.jsonl | sort -g | head -n 1
}

bench() {
	prog=$1 label=$2
	shift 2
	run "$prog" pss 1 "$@" || return
	for rep in $(seq 2 "$REPS"); do
		run "$prog" pss "$rep" "$@"
	done
	for rep in $(seq 1 "$REPS"); do
		for s in $SCHEMES; do
			run "$prog" "$s" "$rep" "$@"
		done
	done
	if ! lb=$("$BUILD/tests/bench/bench-bound" "$D/rankmap" "$D/$prog"-*.jsonl); then
		status=1
		return
	fi
	printf '%s\n' "$lb" | grep '^#'
	set -- $(printf '%s\n' "$lb" | grep -v '^#')
	tlb=$1
	echo "# $label: W = $2 s of the fastest rank's computing, T_LB = $tlb s (the least of $3 runs)"
	for s in pss $SCHEMES; do
		t=$(makespan "$prog" "$s")
		[ -n "$t" ] || continue
		awk -v l="$label" -v s="$s" -v t="$t" -v lb="$tlb" 'BEGIN {
			printf "| examples | %s %s makespan | %.3f s | T_LB %.3f s | %.2f | - |\n",
			    l, s, t, lb, lb / t
		}'
	done
}

echo "# examples: mpiexec -n 3 (master + 2 workers), --slow $SLOW, best of $REPS"
bench mandelbrot "mandelbrot $(echo "$MANDEL_ARGS" | awk '{ print $2 }')" $MANDEL_ARGS
bench matmul "matmul a $(echo "$MATMUL_ARGS" | awk '{ print $4 }')" $MATMUL_ARGS
exit $status
