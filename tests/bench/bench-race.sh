#!/bin/sh
# bench-race.sh — every scheme on two irregular loops, with a dedicated master and with a
# master that computes too (GRT_MASTER_COMPUTES=1): mpiexec -n 3 (master + 2 workers) on
# this host, rank 2 slowed 3x (--slow 2:3), and a rank map as gridsubmit's broker would
# write it for those speeds (lib-bench.sh; with a computing master rank 0 is a worker of
# speed 1 in it), so pwd and the weighted schemes get the right PR weights. The loops:
# mandelbrot rows (1000 x 1000, 1000 iterations) and synthetic (100000 units of
# exponentially distributed cost, mean 20 us, seed 1). synthetic's busy-loop rate is
# measured once up front and passed to every run (--iters-per-us), so every run does the
# same work whatever the machine is doing while it calibrates. Every run must pass --check.
#
# The machine is a shared VM whose speed drifts, so the runs are interleaved: repetition 1
# of every scheme in both master modes, then repetition 2, ... (BENCH_RACE_REPS, default
# 5), and each (loop, mode, scheme) reports its median makespan (the "end" event of its
# events.jsonl) and its efficiency T_LB / T against the divisible-load bound that
# bench-bound computes from the runs of the same loop and mode (doc/experiments.md, "The
# bound": the work and the ranks' speeds of the rank map; the smallest over the runs). Then, per loop and mode, libgrt's best scheme against the best of the
# peer family (wf, awf-b..e, af): ratio peer / libgrt, goal >= 1.05; and per loop gss with
# a computing master against gss with a dedicated one: ratio computing / dedicated, goal
# <= 1.05. A scheme this build does not know (its first run fails saying "unknown
# scheme") is skipped with a "#" note; any other failed run is reported and the script
# exits 1.
# Prints | area | what | value | baseline | ratio | goal | rows for tests/bench/run-bench.sh.
# BENCH_RACE_SCHEMES, BENCH_RACE_REPS, BENCH_RACE_SLOW, BENCH_RACE_MANDEL_ARGS and
# BENCH_RACE_SYNTH_ARGS override the setting.
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec}
SLOW=${BENCH_RACE_SLOW:-2:3}
SCHEMES=${BENCH_RACE_SCHEMES:-"static gss fss tss pss pwd pwd-speed hetcomm wf awf-b awf-c \
awf-d awf-e af"}
REPS=${BENCH_RACE_REPS:-5}
MANDEL_ARGS=${BENCH_RACE_MANDEL_ARGS:-"--size 1000 --iter 1000 --check"}
SYNTH_ARGS=${BENCH_RACE_SYNTH_ARGS:-"--units 100000 --mean-us 20 --seed 1 --check"}
MODES="dedicated computing"
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

for p in examples/mandelbrot examples/synthetic tests/bench/bench-bound; do
	if [ ! -x "$BUILD/$p" ]; then
		echo "bench-race: $BUILD/$p is not built (run make bench)" >&2
		exit 1
	fi
done
D=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-race.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT INT TERM
status=0
unknown=""
nruns=0
t0=$(date +%s)

# pss first: its one-unit chunks are the baseline of the rows that follow
RUN=pss
for s in $SCHEMES; do
	[ "$s" = pss ] || RUN="$RUN $s"
done

bench_rankmap 1 > "$D/rankmap.dedicated"
bench_rankmap 0 > "$D/rankmap.computing"

is_known() {
	case " $unknown " in
	*" $1 "*) return 1 ;;
	esac
	return 0
}

# run LOOP MODE SCHEME REP ARGS...: one run, its events in $D/LOOP.MODE.SCHEME.REP.jsonl
# (dots: pwd's files must not match pwd-speed's). A scheme the program calls unknown joins
# $unknown; any other failure is reported, sets status 1 and leaves no events behind, so
# that a wrong run does not count in the medians.
run() {
	loop=$1 mode=$2 s=$3 rep=$4
	shift 4
	ev="$D/$loop.$mode.$s.$rep.jsonl"
	GRT_MASTER_COMPUTES=0
	[ "$mode" = computing ] && GRT_MASTER_COMPUTES=1
	export GRT_MASTER_COMPUTES
	nruns=$((nruns + 1))
	if bench_mpirun "$ev" "$D/rankmap.$mode" "$loop" "$@" --scheme "$s"; then
		sed -e 's/^/# /' "$D/out"
		return 0
	fi
	rm -f "$ev"
	if grep -q "unknown scheme '$s'" "$D/err"; then
		echo "# race: this build does not know the scheme $s: skipped"
		unknown="$unknown $s"
		return 1
	fi
	echo "bench-race: $loop $s ($mode master, run $rep) failed:" >&2
	cat "$D/out" "$D/err" >&2
	status=1
	return 1
}

