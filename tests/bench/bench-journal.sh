#!/bin/sh
# bench-journal.sh — what libgrt's journal (GRT_JOURNAL, runtime/journal/grt-journal.h) costs a real
# application: matmul form a on localhost, a master and two workers (mpiexec -n 3, no
# slowdown), its makespan (the "end" event) with a fresh journal against without one.
# Goal (issue 15): journal on / off <= 1.05. Form a has a round per block of columns of B
# and the journal makes every round's end durable (fdatasync) before the next round
# starts: the order and block width give 18 rounds and a makespan of about 1.4 s here.
# This machine's speed jumps between modes, so the runs are interleaved in pairs (off then
# on, the next pair on then off) and the ratio is the median of the pairs' own ratios.
# Every run must say its C matches the sequential product; every journaled run must leave
# a journal, not lost, not resumed. The journal is on a real disk: the scratch directory
# is made under TMPDIR or /tmp, or /var/tmp when that is a tmpfs.
# BENCH_JOURNAL_ARGS (matmul's options) and BENCH_JOURNAL_PAIRS (default 7) override.
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec}
ARGS=${BENCH_JOURNAL_ARGS:-"--form a --n 1800 --bcols 100 --scheme gss"}
PAIRS=${BENCH_JOURNAL_PAIRS:-7}
# shellcheck disable=SC2034 # SLOW: read by lib-bench.sh (no rank slowed)
SLOW=1:1
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

if [ ! -x "$BUILD/examples/matmul" ]; then
	echo "bench-journal: $BUILD/examples/matmul is not built (run make)" >&2
	exit 1
fi
D=$(bench_disk_dir gs-bench-jrn) || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
bench_rankmap 1 > "$D/rankmap"

# run KIND PAIR: one run of matmul, KIND off or on (a fresh journal in $D/journal); its
# makespan to $D/KIND-PAIR
run() {
	kind=$1 pair=$2
	rm -f "$D/journal"
	if [ "$kind" = on ]; then
		GRT_JOURNAL="$D/journal"
		export GRT_JOURNAL
	else
		unset GRT_JOURNAL
	fi
	# shellcheck disable=SC2086 # ARGS: matmul's options, split on purpose
	if ! bench_mpirun "$D/ev.jsonl" "$D/rankmap" matmul $ARGS; then
		echo "bench-journal: matmul, journal $kind, failed:" >&2
		cat "$D/out" "$D/err" >&2
		return 1
	fi
	if [ "$kind" = on ]; then
		if [ ! -s "$D/journal" ] || grep -q '"journal":"lost"\|"ev":"resume"' "$D/ev.jsonl"
		then
			echo "bench-journal: matmul, journal on: no journal, lost or resumed:" >&2
			cat "$D/out" "$D/err" "$D/ev.jsonl" >&2
			return 1
		fi
		wc -c < "$D/journal" > "$D/bytes"
	fi
	bench_makespans "$D/ev.jsonl" > "$D/$kind-$pair"
	[ -s "$D/$kind-$pair" ]
}

echo "# bench-journal: matmul $ARGS, mpiexec -n 3, $PAIRS pairs; journal in $D, on $(bench_fs "$D")"
for p in $(seq 1 "$PAIRS"); do
	if [ $((p % 2)) -eq 1 ]; then
		run off "$p" && run on "$p"
	else
		run on "$p" && run off "$p"
	fi || exit 1
	off=$(cat "$D/off-$p") on=$(cat "$D/on-$p")
	echo "$off $on" >> "$D/pairs"
	awk -v p="$p" -v a="$off" -v b="$on" 'BEGIN {
		printf "#   pair %d: off %.3f s, on %.3f s, ratio %.3f\n", p, a, b, b / a
	}'
done
rounds=$(sed -n 's/.* \([0-9]*\) rounds of.*/\1/p' "$D/out")
# the median of each kind and of the pairs' ratios
sort -g -k 1,1 "$D/pairs" | awk '{ print $1 }' > "$D/offs"
sort -g -k 2,2 "$D/pairs" | awk '{ print $2 }' > "$D/ons"
awk '{ print $2 / $1 }' "$D/pairs" | sort -g > "$D/ratios"
mid=$(( (PAIRS + 1) / 2 ))
off=$(sed -n "${mid}p" "$D/offs") on=$(sed -n "${mid}p" "$D/ons")
ratio=$(sed -n "${mid}p" "$D/ratios")
awk -v a="$off" -v b="$on" -v r="$ratio" -v bytes="$(cat "$D/bytes")" -v rounds="$rounds" 'BEGIN {
	printf "| libgrt | matmul form a makespan, journal on | %.3f s | baseline journal off " \
	    "%.3f s | %.3f | <= 1.05 |\n", b, a, r
	printf "# journal: %.1f MB per run (%d rounds: %.0f KB made durable at each round'"'"'s " \
	    "end), %.1f ms per round at the median ratio\n", bytes / 1e6, rounds,
	    bytes / rounds / 1024, (r - 1) * a / rounds * 1e3
	if (r > 1.05)
		printf "# matmul form a makespan, journal on: ratio %.3f misses the goal 1.05\n", r
}'
