#!/bin/sh
# bench-deadline.sh — the time from a worker's silence to its requeue (issue 35; doc/runtime.md,
# "Failures"): grt-check on 4 ranks here, launched as gridsubmit launches them
# (gridsubmit-rank, -disable-auto-cleanup), css chunks of about 0.2 s; once rank 2 has
# answered two chunks it is SIGSTOPped (its process stays, so hydra gives no hint), the
# time taken just before. The time to its `fail` event comes from the event's t (counted
# from GRT_T0, the launch's wall clock). Twice: with the default, adaptive deadline, and with
# GRT_DEADLINE=60 (the fixed floor that was the default before); 5 trials each
# (BENCH_DEADLINE_TRIALS), the median and the largest. Every trial must end with the right
# result and rank 2 failed.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec}
SRC=$(pwd)
case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
CHECK=$B/tests/runtime/mpi/grt-check
RANKEXEC=$B/gridsubmit-rank
TRIALS=${BENCH_DEADLINE_TRIALS:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-dl.XXXXXX") || exit 1
export UCX_NET_DEVICES=lo
. tests/bench/lib-bench.sh
ev=$T/ev.jsonl
. tests/runtime/lib-grt-run.sh
cleanup() {
	kill_own
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
unset GRT_SCHEME GRT_ALPHA GRT_SWR GRT_DEADLINE GRT_EVENTS GRT_JOB GRT_RANKMAP \
	GRT_EVENTS_CHUNKS GRT_MASTER_COMPUTES GRT_PREFETCH GRT_ROUNDS GRT_JOURNAL
for f in "$CHECK" "$RANKEXEC"; do
	[ -x "$f" ] || { echo "bench-deadline: $f is not built (make tests)" >&2; exit 1; }
done

# two_chunks EVENTS: rank 2 has answered two chunks
two_chunks() {
	c=$(jq -s '[.[] | select(.ev == "chunk" and .rank == 2)] | length' "$1" 2>/dev/null)
	[ "${c:-0}" -ge 2 ] 2>/dev/null
}

# trial DEADLINE: one run (DEADLINE empty: the default); prints the seconds from the stop to
# the fail event, or fails
trial() {
	rm -f "$ev" "$T/st"
	t0=$(bench_now)
	env GRT_T0="$t0" GRT_K=10 GRT_EVENTS="$ev" ${1:+GRT_DEADLINE=$1} timeout -k 5 120 \
		"$MPIEXEC" -disable-auto-cleanup -n 4 "$RANKEXEC" --status "$T/st" -- "$CHECK" \
		--scheme css --units 600 --work-us 20000 > "$T/out" 2>&1 &
	pid=$!
	n=0
	while ! two_chunks "$ev" && [ $n -lt 600 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	p=$(rank_pid 2) || return 1
	ts=$(bench_now)
	kill -STOP "$p"
	n=0
	while [ ! -s "$T/st" ] && [ $n -lt 2400 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	for q in $(own_pids); do
		kill -KILL "$q" 2> /dev/null
	done
	wait $pid 2> /dev/null
	if ! grep -q "grt-check: ok: .*failed 1," "$T/out"; then
		tail -n 5 "$T/out" >&2
		return 1
	fi
	tf=$(jq -s '[.[] | select(.ev == "fail" and .rank == 2) | .t][0]' "$ev")
	[ "$tf" != null ] || return 1
	awk -v a="$t0" -v f="$tf" -v s="$ts" 'BEGIN { printf "%.2f\n", a + f - s }'
}

: > "$T/new"
: > "$T/old"
i=0
while [ $i -lt "$TRIALS" ]; do
	trial "" >> "$T/new" || { echo "bench-deadline: a trial failed (default)" >&2; exit 1; }
	trial 60 >> "$T/old" || { echo "bench-deadline: a trial failed (60 s)" >&2; exit 1; }
	i=$((i + 1))
done
new=$(bench_median < "$T/new")
old=$(bench_median < "$T/old")
echo "# bench-deadline: default: $(tr '\n' ' ' < "$T/new")s; GRT_DEADLINE=60: $(tr '\n' ' ' < "$T/old")s"
ratio=$(awk -v a="$new" -v b="$old" 'BEGIN { printf "%.3f", a / b }')
echo "| runtime | silent worker (SIGSTOP, chunks of 0.2 s) to its requeue, median of $TRIALS (max $(sort -g "$T/new" | tail -n 1)) | $new s | $old s (deadline 60) | $ratio | < 5 s |"