# synthetic's busy-loop rate on this host, from one run on one rank
synth_rate() {
	timeout -k 5 60 "$MPIEXEC" -n 1 "$BUILD/examples/synthetic" --units 1 2> "$D/err" |
	    sed -n 's/.* \([0-9.]*\) iterations\/us.*/\1/p'
}

median() {
	sort -g | awk '{ v[NR] = $1 }
	    END { if (NR > 0) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bound LOOP MODE LABEL: sets tlb to the T_LB of the loop and mode from all their runs
# (empty when bench-bound cannot compute it) and prints its notes
bound() {
	tlb=
	if [ -z "$(ls "$D/$1.$2".*.jsonl 2>/dev/null)" ]; then
		echo "# race: $3: no run passed: no bound"
		return
	fi
	if ! lb=$("$BUILD/tests/bench/bench-bound" "$D/rankmap.$2" "$D/$1.$2".*.jsonl); then
		status=1
		return
	fi
	first=$(printf '%s\n' "$lb" | grep -v '^#')
	tlb=${first%% *}
	printf '%s\n' "$lb" | grep '^#'
	echo "$first" | awk -v l="$3" '{ printf "# %s: W = %s s of the fastest rank, " \
	    "T_LB = %s s (the least of %d runs)\n", l, $2, $1, $3 }'
}

# report LOOP MODE LABEL: a row per scheme and the libgrt-against-peers row; the medians
# also go to $D/LOOP.MODE.med, "scheme median" a line
report() {
	loop=$1 mode=$2 what=$3
	bound "$loop" "$mode" "$what"
	: > "$D/$loop.$mode.med"
	for s in $RUN; do
		t=$(bench_makespans "$D/$loop.$mode.$s".*.jsonl | median)
		[ -n "$t" ] || continue
		echo "$s $t" >> "$D/$loop.$mode.med"
		awk -v l="$what" -v s="$s" -v t="$t" -v lb="$tlb" 'BEGIN {
			printf "| race | %s: %s median makespan | %.3f s | ", l, s, t
			if (lb == "")
				print "- | - | - |"
			else
				printf "T_LB %.3f s | %.2f | - |\n", lb, lb / t
		}'
	done
	if ! awk -v l="$what" '
	    $1 ~ /^(wf|awf-.*|af)$/ { if (ps == "" || $2 < pt) { pt = $2; ps = $1 }; next }
	    { if (ls == "" || $2 < lt) { lt = $2; ls = $1 } }
	    END {
		if (ls == "" || ps == "")
			exit 1
		printf "| race | %s: libgrt best (%s) vs peer best (%s), ratio peer/libgrt " \
		    "| %.3f s | %.3f s | %.2f | >= 1.05 |\n", l, ls, ps, lt, pt, pt / lt
	    }' "$D/$loop.$mode.med"; then
		echo "# race: $what: no median of libgrt's schemes or of the peers' (wf," \
		    "awf-b..e, af): no libgrt-against-peers row"
	fi
}

# gss_modes LOOP LABEL: gss with a computing master against gss with a dedicated one
gss_modes() {
	c=$(awk '$1 == "gss" { print $2 }' "$D/$1.computing.med")
	d=$(awk '$1 == "gss" { print $2 }' "$D/$1.dedicated.med")
	if [ -z "$c" ] || [ -z "$d" ]; then
		echo "# race: $2: gss did not finish in both master modes: no row"
		return
	fi
	awk -v l="$2" -v c="$c" -v d="$d" 'BEGIN {
		printf "| race | %s: gss, master computes vs dedicated | %.3f s | %.3f s | " \
		    "%.2f | <= 1.05 |\n", l, c, d, c / d
	}'
}

# race LOOP LABEL ARGS...: the interleaved runs of one loop, then its rows
race() {
	loop=$1 label=$2
	shift 2
	for rep in $(seq 1 "$REPS"); do
		for mode in $MODES; do
			for s in $RUN; do
				is_known "$s" && run "$loop" "$mode" "$s" "$rep" "$@"
			done
		done
	done
	for mode in $MODES; do
		report "$loop" "$mode" "$label, $mode master"
	done
	gss_modes "$loop" "$label"
}

if ! rate=$(synth_rate) || [ -z "$rate" ]; then
	echo "bench-race: synthetic cannot measure its busy-loop rate:" >&2
	cat "$D/err" >&2
	exit 1
fi
echo "# race: mpiexec -n 3 (master + 2 workers), --slow $SLOW, median of $REPS interleaved" \
    "runs; synthetic at $rate iterations/us"
# shellcheck disable=SC2086 # the argument lists are words to split
race mandelbrot "mandelbrot $(echo "$MANDEL_ARGS" | awk '{ print $2 }')" $MANDEL_ARGS
# shellcheck disable=SC2086 # as above
race synthetic "synthetic $(echo "$SYNTH_ARGS" | awk '{ print $2 }')" $SYNTH_ARGS \
    --iters-per-us "$rate"
echo "# race: $nruns runs in $(($(date +%s) - t0)) s"
exit $status
